/**
 * pi's example todo extension (src/sources/pi-example-todo.ts): todos with a numeric nextId as the list,
 * what is not its shape, how its calls are classified.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CallKind } from "../../src/core/types.ts";
import { piExampleTodo } from "../../src/sources/pi-example-todo.ts";
import { readList } from "../../src/state.ts";
import { exampleResult, toolResult, toolResultMessage } from "../builders.ts";
import { summary, messageOf } from "./reading.ts";

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

// ---- malformed input, foreign tools, what it declares -----------------------------------------------

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
