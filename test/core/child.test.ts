/**
 * Child sessions (SPEC §4.18): the pure rule (markers, a second session in the process, `children`), the
 * process's registry across `/reload`, `/new`, pi 1.5.2's double `session_start` and a parent that ends
 * first, and the extension on a fake pi in a quiet, an off and a full child.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { CHILD_MARKERS, childConduct, childRule, enrol, NOT_A_CHILD, SECOND_SESSION, sameSession, startedAfterParent, withdraw } from "../../src/core/child.ts";
import type { LiveSession } from "../../src/core/child.ts";
import { createChildren } from "../../src/host/children.ts";
import { parseConfig } from "../../src/config.ts";
import { exitStatus, planReach } from "../../src/core/reach-plan.ts";
import todoLoop from "../../src/index.ts";
import type { ContextLike } from "../../src/core/pi-shapes.ts";
import { createContext, createFakePi, createSession, isolatedDirs } from "../fake-pi.ts";
import type { FakeContext, FakePi, FakeSession } from "../fake-pi.ts";
import { assistant, chain, isEntry, settle, task, todoResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { ioOf } from "../captured-io.ts";
import { existsSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const REGISTRY = Symbol.for("pi-todo-loop.sessions");
const { agentDir, cwd } = isolatedDirs("todo-loop-child-");

/** Every test starts in a process with no live session of the extension and no marker set. */
function freshProcess(): void {
  delete (globalThis as { [REGISTRY]?: unknown })[REGISTRY];
  for (const name of CHILD_MARKERS) delete process.env[name];
  rmSync(join(agentDir, "todo-loop.json"), { force: true });
}

function writeConfig(config: unknown): void {
  writeFileSync(join(agentDir, "todo-loop.json"), JSON.stringify(config));
}

// ---- the pure rule ---------------------------------------------------------------------------------

test("child rule: each marker set to exactly \"1\" makes a child named by the variable; nothing else does", () => {
  for (const name of ["PI_SUBAGENT_CHILD", "PI_CODE_SUBAGENT", "TODO_LOOP_CHILD"]) {
    assert.deepEqual(childRule({ [name]: "1" }, false), { child: true, why: name });
  }
  for (const value of ["0", "", "true", "yes", " 1", "1 ", "01", "2"]) {
    assert.deepEqual(childRule({ PI_SUBAGENT_CHILD: value, PI_CODE_SUBAGENT: value, TODO_LOOP_CHILD: value }, false), NOT_A_CHILD, `value ${JSON.stringify(value)}`);
  }
  assert.deepEqual(childRule({}, false), { child: false, why: "" });
  // pi sets these in every session: they mark nothing.
  assert.deepEqual(childRule({ PI_CODING_AGENT: "1", AI_AGENT: "1" }, false), NOT_A_CHILD);
});

test("child rule: a second session in the process is a child; a marker wins and names the tool", () => {
  assert.deepEqual(childRule({}, true), { child: true, why: SECOND_SESSION });
  assert.deepEqual(childRule({ PI_SUBAGENT_CHILD: "0" }, true), { child: true, why: "a second session in this process" });
  assert.deepEqual(childRule({ PI_CODE_SUBAGENT: "1" }, true), { child: true, why: "PI_CODE_SUBAGENT" });
  assert.deepEqual(childRule({ PI_SUBAGENT_CHILD: "1", TODO_LOOP_CHILD: "1" }, false), { child: true, why: "PI_SUBAGENT_CHILD" });
});

test("child rule: an environment whose reads throw marks nothing (and never throws)", () => {
  const hostile = new Proxy({}, { get() { throw new Error("no env"); } });
  assert.deepEqual(childRule(hostile, false), NOT_A_CHILD);
});

test("children setting: quiet and off apply only in a child; full treats a child like any session", () => {
  const child = { child: true, why: "PI_SUBAGENT_CHILD" };
  assert.equal(childConduct(child, "quiet"), "quiet");
  assert.equal(childConduct(child, "off"), "off");
  assert.equal(childConduct(child, "full"), "normal");
  for (const setting of ["quiet", "off", "full"] as const) assert.equal(childConduct(NOT_A_CHILD, setting), "normal");
});

test("registry rule: the first live session that is no child is the parent; children and the session itself do not count", () => {
  const parent = {};
  const child = {};
  const live: LiveSession<object>[] = [{ key: parent, id: "p", child: false }];
  assert.equal(startedAfterParent([], {}, "x"), false);
  assert.equal(startedAfterParent(live, child, "c"), true);
  assert.equal(startedAfterParent(live, parent, "p"), false, "never a child of itself");
  assert.equal(startedAfterParent(live, {}, "p"), false, "the same session id is the same session");
  assert.equal(startedAfterParent([{ key: child, id: "c", child: true }], {}, "n"), false, "a child alone makes nobody a child");
});

test("registry rule: enrolling again keeps the first rule (1.5.2's double session_start); withdrawing leaves the others", () => {
  const parent = {};
  const child = {};
  const first = enrol<object>([], parent, "p", {});
  assert.deepEqual(first, { known: false, rule: NOT_A_CHILD });
  const live: LiveSession<object>[] = [{ key: parent, id: "p", child: false }];
  assert.deepEqual(enrol(live, parent, "p", {}), { known: true, rule: NOT_A_CHILD });
  assert.deepEqual(enrol(live, child, "c", {}), { known: false, rule: { child: true, why: SECOND_SESSION } });
  const both: LiveSession<object>[] = [...live, { key: child, id: "c", child: true }];
  assert.deepEqual(enrol(both, child, "c", {}), { known: true, rule: { child: true, why: SECOND_SESSION } });
  assert.deepEqual(withdraw(both, parent, "p"), [{ key: child, id: "c", child: true }]);
  assert.deepEqual(withdraw(both, {}, ""), both, "an unknown session with no id removes nothing");
});

test("config: children is quiet by default, takes quiet, off and full; anything else is a problem and quiet applies", () => {
  assert.equal(parseConfig({}).config.children, "quiet");
  for (const value of ["quiet", "off", "full"]) assert.deepEqual(parseConfig({ children: value }), { config: { ...parseConfig({}).config, children: value }, problems: [] });
  const bad: Array<[unknown, string]> = [["Quiet", 'the string "Quiet"'], [true, "true"], [null, "null"], [["off"], "an array"], [1, "1"]];
  for (const [value, shown] of bad) {
    assert.deepEqual(parseConfig({ children: value }), {
      config: parseConfig({}).config,
      problems: [`children must be "quiet", "off" or "full" (got ${shown}); using "quiet"`],
    });
  }
});

test("reach in a quiet child: no terminal bytes, no command, no stderr line, no exit status; the event still fires", () => {
  const config = { notify: "all" as const, notifyCommand: ["/bin/true"], exitCode: 3 };
  const stop = { kind: "idle", aborted: false };
  for (const mode of ["tui", "rpc", "print", "json"] as const) {
    assert.deepEqual(planReach(stop, config, mode, true), { needsYou: true, terminal: false, command: "none", stderrLine: false, event: true });
    assert.equal(exitStatus(stop, config, mode, true), undefined);
    assert.equal(exitStatus(undefined, config, mode, true), undefined, "nor undoes one");
  }
  assert.equal(exitStatus(stop, config, "print"), 3, "a session that is no child sets it");
});

// ---- the registry on contexts --------------------------------------------------------------------

/** A context whose session can be disposed: then every read of it throws, as pi's stale ctx does. */
function disposableContext(session: FakeSession): { ctx: ContextLike; dispose(): void } {
  let disposed = false;
  const inner = createContext({ session, cwd, mode: "print", hasUI: false });
  const ctx = Object.defineProperties({}, {
    ...Object.getOwnPropertyDescriptors(inner),
    sessionManager: {
      get() {
        if (disposed) throw new Error("This extension ctx is stale");
        return session;
      },
    },
  }) as ContextLike;
  return { ctx, dispose: () => void (disposed = true) };
}

test("registry: a parent, then a child started while it runs; the parent's /reload keeps it the parent", () => {
  freshProcess();
  const parentSession = createSession([], "parent");
  const parentCtx = createContext({ session: parentSession, cwd });
  const first = createChildren({});
  assert.deepEqual(first.started(parentCtx), NOT_A_CHILD);
  const childCtx = createContext({ session: createSession([], "child"), cwd, hasUI: false, mode: "print" });
  assert.deepEqual(createChildren({}).started(childCtx), { child: true, why: SECOND_SESSION });
  // /reload: the old runtime's shutdown, a new module instance, the same session manager starts again.
  first.ended(parentCtx);
  const reloaded = createChildren({});
  assert.deepEqual(reloaded.started(parentCtx), NOT_A_CHILD, "the child still runs, but children do not make a parent a child");
  assert.deepEqual(reloaded.ruleOf(parentCtx), NOT_A_CHILD);
});

test("registry: pi 1.5.2's double session_start in RPC is one session, never a child of itself", () => {
  freshProcess();
  const ctx = createContext({ session: createSession([], "rpc-session"), cwd });
  const children = createChildren({});
  assert.deepEqual(children.started(ctx), NOT_A_CHILD);
  assert.deepEqual(children.started(ctx), NOT_A_CHILD);
  const live = (globalThis as { [REGISTRY]?: { live: unknown[] } })[REGISTRY]?.live ?? [];
  assert.equal(live.length, 1);
});

test("registry: /new ends the old session first; the new one is the parent", () => {
  freshProcess();
  const children = createChildren({});
  const old = createContext({ session: createSession([], "old"), cwd });
  children.started(old);
  children.ended(old);
  assert.deepEqual(children.started(createContext({ session: createSession([], "new"), cwd })), NOT_A_CHILD);
});

test("registry: two in-process sessions where the first shuts down first — the second stays a child, the next parent session is none", () => {
  freshProcess();
  const children = createChildren({});
  const parent = createContext({ session: createSession([], "parent"), cwd });
  const child = createContext({ session: createSession([], "child"), cwd, hasUI: false, mode: "print" });
  children.started(parent);
  const childSide = createChildren({});
  assert.equal(childSide.started(child).child, true);
  children.ended(parent);
  assert.deepEqual(childSide.ruleOf(child), { child: true, why: SECOND_SESSION }, "decided once, when it started");
  assert.equal(childSide.conductOf(child, "quiet"), "quiet");
  const next = createContext({ session: createSession([], "next"), cwd });
  assert.deepEqual(children.started(next), NOT_A_CHILD, "a session started while only a child runs is no child");
});

test("registry: a session disposed without session_shutdown (its ctx is stale) no longer counts", () => {
  freshProcess();
  const gone = disposableContext(createSession([], "gone"));
  createChildren({}).started(gone.ctx);
  gone.dispose();
  assert.deepEqual(createChildren({}).started(createContext({ session: createSession([], "after"), cwd })), NOT_A_CHILD);
  const live = (globalThis as { [REGISTRY]?: { live: unknown[] } })[REGISTRY]?.live ?? [];
  assert.equal(live.length, 1, "the stale entry is dropped");
});

test("registry: a context whose session manager cannot be read is judged by the environment alone", () => {
  freshProcess();
  const broken = Object.defineProperty({ cwd }, "sessionManager", { get() { throw new Error("stale"); } }) as ContextLike;
  assert.deepEqual(createChildren({ TODO_LOOP_CHILD: "1" }).started(broken), { child: true, why: "TODO_LOOP_CHILD" });
  assert.deepEqual(createChildren({}).started(broken), NOT_A_CHILD);
});

// ---- the extension in a child, on a fake pi ------------------------------------------------------

interface Run {
  readonly pi: FakePi;
  readonly ctx: FakeContext;
  readonly session: FakeSession;
  /** Three replies without a tool call: continue, continue, then the idle stop at the run's settle. */
  idleRun(): Promise<boolean[]>;
}

function planned(): Entry[] {
  return chain(user("Do the work", { id: "u1" }), assistant({ id: "a1" }), todoResult({ tasks: [task({ id: 1, subject: "Write tests" }), task({ id: 2, subject: "Ship it" })], id: "t1" }));
}

async function started(sessionId: string, mode: "print" | "rpc" = "print"): Promise<Run> {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const session = createSession(planned(), sessionId);
  pi.session = session;
  const ctx = createContext({ session, cwd, mode, hasUI: mode !== "print" });
  await pi.fireSessionStart({ type: "session_start", reason: "startup" }, ctx);
  return {
    pi,
    ctx,
    session,
    async idleRun() {
      const continued: boolean[] = [];
      for (let reply = 0; reply < 3; reply++) {
        const entry = assistant({ text: "Stopping here." });
        session.append(entry);
        const result = await pi.fireTurnEnd({ ...settle(), message: entry.message }, ctx);
        for (const draft of result?.entries ?? []) if (isEntry(draft)) session.append(draft);
        continued.push(result?.continue === true);
      }
      await pi.fireAgentSettled({ type: "agent_settled", aborted: false }, ctx);
      return continued;
    },
  };
}

function stopEvents(pi: FakePi): unknown[] {
  return pi.bus.emitted.filter((item) => item.channel === "todo-loop:stop").map((item) => item.data);
}

test("quiet child by marker (print mode, exitCode and notifyCommand set): the loop continues and stops as usual; no exit status, stderr line or hook; the event fires", async () => {
  freshProcess();
  const hookRan = join(agentDir, "hook-ran");
  const hook = join(agentDir, "hook.sh");
  writeFileSync(hook, `#!/bin/sh\ntouch "${hookRan}"\n`, { mode: 0o755 });
  writeConfig({ exitCode: 3, notify: "all", notifyCommand: [hook], maxIdle: 1 });
  process.env.PI_SUBAGENT_CHILD = "1";
  try {
    const run = await started("marked-child");
    assert.deepEqual(await run.idleRun(), [true, true, false], "continue, continue, then the idle brake");
    const io = ioOf(run.pi);
    assert.equal(io.exitCode, undefined);
    assert.deepEqual(io.stderr, [], "no stop line, and no line for the config problem (maxIdle) either");
    assert.deepEqual(io.terminal, []);
    assert.equal(existsSync(hookRan), false, "the notify command did not run");
    assert.equal(stopEvents(run.pi).length, 1);
    assert.equal((stopEvents(run.pi)[0] as { kind?: unknown }).kind, "idle");
    assert.equal(run.pi.appended.filter((entry) => entry.customType === "todo-loop:stop").length, 1, "the stop is recorded in the child's own session");
  } finally {
    freshProcess();
  }
});

test("the same run without a marker sets the exit status and writes the stop line (the guard of the test above)", async () => {
  freshProcess();
  writeConfig({ exitCode: 3 });
  const run = await started("parent");
  assert.deepEqual(await run.idleRun(), [true, true, false]);
  const io = ioOf(run.pi);
  assert.equal(io.exitCode, 3);
  assert.equal(io.stderr.filter((line) => line.startsWith("todo loop: stopped")).length, 1);
  freshProcess();
});

test("in-process child (a second session): quiet, no footer; the parent's exit status is left alone; /todoloop names the rule", async () => {
  freshProcess();
  writeConfig({ exitCode: 3 });
  const parent = await started("parent-session", "rpc");
  const child = await started("child-session", "rpc");
  assert.deepEqual(await child.idleRun(), [true, true, false]);
  assert.equal(ioOf(child.pi).exitCode, undefined);
  assert.deepEqual(child.ctx.ui.statuses, [], "no footer at all in the child");
  assert.ok(parent.ctx.ui.statuses.length > 0, "the parent shows its footer");
  await child.pi.command("todoloop").handler("", child.ctx);
  const report = child.ctx.ui.notifications.at(-1)?.message ?? "";
  assert.match(report, /^child session \(a second session in this process\): quiet — /m);
  await parent.pi.command("todoloop").handler("", parent.ctx);
  assert.doesNotMatch(parent.ctx.ui.notifications.at(-1)?.message ?? "", /child session/);
  freshProcess();
});

test("children: \"off\" — nothing at all in a child: no marker, no record, no footer, the context hook and the block tool stand aside, commands change nothing", async () => {
  freshProcess();
  writeConfig({ children: "off", exitCode: 3 });
  process.env.TODO_LOOP_CHILD = "1";
  try {
    const run = await started("off-child", "rpc");
    const before = run.session.ids().length;
    assert.deepEqual(await run.idleRun(), [false, false, false]);
    assert.equal(run.session.ids().length, before + 3, "only the three replies: no marker, no stop record");
    assert.deepEqual(run.pi.appended, []);
    assert.deepEqual(stopEvents(run.pi), []);
    assert.deepEqual(run.ctx.ui.statuses, []);
    assert.equal(ioOf(run.pi).exitCode, undefined);
    const messages = [{ role: "custom", customType: "todo-loop:continue", content: "x" }, { role: "user", content: "hi" }];
    assert.equal(await run.pi.fireContext({ type: "context", messages }, run.ctx), undefined);
    const blocked = await run.pi.tool("todo_loop_block").execute("c1", { reason: "need a key" }, undefined, undefined, run.ctx);
    assert.equal(blocked.content[0]?.text, "The todo loop is off in this child session (TODO_LOOP_CHILD=1); there is no continuation to stop.");
    for (const word of ["pause", "continue", "reset"]) await run.pi.command("todoloop").handler(word, run.ctx);
    assert.deepEqual(run.pi.appended, [], "no control record");
    assert.deepEqual(run.pi.sent, [], "no marker sent");
    assert.equal(run.ctx.ui.notifications.at(-1)?.message, 'todo loop: off in this child session (TODO_LOOP_CHILD=1, children: "off"); nothing changed');
    await run.pi.command("todoloop").handler("", run.ctx);
    assert.equal(run.ctx.ui.notifications.at(-1)?.message, 'todo loop: off\nchild session (TODO_LOOP_CHILD=1): the loop is off here (children: "off")');
  } finally {
    freshProcess();
  }
});

test("children: \"full\" — a child is like any session: exit status, stderr line and footer", async () => {
  freshProcess();
  writeConfig({ children: "full", exitCode: 3 });
  process.env.PI_CODE_SUBAGENT = "1";
  try {
    const run = await started("full-child");
    assert.deepEqual(await run.idleRun(), [true, true, false]);
    assert.equal(ioOf(run.pi).exitCode, 3);
    assert.equal(ioOf(run.pi).stderr.filter((line) => line.startsWith("todo loop: stopped")).length, 1);
    await run.pi.command("todoloop").handler("", run.ctx);
    assert.match(run.ctx.ui.notifications.at(-1)?.message ?? "", /^child session \(PI_CODE_SUBAGENT=1\): treated like any session \(children: "full"\)$/m);
  } finally {
    freshProcess();
  }
});

test("a marker with another value (PI_SUBAGENT_CHILD=0) is no child: the exit status is set", async () => {
  freshProcess();
  writeConfig({ exitCode: 3 });
  process.env.PI_SUBAGENT_CHILD = "0";
  try {
    const run = await started("zero");
    await run.idleRun();
    assert.equal(ioOf(run.pi).exitCode, 3);
  } finally {
    freshProcess();
  }
});

test("a quiet child announces no config problem, and leaves the process's memo to its parent", async () => {
  freshProcess();
  writeConfig({ children: "loud" });
  const parent = await started("parent-with-problem");
  assert.equal(ioOf(parent.pi).stderr.filter((line) => line.includes("children must be")).length, 1, "the parent announces it");
  process.env.PI_SUBAGENT_CHILD = "1";
  try {
    const pi = createFakePi();
    const io = { ...ioOf(pi), memo: { lastProblems: undefined } };
    todoLoop(pi, io);
    const session = createSession(planned(), "child-with-problem");
    await pi.fireSessionStart({ type: "session_start", reason: "startup" }, createContext({ session, cwd, mode: "print", hasUI: false }));
    assert.deepEqual(io.stderr, []);
    assert.equal(io.memo.lastProblems, undefined);
  } finally {
    freshProcess();
  }
});

test("a quiet child announces no project config problem either (print mode: no stderr line); the same session that is no child does", async () => {
  freshProcess();
  const projectFile = join(cwd, ".pi", "todo-loop.json");
  writeFileSync(projectFile, JSON.stringify({ maxRounds: 3 }));
  try {
    process.env.TODO_LOOP_CHILD = "1";
    const child = await started("child-with-project-problem");
    assert.deepEqual(ioOf(child.pi).stderr, [], "nothing from the child");
    freshProcess();
    writeFileSync(projectFile, JSON.stringify({ maxRounds: 3 }));
    const parent = await started("parent-with-project-problem");
    assert.equal(ioOf(parent.pi).stderr.filter((line) => line.includes(projectFile)).length, 1, "the guard: a session that is no child announces it");
  } finally {
    rmSync(projectFile, { force: true });
    freshProcess();
  }
});

test("sameSession: the same manager, or the same known id; two sessions whose ids are unknown are never the same", () => {
  const first = {};
  const second = {};
  assert.equal(sameSession({ key: first, id: "", child: false }, first, ""), true, "the same manager");
  assert.equal(sameSession({ key: first, id: "s-1", child: false }, second, "s-1"), true, "another manager with the same id (a /reload)");
  assert.equal(sameSession({ key: first, id: "", child: false }, second, ""), false, "no id on either side is no match");
  assert.equal(sameSession({ key: first, id: "s-1", child: false }, second, "s-2"), false);
});
