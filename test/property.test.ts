/**
 * Generated-input tests: each property runs over at least 10,000 seeded cases (the count is in the test
 * name) and a failure names its seed and prints its case (see test/gen.ts). Covers decide() and settle()
 * one turn at a time and over sequences of turns, settles, commands, reloads and new human messages
 * (SPEC §4, §7), the branch reader's incremental and full reads (§9, §4.14), the context hook (§5), the
 * kill switch (§8) and survival of junk input (§10).
 *
 * The sequences run the pure core against a model of the branch: what the reader would rebuild from the
 * markers, stop records, control records and tool results the run leaves behind (SPEC §4.14), so a
 * reload in the middle of a sequence starts from what a new process would read.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import todoLoop from "../src/index.ts";
import { ioOf } from "./captured-io.ts";
import { align, applyBlock, applyCommand, decide, earlierFacts, filterMarkers, freshMemory, holdsEarlier, listKey, NO_EARLIER, NOTHING, settle } from "../src/loop.ts";
import type { BranchFacts, DecideInput, Decision, ListState, MarkerDraft, Memory, NoListWhy, PendingStop, Reason, StaleWhy, ToolFacts, TurnFacts, Wait, EarlierFacts } from "../src/core/types.ts";
import type { Command, Settled } from "../src/loop.ts";
import type { Limits } from "../src/core/types.ts";
import type { CallKind, SourceId } from "../src/core/types.ts";
import type { ReplyFacts } from "../src/core/reply.ts";
import { createBranchReader, readSnapshot } from "../src/state.ts";
import type { BranchChange, Snapshot } from "../src/state.ts";
import type { ModeLike, TurnOutcome } from "../src/core/pi-shapes.ts";
import { describeReason } from "../src/core/text.ts";
import { createContext, createFakePi, createSession } from "./fake-pi.ts";
import type { AgentSettledHandler, ContextHandler, FakePi, SessionStartHandler, TurnEndHandler } from "./fake-pi.ts";
import { anyEntry, entryOf, forAll, forAllAsync, hostileText, junk, random, text } from "./gen.ts";
import type { Random, RawEntry } from "./gen.ts";

const CASES = 10_000;

// ---- an isolated agent dir and working directories for the real handlers ----------------------------------

const root = mkdtempSync(join(tmpdir(), "todo-loop-property-"));
const dirs = {
  agentClean: join(root, "agent-clean"),
  agentOff: join(root, "agent-off"),
  cwdClean: join(root, "cwd-clean"),
  cwdOff: join(root, "cwd-off"),
};
for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
writeFileSync(join(dirs.agentOff, "todo-loop-off"), "");
mkdirSync(join(dirs.cwdOff, ".pi"), { recursive: true });
writeFileSync(join(dirs.cwdOff, ".pi", "todo-loop-off"), "");
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;
process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
after(() => {
  if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
  rmSync(root, { recursive: true, force: true });
});

interface Handlers {
  turnEnd: TurnEndHandler;
  context: ContextHandler;
  agentSettled: AgentSettledHandler;
  sessionStart: SessionStartHandler;
  pi: FakePi;
}

/** A fresh extension behind the typed fake pi; each case gets its own process state. */
function load(): Handlers {
  const pi = createFakePi({ activeTools: ["read", "bash", "todo"] });
  todoLoop(pi, ioOf(pi));
  const [turnEnd] = pi.turnEndHandlers;
  const [context] = pi.contextHandlers;
  const [agentSettled] = pi.agentSettledHandlers;
  const [sessionStart] = pi.sessionStartHandlers;
  if (!turnEnd || !context || !agentSettled || !sessionStart) throw new Error("the extension registers turn_end, context, agent_settled and session_start handlers");
  return { turnEnd, context, agentSettled, sessionStart, pi };
}

// ---- generators for the core ----------------------------------------------------------------------------------

const ANCHORS = ["u1", "u2", "u3"];
const SIGNATURES = ["s1", "s2", "s3"];
const OUTCOMES: readonly TurnOutcome[] = ["completed", "completed", "completed", "error", "aborted"];
const CALLS: readonly CallKind[] = ["delete", "clear", "complete", "other", "unlabelled"];
const WHY: readonly NoListWhy[] = ["no-tool", "unused", "unreadable", "emptied"];
const STALE_WHY: readonly StaleWhy[] = ["codemode", "unreadable"];
const TOOLS = ["todo", "todo_write", "TaskUpdate"];
const SOURCES: readonly SourceId[] = ["rpiv-todo", "quangthai-pi-todo", "criogaid-pi-todos-tasks"];
const EXPOSURES = ["direct", "model-only", "codemode", "deferred", "hidden", undefined];
const STOP_KEYS = ["clear", "no-list", "limit:maxRounds", "limit:maxTokens", "idle", "waiting", "question", "out-of-reach", "out-of-date", "outcome"];
const QUESTIONS = ["Should I use Postgres or SQLite?", "Shall I go on?", "Which region?"];

function genWait(rng: Random): Wait | undefined {
  if (!rng.chance(0.15)) return undefined;
  return rng.chance(0.5) ? { reason: "need a key", asked: false } : { reason: rng.pick(QUESTIONS), asked: true };
}

function genAnnounced(rng: Random): string[] {
  return STOP_KEYS.filter(() => rng.chance(0.1));
}

function genPending(rng: Random): PendingStop | undefined {
  if (!rng.chance(0.2)) return undefined;
  const reason: Reason = rng.pick<Reason>([{ kind: "clear" }, { kind: "outcome", outcome: "error" }, { kind: "no-list", why: "emptied" }, { kind: "idle", replies: 3, open: 2 }]);
  return { reason, open: rng.int(0, 4), level: rng.chance(0.5) ? "info" : "warning" };
}

function genMemory(rng: Random, anchor: string): Memory {
  return {
    ...freshMemory(anchor, rng.chance(0.2)),
    round: rng.int(0, 14),
    signature: rng.chance(0.3) ? undefined : rng.pick(SIGNATURES),
    staleSettles: rng.int(0, 25),
    settleRun: rng.int(0, 5),
    waiting: genWait(rng),
    hadWork: rng.chance(0.6),
    announced: genAnnounced(rng),
    pending: genPending(rng),
    last: NOTHING,
    adopted: rng.chance(0.3),
    carried: rng.chance(0.2),
    queued: rng.chance(0.1),
  };
}

function genBranch(rng: Random, anchor: string): BranchFacts {
  return {
    anchor,
    round: rng.int(0, 14),
    idle: rng.int(0, 4),
    stale: rng.int(0, 12),
    signature: rng.chance(0.4) ? undefined : rng.pick(SIGNATURES),
    waiting: genWait(rng),
    paused: rng.chance(0.15),
    hadWork: rng.chance(0.5),
    announced: genAnnounced(rng),
    stuck: rng.int(0, 2),
    fp: rng.chance(0.4) ? undefined : rng.pick(FINGERPRINTS),
    repeats: rng.int(0, 1),
    earlier: genEarlier(rng),
  };
}

function genEarlier(rng: Random): EarlierFacts {
  return {
    open: rng.chance(0.5),
    carried: rng.chance(0.3),
    adopted: rng.chance(0.4),
    shown: rng.chance(0.2) ? listKey({ kind: "list", open: 2, total: 3, signature: rng.pick(SIGNATURES), source: "rpiv-todo", tool: "todo" }) : undefined,
    before: rng.chance(0.3) ? "old" : rng.chance(0.5) ? rng.pick(ANCHORS) : undefined,
  };
}

/** Fingerprints of replies: few, so identical replies in a row are common. */
const FINGERPRINTS: readonly string[] = ["fp-a", "fp-b", "fp-c"];

/** What a settle's reply did: mostly known, often no progress, often the same as the one before. */
function genReply(rng: Random): ReplyFacts | undefined {
  if (rng.chance(0.03)) return undefined;
  return { progress: rng.chance(0.5), fingerprint: rng.chance(0.4) ? "fp-a" : rng.pick(FINGERPRINTS) };
}

function genTurn(rng: Random, toolResults: number = rng.chance(0.5) ? 0 : rng.int(1, 4)): TurnFacts {
  return {
    outcome: rng.pick(OUTCOMES),
    toolResults,
    todoOnly: rng.chance(0.5),
    calls: Array.from({ length: rng.int(0, 3) }, () => rng.pick(CALLS)),
    openBefore: rng.int(0, 5),
    vanished: Array.from({ length: rng.int(0, 2) }, () => text(rng, 6)),
    question: rng.chance(0.2) ? rng.pick(QUESTIONS) : undefined,
    reply: genReply(rng),
  };
}

function genList(rng: Random): ListState {
  const roll = rng.next();
  if (roll < 0.12) return { kind: "none", why: rng.pick(WHY) };
  if (roll < 0.18) return { kind: "out-of-date", why: rng.pick(STALE_WHY), open: rng.int(0, 4), source: rng.pick(SOURCES) };
  if (roll < 0.21) return { kind: "planning", source: "plan-mode" };
  const open = rng.chance(0.2) ? 0 : rng.int(1, 6);
  const planMode = rng.chance(0.05);
  return {
    kind: "list",
    open,
    total: open + rng.int(open === 0 ? 1 : 0, 4),
    signature: rng.pick(SIGNATURES),
    source: planMode ? "plan-mode" : rng.pick(SOURCES),
    tool: planMode ? undefined : rng.pick(TOOLS),
  };
}

/** Which tools the model has: mostly the todo tools, sometimes none, sometimes through codemode. */
function genTools(rng: Random): ToolFacts {
  const names = [...TOOLS, "codemode", "read"];
  if (rng.chance(0.6)) return { active: [...TOOLS, "read"], registered: names.map((name) => ({ name, exposure: "direct" })) };
  const active = names.filter((name) => rng.chance(name === "read" ? 0.9 : name === "codemode" ? 0.3 : 0.75));
  const registered = names.filter(() => rng.chance(0.9)).map((name) => ({ name, exposure: rng.pick(EXPOSURES) }));
  return { active, registered };
}

/** The oracle for SPEC §4.6, written out: active, or registered codemode/deferred while codemode is active. */
function reachable(tool: string | undefined, tools: ToolFacts): boolean {
  if (tool === undefined) return true;
  if (tools.active.includes(tool)) return true;
  const exposure = tools.registered.find((entry) => entry.name === tool)?.exposure;
  return tools.active.includes("codemode") && (exposure === "codemode" || exposure === "deferred");
}

function genLimits(rng: Random): Limits {
  return {
    maxRounds: rng.chance(0.5) ? null : rng.int(1, 12),
    maxTokens: rng.chance(0.7) ? null : rng.int(1, 50_000),
    maxCost: rng.chance(0.7) ? null : rng.int(1, 500) / 100,
    maxMinutes: rng.chance(0.7) ? null : rng.int(1, 120) / 2,
    maxIdleReplies: rng.chance(0.4) ? null : rng.int(1, 8),
    maxStuckReplies: rng.chance(0.4) ? null : rng.chance(0.1) ? 1 : rng.int(2, 8),
    maxRepeats: rng.chance(0.4) ? null : rng.chance(0.1) ? 1 : rng.int(2, 6),
  };
}

function genSpend(rng: Random): DecideInput["spend"] {
  return { tokens: rng.int(0, 60_000), cost: rng.int(0, 600) / 100, minutes: rng.chance(0.3) ? undefined : rng.int(0, 1200) / 10 };
}

function genInput(rng: Random, overrides: Partial<DecideInput> = {}): DecideInput {
  const anchor = rng.pick(ANCHORS);
  return {
    memory: rng.chance(0.2) ? undefined : genMemory(rng, rng.chance(0.7) ? anchor : rng.pick(ANCHORS)),
    branchSwitched: rng.chance(0.1),
    branch: genBranch(rng, anchor),
    turn: genTurn(rng),
    list: genList(rng),
    pendingMessages: rng.chance(0.1),
    otherContinued: rng.chance(0.1),
    limits: genLimits(rng),
    stopOnQuestion: rng.chance(0.8),
    spend: genSpend(rng),
    tools: genTools(rng),
    earlierTasks: rng.chance(0.7) ? "ask" : "continue",
    ...overrides,
  };
}

/** The state in force for this turn, by SPEC §4.14: memory for the same anchor on the same branch, else the branch's. */
function effective(input: DecideInput): Pick<Memory, "round" | "paused" | "waiting" | "staleSettles" | "settleRun" | "signature" | "stuck" | "fp" | "repeats"> {
  const { memory, branch } = input;
  if (memory && memory.anchor === branch.anchor && !input.branchSwitched) return memory;
  return {
    round: branch.round,
    paused: branch.paused,
    waiting: branch.waiting,
    staleSettles: branch.stale,
    settleRun: branch.idle,
    signature: branch.signature,
    stuck: branch.stuck,
    fp: branch.fp,
    repeats: branch.repeats,
  };
}

function run(input: DecideInput): Decision {
  return decide(input);
}

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

function ended(memory: Memory, transcriptShown: boolean): Settled {
  return settle(memory, transcriptShown, describeReason);
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

const COMMAND_WORDS: readonly Command[] = ["pause", "resume", "status", "reset", "continue"];

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

// ---- decide() and settle() on odd values -----------------------------------------------------------------------

const ODD_NUMBERS = [0, -0, 1, -1, 2, 0.5, 1e9, -1e9, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_SAFE_INTEGER];

function odd(rng: Random): number {
  return rng.chance(0.5) ? rng.pick(ODD_NUMBERS) : rng.int(-5, 20);
}

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

// ---- the kill switch and junk, through the real handlers ------------------------------------------------

interface KillCase {
  readonly where: "global" | "cwd";
  readonly prefix: readonly RawEntry[];
  readonly tasks: number;
  readonly hasUI: boolean;
  readonly mode: ModeLike;
}

function rpivResult(open: number): RawEntry {
  const tasks = Array.from({ length: open }, (_, index) => ({ id: index + 1, subject: `Task ${index + 1}`, status: "pending" }));
  return {
    type: "message",
    message: { role: "toolResult", toolCallId: "c1", toolName: "todo", content: [], details: { action: "create", params: {}, tasks, nextId: open + 1 }, isError: false },
  };
}

const SETTLE = {
  type: "turn_end",
  turnIndex: 1,
  message: { role: "assistant", content: [] },
  toolResults: [],
  outcome: "completed",
  entries: [],
  continue: false,
  context: { pendingMessages: [] },
} as const;

const ERROR_SETTLE = { ...SETTLE, outcome: "error" } as const;

const MARKER_MESSAGE = { role: "custom", customType: "todo-loop:continue", content: "Continue.", display: false };

test(`kill switch: turn_end, agent_settled, context and /todoloop continue touch nothing while either kill-switch file exists, and the same turn continues without it (${CASES} cases)`, async (t) => {
  const count = await forAllAsync(
    "kill-switch",
    CASES,
    (rng): KillCase => ({
      where: rng.chance(0.5) ? "global" : "cwd",
      prefix: Array.from({ length: rng.int(0, 6) }, () => anyEntry(rng)),
      tasks: rng.int(1, 5),
      hasUI: rng.chance(0.5),
      mode: rng.pick<ModeLike>(["tui", "rpc", "json", "print"]),
    }),
    async (value) => {
      const session = createSession<RawEntry>([], "tree-session");
      for (const entry of value.prefix) session.append(entry);
      session.append({ type: "message", message: { role: "user", content: "Do the work", timestamp: 1 } });
      session.append(rpivResult(value.tasks));
      session.append({ type: "message", message: { role: "assistant", content: [], usage: { totalTokens: 10 }, timestamp: 2 } });
      const messages = [{ role: "assistant", content: [] }, MARKER_MESSAGE, { role: "user", content: "stop" }];
      const length = session.getBranch().length;

      process.env.PI_CODING_AGENT_DIR = value.where === "global" ? dirs.agentOff : dirs.agentClean;
      const off = load();
      off.pi.session = session;
      const offCtx = createContext({ session, cwd: value.where === "cwd" ? dirs.cwdOff : dirs.cwdClean, hasUI: value.hasUI, mode: value.mode });
      assert.equal(await off.turnEnd({ ...ERROR_SETTLE }, offCtx), undefined, "turn_end does nothing for an error");
      await off.agentSettled({ type: "agent_settled", aborted: false }, offCtx);
      assert.equal(await off.turnEnd({ ...SETTLE }, offCtx), undefined, "turn_end does nothing");
      await off.agentSettled({ type: "agent_settled", aborted: false }, offCtx);
      assert.equal(await off.context({ type: "context", messages }, offCtx), undefined, "context does nothing");
      await off.pi.command("todoloop").handler("continue", offCtx);
      assert.deepEqual(offCtx.ui.notifications, [{ message: "todo loop: not continuing: the kill switch is on", type: "warning" }], "no notify but the refusal");
      assert.deepEqual(offCtx.ui.statuses.filter((status) => status.text !== "todo loop off"), [], "no footer but 'todo loop off'");
      assert.deepEqual(off.pi.appended, [], "no record");
      assert.deepEqual(off.pi.sent, [], "no marker");
      assert.equal(session.getBranch().length, length, "the session is untouched");

      process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
      const on = load();
      const onCtx = createContext({ session, cwd: dirs.cwdClean, hasUI: value.hasUI, mode: value.mode });
      const result = await on.turnEnd({ ...SETTLE }, onCtx);
      assert.equal(result?.continue, true, "without the kill switch the same turn continues");
      assert.ok(await on.context({ type: "context", messages }, onCtx), "without the kill switch the marker before the human message is dropped");
    },
  );
  process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
  t.diagnostic(`${count} cases`);
});

interface JunkCase {
  readonly entries: readonly RawEntry[];
  readonly event: unknown;
  readonly settled: unknown;
  readonly started: unknown;
  readonly messages: unknown;
  readonly params: unknown;
  readonly args: unknown;
  readonly mode: ModeLike;
  readonly idle: boolean;
  /** Index into CONFIGS. */
  readonly config: number;
}

/** Agent dirs holding junk config files (written once; the first has none), picked by each case. */
const CONFIGS: readonly { dir: string; text: string | undefined }[] = Array.from({ length: 40 }, (_, index) => {
  const rng = random(index + 1);
  const dir = join(root, `agent-config-${index}`);
  mkdirSync(dir, { recursive: true });
  const valid = JSON.stringify({
    maxRounds: rng.int(0, 3),
    maxTokens: rng.chance(0.5) ? null : rng.int(1, 5000),
    maxCost: rng.chance(0.5) ? null : 0.01,
    maxMinutes: rng.chance(0.5) ? null : rng.pick([0.5, 1, 30]),
    maxIdleReplies: rng.pick([null, 0, 1, 3, 200]),
    stopOnQuestion: rng.chance(0.5),
    transcript: rng.chance(0.5),
  });
  const body = index === 0 ? undefined : index % 3 === 1 ? valid : rng.chance(0.6) ? JSON.stringify(junk(rng)) : text(rng, 20, 0.3);
  if (body !== undefined) writeFileSync(join(dir, "todo-loop.json"), body);
  return { dir, text: body };
});

function genJunkEvent(rng: Random): unknown {
  if (rng.chance(0.1)) return junk(rng);
  return {
    type: "turn_end",
    message: rng.chance(0.7) ? { role: "assistant", content: [{ type: "text", text: rng.chance(0.3) ? `${hostileText(rng, 8)}?` : text(rng) }] } : junk(rng),
    toolResults: rng.chance(0.8)
      ? Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.5) ? junk(rng) : (entryOf(rng, rng.pick(["rpiv-result", "rpiv-bad-result", "other-tool", "block"] as const)).message)))
      : junk(rng),
    outcome: rng.chance(0.7) ? rng.pick(["completed", "error", "aborted"]) : junk(rng),
    entries: rng.chance(0.8) ? [] : junk(rng),
    continue: rng.chance(0.8) ? false : junk(rng),
    context: rng.chance(0.7) ? { pendingMessages: rng.chance(0.9) ? [] : [junk(rng)] } : junk(rng),
  };
}

test(`junk: turn_end, agent_settled, session_start, context, todo_loop_block and /todoloop never fail on junk entries, events, messages, params and config (${CASES} cases)`, async (t) => {
  let continued = 0;
  const count = await forAllAsync(
    "junk",
    CASES,
    (rng): JunkCase => ({
      entries: Array.from({ length: rng.int(0, 25) }, () => (rng.chance(0.3) ? entryOf(rng, "junk") : rng.chance(0.3) ? loopEntry(rng) : anyEntry(rng))),
      event: genJunkEvent(rng),
      settled: rng.chance(0.7) ? { type: "agent_settled", aborted: rng.chance(0.2) } : junk(rng),
      started: rng.chance(0.7) ? { type: "session_start", reason: rng.pick(["startup", "reload", "new", "resume", "fork"]) } : junk(rng),
      messages: rng.chance(0.8) ? Array.from({ length: rng.int(0, 6) }, () => (rng.chance(0.3) ? MARKER_MESSAGE : junk(rng))) : junk(rng),
      params: rng.chance(0.5) ? { reason: rng.chance(0.7) ? hostileText(rng, 20) : junk(rng) } : junk(rng),
      args: rng.chance(0.7) ? rng.pick(["", "status", "pause", "resume", "reset", "continue", " RESET ", "Continue"]) : junk(rng),
      mode: rng.pick<ModeLike>(["tui", "rpc", "json", "print"]),
      idle: rng.chance(0.7),
      config: rng.int(0, CONFIGS.length - 1),
    }),
    async (value) => {
      process.env.PI_CODING_AGENT_DIR = CONFIGS[value.config]?.dir;
      const session = createSession<RawEntry>([], "tree-session");
      for (const entry of value.entries) session.append(entry);
      const { turnEnd, context, agentSettled, sessionStart, pi } = load();
      pi.session = session;
      const ctx = createContext({ session, cwd: dirs.cwdClean, mode: value.mode, idle: value.idle });
      await sessionStart(value.started as Parameters<SessionStartHandler>[0], ctx);
      const result = await turnEnd(value.event as Parameters<TurnEndHandler>[0], ctx);
      if (result !== undefined) {
        assert.ok(Array.isArray(result.entries), "a result carries entries");
        const last = result.entries.at(-1);
        if (result.continue === true) {
          continued += 1;
          assert.ok(typeof last === "object" && last !== null && Reflect.get(last, "customType") === "todo-loop:continue", "a continuation ends with the marker");
        }
      }
      await agentSettled(value.settled as Parameters<AgentSettledHandler>[0], ctx);
      const filtered = await context({ type: "context", messages: value.messages }, ctx);
      if (filtered !== undefined) assert.ok(Array.isArray(filtered.messages));
      try {
        const tool = await pi.tool("todo_loop_block").execute("call-1", value.params, undefined, undefined, ctx);
        assert.ok(Array.isArray(tool.content));
      } catch (error) {
        assert.match(error instanceof Error ? error.message : String(error), /needs a non-empty reason/, "the only error the tool raises is an empty reason");
      }
      await pi.command("todoloop").handler(value.args as string, ctx);
      const failures = ctx.ui.notifications.filter((notice) => / failed \(/.test(notice.message));
      assert.deepEqual(failures, [], "no handler hit an internal error");
      for (const notice of ctx.ui.notifications) {
        if (notice.type === "error") assert.match(notice.message, /unknown sub-command/, "the only error notice is an unknown sub-command");
      }
      for (const entry of pi.appended) assert.ok(entry.customType === "todo-loop:stop" || entry.customType === "todo-loop:control", entry.customType);
      assert.ok(pi.sent.length <= 1, "at most one marker sent");
      for (const sent of pi.sent) assert.deepEqual(sent.options, { triggerTurn: true });
    },
  );
  process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
  t.diagnostic(`${count} cases, ${continued} continued`);
});

// ---- sequences through the real handlers, over a real session -------------------------------------------------

/** Agent dirs with the config files the handler sequences run under. */
const SEQUENCE_CONFIGS: readonly { dir: string; maxRounds: number | null; maxIdleReplies: number | null }[] = [
  { maxRounds: 2, maxIdleReplies: 3 },
  { maxRounds: 4, maxIdleReplies: 2 },
  { maxRounds: null, maxIdleReplies: 3 },
  { maxRounds: 3, maxIdleReplies: null },
].map((limits, index) => {
  const dir = join(root, `agent-sequence-${index}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "todo-loop.json"), JSON.stringify(limits));
  return { dir, ...limits };
});

type HandlerStep =
  | { readonly kind: "reply"; readonly text: string }
  | { readonly kind: "error"; readonly settles: boolean }
  | { readonly kind: "tool"; readonly open: number; readonly done: number }
  | { readonly kind: "bash" }
  | { readonly kind: "human" }
  | { readonly kind: "reload" }
  | { readonly kind: "block" }
  | { readonly kind: "command"; readonly word: Command; readonly idle: boolean };

interface HandlerSequence {
  readonly config: number;
  readonly mode: ModeLike;
  readonly steps: readonly HandlerStep[];
}

function genHandlerSequence(rng: Random): HandlerSequence {
  const steps: HandlerStep[] = [];
  for (let index = rng.int(1, 24); index > 0; index--) {
    const roll = rng.next();
    if (roll < 0.45) steps.push({ kind: "reply", text: rng.chance(0.12) ? rng.pick(QUESTIONS) : "Stopping here." });
    else if (roll < 0.52) steps.push({ kind: "error", settles: rng.chance(0.5) });
    else if (roll < 0.67) steps.push({ kind: "tool", open: rng.int(0, 3), done: rng.int(0, 2) });
    else if (roll < 0.72) steps.push({ kind: "bash" });
    else if (roll < 0.77) steps.push({ kind: "human" });
    else if (roll < 0.85) steps.push({ kind: "reload" });
    else if (roll < 0.88) steps.push({ kind: "block" });
    else steps.push({ kind: "command", word: rng.pick(COMMAND_WORDS), idle: rng.chance(0.7) });
  }
  return { config: rng.int(0, SEQUENCE_CONFIGS.length - 1), mode: rng.pick<ModeLike>(["tui", "rpc", "json"]), steps };
}

function rpivList(open: number, done: number): RawEntry {
  const tasks = [
    ...Array.from({ length: open }, (_, index) => ({ id: index + 1, subject: `Task ${index + 1}`, status: "pending" })),
    ...Array.from({ length: done }, (_, index) => ({ id: open + index + 1, subject: `Done ${index + 1}`, status: "completed" })),
  ];
  return {
    type: "message",
    message: { role: "toolResult", toolCallId: "c1", toolName: "todo", content: [], details: { action: "update", params: {}, tasks, nextId: tasks.length + 1 }, isError: false },
  };
}

function replyEntry(text: string): RawEntry {
  return { type: "message", message: { role: "assistant", content: [{ type: "text", text }], usage: { totalTokens: 10 }, stopReason: "stop", timestamp: 2 } };
}

/** Runs a sequence through the extension's handlers on one session; reloads load a new instance over it. */
async function runHandlers(sequence: HandlerSequence): Promise<RawEntry[]> {
  const session = createSession<RawEntry>([], "sequence-session");
  session.append({ type: "message", message: { role: "user", content: "Do the work", timestamp: 1 } }, rpivList(2, 1));
  let handlers = load();
  handlers.pi.session = session;
  const ctx = createContext({ session, cwd: dirs.cwdClean, mode: sequence.mode });
  const settled = () => handlers.agentSettled({ type: "agent_settled", aborted: false }, ctx);
  const turn = async (event: Parameters<TurnEndHandler>[0]) => {
    const result = await handlers.turnEnd(event, ctx);
    for (const draft of result?.entries ?? []) if (typeof draft === "object" && draft !== null && !Array.isArray(draft)) session.append({ ...draft });
    return result;
  };
  for (const step of sequence.steps) {
    switch (step.kind) {
      case "reply": {
        const reply = replyEntry(step.text);
        session.append(reply);
        const result = await turn({ ...SETTLE, message: reply.message });
        if (result?.continue !== true) await settled();
        break;
      }
      case "error":
        session.append(replyEntry(""));
        await turn({ ...ERROR_SETTLE });
        if (step.settles) await settled();
        break;
      case "tool": {
        const result = rpivList(step.open, step.done);
        session.append(replyEntry("Updating."), result);
        await turn({ ...SETTLE, toolResults: [result.message] });
        break;
      }
      case "bash": {
        const result: RawEntry = { type: "message", message: { role: "toolResult", toolCallId: "b", toolName: "bash", content: [], details: {}, isError: false } };
        session.append(replyEntry("Running."), result);
        await turn({ ...SETTLE, toolResults: [result.message] });
        break;
      }
      case "human":
        session.append({ type: "message", message: { role: "user", content: "And next?", timestamp: 1 } });
        break;
      case "reload":
        handlers = load();
        handlers.pi.session = session;
        await handlers.sessionStart({ type: "session_start", reason: "reload" }, ctx);
        break;
      case "block": {
        const tool = await handlers.pi.tool("todo_loop_block").execute("call-b", { reason: "need a key" }, undefined, undefined, ctx);
        session.append({ type: "message", message: { role: "toolResult", toolCallId: "call-b", toolName: "todo_loop_block", content: tool.content, details: tool.details, isError: false } });
        break;
      }
      case "command":
        ctx.idle = step.idle;
        await handlers.pi.command("todoloop").handler(step.word, ctx);
        ctx.idle = true;
        break;
    }
  }
  return session.getBranch();
}

function isRecordValue(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function record(entry: RawEntry): { readonly [key: string]: unknown } | undefined {
  const data = entry.type === "custom" ? entry.data : undefined;
  return isRecordValue(data) ? data : undefined;
}

test(`handlers: over sequences of replies, errors, tool turns, messages, reloads, blocks and commands, the session holds at most one stop record per kind between continuations, no continuation past a recorded question, rounds within maxRounds and never maxIdleReplies replies in a row without work (${CASES} sequences)`, async (t) => {
  const totals = { markers: 0, stops: 0, controls: 0 };
  const count = await forAllAsync("handler-sequences", CASES, genHandlerSequence, async (sequence) => {
    const config = SEQUENCE_CONFIGS[sequence.config];
    assert.ok(config);
    process.env.PI_CODING_AGENT_DIR = config.dir;
    const branch = await runHandlers(sequence);
    let window = new Set<string>();
    let rounds = 0;
    let inRow = 0;
    /** A question stop was recorded and nothing has lifted its wait since. */
    let asked = false;
    branch.forEach((entry, index) => {
      const role = roleOfEntry(entry);
      if (role === "user") {
        window = new Set();
        rounds = 0;
        inRow = 0;
        asked = false;
      }
      if (role === "toolResult") inRow = 0;
      if (entry.customType === "todo-loop:control") {
        totals.controls += 1;
        const action = record(entry)?.action;
        if (action === "reset") {
          window = new Set();
          rounds = 0;
          inRow = 0;
        }
        if (action === "resume" || action === "continue") {
          window.delete("waiting");
          window.delete("question");
        }
        if (action === "resume" || action === "continue" || action === "reset") asked = false;
      }
      if (entry.customType === "todo-loop:continue") {
        totals.markers += 1;
        window = new Set();
        rounds += 1;
        const details = entry.details;
        assert.ok(isRecordValue(details), "a marker has details");
        assert.equal(details.round, rounds, `marker at ${index} counts the continuations since the message or a reset`);
        const byCommand = branch[index - 1]?.customType === "todo-loop:control";
        if (!byCommand) {
          assert.ok(!asked, `marker at ${index} continues past the agent's recorded question`);
          inRow += 1;
          if (config.maxRounds !== null) assert.ok(rounds <= config.maxRounds, `continuation ${rounds} past maxRounds ${config.maxRounds}`);
          if (config.maxIdleReplies !== null) assert.ok(inRow <= config.maxIdleReplies - 1, `${inRow} continuations in a row without a tool turn`);
        }
      }
      if (entry.customType === "todo-loop:stop") {
        totals.stops += 1;
        const data = record(entry);
        assert.ok(data && data.v === 1 && typeof data.kind === "string" && typeof data.reason === "string", "a 0.2 stop record");
        const key = data.kind === "limit" ? `limit:${String(data.limit)}` : data.kind;
        assert.ok(!window.has(key), `stop ${key} recorded twice between two continuations (entry ${index})`);
        window.add(key);
        if (data.kind === "question") asked = true;
      }
    });
  });
  process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
  t.diagnostic(`${count} sequences: ${JSON.stringify(totals)}`);
  assert.ok(totals.markers > count && totals.stops > count / 2 && totals.controls > count / 10, "the sequences continue, stop and command");
});

// ---- the branch reader -------------------------------------------------------------------------------------

const TIMESTAMPS = ["2026-11-30T00:00:00.000Z", "2026-11-30T00:12:30.000Z", "2026-11-30T01:00:00.000Z", "2026-11-29T23:00:00.000Z"];
const STOP_KINDS = ["clear", "no-list", "limit", "idle", "waiting", "question", "out-of-reach", "out-of-date", "outcome", "bogus"];
const STOP_REASONS = [
  "stopped: list is clear",
  'waiting for you: the agent asked: "Which region?"',
  "waiting for you: need a key",
  "stopped: 3 continuations used, 2 tasks still open",
  "stopped: token limit reached (1,000 of 1,000 tokens since your message), 1 task still open",
  "stopped: turn outcome was error",
  "stopped: no list (no todo tool is active)",
  "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you",
];

/** Entries the 0.2 loop and its hosts leave that test/gen.ts does not make: controls, kinded stops, full markers, codemode results. */
function loopEntry(rng: Random): RawEntry {
  switch (rng.int(0, 5)) {
    case 0:
      return {
        type: "custom",
        customType: "todo-loop:control",
        data: rng.chance(0.9) ? { v: 1, action: rng.pick(["pause", "resume", "reset", "continue", "bogus"]), anchor: "u" } : junk(rng),
      };
    case 1: {
      const kind = rng.pick(STOP_KINDS);
      const data: RawEntry = { v: 1, kind, reason: rng.chance(0.8) ? rng.pick(STOP_REASONS) : text(rng, 20, 0.1), round: rng.int(0, 5), open: rng.int(0, 3), anchor: "u" };
      if (kind === "limit") data.limit = rng.pick(["maxRounds", "maxTokens", "maxCost", "maxMinutes", junk(rng, 0)]);
      if (rng.chance(0.2)) delete data.kind;
      return { type: "custom", customType: "todo-loop:stop", data };
    }
    case 2:
      return {
        type: "custom_message",
        customType: "todo-loop:continue",
        content: "Continue with the open tasks on your todo list.",
        display: rng.chance(0.7),
        details: {
          v: 1,
          round: rng.int(0, 20),
          anchor: "u",
          open: rng.int(0, 5),
          total: rng.int(1, 6),
          cap: rng.chance(0.5) ? null : rng.int(1, 12),
          hint: rng.chance(0.2),
          idle: rng.chance(0.9) ? rng.int(0, 4) : junk(rng, 0),
          stale: rng.chance(0.9) ? rng.int(0, 12) : junk(rng, 0),
        },
      };
    case 3: {
      const calls = Array.from({ length: rng.int(0, 3) }, () => ({ id: `c${rng.int(0, 9)}`, name: rng.chance(0.9) ? rng.pick(["todo", "bash", "todo_write", "TaskUpdate", "read"]) : junk(rng, 0), status: "done" }));
      const message: RawEntry = { role: "toolResult", toolCallId: "cm", toolName: "codemode", content: [{ type: "text", text: "ok" }], details: { calls: [] }, isError: rng.chance(0.2), timestamp: 3 };
      if (rng.chance(0.9)) message.nestedCalls = rng.chance(0.9) ? { calls, complete: rng.pick([true, true, false, junk(rng, 0)]) } : junk(rng);
      return { type: "message", message };
    }
    case 4:
      return {
        type: "message",
        message: { role: "assistant", content: [{ type: "text", text: rng.chance(0.5) ? rng.pick(QUESTIONS) : text(rng) }], usage: { totalTokens: rng.int(0, 500), cost: { total: rng.int(0, 10) / 1000 } }, stopReason: "stop", timestamp: 2 },
      };
    default:
      return { type: "custom", customType: rng.pick(["rpiv-todo-state", "pi-todo-state", "pi-todos-tasks"]), data: { tasks: [{ id: 1, subject: "x", title: "x", status: rng.pick(["pending", "weird", "completed"]) }], nextId: 2 } };
  }
}

/** Any entry, 0.2 ones included, with an entry timestamp that is mostly a real ISO string, sometimes junk or missing. */
function readerEntry(rng: Random): RawEntry {
  const entry = rng.chance(0.08) ? entryOf(rng, "compaction") : rng.chance(0.3) ? loopEntry(rng) : anyEntry(rng);
  const roll = rng.next();
  if (roll < 0.6) return { ...entry, timestamp: rng.pick(TIMESTAMPS) };
  if (roll < 0.7) return { ...entry, timestamp: junk(rng, 0) };
  const { timestamp: _dropped, ...bare } = entry;
  return bare;
}

type ReaderOp =
  | { readonly op: "append"; readonly entries: readonly RawEntry[] }
  | { readonly op: "move"; readonly to: number | null }
  | { readonly op: "read" };

function genReaderOps(rng: Random): ReaderOp[] {
  const ops: ReaderOp[] = [];
  let total = 0;
  for (let index = rng.int(1, 30); index > 0; index--) {
    const roll = rng.next();
    if (roll < 0.45) {
      const entries = Array.from({ length: rng.int(1, 6) }, () => readerEntry(rng));
      total += entries.length;
      ops.push({ op: "append", entries });
    } else if (roll < 0.6 && total > 0) {
      ops.push({ op: "move", to: rng.chance(0.05) ? null : rng.int(1, total) });
    } else {
      ops.push({ op: "read" });
    }
  }
  ops.push({ op: "read" });
  return ops;
}

function roleOfEntry(entry: RawEntry): unknown {
  const message = entry.message;
  return entry.type === "message" && typeof message === "object" && message !== null && !Array.isArray(message) ? Reflect.get(message, "role") : undefined;
}

/**
 * The snapshot fields both reads must agree on. Two fields are documented as partial: the "todo tool
 * used / unread results" flags explain a missing list, so they only count when there is none; the list
 * at the last reply is read for a turn_end, where the turn's reply always follows the newest human
 * message, so it counts when a reply follows it.
 */
function comparable(snapshot: Snapshot, branch: readonly RawEntry[]): Partial<Snapshot> {
  const { todoToolUsed, unreadTodoResults, listAtLastReply, ...rest } = snapshot;
  const anchorAt = branch.findLastIndex((entry) => roleOfEntry(entry) === "user");
  const replyAfterAnchor = branch.some((entry, index) => index > anchorAt && roleOfEntry(entry) === "assistant");
  return {
    ...rest,
    ...(snapshot.list === undefined ? { todoToolUsed, unreadTodoResults } : {}),
    ...(replyAfterAnchor ? { listAtLastReply } : {}),
  };
}

test(`reader: incremental reads agree with full reads over random appends, /tree moves, forks and compactions, with controls, kinded stops, full markers, codemode results and timestamps (${CASES} sequences)`, (t) => {
  let reads = 0;
  const changes: Record<BranchChange, number> = { first: 0, same: 0, appended: 0, switched: 0 };
  const seen = { paused: 0, waiting: 0, outOfDate: 0, announced: 0, timed: 0 };
  const count = forAll("reader-agrees", CASES, genReaderOps, (ops) => {
    const session = createSession<RawEntry>([], "tree-session");
    const reader = createBranchReader();
    let seenLeaf: string | null | undefined;
    for (const step of ops) {
      if (step.op === "append") for (const entry of step.entries) session.append(entry);
      else if (step.op === "move") session.moveTo(step.to === null ? null : `n${step.to}`);
      else {
        const branch = session.getBranch();
        const leaf = session.getLeafId();
        const { snapshot, change } = reader.read(session);
        reads += 1;
        changes[change] += 1;
        const full = readSnapshot(branch);
        assert.deepEqual(comparable(snapshot, branch), comparable(full, branch), "incremental and full reads agree");
        assert.equal(snapshot.length, branch.length);
        if (full.paused) seen.paused += 1;
        if (full.waiting) seen.waiting += 1;
        if (full.outOfDate) seen.outOfDate += 1;
        if (full.announced.length > 0) seen.announced += 1;
        if (full.anchorTime !== undefined && full.replyTime !== undefined) seen.timed += 1;
        const expected: BranchChange = typeof seenLeaf !== "string"
          ? "first"
          : leaf === seenLeaf
            ? "same"
            : branch.some((entry) => entry.id === seenLeaf)
              ? "appended"
              : "switched";
        assert.equal(change, expected, "the reader names how the branch changed");
        seenLeaf = leaf;
      }
    }
  });
  t.diagnostic(`${count} sequences, ${reads} reads: ${JSON.stringify(changes)}; reads with ${JSON.stringify(seen)}`);
  assert.ok(changes.switched > 0 && changes.appended > 0 && changes.same > 0, "every kind of change is exercised");
  for (const [field, reached] of Object.entries(seen)) assert.ok(reached > reads / 100, `the generator reaches snapshots with ${field}`);
});

test(`reader: arbitrary JSON junk as entries or whole branches never throws (${CASES} cases)`, (t) => {
  const count = forAll(
    "reader-junk",
    CASES,
    (rng) => Array.from({ length: rng.int(0, 20) }, () => (rng.chance(0.3) ? junk(rng, 3) : rng.chance(0.5) ? entryOf(rng, "junk") : readerEntry(rng))),
    (branch) => {
      const snapshot = readSnapshot(branch);
      assert.equal(snapshot.length, branch.length);
      assert.equal(typeof snapshot.anchor, "string");
      assert.ok(Number.isFinite(snapshot.tokens) && snapshot.tokens >= 0, "tokens are a finite count");
      assert.ok(Number.isFinite(snapshot.cost) && snapshot.cost >= 0, "cost is a finite amount");
      for (const field of ["round", "idle", "stale"] as const) assert.ok(Number.isInteger(snapshot[field]) && snapshot[field] >= 0, `${field} is a count`);
      for (const time of [snapshot.anchorTime, snapshot.replyTime]) assert.ok(time === undefined || Number.isFinite(time), "times are finite or unknown");
      assert.equal(typeof snapshot.paused, "boolean");
      assert.ok(snapshot.waiting === undefined || typeof snapshot.waiting.reason === "string");
      // A session manager whose entries and leaf are junk too.
      const reader = createBranchReader();
      let leafCalls = 0;
      const odd = {
        getBranch: () => branch,
        getLeafId: () => `t${leafCalls++ % 3}`,
        getEntry: (id: string): unknown => branch[Number(id.slice(1))],
      };
      reader.read(odd);
      reader.read(odd);
    },
  );
  t.diagnostic(`${count} cases`);
});

// ---- the context hook ----------------------------------------------------------------------------------------

/** SPEC §5: the roles providers receive as user messages. */
const USER_ROLE_NAMES = new Set(["user", "custom", "bashExecution", "branchSummary", "compactionSummary"]);

function role(message: unknown): unknown {
  return typeof message === "object" && message !== null ? Reflect.get(message, "role") : undefined;
}

function isMarker(message: unknown): boolean {
  return role(message) === "custom" && typeof message === "object" && message !== null && Reflect.get(message, "customType") === "todo-loop:continue";
}

function genMessages(rng: Random): unknown[] {
  return Array.from({ length: rng.int(0, 14) }, () => {
    const roll = rng.next();
    if (roll < 0.3) return { ...MARKER_MESSAGE, display: rng.chance(0.5), details: { v: 1, round: rng.int(1, 9) } };
    if (roll < 0.5) return { role: "assistant", content: [{ type: "text", text: text(rng, 4, 0) }] };
    if (roll < 0.62) return { role: "user", content: text(rng, 4, 0) };
    if (roll < 0.72) return { role: "toolResult", toolName: "bash", content: [] };
    if (roll < 0.9) return { role: rng.pick(["custom", "bashExecution", "branchSummary", "compactionSummary"]), customType: "other:note", content: "x" };
    return rng.chance(0.5) ? { role: "custom", customType: junk(rng, 0) } : junk(rng, 1);
  });
}

test(`context hook: never leaves a marker right before a user-role message (${CASES} cases)`, (t) => {
  const count = forAll("context-no-marker-before-user", CASES, genMessages, (messages) => {
    const kept = filterMarkers(messages);
    kept.forEach((message, index) => {
      if (index + 1 < kept.length && isMarker(message)) {
        assert.ok(!USER_ROLE_NAMES.has(String(role(kept[index + 1]))), `marker at ${index} is followed by role ${String(role(kept[index + 1]))}`);
      }
    });
  });
  t.diagnostic(`${count} cases`);
});

test(`context hook: only drops markers followed by a user-role message, never changing or reordering anything else (${CASES} cases)`, (t) => {
  const count = forAll("context-only-drops-markers", CASES, genMessages, (messages) => {
    const kept = filterMarkers(messages);
    const expected = messages.filter((message, index) => !(isMarker(message) && index + 1 < messages.length && USER_ROLE_NAMES.has(String(role(messages[index + 1])))));
    assert.equal(kept.length, expected.length, "exactly the markers before user-role messages are dropped");
    kept.forEach((message, index) => assert.equal(message, expected[index], `message ${index} is the same object, in the same order`));
    assert.deepEqual(messages.filter((message) => !isMarker(message)), kept.filter((message) => !isMarker(message)), "every non-marker survives");
  });
  t.diagnostic(`${count} cases`);
});

test(`context hook: returns the same array when it drops nothing, and the handler then returns undefined (${CASES} cases)`, async (t) => {
  let unchanged = 0;
  const { context } = load();
  const ctx = createContext({ session: createSession<RawEntry>([], "tree-session"), cwd: dirs.cwdClean });
  const count = await forAllAsync("context-same-array", CASES, genMessages, async (messages) => {
    const kept = filterMarkers(messages);
    const result = await context({ type: "context", messages }, ctx);
    if (kept.length === messages.length) {
      unchanged += 1;
      assert.equal(kept, messages, "the same array, not a copy");
      assert.equal(result, undefined, "the handler leaves the request untouched");
    } else {
      assert.ok(result, "the handler returns the filtered messages");
      assert.deepEqual(result.messages, [...kept]);
      assert.notEqual(result.messages, messages, "the event's array is not edited in place");
    }
  });
  t.diagnostic(`${count} cases, ${unchanged} unchanged`);
  assert.ok(unchanged > count / 10 && unchanged < count, "the generator reaches both outcomes");
});
