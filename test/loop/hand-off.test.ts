/**
 * The hand-off when a limit ends the run (src/core/hand-off.ts, decide() and settle() in src/loop.ts,
 * SPEC §4.24): one continuation past a limit the person set, its details `handOff: true`, the round
 * kept at the limit, and the stop recorded after it, once, as the limit stop it was.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyCommand, settle } from "../../src/loop.ts";
import { handOff, heldStop, limitTheyHandOff } from "../../src/core/hand-off.ts";
import { describeReason } from "../../src/core/text.ts";
import type { HandOffFacts } from "../../src/core/hand-off.ts";
import type { ListState, PendingStop, Reason } from "../../src/core/types.ts";
import { branch, CLEAR, EMPTIED, ended, facts, input, LIST, limits, run, seen, settleTurn, toolTurn } from "./facts.ts";

const CAPPED = limits({ maxRounds: 2 });

test("hand-off: maxRounds reached with handOff on → one continuation, details handOff, the round kept at the limit", () => {
  const decision = run(input({ memory: seen({ round: 2 }), limits: CAPPED, handOff: true }));
  assert.equal(decision.continue, true);
  assert.equal(decision.marker?.handOff, true);
  assert.equal(decision.marker?.round, 2);
  assert.equal(decision.memory.round, 2);
  assert.equal(decision.memory.pending, undefined, "nothing is recorded before the hand-off reply");
  const atSettle = ended(decision);
  assert.equal(atSettle.record, undefined);
});

test("hand-off: the reply after it ends the run with the limit stop, whatever it says — a question is not waited on, no second continuation", () => {
  const first = run(input({ memory: seen({ round: 2 }), limits: CAPPED, handOff: true }));
  const tool = run(input({ memory: first.memory, limits: CAPPED, handOff: true, turn: toolTurn() }));
  assert.equal(tool.continue, false);
  const reply = run(input({ memory: tool.memory, limits: CAPPED, handOff: true, turn: settleTurn({ question: "Shall I go on?" }) }));
  assert.equal(reply.continue, false);
  assert.equal(reply.marker, undefined);
  const stop = ended(reply);
  assert.equal(stop.record?.kind, "limit");
  assert.equal(stop.record?.limit, "maxRounds");
  assert.equal(stop.record?.round, 2);
  assert.equal(stop.notice?.kind, "stop");
  assert.equal(stop.memory.handOff, undefined);
  assert.equal(settle(stop.memory, false, describeReason).record, undefined, "announced once");
});

test("hand-off: off by default; never for a brake, a question, a queued message or a stop already announced", () => {
  assert.equal(run(input({ memory: seen({ round: 2 }), limits: CAPPED })).marker, undefined);
  const idle = run(input({ memory: seen({ settleRun: 2 }), limits: limits({ maxIdleReplies: 3 }), handOff: true }));
  assert.equal(idle.continue, false);
  assert.equal(idle.memory.pending?.reason.kind, "idle");
  const question = run(input({ memory: seen({ round: 2 }), limits: CAPPED, handOff: true, turn: settleTurn({ question: "Which one?" }) }));
  assert.equal(question.continue, false);
  assert.equal(question.memory.pending?.reason.kind, "waiting");
  const queued = run(input({ memory: seen({ round: 2 }), limits: CAPPED, handOff: true, pendingMessages: true }));
  assert.equal(queued.marker, undefined);
  const again = run(input({ memory: seen({ round: 2, announced: ["limit:maxRounds"] }), limits: CAPPED, handOff: true }));
  assert.equal(again.marker, undefined);
  const errored = run(input({ memory: seen({ round: 2 }), limits: CAPPED, handOff: true, turn: settleTurn({ outcome: "error" }) }));
  assert.equal(errored.marker, undefined);
});

test("hand-off: token, cost and time limits and work-timeout hand off; a verification that ran out of runs does, on a clear list", () => {
  assert.equal(run(input({ memory: seen(), limits: limits({ maxTokens: 10 }), spend: { tokens: 10, cost: 0, minutes: undefined }, handOff: true })).marker?.handOff, true);
  assert.equal(run(input({ memory: seen(), limits: limits({ maxMinutes: 1 }), spend: { tokens: 0, cost: 0, minutes: 2 }, handOff: true })).marker?.handOff, true);
  assert.equal(run(input({ memory: seen(), handOff: true, work: { inFlight: 1, timedOut: 90 } })).marker?.handOff, true);
  assert.equal(limitTheyHandOff({ kind: "verify-failed", command: "npm test", exit: 1, seconds: 1, runs: 3, why: "runs" }), true);
  assert.equal(limitTheyHandOff({ kind: "verify-failed", command: "npm test", exit: 1, seconds: 1, runs: 1, why: "paused" }), false);
  const pending = { reason: { kind: "verify-failed", command: "npm test", exit: 1, seconds: 1, runs: 3, why: "runs" } as const, open: 0, level: "warning" as const };
  const verify = handOff(seen({ pending }), { handOff: true, list: CLEAR, limits: CAPPED, queued: false });
  assert.equal(verify?.marker.handOff, true);
  assert.deepEqual(verify?.memory.handOff, { held: pending });
});

test("hand-off: rebuilt from the branch after a reload, the next settle stops with the limit the counts reach, and never continues", () => {
  const reloaded = run(input({ memory: undefined, branch: branch({ round: 2, handOff: true, hadWork: true }), limits: CAPPED, handOff: true }));
  assert.equal(reloaded.continue, false);
  assert.equal(ended(reloaded).record?.limit, "maxRounds");
});

test("hand-off: a /todoloop continue marker says by continue (the report counts it apart)", () => {
  const result = applyCommand(seen(), "continue", facts());
  assert.equal(result.marker?.by, "continue");
});

const ROUNDS: Reason = { kind: "limit", limit: "maxRounds", used: 2, max: 2, open: 2, stale: 0 };
const AT_ROUNDS: PendingStop = { reason: ROUNDS, open: 2, level: "warning" };
const FAILED = (why: "runs" | "limit" | "paused" | "queued"): Reason => ({ kind: "verify-failed", command: "npm test", exit: 1, seconds: 1, runs: 3, why });
const ON = (list: ListState, more: Partial<HandOffFacts> = {}): HandOffFacts => ({ handOff: true, list, limits: CAPPED, queued: false, ...more });

test("hand-off rule: which stops are a limit the person set — limits, work-timeout, a verification out of runs or at a limit; never a brake, a pause or a queued message", () => {
  assert.equal(limitTheyHandOff(ROUNDS), true);
  assert.equal(limitTheyHandOff({ kind: "work-timeout", minutes: 90, open: 1 }), true);
  assert.equal(limitTheyHandOff(FAILED("runs")), true);
  assert.equal(limitTheyHandOff(FAILED("limit")), true);
  assert.equal(limitTheyHandOff(FAILED("paused")), false);
  assert.equal(limitTheyHandOff(FAILED("queued")), false);
  assert.equal(limitTheyHandOff({ kind: "idle", replies: 3, open: 1 }), false);
  assert.equal(limitTheyHandOff({ kind: "stuck", replies: 5, open: 1 }), false);
  assert.equal(limitTheyHandOff({ kind: "clear" }), false);
});

test("hand-off rule: the continuation's memory and marker — the held stop, work seen, the list's counts, tool and source", () => {
  const sent = handOff(seen({ pending: AT_ROUNDS, round: 2, hadWork: false }), ON(LIST));
  assert.deepEqual(sent?.memory.handOff, { held: AT_ROUNDS });
  assert.equal(sent?.memory.pending, undefined);
  assert.equal(sent?.memory.hadWork, true);
  assert.deepEqual(sent?.marker, { v: 1, round: 2, anchor: "u1", open: 2, total: 3, cap: 2, hint: false, idle: 0, stale: 0, stuck: 0, fp: null, repeats: 0, handOff: true, tool: "todo", source: "rpiv-todo" });
  // A failed verification hands off without a readable list: no counts, tool or source are made up.
  const base = { v: 1, round: 0, anchor: "u1", open: 0, total: 0, cap: 2, hint: false, idle: 0, stale: 0, stuck: 0, fp: null, repeats: 0, handOff: true, tool: undefined, source: undefined };
  const failed: PendingStop = { reason: FAILED("limit"), open: 0, level: "warning" };
  assert.deepEqual(handOff(seen({ pending: failed }), ON(EMPTIED))?.marker, base);
  const stale: ListState = { kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" };
  assert.deepEqual(handOff(seen({ pending: failed }), ON(stale))?.marker, base);
});

test("hand-off rule: none when off, nothing held, another stop, a message queued, one already sent, paused, waiting, or no task open for a limit", () => {
  const held = seen({ pending: AT_ROUNDS });
  assert.notEqual(handOff(held, ON(LIST)), undefined, "the case the others vary");
  assert.equal(handOff(held, ON(LIST, { handOff: false })), undefined);
  assert.equal(handOff(seen(), ON(LIST)), undefined);
  assert.equal(handOff(seen({ pending: { reason: { kind: "idle", replies: 3, open: 2 }, open: 2, level: "warning" } }), ON(LIST)), undefined);
  assert.equal(handOff(held, ON(LIST, { queued: true })), undefined);
  assert.equal(handOff(seen({ pending: AT_ROUNDS, handOff: { held: undefined } }), ON(LIST)), undefined);
  assert.equal(handOff(seen({ pending: AT_ROUNDS, paused: true }), ON(LIST)), undefined);
  assert.equal(handOff(seen({ pending: AT_ROUNDS, waiting: { reason: "Which one?", asked: true } }), ON(LIST)), undefined);
  assert.equal(handOff(held, ON(CLEAR)), undefined, "a limit on a clear list leaves nothing to hand over");
  assert.equal(handOff(held, ON(EMPTIED)), undefined, "nor without a list");
  assert.equal(handOff(held, ON({ kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" })), undefined, "nor on a list it cannot read");
});

test("hand-off rule: the stop a turn under it ends with — the held one; rebuilt after a reload, only a limit the counts reach, at a warning", () => {
  assert.equal(heldStop(seen(), ROUNDS, 2), undefined, "no hand-off under way");
  assert.equal(heldStop(seen({ handOff: { held: AT_ROUNDS } }), undefined, 0), AT_ROUNDS);
  const reloaded = seen({ handOff: { held: undefined } });
  assert.deepEqual(heldStop(reloaded, ROUNDS, 1), { reason: ROUNDS, open: 1, level: "warning" });
  assert.equal(heldStop(reloaded, undefined, 1), undefined);
  assert.equal(heldStop(reloaded, { kind: "idle", replies: 3, open: 1 }, 1), undefined);
});
