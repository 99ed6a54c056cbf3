/**
 * The English 0.5 added (SPEC §4.22 the judge, §4.23 hands-over, §10 an older pi): each sentence word for
 * word, where the agent's words go and where they never go, and the fallbacks of a missing time or detail.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkInNudgeText,
  describeReason,
  describeVerify,
  judgeProblemText,
  judgeStatusText,
  limitExhaustedText,
  olderPiText,
  reachText,
  statusText,
  stopDetail,
  stopHeadline,
  SUPPORTED_PI,
  wakeNudgeText,
} from "../../src/core/text.ts";
import type { JudgeFailure } from "../../src/core/judge.ts";
import type { Reason } from "../../src/core/types.ts";
import { NOW, view } from "./text-facts.ts";

const JUDGE = { model: "judgefaux/jev", question: "waits", p: 0.9, tokens: 240, cost: 0 } as const;
const ASKS = "Please test the login page in your browser";

test("judge problems: each failure names the model, says what went wrong, and that the loop decided without it", () => {
  const cases: Array<[JudgeFailure, string]> = [
    ["not-a-model", 'todo loop: the judge "acme/nope" is not a model pi knows (a classifier or a chat model): no judge is asked'],
    ["auth", 'todo loop: the judge "acme/nope" could not be called: no working credentials; decided as without a judge'],
    ["error", 'todo loop: the judge "acme/nope" answered with an error; decided as without a judge'],
    ["timeout", 'todo loop: the judge "acme/nope" gave no answer within judgeTimeoutSeconds; decided as without a judge'],
    ["no-answer", 'todo loop: the judge "acme/nope" gave no answer the loop can read; decided as without a judge'],
  ];
  for (const [failure, expected] of cases) assert.equal(judgeProblemText("acme/nope", failure), expected, failure);
  assert.equal(judgeProblemText("acme/nope", "error", "HTTP 500"), 'todo loop: the judge "acme/nope" answered with an error (HTTP 500); decided as without a judge');
  assert.equal(judgeProblemText("acme/nope", "error", ""), 'todo loop: the judge "acme/nope" answered with an error; decided as without a judge', "an empty detail adds no brackets");
  assert.equal(judgeProblemText("acme/nope", "not-a-model", "unknown"), 'todo loop: the judge "acme/nope" is not a model pi knows (a classifier or a chat model): no judge is asked (unknown)');
  const hostile = judgeProblemText("acme/\u001b[31mred", "error", `line one\nline two ${"x".repeat(300)}`);
  assert.doesNotMatch(hostile, /[\u0000-\u001f]/, "no control character of the model or the detail reaches the line");
  assert.ok(hostile.length < 300, "the detail is cut");
});

test("judge status: calls, tokens and dollars under this message", () => {
  assert.equal(judgeStatusText("judgefaux/jev", { calls: 1, tokens: 240, cost: 0 }), "judge judgefaux/jev: 1 call, 240 tokens, $0.0000");
  assert.equal(judgeStatusText("acme/small", { calls: 12, tokens: 12_345, cost: 0.01234 }), "judge acme/small: 12 calls, 12,345 tokens, $0.0123");
});

test("an older pi: the pi it needs, what this one lacks, and how to get the new one", () => {
  const install = "Install Node.js 22.19 or newer, then run: npm install -g @earendil-works/pi-coding-agent";
  assert.equal(olderPiText([]), `pi-todo-loop is off: it needs pi ${SUPPORTED_PI}. ${install}`);
  assert.equal(olderPiText(["on"]), `pi-todo-loop is off: it needs pi ${SUPPORTED_PI} (this pi has no pi.on). ${install}`);
  assert.equal(olderPiText(["appendEntry", "sendMessage"]), `pi-todo-loop is off: it needs pi ${SUPPORTED_PI} (this pi has no pi.appendEntry, pi.sendMessage). ${install}`);
});

test("a wait the judge read is named as the judge's, with the reply's sentence; the rule's own waits are not", () => {
  assert.equal(describeReason({ kind: "waiting", reason: "Shall I deploy now", asked: false, judge: JUDGE }), 'waiting for you: the judge read the reply as waiting for you: "Shall I deploy now"');
  assert.equal(describeReason({ kind: "waiting", reason: "Shall I deploy now?", asked: true }), 'waiting for you: the agent asked: "Shall I deploy now?"');
});

test("hands-over: the clear stop carries the agent's sentence; the headline keeps the fixed words and the detail the sentence", () => {
  const clear: Reason = { kind: "clear", handsOver: ASKS };
  assert.equal(describeReason(clear), `stopped: list is clear · the agent asks you to test it: "${ASKS}"`);
  assert.equal(describeReason({ kind: "clear", handsOver: "" }), "stopped: list is clear", "an empty sentence is no hand-over");
  assert.equal(describeReason({ kind: "clear" }), "stopped: list is clear");
  assert.equal(stopHeadline(clear), "stopped: list is clear · the agent asks you to test it");
  assert.equal(stopHeadline({ kind: "clear" }), "stopped: list is clear");
  assert.equal(stopDetail(clear, 500), ASKS);
  assert.equal(stopDetail({ kind: "clear" }, 500), null, "a plain clear stop carries no words");
  assert.equal(stopDetail({ kind: "clear", handsOver: "\u0007" }, 500), null, "nothing printable left is no detail");
  assert.equal(stopDetail({ kind: "waiting", reason: "Which port?", asked: true }, 500), "Which port?");
  assert.equal(stopDetail({ kind: "idle", replies: 2, open: 1 } as Reason, 500), null);
  assert.equal(reachText(clear, 0, 3), `stopped: list is clear · the agent asks you to test it: "${ASKS}"`);
  assert.equal(reachText({ kind: "clear" }, 0, 3), "stopped: list is clear");
});

test("hands-over after a passed check: only a clear list's, in the verified line, its headline and its detail", () => {
  const verified: Reason = { kind: "verified", base: "clear", command: "npm test", seconds: 12, handsOver: ASKS };
  assert.equal(describeVerify(verified), `stopped: list is clear · npm test passed (12 s) · the agent asks you to test it: "${ASKS}"`);
  assert.equal(describeVerify({ ...verified, handsOver: undefined }), "stopped: list is clear · npm test passed (12 s)");
  const emptied: Reason = { ...verified, base: "emptied" };
  assert.doesNotMatch(describeVerify(emptied), /asks you to test/, "an emptied list hands nothing over");
  assert.equal(stopHeadline(verified), "stopped: list is clear · npm test passed (12 s) · the agent asks you to test it");
  assert.equal(stopDetail(verified, 500), ASKS);
  assert.equal(stopDetail(emptied, 500), null);
  assert.equal(reachText(verified, 0, 2), `stopped: list is clear · npm test passed (12 s) · the agent asks you to test it: "${ASKS}"`);
});

test("work nudges without a todo tool (plan mode) lead with the plan's steps; with one, with the tool", () => {
  assert.match(wakeNudgeText(undefined), /^Continue with the open steps of the plan, and mark each step as you finish it by writing \[DONE:n\] in your reply\. The background work/);
  assert.match(checkInNudgeText(undefined), /^Continue with the open steps of the plan/);
  assert.match(wakeNudgeText("todo"), /^Continue with the open tasks on your todo list\. Use /);
});

test("the status names the message it counts from by its time, or as the latest when its time is unknown", () => {
  const unknown = statusText(view({ anchorTime: Number.NaN, anchorText: "fix the build" }));
  assert.match(unknown, /^counting from: your latest message \("fix the build"\)$/m);
  assert.doesNotMatch(unknown, /NaN/);
});

test("a usage limit given up: past the cap, too far, or too far with no time to state", () => {
  assert.equal(limitExhaustedText({ why: "spent", capMinutes: 300, beyond: true }, NOW), "still rate limited after 300 minutes", "beyond belongs to too-far only");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 300, beyond: true }, NOW), "the usage limit resets in more than 7 days");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 1, resetAtMs: Number.NaN }, NOW), "still rate limited after 1 minute");
  assert.equal(limitExhaustedText({ why: "spent", capMinutes: 300, resetAtMs: NOW + 3_600_000 }, NOW), "still rate limited after 300 minutes", "a reset time belongs to too-far only");
});
