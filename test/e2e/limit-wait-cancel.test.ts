// Proves on the real host what cancels or holds a usage-limit wait over RPC — reset, the kill switch, /new, another workflow holding the session — and that pi's own retries come first.
/**
 * SPEC §4.20 over RPC on the real pi, with the scripted model failing with Anthropic's 429 and a 3-second
 * wait (`maxLimitWaitMinutes: 0.05`): `/todoloop reset`, the kill switch found when the timer fires, and
 * `/new` leave no continuation at the wait's time; a workflow that holds `workflow:mutex:v1` at that time
 * (stand-ins/late-goal.ts) gets none either, and the footer says another workflow drives; a 429 pi
 * retries is no stop until the retry fails too, and then one wait and one continuation follow.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkInvariants,
  extensionArgs,
  footers,
  loopNotifies,
  markers,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
  LIMIT_429 as LIMIT,
  LIMIT_WAIT_CAP as CAP,
  LIMIT_WAIT_MS as WAIT_MS,
  NO_RETRY,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const LATE_GOAL = join(dirname(fileURLToPath(import.meta.url)), "stand-ins", "late-goal.ts");
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const script: ScriptStep[] = [plan, LIMIT, finish, say("Done.")];

test("RPC: /todoloop reset before the time cancels the wait", { timeout }, async (t) => {
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.deepEqual(stopData(await rpc.getEntries()).map((stop) => stop.kind), ["limit-wait"]);
    await rpc.command("reset");
    await sleep(WAIT_MS + 2000);
    assert.equal(requests(box).length, 2, "nothing ran at the wait's time");
    assert.deepEqual(markers(await rpc.getEntries()), []);
    checkInvariants(box, { script: script.slice(0, 2), taskTexts: TASKS });
    t.diagnostic(`reset: requests ${requests(box).length}, markers 0`);
  });
});

test("RPC: the kill switch found when the timer fires: no continuation", { timeout }, async (t) => {
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    writeFileSync(join(box.agentDir, "todo-loop-off"), "");
    await sleep(WAIT_MS + 2000);
    assert.equal(requests(box).length, 2);
    assert.deepEqual(markers(await rpc.getEntries()), []);
    checkInvariants(box, { script: script.slice(0, 2), taskTexts: TASKS });
    t.diagnostic(`kill switch: requests ${requests(box).length}, markers 0`);
  });
});

test("RPC: /new before the time cancels the wait of the session it left", { timeout }, async (t) => {
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const client = rpc.client as unknown as { newSession(): Promise<unknown> };
    await client.newSession();
    await sleep(WAIT_MS + 2000);
    assert.equal(requests(box).length, 2, "nothing ran in either session");
    assert.equal(rpc.events.filter((event) => event.type === "agent_start").length, 1);
    t.diagnostic(`/new: requests ${requests(box).length}, runs 1`);
  });
});

test("RPC: another workflow holding the session at the wait's time gets no continuation; the footer says it drives", { timeout }, async (t) => {
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const taken = await rpc.prompt("/e2e-goal-take");
    assert.equal(taken, "handled");
    assert.ok(rpc.notifies.some((notify) => notify.message === "e2e-goal: held"));
    await sleep(WAIT_MS + 2000);
    const entries = await rpc.getEntries();
    assert.equal(requests(box).length, 2);
    assert.deepEqual(markers(entries), []);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit-wait"], "no stop recorded for standing aside");
    assert.equal(footers(rpc.statuses).at(-1), "todo loop: another workflow is driving · todo 2 of 2 open");
    checkInvariants(box, { script: script.slice(0, 2), taskTexts: TASKS });
    t.diagnostic(`workflow busy: requests ${requests(box).length}, markers 0, footer ${footers(rpc.statuses).at(-1)}`);
  }, { extensions: extensionArgs([LATE_GOAL]) });
});

test("RPC: a 429 pi retries is no stop; when the retry fails too, one wait and then one continuation", { timeout }, async (t) => {
  const retried: ScriptStep[] = [plan, LIMIT, LIMIT, finish, say("Done.")];
  await withRpc(t.signal, { script: retried, settings: { retry: { enabled: true, maxRetries: 1, baseDelayMs: 1 } }, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.equal(rpc.events.filter((event) => event.type === "auto_retry_start").length, 1, "pi retried once");
    assert.deepEqual(stopData(await rpc.getEntries()).map((stop) => stop.kind), ["limit-wait"], "one wait, for the final error");
    assert.equal(loopNotifies(rpc.notifies).length, 1);
    await rpc.waitSettled();
    const entries = await rpc.getEntries();
    assert.equal(requests(box).length, 5);
    assert.equal(markers(entries).length, 1);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit-wait", "clear"]);
    checkInvariants(box, { script: retried, taskTexts: TASKS });
    t.diagnostic(`pi retry: retries 1, requests ${requests(box).length}, markers 1, records limit-wait+clear`);
  });
});
