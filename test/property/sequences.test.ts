/**
 * Generated-input tests of decide() and settle() over sequences of turns, settles, commands, reloads and
 * new human messages (SPEC §4, §7), run against a model of the branch: what the reader would rebuild from
 * the markers, stop records, control records and tool results the run leaves behind (SPEC §4.14), so a
 * reload in the middle of a sequence starts from what a new process would read.
 *
 * Each property runs over at least 10,000 seeded cases (the count is in the test name); a failure names
 * its seed and prints its case (see test/gen.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { align, applyBlock, applyCommand, decide, earlierFacts, holdsEarlier, NO_EARLIER } from "../../src/loop.ts";
import type { Command, Settled } from "../../src/loop.ts";
import type { BranchFacts, DecideInput, Decision, ListState, MarkerDraft, Memory, ToolFacts, TurnFacts, EarlierFacts, Limits } from "../../src/core/types.ts";
import { forAll } from "../gen.ts";
import type { Random } from "../gen.ts";
import { CASES, SIGNATURES, TOOLS, QUESTIONS, genTurn, genList, genTools, reachable, genInput, effective, run, ended, COMMAND_WORDS, record } from "./generators.ts";

// ---- decide() and settle() over sequences, against a model of the branch --------------------------------------

type Step =
  /** `follows`: the message came while a run was going (it directly follows a tool result or a marker). */
  | { readonly kind: "human"; readonly follows: boolean }
  | { readonly kind: "reload" }
  | { readonly kind: "switch" }
  | { readonly kind: "command"; readonly command: Command; readonly idle: boolean; readonly killSwitch: boolean }
  | { readonly kind: "block"; readonly reason: string }
  | {
      readonly kind: "turn";
      readonly turn: TurnFacts;
      readonly list: ListState;
      readonly pending: boolean;
      readonly other: boolean;
      readonly tools: ToolFacts;
      /** For an error or aborted turn: whether pi settles after it (false: pi retries it). */
      readonly settles: boolean;
      readonly transcriptShown: boolean;
      readonly tokens: number;
      readonly minutes: number;
    };

interface Sequence {
  readonly limits: Limits;
  readonly stopOnQuestion: boolean;
  readonly earlierTasks: "ask" | "continue";
  readonly steps: readonly Step[];
}

function genSequence(rng: Random): Sequence {
  const steps: Step[] = [];
  const reachableTools: ToolFacts = { active: [...TOOLS, "read"], registered: TOOLS.map((name) => ({ name, exposure: "direct" })) };
  for (let index = rng.int(1, 60); index > 0; index--) {
    const roll = rng.next();
    if (roll < 0.05) steps.push({ kind: "human", follows: rng.chance(0.3) });
    else if (roll < 0.09) steps.push({ kind: "reload" });
    else if (roll < 0.1) steps.push({ kind: "switch" });
    else if (roll < 0.15) steps.push({ kind: "command", command: rng.pick(COMMAND_WORDS), idle: rng.chance(0.7), killSwitch: rng.chance(0.05) });
    else if (roll < 0.17) steps.push({ kind: "block", reason: "need a decision" });
    else {
      const base = genTurn(rng, rng.chance(0.6) ? 0 : rng.int(1, 3));
      steps.push({
        kind: "turn",
        turn: { ...base, question: rng.chance(0.15) ? rng.pick(QUESTIONS) : undefined },
        list: rng.chance(0.85) ? { kind: "list", open: rng.int(1, 3), total: 3, signature: rng.pick(SIGNATURES), source: "rpiv-todo", tool: "todo" } : genList(rng),
        pending: rng.chance(0.05),
        other: rng.chance(0.03),
        tools: rng.chance(0.9) ? reachableTools : genTools(rng),
        settles: rng.chance(0.85),
        transcriptShown: rng.chance(0.3),
        tokens: rng.int(0, 3000),
        minutes: rng.int(0, 40) / 10,
      });
    }
  }
  const limits: Limits = {
    maxRounds: rng.chance(0.2) ? null : rng.int(1, 8),
    maxTokens: rng.chance(0.8) ? null : rng.int(1000, 60_000),
    maxCost: null,
    maxMinutes: rng.chance(0.8) ? null : rng.int(5, 60),
    maxIdleReplies: rng.chance(0.2) ? null : rng.int(1, 5),
    maxStuckReplies: rng.chance(0.2) ? null : rng.int(1, 7),
    maxRepeats: rng.chance(0.2) ? null : rng.int(1, 5),
  };
  return { limits, stopOnQuestion: rng.chance(0.8), earlierTasks: rng.chance(0.6) ? "ask" : "continue", steps };
}

/** What happened at one step of a sequence, for the properties to check. */
type Event =
  | { readonly kind: "human"; readonly anchor: string }
  | { readonly kind: "decided"; readonly input: DecideInput; readonly decision: Decision }
  | { readonly kind: "settled"; readonly settled: Settled }
  | { readonly kind: "blocked"; readonly accepted: boolean }
  | { readonly kind: "command"; readonly command: Command; readonly recorded: boolean; readonly marker: MarkerDraft | undefined };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Runs a sequence through the pure core. The branch model is what the reader rebuilds (SPEC §4.14): the
 * newest marker's counters, the stops recorded since it, the wait from the block tool's result or a
 * question stop record, the user's controls. A reload drops the memory; a switch makes the next read a
 * switched one. Every step is reported to `observe`.
 */
function simulate(sequence: Sequence, observe: (event: Event) => void): void {
  const { limits, stopOnQuestion, earlierTasks } = sequence;
  let anchorNumber = 1;
  let paused = false;
  let memory: Memory | undefined;
  let switched = false;
  let list: ListState = { kind: "list", open: 2, total: 3, signature: "s1", source: "rpiv-todo", tool: "todo" };
  let spend = { tokens: 0, cost: 0, minutes: 0 };
  const openNow = (): boolean => (list.kind === "list" || list.kind === "out-of-date") && list.open > 0;
  // The earlier-message facts the reader gathers (SPEC §4.15): open tasks as the message arrived, whether
  // it carried the list over (a wait it answers, or sent while a run was going), and the list's state then.
  const fresh = (anchor: string, earlier: EarlierFacts): Mutable<BranchFacts> => ({
    anchor,
    round: 0,
    idle: 0,
    stale: 0,
    signature: undefined,
    waiting: undefined,
    paused,
    hadWork: openNow(),
    announced: [],
    earlier,
    stuck: 0,
    fp: undefined,
    repeats: 0,
  });
  // The first message is the one that made the list.
  let branch = fresh("u1", NO_EARLIER);
  let arrivalSignature = list.kind === "list" ? list.signature : undefined;
  const touch = () => {
    branch = { ...branch, earlier: { ...branch.earlier, adopted: true, shown: undefined } };
  };
  const facts = (): BranchFacts => ({ ...branch, paused });
  const aligned = (): Memory => {
    const result = align(memory, facts(), switched);
    switched = false;
    return result;
  };
  const onMarker = (marker: MarkerDraft) => {
    branch = {
      ...branch,
      round: marker.round,
      idle: marker.idle,
      stale: marker.stale,
      signature: list.kind === "list" ? list.signature : undefined,
      waiting: undefined,
      announced: [],
      hadWork: true,
      stuck: marker.stuck,
      fp: marker.fp ?? undefined,
      repeats: marker.repeats,
    };
    touch();
  };

  for (const step of sequence.steps) {
    switch (step.kind) {
      case "human": {
        anchorNumber += 1;
        const carried = step.follows || branch.waiting !== undefined;
        branch = fresh(`u${anchorNumber}`, { open: openNow(), carried, adopted: false, shown: branch.earlier.shown, before: branch.anchor });
        arrivalSignature = list.kind === "list" ? list.signature : undefined;
        spend = { tokens: 0, cost: 0, minutes: 0 };
        observe({ kind: "human", anchor: branch.anchor });
        break;
      }
      case "reload":
        memory = undefined;
        break;
      case "switch":
        switched = true;
        break;
      case "block": {
        const blocked = applyBlock(aligned(), step.reason);
        memory = blocked.memory;
        if (blocked.accepted) branch = { ...branch, waiting: { reason: step.reason, asked: false } };
        observe({ kind: "blocked", accepted: blocked.accepted });
        break;
      }
      case "command": {
        const result = applyCommand(aligned(), step.command, { list, limits, idle: step.idle, killSwitch: step.killSwitch });
        memory = result.memory;
        if (result.record) {
          if (step.command === "pause") paused = true;
          if (step.command === "resume" || step.command === "continue") {
            paused = false;
            // The reader drops the wait and its stop keys (a later wait is a new stop), as onControl does.
            branch = { ...branch, waiting: undefined, announced: branch.announced.filter((key) => key !== "waiting" && key !== "question"), earlier: { ...branch.earlier, adopted: true } };
          }
          if (step.command === "reset") {
            branch = { ...branch, round: 0, idle: 0, stale: 0, signature: undefined, waiting: undefined, announced: [], stuck: 0, fp: undefined, repeats: 0 };
          }
        }
        if (result.marker) onMarker(result.marker);
        observe({ kind: "command", command: step.command, recorded: result.record, marker: result.marker });
        break;
      }
      case "turn": {
        const changed = step.list.kind === "list" && (list.kind !== "list" || step.list.signature !== list.signature);
        list = step.list;
        // A call of the list's tool (a read counts) or a change of its state: the list is this message's.
        if ((step.turn.toolResults > 0 && step.turn.calls.length > 0) || (list.kind === "list" && list.signature !== arrivalSignature)) touch();
        else if (changed) branch = { ...branch, earlier: { ...branch.earlier, shown: undefined } };
        spend = { tokens: spend.tokens + step.tokens, cost: 0, minutes: spend.minutes + step.minutes };
        if (step.turn.toolResults > 0) branch = { ...branch, idle: 0 };
        if (list.kind === "list" && list.open > 0) branch = { ...branch, hadWork: true };
        const input: DecideInput = {
          memory,
          branchSwitched: switched,
          branch: facts(),
          turn: step.turn,
          list,
          pendingMessages: step.pending,
          otherContinued: step.other,
          limits,
          stopOnQuestion,
          spend,
          tools: step.tools,
          earlierTasks,
        };
        switched = false;
        const decision = decide(input);
        memory = decision.memory;
        observe({ kind: "decided", input, decision });
        if (decision.marker) onMarker(decision.marker);
        // A turn that ended without continuing settles, unless pi retries an error or aborted turn.
        const retried = step.turn.outcome !== "completed" && !step.settles;
        if (!decision.continue && !step.pending && !step.other && !retried) {
          const settled = ended(memory, step.transcriptShown);
          memory = settled.memory;
          const { record } = settled;
          if (record) {
            const key = record.kind === "limit" && record.limit !== undefined ? `limit:${record.limit}` : record.kind;
            branch = { ...branch, announced: [...branch.announced, key] };
            if (record.kind === "question" && memory.waiting) branch = { ...branch, waiting: memory.waiting };
            if (record.kind === "earlier") branch = { ...branch, earlier: { ...branch.earlier, shown: record.list } };
          }
          observe({ kind: "settled", settled });
        }
        break;
      }
    }
  }
}

test(`sequences: decide() never asks for more than maxRounds continuations per human message, and markers count every continuation since a reset, across reloads, pauses, /todoloop continue and tool turns (${CASES} sequences)`, (t) => {
  let capped = 0;
  let continued = 0;
  const count = forAll("sequence-max-rounds", CASES, genSequence, (sequence) => {
    let spent = 0;
    simulate(sequence, (event) => {
      if (event.kind === "human") spent = 0;
      if (event.kind === "command" && event.command === "reset" && event.recorded) spent = 0;
      const marker = event.kind === "decided" ? event.decision.marker : event.kind === "command" ? event.marker : undefined;
      if (!marker) return;
      spent += 1;
      assert.equal(marker.round, spent, "the marker counts the continuations under this message since a reset");
      if (event.kind !== "decided") return;
      continued += 1;
      const { maxRounds } = sequence.limits;
      assert.ok(maxRounds === null || marker.round <= maxRounds, `continuation ${marker.round} exceeds maxRounds ${maxRounds}`);
      if (marker.round === maxRounds) capped += 1;
    });
  });
  t.diagnostic(`${count} sequences, ${continued} continuations, ${capped} reached their cap`);
  assert.ok(capped > count / 10, "the generator reaches the cap often");
});

test(`sequences: never more than maxIdleReplies − 1 continuations in a row without a tool turn or a change of the list (${CASES} sequences)`, (t) => {
  let longest = 0;
  const count = forAll("sequence-idle", CASES, genSequence, (sequence) => {
    let inRow = 0;
    let seen: string | undefined;
    const { maxIdleReplies } = sequence.limits;
    simulate(sequence, (event) => {
      if (event.kind === "human") inRow = 0;
      if (event.kind === "command" && event.command === "reset" && event.recorded) inRow = 0;
      if (event.kind !== "decided") return;
      if (event.input.turn.toolResults > 0) inRow = 0;
      // A settle that saw the list change is work too (plan-mode closes steps in the reply's text).
      const { list } = event.input;
      if (list.kind === "list" && list.signature !== (event.input.memory?.signature ?? seen)) inRow = 0;
      if (list.kind === "list" && event.input.turn.toolResults === 0) seen = event.decision.memory.signature;
      if (!event.decision.continue) return;
      inRow += 1;
      longest = Math.max(longest, inRow);
      assert.ok(maxIdleReplies === null || inRow <= maxIdleReplies - 1, `${inRow} continuations in a row without a tool turn, maxIdleReplies ${maxIdleReplies}`);
    });
  });
  t.diagnostic(`${count} sequences, longest run ${longest}`);
});

/** A settle as the busy-but-stuck brakes see it: a completed turn without tool results. */
function isSettle(event: Extract<Event, { kind: "decided" }>): boolean {
  return event.input.turn.toolResults === 0 && event.input.turn.outcome === "completed";
}

test(`sequences: never more than maxStuckReplies − 1 continuations in a row without progress, across reloads, pauses, commands and tool turns (${CASES} sequences)`, (t) => {
  let longest = 0;
  let stopped = 0;
  const count = forAll("sequence-stuck", CASES, genSequence, (sequence) => {
    let inRow = 0;
    let seen: string | undefined;
    const { maxStuckReplies } = sequence.limits;
    simulate(sequence, (event) => {
      if (event.kind === "human") inRow = 0;
      if (event.kind === "command" && event.command === "reset" && event.recorded) inRow = 0;
      if (event.kind !== "decided" || !isSettle(event)) return;
      const { list, turn, memory } = event.input;
      // Progress: what the reply did, or a list that changed (by any signature the loop may compare with).
      const signature = list.kind === "list" ? list.signature : undefined;
      const changed = signature !== undefined && (signature !== memory?.signature || signature !== seen || signature !== event.input.branch.signature);
      if (list.kind === "list") seen = signature;
      if (turn.reply === undefined || turn.reply.progress || changed) inRow = 0;
      if (event.decision.memory.last.kind === "stuck") stopped += 1;
      if (!event.decision.continue) return;
      if (turn.reply === undefined || turn.reply.progress || changed) return;
      inRow += 1;
      longest = Math.max(longest, inRow);
      assert.ok(maxStuckReplies === null || inRow <= maxStuckReplies - 1, `${inRow} continuations in a row without progress, maxStuckReplies ${maxStuckReplies}`);
    });
  });
  t.diagnostic(`${count} sequences, longest run ${longest}, ${stopped} stuck stops`);
  assert.ok(count < 1000 || stopped > count / 100, "the generator reaches the brake");
  // A capped run (PROPERTY_CASES, as mutation testing uses) may not get that far.
  assert.ok(count < 1000 || longest >= 3, "the generator reaches long runs without progress");
});

test(`sequences: never maxRepeats identical replies in a row continued, across reloads, pauses, commands and tool turns (${CASES} sequences)`, (t) => {
  let longest = 0;
  let stopped = 0;
  const count = forAll("sequence-repeat", CASES, genSequence, (sequence) => {
    let inRow = 0;
    let last: string | undefined;
    const { maxRepeats } = sequence.limits;
    simulate(sequence, (event) => {
      if (event.kind === "human" || (event.kind === "command" && event.command === "reset" && event.recorded)) {
        inRow = 0;
        last = undefined;
      }
      if (event.kind !== "decided" || !isSettle(event)) return;
      const fingerprint = event.input.turn.reply?.fingerprint;
      if (event.decision.memory.last.kind === "repeat") stopped += 1;
      if (!event.decision.continue) {
        // A reply that was not continued: another one breaks the run of identical replies.
        if (fingerprint !== last) {
          inRow = 0;
          last = fingerprint;
        }
        return;
      }
      inRow = fingerprint !== undefined && fingerprint === last ? inRow + 1 : fingerprint === undefined ? 0 : 1;
      last = fingerprint;
      longest = Math.max(longest, inRow);
      assert.ok(maxRepeats === null || inRow <= maxRepeats - 1, `${inRow} identical replies in a row continued, maxRepeats ${maxRepeats}`);
    });
  });
  t.diagnostic(`${count} sequences, longest run ${longest}, ${stopped} repeat stops`);
  assert.ok(count < 1000 || stopped > count / 20, "the generator reaches the brake");
});

/** SPEC §4.10 "which brake speaks", written out: the first reached of the list, in its order. */
const BRAKE_ORDER = ["maxRounds", "maxTokens", "maxCost", "maxMinutes", "idle", "repeat", "stuck"] as const;

test(`decide(): when several brakes are reached at one settle the stop names the first of maxRounds, maxTokens, maxCost, maxMinutes, maxIdleReplies, maxRepeats, maxStuckReplies; a question or a wait comes before all (${CASES * 2} cases)`, (t) => {
  const named = new Map<string, number>();
  // Counts near the brakes, so that several meet at one settle often.
  const near = (rng: Random): DecideInput => {
    const input = genInput(rng, { pendingMessages: false, otherContinued: false });
    const branch = { ...input.branch, idle: rng.int(0, 6), stuck: rng.int(0, 8), repeats: rng.int(0, 5), fp: rng.chance(0.8) ? "fp-a" : input.branch.fp };
    return { ...input, branch, memory: rng.chance(0.7) ? undefined : input.memory };
  };
  const count = forAll("decide-brake-order", CASES * 2, near, (input) => {
    const now = effective(input);
    const { limits, spend, list, turn } = input;
    if (turn.toolResults !== 0 || turn.outcome !== "completed" || now.paused) return;
    if (list.kind !== "list" || list.open === 0 || !reachable(list.tool, input.tools)) return;
    const decision = run(input);
    const asked = input.stopOnQuestion && turn.question !== undefined;
    if (now.waiting !== undefined || asked) {
      assert.equal(decision.memory.last.kind, "waiting", "a wait or a question before every brake");
      return;
    }
    if (holdsEarlier(input.earlierTasks, earlierFacts(align(input.memory, input.branch, input.branchSwitched), input.branch))) {
      assert.equal(decision.continue, false, "a list from an earlier message is held before every brake");
      return;
    }
    const progressed = list.signature !== now.signature;
    const settleRun = progressed ? 1 : now.settleRun + 1;
    const { reply } = turn;
    const stuck = reply === undefined || progressed || reply.progress ? 0 : now.stuck + 1;
    const repeats = reply === undefined ? 0 : now.fp !== undefined && reply.fingerprint === now.fp ? now.repeats + 1 : 1;
    const reached: Record<(typeof BRAKE_ORDER)[number], boolean> = {
      maxRounds: limits.maxRounds !== null && now.round >= limits.maxRounds,
      maxTokens: limits.maxTokens !== null && spend.tokens >= limits.maxTokens,
      maxCost: limits.maxCost !== null && spend.cost >= limits.maxCost,
      maxMinutes: limits.maxMinutes !== null && spend.minutes !== undefined && spend.minutes >= limits.maxMinutes,
      idle: limits.maxIdleReplies !== null && settleRun >= limits.maxIdleReplies,
      repeat: limits.maxRepeats !== null && repeats >= limits.maxRepeats,
      stuck: limits.maxStuckReplies !== null && stuck >= limits.maxStuckReplies,
    };
    const first = BRAKE_ORDER.find((brake) => reached[brake]);
    const { last } = decision.memory;
    const speaks = last.kind === "limit" ? last.limit : last.kind;
    if (first === undefined) {
      assert.equal(decision.continue, true);
      return;
    }
    assert.equal(speaks, first, `reached: ${BRAKE_ORDER.filter((brake) => reached[brake]).join(", ")}`);
    if (BRAKE_ORDER.filter((brake) => reached[brake]).length > 1) named.set(first, (named.get(first) ?? 0) + 1);
  });
  t.diagnostic(`${count} cases; several brakes at once, named first: ${JSON.stringify(Object.fromEntries(named))}`);
  // A capped run (PROPERTY_CASES, as mutation testing uses) may not meet every pair.
  if (count >= 1000) for (const brake of BRAKE_ORDER.slice(0, 6)) assert.ok((named.get(brake) ?? 0) > 0, `${brake} is named first over another brake at least once`);
});

/**
 * After the agent asked a question, no continuation until the human answers, resumes, resets or
 * continues. `reloads`: whether reloads and branch switches are among the steps (the wait must then be
 * rebuilt from the branch).
 */
function questionHolds(sequence: Sequence, reloads: boolean, counts: { asked: number; held: number }): void {
  const steps = reloads ? sequence.steps : sequence.steps.filter((step) => step.kind !== "reload" && step.kind !== "switch");
  let waiting = false;
  simulate({ ...sequence, steps }, (event) => {
    if (event.kind === "human") waiting = false;
    if (event.kind === "command" && event.recorded && event.command !== "pause") waiting = false;
    if (event.kind !== "decided") return;
    const { input, decision } = event;
    if (waiting && input.turn.toolResults === 0 && input.turn.outcome === "completed") {
      counts.held += 1;
      assert.equal(decision.continue, false, "a continuation while the agent's question is unanswered");
    }
    if (input.stopOnQuestion && input.turn.question !== undefined && input.turn.toolResults === 0) {
      assert.equal(decision.continue, false, "a continuation right after a question");
      if (decision.memory.waiting?.asked) {
        counts.asked += 1;
        waiting = true;
      }
    }
  });
}

test(`sequences: never a continuation after the agent asked a question, until the human answers, resumes, resets or continues (${CASES} sequences)`, (t) => {
  const counts = { asked: 0, held: 0 };
  const count = forAll("sequence-question", CASES, genSequence, (sequence) => questionHolds(sequence, false, counts));
  t.diagnostic(`${count} sequences, ${counts.asked} questions waited on, ${counts.held} later settles held`);
  assert.ok(counts.held > 0, "the generator reaches settles after a question");
});

// A question asked again after resume, with no continuation between, is a new stop: it is recorded, so
// a reload finds the wait.
test(
  `sequences: a question's wait holds across reloads and branch switches too (${CASES} sequences)`,
  (t) => {
    const counts = { asked: 0, held: 0 };
    const count = forAll("sequence-question-reload", CASES, genSequence, (sequence) => questionHolds(sequence, true, counts));
    t.diagnostic(`${count} sequences, ${counts.asked} questions waited on, ${counts.held} later settles held`);
  },
);

test(`sequences: with earlierTasks "ask", never a continuation under a new message with tasks open from an earlier one before the agent touched the list, the person consented (continue, resume) or the message carried the list over (${CASES} sequences)`, (t) => {
  const counts = { held: 0, earlier: 0, lines: 0, continued: 0 };
  const count = forAll("sequence-earlier", CASES, genSequence, (sequence) => {
    // The oracle, from the steps alone: tasks open as the message arrived, and what has happened since.
    let open = false;
    let free = true;
    let lastList: ListState = { kind: "list", open: 2, total: 3, signature: "s1", source: "rpiv-todo", tool: "todo" };
    let arrival: string | undefined = "s1";
    let waitSeen = false;
    let queuedSeen = false;
    let shownFor: string | undefined;
    let index = 0;
    const steps = sequence.steps;
    simulate(sequence, (event) => {
      if (event.kind === "human") {
        const step = steps.filter((one) => one.kind === "human")[index++];
        const follows = step?.kind === "human" && step.follows;
        open = (lastList.kind === "list" || lastList.kind === "out-of-date") && lastList.open > 0;
        free = sequence.earlierTasks === "continue" || !open || follows || waitSeen || queuedSeen;
        arrival = lastList.kind === "list" ? lastList.signature : undefined;
        waitSeen = false;
        queuedSeen = false;
        return;
      }
      if (event.kind === "command") {
        if (event.recorded && (event.command === "resume" || event.command === "continue")) free = true;
        if (event.recorded && event.command !== "pause" && event.command !== "status") waitSeen = false;
        return;
      }
      if (event.kind === "blocked") {
        if (event.accepted) waitSeen = true;
        return;
      }
      if (event.kind === "settled") {
        const record = event.settled.record;
        if (record?.kind === "earlier") {
          counts.lines += 1;
          assert.notEqual(record.list, shownFor, "an earlier-message stop is shown once per list state");
          shownFor = record.list;
        }
        if (record?.kind === "question" || record?.kind === "waiting") waitSeen = true;
        return;
      }
      const { input, decision } = event;
      lastList = input.list;
      queuedSeen = input.pendingMessages;
      if (decision.memory.waiting !== undefined) waitSeen = true;
      const touched = (input.turn.toolResults > 0 && input.turn.calls.length > 0) || (input.list.kind === "list" && input.list.signature !== arrival);
      if (touched) {
        free = true;
        shownFor = undefined;
      }
      if (input.list.kind === "list" && input.list.signature !== arrival) shownFor = undefined;
      if (decision.continue) {
        counts.continued += 1;
        assert.ok(free, "a continuation under a new message before the list was taken up, consented to or carried over");
        shownFor = undefined;
      } else if (!free && input.turn.toolResults === 0 && input.turn.outcome === "completed") {
        counts.held += 1;
      }
      if (decision.memory.last.kind === "earlier") counts.earlier += 1;
    });
  });
  t.diagnostic(`${count} sequences: ${counts.continued} continuations, ${counts.held} settles held, ${counts.earlier} earlier decisions, ${counts.lines} earlier records`);
  assert.ok(counts.held > 0 && counts.lines > 0 && counts.continued > 0, "the generator reaches held settles, earlier records and continuations");
});

test(`sequences: never a continuation when the todo tool is out of reach (${CASES} sequences)`, (t) => {
  let outOfReach = 0;
  const count = forAll("sequence-out-of-reach", CASES, genSequence, (sequence) => {
    simulate(sequence, (event) => {
      if (event.kind !== "decided") return;
      const { list, tools } = event.input;
      if (list.kind !== "list" || reachable(list.tool, tools)) return;
      outOfReach += 1;
      assert.equal(event.decision.continue, false);
    });
  });
  t.diagnostic(`${count} sequences, ${outOfReach} turns out of reach`);
  assert.ok(outOfReach > count / 10);
});

test(`sequences: never more than one stop record per stop key between two continuations under one message, across reloads (${CASES} sequences)`, (t) => {
  let records = 0;
  const count = forAll("sequence-once-per-stop", CASES, genSequence, (sequence) => {
    let window = new Map<string, number>();
    simulate(sequence, (event) => {
      if (event.kind === "human" || (event.kind === "command" && event.command === "reset" && event.recorded)) window = new Map();
      if ((event.kind === "decided" && event.decision.continue) || (event.kind === "command" && event.marker)) window = new Map();
      // Resume and continue end a wait: a later wait or question is a new one.
      if (event.kind === "command" && event.recorded && (event.command === "resume" || event.command === "continue")) {
        window.delete("waiting");
        window.delete("question");
      }
      if (event.kind !== "settled" || !event.settled.record) return;
      const { record } = event.settled;
      records += 1;
      const key = record.kind === "limit" ? `limit:${record.limit}` : record.kind;
      const seen = (window.get(key) ?? 0) + 1;
      window.set(key, seen);
      assert.equal(seen, 1, `stop ${key} recorded ${seen} times between two continuations`);
      assert.equal(typeof record.reason, "string");
      assert.equal(record.v, 1);
      if (event.settled.notice) assert.equal(event.settled.notice.kind, "stop");
    });
  });
  t.diagnostic(`${count} sequences, ${records} stop records`);
  assert.ok(records > count, "the generator records stops");
});
