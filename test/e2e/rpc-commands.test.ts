// Proves on the real host that /todoloop pause, resume, reset and status work over RPC, and a broken config fails no turn.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  callTools,
  checkInvariants,
  createTasks,
  isNudge,
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
import type { LoggedRequest, Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

function line(text: string | undefined, pattern: RegExp): void {
  assert.match(text ?? "", pattern);
}

test("/todoloop pause stops continuations until /todoloop resume; status shows PAUSED, then active", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task", "Beta task"), say("Stopping here."), say("Resumed; stopping."), updateTasks([1, 2]), say("Done.")];
  // "Go on" continues the first message's list: 0.2's rule for tasks from an earlier message (§4.15).
  await withRpc(t.signal, { script, config: { earlierTasks: "continue" } }, async (box, rpc) => {
    assert.deepEqual(await rpc.command("pause"), [{ message: "todo loop: paused by user", notifyType: "info" }]);
    await rpc.prompt("Do the work");
    assert.deepEqual(markerDetails(sessionEntries(box)), [], "no continuation while paused");
    assert.deepEqual(stopReasons(sessionEntries(box)), [], "a pause is not a stop");
    const [paused] = await rpc.command("status");
    line(paused?.message, /^todo loop: PAUSED$/m);
    line(paused?.message, /^tasks open: 2 of 2 \(rpiv-todo\)$/m);
    line(paused?.message, /^continuations for this message: 0 \(no limit\)$/m);
    line(paused?.message, /^last: paused by user$/m);
    assert.ok(rpc.statuses.some((status) => status.text === "todo loop paused · todo 2 of 2 open"), "the footer says paused");

    assert.deepEqual(await rpc.command("resume"), [{ message: "todo loop: resumed: the loop goes on when the agent next stops; /todoloop continue starts it now", notifyType: "info" }]);
    const [resumed] = await rpc.command("status");
    line(resumed?.message, /^todo loop: active$/m);
    await rpc.prompt("Go on");
    const entries = sessionEntries(box);
    assert.deepEqual(markerRounds(entries), [1]);
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});

test("/todoloop reset clears the counters of the current message; an unknown sub-command is an error with the usage line", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task", "Beta task"), say("Stop one."), say("Stop two."), say("Stop three.")];
  await withRpc(t.signal, { script, config: { maxRounds: 2 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const [before] = await rpc.command("status");
    line(before?.message, /^todo loop: stopped$/m);
    line(before?.message, /^continuations for this message: 2 of 2$/m);
    line(before?.message, /^replies since the list last changed: 2$/m);
    line(before?.message, /^last: stopped: 2 continuations used, 2 tasks still open/m);
    line(before?.message, /^config: .*todo-loop\.json \(maxRounds 2\)$/m);

    assert.deepEqual(await rpc.command("reset"), [{ message: "todo loop: counters reset", notifyType: "info" }]);
    const [after] = await rpc.command("status");
    line(after?.message, /^todo loop: active$/m);
    line(after?.message, /^continuations for this message: 0 of 2$/m);
    line(after?.message, /^replies since the list last changed: 0$/m);
    line(after?.message, /^last: counters reset$/m);

    const unknown = await rpc.command("frobnicate");
    assert.equal(unknown.length, 1);
    assert.equal(unknown[0]?.notifyType, "error");
    line(unknown[0]?.message, /unknown sub-command "frobnicate"\. Usage: \/todoloop \[status\|pause\|resume\|reset\|continue\|report\|verify \[approve\|forget\]\]$/);
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});

/** The request whose messages end with `text` as the human's message. */
function requestFor(logged: readonly LoggedRequest[], text: string): LoggedRequest | undefined {
  return logged.find((request) => {
    const last = request.messages[request.messages.length - 1];
    return last?.role === "user" && textOf(last.content) === text;
  });
}

const SWITCHES: ReadonlyArray<{ where: string; path: (box: Sandbox) => string }> = [
  { where: "<agent dir>/todo-loop-off", path: (box) => join(box.agentDir, "todo-loop-off") },
  { where: "<cwd>/.pi/todo-loop-off", path: (box) => join(box.cwd, ".pi", "todo-loop-off") },
];

for (const { where, path } of SWITCHES) {
  test(`the kill switch ${where} created mid-session turns the loop off without reload: no marker, no stop, the context hook touches nothing; removing it turns the loop back on`, { timeout }, async (t) => {
    const script: ScriptStep[] = [
      createTasks("Alpha task"),
      say("Stopping here."),
      { stopReason: "error", errorMessage: "503 Service Unavailable: overloaded" },
      say("Noted."),
      callTools({ name: "todo_loop_block", args: { reason: "Need a person" } }),
      say("Stopping."),
      say("Back; stopping."),
      updateTasks([1]),
      say("Done."),
    ];
    // A long retry delay: the retry is cancelled at once, leaving the marker last on the branch, so the
    // human's next message follows it directly — the case the context hook exists for.
    // "Go on" continues the first message's list: 0.2's rule for tasks from an earlier message (§4.15).
    await withRpc(t.signal, { script, settings: { retry: { enabled: true, baseDelayMs: 30_000 } }, config: { earlierTasks: "continue" } }, async (box, rpc) => {
      const retrying = new Promise<void>((resolve) => rpc.client.onEvent((event) => event.type === "auto_retry_start" && resolve()));
      await rpc.send("Do the work");
      await retrying;
      await rpc.client.abortRetry();
      await rpc.waitSettled();
      assert.deepEqual(markerRounds(sessionEntries(box)), [1]);

      const file = path(box);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, "");
      const notifiesBefore = rpc.notifies.length;
      const entriesBefore = sessionEntries(box).length;
      await rpc.prompt("Carry on");
      await rpc.prompt("Try the block tool");
      const added = sessionEntries(box).slice(entriesBefore);
      assert.deepEqual(markerDetails(added), [], "no marker while the kill switch is on");
      assert.deepEqual(stopReasons(added), [], "no stop record while the kill switch is on");
      assert.deepEqual(loopNotifies(rpc.notifies.slice(notifiesBefore)), [], "nothing announced while the kill switch is on");
      const block = added.find((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo_loop_block");
      assert.match(textOf(block?.message?.content), /^The todo loop is off \(kill switch /);
      const carry = requestFor(requests(box), "Carry on");
      const beforeHuman = carry?.messages[carry.messages.length - 2];
      assert.ok(beforeHuman && isNudge(beforeHuman), "the old marker reached the model untouched");
      const [status] = await rpc.command("status");
      assert.match(status?.message ?? "", new RegExp(`^todo loop: DISABLED \\(kill switch ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\)$`, "m"));

      rmSync(file);
      await rpc.prompt("Go on");
      const entries = sessionEntries(box);
      assert.deepEqual(markerRounds(entries), [1, 1], "continuing again, from the new message");
      const goOn = requestFor(requests(box), "Go on");
      assert.ok(goOn && !goOn.messages.some((message, index) => isNudge(message) && goOn.messages[index + 1]?.role === "user"), "the hook drops the stale marker again");
      assert.deepEqual(stopReasons(entries).slice(-1), ["stopped: list is clear"]);
      checkInvariants(box, { script, taskTexts: ["Alpha task"], markerBeforeUserAllowed: [3, 4, 5] });
    });
  });
}

/**
 * Three continuations, never three settles in a row (the default maxIdleReplies is 3): a cap of 2 would
 * stop the third settle, so three markers show that no cap applies.
 */
const THREE_CONTINUATIONS: ScriptStep[] = [
  createTasks("Alpha task"),
  say("Stop one."),
  say("Stop two."),
  updateTasks([1], "in_progress"),
  say("Stop three."),
  updateTasks([1]),
  say("Done."),
];

test("a broken JSON config falls back to defaults, /todoloop status names the problem, and no turn fails", { timeout }, async (t) => {
  const script = THREE_CONTINUATIONS;
  await withRpc(t.signal, { script, config: "{ \"maxRounds\": 2," }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    assert.deepEqual(markerRounds(entries), [1, 2, 3], "no limit: the intended cap of 2 is not applied");
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    assert.deepEqual(rpc.notifies.filter((notify) => notify.notifyType === "error"), [], "no failed hook");
    const [status] = await rpc.command("status");
    assert.match(status?.message ?? "", /^config problem: invalid JSON \(.+\); using defaults$/m);
    assert.match(status?.message ?? "", /^continuations for this message: 3 \(no limit\)$/m);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("a wrong-typed config value falls back to no limit for that key, /todoloop status names the problem, and no turn fails", { timeout }, async (t) => {
  const script = THREE_CONTINUATIONS;
  await withRpc(t.signal, { script, config: { maxRounds: "2", maxCost: [1] } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    assert.deepEqual(markerRounds(entries), [1, 2, 3]);
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    assert.deepEqual(rpc.notifies.filter((notify) => notify.notifyType === "error"), []);
    const [status] = await rpc.command("status");
    assert.match(status?.message ?? "", /^config problem: maxRounds must be a positive number or null \(got the string "2"\); using no limit$/m);
    assert.match(status?.message ?? "", /^config problem: maxCost must be a positive number or null \(got an array\); using no limit$/m);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});
