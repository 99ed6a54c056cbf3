/**
 * Every todo source this extension reads, in the order they are tried. Shape decides, never the tool
 * name alone: five different tools are all called `todo`, and two task-tool families share TaskCreate,
 * TaskUpdate and the rest. Adding a source: one adapter file, one line here.
 */
import { criogaidPiTodos, criogaidPiTodosTasks } from "./criogaid-pi-todos.ts";
import { ianPascoePiTodo } from "./ian-pascoe-pi-todo.ts";
import { piExampleTodo } from "./pi-example-todo.ts";
import { planMode } from "./plan-mode.ts";
import { quangthaiPiTodo } from "./quangthai-pi-todo.ts";
import { rpivTodo } from "./rpiv-todo.ts";
import { tintinwebPiTasks } from "./tintinweb-pi-tasks.ts";
import { zhushanwenPiTodo } from "./zhushanwen-pi-todo.ts";
import type { SourceId } from "../core/types.ts";
import { READ_ONLY_TOOLS } from "../core/tools.ts";
import type { ToolTable } from "../core/tools.ts";
import type { TodoSource } from "./types.ts";

export type { CallKind, SourceId } from "../core/types.ts";
export type { Task, TodoList, TodoSource } from "./types.ts";
export { parseTasksFile } from "./tintinweb-pi-tasks.ts";

export const SOURCES: readonly TodoSource[] = [
  rpivTodo,
  ianPascoePiTodo,
  piExampleTodo,
  quangthaiPiTodo,
  criogaidPiTodos,
  criogaidPiTodosTasks,
  zhushanwenPiTodo,
  planMode,
  tintinwebPiTasks,
];

/** Every tool name a known todo source registers. */
export const TODO_TOOL_NAMES: ReadonlySet<string> = new Set(SOURCES.flatMap((source) => source.toolNames));

export function sourceLabel(id: SourceId): string {
  return sourceOf(id)?.label ?? id;
}

const BY_ID: ReadonlyMap<SourceId, TodoSource> = new Map(SOURCES.map((source) => [source.id, source]));

/** The adapter of a source id. */
export function sourceOf(id: SourceId): TodoSource | undefined {
  return BY_ID.get(id);
}

/** The one table of read-only calls: pi's reading tools and the block tool, and each adapter's own reads. */
export const TOOL_TABLE: ToolTable = {
  todoTools: TODO_TOOL_NAMES,
  readsOnly: (name, args) => READ_ONLY_TOOLS.has(name) || SOURCES.some((source) => source.readOnly?.(name, args) === true),
};
