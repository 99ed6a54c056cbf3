/**
 * @nguyenquangthai/pi-todo's shapes (src/sources/quangthai-pi-todo.ts): state entries and write results
 * as the list, the tool family the nudge names, and its unlabelled calls.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { quangthaiPiTodo } from "../../src/sources/quangthai-pi-todo.ts";
import { quangthaiResult, quangthaiState, toolResultMessage } from "../builders.ts";
import { summary } from "./reading.ts";

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
