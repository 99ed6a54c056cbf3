/**
 * @juicesharp/rpiv-todo's shapes (src/sources/rpiv-todo.ts, TODO-SHAPES.md): its results and state
 * entries as the list, what is not its shape, how its calls are classified, and the nredd fork's batches.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CallKind } from "../../src/core/types.ts";
import { rpivTodo } from "../../src/sources/rpiv-todo.ts";
import { rpivClear, rpivDetails, rpivState, task, todoResult, toolResult, toolResultMessage } from "../builders.ts";
import { summary, messageOf } from "./reading.ts";

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

// ---- malformed input, foreign tools, what it declares -----------------------------------------------

test("rpiv batch: a batch whose params hold no ops did nothing that closes a task (other), and never throws", () => {
  const tasks = [task({ id: 1 })];
  for (const params of [undefined, {}, { ops: "x" }, { ops: null }]) {
    const details = { ...rpivDetails({ tasks, action: "batch" }), params };
    assert.equal(rpivTodo.classify(toolResultMessage("todo", details)), "other", JSON.stringify(params));
  }
});
