/**
 * Busy but stuck (src/loop.ts, SPEC §4.10): replies without progress and the same reply again, the
 * brake that speaks when several are reached, and countReply().
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import type { DecideInput, Decision, Memory } from "../../src/core/types.ts";
import { applyCommand, countReply, limitReached, stopKind } from "../../src/loop.ts";
import type { ReplyFacts } from "../../src/core/reply.ts";
import { LIST, seen, branch, settleTurn, toolTurn, limits, input, run, ended, facts, NO_SPEND, replies } from "./facts.ts";

// ---- §4.10 busy but stuck: replies without progress, the same reply again ---------------------------

const STILL: ReplyFacts = { progress: false, fingerprint: "fp-still" };
/** A settle whose reply did nothing new (re-read the list, say), each time with other words. */
const stillTurn = (words: string) => settleTurn({ reply: { progress: false, fingerprint: `fp-${words}` } });
const STUCK_ONLY = limits({ maxStuckReplies: 5 });
const REPEAT_ONLY = limits({ maxRepeats: 3 });

test("decide: §4.10 maxStuckReplies (default 5): four replies without progress continue, the fourth's continuation carries the hint, the fifth stops (kind stuck)", () => {
  assert.equal(DEFAULT_CONFIG.maxStuckReplies, 5);
  const decisions = replies(["a", "b", "c", "d", "e"].map(stillTurn), { limits: STUCK_ONLY });
  assert.deepEqual(decisions.map((decision) => decision.continue), [true, true, true, true, false]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.stuck), [1, 2, 3, 4, undefined]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.hint), [false, true, false, true, undefined], "0.2's idle hint on the second; the brake's hint one reply before the stop");
  const last = decisions[4] as Decision;
  assert.deepEqual(last.memory.last, { kind: "stuck", replies: 5, open: 2 });
  const end = ended(last);
  assert.equal(end.record?.kind, "stuck");
  assert.equal(end.record?.reason, "stopped: 5 replies in a row without progress (no edits, commands, new reads or todo changes), 2 tasks still open; it may need you");
  assert.deepEqual(end.notice, { kind: "stop", reason: { kind: "stuck", replies: 5, open: 2 }, level: "warning" });
});

test("decide: §4.10 a reply that made progress (an edit, a command, a new read) starts the no-progress count again", () => {
  const decisions = replies([stillTurn("a"), stillTurn("b"), stillTurn("c"), settleTurn({ reply: { progress: true, fingerprint: "fp-edit" } }), stillTurn("d")], { limits: STUCK_ONLY });
  assert.deepEqual(decisions.map((decision) => decision.memory.stuck), [1, 2, 3, 0, 1]);
  assert.ok(decisions.every((decision) => decision.continue));
});

test("decide: §4.10 a reply whose list signature changed made progress even when its calls did not (plan-mode's [DONE:n], a custom-entry list)", () => {
  const start = seen({ stuck: 4 });
  const changed = run(input({ memory: start, turn: stillTurn("x"), limits: STUCK_ONLY, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(changed.continue, true);
  assert.equal(changed.memory.stuck, 0);
  const same = run(input({ memory: start, turn: stillTurn("x"), limits: STUCK_ONLY }));
  assert.equal(same.continue, false);
});

test("decide: §4.10 tool turns do not end a run of replies without progress (a read is a tool turn, yet no progress)", () => {
  let state = seen({ stuck: 3 });
  state = run(input({ memory: state, turn: toolTurn(), limits: STUCK_ONLY })).memory;
  assert.equal(state.stuck, 3, "a tool turn leaves the count alone: the reply's facts decide at its settle");
  const next = run(input({ memory: state, turn: stillTurn("y"), limits: STUCK_ONLY }));
  assert.equal(next.memory.stuck, 4);
  assert.equal(next.marker?.hint, true);
});

test("decide: §4.10 maxRepeats (default 3): the same reply twice continues with the hint, a third time stops (kind repeat)", () => {
  assert.equal(DEFAULT_CONFIG.maxRepeats, 3);
  const same = settleTurn({ reply: { progress: true, fingerprint: "fp-same" } });
  const decisions = replies([same, same, same], { limits: REPEAT_ONLY });
  assert.deepEqual(decisions.map((decision) => decision.continue), [true, true, false]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.repeats), [1, 2, undefined]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.hint), [false, true, undefined]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.fp), ["fp-same", "fp-same", undefined]);
  const end = ended(decisions[2] as Decision);
  assert.equal(end.record?.kind, "repeat");
  assert.equal(end.record?.reason, "stopped: the agent gave the same reply 3 times in a row, 2 tasks still open; it may need you");
});

test("decide: §4.10 a different fingerprint starts the repeat count at 1 (the same command after an edit is no repeat)", () => {
  const a = settleTurn({ reply: { progress: true, fingerprint: "fp-a" } });
  const b = settleTurn({ reply: { progress: true, fingerprint: "fp-b" } });
  const decisions = replies([a, a, b, a, a], { limits: REPEAT_ONLY });
  assert.deepEqual(decisions.map((decision) => decision.memory.repeats), [1, 2, 1, 1, 2]);
  assert.ok(decisions.every((decision) => decision.continue));
});

test("decide: §4.10 with maxStuckReplies and maxRepeats off (null) replies without progress and identical replies keep being nudged", () => {
  const decisions = replies(Array.from({ length: 12 }, () => settleTurn({ reply: STILL })));
  assert.ok(decisions.every((decision) => decision.continue));
  assert.equal(decisions.at(-1)?.memory.stuck, 12);
  assert.equal(decisions.at(-1)?.memory.repeats, 12);
  assert.ok(decisions.every((decision) => decision.marker?.hint === (decision.marker?.idle === 2)), "no brake hint with the brakes off");
});

test("decide: §4.10 a reply the branch says nothing about is not counted by these brakes (they never guess)", () => {
  const decision = run(input({ memory: seen({ stuck: 4, fp: "fp-x", repeats: 2 }), turn: settleTurn({ reply: undefined }), limits: limits({ maxStuckReplies: 5, maxRepeats: 3 }) }));
  assert.equal(decision.continue, true);
  assert.deepEqual({ stuck: decision.memory.stuck, fp: decision.memory.fp, repeats: decision.memory.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
  assert.equal(decision.marker?.fp, null);
});

test("decide: §4.10 a brake of 1 stops at the first such reply and gives no hint before it", () => {
  const stuck = run(input({ memory: seen(), turn: stillTurn("a"), limits: limits({ maxStuckReplies: 1 }) }));
  assert.equal(stuck.memory.last.kind, "stuck");
  const progress = run(input({ memory: seen(), turn: settleTurn({ reply: { progress: true, fingerprint: "fp-a" } }), limits: limits({ maxStuckReplies: 1, maxRepeats: 2 }) }));
  assert.equal(progress.continue, true);
  assert.equal(progress.marker?.hint, true, "maxRepeats 2: the first reply is the (2 − 1)th identical one");
  const none = run(input({ memory: seen(), turn: settleTurn({ reply: { progress: true, fingerprint: "fp-a" } }), limits: limits({ maxStuckReplies: 1, maxRepeats: 1 }) }));
  assert.equal(none.memory.last.kind, "repeat");
});

test("decide: §4.10 a brake of 1 gives no hint on the replies it lets through (no count is at 0 of 1 before a stop)", () => {
  const progress = run(input({ memory: seen(), turn: settleTurn({ reply: { progress: true, fingerprint: "fp-a" } }), limits: limits({ maxStuckReplies: 1 }) }));
  assert.equal(progress.continue, true);
  assert.equal(progress.memory.stuck, 0);
  assert.equal(progress.marker?.hint, false);
  const unknown = run(input({ memory: seen(), turn: settleTurn({ reply: undefined }), limits: limits({ maxRepeats: 1 }) }));
  assert.equal(unknown.continue, true);
  assert.equal(unknown.memory.repeats, 0);
  assert.equal(unknown.marker?.hint, false);
});

test("decide: §4.10 which brake speaks: maxRounds, maxTokens, maxCost, maxMinutes, maxIdleReplies, maxRepeats, maxStuckReplies, in that order", () => {
  const all = limits({ maxRounds: 1, maxTokens: 1, maxCost: 0.01, maxMinutes: 1, maxIdleReplies: 1, maxRepeats: 1, maxStuckReplies: 1 });
  const spend = { tokens: 5, cost: 1, minutes: 5 };
  const named = (mem: Memory, given: DecideInput["spend"]) => {
    const reached = limitReached(mem, all, given, 1);
    return reached?.kind === "limit" ? reached.limit : reached?.kind;
  };
  const every = seen({ round: 1, settleRun: 1, repeats: 1, stuck: 1 });
  assert.equal(named(every, spend), "maxRounds");
  assert.equal(named({ ...every, round: 0 }, spend), "maxTokens");
  assert.equal(named({ ...every, round: 0 }, { ...spend, tokens: 0 }), "maxCost");
  assert.equal(named({ ...every, round: 0 }, { tokens: 0, cost: 0, minutes: 5 }), "maxMinutes");
  assert.equal(named({ ...every, round: 0 }, NO_SPEND), "idle");
  assert.equal(named({ ...every, round: 0, settleRun: 0 }, NO_SPEND), "repeat");
  assert.equal(named({ ...every, round: 0, settleRun: 0, repeats: 0 }, NO_SPEND), "stuck");
  assert.equal(named({ ...every, round: 0, settleRun: 0, repeats: 0, stuck: 0 }, NO_SPEND), undefined);
});

test("decide: §4.10 at one settle the idle stop keeps 0.2's wording over repeat and stuck; a question or a wait comes before all of them", () => {
  const brakes = limits({ maxIdleReplies: 3, maxRepeats: 3, maxStuckReplies: 3 });
  const near = seen({ settleRun: 2, stuck: 2, fp: "fp-same", repeats: 2 });
  const same = settleTurn({ reply: { progress: false, fingerprint: "fp-same" } });
  const idle = run(input({ memory: near, turn: same, limits: brakes }));
  assert.equal(idle.memory.last.kind, "idle");
  assert.equal(ended(idle).record?.reason, "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you");
  const repeat = run(input({ memory: { ...near, settleRun: 0 }, turn: same, limits: brakes }));
  assert.equal(repeat.memory.last.kind, "repeat");
  const asked = run(input({ memory: near, turn: { ...same, question: "Which one?" }, limits: brakes }));
  assert.equal(asked.memory.last.kind, "waiting");
  assert.equal(ended(asked).record?.kind, "question");
  const waiting = run(input({ memory: { ...near, waiting: { reason: "need the key", asked: false } }, turn: same, limits: brakes }));
  assert.equal(ended(waiting).record?.kind, "waiting");
});

test("decide: §4.13 a stuck or repeat stop is announced once per kind, even when its count grows", () => {
  for (const [kind, turn, given] of [
    ["stuck", stillTurn("z"), limits({ maxStuckReplies: 2 })],
    ["repeat", settleTurn({ reply: STILL }), limits({ maxRepeats: 2 })],
  ] as const) {
    const first = ended(run(input({ memory: seen({ stuck: 1, fp: STILL.fingerprint, repeats: 1 }), turn, limits: given })));
    assert.equal(first.record?.kind, kind);
    const second = ended(run(input({ memory: first.memory, turn, limits: given })));
    assert.equal(second.record, undefined, `${kind}: not recorded twice`);
    assert.equal(second.notice, undefined);
    assert.equal(stopKind({ kind, replies: 3, open: 1 }), kind);
  }
});

test("decide: §4.10 the counts are per human message: a new anchor starts them again", () => {
  const decision = run(input({ memory: seen({ stuck: 4, fp: STILL.fingerprint, repeats: 2 }), branch: branch({ anchor: "u2", hadWork: true }), turn: settleTurn({ reply: STILL }), limits: limits({ maxStuckReplies: 5, maxRepeats: 3 }) }));
  assert.equal(decision.continue, true);
  assert.equal(decision.memory.stuck, 0, "the first sighting of the list under the new message is progress");
  assert.equal(decision.memory.repeats, 1, "the old message's fingerprint does not count");
});

test("decide: §4.14 the counts come back from the branch (the newest marker's stuck, fp, repeats) after a reload", () => {
  const decision = run(input({ memory: undefined, branch: branch({ signature: "sig-a", hadWork: true, stuck: 4, fp: STILL.fingerprint, repeats: 2 }), turn: settleTurn({ reply: STILL }), limits: limits({ maxStuckReplies: 5 }) }));
  assert.equal(decision.memory.last.kind, "stuck");
  const repeat = run(input({ memory: undefined, branch: branch({ signature: "sig-a", hadWork: true, stuck: 0, fp: STILL.fingerprint, repeats: 2 }), turn: settleTurn({ reply: STILL }), limits: limits({ maxRepeats: 3 }) }));
  assert.equal(repeat.memory.last.kind, "repeat");
});

test("applyCommand: reset clears the no-progress and repeat counts; continue's marker carries stuck, fp and repeats", () => {
  const stuck = seen({ stuck: 5, fp: "fp-x", repeats: 3, round: 4 });
  const reset = applyCommand(stuck, "reset", facts());
  assert.deepEqual({ stuck: reset.memory.stuck, fp: reset.memory.fp, repeats: reset.memory.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
  const continued = applyCommand(stuck, "continue", facts());
  assert.equal(continued.marker?.round, 5);
  assert.deepEqual({ stuck: continued.marker?.stuck, fp: continued.marker?.fp, repeats: continued.marker?.repeats }, { stuck: 5, fp: "fp-x", repeats: 3 }, "counters kept");
  assert.equal(continued.marker?.hint, false);
});

test("countReply: progress or a changed list resets the count; the same fingerprint adds one; a first reply is 1", () => {
  const reply = (progress: boolean, fingerprint: string): ReplyFacts => ({ progress, fingerprint });
  assert.deepEqual(countReply(seen(), reply(false, "a"), false), { stuck: 1, fp: "a", repeats: 1 });
  assert.deepEqual(countReply(seen({ stuck: 2, fp: "a", repeats: 1 }), reply(false, "a"), false), { stuck: 3, fp: "a", repeats: 2 });
  assert.deepEqual(countReply(seen({ stuck: 2, fp: "a", repeats: 1 }), reply(true, "a"), false), { stuck: 0, fp: "a", repeats: 2 });
  assert.deepEqual(countReply(seen({ stuck: 2, fp: "a", repeats: 4 }), reply(false, "b"), true), { stuck: 0, fp: "b", repeats: 1 });
  assert.deepEqual(countReply(seen({ stuck: 2, fp: "a", repeats: 4 }), undefined, false), { stuck: 0, fp: undefined, repeats: 0 });
});
