// Proves on the real host that a run's report (SPEC §7.2) is the sum of what pi recorded, the same in the stop record, the todo-loop:stop event and /todoloop report, after a restart too.
/**
 * The report on the real pi host: every reply reports a scripted usage (stand-ins/usage.ts); a run of
 * three continuations, one of which changes nothing, ends on a clear list. The stop record's `report`,
 * the `todo-loop:stop` event's and `/todoloop report`'s figures are the sums of what the scripted model
 * reported on the continuations' replies (the person's own turn before the first is not the loop's),
 * and `pi -c` reads the same report back. A provider that reports no cost shows tokens only.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  extensionArgs, markerRounds, PLAN_TWO, say, SCENARIO_TIMEOUT_MS, sandbox, startRpc, stopData, stopReports, TWO_TASKS, updateTasks, withRpc, checkInvariants,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";
import { BUS_CLIENT, FIXED_USAGE } from "./stand-ins/paths.ts";

const EXTENSIONS = extensionArgs([FIXED_USAGE, BUS_CLIENT]);

/** Reply k (0-based, in the order pi's process made them) reports (k+1)·100 tokens and (k+1)·$0.01. */
function usageEnv(replies: number, cost: boolean): Record<string, string> {
  const list = Array.from({ length: replies }, (_, k) => ({ totalTokens: (k + 1) * 100, cost: cost ? (k + 1) / 100 : null }));
  return { PI_TODO_LOOP_E2E_USAGE: JSON.stringify(list) };
}

function busLog(root: string): Array<{ channel: string; data: Record<string, unknown> }> {
  const path = join(root, "bus.jsonl");
  return existsSync(path) ? readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : [];
}

// Replies: 0 plan (tool turn), 1 settle → nudge 1; 2 closes task 1, 3 settles → nudge 2; 4 settles having
// done nothing → nudge 3; 5 closes task 2, 6 settles on a clear list → the stop.
const SCRIPT: ScriptStep[] = [PLAN_TWO, say("Plan made."), updateTasks([1]), say("Task one done."), say("Thinking it over."), updateTasks([2]), say("All done.")];

test("report: three continuations, one changed nothing — record, event and /todoloop report carry the sums pi recorded; pi -c reads the same", { timeout: SCENARIO_TIMEOUT_MS * 2 }, async (t) => {
  const box = sandbox({ script: SCRIPT, env: { ...usageEnv(SCRIPT.length, true), PI_TODO_LOOP_E2E_BUS: "" } });
  box.env.PI_TODO_LOOP_E2E_BUS = join(box.root, "bus.jsonl");
  try {
    const rpc = await startRpc(box, { signal: t.signal, extensions: EXTENSIONS });
    let first: string;
    try {
      await rpc.prompt("Do the work");
      first = (await rpc.command("report"))[0]?.message ?? "";
      const entries = await rpc.getEntries();
      checkInvariants(box, { script: SCRIPT, taskTexts: TWO_TASKS });
      assert.deepEqual(markerRounds(entries), [1, 2, 3]);
      assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
      // Continuation 1: replies 2 and 3 (300 + 400 tokens, $0.03 + $0.04); 2: reply 4 (500, $0.05),
      // changed nothing; 3: replies 5 and 6 (600 + 700, $0.06 + $0.07). Replies 0 and 1 are the person's turn.
      const expected = { continuations: 3, byKind: { nudge: 3, wake: 0, checkIn: 0, resume: 0, continue: 0, handOff: 0 }, changed: 2, unchanged: 1, tokens: 2500, cost: 0.25 };
      const [report] = stopReports(entries) as Array<Record<string, unknown>>;
      assert.deepEqual({ ...report, minutes: undefined }, { ...expected, minutes: undefined });
      assert.equal(typeof report?.minutes, "number");
      const events = busLog(box.root).filter((line) => line.channel === "stop");
      assert.equal(events.length, 1, "one todo-loop:stop event");
      assert.deepEqual(events[0]?.data.report, report, "the event carries the record's report");
      t.diagnostic(`record report ${JSON.stringify(report)}; event report ${JSON.stringify(events[0]?.data.report)}`);
      t.diagnostic(`/todoloop report:\n${first}`);
      assert.match(first, /^todo loop report, last run of your latest message: 3 continuations · 2 changed something · 2\.5k tokens · \$0\.25 · under a minute$/m);
      assert.match(first, /^ {2}1\. nudge · 700 tokens · \$0\.07 · changed something$/m);
      assert.match(first, /^ {2}2\. nudge · 500 tokens · \$0\.05 · changed nothing$/m);
      assert.match(first, /^ {2}3\. nudge · 1\.3k tokens · \$0\.13 · changed something$/m);
      assert.match(first, /^last 1 run of this session:\n {2}\d\d:\d\d clear: 3 continuations · 2 changed something · 2\.5k tokens · \$0\.25 · under a minute$/m);
    } finally {
      await rpc.stop();
    }
    const again = await startRpc(box, { signal: t.signal, extensions: EXTENSIONS, args: ["-c"] });
    try {
      const after = (await again.command("report"))[0]?.message ?? "";
      assert.equal(after, first, "a restart reads the same report from the branch");
    } finally {
      await again.stop();
    }
  } finally {
    box.cleanup();
  }
});

test("report: a provider that reports no cost shows tokens only (cost 0 in the record)", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, say("Plan made."), say("Still thinking.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 }, env: usageEnv(script.length, false) }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const text = (await rpc.command("report"))[0]?.message ?? "";
    const entries = await rpc.getEntries();
    checkInvariants(box, { script, taskTexts: TWO_TASKS });
    const [report] = stopReports(entries) as Array<Record<string, unknown>>;
    assert.equal(report?.continuations, 1);
    assert.equal(report?.tokens, 300, "reply 2, the only one after the marker");
    assert.equal(report?.cost, 0);
    assert.equal(report?.unchanged, 1);
    assert.match(text, /^todo loop report, last run of your latest message: 1 continuation · 0 changed something · 300 tokens · under a minute$/m);
    assert.doesNotMatch(text, /\$/);
    t.diagnostic(`record report ${JSON.stringify(report)}; /todoloop report: ${text.split("\n")[0]}`);
  }, { extensions: extensionArgs([FIXED_USAGE]) });
});
