import { test } from "node:test";
import assert from "node:assert/strict";
import { baseArgs, checkInvariants, extensionArgs, isNudge, markers, requests, runPi, sandbox, SCENARIO_TIMEOUT_MS, sessionEntries, stops } from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const plan: ScriptStep = {
  text: "Planning.",
  calls: [
    { name: "todo", args: { action: "create", subject: "Write tests" } },
    { name: "todo", args: { action: "create", subject: "Ship it" } },
  ],
};
const finish: ScriptStep = {
  text: "Working.",
  calls: [
    { name: "todo", args: { action: "update", id: 1, status: "completed" } },
    { name: "todo", args: { action: "update", id: 2, status: "completed" } },
  ],
};

test("tasks open at a settle: exactly one hidden marker, the model continues, the list clears, the run ends", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const script: ScriptStep[] = [plan, { text: "Plan made; stopping here." }, finish, { text: "All done." }];
  const box = sandbox({ script });
  try {
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    checkInvariants(box, { script, taskTexts: ["Write tests", "Ship it"] });
    const entries = sessionEntries(box);
    const found = markers(entries);
    assert.equal(found.length, 1);
    assert.deepEqual(found[0]?.details, { v: 1, round: 1, anchor: found[0] && (found[0].details as { anchor: string }).anchor, open: 2, hint: false });
    const third = requests(box)[2];
    assert.ok(third && isNudge(third.messages[third.messages.length - 1] ?? { role: "", content: "" }), "the continuation request ends with the nudge");
    assert.deepEqual(stops(entries).map((entry) => (entry.data as { reason: string }).reason), ["stopped: list is clear"]);
  } finally {
    box.cleanup();
  }
});

test("--mode json: the continuation happens headless and the event stream shows the hidden marker and the stop record", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const script: ScriptStep[] = [plan, { text: "Plan made; stopping here." }, finish, { text: "All done." }];
  const box = sandbox({ script });
  try {
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "--mode", "json", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    checkInvariants(box, { script, taskTexts: ["Write tests", "Ship it"] });
    const appended = run.events
      .filter((event) => event.type === "entry_appended")
      .map((event) => event.entry as { type: string; customType?: string; display?: boolean; data?: { reason?: string } });
    assert.deepEqual(appended.map((entry) => entry.customType), ["todo-loop:continue", "todo-loop:stop"]);
    assert.equal(appended[0]?.display, false);
    assert.equal(appended[1]?.data?.reason, "stopped: list is clear");
    assert.equal(run.events.filter((event) => event.type === "agent_settled").length, 1, "one run, continued inside it");
    assert.equal(markers(sessionEntries(box)).length, 1);
  } finally {
    box.cleanup();
  }
});
