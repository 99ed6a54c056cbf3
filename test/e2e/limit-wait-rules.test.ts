// Proves on the real host that a usage-limit wait meets every rule an automatic continuation meets: the earlier-message rule, and the kill switch seen early.
/**
 * SPEC 0.5 §4.20 over RPC on the real pi, the scripted model failing with Anthropic's 429 and a
 * 3-second wait (`maxLimitWaitMinutes: 0.05`): a limit that ends an unrelated new message never pushes
 * the earlier message's list at the reset; a kill switch seen by `/todoloop` during the wait cancels it,
 * and removing the file before the reset does not revive it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkInvariants,
  footers,
  loopNotifies,
  markerDetails,
  markers,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  userMessageIds,
  withRpc,
  updateTasks,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const NO_RETRY = { retry: { enabled: false } };
const LIMIT: ScriptStep = { stopReason: "error", errorMessage: '429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}' };
const CAP = 0.05;
const WAIT_MS = CAP * 60_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Message 1: two tasks planned, then three replies without work: the idle brake stops it with both open. */
const FIRST: ScriptStep[] = [plan, say("Planned; stopping here."), say("Still stopping."), say("Stopping again.")];

test("RPC: a limit that ends an unrelated new message never pushes the earlier message's list at the reset: no wait promised, no marker under it", { timeout }, async (t) => {
  // Steps the reset would use if it pushed the old list (0.4.0 took them: a marker at resumeAt, then two more).
  const spare: ScriptStep[] = [say("Back to the parser."), say("Still on it."), say("Stopping.")];
  const script: ScriptStep[] = [...FIRST, LIMIT, ...spare];
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Plan the parser work");
    await rpc.prompt("What time is it?");
    await sleep(WAIT_MS + 2500);
    const entries = await rpc.getEntries();
    const [first, second] = userMessageIds(entries);
    const under = (anchor: string | undefined) => markerDetails(entries).filter((details) => details.anchor === anchor).length;
    const records = stopData(entries).map((stop) => [stop.kind, stop.anchor === first ? "m1" : "m2"]);
    t.diagnostic(`requests ${requests(box).length}, markers m1 ${under(first)} m2 ${under(second)}, records ${JSON.stringify(records)}, notifies ${JSON.stringify(loopNotifies(rpc.notifies).map((n) => n.message))}, last footer ${footers(rpc.statuses).at(-1)}`);
    assert.equal(under(second), 0, "no marker under the question, at the reset or after");
    assert.equal(requests(box).length, 5, "the question's one request, nothing at the reset");
    assert.deepEqual(records, [["idle", "m1"], ["outcome", "m2"]], "an error stop for the question: no wait that would push the old list");
    assert.ok(!footers(rpc.statuses).some((footer) => footer?.includes("resumes at")), "the footer never promised a reset");
    assert.equal(loopNotifies(rpc.notifies).at(-1)?.message, "todo loop stopped: turn outcome was error");
    checkInvariants(box, { script: script.slice(0, 5), taskTexts: TASKS });
  });
});

test("RPC: the kill switch seen by /todoloop during a limit wait cancels it; removing the file before the reset does not revive it", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, LIMIT, updateTasks([1, 2]), say("Done.")];
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.deepEqual(stopData(await rpc.getEntries()).map((stop) => stop.kind), ["limit-wait"]);
    const off = join(box.agentDir, "todo-loop-off");
    writeFileSync(off, "");
    const status = await rpc.command("");
    const said = loopNotifies(status).map((notify) => notify.message).join("\n");
    assert.match(said, /DISABLED \(kill switch /, said);
    rmSync(off);
    await sleep(WAIT_MS + 2500);
    const entries = await rpc.getEntries();
    t.diagnostic(`requests ${requests(box).length}, markers ${markers(entries).length}, records ${stopData(entries).map((stop) => stop.kind).join("+")}, footers ${JSON.stringify(footers(rpc.statuses))}`);
    assert.equal(requests(box).length, 2, "nothing ran at the reset");
    assert.deepEqual(markers(entries), []);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit-wait"], "the record stays");
    assert.ok(!(footers(rpc.statuses).at(-1) ?? "").includes("resumes at"), `the footer no longer promises the reset: ${footers(rpc.statuses).at(-1)}`);
    checkInvariants(box, { script: script.slice(0, 2), taskTexts: TASKS });
  });
});
