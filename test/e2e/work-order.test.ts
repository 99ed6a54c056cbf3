// Proves on the real host that work whose end is heard before its start never parks the loop, and that a result held until the agent settles (tintinweb's queue) costs no second turn.
/**
 * SPEC §4.17 (0.5), with the stand-in source of work (stand-ins/work-source.ts):
 * - `PI_TODO_LOOP_E2E_WORK_ORDER=end-first`: the job's end events come before its start events. The work
 *   already finished: at the next settle nothing is in flight, so the loop continues as usual and
 *   `/todoloop` does not say it waits;
 * - `PI_TODO_LOOP_E2E_WORK_HOLD=1` with tintinweb's events: the job ends while the agent runs, and its
 *   result message is parked until `agent_settled`, as tintinweb's notice queue does. The loop sends
 *   nothing at that settle; the result's own run goes on and the list is finished with no marker and no
 *   extra request.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkInvariants, extensionArgs, FINISH_TWO, markerDetails, markers, PLAN_TWO, requests, say, SCENARIO_TIMEOUT_MS, stopData, textOf, TWO_TASKS,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const WORK_SOURCE = join(dirname(fileURLToPath(import.meta.url)), "stand-ins", "work-source.ts");
const WITH_WORK = { extensions: extensionArgs([WORK_SOURCE]) };
const START: ScriptStep = { text: "Starting the review in the background.", calls: [{ name: "start_background_work", args: { id: "job-1" } }] };

test("an end heard before its start: the settle after it continues (one marker), /todoloop does not wait, the list is finished", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script = [PLAN_TWO, START, say("The review ran; going on."), FINISH_TWO, say("Both tasks are done.")];
  const env = { PI_TODO_LOOP_E2E_WORK_SOURCE: "todo-loop-work", PI_TODO_LOOP_E2E_WORK_ORDER: "end-first" };
  await withRpc(t.signal, { script, env }, async (run, rpc) => {
    assert.equal(await rpc.prompt("Review the parser and finish the list"), "started");
    const entries = await rpc.getEntries();
    const status = (await rpc.command("")).map((note) => note.message).join("\n");
    t.diagnostic(`end-first: requests ${requests(run).length}, markers ${markers(entries).length}, records ${JSON.stringify(stopData(entries).map((stop) => stop.kind))}, /todoloop: ${status.split("\n")[0]}`);
    assert.doesNotMatch(status, /waiting on background work|background work in flight/, status);
    const marks = markerDetails(entries) as Array<{ work?: string; round: number }>;
    assert.deepEqual(marks.map((details) => details.work ?? "nudge"), ["nudge"], "one plain continuation, at the settle after the finished work");
    const logged = requests(run);
    assert.equal(logged.length, 5);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    checkInvariants(run, { script, taskTexts: TWO_TASKS });
  }, WITH_WORK);
});

test("tintinweb's held result: the loop sends nothing at the settle it is due at; the result's run finishes the list with no marker and no extra request", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  // The job ends 100 ms in, while the model still answers (800 ms): tintinweb parks its notice until the agent settles.
  const script: ScriptStep[] = [PLAN_TWO, START, { ...say("The review runs in the background."), delayMs: 800 }, FINISH_TWO, say("Both tasks are done.")];
  const logDir = mkdtempSync(join(tmpdir(), "todo-loop-work-log-"));
  t.after(() => rmSync(logDir, { recursive: true, force: true }));
  const log = join(logDir, "work.jsonl");
  const env = { PI_TODO_LOOP_E2E_WORK_SOURCE: "tintinweb", PI_TODO_LOOP_E2E_WORK_MS: "100", PI_TODO_LOOP_E2E_WORK_HOLD: "1", PI_TODO_LOOP_E2E_WORK_LOG: log };
  await withRpc(t.signal, { script, env }, async (run, rpc) => {
    assert.equal(await rpc.prompt("Review the parser and finish the list"), "started");
    await rpc.waitSettled();
    const entries = await rpc.getEntries();
    const steps = readFileSync(log, "utf8").split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { what: string }).what);
    t.diagnostic(`held result: requests ${requests(run).length}, markers ${markers(entries).length}, records ${JSON.stringify(stopData(entries).map((stop) => stop.kind))}, source steps ${steps.join(" → ")}`);
    assert.deepEqual(steps, ["subagents:created", "subagents:completed", "parked:subagent-notification", "message:subagent-notification"], "the notice was held until the agent settled");
    assert.equal(markers(entries).length, 0, "no continuation at the settle the result was due at");
    const logged = requests(run);
    assert.equal(logged.length, 5, "no second turn: the result's run finished the list");
    assert.ok(logged[3]?.messages.some((message) => textOf(message.content).includes("<task-notification>")), "the model read the result message");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    checkInvariants(run, { script, taskTexts: TWO_TASKS });
  }, WITH_WORK);
});
