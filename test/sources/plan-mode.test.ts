/**
 * pi's plan-mode example (src/sources/plan-mode.ts): executing steps as the list, planning and off, the
 * [DONE:n] marks and whole-plan phrasings a reply closes steps with.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rpivTodo } from "../../src/sources/rpiv-todo.ts";
import { applyPlanReply, doneSteps, planMode, saysPlanComplete } from "../../src/sources/plan-mode.ts";
import { listState, readSnapshot } from "../../src/state.ts";
import { task, todoResult, toolResultMessage, chain as chainEntries, customEntry, user as humanMessage } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { summary, planEntry, OPEN_LIST, NO_LIST } from "./reading.ts";

// ---- pi's plan-mode example ------------------------------------------------------------------------

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

// ---- malformed input, foreign tools, what it declares -----------------------------------------------

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

test("plan-mode: a step number is a whole number of at least 1", () => {
  for (const step of [1.5, 0, -1, Number.NaN, "1"]) {
    assert.equal(planMode.read(customEntry("plan-mode", { enabled: false, executing: true, todos: [{ step, text: "a", completed: false }] })), undefined, String(step));
  }
});

// ---- "I have no list" never hides another source's list (SPEC 0.3 §9) ------------------------------

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
