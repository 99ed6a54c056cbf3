/**
 * The branch reader: turns the session branch (root → leaf) into a snapshot of what the loop needs —
 * the newest todo list and its source, the anchor (newest human message), the spend since it, and the
 * loop's own footprints since it (markers, the block tool's result, stop records).
 *
 * One forward fold serves both reads: a full read walks back from the leaf only as far as the newest
 * list state at or before the anchor and folds forward from there; an incremental read folds just the
 * entries appended since the last read. Never throws on any input.
 */
import type { SessionEntryLike, SessionManagerLike } from "./pi.ts";
import { SOURCES, TODO_TOOL_NAMES } from "./sources/index.ts";
import type { TodoList } from "./sources/index.ts";
import type { ListState } from "./loop.ts";
import { isRecord } from "./sources/types.ts";

export const MARKER_TYPE = "todo-loop:continue";
export const STOP_TYPE = "todo-loop:stop";
export const BLOCK_TOOL = "todo_loop_block";

export interface Snapshot {
  /** The newest recognised todo state; `tasks: []` when cleared. Undefined when none is on the branch. */
  readonly list: TodoList | undefined;
  /** The list as it stood when the newest assistant message was written (before that turn's tool calls). */
  readonly listAtLastReply: TodoList | undefined;
  /** Id of the newest human message; "" when there is none. */
  readonly anchor: string;
  /** Tokens and dollars of assistant messages since the anchor. */
  readonly tokens: number;
  readonly cost: number;
  /** Round recorded by the newest marker since the anchor (0 when none). */
  readonly round: number;
  /** Reason of the newest `todo_loop_block` call since the anchor. */
  readonly waiting: string | undefined;
  /** Whether a list with tasks was on the branch at any point since the anchor. */
  readonly hadList: boolean;
  /** Reason of the newest stop record since the anchor. */
  readonly lastStop: string | undefined;
  /** Results of a known todo tool name were seen (only complete when `list` is undefined). */
  readonly todoToolUsed: boolean;
  /** Some of those results were in a shape no adapter reads (only complete when `list` is undefined). */
  readonly unreadTodoResults: boolean;
  /** Number of entries on the branch. */
  readonly length: number;
}

export const EMPTY_SNAPSHOT: Snapshot = {
  list: undefined,
  listAtLastReply: undefined,
  anchor: "",
  tokens: 0,
  cost: 0,
  round: 0,
  waiting: undefined,
  hadList: false,
  lastStop: undefined,
  todoToolUsed: false,
  unreadTodoResults: false,
  length: 0,
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The list an entry persists, from the first source that recognises it. */
export function readList(entry: unknown): TodoList | undefined {
  if (!isRecord(entry)) return undefined;
  for (const source of SOURCES) {
    const list = source.read(entry);
    if (list) return list;
  }
  return undefined;
}

function messageOf(entry: SessionEntryLike): { readonly [key: string]: unknown } | undefined {
  if (entry.type !== "message" || !isRecord(entry.message)) return undefined;
  return entry.message;
}

function isHumanMessage(entry: unknown): entry is SessionEntryLike {
  return isRecord(entry) && messageOf(entry)?.role === "user";
}

function finite(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function usageOf(message: { readonly [key: string]: unknown }): { tokens: number; cost: number } {
  const usage = message.usage;
  if (!isRecord(usage)) return { tokens: 0, cost: 0 };
  const total = finite(usage.totalTokens);
  const tokens = total || finite(usage.input) + finite(usage.output) + finite(usage.cacheRead) + finite(usage.cacheWrite);
  const cost = isRecord(usage.cost) ? finite(usage.cost.total) : 0;
  return { tokens, cost };
}

function blockReason(message: { readonly [key: string]: unknown }): string | undefined {
  if (message.toolName !== BLOCK_TOOL || message.isError === true) return undefined;
  const details = message.details;
  if (!isRecord(details) || details.waiting !== true || typeof details.reason !== "string") return undefined;
  return details.reason;
}

/** Folds one entry (at branch position `index`) into the state. */
function fold(state: Mutable<Snapshot>, raw: unknown, index: number): void {
  state.length = index + 1;
  if (!isRecord(raw)) return;
  const entry: SessionEntryLike = raw;
  const message = messageOf(entry);
  if (message) {
    if (message.role === "user") {
      state.anchor = typeof entry.id === "string" && entry.id !== "" ? entry.id : `#${index}`;
      state.tokens = 0;
      state.cost = 0;
      state.round = 0;
      state.waiting = undefined;
      state.lastStop = undefined;
      state.hadList = (state.list?.tasks.length ?? 0) > 0;
      return;
    }
    if (message.role === "assistant") {
      const spent = usageOf(message);
      state.tokens += spent.tokens;
      state.cost += spent.cost;
      state.listAtLastReply = state.list;
      return;
    }
    if (message.role === "toolResult") {
      const reason = blockReason(message);
      if (reason !== undefined) state.waiting = reason;
      if (typeof message.toolName === "string" && TODO_TOOL_NAMES.has(message.toolName) && message.isError !== true) {
        state.todoToolUsed = true;
        if (!readList(entry)) state.unreadTodoResults = true;
      }
    }
  } else if (entry.type === "custom_message" && entry.customType === MARKER_TYPE) {
    const details = entry.details;
    const round = isRecord(details) && typeof details.round === "number" && Number.isInteger(details.round) && details.round >= 0
      ? details.round
      : state.round + 1;
    state.round = round;
    // The loop only continues once a wait is over: a marker after the block result means it was lifted.
    state.waiting = undefined;
    return;
  } else if (entry.type === "custom" && entry.customType === STOP_TYPE) {
    if (isRecord(entry.data) && typeof entry.data.reason === "string") state.lastStop = entry.data.reason;
    return;
  }
  const list = readList(entry);
  if (list) {
    state.list = list;
    if (list.tasks.length > 0) state.hadList = true;
  }
}

/**
 * Reads a whole branch (root → leaf). Walks back from the leaf to the anchor and on to the newest list
 * state at or before it, then folds forward from there.
 */
export function readSnapshot(branch: readonly unknown[]): Snapshot {
  if (!Array.isArray(branch)) return EMPTY_SNAPSHOT;
  let start = 0;
  let anchorFound = false;
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (!anchorFound && isHumanMessage(entry)) anchorFound = true;
    else if (anchorFound && readList(entry)) {
      start = index;
      break;
    }
  }
  const state: Mutable<Snapshot> = { ...EMPTY_SNAPSHOT };
  for (let index = start; index < branch.length; index++) fold(state, branch[index], index);
  state.length = branch.length;
  return state;
}

/** Folds entries appended after `previous` (in root → leaf order). */
export function extendSnapshot(previous: Snapshot, appended: readonly unknown[]): Snapshot {
  const state: Mutable<Snapshot> = { ...previous };
  for (let offset = 0; offset < appended.length; offset++) fold(state, appended[offset], previous.length + offset);
  return state;
}

/** How the branch relates to the one the reader saw last. */
export type BranchChange = "first" | "same" | "appended" | "switched";

export interface BranchRead {
  readonly snapshot: Snapshot;
  readonly change: BranchChange;
}

export interface BranchReader {
  read(session: SessionManagerLike): BranchRead;
}

/** How far an incremental read walks back before it settles for a full read. */
const MAX_INCREMENTAL_WALK = 10_000;

function entryId(entry: unknown): string | undefined {
  return isRecord(entry) && typeof entry.id === "string" ? entry.id : undefined;
}

/**
 * A reader that remembers where its last read ended (the leaf id and the snapshot) and folds only the
 * entries appended since, walking `getEntry(parentId)` back from the new leaf. When the remembered leaf
 * is not an ancestor (a `/tree` move, a fork, another session) it reads the whole branch again.
 * Retains one snapshot: O(1) in the session's length.
 */
export function createBranchReader(): BranchReader {
  let lastLeaf: string | undefined;
  let last: Snapshot | undefined;

  function incremental(session: SessionManagerLike, leaf: string): Snapshot | undefined {
    if (!last || lastLeaf === undefined || typeof session.getEntry !== "function") return undefined;
    const appended: unknown[] = [];
    let id: unknown = leaf;
    while (typeof id === "string" && appended.length <= MAX_INCREMENTAL_WALK) {
      if (id === lastLeaf) return extendSnapshot(last, appended.reverse());
      const entry = session.getEntry(id);
      if (!isRecord(entry)) return undefined;
      appended.push(entry);
      id = entry.parentId;
    }
    return undefined;
  }

  return {
    read(session) {
      const leaf = typeof session.getLeafId === "function" ? session.getLeafId() : undefined;
      if (typeof leaf === "string" && last && leaf === lastLeaf) return { snapshot: last, change: "same" };
      if (typeof leaf === "string") {
        const next = incremental(session, leaf);
        if (next) {
          lastLeaf = leaf;
          last = next;
          return { snapshot: next, change: "appended" };
        }
      }
      const branch = session.getBranch();
      const entries: readonly unknown[] = Array.isArray(branch) ? branch : [];
      let change: BranchChange = "first";
      if (lastLeaf !== undefined) {
        change = "switched";
        for (let index = entries.length - 1; index >= 0; index--) {
          if (entryId(entries[index]) === lastLeaf) {
            change = "appended";
            break;
          }
        }
      }
      last = readSnapshot(entries);
      lastLeaf = typeof leaf === "string" ? leaf : entryId(entries[entries.length - 1]);
      return { snapshot: last, change };
    },
  };
}

/** The task signature: id, status and text of every task, so any edit of the list is progress. */
export function signature(list: TodoList): string {
  return JSON.stringify(list.tasks.map((task) => [task.id, task.status, task.text]));
}

/** The list as the loop sees it, or why there is none. */
export function listState(snapshot: Snapshot, todoToolActive: boolean): ListState {
  const { list } = snapshot;
  if (list && list.tasks.length > 0) {
    const open = list.tasks.filter((task) => task.open).length;
    return { kind: "list", open, total: list.tasks.length, signature: signature(list), source: list.source, tool: list.tool };
  }
  if (list) return { kind: "none", why: "emptied" };
  if (snapshot.unreadTodoResults) return { kind: "none", why: "unreadable" };
  if (!todoToolActive && !snapshot.todoToolUsed) return { kind: "none", why: "no-tool" };
  return { kind: "none", why: "unused" };
}

/** Texts of tasks open in `before` that are no longer tasks in `now` (deleted or removed). */
export function vanishedTasks(before: TodoList | undefined, now: TodoList | undefined): string[] {
  if (!before) return [];
  const remaining = new Set((now?.tasks ?? []).map((task) => task.id));
  return before.tasks.filter((task) => task.open && !remaining.has(task.id)).map((task) => task.text);
}

/** Open tasks in a list (0 when there is none). */
export function openCount(list: TodoList | undefined): number {
  return list ? list.tasks.filter((task) => task.open).length : 0;
}
