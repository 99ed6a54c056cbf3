/**
 * @juicesharp/rpiv-todo: the full list in every `todo` tool result (`details.tasks` + numeric `nextId`),
 * and in newer builds `rpiv-todo-state` custom entries (same data) and `rpiv-todo-clear` markers.
 * `deleted` tasks are tombstones; `deferred` is not open. The nredd fork (2.12.0 and later) adds batch
 * calls: `details.action: "batch"` with `params.ops: [{ action, … }]`, classified by their ops.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { customData, idText, readItems, successfulResult, successfulToolResult, readsByAction } from "./types.ts";
import { isRecord } from "../core/record.ts";
import type { CallKind } from "../core/types.ts";
import type { Task, TodoList, TodoSource } from "./types.ts";
import type { UnknownRecord } from "../core/record.ts";

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

/** What one operation did: only an update's target status closes or deletes (a create or list may carry a status too). */
function classifyOp(action: unknown, params: unknown): CallKind {
  const status = isRecord(params) ? params.status : undefined;
  if (action === "delete") return "delete";
  if (action === "clear") return "clear";
  if (action === "update" && status === "completed") return "complete";
  if (action === "update" && status === "deleted") return "delete";
  return typeof action === "string" ? "other" : "unlabelled";
}

/** A batch is what its ops did, the strongest first: a delete if one op deleted, else a clear, else a completion. */
function classifyBatch(params: unknown): CallKind {
  const ops = isRecord(params) && Array.isArray(params.ops) ? params.ops : [];
  const kinds = ops.map((op: unknown) => (isRecord(op) ? classifyOp(op.action, op) : "unlabelled"));
  for (const kind of ["delete", "clear", "complete"] as const) if (kinds.includes(kind)) return kind;
  return "other";
}

function classifyDetails(details: UnknownRecord): CallKind {
  const { action, params } = details;
  if (action === "batch") return classifyBatch(params);
  return classifyOp(action, params);
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
  readOnly: readsByAction("todo", ["list", "get"]),
};
