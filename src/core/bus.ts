/**
 * Other extensions can ask and steer (SPEC §4.25), as rules: the `todo-loop:state` event's content
 * (what a status widget shows: the footer's state in a few fields), which `todo-loop:request` is
 * served, refused or ignored, and the reply. Pure; never throws on any input. The host listens on pi's
 * bus, does what the `/todoloop` word does and emits what these functions say.
 */
import { stopKind } from "./stops.ts";
import type { Limits, ListState, Memory, Reason, StopKind } from "./types.ts";
import { isRecord } from "./record.ts";

export const STATE_EVENT = "todo-loop:state";
export const REQUEST_EVENT = "todo-loop:request";
export const REPLY_PREFIX = "todo-loop:reply:";

export type BusMode = "running" | "stopped" | "waiting" | "working" | "resuming" | "paused" | "off" | "idle";

/** The `todo-loop:state` payload; fields may be added, never renamed. */
export interface BusState {
  readonly v: 1;
  /** The session file's id. */
  readonly session: string;
  readonly mode: BusMode;
  readonly open: number;
  readonly total: number;
  /** Continuations under the current message. */
  readonly continuations: number;
  /** `maxRounds`, when set. */
  readonly limit?: number;
  /** The last stop's kind. */
  readonly last?: StopKind;
  /** A usage limit's wait: when the run continues (ISO time). */
  readonly resumeAt?: string;
  /** Jobs in flight the loop waits on. */
  readonly work?: number;
}

/** What the state is read from: the footer's facts. */
export interface StateFacts {
  readonly session: string;
  readonly memory: Memory;
  readonly list: ListState;
  readonly limits: Limits;
  /** The kill switch is present, or the loop is off in this (child) session. */
  readonly off: boolean;
}

/** The stop the loop last ended on: the memory's `last` once no longer pending, else the newest recorded since the last continuation. */
function lastStop(memory: Memory): StopKind | undefined {
  if (memory.pending !== undefined) return undefined;
  const kind = stopKind(memory.last);
  if (kind !== undefined) return kind;
  if (memory.last.kind !== "none") return undefined;
  const key = memory.announced.at(-1)?.split(":")[0];
  return key !== undefined && KINDS.has(key) ? (key as StopKind) : undefined;
}

const KINDS: ReadonlySet<string> = new Set<StopKind>(["clear", "no-list", "limit", "idle", "stuck", "repeat", "waiting", "question", "out-of-reach", "out-of-date", "outcome", "earlier", "verify-failed", "verify-error", "limit-wait", "work-timeout"]);

function resumesAt(reason: Reason): number | undefined {
  return reason.kind === "limit-wait" && reason.state === "waiting" && reason.timer && Number.isFinite(reason.resumeAtMs) ? reason.resumeAtMs : undefined;
}

/** The `todo-loop:state` content for the footer's facts (SPEC §4.25). */
export function busState(facts: StateFacts): BusState {
  const { memory, list, limits } = facts;
  const open = list.kind === "list" || list.kind === "out-of-date" ? list.open : 0;
  const total = list.kind === "list" ? list.total : open;
  const last = lastStop(memory);
  const base = {
    v: 1 as const,
    session: facts.session,
    open,
    total,
    continuations: memory.round,
    ...(limits.maxRounds === null ? {} : { limit: limits.maxRounds }),
    ...(last === undefined ? {} : { last }),
  };
  if (facts.off) return { ...base, mode: "off" };
  if (memory.paused) return { ...base, mode: "paused" };
  if (open === 0) return { ...base, mode: "idle" };
  if (memory.waiting !== undefined) return { ...base, mode: "waiting" };
  const resumeAt = resumesAt(memory.last);
  if (resumeAt !== undefined && memory.pending === undefined) return { ...base, mode: "resuming", resumeAt: new Date(resumeAt).toISOString() };
  if (memory.last.kind === "waiting-work" && memory.pending === undefined) return { ...base, mode: "working", work: memory.last.jobs };
  if (memory.last.kind === "other-workflow") return { ...base, mode: "stopped" };
  if (last === "waiting" || last === "question") return { ...base, mode: "waiting" };
  return { ...base, mode: last === undefined ? "running" : "stopped" };
}

/** A key that changes exactly when the state does: the event is emitted on a change only. */
export function stateKey(state: BusState): string {
  return JSON.stringify(state);
}

/** The `/todoloop` words a request may ask for. */
export type BusOp = "status" | "pause" | "resume" | "continue" | "reset";
const OPS: readonly BusOp[] = ["status", "pause", "resume", "continue", "reset"];

/** Ids longer than this are not served: the reply channel is built from them. */
export const MAX_ID = 200;

/** What to do with a `todo-loop:request`. */
export type RequestCheck =
  /** Malformed (no `v: 1`, no string id): no reply at all. */
  | { readonly kind: "ignore" }
  /** Well-formed but not served: answered `ok: false` with the reason. */
  | { readonly kind: "refuse"; readonly id: string; readonly error: string }
  | { readonly kind: "serve"; readonly id: string; readonly op: BusOp };

/** Which request this session serves (SPEC §4.25): `session` given must be this one's id. */
export function readRequest(raw: unknown, session: string): RequestCheck {
  if (!isRecord(raw) || raw.v !== 1 || typeof raw.id !== "string" || raw.id === "" || raw.id.length > MAX_ID) return { kind: "ignore" };
  const { id, op } = raw;
  if ("session" in raw && raw.session !== undefined && typeof raw.session !== "string") return { kind: "refuse", id, error: "session must be a string" };
  if (typeof raw.session === "string" && raw.session !== session) return { kind: "refuse", id, error: "another session: this is not the session the request names" };
  if (typeof op !== "string" || !(OPS as readonly string[]).includes(op)) return { kind: "refuse", id, error: `unknown op: use ${OPS.join(", ")}` };
  return { kind: "serve", id, op: op as BusOp };
}

export type BusReply = { readonly v: 1; readonly ok: true; readonly state: BusState } | { readonly v: 1; readonly ok: false; readonly error: string };

/** The reply to a served request: the state after it, or why the word could not be done (`error`, its `/todoloop` line). */
export function replyOf(state: BusState, refused: string | undefined): BusReply {
  return refused === undefined ? { v: 1, ok: true, state } : { v: 1, ok: false, error: refused };
}

/** The channel a request's reply goes to. */
export function replyChannel(id: string): string {
  return `${REPLY_PREFIX}${id}`;
}
