// Proves on the real host the basic loop: a clear list stops once, chat is left alone, tool turns spend no round.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkInvariants,
  createTasks,
  isNudge,
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
  updateTasks,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

test("every task completed: the settle adds no marker, records 'stopped: list is clear' once and announces it as info", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    assert.deepEqual(markerDetails(entries), []);
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: "todo loop stopped: list is clear", notifyType: "info" }]);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("plain chat without a todo list: no marker, no stop record, nothing announced, no footer", { timeout }, async (t) => {
  const script: ScriptStep[] = [say("Hello there."), say("Sure.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Hi");
    await rpc.prompt("Tell me more");
    const entries = sessionEntries(box);
    assert.deepEqual(markerDetails(entries), []);
    assert.deepEqual(stopReasons(entries), []);
    assert.deepEqual(loopNotifies(rpc.notifies), []);
    // session_start clears the footer (a client may keep an earlier session's); nothing is ever shown.
    assert.deepEqual(rpc.statuses.filter((status) => status.key === "todo-loop"), [{ key: "todo-loop", text: undefined }]);
    const [status] = await rpc.command("status");
    assert.match(status?.message ?? "", /tasks open: none — the todo tool has not been used on this branch/);
    checkInvariants(box, { script });
  });
});

test("tool turns spend no continuation: marker details.round counts settles only", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    createTasks("Alpha task", "Beta task"),
    say("Stopping here."),
    updateTasks([1], "in_progress"),
    updateTasks([1]),
    say("One left; stopping."),
    updateTasks([2]),
    say("Done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    const details = markerDetails(entries);
    assert.deepEqual(details.map(({ round, open, total, hint, idle, stale }) => ({ round, open, total, hint, idle, stale })), [
      { round: 1, open: 2, total: 2, hint: false, idle: 1, stale: 0 },
      { round: 2, open: 1, total: 2, hint: false, idle: 1, stale: 0 },
    ], "the tool turns between the settles reset the replies in a row without work, and changed the list");
    assert.equal(details[0]?.anchor, details[1]?.anchor, "both continuations count from the same human message");
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});

test("the todo_loop_block hint comes exactly once per run of settles: on the second settle in a row that changed nothing", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    createTasks("Alpha task", "Beta task"),
    say("Stop one."),
    say("Stop two."),
    say("Stop three."),
    updateTasks([1], "in_progress"),
    say("Stop four."),
    say("Stop five."),
    updateTasks([1, 2]),
    say("Done."),
  ];
  // maxIdleReplies off: the third settle in a row (Stop three) must get a plain nudge here, not the idle stop.
  await withRpc(t.signal, { script, config: { maxIdleReplies: 0 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const hints = markerDetails(sessionEntries(box)).map((details) => details.hint);
    assert.deepEqual(hints, [false, true, false, false, true]);
    const nudges = requests(box).map(lastMessage).filter(isNudge).map((message) => textOf(message.content));
    assert.equal(nudges.length, 5, "every continuation request ends with its nudge");
    assert.ok(nudges.every((text) => text.includes("todo_loop_block")), "every nudge offers todo_loop_block");
    assert.deepEqual(nudges.map((text) => text.includes("If you cannot go on without a person")), hints, "only the hint nudge has the hint's wording");
    assert.deepEqual(nudges.map((text) => text.includes("If your last reply asked the user something")), hints.map((hint) => !hint), "every other nudge offers the block tool for a question or a request to act");
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});

test("maxRounds reached: no further continuation, the reason names it ('stopped: N continuations used, M tasks still open') and warns once", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task", "Beta task"), say("Stop one."), say("Stop two."), say("Stop three.")];
  await withRpc(t.signal, { script, config: { maxRounds: 2 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    assert.deepEqual(markerRounds(entries), [1, 2]);
    const reasons = stopReasons(entries);
    assert.equal(reasons.length, 1);
    assert.ok(reasons[0]?.startsWith("stopped: 2 continuations used, 2 tasks still open"), reasons[0]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${reasons[0]}`, notifyType: "warning" }]);
    assert.ok(rpc.statuses.some((status) => status.text === "todo 2 of 2 open · continue 2/2"), "the footer counts against the cap");
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});

test("ten unchanged settles in a row give one warning and the loop keeps going", { timeout }, async (t) => {
  const stalls: ScriptStep[] = Array.from({ length: 11 }, (_, index) => say(`Stall ${index + 1}.`));
  const script: ScriptStep[] = [createTasks("Alpha task", "Beta task"), ...stalls, updateTasks([1, 2]), say("Done.")];
  // maxIdleReplies and maxStuckReplies off: eleven tool-less settles in a row would otherwise stop at the third (idle) or fifth (no progress).
  await withRpc(t.signal, { script, config: { maxIdleReplies: 0, maxStuckReplies: 0 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    assert.deepEqual(markerRounds(entries), Array.from({ length: 11 }, (_, index) => index + 1));
    const warnings = loopNotifies(rpc.notifies).filter((notify) => notify.notifyType === "warning");
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.match(warnings[0]?.message ?? "", /^todo loop: 10 replies without a todo change, 2 tasks still open; still continuing\..*\/todoloop pause/);
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});
