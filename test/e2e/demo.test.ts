// Proves that `npm run demo` shows the loop continuing on the real host and leaves nothing behind in the temp folder, as it says.
/**
 * `npm run demo` (scripts/demo.ts) with its own empty TMPDIR: it exits 0, prints the continuation and the
 * clear stop, says everything runs in a temporary home removed afterwards — and that TMPDIR is empty
 * again when it exits (no `pi-todo-loop-e2e-cache/`, no home).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SCENARIO_TIMEOUT_MS } from "./harness.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

test("npm run demo: exit 0, the continuation and the clear stop shown, and its temp folder empty afterwards", { timeout: SCENARIO_TIMEOUT_MS }, (t) => {
  const temp = mkdtempSync(join(tmpdir(), "todo-loop-demo-tmp-"));
  t.after(() => rmSync(temp, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temp, NO_COLOR: "1" };
  delete env.PI_TODO_LOOP_PI_ROOT;
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "demo.ts")], { cwd: ROOT, env, encoding: "utf8", timeout: SCENARIO_TIMEOUT_MS - 5_000 });
  const left = readdirSync(temp);
  t.diagnostic(`demo: exit ${run.status}, ${run.stdout.split("\n").length} lines, left in its TMPDIR: ${JSON.stringify(left)}`);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /everything runs in a temporary home removed afterwards/);
  assert.match(run.stdout, /details: round 1, open 3/);
  assert.match(run.stdout, /^OK: 2 continuations \(one marker each\), 6 model replies, stopped because the list is clear/m);
  assert.deepEqual(left, [], "nothing left in the temp folder");
});
