// Proves in the real terminal that a stop writes the desktop notification's exact bytes (OSC 777 through tmux).
/**
 * The desktop notification in the real terminal UI (SPEC 0.3 §7.1): pi runs under tmux, which sets
 * `$TMUX` (and `TERM_PROGRAM=tmux`), so the loop writes OSC 777 wrapped in tmux's passthrough
 * (`ESC P tmux ; … ESC \`, then BEL). What pi writes to the terminal is read raw with `pipe-pane -o`,
 * not from the screen (tmux swallows the notification itself unless `allow-passthrough` is on).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callTools, createTasks, FINISH_TWO, PLAN_TWO, sandbox, say, sessionEntries, stopData, updateTasks } from "../e2e/harness.ts";
import type { ScriptStep } from "../e2e/harness.ts";
import { quit, startPi, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

const PASSTHROUGH = "\x1bPtmux;";
const PASSTHROUGH_END = "\x1b\\\x07";
const OSC_777 = "\x1b\x1b]777;notify;pi: todo loop;";

/** Starts copying every byte the program in the pane writes to `file` (tmux `pipe-pane -o`). */
function captureRaw(terminal: Terminal, file: string): void {
  execFileSync("tmux", ["-L", terminal.socket, "pipe-pane", "-o", "-t", "main", `cat >> '${file}'`]);
}

/** What pi wrote so far, byte for byte (latin1: one character per byte). */
function raw(file: string): string {
  return existsSync(file) ? readFileSync(file).toString("latin1") : "";
}

/** The tmux passthrough sequences in the raw output, each from `ESC P tmux ;` to its `ESC \` BEL. */
function passthroughs(bytes: string): string[] {
  const found: string[] = [];
  let at = bytes.indexOf(PASSTHROUGH);
  while (at >= 0) {
    // The end is the first ESC \ whose ESC is not doubled: inside, every ESC comes in a pair.
    let index = at + PASSTHROUGH.length;
    while (index < bytes.length) {
      if (bytes.startsWith("\x1b\x1b", index)) index += 2;
      else if (bytes[index] === "\x1b") break;
      else index++;
    }
    found.push(bytes.slice(at, index + PASSTHROUGH_END.length));
    at = bytes.indexOf(PASSTHROUGH, index);
  }
  return found;
}

async function untilRaw(file: string, what: string, match: (bytes: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const bytes = raw(file);
    if (match(bytes)) return bytes;
    if (Date.now() > deadline) throw new Error(`pi did not write ${what} within ${timeoutMs} ms; raw output ends: ${JSON.stringify(bytes.slice(-2000))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function scenario(script: ScriptStep[], body: (terminal: Terminal, file: string, box: ReturnType<typeof sandbox>) => Promise<void>): Promise<void> {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const box = sandbox({ script, settings: TERMINAL_SETTINGS });
  const file = join(box.root, "pane.raw");
  const terminal = await startPi(box);
  try {
    captureRaw(terminal, file);
    await body(terminal, file, box);
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
}

test("an idle stop writes the tmux-wrapped OSC 777 notification to the terminal: fixed text first, every ESC doubled, then one BEL", { timeout: 60_000 }, async (t) => {
  const script = [PLAN_TWO, say("Stopping here."), say("Still stopping."), say("Stopping again.")];
  await scenario(script, async (terminal, file, box) => {
    submit(terminal, "Write the parser");
    await terminal.waitFor(/todo loop stopped: the agent stopped 3 times/, 30_000, "the idle stop line");
    const bytes = await untilRaw(file, "the notification", (text) => text.includes(PASSTHROUGH));
    const found = passthroughs(bytes);
    assert.deepEqual(found, [`${PASSTHROUGH}${OSC_777}stopped: the agent stopped 3 times in a row without doing anything, 2 of 2 tasks open\x07${PASSTHROUGH_END}`]);
    assert.equal(bytes.split("]777;").length - 1, 1, "exactly one notification");
    assert.deepEqual(stopData(sessionEntries(box)).map((data) => data.kind), ["idle"]);
    t.diagnostic(`raw output ${bytes.length} bytes; notification ${JSON.stringify(found[0])}`);
  });
});

test("a clear list under the default writes no notification to the terminal; with notify all it does", { timeout: 60_000 }, async (t) => {
  const script = [PLAN_TWO, FINISH_TWO, say("All done."), createTasks("Write the docs"), updateTasks([3]), say("Done too.")];
  await scenario(script, async (terminal, file, box) => {
    submit(terminal, "Write the parser");
    await terminal.waitFor(/todo loop stopped: list is clear/, 30_000, "the clear stop line");
    // The stop line is drawn from the record appended at agent_settled, where the notification would be written.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = raw(file);
    assert.ok(before.length > 0, "the capture is running");
    assert.equal(before.includes("]777;"), false, "the default: no notification for a clear list");
    assert.deepEqual(passthroughs(before), []);
    // The config is read again at every decision: "all" lets the next clear list out.
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notify: "all" }));
    submit(terminal, "Now the docs");
    const bytes = await untilRaw(file, "the clear list's notification", (text) => text.includes(PASSTHROUGH));
    assert.deepEqual(passthroughs(bytes), [`${PASSTHROUGH}${OSC_777}stopped: list is clear\x07${PASSTHROUGH_END}`]);
    assert.deepEqual(stopData(sessionEntries(box)).map((data) => data.kind), ["clear", "clear"]);
    t.diagnostic(`raw output ${before.length} bytes without a notification; then ${JSON.stringify(passthroughs(bytes)[0])}`);
  });
});

test("a hostile block reason holding BEL, ESC \\, ST and C1 bytes cannot end the notification early or open a sequence of its own", { timeout: 60_000 }, async (t) => {
  const hostile = "key\x07 one\x1b\\ two\u009c three\u009b31m four\u0090five\x1b]0;owned\x07 six\u0085seven";
  const script: ScriptStep[] = [PLAN_TWO, callTools({ name: "todo_loop_block", args: { reason: hostile } }), say("Waiting for you.")];
  await scenario(script, async (terminal, file, box) => {
    submit(terminal, "Write the parser");
    await terminal.waitFor(/waiting for you/, 30_000, "the wait");
    const bytes = await untilRaw(file, "the notification", (text) => text.includes(PASSTHROUGH));
    const found = passthroughs(bytes);
    assert.equal(found.length, 1, JSON.stringify(found));
    const sequence = found[0] ?? "";
    assert.ok(sequence.startsWith(`${PASSTHROUGH}${OSC_777}waiting for you: `), JSON.stringify(sequence));
    assert.ok(sequence.endsWith(`, 2 of 2 tasks open\x07${PASSTHROUGH_END}`), JSON.stringify(sequence));
    const inner = sequence.slice(PASSTHROUGH.length, -PASSTHROUGH_END.length);
    assert.doesNotMatch(inner.replace(/\x1b\x1b/g, ""), /\x1b/, "no single ESC inside the passthrough");
    assert.equal(inner.split("\x07").length - 1, 1, "one BEL inside: the OSC's own terminator, at its end");
    assert.ok(inner.endsWith("\x07"));
    assert.doesNotMatch(inner, /\xc2[\x80-\x9f]/, "no C1 character (UTF-8 C2 80–C2 9F) inside");
    assert.doesNotMatch(bytes, /\x1b\]0;owned/, "the model's own OSC never reaches the terminal");
    assert.deepEqual(stopData(sessionEntries(box)).map((data) => data.kind), ["waiting"]);
    t.diagnostic(`notification ${JSON.stringify(sequence)}`);
  });
});

test("a broken config shows one warning in the terminal, naming the file and the key, however many turns follow", { timeout: 60_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const script: ScriptStep[] = [say("Hello there."), say("Hi again.")];
  const box = sandbox({ script, settings: TERMINAL_SETTINGS, config: { maxCost: -1 } });
  const terminal = await startPi(box);
  try {
    submit(terminal, "Hello");
    await terminal.waitFor(/Hello there\./, 30_000, "the first reply");
    submit(terminal, "Again");
    const screen = await terminal.waitFor(/Hi again\./, 30_000, "the second reply");
    const warnings = screen.split("\n").filter((row) => row.includes("config problem in"));
    assert.equal(warnings.length, 1, screen);
    assert.match(screen, /maxCost is negative \(-1\); using no limit/);
    assert.ok(warnings[0]?.includes(`config problem in ${join(box.agentDir, "todo-loop.json")}: maxCost`), "the file and the key are named");
    t.diagnostic(`warning rows: ${warnings.length}: ${warnings[0]?.trim()}`);
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});
