// Proves on the real host that the person's word is kept: a continue sent while a run winds down is honoured.
/**
 * The person's word is kept (SPEC 0.3 §7), on the real pi host with the real rpiv-todo:
 * - `/todoloop continue` that arrives while a run is winding down — its last turn over, pi not yet
 *   settled (another extension's `agent_before_settle` still working, or pi's compaction at the end of
 *   a run) — is honoured when pi settles: one marker then, through the same path `continue` takes when
 *   the agent is idle. Had that run ended on a stop, the stop is recorded too.
 * - `/todoloop continue` on an out-of-date list is consent: one run whose nudge asks the agent to read
 *   its list with its todo tool.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkInvariants,
  controlData,
  extensionArgs,
  loopNotifies,
  markerDetails,
  markers,
  requests,
  RPIV_TODO,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  textOf,
  until,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { RpcSession, ScriptStep } from "./harness.ts";
import { HOLDING } from "./stand-ins/slow-settle.ts";
import { SLOW_SETTLE } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const BUSY = { message: "todo loop: the agent is busy: the loop continues as soon as its current run ends", notifyType: "info" };
const CONTINUING = { message: "todo loop: continuing at your request", notifyType: "info" };

/** Resolves once the slow-settle stand-in has started holding the end of a run for the `count`th time. */
function holding(rpc: RpcSession, count: number): Promise<void> {
  return until(`agent_before_settle held (${count})`, () => rpc.notifies.filter((notify) => notify.message === HOLDING).length >= count);
}

/** Resolves once pi has settled `count` times in all (the harness counts every agent_settled). */
function settledTimes(rpc: RpcSession, count: number): Promise<void> {
  return until(`${count} settles`, () => rpc.events.filter((event) => event.type === "agent_settled").length >= count);
}

test("/todoloop continue while another extension's agent_before_settle still holds a paused run: kept, and honoured when pi settles with exactly one marker", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Paused; stopping here."), finish, say("Done.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.command("pause");
    await rpc.send("Do the work");
    await holding(rpc, 1);
    assert.equal(requests(box).length, 2, "the run's last turn is over");
    assert.deepEqual(await rpc.command("continue"), [BUSY], "the agent is busy: the consent is kept");
    await settledTimes(rpc, 1);
    await until("the continued run", () => requests(box).length === 4);
    await holding(rpc, 2);
    await settledTimes(rpc, 2);

    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    checkInvariants(box, { script, taskTexts: TASKS });
    assert.equal(requests(box).length, 4, "one more run: the continuation, the finishing turn and the last reply");
    assert.deepEqual(markerDetails(entries), [{ v: 1, round: 1, anchor, open: 2, total: 2, cap: null, hint: false, idle: 0, stale: 0, stuck: 0, fp: null, repeats: 0, by: "continue" }], "exactly one marker, the kept consent's");
    assert.deepEqual(controlData(entries).map((control) => control.action), ["pause", "continue"], "the continue is recorded once, when it came");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    assert.deepEqual(loopNotifies(rpc.notifies).filter((notify) => !notify.message.startsWith("todo loop: paused")), [BUSY, CONTINUING, { message: "todo loop stopped: list is clear", notifyType: "info" }]);
  }, { extensions: extensionArgs([SLOW_SETTLE]) });
});

test("/todoloop continue while a run that ended on a stop winds down: the stop is recorded and announced, then one marker", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), finish, say("Done.")];
  const limit = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
  await withRpc(t.signal, { script, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.send("Do the work");
    await holding(rpc, 1);
    assert.equal(requests(box).length, 3, "the run's last turn (the limit stop) is over");
    assert.deepEqual(await rpc.command("continue"), [BUSY]);
    await settledTimes(rpc, 1);
    await until("the continued run", () => requests(box).length === 5);
    await settledTimes(rpc, 2);

    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    checkInvariants(box, { script, taskTexts: TASKS });
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, anchor], [2, anchor]], "the loop's own marker, then the kept consent's");
    assert.deepEqual(stopData(entries).map((stop) => [stop.kind, stop.reason]), [["limit", limit], ["clear", "stopped: list is clear"]], "the limit stop is not lost");
    assert.deepEqual(loopNotifies(rpc.notifies), [BUSY, { message: `todo loop ${limit}`, notifyType: "warning" }, CONTINUING, { message: "todo loop stopped: list is clear", notifyType: "info" }]);
  }, { extensions: extensionArgs([SLOW_SETTLE]) });
});

test("/todoloop continue during pi's compaction at the end of a paused run: kept, and honoured when pi settles with exactly one marker", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Paused; stopping here."), say("Still paused; stopping.", { delayMs: 1000 }), say("Summary of the work so far.", { delayMs: 2000 }), say("Summary of the turn so far."), finish, say("Done.")];
  // Threshold compaction at every turn boundary while it is on (the reserve is larger than the model's window).
  const settings = { retry: { enabled: false }, compaction: { enabled: true, reserveTokens: 10_000_000, keepRecentTokens: 1 } };
  await withRpc(t.signal, { script, settings }, async (box, rpc) => {
    const client = rpc.client as unknown as { setAutoCompaction(enabled: boolean): Promise<void> };
    await client.setAutoCompaction(false);
    await rpc.command("pause");
    await rpc.prompt("Do the work");
    // A one-reply run, compaction switched on while its reply is written: pi compacts at the run's end, before it settles.
    await rpc.send("Go on");
    await until("the reply of the second run", () => requests(box).length === 3);
    await client.setAutoCompaction(true);
    await until("the compaction at the end of the run", () => rpc.events.some((event) => event.type === "compaction_start") && requests(box).length === 4);
    assert.deepEqual(await rpc.command("continue"), [BUSY], "pi is compacting: the consent is kept");
    await client.setAutoCompaction(false);
    await settledTimes(rpc, 2);
    await until("the continued run", () => requests(box).length === script.length);
    await settledTimes(rpc, 3);

    const entries = await rpc.getEntries();
    const [, goOn] = userMessageIds(entries);
    checkInvariants(box, { script, taskTexts: TASKS });
    assert.equal(sessionEntries(box).filter((entry) => entry.type === "compaction").length, 1, "pi compacted at the end of the run");
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, goOn]], "exactly one marker, the kept consent's");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    assert.deepEqual(loopNotifies(rpc.notifies).filter((notify) => !notify.message.startsWith("todo loop: paused")), [BUSY, CONTINUING, { message: "todo loop stopped: list is clear", notifyType: "info" }]);
  });
});

test("/todoloop continue on an out-of-date list (a todo call from a codemode script): one run whose nudge asks the agent to read its list with its todo tool, then the loop goes on", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    plan,
    { text: "Through a script.", calls: [{ name: "codemode", args: { code: "await tools.todo({ action: 'update', id: 1, status: 'completed' });\nreturn 'updated';" } }] },
    say("Parser done; stopping here."),
    { text: "Reading the list.", calls: [{ name: "todo", args: { action: "list" } }] },
    say("One left; stopping."),
    { text: "Finishing.", calls: [{ name: "todo", args: { action: "update", id: 2, status: "completed" } }] },
    say("Done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Write the parser and its tests");
    assert.deepEqual(stopData(await rpc.getEntries()).map((stop) => stop.kind), ["out-of-date"]);
    assert.deepEqual((await rpc.command("continue"))[0], CONTINUING, "consent: the run starts");
    await until("the run to the end of the list", () => requests(box).length === script.length);
    await rpc.waitSettled();

    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    checkInvariants(box, { script, taskTexts: TASKS });
    const found = markers(entries);
    assert.equal(found.length, 2, "the consent's marker, then the loop's own once the list was read again");
    const reread = textOf(found[0]?.content);
    assert.match(reread, /first use the todo tool to read the list/, reread);
    for (const subject of TASKS) assert.ok(!reread.includes(subject), "no task text");
    assert.deepEqual(found[0]?.details, { v: 1, round: 1, anchor, open: 2, total: 2, cap: null, hint: false, idle: 0, stale: 0, stuck: 0, fp: null, repeats: 0, reread: true, by: "continue" });
    assert.equal((found[1]?.details as { open?: number } | undefined)?.open, 1, "the list read again: one task open");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["out-of-date", "clear"]);
  }, { extensions: extensionArgs(["builtin:codemode"], { todo: RPIV_TODO }), args: ["--tools", "+codemode"] });
});
