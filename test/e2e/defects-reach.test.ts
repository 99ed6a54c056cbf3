// Proves on the real host that Escape during a verification command and an emptied list whose check passed never reach the person as "needs you": no hook, no exit code, needsYou false.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  baseArgs,
  callTools,
  createTasks,
  extensionArgs,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  startRpc,
  stopData,
  until,
  updateTasks,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const STOP_LISTENER = join(dirname(fileURLToPath(import.meta.url)), "stand-ins", "stop-listener.ts");

function executable(box: Sandbox, name: string, body: string): string {
  const path = join(box.root, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function received(box: Sandbox): Array<Record<string, unknown>> {
  const path = join(box.root, "stops.jsonl");
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : [];
}

test("RPC: Escape while the verification command runs — the stop is recorded, but the hook never runs and the event says needsYou: false", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done.")];
  const box = sandbox({ script });
  box.env.PI_TODO_LOOP_E2E_STOPS = join(box.root, "stops.jsonl");
  const pidFile = join(box.root, "check.pid");
  const hookRan = join(box.root, "hook-ran");
  const hook = executable(box, "hook.sh", `touch "${hookRan}"`);
  writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: executable(box, "slow.sh", `echo $$ > "${pidFile}"\nsleep 60`), notifyCommand: [hook] }));
  const rpc = await startRpc(box, { signal: t.signal, extensions: extensionArgs([STOP_LISTENER]) });
  try {
    await rpc.send("Do the work");
    await until("the command started", () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
    await rpc.client.abort();
    await rpc.waitSettled();
    const records = stopData(sessionEntries(box));
    assert.deepEqual(records.map((stop) => [stop.kind, stop.reason]), [["verify-error", "stopped: the verification command did not finish (you stopped it (Escape))"]]);
    // A hook would have been started by now; give it a moment to show.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(existsSync(hookRan), false, "no notify command for the person who just pressed Escape");
    const events = received(box);
    t.diagnostic(`events: ${JSON.stringify(events.map((event) => [event.kind, event.needsYou]))}`);
    assert.deepEqual(events.map((event) => [event.kind, event.needsYou]), [["verify-error", false]]);
  } finally {
    await rpc.stop();
    box.cleanup();
  }
});

test("print mode: a list emptied by deleting every task whose check passes is done — exit 0 despite exitCode, no stderr line, no hook, needsYou false", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    createTasks("Alpha task", "Beta task"),
    callTools({ name: "todo", args: { action: "delete", id: 1 } }, { name: "todo", args: { action: "delete", id: 2 } }),
    say("Nothing left."),
  ];
  const box = sandbox({ script });
  try {
    box.env.PI_TODO_LOOP_E2E_STOPS = join(box.root, "stops.jsonl");
    const hookRan = join(box.root, "hook-ran");
    const hook = executable(box, "hook.sh", `touch "${hookRan}"`);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: executable(box, "check.sh", "echo 12 passing"), notifyCommand: [hook], exitCode: 3 }));
    const run = await runPi(box, [...extensionArgs([STOP_LISTENER]), ...baseArgs(box), "-p", "Do the work"], 45_000);
    const records = stopData(sessionEntries(box));
    t.diagnostic(`exit ${run.code}; records ${JSON.stringify(records.map((stop) => [stop.kind, stop.reason]))}`);
    assert.deepEqual(records.map((stop) => stop.kind), ["no-list"]);
    assert.match(records[0]?.reason ?? "", /^stopped: no list \(the list was emptied: its tasks were deleted or cleared\) · .*check\.sh passed/);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stderr.split("\n").filter((line) => line.startsWith("todo loop: stopped")), []);
    assert.equal(existsSync(hookRan), false);
    assert.deepEqual(received(box).map((event) => [event.kind, event.needsYou]), [["no-list", false]]);
  } finally {
    box.cleanup();
  }
});
