/**
 * @ian-pascoe/pi-todo's shapes (src/sources/ian-pascoe-pi-todo.ts): pi-todo-state entries hold the list,
 * its results only the affected task; how its calls are classified.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ianPascoePiTodo } from "../../src/sources/ian-pascoe-pi-todo.ts";
import type { CallKind } from "../../src/core/types.ts";
import { readList } from "../../src/state.ts";
import { ianState, toolResult, toolResultMessage } from "../builders.ts";
import { summary } from "./reading.ts";

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
