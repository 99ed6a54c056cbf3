/**
 * @zhushanwen/pi-todo (GitHub zhushanwen321/xyz-pi-extensions, extensions/todo, 0.1.x–0.4.x): a `todo`
 * tool whose every result carries the full list as `details.todos` of `{ id, text, status }` with a
 * numeric `nextId`. The same outer shape as pi's example `todo`, whose items have `done` instead of
 * `status`: shape decides. Statuses the tool migrates on load (`verifying`, `failed`, `done: boolean`)
 * are read the way it reads them; `cancelled` is closed; any other status is not this shape.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { idText, readItems, successfulResult, successfulToolResult, readsByAction } from "./types.ts";
import { isRecord } from "../core/record.ts";
import type { CallKind } from "../core/types.ts";
import type { Task, TodoList, TodoSource } from "./types.ts";
import type { UnknownRecord } from "../core/record.ts";

/** Every status any release wrote, and whether the tool treats it as unfinished. */
const STATUS_OPEN: ReadonlyMap<string, boolean> = new Map([
  ["pending", true],
  ["in_progress", true],
  // 0.1.x states: the tool maps verifying → in_progress and failed → pending when it loads them.
  ["verifying", true],
  ["failed", true],
  ["completed", false],
  // 0.3.0 and later: terminal, cannot be reopened.
  ["cancelled", false],
]);

const ACTIONS = new Set(["list", "add", "update", "delete", "clear"]);
/** Actions pi's example `todo` does not have: an empty list they leave is this tool's. */
const OWN_ACTIONS = new Set(["update", "delete"]);

interface Item {
  readonly task: Task;
  /** Whether the item carried a `status` (legacy items carry only `done`). */
  readonly hasStatus: boolean;
}

function optional(value: unknown, type: "string" | "number" | "boolean"): boolean {
  return value === undefined || typeof value === type;
}

function readItem(item: unknown): Item | undefined {
  if (!isRecord(item)) return undefined;
  const { id, text, status, done } = item;
  if (typeof id !== "number" || !Number.isInteger(id) || typeof text !== "string") return undefined;
  if (!optional(done, "boolean") || !optional(item.isVerification, "boolean")) return undefined;
  // 0.1.x verification fields.
  if (!optional(item.verifyText, "string") || !optional(item.verifyAttempts, "number") || !optional(item.evidence, "string")) return undefined;
  if (status === undefined) {
    if (typeof done !== "boolean") return undefined;
    return { task: { id: String(id), text, status: done ? "completed" : "pending", open: !done }, hasStatus: false };
  }
  if (typeof status !== "string") return undefined;
  const open = STATUS_OPEN.get(status);
  if (open === undefined) return undefined;
  return { task: { id: idText(id) ?? String(id), text, status, open }, hasStatus: true };
}

/** The list in a result's details, or undefined when they are not this tool's shape. */
function readState(details: UnknownRecord): readonly Task[] | undefined {
  if (typeof details.nextId !== "number") return undefined;
  if (details.action !== undefined && (typeof details.action !== "string" || !ACTIONS.has(details.action))) return undefined;
  const items = readItems(details.todos, readItem);
  if (!items) return undefined;
  // A list in which no item has a status (all `done`, or none at all) is pi's example's shape, unless an
  // action only this tool has emptied it, or it carries this tool's rendering (`__gui__` in RPC mode, `_render` in 0.2).
  const rendered = details.__gui__ !== undefined || details._render !== undefined;
  const own = items.some((item) => item.hasStatus) || (items.length === 0 && (rendered || OWN_ACTIONS.has(String(details.action))));
  return own ? items.map((item) => item.task) : undefined;
}

function classifyAction(action: unknown): CallKind {
  if (action === "delete") return "delete";
  if (action === "clear") return "clear";
  // The results carry no call arguments, so an update cannot be told from a completion.
  return typeof action === "string" ? "other" : "unlabelled";
}

export const zhushanwenPiTodo: TodoSource = {
  id: "zhushanwen-pi-todo",
  label: "@zhushanwen/pi-todo",
  toolNames: ["todo"],
  resultsCarryList: true,
  stateTypes: [],
  read(entry: SessionEntryLike): TodoList | undefined {
    const result = successfulToolResult(entry);
    if (!result || result.toolName !== "todo") return undefined;
    const tasks = readState(result.details);
    return tasks && { source: "zhushanwen-pi-todo", tool: "todo", tasks };
  },
  classify(result: ToolResultLike): CallKind | undefined {
    const ok = successfulResult(result);
    if (!ok || ok.toolName !== "todo" || readState(ok.details) === undefined) return undefined;
    return classifyAction(ok.details.action);
  },
  readOnly: readsByAction("todo", ["list"]),
};
