/**
 * pi's example `todo` extension (examples/extensions/todo.ts): the full list in every tool result as
 * `details.todos` of `{ id, text, done }` with a numeric `nextId`. Its actions are list, add, toggle and
 * clear; @zhushanwen/pi-todo has the same outer shape with `status` items, update/delete actions and
 * `__gui__`/`_render` renderings, so an item with a `status`, another action word or a rendering is not
 * this tool's.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { idText, readItems, successfulResult, successfulToolResult, readsByAction } from "./types.ts";
import { isRecord } from "../core/record.ts";
import type { CallKind } from "../core/types.ts";
import type { Task, TodoList, TodoSource } from "./types.ts";
import type { UnknownRecord } from "../core/record.ts";

const ACTIONS = new Set(["list", "add", "toggle", "clear"]);

function readTask(item: unknown): Task | undefined {
  if (!isRecord(item) || "status" in item) return undefined;
  const id = idText(item.id);
  const { text, done } = item;
  if (id === undefined || typeof text !== "string" || typeof done !== "boolean") return undefined;
  return { id, text, status: done ? "done" : "open", open: !done };
}

function readState(details: UnknownRecord): readonly Task[] | undefined {
  if (typeof details.nextId !== "number") return undefined;
  if (details.action !== undefined && details.action !== null && !ACTIONS.has(String(details.action))) return undefined;
  // @zhushanwen/pi-todo's renderings; this tool has none.
  if (details.__gui__ !== undefined || details._render !== undefined) return undefined;
  return readItems(details.todos, readTask);
}

export const piExampleTodo: TodoSource = {
  id: "pi-example-todo",
  label: "pi example todo",
  toolNames: ["todo"],
  resultsCarryList: true,
  stateTypes: [],
  read(entry: SessionEntryLike): TodoList | undefined {
    const result = successfulToolResult(entry);
    if (!result || result.toolName !== "todo") return undefined;
    const tasks = readState(result.details);
    return tasks && { source: "pi-example-todo", tool: "todo", tasks };
  },
  classify(result: ToolResultLike): CallKind | undefined {
    const ok = successfulResult(result);
    if (!ok || ok.toolName !== "todo" || readState(ok.details) === undefined) return undefined;
    const { action } = ok.details;
    if (action === "clear") return "clear";
    if (action === "toggle") return "complete";
    return typeof action === "string" ? "other" : "unlabelled";
  },
  readOnly: readsByAction("todo", ["list"]),
};
