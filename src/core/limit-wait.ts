/**
 * How long the loop waits out a usage or rate limit (SPEC §4.20): the time the error states, or a
 * backoff of 5, 10, 20, 40, 60, 60 … minutes, within `maxLimitWaitMinutes` of total wait under one
 * human message. Pure: the caller passes the clock's reading, the waits already scheduled and the
 * classification; the English is in text.ts.
 */
import { isFiniteNumber } from "./record.ts";

/** `maxLimitWaitMinutes`: its default, and the most it may be set to. `0` turns the rule off. */
export const DEFAULT_MAX_LIMIT_WAIT_MINUTES = 300;
export const MAX_LIMIT_WAIT_CEILING_MINUTES = 1440;

/** The backoff when the error states no time; every later wait is the last step's. */
export const LIMIT_BACKOFF_MINUTES: readonly number[] = [5, 10, 20, 40, 60];

/**
 * The shortest wait (while the cap leaves that much): a stated time already past, or `Try again in ~0
 * min`, still waits a minute, so each wait spends some of the cap and the waits come to an end.
 */
export const MIN_LIMIT_WAIT_MINUTES = 1;

const MINUTE_MS = 60_000;

/** What the plan reads of a classified limit (`LimitClass` of kind `limit`). */
export interface LimitFacts {
  /** The wait the error states, from the error's time. */
  readonly resumeInMs?: number;
  /** The moment it names (the error's time plus that wait), when the error's time was known. */
  readonly resetAtMs?: number;
  /** The text states a wait longer than the longest one read (7 days): `resumeInMs` is that longest. */
  readonly beyond?: true;
}

export interface LimitWaitInput {
  readonly limit: LimitFacts;
  /** Minutes of each wait already scheduled under this human message, oldest first (see `priorWaitMinutes`). */
  readonly prior: readonly number[];
  /** `maxLimitWaitMinutes` as configured (a wrong value counts as the default, a larger one as the ceiling). */
  readonly capMinutes: number;
  /** The clock's reading now, epoch ms. */
  readonly nowMs: number;
}

export type LimitWaitPlan =
  /** Wait, then continue the run once at `resumeAtMs`. `totalMinutes`: the prior waits and this one. */
  | {
      readonly kind: "wait";
      readonly resumeAtMs: number;
      readonly waitMinutes: number;
      readonly totalMinutes: number;
      /** The time came from the error text (else from the backoff). */
      readonly stated: boolean;
    }
  /**
   * No wait: `spent` — the waits under this message already took the whole cap (`stopped: still rate
   * limited after 300 minutes`); `too-far` — the error says the limit lasts longer than the cap leaves.
   */
  | {
      readonly kind: "exhausted";
      readonly why: "spent" | "too-far";
      readonly capMinutes: number;
      readonly waitedMinutes: number;
      /** For `too-far`: when the limit resets. */
      readonly resetAtMs?: number;
      /** For `too-far`: the stated reset is further away than any time the loop reads (more than 7 days). */
      readonly beyond?: true;
    }
  /** `maxLimitWaitMinutes: 0`: the rule is off, the run ends as an ordinary error stop. */
  | { readonly kind: "off" };

/** `maxLimitWaitMinutes` as the plan uses it: a wrong value → the default, above the ceiling → the ceiling. */
export function effectiveCap(capMinutes: number): number {
  if (!Number.isFinite(capMinutes) || capMinutes < 0) return DEFAULT_MAX_LIMIT_WAIT_MINUTES;
  return Math.min(capMinutes, MAX_LIMIT_WAIT_CEILING_MINUTES);
}

/** The backoff step for the wait with this index under a message (0 = the first). */
export function backoffMinutes(index: number): number {
  const at = Number.isInteger(index) ? Math.max(index, 0) : 0;
  // Past the end, the last step.
  return LIMIT_BACKOFF_MINUTES[Math.min(at, LIMIT_BACKOFF_MINUTES.length - 1)] ?? 60;
}

/** A prior wait as the plan counts it: a wrong number counts as the backoff step it would have been. */
function priorMinutes(value: number, index: number): number {
  return Number.isFinite(value) && value >= 0 ? value : backoffMinutes(index);
}

/** A hair of tolerance, so a cap spent by fractions (0.1 + 0.2 …) counts as spent. */
const EPSILON_MINUTES = 1e-6;

/**
 * The wait for a run that just ended on a limit. The stated time counts from the error, never more
 * than it says from now (a clock set back does not stretch it), never less than the minimum; a stated
 * time past what the cap leaves is not waited at all. A backoff step is shortened to what the cap
 * leaves, so the waits add up to the cap exactly before the loop gives up.
 */
export function planLimitWait(input: LimitWaitInput): LimitWaitPlan {
  const cap = effectiveCap(input.capMinutes);
  if (cap === 0) return { kind: "off" };
  const now = Number.isFinite(input.nowMs) ? input.nowMs : 0;
  const waited = input.prior.reduce((sum, value, index) => sum + priorMinutes(value, index), 0);
  const left = cap - waited;
  if (left <= EPSILON_MINUTES) return { kind: "exhausted", why: "spent", capMinutes: cap, waitedMinutes: waited };
  const floor = Math.min(MIN_LIMIT_WAIT_MINUTES, left);
  const statedMs = statedFromNow(input.limit, now);
  if (statedMs !== undefined) {
    const minutes = Math.max(statedMs / MINUTE_MS, floor);
    if (minutes > left + EPSILON_MINUTES) {
      const beyond = input.limit.beyond === true ? { beyond: true as const } : {};
      return { kind: "exhausted", why: "too-far", capMinutes: cap, waitedMinutes: waited, resetAtMs: now + statedMs, ...beyond };
    }
    return wait(now, minutes, waited, true);
  }
  return wait(now, Math.max(Math.min(backoffMinutes(input.prior.length), left), floor), waited, false);
}

function wait(now: number, minutes: number, waited: number, stated: boolean): LimitWaitPlan {
  return { kind: "wait", resumeAtMs: now + Math.round(minutes * MINUTE_MS), waitMinutes: minutes, totalMinutes: waited + minutes, stated };
}

/** The stated wait left from now, in ms (0 when its time has passed); undefined when none was stated. */
function statedFromNow(limit: LimitFacts, now: number): number | undefined {
  const stated = limit.resumeInMs;
  if (!isFiniteNumber(stated) || stated < 0) return undefined;
  const reset = limit.resetAtMs;
  if (!isFiniteNumber(reset)) return stated;
  return Math.min(Math.max(reset - now, 0), stated);
}

/**
 * The minutes an earlier `limit-wait` record scheduled: its `waitMinutes` when it carries one, else its
 * `resumeAt` less the entry's time. An old or damaged record (neither readable, or an impossible value)
 * counts as `undefined`: the plan then counts the backoff step it would have been.
 */
export function priorWaitMinutes(data: unknown, entryTimestamp: unknown): number | undefined {
  if (!isFields(data)) return undefined;
  const fields = data;
  const minutes = fields.waitMinutes;
  if (isFiniteNumber(minutes) && minutes >= 0 && minutes <= MAX_LIMIT_WAIT_CEILING_MINUTES) return minutes;
  // An unknown time makes the difference NaN, which the range check below refuses.
  const derived = ((parseTime(fields.resumeAt) ?? Number.NaN) - (parseTime(entryTimestamp) ?? Number.NaN)) / MINUTE_MS;
  return derived >= 0 && derived <= MAX_LIMIT_WAIT_CEILING_MINUTES ? derived : undefined;
}

function isFields(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An ISO time as pi and the records write it (or epoch ms); undefined for anything else. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== "string" || value.length > 64) return undefined;
  const parsed = Date.parse(value);
  // Date.parse gives NaN for a text it cannot read, which is not above 0.
  return parsed > 0 ? parsed : undefined;
}
