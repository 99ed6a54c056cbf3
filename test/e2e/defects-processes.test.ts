// Proves on the real host that no process group the loop started outlives pi, by pid and by group: SIGTERM and SIGHUP during a verification whose members ignore SIGTERM, `-p` after a passing check that left such a child, and `/new` while a notify command runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ChildProcess } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  baseArgs,
  createTasks,
  extensionArgs,
  PLAN_TWO,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  startRpc,
  stopData,
  until,
  updateTasks,
} from "./harness.ts";
import type { RpcSession, Sandbox, ScriptStep } from "./harness.ts";
import { running } from "../processes.ts";

const timeout = SCENARIO_TIMEOUT_MS;

function executable(box: Sandbox, name: string, body: string): string {
  const path = join(box.root, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Whether a process of group `pgid` still runs (from /proc; a zombie has exited). */
function groupRunning(pgid: number): boolean {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] !== "Z" && Number(fields[2]) === pgid) return true;
  }
  return false;
}

function pidsIn(path: string): number[] {
  return readFileSync(path, "utf8").trim().split(/\s+/).map(Number);
}

/** A command whose shell and background child both ignore SIGTERM; writes "<shell pid = group> <child pid>" once both run. */
function stubborn(box: Sandbox, name: string, pidFile: string): string {
  const ready = join(box.root, `${name}.ready`);
  return executable(box, name, `trap '' TERM\n(trap '' TERM; touch "${ready}"; exec sleep 120) &\nwhile [ ! -f "${ready}" ]; do :; done\necho $$ $! > "${pidFile}.tmp"\nmv "${pidFile}.tmp" "${pidFile}"\nwait`);
}

function child(rpc: RpcSession): ChildProcess {
  const process: unknown = Reflect.get(rpc.client, "process");
  assert.ok(process instanceof ChildProcess);
  return process;
}

/** pi in RPC mode runs the verification (its members ignore SIGTERM) and gets `signal`: every pid is gone within 3 s of pi's exit. */
async function signalledWhileVerifying(t: { signal: AbortSignal; diagnostic(message: string): void }, signal: "SIGTERM" | "SIGHUP"): Promise<void> {
  const script: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done.")];
  const box = sandbox({ script });
  const pidFile = join(box.root, "pids");
  writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: stubborn(box, "check.sh", pidFile) }));
  const rpc = await startRpc(box, { signal: t.signal });
  try {
    await rpc.send("Do the work");
    await until("the verification command runs", () => existsSync(pidFile));
    const pids = pidsIn(pidFile);
    assert.ok(pids.every(running), "both run");
    const pi = child(rpc);
    const exited = new Promise<number>((resolve) => pi.once("exit", () => resolve(Date.now())));
    pi.kill(signal);
    const at = await exited;
    await until("every process of the group is gone", () => !pids.some(running) && !groupRunning(pids[0] ?? 0), 3000);
    const after = Date.now() - at;
    t.diagnostic(`${signal}: pids ${pids.join(", ")} gone ${after} ms after pi exited`);
    assert.ok(after <= 3000, `${after} ms`);
  } finally {
    await rpc.stop();
    box.cleanup();
  }
}

test("RPC, SIGTERM to pi while a verification command whose members ignore SIGTERM runs: all of them gone within 3 s of pi's exit", { timeout }, async (t) => {
  await signalledWhileVerifying(t, "SIGTERM");
});

test("RPC, SIGHUP (the terminal closed) while such a verification runs: all of them gone within 3 s of pi's exit", { timeout }, async (t) => {
  await signalledWhileVerifying(t, "SIGHUP");
});

test("pi -p: a passing check that left a child ignoring SIGTERM behind — the child is gone within 3 s of pi's exit", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done.")];
  const box = sandbox({ script });
  try {
    const pidFile = join(box.root, "pids");
    const ready = join(box.root, "ready");
    const check = executable(box, "check.sh", `(trap '' TERM; touch "${ready}"; exec sleep 120) > /dev/null 2>&1 &\nwhile [ ! -f "${ready}" ]; do :; done\necho $$ $! > "${pidFile}"\necho "12 passing"\nexit 0`);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: check }));
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], 45_000);
    const exitedAt = Date.now();
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(stopData(sessionEntries(box)).map((stop) => stop.kind), ["clear"]);
    const pids = pidsIn(pidFile);
    await until("the left-behind child is gone", () => !pids.some(running) && !groupRunning(pids[0] ?? 0), 3000);
    t.diagnostic(`pids ${pids.join(", ")} gone ${Date.now() - exitedAt} ms after pi exited`);
  } finally {
    box.cleanup();
  }
});

test("RPC, /new while a notify command that ignores SIGTERM runs: its group is gone within 3 s", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, say("Stopping here."), say("Still stopping."), say("Stopping again.")];
  const box = sandbox({ script });
  const pidFile = join(box.root, "hook-pids");
  writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: [stubborn(box, "hook.sh", pidFile)] }));
  const rpc = await startRpc(box, { signal: t.signal });
  try {
    await rpc.prompt("Do the work");
    assert.deepEqual(stopData(sessionEntries(box)).map((stop) => stop.kind), ["idle"]);
    await until("the notify command runs", () => existsSync(pidFile));
    const pids = pidsIn(pidFile);
    const at = Date.now();
    const client = rpc.client as unknown as { newSession(): Promise<unknown> };
    await client.newSession();
    await until("the notify command's group is gone", () => !pids.some(running) && !groupRunning(pids[0] ?? 0), 3000);
    t.diagnostic(`hook pids ${pids.join(", ")} gone ${Date.now() - at} ms after /new`);
  } finally {
    await rpc.stop();
    box.cleanup();
  }
});
