/**
 * Criogaid/pi-todos (src/sources/criogaid-pi-todos.ts): the 0.1 todo tool, the tasks tool and the todo
 * build's snapshots, as the tool's own decoders read them, and codemode calls of its todo tool.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { criogaidPiTodos, criogaidPiTodosTasks } from "../../src/sources/criogaid-pi-todos.ts";
import { readList } from "../../src/state.ts";
import { criogaidResult, criogaidTasksState, toolResult, toolResultMessage, customEntry, nestedCallsResult } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { summary, seenList } from "./reading.ts";

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

// ---- malformed input, foreign tools, what it declares -----------------------------------------------

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
