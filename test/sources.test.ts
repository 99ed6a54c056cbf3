/**
 * The todo-source adapters (SPEC §9, TODO-SHAPES.md): each one's reading and classifying of its own
 * shapes, the shared guards they use, and the rule that shape decides, never the tool name alone.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { criogaidPiTodos, criogaidPiTodosTasks } from "../src/sources/criogaid-pi-todos.ts";
import { ianPascoePiTodo } from "../src/sources/ian-pascoe-pi-todo.ts";
import { SOURCES, sourceLabel, TODO_TOOL_NAMES } from "../src/sources/index.ts";
import type { CallKind, SourceId } from "../src/core/types.ts";
import type { TodoList } from "../src/sources/index.ts";
import { piExampleTodo } from "../src/sources/pi-example-todo.ts";
import { quangthaiPiTodo } from "../src/sources/quangthai-pi-todo.ts";
import { rpivTodo } from "../src/sources/rpiv-todo.ts";
import { applyPlanReply, doneSteps, planMode, saysPlanComplete } from "../src/sources/plan-mode.ts";
import { parseTasksFile, tintinwebPiTasks } from "../src/sources/tintinweb-pi-tasks.ts";
import { projectKey, readTasksFile as readTasksText, tasksFileCandidates } from "../src/io/tasks-file.ts";
import type { TasksFileWhere } from "../src/io/tasks-file.ts";

const readTasksFile = (where: TasksFileWhere) => readTasksText(where, parseTasksFile);
import { zhushanwenPiTodo } from "../src/sources/zhushanwen-pi-todo.ts";
import { parseTasksFile as exportedParseTasksFile } from "../src/sources/index.ts";
import { customData, idText, readItems, successfulResult, successfulToolResult } from "../src/sources/types.ts";
import { isRecord } from "../src/core/record.ts";
import { readList } from "../src/state.ts";
import {
  criogaidResult,
  criogaidTasksState,
  entriesOf,
  exampleResult,
  FIXTURES_DIR,
  ianState,
  quangthaiResult,
  quangthaiState,
  rpivClear,
  rpivDetails,
  rpivState,
  task,
  todoResult,
  toolResult,
  toolResultMessage,
} from "./builders.ts";
import type { Entry, Message } from "./builders.ts";

function summary(list: TodoList | undefined): Array<[string, string, boolean]> | undefined {
  return list?.tasks.map((item) => [item.id, item.text, item.open]);
}

/** What the adapter chain makes of one tool result, as the pi adapter asks it. */
function classifyAny(result: Message): CallKind | undefined {
  for (const source of SOURCES) {
    const kind = source.classify(result);
    if (kind) return kind;
  }
  return undefined;
}

function messageOf(entry: Entry): Message {
  const message = entry.message;
  if (typeof message !== "object" || message === null || typeof (message as { role?: unknown }).role !== "string") throw new Error("not a message entry");
  return message as Message;
}

// ---- shared guards --------------------------------------------------------------------------------

test("isRecord: plain objects only (not null, arrays or primitives)", () => {
  assert.equal(isRecord({}), true);
  assert.equal(isRecord({ a: 1 }), true);
  for (const value of [null, undefined, [], [1], "x", 1, true]) assert.equal(isRecord(value), false);
});

test("successfulResult: errored calls, rejected calls and junk are never state", () => {
  assert.deepEqual(successfulResult({ toolName: "todo", details: { a: 1 } }), { toolName: "todo", details: { a: 1 } });
  assert.equal(successfulResult({ toolName: "todo", details: { a: 1 }, isError: true }), undefined);
  assert.equal(successfulResult({ toolName: "todo", details: { error: "#9 not found" } }), undefined);
  assert.equal(successfulResult({ toolName: "todo", details: { success: false } }), undefined);
  assert.equal(successfulResult({ toolName: 5, details: {} }), undefined);
  assert.equal(successfulResult({ toolName: "todo", details: [] }), undefined);
  assert.equal(successfulResult({ toolName: "todo" }), undefined);
});

test("successfulResult: an absent, null or false error field is not an error", () => {
  assert.ok(successfulResult({ toolName: "todo", details: { error: null } }));
  assert.ok(successfulResult({ toolName: "todo", details: { error: false } }));
  assert.ok(successfulResult({ toolName: "todo", details: { success: true } }));
});

test("successfulToolResult: only a message entry whose message is a tool result", () => {
  assert.ok(successfulToolResult(toolResult("todo", { a: 1 })));
  assert.equal(successfulToolResult({ type: "custom", message: toolResultMessage("todo", { a: 1 }) }), undefined);
  assert.equal(successfulToolResult({ type: "message", message: { role: "assistant", toolName: "todo", details: {} } }), undefined);
  assert.equal(successfulToolResult({ type: "message", message: null }), undefined);
});

test("customData: the data of a custom entry of the given type only", () => {
  assert.deepEqual(customData({ type: "custom", customType: "x", data: 1 }, "x"), { data: 1 });
  assert.deepEqual(customData({ type: "custom", customType: "x" }, "x"), { data: undefined });
  assert.equal(customData({ type: "custom", customType: "y", data: 1 }, "x"), undefined);
  assert.equal(customData({ type: "custom_message", customType: "x", data: 1 }, "x"), undefined);
});

test("idText: strings and finite numbers become ids; anything else is no id", () => {
  assert.equal(idText("a1"), "a1");
  assert.equal(idText(7), "7");
  for (const value of [Number.NaN, Infinity, null, undefined, {}, true]) assert.equal(idText(value), undefined);
});

test("readItems: one malformed item rejects the whole list; null drops an item (a tombstone)", () => {
  const read = (item: unknown) => (item === "drop" ? null : typeof item === "number" ? item : undefined);
  assert.deepEqual(readItems([1, "drop", 2], read), [1, 2]);
  assert.equal(readItems([1, "bad"], read), undefined);
  assert.equal(readItems("not an array", read), undefined);
  assert.deepEqual(readItems([], read), []);
});

// ---- @juicesharp/rpiv-todo ------------------------------------------------------------------------

test("rpiv-todo: a todo result with tasks and a numeric nextId is the full list; pending and in_progress are open", () => {
  const list = rpivTodo.read(
    todoResult({
      tasks: [
        task({ id: 1, subject: "a", status: "pending" }),
        task({ id: 2, subject: "b", status: "in_progress" }),
        task({ id: 3, subject: "c", status: "completed" }),
        task({ id: 4, subject: "d", status: "deferred" }),
      ],
    }),
  );
  assert.equal(list?.source, "rpiv-todo");
  assert.equal(list?.tool, "todo");
  assert.deepEqual(summary(list), [
    ["1", "a", true],
    ["2", "b", true],
    ["3", "c", false],
    ["4", "d", false],
  ]);
});

test("rpiv-todo: tasks are normalised to id, text, status and open", () => {
  const list = rpivTodo.read(todoResult({ tasks: [task({ id: 1, subject: "a", status: "in_progress", activeForm: "doing a", blockedBy: [2] })] }));
  assert.deepEqual(list?.tasks, [{ id: "1", text: "a", status: "in_progress", open: true }]);
});

test("rpiv-todo: deleted tasks are tombstones and are dropped", () => {
  const list = rpivTodo.read(todoResult({ tasks: [task({ id: 1, status: "deleted" }), task({ id: 2, subject: "b" })] }));
  assert.deepEqual(summary(list), [["2", "b", true]]);
});

test("rpiv-todo: rpiv-todo-state entries are read like tool results, rpiv-todo-clear is an empty list", () => {
  assert.deepEqual(summary(rpivTodo.read(rpivState([task({ id: 1, subject: "a" })]))), [["1", "a", true]]);
  assert.deepEqual(rpivTodo.read(rpivClear())?.tasks, []);
});

test("rpiv-todo: an unknown status, a missing subject or a missing nextId is not this shape", () => {
  assert.equal(rpivTodo.read(todoResult({ tasks: [task({ id: 1, status: "blocked" })] })), undefined);
  assert.equal(rpivTodo.read(toolResult("todo", { action: "create", tasks: [{ id: 1, status: "pending" }], nextId: 2 })), undefined);
  assert.equal(rpivTodo.read(toolResult("todo", { action: "list", tasks: [task({ id: 1 })] })), undefined);
  assert.equal(rpivTodo.read({ type: "custom", customType: "rpiv-todo-state", data: { tasks: [task({ id: 1 })], nextId: "2" } }), undefined);
});

test("rpiv-todo: the same details under another tool name are not rpiv-todo's", () => {
  assert.equal(rpivTodo.read(toolResult("todo_write", rpivDetails({ tasks: [task({ id: 1 })] }))), undefined);
});

test("rpiv-todo: rejected (details.error) and errored (isError) calls are never read", () => {
  assert.equal(rpivTodo.read(todoResult({ tasks: [], error: "#9 not found" })), undefined);
  assert.equal(rpivTodo.read(toolResult("todo", rpivDetails({ tasks: [] }), { isError: true })), undefined);
});

test("rpiv-todo: classify tells delete, clear, complete, other and unlabelled calls apart", () => {
  const tasks = [task({ id: 1 })];
  const cases: Array<[Record<string, unknown>, CallKind | undefined]> = [
    [rpivDetails({ tasks, action: "delete", params: { action: "delete", id: 2 } }), "delete"],
    [rpivDetails({ tasks, action: "update", params: { action: "update", id: 2, status: "deleted" } }), "delete"],
    [rpivDetails({ tasks, action: "clear" }), "clear"],
    [rpivDetails({ tasks, action: "update", params: { action: "update", id: 1, status: "completed" } }), "complete"],
    [rpivDetails({ tasks, action: "update", params: { action: "update", id: 1, status: "in_progress" } }), "other"],
    [rpivDetails({ tasks, action: "create" }), "other"],
    [rpivDetails({ tasks, action: "list" }), "other"],
    [{ tasks, nextId: 2 }, "unlabelled"],
    [{ action: "delete", todos: [], nextId: 1 }, undefined],
  ];
  for (const [details, kind] of cases) assert.equal(rpivTodo.classify(toolResultMessage("todo", details)), kind, JSON.stringify(details));
  assert.equal(rpivTodo.classify(toolResultMessage("todo", rpivDetails({ tasks, action: "delete" }), { isError: true })), undefined);
});

// ---- @ian-pascoe/pi-todo --------------------------------------------------------------------------

test("ian-pascoe: pi-todo-state entries hold the list; pending and active are open", () => {
  const list = ianPascoePiTodo.read(
    ianState([
      { id: 1, title: "a", status: "pending" },
      { id: 2, title: "b", status: "active" },
      { id: 3, title: "c", status: "completed" },
    ]),
  );
  assert.equal(list?.source, "ian-pascoe-pi-todo");
  assert.deepEqual(summary(list), [
    ["1", "a", true],
    ["2", "b", true],
    ["3", "c", false],
  ]);
  assert.deepEqual(ianPascoePiTodo.read(ianState([], 1))?.tasks, []);
});

test("ian-pascoe: a state without a numeric nextId or with an unknown status is not read", () => {
  assert.equal(ianPascoePiTodo.read({ type: "custom", customType: "pi-todo-state", data: { tasks: [] } }), undefined);
  assert.equal(ianPascoePiTodo.read(ianState([{ id: 1, title: "a", status: "in_progress" }])), undefined);
});

test("ian-pascoe: its tool results carry only the affected task and are never read as the list", () => {
  const results = [
    toolResult("todo", { action: "add", task: { id: 1, title: "a", status: "pending" } }),
    toolResult("todo", { action: "update", task: { id: 1, title: "a", status: "completed" } }),
    toolResult("todo", { action: "remove", id: 1 }),
    toolResult("todo", { action: "clear", cleared: 2 }),
    toolResult("todo", { action: "list", tasks: [{ id: 1, title: "a", status: "pending" }] }),
  ];
  for (const result of results) assert.equal(readList(result), undefined, JSON.stringify(result));
});

test("ian-pascoe: classify reads remove as delete, clear as clear and a completing update as complete", () => {
  const cases: Array<[Record<string, unknown>, CallKind | undefined]> = [
    [{ action: "remove", id: 1 }, "delete"],
    [{ action: "clear", cleared: 2 }, "clear"],
    [{ action: "update", task: { id: 1, title: "a", status: "completed" } }, "complete"],
    [{ action: "update", task: { id: 1, title: "a", status: "active" } }, "other"],
    [{ action: "add", task: { id: 1, title: "a", status: "pending" } }, "other"],
    [{ action: "list", tasks: [] }, "other"],
    [{ action: "explode" }, undefined],
  ];
  for (const [details, kind] of cases) assert.equal(ianPascoePiTodo.classify(toolResultMessage("todo", details)), kind, JSON.stringify(details));
  assert.equal(ianPascoePiTodo.classify(toolResultMessage("todo_write", { action: "remove" })), undefined);
});

// ---- pi's example todo ----------------------------------------------------------------------------

test("pi example todo: todos with a numeric nextId are the list; done is not open", () => {
  const list = piExampleTodo.read(exampleResult([{ id: 1, text: "a", done: true }, { id: 2, text: "b", done: false }]));
  assert.equal(list?.source, "pi-example-todo");
  assert.deepEqual(list?.tasks, [
    { id: "1", text: "a", status: "done", open: false },
    { id: "2", text: "b", status: "open", open: true },
  ]);
});

test("pi example todo: a result with details.error or without nextId is not read", () => {
  assert.equal(piExampleTodo.read(exampleResult([{ id: 1, text: "a", done: false }], { error: "#9 not found" })), undefined);
  assert.equal(piExampleTodo.read(toolResult("todo", { action: "add", todos: [{ id: 1, text: "a", done: false }] })), undefined);
  assert.equal(piExampleTodo.read(toolResult("todo", { action: "add", todos: [{ id: 1, text: "a", done: "no" }], nextId: 2 })), undefined);
});

test("pi example todo: classify reads toggle as complete, clear as clear, a missing action as unlabelled", () => {
  const cases: Array<[string | null, CallKind]> = [
    ["toggle", "complete"],
    ["clear", "clear"],
    ["add", "other"],
    ["list", "other"],
    [null, "unlabelled"],
  ];
  for (const [action, kind] of cases) {
    assert.equal(piExampleTodo.classify(messageOf(exampleResult([], { action, nextId: 1 }))), kind, String(action));
  }
});

// ---- @nguyenquangthai/pi-todo ---------------------------------------------------------------------

test("quangthai: pi-todo.state entries and write results are the list; pending and in_progress are open", () => {
  const todos = [
    { id: "t1", content: "a", status: "in_progress", priority: "high" },
    { id: "t2", content: "b", status: "cancelled", priority: "low" },
    { content: "c", status: "pending" },
  ];
  const fromState = quangthaiPiTodo.read(quangthaiState(todos));
  assert.equal(fromState?.source, "quangthai-pi-todo");
  assert.equal(fromState?.tool, "todo_write");
  assert.deepEqual(summary(fromState), [
    ["t1", "a", true],
    ["t2", "b", false],
    ["#3", "c", true],
  ]);
  for (const writer of ["todo_write", "todo_update", "todowrite"]) {
    assert.deepEqual(summary(quangthaiPiTodo.read(quangthaiResult(writer, todos))), summary(fromState), writer);
  }
});

test("quangthai: the nudge names the tool family that wrote the list (todowrite for older releases)", () => {
  assert.equal(quangthaiPiTodo.read(quangthaiResult("todowrite", []))?.tool, "todowrite");
  assert.equal(quangthaiPiTodo.read(quangthaiResult("todo_update", []))?.tool, "todo_write");
});

test("quangthai: read results are not state; a write of [] clears", () => {
  assert.equal(quangthaiPiTodo.read(quangthaiResult("todo_read", [{ content: "a", status: "pending" }])), undefined);
  assert.deepEqual(quangthaiPiTodo.read(quangthaiResult("todo_write", []))?.tasks, []);
});

test("quangthai: classify calls every write unlabelled (results carry no action)", () => {
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_write", { todos: [] })), "unlabelled");
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_read", { todos: [] })), undefined);
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_write", { todos: [], error: "only one in progress" })), undefined);
});

// ---- Criogaid/pi-todos ----------------------------------------------------------------------------

test("criogaid 0.1.0: a todo result of {content, status, activeForm?} without nextId is the list, ids by position", () => {
  const list = criogaidPiTodos.read(
    criogaidResult([
      { content: "a", status: "completed" },
      { content: "b", status: "in_progress", activeForm: "doing b" },
    ]),
  );
  assert.equal(list?.source, "criogaid-pi-todos");
  assert.deepEqual(summary(list), [
    ["#1", "a", false],
    ["#2", "b", true],
  ]);
  assert.deepEqual(criogaidPiTodos.read(criogaidResult([]))?.tasks, []);
});

test("criogaid 0.1.0: items with other keys, or details with a nextId, belong to another tool", () => {
  assert.equal(criogaidPiTodos.read(toolResult("todo", { todos: [{ content: "a", status: "pending", id: 1 }] })), undefined);
  assert.equal(criogaidPiTodos.read(toolResult("todo", { todos: [], nextId: 1 })), undefined);
});

test("criogaid 0.1.0: classify calls its results unlabelled", () => {
  assert.equal(criogaidPiTodos.classify(toolResultMessage("todo", { todos: [] })), "unlabelled");
  assert.equal(criogaidPiTodos.classify(toolResultMessage("todo", { todos: [], nextId: 1 })), undefined);
});

test("criogaid tasks: pi-todos-tasks version 1 entries are the list; pending and in_progress are open", () => {
  const list = criogaidPiTodosTasks.read(
    criogaidTasksState([
      { id: "1", subject: "a", status: "pending" },
      { id: "2", subject: "b", status: "in_progress" },
      { id: "3", subject: "c", status: "completed" },
    ]),
  );
  assert.equal(list?.source, "criogaid-pi-todos-tasks");
  assert.equal(list?.tool, "TaskUpdate");
  assert.deepEqual(summary(list), [
    ["1", "a", true],
    ["2", "b", true],
    ["3", "c", false],
  ]);
  assert.equal(criogaidPiTodosTasks.read({ type: "custom", customType: "pi-todos-tasks", data: { version: 2, tasks: [], highWaterMark: 0 } }), undefined);
});

test("criogaid tasks: classify reads TaskUpdate status changes; a failed update is not classified", () => {
  const update = (to: string) => toolResultMessage("TaskUpdate", { success: true, taskId: "1", statusChange: { from: "pending", to } });
  assert.equal(criogaidPiTodosTasks.classify(update("deleted")), "delete");
  assert.equal(criogaidPiTodosTasks.classify(update("completed")), "complete");
  assert.equal(criogaidPiTodosTasks.classify(update("in_progress")), "other");
  assert.equal(criogaidPiTodosTasks.classify(toolResultMessage("TaskCreate", { task: { id: "1" } })), "other");
  assert.equal(criogaidPiTodosTasks.classify(toolResultMessage("TaskUpdate", { success: false, error: "Task not found" })), undefined);
  assert.equal(criogaidPiTodosTasks.classify(toolResultMessage("todo", { task: {} })), undefined);
});

// ---- Criogaid: the newest decoder, hidden tasks, the todo build's snapshots and codemode calls -------

test("criogaid tasks: a task with metadata._internal true is bookkeeping, not a task", () => {
  const list = criogaidPiTodosTasks.read(
    criogaidTasksState([
      { id: "1", subject: "a", status: "pending" },
      { id: "2", subject: "cursor", status: "pending", metadata: { _internal: true } },
      { id: "3", subject: "c", status: "pending", metadata: { _internal: "yes", owner: "x" } },
    ]),
  );
  assert.deepEqual(summary(list), [
    ["1", "a", true],
    ["3", "c", true],
  ]);
});

test("criogaid tasks: a snapshot the tool's own decoder would reject is unreadable (description, edges, ids, deleted)", () => {
  const bad: Array<Record<string, unknown>> = [
    { id: "1", subject: "a", status: "pending", description: 5 },
    { id: "1", subject: "a", status: "pending", blocks: "2" },
    { id: "1", subject: "a", status: "pending", blockedBy: [2] },
    { id: "01", subject: "a", status: "pending" },
    { id: 1, subject: "a", status: "pending" },
    { id: "7", subject: "a", status: "pending" },
    { id: "1", subject: "a", status: "deleted" },
    { id: "1", subject: "a", status: "blocked" },
    { id: "1", subject: "a", status: "pending", owner: 3 },
    { id: "1", subject: "a", status: "pending", metadata: [] },
  ];
  for (const item of bad) {
    const entry = criogaidTasksState([{ id: "1", subject: "x", status: "pending" }], 3);
    const data = entry.data as { tasks: unknown[] };
    const task = { description: "", blocks: [], blockedBy: [], ...item };
    const broken = { ...entry, data: { ...data, tasks: [task] } };
    assert.equal(criogaidPiTodosTasks.read(broken), undefined, JSON.stringify(item));
  }
  const missingDescription = { type: "custom", customType: "pi-todos-tasks", data: { version: 1, tasks: [{ id: "1", subject: "a", status: "pending", blocks: [], blockedBy: [] }], highWaterMark: 1 } };
  assert.equal(criogaidPiTodosTasks.read(missingDescription), undefined);
  const duplicate = criogaidTasksState([
    { id: "1", subject: "a", status: "pending" },
    { id: "1", subject: "b", status: "pending" },
  ]);
  assert.equal(criogaidPiTodosTasks.read(duplicate), undefined);
  for (const highWaterMark of [-1, 1.5, "3", undefined]) {
    const entry = { type: "custom", customType: "pi-todos-tasks", data: { version: 1, tasks: [], highWaterMark } };
    assert.equal(criogaidPiTodosTasks.read(entry), undefined, String(highWaterMark));
  }
});

test("criogaid tasks: agent_start's snapshot without a toolCallId, clearing a finished list, is an empty list", () => {
  const cleared = { type: "custom", customType: "pi-todos-tasks", data: { version: 1, tasks: [], highWaterMark: 4 } };
  assert.deepEqual(criogaidPiTodosTasks.read(cleared)?.tasks, []);
  assert.equal(criogaidPiTodosTasks.read({ ...cleared, data: { ...cleared.data, toolCallId: 7 } }), undefined);
});

test("criogaid todo build: pi-todos-snapshot entries (version 1, a call id) hold the whole list", () => {
  const entry = { type: "custom", customType: "pi-todos-snapshot", data: { version: 1, toolCallId: "toolu_1", todos: [{ content: "a", status: "in_progress" }] } };
  assert.deepEqual(summary(criogaidPiTodos.read(entry)), [["#1", "a", true]]);
  assert.equal(criogaidPiTodos.read({ ...entry, data: { ...entry.data, toolCallId: " " } }), undefined);
  assert.equal(criogaidPiTodos.read({ ...entry, data: { ...entry.data, version: 2 } }), undefined);
  assert.deepEqual(criogaidPiTodos.stateTypes, ["pi-todos-snapshot"]);
});

test("criogaid 0.1: a blank content makes the list unreadable, as the tool's decoder has it", () => {
  assert.equal(criogaidPiTodos.read(criogaidResult([{ content: "  ", status: "pending" }])), undefined);
});

/** A codemode tool result whose script made the given nested calls. */
function codemodeResult(calls: unknown[], complete = true): Entry {
  return { type: "message", message: { ...toolResultMessage("codemode", { calls: [] }), nestedCalls: { calls, complete } } };
}

test("criogaid 0.1: a codemode script's successful todo call is the list its arguments set (the whole list every call)", () => {
  const first = { content: "a", status: "completed" };
  const second = { content: " b ", status: "in_progress", activeForm: "" };
  const entry = codemodeResult([
    { id: "c/1", name: "todo", status: "ok", arguments: { todos: [first] } },
    { id: "c/2", name: "todo", status: "ok", arguments: JSON.stringify({ todos: [first, second] }) },
    { id: "c/3", name: "todo", status: "error", arguments: { todos: [] } },
  ]);
  const list = criogaidPiTodos.read(entry);
  assert.deepEqual(summary(list), [
    ["#1", "a", false],
    ["#2", "b", true],
  ]);
});

test("criogaid 0.1: an incomplete nestedCalls record, or another todo tool's call, is never read as the list", () => {
  assert.equal(criogaidPiTodos.read(codemodeResult([{ name: "todo", status: "ok", arguments: { todos: [] } }], false)), undefined);
  assert.equal(criogaidPiTodos.read(codemodeResult([{ name: "todo", status: "ok", arguments: { action: "create", subject: "x" } }])), undefined);
  assert.equal(criogaidPiTodos.read(codemodeResult([{ name: "todo", status: "ok", argumentsBytes: 90000 }])), undefined);
  assert.equal(criogaidPiTodos.read(codemodeResult([{ name: "bash", status: "ok", arguments: { command: "ls" } }])), undefined);
  assert.equal(readList(codemodeResult([{ name: "todo", status: "ok", arguments: { action: "update", id: 1, status: "completed" } }])), undefined);
});

// ---- rpiv-todo fork nredd: batch calls -------------------------------------------------------------

test("rpiv batch: a batch is classified by its ops, a delete or a clear before a completion", () => {
  const tasks = [task({ id: 1 })];
  const batch = (ops: unknown[]) => toolResultMessage("todo", rpivDetails({ tasks, action: "batch", params: { ops } }));
  const cases: Array<[unknown[], CallKind]> = [
    [[{ action: "update", id: 1, status: "completed", evidence: "npm test: 3 passed" }, { action: "update", id: 2, status: "completed" }], "complete"],
    [[{ action: "update", id: 1, status: "completed" }, { action: "delete", id: 2 }], "delete"],
    [[{ action: "update", id: 2, status: "deleted" }], "delete"],
    [[{ action: "clear" }], "clear"],
    [[{ action: "update", id: 1, status: "completed" }, { action: "clear" }], "clear"],
    [[{ action: "create", subject: "x" }, { action: "list", status: "deleted" }], "other"],
    [[], "other"],
  ];
  for (const [ops, kind] of cases) assert.equal(rpivTodo.classify(batch(ops)), kind, JSON.stringify(ops));
  assert.equal(rpivTodo.classify(toolResultMessage("todo", { ...rpivDetails({ tasks, action: "batch" }), params: "junk" })), "other");
});

test("rpiv: create and list results carrying params.status are not completions or deletions", () => {
  const tasks = [task({ id: 1 })];
  for (const status of ["completed", "deleted"]) {
    for (const action of ["create", "list", "get"]) {
      assert.equal(rpivTodo.classify(toolResultMessage("todo", rpivDetails({ tasks, action, params: { action, status } }))), "other", `${action} ${status}`);
    }
  }
});

test("rpiv batch: a rejected batch (details.error) is never state and never classified", () => {
  const rejected = todoResult({ tasks: [task({ id: 1 })], action: "batch", params: { ops: [{ action: "delete", id: 1 }] }, error: "ops[0]: #1 is a plan item" });
  assert.equal(rpivTodo.read(rejected), undefined);
  assert.equal(rpivTodo.classify(messageOf(rejected)), undefined);
});

// ---- @zhushanwen/pi-todo ---------------------------------------------------------------------------

function zhushanwenResult(todos: unknown[], extra: Record<string, unknown> = {}): Entry {
  return toolResult("todo", { action: "update", todos, nextId: todos.length + 1, ...extra });
}

test("zhushanwen: a todo result of {id, text, status} items with a numeric nextId is the full list; pending and in_progress are open", () => {
  const list = zhushanwenPiTodo.read(
    zhushanwenResult([
      { id: 1, text: "a", status: "pending" },
      { id: 2, text: "b", status: "in_progress", isVerification: true },
      { id: 3, text: "c", status: "completed" },
    ]),
  );
  assert.equal(list?.source, "zhushanwen-pi-todo");
  assert.equal(list?.tool, "todo");
  assert.deepEqual(list?.tasks, [
    { id: "1", text: "a", status: "pending", open: true },
    { id: "2", text: "b", status: "in_progress", open: true },
    { id: "3", text: "c", status: "completed", open: false },
  ]);
});

test("a zhushanwen item with status failed is open", () => {
  assert.deepEqual(summary(zhushanwenPiTodo.read(zhushanwenResult([{ id: 1, text: "a", status: "failed", verifyAttempts: 2 }]))), [["1", "a", true]]);
});

test("a zhushanwen item with status verifying is open", () => {
  assert.deepEqual(summary(zhushanwenPiTodo.read(zhushanwenResult([{ id: 1, text: "a", status: "verifying", verifyText: "tests pass" }]))), [["1", "a", true]]);
});

test("a zhushanwen item with status cancelled is closed", () => {
  assert.deepEqual(summary(zhushanwenPiTodo.read(zhushanwenResult([{ id: 1, text: "a", status: "cancelled" }]))), [["1", "a", false]]);
});

test("an older zhushanwen item with done: boolean reads as completed or pending beside status items", () => {
  const list = zhushanwenPiTodo.read(
    zhushanwenResult([
      { id: 1, text: "a", done: true },
      { id: 2, text: "b", done: false },
      { id: 3, text: "c", status: "pending" },
    ]),
  );
  assert.deepEqual(list?.tasks.map((item) => [item.id, item.status, item.open]), [
    ["1", "completed", false],
    ["2", "pending", true],
    ["3", "pending", true],
  ]);
});

test("an unknown status makes the state unreadable, never open or closed", () => {
  assert.equal(zhushanwenPiTodo.read(zhushanwenResult([{ id: 1, text: "a", status: "blocked" }, { id: 2, text: "b", status: "pending" }])), undefined);
  assert.equal(readList(zhushanwenResult([{ id: 1, text: "a", status: "blocked" }])), undefined);
  assert.equal(parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "blocked" }] })), "unreadable");
  assert.equal(planMode.read({ type: "custom", customType: "plan-mode", data: { enabled: false, executing: true, todos: [{ step: 1, text: "a", completed: "maybe" }] } }), undefined);
});

test("zhushanwen: malformed items of any field make the state unreadable", () => {
  const bad: unknown[] = [
    { id: "1", text: "a", status: "pending" },
    { id: 1.5, text: "a", status: "pending" },
    { id: 1, text: 2, status: "pending" },
    { id: 1, text: "a", status: 3 },
    { id: 1, text: "a" },
    { id: 1, text: "a", done: "yes" },
    { id: 1, text: "a", status: "pending", isVerification: "yes" },
    { id: 1, text: "a", status: "pending", verifyAttempts: "2" },
    { id: 1, text: "a", status: "pending", evidence: 5 },
    null,
  ];
  for (const item of bad) assert.equal(zhushanwenPiTodo.read(zhushanwenResult([{ id: 9, text: "ok", status: "pending" }, item])), undefined, JSON.stringify(item));
  assert.equal(zhushanwenPiTodo.read(toolResult("todo", { action: "update", todos: [{ id: 1, text: "a", status: "pending" }] })), undefined, "no nextId");
  assert.equal(zhushanwenPiTodo.read(toolResult("todo", { action: "toggle", todos: [{ id: 1, text: "a", status: "pending" }], nextId: 2 })), undefined, "pi example's action");
});

test("an aborted zhushanwen call (error: aborted, todos: [], nextId: 1) is never a clear", () => {
  const aborted = toolResult("todo", { action: "list", todos: [], nextId: 1, error: "aborted" });
  assert.equal(readList(aborted), undefined);
  for (const source of SOURCES) assert.equal(source.classify(messageOf(aborted)), undefined, source.id);
  assert.equal(readList(toolResult("todo", { action: "update", todos: [{ id: 1, text: "a", status: "pending" }], nextId: 2, error: "#9 not found" })), undefined);
});

test("zhushanwen: its renderings (__gui__ in RPC mode, _render in 0.2) are tolerated and mark an empty list as its own", () => {
  const rendered = { component: "list-tree" };
  assert.equal(readList(toolResult("todo", { action: "clear", todos: [], nextId: 1, __gui__: rendered }))?.source, "zhushanwen-pi-todo");
  assert.equal(readList(toolResult("todo", { action: "list", todos: [], nextId: 1, _render: { type: "task-list" } }))?.source, "zhushanwen-pi-todo");
  assert.equal(readList(toolResult("todo", { action: "delete", todos: [], nextId: 3 }))?.source, "zhushanwen-pi-todo");
  assert.equal(readList(toolResult("todo", { action: "clear", todos: [], nextId: 1 }))?.source, "pi-example-todo", "a bare clear reads the same for both; pi's example is tried first");
});

test("zhushanwen: classify reads delete as delete, clear as clear, every other action as other, none as unlabelled", () => {
  const items = [{ id: 1, text: "a", status: "pending" }];
  const cases: Array<[string | undefined, CallKind]> = [
    ["delete", "delete"],
    ["clear", "clear"],
    ["update", "other"],
    ["add", "other"],
    ["list", "other"],
    [undefined, "unlabelled"],
  ];
  for (const [action, kind] of cases) {
    const details: Record<string, unknown> = { todos: items, nextId: 2 };
    if (action !== undefined) details.action = action;
    assert.equal(zhushanwenPiTodo.classify(toolResultMessage("todo", details)), kind, String(action));
  }
  assert.equal(classifyAny(toolResultMessage("todo", { action: "delete", todos: [], nextId: 3 })), "delete", "deleting every task is a delete, never pi example's other");
  assert.equal(zhushanwenPiTodo.classify(toolResultMessage("todo", { action: "delete", todos: items, nextId: 2 }, { isError: true })), undefined);
});

test("shape decides: pi's example never reads status items, zhushanwen never reads done-only items", () => {
  const statusItems = toolResult("todo", { action: "add", todos: [{ id: 1, text: "a", status: "pending" }], nextId: 2 });
  const doneItems = exampleResult([{ id: 1, text: "a", done: false }]);
  const both = toolResult("todo", { action: "add", todos: [{ id: 1, text: "a", done: false, status: "pending" }], nextId: 2 });
  assert.equal(piExampleTodo.read(statusItems), undefined);
  assert.equal(piExampleTodo.read(both), undefined);
  assert.equal(zhushanwenPiTodo.read(doneItems), undefined);
  assert.equal(readList(statusItems)?.source, "zhushanwen-pi-todo");
  assert.equal(readList(both)?.source, "zhushanwen-pi-todo");
  assert.equal(readList(doneItems)?.source, "pi-example-todo");
  assert.equal(piExampleTodo.classify(messageOf(statusItems)), undefined);
  assert.equal(piExampleTodo.read(toolResult("todo", { action: "update", todos: [], nextId: 1 })), undefined, "update is not pi example's action");
});

// ---- pi's plan-mode example ------------------------------------------------------------------------

function planEntry(data: unknown): Entry {
  return { type: "custom", customType: "plan-mode", data };
}

const STEPS = [
  { step: 1, text: "Config tokenizer", completed: true },
  { step: 2, text: "Parser tests", completed: false },
  { step: 3, text: "README section", completed: false },
];

test("plan-mode while executing: the steps are the list, a step is open until completed", () => {
  const list = planMode.read(planEntry({ enabled: false, todos: STEPS, executing: true }));
  assert.equal(list?.source, "plan-mode");
  assert.equal(list?.planning, undefined);
  assert.deepEqual(list?.tasks, [
    { id: "1", text: "Config tokenizer", status: "completed", open: false },
    { id: "2", text: "Parser tests", status: "pending", open: true },
    { id: "3", text: "README section", status: "pending", open: true },
  ]);
  assert.equal(planMode.read(planEntry({ enabled: true, todos: STEPS, executing: true }))?.tasks.length, 3, "executing wins");
});

test("plan-mode while planning is a planning list, never open tasks", () => {
  for (const todos of [[], STEPS, undefined]) {
    const list = planMode.read(planEntry({ enabled: true, todos, executing: false, toolsBeforePlanMode: ["read", "bash"] }));
    assert.equal(list?.planning, true);
    assert.deepEqual(list?.tasks, []);
  }
});

test("plan-mode off (a finished or a toggled-off plan saves todos: []) is a cleared list", () => {
  const off = planMode.read(planEntry({ enabled: false, todos: [], executing: false }));
  assert.deepEqual(off?.tasks, []);
  assert.equal(off?.planning, undefined);
  assert.deepEqual(planMode.read(planEntry({ enabled: false }))?.tasks, [], "older entries without todos or executing");
});

test("plan-mode: a malformed entry is unreadable", () => {
  const bad: unknown[] = [
    null,
    { todos: STEPS, executing: true },
    { enabled: "no", todos: STEPS, executing: true },
    { enabled: false, todos: STEPS, executing: "yes" },
    { enabled: false, todos: "1. a", executing: true },
    { enabled: false, todos: [{ step: 0, text: "a", completed: false }], executing: true },
    { enabled: false, todos: [{ step: "1", text: "a", completed: false }], executing: true },
    { enabled: false, todos: [{ step: 1, completed: false }], executing: true },
    { enabled: true, todos: [], executing: false, toolsBeforePlanMode: [1] },
  ];
  for (const data of bad) assert.equal(planMode.read(planEntry(data)), undefined, JSON.stringify(data));
  assert.deepEqual(planMode.stateTypes, ["plan-mode"]);
  assert.deepEqual(planMode.toolNames, [], "no tool: the nudge names [DONE:n] and no tool can be out of reach");
  assert.equal(planMode.resultsCarryList, false);
});

test("plan-mode: the [DONE:n] marks plan-mode reads, and the ones it does not", () => {
  assert.deepEqual(doneSteps("[DONE:1] [done: 2] [Done 3] [DONE:1]").sort(), [1, 2, 3]);
  assert.deepEqual(doneSteps("Done: 4, and done:5"), [4, 5]);
  assert.deepEqual(doneSteps("Step 6 done. step 7 is complete. Step 8 completed, step 9 finished. Step10 done").sort((a, b) => a - b), [6, 7, 8, 9, 10]);
  assert.deepEqual(doneSteps("Step 2 is not done. Step 3 incomplete. [DONE:] DONE 4 undone:5 Done - 6"), []);
});

test("plan-mode: the whole-plan phrasings plan-mode reads at the end of a run", () => {
  for (const reply of ["All steps complete.", "every step done", "All steps completed!", "The plan is complete.", "plan done", "The plan is completed"]) {
    assert.equal(saysPlanComplete(reply), true, reply);
  }
  for (const reply of ["all steps are done", "The plan is not complete", "explanation complete", "Most steps done", "planned done"]) {
    assert.equal(saysPlanComplete(reply), false, reply);
  }
});

test("plan-mode: a reply closes exactly the steps it marks, and applying it again changes nothing", () => {
  const list = planMode.read(planEntry({ enabled: false, todos: STEPS, executing: true }));
  assert.ok(list && planMode.applyReply);
  const once = planMode.applyReply(list, "Tests written. [DONE:2] [DONE:7]");
  assert.deepEqual(summary(once), [
    ["1", "Config tokenizer", false],
    ["2", "Parser tests", false],
    ["3", "README section", true],
  ]);
  assert.equal(once.tasks[1]?.status, "completed");
  assert.deepEqual(planMode.applyReply(once, "Tests written. [DONE:2] [DONE:7]"), once);
  assert.equal(planMode.applyReply(list, "No marks here."), list, "nothing marked: the same list");
  assert.deepEqual(list.tasks.map((item) => item.open), [false, true, true], "the list applied to is left as it was");
});

test("plan-mode: a reply saying the plan is complete closes every step", () => {
  const list = planMode.read(planEntry({ enabled: false, todos: STEPS, executing: true }));
  assert.ok(list);
  assert.deepEqual(applyPlanReply(list, "Wrapped up: the plan is complete.").tasks.map((item) => item.open), [false, false, false]);
});

test("plan-mode: a reply never changes a planning list, a cleared one or another source's list", () => {
  const planning = planMode.read(planEntry({ enabled: true, todos: STEPS, executing: false }));
  const off = planMode.read(planEntry({ enabled: false, todos: [], executing: false }));
  const rpiv = rpivTodo.read(todoResult({ tasks: [task({ id: 1 })] }));
  for (const list of [planning, off, rpiv]) {
    assert.ok(list);
    assert.equal(applyPlanReply(list, "[DONE:1] All steps complete"), list);
  }
});

test("plan-mode: classify has no tool results to read", () => {
  assert.equal(planMode.classify(toolResultMessage("todo", { todos: [], nextId: 1 })), undefined);
});

// ---- @tintinweb/pi-tasks ----------------------------------------------------------------------------

const TINTIN_FIXTURE = join(FIXTURES_DIR, "tintinweb-pi-tasks", "port-open-tasks.tasks-file");

test("tintinweb: a task file of {nextId, tasks} is the list; pending and in_progress are open, completed and skipped closed", () => {
  const parsed = parseTasksFile(readFileSync(TINTIN_FIXTURE, "utf8"));
  assert.notEqual(parsed, "unreadable");
  assert.ok(parsed !== "unreadable");
  assert.equal(parsed.source, "tintinweb-pi-tasks");
  assert.equal(parsed.tool, "TaskUpdate");
  assert.deepEqual(summary(parsed), [
    ["1", "Write the parser", false],
    ["2", "Write the tests", true],
  ]);
  const statuses = parseTasksFile(JSON.stringify({ nextId: 5, tasks: ["pending", "in_progress", "completed", "skipped"].map((status, index) => ({ id: String(index + 1), subject: status, status })) }));
  assert.ok(statuses !== "unreadable");
  assert.deepEqual(statuses.tasks.map((item) => item.open), [true, true, false, false]);
});

test("tintinweb: a file from before dependencies and metadata (no blocks, blockedBy, metadata) still reads", () => {
  const parsed = parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", description: "d", status: "pending" }] }));
  assert.ok(parsed !== "unreadable");
  assert.deepEqual(summary(parsed), [["1", "a", true]]);
  const empty = parseTasksFile(JSON.stringify({ nextId: 1, tasks: [] }));
  assert.ok(empty !== "unreadable");
  assert.deepEqual(empty.tasks, []);
});

test("tintinweb: a file that is not a task list, or has a malformed task, is unreadable (never throws)", () => {
  const bad = [
    "",
    "{",
    "[]",
    "null",
    JSON.stringify({ nextId: 2 }),
    JSON.stringify({ nextId: "2", tasks: [] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: 5, status: "pending" }] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "pending", metadata: [] }] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "pending", blocks: [2] }] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "pending", description: 1 }] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "pending", updatedAt: "now" }] }),
    JSON.stringify({ nextId: 2, tasks: [null] }),
  ];
  for (const text of bad) assert.equal(parseTasksFile(text), "unreadable", text);
});

test("tintinweb: projectKey names a workspace the way pi names it for its own session logs", () => {
  assert.equal(projectKey("/Users/me/work/repo"), "--Users-me-work-repo--");
  assert.notEqual(projectKey("/Users/me/a"), projectKey("/Users/me/b"));
});

interface TasksDirs extends TasksFileWhere {
  root: string;
  home: string;
  put(path: string, text: string): void;
  cleanup(): void;
}

function tasksDirs(env: Record<string, string | undefined> = {}): TasksDirs {
  const root = mkdtempSync(join(tmpdir(), "todo-loop-tasks-"));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const cwd = join(root, "work");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return {
    root,
    home,
    cwd,
    agentDir,
    sessionId: "s1",
    env: { HOME: home, ...env },
    put(path: string, text: string) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

const ONE_OPEN = JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "new", status: "pending" }] });
const ONE_DONE = JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "old", status: "completed" }] });

function texts(found: ReturnType<typeof readTasksFile>): string[] | "unreadable" | undefined {
  if (!found) return undefined;
  return found.list === "unreadable" ? "unreadable" : found.list.tasks.map((item) => item.text);
}

test("tintinweb: the session's file is read from the newest location first, then from the 0.7 one in the workspace", () => {
  const dirs = tasksDirs();
  try {
    const newest = join(dirs.agentDir, "tasks", "sessions", projectKey(dirs.cwd), "tasks-s1.json");
    const legacy = join(dirs.cwd, ".pi", "tasks", "tasks-s1.json");
    assert.equal(readTasksFile(dirs), undefined, "no file: no list");
    dirs.put(legacy, ONE_DONE);
    assert.deepEqual(texts(readTasksFile(dirs)), ["old"]);
    assert.equal(readTasksFile(dirs)?.path, legacy);
    dirs.put(newest, ONE_OPEN);
    assert.deepEqual(texts(readTasksFile(dirs)), ["new"], "the newest location wins, as the tool's migration keeps it");
    assert.equal(readTasksFile(dirs)?.path, newest);
    assert.deepEqual(texts(readTasksFile({ ...dirs, sessionId: "s2" })), undefined, "another session's file is not this one's");
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: taskScope from the global config, overridden by the project's: memory has no file, project shares .pi/tasks/tasks.json", () => {
  const dirs = tasksDirs();
  try {
    dirs.put(join(dirs.cwd, ".pi", "tasks", "tasks.json"), ONE_OPEN);
    dirs.put(join(dirs.cwd, ".pi", "tasks", "tasks-s1.json"), ONE_DONE);
    dirs.put(join(dirs.agentDir, "tasks-config.json"), JSON.stringify({ taskScope: "project" }));
    assert.deepEqual(texts(readTasksFile(dirs)), ["new"]);
    dirs.put(join(dirs.cwd, ".pi", "tasks-config.json"), JSON.stringify({ taskScope: "memory", sortOrder: "id" }));
    assert.equal(readTasksFile(dirs), undefined);
    dirs.put(join(dirs.cwd, ".pi", "tasks-config.json"), JSON.stringify({ taskScope: "session" }));
    assert.deepEqual(texts(readTasksFile(dirs)), ["old"]);
    dirs.put(join(dirs.cwd, ".pi", "tasks-config.json"), "{ not json");
    assert.deepEqual(texts(readTasksFile(dirs)), ["new"], "a broken project config falls back to the global one");
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: PI_TASKS names the list: off, an absolute or workspace-relative path, or a shared list by name", () => {
  const dirs = tasksDirs();
  try {
    const shared = join(dirs.agentDir, "tasks", "sprint-1.json");
    const legacyShared = join(dirs.home, ".pi", "tasks", "sprint-1.json");
    const absolute = join(dirs.root, "lists", "mine.json");
    dirs.put(join(dirs.agentDir, "tasks", "sessions", projectKey(dirs.cwd), "tasks-s1.json"), ONE_OPEN);
    assert.equal(readTasksFile({ ...dirs, env: { ...dirs.env, PI_TASKS: "off" } }), undefined);
    dirs.put(absolute, ONE_OPEN);
    assert.equal(readTasksFile({ ...dirs, env: { ...dirs.env, PI_TASKS: absolute } })?.path, absolute);
    dirs.put(join(dirs.cwd, "custom", "list.json"), ONE_DONE);
    assert.deepEqual(texts(readTasksFile({ ...dirs, env: { ...dirs.env, PI_TASKS: "./custom/list.json" } })), ["old"]);
    const named = { ...dirs, env: { ...dirs.env, PI_TASKS: "sprint-1" } };
    assert.equal(readTasksFile(named), undefined);
    dirs.put(legacyShared, ONE_DONE);
    assert.equal(readTasksFile(named)?.path, legacyShared, "a list kept at the old ~/.pi/tasks is still read there");
    dirs.put(shared, ONE_OPEN);
    assert.equal(readTasksFile(named)?.path, shared);
    assert.deepEqual(tasksFileCandidates({ ...dirs, sessionId: "" }), [], "no session id: in memory");
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: an unreadable task file is reported as unreadable with its path; reading never writes", () => {
  const dirs = tasksDirs();
  try {
    const file = join(dirs.agentDir, "tasks", "sessions", projectKey(dirs.cwd), "tasks-s1.json");
    dirs.put(file, '{"nextId": 2, "tasks": [{"id": "1", "subject": "a", "status": "blocked"}]}');
    const tree = () => readdirSync(dirs.root, { recursive: true }).map(String).sort();
    const before = tree();
    assert.deepEqual(readTasksFile(dirs), { list: "unreadable", path: file });
    assert.deepEqual(tree(), before, "nothing created, moved or removed");
    rmSync(file);
    mkdirSync(file);
    assert.deepEqual(readTasksFile(dirs)?.list, "unreadable", "a directory where the file should be is no list");
  } finally {
    dirs.cleanup();
  }
  assert.equal(exportedParseTasksFile, parseTasksFile, "exported from sources/index.ts");
});

test("tintinweb: nothing on the branch is its list; its results (no details) are unlabelled, Criogaid's (with details) are not its", () => {
  const branch = entriesOf(JSON.parse(readFileSync(join(FIXTURES_DIR, "tintinweb-pi-tasks", "port-open-tasks.branch.json"), "utf8")));
  for (const entry of branch) assert.equal(tintinwebPiTasks.read(entry), undefined);
  const noDetails: Message = { role: "toolResult", toolName: "TaskUpdate", content: [{ type: "text", text: "Updated task #1 status" }], isError: false };
  assert.equal(tintinwebPiTasks.classify(noDetails), "unlabelled");
  assert.equal(tintinwebPiTasks.classify({ ...noDetails, isError: true, details: {} }), undefined);
  assert.equal(tintinwebPiTasks.classify(toolResultMessage("TaskUpdate", { success: true, taskId: "1", updatedFields: [] })), undefined);
  assert.equal(classifyAny(toolResultMessage("TaskUpdate", { success: true, taskId: "1", updatedFields: ["status"], statusChange: { from: "pending", to: "completed" } })), "complete");
  assert.equal(classifyAny(noDetails), "unlabelled");
  assert.deepEqual(tintinwebPiTasks.toolNames, ["TaskCreate", "TaskCreateMany", "TaskGet", "TaskList", "TaskUpdate"]);
  assert.equal(tintinwebPiTasks.resultsCarryList, false);
});

// ---- shape decides ----------------------------------------------------------------------------------

test("shape decides, not the tool name: three different `todo` tools are told apart", () => {
  const rpiv = todoResult({ tasks: [task({ id: 1, subject: "a" })] });
  const example = exampleResult([{ id: 1, text: "a", done: false }]);
  const criogaid = criogaidResult([{ content: "a", status: "pending" }]);
  const ian = toolResult("todo", { action: "add", task: { id: 1, title: "a", status: "pending" } });
  assert.equal(readList(rpiv)?.source, "rpiv-todo");
  assert.equal(readList(example)?.source, "pi-example-todo");
  assert.equal(readList(criogaid)?.source, "criogaid-pi-todos");
  assert.equal(readList(ian), undefined, "ian-pascoe's tool results are not its list");
  assert.equal(readList(ianState([{ id: 1, title: "a", status: "pending" }]))?.source, "ian-pascoe-pi-todo");
});

test("shape decides when classifying: the same action word means what each tool's shape says", () => {
  assert.equal(classifyAny(messageOf(todoResult({ tasks: [], action: "clear" }))), "clear");
  assert.equal(classifyAny(messageOf(exampleResult([], { action: "toggle", nextId: 1 }))), "complete");
  assert.equal(classifyAny(messageOf(criogaidResult([]))), "unlabelled");
  assert.equal(classifyAny(toolResultMessage("todo", { action: "remove", id: 3 })), "delete");
  assert.equal(classifyAny(toolResultMessage("bash", { exitCode: 0 })), undefined);
});

test("shape decides: in every fixture only the fixture's own tool's adapter reads any entry", () => {
  const owners: Record<string, readonly SourceId[]> = {
    "criogaid-pi-todos": ["criogaid-pi-todos", "criogaid-pi-todos-tasks"],
    "ian-pascoe-pi-todo": ["ian-pascoe-pi-todo"],
    "pi-example-todo": ["pi-example-todo"],
    "quangthai-pi-todo": ["quangthai-pi-todo"],
    "rpiv-todo": ["rpiv-todo"],
    "zhushanwen-pi-todo": ["zhushanwen-pi-todo"],
    "plan-mode": ["plan-mode"],
    // Its list is in a file, never on the branch.
    "tintinweb-pi-tasks": [],
    // Session files written by earlier versions of this extension (`.jsonl`, read by the e2e upgrade test).
    "v0.1": ["rpiv-todo"],
    // Not todo state: the layer test's tree, and the payloads of work in flight.
    layers: [],
    work: [],
  };
  const root = FIXTURES_DIR;
  let read = 0;
  for (const dir of readdirSync(root)) {
    const allowed = owners[dir];
    assert.ok(allowed, `an owner for fixtures/${dir}`);
    for (const file of readdirSync(join(root, dir)).filter((name) => name.endsWith(".json"))) {
      for (const entry of entriesOf(JSON.parse(readFileSync(join(root, dir, file), "utf8")))) {
        for (const source of SOURCES) {
          const list = source.read(entry);
          if (!list) continue;
          read += 1;
          assert.ok(allowed.includes(source.id), `${source.id} read an entry of ${dir}/${file}`);
        }
      }
    }
  }
  assert.ok(read > 0);
});

test("adapters never throw on junk entries", () => {
  const junk: Entry[] = [
    { type: "custom", customType: "plan-mode", data: { enabled: "yes", todos: [{ step: "1" }] } },
    { type: "custom", customType: "pi-todos-snapshot", data: { version: 1, toolCallId: 5, todos: null } },
    { type: "message", message: { role: "toolResult", toolName: "codemode", details: {}, nestedCalls: { calls: [null, { name: "todo", status: "ok", arguments: "{" }], complete: true } } },
    { type: "message" },
    { type: "message", message: { role: "toolResult", toolName: "todo", details: { tasks: [null], todos: [1], nextId: 1 } } },
    { type: "custom", customType: "pi-todo-state", data: null },
    { type: "custom", customType: "pi-todo.state", data: "x" },
    { type: "custom", customType: "pi-todos-tasks", data: { version: 1, tasks: {} } },
    { type: "custom", customType: "rpiv-todo-state", data: { tasks: [{ id: {}, subject: 1, status: [] }], nextId: 1 } },
  ];
  for (const source of SOURCES) {
    for (const entry of junk) {
      assert.doesNotThrow(() => source.read(entry));
      assert.equal(source.read(entry), undefined, `${source.id} on ${JSON.stringify(entry)}`);
      const message = entry.message;
      assert.doesNotThrow(() => source.classify(isRecord(message) ? message : {}));
    }
  }
});

test("the known todo tool names cover every source's tools", () => {
  for (const name of ["todo", "todo_write", "todo_update", "todo_read", "todowrite", "todoread", "TaskCreate", "TaskCreateMany", "TaskUpdate", "TaskGet", "TaskList"]) {
    assert.ok(TODO_TOOL_NAMES.has(name), name);
  }
  assert.equal(TODO_TOOL_NAMES.has("todo_loop_block"), false);
});

test("sourceLabel names each source for /todoloop", () => {
  assert.equal(sourceLabel("rpiv-todo"), "rpiv-todo");
  assert.equal(sourceLabel("ian-pascoe-pi-todo"), "@ian-pascoe/pi-todo");
  assert.equal(sourceLabel("quangthai-pi-todo"), "@nguyenquangthai/pi-todo");
  for (const source of SOURCES) assert.ok(sourceLabel(source.id).length > 0);
});

// ---- adapter contracts: malformed items, foreign tools, what each source declares -------------------

import type { TodoSource } from "../src/sources/index.ts";
import { listState, readSnapshot } from "../src/state.ts";
import { chain as chainEntries, customEntry, nestedCallsResult, user as humanMessage } from "./builders.ts";

interface ItemShape {
  readonly name: string;
  readonly source: TodoSource;
  /** The entry that persists a list of these raw items. */
  readonly entry: (items: unknown[]) => Entry;
  /** One well-formed item. */
  readonly valid: Record<string, unknown>;
  /** Per field, values the tool's own decoder rejects (undefined: the field is missing). */
  readonly bad: Record<string, readonly unknown[]>;
}

const BAD_ID: readonly unknown[] = [undefined, null, true, {}, [], Number.NaN, Number.POSITIVE_INFINITY];
const BAD_TEXT: readonly unknown[] = [undefined, null, 5, {}, []];

const ITEM_SHAPES: readonly ItemShape[] = [
  {
    name: "rpiv-todo result",
    source: rpivTodo,
    entry: (items) => toolResult("todo", { action: "create", params: {}, tasks: items, nextId: 9 }),
    valid: { id: 1, subject: "Write tests", status: "pending" },
    bad: { id: BAD_ID, subject: BAD_TEXT, status: [undefined, null, 3, "done", "Pending"] },
  },
  {
    name: "rpiv-todo state entry",
    source: rpivTodo,
    entry: (items) => customEntry("rpiv-todo-state", { tasks: items, nextId: 9 }),
    valid: { id: 1, subject: "Write tests", status: "in_progress" },
    bad: { id: BAD_ID, subject: BAD_TEXT, status: [undefined, 3, "open"] },
  },
  {
    name: "@ian-pascoe/pi-todo state entry",
    source: ianPascoePiTodo,
    entry: (items) => customEntry("pi-todo-state", { nextId: 9, tasks: items }),
    valid: { id: 1, title: "Write tests", status: "active" },
    bad: { id: BAD_ID, title: BAD_TEXT, status: [undefined, null, 3, "in_progress", "done"] },
  },
  {
    name: "pi example todo result",
    source: piExampleTodo,
    entry: (items) => toolResult("todo", { action: "add", todos: items, nextId: 9 }),
    valid: { id: 1, text: "Write tests", done: false },
    bad: { id: BAD_ID, text: BAD_TEXT, done: [undefined, null, "false", 0] },
  },
  {
    name: "@nguyenquangthai/pi-todo state entry",
    source: quangthaiPiTodo,
    entry: (items) => customEntry("pi-todo.state", { todos: items }),
    valid: { id: "a", content: "Write tests", status: "pending", priority: "high" },
    bad: { id: BAD_ID.filter((value) => value !== undefined), content: BAD_TEXT, status: [undefined, 3, "done"], priority: [null, 1, {}] },
  },
  {
    name: "Criogaid/pi-todos 0.1 todo result",
    source: criogaidPiTodos,
    entry: (items) => toolResult("todo", { todos: items }),
    valid: { content: "Write tests", status: "pending", activeForm: "Writing tests" },
    bad: { content: [...BAD_TEXT, "  "], status: [undefined, 3, "deleted"], activeForm: [null, 5, {}] },
  },
  {
    name: "Criogaid/pi-todos tasks state entry",
    source: criogaidPiTodosTasks,
    entry: (items) => customEntry("pi-todos-tasks", { version: 1, tasks: items, highWaterMark: 9 }),
    valid: { id: "9", subject: "Write tests", description: "", status: "in_progress", owner: "agent", blocks: ["1"], blockedBy: [] },
    bad: {
      id: [undefined, 9, "09", "0", "9a", "a9", "10"],
      subject: BAD_TEXT,
      description: [undefined, 5],
      status: [undefined, 3, "deleted"],
      activeForm: [null, 5],
      owner: [null, 5],
      blocks: [undefined, [1], "1"],
      blockedBy: [[null]],
      metadata: [null, 5, "x"],
    },
  },
  {
    name: "@nguyenquangthai/pi-todo write result",
    source: quangthaiPiTodo,
    entry: (items) => toolResult("todo_write", { todos: items }),
    valid: { content: "Write tests", status: "in_progress" },
    bad: { id: [null, {}, Number.NaN], content: BAD_TEXT, status: [undefined, 3, "active"], priority: [false, 2] },
  },
];

test("adapters: every malformed field of an item (wrong type, missing, unknown status, invalid id) makes that state unreadable", () => {
  for (const shape of ITEM_SHAPES) {
    assert.equal(shape.source.read(shape.entry([shape.valid]))?.tasks.length, 1, `${shape.name}: the well-formed item reads`);
    for (const [field, values] of Object.entries(shape.bad)) {
      for (const value of values) {
        const item: Record<string, unknown> = { ...shape.valid };
        if (value === undefined) delete item[field];
        else item[field] = value;
        assert.equal(shape.source.read(shape.entry([item])), undefined, `${shape.name}: ${field} = ${String(value)}`);
      }
    }
  }
});

test("adapters: a null or non-object item makes that state unreadable, never a throw", () => {
  for (const shape of ITEM_SHAPES) {
    for (const item of [null, 7, "task", [shape.valid]]) {
      assert.equal(shape.source.read(shape.entry([item])), undefined, `${shape.name}: ${JSON.stringify(item)}`);
    }
  }
});

test("adapters: an item's id may be a string or a finite number; both read as text", () => {
  assert.deepEqual(summary(rpivTodo.read(toolResult("todo", { tasks: [{ id: "t-1", subject: "a", status: "pending" }, { id: 2, subject: "b", status: "completed" }], nextId: 3 }))), [
    ["t-1", "a", true],
    ["2", "b", false],
  ]);
  assert.deepEqual(summary(ianPascoePiTodo.read(customEntry("pi-todo-state", { nextId: 3, tasks: [{ id: "x", title: "a", status: "pending" }] }))), [["x", "a", true]]);
  assert.deepEqual(summary(piExampleTodo.read(toolResult("todo", { todos: [{ id: "7", text: "a", done: true }], nextId: 8 }))), [["7", "a", false]]);
});

test("classify: another tool's name, or a shape the adapter does not read, is not that adapter's call", () => {
  const rpiv = rpivDetails({ tasks: [task({ id: 1, status: "completed" })], action: "update", params: { action: "update", id: 1, status: "completed" } });
  assert.equal(rpivTodo.classify(toolResultMessage("todo", rpiv)), "complete");
  assert.equal(rpivTodo.classify(toolResultMessage("tasks", rpiv)), undefined);
  assert.equal(rpivTodo.classify(toolResultMessage("todo", { ...rpiv, nextId: "2" })), undefined);
  const example = { action: "toggle", todos: [{ id: 1, text: "a", done: true }], nextId: 2 };
  assert.equal(piExampleTodo.classify(toolResultMessage("todo", example)), "complete");
  assert.equal(piExampleTodo.classify(toolResultMessage("todos", example)), undefined);
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_write", { todos: [] })), "unlabelled");
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_write", { written: 3 })), undefined);
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_write", { todos: [{ content: 1, status: "pending" }] })), undefined);
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_read", { todos: [] })), undefined);
});

test("pi example todo: its shape from a tool not named todo is not a list", () => {
  const details = { action: "add", todos: [{ id: 1, text: "a", done: false }], nextId: 2 };
  assert.ok(piExampleTodo.read(toolResult("todo", details)));
  assert.equal(piExampleTodo.read(toolResult("my_todo", details)), undefined);
  assert.equal(readList(toolResult("my_todo", details)), undefined);
});

test("pi example todo: a result whose action is null carries no action: still the list, classified unlabelled", () => {
  const details = { action: null, todos: [{ id: 1, text: "a", done: false }], nextId: 2 };
  assert.deepEqual(summary(piExampleTodo.read(toolResult("todo", details))), [["1", "a", true]]);
  assert.equal(piExampleTodo.classify(toolResultMessage("todo", details)), "unlabelled");
});

test("rpiv batch: a batch whose params hold no ops did nothing that closes a task (other), and never throws", () => {
  const tasks = [task({ id: 1 })];
  for (const params of [undefined, {}, { ops: "x" }, { ops: null }]) {
    const details = { ...rpivDetails({ tasks, action: "batch" }), params };
    assert.equal(rpivTodo.classify(toolResultMessage("todo", details)), "other", JSON.stringify(params));
  }
});

/** The list state the loop sees after these entries under one human message. */
function seenList(...entries: Entry[]) {
  return listState(readSnapshot(chainEntries(humanMessage("go", { id: "u1" }), ...entries)), true);
}

test("sources: the list names the tool that keeps it, for the nudge and the reach check", () => {
  const cases: Array<[Entry, string]> = [
    [todoResult({ tasks: [task({ id: 1 })] }), "todo"],
    [ianState([{ id: 1, title: "a", status: "pending" }]), "todo"],
    [exampleResult([{ id: 1, text: "a", done: false }]), "todo"],
    [quangthaiState([{ content: "a", status: "pending" }]), "todo_write"],
  ];
  for (const [entry, tool] of cases) {
    const state = seenList(entry);
    assert.equal(state.kind === "list" ? state.tool : state.kind, tool, JSON.stringify(entry));
  }
});

test("sources: a state entry of the source's own type that cannot be read leaves its list out of date", () => {
  const cases: Array<[string, Entry, Entry]> = [
    ["rpiv-todo", rpivState([task({ id: 1 })]), customEntry("rpiv-todo-state", { tasks: [{ id: 1, subject: "a", status: "blocked" }], nextId: 2 })],
    ["ian-pascoe", ianState([{ id: 1, title: "a", status: "pending" }]), customEntry("pi-todo-state", { nextId: 2, tasks: [{ id: 1, title: "a", status: "blocked" }] })],
    ["quangthai", quangthaiState([{ content: "a", status: "pending" }]), customEntry("pi-todo.state", { todos: [{ content: "a", status: "blocked" }] })],
  ];
  for (const [name, readable, unreadable] of cases) {
    assert.equal(seenList(readable).kind, "list", name);
    assert.deepEqual(seenList(readable, unreadable), { kind: "out-of-date", why: "unreadable", open: 1, source: readList(readable)?.source }, name);
  }
});

test("sources: a successful result of pi's example todo that cannot be read leaves its list out of date (its results carry the list)", () => {
  const unreadable = toolResult("todo", { action: "add", nextId: 3 });
  assert.equal(readList(unreadable), undefined);
  assert.deepEqual(seenList(exampleResult([{ id: 1, text: "a", done: false }]), unreadable), { kind: "out-of-date", why: "unreadable", open: 1, source: "pi-example-todo" });
});

test("sources: a codemode script that called the list's own tool leaves a list kept in tool results out of date", () => {
  const script = nestedCallsResult([{ name: "todo", status: "ok", arguments: { action: "toggle", id: 1 } }]);
  assert.equal(seenList(exampleResult([{ id: 1, text: "a", done: false }]), script).kind, "out-of-date");
  assert.equal(seenList(todoResult({ tasks: [task({ id: 1 })] }), script).kind, "out-of-date");
});

test("sources: lists kept in custom entries are never made out of date by a codemode script or by their tools' results", () => {
  const quangthai = quangthaiState([{ content: "a", status: "pending" }]);
  const ian = ianState([{ id: 1, title: "a", status: "pending" }]);
  assert.equal(seenList(quangthai, nestedCallsResult([{ name: "todo_write", status: "ok", arguments: { todos: [] } }])).kind, "list");
  assert.equal(seenList(quangthai, toolResult("todo_write", { written: 0 })).kind, "list");
  assert.equal(seenList(ian, nestedCallsResult([{ name: "todo", status: "ok", arguments: { action: "clear" } }])).kind, "list");
  assert.equal(seenList(ian, toolResult("todo", { action: "update", task: { id: 1 } })).kind, "list");
});

test("criogaid tasks: a task id is a positive whole number without leading zeros, up to the high-water mark", () => {
  const valid = { subject: "a", description: "", status: "pending", blocks: [], blockedBy: [] };
  const read = (id: string, highWaterMark: number) => criogaidPiTodosTasks.read(customEntry("pi-todos-tasks", { version: 1, tasks: [{ ...valid, id }], highWaterMark }));
  assert.deepEqual(summary(read("12", 12)), [["12", "a", true]]);
  assert.deepEqual(summary(read("1", 40)), [["1", "a", true]]);
  assert.equal(read("13", 12), undefined);
});

test("criogaid tasks: a snapshot with a high-water mark of 0 and no task is an empty list", () => {
  assert.deepEqual(criogaidPiTodosTasks.read(customEntry("pi-todos-tasks", { version: 1, tasks: [], highWaterMark: 0 }))?.tasks, []);
  assert.equal(criogaidPiTodosTasks.read(customEntry("pi-todos-tasks", { version: 1, tasks: [], highWaterMark: -1 })), undefined);
});

test("criogaid tasks: classify reads TaskCreate, TaskGet and TaskList as other calls; another tool's results are not its", () => {
  for (const toolName of ["TaskCreate", "TaskGet", "TaskList"]) assert.equal(criogaidPiTodosTasks.classify(toolResultMessage(toolName, {})), "other", toolName);
  assert.equal(criogaidPiTodosTasks.classify(toolResultMessage("TaskUpdate", {})), "other");
  assert.equal(criogaidPiTodosTasks.classify(toolResultMessage("TaskDelete", {})), undefined);
});

test("criogaid 0.1: classify reads only its own tool's results in its own shape", () => {
  assert.equal(criogaidPiTodos.classify(toolResultMessage("todo", { todos: [{ content: "a", status: "completed" }] })), "unlabelled");
  assert.equal(criogaidPiTodos.classify(toolResultMessage("todos", { todos: [{ content: "a", status: "completed" }] })), undefined);
  assert.equal(criogaidPiTodos.classify(toolResultMessage("todo", { todos: [{ content: "a", status: "done" }] })), undefined);
});

test("criogaid 0.1: a script's todo call is read only from its arguments exactly as the tool takes them", () => {
  const call = (args: unknown) => criogaidPiTodos.read(nestedCallsResult([{ name: "todo", status: "ok", arguments: args }]));
  assert.deepEqual(summary(call({ todos: [{ content: " a ", status: "pending", activeForm: "  " }] })), [["#1", "a", true]]);
  assert.equal(call({ todos: [{ content: "a", status: "pending" }], merge: true }), undefined, "another argument");
  assert.equal(call({ todos: [null] }), undefined, "a null item");
  assert.equal(call({ todos: [{ content: 5, status: "pending" }] }), undefined, "non-string content");
  assert.equal(call({ todos: [{ content: "a", status: "pending", activeForm: 5 }] }), undefined, "non-string activeForm");
  assert.equal(call("{not json"), undefined, "unparsable arguments");
});

test("criogaid 0.1: one unreadable todo call makes the script's whole record untrusted, even after a readable one", () => {
  const entry = nestedCallsResult([
    { name: "todo", status: "ok", arguments: { todos: [{ content: "a", status: "pending" }] } },
    { name: "todo", status: "ok", arguments: { action: "create", subject: "b" } },
  ]);
  assert.equal(criogaidPiTodos.read(entry), undefined);
  const before = nestedCallsResult([
    { name: "todo", status: "ok", arguments: { action: "create", subject: "b" } },
    { name: "todo", status: "ok", arguments: { todos: [{ content: "a", status: "pending" }] } },
  ]);
  assert.equal(criogaidPiTodos.read(before), undefined, "also before a readable one");
});

test("criogaid 0.1: another tool's call with the same arguments, or a record outside a tool result, is not its list", () => {
  const todos = { todos: [{ content: "a", status: "pending" }] };
  assert.equal(criogaidPiTodos.read(nestedCallsResult([{ name: "todo_write", status: "ok", arguments: todos }])), undefined);
  const script = nestedCallsResult([{ name: "todo", status: "ok", arguments: todos }]);
  assert.ok(criogaidPiTodos.read(script));
  const message = { ...script.message, role: "assistant" };
  assert.equal(criogaidPiTodos.read({ ...script, message }), undefined, "an assistant message");
  assert.equal(criogaidPiTodos.read({ ...script, type: "custom_message" }), undefined, "not a message entry");
});

test("criogaid: each list names its tool, and what leaves it out of date follows where it lives", () => {
  const todo = criogaidResult([{ content: "a", status: "pending" }]);
  const tasks = criogaidTasksState([{ id: "1", subject: "a", status: "pending" }]);
  const todoState = seenList(todo);
  const tasksState = seenList(tasks);
  assert.equal(todoState.kind === "list" ? todoState.tool : todoState.kind, "todo");
  assert.equal(tasksState.kind === "list" ? tasksState.tool : tasksState.kind, "TaskUpdate");
  // 0.1 keeps its list in tool results: an unreadable result or a script's unreadable call leaves it out of date.
  assert.deepEqual(seenList(todo, toolResult("todo", { todos: "x" })), { kind: "out-of-date", why: "unreadable", open: 1, source: "criogaid-pi-todos" });
  assert.deepEqual(seenList(todo, nestedCallsResult([{ name: "todo", status: "ok", arguments: { action: "create" } }])), {
    kind: "out-of-date",
    why: "codemode",
    open: 1,
    source: "criogaid-pi-todos",
  });
  // The task tools keep theirs in custom entries: only an unreadable entry of that type does.
  assert.equal(seenList(tasks, nestedCallsResult([{ name: "TaskUpdate", status: "ok", arguments: { id: "1" } }])).kind, "list");
  assert.deepEqual(seenList(tasks, customEntry("pi-todos-tasks", { version: 1, tasks: [{ id: "1" }], highWaterMark: 1 })), {
    kind: "out-of-date",
    why: "unreadable",
    open: 1,
    source: "criogaid-pi-todos-tasks",
  });
});

test("plan-mode: a null or non-object step, or toolsBeforePlanMode with any non-name, is unreadable", () => {
  const step = { step: 1, text: "a", completed: false };
  for (const data of [
    { enabled: false, executing: true, todos: [step, null] },
    { enabled: false, executing: true, todos: [step, "2. b"] },
    { enabled: true, executing: false, todos: [], toolsBeforePlanMode: ["read", 5] },
    { enabled: true, executing: false, todos: [], toolsBeforePlanMode: "read" },
  ]) {
    assert.equal(planMode.read(customEntry("plan-mode", data)), undefined, JSON.stringify(data));
  }
  assert.equal(planMode.read(customEntry("plan-mode", { enabled: true, executing: false, todos: [], toolsBeforePlanMode: ["read", "bash"] }))?.planning, true);
});

test("plan-mode: an executing entry without todos is an executing plan with no step", () => {
  assert.deepEqual(planMode.read(customEntry("plan-mode", { enabled: false, executing: true }))?.tasks, []);
});

test("plan-mode: the marks take any number of digits, and spaces and the colon only where plan-mode allows them", () => {
  assert.deepEqual(doneSteps("[DONE3]"), [3]);
  assert.deepEqual(doneSteps("[DONE 12]"), [12]);
  assert.deepEqual(doneSteps("[DONE  :  4]"), [4]);
  assert.deepEqual(doneSteps("Done: 12"), [12]);
  assert.deepEqual(doneSteps("Step 2  done. Step 3 is  complete. Step 14 finished"), [2, 3, 14]);
  for (const reply of ["[DONE-3]", "[DONE:-3]", "[DONE.3]", "DONE-: 3", "Done!: 4", "[DONE 3.5]"]) assert.deepEqual(doneSteps(reply), [], reply);
});

test("plan-mode: the whole-plan phrasings allow any run of spaces between their words", () => {
  for (const reply of ["all  steps done", "all steps  done", "All steps is done", "all steps is  done", "plan  complete", "the plan is  done"]) {
    assert.equal(saysPlanComplete(reply), true, reply);
  }
  for (const reply of ["allsteps done", "all stepsdone", "plancomplete"]) assert.equal(saysPlanComplete(reply), false, reply);
});

test("plan-mode: a mark closes the first step as well as any other", () => {
  const steps = [
    { step: 1, text: "a", completed: false },
    { step: 2, text: "b", completed: false },
  ];
  const list = planMode.read(customEntry("plan-mode", { enabled: false, executing: true, todos: steps }));
  assert.ok(list);
  assert.deepEqual(summary(applyPlanReply(list, "[DONE:1]")), [
    ["1", "a", false],
    ["2", "b", true],
  ]);
});

test("tintinweb: optional task fields of the right type read; a missing nextId is allowed; ids must be ids", () => {
  const full = { id: 3, subject: "a", description: "d", status: "pending", activeForm: "doing a", owner: "agent-1", blocks: ["1"], blockedBy: [], metadata: {}, createdAt: 1, updatedAt: 2 };
  const parsed = parseTasksFile(JSON.stringify({ nextId: 4, tasks: [full] }));
  assert.ok(parsed !== "unreadable");
  assert.deepEqual(summary(parsed), [["3", "a", true]]);
  const noNextId = parseTasksFile(JSON.stringify({ tasks: [full] }));
  assert.ok(noNextId !== "unreadable");
  assert.equal(noNextId.tasks.length, 1);
  for (const id of [null, true, {}]) assert.equal(parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ ...full, id }] })), "unreadable", String(id));
  assert.equal(parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ ...full, id: undefined }] })), "unreadable", "no id");
  assert.equal(parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ ...full, blockedBy: ["1", 2] }] })), "unreadable", "a non-id in blockedBy");
});

test("tintinweb: PI_TASKS=off and taskScope memory mean no file at all; an empty PI_TASKS is as if unset", () => {
  const dirs = tasksDirs();
  try {
    assert.deepEqual(tasksFileCandidates({ ...dirs, env: { ...dirs.env, PI_TASKS: "off" } }), []);
    const unset = tasksFileCandidates(dirs);
    assert.equal(unset.length, 2);
    assert.deepEqual(tasksFileCandidates({ ...dirs, env: { ...dirs.env, PI_TASKS: "" } }), unset);
    dirs.put(join(dirs.cwd, ".pi", "tasks-config.json"), JSON.stringify({ taskScope: "memory" }));
    assert.deepEqual(tasksFileCandidates(dirs), []);
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: a location whose folder is a file is skipped for the next one", () => {
  const dirs = tasksDirs();
  try {
    dirs.put(join(dirs.agentDir, "tasks"), "not a folder");
    const legacy = join(dirs.cwd, ".pi", "tasks", "tasks-s1.json");
    dirs.put(legacy, ONE_OPEN);
    assert.equal(readTasksFile(dirs)?.path, legacy);
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: a result with empty details is as unlabelled as one with none", () => {
  assert.equal(tintinwebPiTasks.classify(toolResultMessage("TaskList", {})), "unlabelled");
  assert.equal(tintinwebPiTasks.classify(toolResultMessage("bash", {})), undefined);
});

test("sources: every source is found by its id, and /todoloop names it by its label", () => {
  const labels: Array<[SourceId, string]> = [
    ["rpiv-todo", "rpiv-todo"],
    ["ian-pascoe-pi-todo", "@ian-pascoe/pi-todo"],
    ["pi-example-todo", "pi example todo"],
    ["quangthai-pi-todo", "@nguyenquangthai/pi-todo"],
    ["criogaid-pi-todos", "pi-todos 0.1"],
    ["criogaid-pi-todos-tasks", "pi-todos tasks"],
    ["tintinweb-pi-tasks", "@tintinweb/pi-tasks"],
    ["plan-mode", "pi plan-mode"],
  ];
  for (const [id, label] of labels) assert.equal(sourceLabel(id), label, id);
});

/** A @zhushanwen/pi-todo result: the full list of `{ id, text, status }` items with a numeric nextId. */
function zhushanwenTodos(todos: unknown[], action = "add", toolName = "todo"): Entry {
  return toolResult(toolName, { action, todos, nextId: todos.length + 1 });
}

test("zhushanwen: an empty list left by update or delete (actions pi's example lacks) is its own", () => {
  for (const action of ["update", "delete"]) assert.deepEqual(zhushanwenPiTodo.read(zhushanwenTodos([], action))?.tasks, [], action);
  assert.equal(zhushanwenPiTodo.read(zhushanwenTodos([], "add")), undefined, "an empty list of a shared action is pi's example's");
});

test("zhushanwen: a list of done-only items is pi's example's shape, whatever the action", () => {
  assert.equal(zhushanwenPiTodo.read(zhushanwenTodos([{ id: 1, text: "a", done: true }], "update")), undefined);
});

test("zhushanwen: its shape from a tool not named todo is not its list nor its call; another shape is not its call", () => {
  const item = { id: 1, text: "a", status: "pending" };
  assert.ok(zhushanwenPiTodo.read(zhushanwenTodos([item])));
  assert.equal(zhushanwenPiTodo.read(zhushanwenTodos([item], "add", "todos")), undefined);
  assert.equal(zhushanwenPiTodo.classify(toolResultMessage("todos", { action: "delete", todos: [item], nextId: 2 })), undefined);
  assert.equal(zhushanwenPiTodo.classify(toolResultMessage("todo", rpivDetails({ tasks: [task({ id: 1 })], action: "delete" }))), undefined);
});

test("zhushanwen: its list names the tool todo and, kept in tool results, goes out of date on an unreadable result or a script's call", () => {
  const list = zhushanwenTodos([{ id: 1, text: "a", status: "pending" }]);
  const state = seenList(list);
  assert.equal(state.kind === "list" ? `${state.source} ${state.tool}` : state.kind, "zhushanwen-pi-todo todo");
  assert.equal(seenList(list, toolResult("todo", { action: "update", nextId: 2 })).kind, "out-of-date");
  assert.equal(seenList(list, nestedCallsResult([{ name: "todo", status: "ok", arguments: { action: "update", id: 1 } }])).kind, "out-of-date");
  assert.equal(sourceLabel("zhushanwen-pi-todo"), "@zhushanwen/pi-todo");
});

test("plan-mode: a step number is a whole number of at least 1", () => {
  for (const step of [1.5, 0, -1, Number.NaN, "1"]) {
    assert.equal(planMode.read(customEntry("plan-mode", { enabled: false, executing: true, todos: [{ step, text: "a", completed: false }] })), undefined, String(step));
  }
});

// ---- "I have no list" never hides another source's list (SPEC 0.3 §9) ------------------------------

import { createBranchReader } from "../src/state.ts";
import { createSession } from "./fake-pi.ts";

/** One entry per source that keeps its list on the branch, reading as a list with open tasks (tintinweb's is in a file). */
const OPEN_LIST: ReadonlyMap<SourceId, () => Entry> = new Map<SourceId, () => Entry>([
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
const NO_LIST: ReadonlyMap<SourceId, { none: readonly (() => Entry)[]; others: readonly (() => Entry)[] }> = new Map([
  ["plan-mode", {
    none: [() => planEntry({ enabled: false, todos: [], executing: false }), () => planEntry({ enabled: false })],
    others: [() => planEntry({ enabled: true, todos: [], executing: false }), () => planEntry({ enabled: false, executing: true, todos: [{ step: 1, text: "x", completed: false }] })],
  }],
]);

/** Every interleaving of `a` and `b` that keeps the order within each. */
function interleavings<T>(a: readonly T[], b: readonly T[]): T[][] {
  if (a.length === 0) return [[...b]];
  if (b.length === 0) return [[...a]];
  const [headA, ...restA] = a as [T, ...T[]];
  const [headB, ...restB] = b as [T, ...T[]];
  return [...interleavings(restA, b).map((rest) => [headA, ...rest]), ...interleavings(a, restB).map((rest) => [headB, ...rest])];
}

/** The list a branch reads as, by a full read and entry by entry through the incremental reader (they must agree). */
function readBoth(entries: Entry[]): TodoList | undefined {
  const branch = chainEntries(...entries);
  const full = readSnapshot(branch).list;
  const session = createSession<Entry>([], "pairs");
  const reader = createBranchReader();
  for (const entry of branch) {
    session.append(entry);
    reader.read(session);
  }
  assert.deepEqual(reader.read(session).snapshot.list, full, "incremental and full reads agree");
  return full;
}

test("sources: every source that keeps its list on the branch has an open-list sample, every source that can say it holds no list has its no-list states", () => {
  for (const source of SOURCES) {
    if (source.id !== "tintinweb-pi-tasks") assert.ok(OPEN_LIST.has(source.id), source.id);
    assert.equal(NO_LIST.has(source.id), source.saysNoList === true, source.id);
  }
  for (const [id, make] of OPEN_LIST) assert.equal(readList(make())?.source, id);
  for (const [id, states] of NO_LIST) for (const make of states.none) assert.equal(readList(make())?.none, true, id);
});

test("property: a source's 'I have no list' never hides another source's list, over every pair of sources and every order of their entries, the human message anywhere", () => {
  let cases = 0;
  type Step = { readonly make: () => Entry; readonly role: "none" | "quiet" | "other" };
  for (const [quiet, states] of NO_LIST) {
    const none = (index: number): Step => ({ make: states.none[index] as () => Entry, role: "none" });
    const state = (index: number): Step => ({ make: states.others[index] as () => Entry, role: "quiet" });
    for (const [other, makeList] of OPEN_LIST) {
      if (other === quiet) continue;
      // The quiet source's own history (its other states, then "no list"), interleaved with the other source's list.
      for (const own of [[none(0)], [state(0), none(0)], [state(1), none(1)], [none(1), state(0), none(0)]]) {
        for (const order of interleavings<Step>(own, [{ make: makeList, role: "other" }])) {
          for (let at = 0; at <= order.length; at++) {
            const entries = order.map((step) => step.make());
            entries.splice(at, 0, humanMessage("go"));
            const list = readBoth(entries);
            const roles = order.map((step) => step.role);
            // The other source's list shows unless a state of the quiet source that is not "no list" is newer still.
            const expected = roles.lastIndexOf("quiet") > Math.max(roles.indexOf("other"), roles.lastIndexOf("none")) ? quiet : other;
            assert.equal(list?.source, expected, `${quiet} / ${other}: ${roles.join(", ")}, human message at ${at}`);
            if (expected === other) assert.equal(listState(readSnapshot(chainEntries(...entries)), true).kind, "list");
            cases++;
          }
        }
      }
    }
  }
  assert.ok(cases > 100, `${cases} cases`);
});

test("plan-mode switched off or never started holds no list at all: not 'the list was emptied'", () => {
  for (const make of NO_LIST.get("plan-mode")?.none ?? []) {
    const snapshot = readSnapshot(chainEntries(humanMessage("go"), make()));
    assert.equal(snapshot.list, undefined);
    assert.notDeepEqual(listState(snapshot, true), { kind: "none", why: "emptied" });
    assert.deepEqual(listState(snapshot, false), { kind: "none", why: "no-tool" });
  }
  const executed = readSnapshot(chainEntries(humanMessage("go"), OPEN_LIST.get("plan-mode")?.() as Entry, planEntry({ enabled: false, todos: [], executing: false })));
  assert.equal(executed.list, undefined, "off ends plan-mode's own steps");
});
