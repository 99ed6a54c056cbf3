// Proves in the real terminal that the kill switch's footer is drawn at every boundary while the file is there, and the real state comes back at the first boundary after it is gone.
/**
 * SPEC 0.5 §7: with a kill switch present, every boundary at which the loop would draw its footer draws
 * `todo loop off` — a run that ended while the switch was on must not leave the footer empty or stale —
 * and the first boundary or command after the switch is removed draws the real state again. The real
 * `pi` under tmux with the scripted model and rpiv-todo; the switch is `<agent dir>/todo-loop-off`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTasks, requests, sandbox, say } from "../e2e/harness.ts";
import { quit, startPi, statusRow, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("a run that ends with the kill switch present leaves 'todo loop off' in the footer without /todoloop; the first command or message after the file is removed draws the real state", { timeout: 90_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const script = [createTasks("Write the parser", "Add tests"), say("Stopping here."), { ...say("Hello."), delayMs: 3000 }];
  const box = sandbox({ script, settings: TERMINAL_SETTINGS });
  const off = join(box.agentDir, "todo-loop-off");
  writeFileSync(off, "");
  const terminal = await startPi(box);
  try {
    submit(terminal, "Write the parser and its tests");
    await terminal.waitFor(/Stopping here\./, 30_000, "the first run's reply");
    // The run has ended (the switch holds the loop: no continuation); give pi its settle.
    await sleep(1500);
    const ended = statusRow(terminal.screen());
    t.diagnostic(`footer after the run that ended under the switch: ${JSON.stringify(ended)} (requests ${requests(box).length})`);
    assert.equal(requests(box).length, 2, "the switch continued nothing");
    assert.equal(ended, "todo loop off", "the run's end draws the switch's footer, no /todoloop needed");

    submit(terminal, "/todoloop");
    const status = await terminal.waitFor(/DISABLED/, 10_000, "/todoloop says DISABLED");
    assert.equal(statusRow(status), "todo loop off");

    rmSync(off);
    // The first command after removal — any /todoloop, here the verification's — draws the real state.
    submit(terminal, "/todoloop verify");
    const command = await terminal.waitFor((screen) => /todo 2 of 2 open/.test(statusRow(screen)), 5000, "the real footer at the first command").catch(() => terminal.screen());
    t.diagnostic(`footer at the first command after the file was removed: ${JSON.stringify(statusRow(command))}`);
    assert.match(statusRow(command), /todo 2 of 2 open/);

    writeFileSync(off, "");
    submit(terminal, "/todoloop verify");
    await terminal.waitFor((screen) => statusRow(screen) === "todo loop off", 5000, "todo loop off at the first command that sees the switch again");
    rmSync(off);
    submit(terminal, "Hello there");
    // The reply takes 3 s: the footer is read while it is written, at the message's start.
    const back = await terminal.waitFor((screen) => /todo 2 of 2 open/.test(statusRow(screen)), 2500, "the real footer once the switch is gone").catch(() => terminal.screen());
    const backFooter = statusRow(back);
    t.diagnostic(`footer at the first message after the file was removed: ${JSON.stringify(backFooter)}`);
    assert.match(backFooter, /todo 2 of 2 open/, "the real state, at the message's start");
    await terminal.waitFor(/Hello\./, 30_000, "the second reply");
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});
