/**
 * Generated-input tests: each property runs over at least 10,000 seeded cases (the count is in the test
 * name) and a failure names its seed and prints its case (see test/gen.ts). Covers decide() (SPEC §4),
 * the branch reader's incremental and full reads (§9, §13), the context hook (§5), the kill switch (§8)
 * and survival of junk input (§10).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import todoLoop from "../src/index.ts";
import { align, applyCommand, decide, filterMarkers, freshMemory, IDLE } from "../src/loop.ts";
import type { BranchFacts, Command, DecideInput, Decision, ListState, Memory, NoListWhy, TurnFacts } from "../src/loop.ts";
import type { Limits } from "../src/config.ts";
import type { CallKind } from "../src/sources/index.ts";
import { createBranchReader, readSnapshot } from "../src/state.ts";
import type { BranchChange, Snapshot } from "../src/state.ts";
import type { TurnOutcome } from "../src/pi.ts";
import { describeReason } from "../src/text.ts";
import { createContext, createFakePi, createSession } from "./fake-pi.ts";
import type { ContextHandler, TurnEndHandler } from "./fake-pi.ts";
import { anyEntry, entryOf, forAll, forAllAsync, junk, random, text } from "./gen.ts";
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
  pi: ReturnType<typeof createFakePi>;
}

/** A fresh extension behind the typed fake pi; each case gets its own process state. */
function load(): Handlers {
  const pi = createFakePi({ activeTools: ["read", "bash", "todo"] });
  todoLoop(pi);
  const turnEnd = pi.turnEndHandlers[0];
  const context = pi.contextHandlers[0];
  if (!turnEnd || !context) throw new Error("the extension registers a turn_end and a context handler");
  return { turnEnd, context, pi };
}

// ---- decide() ------------------------------------------------------------------------------------------------

const ANCHORS = ["u1", "u2", "u3"];
const SIGNATURES = ["s1", "s2", "s3"];
const OUTCOMES: readonly TurnOutcome[] = ["completed", "completed", "completed", "error", "aborted"];
const CALLS: readonly CallKind[] = ["delete", "clear", "complete", "other", "unlabelled"];
const WHY: readonly NoListWhy[] = ["no-tool", "unused", "unreadable", "emptied"];

function genMemory(rng: Random, anchor: string): Memory {
  return {
    ...freshMemory(anchor, rng.chance(0.2)),
    round: rng.int(0, 14),
    signature: rng.chance(0.3) ? undefined : rng.pick(SIGNATURES),
    staleSettles: rng.int(0, 25),
    settleRun: rng.int(0, 4),
    waiting: rng.chance(0.15) ? "need a key" : undefined,
    hadList: rng.chance(0.6),
    announced: rng.chance(0.5) ? undefined : "stopped: list is clear",
    recorded: rng.chance(0.5) ? undefined : "stopped: list is clear",
    last: IDLE,
  };
}

function genBranch(rng: Random, anchor: string): BranchFacts {
  return {
    anchor,
    round: rng.int(0, 14),
    waiting: rng.chance(0.15) ? "need a decision" : undefined,
    hadList: rng.chance(0.5),
    lastStop: rng.chance(0.3) ? "stopped: list is clear" : undefined,
  };
}

function genTurn(rng: Random, toolResults: number = rng.chance(0.5) ? 0 : rng.int(1, 4)): TurnFacts {
  return {
    outcome: rng.pick(OUTCOMES),
    toolResults,
    todoOnly: rng.chance(0.5),
    calls: Array.from({ length: rng.int(0, 3) }, () => rng.pick(CALLS)),
    openBefore: rng.int(0, 5),
    vanished: Array.from({ length: rng.int(0, 2) }, () => text(rng, 6)),
  };
}

function genList(rng: Random): ListState {
  if (rng.chance(0.2)) return { kind: "none", why: rng.pick(WHY) };
  const open = rng.chance(0.25) ? 0 : rng.int(1, 6);
  return { kind: "list", open, total: open + rng.int(open === 0 ? 1 : 0, 4), signature: rng.pick(SIGNATURES), source: "rpiv-todo", tool: rng.pick(["todo", "todo_write", "TaskUpdate"]) };
}

function genLimits(rng: Random): Limits {
  return {
    maxRounds: rng.chance(0.5) ? null : rng.int(1, 12),
    maxTokens: rng.chance(0.7) ? null : rng.int(1, 50_000),
    maxCost: rng.chance(0.7) ? null : rng.int(1, 500) / 100,
  };
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
    spend: { tokens: rng.int(0, 60_000), cost: rng.int(0, 600) / 100 },
    ...overrides,
  };
}

/** The counters in force for this turn, by SPEC §13: memory for the same anchor on the same branch, else the branch's. */
function effective(input: DecideInput): { round: number; paused: boolean; waiting: string | undefined; staleSettles: number; signature: string | undefined } {
  const { memory, branch } = input;
  if (memory && memory.anchor === branch.anchor && !input.branchSwitched) return memory;
  return { round: branch.round, paused: memory?.paused ?? false, waiting: branch.waiting, staleSettles: 0, signature: undefined };
}

function run(input: DecideInput): Decision {
  return decide(input, describeReason);
}

test(`decide() continues exactly on a completed settle with open tasks, not paused, not waiting, nothing queued, no other continuation and no limit reached (${CASES * 2} cases)`, (t) => {
  let continued = 0;
  const count = forAll("decide-continue-iff", CASES * 2, (rng) => genInput(rng), (input) => {
    const now = effective(input);
    const { limits, spend, list, turn } = input;
    const atLimit = (limits.maxRounds !== null && now.round >= limits.maxRounds)
      || (limits.maxTokens !== null && spend.tokens >= limits.maxTokens)
      || (limits.maxCost !== null && spend.cost >= limits.maxCost);
    const expected = turn.toolResults === 0 && turn.outcome === "completed" && !now.paused && now.waiting === undefined
      && list.kind === "list" && list.open > 0 && !input.pendingMessages && !input.otherContinued && !atLimit;
    const decision = run(input);
    assert.equal(decision.continue, expected, "continue");
    if (decision.continue) {
      continued += 1;
      assert.ok(decision.marker, "a continuation carries a marker");
      assert.equal(decision.marker.round, now.round + 1, "one round spent");
      assert.equal(decision.marker.anchor, input.branch.anchor);
      assert.equal(decision.marker.open, list.kind === "list" ? list.open : -1);
      assert.equal(decision.marker.v, 1);
      assert.equal(decision.stop, undefined, "a continuation records no stop");
      assert.equal(decision.memory.round, now.round + 1);
    } else {
      assert.equal(decision.marker, undefined, "no marker without continuing");
      assert.equal(decision.memory.round, now.round, "no round spent without continuing");
    }
  });
  t.diagnostic(`${count} cases, ${continued} continued`);
  assert.ok(continued > count / 50 && continued < count / 2, "the generator reaches both outcomes");
});

type Step =
  | { readonly kind: "human" }
  | { readonly kind: "reload" }
  | { readonly kind: "command"; readonly command: Command }
  | { readonly kind: "turn"; readonly turn: TurnFacts; readonly list: ListState; readonly pending: boolean };

interface Sequence {
  readonly limits: Limits;
  readonly steps: readonly Step[];
}

function genSequence(rng: Random): Sequence {
  const steps: Step[] = [];
  for (let index = rng.int(1, 60); index > 0; index--) {
    const roll = rng.next();
    if (roll < 0.06) steps.push({ kind: "human" });
    else if (roll < 0.1) steps.push({ kind: "reload" });
    else if (roll < 0.13) steps.push({ kind: "command", command: rng.pick<Command>(["pause", "resume", "status"]) });
    else steps.push({ kind: "turn", turn: genTurn(rng, rng.chance(0.6) ? 0 : rng.int(1, 3)), list: genList(rng), pending: rng.chance(0.05) });
  }
  return { limits: { maxRounds: rng.int(1, 8), maxTokens: null, maxCost: null }, steps };
}

test(`decide() never asks for more than maxRounds continuations per human message, across reloads, pauses and tool turns (${CASES} sequences)`, (t) => {
  let turns = 0;
  let capped = 0;
  const count = forAll("decide-max-rounds", CASES, genSequence, ({ limits, steps }) => {
    let anchorNumber = 1;
    let memory: Memory | undefined;
    const markerRound = new Map<string, number>();
    const spent = new Map<string, number>();
    const facts = (): BranchFacts => {
      const anchor = `u${anchorNumber}`;
      return { anchor, round: markerRound.get(anchor) ?? 0, waiting: undefined, hadList: false, lastStop: undefined };
    };
    for (const step of steps) {
      if (step.kind === "human") anchorNumber += 1;
      else if (step.kind === "reload") memory = undefined;
      else if (step.kind === "command") {
        memory = applyCommand(align(memory, facts(), false), step.command);
      } else {
        turns += 1;
        const branch = facts();
        const decision = run({
          memory,
          branchSwitched: false,
          branch,
          turn: step.turn,
          list: step.list,
          pendingMessages: step.pending,
          otherContinued: false,
          limits,
          spend: { tokens: 0, cost: 0 },
        });
        memory = decision.memory;
        if (decision.continue) {
          const used = (spent.get(branch.anchor) ?? 0) + 1;
          spent.set(branch.anchor, used);
          assert.ok(used <= (limits.maxRounds ?? Infinity), `continuation ${used} under ${branch.anchor} exceeds maxRounds ${limits.maxRounds}`);
          assert.equal(decision.marker?.round, used, "the marker counts the continuations under this message");
          markerRound.set(branch.anchor, used);
          if (used === limits.maxRounds) capped += 1;
        }
      }
    }
  });
  t.diagnostic(`${count} sequences, ${turns} turns, ${capped} reached their cap`);
  assert.ok(capped > count / 10, "the generator reaches the cap often");
});

test(`decide(): a new human message always resets the counters (${CASES} cases)`, (t) => {
  const count = forAll(
    "decide-new-anchor",
    CASES,
    (rng) => {
      const base = genInput(rng);
      return { ...base, memory: genMemory(rng, "old"), branch: genBranch(rng, "new") };
    },
    (input) => {
      const decision = run(input);
      const next = decision.memory;
      assert.equal(next.anchor, "new");
      assert.equal(next.round, input.branch.round + (decision.continue ? 1 : 0), "rounds count from the branch under the new message");
      assert.equal(next.staleSettles, 0, "no stale replies carried over");
      assert.ok(next.settleRun <= 1, "at most this settle in the run");
      assert.equal(next.waiting, input.branch.waiting, "waiting is the new message's");
      assert.equal(next.paused, input.memory?.paused, "a pause is the user's and survives");
      assert.ok(next.signature === undefined || (input.list.kind === "list" && next.signature === input.list.signature), "no old signature");
      if (decision.marker) assert.equal(decision.marker.hint, false, "no hint on the first settle under a message");
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
    },
  );
  t.diagnostic(`${count} cases`);
});

const ODD_NUMBERS = [0, -0, 1, -1, 2, 0.5, 1e9, -1e9, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_SAFE_INTEGER];

function odd(rng: Random): number {
  return rng.chance(0.5) ? rng.pick(ODD_NUMBERS) : rng.int(-5, 20);
}

function oddText(rng: Random): string {
  return rng.chance(0.1) ? "x".repeat(rng.int(1000, 5000)) : text(rng, 10, 0.5);
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
        waiting: rng.chance(0.3) ? oddText(rng) : undefined,
        hadList: rng.chance(0.5),
        announced: rng.chance(0.5) ? undefined : oddText(rng),
        recorded: rng.chance(0.5) ? undefined : oddText(rng),
      };
  const list: ListState = rng.chance(0.2)
    ? { kind: "none", why: rng.pick(WHY) }
    : { kind: "list", open: odd(rng), total: odd(rng), signature: oddText(rng), source: "rpiv-todo", tool: oddText(rng) };
  return {
    memory,
    branchSwitched: rng.chance(0.3),
    branch: { anchor, round: odd(rng), waiting: rng.chance(0.3) ? oddText(rng) : undefined, hadList: rng.chance(0.5), lastStop: rng.chance(0.3) ? oddText(rng) : undefined },
    turn: {
      outcome: rng.pick(OUTCOMES),
      toolResults: odd(rng),
      todoOnly: rng.chance(0.5),
      calls: Array.from({ length: rng.int(0, 6) }, () => rng.pick(CALLS)),
      openBefore: odd(rng),
      vanished: Array.from({ length: rng.int(0, 8) }, () => oddText(rng)),
    },
    list,
    pendingMessages: rng.chance(0.2),
    otherContinued: rng.chance(0.2),
    limits: { maxRounds: rng.chance(0.5) ? null : odd(rng), maxTokens: rng.chance(0.5) ? null : odd(rng), maxCost: rng.chance(0.5) ? null : odd(rng) },
    spend: { tokens: odd(rng), cost: odd(rng) },
  };
}

test(`decide() never throws on odd values, is deterministic and leaves its input untouched (${CASES} cases)`, (t) => {
  const count = forAll("decide-total", CASES, genOddInput, (input) => {
    const before = structuredClone(input);
    const first = run(input);
    const second = run(input);
    assert.deepEqual(second, first, "same input, same decision");
    assert.deepEqual(input, before, "the input is not mutated");
    assert.equal(typeof first.continue, "boolean");
    assert.equal(first.continue, first.marker !== undefined, "a marker exactly when continuing");
    for (const notice of first.notices) assert.ok(["stop", "emptied", "stale"].includes(notice.kind));
  });
  t.diagnostic(`${count} cases`);
});

// ---- the kill switch and junk, through the real handlers ------------------------------------------------

interface KillCase {
  readonly where: "global" | "cwd";
  readonly prefix: readonly RawEntry[];
  readonly tasks: number;
  readonly hasUI: boolean;
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

const MARKER_MESSAGE = { role: "custom", customType: "todo-loop:continue", content: "Continue.", display: false };

test(`kill switch: turn_end and context touch nothing while either kill-switch file exists, and the same turn continues without it (${CASES} cases)`, async (t) => {
  const count = await forAllAsync(
    "kill-switch",
    CASES,
    (rng): KillCase => ({
      where: rng.chance(0.5) ? "global" : "cwd",
      prefix: Array.from({ length: rng.int(0, 6) }, () => anyEntry(rng)),
      tasks: rng.int(1, 5),
      hasUI: rng.chance(0.5),
    }),
    async (value) => {
      const session = createSession<RawEntry>([], "tree-session");
      for (const entry of value.prefix) session.append(entry);
      session.append({ type: "message", message: { role: "user", content: "Do the work", timestamp: 1 } });
      session.append(rpivResult(value.tasks));
      session.append({ type: "message", message: { role: "assistant", content: [], usage: { totalTokens: 10 }, timestamp: 2 } });
      const messages = [{ role: "assistant", content: [] }, MARKER_MESSAGE, { role: "user", content: "stop" }];

      process.env.PI_CODING_AGENT_DIR = value.where === "global" ? dirs.agentOff : dirs.agentClean;
      const off = load();
      const offCtx = createContext({ session, cwd: value.where === "cwd" ? dirs.cwdOff : dirs.cwdClean, hasUI: value.hasUI });
      assert.equal(await off.turnEnd({ ...SETTLE }, offCtx), undefined, "turn_end does nothing");
      assert.equal(await off.context({ type: "context", messages }, offCtx), undefined, "context does nothing");
      assert.deepEqual(offCtx.ui.notifications, [], "no notify");
      assert.deepEqual(offCtx.ui.statuses, [], "no footer");

      process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
      const on = load();
      const onCtx = createContext({ session, cwd: dirs.cwdClean, hasUI: value.hasUI });
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
  readonly messages: unknown;
  readonly params: unknown;
  readonly args: unknown;
  /** Index into CONFIGS. */
  readonly config: number;
}

/** Agent dirs holding junk config files (written once; the first has none), picked by each case. */
const CONFIGS: readonly { dir: string; text: string | undefined }[] = Array.from({ length: 40 }, (_, index) => {
  const rng = random(index + 1);
  const dir = join(root, `agent-config-${index}`);
  mkdirSync(dir, { recursive: true });
  const valid = JSON.stringify({ maxRounds: rng.int(0, 3), maxTokens: rng.chance(0.5) ? null : rng.int(1, 5000), maxCost: rng.chance(0.5) ? null : 0.01 });
  const body = index === 0 ? undefined : index % 3 === 1 ? valid : rng.chance(0.6) ? JSON.stringify(junk(rng)) : text(rng, 20, 0.3);
  if (body !== undefined) writeFileSync(join(dir, "todo-loop.json"), body);
  return { dir, text: body };
});

function genJunkEvent(rng: Random): unknown {
  if (rng.chance(0.1)) return junk(rng);
  return {
    type: "turn_end",
    toolResults: rng.chance(0.8)
      ? Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.5) ? junk(rng) : (entryOf(rng, rng.pick(["rpiv-result", "rpiv-bad-result", "other-tool", "block"] as const)).message)))
      : junk(rng),
    outcome: rng.chance(0.7) ? rng.pick(["completed", "error", "aborted"]) : junk(rng),
    entries: rng.chance(0.8) ? [] : junk(rng),
    continue: rng.chance(0.8) ? false : junk(rng),
    context: rng.chance(0.7) ? { pendingMessages: rng.chance(0.9) ? [] : [junk(rng)] } : junk(rng),
  };
}

test(`junk: turn_end, context, todo_loop_block and /todoloop never fail on junk entries, events, messages, params and config (${CASES} cases)`, async (t) => {
  let continued = 0;
  const count = await forAllAsync(
    "junk",
    CASES,
    (rng): JunkCase => ({
      entries: Array.from({ length: rng.int(0, 25) }, () => (rng.chance(0.3) ? entryOf(rng, "junk") : anyEntry(rng))),
      event: genJunkEvent(rng),
      messages: rng.chance(0.8) ? Array.from({ length: rng.int(0, 6) }, () => (rng.chance(0.3) ? MARKER_MESSAGE : junk(rng))) : junk(rng),
      params: rng.chance(0.5) ? { reason: rng.chance(0.7) ? text(rng, 30, 0.4) : junk(rng) } : junk(rng),
      args: rng.chance(0.7) ? rng.pick(["", "status", "pause", "resume", "reset", " RESET "]) : junk(rng),
      config: rng.int(0, CONFIGS.length - 1),
    }),
    async (value) => {
      process.env.PI_CODING_AGENT_DIR = CONFIGS[value.config]?.dir;
      const session = createSession<RawEntry>([], "tree-session");
      for (const entry of value.entries) session.append(entry);
      const { turnEnd, context, pi } = load();
      const ctx = createContext({ session, cwd: dirs.cwdClean });
      const event = value.event as Parameters<TurnEndHandler>[0];
      const result = await turnEnd(event, ctx);
      if (result !== undefined) {
        assert.ok(Array.isArray(result.entries), "a result carries entries");
        const last = result.entries.at(-1);
        if (result.continue === true) {
          continued += 1;
          assert.ok(typeof last === "object" && last !== null && Reflect.get(last, "customType") === "todo-loop:continue", "a continuation ends with the marker");
        }
      }
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
    },
  );
  process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
  t.diagnostic(`${count} cases, ${continued} continued`);
});

// ---- the branch reader -------------------------------------------------------------------------------------

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
      const entries = Array.from({ length: rng.int(1, 6) }, () => (rng.chance(0.08) ? entryOf(rng, "compaction") : anyEntry(rng)));
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

function isHuman(entry: RawEntry): boolean {
  const message = entry.message;
  return entry.type === "message" && typeof message === "object" && message !== null && !Array.isArray(message) && Reflect.get(message, "role") === "user";
}

function isAssistant(entry: RawEntry): boolean {
  const message = entry.message;
  return entry.type === "message" && typeof message === "object" && message !== null && !Array.isArray(message) && Reflect.get(message, "role") === "assistant";
}

/**
 * The snapshot fields both reads must agree on. Two fields are documented as partial: the "todo tool
 * used / unread results" flags explain a missing list, so they only count when there is none; the list
 * at the last reply is read for a turn_end, where the turn's reply always follows the newest human
 * message, so it counts when a reply follows it.
 */
function comparable(snapshot: Snapshot, branch: readonly RawEntry[]): Partial<Snapshot> {
  const { todoToolUsed, unreadTodoResults, listAtLastReply, ...rest } = snapshot;
  const anchorAt = branch.findLastIndex(isHuman);
  const replyAfterAnchor = branch.some((entry, index) => index > anchorAt && isAssistant(entry));
  return {
    ...rest,
    ...(snapshot.list === undefined ? { todoToolUsed, unreadTodoResults } : {}),
    ...(replyAfterAnchor ? { listAtLastReply } : {}),
  };
}

test(`reader: incremental reads agree with full reads over random appends, /tree moves, forks and compactions (${CASES} sequences)`, (t) => {
  let reads = 0;
  const changes: Record<BranchChange, number> = { first: 0, same: 0, appended: 0, switched: 0 };
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
  t.diagnostic(`${count} sequences, ${reads} reads: ${JSON.stringify(changes)}`);
  assert.ok(changes.switched > 0 && changes.appended > 0 && changes.same > 0, "every kind of change is exercised");
});

test(`reader: arbitrary JSON junk as entries or whole branches never throws (${CASES} cases)`, (t) => {
  const count = forAll(
    "reader-junk",
    CASES,
    (rng) => Array.from({ length: rng.int(0, 20) }, () => (rng.chance(0.3) ? junk(rng, 3) : rng.chance(0.5) ? entryOf(rng, "junk") : anyEntry(rng))),
    (branch) => {
      const snapshot = readSnapshot(branch);
      assert.equal(snapshot.length, branch.length);
      assert.equal(typeof snapshot.anchor, "string");
      assert.ok(Number.isFinite(snapshot.tokens) && snapshot.tokens >= 0, "tokens are a finite count");
      assert.ok(Number.isFinite(snapshot.cost) && snapshot.cost >= 0, "cost is a finite amount");
      assert.ok(Number.isInteger(snapshot.round) && snapshot.round >= 0, "round is a count");
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
    if (roll < 0.3) return { ...MARKER_MESSAGE, details: { v: 1, round: rng.int(1, 9) } };
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
