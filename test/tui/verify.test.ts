// Proves in the real terminal that verification shows in the footer and as one line per run, never its output.
/**
 * Verified done in the real terminal (SPEC §4.16, §7): while the verification command runs the footer
 * says so; a failed run shows as one ✗ line with the exit code and the continuation count, never the
 * output or the nudge; the verified stop shows as one ✓ line.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callTools, createTasks, sandbox, say, updateTasks } from "../e2e/harness.ts";
import type { Sandbox, ScriptStep } from "../e2e/harness.ts";
import { assertOnScreen, quit, rowsStartingWith, startPi, statusRow, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

const PROMPT = "Write the parser";
const SCRIPT: ScriptStep[] = [
  createTasks("Write the parser"),
  updateTasks([1]),
  say("All done."),
  callTools({ name: "bash", args: { command: "echo fixing" } }),
  say("Fixed it."),
];

let box: Sandbox | undefined;
let terminal: Terminal | undefined;
let captures: { running: string; done: string } | undefined;
let failure: unknown;

before(async () => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH");
  box = sandbox({ script: SCRIPT, settings: TERMINAL_SETTINGS });
  try {
    const check = join(box.root, "check.sh");
    writeFileSync(check, `#!/bin/sh\nif [ -f "${box.root}/ran-once" ]; then echo "all green"; exit 0; fi\ntouch "${box.root}/ran-once"\nsleep 2\necho "HIDDEN-OUTPUT-LINE"\nexit 1\n`);
    chmodSync(check, 0o755);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: check }));
    terminal = await startPi(box);
    submit(terminal, PROMPT);
    const running = await terminal.waitFor((screen) => statusRow(screen).includes("todo loop: verifying"), 30_000, "the footer while the command runs");
    const done = await terminal.waitFor((screen) => rowsStartingWith(screen, "✓ todo loop stopped: list is clear").length > 0, 30_000, "the verified stop line");
    assertOnScreen(done, PROMPT);
    await quit(terminal);
    captures = { running, done };
  } catch (error) {
    failure = error;
  }
}, { timeout: 90_000 });

after(() => {
  terminal?.stop();
  box?.cleanup();
});

function screens(): { running: string; done: string } {
  if (failure !== undefined) throw failure;
  assert.ok(captures, "the scenario did not run");
  return captures;
}

test("while the verification command runs the footer reads 'todo loop: verifying · <command>'", () => {
  assert.match(statusRow(screens().running), /todo loop: verifying · \S*check\.sh/);
});

test("a failed verification shows as one ✗ line with the exit code, the time and the continuation, never its output or the nudge", () => {
  const { done } = screens();
  const failed = rowsStartingWith(done, "✗ todo loop: ");
  assert.equal(failed.length, 1, done);
  assert.match(failed[0] ?? "", /^✗ todo loop: \S*check\.sh failed \(exit 1, \d+ s\) · continue 1$/);
  assert.ok(!done.includes("HIDDEN-OUTPUT-LINE"), "the output is for the model, not the transcript");
  assert.ok(!done.includes("verification command failed"), "the nudge's text is not shown");
});

test("the verified clear shows as one ✓ line naming the command and its time, and the footer is gone", () => {
  const { done } = screens();
  const passed = rowsStartingWith(done, "✓ todo loop stopped: list is clear");
  assert.equal(passed.length, 1);
  assert.match(passed[0] ?? "", /^✓ todo loop stopped: list is clear · \S*check\.sh passed \(\d+ s\)$/);
  assert.ok(!statusRow(done).includes("todo"), "no footer once the list is verified clear");
});
