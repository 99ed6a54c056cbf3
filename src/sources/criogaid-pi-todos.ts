/**
 * Criogaid/pi-todos. 0.1.0: a `todo` tool that replaces the whole list each call (`details.todos` of
 * `{ content, status, activeForm? }`, no ids, no `nextId`; `[]` clears). A later unreleased build of the
 * same tool also saves `pi-todos-snapshot` custom entries (`{ version: 1, toolCallId, todos }`). Because
 * every call sends the whole list, a `todo` call a codemode script made is readable from the script's
 * `nestedCalls` record too (its arguments are the list), as that build's own replay reads it.
 *
 * The newest source: tools TaskCreate/TaskGet/TaskList/TaskUpdate with the list in `pi-todos-tasks`
 * custom entries, saved before each write's result (also from codemode). Tasks whose
 * `metadata._internal` is true are bookkeeping the tool hides; they are not tasks here either.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { customData, readItems, successfulResult, successfulToolResult, readsByName } from "./types.ts";
import { isRecord } from "../core/record.ts";
import type { CallKind } from "../core/types.ts";
import type { Task, TodoList, TodoSource } from "./types.ts";

const OPEN = new Set(["pending", "in_progress"]);
const STATUSES = new Set(["pending", "in_progress", "completed"]);

function readTodo(item: unknown, index: number): Task | undefined {
  if (!isRecord(item)) return undefined;
  const { content, status, activeForm } = item;
  if (typeof content !== "string" || content.trim() === "" || typeof status !== "string" || !STATUSES.has(status)) return undefined;
  if (activeForm !== undefined && typeof activeForm !== "string") return undefined;
  // No ids in this shape, and items carry exactly these keys; anything more is another tool's.
  if (Object.keys(item).some((key) => key !== "content" && key !== "status" && key !== "activeForm")) return undefined;
  return { id: `#${index + 1}`, text: content, status, open: OPEN.has(status) };
}

function todoList(tasks: readonly Task[]): TodoList {
  return { source: "criogaid-pi-todos", tool: "todo", tasks };
}

/** A `todo` call's arguments as the tool stores them: content trimmed, a blank activeForm dropped. */
function readArguments(value: unknown): readonly Task[] | undefined {
  let args = value;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return undefined;
    }
  }
  if (!isRecord(args) || Object.keys(args).some((key) => key !== "todos") || !Array.isArray(args.todos)) return undefined;
  const trimmed = args.todos.map((item: unknown) => {
    if (!isRecord(item)) return item;
    const { activeForm, ...rest } = item;
    const out: { [key: string]: unknown } = { ...rest, content: typeof item.content === "string" ? item.content.trim() : item.content };
    if (typeof activeForm !== "string" || activeForm.trim() !== "") out.activeForm = typeof activeForm === "string" ? activeForm.trim() : activeForm;
    return out;
  });
  return readItems(trimmed, readTodo);
}

/**
 * The list the newest successful `todo` call in a tool result's complete `nestedCalls` record set (a
 * codemode script's calls). Undefined when there is none, or when the record is incomplete (a call or
 * its arguments may be missing: nothing can be trusted then).
 */
function readNestedCalls(entry: SessionEntryLike): readonly Task[] | undefined {
  if (entry.type !== "message" || !isRecord(entry.message) || entry.message.role !== "toolResult") return undefined;
  const record = entry.message.nestedCalls;
  if (!isRecord(record) || record.complete !== true || !Array.isArray(record.calls)) return undefined;
  let found: readonly Task[] | undefined;
  for (const call of record.calls) {
    if (!isRecord(call) || call.name !== "todo" || call.status !== "ok") continue;
    const tasks = readArguments(call.arguments);
    if (!tasks) return undefined;
    found = tasks;
  }
  return found;
}

function readSnapshot(entry: SessionEntryLike): readonly Task[] | undefined {
  const snapshot = customData(entry, "pi-todos-snapshot");
  if (!snapshot || !isRecord(snapshot.data)) return undefined;
  const { version, toolCallId, todos } = snapshot.data;
  if (version !== 1 || typeof toolCallId !== "string" || toolCallId.trim() === "") return undefined;
  return readItems(todos, readTodo);
}

export const criogaidPiTodos: TodoSource = {
  id: "criogaid-pi-todos",
  label: "pi-todos 0.1",
  toolNames: ["todo"],
  resultsCarryList: true,
  stateTypes: ["pi-todos-snapshot"],
  read(entry: SessionEntryLike): TodoList | undefined {
    const snapshot = readSnapshot(entry);
    if (snapshot) return todoList(snapshot);
    const nested = readNestedCalls(entry);
    if (nested) return todoList(nested);
    const result = successfulToolResult(entry);
    if (!result || result.toolName !== "todo" || "nextId" in result.details) return undefined;
    const tasks = readItems(result.details.todos, readTodo);
    return tasks && todoList(tasks);
  },
  classify(result: ToolResultLike): CallKind | undefined {
    const ok = successfulResult(result);
    if (!ok || ok.toolName !== "todo" || "nextId" in ok.details) return undefined;
    return readItems(ok.details.todos, readTodo) ? "unlabelled" : undefined;
  },
};

const TASK_STATUSES = new Set(["pending", "in_progress", "completed"]);
const TASK_ID = /^[1-9][0-9]*$/;

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * One task of a `pi-todos-tasks` snapshot, checked the way the tool's own decoder checks it (a deleted
 * task is removed, never saved, so `deleted` is no status here). Null for a hidden `_internal` task.
 */
function readTask(item: unknown, highWaterMark: number): Task | null | undefined {
  if (!isRecord(item)) return undefined;
  const { id, subject, description, status, activeForm, owner, blocks, blockedBy, metadata } = item;
  if (typeof id !== "string" || !TASK_ID.test(id) || Number(id) > highWaterMark) return undefined;
  if (typeof subject !== "string" || typeof description !== "string" || typeof status !== "string" || !TASK_STATUSES.has(status)) return undefined;
  if ((activeForm !== undefined && typeof activeForm !== "string") || (owner !== undefined && typeof owner !== "string")) return undefined;
  if (!isStringList(blocks) || !isStringList(blockedBy)) return undefined;
  if (metadata !== undefined && !isRecord(metadata)) return undefined;
  if (metadata !== undefined && metadata._internal === true) return null;
  return { id, text: subject, status, open: OPEN.has(status) };
}

function readTaskState(data: unknown): readonly Task[] | undefined {
  if (!isRecord(data) || data.version !== 1 || !Array.isArray(data.tasks)) return undefined;
  const { highWaterMark, toolCallId } = data;
  if (typeof highWaterMark !== "number" || !Number.isSafeInteger(highWaterMark) || highWaterMark < 0) return undefined;
  if (toolCallId !== undefined && typeof toolCallId !== "string") return undefined;
  const ids = new Set<unknown>();
  for (const item of data.tasks) {
    const id = isRecord(item) ? item.id : undefined;
    if (ids.has(id)) return undefined;
    ids.add(id);
  }
  return readItems(data.tasks, (item) => readTask(item, highWaterMark));
}

export const criogaidPiTodosTasks: TodoSource = {
  id: "criogaid-pi-todos-tasks",
  label: "pi-todos tasks",
  toolNames: ["TaskCreate", "TaskUpdate", "TaskGet", "TaskList"],
  resultsCarryList: false,
  stateTypes: ["pi-todos-tasks"],
  read(entry: SessionEntryLike): TodoList | undefined {
    const state = customData(entry, "pi-todos-tasks");
    if (!state) return undefined;
    const tasks = readTaskState(state.data);
    return tasks && { source: "criogaid-pi-todos-tasks", tool: "TaskUpdate", tasks };
  },
  classify(result: ToolResultLike): CallKind | undefined {
    const ok = successfulResult(result);
    if (!ok) return undefined;
    if (ok.toolName === "TaskUpdate") {
      const change = ok.details.statusChange;
      const to = isRecord(change) ? change.to : undefined;
      if (to === "deleted") return "delete";
      if (to === "completed") return "complete";
      return "other";
    }
    return ["TaskCreate", "TaskGet", "TaskList"].includes(ok.toolName) ? "other" : undefined;
  },
  readOnly: readsByName(["TaskGet", "TaskList"]),
};
