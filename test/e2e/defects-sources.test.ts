// Proves on the real host that a repository's leftover pi-tasks file is not read as this session's list when pi-tasks is not active, and is read when it is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkInvariants,
  extensionArgs,
  footers,
  loopNotifies,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  startRpc,
  stopData,
} from "./harness.ts";
import type { RpcSession, Sandbox, ScriptStep } from "./harness.ts";
import { sandbox } from "./harness.ts";
import { TINTINWEB_TASKS } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;

/** A repository that ships pi-tasks' project-scoped file with two open tasks. */
function leftover(box: Sandbox): void {
  mkdirSync(join(box.cwd, ".pi", "tasks"), { recursive: true });
  writeFileSync(join(box.cwd, ".pi", "tasks-config.json"), JSON.stringify({ taskScope: "project" }));
  const task = (id: string, subject: string) => ({ id, subject, description: subject, status: "pending", metadata: {}, blocks: [], blockedBy: [], createdAt: 1, updatedAt: 1 });
  writeFileSync(join(box.cwd, ".pi", "tasks", "tasks.json"), JSON.stringify({ nextId: 3, tasks: [task("1", "Old task one"), task("2", "Old task two")] }));
}

async function chat(t: { signal: AbortSignal }, todo: string | undefined, body: (box: Sandbox, rpc: RpcSession) => Promise<void>): Promise<void> {
  const script: ScriptStep[] = [say("Hello! What can I do for you?")];
  const box = sandbox({ script });
  try {
    leftover(box);
    const rpc = await startRpc(box, { signal: t.signal, extensions: extensionArgs([], todo === undefined ? {} : { todo }) });
    try {
      await body(box, rpc);
      checkInvariants(box, { script });
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
}

test("pi-tasks not installed (rpiv-todo only): the repository's .pi/tasks/tasks.json is not this session's list — plain chat gets no earlier-message hold, no footer, no record", { timeout }, async (t) => {
  await chat(t, undefined, async (box, rpc) => {
    assert.equal(await rpc.prompt("hi there"), "started");
    assert.deepEqual(stopData(sessionEntries(box)), []);
    assert.deepEqual(loopNotifies(rpc.notifies).filter((notify) => /earlier message/.test(notify.message)), []);
    assert.ok(footers(rpc.statuses).every((text) => text === undefined), JSON.stringify(footers(rpc.statuses)));
    const status = (await rpc.command("status")).map((notify) => notify.message).join("\n");
    t.diagnostic(status.split("\n").find((line) => line.startsWith("tasks open")) ?? "");
    assert.match(status, /^tasks open: none — /m);
  });
});

test("pi-tasks active: the same file is its list — /todoloop counts its tasks (the tool that keeps it is there to change it)", { timeout }, async (t) => {
  await chat(t, TINTINWEB_TASKS, async (_box, rpc) => {
    await rpc.prompt("hi there");
    const status = (await rpc.command("status")).map((notify) => notify.message).join("\n");
    assert.match(status, /^tasks open: 2 of 2 \(@tintinweb\/pi-tasks\)$/m);
  });
});
