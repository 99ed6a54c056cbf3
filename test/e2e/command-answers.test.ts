// Proves on the real host that every /todoloop word answers with a line in print mode, on stderr, resume as pause does.
/**
 * SPEC §7 (0.5): `/todoloop resume` always answers with a line, as `pause` does, in every mode. In print
 * mode (`pi -p "/todoloop …"`) there is no UI to notify: each word's answer is one stderr line, pi exits
 * 0, stdout stays empty. (RPC and the TUI answer with a notify: rpc-commands, tui/first-minutes.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseArgs, extensionArgs, runPi, sandbox, SCENARIO_TIMEOUT_MS } from "./harness.ts";

const ANSWERS: ReadonlyArray<readonly [string, string]> = [
  ["pause", "todo loop: paused by user"],
  ["resume", "todo loop: resumed: no task is open now; the loop goes on when the agent next stops with tasks open"],
  ["bogus", 'todo loop: unknown sub-command "bogus". Usage: /todoloop [status|pause|resume|reset|continue|report|verify [approve|forget]]'],
];

test("pi -p: /todoloop pause, resume and an unknown word each answer one stderr line; exit 0, nothing on stdout", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  for (const [word, answer] of ANSWERS) {
    const box = sandbox({ script: [] });
    try {
      const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", `/todoloop ${word}`]);
      t.diagnostic(`/todoloop ${word}: exit ${run.code}, stdout ${JSON.stringify(run.stdout)}, stderr ${JSON.stringify(run.stderr)}`);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "");
      assert.deepEqual(run.stderr.split("\n").filter(Boolean), [answer], word);
    } finally {
      box.cleanup();
    }
  }
});
