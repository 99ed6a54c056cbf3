/**
 * Waiting out a usage limit and picking up a run that died with pi (SPEC §4.20, §4.21), wired:
 * - wherever a run ends (`run-end.ts`: at `agent_settled`, a timer's stop, verification's), a run that
 *   ended on a limit error becomes a `limit-wait` stop (`limitAtSettle`; not when the open tasks are an
 *   earlier message's that this one has not taken up, SPEC 0.5), and its record arms a timer
 *   (`recordAtSettle`; TUI and RPC) that continues the run once at its time;
 * - the timer is cancelled by a human message, `/new`, the session's end and the kill switch as soon as a
 *   hook or a command sees it (`switchSeen`, SPEC 0.5); when it fires it checks
 *   the branch (a pause, a reset, a `continue` or a reply since cancel it), the kill switch, the pause,
 *   `workflow:mutex:v1`, and every limit (`limitWake`);
 * - at `session_start` of a resumed session it asks whether to continue a run that died (TUI: a dialog,
 *   RPC: a notify), or arms a wait still to come again (`decideResume`); a run that died on a marker or a
 *   tool result gets a restart record (`marksRestart`), so the next message is not read as steering it;
 * - SIGTERM and SIGHUP are watched (one listener per process, removed at the session's end) so that the
 *   abort pi makes while shutting down is recorded with `shutdown: true`: a death, not the person's Escape.
 * The rules are in `core/limit-stop.ts`, `core/resume.ts` and `core/limit-wait.ts`; the words in `text.ts`.
 */
import { killSwitch } from "../io/paths.ts";
import { applyCommand } from "../loop.ts";
import type { Config, Memory, Reason, StopRecord } from "../core/types.ts";
import type { ContextLike, SessionManagerLike } from "../core/pi-shapes.ts";
import { isRecord } from "../core/record.ts";
import { heldEarlier, limitWake, readLimitRun, wakeDue, withLimitStop, withoutTimer } from "../core/limit-stop.ts";
import { parseTime } from "../core/limit-wait.ts";
import { decideResume, marksRestart, readTail, RESUME_CONFIRM_TIMEOUT_MS, resumeChannel } from "../core/resume.ts";
import type { ResumeDecision } from "../core/resume.ts";
import { commandReplyText, RESUME_TITLE, resumeNotice, resumeQuestion } from "../core/text.ts";
import { CONTROL_TYPE, RESTART_TYPE } from "../state.ts";
import { commandFacts } from "./command.ts";
import { minutesSince } from "../core/stops.ts";
import { markerMessage, yieldsToWorkflow } from "./runtime.ts";
import { endRun } from "./run-end.ts";
import type { Runtime } from "./runtime.ts";

/** The longest a timer may be set for in one go (Node's limit is 2^31-1 ms; no wait is longer than a day). */
const MAX_TIMER_MS = 2_000_000_000;

interface Armed {
  readonly timer: ReturnType<typeof setTimeout>;
  /** The record's `resumeAt`, as written: the wake is due only while the branch still ends on that record. */
  readonly resumeAt: unknown;
}

/** The armed waits, by session (pi gives every extension of a session the same `sessionManager` object). */
const armed = new Map<object, Armed>();

function keyOf(ctx: ContextLike): object | undefined {
  try {
    const manager: unknown = ctx.sessionManager;
    return typeof manager === "object" && manager !== null ? manager : undefined;
  } catch {
    return undefined;
  }
}

/** Cancels the session's wait, if one is armed (the record stays on the branch). */
export function cancelLimitWait(ctx: ContextLike): void {
  const key = keyOf(ctx);
  const current = key && armed.get(key);
  if (!key || !current) return;
  clearTimeout(current.timer);
  armed.delete(key);
}

/**
 * The kill switch seen by a hook or a command (SPEC 0.5 §4.20): the session's wait is cancelled at once,
 * so removing the file before its time does not revive it, and the memory stops saying when it resumes.
 */
function cancelForSwitch(runtime: Runtime, ctx: ContextLike): void {
  if (!limitWaitArmed(ctx)) return;
  cancelLimitWait(ctx);
  const session = runtime.sessionOf(ctx);
  if (session.memory) session.memory = withoutTimer(session.memory);
}

/** Whether a wait is armed for the session (for tests and `/todoloop`). */
export function limitWaitArmed(ctx: ContextLike): boolean {
  const key = keyOf(ctx);
  return key !== undefined && armed.has(key);
}

function timerMode(ctx: ContextLike): boolean {
  return ctx.mode === "tui" || ctx.mode === "rpc";
}

function arm(runtime: Runtime, ctx: ContextLike, resumeAt: unknown, resumeAtMs: number): void {
  const key = keyOf(ctx);
  if (!key || !timerMode(ctx)) return;
  cancelLimitWait(ctx);
  const delay = Math.min(Math.max(0, resumeAtMs - Date.now()), MAX_TIMER_MS);
  const timer = setTimeout(() => {
    if (armed.get(key)?.timer !== timer) return;
    armed.delete(key);
    wake(runtime, ctx, resumeAt);
  }, delay);
  // A wait never keeps pi running: it only continues a pi that is still there.
  timer.unref();
  armed.set(key, { timer, resumeAt });
}

// ---- the run's end ------------------------------------------------------------------------------

/**
 * At `agent_settled`, before the stop is settled: a run that ended on a usage or rate limit with tasks
 * open ends as a `limit-wait` instead of an error (SPEC §4.20); an abort while pi shuts down on a signal
 * is said to be one (§4.21). Reads the branch only when the pending stop is an error.
 */
export function limitAtSettle(runtime: Runtime, ctx: ContextLike, memory: Memory, config: Config): Memory {
  const pending = memory.pending;
  if (pending === undefined || pending.reason.kind !== "outcome") return memory;
  if (pending.reason.outcome === "aborted") {
    // pi aborts the run itself when it shuts down on a signal: a death, not the person's Escape (SPEC §4.21).
    if (!shutdownSignalled()) return memory;
    const reason: Reason = { ...pending.reason, shutdown: true };
    return { ...memory, pending: { ...pending, reason }, last: reason };
  }
  if (pending.reason.outcome !== "error") return memory;
  let branch: readonly unknown[];
  try {
    branch = runEntries(ctx.sessionManager);
  } catch {
    return memory;
  }
  // A list an unrelated new message has not taken up is not the run's to continue at the reset (SPEC 0.5 §4.20).
  const held = heldEarlier(memory, config.earlierTasks, runtime.gather(ctx).branch);
  return withLimitStop(memory, { run: readLimitRun(branch), capMinutes: config.maxLimitWaitMinutes, nowMs: Date.now(), timer: timerMode(ctx), held });
}

/** How far back from the leaf `runEntries()` walks before it takes the whole branch instead. */
const MAX_RUN_WALK = 10_000;

/**
 * What `readLimitRun()` reads: the branch from the person's newest message to the leaf (it reads nothing
 * older), walked back by `getEntry(parentId)`, so an error at the end of a long session does not copy the
 * whole branch. The whole branch where pi cannot be walked so, or the run is longer than MAX_RUN_WALK.
 */
export function runEntries(session: SessionManagerLike): readonly unknown[] {
  const leaf = typeof session.getLeafId === "function" ? session.getLeafId() : undefined;
  if (typeof leaf !== "string" || typeof session.getEntry !== "function") return session.getBranch();
  const run: unknown[] = [];
  for (let id: unknown = leaf; typeof id === "string"; ) {
    const entry = session.getEntry(id);
    if (!isRecord(entry) || run.length >= MAX_RUN_WALK) return session.getBranch();
    run.push(entry);
    if (entry.type === "message" && isRecord(entry.message) && entry.message.role === "user") break;
    id = entry.parentId;
  }
  return run.reverse();
}

/**
 * The stop record about to be appended at `agent_settled`: an abort pi made while shutting down on a
 * signal is marked `shutdown: true` (a resumed session asks about it); a `limit-wait` that waits arms its
 * timer (TUI and RPC).
 */
export function recordAtSettle(runtime: Runtime, ctx: ContextLike, record: StopRecord, ended: Reason | undefined): StopRecord {
  if (ended?.kind === "outcome" && ended.shutdown === true) {
    return { ...record, shutdown: true };
  }
  if (record.kind === "limit-wait" && record.resumeAt !== undefined) {
    const at = parseTime(record.resumeAt);
    if (at !== undefined) arm(runtime, ctx, record.resumeAt, at);
  }
  return record;
}

// ---- the wake ------------------------------------------------------------------------------------

/** What a wait does at its time: one continuation, unless something since says otherwise. Never throws. */
function wake(runtime: Runtime, ctx: ContextLike, resumeAt: unknown): void {
  try {
    if (runtime.conduct(ctx) === "off" || killSwitch(ctx.cwd)) return;
    if (!wakeDue(ctx.sessionManager.getBranch(), resumeAt)) return;
    // A run is going (the person's, another extension's): it ends by itself and is decided then.
    if (typeof ctx.isIdle === "function" && !ctx.isIdle()) return;
    const session = runtime.sessionOf(ctx);
    runtime.readControls(ctx, session);
    const facts = runtime.gather(ctx);
    if (yieldsToWorkflow(runtime, ctx, facts)) return;
    const spend = { ...facts.spend, minutes: minutesSince(facts.snapshot.anchorTime, Date.now()) };
    const result = limitWake(facts.memory, { list: facts.list, limits: facts.config, spend, tools: facts.tools, killSwitch: false, earlierTasks: facts.config.earlierTasks, branch: facts.branch });
    session.memory = result.kind === "none" ? facts.memory : result.memory;
    if (result.kind === "stop") {
      void endRun(runtime, ctx, session, facts.config, "timer").reached;
      return;
    }
    runtime.refreshFooter(ctx, facts, session.memory);
    if (result.kind !== "continue") return;
    runtime.pi.sendMessage(markerMessage(result.marker, facts.config.transcript), { triggerTurn: true });
    runtime.workflow.hold(ctx);
  } catch (error) {
    runtime.failed(ctx, "the usage-limit wait", error);
  }
}

// ---- resumed sessions ----------------------------------------------------------------------------

/** `/todoloop continue`, as the command does it: one control record, one marker when the agent is idle. */
function continueNow(runtime: Runtime, ctx: ContextLike): void {
  const session = runtime.sessionOf(ctx);
  runtime.readControls(ctx, session);
  const facts = runtime.gather(ctx);
  const idle = typeof ctx.isIdle === "function" ? ctx.isIdle() : true;
  const result = applyCommand(facts.memory, "continue", { ...commandFacts(facts), idle });
  session.memory = result.memory;
  if (result.record) {
    runtime.pi.appendEntry(CONTROL_TYPE, { v: 1, action: "continue", anchor: facts.memory.anchor });
    session.paused = result.memory.paused;
  }
  const open = facts.list.kind === "list" ? facts.list.open : 0;
  runtime.notify(ctx, commandReplyText(result.reply, { idle, open }), result.reply.kind === "cannot-continue" ? "warning" : "info");
  runtime.refreshFooter(ctx, facts, result.memory);
  if (result.marker) {
    runtime.pi.sendMessage(markerMessage(result.marker, facts.config.transcript), { triggerTurn: true });
    runtime.workflow.hold(ctx);
  }
}

/** The dialog (TUI): 60 s, no answer is no; yes is `/todoloop continue`. */
async function askToContinue(runtime: Runtime, ctx: ContextLike, decision: Extract<ResumeDecision, { kind: "ask" }>): Promise<void> {
  let yes = false;
  try {
    yes = (await ctx.ui.confirm?.(RESUME_TITLE, resumeQuestion(decision), { timeout: RESUME_CONFIRM_TIMEOUT_MS })) === true;
  } catch {
    return;
  }
  if (!yes) return;
  try {
    // The person may have switched the loop off or paused it while the dialog was open.
    if (killSwitch(ctx.cwd)) return;
    continueNow(runtime, ctx);
  } catch (error) {
    runtime.failed(ctx, "continuing the last run", error);
  }
}

function sessionIdOf(ctx: ContextLike): string {
  try {
    return ctx.sessionManager.getSessionId?.() ?? "";
  } catch {
    return "";
  }
}

/**
 * A start after pi stopped mid-run on a marker or a tool result is recorded on the branch, once, in every
 * mode (not under the kill switch, nor in a child with `children: "off"`): the person's next message then
 * does not follow a run in progress, so only go-on words carry the dead run's list over (SPEC 0.5 §4.21).
 */
function markRestart(runtime: Runtime, ctx: ContextLike, reason: unknown): void {
  if (runtime.conduct(ctx) === "off" || killSwitch(ctx.cwd)) return;
  if (marksRestart(reason, readTail(ctx.sessionManager.getBranch()))) runtime.pi.appendEntry(RESTART_TYPE, { v: 1 });
}

export function registerLimitWaits(runtime: Runtime): void {
  const { pi } = runtime;
  // Every run's end (run-end.ts) takes the usage-limit step from here.
  runtime.limitStep = {
    atSettle: (ctx, memory, config) => limitAtSettle(runtime, ctx, memory, config),
    atRecord: (ctx, record, ended) => recordAtSettle(runtime, ctx, record, ended),
    switchSeen: (ctx) => cancelForSwitch(runtime, ctx),
  };
  /** Sessions this instance already asked about: pi 1.5.2 over RPC fires `session_start` twice. */
  const asked = new Set<string>();

  async function onSessionStart(reason: unknown, ctx: ContextLike): Promise<void> {
    watchSignals();
    markRestart(runtime, ctx, reason);
    // A child session asks nobody and waits for nothing: its parent decides (SPEC §4.18).
    if (runtime.conduct(ctx) !== "normal" || !timerMode(ctx)) return;
    const tail = readTail(ctx.sessionManager.getBranch());
    const session = runtime.sessionOf(ctx);
    if (session.paused === undefined) runtime.readControls(ctx, session);
    const facts = runtime.gather(ctx);
    const list = facts.list;
    const decision = decideResume({
      reason,
      tail,
      open: list.kind === "list" ? list.open : 0,
      total: list.kind === "list" ? list.total : 0,
      paused: facts.memory.paused,
      killSwitch: facts.killSwitch !== undefined,
      nowMs: Date.now(),
    });
    const channel = resumeChannel(decision, ctx.mode);
    if (decision.kind === "rearm" && channel === "timer") {
      arm(runtime, ctx, tail.stop?.resumeAt, decision.resumeAtMs);
      const now = Date.now();
      runtime.setMemory(ctx, facts, { ...facts.memory, last: { kind: "limit-wait", state: "waiting", resumeAtMs: decision.resumeAtMs, waitMinutes: (decision.resumeAtMs - now) / 60_000, atMs: now, first: false, timer: true } }, true);
      return;
    }
    if (decision.kind !== "ask" || channel === "none") return;
    const id = sessionIdOf(ctx);
    if (asked.has(id)) return;
    asked.add(id);
    if (channel === "notify") runtime.notify(ctx, resumeNotice(decision), "info");
    // Not awaited: the dialog must not hold pi's start or the other extensions' handlers.
    else void askToContinue(runtime, ctx, decision);
  }

  pi.on("session_start", async (event, ctx) => {
    try {
      await onSessionStart(isRecord(event) ? event.reason : undefined, ctx);
    } catch (error) {
      runtime.failed(ctx, "session_start", error);
    }
  });

  // A human message cancels the wait: the person is there and decides.
  pi.on("message_start", async (event, ctx) => {
    try {
      if (isRecord(event) && isRecord(event.message) && event.message.role === "user") cancelLimitWait(ctx);
    } catch {
      // Nothing to cancel.
    }
  });

  // `/new`, a switch, a reload, quitting: the wait belonged to this session and this instance.
  pi.on("session_shutdown", async (_event, ctx) => {
    try {
      cancelLimitWait(ctx);
      // A child session's end leaves the process's watch to the session that started it.
      if (runtime.conduct(ctx) === "normal") unwatchSignals();
    } catch {
      // A session that ends cannot be helped by an error.
    }
  });
}

// ---- SIGTERM and SIGHUP --------------------------------------------------------------------------

const SIGNALS = ["SIGTERM", "SIGHUP"] as const;
const WATCH_KEY = Symbol.for("pi-todo-loop.shutdown-signals");

interface SignalWatch {
  /** A SIGTERM or SIGHUP arrived: pi is shutting down, and the abort it makes is not the person's. */
  signalled: boolean;
  listener: ((signal: NodeJS.Signals) => void) | undefined;
}

function signalWatch(): SignalWatch {
  const holder = globalThis as { [WATCH_KEY]?: SignalWatch };
  holder[WATCH_KEY] ??= { signalled: false, listener: undefined };
  return holder[WATCH_KEY];
}

function shutdownSignalled(): boolean {
  return signalWatch().signalled;
}

/**
 * One listener per process for SIGTERM and SIGHUP. It only takes note: pi's own listeners shut pi down
 * (they abort the run, then end the session). Should pi have none, the listener gives the signal its
 * default effect back, so that listening never keeps a process alive.
 */
function watchSignals(): void {
  const watch = signalWatch();
  if (watch.listener !== undefined) return;
  const listener = (signal: NodeJS.Signals): void => {
    watch.signalled = true;
    if (process.listenerCount(signal) <= 1) {
      unwatchSignals();
      process.kill(process.pid, signal);
    }
  };
  watch.listener = listener;
  try {
    for (const signal of SIGNALS) process.on(signal, listener);
  } catch {
    // A platform without these signals: nothing to watch.
  }
}

function unwatchSignals(): void {
  const watch = signalWatch();
  const listener = watch.listener;
  if (listener === undefined) return;
  watch.listener = undefined;
  for (const signal of SIGNALS) process.off(signal, listener);
}
