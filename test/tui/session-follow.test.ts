// Proves in the real terminal that the footer follows the session after /tree navigation.
/**
 * The footer follows the session in the real terminal (SPEC 0.3 §7): after `/tree` navigation to a
 * branch with no list the loop's footer is gone from pi's status row, and it comes back on the branch
 * with the open list. (`/e2e-tree <id>` navigates with `ctx.navigateTree`, as `/tree` does, and pi fires
 * `session_tree` after it.)
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { PLAN_TWO, sandbox, say, sessionEntries } from "../e2e/harness.ts";
import type { Sandbox, ScriptStep } from "../e2e/harness.ts";
import { quit, startPi, statusRow, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

const SCRIPT: ScriptStep[] = [say("Hello there."), PLAN_TWO, say("Stop one."), say("Stop two.")];

let box: Sandbox | undefined;
let terminal: Terminal | undefined;

after(() => {
  terminal?.stop();
  box?.cleanup();
});

test("the footer follows /tree in the terminal: a branch with no list clears it, the branch with the list shows it again", { timeout: 90_000 }, async () => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  box = sandbox({ script: SCRIPT, settings: TERMINAL_SETTINGS, config: { maxRounds: 1 } });
  terminal = await startPi(box);
  submit(terminal, "Hi");
  await terminal.waitFor(/Hello there\./, 30_000, "the first reply");
  submit(terminal, "Do the work");
  const open = await terminal.waitFor((screen) => statusRow(screen).includes("todo 2 of 2 open"), 30_000, "the footer with the open list");
  assert.match(statusRow(open), /todo 2 of 2 open/);
  const entries = sessionEntries(box);
  const hello = entries.find((entry) => entry.message?.role === "assistant" && JSON.stringify(entry.message.content).includes("Hello there."));
  const leaf = entries.at(-1);
  assert.ok(hello?.id && leaf?.id);

  submit(terminal, `/e2e-tree ${hello.id}`);
  const moved = await terminal.waitFor((screen) => screen.includes(`e2e-tree: ${hello.id}`), 20_000, "the tree move");
  const cleared = statusRow(moved).includes("todo") ? await terminal.waitFor((screen) => !statusRow(screen).includes("todo"), 5_000, "the footer cleared on a branch with no list") : moved;
  assert.ok(!statusRow(cleared).includes("todo"), `the loop's footer is gone: ${statusRow(cleared)}`);

  submit(terminal, `/e2e-tree ${leaf.id}`);
  const back = await terminal.waitFor((screen) => statusRow(screen).includes("todo 2 of 2 open"), 20_000, "the footer back on the list's branch");
  assert.match(statusRow(back), /todo 2 of 2 open/);
  await quit(terminal);
});
