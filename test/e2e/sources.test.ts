// Proves on the real host that pi's example todo, @ian-pascoe/pi-todo and @nguyenquangthai/pi-todo are read and looped to the end.
/**
 * The todo sources other than rpiv-todo, on the real pi host: pi's own example `todo` extension, and
 * test-only stand-ins that persist exactly what @ian-pascoe/pi-todo and @nguyenquangthai/pi-todo persist.
 * For each: open tasks at a settle → one marker whose nudge names that source's tool → the model
 * finishes → `stopped: list is clear`; `/todoloop` names the source; emptying the list warns by what
 * the calls did.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  checkInvariants,
  extensionArgs,
  lastMessage,
  markers,
  PI_PACKAGE,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  stopReasons,
  textOf,
  untilRequests,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  withoutFingerprint,
} from "./harness.ts";
import type { EntryRecord, Notify, ScriptStep } from "./harness.ts";
import { IAN_PASCOE_TODO, QUANGTHAI_TODO } from "./stand-ins/paths.ts";

const PI_EXAMPLE_TODO = join(PI_PACKAGE, "examples", "extensions", "todo.ts");

interface Source {
  /** The `-e` path of the todo extension. */
  path: string;
  /** How /todoloop names the source. */
  label: string;
  /** The tool phrase the nudge must contain. */
  nudge: string;
  plan: ScriptStep;
  finish: ScriptStep;
}

const PI_EXAMPLE: Source = {
  path: PI_EXAMPLE_TODO,
  label: "pi example todo",
  nudge: "Use the todo tool to read the list",
  plan: { text: "Planning.", calls: TASKS.map((text) => ({ name: "todo", args: { action: "add", text } })) },
  finish: { text: "Finishing.", calls: [1, 2].map((id) => ({ name: "todo", args: { action: "toggle", id } })) },
};

const IAN_PASCOE: Source = {
  path: IAN_PASCOE_TODO,
  label: "@ian-pascoe/pi-todo",
  nudge: "Use the todo tool to read the list",
  plan: { text: "Planning.", calls: [{ name: "todo", args: { action: "add", tasks: TASKS.map((title) => ({ title })) } }] },
  finish: { text: "Finishing.", calls: [1, 2].map((id) => ({ name: "todo", args: { action: "update", id, status: "completed" } })) },
};

const QUANGTHAI: Source = {
  path: QUANGTHAI_TODO,
  label: "@nguyenquangthai/pi-todo",
  nudge: "Use the todo_read and todo_write tools to read the list",
  plan: {
    text: "Planning.",
    calls: [{ name: "todo_write", args: { todos: TASKS.map((content, index) => ({ content, status: index === 0 ? "in_progress" : "pending", priority: "high" })) } }],
  },
  finish: { text: "Finishing.", calls: [{ name: "todo_update", args: { updates: ["t1", "t2"].map((id) => ({ id, status: "completed" })) } }] },
};

interface LoopRun {
  entries: EntryRecord[];
  status: string;
  notifies: Notify[];
}

/**
 * plan → settle (one marker) → the continuation finishes every task (the `/todoloop` report is taken
 * while that reply is being produced, tasks still open) → settle with the list clear.
 */
function continueAndStop(t: { signal: AbortSignal }, source: Source): Promise<LoopRun> {
  const script: ScriptStep[] = [source.plan, say("Plan made; stopping here."), { ...source.finish, delayMs: 1200 }, say("All done.")];
  return withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.send("Do the work");
    await untilRequests(box, 3);
    const status = (await rpc.command("status"))[0]?.message ?? "";
    await rpc.waitSettled();
    checkInvariants(box, { script, taskTexts: TASKS });
    assert.ok(textOf(lastMessage(requests(box)[2]).content).includes(source.nudge), "the continuation request ends with the nudge naming the tool");
    return { entries: await rpc.getEntries(), status, notifies: [...rpc.notifies] };
  }, { extensions: extensionArgs([], { todo: source.path }) });
}

function assertContinuedAndStopped(run: LoopRun, source: Source): void {
  const [anchor] = userMessageIds(run.entries);
  const found = markers(run.entries);
  assert.equal(found.length, 1, "exactly one marker");
  assert.deepEqual(withoutFingerprint(found[0]?.details), { v: 1, round: 1, anchor, open: 2, total: 2, cap: null, hint: false, idle: 1, stale: 0, stuck: 0, repeats: 1 });
  assert.ok(textOf(found[0]?.content).includes(source.nudge), `the nudge names the tool: ${textOf(found[0]?.content)}`);
  assert.match(run.status, new RegExp(`^tasks open: 2 of 2 \\(${source.label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\)$`, "m"));
  assert.match(run.status, /^last: continuing: 2 tasks still open, continue 1$/m);
  assert.deepEqual(stopData(run.entries), [{ v: 1, kind: "clear", reason: "stopped: list is clear", round: 1, open: 0, anchor }]);
  assert.deepEqual(run.notifies.filter((notify) => notify.message.startsWith("todo loop ")), [{ message: "todo loop stopped: list is clear", notifyType: "info" }]);
}

test("pi's example todo extension: open tasks get one marker naming the todo tool, toggling them all ends with stopped: list is clear, /todoloop names the source", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const run = await continueAndStop(t, PI_EXAMPLE);
  assertContinuedAndStopped(run, PI_EXAMPLE);
});

test("@ian-pascoe/pi-todo's shape (pi-todo-state entries, results carrying only the touched task): one marker naming the todo tool, then stopped: list is clear", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const run = await continueAndStop(t, IAN_PASCOE);
  const states = run.entries.filter((entry) => entry.type === "custom" && entry.customType === "pi-todo-state");
  assert.equal(states.length, 3, "one state entry per change: add, update, update");
  const results = run.entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo");
  assert.deepEqual(
    results.map((result) => Object.keys(result.message?.details ?? {}).sort().join(",")),
    ["action,tasks", "action,task", "action,task"],
    "results carry only what the call touched (add: the added tasks; update: the task)",
  );
  for (const result of results) {
    // pi runs the calls of one reply in parallel: their state entries land after that reply, before the results.
    const index = run.entries.indexOf(result);
    const reply = run.entries.slice(0, index).findLastIndex((entry) => entry.message?.role === "assistant");
    assert.ok(run.entries.slice(reply, index).some((entry) => entry.customType === "pi-todo-state"), "a state entry precedes each result");
  }
  assertContinuedAndStopped(run, IAN_PASCOE);
});

test("@nguyenquangthai/pi-todo's shape (pi-todo.state entries, write results with details.todos): one marker naming todo_read/todo_write, then stopped: list is clear", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const run = await continueAndStop(t, QUANGTHAI);
  assert.equal(run.entries.filter((entry) => entry.type === "custom" && entry.customType === "pi-todo.state").length, 2);
  assertContinuedAndStopped(run, QUANGTHAI);
});

/**
 * plan → a todo-only turn that leaves no task open → settle; returns the loop's notifies and stops. The
 * emptied-list warning is its own event; the stop is announced after it, when the run ends.
 */
function emptyTheList(t: { signal: AbortSignal }, source: Source, empty: ScriptStep): Promise<{ notifies: string[]; stops: string[] }> {
  const script: ScriptStep[] = [source.plan, empty, say("Nothing left.")];
  return withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    checkInvariants(box, { script, taskTexts: TASKS });
    const entries = await rpc.getEntries();
    assert.deepEqual(markers(entries), []);
    return { notifies: rpc.notifies.map((notify) => `${notify.notifyType}: ${notify.message}`), stops: stopReasons(entries) };
  }, { extensions: extensionArgs([], { todo: source.path }) });
}

const EMPTIED = "stopped: no list (the list was emptied: its tasks were deleted or cleared)";

test("pi's example todo extension: a clear that leaves nothing done warns that the list was cleared without completing anything, then announces the stop", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const run = await emptyTheList(t, PI_EXAMPLE, { text: "Clearing.", calls: [{ name: "todo", args: { action: "clear" } }] });
  assert.equal(run.notifies.length, 2, run.notifies.join("\n"));
  assert.match(run.notifies[0] ?? "", /^warning: todo loop: the todo list was cleared without completing anything\./);
  assert.equal(run.notifies[1], `warning: todo loop ${EMPTIED}`);
  assert.deepEqual(run.stops, [EMPTIED]);
});

test("@ian-pascoe/pi-todo's shape: removing every task warns, naming the tasks, that they were deleted rather than completed, then announces the stop", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const run = await emptyTheList(t, IAN_PASCOE, { text: "Removing.", calls: [1, 2].map((id) => ({ name: "todo", args: { action: "remove", id } })) });
  assert.equal(run.notifies.length, 2, run.notifies.join("\n"));
  assert.match(run.notifies[0] ?? "", /^warning: todo loop: 2 tasks were deleted rather than completed: "Write the parser", "Write the tests"\./);
  assert.equal(run.notifies[1], `warning: todo loop ${EMPTIED}`);
  assert.deepEqual(run.stops, [EMPTIED]);
});

test("@nguyenquangthai/pi-todo's shape: a todo_write of [] warns that finished cannot be told from deleted, then announces the stop", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const run = await emptyTheList(t, QUANGTHAI, { text: "Clearing.", calls: [{ name: "todo_write", args: { todos: [] } }] });
  assert.equal(run.notifies.length, 2, run.notifies.join("\n"));
  assert.match(run.notifies[0] ?? "", /^warning: todo loop: .*cannot tell finished from deleted/);
  assert.equal(run.notifies[1], `warning: todo loop ${EMPTIED}`);
  assert.deepEqual(run.stops, [EMPTIED]);
});
