/**
 * No process outlives pi (SPEC §10, 0.4): every group this extension starts is tracked until empty;
 * session shutdown ends it (SIGTERM, a grace, SIGKILL) even when a member ignores SIGTERM; the exit hook
 * kills what is left synchronously however the process ends (natural end, process.exit, an uncaught
 * error); one hook per process and one set across a reload. Checked by pid and by process group.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endTrackedGroups, groupAlive, killTrackedGroups, trackedGroups, trackGroup } from "../../src/io/groups.ts";
import { runVerification } from "../../src/io/verify-process.ts";
import { running } from "../processes.ts";

const GROUPS = fileURLToPath(new URL("../../src/io/groups.ts", import.meta.url));
const VERIFY = fileURLToPath(new URL("../../src/io/verify-process.ts", import.meta.url));

/** Starts `sh -c` in a group of its own whose members ignore SIGTERM; returns the group id once both have set their trap. */
async function stubbornGroup(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-stubborn-"));
  const ready = join(dir, "ready");
  const child = spawn("/bin/sh", ["-c", `trap '' TERM; (trap '' TERM; touch "${ready}"; exec sleep 60) & wait`], { detached: true, stdio: "ignore" });
  child.unref();
  assert.ok(child.pid !== undefined);
  await until("both ignore SIGTERM", () => existsSync(ready), 2000);
  rmSync(dir, { recursive: true, force: true });
  return child.pid;
}

/**
 * Whether a process of group `pgid` still runs (Linux: from /proc). A zombie has exited: in a container
 * whose init reaps late, `kill(-pgid, 0)` still finds one for a while, so it does not count here.
 */
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

/**
 * The grace's timer never keeps a process alive (in pi the terminal or the RPC pipe does; at pi's exit
 * the exit hook is the last word): a test holds the event loop open while it waits on it.
 */
async function held<T>(work: Promise<T>): Promise<T> {
  const keep = setInterval(() => undefined, 1000);
  try {
    return await work;
  } finally {
    clearInterval(keep);
  }
}

async function until(what: string, done: () => boolean, ms: number): Promise<number> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

test("groups: session shutdown ends a group whose members ignore SIGTERM — SIGTERM, the grace, then SIGKILL", async () => {
  const pid = await stubbornGroup();
  await until("the group runs", () => groupAlive(pid), 2000);
  trackGroup(pid);
  const started = Date.now();
  await held(endTrackedGroups(300));
  const took = Date.now() - started;
  await until("the group is gone", () => !groupRunning(pid), 1000);
  assert.ok(took >= 280 && took < 2500, `the grace was waited out (${took} ms): its members ignore SIGTERM`);
  assert.equal(trackedGroups().includes(pid), false);
});

test("groups: a group that ends on SIGTERM does not wait out the grace", async () => {
  const child = spawn("/bin/sh", ["-c", "sleep 60"], { detached: true, stdio: "ignore" });
  child.unref();
  const pid = child.pid ?? 0;
  trackGroup(pid);
  const started = Date.now();
  await held(endTrackedGroups(5000));
  assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
  assert.equal(groupRunning(pid), false);
});

test("groups: killTrackedGroups is synchronous SIGKILL to every tracked group", async () => {
  const pids = [await stubbornGroup(), await stubbornGroup()];
  await until("the groups run", () => pids.every(groupAlive), 2000);
  for (const pid of pids) trackGroup(pid);
  killTrackedGroups();
  assert.deepEqual(trackedGroups(), []);
  await until("both groups are gone", () => !pids.some(groupRunning), 1000);
});

test("groups: one exit hook per process and one set of groups, whatever copy of the module is loaded (a /reload loads a fresh one)", async () => {
  const before = process.listeners("exit").length;
  const first: typeof import("../../src/io/groups.ts") = await import(`${GROUPS}?copy=1`);
  const second: typeof import("../../src/io/groups.ts") = await import(`${GROUPS}?copy=2`);
  first.trackGroup(999_999_001);
  second.trackGroup(999_999_002);
  trackGroup(999_999_003);
  assert.ok(process.listeners("exit").length - before <= 1, "at most one hook added");
  for (const pid of [999_999_001, 999_999_002, 999_999_003]) assert.ok(second.trackedGroups().includes(pid), String(pid));
  first.killTrackedGroups();
  assert.deepEqual(trackedGroups(), []);
});

/**
 * A Node process that runs a verification command whose members ignore SIGTERM and then ends `how`;
 * returns the pids the command wrote (its shell, the group id, and its child).
 */
function endsWhileRunning(how: "exit" | "throw"): number[] {
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-groups-"));
  try {
    const pids = join(dir, "pids");
    const command = `trap '' TERM; (trap '' TERM; sleep 60) & echo $$ $! > "${pids}"; wait`;
    const code = `
      import { runVerification } from ${JSON.stringify(VERIFY)};
      import { existsSync } from "node:fs";
      void runVerification({ command: ${JSON.stringify(command)}, cwd: ${JSON.stringify(dir)}, timeoutMs: 60000 });
      const ready = setInterval(() => {
        if (!existsSync(${JSON.stringify(pids)})) return;
        clearInterval(ready);
        ${how === "exit" ? "process.exit(0);" : 'setTimeout(() => { throw new Error("uncaught"); }, 10);'}
      }, 20);
    `;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", code], { timeout: 10_000, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
    assert.equal(result.error, undefined, String(result.error));
    if (how === "throw") assert.match(result.stderr, /uncaught/);
    return readFileSync(pids, "utf8").trim().split(/\s+/).map(Number);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("groups: a process that ends with process.exit while a verification runs leaves none of its processes alive (by pid and by group)", async () => {
  const [shell = 0, child = 0] = endsWhileRunning("exit");
  const took = await until("the command's processes are gone", () => !running(shell) && !running(child) && !groupRunning(shell), 3000);
  assert.ok(took < 3000, `${took} ms`);
});

test("groups: an uncaught error while a verification runs leaves none of its processes alive", async () => {
  const [shell = 0, child = 0] = endsWhileRunning("throw");
  await until("the command's processes are gone", () => !running(shell) && !running(child) && !groupRunning(shell), 3000);
});

test("groups: a check that passed but left a child ignoring SIGTERM behind is killed at the process's exit, not 2 s later", async () => {
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-groups-"));
  try {
    const pidFile = join(dir, "child.pid");
    const ready = join(dir, "ready");
    const command = `(trap '' TERM; touch "${ready}"; exec sleep 60) > /dev/null 2>&1 & while [ ! -f "${ready}" ]; do :; done; echo $! > "${pidFile}"; exit 0`;
    const result = await runVerification({ command, cwd: dir, timeoutMs: 10_000 });
    assert.equal(result.exit, 0);
    const child = Number(readFileSync(pidFile, "utf8"));
    assert.equal(running(child), true, "SIGTERM did not end it");
    assert.ok(trackedGroups().length > 0, "its group is still tracked");
    killTrackedGroups();
    await until("the child is gone", () => !running(child), 1000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
