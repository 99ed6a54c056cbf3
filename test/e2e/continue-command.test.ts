// Proves on the real host that /todoloop continue gives exactly one more run, lifting a pause or a wait.
/**
 * `/todoloop continue` (SPEC 0.2 §7): the human's consent to one more run under the same message — one
 * marker sent with `pi.sendMessage(…, { triggerTurn: true })`, counted as a round, counters kept — after
 * which the settles meet the limits as usual. It lifts a pause or a wait; with nothing open it changes
 * nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkInvariants,
  controlData,
  isNudge,
  lastMessage,
  loopNotifies,
  markerDetails,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  updateTasks,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
  withoutFingerprint,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const CONTINUING = { message: "todo loop: continuing at your request", notifyType: "info" };

test("/todoloop continue after a maxRounds stop, the limit unchanged: exactly one more run (one marker, same anchor), then the limit stop again, announced again", { timeout }, async (t) => {
  const first = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
  const again = "stopped: 2 continuations used, 2 tasks still open, no todo change for 2 replies; the agent may need you";
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), say("Stop three.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.equal(requests(box).length, 3);
    assert.deepEqual((await rpc.command("continue"))[0], CONTINUING, "the reply comes first (the run it starts may already have stopped when the command returns)");
    await rpc.waitSettled();

    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.equal(userMessageIds(entries).length, 1, "no new human message");
    assert.equal(requests(box).length, 4, "one more request");
    assert.ok(isNudge(lastMessage(requests(box)[3])), "it ends with the nudge");
    assert.deepEqual(markerDetails(entries).map(withoutFingerprint), [
      { v: 1, round: 1, anchor, open: 2, total: 2, cap: 1, hint: false, idle: 1, stale: 0, stuck: 0, repeats: 1 },
      { v: 1, round: 2, anchor, open: 2, total: 2, cap: 1, hint: false, idle: 2, stale: 1, stuck: 1, repeats: 1, by: "continue" },
    ], "the continue marker counts as a round and keeps the counters");
    assert.deepEqual(stopData(entries), [
      { v: 1, kind: "limit", limit: "maxRounds", reason: first, round: 1, open: 2, anchor },
      { v: 1, kind: "limit", limit: "maxRounds", reason: again, round: 2, open: 2, anchor },
    ]);
    assert.deepEqual(loopNotifies(rpc.notifies), [
      { message: `todo loop ${first}`, notifyType: "warning" },
      CONTINUING,
      { message: `todo loop ${again}`, notifyType: "warning" },
    ], "the second stop is a new one after the continuation");
    assert.deepEqual(controlData(entries), [{ v: 1, action: "continue", anchor }]);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("/todoloop continue after a maxRounds stop with the limit raised first: the loop goes on to the end of the list", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), updateTasks([1], "in_progress"), say("Stop three."), finish, say("Done.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ maxRounds: 3 }));
    assert.deepEqual((await rpc.command("continue"))[0], CONTINUING, "the reply comes first (the run it starts may already have stopped when the command returns)");
    await rpc.waitSettled();

    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.equal(requests(box).length, 7);
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.cap, details.anchor]), [[1, 1, anchor], [2, 3, anchor], [3, 3, anchor]]);
    assert.deepEqual(stopData(entries).map((stop) => [stop.kind, stop.round]), [["limit", 1], ["clear", 3]]);
    assert.deepEqual(loopNotifies(rpc.notifies).map((notify) => notify.notifyType), ["warning", "info", "info"]);
    assert.equal(loopNotifies(rpc.notifies).at(-1)?.message, "todo loop stopped: list is clear");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("/todoloop continue with nothing open: no run, a warning that no task is open, and a pause stays", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, finish, say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    await rpc.command("pause");
    const eventsBefore = rpc.events.length;
    assert.deepEqual(await rpc.command("continue"), [{ message: "todo loop: not continuing: no task is open", notifyType: "warning" }]);
    const report = (await rpc.command("status"))[0]?.message ?? "";
    assert.match(report, /^todo loop: PAUSED$/m);
    assert.ok(!rpc.events.slice(eventsBefore).some((event) => event.type === "agent_start"), "no run started");
    const entries = await rpc.getEntries();
    assert.equal(requests(box).length, 3);
    assert.deepEqual(markerDetails(entries), []);
    assert.deepEqual(controlData(entries).map((control) => control.action), ["pause"], "a continue that changed nothing is not recorded");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("/todoloop continue while the loop waits on the agent's question: the wait is lifted and one run starts under the same message", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Which database should I use?"), say("I will pick Postgres."), finish, say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.match((await rpc.command("status"))[0]?.message ?? "", /^todo loop: waiting$/m);
    assert.deepEqual((await rpc.command("continue"))[0], CONTINUING, "the reply comes first (the run it starts may already have stopped when the command returns)");
    await rpc.waitSettled();
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.equal(requests(box).length, 5);
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, anchor], [2, anchor]], "the continue marker, then one nudge for the settle after it");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["question", "clear"]);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});
