/**
 * @tintinweb/pi-tasks (GitHub tintinweb/pi-tasks, 0.7.x–0.8.x and the unreleased path move after 0.8.0):
 * tools TaskCreate, TaskCreateMany, TaskGet, TaskList and TaskUpdate whose results carry no `details`.
 * The list lives in a JSON file, not on the session branch: `{ nextId, tasks: [{ id, subject,
 * description, status, metadata, blocks, blockedBy, createdAt, updatedAt, … }] }`.
 *
 * So the branch adapter recognises no entry (the same tool names belong to Criogaid's task tools, whose
 * results do carry details: shape decides), and the list is read from the file by `readTasksFile`:
 * read-only, and not branch-aware (one file per session, whatever branch the session is on).
 *
 * Where the file is (newest layout first, then the 0.7.x one):
 * - `PI_TASKS=off`: nowhere (in memory). `PI_TASKS=/abs/path` or `./rel/path` (from the workspace):
 *   that file. `PI_TASKS=<name>`: `<agentDir>/tasks/<name>.json`, else the older `~/.pi/tasks/<name>.json`.
 * - otherwise `taskScope` from `<agentDir>/tasks-config.json`, overridden key by key by
 *   `<cwd>/.pi/tasks-config.json`: `memory` → nowhere; `session` (default) →
 *   `<agentDir>/tasks/sessions/--<cwd with / \ : as ->--/tasks-<sessionId>.json`, else
 *   `<cwd>/.pi/tasks/tasks-<sessionId>.json`; any other value (`project`) → `<cwd>/.pi/tasks/tasks.json`.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { idText, readItems, readsByName } from "./types.ts";
import { isRecord } from "../core/record.ts";
import type { CallKind } from "../core/types.ts";
import type { Task, TodoList, TodoSource } from "./types.ts";

const TOOL_NAMES = ["TaskCreate", "TaskCreateMany", "TaskGet", "TaskList", "TaskUpdate"] as const;
const TOOLS: ReadonlySet<string> = new Set(TOOL_NAMES);

/** `skipped` is shown (and counts as resolved) by its UI; the types name the other three. */
const STATUS_OPEN: ReadonlyMap<string, boolean> = new Map([
  ["pending", true],
  ["in_progress", true],
  ["completed", false],
  ["skipped", false],
]);

function optionalType(value: unknown, type: "string" | "number"): boolean {
  return value === undefined || typeof value === type;
}

function isStringList(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.every((item) => typeof item === "string"));
}

function readTask(item: unknown): Task | undefined {
  if (!isRecord(item)) return undefined;
  const id = idText(item.id);
  const { subject, status } = item;
  if (id === undefined || typeof subject !== "string" || typeof status !== "string") return undefined;
  const open = STATUS_OPEN.get(status);
  if (open === undefined) return undefined;
  // Files written before dependencies and metadata existed lack those fields; the tool fills them in.
  if (!optionalType(item.description, "string") || !optionalType(item.activeForm, "string") || !optionalType(item.owner, "string")) return undefined;
  if (!isStringList(item.blocks) || !isStringList(item.blockedBy)) return undefined;
  if (item.metadata !== undefined && !isRecord(item.metadata)) return undefined;
  if (!optionalType(item.createdAt, "number") || !optionalType(item.updatedAt, "number")) return undefined;
  return { id, text: subject, status, open };
}

function list(tasks: readonly Task[]): TodoList {
  return { source: "tintinweb-pi-tasks", tool: "TaskUpdate", tasks };
}

/** The list a task file holds, or "unreadable" for anything that is not such a file (never throws). */
export function parseTasksFile(text: string): TodoList | "unreadable" {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return "unreadable";
  }
  if (!isRecord(data) || (data.nextId !== undefined && typeof data.nextId !== "number")) return "unreadable";
  const tasks = readItems(data.tasks, readTask);
  return tasks ? list(tasks) : "unreadable";
}

export const tintinwebPiTasks: TodoSource = {
  id: "tintinweb-pi-tasks",
  label: "@tintinweb/pi-tasks",
  toolNames: TOOL_NAMES,
  resultsCarryList: false,
  stateTypes: [],
  /** Nothing on the branch is this tool's list: it keeps it in a file (`readTasksFile`). */
  read(_entry: SessionEntryLike): TodoList | undefined {
    return undefined;
  },
  /** Its results carry no details, so what a call did cannot be told from them. */
  classify(result: ToolResultLike): CallKind | undefined {
    if (!isRecord(result) || result.isError === true || typeof result.toolName !== "string" || !TOOLS.has(result.toolName)) return undefined;
    const { details } = result;
    return details === undefined || (isRecord(details) && Object.keys(details).length === 0) ? "unlabelled" : undefined;
  },
  readOnly: readsByName(["TaskGet", "TaskList"]),
};
