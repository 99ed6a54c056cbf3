// Proves on the real host that the session explains itself: marker details, stop records, why there is no list, the footer.
/**
 * A session that explains itself, on the real pi host: marker details and stop records in the session
 * file (print and JSON mode), why there is no list (read from `/todoloop` in RPC mode), and the footer
 * status pi transmits in RPC mode.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import {
  baseArgs,
  callTools,
  checkInvariants,
  createTasks,
  extensionArgs,
  markers,
  MARKER_TYPE,
  requests,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  sessionFile,
  STOP_TYPE,
  stopData,
  stops,
  untilRequests,
  updateTasks,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
  withoutFingerprint,
  withoutReport,
} from "./harness.ts";
import type { EntryRecord, Sandbox, ScriptStep } from "./harness.ts";
import { UNKNOWN_SHAPE_TODO } from "./stand-ins/paths.ts";


/** Lines of the raw session file that mention a custom type (what `grep` finds). */
function grep(box: Sandbox, customType: string): string[] {
  return readFileSync(sessionFile(box), "utf8").split("\n").filter((line) => line.includes(`"customType":"${customType}"`));
}

/**
 * Asserts the marker details and stop records of one human message, exactly. The markers follow settles
 * in a row with no todo change between them (2 tasks of 2 open, no cap): marker n has idle n, stale n-1.
 */
function assertExplained(entries: readonly EntryRecord[], anchor: string, expected: { hints: boolean[]; stop: string; kind: string; open: number }): void {
  const mine = markers(entries).filter((entry) => (entry.details as { anchor?: unknown }).anchor === anchor);
  assert.deepEqual(
    mine.map((entry) => withoutFingerprint(entry.details)),
    expected.hints.map((hint, index) => ({ v: 1, round: index + 1, anchor, open: 2, total: 2, cap: null, hint, idle: index + 1, stale: index, stuck: index, repeats: 1 })),
    "every marker's details are { v: 1, round, anchor, open, total, cap, hint, idle, stale, stuck, fp, repeats } with the human message's entry id",
  );
  const recorded = stopData(entries).filter((data) => data.anchor === anchor);
  assert.deepEqual(recorded, [{ v: 1, kind: expected.kind, reason: expected.stop, round: expected.hints.length, open: expected.open, anchor }]);
}

test("pi -p: every marker carries { v: 1, round, anchor, open, total, cap, hint, idle, stale } anchored to the human message's entry id, and the stop is recorded once as todo-loop:stop", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const script: ScriptStep[] = [plan, say("Stopping here."), say("Stopping again."), finish, say("All done.")];
  const box = sandbox({ script });
  try {
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    checkInvariants(box, { script, taskTexts: TASKS });
    const entries = sessionEntries(box);
    const [anchor] = userMessageIds(entries);
    assert.ok(anchor);
    assertExplained(entries, anchor, { hints: [false, true], stop: "stopped: list is clear", kind: "clear", open: 0 });
    assert.equal(grep(box, MARKER_TYPE).length, 2);
    const stopLines = grep(box, STOP_TYPE);
    assert.equal(stopLines.length, 1, "grep finds the stop record exactly once");
    const line: EntryRecord = JSON.parse(stopLines[0] ?? "{}");
    assert.equal(line.type, "custom", "a custom entry: it never reaches the model");
    for (const request of requests(box)) {
      assert.ok(!JSON.stringify(request.messages).includes("stopped: list is clear"), "the stop record is not in any request");
    }
  } finally {
    box.cleanup();
  }
});

test("pi --mode json: markers and the stop record are in the session file and on the event stream, once per human message, across a second process on the same session", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const firstScript: ScriptStep[] = [plan, say("Stopping here."), { stopReason: "error", errorMessage: "provider fell over" }];
  // "Carry on" continues the first message's list: 0.2's rule for tasks from an earlier message (§4.15).
  const box = sandbox({ script: firstScript, settings: { retry: { enabled: false } }, config: { earlierTasks: "continue" } });
  try {
    const first = await runPi(box, [...extensionArgs(), ...baseArgs(box), "--mode", "json", "Do the work"]);
    const appended = (run: typeof first, customType: string) =>
      run.events.filter((event) => event.type === "entry_appended" && (event.entry as EntryRecord | undefined)?.customType === customType);
    assert.equal(appended(first, MARKER_TYPE).length, 1, "the marker is on the JSON event stream");
    assert.deepEqual(appended(first, STOP_TYPE).map((event) => withoutReport((event.entry as EntryRecord).data)), [
      { v: 1, kind: "outcome", reason: "stopped: turn outcome was error", round: 1, open: 2, anchor: userMessageIds(sessionEntries(box))[0] },
    ]);

    const secondScript: ScriptStep[] = [say("Resuming."), finish, say("All done.")];
    writeFileSync(box.scriptPath, JSON.stringify(secondScript));
    const second = await runPi(box, [...extensionArgs(), ...baseArgs(box), "--session", sessionFile(box), "--mode", "json", "Carry on"]);
    assert.equal(second.code, 0, second.stderr);
    checkInvariants(box, { script: [...firstScript, ...secondScript], taskTexts: TASKS });
    assert.equal(appended(second, MARKER_TYPE).length, 1);
    assert.equal(appended(second, STOP_TYPE).length, 1);

    const entries = sessionEntries(box);
    const [one, two] = userMessageIds(entries);
    assert.ok(one && two);
    assertExplained(entries, one, { hints: [false], stop: "stopped: turn outcome was error", kind: "outcome", open: 2 });
    assertExplained(entries, two, { hints: [false], stop: "stopped: list is clear", kind: "clear", open: 0 });
    assert.equal(grep(box, STOP_TYPE).length, 2, "one stop record per human message");
  } finally {
    box.cleanup();
  }
});

/** Runs one prompt in RPC mode and returns the `/todoloop` report and what the loop said and wrote meanwhile. */
function noListRun(
  t: { signal: AbortSignal },
  script: ScriptStep[],
  extensions: readonly string[],
): Promise<{ status: string; during: string[]; entries: EntryRecord[] }> {
  return withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Hello there");
    const during = rpc.notifies.map((notify) => notify.message);
    const status = (await rpc.command("status"))[0]?.message ?? "";
    checkInvariants(box, { script });
    return { status, during, entries: await rpc.getEntries() };
  }, { extensions });
}

test("no list, no todo tool loaded: /todoloop says no todo tool is active, and nothing is announced or recorded", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const run = await noListRun(t, [say("Hello.")], extensionArgs([], { todo: null }));
  assert.match(run.status, /^tasks open: none — no todo tool is active$/m);
  assert.match(run.status, /^last: stopped: no list \(no todo tool is active\)$/m);
  assert.deepEqual(run.during, []);
  assert.deepEqual(stops(run.entries), []);
  assert.deepEqual(markers(run.entries), []);
});

test("no list, todo tool loaded but unused: /todoloop says it has not been used on this branch, and nothing is announced or recorded", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const run = await noListRun(t, [say("Hello.")], extensionArgs());
  assert.match(run.status, /^tasks open: none — the todo tool has not been used on this branch$/m);
  assert.match(run.status, /^last: stopped: no list \(the todo tool has not been used on this branch\)$/m);
  assert.deepEqual(run.during, []);
  assert.deepEqual(stops(run.entries), []);
});

test("no list, todo results in a shape this extension does not read: /todoloop says so, and nothing is announced or recorded", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [callTools({ name: "todo", args: { item: "Water the plants" } }), say("Noted.")];
  const run = await noListRun(t, script, extensionArgs([], { todo: UNKNOWN_SHAPE_TODO }));
  const results = run.entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo");
  assert.equal(results.length, 1, "the stand-in todo tool ran");
  assert.match(run.status, /^tasks open: none — todo results are in a shape this extension does not read$/m);
  assert.match(run.status, /^last: stopped: no list \(todo results are in a shape this extension does not read\)$/m);
  assert.deepEqual(run.during, []);
  assert.deepEqual(stops(run.entries), []);
});

test("no list, every task deleted: the human is warned the tasks were deleted, then the stop that the list was emptied is announced and recorded once the run ends, and /todoloop says so", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [
    plan,
    callTools({ name: "todo", args: { action: "delete", id: 1 } }, { name: "todo", args: { action: "delete", id: 2 } }),
    say("Nothing left to do."),
  ];
  const run = await noListRun(t, script, extensionArgs());
  assert.match(run.status, /^tasks open: none — the list was emptied: its tasks were deleted or cleared$/m);
  assert.match(run.status, /^last: stopped: no list \(the list was emptied: its tasks were deleted or cleared\)$/m);
  // The emptied-list warning is its own event (SPEC §4.13), the stop another.
  assert.equal(run.during.length, 2, run.during.join("\n"));
  assert.match(run.during[0] ?? "", /^todo loop: 2 tasks were deleted rather than completed: "Write the parser", "Write the tests"\./);
  assert.equal(run.during[1], "todo loop stopped: no list (the list was emptied: its tasks were deleted or cleared)");
  const [anchor] = userMessageIds(run.entries);
  assert.deepEqual(stopData(run.entries), [
    { v: 1, kind: "no-list", reason: "stopped: no list (the list was emptied: its tasks were deleted or cleared)", round: 0, open: 0, anchor },
  ]);
});

test("RPC footer: setStatus(\"todo-loop\") shows the open count and continuations, then paused, then waiting for you, and is cleared when no task is open", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const three = ["Write the parser", "Write the tests", "Write the docs"];
  const script: ScriptStep[] = [
    createTasks(...three),
    updateTasks([1]),
    say("Stopping here."),
    say("Thinking it over.", { delayMs: 1500 }),
    callTools({ name: "todo_loop_block", args: { reason: "I need the staging password" } }),
    say("Waiting for the password."),
    updateTasks([2, 3]),
    say("All done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.send("Do the work");
    await untilRequests(box, 4);
    await rpc.command("pause");
    await rpc.waitSettled();
    await rpc.command("resume");
    await rpc.prompt("Carry on");
    await rpc.prompt("The password is in the vault; finish up");
    checkInvariants(box, { script, taskTexts: three });

    assert.ok(rpc.statuses.length > 0);
    assert.ok(rpc.statuses.every((status) => status.key === "todo-loop"), "one status key");
    const texts = rpc.statuses.map((status) => status.text);
    const milestones = ["todo 2 of 3 open · continue 1", "todo loop paused · todo 2 of 3 open", "todo loop: waiting for you · todo 2 of 3 open", undefined];
    let from = 0;
    for (const milestone of milestones) {
      const at = texts.indexOf(milestone, from);
      assert.ok(at >= from, `footer ${String(milestone)} after position ${from} in ${JSON.stringify(texts)}`);
      from = at + 1;
    }
    t.diagnostic(`footer: ${JSON.stringify(texts)}`);
    assert.equal(texts.at(-1), undefined, "cleared when the list has no open task");
    const raw = rpc.events.filter((event) => event.type === "extension_ui_request" && event.method === "setStatus");
    assert.ok(!("statusText" in (raw.at(-1) ?? {})), "pi sends a clear as a setStatus record without statusText");
    assert.ok(texts.every((text) => text === undefined || /^(todo \d+ of \d+ open · continue \d+|(todo loop: waiting for you|todo loop stopped: [a-z ()]+|todo loop paused) · todo \d+ of \d+ open)$/.test(text)), JSON.stringify(texts));
    assert.ok(texts.every((text) => text === undefined || !/\d+\/\d+/.test(text)), "never a bare X/Y next to the todo tool's own done/total");
  });
});
