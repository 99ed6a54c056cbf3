/**
 * Every process group this extension starts (verification commands, the notify command) is gone within
 * 3 s of pi's exit, however pi ends (SPEC §10, 0.4): each group is tracked from its spawn until it is
 * empty; session shutdown ends them (SIGTERM, a short grace, then SIGKILL), and one `process.on("exit")`
 * hook per process SIGKILLs whatever is left, synchronously — also after an uncaught error, and when a
 * member ignores SIGTERM. The set lives on `globalThis`, so a `/reload` (a fresh copy of this module)
 * still sees the groups the previous copy started, and the hook is registered once. Timers here never
 * keep pi alive: the exit hook is the final step either way.
 */

import { readdirSync, readFileSync } from "node:fs";

const KEY = Symbol.for("pi-todo-loop.process-groups");

interface Registry {
  /** Process group ids (the leader's pid) that may still hold a process. */
  readonly live: Set<number>;
  /** Whether this process has the exit hook. */
  hooked: boolean;
}

function registry(): Registry {
  const holder = globalThis as { [KEY]?: Registry };
  holder[KEY] ??= { live: new Set(), hooked: false };
  return holder[KEY];
}

/** Sends `signal` to every process of the group; false when the group is gone (or was never ours to signal). */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process of the group still runs. A zombie has exited (only its table entry waits for a
 * parent to reap it, and in a container whose init reaps late that can take seconds), so on Linux the
 * group's members are read from /proc and zombies do not count; elsewhere a signal 0 tells.
 */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  if (process.platform !== "linux") return true;
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: the comm may hold spaces and parentheses, so read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] !== "Z" && Number(fields[2]) === pid) return true;
  }
  return false;
}

/** SIGKILL to every tracked group, now; the set is emptied. Synchronous: safe in `process.on("exit")`. */
export function killTrackedGroups(): void {
  const { live } = registry();
  for (const pid of [...live]) {
    signalGroup(pid, "SIGKILL");
    live.delete(pid);
  }
}

/** Tracks a group this extension just started; the first call in a process registers the exit hook. */
export function trackGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  const state = registry();
  state.live.add(pid);
  if (!state.hooked) {
    state.hooked = true;
    process.on("exit", killTrackedGroups);
  }
}

/** The group is empty (or was killed for good): no longer tracked. */
export function forgetGroup(pid: number | undefined): void {
  if (pid !== undefined) registry().live.delete(pid);
}

/** The groups tracked now (for `/todoloop` and tests). */
export function trackedGroups(): readonly number[] {
  return [...registry().live];
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    // A timer never keeps pi alive: if pi exits first, the exit hook kills the groups anyway.
    timer.unref();
  });
}

/** How long session shutdown lets a group end on SIGTERM before SIGKILL. */
export const SHUTDOWN_GRACE_MS = 1000;

/**
 * Session shutdown (quit, `/new`, `/reload`, SIGTERM, SIGHUP — pi disposes the session first): SIGTERM
 * to every tracked group, up to `graceMs` for them to go, then SIGKILL to what is left. Never rejects.
 */
export async function endTrackedGroups(graceMs: number = SHUTDOWN_GRACE_MS): Promise<void> {
  const pids = trackedGroups();
  if (pids.length === 0) return;
  for (const pid of pids) signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + Math.max(0, graceMs);
  while (Date.now() < deadline && pids.some(groupAlive)) await pause(50);
  for (const pid of pids) {
    signalGroup(pid, "SIGKILL");
    forgetGroup(pid);
  }
}
