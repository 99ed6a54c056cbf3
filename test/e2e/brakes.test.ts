// Proves on the real host that the loop never pushes an agent that asked, idled three times or lost its todo tool.
/**
 * The loop never pushes an agent that asked the human something, that stopped three times in a row
 * without doing anything, or that cannot reach its todo tool; a time limit from the branch timestamps
 * (SPEC 0.2 §4.6, §4.8, §4.10). On the real pi host with real rpiv-todo and a scripted model; every
 * figure (requests, markers, notifies, stop records) asserted exactly.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkInvariants,
  extensionArgs,
  footers,
  isNudge,
  lastMessage,
  loopNotifies,
  markerDetails,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  untilRequests,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { EntryRecord, MarkerDetails, Notify, ScriptStep } from "./harness.ts";
import { TOOL_SWITCH } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const CLEAR = { message: "todo loop stopped: list is clear", notifyType: "info" };

/** Marker details as asserted here: the loop state, without the anchor (asserted separately). */
function state(details: MarkerDetails): Omit<MarkerDetails, "anchor" | "v" | "total"> {
  const { round, open, cap, hint, idle, stale } = details;
  return { round, open, cap, hint, idle, stale };
}

interface Observed {
  entries: EntryRecord[];
  requests: number;
  notifies: Notify[];
  footers: Array<string | undefined>;
  /** The `/todoloop` report after the run. */
  status: string;
}

/** One prompt in RPC mode to the end of its run, then `/todoloop`: what the loop did, counted. */
function observe(
  t: { signal: AbortSignal; diagnostic(message: string): void },
  script: ScriptStep[],
  config?: Record<string, unknown>,
): Promise<Observed> {
  return withRpc(t.signal, { script, config }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const notifies = loopNotifies(rpc.notifies);
    const status = (await rpc.command("status"))[0]?.message ?? "";
    checkInvariants(box, { script, taskTexts: TASKS });
    const entries = await rpc.getEntries();
    const observed = { entries, requests: requests(box).length, notifies, footers: footers(rpc.statuses), status };
    t.diagnostic(`requests ${observed.requests}, markers ${markerDetails(entries).length}, notifies ${notifies.length}, stop records ${stopData(entries).length}`);
    return observed;
  });
}

test("a settle whose reply ends with a question to the human: no continuation, the loop waits ('the agent asked'), one warning, one question stop record; the human's next message ends the wait", { timeout }, async (t) => {
  const question = "Which database should I use?";
  const waiting = `waiting for you: the agent asked: "${question}"`;
  const script: ScriptStep[] = [
    plan,
    say(`I can use SQLite or Postgres.\n\n**${question}**\n`),
    say("Using Postgres; stopping here."),
    finish,
    say("Done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.equal(requests(box).length, 2, "the plan and the question: no continuation request after the question");
    let entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.deepEqual(markerDetails(entries), [], "no marker");
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "question", reason: waiting, round: 0, open: 2, anchor }]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${waiting}`, notifyType: "warning" }]);
    assert.equal(footers(rpc.statuses).at(-1), "todo loop: waiting for you · todo 2 of 2 open");
    const report = (await rpc.command("status"))[0]?.message ?? "";
    assert.match(report, /^todo loop: waiting$/m);
    assert.ok(report.split("\n").includes(waiting), report);
    assert.ok(report.split("\n").includes(`last: ${waiting}`), report);

    const before = rpc.notifies.length;
    await rpc.prompt("Use Postgres.");
    entries = await rpc.getEntries();
    const [, reply] = userMessageIds(entries);
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, reply]], "the human's answer re-arms the loop under its own anchor");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["question", "clear"]);
    assert.deepEqual(loopNotifies(rpc.notifies.slice(before)), [CLEAR], "the wait is not announced again");
    assert.equal(requests(box).length, 5);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("a question inside a trailing code block, or inside a quotation, is no question to the human: the loop continues", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    plan,
    say("The script will ask this itself:\n\n```sh\nread -r -p 'Which database should I use?' db\n```\n"),
    say('The guide already answers "Should I also write the docs?" for us.\nGoing on with the parser.'),
    finish,
    say("Done."),
  ];
  const run = await observe(t, script);
  assert.equal(run.requests, 5);
  assert.deepEqual(markerDetails(run.entries).map(state), [
    { round: 1, open: 2, cap: null, hint: false, idle: 1, stale: 0 },
    { round: 2, open: 2, cap: null, hint: true, idle: 2, stale: 1 },
  ]);
  assert.deepEqual(stopData(run.entries).map((stop) => stop.kind), ["clear"]);
  assert.deepEqual(run.notifies, [CLEAR]);
  assert.ok(!run.footers.some((footer) => footer?.includes("waiting for you")), JSON.stringify(run.footers));
});

test("stopOnQuestion: false: a reply that ends with a question gets the normal nudge", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Which database should I use?"), finish, say("Done.")];
  const run = await observe(t, script, { stopOnQuestion: false });
  assert.equal(run.requests, 4);
  assert.deepEqual(markerDetails(run.entries).map(state), [{ round: 1, open: 2, cap: null, hint: false, idle: 1, stale: 0 }]);
  assert.deepEqual(stopData(run.entries).map((stop) => stop.kind), ["clear"]);
  assert.deepEqual(run.notifies, [CLEAR]);
  assert.doesNotMatch(run.status, /^waiting for you/m);
});

test("three settles in a row without a tool call: two continuations (the nudge, then the hint), then the idle stop", { timeout }, async (t) => {
  const reason = "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you";
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), say("Stop three.")];
  const run = await observe(t, script);
  const [anchor] = userMessageIds(run.entries);
  assert.equal(run.requests, 4);
  assert.deepEqual(markerDetails(run.entries).map(state), [
    { round: 1, open: 2, cap: null, hint: false, idle: 1, stale: 0 },
    { round: 2, open: 2, cap: null, hint: true, idle: 2, stale: 1 },
  ]);
  assert.deepEqual(stopData(run.entries), [{ v: 1, kind: "idle", reason, round: 2, open: 2, anchor }]);
  assert.deepEqual(run.notifies, [{ message: `todo loop ${reason}`, notifyType: "warning" }]);
  assert.match(run.status, /^todo loop: stopped$/m);
  assert.match(run.status, /^replies in a row without doing anything: 3 of 3$/m);
  assert.ok(run.status.split("\n").includes(`last: ${reason}`), run.status);
});

test("maxIdleReplies: 0 turns the idle stop off: four settles in a row get four continuations", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), say("Stop three."), say("Stop four."), finish, say("Done.")];
  const run = await observe(t, script, { maxIdleReplies: 0 });
  assert.equal(run.requests, 7);
  assert.deepEqual(markerDetails(run.entries).map((details) => [details.round, details.idle]), [[1, 1], [2, 2], [3, 3], [4, 4]]);
  assert.deepEqual(stopData(run.entries).map((stop) => stop.kind), ["clear"]);
  assert.deepEqual(run.notifies, [CLEAR]);
});

test("the todo tool taken out of the active set mid-session: no nudge to a tool the model does not have, and the stop says so", { timeout }, async (t) => {
  const reason = "stopped: the todo tool todo is not active, so the list cannot change, 2 tasks still open";
  const script: ScriptStep[] = [plan, say("Stopping here.", { delayMs: 1500 })];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.send("Do the work");
    await untilRequests(box, 2);
    assert.equal(await rpc.prompt("/e2e-deactivate todo"), "handled");
    const switched = rpc.notifies.find((notify) => notify.message.startsWith("e2e-deactivate: "));
    assert.ok(switched && !switched.message.slice("e2e-deactivate: ".length).split(", ").includes("todo"), switched?.message);
    assert.ok(switched.message.includes("todo_loop_block"), "the other tools stay active");
    await rpc.waitSettled();
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.equal(requests(box).length, 2);
    assert.deepEqual(markerDetails(entries), [], "no marker");
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "out-of-reach", reason, round: 0, open: 2, anchor }]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${reason}`, notifyType: "warning" }]);
    const report = (await rpc.command("status"))[0]?.message ?? "";
    assert.match(report, /^tasks open: 2 of 2 \(rpiv-todo\)$/m);
    assert.ok(report.split("\n").includes(`last: ${reason}`), report);
    checkInvariants(box, { script, taskTexts: TASKS });
  }, { extensions: extensionArgs([TOOL_SWITCH]) });
});

/** Minutes as the loop writes them (text.ts): one decimal, or two significant digits where that shows 0. */
function minutesText(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  if (rounded === 0 && value > 0) return String(Number(value.toPrecision(2)));
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

test("maxMinutes: the minutes from the human message's entry to the settle's reply entry decide; a fractional limit stops the run once reached", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two.", { delayMs: 1500 })];
  await withRpc(t.signal, { script, config: { maxMinutes: 0.02 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    const anchorEntry = entries.find((entry) => entry.id === anchor);
    const replies = entries.filter((entry) => entry.message?.role === "assistant");
    const at = (entry: EntryRecord | undefined): number => Date.parse(String((entry as { timestamp?: unknown } | undefined)?.timestamp));
    const elapsed = (reply: EntryRecord | undefined): number => (at(reply) - at(anchorEntry)) / 60_000;
    assert.ok(elapsed(replies[1]) < 0.02, `the first settle came ${elapsed(replies[1])} minutes after the message, under the limit`);
    const used = elapsed(replies[2]);
    assert.ok(used >= 0.02, `the second settle came ${used} minutes after the message`);

    assert.equal(requests(box).length, 3);
    assert.deepEqual(markerDetails(entries).map(state), [{ round: 1, open: 2, cap: null, hint: false, idle: 1, stale: 0 }]);
    const reason = `stopped: time limit reached (${minutesText(used)} of 0.02 minutes since your message), 2 tasks still open, no todo change for 1 reply; the agent may need you`;
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "limit", limit: "maxMinutes", reason, round: 1, open: 2, anchor }]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${reason}`, notifyType: "warning" }]);
    const report = (await rpc.command("status"))[0]?.message ?? "";
    assert.match(report, /^spend since your message: [\d,]+ tokens \(no limit\), \$0\.0000 \(no limit\), under a minute \(limit 0\.02 min\)$/m);
    assert.match(report, /^config: .*todo-loop\.json \(maxMinutes 0\.02\)$/m);
    assert.ok(isNudge(lastMessage(requests(box)[2])), "the one continuation request ends with the nudge");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});
