/**
 * What a run is measured against and how it stops, shared by `decide()` (`loop.ts`), the timers' rules
 * (`limit-stop.ts`, `work-wake.ts`), verification (`verify.ts`) and the words (`text.ts`): the limit the
 * spend reached, whether the todo tool is in reach, a stop's kind and its "once per stop" key, the stop
 * or continuation a timer sends, the marker's details, the earlier-message facts and the minutes of a run.
 */
import type {
  BranchFacts, DecideInput, EarlierFacts, EarlierMode, LimitKey, Limits, ListState, MarkerDetails, MarkerDraft, Memory, Reason, StopKind, ToolFacts,
} from "./types.ts";

export const NO_EARLIER: EarlierFacts = { open: false, carried: false, adopted: false, shown: undefined, before: undefined };

/** The limit reached by the spend so far, if any (limits compare with >=). */
export function limitReached(
  memory: Memory,
  limits: Limits,
  spend: DecideInput["spend"],
  open: number,
): Extract<Reason, { kind: "limit" | "idle" | "stuck" | "repeat" }> | undefined {
  const stale = memory.staleSettles;
  const reached = (limit: LimitKey, used: number, max: number | null): Extract<Reason, { kind: "limit" }> | undefined =>
    max !== null && used >= max ? { kind: "limit", limit, used, max, open, stale } : undefined;
  return (
    reached("maxRounds", memory.round, limits.maxRounds) ??
    reached("maxTokens", spend.tokens, limits.maxTokens) ??
    reached("maxCost", spend.cost, limits.maxCost) ??
    (spend.minutes === undefined ? undefined : reached("maxMinutes", spend.minutes, limits.maxMinutes)) ??
    (limits.maxIdleReplies !== null && memory.settleRun >= limits.maxIdleReplies
      ? { kind: "idle", replies: memory.settleRun, open }
      : undefined) ??
    (limits.maxRepeats !== null && memory.repeats >= limits.maxRepeats ? { kind: "repeat", replies: memory.repeats, open } : undefined) ??
    (limits.maxStuckReplies !== null && memory.stuck >= limits.maxStuckReplies ? { kind: "stuck", replies: memory.stuck, open } : undefined)
  );
}

/** Whether the model can call `tool`: it is active, or an active codemode can call it (SPEC §4.6). */
export function toolReachable(tool: string, tools: ToolFacts): boolean {
  if (tools.active.includes(tool)) return true;
  if (!tools.active.includes("codemode")) return false;
  const exposure = tools.registered.find((entry) => entry.name === tool)?.exposure;
  return exposure === "codemode" || exposure === "deferred";
}

/** The stop kind of a reason, or undefined when the reason is no stop. */
export function stopKind(reason: Reason): StopKind | undefined {
  switch (reason.kind) {
    case "clear":
    case "no-list":
    case "limit":
    case "idle":
    case "stuck":
    case "repeat":
    case "out-of-reach":
    case "out-of-date":
    case "outcome":
    case "earlier":
      return reason.kind;
    case "waiting":
      return reason.asked ? "question" : "waiting";
    case "verified":
      return reason.base === "clear" ? "clear" : "no-list";
    case "verify-failed":
    case "verify-error":
    case "limit-wait":
    case "work-timeout":
      return reason.kind;
    default:
      return undefined;
  }
}

/** Identifies a stop for "once per stop": its kind, and which limit. Never its wording. */
export function stopKey(kind: StopKind, limit?: string): string {
  return kind === "limit" && limit !== undefined ? `limit:${limit}` : kind;
}

/** A stop a timer decides instead of its continuation, kept pending to be announced as a run's end is. */
export function timerStop(memory: Memory, reason: Reason, open: number): Memory {
  return { ...memory, hadWork: true, last: reason, pending: { reason, open, level: "warning" } };
}

/**
 * The continuation a timer sends (a usage limit's wake, work's wake or check-in): one round with the
 * counters kept — or, when the todo tool is out of reach or a limit is reached meanwhile, that stop.
 */
export function timerContinuation(
  memory: Memory,
  list: Extract<ListState, { kind: "list" }>,
  facts: { readonly limits: Limits; readonly spend: DecideInput["spend"]; readonly tools: ToolFacts },
): { readonly kind: "continue"; readonly memory: Memory; readonly marker: MarkerDraft } | { readonly kind: "stop"; readonly memory: Memory } {
  if (list.tool !== undefined && !toolReachable(list.tool, facts.tools)) return { kind: "stop", memory: timerStop(memory, { kind: "out-of-reach", tool: list.tool, open: list.open }, list.open) };
  const limit = limitReached(memory, facts.limits, facts.spend, list.open);
  if (limit) return { kind: "stop", memory: timerStop(memory, limit, list.open) };
  const next = timerRound(memory, (round) => ({ kind: "continuing", open: list.open, round, maxRounds: facts.limits.maxRounds }));
  return { kind: "continue", memory: next, marker: markerFor(next, list, facts.limits, false) };
}

/**
 * The memory of one more continuation a timer sends: a round spent, the run has work, the stops announced
 * since the last continuation are forgotten, and `last` is what `said` makes of the new round.
 */
export function timerRound(memory: Memory, said: (round: number) => Memory["last"]): Memory {
  const round = memory.round + 1;
  return { ...memory, round, hadWork: true, announced: [], pending: undefined, last: said(round) };
}

export function markerFor(memory: Memory, list: Extract<ListState, { kind: "list" }>, limits: Limits, hint: boolean): MarkerDraft {
  return { ...markerBase(memory, { open: list.open, total: list.total }, limits, hint), tool: list.tool, source: list.source };
}

/** The fields every marker's details carry (SPEC §4.11, §4.14): the round, the counts, and the counters a reload rebuilds from. */
export type MarkerBase = Pick<MarkerDetails, "v" | "round" | "anchor" | "open" | "total" | "cap" | "hint" | "idle" | "stale" | "stuck" | "fp" | "repeats">;

/** A marker's base fields for the memory it continues with and the list's counts. */
export function markerBase(memory: Memory, counts: { readonly open: number; readonly total: number }, limits: Pick<Limits, "maxRounds">, hint = false): MarkerBase {
  return {
    v: 1,
    round: memory.round,
    anchor: memory.anchor,
    open: counts.open,
    total: counts.total,
    cap: limits.maxRounds,
    hint,
    idle: memory.settleRun,
    stale: memory.staleSettles,
    stuck: memory.stuck,
    fp: memory.fp ?? null,
    repeats: memory.repeats,
  };
}

/** Whether the list belongs to an earlier message and this one has not taken it up (SPEC §4.15). */
export function holdsEarlier(mode: EarlierMode, facts: Pick<EarlierFacts, "open" | "carried" | "adopted">): boolean {
  return mode === "ask" && facts.open && !facts.carried && !facts.adopted;
}

/** The earlier-message facts in force: the branch's, plus what this process saw (a consent, how the message arrived). */
export function earlierFacts(memory: Memory, branch: BranchFacts): EarlierFacts {
  const facts = branch.earlier ?? NO_EARLIER;
  return { ...facts, carried: facts.carried || memory.carried, adopted: facts.adopted || memory.adopted };
}

/** Keys of the stops a wait announces; lifting the wait makes the next wait a new stop. */
export const WAIT_KEYS: readonly string[] = ["waiting", "question"];

/**
 * The minutes since the person's message: from the message to now — the figure the time limit meets at
 * the next settle — not to the newest reply. `now` is the host's clock, read in the wiring.
 */
export function minutesSince(anchorTime: number | undefined, now: number): number | undefined {
  return anchorTime === undefined ? undefined : Math.max(0, now - anchorTime) / 60_000;
}
