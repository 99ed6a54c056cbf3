/**
 * @zhushanwen/pi-todo's shapes (src/sources/zhushanwen-pi-todo.ts): status items and older done items,
 * its renderings, what makes its state unreadable, and how its calls are classified.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SOURCES, sourceLabel } from "../../src/sources/index.ts";
import type { CallKind } from "../../src/core/types.ts";
import { piExampleTodo } from "../../src/sources/pi-example-todo.ts";
import { planMode } from "../../src/sources/plan-mode.ts";
import { parseTasksFile } from "../../src/sources/tintinweb-pi-tasks.ts";
import { zhushanwenPiTodo } from "../../src/sources/zhushanwen-pi-todo.ts";
import { readList } from "../../src/state.ts";
import { exampleResult, rpivDetails, task, toolResult, toolResultMessage, nestedCallsResult } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { summary, classifyAny, messageOf, seenList, zhushanwenTodos } from "./reading.ts";

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

// ---- malformed input, foreign tools, what it declares -----------------------------------------------

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
