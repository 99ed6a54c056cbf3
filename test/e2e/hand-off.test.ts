// Proves on the real host that handOff sends one hand-off continuation past maxRounds, then records and announces the stop once, and never after a question (SPEC §4.24).
/**
 * The hand-off on the real pi host: with `handOff: true` and `maxRounds: 1`, the settle that reaches
 * the limit gets one more marker — `handOff: true`, its round kept at the limit, its content the fixed
 * hand-off text — and the stop is recorded and announced after the hand-off reply, once, as the limit
 * stop it was. A reply that asks the person a question at the limit waits instead: no hand-off.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkInvariants, extensionArgs, lastMessage, markerDetails, PLAN_TWO, requests, say, SCENARIO_TIMEOUT_MS, stopData, stopReports, textOf, TWO_TASKS, withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";
import { BUS_CLIENT } from "./stand-ins/paths.ts";
import { handOffNudgeText } from "../../src/core/text.ts";

function stopEvents(path: string): Array<Record<string, unknown>> {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)).filter((line) => line.channel === "stop").map((line) => line.data);
}

test("handOff after maxRounds: one extra marker (handOff, round at the limit), then the limit stop — recorded, notified and emitted once", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, say("Plan made."), say("Working on it."), say("Done: the plan. Left: both tasks. Next step: write the parser.")];
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-bus-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, "bus.jsonl");
  await withRpc(t.signal, { script, config: { maxRounds: 1, handOff: true }, env: { PI_TODO_LOOP_E2E_BUS: log } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    checkInvariants(box, { script, taskTexts: TWO_TASKS });
    const details = markerDetails(entries) as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(details.map((marker) => [marker.round, marker.handOff === true]), [[1, false], [1, true]]);
    const last = requests(box).at(-1);
    assert.equal(textOf(lastMessage(last).content), handOffNudgeText(), "the hand-off request carries the fixed text");
    assert.deepEqual(stopData(entries).map((stop) => [stop.kind, stop.limit, stop.round]), [["limit", "maxRounds", 1]]);
    const stopNotes = rpc.notifies.filter((note) => note.message.includes("stopped:"));
    assert.equal(stopNotes.length, 1, "announced once");
    assert.equal(stopEvents(log).length, 1, "one todo-loop:stop event");
    const [report] = stopReports(entries) as Array<{ continuations: number; byKind: Record<string, number> }>;
    assert.equal(report?.continuations, 2);
    assert.equal(report?.byKind.handOff, 1);
    assert.equal(report?.byKind.nudge, 1);
    t.diagnostic(`markers ${JSON.stringify(details.map((marker) => ({ round: marker.round, handOff: marker.handOff })))}; stops ${JSON.stringify(stopData(entries))}; stop notifies ${stopNotes.length}; events ${stopEvents(log).length}; requests ${requests(box).length}`);
  }, { extensions: extensionArgs([BUS_CLIENT]) });
});

test("handOff: not after a question — the settle at the limit that asks the person waits, with no hand-off marker", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, say("Plan made."), say("Should the parser accept tabs or only spaces?")];
  await withRpc(t.signal, { script, config: { maxRounds: 1, handOff: true } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    checkInvariants(box, { script, taskTexts: TWO_TASKS });
    const details = markerDetails(entries) as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(details.map((marker) => marker.handOff === true), [false]);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["question"]);
  });
});
