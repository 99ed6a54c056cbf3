/**
 * Generated-input tests of decide() and settle() one turn at a time (SPEC §4): when a settle continues,
 * questions, reach, a new human message, a branch switch, tool turns; and odd values that must never
 * throw, change the input or decide two ways.
 *
 * Each property runs over at least 10,000 seeded cases (the count is in the test name); a failure names
 * its seed and prints its case (see test/gen.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { freshMemory, NOTHING } from "../../src/loop.ts";
import type { DecideInput, Decision, ListState, Memory, Reason, ToolFacts, Wait, Limits } from "../../src/core/types.ts";
import { forAll, hostileText, text } from "../gen.ts";
import type { Random } from "../gen.ts";
import { CASES, OUTCOMES, CALLS, WHY, STALE_WHY, TOOLS, SOURCES, EXPOSURES, STOP_KEYS, QUESTIONS, genMemory, genBranch, genTurn, reachable, genInput, effective, run, ended, odd } from "./generators.ts";

// ---- generators for the core ----------------------------------------------------------------------------------

/**
 * Whether the open tasks are an earlier message's and this one has not taken them up (SPEC §4.15),
 * written out: with "ask", open tasks as the message arrived, and neither carried over (the branch says
 * so, or this process saw the message queued or answering a wait) nor adopted (the branch: a call of the
 * list's tool, a change, a continue/resume, a marker; this process: the person's continue/resume).
 */
function heldByEarlier(input: DecideInput): boolean {
  const { memory, branch } = input;
  if (input.earlierTasks !== "ask" || !branch.earlier.open) return false;
  const sameAnchor = memory !== undefined && memory.anchor === branch.anchor;
  const kept = sameAnchor && !input.branchSwitched;
  const sawArrive = !input.branchSwitched && memory !== undefined && !sameAnchor && memory.anchor === branch.earlier.before && (memory.queued || memory.waiting !== undefined);
  const carried = branch.earlier.carried || (kept ? memory.carried : sawArrive);
  const adopted = branch.earlier.adopted || (kept && memory.adopted);
  return !carried && !adopted;
}

// ---- decide(), one turn at a time ----------------------------------------------------------------------------

test(`decide() continues exactly on a completed settle with open tasks in reach, not paused, not waiting, no question, nothing queued, no other continuation and no limit reached (${CASES * 2} cases)`, (t) => {
  let continued = 0;
  const count = forAll("decide-continue-iff", CASES * 2, (rng) => genInput(rng), (input) => {
    const now = effective(input);
    const { limits, spend, list, turn } = input;
    // A reply that changed the list did something: the count of replies without work starts again.
    const progressed = list.kind === "list" && list.signature !== now.signature;
    const settleRun = progressed ? 1 : now.settleRun + 1;
    // SPEC §4.10 busy but stuck, written out: a reply the branch says nothing about is progress with a fingerprint of its own.
    const { reply } = turn;
    const stuck = reply === undefined || progressed || reply.progress ? 0 : now.stuck + 1;
    const repeats = reply === undefined ? 0 : now.fp !== undefined && reply.fingerprint === now.fp ? now.repeats + 1 : 1;
    const near = (count: number, max: number | null) => max !== null && max > 1 && count === max - 1;
    const atLimit = (limits.maxRounds !== null && now.round >= limits.maxRounds)
      || (limits.maxTokens !== null && spend.tokens >= limits.maxTokens)
      || (limits.maxCost !== null && spend.cost >= limits.maxCost)
      || (limits.maxMinutes !== null && spend.minutes !== undefined && spend.minutes >= limits.maxMinutes)
      || (limits.maxIdleReplies !== null && settleRun >= limits.maxIdleReplies)
      || (limits.maxRepeats !== null && repeats >= limits.maxRepeats)
      || (limits.maxStuckReplies !== null && stuck >= limits.maxStuckReplies);
    const asked = input.stopOnQuestion && turn.question !== undefined;
    const expected = turn.toolResults === 0 && turn.outcome === "completed" && !now.paused && now.waiting === undefined
      && list.kind === "list" && list.open > 0 && reachable(list.tool, input.tools)
      && !input.pendingMessages && !input.otherContinued && !asked && !atLimit && !heldByEarlier(input);
    const decision = run(input);
    assert.equal(decision.continue, expected, "continue");
    if (decision.continue) {
      continued += 1;
      assert.ok(decision.marker && list.kind === "list", "a continuation carries a marker");
      const progress = list.signature !== now.signature;
      assert.deepEqual(
        { ...decision.marker },
        {
          v: 1,
          round: now.round + 1,
          anchor: input.branch.anchor,
          open: list.open,
          total: list.total,
          cap: limits.maxRounds,
          hint: (settleRun === 2 && !progress) || near(stuck, limits.maxStuckReplies) || near(repeats, limits.maxRepeats),
          idle: settleRun,
          stale: progress ? 0 : now.staleSettles + 1,
          stuck,
          fp: reply === undefined ? null : reply.fingerprint,
          repeats,
          tool: list.tool,
          source: list.source,
        },
        "the marker's details",
      );
      assert.equal(decision.memory.pending, undefined, "a continuation leaves no stop pending");
      assert.deepEqual(decision.memory.announced, [], "a continuation starts a new window for stops");
      assert.equal(decision.memory.round, now.round + 1);
    } else {
      assert.equal(decision.marker, undefined, "no marker without continuing");
      assert.equal(decision.memory.round, now.round, "no round spent without continuing");
    }
  });
  t.diagnostic(`${count} cases, ${continued} continued`);
  // A capped run (PROPERTY_CASES, as mutation testing uses) may see few continuations.
  assert.ok((count < 1000 || continued > count / 50) && continued < count / 2, "the generator reaches both outcomes");
});

test(`decide(): never a continuation after a question while stopOnQuestion is on; the question becomes the wait (${CASES} cases)`, (t) => {
  let waits = 0;
  const count = forAll(
    "decide-question",
    CASES,
    (rng) => {
      const base = genInput(rng, { stopOnQuestion: true });
      return { ...base, turn: { ...base.turn, toolResults: 0, question: rng.pick(QUESTIONS) } };
    },
    (input) => {
      const decision = run(input);
      assert.equal(decision.continue, false);
      assert.equal(decision.marker, undefined);
      if (effective(input).waiting === undefined && decision.memory.waiting?.asked) {
        waits += 1;
        assert.equal(decision.memory.waiting.reason, input.turn.question, "the wait is the question asked");
        assert.deepEqual(decision.memory.last, { kind: "waiting", ...decision.memory.waiting });
      }
    },
  );
  t.diagnostic(`${count} cases, ${waits} became a question wait`);
  assert.ok(waits > count / 50, "the generator reaches the question wait");
});

test(`decide(): never a continuation when the todo tool is out of reach (${CASES} cases)`, (t) => {
  let outOfReach = 0;
  const count = forAll(
    "decide-out-of-reach",
    CASES,
    (rng) => {
      const base = genInput(rng);
      // Tool sets that leave the list's tool out of reach about half the time.
      const tools: ToolFacts = rng.chance(0.5) ? { active: base.tools.active.filter((name) => name !== "codemode" && !TOOLS.includes(name)), registered: base.tools.registered } : base.tools;
      return { ...base, tools };
    },
    (input) => {
      const decision = run(input);
      const { list } = input;
      if (list.kind !== "list" || reachable(list.tool, input.tools)) return;
      outOfReach += 1;
      assert.equal(decision.continue, false, `the tool ${list.tool} is out of reach`);
      assert.equal(decision.marker, undefined);
    },
  );
  t.diagnostic(`${count} cases, ${outOfReach} out of reach`);
  assert.ok(outOfReach > count / 10, "the generator reaches tools out of reach");
});

test(`decide(): a new human message takes everything from the branch: the decision is the one a fresh process makes (${CASES} cases)`, (t) => {
  const count = forAll(
    "decide-new-anchor",
    CASES,
    (rng) => {
      const base = genInput(rng);
      return { ...base, memory: genMemory(rng, "old"), branch: genBranch(rng, "new") };
    },
    (input) => {
      const decision = run(input);
      // Only how the new message arrived, which this process saw: queued while a run went on, or
      // answering the old message's wait (SPEC §4.15). The branch then says it carried the list over.
      const old = input.memory;
      const sawArrive = !input.branchSwitched && old !== undefined && old.anchor === input.branch.earlier.before && (old.queued || old.waiting !== undefined);
      const branchSays = { ...input.branch, earlier: { ...input.branch.earlier, carried: input.branch.earlier.carried || sawArrive } };
      const fresh = run({ ...input, memory: undefined, branch: branchSays });
      assert.deepEqual({ ...decision, memory: { ...decision.memory, carried: false } }, { ...fresh, memory: { ...fresh.memory, carried: false } }, "nothing else of the old message's memory carries over");
      const next = decision.memory;
      assert.equal(next.anchor, "new");
      assert.equal(next.round, input.branch.round + (decision.continue ? 1 : 0), "rounds count from the branch under the new message");
      assert.equal(next.paused, input.branch.paused, "the pause is the branch's (its control records)");
      if (decision.marker) assert.ok(decision.marker.idle <= input.branch.idle + 1, "no replies without work carried over");
    },
  );
  t.diagnostic(`${count} cases`);
});

test(`decide(): after a branch switch the counters, wait, pause and stops are the branch's, only the last reason is kept (${CASES} cases)`, (t) => {
  const count = forAll(
    "decide-branch-switch",
    CASES,
    (rng) => {
      const base = genInput(rng);
      return { ...base, branchSwitched: true, memory: genMemory(rng, base.branch.anchor) };
    },
    (input) => {
      const fresh = run({ ...input, memory: undefined });
      const switched = run(input);
      const keepLast = (decision: Decision) => ({ ...decision, memory: { ...decision.memory, last: NOTHING } });
      assert.deepEqual(keepLast(switched), keepLast(fresh));
    },
  );
  t.diagnostic(`${count} cases`);
});

test(`decide(): a tool turn never spends a round, never continues and never adds a marker (${CASES} cases)`, (t) => {
  const count = forAll(
    "decide-tool-turn",
    CASES,
    (rng) => genInput(rng, { turn: genTurn(rng, rng.int(1, 6)) }),
    (input) => {
      const now = effective(input);
      const decision = run(input);
      assert.equal(decision.continue, false);
      assert.equal(decision.marker, undefined);
      assert.equal(decision.memory.round, now.round, "no round spent");
      assert.equal(decision.memory.settleRun, 0, "a tool turn ends the run of settles");
      assert.equal(decision.memory.staleSettles, now.staleSettles, "a tool turn does not clear or add stale replies");
      assert.equal(decision.memory.signature, now.signature, "a tool turn records no signature");
      assert.equal(decision.memory.waiting, now.waiting, "a tool turn neither starts nor lifts a wait");
    },
  );
  t.diagnostic(`${count} cases`);
});

// ---- decide() and settle() on odd values -----------------------------------------------------------------------

function oddText(rng: Random): string {
  return rng.chance(0.1) ? "x".repeat(rng.int(1000, 5000)) : rng.chance(0.5) ? hostileText(rng, 12) : text(rng, 10, 0.5);
}

function oddLimits(rng: Random): Limits {
  const maybe = () => (rng.chance(0.5) ? null : odd(rng));
  return { maxRounds: maybe(), maxTokens: maybe(), maxCost: maybe(), maxMinutes: maybe(), maxIdleReplies: maybe(), maxStuckReplies: maybe(), maxRepeats: maybe() };
}

function oddWait(rng: Random): Wait | undefined {
  return rng.chance(0.3) ? { reason: oddText(rng), asked: rng.chance(0.5) } : undefined;
}

function oddReason(rng: Random): Reason {
  return rng.pick<Reason>([
    { kind: "clear" },
    { kind: "no-list", why: rng.pick(WHY) },
    { kind: "out-of-date", why: rng.pick(STALE_WHY) },
    { kind: "out-of-reach", tool: oddText(rng), open: odd(rng) },
    { kind: "waiting", reason: oddText(rng), asked: rng.chance(0.5) },
    { kind: "limit", limit: rng.pick(["maxRounds", "maxTokens", "maxCost", "maxMinutes"] as const), used: odd(rng), max: odd(rng), open: odd(rng), stale: odd(rng) },
    { kind: "idle", replies: odd(rng), open: odd(rng) },
    { kind: "stuck", replies: odd(rng), open: odd(rng) },
    { kind: "repeat", replies: odd(rng), open: odd(rng) },
    { kind: "outcome", outcome: rng.pick(["error", "aborted"] as const) },
    { kind: "continuing", open: odd(rng), round: odd(rng), maxRounds: rng.chance(0.5) ? null : odd(rng) },
    { kind: "paused" },
    NOTHING,
  ]);
}

function oddList(rng: Random): ListState {
  const roll = rng.next();
  if (roll < 0.15) return { kind: "none", why: rng.pick(WHY) };
  if (roll < 0.25) return { kind: "out-of-date", why: rng.pick(STALE_WHY), open: odd(rng), source: rng.chance(0.5) ? undefined : rng.pick(SOURCES) };
  if (roll < 0.3) return { kind: "planning", source: "plan-mode" };
  return { kind: "list", open: odd(rng), total: odd(rng), signature: oddText(rng), source: rng.pick(SOURCES), tool: rng.chance(0.1) ? undefined : oddText(rng) };
}

function genOddInput(rng: Random): DecideInput {
  const anchor = rng.chance(0.2) ? "" : oddText(rng);
  const memory: Memory | undefined = rng.chance(0.2)
    ? undefined
    : {
        ...freshMemory(rng.chance(0.5) ? anchor : oddText(rng), rng.chance(0.3)),
        round: odd(rng),
        signature: rng.chance(0.3) ? undefined : oddText(rng),
        staleSettles: odd(rng),
        settleRun: odd(rng),
        waiting: oddWait(rng),
        hadWork: rng.chance(0.5),
        announced: Array.from({ length: rng.int(0, 4) }, () => (rng.chance(0.5) ? rng.pick(STOP_KEYS) : oddText(rng))),
        pending: rng.chance(0.3) ? { reason: oddReason(rng), open: odd(rng), level: rng.chance(0.5) ? "info" : "warning" } : undefined,
        last: oddReason(rng),
      };
  return {
    memory,
    branchSwitched: rng.chance(0.3),
    branch: {
      anchor,
      round: odd(rng),
      idle: odd(rng),
      stale: odd(rng),
      signature: rng.chance(0.3) ? undefined : oddText(rng),
      waiting: oddWait(rng),
      paused: rng.chance(0.3),
      hadWork: rng.chance(0.5),
      announced: Array.from({ length: rng.int(0, 4) }, () => oddText(rng)),
      earlier: { open: rng.chance(0.5), carried: rng.chance(0.3), adopted: rng.chance(0.3), shown: rng.chance(0.3) ? oddText(rng) : undefined, before: rng.chance(0.5) ? anchor : oddText(rng) },
      stuck: odd(rng),
      fp: rng.chance(0.3) ? undefined : oddText(rng),
      repeats: odd(rng),
    },
    turn: {
      outcome: rng.pick(OUTCOMES),
      toolResults: odd(rng),
      todoOnly: rng.chance(0.5),
      calls: Array.from({ length: rng.int(0, 6) }, () => rng.pick(CALLS)),
      openBefore: odd(rng),
      vanished: Array.from({ length: rng.int(0, 8) }, () => oddText(rng)),
      question: rng.chance(0.3) ? oddText(rng) : undefined,
      reply: rng.chance(0.3) ? undefined : { progress: rng.chance(0.5), fingerprint: oddText(rng) },
    },
    list: oddList(rng),
    pendingMessages: rng.chance(0.2),
    otherContinued: rng.chance(0.2),
    limits: oddLimits(rng),
    stopOnQuestion: rng.chance(0.5),
    spend: { tokens: odd(rng), cost: odd(rng), minutes: rng.chance(0.3) ? undefined : odd(rng) },
    tools: {
      active: Array.from({ length: rng.int(0, 4) }, () => (rng.chance(0.5) ? rng.pick([...TOOLS, "codemode"]) : oddText(rng))),
      registered: Array.from({ length: rng.int(0, 4) }, () => ({ name: rng.chance(0.5) ? rng.pick(TOOLS) : oddText(rng), exposure: rng.chance(0.5) ? rng.pick(EXPOSURES) : oddText(rng) })),
    },
    earlierTasks: rng.chance(0.5) ? "ask" : "continue",
  };
}

test(`decide() and settle() never throw on odd values, are deterministic and leave their input untouched (${CASES} cases)`, (t) => {
  let records = 0;
  const count = forAll("decide-settle-total", CASES, genOddInput, (input) => {
    const before = structuredClone(input);
    const first = run(input);
    const second = run(input);
    assert.deepEqual(second, first, "same input, same decision");
    assert.deepEqual(input, before, "the input is not mutated");
    assert.equal(typeof first.continue, "boolean");
    assert.equal(first.continue, first.marker !== undefined, "a marker exactly when continuing");
    for (const notice of first.notices) assert.ok(["stop", "emptied", "stale"].includes(notice.kind));
    for (const memory of [first.memory, ...(input.memory ? [input.memory] : [])]) {
      const memoryBefore = structuredClone(memory);
      for (const shown of [false, true]) {
        const settled = ended(memory, shown);
        assert.deepEqual(ended(memory, shown), settled, "settle is deterministic");
        assert.equal(settled.memory.pending, undefined, "settling clears the pending stop");
        if (settled.record) {
          records += 1;
          assert.equal(typeof settled.record.reason, "string");
          assert.ok(settled.memory.announced.length > memory.announced.length, "a recorded stop is remembered as announced");
          assert.equal(ended(settled.memory, shown).record, undefined, "settling twice records once");
        } else {
          assert.equal(settled.notice, undefined, "no announcement without a record");
        }
      }
      assert.deepEqual(memory, memoryBefore, "settle leaves the memory untouched");
    }
  });
  t.diagnostic(`${count} cases, ${records} records`);
});
