/**
 * The facts one decision reads, built for the loop's tests: a list, limits, tools, a memory, a branch,
 * a turn and a whole DecideInput, each with overrides; `run` decides, `ended` settles right after.
 */
import type { Limits, BranchFacts, DecideInput, Decision, ListState, Memory, Notice, ToolFacts, TurnFacts } from "../../src/core/types.ts";
import { decide, freshMemory, NO_EARLIER, settle } from "../../src/loop.ts";
import type { CommandFacts } from "../../src/loop.ts";
import { describeReason } from "../../src/core/text.ts";

export const ANCHOR = "u1";
export const LIST: Extract<ListState, { kind: "list" }> = { kind: "list", open: 2, total: 3, signature: "sig-a", source: "rpiv-todo", tool: "todo" };
export const CLEAR: Extract<ListState, { kind: "list" }> = { kind: "list", open: 0, total: 3, signature: "sig-done", source: "rpiv-todo", tool: "todo" };
export const EMPTIED: ListState = { kind: "none", why: "emptied" };
/** Every limit off, the idle-reply brake included: rows about other rules are not cut short by it. */
export const NO_LIMITS: Limits = { maxRounds: null, maxTokens: null, maxCost: null, maxMinutes: null, maxIdleReplies: null, maxStuckReplies: null, maxRepeats: null };
export const TODO_ACTIVE: ToolFacts = { active: ["todo", "read"], registered: [{ name: "todo", exposure: "direct" }, { name: "read", exposure: "direct" }] };

export function memory(overrides: Partial<Memory> = {}): Memory {
  return { ...freshMemory(ANCHOR), ...overrides };
}

/** The memory of a loop that has already seen LIST under ANCHOR. */
export function seen(overrides: Partial<Memory> = {}): Memory {
  return memory({ signature: "sig-a", hadWork: true, ...overrides });
}

export function branch(overrides: Partial<BranchFacts> = {}): BranchFacts {
  return {
    anchor: ANCHOR,
    round: 0,
    idle: 0,
    stale: 0,
    signature: undefined,
    waiting: undefined,
    paused: false,
    hadWork: false,
    announced: [],
    earlier: NO_EARLIER,
    stuck: 0,
    fp: undefined,
    repeats: 0,
    ...overrides,
  };
}

export function settleTurn(overrides: Partial<TurnFacts> = {}): TurnFacts {
  return { outcome: "completed", toolResults: 0, todoOnly: false, calls: [], openBefore: 2, vanished: [], question: undefined, reply: undefined, ...overrides };
}

export function toolTurn(overrides: Partial<TurnFacts> = {}): TurnFacts {
  return { outcome: "completed", toolResults: 1, todoOnly: true, calls: ["other"], openBefore: 2, vanished: [], question: undefined, reply: undefined, ...overrides };
}

export function limits(overrides: Partial<Limits> = {}): Limits {
  return { ...NO_LIMITS, ...overrides };
}

export function input(overrides: Partial<DecideInput> = {}): DecideInput {
  return {
    memory: undefined,
    branchSwitched: false,
    branch: branch(),
    turn: settleTurn(),
    list: LIST,
    pendingMessages: false,
    otherContinued: false,
    limits: NO_LIMITS,
    stopOnQuestion: true,
    spend: { tokens: 0, cost: 0, minutes: undefined },
    tools: TODO_ACTIVE,
    earlierTasks: "ask",
    ...overrides,
  };
}

export function run(given: DecideInput): Decision {
  return decide(given);
}

/** pi settled right after this decision (no transcript line shown). */
export function ended(decision: Decision, transcriptShown = false) {
  return settle(decision.memory, transcriptShown, describeReason);
}

export function noticeName(notice: Notice): string {
  if (notice.kind === "stop") return `stop:${notice.level}`;
  if (notice.kind === "emptied") return `emptied:${notice.how}`;
  return notice.kind;
}

export function facts(overrides: Partial<CommandFacts> = {}): CommandFacts {
  return { list: LIST, limits: NO_LIMITS, idle: true, killSwitch: false, ...overrides };
}

export const NO_SPEND = { tokens: 0, cost: 0, minutes: undefined };

/** Runs settles one after another from a memory that has seen LIST; returns every decision. */
export function replies(turns: readonly TurnFacts[], given: Partial<DecideInput> = {}, start: Memory = seen()): Decision[] {
  const out: Decision[] = [];
  let state = start;
  for (const turn of turns) {
    const decision = run(input({ memory: state, turn, ...given }));
    out.push(decision);
    state = decision.memory;
  }
  return out;
}
