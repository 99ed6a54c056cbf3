// Proves on the real host that a misspelt config key names the key it meant and a number too large is named as written.
/**
 * SPEC §7 and §8 (0.5), what a person reads in print mode: a config file `{ "maxRound": 3, "maxCost":
 * 1e400 }` gives the stderr lines `unknown key "maxRound" — did you mean "maxRounds"?` and `maxCost …
 * (1e400 is too large)`, never `Infinity`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseArgs, extensionArgs, runPi, sandbox, SCENARIO_TIMEOUT_MS } from "./harness.ts";

test("pi -p with a misspelt key and 1e400 in the config: stderr names maxRounds and 1e400 as written", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const box = sandbox({ script: [], config: '{ "maxRound": 3, "maxCost": 1e400 }' });
  try {
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "/todoloop pause"]);
    const lines = run.stderr.split("\n").filter((line) => line.includes("todo-loop.json"));
    t.diagnostic(`exit ${run.code}, config lines ${JSON.stringify(lines)}`);
    assert.equal(run.code, 0);
    assert.equal(lines.length, 2, run.stderr);
    assert.ok(lines[0]?.endsWith('unknown key "maxRound" — did you mean "maxRounds"?'), lines[0]);
    assert.ok(lines[1]?.endsWith("maxCost must be a positive number or null (1e400 is too large); using no limit"), lines[1]);
    assert.doesNotMatch(run.stderr, /Infinity/);
  } finally {
    box.cleanup();
  }
});
