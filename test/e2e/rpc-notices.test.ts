// Proves on the real host that a todo-only turn that deletes, clears or completes the list is announced by what it did.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  callTools,
  checkInvariants,
  createTasks,
  lastMessage,
  loopNotifies,
  markerDetails,
  markerRounds,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopReasons,
  textOf,
  untilRequests,
  updateTasks,
  userMessageIds,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const EMPTIED = "stopped: no list (the list was emptied: its tasks were deleted or cleared)";

/**
 * Two tasks → settle (one marker) → a todo-only turn `empty` that leaves no task open → settle. Asserts
 * the first loop notice is a warning matching `warning` (its own event, SPEC §4.13), and the settle after
 * stops: no second marker, the emptied-list stop announced once and recorded once when the run ends.
 */
function assertEmptiedWithWarning(signal: AbortSignal, empty: ScriptStep, warning: RegExp): Promise<void> {
  const script: ScriptStep[] = [createTasks("Alpha task", "Beta task"), say("Stopping here."), empty, say("Nothing left.")];
  return withRpc(signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const notices = loopNotifies(rpc.notifies);
    assert.equal(notices.length, 2, JSON.stringify(notices));
    assert.equal(notices[0]?.notifyType, "warning");
    assert.match(notices[0]?.message ?? "", warning);
    assert.deepEqual(notices[1], { message: `todo loop ${EMPTIED}`, notifyType: "warning" });
    const entries = sessionEntries(box);
    assert.deepEqual(markerRounds(entries), [1]);
    assert.deepEqual(stopReasons(entries), [EMPTIED]);
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
}

test("a todo-only turn that deletes every open task warns that tasks were deleted rather than completed; the settle after announces the emptied-list stop", { timeout }, async (t) => {
  await assertEmptiedWithWarning(
    t.signal,
    callTools({ name: "todo", args: { action: "delete", id: 1 } }, { name: "todo", args: { action: "delete", id: 2 } }),
    /^todo loop: 2 tasks were deleted rather than completed: "Alpha task", "Beta task"\./,
  );
});

test("a todo-only turn that clears the list warns that it was cleared without completing anything; the settle after announces the emptied-list stop", { timeout }, async (t) => {
  await assertEmptiedWithWarning(
    t.signal,
    callTools({ name: "todo", args: { action: "clear" } }),
    /^todo loop: the todo list was cleared without completing anything\./,
  );
});

test("a todo-only turn that completes every open task gives no warning; the settle after announces the clear list as info", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task", "Beta task"), say("Stopping here."), updateTasks([1, 2]), say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: "todo loop stopped: list is clear", notifyType: "info" }]);
    assert.deepEqual(stopReasons(sessionEntries(box)), ["stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});

for (const how of ["followUp", "steer"] as const) {
  test(`a human message queued (${how}) while the model answers a settle runs next with no marker beside it in any request`, { timeout }, async (t) => {
    const human = "Also add a README.";
    const script: ScriptStep[] = [
      createTasks("Alpha task", "Beta task"),
      say("Stopping here.", { delayMs: 800 }),
      say("Noted; stopping."),
      updateTasks([1, 2]),
      say("Done."),
    ];
    await withRpc(t.signal, { script }, async (box, rpc) => {
      await rpc.send("Do the work");
      await untilRequests(box, 2);
      assert.equal(await (how === "followUp" ? rpc.followUp(human) : rpc.steer(human)), "queued");
      await rpc.waitSettled();
      const entries = sessionEntries(box);
      const [, queued] = userMessageIds(entries);
      const details = markerDetails(entries);
      assert.deepEqual(details.map(({ round, anchor }) => ({ round, anchor })), [{ round: 1, anchor: queued }], "the queued message took the turn; the loop then counts from it");
      const third = requests(box)[2];
      assert.equal(lastMessage(third).role, "user");
      assert.equal(textOf(lastMessage(third).content), human, "the queued message follows the settled reply directly");
      assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
      checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
    });
  });
}
