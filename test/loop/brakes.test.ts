/**
 * The brakes of the decision (src/loop.ts, SPEC §4.6, §4.8, §4.10): a question waits, replies without
 * work, the minutes limit, a todo tool out of reach, and limitReached() for every limit.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import type { DecideInput, ListState, Memory, ToolFacts } from "../../src/core/types.ts";
import { applyCommand, limitReached, stopKind, toolReachable } from "../../src/loop.ts";
import { ANCHOR, LIST, CLEAR, NO_LIMITS, memory, seen, branch, settleTurn, toolTurn, limits, input, run, ended, facts, NO_SPEND } from "./facts.ts";

// ---- questions, replies without work, minutes, reach ----------------------------------------------

test("decide: §4.8 a reply ending with a question waits with the question as its reason, announced once as a warning", () => {
  const decision = run(input({ memory: seen(), turn: settleTurn({ question: "Should I use Postgres or SQLite?" }) }));
  assert.equal(decision.continue, false);
  assert.equal(decision.marker, undefined);
  assert.deepEqual(decision.memory.waiting, { reason: "Should I use Postgres or SQLite?", asked: true });
  const end = ended(decision);
  assert.equal(end.record?.kind, "question");
  assert.equal(end.record?.reason, 'waiting for you: the agent asked: "Should I use Postgres or SQLite?"');
  assert.equal(end.notice?.kind === "stop" && end.notice.level, "warning");
  const again = ended(run(input({ memory: end.memory })));
  assert.equal(again.record, undefined, "the wait is not announced twice");
});

test("decide: §4.8 with stopOnQuestion false a question gets the normal nudge", () => {
  const decision = run(input({ memory: seen(), stopOnQuestion: false, turn: settleTurn({ question: "Shall I go on?" }) }));
  assert.equal(decision.continue, true);
  assert.equal(decision.memory.waiting, undefined);
});

test("decide: §4.8 a question is no wait while nothing is open, while paused, or when a queued message runs next", () => {
  assert.equal(run(input({ memory: seen(), list: CLEAR, turn: settleTurn({ question: "Anything else?" }) })).memory.waiting, undefined);
  assert.equal(run(input({ memory: seen({ paused: true }), turn: settleTurn({ question: "Go on?" }) })).memory.waiting, undefined);
  assert.equal(run(input({ memory: seen(), pendingMessages: true, turn: settleTurn({ question: "Go on?" }) })).memory.waiting, undefined);
});

test("decide: §4.8 the human's next message ends a question wait (a new anchor)", () => {
  const waiting = run(input({ memory: seen(), turn: settleTurn({ question: "Which one?" }) }));
  const next = run(input({ memory: waiting.memory, branch: branch({ anchor: "u2", hadWork: true }) }));
  assert.equal(next.continue, true);
  assert.equal(next.memory.waiting, undefined);
});

test("decide: §4.10 maxIdleReplies (default 3): nudge, hint, then the idle stop naming the count", () => {
  const idle = limits({ maxIdleReplies: DEFAULT_CONFIG.maxIdleReplies });
  assert.equal(DEFAULT_CONFIG.maxIdleReplies, 3);
  const first = run(input({ memory: memory(), limits: idle }));
  assert.equal(first.marker?.hint, false);
  const second = run(input({ memory: first.memory, limits: idle }));
  assert.equal(second.marker?.hint, true);
  const third = run(input({ memory: second.memory, limits: idle }));
  assert.equal(third.continue, false);
  assert.deepEqual(third.memory.last, { kind: "idle", replies: 3, open: 2 });
  const end = ended(third);
  assert.equal(end.record?.kind, "idle");
  assert.equal(end.record?.reason, "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you");
});

test("decide: §4.10 a tool turn between stops starts the idle count again", () => {
  const idle = limits({ maxIdleReplies: 2 });
  let state = run(input({ memory: memory(), limits: idle }));
  state = run(input({ memory: state.memory, turn: toolTurn(), limits: idle }));
  state = run(input({ memory: state.memory, limits: idle, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.continue, true);
  assert.equal(state.memory.settleRun, 1);
});

test("decide: §4.10 maxIdleReplies off (null) keeps nudging", () => {
  let state = run(input({ memory: memory() }));
  for (let index = 0; index < 6; index++) state = run(input({ memory: state.memory }));
  assert.equal(state.continue, true);
  assert.equal(state.memory.settleRun, 7);
});

test("decide: §4.10 maxMinutes compares with >= on the minutes from the anchor to this reply; no timestamps, no time limit", () => {
  const timed = limits({ maxMinutes: 30 });
  const over = run(input({ memory: seen(), limits: timed, spend: { tokens: 0, cost: 0, minutes: 31 } }));
  assert.equal(over.continue, false);
  assert.equal(ended(over).record?.reason, "stopped: time limit reached (31 of 30 minutes since your message), 2 tasks still open, no todo change for 1 reply; the agent may need you");
  assert.equal(run(input({ memory: seen(), limits: timed, spend: { tokens: 0, cost: 0, minutes: 29.9 } })).continue, true);
  assert.equal(run(input({ memory: seen(), limits: timed, spend: { tokens: 0, cost: 0, minutes: undefined } })).continue, true);
});

test("decide: §4.6 a todo tool out of reach stops with its name and the open count", () => {
  const tools: ToolFacts = { active: ["read"], registered: [{ name: "todo", exposure: "direct" }] };
  const decision = run(input({ memory: seen(), tools }));
  assert.equal(decision.continue, false);
  assert.equal(ended(decision).record?.reason, "stopped: the todo tool todo is not active, so the list cannot change, 2 tasks still open");
  assert.equal(ended(decision).record?.kind, "out-of-reach");
});

test("decide: §4.6 plan-mode has no tool, so reach does not apply; planning never continues and announces nothing", () => {
  const plan: ListState = { kind: "list", open: 2, total: 3, signature: "p", source: "plan-mode", tool: undefined };
  assert.equal(run(input({ memory: seen(), list: plan, tools: { active: [], registered: [] } })).continue, true);
  const planning = run(input({ memory: seen(), list: { kind: "planning", source: "plan-mode" } }));
  assert.equal(planning.continue, false);
  assert.equal(planning.memory.last.kind, "planning");
  assert.equal(planning.memory.pending, undefined);
});

test("decide: §4.6 an out-of-date list stops and says why", () => {
  const decision = run(input({ memory: seen(), list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } }));
  assert.equal(decision.continue, false);
  assert.equal(ended(decision).record?.reason, "stopped: the todo list is out of date (made through codemode)");
  assert.equal(ended(decision).record?.kind, "out-of-date");
});

test("toolReachable: active, or reachable through an active codemode when its exposure is codemode or deferred", () => {
  assert.equal(toolReachable("todo", { active: ["todo"], registered: [] }), true);
  assert.equal(toolReachable("todo", { active: [], registered: [{ name: "todo", exposure: "codemode" }] }), false, "no codemode active");
  for (const exposure of ["codemode", "deferred"]) {
    assert.equal(toolReachable("todo", { active: ["codemode"], registered: [{ name: "todo", exposure }] }), true, exposure);
  }
  for (const exposure of ["direct", "model-only", "hidden", undefined]) {
    assert.equal(toolReachable("todo", { active: ["codemode"], registered: [{ name: "todo", exposure }] }), false, String(exposure));
  }
  assert.equal(toolReachable("todo", { active: ["codemode"], registered: [] }), false, "not registered at all");
});

test("stopKind: every stop reason has its kind; other reasons are no stop", () => {
  assert.equal(stopKind({ kind: "waiting", reason: "x", asked: true }), "question");
  assert.equal(stopKind({ kind: "waiting", reason: "x", asked: false }), "waiting");
  assert.equal(stopKind({ kind: "continuing", open: 1, round: 1, maxRounds: null }), undefined);
  assert.equal(stopKind({ kind: "planning" }), undefined);
  assert.equal(stopKind({ kind: "paused" }), undefined);
});

// ---- limitReached ---------------------------------------------------------------------------------

test("limitReached: with no limit set nothing is ever reached", () => {
  assert.equal(limitReached(seen({ round: 10_000, settleRun: 10_000 }), NO_LIMITS, { tokens: 1e12, cost: 1e6, minutes: 1e6 }, 2), undefined);
});

test("limitReached: maxRounds compares with >=", () => {
  const capped = limits({ maxRounds: 3 });
  assert.equal(limitReached(seen({ round: 2 }), capped, NO_SPEND, 2), undefined);
  assert.deepEqual(limitReached(seen({ round: 3, staleSettles: 1 }), capped, NO_SPEND, 2), {
    kind: "limit",
    limit: "maxRounds",
    used: 3,
    max: 3,
    open: 2,
    stale: 1,
  });
});

test("limitReached: maxTokens compares with >=", () => {
  const capped = limits({ maxTokens: 100 });
  assert.equal(limitReached(seen(), capped, { ...NO_SPEND, tokens: 99 }, 1), undefined);
  assert.equal(limitReached(seen(), capped, { ...NO_SPEND, tokens: 100 }, 1)?.kind, "limit");
});

test("limitReached: maxCost compares with >=", () => {
  const capped = limits({ maxCost: 1.25 });
  assert.equal(limitReached(seen(), capped, { ...NO_SPEND, cost: 1.2499 }, 1), undefined);
  assert.deepEqual(limitReached(seen(), capped, { ...NO_SPEND, cost: 1.25 }, 1), { kind: "limit", limit: "maxCost", used: 1.25, max: 1.25, open: 1, stale: 0 });
});

test("limitReached: maxMinutes compares with >=, fractions allowed", () => {
  const capped = limits({ maxMinutes: 0.5 });
  assert.equal(limitReached(seen(), capped, { ...NO_SPEND, minutes: 0.49 }, 1), undefined);
  assert.deepEqual(limitReached(seen(), capped, { ...NO_SPEND, minutes: 0.5 }, 1), { kind: "limit", limit: "maxMinutes", used: 0.5, max: 0.5, open: 1, stale: 0 });
});

test("limitReached: maxIdleReplies compares with >= on the replies in a row without work", () => {
  const capped = limits({ maxIdleReplies: 3 });
  assert.equal(limitReached(seen({ settleRun: 2 }), capped, NO_SPEND, 1), undefined);
  assert.deepEqual(limitReached(seen({ settleRun: 3 }), capped, NO_SPEND, 1), { kind: "idle", replies: 3, open: 1 });
});

test("limitReached: the round limit is named first when several are reached, the idle brake last", () => {
  const all = limits({ maxRounds: 1, maxTokens: 1, maxCost: 0.01, maxMinutes: 1, maxIdleReplies: 1 });
  const spend = { tokens: 5, cost: 1, minutes: 5 };
  const named = (mem: Memory, given: DecideInput["spend"] = spend) => {
    const reached = limitReached(mem, all, given, 1);
    return reached?.kind === "limit" ? reached.limit : reached?.kind;
  };
  assert.equal(named(seen({ round: 1, settleRun: 1 })), "maxRounds");
  assert.equal(named(seen({ round: 0, settleRun: 1 })), "maxTokens");
  assert.equal(named(seen({ settleRun: 1 }), { ...spend, tokens: 0 }), "maxCost");
  assert.equal(named(seen({ settleRun: 1 }), { tokens: 0, cost: 0, minutes: 5 }), "maxMinutes");
  assert.equal(named(seen({ settleRun: 1 }), NO_SPEND), "idle");
});

test("applyCommand: resume and continue lift a wait, so the next question is a new stop, recorded again", () => {
  for (const command of ["resume", "continue"] as const) {
    const asked = ended(run(input({ memory: seen(), turn: settleTurn({ question: "Which one?" }) })));
    assert.deepEqual(asked.memory.announced, ["question"]);
    const lifted = applyCommand(asked.memory, command, facts({ idle: false }));
    assert.deepEqual(lifted.memory.announced, [], command);
    const again = ended(run(input({ memory: lifted.memory, turn: settleTurn({ question: "And now?" }) })));
    assert.equal(again.record?.kind, "question", command);
  }
});

test("decide: §4.10 a reply that changed the list without a tool call (plan-mode's [DONE:n]) did work: the idle count starts again", () => {
  const idle = limits({ maxIdleReplies: 3 });
  const plan = (signature: string): ListState => ({ kind: "list", open: 3, total: 4, signature, source: "plan-mode", tool: undefined });
  let state = run(input({ memory: memory(), limits: idle, list: plan("p1") }));
  for (const signature of ["p2", "p3", "p4", "p5", "p6"]) {
    state = run(input({ memory: state.memory, limits: idle, list: plan(signature) }));
    assert.equal(state.continue, true, signature);
    assert.equal(state.memory.settleRun, 1);
  }
  state = run(input({ memory: state.memory, limits: idle, list: plan("p6") }));
  assert.equal(state.marker?.hint, true, "a reply that closed nothing gets the hint");
  state = run(input({ memory: state.memory, limits: idle, list: plan("p6") }));
  assert.equal(state.memory.last.kind, "idle");
});

test("applyCommand: continue on an out-of-date list is consent too (0.3): one run, its marker asks the agent to read the list, no task text or counters in its nudge", () => {
  const stale: ListState = { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" };
  const result = applyCommand(seen({ round: 1, paused: true }), "continue", facts({ list: stale, staleList: { tool: "todo", total: 3 } }));
  assert.deepEqual(result.reply, { kind: "requested", started: true });
  assert.equal(result.record, true);
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.round, 2);
  assert.deepEqual(result.marker, {
    v: 1, round: 2, anchor: ANCHOR, open: 2, total: 3, cap: null, hint: false, idle: 0, stale: 0, stuck: 0, fp: null, repeats: 0, reread: true, by: "continue", tool: "todo", source: "rpiv-todo",
  });
  const unknown = applyCommand(seen(), "continue", facts({ list: { kind: "out-of-date", why: "codemode", open: 0, source: undefined } }));
  assert.equal(unknown.marker?.reread, true, "even with no readable list before: the agent reads it");
  assert.equal(unknown.marker?.tool, "todo");
  const busy = applyCommand(seen({ ending: true }), "continue", facts({ list: stale, idle: false }));
  assert.equal(busy.marker, undefined);
  assert.equal(busy.memory.kept, 0, "busy as the run winds down: the consent is kept for when pi settles");
});
