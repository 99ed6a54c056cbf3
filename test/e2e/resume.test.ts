// Proves on the real host that resuming a session whose run died with pi offers /todoloop continue over RPC, and never after an Escape, a fork, a clone or /new.
/**
 * SPEC §4.21 over RPC on the real pi: a run killed mid-list (SIGKILL: the branch ends inside the run;
 * SIGTERM and SIGHUP: pi aborts the run while shutting down, which the loop records with `shutdown:
 * true`) and resumed with `-c` or `switch_session` gets one `info` notify naming `/todoloop continue`,
 * which then runs once; an Escape is the person's and asks nothing; a fork, a clone and `/new` never ask.
 * A usage-limit wait still to come at the restart is armed again (footer, one continuation at its time);
 * one whose time passed while pi was closed is offered like a death.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { ChildProcess, spawn } from "node:child_process";
import {
  baseArgs,
  checkInvariants,
  extensionArgs,
  footers,
  loopNotifies,
  markerDetails,
  markers,
  PI_CLI,
  requests,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  sessionFile,
  startRpc,
  stopData,
  until,
  untilRequests,
  userMessageIds,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { RpcSession, Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS * 2;
const NO_RETRY = { retry: { enabled: false } };
const NOTICE = "todo loop: the last run stopped with 2 of 2 tasks open when pi exited. /todoloop continue picks it up.";
/** The first run: the list planned, one continuation, then a request that hangs until pi goes. */
const DYING: ScriptStep[] = [plan, say("Stop one."), { text: "Still thinking.", delayMs: 60_000 }];
const REST: ScriptStep[] = [finish, say("Done.")];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function childOf(rpc: RpcSession): ChildProcess {
  const child: unknown = Reflect.get(rpc.client, "process");
  assert.ok(child instanceof ChildProcess, "the RPC client's pi process");
  return child;
}

/** Runs the first message until the third request is in flight, then ends pi with `signal`. */
async function dieMidRun(box: Sandbox, signal: NodeJS.Signals): Promise<void> {
  const rpc = await startRpc(box);
  try {
    await rpc.send("Do the work");
    await untilRequests(box, 3);
    const child = childOf(rpc);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  } finally {
    await rpc.stop();
  }
}

/** The next pi process of the same sandbox answers from a new script (the scripted model counts from its own start). */
function nextScript(box: Sandbox, steps: readonly ScriptStep[]): void {
  writeFileSync(box.scriptPath, JSON.stringify(steps));
}

/** pi started again with `-c`, once its start-up work (the resume notify, if any) has had time to arrive. */
async function resumed(box: Sandbox, signal: AbortSignal): Promise<RpcSession> {
  const rpc = await startRpc(box, { args: ["-c"], signal });
  await until("the session's footer", () => footers(rpc.statuses).length > 0);
  await sleep(500);
  return rpc;
}

for (const signal of ["SIGKILL", "SIGTERM", "SIGHUP"] as const) {
  test(`RPC: a run ended by ${signal} mid-list and resumed with -c gets one info notify naming /todoloop continue, which runs once to the end`, { timeout }, async (t) => {
    const box = sandbox({ script: DYING, settings: NO_RETRY });
    try {
      await dieMidRun(box, signal);
      const dead = sessionEntries(box);
      const [anchor] = userMessageIds(dead);
      if (signal === "SIGKILL") {
        assert.equal(dead.at(-1)?.customType, "todo-loop:continue", "nothing is written after a SIGKILL: the branch ends on the marker");
        assert.deepEqual(stopData(dead), []);
      } else {
        assert.equal(dead.at(-2)?.message?.role, "assistant");
        assert.deepEqual(stopData(dead), [{ v: 1, kind: "outcome", reason: "stopped: pi was shut down during the run (SIGTERM or SIGHUP)", round: 1, open: 2, anchor, shutdown: true } as never], "pi aborts the run while shutting down: recorded as a shutdown, not an Escape");
      }
      nextScript(box, REST);
      const rpc = await resumed(box, t.signal);
      try {
        assert.deepEqual(loopNotifies(rpc.notifies), [{ message: NOTICE, notifyType: "info" }]);
        assert.equal(rpc.events.filter((event) => event.type === "extension_ui_request" && event.method === "confirm").length, 0, "no dialog over RPC");
        assert.equal(requests(box).length, 3, "nothing runs until the person says so");
        const reply = await rpc.command("continue");
        assert.deepEqual(loopNotifies(reply), [{ message: "todo loop: continuing at your request", notifyType: "info" }]);
        await rpc.waitSettled();
        const entries = await rpc.getEntries();
        assert.equal(requests(box).length, 5);
        assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, anchor], [2, anchor]]);
        assert.deepEqual(stopData(entries).map((stop) => stop.kind).at(-1), "clear");
        checkInvariants(box, { script: [...DYING, ...REST], taskTexts: TASKS });
        t.diagnostic(`${signal}: notifies ${loopNotifies(rpc.notifies).length} (1 resume), requests ${requests(box).length}, markers ${markers(entries).length}, records ${stopData(entries).map((stop) => stop.kind).join("+")}`);
      } finally {
        await rpc.stop();
      }
    } finally {
      box.cleanup();
    }
  });
}

test("RPC: an Escape is the person's own act: resuming asks nothing", { timeout }, async (t) => {
  const box = sandbox({ script: DYING, settings: NO_RETRY });
  try {
    const first = await startRpc(box, { signal: t.signal });
    try {
      await first.send("Do the work");
      await untilRequests(box, 3);
      await first.client.abort();
      await first.waitSettled();
    } finally {
      await first.stop();
    }
    const [stop] = stopData(sessionEntries(box));
    assert.deepEqual({ kind: stop?.kind, reason: stop?.reason, shutdown: (stop as { shutdown?: unknown } | undefined)?.shutdown }, { kind: "outcome", reason: "stopped: you stopped it (Escape)", shutdown: undefined });
    nextScript(box, REST);
    const rpc = await resumed(box, t.signal);
    try {
      assert.deepEqual(loopNotifies(rpc.notifies), []);
      t.diagnostic(`Escape: notifies ${loopNotifies(rpc.notifies).length}, requests ${requests(box).length}`);
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
});

test("RPC: switch_session to a session whose run died asks once (pi 1.5.2 fires session_start twice); a clone, a fork and /new of it never ask", { timeout }, async (t) => {
  const box = sandbox({ script: DYING, settings: NO_RETRY });
  try {
    await dieMidRun(box, "SIGKILL");
    const dead = sessionFile(box);
    const [humanId = ""] = userMessageIds(sessionEntries(box));
    nextScript(box, []);
    const rpc = await startRpc(box, { signal: t.signal });
    try {
      const client = rpc.client as unknown as {
        switchSession(path: string): Promise<unknown>;
        fork(entryId: string): Promise<unknown>;
        clone(): Promise<unknown>;
        newSession(): Promise<unknown>;
      };
      await sleep(500);
      assert.deepEqual(loopNotifies(rpc.notifies), [], "a fresh session asks nothing");
      await client.switchSession(dead);
      await until("the resume notify", () => loopNotifies(rpc.notifies).length > 0);
      await sleep(500);
      assert.deepEqual(loopNotifies(rpc.notifies), [{ message: NOTICE, notifyType: "info" }]);
      const counts: Record<string, number> = {};
      for (const [name, act] of [
        // A clone copies the whole branch, so it ends on the same marker; a fork starts at the message.
        ["clone", () => client.clone()],
        ["fork", () => client.fork(humanId)],
        ["new", () => client.newSession()],
      ] as const) {
        const before = rpc.notifies.length;
        await act();
        await sleep(700);
        counts[name] = loopNotifies(rpc.notifies.slice(before)).filter((notify) => notify.message === NOTICE).length;
        assert.equal(counts[name], 0, `${name} never asks`);
      }
      assert.equal(requests(box).length, 3, "nothing ran");
      t.diagnostic(`switch_session: 1 notify; ${JSON.stringify(counts)}`);
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
});

const LIMIT: ScriptStep = { stopReason: "error", errorMessage: '429 {"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}' };

test("RPC: a usage-limit wait still to come when pi restarts is armed again (footer, no question), and continues once at its time", { timeout }, async (t) => {
  const cap = 0.2;
  const box = sandbox({ script: [plan, LIMIT], settings: NO_RETRY, config: { maxLimitWaitMinutes: cap } });
  try {
    const first = await startRpc(box, { signal: t.signal });
    try {
      await first.prompt("Do the work");
    } finally {
      await first.stop();
    }
    const [record] = stopData(sessionEntries(box));
    const resumeAt = Date.parse((record as { resumeAt?: string } | undefined)?.resumeAt ?? "");
    assert.equal(record?.kind, "limit-wait");
    assert.ok(resumeAt > Date.now(), "the wait is still to come");
    nextScript(box, REST);
    const rpc = await resumed(box, t.signal);
    try {
      assert.deepEqual(loopNotifies(rpc.notifies), [], "a wait still to come is not asked about");
      const clock = new Date(resumeAt);
      const hhmm = `${String(clock.getHours()).padStart(2, "0")}:${String(clock.getMinutes()).padStart(2, "0")}`;
      assert.equal(footers(rpc.statuses).at(-1), `todo loop: resumes at ${hhmm} · todo 2 of 2 open`);
      await rpc.waitSettled();
      const entries = await rpc.getEntries();
      const wake = markers(entries).at(-1);
      const late = Date.parse(wake?.timestamp ?? "") - resumeAt;
      assert.ok(late >= 0 && late < 1500, `the continuation comes at resumeAt: ${late} ms after it`);
      assert.equal(markers(entries).length, 1);
      assert.equal(requests(box).length, 4);
      assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit-wait", "clear"]);
      checkInvariants(box, { script: [plan, LIMIT, ...REST], taskTexts: TASKS });
      t.diagnostic(`re-armed: notifies 0, woke ${late} ms after resumeAt, requests ${requests(box).length}, markers 1`);
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
});

test("RPC: a usage-limit wait whose time passed while pi was closed is offered like a run that died", { timeout }, async (t) => {
  const cap = 0.02;
  const box = sandbox({ script: [plan, LIMIT], settings: NO_RETRY, config: { maxLimitWaitMinutes: cap } });
  try {
    const first = await startRpc(box, { signal: t.signal });
    try {
      await first.prompt("Do the work");
    } finally {
      await first.stop();
    }
    await sleep(cap * 60_000 + 500);
    nextScript(box, []);
    const rpc = await resumed(box, t.signal);
    try {
      assert.deepEqual(loopNotifies(rpc.notifies), [{
        message: "todo loop: the last run was waiting for the usage limit with 2 of 2 tasks open when pi exited; its time has passed. /todoloop continue picks it up.",
        notifyType: "info",
      }]);
      assert.equal(requests(box).length, 2, "nothing runs by itself");
      t.diagnostic(`limit passed: notifies ${loopNotifies(rpc.notifies).length}, requests ${requests(box).length}`);
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
});

for (const [signal, status] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  test(`pi -p ended by ${signal} mid-list: pi's own exit status (${status}), the abort recorded as a shutdown, and the stderr line says so`, { timeout }, async (t) => {
    const box = sandbox({ script: DYING, settings: NO_RETRY });
    try {
      const child = spawn(process.execPath, [PI_CLI, ...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], { cwd: box.cwd, env: box.env, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      await untilRequests(box, 3);
      const sent = Date.now();
      child.kill(signal);
      const code = await exited;
      const took = Date.now() - sent;
      assert.equal(code, status, "listening for the signal leaves pi's exit status alone");
      assert.ok(took < 5000, `pi exited ${took} ms after the signal`);
      const entries = sessionEntries(box);
      const [anchor] = userMessageIds(entries);
      assert.deepEqual(stopData(entries), [{ v: 1, kind: "outcome", reason: "stopped: pi was shut down during the run (SIGTERM or SIGHUP)", round: 1, open: 2, anchor, shutdown: true } as never]);
      assert.ok(stderr.includes("todo loop: stopped: pi was shut down during the run (SIGTERM or SIGHUP), 2 of 2 tasks open"), stderr);
      t.diagnostic(`-p ${signal}: exit ${code} after ${took} ms, records outcome (shutdown)`);
    } finally {
      box.cleanup();
    }
  });
}

test("pi -c -p on a session whose run died asks nothing: the prompt that follows is the person's", { timeout }, async (t) => {
  const box = sandbox({ script: DYING, settings: NO_RETRY });
  try {
    await dieMidRun(box, "SIGKILL");
    // 0.5: the new message follows the dead run's marker, but across a restart: not carried over (§4.15, §4.21).
    nextScript(box, [say("Hello.")]);
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-c", "-p", "Hello"]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!/last run/i.test(run.stderr + run.stdout), `nothing about the last run: ${run.stderr}`);
    const entries = sessionEntries(box);
    assert.equal(requests(box).length, 4, "the person's prompt only: the dead run's list is not pushed under it");
    assert.equal(userMessageIds(entries).length, 2);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["earlier"]);
    t.diagnostic(`-c -p: exit ${run.code}, requests ${requests(box).length}, markers ${markers(entries).length}, records earlier`);
  } finally {
    box.cleanup();
  }
});
