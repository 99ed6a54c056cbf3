/**
 * @ian-pascoe/pi-todo: the list lives only in `pi-todo-state` custom entries (`{ nextId, tasks }`).
 * Its tool results carry just the affected task and are never read as the list.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { customData, idText, readItems, successfulResult, readsByAction } from "./types.ts";
import { isRecord } from "../core/record.ts";
import type { CallKind } from "../core/types.ts";
import type { Task, TodoList, TodoSource } from "./types.ts";

const OPEN = new Set(["pending", "active"]);
const STATUSES = new Set(["pending", "active", "completed"]);

function readTask(item: unknown): Task | undefined {
  if (!isRecord(item)) return undefined;
  const id = idText(item.id);
  const { title, status } = item;
  if (id === undefined || typeof title !== "string" || typeof status !== "string" || !STATUSES.has(status)) return undefined;
  return { id, text: title, status, open: OPEN.has(status) };
}

export const ianPascoePiTodo: TodoSource = {
  id: "ian-pascoe-pi-todo",
  label: "@ian-pascoe/pi-todo",
  toolNames: ["todo"],
  resultsCarryList: false,
  stateTypes: ["pi-todo-state"],
  read(entry: SessionEntryLike): TodoList | undefined {
    const state = customData(entry, "pi-todo-state");
    if (!state || !isRecord(state.data) || typeof state.data.nextId !== "number") return undefined;
    const tasks = readItems(state.data.tasks, readTask);
    return tasks && { source: "ian-pascoe-pi-todo", tool: "todo", tasks };
  },
  classify(result: ToolResultLike): CallKind | undefined {
    const ok = successfulResult(result);
    if (!ok || ok.toolName !== "todo") return undefined;
    const { action, task } = ok.details;
    if (action === "remove") return "delete";
    if (action === "clear") return "clear";
    if (action === "update") return isRecord(task) && task.status === "completed" ? "complete" : "other";
    if (action === "add" || action === "list") return "other";
    return undefined;
  },
  readOnly: readsByAction("todo", ["list"]),
};
