// Proves in the real terminal that the footer reads the wait on background work, then goes on when its result arrives.
/**
 * Waiting on work in flight (SPEC §4.17, §7) in the real terminal UI: with a background job from the
 * stand-in source (pi-processes' events and message) running, the agent's stop leaves no continuation
 * line and the footer reads `todo loop: waiting on 1 background job · todo 2 of 2 open`; when the job's
 * result message arrives the run goes on and the list is finished.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FINISH_TWO, markers, PLAN_TWO, sandbox, say, sessionEntries, stops } from "../e2e/harness.ts";
import type { ScriptStep } from "../e2e/harness.ts";
import { quit, rowsStartingWith, startPi, statusRow, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";

const WORK_SOURCE = join(dirname(fileURLToPath(import.meta.url)), "..", "e2e", "stand-ins", "work-source.ts");
const WAITING = "todo loop: waiting on 1 background job · todo 2 of 2 open";

test("the footer reads the wait on a background job; its result message carries the run on", { timeout: 90_000 }, async () => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const script: ScriptStep[] = [
    PLAN_TWO,
    { text: "Starting the build in the background.", calls: [{ name: "start_background_work", args: { id: "build" } }] },
    say("The build runs in the background; I will go on when it reports."),
    FINISH_TWO,
    say("Both tasks are done."),
  ];
  const box = sandbox({ script, settings: TERMINAL_SETTINGS, env: { PI_TODO_LOOP_E2E_WORK_SOURCE: "pi-processes", PI_TODO_LOOP_E2E_WORK_MS: "6000" } });
  const terminal = await startPi(box, { args: ["-e", WORK_SOURCE] });
  try {
    submit(terminal, "Start the build and finish the list");
    const waiting = await terminal.waitFor((screen) => statusRow(screen).includes(WAITING), 30_000, "the footer waiting on the job");
    assert.deepEqual(rowsStartingWith(waiting, "↻"), [], "no continuation while the job runs");
    assert.deepEqual(rowsStartingWith(waiting, "■"), [], "no stop line while the job runs");
    const done = await terminal.waitFor(/todo loop stopped: list is clear/, 30_000, "the list finished after the job's result");
    assert.doesNotMatch(statusRow(done), /waiting on/);
    await quit(terminal);
    const entries = sessionEntries(box);
    assert.equal(markers(entries).length, 0, "the job's own message carried the run");
    assert.deepEqual(stops(entries).map((entry) => (entry.data as { kind?: string }).kind), ["clear"]);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});
