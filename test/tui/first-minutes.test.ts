// Proves in the real terminal what a person sees in the first ten minutes: the footer, /todoloop's words, the notice.
/**
 * The first ten minutes in the real terminal UI (SPEC §7, 0.3: "After a stop", "Words a person can
 * use", "No todo tool"): the real `pi` under tmux with the scripted model, read back from the screen.
 * After an idle stop and after a limit stop the footer names the stop instead of the running count; a
 * new message shows `continue 0` while its first request is still under way; `/todoloop pause` typed
 * in full takes one Enter; `/todoloop resume` says what happens next; and without a todo tool the first
 * start says so, once, not again on `/reload`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createTasks, sandbox, say, updateTasks } from "../e2e/harness.ts";
import { countRows, quit, startPi, statusRow, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";

/** The loop's footer: pi's extension status row. */
function footerOf(screen: string): string {
  return statusRow(screen);
}

test("after an idle stop the footer names it first (todo loop stopped: without doing anything); /todoloop pause takes one Enter; resume says what happens next; a new message shows continue 0 at once", { timeout: 90_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const script = [
    createTasks("Write the parser", "Add tests"),
    say("The parser is next; stopping."),
    say("Still thinking; stopping."),
    say("Nothing more from me."),
    // The second message: its first reply (a todo call, so the list is this message's too) takes a
    // while, so the footer can be read before it ends.
    { ...updateTasks([1, 2]), delayMs: 6000 },
    say("All done."),
  ];
  const box = sandbox({ script, settings: TERMINAL_SETTINGS });
  const terminal = await startPi(box);
  try {
    submit(terminal, "Write the parser and its tests");
    const idle = await terminal.waitFor((screen) => footerOf(screen).includes("stopped: without doing anything"), 30_000, "the footer after the idle stop");
    const idleFooter = footerOf(idle);
    t.diagnostic(`footer after the idle stop: ${idleFooter}`);
    assert.ok(idleFooter.includes("todo loop stopped: without doing anything · todo 2 of 2 open"), idleFooter);
    assert.doesNotMatch(idleFooter, /continue \d/, "not the running count");

    // `/todoloop pause` typed in full, then ONE Enter: it runs (no completion list to accept first).
    submit(terminal, "/todoloop pause");
    const paused = await terminal.waitFor((screen) => footerOf(screen).includes("todo loop paused"), 10_000, "todo loop paused after one Enter");
    assert.ok(countRows(paused, "todo loop: paused by user") >= 1, "the pause was answered");
    t.diagnostic(`footer after /todoloop pause + one Enter: ${footerOf(paused)}`);

    submit(terminal, "/todoloop resume");
    const resumed = await terminal.waitFor(/resumed: the loop goes on when the agent next stops; \/todoloop continue starts it now/, 10_000, "what resume says");
    assert.ok(resumed.length > 0);

    submit(terminal, "Now finish both");
    const fresh = await terminal.waitFor((screen) => footerOf(screen).includes("continue 0"), 5000, "continue 0 right after the new message");
    const freshFooter = footerOf(fresh);
    t.diagnostic(`footer right after the new message: ${freshFooter}`);
    assert.ok(freshFooter.includes("todo 2 of 2 open · continue 0"), freshFooter);
    assert.ok(countRows(fresh, "Working.") === 0, "read while the first reply of the new message is still under way");
    await terminal.waitFor(/todo loop stopped: list is clear/, 30_000, "the second message's clear stop");
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});

test("after a limit stop the footer names it (stopped: limit), and /todoloop continue past the cap never reads continue 2/1", { timeout: 60_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const script = [createTasks("Write the parser", "Add tests"), say("Stopping here."), say("Stopping again."), updateTasks([1, 2]), say("All done.")];
  const box = sandbox({ script, settings: TERMINAL_SETTINGS, config: { maxRounds: 1 } });
  const terminal = await startPi(box);
  try {
    submit(terminal, "Write the parser and its tests");
    const limit = await terminal.waitFor((screen) => footerOf(screen).includes("stopped: limit"), 30_000, "the footer after the limit stop");
    const limitFooter = footerOf(limit);
    t.diagnostic(`footer after the limit stop: ${limitFooter}`);
    assert.ok(limitFooter.includes("todo loop stopped: limit · todo 2 of 2 open"), limitFooter);
    assert.ok(countRows(limit, "■ todo loop stopped: 1 continuation used, 2 tasks still open") === 1, "the stop line");
    submit(terminal, "/todoloop continue");
    const past = await terminal.waitFor(/continue 2 \(limit 1, at your request\)/, 15_000, "the continuation past the cap");
    assert.doesNotMatch(past, /continue 2\/1/);
    t.diagnostic(`past the cap: ${past.split("\n").filter((row) => row.includes("at your request")).map((row) => row.trim()).join(" | ")}`);
    await terminal.waitFor(/todo loop stopped: list is clear/, 30_000, "the clear stop");
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});

test("with no todo tool installed the first interactive start says so once, with how to install one; /reload does not repeat it", { timeout: 60_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const box = sandbox({ script: [], settings: TERMINAL_SETTINGS });
  const terminal = await startPi(box, { todo: null });
  try {
    const first = await terminal.waitFor(/no todo tool is installed/, 15_000, "the no-todo-tool notice");
    const notice = first.split("\n").filter((row) => row.includes("no todo tool is installed"));
    t.diagnostic(`notice: ${notice.map((row) => row.trim()).join(" ")}`);
    assert.equal(notice.length, 1);
    assert.match(first.replace(/\s+/g, " "), /pi install npm:@juicesharp\/rpiv-todo/);
    submit(terminal, "/reload");
    await terminal.waitFor(/[Rr]eloaded/, 20_000, "the reload done");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // /reload redraws the screen from the session: the notice is gone, and not shown again.
    const after = terminal.screen();
    assert.equal(countRows(after, "no todo tool is installed"), 0, `not repeated on /reload:\n${after}`);
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});
