/**
 * Work in flight's state for the process (SPEC §4.17): the tracker hears every source's channel on
 * `pi.events` from the extension's start (listeners are synchronous and never throw) and keeps this
 * session's work (`core/work.ts`, timestamps from the host's clock), the wait's check-in schedule, the
 * timers' handles and a headless hold's wake. `work.ts` acts on it: the facts at a settle, the timers, the hold.
 */
import type { ContextLike, PiLike } from "../core/pi-shapes.ts";
import { applyAllWork, NO_WORK } from "../core/work.ts";
import type { CheckIns, WorkState } from "../core/work.ts";
import { readWork, WORK_CHANNELS } from "../work/index.ts";

/** The check-in schedule of the current wait: under which message it began, and what it last saw. */
export interface Schedule {
  readonly anchor: string;
  checkIns: CheckIns;
  /** `WorkState.ends` when the count last started: more ends since means work ended. */
  seenEnds: number;
  /** The list's signature when the count last started: another one means the list changed. */
  signature: string | undefined;
}

/** Why a headless hold stopped waiting. */
export type HoldWake = "ended" | "timer" | "shutdown";

export interface WorkTracker {
  /** This session's work in flight. */
  state: WorkState;
  /** The names this session goes by (its id and its file), for payloads that name a session. */
  here: readonly string[];
  /** Which session the state belongs to (its id, else its file). */
  sessionKey: string | undefined;
  /** When a run was last seen going (a message starting while the agent was busy), ms. */
  lastRunAt: number | null;
  schedule: Schedule | undefined;
  /** The newest context pi handed a handler: the timers act through it. */
  ctx: ContextLike | undefined;
  wakeTimer: ReturnType<typeof setTimeout> | undefined;
  checkInTimer: ReturnType<typeof setTimeout> | undefined;
  /** A headless hold in progress: how to end its wait. */
  hold: ((why: HoldWake) => void) | undefined;
  /** Called after every change of `state`, with the state before it. */
  readonly listeners: ((before: WorkState) => void)[];
}

/** Applies one payload heard on `channel`. Never throws: the bus is other extensions' and must not break. */
function hear(tracker: WorkTracker, channel: string, payload: unknown): void {
  try {
    const events = readWork(channel, payload);
    if (events === undefined || events.length === 0) return;
    const before = tracker.state;
    const after = applyAllWork(before, events, Date.now(), tracker.here);
    if (after === before) return;
    tracker.state = after;
    for (const listener of tracker.listeners) listener(before);
  } catch {
    // Another extension's payload never breaks its emit, nor the loop.
  }
}

/** The tracker, listening on every source's channel now, while the extension loads. */
export function createWorkTracker(pi: PiLike): WorkTracker {
  const tracker: WorkTracker = {
    state: NO_WORK,
    here: [],
    sessionKey: undefined,
    lastRunAt: null,
    schedule: undefined,
    ctx: undefined,
    wakeTimer: undefined,
    checkInTimer: undefined,
    hold: undefined,
    listeners: [],
  };
  for (const channel of WORK_CHANNELS) {
    try {
      pi.events?.on?.(channel, (payload) => hear(tracker, channel, payload));
    } catch {
      // A host without a usable bus announces no work: the loop works as before.
    }
  }
  return tracker;
}
