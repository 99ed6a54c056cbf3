/**
 * The adapter shape for work in flight (SPEC §4.17) and the small guards the adapters share. An adapter
 * reads one extension's `pi.events` payloads into `WorkEvent`s; it never throws, never reads files and
 * never guesses: a payload it does not recognise reads as `undefined`. Each copies the fields it reads
 * (`fieldsOf`) before it decides anything, so no hostile getter runs inside its rules.
 */
import { isRecord } from "../core/record.ts";
import type { UnknownRecord } from "../core/record.ts";
import { sanitize } from "../core/sanitize.ts";
import { WORK_LABEL_MAX } from "../core/work.ts";
import type { WorkEvent, WorkPhase } from "../core/work.ts";

export type WorkSourceId = "nicobailon-pi-subagents" | "tintinweb-pi-subagents" | "pi-code" | "aliou-pi-processes" | "todo-loop-work";

/** A `WorkEvent` of a known source. */
export interface SourceWorkEvent extends WorkEvent {
  readonly source: WorkSourceId;
}

/**
 * What one payload says: the starts and ends it carries (`[]` when it is the source's but changes no work
 * in flight, such as a foreground subagent), or `undefined` when it is not a shape the adapter knows.
 */
export type WorkRead = readonly SourceWorkEvent[] | undefined;

/** A source that answers a request with its whole live list (pi-processes' `processes:request:list`). */
export interface WorkSnapshot {
  /** The channel to emit `{ reply(list) }` on; the source calls `reply` synchronously. */
  readonly channel: string;
  /** The starts of the live work in the reply, or undefined when the reply is not such a list. */
  read(reply: unknown): readonly SourceWorkEvent[] | undefined;
}

export interface WorkSource {
  readonly id: WorkSourceId;
  /** How `/todoloop` names the source. */
  readonly label: string;
  /** The `pi.events` channels whose payloads `read` understands. */
  readonly channels: readonly string[];
  /** The events one payload heard on `channel` carries. Never throws. */
  read(channel: string, payload: unknown): WorkRead;
  /**
   * `customType`s of the message the source sends with the work's result (with `triggerTurn`): a run it
   * starts goes on under the same human message.
   */
  readonly resultTypes: readonly string[];
  /**
   * The source holds its result message while the agent runs and sends it when the agent settles
   * (tintinweb's queue): a work end heard mid-run means a result message is due at that settle.
   */
  readonly holdsResults?: true;
  /** How to ask the source for its live work after a reload, when it can be asked. */
  readonly snapshot?: WorkSnapshot;
}

/** Longest id an adapter accepts: ids are keys, never cut; a longer one is not a shape any source sends. */
export const MAX_WORK_ID = 256;

/** A non-empty id of at most `MAX_WORK_ID` characters, or undefined. */
export function workId(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= MAX_WORK_ID ? value : undefined;
}

/** The first of `values` that is a string with something to show, display-safe and capped; else undefined. */
export function workLabelOf(...values: readonly unknown[]): string | undefined {
  for (const value of values) {
    const label = sanitize(value, WORK_LABEL_MAX);
    if (label !== "") return label;
  }
  return undefined;
}

/** A non-empty session name, or undefined (the payload then names none). */
export function sessionOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** One event of `source`, without the optional fields that are absent. */
export function workEvent(source: WorkSourceId, id: string, phase: WorkPhase, label?: string, session?: string): SourceWorkEvent {
  return { source, id, phase, ...(label !== undefined ? { label } : {}), ...(session !== undefined ? { session } : {}) };
}

/**
 * The named fields of an untrusted payload, copied into a plain object before anything is decided, so an
 * adapter's reading cannot throw: undefined when the payload is not a plain object or a getter throws
 * (a revoked proxy, a hostile accessor).
 */
export function fieldsOf(payload: unknown, keys: readonly string[]): UnknownRecord | undefined {
  try {
    if (isRecord(payload)) return Object.fromEntries(keys.map((key) => [key, payload[key]]));
  } catch {
    // Not a shape any source sends.
  }
  return undefined;
}
