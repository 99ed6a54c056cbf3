// Proves on the real host that the person's words are heard: "continue" after a stop carries the list over, a question after a failed verification waits, a kill switch made while the command runs stops everything, and /todoloop continue typed twice starts one run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkInvariants,
  createTasks,
  loopNotifies,
  markers,
  PLAN_TWO as plan,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  TWO_TASKS as TASKS,
  until,
  untilRequests,
  updateTasks,
  userMessageIds,
  withRpc,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const IDLE: ScriptStep[] = [plan, say("Stopping here."), say("Still stopping."), say("Stopping again.")];

function executable(box: Sandbox, name: string, body: string): string {
  const path = join(box.root, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

for (const word of ["continue", "keep going", "继续", "weiter"]) {
  test(`"${word}" typed after a stop carries the list over: the loop continues under it, no earlier-message hold`, { timeout }, async (t) => {
    const script: ScriptStep[] = [...IDLE, say("Resuming."), updateTasks([1, 2]), say("All done.")];
    await withRpc(t.signal, { script }, async (box, rpc) => {
      await rpc.prompt("Do the work");
      assert.deepEqual(stopData(sessionEntries(box)).map((stop) => stop.kind), ["idle"]);
      await rpc.prompt(word);
      const entries = sessionEntries(box);
      const second = userMessageIds(entries)[1];
      const kinds = stopData(entries).map((stop) => stop.kind);
      t.diagnostic(`stops ${JSON.stringify(kinds)}; notifies ${JSON.stringify(loopNotifies(rpc.notifies).map((notice) => notice.message))}`);
      assert.deepEqual(kinds, ["idle", "clear"]);
      assert.equal(markers(entries).filter((marker) => (marker.details as { anchor: string }).anchor === second).length, 1, "one continuation under the go-on message");
      assert.ok(!loopNotifies(rpc.notifies).some((notice) => /earlier message/.test(notice.message)));
      checkInvariants(box, { script, taskTexts: TASKS });
    });
  });
}

test("a question after a failed verification is a wait: no second run, no failing output pushed again, the stop is a question", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done."), say("The parser test fails on empty input. Should I change the expected output or the parser?")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    const runs = join(box.root, "runs");
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: executable(box, "check.sh", `echo run >> "${runs}"\necho "1 failing: parser rejects empty input"\nexit 1`) }));
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    const records = stopData(entries);
    t.diagnostic(`markers ${markers(entries).length}; runs ${readFileSync(runs, "utf8").split("\n").filter(Boolean).length}; stops ${JSON.stringify(records.map((stop) => [stop.kind, stop.reason]))}`);
    assert.equal(markers(entries).length, 1, "the one continuation of the failed run, no second push");
    assert.equal(readFileSync(runs, "utf8"), "run\n", "the command ran once");
    assert.deepEqual(records.map((stop) => stop.kind), ["question"]);
    assert.equal(records[0]?.reason, 'waiting for you: the agent asked: "The parser test fails on empty input. Should I change the expected output or the parser?"');
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("a kill switch created while the verification command runs: when it ends nothing happens — no continuation, no stop record", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    const started = join(box.root, "started");
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: executable(box, "check.sh", `touch "${started}"\nsleep 2\necho "red"\nexit 1`) }));
    await rpc.send("Do the work");
    await until("the command started", () => existsSync(started));
    writeFileSync(join(box.agentDir, "todo-loop-off"), "");
    await rpc.waitSettled();
    const entries = sessionEntries(box);
    t.diagnostic(`markers ${markers(entries).length}, stops ${stopData(entries).length}`);
    assert.equal(markers(entries).length, 0, "no continuation under a kill switch");
    assert.deepEqual(stopData(entries), []);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("/todoloop continue typed twice in a row: one run, not two", { timeout }, async (t) => {
  const script: ScriptStep[] = [...IDLE, { ...say("Still thinking."), delayMs: 1500 }];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const first = await rpc.command("continue");
    await untilRequests(box, 5);
    const second = await rpc.command("continue");
    await rpc.waitSettled();
    // Give a second run, if one were kept, the time to start.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const entries = sessionEntries(box);
    const rounds = markers(entries).map((marker) => (marker.details as { round: number }).round);
    t.diagnostic(`first ${JSON.stringify(first.map((n) => n.message))}; second ${JSON.stringify(second.map((n) => n.message))}; marker rounds ${JSON.stringify(rounds)}`);
    assert.deepEqual(rounds, [1, 2, 3], "two continuations of the loop, one of the first continue");
    assert.deepEqual(second.map((notice) => notice.message), ["todo loop: the agent is busy: pause and wait are lifted, and the loop goes on as usual when it next stops"]);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});
