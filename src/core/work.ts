/**
 * Work in flight (SPEC §4.17), the pure part: which background jobs this session is waiting on, when the
 * loop checks in on work that does not report, when it gives up, and when it wakes an agent whose work
 * ended without a word. Plain data in, plain data out: the caller supplies every timestamp (milliseconds,
 * the caller's `Date.now()`), the adapters in `src/work/` turn other extensions' events into `WorkEvent`s.
 */
import { sanitize } from "./sanitize.ts";

export type WorkPhase = "start" | "end";

/** One start or end of background work, as an adapter in `src/work/` reads it from another extension. */
export interface WorkEvent {
  /** The adapter's id (`WorkSourceId`). Work is keyed by source and id together. */
  readonly source: string;
  readonly id: string;
  readonly phase: WorkPhase;
  /** The source's own name for the work (agent, description, process name, label), display-safe. */
  readonly label?: string;
  /** The session the payload names, when it names one (nicobailon's `sessionId`); absent: the hearer's. */
  readonly session?: string;
}

/** One piece of work in flight. */
export interface WorkItem {
  readonly source: string;
  readonly id: string;
  readonly label?: string;
  readonly session?: string;
  /** When its start was heard (the caller's clock, ms). */
  readonly startedAt: number;
}

/** What the loop knows of its session's work in flight. Never mutated: every change returns a new state. */
export interface WorkState {
  /** Oldest first, at most `MAX_TRACKED_WORK`, never two with the same source and id. */
  readonly items: readonly WorkItem[];
  /** How many tracked items have ended so far: a rise means some work ended (check-ins count again). */
  readonly ends: number;
  /** When the last tracked item ended (ms), or null when none has. */
  readonly lastEndAt: number | null;
  /**
   * Ends heard for work not tracked, each kept `EARLY_END_MS`: a start of the same source and id heard
   * within that time after its end is work that already finished, never work in flight. Oldest first, at
   * most `MAX_TRACKED_WORK`.
   */
  readonly early: readonly EarlyEnd[];
}

/** An end heard before its start. */
export interface EarlyEnd {
  readonly source: string;
  readonly id: string;
  /** When it was heard (ms). */
  readonly at: number;
}

export const NO_WORK: WorkState = { items: [], ends: 0, lastEndAt: null, early: [] };

/** How long an end heard before its start is remembered: a start up to this long after it is work already done. */
export const EARLY_END_MS = 10_000;

/** The most work tracked at once; past it the oldest is forgotten (memory stays bounded). */
export const MAX_TRACKED_WORK = 256;

/** Display cap of a label or id in `/todoloop`'s list. */
export const WORK_LABEL_MAX = 80;

/**
 * Whether work whose payload names `session` is this session's. `here` holds every name this session
 * goes by (its id and its session file: nicobailon's `sessionId` is the file when there is one, else
 * the id). A payload that names no session belongs to the session that heard it; so does every payload
 * while the session's own names are unknown (`here` empty).
 */
export function isHere(session: string | undefined, here: readonly string[]): boolean {
  return session === undefined || here.length === 0 || here.includes(session);
}

function indexOf(state: WorkState, source: string, id: string): number {
  return state.items.findIndex((item) => item.source === source && item.id === id);
}

/** The early ends still remembered at `at` (heard at most `EARLY_END_MS` before it, never after it). */
function earlyAt(early: readonly EarlyEnd[], at: number): readonly EarlyEnd[] {
  return early.some((end) => !(at - end.at <= EARLY_END_MS && end.at <= at)) ? early.filter((end) => at - end.at <= EARLY_END_MS && end.at <= at) : early;
}

/**
 * The state after one event heard at `at`. A start of work already tracked and any event of another
 * session change nothing (the same state object comes back). An end of work not tracked puts nothing in
 * flight and counts no end; it is remembered `EARLY_END_MS`, and a start of the same source and id in that
 * time is that work, already finished: nothing goes in flight (SPEC §4.17, an end heard before its
 * start). A start past `MAX_TRACKED_WORK` forgets the oldest item.
 */
export function applyWork(state: WorkState, event: WorkEvent, at: number, here: readonly string[]): WorkState {
  if (!isHere(event.session, here)) return state;
  const index = indexOf(state, event.source, event.id);
  const early = earlyAt(state.early, at);
  if (event.phase === "end") {
    if (index >= 0) return { items: state.items.filter((_, i) => i !== index), ends: state.ends + 1, lastEndAt: at, early };
    const kept = early.filter((end) => end.source !== event.source || end.id !== event.id);
    const bounded = kept.length >= MAX_TRACKED_WORK ? kept.slice(kept.length - MAX_TRACKED_WORK + 1) : kept;
    return { items: state.items, ends: state.ends, lastEndAt: state.lastEndAt, early: [...bounded, { source: event.source, id: event.id, at }] };
  }
  if (index >= 0) return state;
  const done = early.findIndex((end) => end.source === event.source && end.id === event.id);
  if (done >= 0) return { items: state.items, ends: state.ends, lastEndAt: state.lastEndAt, early: early.filter((_, i) => i !== done) };
  const item: WorkItem = {
    source: event.source,
    id: event.id,
    startedAt: at,
    ...(event.label !== undefined ? { label: event.label } : {}),
    ...(event.session !== undefined ? { session: event.session } : {}),
  };
  const kept = state.items.length >= MAX_TRACKED_WORK ? state.items.slice(state.items.length - MAX_TRACKED_WORK + 1) : state.items;
  return { items: [...kept, item], ends: state.ends, lastEndAt: state.lastEndAt, early };
}

/** Whether `event` is a start of work that already finished: an end of the same source and id was heard up to `EARLY_END_MS` before `at`. */
export function startsFinished(state: WorkState, event: WorkEvent, at: number, here: readonly string[]): boolean {
  if (event.phase !== "start" || !isHere(event.session, here) || indexOf(state, event.source, event.id) >= 0) return false;
  return earlyAt(state.early, at).some((end) => end.source === event.source && end.id === event.id);
}

/** `applyWork` for each event in order, all heard at `at`. */
export function applyAllWork(state: WorkState, events: readonly WorkEvent[], at: number, here: readonly string[]): WorkState {
  let next = state;
  for (const event of events) next = applyWork(next, event, at, here);
  return next;
}

/**
 * The state after a source's own list of its live work (pi-processes answers `processes:request:list`):
 * that source's tracked items missing from `live` have ended; `live` items not tracked start at `at`;
 * items still live keep their start time. `live` holds start events of that source (others are skipped).
 */
export function reconcileSource(state: WorkState, source: string, live: readonly WorkEvent[], at: number, here: readonly string[]): WorkState {
  const mine = live.filter((event) => event.source === source && event.phase === "start" && isHere(event.session, here));
  const liveIds = new Set(mine.map((event) => event.id));
  // The source says what runs now: an end heard earlier is not a reason to drop a live id.
  const early = state.early.filter((end) => end.source !== source || !liveIds.has(end.id));
  let next: WorkState = early.length === state.early.length ? state : { ...state, early };
  for (const item of state.items) {
    if (item.source === source && !liveIds.has(item.id)) next = applyWork(next, { source: item.source, id: item.id, phase: "end" }, at, here);
  }
  return applyAllWork(next, mine, at, here);
}

/** How many pieces of work are in flight. */
export function inFlight(state: WorkState): number {
  return state.items.length;
}

/** Whether some tracked work ended since the caller saw `seenEnds` (a `WorkState.ends`). */
export function workEndedSince(state: WorkState, seenEnds: number): boolean {
  return state.ends > seenEnds;
}

/** How work is shown: the source's own name for it, else its id; display-safe and capped. */
export function workLabel(item: Pick<WorkItem, "label" | "id">): string {
  const label = sanitize(item.label ?? "", WORK_LABEL_MAX);
  return label !== "" ? label : sanitize(item.id, WORK_LABEL_MAX);
}

/** One line of `/todoloop`'s list of work in flight. */
export interface WorkLine {
  readonly source: string;
  readonly id: string;
  readonly label: string;
  /** Minutes since its start was heard (a fraction, never negative; `duration()` says it). */
  readonly minutes: number;
}

/** The work in flight at `now`, oldest first, for `/todoloop`. */
export function listWork(state: WorkState, now: number): readonly WorkLine[] {
  return state.items.map((item) => ({
    source: item.source,
    id: item.id,
    label: workLabel(item),
    minutes: minutesOf(now - item.startedAt),
  }));
}

const MINUTE_MS = 60_000;

/** Milliseconds as minutes; a negative or non-number span is none. */
function minutesOf(ms: number): number {
  return Math.max(0, ms / MINUTE_MS || 0);
}

// ---------------------------------------------------------------------------------------------------
// Check-ins: work that never reports must not park the loop for ever.

export const DEFAULT_CHECK_IN_MINUTES = 30;
/** The ceiling of `checkInMinutes` (a day). */
export const MAX_CHECK_IN_MINUTES = 1440;
/** Check-ins sent while no work ends and the list does not change, before the `work-timeout` stop. */
export const MAX_CHECK_INS = 3;
/** The interval doubles after each check-in up to this multiple of `checkInMinutes`. */
export const MAX_CHECK_IN_BACKOFF = 4;

/** Where the check-in schedule stands while the loop waits on work. */
export interface CheckIns {
  /** When the loop began waiting (the settle that parked it, ms): the timeout's minutes count from here. */
  readonly began: number;
  /** When the count last started: `began`, or the last time work ended or the list changed. */
  readonly since: number;
  /** Check-ins sent since `since`. */
  readonly sent: number;
  /** When the last of them was sent (ms), or null when none has been since `since`. */
  readonly lastAt: number | null;
}

/** The schedule of a wait that begins at `now`. */
export function beginWaiting(now: number): CheckIns {
  return { began: now, since: now, sent: 0, lastAt: null };
}

/** Work ended or the list changed at `now`: the count starts again (the wait's start stays). */
export function countAgain(state: CheckIns, now: number): CheckIns {
  return { began: state.began, since: now, sent: 0, lastAt: null };
}

/** A check-in was sent at `now`. */
export function checkInSent(state: CheckIns, now: number): CheckIns {
  return { began: state.began, since: state.since, sent: state.sent + 1, lastAt: now };
}

/** Whether a `checkInMinutes` value turns check-ins on (0, a negative or a non-number turns them off). */
export function checkInsOn(checkInMinutes: number): boolean {
  return Number.isFinite(checkInMinutes) && checkInMinutes > 0;
}

/** Minutes from the previous check-in (or the count's start) to the next, after `sent` check-ins: 1×, 2×, 4×, 4×… */
export function checkInInterval(checkInMinutes: number, sent: number): number {
  const steps = Math.max(0, Math.floor(sent));
  return checkInMinutes * Math.min(2 ** steps, MAX_CHECK_IN_BACKOFF);
}

/** When the next check-in is due (ms), or null: check-ins off, or the last one allowed was sent. */
export function nextCheckInAt(state: CheckIns, checkInMinutes: number): number | null {
  if (!checkInsOn(checkInMinutes) || state.sent >= MAX_CHECK_INS) return null;
  return dueAtOf(state, checkInMinutes);
}

function dueAtOf(state: CheckIns, checkInMinutes: number): number {
  return (state.lastAt ?? state.since) + checkInInterval(checkInMinutes, state.sent) * MINUTE_MS;
}

export type CheckInVerdict =
  /** Nothing due; arm a timer for `dueAt` when it is not null. */
  | { readonly kind: "wait"; readonly dueAt: number | null }
  /** Send the `nth` check-in (1-based) now. */
  | { readonly kind: "check-in"; readonly nth: number }
  /** Stop with `work-timeout`: the third check-in went unanswered by any change. `minutes` (a fraction) since the wait began. */
  | { readonly kind: "work-timeout"; readonly minutes: number };

/**
 * What the check-in schedule says at `now` while work is still in flight (call `countAgain` first when
 * work ended or the list changed). `work-timeout` is meant for a settle: after the third check-in no
 * timer is due, so it is the first settle after it that stops.
 */
export function checkInVerdict(state: CheckIns, checkInMinutes: number, now: number): CheckInVerdict {
  if (!checkInsOn(checkInMinutes)) return { kind: "wait", dueAt: null };
  if (state.sent >= MAX_CHECK_INS) return { kind: "work-timeout", minutes: minutesOf(now - state.began) };
  const dueAt = dueAtOf(state, checkInMinutes);
  return now >= dueAt ? { kind: "check-in", nth: state.sent + 1 } : { kind: "wait", dueAt };
}

// ---------------------------------------------------------------------------------------------------
// The wake: the last work ended and nothing started a run.

/** How long after the last work ended the loop waits for the source's own message to start a run. */
export const WAKE_AFTER_MS = 5_000;

export interface WakeFacts {
  /** The loop's last settle left it waiting on work (not stopped, paused or waiting for the person). */
  readonly waiting: boolean;
  /** Work still in flight. */
  readonly inFlight: number;
  /** When the last work ended (`WorkState.lastEndAt`). */
  readonly lastEndAt: number | null;
  /** A run started after that end (the source's result message, the person, anything). */
  readonly runStarted: boolean;
  /** Open tasks on the list. */
  readonly open: number;
  /** The agent is idle (`ctx.isIdle()`). */
  readonly idle: boolean;
  readonly now: number;
}

export type WakeVerdict =
  | { readonly kind: "wake" }
  /** Ask again at `at` (ms): the 5 s have not passed. */
  | { readonly kind: "later"; readonly at: number }
  | { readonly kind: "no" };

/**
 * Whether to wake the agent with one continuation: the loop was waiting on work, the last of it ended,
 * no run has started since, 5 s have passed, tasks are still open and the agent is idle.
 */
export function wakeVerdict(facts: WakeFacts): WakeVerdict {
  if (!facts.waiting || facts.inFlight > 0 || facts.lastEndAt === null || facts.runStarted || facts.open <= 0) return { kind: "no" };
  const at = facts.lastEndAt + WAKE_AFTER_MS;
  if (facts.now < at) return { kind: "later", at };
  return facts.idle ? { kind: "wake" } : { kind: "no" };
}
