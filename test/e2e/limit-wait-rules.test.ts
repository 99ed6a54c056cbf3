// Proves on the real host that a usage-limit wait meets every rule an automatic continuation meets: the earlier-message rule, the kill switch seen early, and a verification's fix run that ends on a limit.
/**
 * SPEC 0.5 §4.20 over RPC (and `-p`) on the real pi, the scripted model failing with Anthropic's 429 and
 * a 3-second wait (`maxLimitWaitMinutes: 0.05`): a limit that ends an unrelated new message never pushes
 * the earlier message's list at the reset; a kill switch seen by `/todoloop` during the wait cancels it,
 * and removing the file before the reset does not revive it; a verification's fix run that ends on a
 * limit is a `limit-wait` like any run — a record, a notify, the stderr line and exit code headless, and
 * at the reset the fix run goes on with the check's output.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  baseArgs,
  callTools,
  checkInvariants,
  createTasks,
  extensionArgs,
  footers,
  loopNotifies,
  markerDetails,
  markers,
  requests,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  textOf,
  updateTasks,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  LIMIT_429 as LIMIT,
  LIMIT_WAIT_CAP as CAP,
  LIMIT_WAIT_MS as WAIT_MS,
  NO_RETRY,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
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

/** A check that fails once, then passes. */
function checkOnce(box: Sandbox): string {
  const path = join(box.root, "check.sh");
  writeFileSync(path, `#!/bin/sh\nif [ -f "${box.root}/ran-once" ]; then echo "41 passing"; exit 0; fi\ntouch "${box.root}/ran-once"\necho "1 failing: parser rejects empty input"\nexit 1\n`);
  chmodSync(path, 0o755);
  return path;
}

const FIX_RUN: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done."), LIMIT];
const FIXED: ScriptStep[] = [callTools({ name: "bash", args: { command: "echo fixing" } }), say("Fixed it.")];

test("RPC: a verification's fix run that ends on a limit is a limit-wait (record, notify); at the reset the fix run goes on with the check's output, then a verified clear", { timeout }, async (t) => {
  const script: ScriptStep[] = [...FIX_RUN, ...FIXED];
  await withRpc(t.signal, { script, settings: NO_RETRY }, async (box, rpc) => {
    // The config is read at every decision: written before the first message, with the sandbox's path in it.
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ maxLimitWaitMinutes: CAP, verify: checkOnce(box) }));
    await rpc.prompt("Do the work");
    const waiting = await rpc.getEntries();
    const [anchor] = userMessageIds(waiting);
    const wait = stopData(waiting);
    t.diagnostic(`after the fix run's 429: requests ${requests(box).length}, records ${JSON.stringify(wait)}, notifies ${JSON.stringify(loopNotifies(rpc.notifies))}`);
    assert.equal(wait.length, 1, "the fix run ends with a record");
    assert.deepEqual([wait[0]?.kind, wait[0]?.open, wait[0]?.anchor, wait[0]?.round], ["limit-wait", 0, anchor, 1]);
    assert.match(wait[0]?.reason ?? "", /^waiting for the usage limit: continuing at \d\d:\d\d \(in under a minute\) · \/todoloop pause to cancel$/);
    assert.deepEqual(loopNotifies(rpc.notifies).map((notify) => [notify.message, notify.notifyType]), [[`todo loop ${wait[0]?.reason}`, "warning"]]);
    await rpc.waitSettled();
    const entries = await rpc.getEntries();
    const details = markerDetails(entries) as unknown as Array<{ round: number; verify?: { run: number; exit: number } }>;
    t.diagnostic(`after the reset: requests ${requests(box).length}, markers ${JSON.stringify(details.map((d) => [d.round, d.verify?.run, d.verify?.exit]))}, records ${stopData(entries).map((stop) => stop.kind).join("+")}`);
    assert.deepEqual(details.map((d) => [d.round, d.verify?.run, d.verify?.exit]), [[1, 1, 1], [2, 1, 1]], "the wake continues the fix run: the same failed check, one more round");
    assert.match(textOf(markers(entries)[1]?.content), /```text\n1 failing: parser rejects empty input\n```/, "with the check's output");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit-wait", "clear"]);
    assert.match(stopData(entries)[1]?.reason ?? "", /check\.sh passed/);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("pi -p: a verification's fix run that ends on a limit writes the stderr line and keeps pi's exit code; --mode json applies exitCode", { timeout }, async (t) => {
  for (const mode of [["-p"], ["--mode", "json"]] as const) {
    const box = sandbox({ script: FIX_RUN, settings: NO_RETRY });
    try {
      writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: checkOnce(box), exitCode: 7 }));
      const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), ...mode, "Do the work"], 45_000);
      const records = stopData(sessionEntries(box));
      const lines = run.stderr.split("\n").filter((line) => line.startsWith("todo loop"));
      t.diagnostic(`${mode.join(" ")}: exit ${run.code}, records ${records.map((stop) => stop.kind).join("+")}, stderr ${JSON.stringify(lines)}`);
      assert.deepEqual(records.map((stop) => [stop.kind, stop.open]), [["limit-wait", 0]]);
      assert.ok(lines.some((line) => /^todo loop: stopped: usage limit reached: it resets about \d\d:\d\d \(in 5 min\); run pi -c then to continue/.test(line)), run.stderr);
      if (mode[0] === "--mode") assert.equal(run.code, 7, "a message's first limit-wait needs the person: exitCode applies");
      else assert.equal(run.code, 1, "pi's own exit status for an errored last reply");
      checkInvariants(box, { script: FIX_RUN, taskTexts: ["Alpha task"] });
    } finally {
      box.cleanup();
    }
  }
});
