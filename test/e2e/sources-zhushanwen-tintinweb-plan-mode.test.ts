// Proves on the real host that @zhushanwen/pi-todo, @tintinweb/pi-tasks and pi's plan-mode are read and looped to the end.
/**
 * The todo sources added with version 0.2 of the specification, on the real pi host: test-only
 * stand-ins that persist exactly what @zhushanwen/pi-todo and @tintinweb/pi-tasks persist (the tintinweb
 * one writes its task file where the real tool does, inside the sandbox's agent dir), and pi's REAL
 * plan-mode example, driven over RPC (`/plan`, its select dialog answered through the extension UI
 * protocol). For each: open tasks at a settle → one marker → the model finishes → `stopped: list is
 * clear`. While plan mode is only planning the loop never continues.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
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
  stopReasons,
  textOf,
  untilRequests,
  withRpc,
  TWO_TASKS as TASKS,
} from "./harness.ts";
import type { EntryRecord, Notify, RpcEvent, RpcSession, Sandbox, ScriptStep } from "./harness.ts";
import { TINTINWEB_TASKS, ZHUSHANWEN_TODO } from "./stand-ins/paths.ts";

const PLAN_MODE = join(PI_PACKAGE, "examples", "extensions", "plan-mode", "index.ts");
const CLEAR = "stopped: list is clear";

interface Source {
  path: string;
  label: string;
  nudge: string;
  plan: ScriptStep;
  finish: ScriptStep;
}

const ZHUSHANWEN: Source = {
  path: ZHUSHANWEN_TODO,
  label: "@zhushanwen/pi-todo",
  nudge: "Use the todo tool to read the list",
  plan: { text: "Planning.", calls: [{ name: "todo", args: { action: "add", texts: TASKS } }] },
  finish: { text: "Finishing.", calls: [{ name: "todo", args: { action: "update", updates: [{ id: 1, status: "completed" }, { id: 2, status: "cancelled" }] } }] },
};

const TINTINWEB: Source = {
  path: TINTINWEB_TASKS,
  label: "@tintinweb/pi-tasks",
  nudge: "Use the TaskList and TaskUpdate tools to read the list",
  plan: { text: "Planning.", calls: [{ name: "TaskCreateMany", args: { tasks: TASKS.map((subject) => ({ subject, description: `${subject}, with care` })) } }] },
  finish: { text: "Finishing.", calls: ["1", "2"].map((taskId) => ({ name: "TaskUpdate", args: { taskId, status: "completed" } })) },
};

interface LoopRun {
  box: Sandbox;
  entries: EntryRecord[];
  status: string;
  notifies: Notify[];
}

/** plan → settle (one marker) → the continuation finishes every task (status taken meanwhile) → settle. */
function continueAndStop(t: { signal: AbortSignal }, source: Source, check: (run: LoopRun) => void): Promise<void> {
  const script: ScriptStep[] = [source.plan, say("Plan made; stopping here."), { ...source.finish, delayMs: 1200 }, say("All done.")];
  return withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.send("Do the work");
    await untilRequests(box, 3);
    const status = (await rpc.command("status"))[0]?.message ?? "";
    await rpc.waitSettled();
    checkInvariants(box, { script, taskTexts: TASKS });
    assert.ok(textOf(lastMessage(requests(box)[2]).content).includes(source.nudge), "the continuation request ends with the nudge naming the tool");
    check({ box, entries: await rpc.getEntries(), status, notifies: [...rpc.notifies] });
  }, { extensions: extensionArgs([], { todo: source.path }) });
}

function assertContinuedAndStopped(run: LoopRun, source: Source): void {
  const found = markers(run.entries);
  assert.equal(found.length, 1, "exactly one marker");
  assert.ok(textOf(found[0]?.content).includes(source.nudge), `the nudge names the tool: ${textOf(found[0]?.content)}`);
  assert.match(run.status, /^tasks open: 2 of 2\b/m, run.status);
  assert.ok(run.status.includes(source.label), `/todoloop names the source: ${run.status}`);
  assert.deepEqual(stopReasons(run.entries), [CLEAR]);
  assert.deepEqual(run.notifies.filter((notify) => notify.message.startsWith("todo loop ")).map((notify) => notify.message), ["todo loop stopped: list is clear"]);
}

test("@zhushanwen/pi-todo's shape (status items in every todo result): one marker naming the todo tool, completing and cancelling every task ends with stopped: list is clear", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  await continueAndStop(t, ZHUSHANWEN, (run) => {
    const results = run.entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo");
    assert.ok(results.every((result) => Array.isArray((result.message?.details as { todos?: unknown } | undefined)?.todos)), "every result carries the list");
    assertContinuedAndStopped(run, ZHUSHANWEN);
  });
});

test("@tintinweb/pi-tasks' shape (no details, the list in the session's task file): one marker naming TaskList/TaskUpdate, completing every task ends with stopped: list is clear", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  await continueAndStop(t, TINTINWEB, (run) => {
    const results = run.entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName?.startsWith("Task"));
    assert.ok(results.length >= 3 && results.every((result) => result.message?.details === undefined), "its results carry no details");
    assert.ok(existsSync(join(run.box.agentDir, "tasks", "sessions")), "the task file is where the tool writes it, in the sandbox");
    assertContinuedAndStopped(run, TINTINWEB);
  });
});

// ---- pi's real plan-mode example ----------------------------------------------------------------------

const EXECUTE = "Execute the plan (track progress)";
const STAY = "Stay in plan mode";
const PLAN_TEXT = "Plan:\n1. Write the config tokenizer\n2. Write the parser tests\n3. Update the README section\n";

/** Answers every select dialog of the run with `choice` (RPC extension UI protocol); returns the titles asked. */
function answerSelects(rpc: RpcSession, choice: string): string[] {
  const asked: string[] = [];
  const child: unknown = Reflect.get(rpc.client, "process");
  if (!(child instanceof ChildProcess)) throw new Error("no pi child process");
  rpc.client.onEvent((event: RpcEvent) => {
    if (event.type !== "extension_ui_request" || event.method !== "select") return;
    asked.push(String(event.title));
    child.stdin?.write(`${JSON.stringify({ type: "extension_ui_response", id: event.id, value: choice })}\n`);
  });
  return asked;
}

function planModeEntries(entries: readonly EntryRecord[]): Array<{ enabled?: boolean; executing?: boolean; todos?: Array<{ completed: boolean }> }> {
  return entries.filter((entry) => entry.type === "custom" && entry.customType === "plan-mode").map((entry) => entry.data as { enabled?: boolean; executing?: boolean; todos?: Array<{ completed: boolean }> });
}

test("pi's real plan-mode: while it is planning the loop never continues, and nothing is announced or recorded", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [say(PLAN_TEXT), say("Refined plan:\nPlan:\n1. Write the config tokenizer\n2. Write the parser tests\n")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    const asked = answerSelects(rpc, STAY);
    assert.equal(await rpc.prompt("/plan"), "handled");
    await rpc.prompt("Plan the config parser");
    const report = await rpc.command("status");
    const status = report.map((notify) => notify.message).join("\n");
    await rpc.prompt("Split the tokenizer step");
    checkInvariants(box, { script });
    const entries = await rpc.getEntries();
    assert.equal(asked.length, 2, "plan-mode asked what next after each planning reply");
    assert.equal(requests(box).length, 2, "no continuation request");
    assert.deepEqual(markers(entries), []);
    assert.deepEqual(stopReasons(entries), []);
    assert.deepEqual(rpc.notifies.filter((notify) => notify.message.startsWith("todo loop") && !report.includes(notify)), [], "nothing announced");
    assert.ok(planModeEntries(entries).some((data) => data.enabled === true && (data.todos?.length ?? 0) === 3), "plan-mode saved the extracted steps while planning");
    assert.match(status, /plan mode is planning/, status);
  }, { extensions: extensionArgs([PLAN_MODE], { todo: null }) });
});

test("pi's real plan-mode: executing a plan, the loop continues while steps are open ([DONE:n] in the replies) and stops when the plan is done", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  // Execute queues two follow-ups: the first executing reply has one waiting, so it gets no marker.
  const script: ScriptStep[] = [say(PLAN_TEXT), say("Tokenizer written. [DONE:1]"), say("Tests written. [DONE:2]"), say("README updated. [DONE:3]")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    const asked = answerSelects(rpc, EXECUTE);
    assert.equal(await rpc.prompt("/plan"), "handled");
    await rpc.prompt("Plan the config parser");
    // The run that Execute starts may still be going on: wait until the model had every request.
    await untilRequests(box, script.length);
    let entries = await rpc.getEntries();
    // The stop is recorded once pi settles; plan-mode saves the finished plan at the run's end.
    for (let tries = 0; tries < 200 && (stopReasons(entries).length === 0 || planModeEntries(entries).at(-1)?.executing !== false); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      entries = await rpc.getEntries();
    }
    checkInvariants(box, { script });
    assert.deepEqual(asked, ["Plan mode - what next?"]);
    const found = markers(entries);
    assert.equal(found.length, 1, "exactly one marker: after the reply that left step 3 open");
    assert.match(textOf(found[0]?.content), /\[DONE:n\]/, "the nudge names plan-mode's [DONE:n] convention, not a tool");
    assert.equal((found[0]?.details as { open?: number } | undefined)?.open, 1);
    assert.ok(textOf(lastMessage(requests(box)[3]).content).includes("[DONE:n]"), "the last request ends with the nudge");
    assert.deepEqual(stopReasons(entries), [CLEAR]);
    const last = planModeEntries(entries).at(-1);
    assert.deepEqual(last, { enabled: false, todos: [], executing: false }, "plan-mode finished the plan itself");
  }, { extensions: extensionArgs([PLAN_MODE], { todo: null }) });
});

test("pi's real plan-mode: a longer plan closed one step per reply, with no tool call, is never stopped by the idle brake", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const plan = "Plan:\n1. Write the tokenizer\n2. Write the parser\n3. Write the tests\n4. Update the README\n5. Update the changelog\n";
  const script: ScriptStep[] = [say(plan), ...[1, 2, 3, 4, 5].map((step) => say(`Step ${step} finished. [DONE:${step}]`))];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    answerSelects(rpc, EXECUTE);
    assert.equal(await rpc.prompt("/plan"), "handled");
    await rpc.prompt("Plan the config parser");
    await untilRequests(box, script.length);
    let entries = await rpc.getEntries();
    for (let tries = 0; tries < 200 && stopReasons(entries).length === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      entries = await rpc.getEntries();
    }
    checkInvariants(box, { script });
    const details = markers(entries).map((entry) => entry.details as { open?: number; idle?: number });
    assert.deepEqual(details.map((detail) => detail.open), [3, 2, 1], "one continuation after each reply that left steps open");
    assert.deepEqual(details.map((detail) => detail.idle), [1, 1, 1], "each reply closed a step: no reply counted as one without work");
    assert.deepEqual(stopReasons(entries), [CLEAR]);
  }, { extensions: extensionArgs([PLAN_MODE], { todo: null }) });
});
