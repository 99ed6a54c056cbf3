// Proves on the real host that the loop waits on each source's background work, wakes after a silent end, checks in, times out, and holds pi -p open.
/**
 * Waiting on work in flight (SPEC §4.17) on the real pi host, with a stand-in (stand-ins/work-source.ts)
 * that sends each source's real events and result message, in that source's order and with the payload
 * shapes of test/fixtures/work/: no marker while the work runs and the run goes on under the same human
 * message when the result arrives; exactly one wake after a silent end; check-ins at 1×, 2× and 4×
 * `checkInMinutes`, then one `work-timeout` record and one notify; `pi -p` ends only after the result was
 * answered, and with `exitCode` set exits by the final state.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  baseArgs, checkInvariants, extensionArgs, FINISH_TWO, footers, lastMessage, loopNotifies, markerDetails, markers, PLAN_TWO, requests, runPi,
  sandbox, say, SCENARIO_TIMEOUT_MS, sessionEntries, stopData, textOf, TWO_TASKS, userMessageIds, withRpc,
} from "./harness.ts";
import type { EntryRecord, RequestMessage, ScriptStep } from "./harness.ts";

const WORK_SOURCE = join(dirname(fileURLToPath(import.meta.url)), "stand-ins", "work-source.ts");
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "work");

/** Each source the stand-in plays, with the fixture of its result message. */
const SOURCES = [
  { source: "nicobailon", message: join("nicobailon-pi-subagents", "notify-message.json") },
  { source: "tintinweb", message: join("tintinweb-pi-subagents", "notification-message.json") },
  { source: "pi-code", message: join("pi-code", "background-message.json") },
  { source: "pi-processes", message: join("aliou-pi-processes", "notification-message.json") },
] as const;

const START: ScriptStep = { text: "Starting the review in the background.", calls: [{ name: "start_background_work", args: { id: "job-1" } }] };
const WAIT = say("The review runs in the background; I will go on when its result arrives.");

function resultText(file: string): string {
  const read = JSON.parse(readFileSync(join(FIXTURES, file), "utf8")) as { message: { content: unknown } };
  return textOf(read.message.content);
}

function timeOf(entry: EntryRecord | undefined): number {
  return Date.parse(entry?.timestamp ?? "");
}

function workEnv(source: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PI_TODO_LOOP_E2E_WORK_SOURCE: source, ...extra };
}

/** The `-e` list with the stand-in source of work. */
const WITH_WORK = { extensions: extensionArgs([WORK_SOURCE]) };

function anyMessageHas(messages: readonly RequestMessage[], text: string): boolean {
  return messages.some((message) => textOf(message.content).includes(text));
}

for (const { source, message } of SOURCES) {
  test(`${source}: no marker while its work runs; its result message starts a run under the same human message`, { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
    const script = [PLAN_TWO, START, WAIT, FINISH_TWO, say("Both tasks are done.")];
    await withRpc(t.signal, { script, env: workEnv(source) }, async (run, rpc) => {
      assert.equal(await rpc.prompt("Review the parser and finish the list"), "started");
      const entries = await rpc.getEntries();
      assert.equal(markers(entries).length, 0, "no marker at the settle while the work runs");
      assert.deepEqual(stopData(entries), [], "no stop recorded");
      assert.ok(footers(rpc.statuses).includes("todo loop: waiting on 1 background job · todo 2 of 2 open"), JSON.stringify(footers(rpc.statuses)));
      const status = (await rpc.command("")).map((note) => note.message).join("\n");
      assert.match(status, /^todo loop: waiting on background work$/m);
      assert.match(status, /^background work in flight: 1$/m);
      // The result message starts the next run by itself.
      await rpc.waitSettled();
      const after = await rpc.getEntries();
      const logged = requests(run);
      assert.equal(logged.length, 5);
      assert.ok(anyMessageHas(logged[3]?.messages ?? [], resultText(message)), "the model read the result message");
      assert.equal(markers(after).length, 0, "no marker at all: the source's message carried the run");
      const stopsNow = stopData(after);
      assert.deepEqual(stopsNow.map((stop) => stop.kind), ["clear"]);
      assert.deepEqual(userMessageIds(after), [stopsNow[0]?.anchor], "one human message: the stop counts from it");
      assert.deepEqual(loopNotifies(rpc.notifies).filter((note) => note.notifyType === "warning"), []);
      checkInvariants(run, { script, taskTexts: TWO_TASKS });
      t.diagnostic(`${source}: requests ${logged.length}, markers 0, records ${JSON.stringify(stopsNow.map((stop) => stop.kind))}`);
    }, WITH_WORK);
  });
}

for (const source of ["todo-loop-work", "tintinweb"]) {
  test(`${source}: a silent end gives exactly one wake marker, 5 s after the work ended`, { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
    const script = [PLAN_TWO, START, WAIT, FINISH_TWO, say("Both tasks are done.")];
    const logDir = mkdtempSync(join(tmpdir(), "todo-loop-work-log-"));
    t.after(() => rmSync(logDir, { recursive: true, force: true }));
    const log = join(logDir, "work.jsonl");
    await withRpc(t.signal, { script, env: workEnv(source, { PI_TODO_LOOP_E2E_WORK_SILENT: "1", PI_TODO_LOOP_E2E_WORK_LOG: log }) }, async (run, rpc) => {
      assert.equal(await rpc.prompt("Review the parser and finish the list"), "started");
      await rpc.waitSettled();
      const entries = await rpc.getEntries();
      const wakes = markerDetails(entries) as Array<{ work?: string; round: number }>;
      assert.deepEqual(wakes.map((details) => details.work), ["wake"]);
      assert.equal(wakes[0]?.round, 1, "the wake counts as a round");
      const ends = readFileSync(log, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as { at: number; what: string });
      assert.equal(ends.filter((entry) => entry.what.startsWith("message:")).length, 0, "the stand-in sent no result message");
      const endedAt = ends.at(-1)?.at ?? 0;
      const wokeAfter = (timeOf(markers(entries)[0]) - endedAt) / 1000;
      assert.ok(wokeAfter >= 4.9 && wokeAfter < 8, `the wake came ${wokeAfter} s after the end`);
      const logged = requests(run);
      assert.match(textOf(lastMessage(logged[3]).content), /background work you were waiting on has finished/);
      assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
      checkInvariants(run, { script, taskTexts: TWO_TASKS });
      t.diagnostic(`${source} silent: requests ${logged.length}, markers ${JSON.stringify(wakes.map((details) => details.work))}, woke ${wokeAfter.toFixed(2)} s after the end`);
    }, WITH_WORK);
  });
}

test("check-ins at 1×, 2× and 4× a short checkInMinutes, then one work-timeout record and one notify", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script = [PLAN_TWO, START, WAIT, say("Still running; waiting."), say("Still running."), say("It is still running.")];
  await withRpc(t.signal, { script, config: { checkInMinutes: 0.02 }, env: workEnv("pi-processes", { PI_TODO_LOOP_E2E_WORK_MS: "never" }) }, async (run, rpc) => {
    assert.equal(await rpc.prompt("Start the dev server and finish the list"), "started");
    for (let index = 0; index < 3; index++) await rpc.waitSettled();
    const entries = await rpc.getEntries();
    const marks = markers(entries);
    assert.deepEqual(marks.map((entry) => (entry.details as { work?: string }).work), ["check-in", "check-in", "check-in"]);
    const waitBegan = timeOf(entries.filter((entry) => entry.type === "message" && entry.message?.role === "assistant")[2]);
    const times = [waitBegan, ...marks.map(timeOf)];
    const gaps = times.slice(1).map((time, index) => (time - (times[index] ?? 0)) / 1000);
    // 0.02 minutes is 1.2 s: each check-in waits 1×, 2×, then 4× that after the one before.
    for (const [index, least] of [1.2, 2.4, 4.8].entries()) {
      const gap = gaps[index] ?? 0;
      assert.ok(gap >= least - 0.05 && gap < least + 3, `check-in ${index + 1} came ${gap} s after the one before (want ${least} s)`);
    }
    const records = stopData(entries);
    assert.deepEqual(records.map((stop) => stop.kind), ["work-timeout"]);
    assert.match(records[0]?.reason ?? "", /^stopped: background work still running after [\d.]+ minutes?, 2 tasks open; it may need you$/);
    const warnings = loopNotifies(rpc.notifies).filter((note) => note.notifyType === "warning");
    assert.equal(warnings.length, 1, JSON.stringify(rpc.notifies));
    assert.match(warnings[0]?.message ?? "", /background work still running/);
    assert.equal(footers(rpc.statuses).at(-1), "todo loop stopped: background work · todo 2 of 2 open");
    checkInvariants(run, { script, taskTexts: TWO_TASKS });
    t.diagnostic(`check-ins: requests ${requests(run).length}, gaps ${gaps.map((gap) => gap.toFixed(2)).join(", ")} s, records ${JSON.stringify(records.map((stop) => stop.kind))}, warnings ${warnings.length}`);
  }, WITH_WORK);
});

test("pi -p with work in flight ends only after the result message was answered, and exits 0 on a clear list with exitCode set", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const done = [PLAN_TWO, START, WAIT, FINISH_TWO, say("Both tasks are done.")];
  const box = sandbox({ script: done, config: { exitCode: 7 }, env: workEnv("pi-processes") });
  try {
    const run = await runPi(box, [...extensionArgs([WORK_SOURCE]), ...baseArgs(box), "-p", "Start the build and finish the list"]);
    const entries = sessionEntries(box);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(requests(box).length, 5, "the result message's run was answered before pi exited");
    assert.ok(anyMessageHas(requests(box)[3]?.messages ?? [], resultText(join("aliou-pi-processes", "notification-message.json"))));
    assert.equal(markers(entries).length, 0);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    assert.match(run.stdout, /Both tasks are done\./);
    assert.doesNotMatch(run.stderr, /todo loop:/);
    checkInvariants(box, { script: done, taskTexts: TWO_TASKS });
    t.diagnostic(`-p done: exit ${run.code}, requests ${requests(box).length}, records ${JSON.stringify(stopData(entries).map((stop) => stop.kind))}`);
  } finally {
    box.cleanup();
  }
});

test("pi -p with exitCode set exits by the final state: the agent's question after the result is a stop that needs you", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const asks = [PLAN_TWO, START, WAIT, say("The build failed in two places. Which one should I fix first?")];
  const second = sandbox({ script: asks, config: { exitCode: 7 }, env: workEnv("tintinweb") });
  try {
    const run = await runPi(second, [...extensionArgs([WORK_SOURCE]), ...baseArgs(second), "-p", "Start the build and finish the list"]);
    const entries = sessionEntries(second);
    assert.equal(requests(second).length, 4);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["question"]);
    assert.equal(run.code, 7, "the final state needs the person");
    assert.match(run.stderr, /todo loop: waiting for you: .*Which one should I fix first\?/);
    t.diagnostic(`-p question: exit ${run.code}, requests ${requests(second).length}`);
  } finally {
    second.cleanup();
  }
});

test("--mode json: a silent end of work in flight wakes the agent from inside the held run", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const silent = [PLAN_TWO, START, WAIT, FINISH_TWO, say("Both tasks are done.")];
  const third = sandbox({ script: silent, env: workEnv("todo-loop-work") });
  try {
    const run = await runPi(third, [...extensionArgs([WORK_SOURCE]), ...baseArgs(third), "--mode", "json", "Run the job and finish the list"]);
    const entries = sessionEntries(third);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(requests(third).length, 5);
    assert.deepEqual(markerDetails(entries).map((details) => (details as { work?: string }).work), ["wake"], "a silent end wakes from inside the hold");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    t.diagnostic(`json silent: exit ${run.code}, requests ${requests(third).length}, markers 1 wake`);
  } finally {
    third.cleanup();
  }
});
