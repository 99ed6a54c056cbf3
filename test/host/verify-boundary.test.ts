/**
 * Verified done wired to a fake pi (SPEC §4.16): turn_end runs the user's command at a clear settle and
 * returns the verification marker, agent_settled records the verified stop, a reload rebuilds the run
 * count from the markers, and the cases that must run nothing run nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import type { TurnEndResultLike } from "../../src/core/pi-shapes.ts";
import { assistant, chain, isEntry, settle, task, todoResult, toolResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { createContext, createFakePi, createSession, isolatedDirs } from "../fake-pi.ts";
import type { FakeContext, FakePi, FakeSession } from "../fake-pi.ts";

const { root, agentDir, cwd } = isolatedDirs("todo-loop-verify-adapter-");
const CONFIG_FILE = join(agentDir, "todo-loop.json");
const RAN = join(root, "ran");

function configure(verify: unknown, extra: Record<string, unknown> = {}): void {
  writeFileSync(CONFIG_FILE, JSON.stringify({ verify, ...extra }));
  rmSync(RAN, { force: true });
}

/** A message whose two tasks were opened and then both completed. */
function finished(): Entry[] {
  return chain(
    user("Do the work", { id: "u1" }),
    assistant({ id: "a1" }),
    todoResult({ tasks: [task({ id: 1 }), task({ id: 2 })], id: "t1" }),
    assistant({ id: "a2" }),
    todoResult({ tasks: [task({ id: 1, status: "completed" }), task({ id: 2, status: "completed" })], action: "update", id: "t2" }),
  );
}

interface H {
  pi: FakePi;
  ctx: FakeContext & { hasPendingMessages?: () => boolean };
  session: FakeSession;
  settleNow(pending?: unknown[]): Promise<TurnEndResultLike | undefined>;
  endRun(): Promise<void>;
}

function harness(branch: Entry[] = finished(), session?: FakeSession): H {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const s = session ?? createSession(branch);
  pi.session = s;
  const ctx = createContext({ session: s, cwd });
  return {
    pi,
    ctx,
    session: s,
    async settleNow(pending = []) {
      const reply = assistant({ text: "All done." });
      s.append(reply);
      const event = { ...settle({ pendingMessages: pending }), message: reply.message };
      const result = await pi.turnEndHandlers[0]?.(event, ctx);
      for (const draft of result?.entries ?? []) if (isEntry(draft)) s.append(draft);
      return result;
    },
    async endRun() {
      await pi.agentSettledHandlers[0]?.({ type: "agent_settled" }, ctx);
    },
  };
}

function stops(h: H): Array<Record<string, unknown>> {
  return h.session.getBranch().filter((entry) => entry.type === "custom" && entry.customType === "todo-loop:stop").map((entry) => entry.data as Record<string, unknown>);
}

test("turn_end: at a clear settle a failing verify command continues once with its output and details.verify", async () => {
  configure("echo 'boom: 2 tests failed'; exit 1");
  const h = harness();
  const result = await h.settleNow();
  assert.equal(result?.continue, true);
  const marker = result?.entries?.[0] as { customType: string; content: string; details: { round: number; verify: unknown } };
  assert.equal(marker.customType, "todo-loop:continue");
  assert.match(marker.content, /```text\nboom: 2 tests failed\n```/);
  assert.deepEqual({ ...(marker.details.verify as object), seconds: 0 }, { command: "echo 'boom: 2 tests failed'; exit 1", exit: 1, seconds: 0, run: 1 });
  assert.equal(marker.details.round, 1);
});

test("turn_end then agent_settled: a passing command keeps the clear stop and records verify { command, exit: 0, seconds }", async () => {
  configure(`touch "${RAN}"`);
  const h = harness();
  const result = await h.settleNow();
  assert.equal(result, undefined);
  assert.ok(existsSync(RAN));
  await h.endRun();
  const [record] = stops(h);
  assert.equal(record?.kind, "clear");
  // The seconds are the run's own, rounded: a busy machine may take a second to touch a file.
  const seconds = (record?.verify as { seconds: number }).seconds;
  assert.ok(seconds >= 0 && seconds <= 5, `seconds ${seconds}`);
  assert.match(String(record?.reason), new RegExp(`^stopped: list is clear · touch .* passed \\(${Math.round(seconds)} s\\)$`));
  assert.equal((record?.verify as { exit: number }).exit, 0);
});

test("turn_end: a list emptied by clear is verified too; the stop keeps kind no-list", async () => {
  configure(`touch "${RAN}"`);
  const branch = chain(user("Do the work", { id: "u1" }), assistant(), todoResult({ tasks: [task({ id: 1 })], id: "t1" }), assistant(), toolResult("todo", { action: "clear", params: { action: "clear" }, tasks: [], nextId: 1 }));
  const h = harness(branch);
  await h.settleNow();
  assert.ok(existsSync(RAN), "the command ran");
  await h.endRun();
  assert.equal(stops(h)[0]?.kind, "no-list");
  assert.ok(stops(h)[0]?.verify);
});

test("turn_end: plain chat, a queued human message, a pause and the kill switch run nothing", async () => {
  configure(`touch "${RAN}"`);
  const chat = harness(chain(user("hello", { id: "u1" })));
  await chat.settleNow();
  assert.equal(existsSync(RAN), false, "plain chat");
  await harness().settleNow([{ role: "user" }]);
  assert.equal(existsSync(RAN), false, "a queued message");
  const paused = harness();
  await paused.pi.commands.get("todoloop")?.handler("pause", paused.ctx);
  await paused.settleNow();
  assert.equal(existsSync(RAN), false, "paused");
  writeFileSync(join(agentDir, "todo-loop-off"), "");
  try {
    await harness().settleNow();
    assert.equal(existsSync(RAN), false, "kill switch");
  } finally {
    rmSync(join(agentDir, "todo-loop-off"), { force: true });
  }
});

test("turn_end: a human message that arrives while the command runs wins — no marker; the failure is recorded at once", async () => {
  configure("sleep 0.3; exit 1");
  const h = harness();
  let queued = false;
  h.ctx.hasPendingMessages = () => queued;
  setTimeout(() => (queued = true), 100);
  const result = await h.settleNow();
  assert.equal(result?.continue, undefined);
  const record = (result?.entries?.[0] as { customType: string; data: { kind: string; reason: string } });
  assert.equal(record.customType, "todo-loop:stop");
  assert.equal(record.data.kind, "verify-failed");
  assert.match(record.data.reason, /the list is clear; not continuing: your message comes first$/);
});

test("reload: the run count is rebuilt from the markers' details.verify, so maxRuns holds across a restart", async () => {
  configure("exit 1", {});
  writeFileSync(CONFIG_FILE, JSON.stringify({ verify: { command: "exit 1", maxRuns: 2 } }));
  const first = harness();
  assert.equal((await first.settleNow())?.continue, true, "run 1 fails: a continuation");
  // The agent works (a bash call), then a fresh process reads the same session.
  first.session.append(assistant(), toolResult("bash", { exitCode: 0 }));
  const reloaded = harness(undefined, first.session);
  const second = await reloaded.settleNow();
  assert.equal(second, undefined, "run 2 of 2 fails: no continuation");
  await reloaded.endRun();
  const [record] = stops(reloaded);
  assert.equal(record?.kind, "verify-failed");
  assert.equal(record?.reason, "stopped: exit 1 still fails after 2 runs (exit 1), the list is clear; it needs you");
});

test("turn_end: after a failure, a reply that only read does not run the command again but counts as another failed run", async () => {
  writeFileSync(CONFIG_FILE, JSON.stringify({ verify: { command: `echo x >> "${RAN}"; exit 1`, maxRuns: 3 } }));
  rmSync(RAN, { force: true });
  const h = harness();
  assert.equal((await h.settleNow())?.continue, true);
  h.session.append(assistant(), toolResult("read", { path: "x" }));
  const again = await h.settleNow();
  assert.equal(again?.continue, true, "counted again: one more continuation");
  assert.equal((again?.entries?.[0] as { details: { verify: { run: number } } }).details.verify.run, 2);
  const { readFileSync } = await import("node:fs");
  assert.equal(readFileSync(RAN, "utf8"), "x\n", "the command ran once");
});

test("config: a user verify of the wrong type runs nothing and shows in /todoloop as a config problem", async () => {
  configure(42);
  const h = harness();
  assert.equal(await h.settleNow(), undefined);
  await h.pi.commands.get("todoloop")?.handler("", h.ctx);
  const status = h.ctx.ui.notifications.at(-1)?.message ?? "";
  assert.match(status, /config problem: verify must be a command string/);
});

test("/todoloop verify runs the command now and shows the result (never its output); it changes no loop state", async () => {
  configure("echo hello-from-check; exit 4");
  const h = harness();
  await h.pi.commands.get("todoloop")?.handler("verify", h.ctx);
  const note = h.ctx.ui.notifications.at(-1);
  assert.equal(note?.type, "warning");
  assert.match(note?.message ?? "", /^todo loop: echo hello-from-check; exit 4 failed \(exit 4, [0-5] s\)$/);
  assert.ok(!(note?.message ?? "").includes("\nhello-from-check"), "the output never reaches a notification");
  assert.deepEqual(h.pi.appended, []);
});
