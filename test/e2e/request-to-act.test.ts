// SPEC 0.4 §4.8 on the real pi host: every standard nudge offers todo_loop_block for a question or a request to act, and a reply that asks the person to act or awaits their approval waits with a question stop and no marker.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkInvariants,
  FINISH_TWO as finish,
  isNudge,
  lastMessage,
  loopNotifies,
  markerDetails,
  markers,
  PLAN_TWO as plan,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  textOf,
  TWO_TASKS as TASKS,
  userMessageIds,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const OFFER = "If your last reply asked the user something or needs them to act, call todo_loop_block with that question instead of continuing.";
const HINT = "If you cannot go on without a person, call todo_loop_block with the reason instead of stopping.";

/**
 * One prompt to the end of its run: the reply `asking` (under two open tasks) must stop the loop as a
 * question, with `asked` as the reason; then the person answers and the loop carries the run to the end.
 */
async function assertWaits(t: { signal: AbortSignal; diagnostic(message: string): void }, asking: string, asked: string): Promise<void> {
  const waiting = `waiting for you: the agent asked: "${asked}"`;
  const script: ScriptStep[] = [plan, say(asking), finish, say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    t.diagnostic(`requests ${requests(box).length}, markers ${markers(entries).length}, stop records ${stopData(entries).length}`);
    assert.equal(requests(box).length, 2, "no continuation request after the request to act");
    assert.deepEqual(markerDetails(entries), [], "no marker");
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "question", reason: waiting, round: 0, open: 2, anchor }]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${waiting}`, notifyType: "warning" }]);
    // The person answers: the wait ends and the loop carries the run to the end of the list.
    await rpc.prompt("Here is the output: all green.");
    assert.deepEqual(stopData(await rpc.getEntries()).map((stop) => stop.kind), ["question", "clear"]);
    assert.equal(requests(box).length, 4);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
}

test("the standard nudge (a marker's content and the request the model gets) offers todo_loop_block; the hint keeps its own wording", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("The parser is written."), say("Still thinking."), finish, say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    const contents = markers(entries).map((entry) => textOf(entry.content));
    t.diagnostic(`requests ${requests(box).length}, markers ${contents.length}, stop records ${stopData(entries).length}`);
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.hint]), [[1, false], [2, true]]);
    const [standard, hint] = contents;
    assert.ok(standard?.includes(OFFER), `the standard marker holds the offer: ${standard}`);
    assert.ok(standard?.endsWith(`${OFFER} The user's latest instruction outranks this reminder.`), standard);
    assert.ok(hint?.includes(HINT) && !hint.includes(OFFER), `the hint keeps its wording: ${hint}`);
    const nudges = requests(box).map(lastMessage).filter(isNudge).map((message) => textOf(message.content));
    assert.deepEqual(nudges, [standard, hint], "the model receives the markers' content as the last message");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("a reply that ends 'Please run the tests and paste the output.' under open tasks waits: a question stop, no marker", { timeout }, async (t) => {
  await assertWaits(t, "The parser is written.\n\nPlease run the tests and paste the output.", "Please run the tests and paste the output.");
});

test("a question with an emoji and one explaining paragraph after it waits", { timeout }, async (t) => {
  await assertWaits(t, "The parser is written.\n\nShall I start on the tests? 🚀\n\nThey need the fixtures from the old suite.", "Shall I start on the tests?");
});

test("approval awaited without a question, in German, waits", { timeout }, async (t) => {
  await assertWaits(t, "Der Parser ist fertig. Ich warte auf deine Freigabe.", "Ich warte auf deine Freigabe.");
});

test("an instruction for later use ('You can run `npm start` to see it.') asks nothing: the loop continues with a marker", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("The parser is written. You can run `npm start` to see it."), finish, say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    t.diagnostic(`requests ${requests(box).length}, markers ${markers(entries).length}, stop records ${stopData(entries).length}`);
    assert.deepEqual(markerDetails(entries).map((details) => details.round), [1]);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    assert.equal(requests(box).length, 4);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});
