/**
 * Helpers the source tests share: a list read down to its figures, every adapter's classification of one
 * message, a message entry's message, a plan-mode entry, the list a source last saw, zhushanwen items,
 * and the open-list and no-list samples of every source.
 */
import { SOURCES } from "../../src/sources/index.ts";
import type { TodoList } from "../../src/sources/index.ts";
import type { CallKind, SourceId } from "../../src/core/types.ts";
import { listState, readSnapshot } from "../../src/state.ts";
import { criogaidResult, criogaidTasksState, exampleResult, ianState, quangthaiState, task, todoResult, toolResult, chain as chainEntries, user as humanMessage } from "../builders.ts";
import type { Entry, Message } from "../builders.ts";

export function summary(list: TodoList | undefined): Array<[string, string, boolean]> | undefined {
  return list?.tasks.map((item) => [item.id, item.text, item.open]);
}

/** What the adapter chain makes of one tool result, as the pi adapter asks it. */
export function classifyAny(result: Message): CallKind | undefined {
  for (const source of SOURCES) {
    const kind = source.classify(result);
    if (kind) return kind;
  }
  return undefined;
}

export function messageOf(entry: Entry): Message {
  const message = entry.message;
  if (typeof message !== "object" || message === null || typeof (message as { role?: unknown }).role !== "string") throw new Error("not a message entry");
  return message as Message;
}

export function planEntry(data: unknown): Entry {
  return { type: "custom", customType: "plan-mode", data };
}

/** The list state the loop sees after these entries under one human message. */
export function seenList(...entries: Entry[]) {
  return listState(readSnapshot(chainEntries(humanMessage("go", { id: "u1" }), ...entries)), true);
}

/** A @zhushanwen/pi-todo result: the full list of `{ id, text, status }` items with a numeric nextId. */
export function zhushanwenTodos(todos: unknown[], action = "add", toolName = "todo"): Entry {
  return toolResult(toolName, { action, todos, nextId: todos.length + 1 });
}

/** One entry per source that keeps its list on the branch, reading as a list with open tasks (tintinweb's is in a file). */
export const OPEN_LIST: ReadonlyMap<SourceId, () => Entry> = new Map<SourceId, () => Entry>([
  ["rpiv-todo", () => todoResult({ tasks: [task({ id: 1, subject: "Write the parser" }), task({ id: 2, subject: "Write the tests" })] })],
  ["ian-pascoe-pi-todo", () => ianState([{ id: 1, title: "a", status: "pending" }, { id: 2, title: "b", status: "active" }])],
  ["pi-example-todo", () => exampleResult([{ id: 1, text: "a", done: false }, { id: 2, text: "b", done: false }])],
  ["quangthai-pi-todo", () => quangthaiState([{ content: "a", status: "pending" }, { content: "b", status: "in_progress" }])],
  ["criogaid-pi-todos", () => criogaidResult([{ content: "a", status: "pending" }, { content: "b", status: "pending" }])],
  ["criogaid-pi-todos-tasks", () => criogaidTasksState([{ id: "1", subject: "a", status: "pending" }, { id: "2", subject: "b", status: "in_progress" }])],
  ["zhushanwen-pi-todo", () => zhushanwenTodos([{ id: 1, text: "a", status: "pending" }, { id: 2, text: "b", status: "in_progress" }], "update")],
  ["plan-mode", () => planEntry({ enabled: false, executing: true, todos: [{ step: 1, text: "a", completed: false }, { step: 2, text: "b", completed: false }] })],
]);

/** Per source that can say it holds no list: the entries that say so, and its other states. */
export const NO_LIST: ReadonlyMap<SourceId, { none: readonly (() => Entry)[]; others: readonly (() => Entry)[] }> = new Map([
  ["plan-mode", {
    none: [() => planEntry({ enabled: false, todos: [], executing: false }), () => planEntry({ enabled: false })],
    others: [() => planEntry({ enabled: true, todos: [], executing: false }), () => planEntry({ enabled: false, executing: true, todos: [{ step: 1, text: "x", completed: false }] })],
  }],
]);
