/**
 * What the loop's continuations cost and changed (SPEC §7.2), as rules. The branch reader folds each
 * entry of a run into a `RunTrack` — a marker opens a continuation, an assistant message adds the
 * tokens and cost pi recorded on it, the next settle closes it with whether it changed something
 * (§4.10's progress) — and `runReport()` turns the track into the numbers a stop record and the
 * `todo-loop:stop` event carry. Nothing is estimated: only `usage` pi wrote on the messages. A run is
 * what follows the person's message, or the previous recorded stop under it, until its stop. Pure;
 * never throws on any input.
 */
import { isRecord } from "./record.ts";
import type { UnknownRecord } from "./record.ts";

export type ContinuationKind = "nudge" | "wake" | "checkIn" | "resume" | "continue" | "handOff";
export const CONTINUATION_KINDS: readonly ContinuationKind[] = ["nudge", "wake", "checkIn", "resume", "continue", "handOff"];

/** One continuation of a run: its kind, what pi recorded on the messages from its marker to the next settle, and whether it changed something. */
export interface ContinuationSpend {
  readonly kind: ContinuationKind;
  readonly round: number;
  readonly tokens: number;
  readonly cost: number;
  readonly changed: boolean;
}

/** The continuation being folded, from its marker until the next settle. */
interface OpenContinuation {
  readonly kind: ContinuationKind;
  readonly round: number;
  readonly tokens: number;
  readonly cost: number;
  /** The list's signature when the marker was written. */
  readonly listAt: string;
  /** A tool result since the marker was progress as §4.10 counts it. */
  readonly progress: boolean;
}

export interface RunTrack {
  /** Sums of the continuations closed so far (all of them, however long the run). */
  readonly closed: ReportTotals;
  /** The newest closed continuations, at most `MAX_LINES`, oldest first (for `/todoloop report`). */
  readonly lines: readonly ContinuationSpend[];
  readonly open: OpenContinuation | undefined;
  /** Verification continuations in the run (each is one run of the command that failed). */
  readonly verifyRuns: number;
  /** The judge's calls kept on the run's markers (SPEC §4.22: each marker carries the call of the settle it continued). */
  readonly judge: JudgeSpend;
}

/** What the judge's calls spent (SPEC §7.2 `report.judge`). */
export interface JudgeSpend {
  readonly calls: number;
  readonly tokens: number;
  readonly cost: number;
}

const NO_JUDGE: JudgeSpend = { calls: 0, tokens: 0, cost: 0 };

/** One more call's usage in the sums. */
function withCall(spend: JudgeSpend, use: { readonly tokens: number; readonly cost: number } | undefined): JudgeSpend {
  return use === undefined ? spend : { calls: spend.calls + 1, tokens: spend.tokens + use.tokens, cost: addCost(spend.cost, use.cost) };
}

export interface ReportTotals {
  readonly continuations: number;
  readonly byKind: Readonly<Record<ContinuationKind, number>>;
  readonly changed: number;
  readonly unchanged: number;
  readonly tokens: number;
  readonly cost: number;
}

/**
 * The report a stop record and the `todo-loop:stop` event carry (fields may be added, never renamed).
 * `judge` is added by the judge (§4.22) when it was called; `verify` when a verification ran.
 */
export interface RunReport extends ReportTotals {
  readonly minutes: number;
  readonly judge?: { readonly calls: number; readonly tokens: number; readonly cost: number };
  readonly verify?: { readonly runs: number };
}

/** Continuations `/todoloop report` lists one by one; the sums count every one. */
export const MAX_LINES = 50;

const NO_KINDS: Readonly<Record<ContinuationKind, number>> = { nudge: 0, wake: 0, checkIn: 0, resume: 0, continue: 0, handOff: 0 };
const NO_TOTALS: ReportTotals = { continuations: 0, byKind: NO_KINDS, changed: 0, unchanged: 0, tokens: 0, cost: 0 };
export const EMPTY_RUN: RunTrack = { closed: NO_TOTALS, lines: [], open: undefined, verifyRuns: 0, judge: NO_JUDGE };

function finite(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Tokens and dollars pi recorded on an assistant message (`usage`); 0 for what it did not record. */
export function usageOf(message: UnknownRecord): { readonly tokens: number; readonly cost: number } {
  const usage = message.usage;
  if (!isRecord(usage)) return { tokens: 0, cost: 0 };
  const total = finite(usage.totalTokens);
  const tokens = total || finite(usage.input) + finite(usage.output) + finite(usage.cacheRead) + finite(usage.cacheWrite);
  const cost = isRecord(usage.cost) ? finite(usage.cost.total) : 0;
  return { tokens, cost };
}

/** The kind of continuation a marker's `details` stand for; a verification continuation is a nudge. */
export function continuationKind(details: unknown): ContinuationKind {
  if (!isRecord(details)) return "nudge";
  if (details.handOff === true) return "handOff";
  if (details.work === "wake") return "wake";
  if (details.work === "check-in") return "checkIn";
  if (details.by === "resume") return "resume";
  if (details.by === "continue" || details.reread === true) return "continue";
  return "nudge";
}

/** Dollars summed without binary noise (0.1 + 0.2 is 0.3): pi records cost to well under a millionth of a cent. */
function addCost(a: number, b: number): number {
  return Math.round((a + b) * 1e9) / 1e9;
}

function addTo(totals: ReportTotals, spend: ContinuationSpend): ReportTotals {
  return {
    continuations: totals.continuations + 1,
    byKind: { ...totals.byKind, [spend.kind]: totals.byKind[spend.kind] + 1 },
    changed: totals.changed + (spend.changed ? 1 : 0),
    unchanged: totals.unchanged + (spend.changed ? 0 : 1),
    tokens: totals.tokens + spend.tokens,
    cost: addCost(totals.cost, spend.cost),
  };
}

function close(track: RunTrack, list: string): RunTrack {
  const { open } = track;
  if (!open) return track;
  const changed = open.progress || list !== open.listAt;
  const spend: ContinuationSpend = { kind: open.kind, round: open.round, tokens: open.tokens, cost: open.cost, changed };
  const lines = track.lines.length >= MAX_LINES ? [...track.lines.slice(1), spend] : [...track.lines, spend];
  return { ...track, closed: addTo(track.closed, spend), lines, open: undefined };
}

/**
 * A marker: a continuation starts. One still open (no settle came between, e.g. a run cut by an error)
 * closes first with what it did so far. `list` is the list's signature now; `judge`, the judge's call the
 * marker carries (read by the caller: the call's shape is `judge.ts`'s).
 */
export function trackMarker(track: RunTrack, details: unknown, list: string, judge?: { readonly tokens: number; readonly cost: number }): RunTrack {
  const kind = continuationKind(details);
  const round = isRecord(details) && typeof details.round === "number" && Number.isInteger(details.round) && details.round >= 0 ? details.round : track.closed.continuations + 1;
  const verify = isRecord(details) && isRecord(details.verify) ? 1 : 0;
  const before = close(track, list);
  return { ...before, open: { kind, round, tokens: 0, cost: 0, listAt: list, progress: false }, verifyRuns: before.verifyRuns + verify, judge: withCall(before.judge, judge) };
}

/** A tool result that was progress (§4.10: not a re-read, not a re-run, not a failed write): the open continuation changed something. */
export function trackProgress(track: RunTrack): RunTrack {
  const { open } = track;
  return !open || open.progress ? track : { ...track, open: { ...open, progress: true } };
}

/** An assistant message: what pi recorded on it is the open continuation's spend (the person's own turns are not the loop's). */
export function trackSpend(track: RunTrack, spent: { readonly tokens: number; readonly cost: number }): RunTrack {
  const { open } = track;
  if (!open || (spent.tokens === 0 && spent.cost === 0)) return track;
  return { ...track, open: { ...open, tokens: open.tokens + spent.tokens, cost: addCost(open.cost, spent.cost) } };
}

/** The settle that ends the open continuation's reply: `list` is the list's signature now. */
export function trackSettle(track: RunTrack, list: string): RunTrack {
  return close(track, list);
}

/** The run as it stands, its open continuation counted with what it did so far (`list`: the signature now). */
export function runSoFar(track: RunTrack, list: string): RunTrack {
  return close(track, list);
}

/** The run `/todoloop report` shows: the current one when it has a continuation, else the last one that ended under the message. */
export function shownRun(current: RunTrack, last: RunTrack | undefined): { readonly track: RunTrack; readonly ended: boolean } {
  return current.closed.continuations === 0 && last !== undefined ? { track: last, ended: true } : { track: current, ended: false };
}

/** What ends a run besides its continuations: the minutes since the person's message, and whether the stop ran a verification itself. */
export interface RunEnd {
  readonly minutes: number | undefined;
  /** The stop is a verification's result (passed, failed at `maxRuns`, or could not finish): one more run. */
  readonly verifyRan: boolean;
  /** The judge's call that the stop record carries (the settle that ended the run), if any. */
  readonly judge?: { readonly tokens: number; readonly cost: number };
}

/** Whether the stop itself is a verification's run: passed, failed, or started and cut (not one refused before it ran). */
export function stopRanVerify(reason: { readonly kind: string; readonly why?: unknown } | undefined): boolean {
  if (reason === undefined) return false;
  if (reason.kind === "verified" || reason.kind === "verify-failed") return true;
  return reason.kind === "verify-error" && (reason.why === "timeout" || reason.why === "killed" || reason.why === "aborted" || reason.why === "not-found" || reason.why === "not-executable");
}

/** The report of a finished run (its open continuation closed by `runSoFar` first). */
export function runReport(track: RunTrack, end: RunEnd): RunReport {
  const runs = track.verifyRuns + (end.verifyRan ? 1 : 0);
  const minutes = end.minutes !== undefined && Number.isFinite(end.minutes) && end.minutes > 0 ? Math.round(end.minutes * 10) / 10 : 0;
  const judge = withCall(track.judge ?? NO_JUDGE, end.judge);
  return { ...track.closed, minutes, ...(judge.calls > 0 ? { judge } : {}), ...(runs > 0 ? { verify: { runs } } : {}) };
}

/** Whether a report says anything was spent: a continuation, or tokens (a run of the person's turn alone spends nothing of the loop's). */
export function spentAnything(report: RunReport): boolean {
  return report.continuations > 0 || report.tokens > 0 || report.cost > 0;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function amount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A report read back from a stop record (session files can be edited): every number checked, or undefined. */
export function readReport(value: unknown): RunReport | undefined {
  if (!isRecord(value) || !isRecord(value.byKind)) return undefined;
  const continuations = count(value.continuations);
  const changed = count(value.changed);
  const unchanged = count(value.unchanged);
  const tokens = amount(value.tokens);
  const cost = amount(value.cost);
  const minutes = amount(value.minutes);
  if (continuations === undefined || changed === undefined || unchanged === undefined || tokens === undefined || cost === undefined || minutes === undefined) return undefined;
  const byKind: Record<ContinuationKind, number> = { ...NO_KINDS };
  for (const kind of CONTINUATION_KINDS) byKind[kind] = count(value.byKind[kind]) ?? 0;
  const runs = isRecord(value.verify) ? count(value.verify.runs) : undefined;
  const judge = isRecord(value.judge) ? { calls: count(value.judge.calls), tokens: amount(value.judge.tokens), cost: amount(value.judge.cost) } : undefined;
  return {
    continuations, byKind, changed, unchanged, tokens, cost, minutes,
    ...(judge && judge.calls !== undefined && judge.tokens !== undefined && judge.cost !== undefined ? { judge: { calls: judge.calls, tokens: judge.tokens, cost: judge.cost } } : {}),
    ...(runs !== undefined && runs > 0 ? { verify: { runs } } : {}),
  };
}

/** One earlier run of the session, from its stop record. */
export interface PastRun {
  readonly kind: string;
  readonly time: number | undefined;
  readonly report: RunReport;
}

/** The newest `max` stop records that carry a report, oldest first, from entries in append order. */
export function pastRuns(entries: readonly unknown[], stopType: string, max = 5): PastRun[] {
  const runs: PastRun[] = [];
  if (!Array.isArray(entries)) return runs;
  for (let index = entries.length - 1; index >= 0 && runs.length < max; index--) {
    const entry = entries[index];
    if (!isRecord(entry) || entry.type !== "custom" || entry.customType !== stopType || !isRecord(entry.data)) continue;
    const report = readReport(entry.data.report);
    if (!report) continue;
    const time = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
    runs.push({ kind: typeof entry.data.kind === "string" ? entry.data.kind : "stop", time: Number.isFinite(time) ? time : undefined, report });
  }
  return runs.reverse();
}
