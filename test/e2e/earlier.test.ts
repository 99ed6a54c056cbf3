// Proves on the real host that tasks left open under an earlier message hold the loop until the agent or person adopts them.
/**
 * Tasks from an earlier message (SPEC 0.3 §4.15): under a new human message while tasks are open from
 * an earlier one, the loop does not push the old list until the agent uses the list's own tool (a read
 * counts), the list changes, or the person runs `/todoloop continue` or `resume`. A message that answers
 * a wait, or that was sent while a run was going (steering, a follow-up), carries the list over. The
 * hold is a stop of kind `earlier`, shown once per list state, an `info` notify outside the TUI, never
 * a warning. `earlierTasks: "continue"` is 0.2's behaviour.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import {
  callTools,
  checkInvariants,
  controlData,
  extensionArgs,
  loopNotifies,
  markerDetails,
  markers,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  untilRequests,
  updateTasks,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { EntryRecord, Notify, RpcSession, ScriptStep } from "./harness.ts";
import { SESSION_CONTROL } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const EARLIER = "not continuing: 2 tasks are open from an earlier message — /todoloop continue to go on with them";
const IDLE = "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you";

/** The first message: two tasks planned, then three replies without work, so the idle brake stops it with both open. */
const FIRST: ScriptStep[] = [plan, say("Planned; stopping here."), say("Still stopping."), say("Stopping again.")];

/** Markers written under a human message. */
function markersUnder(entries: readonly EntryRecord[], anchor: string | undefined): number[] {
  return markerDetails(entries).filter((details) => details.anchor === anchor).map((details) => details.round);
}

function earlierNotifies(rpc: RpcSession): Notify[] {
  return loopNotifies(rpc.notifies).filter((notify) => notify.message.includes("from an earlier message"));
}

test("an unrelated message after an open list: no continuation (0 markers under it), one earlier stop record, an info notify, no warning", { timeout }, async (t) => {
  const script: ScriptStep[] = [...FIRST, say("parseArgs splits argv into flags and positional arguments.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    const warningsBefore = loopNotifies(rpc.notifies).filter((notify) => notify.notifyType === "warning").length;
    await rpc.prompt("What does parseArgs do?");

    const entries = await rpc.getEntries();
    const [first, second] = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, markers ${JSON.stringify(markerDetails(entries).map((m) => [m.anchor === second ? "m2" : "m1", m.round]))}, stops ${JSON.stringify(stopData(entries).map((s) => s.kind))}`);
    assert.equal(requests(box).length, 5, "one reply to the question, nothing after it");
    assert.deepEqual(markersUnder(entries, first), [1, 2]);
    assert.deepEqual(markersUnder(entries, second), [], "no marker under the unrelated message");
    const stops = stopData(entries);
    assert.deepEqual(stops.map((stop) => [stop.kind, stop.reason, stop.anchor]), [["idle", IDLE, first], ["earlier", EARLIER, second]]);
    assert.match(String((stops[1] as unknown as { list?: unknown }).list), /^[0-9a-f]{8}$/, "the record keeps the list state it was shown for");
    assert.deepEqual(earlierNotifies(rpc), [{ message: `todo loop ${EARLIER}`, notifyType: "info" }]);
    assert.equal(loopNotifies(rpc.notifies).filter((notify) => notify.notifyType === "warning").length, warningsBefore, "no warning for the earlier list");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("three chat messages in a row with the same open list: the earlier line once (one record, one notify), not three times", { timeout }, async (t) => {
  const script: ScriptStep[] = [...FIRST, say("It parses flags."), say("Yes, -v is verbose."), say("You are welcome.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    await rpc.prompt("What does parseArgs do?");
    await rpc.prompt("And -v?");
    await rpc.prompt("Thanks");

    const entries = await rpc.getEntries();
    const anchors = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, earlier records ${stopData(entries).filter((s) => s.kind === "earlier").length}, earlier notifies ${earlierNotifies(rpc).length}`);
    assert.equal(anchors.length, 4);
    assert.equal(requests(box).length, 7, "one reply per chat message");
    assert.equal(markerDetails(entries).filter((details) => details.anchor !== anchors[0]).length, 0, "no marker under any chat message");
    assert.deepEqual(stopData(entries).filter((stop) => stop.kind === "earlier").map((stop) => stop.anchor), [anchors[1]], "one earlier record, under the first chat message");
    assert.equal(earlierNotifies(rpc).length, 1, "one notify");
    const status = await rpc.command("");
    assert.match(status[0]?.message ?? "", new RegExp(`^last: ${EARLIER}$`, "m"), "/todoloop still says why it is not continuing");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("a todo read under a new message: the agent is on the list, so the loop continues under it and finishes it (a chat message before it was held)", { timeout }, async (t) => {
  const script: ScriptStep[] = [...FIRST, say("It parses flags."), callTools({ name: "todo", args: { action: "list" } }), say("Two tasks are open; pausing."), finish, say("Both done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    await rpc.prompt("What does parseArgs do?");
    await rpc.prompt("Where are we?");

    const entries = await rpc.getEntries();
    const [, chat, third] = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, markers under the chat ${JSON.stringify(markersUnder(entries, chat))}, under the read ${JSON.stringify(markersUnder(entries, third))}, stops ${JSON.stringify(stopData(entries).map((s) => s.kind))}`);
    assert.equal(requests(box).length, 9);
    assert.deepEqual(markersUnder(entries, chat), [], "the chat message was held");
    assert.deepEqual(markersUnder(entries, third), [1], "a continuation after the read");
    assert.deepEqual(stopData(entries).map((stop) => [stop.kind, stop.anchor]), [["idle", userMessageIds(entries)[0]], ["earlier", chat], ["clear", third]]);
    assert.equal(earlierNotifies(rpc).length, 1);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("/todoloop continue after the earlier stop: one run now, and the loop keeps going for the rest of the message", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    ...FIRST,
    say("It parses flags."),
    say("Looking at it; stopping."),
    updateTasks([1]),
    say("One left; stopping."),
    updateTasks([2]),
    say("Both done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    await rpc.prompt("What does parseArgs do?");
    assert.equal(requests(box).length, 5);
    const reply = await rpc.command("continue");
    assert.deepEqual(reply[0], { message: "todo loop: continuing at your request", notifyType: "info" });
    await rpc.waitSettled();

    const entries = await rpc.getEntries();
    const [, second] = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, markers under m2 ${JSON.stringify(markersUnder(entries, second))}, stops ${JSON.stringify(stopData(entries).map((s) => s.kind))}`);
    assert.equal(requests(box).length, 10, "the script ran to its end");
    assert.deepEqual(markersUnder(entries, second), [1, 2, 3], "the continue marker, then a continuation at each later stop");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["idle", "earlier", "clear"]);
    assert.deepEqual(controlData(entries), [{ v: 1, action: "continue", anchor: second ?? "" }]);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("the person's answer to the agent's question carries the list over: the loop continues under it without asking (an unrelated message before it was held)", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    ...FIRST,
    say("It parses flags."),
    say("Should I go back to the parser tasks now?"),
    say("Back on it; stopping."),
    finish,
    say("Both done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    await rpc.prompt("What does parseArgs do?");
    await rpc.prompt("Is it buggy?");
    await rpc.prompt("Yes");

    const entries = await rpc.getEntries();
    const [, chat, asked, answer] = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, markers under the chat ${JSON.stringify(markersUnder(entries, chat))}, the question ${JSON.stringify(markersUnder(entries, asked))}, the answer ${JSON.stringify(markersUnder(entries, answer))}, stops ${JSON.stringify(stopData(entries).map((s) => s.kind))}`);
    assert.equal(requests(box).length, 9);
    assert.deepEqual(markersUnder(entries, chat), [], "the unrelated message was held");
    assert.deepEqual(markersUnder(entries, asked), [], "the question is a wait");
    assert.deepEqual(markersUnder(entries, answer), [1], "the answer carried the list over");
    assert.deepEqual(stopData(entries).map((stop) => [stop.kind, stop.anchor]), [["idle", userMessageIds(entries)[0]], ["earlier", chat], ["question", asked], ["clear", answer]]);
    assert.equal(earlierNotifies(rpc).length, 1);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

for (const how of ["steer", "followUp"] as const) {
  test(`a message sent while the agent works (RPC ${how}) carries the list over: the run goes on as in 0.2.0; an unrelated message after the run ended is held`, { timeout }, async (t) => {
    // steer: queued during a tool call's request, delivered after the tool result; followUp: queued
    // while a settle is produced, delivered when the agent would stop.
    const working: ScriptStep = how === "steer"
      ? { ...updateTasks([1], "in_progress"), delayMs: 1500 }
      : say("Planned; stopping here.", { delayMs: 1500 });
    const script: ScriptStep[] = [plan, working, say("Noted; stopping."), finish, say("Both done."), ...FIRST, say("parseArgs splits argv.")];
    await withRpc(t.signal, { script }, async (box, rpc) => {
      await rpc.send("Plan the parser work");
      await untilRequests(box, 2);
      assert.equal(await (how === "steer" ? rpc.steer("Also handle -v") : rpc.followUp("Also handle -v")), "queued");
      await rpc.waitSettled();
      let entries = await rpc.getEntries();
      const [first, second] = userMessageIds(entries);
      const underSecond = markersUnder(entries, second);
      t.diagnostic(`requests ${requests(box).length}, markers under m1 ${JSON.stringify(markersUnder(entries, first))}, under the ${how} message ${JSON.stringify(underSecond)}`);
      assert.equal(requests(box).length, 5, "the run went to the end of the list");
      assert.deepEqual(underSecond, [1], "the message sent mid-run continued like any other");
      assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);

      // A new list planned, then a message typed after the run ended: that one is an earlier message's list.
      await rpc.prompt("Plan the next part");
      await rpc.prompt("What does parseArgs do?");
      entries = await rpc.getEntries();
      const anchors = userMessageIds(entries);
      assert.equal(requests(box).length, 10);
      assert.deepEqual(markersUnder(entries, anchors[3]), [], "no marker under the unrelated message");
      assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear", "idle", "earlier"]);
      checkInvariants(box, { script, taskTexts: [...TASKS, ...TASKS] });
    });
  });
}

test("earlierTasks \"continue\" is 0.2's behaviour: the old list is pushed after an unrelated message, and the key is no config problem", { timeout }, async (t) => {
  const script: ScriptStep[] = [...FIRST, say("parseArgs splits argv."), finish, say("Both done.")];
  await withRpc(t.signal, { script, config: { earlierTasks: "continue" } }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    await rpc.prompt("What does parseArgs do?");

    const entries = await rpc.getEntries();
    const [, second] = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, markers under m2 ${JSON.stringify(markersUnder(entries, second))}`);
    assert.equal(requests(box).length, 7);
    assert.deepEqual(markersUnder(entries, second), [1], "continued under the unrelated message, as 0.2 did");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["idle", "clear"]);
    const status = (await rpc.command(""))[0]?.message ?? "";
    assert.doesNotMatch(status, /config problem/, "earlierTasks is a known key");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("a reload after the earlier stop keeps the decision: the next settle under the same message is held again, with no second line", { timeout }, async (t) => {
  const after: ScriptStep[] = [say("Still only chatting.")];
  const script: ScriptStep[] = [...FIRST, say("It parses flags.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    await rpc.prompt("What does parseArgs do?");
    writeFileSync(box.scriptPath, JSON.stringify(after));
    assert.equal(await rpc.prompt("/e2e-reload-runtime"), "handled");
    assert.equal(await rpc.prompt("/e2e-hidden-turn"), "handled");
    await rpc.waitSettled();

    const entries = await rpc.getEntries();
    const [, second] = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, markers under m2 ${JSON.stringify(markersUnder(entries, second))}, earlier records ${stopData(entries).filter((s) => s.kind === "earlier").length}`);
    assert.equal(requests(box).length, 6, "the hidden turn's reply, nothing after it");
    assert.deepEqual(markersUnder(entries, second), [], "still held after the reload");
    assert.equal(stopData(entries).filter((stop) => stop.kind === "earlier").length, 1, "read back from its record, not recorded again");
    assert.equal(earlierNotifies(rpc).length, 1);
    checkInvariants(box, { script: [...script, ...after], taskTexts: TASKS });
  }, { extensions: extensionArgs([SESSION_CONTROL]) });
});

test("a reload between /todoloop resume and the settle keeps the consent: the settle under the same message continues", { timeout }, async (t) => {
  const after: ScriptStep[] = [say("Back to it; stopping."), finish, say("Both done.")];
  const script: ScriptStep[] = [...FIRST, say("It parses flags.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    await rpc.prompt("What does parseArgs do?");
    await rpc.command("resume");
    writeFileSync(box.scriptPath, JSON.stringify(after));
    assert.equal(await rpc.prompt("/e2e-reload-runtime"), "handled");
    assert.equal(await rpc.prompt("/e2e-hidden-turn"), "handled");
    await rpc.waitSettled();

    const entries = await rpc.getEntries();
    const [, second] = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, markers under m2 ${JSON.stringify(markersUnder(entries, second))}, stops ${JSON.stringify(stopData(entries).map((s) => s.kind))}`);
    assert.equal(requests(box).length, 8);
    assert.deepEqual(markersUnder(entries, second), [1], "the consent was read back from its control record");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["idle", "earlier", "clear"]);
    assert.equal(markers(entries).length, 3);
    checkInvariants(box, { script: [...script, ...after], taskTexts: TASKS });
  }, { extensions: extensionArgs([SESSION_CONTROL]) });
});
