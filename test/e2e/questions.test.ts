// Proves on the real host that the loop waits when the agent asks the way real agents ask, and goes on otherwise.
/**
 * SPEC 0.3 §4.8 on the real pi host, measured on real replies: the loop waits for the person when the
 * agent asks the way real agents ask — a question with a tag line under it, a request without a question
 * mark in another language, a question whose mark hides behind an invisible character or sits next to a
 * nested code block — and goes on after a sign-off that asks nothing. Real rpiv-todo, a scripted model;
 * requests, markers, stop records and notifies asserted exactly.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkInvariants,
  footers,
  loopNotifies,
  markerDetails,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

/**
 * One prompt to the end of its run: the reply `asking` must stop the loop as a question, with `asked`
 * as what the agent asked. Asserts one question stop record, no marker, one warning and the footer.
 */
async function assertWaits(t: { signal: AbortSignal; diagnostic(message: string): void }, before: ScriptStep[], asking: string, asked: string): Promise<void> {
  const waiting = `waiting for you: the agent asked: "${asked}"`;
  const script: ScriptStep[] = [plan, ...before, say(asking), finish, say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    const markers = markerDetails(entries);
    t.diagnostic(`requests ${requests(box).length}, markers ${markers.length}, stop records ${stopData(entries).length}, notifies ${loopNotifies(rpc.notifies).length}`);
    assert.equal(requests(box).length, 2 + before.length, "no continuation request after the question");
    assert.deepEqual(markers.map((details) => details.round), before.map((_, index) => index + 1), "no marker after the question");
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "question", reason: waiting, round: before.length, open: 2, anchor }]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${waiting}`, notifyType: "warning" }]);
    assert.equal(footers(rpc.statuses).at(-1), "todo loop: waiting for you · todo 2 of 2 open");
    // The person answers: the wait ends and the loop carries the run to the end of the list.
    await rpc.prompt("Yes, go on.");
    const after = await rpc.getEntries();
    assert.deepEqual(stopData(after).map((stop) => stop.kind), ["question", "clear"]);
    assert.equal(requests(box).length, 4 + before.length);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
}

test("a question followed by a tag line ('[Logs saved]') is a question: the loop waits, one question record, no marker", { timeout }, async (t) => {
  await assertWaits(t, [], "The parser is written.\n\nShall I start on the tests now?\n\n[Logs saved]\n", "Shall I start on the tests now?");
});

test("a request in Japanese without a question mark (please share the config file) is a question: the loop waits", { timeout }, async (t) => {
  const request = "設定ファイルを共有してください。";
  await assertWaits(t, [], `パーサーは書き終えました。\n\n${request}`, request);
});

test("a closing list of options under 'Would you like me to:' is a question: the loop waits", { timeout }, async (t) => {
  await assertWaits(t, [], "The parser is written.\n\n**Would you like me to:**\n1. Write the tests next\n2. Stop and review first\n", "Would you like me to:");
});

test("a question before a nested code block (a ````md block holding a ``` block) is a question: the loop waits", { timeout }, async (t) => {
  const asking = "Shall I add this section to the README?\n\n````md\n## Usage\n\n```sh\nnpm start\n```\n````\n";
  await assertWaits(t, [], asking, "Shall I add this section to the README?");
});

test("a sign-off ('Let me know if you need anything else.') asks nothing: the loop continues with a marker; a later Arabic question ending in a right-to-left mark waits", { timeout }, async (t) => {
  await assertWaits(t, [say("The parser is written. Let me know if you need anything else.")], "هل أكتب الاختبارات الآن؟\u200f", "هل أكتب الاختبارات الآن؟");
});
