// Proves on the real host that progress is new information: reading five different task ids is not stopped, the same failing command re-run with other words is stopped as no progress, and polling that gets a new answer each time is not a repeat.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  callTools,
  checkInvariants,
  createTasks,
  extensionArgs,
  markers,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  updateTasks,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";
import { TINTINWEB_TASKS } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const FIVE = ["Task one", "Task two", "Task three", "Task four", "Task five"];

/** Five reads of five different task ids, one per reply, then every task completed: no stuck stop, six continuations. */
async function exploring(t: { signal: AbortSignal; diagnostic(message: string): void }, plan: ScriptStep, get: (id: number) => ScriptStep, finish: ScriptStep, todo?: string): Promise<void> {
  const reads: ScriptStep[] = [1, 2, 3, 4, 5].flatMap((id) => [get(id), say(`Read task ${id}.`)]);
  const script: ScriptStep[] = [plan, say("Planned; reading the tasks next."), ...reads, finish, say("All done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Work through the tasks");
    const entries = sessionEntries(box);
    const kinds = stopData(entries).map((stop) => stop.kind);
    t.diagnostic(`markers ${markers(entries).length}, stops ${JSON.stringify(kinds)}`);
    assert.deepEqual(kinds, ["clear"]);
    assert.deepEqual(markers(entries).map((marker) => (marker.details as { stuck: number }).stuck), [0, 0, 0, 0, 0, 0], "one continuation after the plan and after each of the five reads, none counted as without progress");
    checkInvariants(box, { script, taskTexts: FIVE });
  }, todo === undefined ? {} : { extensions: extensionArgs([], { todo }) });
}

test("reading five different task ids with pi-tasks' TaskGet, one per reply, is exploring: no stuck stop; the loop goes on to the clear list", { timeout }, async (t) => {
  await exploring(
    t,
    { text: "Planning.", calls: [{ name: "TaskCreateMany", args: { tasks: FIVE.map((subject) => ({ subject, description: subject })) } }] },
    (id) => callTools({ name: "TaskGet", args: { taskId: String(id) } }),
    { text: "Finishing.", calls: [1, 2, 3, 4, 5].map((id) => ({ name: "TaskUpdate", args: { taskId: String(id), status: "completed" } })) },
    TINTINWEB_TASKS,
  );
});

test("reading five different task ids with rpiv-todo's get, one per reply, is exploring too", { timeout }, async (t) => {
  await exploring(t, createTasks(...FIVE), (id) => callTools({ name: "todo", args: { action: "get", id } }), updateTasks([1, 2, 3, 4, 5]));
});

test("the same failing npm test re-run with different words each reply: after its first run nothing is new — stopped at the 5th reply without progress (kind stuck)", { timeout }, async (t) => {
  const words = ["Let me run the tests.", "Running them again.", "One more time.", "Checking the suite.", "Trying again.", "Once more."];
  const runs: ScriptStep[] = words.flatMap((text) => [callTools({ name: "bash", args: { command: "echo '1 failing: parser rejects empty input'; exit 1" } }), say(text)]);
  const script: ScriptStep[] = [createTasks("Fix the parser"), ...runs];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Fix the parser");
    const entries = sessionEntries(box);
    const records = stopData(entries);
    t.diagnostic(`markers ${markers(entries).length}, stops ${JSON.stringify(records.map((stop) => [stop.kind, stop.reason]))}`);
    assert.deepEqual(records.map((stop) => stop.kind), ["stuck"]);
    assert.equal(records[0]?.reason, "stopped: 5 replies in a row without progress (no edits, commands, new reads or todo changes), 1 task still open; it may need you");
    assert.equal(markers(entries).length, 5);
    checkInvariants(box, { script, taskTexts: ["Fix the parser"] });
  });
});

test("polling that gets a new answer each time, with the same words, is no repeat: the loop goes on until the list is clear", { timeout }, async (t) => {
  const polls: ScriptStep[] = [1, 2, 3, 4].flatMap(() => [callTools({ name: "bash", args: { command: "date +%s%N" } }), say("Still waiting for CI.")]);
  const script: ScriptStep[] = [createTasks("Wait for CI"), ...polls, updateTasks([1]), say("CI passed.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Watch CI");
    const entries = sessionEntries(box);
    const kinds = stopData(entries).map((stop) => stop.kind);
    t.diagnostic(`markers ${markers(entries).length}, stops ${JSON.stringify(kinds)}`);
    assert.deepEqual(kinds, ["clear"]);
    assert.equal(markers(entries).length, 4);
    checkInvariants(box, { script, taskTexts: ["Wait for CI"] });
  });
});
