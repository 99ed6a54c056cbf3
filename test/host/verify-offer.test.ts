/**
 * The found check's offer wired to a fake pi (SPEC §4.16, 0.5): one `select` at the first clear settle
 * of a session in the TUI — "No, not now" first, a 60 s timeout — never in RPC, never with a message
 * queued or a question asked; Yes approves with the script's text and runs the check in the same
 * turn_end; Never is kept for the next runtime; no answer is no.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import type { ModeLike } from "../../src/core/pi-shapes.ts";
import { assistant, chain, settle, task, todoResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { createContext, createFakePi, createSession, isolatedDirs } from "../fake-pi.ts";
import type { FakeContext, FakePi, FakeSession } from "../fake-pi.ts";

const { root, agentDir, cwd } = isolatedDirs("todo-loop-verify-offer-");
const RAN = join(root, "ran");
const APPROVALS = join(agentDir, "todo-loop-approved.json");
const SCRIPT = `echo ran >> "${RAN}"`;
const TITLE = 'Before the loop accepts "done" here, run `npm test`? (found in package.json)';

interface Asked {
  readonly title: string;
  readonly options: readonly string[];
  readonly timeout: number | undefined;
}

function reset(): void {
  rmSync(RAN, { force: true });
  rmSync(APPROVALS, { force: true });
  rmSync(join(agentDir, "todo-loop.json"), { force: true });
  // A Makefile check: fast and needs nothing but make.
  writeFileSync(join(cwd, "Makefile"), `test:\n\t${SCRIPT}\n`);
}

function ranCount(): number {
  return existsSync(RAN) ? readFileSync(RAN, "utf8").split("\n").filter(Boolean).length : 0;
}

function finished(id: string): Entry[] {
  return chain(
    user("Do the work", { id }),
    assistant(),
    todoResult({ tasks: [task({ id: 1 })], id: `${id}-t1` }),
    assistant(),
    todoResult({ tasks: [task({ id: 1, status: "completed" })], action: "update", id: `${id}-t2` }),
  );
}

interface H {
  pi: FakePi;
  ctx: FakeContext;
  session: FakeSession;
  asked: Asked[];
  settleNow(options?: { pending?: unknown[]; text?: string }): Promise<unknown>;
  endRun(): Promise<void>;
}

/** A fresh runtime (a pi start) in `mode`, whose select answers `answer` (undefined: the timeout). */
function harness(mode: ModeLike, answer: (options: readonly string[]) => string | undefined, branch: Entry[] = finished("u1")): H {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const session = createSession(branch);
  pi.session = session;
  const ctx = createContext({ session, cwd, mode });
  const asked: Asked[] = [];
  ctx.ui.select = async (title, options, opts) => {
    asked.push({ title, options, timeout: opts?.timeout });
    return answer(options);
  };
  return {
    pi,
    ctx,
    session,
    asked,
    async settleNow(options = {}) {
      const reply = assistant({ text: options.text ?? "All done." });
      session.append(reply);
      const result = await pi.turnEndHandlers[0]?.({ ...settle({ pendingMessages: options.pending ?? [] }), message: reply.message }, ctx);
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

test("TUI: one select at the first clear settle — No first, then Yes, then Never, a 60 s timeout; No runs nothing, records nothing, and the session is not asked again", async () => {
  reset();
  const h = harness("tui", (options) => options[0]);
  await h.settleNow();
  assert.deepEqual(h.asked, [{ title: TITLE.replace("npm test", "make test").replace("package.json", "Makefile"), options: ["No, not now", "Yes, for this directory", "Never for this directory"], timeout: 60_000 }]);
  await h.endRun();
  assert.equal(ranCount(), 0);
  assert.equal(existsSync(APPROVALS), false);
  assert.equal(stops(h)[0]?.reason, "stopped: list is clear");
  h.session.append(...finished("u2"));
  await h.settleNow();
  assert.equal(h.asked.length, 1, "once a session");
  assert.equal(ranCount(), 0);
});

test("TUI: no answer (the timeout) is no", async () => {
  reset();
  const h = harness("tui", () => undefined);
  await h.settleNow();
  await h.endRun();
  assert.equal(h.asked.length, 1);
  assert.equal(ranCount(), 0);
  assert.equal(existsSync(APPROVALS), false);
  assert.ok(h.ctx.ui.notifications.some((note) => note.message === "todo loop: not running make test (/todoloop verify approve to use it)"));
});

test("TUI: Yes records the approval with the recipe and runs make test in the same turn_end: a verified clear", async () => {
  reset();
  const h = harness("tui", (options) => options[1]);
  await h.settleNow();
  assert.equal(ranCount(), 1, "ran at once");
  const stored = JSON.parse(readFileSync(APPROVALS, "utf8")) as { approved: Array<Record<string, unknown>> };
  assert.deepEqual(stored.approved.map(({ dir, command, pinned }) => ({ dir, command, pinned })), [{ dir: realpathSync(cwd), command: "make test", pinned: { file: "Makefile", text: `test:\n\t${SCRIPT}` } }]);
  await h.endRun();
  const [record] = stops(h);
  assert.equal(record?.kind, "clear");
  assert.match(String(record?.reason), /^stopped: list is clear · make test passed \(\d+ s\)$/);
  // Approved: the next runtime runs it without asking, until the recipe changes.
  const next = harness("tui", (options) => options[0]);
  await next.settleNow();
  assert.equal(next.asked.length, 0);
  assert.equal(ranCount(), 2);
  writeFileSync(join(cwd, "Makefile"), `test:\n\t${SCRIPT}\n\ttrue\n`);
  const edited = harness("tui", (options) => options[0]);
  await edited.settleNow();
  assert.equal(ranCount(), 2, "an edited recipe does not run");
  assert.equal(edited.asked[0]?.title, `Makefile's test target changed since you approved make test.\n${TITLE.replace("npm test", "make test").replace("package.json", "Makefile")}`);
});

test("TUI: Never is recorded, and the next runtime (a restart) asks nothing and runs nothing", async () => {
  reset();
  const h = harness("tui", (options) => options[2]);
  await h.settleNow();
  const stored = JSON.parse(readFileSync(APPROVALS, "utf8")) as { approved: Array<Record<string, unknown>> };
  assert.deepEqual(stored.approved.map(({ dir, never }) => ({ dir, never })), [{ dir: realpathSync(cwd), never: true }]);
  const next = harness("tui", (options) => options[1]);
  await next.settleNow();
  assert.equal(next.asked.length, 0);
  assert.equal(ranCount(), 0);
  await next.pi.commands.get("todoloop")?.handler("", next.ctx);
  assert.ok(next.ctx.ui.notifications.some((note) => note.message.includes("verify: a check was found: make test (from Makefile); never for this directory")));
});

test("RPC and print mode never ask; /todoloop names the check and how to approve it", async () => {
  reset();
  for (const mode of ["rpc", "print", "json"] as const) {
    const h = harness(mode, (options) => options[1]);
    await h.settleNow();
    await h.endRun();
    assert.equal(h.asked.length, 0, mode);
    assert.equal(ranCount(), 0, mode);
    assert.equal(stops(h)[0]?.reason, "stopped: list is clear", mode);
  }
  const h = harness("rpc", () => undefined);
  await h.pi.commands.get("todoloop")?.handler("", h.ctx);
  assert.ok(h.ctx.ui.notifications.some((note) => note.message.includes("\nverify: a check was found: make test (from Makefile) — /todoloop verify approve to use it")));
});

test("TUI: never offered with a message queued, for a reply that asks the person something, for plain chat, or with verify: false", async () => {
  reset();
  const queued = harness("tui", (options) => options[1]);
  await queued.settleNow({ pending: [{ role: "user" }] });
  assert.equal(queued.asked.length, 0, "queued");
  const asking = harness("tui", (options) => options[1]);
  await asking.settleNow({ text: "Done. Should I also update the changelog?" });
  assert.equal(asking.asked.length, 0, "a question");
  const chat = harness("tui", (options) => options[1], chain(user("hello", { id: "u1" })));
  await chat.settleNow();
  assert.equal(chat.asked.length, 0, "plain chat");
  writeFileSync(join(agentDir, "todo-loop.json"), JSON.stringify({ verify: false }));
  const off = harness("tui", (options) => options[1]);
  await off.settleNow();
  assert.equal(off.asked.length, 0, "verify: false");
  assert.equal(ranCount(), 0);
});

test("TUI: a kill switch created while the offer is open means a Yes is recorded but nothing runs", async () => {
  reset();
  const h = harness("tui", (options) => {
    writeFileSync(join(agentDir, "todo-loop-off"), "");
    return options[1];
  });
  try {
    await h.settleNow();
    assert.equal(h.asked.length, 1);
    assert.equal(ranCount(), 0);
    assert.ok(existsSync(APPROVALS), "the answer is kept");
  } finally {
    rmSync(join(agentDir, "todo-loop-off"), { force: true });
  }
});

test("TUI: with an approvals file that cannot be read nothing is asked (no answer could be kept) and nothing runs", async () => {
  reset();
  writeFileSync(APPROVALS, "{ not json");
  const h = harness("tui", (options) => options[1]);
  await h.settleNow();
  assert.equal(h.asked.length, 0);
  assert.equal(ranCount(), 0);
  assert.equal(readFileSync(APPROVALS, "utf8"), "{ not json", "never written over");
});
