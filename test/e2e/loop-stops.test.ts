// Proves on the real host that an abort, a provider retry and todo_loop_block stop the loop as they should.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  callTools,
  checkInvariants,
  createTasks,
  loopNotifies,
  markerDetails,
  markerRounds,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopReasons,
  untilRequests,
  updateTasks,
  userMessageIds,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const NO_RETRY = { retry: { enabled: false } };

for (const outcome of ["error", "aborted"] as const) {
  test(`a turn that ends ${outcome === "error" ? "in a provider error" : "aborted"} continues nothing and keeps the counters of the message`, { timeout }, async (t) => {
    const script: ScriptStep[] = [
      createTasks("Alpha task"),
      say("Stopping here."),
      { stopReason: outcome, errorMessage: outcome === "error" ? "scripted failure" : "Request was aborted" },
    ];
    const reason = outcome === "error" ? "stopped: turn outcome was error" : "stopped: you stopped it (Escape)";
    await withRpc(t.signal, { script, settings: NO_RETRY }, async (box, rpc) => {
      await rpc.prompt("Do the work");
      const entries = sessionEntries(box);
      assert.deepEqual(markerRounds(entries), [1], "only the settle was continued");
      assert.deepEqual(stopReasons(entries), [reason]);
      assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${reason}`, notifyType: "warning" }]);
      const [status] = await rpc.command("status");
      const text = status?.message ?? "";
      assert.match(text, /^todo loop: stopped$/m);
      assert.match(text, /^continuations for this message: 1 \(no limit\)$/m, "the spent round is kept");
      assert.ok(text.split("\n").includes(`last: ${reason}`), text);
      checkInvariants(box, { script, taskTexts: ["Alpha task"] });
    });
  });
}

test("a user abort (RPC abort) during a continuation request ends the run with no further continuation and keeps the counters", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task"), say("Stopping here."), say("Never delivered.", { delayMs: 2000 })];
  await withRpc(t.signal, { script, settings: NO_RETRY }, async (box, rpc) => {
    await rpc.send("Do the work");
    await untilRequests(box, 3);
    await rpc.client.abort();
    await rpc.waitSettled();
    const entries = sessionEntries(box);
    assert.deepEqual(markerRounds(entries), [1]);
    assert.deepEqual(stopReasons(entries), ["stopped: you stopped it (Escape)"]);
    const [status] = await rpc.command("status");
    assert.match(status?.message ?? "", /^continuations for this message: 1 \(no limit\)$/m);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("pi's automatic retry of a provider error runs under the same message, does not get a fresh budget, and is neither announced nor recorded as a stop", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    createTasks("Alpha task"),
    say("Stopping here."),
    { stopReason: "error", errorMessage: "503 Service Unavailable: overloaded" },
    say("Retried; stopping again."),
    updateTasks([1]),
    say("Done."),
  ];
  await withRpc(t.signal, { script, settings: { retry: { enabled: true, baseDelayMs: 10 } } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    assert.ok(rpc.events.some((event) => event.type === "auto_retry_start"), "pi retried the failed request");
    const details = markerDetails(entries);
    assert.deepEqual(details.map((marker) => marker.round), [1, 2], "the retried reply continues with round 2, not a fresh round 1");
    assert.equal(details[0]?.anchor, details[1]?.anchor);
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"], "the retried error did not end the run");
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: "todo loop stopped: list is clear", notifyType: "info" }]);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("todo_loop_block with a reason: waiting, one warning, no continuation; the human's next message resumes the loop", { timeout }, async (t) => {
  const reason = "Which database should I use?";
  const script: ScriptStep[] = [
    createTasks("Alpha task", "Beta task"),
    say("Stopping here."),
    callTools({ name: "todo_loop_block", args: { reason } }),
    say("I need you to pick a database."),
    say("On it; stopping."),
    updateTasks([1, 2]),
    say("Done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const first = sessionEntries(box);
    assert.deepEqual(markerRounds(first), [1], "no continuation after the block");
    assert.deepEqual(stopReasons(first), [`waiting for you: ${reason}`]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop: the agent is waiting for you: ${reason}`, notifyType: "warning" }]);
    const [status] = await rpc.command("status");
    assert.match(status?.message ?? "", /^todo loop: waiting$/m);
    assert.match(status?.message ?? "", new RegExp(`^waiting for you: ${reason.replace("?", "\\?")}$`, "m"));

    await rpc.prompt("Use Postgres.");
    const entries = sessionEntries(box);
    const [, reply] = userMessageIds(entries);
    const details = markerDetails(entries);
    assert.equal(details.length, 2);
    assert.deepEqual({ round: details[1]?.round, anchor: details[1]?.anchor }, { round: 1, anchor: reply }, "the reply re-arms the loop under its own anchor");
    assert.deepEqual(stopReasons(entries), [`waiting for you: ${reason}`, "stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});

test("todo_loop_block with an empty reason is an error tool result and does not stop the loop", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    createTasks("Alpha task"),
    callTools({ name: "todo_loop_block", args: { reason: "   " } }),
    say("Stopping here."),
    updateTasks([1]),
    say("Done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    const results = entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo_loop_block");
    assert.equal(results.length, 1);
    assert.equal(results[0]?.message?.isError, true);
    assert.deepEqual(markerRounds(entries), [1], "the settle after the failed block is continued");
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    assert.deepEqual(loopNotifies(rpc.notifies).filter((notify) => notify.notifyType !== "info"), []);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});
