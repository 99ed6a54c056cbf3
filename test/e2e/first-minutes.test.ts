// Proves on the real host what a person reads in the first ten minutes: the footer after a stop, /todoloop's words.
/**
 * The first ten minutes on the real pi host (SPEC §7, 0.3: "After a stop", "Words a person can use",
 * "No todo tool"), in RPC and print mode with real rpiv-todo and the scripted model: the footer names
 * the stop once the run has ended and starts at `continue 0` when a human message arrives; a count past
 * its cap reads `(limit N, at your request)`; `/todoloop` names the anchor by time and words, says
 * `config: none (defaults)` and what resume does next; todo_loop_block's result has no doubled full
 * stop. (The no-todo-tool notice belongs to the interactive terminal: test/tui/first-minutes.test.ts.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  anchorWords,
  callTools,
  checkInvariants,
  footers,
  PLAN_TWO as plan,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  textOf,
  TWO_TASKS as TASKS,
  untilRequests,
  until,
  updateTasks,
  userMessageIds,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

test("RPC footer after an idle stop names it, and a new human message shows continue 0 before its first reply ends", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    plan,
    say("Stopping here."),
    say("Stopping again."),
    say("Nothing more."),
    // The new message takes the list up (a todo call), so it is no earlier message's list (SPEC §4.15).
    { ...updateTasks([1, 2]), delayMs: 3000 },
    say("All done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.deepEqual(stopData(sessionEntries(box)).map((stop) => stop.kind), ["idle"]);
    const afterStop = footers(rpc.statuses);
    t.diagnostic(`footers up to the idle stop: ${JSON.stringify(afterStop)}`);
    assert.equal(afterStop.at(-1), "todo loop stopped: without doing anything · todo 2 of 2 open", "the footer names the stop once the run ended");
    assert.ok(afterStop.includes("todo 2 of 2 open · continue 2"), "the running count before it");

    const seen = rpc.statuses.length;
    await rpc.send("Carry on");
    await untilRequests(box, 5);
    await until("the footer of the new message", () => footers(rpc.statuses.slice(seen)).length > 0);
    const during = footers(rpc.statuses.slice(seen));
    assert.equal(during[0], "todo 2 of 2 open · continue 0", "continue 0 at once, while the first reply is still under way");
    assert.equal((await rpc.getEntries()).filter((entry) => entry.message?.role === "assistant").length, 4, "no reply of the new message yet");
    await rpc.waitSettled();
    t.diagnostic(`footers of the new message: ${JSON.stringify(footers(rpc.statuses.slice(seen)))}`);
    assert.equal(footers(rpc.statuses).at(-1), undefined, "cleared when the list is clear");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("RPC footer after a limit stop names it; /todoloop continue past the cap reads continue 2 (limit 1, at your request), never 2/1", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stopping here."), say("Stopping again."), updateTasks([1, 2]), say("All done.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.deepEqual(stopData(sessionEntries(box)).map((stop) => stop.kind), ["limit"]);
    assert.equal(footers(rpc.statuses).at(-1), "todo loop stopped: limit · todo 2 of 2 open");
    await rpc.command("continue");
    await rpc.waitSettled();
    const all = footers(rpc.statuses);
    t.diagnostic(`footers: ${JSON.stringify(all)}`);
    assert.ok(all.includes("todo 2 of 2 open · continue 2 (limit 1, at your request)"), JSON.stringify(all));
    assert.ok(all.every((text) => text === undefined || !/continue (\d+)\/(\d+)/.test(text) || Number(/continue (\d+)\//.exec(text)?.[1]) <= 1), JSON.stringify(all));
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("/todoloop in RPC: the anchor by its time and words (never an id), config: none (defaults), minutes as words, resume says what happens next", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stopping here."), say("Stopping again."), say("Nothing more.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Write the parser and its tests");
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    const report = (await rpc.command("status"))[0]?.message ?? "";
    t.diagnostic(report);
    const lines = report.split("\n");
    assert.ok(lines.includes(`counting from: ${anchorWords(entries, anchor)}`), report);
    assert.match(report, /^counting from: your message of \d\d:\d\d \("Write the parser and its tests"\)$/m);
    assert.ok(anchor && !report.includes(anchor), "no entry id in the report");
    assert.match(report, /^spend since your message: [\d,]+ tokens \(no limit\), \$[\d.]+ \(no limit\), under a minute \(no limit\)$/m);
    assert.match(report, /^config: none \(defaults\) — create \S+todo-loop\.json to set limits$/m);
    assert.deepEqual(await rpc.command("resume"), [{ message: "todo loop: resumed: the loop goes on when the agent next stops; /todoloop continue starts it now", notifyType: "info" }]);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("todo_loop_block with a reason ending in a full stop: the result the model reads has one full stop (no '..')", { timeout }, async (t) => {
  const reason = "Which database should I migrate.";
  const script: ScriptStep[] = [plan, callTools({ name: "todo_loop_block", args: { reason } }), say("I need your decision.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const result = (await rpc.getEntries()).find((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo_loop_block");
    const text = textOf(result?.message?.content);
    t.diagnostic(text);
    assert.match(text, /Reason: Which database should I migrate\. End your reply now/);
    assert.doesNotMatch(text, /\.\./);
    assert.equal(footers(rpc.statuses).at(-1), "todo loop: waiting for you · todo 2 of 2 open");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});
