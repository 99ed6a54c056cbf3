/**
 * @juicesharp/rpiv-todo: the full list in every `todo` tool result (`details.tasks` + numeric `nextId`),
 * and in newer builds `rpiv-todo-state` custom entries (same data) and `rpiv-todo-clear` markers.
 * `deleted` tasks are tombstones; `deferred` is not open.
 */
import type { SessionEntryLike, ToolResultLike } from "../pi.ts";
import { customData, idText, isRecord, readItems, successfulResult, successfulToolResult } from "./types.ts";
import type { CallKind, Task, TodoList, TodoSource, UnknownRecord } from "./types.ts";

const OPEN = new Set(["pending", "in_progress"]);
const STATUSES = new Set(["pending", "in_progress", "completed", "deleted", "deferred"]);

function readTask(item: unknown): Task | null | undefined {
  if (!isRecord(item)) return undefined;
  const id = idText(item.id);
  const { subject, status } = item;
  if (id === undefined || typeof subject !== "string" || typeof status !== "string" || !STATUSES.has(status)) return undefined;
  if (status === "deleted") return null;
  return { id, text: subject, status, open: OPEN.has(status) };
}

function readState(data: unknown): readonly Task[] | undefined {
  if (!isRecord(data) || typeof data.nextId !== "number") return undefined;
  return readItems(data.tasks, readTask);
}

function list(tasks: readonly Task[]): TodoList {
  return { source: "rpiv-todo", tool: "todo", tasks };
}

function classifyDetails(details: UnknownRecord): CallKind {
  const { action, params } = details;
  if (action === "delete") return "delete";
  if (action === "clear") return "clear";
  if (action === "update" && isRecord(params) && params.status === "completed") return "complete";
  if (action === "update" && isRecord(params) && params.status === "deleted") return "delete";
  return typeof action === "string" ? "other" : "unlabelled";
}

export const rpivTodo: TodoSource = {
  id: "rpiv-todo",
  label: "rpiv-todo",
  toolNames: ["todo"],
  resultsCarryList: true,
  stateTypes: ["rpiv-todo-state", "rpiv-todo-clear"],
  read(entry: SessionEntryLike): TodoList | undefined {
    if (customData(entry, "rpiv-todo-clear")) return list([]);
    const state = customData(entry, "rpiv-todo-state");
    if (state) {
      const tasks = readState(state.data);
      return tasks && list(tasks);
    }
    const result = successfulToolResult(entry);
    if (!result || result.toolName !== "todo") return undefined;
    const tasks = readState(result.details);
    return tasks && list(tasks);
  },
  classify(result: ToolResultLike): CallKind | undefined {
    const ok = successfulResult(result);
    if (!ok || ok.toolName !== "todo" || readState(ok.details) === undefined) return undefined;
    return classifyDetails(ok.details);
  },
};
