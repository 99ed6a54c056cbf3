/**
 * What the agent did in one reply — from one settle (or the human message) to the next settle — for the
 * busy-but-stuck brakes (SPEC §4.10): whether it made progress, and its fingerprint. The branch reader
 * folds entries into a `ReplyTrack` as they are appended, so a decision costs what the reply holds,
 * never a walk of the branch. Tool calls (on the assistant message, with their arguments) are matched to
 * their results by `toolCallId`. Never throws on any input.
 */
import type { UnknownRecord } from "./record.ts";
import { isRecord } from "./record.ts";
import { callResultPart, canonicalJson, foldFingerprint, readKey, resultHash, runKey, textPart } from "./fingerprint.ts";
import type { ToolTable } from "./tools.ts";

/** What a finished reply says to the brakes. */
export interface ReplyFacts {
  /** The list changed through a call, a call that is not known to only read ran, or a read read something new. */
  readonly progress: boolean;
  /** Hash of the reply's final text and of every tool call's name, canonical arguments, error flag and result hash, in order. */
  readonly fingerprint: string;
}

/** A tool call of the newest assistant message, waiting for its result. */
interface PendingCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
}

export interface ReplyTrack {
  /** Progress in the reply being folded so far. */
  readonly progress: boolean;
  /** Running fingerprint of that reply's tool calls ("" before the first). */
  readonly running: string;
  readonly calls: readonly PendingCall[];
  /** Keys of what read-only calls read under the current human message (bounded: the oldest go first). */
  readonly readKeys: readonly string[];
  /**
   * Keys of the other calls' runs under the current human message — tool, canonical arguments and result
   * hash (bounded like the read keys): the same key again is a re-run, not progress (0.4).
   */
  readonly runKeys: readonly string[];
  /** Signature of the list as the agent's newest successful todo call under this message left it; null before any. */
  readonly todoSeen: string | null;
  /** The reply closed by the newest assistant message, when that message ended a reply (no tool call). */
  readonly last: ReplyFacts | undefined;
}

export const EMPTY_TRACK: ReplyTrack = { progress: false, running: "", calls: [], readKeys: [], runKeys: [], todoSeen: null, last: undefined };

/** How many read keys one human message keeps: enough for a long investigation, O(1) in session length. */
export const MAX_READ_KEYS = 512;
/** How many tool calls of one assistant message are matched to results. */
const MAX_CALLS = 256;

/** pi's tools that write files: a failed call of one changed nothing. */
const WRITERS: ReadonlySet<string> = new Set(["edit", "write"]);

/** A codemode call is progress only through its nested calls: one not known to only read, or an incomplete record. */
function codemodeProgress(tools: ToolTable, message: UnknownRecord): boolean {
  const nested = message.nestedCalls;
  if (!isRecord(nested)) return false;
  if (nested.complete === false) return true;
  if (!Array.isArray(nested.calls)) return false;
  return nested.calls.some((call) => !isRecord(call) || typeof call.name !== "string" || !tools.readsOnly(call.name, call.arguments));
}

/** A result that is no error: not `isError`, no `details.error`, no `details.success === false`. */
function failedResult(message: UnknownRecord): boolean {
  if (message.isError === true) return true;
  const { details } = message;
  if (!isRecord(details)) return false;
  return (details.error !== undefined && details.error !== null && details.error !== false) || details.success === false;
}

/** Text blocks of an assistant message (never thinking). */
function textBlocks(message: UnknownRecord): string[] {
  const { content } = message;
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const block of content) if (isRecord(block) && block.type === "text" && typeof block.text === "string") texts.push(block.text);
  return texts;
}

function toolCalls(message: UnknownRecord): PendingCall[] {
  const { content } = message;
  if (!Array.isArray(content)) return [];
  const calls: PendingCall[] = [];
  for (const block of content) {
    if (calls.length >= MAX_CALLS) break;
    if (!isRecord(block) || block.type !== "toolCall" || typeof block.name !== "string") continue;
    calls.push({ id: typeof block.id === "string" ? block.id : "", name: block.name, args: block.arguments });
  }
  return calls;
}

/** Argument names that point a todo tool's read at one task (`get` by id): another id read is exploring. */
const TASK_TARGETS: ReadonlySet<string> = new Set(["id", "ids", "taskid", "task_id", "taskids", "task_ids", "todoid", "todo_id", "index", "number"]);

/** What a todo read points at (its id arguments, canonical), or undefined for a read of the whole list. */
function todoTarget(args: unknown): string | undefined {
  if (!isRecord(args)) return undefined;
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (TASK_TARGETS.has(key.toLowerCase()) && value !== undefined && value !== null) picked[key] = value;
  return Object.keys(picked).length > 0 ? canonicalJson(picked) : undefined;
}

/** Adds a key to a bounded list, the oldest going first. */
function remember(keys: readonly string[], key: string): readonly string[] {
  return keys.length >= MAX_READ_KEYS ? [...keys.slice(1), key] : [...keys, key];
}

/** A new human message: a new reply, and nothing read yet under it. */
export function trackHumanMessage(): ReplyTrack {
  return EMPTY_TRACK;
}

/**
 * An assistant message: its tool calls wait for their results; without a tool call it ends the reply
 * (an errored or aborted message does not: the retry or the next reply carries on).
 */
export function trackAssistant(track: ReplyTrack, message: UnknownRecord): ReplyTrack {
  const calls = toolCalls(message);
  if (calls.length > 0) return { ...track, calls, last: undefined };
  if (message.stopReason === "error" || message.stopReason === "aborted") return { ...track, calls: [], last: undefined };
  const fingerprint = foldFingerprint(track.running, textPart(textBlocks(message)));
  return { ...track, progress: false, running: "", calls: [], last: { progress: track.progress, fingerprint } };
}

/**
 * A tool result: matched to its call by `toolCallId`, it adds to the fingerprint and may be progress.
 * `list` is the signature of the todo list as it stands once this result is folded ("" for none): a todo
 * tool's read reads the list, so it is new only when the list differs from what the agent's newest todo
 * call under this message left (reading a list the agent just wrote, or any task of it, is re-reading).
 */
export function trackResult(tools: ToolTable, track: ReplyTrack, message: UnknownRecord, list = ""): ReplyTrack {
  const id = message.toolCallId;
  const call = typeof id === "string" && id !== "" ? track.calls.find((pending) => pending.id === id) : undefined;
  const failed = failedResult(message);
  const result = resultHash(message.content, failed);
  if (!call) {
    // A result whose call is not on the branch: the loop cannot tell what it did.
    const name = typeof message.toolName === "string" ? message.toolName : "";
    return { ...track, progress: true, running: foldFingerprint(track.running, callResultPart(name, "?", failed, result)) };
  }
  // The result is part of the fingerprint (0.4): polling that gets a new answer each time is no repeat.
  const running = foldFingerprint(track.running, callResultPart(call.name, call.args, failed, result));
  let progress: boolean;
  let readKeys = track.readKeys;
  let runKeys = track.runKeys;
  const todo = tools.todoTools.has(call.name);
  if (call.name === "codemode") {
    progress = codemodeProgress(tools, message);
  } else if (todo && tools.readsOnly(call.name, call.args)) {
    // A changed list is news; so is a task read by an id not read before under this message (exploring).
    const target = todoTarget(call.args);
    const key = target === undefined ? undefined : readKey(call.name, target);
    const explored = key !== undefined && !readKeys.includes(key);
    if (explored && !failed) readKeys = remember(readKeys, key);
    progress = !failed && (track.todoSeen !== list || explored);
  } else if (tools.readsOnly(call.name, call.args)) {
    const key = readKey(call.name, call.args);
    progress = !readKeys.includes(key);
    if (progress) readKeys = remember(readKeys, key);
  } else {
    // Anything else ran and may have changed something; a failed write or todo change changed nothing,
    // and the same call with the same result as before under this message is a re-run: nothing new (0.4).
    const key = runKey(call.name, call.args, result);
    const rerun = runKeys.includes(key);
    if (!rerun) runKeys = remember(runKeys, key);
    progress = !rerun && !(failed && (WRITERS.has(call.name) || todo));
  }
  const todoSeen = todo && !failed ? list : track.todoSeen;
  return { ...track, progress: track.progress || progress, running, readKeys, runKeys, todoSeen };
}
