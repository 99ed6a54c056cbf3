// Proves in the real terminal that with the transcript off nothing is drawn and the stop is a notification.
/**
 * The transcript setting (SPEC §3, §7, §8) in the real terminal UI: with `"transcript": false` in the
 * config, continuations leave no line (their markers are hidden), stop records draw nothing, and the
 * stop is announced the other way, as a notification.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createTasks, markers, sandbox, say, sessionEntries, stops, updateTasks } from "../e2e/harness.ts";
import { assertOnScreen, countRows, quit, rowsStartingWith, startPi, statusRow, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";

const PROMPT = "Write the parser";

test("with the transcript off no continuation or stop line shows; the stop is notified instead", { timeout: 60_000 }, async () => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const script = [createTasks("Write the parser"), say("Stopping here."), updateTasks([1]), say("All done.")];
  const box = sandbox({ script, settings: TERMINAL_SETTINGS, config: { transcript: false } });
  const terminal = await startPi(box);
  try {
    submit(terminal, PROMPT);
    const screen = await terminal.waitFor(/todo loop stopped: list is clear/, 30_000, "the stop notification");
    assertOnScreen(screen, PROMPT);
    assert.deepEqual(rowsStartingWith(screen, "↻"), []);
    assert.deepEqual(rowsStartingWith(screen, "■"), []);
    assert.equal(countRows(screen, "todo loop stopped: list is clear"), 1);
    assert.equal(countRows(screen, "Continue with the open tasks"), 0, "a hidden marker shows nothing");
    assert.doesNotMatch(statusRow(screen), /todo/);
    await quit(terminal);
    const entries = sessionEntries(box);
    assert.deepEqual(markers(entries).map((entry) => entry.display), [false]);
    assert.equal(stops(entries).length, 1, "the stop is still recorded");
  } finally {
    terminal.stop();
    box.cleanup();
  }
});
