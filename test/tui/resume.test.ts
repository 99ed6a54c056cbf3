// Proves in the real terminal that a run killed mid-list and resumed with pi -c asks once whether to continue: yes runs once, no runs nothing, /reload and /new never ask.
/**
 * SPEC §4.21 in pi's interactive mode: pi is killed with SIGKILL while a continuation's request is in
 * flight, then started again with `pi -c`. The dialog `The last run stopped with 2 of 2 tasks open when
 * pi exited. Continue now?` shows once; Yes is `/todoloop continue` (one control record, one marker, the
 * list finished); No changes nothing, and neither `/reload` nor `/new` asks again.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { controlData, FINISH_TWO, markerDetails, PLAN_TWO, requests, sandbox, say, sessionEntries, stopData, userMessageIds } from "../e2e/harness.ts";
import type { Sandbox, ScriptStep } from "../e2e/harness.ts";
import { countRows, quit, startPi, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

const QUESTION = "The last run stopped with 2 of 2 tasks open when pi exited. Continue now?";
const TITLE = "Continue the todo list?";
const DYING: ScriptStep[] = [PLAN_TWO, say("Stop one."), { text: "Still thinking.", delayMs: 60_000 }];
const REST: ScriptStep[] = [FINISH_TWO, say("All done.")];

const boxes: Sandbox[] = [];
const terminals: Terminal[] = [];
after(() => {
  for (const terminal of terminals) terminal.stop();
  for (const box of boxes) box.cleanup();
});

/** The pi process in the terminal's pane: the pane's own process, or the child it runs pi as. */
function piPid(terminal: Terminal): number {
  const pane = Number(execFileSync("tmux", ["-L", terminal.socket, "display-message", "-p", "-t", "main", "#{pane_pid}"], { encoding: "utf8" }).trim());
  const isPi = (pid: number): boolean => {
    try {
      // pi names its process `pi` (process.title), which replaces the command line Linux shows.
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return args[0] === "pi" || args.some((arg) => arg.endsWith("cli.js"));
    } catch {
      return false;
    }
  };
  if (isPi(pane)) return pane;
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[1]);
      if (ppid === pane && isPi(Number(name))) return Number(name);
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error(`no pi process under the pane ${pane}`);
}

async function until(what: string, done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A first run killed with `signal` (SIGKILL unless said) mid-list, then `pi -c` started on it with the rest of the script. */
async function killedThenResumed(signal: NodeJS.Signals = "SIGKILL"): Promise<{ box: Sandbox; terminal: Terminal }> {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const box = sandbox({ script: DYING, settings: TERMINAL_SETTINGS });
  boxes.push(box);
  const first = await startPi(box);
  terminals.push(first);
  submit(first, "Do the work");
  await until("the continuation's request in flight", () => requests(box).length === 3);
  process.kill(piPid(first), signal);
  await first.waitForExit(10_000);
  first.stop();
  if (signal === "SIGKILL") assert.equal(sessionEntries(box).at(-1)?.customType, "todo-loop:continue", "the branch ends on the marker: nothing is written after a SIGKILL");
  writeFileSync(box.scriptPath, JSON.stringify(REST));
  const terminal = await startPi(box, { args: ["-c"] });
  terminals.push(terminal);
  return { box, terminal };
}

test("pi -c after a SIGKILL mid-list shows the dialog once; Yes is /todoloop continue: one marker, the list finished", { timeout: 120_000 }, async (t) => {
  const { box, terminal } = await killedThenResumed();
  const asked = await terminal.waitFor((screen) => screen.includes(QUESTION), 20_000, "the resume dialog");
  assert.equal(countRows(asked, TITLE), 1);
  assert.equal(requests(box).length, 3, "nothing runs before the answer");
  terminal.keys("Enter");
  await terminal.waitFor(/All done\./, 30_000, "the run the answer started");
  await until("the run's stop record", () => stopData(sessionEntries(box)).length > 0);
  const entries = sessionEntries(box);
  const [anchor] = userMessageIds(entries);
  assert.equal(requests(box).length, 5);
  assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, anchor], [2, anchor]], "one marker more, counted as a round");
  assert.deepEqual(controlData(entries), [{ v: 1, action: "continue", anchor }], "exactly what /todoloop continue records");
  assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
  assert.ok(!terminal.screen().includes(QUESTION), "the dialog is gone");
  t.diagnostic(`yes: dialogs 1, requests ${requests(box).length}, markers ${markerDetails(entries).length}, controls ${controlData(entries).length}, records ${stopData(entries).map((stop) => stop.kind).join("+")}`);
  await quit(terminal);
});

test("No changes nothing; /reload and /new never ask again", { timeout: 120_000 }, async (t) => {
  const { box, terminal } = await killedThenResumed();
  await terminal.waitFor((screen) => screen.includes(QUESTION), 20_000, "the resume dialog");
  terminal.keys("Down");
  terminal.keys("Enter");
  await terminal.waitFor((screen) => !screen.includes(QUESTION), 10_000, "the dialog closed");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(requests(box).length, 3, "no run");
  assert.equal(markerDetails(sessionEntries(box)).length, 1, "no marker");
  assert.deepEqual(controlData(sessionEntries(box)), [], "no control record");

  submit(terminal, "/reload");
  await terminal.waitFor(/Reloaded/, 20_000, "the reload done");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.ok(!terminal.screen().includes(QUESTION), "/reload does not ask");

  submit(terminal, "/new");
  await terminal.waitFor(/New session started/, 20_000, "the new session");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.ok(!terminal.screen().includes(QUESTION), "/new does not ask");
  assert.equal(requests(box).length, 3, "still no run");
  t.diagnostic(`no: dialogs 1, requests ${requests(box).length}, markers ${markerDetails(sessionEntries(box)).length}; /reload and /new: 0 dialogs`);
  await quit(terminal);
});

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  test(`${signal} mid-list: pi aborts the run while shutting down, the loop records it as a shutdown (not an Escape), and pi -c asks`, { timeout: 120_000 }, async (t) => {
    const { box, terminal } = await killedThenResumed(signal);
    const [stop] = stopData(sessionEntries(box));
    assert.deepEqual(
      { kind: stop?.kind, reason: stop?.reason, shutdown: (stop as { shutdown?: unknown } | undefined)?.shutdown },
      { kind: "outcome", reason: "stopped: pi was shut down during the run (SIGTERM or SIGHUP)", shutdown: true },
    );
    await terminal.waitFor((screen) => screen.includes(QUESTION), 20_000, "the resume dialog");
    terminal.keys("Escape");
    await terminal.waitFor((screen) => !screen.includes(QUESTION), 10_000, "the dialog closed");
    assert.equal(requests(box).length, 3, "Escape on the dialog is no");
    t.diagnostic(`${signal}: record outcome shutdown, dialogs 1, requests ${requests(box).length}`);
    await quit(terminal);
  });
}

test("a usage limit in the terminal: the transcript line and the footer give the time, and the timer continues the run then", { timeout: 120_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const limit: ScriptStep = { stopReason: "error", errorMessage: '429 {"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}' };
  const box = sandbox({ script: [PLAN_TWO, limit, FINISH_TWO, say("All done.")], settings: TERMINAL_SETTINGS, config: { maxLimitWaitMinutes: 0.1 } });
  boxes.push(box);
  const terminal = await startPi(box);
  terminals.push(terminal);
  submit(terminal, "Do the work");
  const waiting = await terminal.waitFor((screen) => /todo loop: resumes at \d\d:\d\d · todo 2 of 2 open/.test(screen), 30_000, "the footer with the time");
  assert.match(waiting, /todo loop waiting for the usage limit: continuing at \d\d:\d\d \(in under a minute\) · \/todoloop pause to cancel/);
  assert.equal(requests(box).length, 2);
  const settledAt = Date.now();
  await terminal.waitFor(/All done\./, 30_000, "the run the timer continued");
  const waited = Date.now() - settledAt;
  const entries = sessionEntries(box);
  assert.equal(requests(box).length, 4);
  assert.equal(markerDetails(entries).length, 1, "one continuation");
  assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit-wait", "clear"]);
  t.diagnostic(`terminal: requests ${requests(box).length}, markers 1, records limit-wait+clear, continued about ${waited} ms after the footer showed the wait (wait 6000 ms)`);
  await quit(terminal);
});
