/**
 * The loop's rules as one pure state machine: plain data in, plain data out — no ctx, no clock, no
 * files. `decide()` runs on every `turn_end`; `applyCommand()` serves `/todoloop`; `filterMarkers()` is
 * the `context` hook's rule. Every reason and notice is data; `text.ts` turns them into English.
 */
import type { Limits } from "./config.ts";
import type { CallKind, SourceId } from "./sources/index.ts";
import type { TurnOutcome } from "./pi.ts";

export type NoListWhy = "no-tool" | "unused" | "unreadable" | "emptied";
export type LimitKey = keyof Limits;

export type Reason =
  | { readonly kind: "idle" }
  | { readonly kind: "continuing"; readonly open: number; readonly round: number; readonly maxRounds: number | null }
  | { readonly kind: "clear" }
  | { readonly kind: "no-list"; readonly why: NoListWhy }
  | { readonly kind: "waiting"; readonly reason: string }
  | {
      readonly kind: "limit";
      readonly limit: LimitKey;
      readonly used: number;
      readonly max: number;
      readonly open: number;
      readonly stale: number;
    }
  | { readonly kind: "outcome"; readonly outcome: Exclude<TurnOutcome, "completed"> }
  | { readonly kind: "paused" }
  | { readonly kind: "resumed" }
  | { readonly kind: "reset" }
  | { readonly kind: "queued" }
  | { readonly kind: "other-extension" };

/** Per-session loop state for the current anchor. */
export interface Memory {
  readonly anchor: string;
  /** Continuations asked for under this anchor. */
  readonly round: number;
  /** Task signature seen by the last settle decision. */
  readonly signature: string | undefined;
  /** Settles since the list last changed. */
  readonly staleSettles: number;
  /** Settles since the last tool turn. */
  readonly settleRun: number;
  readonly waiting: string | undefined;
  readonly paused: boolean;
  /** Whether this human message has had a list with tasks. */
  readonly hadList: boolean;
  /** The stop last shown to the human and last recorded on the branch (English, to compare). */
  readonly announced: string | undefined;
  readonly recorded: string | undefined;
  readonly last: Reason;
}

/** What the branch says about the loop under its newest human message. */
export interface BranchFacts {
  readonly anchor: string;
  readonly round: number;
  readonly waiting: string | undefined;
  readonly hadList: boolean;
  readonly lastStop: string | undefined;
}

export type ListState =
  | {
      readonly kind: "list";
      readonly open: number;
      readonly total: number;
      readonly signature: string;
      readonly source: SourceId;
      readonly tool: string;
    }
  | { readonly kind: "none"; readonly why: NoListWhy };

export interface TurnFacts {
  readonly outcome: TurnOutcome;
  /** Tool results in this turn (0 = a settle). */
  readonly toolResults: number;
  /** Whether every tool result came from a todo tool. */
  readonly todoOnly: boolean;
  /** What each recognised todo call did. */
  readonly calls: readonly CallKind[];
  /** Open tasks when this turn's reply was written, before its tool calls ran. */
  readonly openBefore: number;
  /** Texts of tasks that were open before this turn and are gone (deleted) now. */
  readonly vanished: readonly string[];
}

export interface DecideInput {
  readonly memory: Memory | undefined;
  /** The branch changed under the memory (`/tree`, fork): counters come from the branch again. */
  readonly branchSwitched: boolean;
  readonly branch: BranchFacts;
  readonly turn: TurnFacts;
  readonly list: ListState;
  /** A queued message will run next anyway. */
  readonly pendingMessages: boolean;
  /** An earlier handler already asked pi to continue this turn. */
  readonly otherContinued: boolean;
  readonly limits: Limits;
  readonly spend: { readonly tokens: number; readonly cost: number };
}

export interface MarkerDetails {
  readonly v: 1;
  readonly round: number;
  readonly anchor: string;
  readonly open: number;
  readonly hint: boolean;
}

export interface StopRecord {
  readonly reason: string;
  readonly round: number;
  readonly open: number;
  readonly anchor: string;
}

export type Notice =
  | { readonly kind: "stop"; readonly reason: Reason; readonly level: "info" | "warning" }
  | { readonly kind: "emptied"; readonly how: "delete"; readonly count: number; readonly texts: readonly string[] }
  | { readonly kind: "emptied"; readonly how: "clear" | "unlabelled" }
  | {
      readonly kind: "stale";
      readonly replies: number;
      readonly open: number;
      readonly limits: Limits;
      readonly roundsLeft: number | null;
    };

export interface Decision {
  readonly memory: Memory;
  readonly continue: boolean;
  /** The marker to append when continuing; `tool` names the todo tool for the nudge. */
  readonly marker: (MarkerDetails & { readonly tool: string }) | undefined;
  /** A stop to record as a hidden `todo-loop:stop` entry. */
  readonly stop: StopRecord | undefined;
  readonly notices: readonly Notice[];
}

export const IDLE: Reason = { kind: "idle" };

export function freshMemory(anchor: string, paused = false): Memory {
  return {
    anchor,
    round: 0,
    signature: undefined,
    staleSettles: 0,
    settleRun: 0,
    waiting: undefined,
    paused,
    hadList: false,
    announced: undefined,
    recorded: undefined,
    last: IDLE,
  };
}

/**
 * The memory for the branch's current anchor. Memory wins within a process; a new anchor resets every
 * counter; with no memory for this anchor, or after the branch changed under it, the counters are
 * rebuilt from the branch (marker details, the block tool's result, stop records). Pausing is the
 * user's and survives all of these.
 */
export function align(memory: Memory | undefined, branch: BranchFacts, branchSwitched: boolean): Memory {
  if (memory && memory.anchor === branch.anchor && !branchSwitched) return memory;
  const sameAnchor = memory !== undefined && memory.anchor === branch.anchor;
  return {
    ...freshMemory(branch.anchor, memory?.paused ?? false),
    round: branch.round,
    waiting: branch.waiting,
    hadList: branch.hadList,
    announced: branch.lastStop,
    recorded: branch.lastStop,
    last: sameAnchor ? memory.last : IDLE,
  };
}

function openOf(list: ListState): number {
  return list.kind === "list" ? list.open : 0;
}

/** The limit reached by the spend so far, if any (limits compare with >=). */
export function limitReached(
  memory: Memory,
  limits: Limits,
  spend: DecideInput["spend"],
  open: number,
): Extract<Reason, { kind: "limit" }> | undefined {
  const stale = memory.staleSettles;
  if (limits.maxRounds !== null && memory.round >= limits.maxRounds) {
    return { kind: "limit", limit: "maxRounds", used: memory.round, max: limits.maxRounds, open, stale };
  }
  if (limits.maxTokens !== null && spend.tokens >= limits.maxTokens) {
    return { kind: "limit", limit: "maxTokens", used: spend.tokens, max: limits.maxTokens, open, stale };
  }
  if (limits.maxCost !== null && spend.cost >= limits.maxCost) {
    return { kind: "limit", limit: "maxCost", used: spend.cost, max: limits.maxCost, open, stale };
  }
  return undefined;
}

function noop(memory: Memory, notices: readonly Notice[] = []): Decision {
  return { memory, continue: false, marker: undefined, stop: undefined, notices };
}

/**
 * A stop that ends a run: recorded once on the branch and announced once to the human, each when the
 * reason changes — and only when this human message has had a list. `describe` is the English of a
 * reason (injected so the core stays free of wording).
 */
function stopWith(
  memory: Memory,
  reason: Reason,
  open: number,
  level: "info" | "warning",
  describe: (reason: Reason) => string,
  announce: boolean,
  notices: readonly Notice[] = [],
): Decision {
  const text = describe(reason);
  const next: Memory = { ...memory, last: reason };
  if (!announce) return noop(next, notices);
  const record = text !== memory.recorded;
  const show = text !== memory.announced;
  return {
    memory: { ...next, recorded: text, announced: text },
    continue: false,
    marker: undefined,
    stop: record ? { reason: text, round: memory.round, open, anchor: memory.anchor } : undefined,
    notices: show ? [...notices, { kind: "stop", reason, level }] : notices,
  };
}

/** The warning due when a todo-only tool turn left no open task: by what the calls did. */
function emptiedNotice(turn: TurnFacts, list: ListState): Notice | undefined {
  const deletes = turn.calls.filter((call) => call === "delete").length;
  if (deletes > 0) {
    return { kind: "emptied", how: "delete", count: Math.max(deletes, turn.vanished.length), texts: turn.vanished };
  }
  if (turn.calls.includes("clear")) return { kind: "emptied", how: "clear" };
  // Calls that carry no action can still be told apart by the list: every task still there, none open,
  // means they were closed, not deleted.
  const unclear = list.kind === "none" || turn.vanished.length > 0;
  if (turn.calls.includes("unlabelled") && unclear) return { kind: "emptied", how: "unlabelled" };
  return undefined;
}

/** The turn_end decision (SPEC §4, items 3–11). The kill switch is checked before this is called. */
export function decide(input: DecideInput, describe: (reason: Reason) => string): Decision {
  const { turn, list } = input;
  const open = openOf(input.list);
  let memory = align(input.memory, input.branch, input.branchSwitched);
  if (list.kind === "list" && list.total > 0 && !memory.hadList) memory = { ...memory, hadList: true };

  if (turn.toolResults > 0) {
    memory = { ...memory, settleRun: 0 };
    if (turn.outcome !== "completed") {
      return stopWith(memory, { kind: "outcome", outcome: turn.outcome }, open, "warning", describe, memory.hadList && open > 0);
    }
    const emptied = turn.openBefore > 0 && open === 0 && turn.todoOnly ? emptiedNotice(turn, list) : undefined;
    if (!emptied) return noop(memory);
    // The warning is the announcement of the stop that follows; the settle only records it.
    const follows: Reason = list.kind === "list" ? { kind: "clear" } : { kind: "no-list", why: list.why };
    return noop({ ...memory, announced: describe(follows) }, [emptied]);
  }

  if (turn.outcome !== "completed") {
    return stopWith(memory, { kind: "outcome", outcome: turn.outcome }, open, "warning", describe, memory.hadList && open > 0);
  }
  if (memory.paused) return noop({ ...memory, last: { kind: "paused" } });
  if (memory.waiting !== undefined) {
    return stopWith(memory, { kind: "waiting", reason: memory.waiting }, open, "warning", describe, memory.hadList);
  }
  if (list.kind === "none") return stopWith(memory, { kind: "no-list", why: list.why }, 0, "warning", describe, memory.hadList);
  if (list.open === 0) return stopWith(memory, { kind: "clear" }, 0, "info", describe, memory.hadList);
  if (input.pendingMessages) return noop({ ...memory, last: { kind: "queued" } });
  if (input.otherContinued) return noop({ ...memory, last: { kind: "other-extension" } });

  const progress = list.signature !== memory.signature;
  const settleRun = memory.settleRun + 1;
  memory = {
    ...memory,
    signature: list.signature,
    staleSettles: progress ? 0 : memory.staleSettles + 1,
    settleRun,
  };
  const hint = settleRun === 2 && !progress;

  const limit = limitReached(memory, input.limits, input.spend, open);
  if (limit) return stopWith(memory, limit, open, "warning", describe, true);

  const round = memory.round + 1;
  const maxRounds = input.limits.maxRounds;
  memory = { ...memory, round, last: { kind: "continuing", open, round, maxRounds } };
  const notices: Notice[] = [];
  if (memory.staleSettles > 0 && memory.staleSettles % 10 === 0) {
    notices.push({
      kind: "stale",
      replies: memory.staleSettles,
      open,
      limits: input.limits,
      roundsLeft: maxRounds === null ? null : Math.max(0, maxRounds - round),
    });
  }
  return {
    memory,
    continue: true,
    marker: { v: 1, round, anchor: memory.anchor, open, hint, tool: list.tool },
    stop: undefined,
    notices,
  };
}

export type Command = "status" | "pause" | "resume" | "reset";
export const COMMANDS: readonly Command[] = ["status", "pause", "resume", "reset"];

export function parseCommand(args: unknown): Command | undefined {
  const word = typeof args === "string" ? args.trim().toLowerCase() : "";
  if (word === "") return "status";
  return (COMMANDS as readonly string[]).includes(word) ? (word as Command) : undefined;
}

/** `/todoloop pause | resume | reset` on the memory of the current anchor. */
export function applyCommand(memory: Memory, command: Command): Memory {
  switch (command) {
    case "status":
      return memory;
    case "pause":
      return { ...memory, paused: true, last: { kind: "paused" } };
    case "resume":
      return { ...memory, paused: false, waiting: undefined, last: { kind: "resumed" } };
    case "reset":
      return {
        ...freshMemory(memory.anchor, memory.paused),
        hadList: memory.hadList,
        last: { kind: "reset" },
      };
    default:
      return assertNever(command);
  }
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}

export const USER_ROLES: ReadonlySet<string> = new Set(["user", "custom", "bashExecution", "branchSummary", "compactionSummary"]);

function roleOf(message: unknown): unknown {
  return typeof message === "object" && message !== null ? (message as { role?: unknown }).role : undefined;
}

export function isMarkerMessage(message: unknown): boolean {
  return roleOf(message) === "custom" && (message as { customType?: unknown }).customType === "todo-loop:continue";
}

/**
 * The `context` rule: drop every marker whose next message is user-role; keep a marker at the tail and
 * one between two assistant messages. Returns the same array when nothing was dropped.
 */
export function filterMarkers<T>(messages: T[]): T[] {
  let kept: T[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as T;
    const nextRole = index + 1 < messages.length ? roleOf(messages[index + 1]) : undefined;
    const drop = isMarkerMessage(message) && typeof nextRole === "string" && USER_ROLES.has(nextRole);
    if (drop) {
      kept ??= messages.slice(0, index);
    } else if (kept) {
      kept.push(message);
    }
  }
  return kept ?? messages;
}
