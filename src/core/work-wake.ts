/**
 * The continuations about work in flight (SPEC §4.17), as rules: the **wake** (the last work ended, no
 * run started, tasks still open) and the **check-in** (work still running that has not reported). Each
 * is one continuation that counts as a round, and every limit applies; the person's pause or wait, the
 * kill switch and a list that is not this message's (§4.15) send nothing. Also the end of a headless
 * hold at the run's time limit. Pure: the host arms the timers, probes `workflow:mutex:v1`, reads the
 * clock and applies what these return.
 */
import type { BranchFacts, EarlierMode, Limits, ListState, MarkerDraft, Memory, ToolFacts } from "./types.ts";
import { earlierFacts, holdsEarlier, limitReached, timerContinuation, timerStop } from "./stops.ts";

/** What a wake or a check-in reads besides the memory. */
export interface WorkNudgeFacts {
  readonly list: ListState;
  readonly limits: Limits;
  /** Spend since the anchor; `minutes` from the anchor to now (the clock is the host's). */
  readonly spend: { readonly tokens: number; readonly cost: number; readonly minutes: number | undefined };
  readonly tools: ToolFacts;
  readonly killSwitch: boolean;
  readonly earlierTasks: EarlierMode;
  readonly branch: BranchFacts;
}

export type WorkNudgeWhy = "paused" | "waiting" | "kill-switch" | "nothing-open" | "earlier";

export type WorkNudge =
  /** Nothing to send: the person's pause or wait, the kill switch, no open task, or an earlier message's list. */
  | { readonly kind: "none"; readonly why: WorkNudgeWhy }
  /** A stop instead (a limit reached meanwhile, the tool out of reach): `memory.pending` holds it. */
  | { readonly kind: "stop"; readonly memory: Memory }
  /** One continuation: send `marker` and keep `memory`. */
  | { readonly kind: "continue"; readonly memory: Memory; readonly marker: MarkerDraft };

/** A wake (`"wake"`) or a check-in (`"check-in"`) on the memory of the current anchor. */
export function workNudge(memory: Memory, work: "wake" | "check-in", facts: WorkNudgeFacts): WorkNudge {
  if (facts.killSwitch) return { kind: "none", why: "kill-switch" };
  if (memory.paused) return { kind: "none", why: "paused" };
  if (memory.waiting !== undefined) return { kind: "none", why: "waiting" };
  const { list } = facts;
  if (list.kind !== "list" || list.open === 0) return { kind: "none", why: "nothing-open" };
  if (holdsEarlier(facts.earlierTasks, earlierFacts(memory, facts.branch))) return { kind: "none", why: "earlier" };
  const next = timerContinuation(memory, list, facts);
  return next.kind === "continue" ? { ...next, marker: { ...next.marker, work } } : next;
}

/**
 * A headless hold on work in flight reached the run's time limit (`maxMinutes`): the time-limit stop,
 * as the next settle would have decided it, or undefined when no limit is reached (nothing to stop).
 */
export function workHoldLimit(memory: Memory, limits: Limits, spend: WorkNudgeFacts["spend"], list: ListState): Memory | undefined {
  if (list.kind !== "list" || list.open === 0) return undefined;
  const limit = limitReached(memory, limits, spend, list.open);
  if (!limit) return undefined;
  return timerStop(memory, limit, list.open);
}

/**
 * When a headless hold on work in flight gives up for the run's time limit (ms), or null without one:
 * `maxMinutes` after the anchor. The hold also ends when work ends or a check-in is due.
 */
export function holdDeadline(anchorTime: number | undefined, maxMinutes: number | null): number | null {
  const start = anchorTime ?? Number.NaN;
  if (maxMinutes === null || !Number.isFinite(start)) return null;
  return start + maxMinutes * 60_000;
}
