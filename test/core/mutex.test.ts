/**
 * `workflow:mutex:v1` (SPEC §4.19): which probe the loop answers and what its own probe says (pure), the
 * decision standing aside while another workflow drives, the listener against bad probes, and the
 * extension on a fake pi: no continuation while a goal holds the session, the lock held from a
 * continuation until its run ends, `/todoloop continue` without a probe.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { answers, freshProbe, MUTEX_CHANNEL, MUTEX_GROUP, probeBusy } from "../../src/core/workflow.ts";
import { decide } from "../../src/loop.ts";
import { describeReason, footerText } from "../../src/core/text.ts";
import { createWorkflow } from "../../src/host/workflow.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import todoLoop from "../../src/index.ts";
import type { BranchFacts, DecideInput, ListState } from "../../src/core/types.ts";
import { createContext, createEventBus, createFakePi, createSession, isolatedDirs } from "../fake-pi.ts";
import type { FakeContext, FakePi, FakeSession } from "../fake-pi.ts";
import { assistant, chain, isEntry, settle, task, todoResult, user } from "../builders.ts";
import { ioOf } from "../captured-io.ts";

const { cwd } = isolatedDirs("todo-loop-mutex-");

// ---- the pure rules ------------------------------------------------------------------------------

test("probe: a fresh probe is exactly { session, group: agent-workflow, busy: false }", () => {
  const session = {};
  const probe = freshProbe(session);
  assert.deepEqual(Object.keys(probe), ["session", "group", "busy"]);
  assert.equal(probe.session, session);
  assert.equal(probe.group, "agent-workflow");
  assert.equal(probe.busy, false);
  assert.notEqual(freshProbe(session), probe, "fresh each time");
  assert.equal(MUTEX_CHANNEL, "workflow:mutex:v1");
});

test("answers: only a well-formed probe for a held session and the agent-workflow group", () => {
  const held = {};
  const holds = (session: object) => session === held;
  assert.equal(answers({ session: held, group: MUTEX_GROUP, busy: false }, holds), true);
  assert.equal(answers({ session: held, group: MUTEX_GROUP, busy: true }, holds), true, "already busy: answering again changes nothing");
  assert.equal(answers({ session: {}, group: MUTEX_GROUP, busy: false }, holds), false, "another session object");
  assert.equal(answers({ session: held, group: "other-group", busy: false }, holds), false, "another group");
  for (const busy of [undefined, null, 0, "false", {}]) assert.equal(answers({ session: held, group: MUTEX_GROUP, busy }, holds), false, `busy ${String(busy)}`);
  for (const probe of [null, undefined, 42, "probe", [held], { group: MUTEX_GROUP, busy: false }, { session: "id", group: MUTEX_GROUP, busy: false }]) {
    assert.equal(answers(probe, holds), false);
  }
  const throwing = Object.defineProperty({ group: MUTEX_GROUP, busy: false }, "session", { get() { throw new Error("getter"); }, enumerable: true });
  assert.equal(answers(throwing, holds), false, "a getter that throws");
  const proxy = new Proxy({}, { get() { throw new Error("trap"); } });
  assert.equal(answers(proxy, holds), false);
  assert.equal(answers({ session: held, group: MUTEX_GROUP, busy: false }, () => { throw new Error("holds"); }), false);
});

test("answers: a probe must itself be well-formed — an array or a function carrying the fields, or a session that is no object, gets no answer even from a holder of every session", () => {
  const asked: unknown[] = [];
  const holdsAll = (session: object) => {
    asked.push(session);
    return true;
  };
  assert.equal(answers({ session: {}, group: MUTEX_GROUP, busy: false }, holdsAll), true, "the guard of this test: a well-formed probe is answered");
  asked.length = 0;
  const fields = { session: {}, group: MUTEX_GROUP, busy: false };
  assert.equal(answers(Object.assign([], fields), holdsAll), false, "an array");
  assert.equal(answers(Object.assign(() => undefined, fields), holdsAll), false, "a function");
  for (const session of [null, undefined, "session-1", 7, true]) {
    assert.equal(answers({ session, group: MUTEX_GROUP, busy: false }, holdsAll), false, `session ${String(session)}`);
  }
  assert.deepEqual(asked, [], "the holder is never asked about a malformed probe");
});

test("probeBusy: free only when busy is still exactly false; anything else, or a getter that throws, is another workflow", () => {
  assert.equal(probeBusy({ busy: false }), false);
  assert.equal(probeBusy({ busy: true }), true);
  for (const busy of [1, "true", "false", null, undefined, {}]) assert.equal(probeBusy({ busy }), true, `busy ${String(busy)}`);
  assert.equal(probeBusy(Object.defineProperty({}, "busy", { get() { throw new Error("getter"); } })), true);
});

// ---- the decision ----------------------------------------------------------------------------------

const LIST: ListState = { kind: "list", open: 2, total: 5, signature: "sig", source: "rpiv-todo", tool: "todo" };
const BRANCH: BranchFacts = {
  anchor: "u1", round: 1, idle: 0, stale: 0, signature: "sig-old", waiting: undefined, paused: false, hadWork: true, announced: [],
  earlier: { open: false, carried: false, adopted: false, shown: undefined, before: undefined }, stuck: 0, fp: undefined, repeats: 0,
};

function input(overrides: Partial<DecideInput> = {}): DecideInput {
  return {
    memory: undefined,
    branchSwitched: false,
    branch: BRANCH,
    turn: { outcome: "completed", toolResults: 0, todoOnly: false, calls: [], openBefore: 2, vanished: [], question: undefined, reply: undefined },
    list: LIST,
    pendingMessages: false,
    otherContinued: false,
    limits: DEFAULT_CONFIG,
    stopOnQuestion: true,
    spend: { tokens: 0, cost: 0, minutes: undefined },
    tools: { active: ["todo"], registered: [] },
    earlierTasks: "ask",
    ...overrides,
  };
}

test("decide: another workflow drives — no continuation, no round, no pending stop, no brake counts; last says so", () => {
  const free = decide(input());
  assert.equal(free.continue, true, "the guard: without the fact the loop continues");
  const busy = decide(input({ otherWorkflow: true }));
  assert.equal(busy.continue, false);
  assert.equal(busy.marker, undefined);
  assert.equal(busy.memory.round, 1, "no round");
  assert.equal(busy.memory.pending, undefined, "no stop to record");
  assert.equal(busy.memory.settleRun, 0, "replies under another workflow are not counted");
  assert.deepEqual(busy.memory.last, { kind: "other-workflow" });
  assert.equal(describeReason(busy.memory.last), "not continuing: another workflow (a goal or a plan) drives the session");
  // Stops the loop would announce stand aside too: an error, a question, a clear list.
  for (const other of [
    input({ otherWorkflow: true, turn: { ...input().turn, outcome: "error" } }),
    input({ otherWorkflow: true, turn: { ...input().turn, question: "Which one?" } }),
    input({ otherWorkflow: true, list: { ...LIST, open: 0 } }),
  ]) {
    const decided = decide(other);
    assert.equal(decided.continue, false);
    assert.equal(decided.memory.pending, undefined);
    assert.equal(decided.memory.last.kind, "other-workflow");
  }
});

test("decide: a tool turn under another workflow is a tool turn as always (the probe matters only at a settle)", () => {
  const decided = decide(input({ otherWorkflow: true, turn: { ...input().turn, toolResults: 1 } }));
  assert.equal(decided.continue, false);
  assert.notEqual(decided.memory.last.kind, "other-workflow");
});

test("footer: another workflow is driving comes first, the counts after", () => {
  const memory = decide(input({ otherWorkflow: true })).memory;
  assert.equal(footerText(memory, LIST, DEFAULT_CONFIG, undefined), "todo loop: another workflow is driving · todo 2 of 5 open");
  assert.equal(footerText({ ...memory, paused: true }, LIST, DEFAULT_CONFIG, undefined)?.startsWith("todo loop paused"), true, "a pause is named first");
});

// ---- the listener ----------------------------------------------------------------------------------

function workflowOn(): { bus: ReturnType<typeof createEventBus>; ctx: FakeContext; workflow: ReturnType<typeof createWorkflow> } {
  const bus = createEventBus();
  const pi = createFakePi();
  pi.events = bus;
  const ctx = createContext({ session: createSession([], "s1"), cwd });
  return { bus, ctx, workflow: createWorkflow(pi) };
}

test("listener: answers busy for a probe of the session it holds, and only while it holds", () => {
  const { bus, ctx, workflow } = workflowOn();
  const probe = () => {
    const sent = { session: ctx.sessionManager, group: "agent-workflow", busy: false };
    bus.emit(MUTEX_CHANNEL, sent);
    return sent.busy;
  };
  assert.equal(probe(), false);
  workflow.hold(ctx);
  assert.equal(workflow.holds(ctx), true);
  assert.equal(probe(), true);
  workflow.release(ctx);
  assert.equal(probe(), false);
});

test("listener: bad probes — another session object, another group, busy not a boolean, a frozen object, a getter that throws — get no answer and never throw", () => {
  const { bus, ctx, workflow } = workflowOn();
  workflow.hold(ctx);
  const other = { session: createSession([], "s1"), group: "agent-workflow", busy: false };
  bus.emit(MUTEX_CHANNEL, other);
  assert.equal(other.busy, false, "another session object, even with the same id");
  const group = { session: ctx.sessionManager, group: "plan-only", busy: false };
  bus.emit(MUTEX_CHANNEL, group);
  assert.equal(group.busy, false);
  for (const busy of [undefined, "false", 0, null]) {
    const odd: { session: object; group: string; busy: unknown } = { session: ctx.sessionManager, group: "agent-workflow", busy };
    bus.emit(MUTEX_CHANNEL, odd);
    assert.equal(odd.busy, busy);
  }
  const frozen = Object.freeze({ session: ctx.sessionManager, group: "agent-workflow", busy: false });
  assert.doesNotThrow(() => bus.emit(MUTEX_CHANNEL, frozen));
  assert.equal(frozen.busy, false);
  const getter = Object.defineProperty({ group: "agent-workflow", busy: false }, "session", { get() { throw new Error("getter"); }, enumerable: true });
  assert.doesNotThrow(() => bus.emit(MUTEX_CHANNEL, getter));
  let setterCalls = 0;
  const setter = Object.defineProperty({ session: ctx.sessionManager, group: "agent-workflow" }, "busy", {
    get: () => false,
    set() {
      setterCalls += 1;
      throw new Error("setter");
    },
    enumerable: true,
  });
  assert.doesNotThrow(() => bus.emit(MUTEX_CHANNEL, setter));
  assert.equal(setterCalls, 1, "it tried to answer, and the throw stayed inside");
  for (const junk of [null, undefined, 7, "probe", [], new Proxy({}, { get() { throw new Error("trap"); } })]) assert.doesNotThrow(() => bus.emit(MUTEX_CHANNEL, junk));
});

test("listener: synchronous — the answer is there when emit returns; it emits nothing itself", () => {
  const { bus, ctx, workflow } = workflowOn();
  workflow.hold(ctx);
  const probe = { session: ctx.sessionManager, group: "agent-workflow", busy: false };
  const before = bus.emitted.length;
  bus.emit(MUTEX_CHANNEL, probe);
  assert.equal(probe.busy, true);
  assert.equal(bus.emitted.length, before + 1, "only the probe itself");
});

test("probe: the loop's own lock does not answer its own probe; another holder does; a throwing listener is its own", () => {
  const { bus, ctx, workflow } = workflowOn();
  workflow.hold(ctx);
  assert.equal(workflow.otherDrives(ctx), false, "its own lock is not another workflow");
  const stop = bus.on(MUTEX_CHANNEL, (data) => {
    if ((data as { session?: unknown }).session === ctx.sessionManager) (data as { busy: boolean }).busy = true;
  });
  assert.equal(workflow.otherDrives(ctx), true);
  stop();
  bus.on(MUTEX_CHANNEL, () => {
    throw new Error("broken listener");
  });
  assert.equal(workflow.otherDrives(ctx), false);
  const bare = createFakePi();
  delete bare.events;
  assert.equal(createWorkflow(bare).otherDrives(ctx), false, "no bus: nobody else can drive");
});

// ---- the extension on a fake pi --------------------------------------------------------------------

interface Host {
  readonly pi: FakePi;
  readonly ctx: FakeContext;
  readonly session: FakeSession;
  reply(): Promise<boolean>;
  settled(): Promise<void>;
}

async function host(): Promise<Host> {
  // One session at a time in this process: a second live one would be a child (SPEC §4.18).
  delete (globalThis as { [key: symbol]: unknown })[Symbol.for("pi-todo-loop.sessions")];
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const session = createSession(
    chain(user("Do the work", { id: "u1" }), assistant({ id: "a1" }), todoResult({ tasks: [task({ id: 1, subject: "One" }), task({ id: 2, subject: "Two" })], id: "t1" })),
    `mutex-${Math.random()}`,
  );
  pi.session = session;
  const ctx = createContext({ session, cwd, mode: "rpc" });
  await pi.fireSessionStart({ type: "session_start", reason: "startup" }, ctx);
  return {
    pi,
    ctx,
    session,
    async reply() {
      const entry = assistant({ text: "Working on it." });
      session.append(entry);
      const result = await pi.fireTurnEnd({ ...settle(), message: entry.message }, ctx);
      for (const draft of result?.entries ?? []) if (isEntry(draft)) session.append(draft);
      return result?.continue === true;
    },
    settled: () => pi.fireAgentSettled({ type: "agent_settled", aborted: false }, ctx),
  };
}

/** A goal extension's lock on the same bus: holds the session while `holding`. */
function goal(h: Host): { holding: boolean } {
  const state = { holding: true };
  h.pi.bus.on(MUTEX_CHANNEL, (data) => {
    const probe = data as { session?: unknown; group?: unknown; busy?: unknown };
    if (state.holding && probe.session === h.ctx.sessionManager && probe.group === "agent-workflow") probe.busy = true;
  });
  return state;
}

function probeNow(h: Host): boolean {
  const probe = { session: h.ctx.sessionManager, group: "agent-workflow", busy: false };
  h.pi.bus.emit(MUTEX_CHANNEL, probe);
  return probe.busy;
}

test("wiring: a goal holding the session gets no doubled push — no marker, no stop record; the footer and /todoloop say another workflow drives", async () => {
  const h = await host();
  const held = goal(h);
  for (let reply = 0; reply < 4; reply++) assert.equal(await h.reply(), false);
  await h.settled();
  // (The fixture starts on a branch that ends on a tool result: that start records a restart, no stop.)
  assert.deepEqual(h.pi.appended.filter((entry) => entry.customType === "todo-loop:stop"), [], "no stop record");
  assert.equal(h.session.getBranch().filter((entry) => (entry as { customType?: unknown }).customType === "todo-loop:continue").length, 0, "no marker");
  assert.equal(h.ctx.ui.statuses.at(-1)?.text, "todo loop: another workflow is driving · todo 2 of 2 open");
  await h.pi.command("todoloop").handler("", h.ctx);
  const report = h.ctx.ui.notifications.at(-1)?.message ?? "";
  assert.match(report, /^todo loop: standing aside \(another workflow drives the session\)$/m);
  assert.match(report, /^last: not continuing: another workflow \(a goal or a plan\) drives the session$/m);
  // The goal ends: the next settle continues.
  held.holding = false;
  assert.equal(await h.reply(), true);
});

test("wiring: from a continuation until its run ends the loop holds the lock; after the run a probe finds it free", async () => {
  const h = await host();
  assert.equal(probeNow(h), false, "before any continuation");
  assert.equal(await h.reply(), true);
  assert.equal(probeNow(h), true, "during the run it continued");
  assert.equal(await h.reply(), true, "its own lock does not stop it");
  assert.equal(probeNow(h), true);
  await h.settled();
  assert.equal(probeNow(h), false, "the run ended");
});

test("wiring: the lock answers only for its own session object — another session in the process probing gets no answer", async () => {
  const h = await host();
  assert.equal(await h.reply(), true);
  const other = { session: createSession([], "elsewhere"), group: "agent-workflow", busy: false };
  h.pi.bus.emit(MUTEX_CHANNEL, other);
  assert.equal(other.busy, false);
  await h.pi.fireSessionShutdown({ type: "session_shutdown" }, h.ctx);
  assert.equal(probeNow(h), false, "session_shutdown lets it go");
});

test("wiring: /todoloop continue is the person's decision — it does not probe, it starts the run even while a goal holds, and then holds the lock", async () => {
  const h = await host();
  const held = goal(h);
  const probesBefore = h.pi.bus.emitted.filter((item) => item.channel === MUTEX_CHANNEL).length;
  await h.pi.command("todoloop").handler("continue", h.ctx);
  assert.equal(h.pi.bus.emitted.filter((item) => item.channel === MUTEX_CHANNEL).length, probesBefore, "no probe");
  assert.equal(h.pi.sent.length, 1, "one marker sent");
  held.holding = false;
  assert.equal(probeNow(h), true, "the run it started holds the lock");
  await h.settled();
  assert.equal(probeNow(h), false);
});

test("wiring: the kill switch — no probe at all, nothing held", async () => {
  const { writeFileSync, rmSync } = await import("node:fs");
  const { join } = await import("node:path");
  const h = await host();
  const off = join(h.ctx.cwd, ".pi", "todo-loop-off");
  writeFileSync(off, "");
  try {
    assert.equal(await h.reply(), false);
    assert.equal(h.pi.bus.emitted.filter((item) => item.channel === MUTEX_CHANNEL).length, 0);
  } finally {
    rmSync(off, { force: true });
  }
});
