/**
 * The hand-off when a limit ends the run (SPEC §4.24), as rules. With config `handOff`, a stop for a
 * limit the person set (`maxRounds`, `maxTokens`, `maxCost`, `maxMinutes`, `work-timeout`, a
 * verification's `maxRuns` or a limit it met) with nothing queued becomes one last continuation — its
 * marker says `handOff: true` and keeps the round at the limit — and the stop is held in the memory: it
 * is the run's end at the next settle, whatever that reply does (`heldStop`), and is recorded and
 * announced then, once, as the limit stop it was. Pure.
 */
import type { Limits, ListState, MarkerDraft, Memory, PendingStop, Reason } from "./types.ts";
import { markerBase } from "./stops.ts";

/** Whether a stop is for a limit the person set (a brake such as `maxIdleReplies` is not: it needs the person). */
export function limitTheyHandOff(reason: Reason): boolean {
  switch (reason.kind) {
    case "limit":
    case "work-timeout":
      return true;
    case "verify-failed":
      return reason.why === "runs" || reason.why === "limit";
    default:
      return false;
  }
}

/** What decides a hand-off besides the memory: the config, the list, and whether a human message is queued. */
export interface HandOffFacts {
  readonly handOff: boolean;
  readonly list: ListState;
  readonly limits: Limits;
  readonly queued: boolean;
}

/**
 * The hand-off continuation for the stop the memory holds pending, or undefined: config off, another
 * stop, a human message queued, a hand-off already sent under this run, or no task open (a failed
 * verification's list is clear and still hands off: its check is what is left).
 */
export function handOff(memory: Memory, facts: HandOffFacts): { readonly memory: Memory; readonly marker: MarkerDraft } | undefined {
  const held = memory.pending;
  if (!facts.handOff || !held || facts.queued || memory.handOff !== undefined || memory.paused || memory.waiting !== undefined) return undefined;
  if (!limitTheyHandOff(held.reason)) return undefined;
  const { list } = facts;
  const verifying = held.reason.kind === "verify-failed";
  if (!verifying && (list.kind !== "list" || list.open === 0)) return undefined;
  const next: Memory = { ...memory, pending: undefined, handOff: { held }, hadWork: true };
  const marker: MarkerDraft = {
    // Not a round: the marker and the stop record keep the round at the limit.
    ...markerBase(memory, list.kind === "list" ? list : { open: 0, total: 0 }, facts.limits),
    handOff: true,
    tool: list.kind === "list" ? list.tool : undefined,
    source: list.kind === "list" ? list.source : undefined,
  };
  return { memory: next, marker };
}

/**
 * The stop a turn under a hand-off ends the run with: the held one — or, rebuilt after a reload, the
 * limit the counts reach now (nothing when none: the run ends without a record). No continuation follows.
 */
export function heldStop(memory: Memory, reached: Reason | undefined, open: number): PendingStop | undefined {
  const state = memory.handOff;
  if (state === undefined) return undefined;
  if (state.held) return state.held;
  return reached?.kind === "limit" ? { reason: reached, open, level: "warning" } : undefined;
}
