/**
 * @nguyenquangthai/pi-todo: `pi-todo.state` custom entries and the full list in write/update results
 * (`details.todos` of `{ id?, content, status, priority }`). A write of `[]` clears; results carry no
 * action, so a clear cannot be told from finishing.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { customData, idText, readItems, successfulResult, successfulToolResult, readsByName } from "./types.ts";
import { isRecord } from "../core/record.ts";
import type { CallKind } from "../core/types.ts";
import type { Task, TodoList, TodoSource } from "./types.ts";

const OPEN = new Set(["pending", "in_progress"]);
const STATUSES = new Set(["pending", "in_progress", "completed", "cancelled"]);
const WRITERS = new Set(["todo_write", "todowrite", "todo_update"]);

function readTask(item: unknown, index: number): Task | undefined {
  if (!isRecord(item)) return undefined;
  const { content, status, priority } = item;
  if (typeof content !== "string" || typeof status !== "string" || !STATUSES.has(status)) return undefined;
  if (priority !== undefined && typeof priority !== "string") return undefined;
  const id = item.id === undefined ? `#${index + 1}` : idText(item.id);
  return id === undefined ? undefined : { id, text: content, status, open: OPEN.has(status) };
}

function readTodos(data: unknown): readonly Task[] | undefined {
  return isRecord(data) ? readItems(data.todos, readTask) : undefined;
}

/** Older releases named the tools todowrite/todoread; the nudge names the family that wrote the list. */
function toolFor(toolName: string): string {
  return toolName === "todowrite" ? "todowrite" : "todo_write";
}

export const quangthaiPiTodo: TodoSource = {
  id: "quangthai-pi-todo",
  label: "@nguyenquangthai/pi-todo",
  toolNames: ["todo_write", "todo_update", "todo_read", "todowrite", "todoread"],
  resultsCarryList: false,
  stateTypes: ["pi-todo.state"],
  read(entry: SessionEntryLike): TodoList | undefined {
    const state = customData(entry, "pi-todo.state");
    if (state) {
      const tasks = readTodos(state.data);
      return tasks && { source: "quangthai-pi-todo", tool: "todo_write", tasks };
    }
    const result = successfulToolResult(entry);
    if (!result || !WRITERS.has(result.toolName)) return undefined;
    const tasks = readTodos(result.details);
    return tasks && { source: "quangthai-pi-todo", tool: toolFor(result.toolName), tasks };
  },
  classify(result: ToolResultLike): CallKind | undefined {
    const ok = successfulResult(result);
    if (!ok || !WRITERS.has(ok.toolName) || readTodos(ok.details) === undefined) return undefined;
    return "unlabelled";
  },
  readOnly: readsByName(["todo_read", "todoread"]),
};
