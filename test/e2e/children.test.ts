// Child sessions on the real pi host: each child marker and an in-process child keep the loop but leave the exit status, stderr and the notify command alone; children "off" writes nothing.
/**
 * SPEC §4.18 end to end, with real rpiv-todo and the scripted model, in `pi -p` with `exitCode: 3` and a
 * `notifyCommand` that records each run: a session marked by PI_SUBAGENT_CHILD=1, PI_CODE_SUBAGENT=1 or
 * TODO_LOOP_CHILD=1 continues its list (markers), stops on its brake (a stop record and the
 * `todo-loop:stop` event, recorded by a listener extension) and exits 0 with no stderr line and no hook
 * run; the same run without a marker exits 3 (the guard); `PI_SUBAGENT_CHILD=0` is no marker;
 * `children: "off"` writes nothing at all; a child session created inside pi's process the way
 * @tintinweb/pi-subagents creates one (stand-ins/in-process-child.ts) leaves the parent's exit status
 * alone, unless `children: "full"`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  baseArgs,
  callTools,
  checkInvariants,
  extensionArgs,
  isNudge,
  markers,
  PACKAGE_ROOT,
  PLAN_TWO,
  requests,
  RPIV_TODO,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  TWO_TASKS,
  footers,
  withRpc,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const STAND_INS = join(dirname(fileURLToPath(import.meta.url)), "stand-ins");
const STOP_LISTENER = join(STAND_INS, "stop-listener.ts");
const IN_PROCESS_CHILD = join(STAND_INS, "in-process-child.ts");

/** Plan two tasks, then three replies without a tool call: continue, continue, then the idle brake (2 of 2 open). */
const IDLE_SCRIPT: ScriptStep[] = [PLAN_TWO, say("Stopping here."), say("Still stopping."), say("Stopping again.")];
const IDLE_LINE = "todo loop: stopped: the agent stopped 3 times in a row without doing anything, 2 of 2 tasks open";

interface Outcome {
  readonly code: number | null;
  /** The loop's own stderr lines (they start with "todo loop"). */
  readonly loopLines: string[];
  readonly hookRuns: number;
  /** The `todo-loop:stop` payloads the listener extension heard, in order. */
  readonly events: Array<Record<string, unknown>>;
  readonly markers: number;
  readonly stopKinds: unknown[];
}

function boxFor(script: ScriptStep[], config: Record<string, unknown>, env: Record<string, string> = {}): { box: Sandbox; hookCount: string } {
  const box = sandbox({ script, env });
  const hookCount = join(box.root, "hook-count");
  const hook = join(box.root, "hook.sh");
  writeFileSync(hook, `#!/bin/sh\necho ran >> "${hookCount}"\ncat > /dev/null\n`);
  chmodSync(hook, 0o755);
  writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ exitCode: 3, notifyCommand: [hook], ...config }));
  box.env.PI_TODO_LOOP_E2E_STOPS = join(box.root, "stops.jsonl");
  return { box, hookCount };
}

function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : [];
}

async function printRun(box: Sandbox, hookCount: string, extra: readonly string[] = []): Promise<Outcome> {
  const run = await runPi(box, [...extensionArgs([STOP_LISTENER, ...extra]), ...baseArgs(box), "-p", "Do the work"]);
  const entries = sessionEntries(box);
  return {
    code: run.code,
    loopLines: run.stderr.split("\n").filter((line) => line.startsWith("todo loop")),
    hookRuns: lines(hookCount).length,
    events: lines(join(box.root, "stops.jsonl")).map((line) => JSON.parse(line) as Record<string, unknown>),
    markers: markers(entries).length,
    stopKinds: stopData(entries).map((data) => data.kind),
  };
}

for (const marker of ["PI_SUBAGENT_CHILD", "PI_CODE_SUBAGENT", "TODO_LOOP_CHILD"]) {
  test(`pi -p with ${marker}=1: the loop continues and stops on its brake; exit 0, no stderr line, no hook run, the event emitted`, { timeout }, async (t) => {
    const { box, hookCount } = boxFor(IDLE_SCRIPT, {}, { [marker]: "1" });
    try {
      const outcome = await printRun(box, hookCount);
      assert.equal(outcome.code, 0, "the child leaves the exit status alone");
      assert.deepEqual(outcome.loopLines, [], "no stderr line");
      assert.equal(outcome.hookRuns, 0, "no notify command");
      assert.equal(outcome.markers, 2, "the loop continued its list");
      assert.deepEqual(outcome.stopKinds, ["idle"], "and stopped on its brake, recorded in the child's session");
      assert.deepEqual(outcome.events.map((event) => event.kind), ["idle"], "the event still fires");
      checkInvariants(box, { script: IDLE_SCRIPT, taskTexts: TWO_TASKS });
      t.diagnostic(`${marker}=1: exit ${outcome.code}, stderr lines ${outcome.loopLines.length}, hook runs ${outcome.hookRuns}, events ${outcome.events.length}, markers ${outcome.markers}`);
    } finally {
      box.cleanup();
    }
  });
}

test("pi -p without a marker (the guard): the same run exits 3 with one stderr line and one hook run", { timeout }, async (t) => {
  const { box, hookCount } = boxFor(IDLE_SCRIPT, {});
  try {
    const outcome = await printRun(box, hookCount);
    assert.equal(outcome.code, 3);
    assert.deepEqual(outcome.loopLines, [IDLE_LINE]);
    assert.equal(outcome.hookRuns, 1);
    assert.equal(outcome.markers, 2);
    assert.deepEqual(outcome.events.map((event) => event.kind), ["idle"]);
    t.diagnostic(`no marker: exit ${outcome.code}, stderr lines ${outcome.loopLines.length}, hook runs ${outcome.hookRuns}, events ${outcome.events.length}, markers ${outcome.markers}`);
  } finally {
    box.cleanup();
  }
});

test("pi -p with PI_SUBAGENT_CHILD=0: no child — exit 3, the stderr line and the hook", { timeout }, async (t) => {
  const { box, hookCount } = boxFor(IDLE_SCRIPT, {}, { PI_SUBAGENT_CHILD: "0" });
  try {
    const outcome = await printRun(box, hookCount);
    assert.equal(outcome.code, 3);
    assert.deepEqual(outcome.loopLines, [IDLE_LINE]);
    assert.equal(outcome.hookRuns, 1);
    t.diagnostic(`PI_SUBAGENT_CHILD=0: exit ${outcome.code}, stderr lines ${outcome.loopLines.length}, hook runs ${outcome.hookRuns}`);
  } finally {
    box.cleanup();
  }
});

test("pi -p in a child with children \"off\": nothing at all — no marker, no stop record, no event, no stderr line, no hook", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, say("Stopping here.")];
  const { box, hookCount } = boxFor(script, { children: "off" }, { PI_SUBAGENT_CHILD: "1" });
  try {
    const outcome = await printRun(box, hookCount);
    assert.equal(outcome.code, 0);
    assert.equal(outcome.markers, 0);
    assert.deepEqual(outcome.stopKinds, []);
    assert.deepEqual(outcome.events, []);
    assert.deepEqual(outcome.loopLines, []);
    assert.equal(outcome.hookRuns, 0);
    const loopEntries = sessionEntries(box).filter((entry) => typeof entry.customType === "string" && entry.customType.startsWith("todo-loop:"));
    assert.deepEqual(loopEntries, [], "the session holds nothing of the loop's");
    checkInvariants(box, { script, taskTexts: TWO_TASKS });
    t.diagnostic(`children off: exit ${outcome.code}, markers ${outcome.markers}, records ${outcome.stopKinds.length}, events ${outcome.events.length}`);
  } finally {
    box.cleanup();
  }
});

test("RPC with PI_SUBAGENT_CHILD=1: the loop runs with no footer at all, and /todoloop names the rule that made the session a child", { timeout }, async (t) => {
  await withRpc(t.signal, { script: IDLE_SCRIPT, config: { exitCode: 3 }, env: { PI_SUBAGENT_CHILD: "1" } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    assert.equal(markers(entries).length, 2, "the loop continued");
    assert.deepEqual(stopData(entries).map((data) => data.kind), ["idle"]);
    assert.deepEqual(footers(rpc.statuses), [], "no footer, not even a clear");
    const report = (await rpc.command("")).map((note) => note.message).join("\n");
    assert.match(report, /^child session \(PI_SUBAGENT_CHILD=1\): quiet — no exit status, stderr line, notify command, terminal notification or footer; the todo-loop:stop event still fires$/m);
    checkInvariants(box, { script: IDLE_SCRIPT, taskTexts: TWO_TASKS });
    t.diagnostic(`RPC child: markers ${markers(entries).length}, footer updates ${footers(rpc.statuses).length}`);
  });
});

/**
 * The parent asks for a child; the child (inside pi's process) plans two tasks and stops three times
 * without doing anything — continue, continue, idle stop: a stop that needs the person, which sets the
 * exit status in any session that is no child; then the parent answers and ends with no list of its own.
 */
const IN_PROCESS_SCRIPT: ScriptStep[] = [
  callTools({ name: "spawn_child", args: { prompt: "Do the subtask" } }),
  PLAN_TWO,
  say("Stopping here."),
  say("Still stopping."),
  say("Stopping again."),
  say("The child reported back. Done."),
];

async function inProcessRun(config: Record<string, unknown>): Promise<{ outcome: Outcome; childEvents: Array<Record<string, unknown>>; childNudges: number; box: Sandbox }> {
  const { box, hookCount } = boxFor(IN_PROCESS_SCRIPT, config);
  box.env.PI_TODO_LOOP_E2E_CHILD_EXTENSIONS = JSON.stringify([RPIV_TODO, PACKAGE_ROOT]);
  box.env.PI_TODO_LOOP_E2E_CHILD_STOPS = join(box.root, "child-stops.jsonl");
  const outcome = await printRun(box, hookCount, [IN_PROCESS_CHILD]);
  const childEvents = lines(join(box.root, "child-stops.jsonl")).map((line) => JSON.parse(line) as Record<string, unknown>);
  // The child's last request (step 4) holds its conversation: the nudges the loop sent it.
  const childNudges = (requests(box).find((request) => request.step === 4)?.messages ?? []).filter(isNudge).length;
  return { outcome, childEvents, childNudges, box };
}

test("in-process child (a second session in pi's process, created as @tintinweb/pi-subagents does): its loop continues and stops quietly; the parent exits 0", { timeout }, async (t) => {
  const { outcome, childEvents, childNudges, box } = await inProcessRun({});
  try {
    assert.equal(outcome.code, 0, "the parent's exit status is left alone");
    assert.deepEqual(outcome.loopLines, [], "no stderr line from the child");
    assert.equal(outcome.hookRuns, 0, "no notify command for a stop deep inside a subagent");
    assert.equal(childNudges, 2, "the child's loop continued its list twice");
    assert.deepEqual(childEvents.map((event) => event.kind), ["idle"], "the child's stop event, on the child's bus");
    assert.equal(childEvents[0]?.sessionFile, null, "from the child's in-memory session");
    assert.deepEqual(outcome.events, [], "nothing on the parent's bus");
    assert.equal(outcome.markers, 0, "the parent has no list and no marker");
    checkInvariants(box, { script: IN_PROCESS_SCRIPT, taskTexts: TWO_TASKS });
    t.diagnostic(`in-process child: parent exit ${outcome.code}, stderr lines ${outcome.loopLines.length}, hook runs ${outcome.hookRuns}, child nudges ${childNudges}, child events ${childEvents.length}`);
  } finally {
    box.cleanup();
  }
});

test("in-process child with children \"full\" (the guard): the child's stop sets the process's exit status to 3 and writes its line", { timeout }, async (t) => {
  const { outcome, childEvents, childNudges, box } = await inProcessRun({ children: "full" });
  try {
    assert.equal(outcome.code, 3, "an in-process child that is not quiet changes its parent's exit");
    assert.deepEqual(outcome.loopLines, [IDLE_LINE]);
    assert.equal(outcome.hookRuns, 1);
    assert.equal(childNudges, 2);
    assert.deepEqual(childEvents.map((event) => event.kind), ["idle"]);
    t.diagnostic(`in-process child, children full: parent exit ${outcome.code}, stderr lines ${outcome.loopLines.length}, hook runs ${outcome.hookRuns}`);
  } finally {
    box.cleanup();
  }
});
