// Proves on the real host that open tasks at a settle get exactly one marker and the run ends when the list clears.
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseArgs, checkInvariants, extensionArgs, isNudge, markers, requests, runPi, sandbox, SCENARIO_TIMEOUT_MS, sessionEntries, stops,
  withoutFingerprint,
} from "./harness.ts";
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

test("tasks open at a settle: exactly one marker, the model continues, the list clears, the run ends", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const script: ScriptStep[] = [plan, { text: "Plan made; stopping here." }, finish, { text: "All done." }];
  const box = sandbox({ script });
  try {
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    checkInvariants(box, { script, taskTexts: ["Write tests", "Ship it"] });
    const entries = sessionEntries(box);
    const found = markers(entries);
    assert.equal(found.length, 1);
    const anchor = entries.find((entry) => entry.type === "message" && entry.message?.role === "user")?.id;
    assert.deepEqual(withoutFingerprint(found[0]?.details), { v: 1, round: 1, anchor, open: 2, total: 2, cap: null, hint: false, idle: 1, stale: 0, stuck: 0, repeats: 1 });
    const third = requests(box)[2];
    assert.ok(third && isNudge(third.messages[third.messages.length - 1] ?? { role: "", content: "" }), "the continuation request ends with the nudge");
    assert.deepEqual(stops(entries).map((entry) => (entry.data as { reason: string }).reason), ["stopped: list is clear"]);
  } finally {
    box.cleanup();
  }
});

test("--mode json: the continuation happens headless and the event stream shows the marker (display: true, the transcript default) and the stop record", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const script: ScriptStep[] = [plan, { text: "Plan made; stopping here." }, finish, { text: "All done." }];
  const box = sandbox({ script });
  try {
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "--mode", "json", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    checkInvariants(box, { script, taskTexts: ["Write tests", "Ship it"] });
    const appended = run.events
      .filter((event) => event.type === "entry_appended")
      .map((event) => event.entry as { type: string; customType?: string; display?: boolean; data?: unknown });
    assert.deepEqual(appended.map((entry) => entry.customType), ["todo-loop:continue", "todo-loop:stop"]);
    assert.equal(appended[0]?.display, true, "display equals the config's transcript (default true), whatever the mode");
    const anchor = sessionEntries(box).find((entry) => entry.type === "message" && entry.message?.role === "user")?.id;
    const { report: _report, ...data } = appended[1]?.data as Record<string, unknown>;
    assert.deepEqual(data, { v: 1, kind: "clear", reason: "stopped: list is clear", round: 1, open: 0, anchor }, "written at agent_settled, which --mode json emits too");
    assert.equal(run.events.filter((event) => event.type === "agent_settled").length, 1, "one run, continued inside it");
    assert.equal(markers(sessionEntries(box)).length, 1);
  } finally {
    box.cleanup();
  }
});
