// Proves in the real terminal that a narrow footer still says the loop waits, and the approve dialog defaults to no.
/**
 * What the person reads and answers in the real terminal (SPEC §7 and §8, 0.4): at 40 columns the footer
 * still says the loop waits for them (the state comes first); the `/todoloop verify approve` dialog has
 * the safe answer selected, so one Enter approves nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTasks, sandbox, say } from "../e2e/harness.ts";
import { quit, rows, startPi, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";

test("at 40 columns the footer of a wait reads 'todo loop: waiting for you' — the state survives the cut", { timeout: 90_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const box = sandbox({ script: [createTasks("Write the parser", "Write the tests"), say("Which database should I use?")], settings: TERMINAL_SETTINGS });
  const terminal = await startPi(box, { width: 40 });
  try {
    submit(terminal, "Plan it");
    // At 40 columns pi drops the model from its stats row: the extension status is the last row.
    const lastRow = (text: string): string => rows(text).filter((row) => row.trim() !== "").at(-1)?.trim() ?? "";
    const screen = await terminal.waitFor((text) => lastRow(text).startsWith("todo loop: waiting for you"), 30_000, "the waiting footer at 40 columns");
    t.diagnostic(`footer at 40 columns: ${lastRow(screen)}`);
    assert.ok(rows(screen).every((row) => [...row].length <= 40));
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});

test("/todoloop verify approve: the dialog shows the directory and the command with 'No' selected — one Enter approves nothing", { timeout: 90_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const box = sandbox({ script: [], settings: TERMINAL_SETTINGS });
  mkdirSync(join(box.cwd, ".pi"), { recursive: true });
  writeFileSync(join(box.cwd, ".pi", "todo-loop.json"), JSON.stringify({ verify: "npm test" }));
  const terminal = await startPi(box);
  try {
    submit(terminal, "/todoloop verify approve");
    const dialog = await terminal.waitFor(/Approve this project's verification command\?/, 15_000, "the approve dialog");
    t.diagnostic(rows(dialog).filter((row) => /Approve|Directory|Command|No, do not|Yes, approve/.test(row)).map((row) => row.trim()).join("\n"));
    const no = rows(dialog).find((row) => row.includes("No, do not approve it")) ?? "";
    const yes = rows(dialog).find((row) => row.includes("Yes, approve this command")) ?? "";
    assert.match(no, /→/, `the safe answer is the selected one:\n${dialog}`);
    assert.doesNotMatch(yes, /→/);
    assert.ok(dialog.includes('Command: "npm test"'), dialog);
    terminal.keys("Enter");
    await terminal.waitFor(/todo loop: not approved/, 10_000, "not approved after one Enter");
    assert.equal(existsSync(join(box.agentDir, "todo-loop-approved.json")), false, "no approval written");
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});
