/**
 * Tasks from an earlier message (src/loop.ts, SPEC §4.15): when a new message holds the loop, what
 * adopts the list, and the once-per-list-state stop.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { DecideInput, ListState } from "../../src/core/types.ts";
import { applyCommand, holdsEarlier, listKey, NO_EARLIER } from "../../src/loop.ts";
import type { CommandFacts } from "../../src/loop.ts";
import { earlierFacts } from "../../src/core/stops.ts";
import { ANCHOR, LIST, CLEAR, EMPTIED, NO_LIMITS, memory, seen, branch, settleTurn, limits, input, run, ended } from "./facts.ts";

// ---- §4.15 tasks from an earlier message -------------------------------------------------------------------

const EARLIER = { ...NO_EARLIER, open: true };
/** A settle under a new message while the earlier message's two tasks are still open. */
function earlierInput(overrides: Partial<DecideInput> = {}, earlier: Partial<typeof EARLIER> = {}): DecideInput {
  return input({ branch: branch({ hadWork: true, earlier: { ...EARLIER, ...earlier } }), ...overrides });
}

test("holdsEarlier: only with \"ask\", tasks open as the message arrived, not carried over and not adopted", () => {
  assert.equal(holdsEarlier("ask", { open: true, carried: false, adopted: false }), true);
  assert.equal(holdsEarlier("continue", { open: true, carried: false, adopted: false }), false, "continue is 0.2's behaviour");
  assert.equal(holdsEarlier("ask", { open: false, carried: false, adopted: false }), false, "the message that creates a list is never earlier");
  assert.equal(holdsEarlier("ask", { open: true, carried: true, adopted: false }), false, "a message that carries the list over");
  assert.equal(holdsEarlier("ask", { open: true, carried: false, adopted: true }), false, "a list the message took up");
});

test("earlierFacts: a message with nothing earlier holds nothing — every fact false or absent; carried and adopted also from this process", () => {
  const none = earlierFacts(memory(), branch());
  assert.deepEqual(none, { open: false, carried: false, adopted: false, shown: undefined, before: undefined });
  assert.equal(holdsEarlier("ask", none), false);
  assert.deepEqual([earlierFacts(memory({ carried: true }), branch()).carried, earlierFacts(memory({ adopted: true }), branch()).adopted], [true, true]);
  const kept = earlierFacts(memory(), branch({ earlier: { ...EARLIER, shown: "k", before: "u0" } }));
  assert.deepEqual(kept, { open: true, carried: false, adopted: false, shown: "k", before: "u0" });
  assert.equal(holdsEarlier("ask", kept), true);
});

test("decide: §4.15 a settle under a new message with tasks open from an earlier one does not continue: an earlier stop, info, not a warning", () => {
  const decision = run(earlierInput());
  assert.equal(decision.continue, false);
  assert.equal(decision.marker, undefined);
  assert.deepEqual(decision.memory.last, { kind: "earlier", open: 2, list: listKey(LIST) });
  assert.equal(decision.memory.round, 0, "no round spent");
  const stop = ended(decision);
  assert.equal(stop.record?.kind, "earlier");
  assert.equal(stop.record?.list, listKey(LIST), "the record keeps the list state it was shown for");
  assert.equal(stop.record?.reason, "not continuing: 2 tasks are open from an earlier message — /todoloop continue to go on with them");
  assert.deepEqual(stop.notice, { kind: "stop", reason: decision.memory.last, level: "info" });
  assert.equal(ended(decision, true).notice, undefined, "in the TUI the transcript line is the announcement");
});

test("decide: §4.15 the agent used the list's tool, or the list changed under the message (adopted) → the loop continues", () => {
  assert.equal(run(earlierInput({}, { adopted: true })).continue, true);
});

test("decide: §4.15 a message that answers a wait or came while a run was going (carried over) → the loop continues without asking", () => {
  assert.equal(run(earlierInput({}, { carried: true })).continue, true);
});

test("decide: §4.15 earlierTasks \"continue\" is 0.2's behaviour: the earlier list is pushed", () => {
  assert.equal(run(earlierInput({ earlierTasks: "continue" })).continue, true);
});

test("decide: §4.15 the message that creates a list is never earlier", () => {
  assert.equal(run(input({ branch: branch({ earlier: { ...EARLIER, open: false } }) })).continue, true);
});

test("decide: §4.15 once per list state: a later message with the same untouched list is held quietly (no stop recorded)", () => {
  const decision = run(earlierInput({}, { shown: listKey(LIST) }));
  assert.equal(decision.continue, false);
  assert.equal(decision.memory.last.kind, "earlier");
  assert.equal(decision.memory.pending, undefined, "nothing to record or announce");
  const changed: ListState = { ...LIST, signature: "sig-b" };
  assert.equal(ended(run(earlierInput({ list: changed }, { shown: listKey(LIST) }))).record?.kind, "earlier", "another list state is shown again");
});

test("decide: §4.15 within one message the earlier stop is recorded once, however many settles", () => {
  const first = run(earlierInput());
  const settled = ended(first);
  assert.equal(settled.record?.kind, "earlier");
  const second = run(earlierInput({ memory: settled.memory }));
  assert.equal(second.continue, false);
  assert.equal(ended(second).record, undefined);
});

test("decide: §4.15 decided after pause, wait and the question; the question becomes the wait", () => {
  assert.equal(run(earlierInput({ memory: memory({ paused: true, hadWork: true }) })).memory.last.kind, "paused");
  const waiting = { reason: "need a key", asked: false };
  assert.equal(run(earlierInput({ memory: memory({ waiting, hadWork: true }) })).memory.last.kind, "waiting");
  const asked = run(earlierInput({ turn: settleTurn({ question: "Which one?" }) }));
  assert.deepEqual(asked.memory.waiting, { reason: "Which one?", asked: true });
  assert.equal(ended(asked).record?.kind, "question");
});

test("decide: §4.15 decided before out of date, out of reach and the limits: a list that is not this message's is not reported stale or out of reach", () => {
  const outOfDate: ListState = { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" };
  assert.equal(run(earlierInput({ list: outOfDate })).memory.last.kind, "earlier");
  assert.equal(run(earlierInput({ tools: { active: ["read"], registered: [] } })).memory.last.kind, "earlier");
  assert.equal(run(earlierInput({ limits: limits({ maxRounds: 1 }), memory: seen({ round: 1 }) })).memory.last.kind, "earlier");
  assert.equal(run(earlierInput({ limits: limits({ maxIdleReplies: 1 }) })).memory.last.kind, "earlier");
});

test("decide: §4.15 a queued message or another extension's continuation still goes first: the run goes on, no earlier stop", () => {
  const queued = run(earlierInput({ pendingMessages: true }));
  assert.equal(queued.memory.last.kind, "queued");
  assert.equal(queued.memory.pending, undefined);
  assert.equal(run(earlierInput({ otherContinued: true })).memory.last.kind, "other-extension");
});

test("decide: §4.15 with no open task or no list there is nothing to hold: the usual stops apply", () => {
  assert.equal(run(earlierInput({ list: CLEAR })).memory.last.kind, "clear");
  assert.equal(run(earlierInput({ list: EMPTIED })).memory.last.kind, "no-list");
});

test("decide: §4.15 a human message queued at a turn carries the list over to the message that follows it (steering, follow-up)", () => {
  const queued = run(input({ pendingMessages: true, memory: seen() }));
  assert.equal(queued.memory.queued, true, "the turn saw a queued message");
  const next = branch({ anchor: "u2", hadWork: true, earlier: { ...EARLIER, before: ANCHOR } });
  assert.equal(run(input({ memory: queued.memory, branch: next })).continue, true, "the queued message carries the list over");
  assert.equal(run(input({ memory: seen(), branch: next })).continue, false, "a message typed after the run ended does not");
  const skipped = branch({ anchor: "u3", hadWork: true, earlier: { ...EARLIER, before: "u2" } });
  assert.equal(run(input({ memory: queued.memory, branch: skipped })).continue, false, "only the message right after the one the process saw queued");
  assert.equal(run(input({ memory: queued.memory, branch: next, branchSwitched: true })).continue, false, "after a branch switch only the branch tells");
});

test("decide: §4.15 the person's reply to a wait this process held carries the list over", () => {
  const waiting = memory({ waiting: { reason: "Which one?", asked: true }, hadWork: true });
  const next = branch({ anchor: "u2", hadWork: true, earlier: { ...EARLIER, before: ANCHOR } });
  assert.equal(run(input({ memory: waiting, branch: next })).continue, true);
});

test("applyCommand: §4.15 continue and resume adopt the list for the rest of the message; reset keeps that", () => {
  const facts: CommandFacts = { list: LIST, limits: NO_LIMITS, idle: true, killSwitch: false };
  const held = run(earlierInput()).memory;
  const continued = applyCommand(held, "continue", facts);
  assert.equal(continued.memory.adopted, true);
  assert.ok(continued.marker, "continue starts a run now");
  const after = run(earlierInput({ memory: continued.memory }));
  assert.equal(after.continue, true, "the settles after it continue");
  const resumed = applyCommand(held, "resume", facts);
  assert.equal(resumed.memory.adopted, true);
  assert.equal(run(earlierInput({ memory: resumed.memory })).continue, true, "resume: the loop goes on when the agent next stops");
  assert.equal(applyCommand(resumed.memory, "reset", facts).memory.adopted, true, "reset clears counters, not the consent");
  assert.equal(applyCommand(held, "pause", facts).memory.adopted, false, "pause is no consent");
});

test("listKey: a short stable key per list state; another signature is another key", () => {
  assert.equal(listKey(LIST), listKey({ ...LIST }));
  assert.match(listKey(LIST), /^[0-9a-f]{8}$/);
  assert.notEqual(listKey(LIST), listKey({ ...LIST, signature: "sig-b" }));
  assert.notEqual(listKey({ kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" }), listKey({ kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" }));
});
