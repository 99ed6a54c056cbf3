// workflow:mutex:v1 on the real pi host: a goal holding the session gets no doubled push (no marker while it holds), and a workflow probing during the loop's run finds it busy, and free once the run ends.
/**
 * SPEC §4.19 end to end, with real rpiv-todo and the scripted model. stand-ins/goal-holder.ts takes the
 * lock at session start and pushes the agent itself at each settle (loaded after this package, so the
 * loop decides first and must yield by the lock alone); stand-ins/mutex-prober.ts probes the lock at
 * every turn's start and after the run. In `pi -p`: no marker while the goal holds, one push per reply
 * (the goal's or the loop's, never both), the loop goes on once the goal lets go; `exitCode` is not set
 * by a goal-held run (no stop is recorded). Over RPC: the footer and `/todoloop` say another workflow
 * drives the session. A probe during the loop's run sees `busy`; after the run, free.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  baseArgs,
  checkInvariants,
  extensionArgs,
  FINISH_TWO,
  footers,
  markers,
  PLAN_TWO,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  TWO_TASKS,
  withRpc,
} from "./harness.ts";
import type { EntryRecord, Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const STAND_INS = join(dirname(fileURLToPath(import.meta.url)), "stand-ins");
const GOAL_HOLDER = join(STAND_INS, "goal-holder.ts");
const MUTEX_PROBER = join(STAND_INS, "mutex-prober.ts");
const GOAL_TYPE = "e2e-goal:continue";
const MARKER_TYPE = "todo-loop:continue";

function jsonLines(path: string): Array<Record<string, unknown>> {
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : [];
}

/** After each assistant reply, the continuation messages before the next reply: "goal", "loop", or both. */
function pushesPerReply(entries: readonly EntryRecord[]): string[][] {
  const out: string[][] = [];
  for (const entry of entries) {
    if (entry.type === "message" && entry.message?.role === "assistant") out.push([]);
    else if (entry.type === "custom_message" && (entry.customType === GOAL_TYPE || entry.customType === MARKER_TYPE)) {
      out.at(-1)?.push(entry.customType === GOAL_TYPE ? "goal" : "loop");
    }
  }
  return out;
}

/**
 * Plan, then two replies the goal pushes (it holds the lock; after its second push it lets go), one the
 * loop pushes, the work, and a clear list.
 */
const GOAL_SCRIPT: ScriptStep[] = [
  PLAN_TWO,
  say("One step toward the goal."),
  say("Another step toward the goal."),
  say("Pausing here."),
  FINISH_TWO,
  say("All done."),
];

test("pi -p: a goal holding workflow:mutex:v1 gets no doubled push — no marker while it holds; the loop goes on once it lets go", { timeout }, async (t) => {
  const box: Sandbox = sandbox({ script: GOAL_SCRIPT, config: { exitCode: 3 } });
  box.env.PI_TODO_LOOP_E2E_GOAL = join(box.root, "goal.jsonl");
  try {
    const run = await runPi(box, [...extensionArgs([]), "-e", GOAL_HOLDER, ...baseArgs(box), "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    const goal = jsonLines(join(box.root, "goal.jsonl"));
    assert.deepEqual(goal, [{ push: 1, acquired: true }, { push: 2, acquired: true }], "the goal took the lock and pushed twice");
    const entries = sessionEntries(box);
    const pushes = pushesPerReply(entries);
    // Replies: plan, goal step, goal step, pause, finish, done.
    assert.deepEqual(pushes, [[], ["goal"], ["goal"], ["loop"], [], []], "one push per reply, never both");
    assert.equal(markers(entries).length, 1);
    assert.deepEqual(stopData(entries).map((data) => data.kind), ["clear"], "no stop recorded while the goal held the session");
    assert.equal(run.stderr.split("\n").filter((line) => line.startsWith("todo loop")).length, 0);
    checkInvariants(box, { script: GOAL_SCRIPT, taskTexts: TWO_TASKS });
    t.diagnostic(`goal holding: exit ${run.code}; pushes per reply ${JSON.stringify(pushes)}; markers while held 0, after 1`);
  } finally {
    box.cleanup();
  }
});

test("RPC: while a goal holds the session the footer reads 'todo loop: another workflow is driving · todo 2 of 2 open' and /todoloop says so; no stop is recorded", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, say("One step toward the goal."), say("Waiting on the goal's check.")];
  await withRpc(t.signal, { script, config: { exitCode: 3 }, env: { PI_TODO_LOOP_E2E_GOAL_PUSHES: "1", PI_TODO_LOOP_E2E_GOAL_KEEP: "1" } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    assert.equal(markers(entries).length, 0, "no marker while the goal holds");
    assert.deepEqual(pushesPerReply(entries), [[], ["goal"], []]);
    assert.deepEqual(stopData(entries), [], "no stop record");
    const shown = footers(rpc.statuses);
    assert.equal(shown.at(-1), "todo loop: another workflow is driving · todo 2 of 2 open");
    const report = (await rpc.command("")).map((note) => note.message).join("\n");
    assert.match(report, /^todo loop: standing aside \(another workflow drives the session\)$/m);
    assert.match(report, /^last: not continuing: another workflow \(a goal or a plan\) drives the session$/m);
    checkInvariants(box, { script, taskTexts: TWO_TASKS });
    t.diagnostic(`RPC goal holding: footer "${shown.at(-1)}"; markers 0; stop records 0`);
  }, { extensions: [...extensionArgs([]), "-e", GOAL_HOLDER] });
});

test("pi -p: a workflow probing during the loop's run sees busy; before the first continuation and after the run it is free", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, say("Stopping here."), say("Still stopping."), say("Stopping again.")];
  const box: Sandbox = sandbox({ script });
  box.env.PI_TODO_LOOP_E2E_PROBES = join(box.root, "probes.jsonl");
  try {
    const run = await runPi(box, [...extensionArgs([]), "-e", MUTEX_PROBER, ...baseArgs(box), "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    const probes = jsonLines(join(box.root, "probes.jsonl"));
    assert.deepEqual(probes, [
      { at: "turn", turn: 1, busy: false },
      { at: "turn", turn: 2, busy: false },
      { at: "turn", turn: 3, busy: true },
      { at: "turn", turn: 4, busy: true },
      { at: "settled", turn: 4, busy: false },
    ]);
    assert.equal(markers(sessionEntries(box)).length, 2, "the loop continued twice (turns 3 and 4 run under its lock)");
    checkInvariants(box, { script, taskTexts: TWO_TASKS });
    t.diagnostic(`prober: ${probes.map((probe) => `${probe.at}${probe.at === "turn" ? ` ${probe.turn}` : ""}=${probe.busy ? "busy" : "free"}`).join(", ")}`);
  } finally {
    box.cleanup();
  }
});
