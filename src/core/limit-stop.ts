/**
 * A run that ended on a usage or rate limit (SPEC §4.20), as the loop decides it: what the branch says
 * about the run's final error and the waits already taken under the message (`readLimitRun`), the stop
 * the run ends with (`limitStop`), whether a wait is still due when its timer fires (`wakeDue`), and
 * what the wake does (`limitWake`). Pure: the branch as an array, the clock's reading and the config in;
 * plain data out. The host arms the timer and applies the wake.
 */
import { classifyLimit } from "./limit-error.ts";
import { parseTime, planLimitWait, priorWaitMinutes } from "./limit-wait.ts";
import type { BranchFacts, DecideInput, EarlierMode, LimitWaitReason, Limits, ListState, MarkerDraft, Memory, PendingStop, Reason, ToolFacts } from "./types.ts";
import { earlierFacts, holdsEarlier, limitReached, markerBase, timerContinuation, timerRound, timerStop } from "./stops.ts";

/** The entry types the loop writes (the branch reader's strings). */
const MARKER_TYPE = "todo-loop:continue";
const STOP_TYPE = "todo-loop:stop";
const CONTROL_TYPE = "todo-loop:control";

type Fields = { readonly [key: string]: unknown };

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What the branch says of a run that ended on an error, under its newest human message. */
export interface LimitRun {
  /** The run's final provider error: the newest assistant message under the message, when it errored. */
  readonly error: { readonly message: unknown; readonly atMs: number | undefined } | undefined;
  /**
   * Minutes of each `limit-wait` that waited under the message, oldest first; `undefined` for a record
   * too damaged to read (the plan counts the backoff step it would have been). A wait that was not
   * started (the loop gave up) has neither `resumeAt` nor `waitMinutes` and is not a wait.
   */
  readonly prior: readonly (number | undefined)[];
}

/** A `limit-wait` record that scheduled a wait (it has `resumeAt` or `waitMinutes`). */
function waited(data: Fields): boolean {
  const has = (key: string): boolean => data[key] !== undefined && data[key] !== null;
  return has("resumeAt") || has("waitMinutes");
}

/**
 * Reads the branch back to its newest human message: the newest assistant message (the run's last
 * reply; pi's retries leave several errored ones, the newest decides) and the waits recorded since.
 * Malformed entries are skipped. Never throws.
 */
export function readLimitRun(branch: readonly unknown[]): LimitRun {
  let error: LimitRun["error"];
  let sawReply = false;
  const prior: (number | undefined)[] = [];
  for (let index = branch.length - 1; index >= 0; index -= 1) {
    const entry = branch[index];
    if (!isFields(entry)) continue;
    if (entry.type === "message" && isFields(entry.message)) {
      const message = entry.message;
      if (message.role === "user") break;
      if (message.role === "assistant" && !sawReply) {
        sawReply = true;
        if (message.stopReason === "error") error = { message: message.errorMessage, atMs: parseTime(message.timestamp) ?? parseTime(entry.timestamp) };
      }
      continue;
    }
    if (entry.type === "custom" && entry.customType === STOP_TYPE && isFields(entry.data) && entry.data.kind === "limit-wait" && waited(entry.data)) {
      prior.unshift(priorWaitMinutes(entry.data, entry.timestamp));
    }
  }
  return { error, prior };
}

export interface LimitStopInput {
  /** The stop the run ends with as `decide()` left it. */
  readonly pending: PendingStop;
  readonly run: LimitRun;
  /** `maxLimitWaitMinutes`. */
  readonly capMinutes: number;
  /** The clock's reading now, epoch ms. */
  readonly nowMs: number;
  /** A timer can continue the run (TUI and RPC); in print and JSON mode the process exits instead. */
  readonly timer: boolean;
  /**
   * The open tasks are an earlier message's that this one has not taken up (SPEC §4.15, `heldEarlier`):
   * the loop would not continue them at the reset either, so no wait is promised.
   */
  readonly held?: boolean;
}

/** Whether the list is an earlier message's that this one has not taken up (SPEC §4.15), as every automatic continuation asks. */
export function heldEarlier(memory: Memory, mode: EarlierMode, branch: BranchFacts): boolean {
  return holdsEarlier(mode, earlierFacts(memory, branch));
}

/**
 * The stop a run that ended on a provider error really ends with: an error that is a limit that resets,
 * with tasks open (or in a verification's fix run, SPEC 0.5: a run the loop started always ends with a
 * record), is a `limit-wait` — waiting until the plan's time, or given up when the waits under this
 * message would pass `maxLimitWaitMinutes`; a quota or billing error, any other error, an abort, the
 * rule turned off (`0`), or a list an unrelated new message has not taken up (`held`: the reset would
 * push nothing, 0.5) leave the `outcome` stop as it was.
 */
export function limitStop(input: LimitStopInput): PendingStop {
  const { pending, run } = input;
  const reason = pending.reason;
  if (reason.kind !== "outcome" || reason.outcome !== "error" || run.error === undefined || input.held === true) return pending;
  if (pending.open <= 0 && reason.fixing !== true) return pending;
  const limit = classifyLimit(run.error.message, run.error.atMs);
  if (limit.kind !== "limit") return pending;
  const prior = run.prior.map((minutes) => minutes ?? Number.NaN);
  const plan = planLimitWait({ limit, prior, capMinutes: input.capMinutes, nowMs: input.nowMs });
  const atMs = input.nowMs;
  if (plan.kind === "wait") {
    const next: LimitWaitReason = { kind: "limit-wait", state: "waiting", resumeAtMs: plan.resumeAtMs, waitMinutes: plan.waitMinutes, atMs, first: prior.length === 0, timer: input.timer };
    // A later wait under the same message is no news for the person: it notifies nothing.
    return { reason: next, open: pending.open, level: next.first ? "warning" : "info" };
  }
  if (plan.kind === "exhausted") {
    const next: LimitWaitReason = {
      kind: "limit-wait", state: "gave-up", why: plan.why, capMinutes: plan.capMinutes, atMs,
      ...(plan.resetAtMs === undefined ? {} : { resetAtMs: plan.resetAtMs }),
      ...(plan.beyond === true ? { beyond: true as const } : {}),
    };
    return { reason: next, open: pending.open, level: "warning" };
  }
  // "off": the rule is turned off, the error stop stays.
  return pending;
}

/** The memory with its pending stop replaced by `limitStop`'s (shown as `last` too, for the footer). */
export function withLimitStop(memory: Memory, input: Omit<LimitStopInput, "pending">): Memory {
  if (memory.pending === undefined) return memory;
  const pending = limitStop({ ...input, pending: memory.pending });
  return pending === memory.pending ? memory : { ...memory, pending, last: pending.reason };
}

/**
 * Whether a wait armed for `resumeAt` (the record's ISO time, as written) is still due when its timer fires: the
 * branch still ends on that `limit-wait` record. A human message, a marker (a `/todoloop continue` run),
 * any reply, another stop, or a `pause`, `reset` or `continue` after it cancels the wait; a `resume`
 * (which lifts nothing here) and entries that say nothing of the run (model changes, labels, other
 * extensions' entries, malformed lines) do not.
 */
export function wakeDue(branch: readonly unknown[], resumeAt: unknown): boolean {
  for (let index = branch.length - 1; index >= 0; index -= 1) {
    const entry = branch[index];
    if (!isFields(entry)) continue;
    if (entry.type === "message") {
      if (!isFields(entry.message)) continue;
      const role = entry.message.role;
      if (role === "user" || role === "assistant" || role === "toolResult") return false;
      continue;
    }
    if (entry.type === "custom_message") {
      if (entry.customType === MARKER_TYPE) return false;
      continue;
    }
    if (entry.type !== "custom") continue;
    if (entry.customType === CONTROL_TYPE) {
      if (isFields(entry.data) && entry.data.action === "resume") continue;
      return false;
    }
    if (entry.customType === STOP_TYPE) {
      return isFields(entry.data) && entry.data.kind === "limit-wait" && entry.data.resumeAt === resumeAt;
    }
  }
  return false;
}

/**
 * The memory once the wait's timer is cancelled by the kill switch (SPEC 0.5 §4.20: as soon as any check
 * sees it; removing the file later does not revive that timer): the wait no longer says when the run
 * goes on — the footer and `/todoloop` name the usage-limit stop instead. Any other memory as it was.
 */
export function withoutTimer(memory: Memory): Memory {
  const last = memory.last;
  if (last.kind !== "limit-wait" || last.state !== "waiting" || !last.timer) return memory;
  return { ...memory, last: { ...last, timer: false } };
}

/** What the wake reads besides the memory. */
export interface WakeFacts {
  readonly list: ListState;
  readonly limits: Limits;
  /** Spend since the message, minutes counted to now (the time limit counts the wait). */
  readonly spend: DecideInput["spend"];
  readonly tools: ToolFacts;
  readonly killSwitch: boolean;
  /** `earlierTasks` and the branch's earlier-message facts (SPEC §4.15): the wake meets that rule too (0.5). */
  readonly earlierTasks: EarlierMode;
  readonly branch: BranchFacts;
}

export type Wake =
  /** One continuation: the marker to send (a round; the counters kept). */
  | { readonly kind: "continue"; readonly memory: Memory; readonly marker: MarkerDraft }
  /** No continuation: a stop to announce and record as a run's end is (`memory.pending`). */
  | { readonly kind: "stop"; readonly memory: Memory }
  /**
   * Nothing to do: the loop is off, paused or waiting for the person, no task is open, or the list is
   * an earlier message's that this one has not taken up.
   */
  | { readonly kind: "none"; readonly why: "kill-switch" | "paused" | "waiting" | "nothing-open" | "earlier" };

/**
 * The wake at a wait's time (SPEC §4.20): one continuation that counts as a round, when no rule stands
 * in the way — it meets every rule an automatic continuation meets (0.5): the person's pause or wait,
 * the earlier-message rule (§4.15: a limit that ended an unrelated new message never pushes an older
 * message's list), and every limit, the time limit counting the wait. A list that went out of date, or
 * a todo tool no longer active, stops as at any settle. A verification's fix run (its check failed and
 * no task is open) goes on with the check's output again.
 */
export function limitWake(memory: Memory, facts: WakeFacts): Wake {
  if (facts.killSwitch) return { kind: "none", why: "kill-switch" };
  if (memory.paused) return { kind: "none", why: "paused" };
  if (memory.waiting !== undefined) return { kind: "none", why: "waiting" };
  const { list } = facts;
  const open = list.kind === "list" || list.kind === "out-of-date" ? list.open : 0;
  if (open > 0 && heldEarlier(memory, facts.earlierTasks, facts.branch)) return { kind: "none", why: "earlier" };
  if (list.kind === "out-of-date") {
    return list.open > 0 ? { kind: "stop", memory: timerStop(memory, { kind: "out-of-date", why: list.why }, list.open) } : { kind: "none", why: "nothing-open" };
  }
  if (open === 0) return fixRunWake(memory, facts) ?? { kind: "none", why: "nothing-open" };
  if (list.kind !== "list") return { kind: "none", why: "nothing-open" };
  const next = timerContinuation(memory, list, facts);
  // The report counts it as a resume after a limit (SPEC §7.2).
  return next.kind === "continue" ? { ...next, marker: { ...next.marker, by: "resume" } } : next;
}

/**
 * The wake of a verification's fix run that ended on a limit (SPEC 0.5 §4.20, §4.16): the check failed
 * and no task is open, so the run goes on as it was — one continuation carrying the check's output
 * again, the same run of the check (it did not run again), a round; only a limit the person set stops it
 * instead, as it stops a failed check. Undefined when the newest check under the message did not fail.
 */
function fixRunWake(memory: Memory, facts: WakeFacts): Wake | undefined {
  const memo = memory.verify;
  const list = facts.list;
  if (memo === undefined || memo.exit === 0 || (list.kind !== "list" && !(list.kind === "none" && list.why === "emptied"))) return undefined;
  const { command, exit, seconds, runs } = memo;
  const reached = limitReached(memory, facts.limits, facts.spend, 0);
  if (reached?.kind === "limit") {
    const reason: Reason = { kind: "verify-failed", command, exit, seconds, runs, why: "limit", limit: { limit: reached.limit, used: reached.used, max: reached.max } };
    return { kind: "stop", memory: timerStop(memory, reason, 0) };
  }
  const next = timerRound(memory, (round) => ({ kind: "verify-continuing", command, exit, seconds, round, maxRounds: facts.limits.maxRounds }));
  const marker: MarkerDraft = {
    ...markerBase(next, { open: 0, total: list.kind === "list" ? list.total : 0 }, facts.limits),
    verify: { command, exit, seconds, run: runs },
    tool: undefined,
    source: undefined,
    output: memo.output,
    // The report counts it as a resume after a limit (SPEC §7.2).
    by: "resume",
  };
  return { kind: "continue", memory: next, marker };
}
