/**
 * Criogaid/pi-todos. 0.1.0: a `todo` tool that replaces the whole list each call (`details.todos` of
 * `{ content, status, activeForm? }`, no ids, no `nextId`; `[]` clears). The unreleased version: tools
 * TaskCreate/TaskUpdate/… with the list in `pi-todos-tasks` custom entries.
 */
import type { SessionEntryLike, ToolResultLike } from "../pi.ts";
import { customData, idText, isRecord, readItems, successfulResult, successfulToolResult } from "./types.ts";
import type { CallKind, Task, TodoList, TodoSource } from "./types.ts";

const OPEN = new Set(["pending", "in_progress"]);
const STATUSES = new Set(["pending", "in_progress", "completed"]);

function readTodo(item: unknown, index: number): Task | undefined {
  if (!isRecord(item)) return undefined;
  const { content, status, activeForm } = item;
  if (typeof content !== "string" || typeof status !== "string" || !STATUSES.has(status)) return undefined;
  if (activeForm !== undefined && typeof activeForm !== "string") return undefined;
  // No ids in this shape, and items carry exactly these keys; anything more is another tool's.
  if (Object.keys(item).some((key) => key !== "content" && key !== "status" && key !== "activeForm")) return undefined;
  return { id: `#${index + 1}`, text: content, status, open: OPEN.has(status) };
}

export const criogaidPiTodos: TodoSource = {
  id: "criogaid-pi-todos",
  label: "pi-todos 0.1",
  toolNames: ["todo"],
  resultsCarryList: true,
  stateTypes: [],
  read(entry: SessionEntryLike): TodoList | undefined {
    const result = successfulToolResult(entry);
    if (!result || result.toolName !== "todo" || "nextId" in result.details) return undefined;
    const tasks = readItems(result.details.todos, readTodo);
    return tasks && { source: "criogaid-pi-todos", tool: "todo", tasks };
  },
  classify(result: ToolResultLike): CallKind | undefined {
    const ok = successfulResult(result);
    if (!ok || ok.toolName !== "todo" || "nextId" in ok.details) return undefined;
    return readItems(ok.details.todos, readTodo) ? "unlabelled" : undefined;
  },
};

const TASK_STATUSES = new Set(["pending", "in_progress", "completed", "deleted"]);

function readTask(item: unknown): Task | null | undefined {
  if (!isRecord(item)) return undefined;
  const id = idText(item.id);
  const { subject, status } = item;
  if (id === undefined || typeof subject !== "string" || typeof status !== "string" || !TASK_STATUSES.has(status)) return undefined;
  if (status === "deleted") return null;
  return { id, text: subject, status, open: OPEN.has(status) };
}

export const criogaidPiTodosTasks: TodoSource = {
  id: "criogaid-pi-todos-tasks",
  label: "pi-todos tasks",
  toolNames: ["TaskCreate", "TaskUpdate", "TaskGet", "TaskList"],
  resultsCarryList: false,
  stateTypes: ["pi-todos-tasks"],
  read(entry: SessionEntryLike): TodoList | undefined {
    const state = customData(entry, "pi-todos-tasks");
    if (!state || !isRecord(state.data) || state.data.version !== 1) return undefined;
    const tasks = readItems(state.data.tasks, readTask);
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
};
