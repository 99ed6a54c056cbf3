/**
 * The todo-source adapters (SPEC §9, TODO-SHAPES.md): each one's reading and classifying of its own
 * shapes, the shared guards they use, and the rule that shape decides, never the tool name alone.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { criogaidPiTodos, criogaidPiTodosTasks } from "../src/sources/criogaid-pi-todos.ts";
import { ianPascoePiTodo } from "../src/sources/ian-pascoe-pi-todo.ts";
import { SOURCES, sourceLabel, TODO_TOOL_NAMES } from "../src/sources/index.ts";
import type { CallKind, SourceId, TodoList } from "../src/sources/index.ts";
import { piExampleTodo } from "../src/sources/pi-example-todo.ts";
import { quangthaiPiTodo } from "../src/sources/quangthai-pi-todo.ts";
import { rpivTodo } from "../src/sources/rpiv-todo.ts";
import { customData, idText, isRecord, readItems, successfulResult, successfulToolResult } from "../src/sources/types.ts";
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
  for (const name of ["todo", "todo_write", "todo_update", "todo_read", "todowrite", "todoread", "TaskCreate", "TaskUpdate", "TaskGet", "TaskList"]) {
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
