/**
 * Picking up a run that died with pi (SPEC §4.21): how the branch of a resumed session ends, whether
 * that is a run cut short, and what to do at `session_start` — ask the person, arm the wait for a usage
 * limit again, or nothing. Pure: the branch as an array and plain facts in, plain data out; the host
 * shows the dialog or the notify and arms the timer. The English is in text.ts.
 */
import { MAX_LIMIT_WAIT_CEILING_MINUTES, parseTime } from "./limit-wait.ts";
import type { ModeLike } from "./pi-shapes.ts";

/** The entry types the loop writes (the same strings as the branch reader's). */
const MARKER_TYPE = "todo-loop:continue";
const STOP_TYPE = "todo-loop:stop";
const CONTROL_TYPE = "todo-loop:control";
const RESTART_TYPE = "todo-loop:restart";

/** How the branch ends, read from its newest entry that says something about the run. */
export type TailEnd =
  /** No human message on the branch (a fresh session). */
  | "empty"
  /** The newest human message, with nothing after it: pi died before the first reply was saved. */
  | "human"
  /** A continuation marker with nothing after it. */
  | "marker"
  /** An assistant message asking for tools, with no result after it. */
  | "tool-call"
  | "tool-result"
  /** An assistant message that ended normally (the run's end was the loop's to decide). */
  | "reply"
  /** An assistant message aborted or errored, with no stop record after it. */
  | "aborted"
  | "errored"
  /** A stop record (the loop saw the run end). */
  | "stopped"
  /** A `/todoloop` command (pause, resume, reset, continue) after everything else: the person acted. */
  | "control";

/** The stop record a branch ends with. */
export interface TailStop {
  /** The record's `kind`; undefined in a record written by 0.1. */
  readonly kind: string | undefined;
  /** Its `resumeAt` as written (an ISO time for a `limit-wait`; anything in a damaged record). */
  readonly resumeAt: unknown;
  /** Whether it has `resumeAt` at all (a `limit-wait` that gave up has none). */
  readonly hasResumeAt: boolean;
  /** The record says the run was aborted because pi was shutting down (`shutdown: true`). */
  readonly shutdown: boolean;
}

export interface TailSummary {
  readonly end: TailEnd;
  /** Set when `end` is `stopped`. */
  readonly stop?: TailStop;
  /**
   * For `aborted` and `errored`: a stop of kind `outcome` was already recorded since the newest human
   * message or marker — the loop announces one such stop per run, so this end was seen, not cut short.
   */
  readonly outcomeRecorded: boolean;
  /** A restart record (`marksRestart`) comes after the end: this start is not the first since the run died. */
  readonly restarted?: boolean;
}

type Fields = { readonly [key: string]: unknown };

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What one entry says about the run, or undefined for an entry that says nothing (or cannot be read). */
type Step =
  | { readonly end: Exclude<TailEnd, "empty" | "stopped"> }
  | { readonly end: "stopped"; readonly stop: TailStop };

function stepOf(entry: unknown): Step | undefined {
  if (!isFields(entry)) return undefined;
  if (entry.type === "message") {
    const message = entry.message;
    if (!isFields(message)) return undefined;
    switch (message.role) {
      case "user":
        return { end: "human" };
      case "toolResult":
        return { end: "tool-result" };
      case "assistant":
        if (message.stopReason === "aborted") return { end: "aborted" };
        if (message.stopReason === "error") return { end: "errored" };
        if (message.stopReason === "toolUse") return { end: "tool-call" };
        return { end: "reply" };
    }
    // A shell command the person ran (`bashExecution`) and roles this reader does not know.
    return undefined;
  }
  if (entry.type === "custom_message") return entry.customType === MARKER_TYPE ? { end: "marker" } : undefined;
  if (entry.type === "custom") {
    if (entry.customType === STOP_TYPE) return { end: "stopped", stop: stopOf(entry.data) };
    if (entry.customType === CONTROL_TYPE) return { end: "control" };
  }
  // Model and thinking changes, labels, session names, compactions, summaries, other extensions' entries.
  return undefined;
}

function stopOf(data: unknown): TailStop {
  const fields = isFields(data) ? data : {};
  return {
    kind: typeof fields.kind === "string" ? fields.kind : undefined,
    resumeAt: fields.resumeAt,
    hasResumeAt: "resumeAt" in fields && fields.resumeAt !== undefined && fields.resumeAt !== null,
    shutdown: fields.shutdown === true,
  };
}

/**
 * How the branch ends: the newest entry that says something about the run decides, skipping entries
 * that say nothing of it (model changes, labels, other extensions' entries and messages) and entries
 * that cannot be read (a line cut short when pi was killed). Never throws.
 */
export function readTail(branch: readonly unknown[]): TailSummary {
  let last: Step | undefined;
  let outcomeRecorded = false;
  let restarted = false;
  for (let index = branch.length - 1; index >= 0; index -= 1) {
    const entry = branch[index];
    if (last === undefined && isFields(entry) && entry.type === "custom" && entry.customType === RESTART_TYPE) restarted = true;
    const step = stepOf(entry);
    if (step === undefined) continue;
    if (last === undefined) {
      last = step;
      if (step.end !== "aborted" && step.end !== "errored") break;
      continue;
    }
    // Past an aborted or errored end: was an outcome stop recorded earlier in the same run?
    if (step.end === "human" || step.end === "marker") break;
    if (step.end === "stopped" && step.stop.kind === "outcome") {
      outcomeRecorded = true;
      break;
    }
  }
  const again = restarted ? { restarted } : {};
  if (last === undefined) return { end: "empty", outcomeRecorded: false };
  if (last.end === "stopped") return { end: "stopped", stop: last.stop, outcomeRecorded: false, ...again };
  return { end: last.end, outcomeRecorded, ...again };
}

// ---- the decision at session_start --------------------------------------------------------------

/**
 * Whether a `session_start` may lead to the question: `startup` of a session that has a human message
 * (`-c`, `--session`, the picker) or `resume`. Never `new`, `fork` (a clone too) or `reload`.
 */
export function startMayAsk(reason: unknown, branchHasHuman: boolean): boolean {
  if (reason === "resume") return true;
  return reason === "startup" && branchHasHuman;
}

/**
 * Whether a `session_start` may arm a pending limit wait again: the starts that may ask, and `reload`
 * (the wait's timer belonged to the extension instance that reload replaced). Never `new` or a fork.
 */
export function startMayRearm(reason: unknown, branchHasHuman: boolean): boolean {
  return startMayAsk(reason, branchHasHuman) || (reason === "reload" && branchHasHuman);
}

/**
 * Whether a `session_start` marks the restart on the branch (SPEC 0.5 §4.21): a start that may ask, on
 * a branch whose run was cut short on a marker or a tool result. The person's first message after it
 * then does not "directly follow a marker or a tool result" (§4.15): the dead run is not a run in
 * progress, so only the go-on words, the offer's yes or `/todoloop continue` carry its list over. Once:
 * a second start (a second restart, pi 1.5.2's second `session_start` over RPC) finds it recorded.
 */
export function marksRestart(reason: unknown, tail: TailSummary): boolean {
  if (tail.restarted === true) return false;
  return startMayAsk(reason, tail.end !== "empty") && (tail.end === "marker" || tail.end === "tool-result");
}

export interface ResumeFacts {
  /** `session_start.reason`. */
  readonly reason: unknown;
  readonly tail: TailSummary;
  /** Open tasks of the list the loop works on under the newest human message, and all its tasks. */
  readonly open: number;
  readonly total: number;
  readonly paused: boolean;
  readonly killSwitch: boolean;
  /** The clock's reading now, epoch ms. */
  readonly nowMs: number;
}

export type ResumeCause =
  /** pi stopped mid-run: the branch ends inside the run. */
  | "died"
  /** The run ended on an abort pi made while shutting down (a signal), as its record says. */
  | "shutdown"
  /** The run was waiting for a usage limit, and its time passed while pi was closed. */
  | "limit-passed";

export type ResumeDecision =
  | { readonly kind: "ask"; readonly cause: ResumeCause; readonly open: number; readonly total: number }
  /** A usage-limit wait whose time has not come: arm its timer again for `resumeAtMs`. */
  | { readonly kind: "rearm"; readonly resumeAtMs: number }
  | { readonly kind: "none"; readonly why: ResumeSkip };

export type ResumeSkip = "start" | "kill-switch" | "paused" | "nothing-open" | "ended";

/** The longest a pending wait may still have to run; a `resumeAt` further away than this is not trusted. */
const MAX_PENDING_MS = MAX_LIMIT_WAIT_CEILING_MINUTES * 60_000;

/**
 * What to do at `session_start` (SPEC §4.21). The branch ends inside a run (on the human message, a
 * marker, a tool call or result, an aborted or errored reply with no stop after it) → ask; a
 * `limit-wait` whose time has passed → ask; one still to come → rearm; anything else → nothing.
 * A `resumeAt` that cannot be read, or lies further ahead than any wait can, is treated as passed: the
 * person decides. A `limit-wait` without one (the loop gave up waiting) needs the person, not a question.
 */
export function decideResume(facts: ResumeFacts): ResumeDecision {
  const branchHasHuman = facts.tail.end !== "empty";
  const ask = startMayAsk(facts.reason, branchHasHuman);
  // A start that may ask may also rearm (startMayRearm includes startMayAsk).
  if (!startMayRearm(facts.reason, branchHasHuman)) return none("start");
  if (facts.killSwitch) return none("kill-switch");
  if (facts.paused) return none("paused");
  const open = wholeCount(facts.open);
  const total = Math.max(wholeCount(facts.total), open);
  if (open === 0) return none("nothing-open");
  const asked = (cause: ResumeCause): ResumeDecision => (ask ? { kind: "ask", cause, open, total } : none("start"));
  const tail = facts.tail;
  switch (tail.end) {
    case "aborted":
    case "errored":
      return tail.outcomeRecorded ? none("ended") : asked("died");
    case "human":
    case "marker":
    case "tool-call":
    case "tool-result":
      return asked("died");
    case "stopped": {
      const stop = tail.stop;
      if (stop === undefined) return none("ended");
      if (stop.kind === "outcome" && stop.shutdown) return asked("shutdown");
      if (stop.kind !== "limit-wait" || !stop.hasResumeAt) return none("ended");
      const resumeAt = parseTime(stop.resumeAt);
      const now = facts.nowMs;
      if (resumeAt === undefined || !Number.isFinite(now) || resumeAt <= now || resumeAt - now > MAX_PENDING_MS) {
        return asked("limit-passed");
      }
      return { kind: "rearm", resumeAtMs: resumeAt };
    }
    case "empty":
    case "reply":
    case "control":
      return none("ended");
  }
}

function none(why: ResumeSkip): ResumeDecision {
  return { kind: "none", why };
}

function wholeCount(value: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.floor(value)) : 0;
}

/**
 * How the question reaches the person in each mode: a dialog in the TUI (60 s, no answer is no), an
 * `info` notify naming `/todoloop continue` over RPC (a dialog there holds the client's commands), and
 * nothing in print or JSON mode (a prompt follows anyway). A rearm needs a timer: TUI and RPC only.
 */
export function resumeChannel(decision: ResumeDecision, mode: ModeLike | undefined): "confirm" | "notify" | "timer" | "none" {
  if (mode !== "tui" && mode !== "rpc") return "none";
  if (decision.kind === "rearm") return "timer";
  if (decision.kind === "ask") return mode === "tui" ? "confirm" : "notify";
  return "none";
}

/** The dialog's timeout: no answer in this time is no. */
export const RESUME_CONFIRM_TIMEOUT_MS = 60_000;
