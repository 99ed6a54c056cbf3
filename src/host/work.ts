/**
 * Waiting on work in flight (SPEC §4.17), wired:
 * - the tracker (`work-tracker.ts`) hears every source's channel on `pi.events` from the extension's start;
 *   this file keeps it to this session's work and asks the sources that can answer for their live work at
 *   `session_start` (after `/reload`);
 * - at a settle it hands `decide()` the work in flight and whether the check-ins ran out, and after the
 *   decision begins, keeps or ends the wait's check-in schedule;
 * - in the TUI and RPC it arms two timers, `unref()`'d and cleared at `session_shutdown`: the **wake**
 *   (5 s after the last work ended, when no run started) and the next **check-in**; each probes
 *   `workflow:mutex:v1` and sends one continuation (`core/work-wake.ts` decides it);
 * - in print and JSON mode it holds `agent_settled` while the loop waits on work, until work ends, a
 *   check-in is due or the run's `maxMinutes` is reached, so `pi -p` does not exit with the work half done.
 */
import { killSwitch } from "../io/paths.ts";
import { NOTHING } from "../loop.ts";
import type { Config, Memory, WorkFacts } from "../core/types.ts";
import type { ContextLike } from "../core/pi-shapes.ts";
import { isRecord } from "../core/record.ts";
import { headless } from "../core/reach-plan.ts";
import {
  beginWaiting, checkInSent, checkInVerdict, countAgain, inFlight, listWork, nextCheckInAt, NO_WORK, reconcileSource,
  WAKE_AFTER_MS, wakeVerdict,
} from "../core/work.ts";
import type { WorkState } from "../core/work.ts";
import { holdDeadline, workHoldLimit, workNudge } from "../core/work-wake.ts";
import { workStatusLines } from "../core/text.ts";
import { WORK_SNAPSHOTS, WORK_SOURCES, workSourceLabel } from "../work/index.ts";
import { minutesSince } from "../core/stops.ts";
import { markerMessage, yieldsToWorkflow } from "./runtime.ts";
import { endRun } from "./run-end.ts";
import type { HoldWake, Schedule, WorkTracker } from "./work-tracker.ts";
import type { Facts, Runtime } from "./runtime.ts";

// ---- facts ---------------------------------------------------------------------------------------

function stringOf(read: () => unknown): string | undefined {
  try {
    const value = read();
    return typeof value === "string" && value !== "" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the context and the session's names; work heard for another session is dropped (`/new` in one instance). */
function remember(tracker: WorkTracker, ctx: ContextLike): void {
  tracker.ctx = ctx;
  const id = stringOf(() => ctx.sessionManager.getSessionId?.());
  const file = stringOf(() => ctx.sessionManager.getSessionFile?.());
  tracker.here = [id, file].filter((name): name is string => name !== undefined);
  const key = id ?? file;
  if (key === undefined || key === tracker.sessionKey) return;
  if (tracker.sessionKey !== undefined) forget(tracker);
  tracker.sessionKey = key;
}

/** A new session in this instance: its work is not this session's. */
function forget(tracker: WorkTracker): void {
  clearTimers(tracker);
  tracker.state = NO_WORK;
  tracker.schedule = undefined;
  tracker.lastRunAt = null;
}

function clearTimers(tracker: WorkTracker): void {
  if (tracker.wakeTimer !== undefined) clearTimeout(tracker.wakeTimer);
  if (tracker.checkInTimer !== undefined) clearTimeout(tracker.checkInTimer);
  tracker.wakeTimer = undefined;
  tracker.checkInTimer = undefined;
}

function signatureOf(facts: Facts): string | undefined {
  return facts.list.kind === "list" ? facts.list.signature : undefined;
}

/** The schedule of the wait under `anchor`, its count started again when work ended or the list changed. */
function currentSchedule(tracker: WorkTracker, anchor: string, signature: string | undefined, now: number): Schedule | undefined {
  const schedule = tracker.schedule;
  if (schedule === undefined || schedule.anchor !== anchor) return undefined;
  if (tracker.state.ends > schedule.seenEnds || signature !== schedule.signature) {
    schedule.checkIns = countAgain(schedule.checkIns, now);
    schedule.seenEnds = tracker.state.ends;
    schedule.signature = signature;
  }
  return schedule;
}

/** What `decide()` is told at a settle: the work in flight, and whether the check-ins ran out. */
export function workFactsAt(runtime: Runtime, ctx: ContextLike, facts: Facts): WorkFacts | undefined {
  const tracker = runtime.work;
  remember(tracker, ctx);
  const count = inFlight(tracker.state);
  if (count === 0) return undefined;
  const now = Date.now();
  const schedule = currentSchedule(tracker, facts.memory.anchor, signatureOf(facts), now);
  const verdict = schedule && checkInVerdict(schedule.checkIns, facts.config.checkInMinutes, now);
  return verdict?.kind === "work-timeout" ? { inFlight: count, timedOut: verdict.minutes } : { inFlight: count };
}

/** The loop waits on work after this memory's settle (no stop pending). */
function waitingOnWork(memory: Memory | undefined): boolean {
  return memory !== undefined && memory.last.kind === "waiting-work" && memory.pending === undefined;
}

/** TUI and RPC: a timer can continue the run (print and JSON mode exit after the run). */
function timerMode(ctx: ContextLike): boolean {
  return ctx.mode === "tui" || ctx.mode === "rpc";
}

/** After a settle's decision: the wait begins or goes on (its next check-in armed), or it is over. */
export function workDecided(runtime: Runtime, ctx: ContextLike, facts: Facts, memory: Memory): void {
  const tracker = runtime.work;
  if (!waitingOnWork(memory)) {
    tracker.schedule = undefined;
    if (tracker.checkInTimer !== undefined) clearTimeout(tracker.checkInTimer);
    tracker.checkInTimer = undefined;
    return;
  }
  const now = Date.now();
  if (tracker.schedule?.anchor !== memory.anchor) {
    tracker.schedule = { anchor: memory.anchor, checkIns: beginWaiting(now), seenEnds: tracker.state.ends, signature: signatureOf(facts) };
  }
  armCheckIn(runtime, ctx, facts.config);
}

// ---- timers (TUI and RPC) ------------------------------------------------------------------------

/** The longest a timer is set for in one go (Node's limit is 2^31-1 ms); a later time is checked again then. */
const MAX_TIMER_MS = 2_000_000_000;

function later(delayMs: number, run: () => void): ReturnType<typeof setTimeout> {
  const timer = setTimeout(run, Math.min(Math.max(0, delayMs), MAX_TIMER_MS));
  // A timer never keeps pi running: it only continues a pi that is still there.
  timer.unref();
  return timer;
}

function armCheckIn(runtime: Runtime, ctx: ContextLike, config: Config): void {
  const tracker = runtime.work;
  if (tracker.checkInTimer !== undefined) clearTimeout(tracker.checkInTimer);
  tracker.checkInTimer = undefined;
  const schedule = tracker.schedule;
  if (!timerMode(ctx) || schedule === undefined) return;
  const due = nextCheckInAt(schedule.checkIns, config.checkInMinutes);
  if (due === null) return;
  tracker.checkInTimer = later(due - Date.now(), () => {
    tracker.checkInTimer = undefined;
    checkIn(runtime);
  });
}

function armWake(runtime: Runtime, at: number): void {
  const tracker = runtime.work;
  if (tracker.wakeTimer !== undefined) clearTimeout(tracker.wakeTimer);
  tracker.wakeTimer = later(at - Date.now(), () => {
    tracker.wakeTimer = undefined;
    wake(runtime);
  });
}

function idleOf(ctx: ContextLike): boolean {
  return typeof ctx.isIdle === "function" ? ctx.isIdle() : true;
}

/** The context a timer may act through: the session's, unless the loop is off there. */
function liveContext(runtime: Runtime): ContextLike | undefined {
  const ctx = runtime.work.ctx;
  if (ctx === undefined || runtime.conduct(ctx) === "off" || killSwitch(ctx.cwd)) return undefined;
  return ctx;
}

/** The last work ended: 5 s later, with no run since, tasks open and the agent idle, one wake continuation. */
function wake(runtime: Runtime): void {
  const ctx = liveContext(runtime);
  if (ctx === undefined) return;
  try {
    const tracker = runtime.work;
    const session = runtime.sessionOf(ctx);
    const { state, lastRunAt } = tracker;
    if (!waitingOnWork(session.memory)) return;
    const facts = runtime.gather(ctx);
    const verdict = wakeVerdict({
      waiting: waitingOnWork(session.memory),
      inFlight: inFlight(state),
      lastEndAt: state.lastEndAt,
      runStarted: lastRunAt !== null && state.lastEndAt !== null && lastRunAt >= state.lastEndAt,
      open: facts.list.kind === "list" ? facts.list.open : 0,
      idle: idleOf(ctx),
      now: Date.now(),
    });
    if (verdict.kind === "later") return armWake(runtime, verdict.at);
    if (verdict.kind === "wake") continueFor(runtime, ctx, "wake");
  } catch (error) {
    runtime.failed(ctx, "the wake after background work", error);
  }
}

/** A check-in is due: with the work still in flight, the wait not changed and the agent idle, one continuation. */
function checkIn(runtime: Runtime): void {
  const ctx = liveContext(runtime);
  if (ctx === undefined) return;
  try {
    const tracker = runtime.work;
    const session = runtime.sessionOf(ctx);
    if (!waitingOnWork(session.memory) || inFlight(tracker.state) === 0 || !idleOf(ctx)) return;
    const facts = runtime.gather(ctx);
    const now = Date.now();
    const schedule = currentSchedule(tracker, facts.memory.anchor, signatureOf(facts), now);
    if (schedule === undefined) return;
    const verdict = checkInVerdict(schedule.checkIns, facts.config.checkInMinutes, now);
    if (verdict.kind === "wait") return armCheckIn(runtime, ctx, facts.config);
    if (verdict.kind !== "check-in") return;
    if (continueFor(runtime, ctx, "check-in")) schedule.checkIns = checkInSent(schedule.checkIns, now);
  } catch (error) {
    runtime.failed(ctx, "the check-in on background work", error);
  }
}

/**
 * One continuation about the work (a wake or a check-in), unless another workflow drives the session,
 * the person paused or waits, or a limit was reached (then that stop, recorded and announced now).
 * Returns whether a marker was sent.
 */
function continueFor(runtime: Runtime, ctx: ContextLike, work: "wake" | "check-in"): boolean {
  const session = runtime.sessionOf(ctx);
  runtime.readControls(ctx, session);
  const facts = runtime.gather(ctx);
  if (yieldsToWorkflow(runtime, ctx, facts)) return false;
  const spend = { ...facts.spend, minutes: minutesSince(facts.snapshot.anchorTime, Date.now()) };
  const result = workNudge(facts.memory, work, {
    list: facts.list,
    limits: facts.config,
    spend,
    tools: facts.tools,
    killSwitch: facts.killSwitch !== undefined,
    earlierTasks: facts.config.earlierTasks,
    branch: facts.branch,
  });
  if (result.kind === "none") return false;
  session.memory = result.memory;
  runtime.work.schedule = result.kind === "continue" ? runtime.work.schedule : undefined;
  if (result.kind === "stop") {
    // In a headless hold the run's own agent_settled records it; a timer records it now.
    if (runtime.work.hold === undefined && timerMode(ctx)) void endRun(runtime, ctx, session, facts.config, "timer").reached;
    return false;
  }
  runtime.refreshFooter(ctx, facts, result.memory);
  runtime.pi.sendMessage(markerMessage(result.marker, facts.config.transcript), { triggerTurn: true });
  runtime.workflow.hold(ctx);
  return true;
}

// ---- the headless hold ---------------------------------------------------------------------------

/** Print and JSON mode (or a host without a mode and without a UI): pi exits once the run settles. */
function holdMode(ctx: ContextLike): boolean {
  if (ctx.mode !== undefined) return headless(ctx.mode);
  return ctx.hasUI === false;
}

/** How often a hold with no deadline looks again (it also keeps the process alive while it waits). */
const HOLD_TICK_MS = 60_000;

/** Whether a source sends a result message that starts a run by itself. */
function reports(source: string): boolean {
  return WORK_SOURCES.some((known) => known.id === source && known.resultTypes.length > 0);
}

/**
 * `agent_settled` in print and JSON mode while the loop waits on work: hold the run open (SPEC §4.17)
 * until work ends — then, 5 s after it, let the source's result message run (a `triggerTurn` message
 * sent meanwhile runs as soon as the handlers return), or wake the agent when the last work ended with
 * no message to come — until a check-in is due (one continuation), or until the run's `maxMinutes`
 * (the time-limit stop, recorded by the caller). Never in the TUI or RPC. Never throws.
 */
export async function holdForWork(runtime: Runtime, ctx: ContextLike): Promise<void> {
  const tracker = runtime.work;
  const session = runtime.sessionOf(ctx);
  try {
    remember(tracker, ctx);
    if (!holdMode(ctx) || runtime.conduct(ctx) === "off" || !waitingOnWork(session.memory)) return;
    const startEnds = tracker.state.ends;
    const ended = new Set<string>();
    const listener = (before: WorkState): void => {
      const now = tracker.state.items;
      for (const item of before.items) if (!now.some((kept) => kept.source === item.source && kept.id === item.id)) ended.add(item.source);
    };
    tracker.listeners.push(listener);
    try {
      for (;;) {
        if (killSwitch(ctx.cwd)) return;
        const facts = runtime.gather(ctx);
        const { config } = facts;
        const now = Date.now();
        if (tracker.state.ends > startEnds) {
          // Work ended: give its result message time to be sent, then let it run, or wake.
          const lastEnd = tracker.state.lastEndAt ?? now;
          if (now < lastEnd + WAKE_AFTER_MS) {
            if ((await waitFor(tracker, lastEnd + WAKE_AFTER_MS - now, false)) === "shutdown") return;
            continue;
          }
          if ([...ended].some(reports)) return;
          if (inFlight(tracker.state) === 0) {
            continueFor(runtime, ctx, "wake");
            return;
          }
        }
        const schedule = currentSchedule(tracker, facts.memory.anchor, signatureOf(facts), now);
        const verdict = schedule && checkInVerdict(schedule.checkIns, config.checkInMinutes, now);
        if (schedule && verdict?.kind === "check-in") {
          if (continueFor(runtime, ctx, "check-in")) schedule.checkIns = checkInSent(schedule.checkIns, now);
          return;
        }
        const deadline = holdDeadline(facts.snapshot.anchorTime, config.maxMinutes);
        if (deadline !== null && now >= deadline) {
          const spend = { ...facts.spend, minutes: minutesSince(facts.snapshot.anchorTime, now) };
          const stopped = workHoldLimit(facts.memory, config, spend, facts.list);
          if (stopped) session.memory = stopped;
          return;
        }
        if (inFlight(tracker.state) === 0) return;
        const due = verdict?.kind === "wait" ? verdict.dueAt : null;
        const until = Math.min(due ?? Infinity, deadline ?? Infinity, now + HOLD_TICK_MS);
        if ((await waitFor(tracker, until - now, true)) === "shutdown") return;
      }
    } finally {
      tracker.listeners.splice(tracker.listeners.indexOf(listener), 1);
    }
  } catch (error) {
    runtime.failed(ctx, "waiting on background work", error);
  }
}

/** Waits `ms` (a timer that keeps the process alive: the hold is why pi is still running), or less when work ends (`onEnd`) or the session ends. */
function waitFor(tracker: WorkTracker, ms: number, onEnd: boolean): Promise<HoldWake> {
  return new Promise((resolve) => {
    const ends = tracker.state.ends;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (why: HoldWake): void => {
      if (timer !== undefined) clearTimeout(timer);
      tracker.hold = undefined;
      tracker.listeners.splice(tracker.listeners.indexOf(listener), 1);
      resolve(why);
    };
    const listener = (): void => {
      if (onEnd && tracker.state.ends > ends) done("ended");
    };
    tracker.listeners.push(listener);
    tracker.hold = done;
    timer = setTimeout(() => done("timer"), Math.min(Math.max(0, ms), MAX_TIMER_MS));
  });
}

// ---- registration --------------------------------------------------------------------------------

/** `/todoloop`'s lines about the work in flight (label, source, minutes). */
export function workStatus(runtime: Runtime): string[] {
  return workStatusLines(listWork(runtime.work.state, Date.now()).map((line) => ({ ...line, sourceLabel: workSourceLabel(line.source) })));
}

/** Asks every source that can answer for its live work, and makes the tracker agree (after `/reload`). */
function askSources(runtime: Runtime): void {
  const tracker = runtime.work;
  const bus = runtime.pi.events;
  if (!bus) return;
  for (const { source, snapshot } of WORK_SNAPSHOTS) {
    let answer: unknown;
    let answered = false;
    try {
      bus.emit(snapshot.channel, {
        reply(list: unknown) {
          answer = list;
          answered = true;
        },
      });
    } catch {
      continue;
    }
    const live = answered ? snapshot.read(answer) : undefined;
    if (live === undefined) continue;
    const before = tracker.state;
    tracker.state = reconcileSource(before, source, live, Date.now(), tracker.here);
    if (tracker.state !== before) for (const listener of tracker.listeners) listener(before);
  }
}

/** The footer follows the count of work while the loop waits on it. */
function followCount(runtime: Runtime): void {
  const ctx = runtime.work.ctx;
  if (ctx === undefined || !ctx.hasUI) return;
  const session = runtime.sessionOf(ctx);
  const memory = session.memory;
  if (!waitingOnWork(memory) || memory === undefined || memory.last.kind !== "waiting-work") return;
  const jobs = inFlight(runtime.work.state);
  if (memory.last.jobs === jobs) return;
  runtime.setMemory(ctx, runtime.gather(ctx), { ...memory, last: { ...memory.last, jobs } });
}

export function registerWork(runtime: Runtime): void {
  const { pi } = runtime;
  const tracker = runtime.work;
  let footerDue = false;

  tracker.listeners.push((before) => {
    const after = tracker.state;
    // The last work ended: a wake in 5 s unless a run starts first (TUI and RPC; a headless hold handles its own).
    if (after.ends > before.ends && inFlight(after) === 0 && after.lastEndAt !== null && tracker.ctx !== undefined && timerMode(tracker.ctx)) {
      armWake(runtime, after.lastEndAt + WAKE_AFTER_MS);
    }
    if (footerDue) return;
    // Many events in one tick (a burst of starts and ends) refresh the footer once.
    footerDue = true;
    queueMicrotask(() => {
      footerDue = false;
      try {
        followCount(runtime);
      } catch {
        // The footer is a courtesy.
      }
    });
  });

  pi.on("session_start", async (_event, ctx) => {
    try {
      remember(tracker, ctx);
      askSources(runtime);
    } catch {
      // Work unknown after a reload: nothing to wait on.
    }
  });

  // A message starting while the agent is busy means a run is going (a result message, a person, a marker).
  pi.on("message_start", async (event, ctx) => {
    try {
      remember(tracker, ctx);
      if (!isRecord(event) || !isRecord(event.message) || idleOf(ctx)) return;
      tracker.lastRunAt = Date.now();
      // The wait is over: a run is going (the work's report, the person, a continuation), and the footer says so.
      const session = runtime.sessionOf(ctx);
      if (!waitingOnWork(session.memory) || session.memory === undefined) return;
      session.memory = { ...session.memory, last: NOTHING };
      if (ctx.hasUI) runtime.refreshFooter(ctx, runtime.gather(ctx), session.memory);
    } catch {
      // Nothing learned.
    }
  });

  // `/new`, a switch, a reload, quitting: the timers and a hold belonged to this session and this instance.
  pi.on("session_shutdown", async () => {
    clearTimers(tracker);
    tracker.schedule = undefined;
    // Nothing acts through this session's context any more (a later end arms no wake).
    tracker.ctx = undefined;
    tracker.hold?.("shutdown");
  });
}
