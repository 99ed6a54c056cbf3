// Proves on the real host that todo calls made from a codemode script are read, or leave the list out of date.
/**
 * codemode on the real pi host (1.6.0, `-e builtin:codemode --tools +codemode`): the scripted model
 * calls `codemode` with `{ code }`, a script calling `tools.todo`. pi records the script's calls on the
 * codemode result (`nestedCalls`) but not their results, so a todo tool that keeps its list only in its
 * results (rpiv-todo 2.x) leaves the branch with a list that is out of date: no continuation on it, and
 * the stop says why. A tool that saves its list in custom entries (@ian-pascoe/pi-todo's shape) lands its
 * entries from the script too, so the loop keeps working.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkInvariants,
  extensionArgs,
  markers,
  requests,
  RPIV_TODO,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  stopReasons,
  textOf,
  lastMessage,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";
import { IAN_PASCOE_TODO } from "./stand-ins/paths.ts";

const CODEMODE = { args: ["--tools", "+codemode"] };
const OUT_OF_DATE = "stopped: the todo list is out of date (made through codemode)";

function script(code: string): ScriptStep {
  return { text: "Through a script.", calls: [{ name: "codemode", args: { code } }] };
}

test("codemode with rpiv-todo: a todo call made from a script leaves the list out of date, so the loop does not continue on it and says why", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const steps: ScriptStep[] = [
    { text: "Planning.", calls: [{ name: "todo", args: { action: "create", subject: "Write the parser" } }, { name: "todo", args: { action: "create", subject: "Write the tests" } }] },
    script("await tools.todo({ action: 'update', id: 1, status: 'completed' });\nreturn 'updated';"),
    say("Parser done; stopping here."),
  ];
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    await rpc.prompt("Write the parser and its tests");
    const status = (await rpc.command("status")).map((notify) => notify.message).join("\n");
    checkInvariants(box, { script: steps });
    const entries = await rpc.getEntries();
    const codemode = entries.find((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "codemode");
    assert.ok(codemode, "the script ran");
    assert.equal(entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo").length, 2, "the script's todo call left no todo result");
    assert.deepEqual(markers(entries), [], "no continuation on a list known to be out of date");
    assert.deepEqual(stopReasons(entries), [OUT_OF_DATE]);
    const [stop] = stopData(entries);
    assert.equal((stop as { kind?: unknown } | undefined)?.kind, "out-of-date");
    assert.match(status, /^tasks open: unknown \(the list is out of date/m, status);
    assert.match(status, /made through codemode/, status);
    assert.ok(rpc.notifies.some((notify) => notify.message === `todo loop ${OUT_OF_DATE}`), "announced once the run ended");
  }, { extensions: extensionArgs(["builtin:codemode"], { todo: RPIV_TODO }), ...CODEMODE });
});

test("codemode with a todo tool that saves its list in custom entries (@ian-pascoe/pi-todo's shape): the script's changes land, the loop continues and stops when clear", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const steps: ScriptStep[] = [
    script("await tools.todo({ action: 'add', tasks: [{ title: 'Write the parser' }, { title: 'Write the tests' }] });\nreturn 'added';"),
    say("Plan made; stopping here."),
    script("await tools.todo({ action: 'update', id: 1, status: 'completed' });\nawait tools.todo({ action: 'update', id: 2, status: 'completed' });\nreturn 'done';"),
    say("All done."),
  ];
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    await rpc.prompt("Write the parser and its tests");
    checkInvariants(box, { script: steps, taskTexts: ["Write the parser", "Write the tests"] });
    const entries = await rpc.getEntries();
    assert.equal(entries.filter((entry) => entry.type === "custom" && entry.customType === "pi-todo-state").length, 3, "every change from the scripts saved its state entry");
    assert.equal(entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo").length, 0, "no todo result at all: only codemode's");
    const found = markers(entries);
    assert.equal(found.length, 1, "one continuation while both tasks were open");
    assert.equal((found[0]?.details as { open?: number } | undefined)?.open, 2);
    assert.ok(textOf(lastMessage(requests(box)[2]).content).includes("Use the todo tool"), "the continuation request ends with the nudge");
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
  }, { extensions: extensionArgs(["builtin:codemode"], { todo: IAN_PASCOE_TODO }), ...CODEMODE });
});

test("codemode's only mode hides the todo tool from the model but todo_loop_block stays declared, and a direct call of it makes the loop wait", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const steps: ScriptStep[] = [
    script("await tools.todo({ action: 'create', subject: 'Pick the database' });\nreturn 'planned';"),
    { text: "I need a decision.", calls: [{ name: "todo_loop_block", args: { reason: "Postgres or SQLite for the cache" } }] },
    say("Waiting for your answer."),
  ];
  await withRpc(t.signal, { script: steps, settings: { codemode: { mode: "only" } } }, async (box, rpc) => {
    await rpc.prompt("Set up the cache");
    checkInvariants(box, { script: steps });
    const [first] = requests(box);
    assert.ok(first?.tools.includes("codemode"), `codemode is declared: ${first?.tools.join(", ")}`);
    assert.ok(first?.tools.includes("todo_loop_block"), `todo_loop_block is declared under only mode: ${first?.tools.join(", ")}`);
    assert.ok(!first?.tools.includes("todo"), "the todo tool is hidden from the model");
    const entries = await rpc.getEntries();
    const block = entries.find((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo_loop_block");
    assert.equal(block?.message?.isError, false, "the model's direct call ran");
    assert.deepEqual(markers(entries), []);
    assert.ok(rpc.notifies.some((notify) => notify.message === "todo loop: the agent is waiting for you: Postgres or SQLite for the cache"));
  }, { extensions: extensionArgs(["builtin:codemode"], { todo: RPIV_TODO }), ...CODEMODE });
});
