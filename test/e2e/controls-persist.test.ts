// Proves on the real host that pause, resume and reset are kept on the branch across /reload and a restart.
/**
 * The user's pause, resume and reset are kept on the branch as `todo-loop:control` records and read
 * back (SPEC 0.2 §4.14, §7): each survives a `/reload` and a restart with `-c` (a second pi process on
 * the same session dir), and the footer is there from session start on.
 *
 * pi's `/reload` is an interactive-mode command: in RPC mode `prompt("/reload")` reaches the model as a
 * human message. The session-control stand-in's `/e2e-reload-runtime` runs the same reload through
 * `ctx.reload()`. The scripted model reads its script again on every (re)load, so each phase writes the
 * steps it needs first.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import {
  checkInvariants,
  controlData,
  extensionArgs,
  footers,
  loopNotifies,
  markerDetails,
  requests,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  startRpc,
  stopData,
  until,
  updateTasks,
  userMessageIds,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
} from "./harness.ts";
import type { RpcSession, Sandbox, SandboxOptions, ScriptStep } from "./harness.ts";
import { SESSION_CONTROL } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const EXTENSIONS = extensionArgs([SESSION_CONTROL]);

async function status(rpc: RpcSession): Promise<string> {
  return (await rpc.command("status"))[0]?.message ?? "";
}

/** Runs pi's reload flow with the next phase's script in place. */
async function reload(box: Sandbox, rpc: RpcSession, next: readonly ScriptStep[]): Promise<void> {
  writeFileSync(box.scriptPath, JSON.stringify(next));
  assert.equal(await rpc.prompt("/e2e-reload-runtime"), "handled");
}

/**
 * A sandbox and a first pi; `body` gets a `restart(next)` that ends the running pi and starts another
 * with `-c` on the same session dir, with the next phase's script in place, and waits for its footer.
 */
async function withRestarts(
  signal: AbortSignal,
  options: SandboxOptions,
  body: (box: Sandbox, first: RpcSession, restart: (next: readonly ScriptStep[]) => Promise<RpcSession>) => Promise<void>,
): Promise<void> {
  const box = sandbox(options);
  const running: RpcSession[] = [];
  try {
    running.push(await startRpc(box, { signal, extensions: EXTENSIONS }));
    await body(box, running[0] as RpcSession, async (next) => {
      await running.at(-1)?.stop();
      writeFileSync(box.scriptPath, JSON.stringify(next));
      const rpc = await startRpc(box, { signal, extensions: EXTENSIONS, args: ["-c"] });
      running.push(rpc);
      await until("the footer after -c", () => footers(rpc.statuses).length > 0);
      return rpc;
    });
  } finally {
    for (const rpc of running) await rpc.stop();
    box.cleanup();
  }
}

test("a pause survives /reload and a restart with -c: no continuation under later messages, PAUSED in /todoloop and the footer", { timeout }, async (t) => {
  const first: ScriptStep[] = [plan, say("Stopping here.")];
  const afterReload: ScriptStep[] = [say("Still paused; stopping.")];
  const afterRestart: ScriptStep[] = [say("Paused after the restart too.")];
  await withRestarts(t.signal, { script: first }, async (box, rpc, restart) => {
    assert.deepEqual(await rpc.command("pause"), [{ message: "todo loop: paused by user", notifyType: "info" }]);
    await rpc.prompt("Do the work");
    assert.deepEqual(footers(rpc.statuses).at(-1), "todo loop paused · todo 2 of 2 open");

    await reload(box, rpc, afterReload);
    const reloadedFooter = footers(rpc.statuses).at(-1);
    assert.match(await status(rpc), /^todo loop: PAUSED$/m);
    assert.equal(reloadedFooter, "todo loop paused · todo 2 of 2 open", "session_start (reload) shows the footer again");
    await rpc.prompt("Go on");

    const second = await restart(afterRestart);
    assert.deepEqual(footers(second.statuses), ["todo loop paused · todo 2 of 2 open"], "the footer right after -c, before any prompt");
    const report = await status(second);
    assert.match(report, /^todo loop: PAUSED$/m);
    assert.match(report, /^tasks open: 2 of 2 \(rpiv-todo\)$/m);
    await second.prompt("Carry on");

    const entries = await second.getEntries();
    assert.equal(userMessageIds(entries).length, 3);
    assert.deepEqual(markerDetails(entries), [], "no continuation under any of the three messages");
    assert.deepEqual(stopData(entries), [], "a pause is no stop");
    assert.deepEqual(controlData(entries).map((control) => control.action), ["pause"]);
    assert.deepEqual(loopNotifies(second.notifies).filter((notify) => notify.notifyType !== "info"), []);
    assert.equal(requests(box).length, 4);
    checkInvariants(box, { script: [...first, ...afterReload, ...afterRestart], taskTexts: TASKS });
  });
});

test("a reset survives /reload and a restart with -c: the rounds rebuilt from the markers stay cleared, so the next settle under the same message continues once more", { timeout }, async (t) => {
  const reason = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
  const first: ScriptStep[] = [plan, say("Stop one."), say("Stop two.")];
  const afterRestart: ScriptStep[] = [say("Stop three."), say("Stop four.")];
  await withRestarts(t.signal, { script: first, config: { maxRounds: 1 } }, async (box, rpc, restart) => {
    await rpc.prompt("Do the work");
    assert.match(await status(rpc), /^continuations for this message: 1 of 1$/m);
    assert.deepEqual(await rpc.command("reset"), [{ message: "todo loop: counters reset", notifyType: "info" }]);

    await reload(box, rpc, []);
    let report = await status(rpc);
    assert.match(report, /^continuations for this message: 0 of 1$/m, "not rebuilt from the marker: the reset came after it");
    assert.match(report, /^replies in a row without doing anything: 0 of 3$/m);

    const second = await restart(afterRestart);
    assert.deepEqual(footers(second.statuses), ["todo 2 of 2 open · continue 0/1"], "the footer right after -c, before any prompt");
    report = await status(second);
    assert.match(report, /^continuations for this message: 0 of 1$/m);
    assert.match(report, /^replies since the list last changed: 0$/m);
    assert.equal(await second.prompt("/e2e-hidden-turn"), "handled");
    await second.waitSettled();

    const entries = await second.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.equal(userMessageIds(entries).length, 1, "no new human message");
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, anchor], [1, anchor]], "one more continuation after the reset, counted from 0");
    assert.deepEqual(stopData(entries), [
      { v: 1, kind: "limit", limit: "maxRounds", reason, round: 1, open: 2, anchor },
      { v: 1, kind: "limit", limit: "maxRounds", reason, round: 1, open: 2, anchor },
    ], "the second limit stop is a new one: the loop continued in between");
    assert.deepEqual(controlData(entries), [{ v: 1, action: "reset", anchor }]);
    assert.deepEqual(loopNotifies(second.notifies).filter((notify) => notify.notifyType === "warning"), [{ message: `todo loop ${reason}`, notifyType: "warning" }]);
    assert.equal(requests(box).length, 5);
    checkInvariants(box, { script: [...first, ...afterRestart], taskTexts: TASKS });
  });
});

test("a resume survives /reload and a restart with -c: the pause before it no longer holds, and the next message continues", { timeout }, async (t) => {
  const first: ScriptStep[] = [plan, say("Stopping here.")];
  const afterRestart: ScriptStep[] = [say("Stop one."), updateTasks([1, 2]), say("Done.")];
  // "Go on" continues the first message's list: 0.2's rule for tasks from an earlier message (§4.15).
  await withRestarts(t.signal, { script: first, config: { earlierTasks: "continue" } }, async (box, rpc, restart) => {
    await rpc.command("pause");
    await rpc.prompt("Do the work");
    assert.deepEqual(await rpc.command("resume"), [{ message: "todo loop: resumed: the loop goes on when the agent next stops; /todoloop continue starts it now", notifyType: "info" }]);

    await reload(box, rpc, []);
    assert.match(await status(rpc), /^todo loop: active$/m);
    assert.equal(footers(rpc.statuses).at(-1), "todo 2 of 2 open · continue 0");

    const second = await restart(afterRestart);
    assert.deepEqual(footers(second.statuses), ["todo 2 of 2 open · continue 0"], "the footer right after -c, before any prompt");
    assert.match(await status(second), /^todo loop: active$/m);
    await second.prompt("Go on");

    const entries = await second.getEntries();
    const [first_, goOn] = userMessageIds(entries);
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, goOn]]);
    assert.deepEqual(stopData(entries).map((stop) => [stop.kind, stop.anchor]), [["clear", goOn]]);
    assert.deepEqual(controlData(entries).map((control) => control.action), ["pause", "resume"]);
    assert.equal(controlData(entries)[1]?.anchor, first_);
    assert.deepEqual(loopNotifies(second.notifies).filter((notify) => !notify.message.startsWith("todo loop: ")), [{ message: "todo loop stopped: list is clear", notifyType: "info" }]);
    assert.equal(requests(box).length, 5);
    checkInvariants(box, { script: [...first, ...afterRestart], taskTexts: TASKS });
  });
});
