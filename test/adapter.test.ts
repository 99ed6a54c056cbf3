/**
 * The pi adapter (src/index.ts) wired to a fake pi: what `turn_end` returns and which notify / setStatus
 * effects it has, the `todo_loop_block` tool, the `/todoloop` command, and malformed input that must
 * never throw or continue.
 */
import { test } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import todoLoop from "../src/index.ts";
import type { ContextLike, ToolResultValue, TurnEndEventLike, TurnEndResultLike } from "../src/pi.ts";
import { nudgeText } from "../src/text.ts";
import {
  assistant,
  blockResult,
  chain,
  isEntry,
  marker,
  settle,
  task,
  todoResult,
  toolResultMessage,
  toolTurn,
  user,
} from "./builders.ts";
import type { Entry, EventOptions, MessageEntry, RpivTask } from "./builders.ts";
import { createContext, createFakePi, createSession, isolatedDirs } from "./fake-pi.ts";
import type { FakeContext, FakePi, FakeSession } from "./fake-pi.ts";

const { agentDir, cwd } = isolatedDirs("todo-loop-adapter-");

const CONFIG_FILE = join(agentDir, "todo-loop.json");
const GLOBAL_OFF = join(agentDir, "todo-loop-off");
const PROJECT_OFF = join(cwd, ".pi", "todo-loop-off");

const TASKS: RpivTask[] = [task({ id: 1, subject: "Write tests" }), task({ id: 2, subject: "Ship it" })];

/** A human message, a reply that made a list of two open tasks. */
function planned(): Entry[] {
  return chain(user("Do the work", { id: "u1" }), assistant({ id: "a1", usage: { totalTokens: 1000, cost: 0.01 } }), todoResult({ tasks: TASKS, id: "t1" }));
}

interface Harness {
  readonly pi: FakePi;
  readonly ctx: FakeContext;
  readonly session: FakeSession;
  /** Calls the extension's turn_end handler with the event as it is. */
  turnEnd(event: TurnEndEventLike, ctx?: ContextLike): Promise<TurnEndResultLike | undefined>;
  /** A reply without tool calls, then turn_end; drafts the extension returned are committed as pi would. */
  settleWith(options?: EventOptions): Promise<TurnEndResultLike | undefined>;
  /** A reply with todo calls whose results are appended, then turn_end. */
  toolsWith(results: MessageEntry[], options?: EventOptions): Promise<TurnEndResultLike | undefined>;
  block(params: unknown): Promise<ToolResultValue>;
  command(args: string): Promise<void>;
  /** Notifications since the last call of `takeNotes()`. */
  takeNotes(): Array<{ message: string; type: string | undefined }>;
  footer(): string | undefined;
}

function harness(options: { branch?: Entry[]; hasUI?: boolean; activeTools?: string[]; sessionId?: string; pi?: FakePi } = {}): Harness {
  const pi = options.pi ?? createFakePi({ activeTools: options.activeTools });
  if (!options.pi) todoLoop(pi);
  const session = createSession(options.branch ?? planned(), options.sessionId);
  const ctx = createContext({ session, cwd, hasUI: options.hasUI });
  let seen = 0;

  async function turnEnd(event: TurnEndEventLike, context: ContextLike = ctx) {
    const handler = pi.turnEndHandlers[0];
    assert.ok(handler, "a turn_end handler is registered");
    return handler(event, context);
  }

  function commit(event: TurnEndEventLike, result: TurnEndResultLike | undefined): void {
    const earlier = Array.isArray(event.entries) ? event.entries.length : 0;
    for (const draft of result?.entries?.slice(earlier) ?? []) {
      assert.ok(isEntry(draft), "a draft is an entry");
      session.append(draft);
    }
  }

  return {
    pi,
    ctx,
    session,
    turnEnd,
    async settleWith(eventOptions = {}) {
      session.append(assistant({ text: "Stopping here.", usage: { totalTokens: 100, cost: 0.001 } }));
      const event = settle(eventOptions);
      const result = await turnEnd(event);
      commit(event, result);
      return result;
    },
    async toolsWith(results, eventOptions = {}) {
      session.append(assistant({ text: "Updating the list." }), ...results);
      const event = toolTurn(
        results.map((entry) => entry.message),
        eventOptions,
      );
      const result = await turnEnd(event);
      commit(event, result);
      return result;
    },
    block(params) {
      return pi.tool("todo_loop_block").execute("call-1", params, undefined, undefined, ctx);
    },
    command(args) {
      return pi.command("todoloop").handler(args, ctx);
    },
    takeNotes() {
      const notes = ctx.ui.notifications.slice(seen);
      seen = ctx.ui.notifications.length;
      return notes.map((note) => ({ message: note.message, type: note.type }));
    },
    footer() {
      return ctx.ui.statuses.at(-1)?.text;
    },
  };
}

function markerOf(result: TurnEndResultLike | undefined): Record<string, unknown> {
  const last = result?.entries?.at(-1);
  assert.ok(isEntry(last), "an appended entry");
  assert.equal(last.customType, "todo-loop:continue");
  return last;
}

function details(result: TurnEndResultLike | undefined): unknown {
  return markerOf(result).details;
}

function writeConfig(t: TestContext, content: unknown): void {
  writeFileSync(CONFIG_FILE, typeof content === "string" ? content : JSON.stringify(content));
  t.after(() => rmSync(CONFIG_FILE, { force: true }));
}

function switchOff(t: TestContext, path: string): void {
  writeFileSync(path, "");
  t.after(() => rmSync(path, { force: true }));
}

/** Every notify message of the status report, as lines. */
async function statusLines(h: Harness): Promise<string[]> {
  h.takeNotes();
  await h.command("status");
  const notes = h.takeNotes();
  assert.equal(notes.length, 1);
  assert.equal(notes[0]?.type, "info");
  return (notes[0]?.message ?? "").split("\n");
}

const completedBoth = () => todoResult({ tasks: [task({ id: 1, subject: "Write tests", status: "completed" }), task({ id: 2, subject: "Ship it", status: "completed" })], action: "update" });

// ---- turn_end: continuing -------------------------------------------------------------------------

test("turn_end: a settle with open tasks returns [...event.entries, marker] and continue: true", async () => {
  const h = harness();
  const result = await h.settleWith();
  assert.deepEqual(result, {
    entries: [
      {
        type: "custom_message",
        customType: "todo-loop:continue",
        content: nudgeText("todo", false),
        display: false,
        details: { v: 1, round: 1, anchor: "u1", open: 2, hint: false },
      },
    ],
    continue: true,
  });
});

test("turn_end: the marker content names no task and no counter", async () => {
  const h = harness();
  const content = markerOf(await h.settleWith()).content;
  assert.equal(typeof content, "string");
  assert.doesNotMatch(String(content), /Write tests|Ship it|\d/);
});

test("turn_end: proposals of earlier handlers are kept in front of the marker", async () => {
  const h = harness();
  const earlier = { type: "custom", customType: "other-extension:state", data: { n: 1 } };
  const result = await h.settleWith({ entries: [earlier] });
  assert.equal(result?.entries?.length, 2);
  assert.equal(result?.entries?.[0], earlier);
  assert.equal(result?.continue, true);
  markerOf(result);
});

test("turn_end: through pi's chained dispatch the earlier proposal and the marker are both committed", async () => {
  const pi = createFakePi();
  const earlier = { type: "custom", customType: "other-extension:state" };
  pi.on("turn_end", async (event) => ({ entries: [...(Array.isArray(event.entries) ? event.entries : []), earlier] }));
  todoLoop(pi);
  const session = createSession(planned());
  session.append(assistant());
  const result = await pi.fireTurnEnd(settle(), createContext({ session, cwd }));
  assert.equal(result?.continue, true);
  assert.equal(result?.entries?.length, 2);
  assert.equal(result?.entries?.[0], earlier);
});

test("turn_end: a second settle without progress continues with round 2 and the hint", async () => {
  const h = harness();
  await h.settleWith();
  const second = await h.settleWith();
  assert.deepEqual(details(second), { v: 1, round: 2, anchor: "u1", open: 2, hint: true });
  assert.equal(markerOf(second).content, nudgeText("todo", true));
  const third = await h.settleWith();
  assert.deepEqual(details(third), { v: 1, round: 3, anchor: "u1", open: 2, hint: false });
});

test("turn_end: a tool turn returns nothing (pi continues after it anyway)", async () => {
  const h = harness();
  const result = await h.toolsWith([todoResult({ tasks: [task({ id: 1, subject: "Write tests", status: "in_progress" }), TASKS[1] ?? task({ id: 2 })], action: "update" })]);
  assert.equal(result, undefined);
  assert.deepEqual(h.takeNotes(), []);
});

test("turn_end: a new human message starts counting again from round 1", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  h.session.append(user("Also update the docs", { id: "u2" }));
  assert.deepEqual(details(await h.settleWith()), { v: 1, round: 1, anchor: "u2", open: 2, hint: false });
});

// ---- turn_end: natural work follows ---------------------------------------------------------------

test("turn_end: a queued human message (pendingMessages) → nothing, and status says so", async () => {
  const h = harness();
  const result = await h.settleWith({ pendingMessages: [{ role: "user", content: "and also…" }] });
  assert.equal(result, undefined);
  assert.ok((await statusLines(h)).includes("last: not continuing: a queued message runs next"));
});

test("turn_end: event.continue already true → nothing, and status says another extension continued", async () => {
  const h = harness();
  const result = await h.settleWith({ continue: true });
  assert.equal(result, undefined);
  assert.ok((await statusLines(h)).includes("last: not continuing: another extension already continued this turn"));
  const after = await h.settleWith();
  assert.equal((details(after) as { round: number }).round, 1, "no round was spent");
});

// ---- turn_end: stops ------------------------------------------------------------------------------

test("turn_end: a cleared list appends one stop record and notifies once (info)", async () => {
  const h = harness();
  await h.settleWith();
  await h.toolsWith([completedBoth()]);
  h.takeNotes();
  const stop = await h.settleWith();
  assert.deepEqual(stop, {
    entries: [{ type: "custom", customType: "todo-loop:stop", data: { reason: "stopped: list is clear", round: 1, open: 0, anchor: "u1" } }],
  });
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop stopped: list is clear", type: "info" }]);
  assert.equal(await h.settleWith(), undefined, "the same stop is not recorded twice");
  assert.deepEqual(h.takeNotes(), [], "nor announced twice");
});

test("turn_end: a stop recorded on the branch is not recorded again after a reload", async () => {
  const first = harness();
  await first.settleWith();
  await first.toolsWith([completedBoth()]);
  await first.settleWith();
  const reloaded = harness({ branch: first.session.getBranch() });
  assert.equal(await reloaded.settleWith(), undefined);
  assert.deepEqual(reloaded.takeNotes(), []);
});

test("turn_end: an error settle with open tasks records 'stopped: turn outcome was error' and warns", async () => {
  const h = harness();
  const result = await h.settleWith({ outcome: "error" });
  assert.equal(result?.continue, undefined);
  assert.deepEqual(result?.entries, [{ type: "custom", customType: "todo-loop:stop", data: { reason: "stopped: turn outcome was error", round: 0, open: 2, anchor: "u1" } }]);
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop stopped: turn outcome was error", type: "warning" }]);
});

test("turn_end: plain chat with no list records and announces nothing", async () => {
  const h = harness({ branch: chain(user("hi", { id: "u1" })) });
  assert.equal(await h.settleWith(), undefined);
  assert.deepEqual(h.takeNotes(), []);
});

test("turn_end: a todo-only tool turn that deleted the last open task warns that it was deleted rather than completed", async () => {
  const h = harness();
  const closeOne = todoResult({ tasks: [task({ id: 1, subject: "Write tests", status: "completed" }), task({ id: 2, subject: "Ship it" })], action: "update", params: { action: "update", id: 1, status: "completed" } });
  const deleteOther = todoResult({ tasks: [task({ id: 1, subject: "Write tests", status: "completed" }), task({ id: 2, subject: "Ship it", status: "deleted" })], action: "delete", params: { action: "delete", id: 2 } });
  assert.equal(await h.toolsWith([closeOne, deleteOther]), undefined);
  assert.deepEqual(h.takeNotes(), [
    {
      message: 'todo loop: 1 task was deleted rather than completed: "Ship it". No task is open, so the loop stops; check that the work is really done.',
      type: "warning",
    },
  ]);
  const stop = await h.settleWith();
  assert.equal(stop?.continue, undefined);
  assert.equal(stop?.entries?.length, 1, "the stop is recorded");
  assert.deepEqual(h.takeNotes(), [], "but not announced a second time");
});

test("turn_end: a todo-only tool turn that completed the last tasks is silent", async () => {
  const h = harness();
  await h.toolsWith([completedBoth()]);
  assert.deepEqual(h.takeNotes(), []);
});

test("turn_end: a todo tool turn mixed with other tools never warns about an emptied list", async () => {
  const h = harness();
  h.session.append(assistant({ text: "Clearing." }), todoResult({ tasks: [], action: "clear", nextId: 1 }));
  const event = toolTurn([toolResultMessage("todo", { action: "clear", params: { action: "clear" }, tasks: [], nextId: 1 }), toolResultMessage("bash", { exitCode: 0 })]);
  await h.turnEnd(event);
  assert.deepEqual(h.takeNotes(), []);
});

// ---- turn_end: limits and counters from the branch ------------------------------------------------

test("turn_end: limits come from the config file, re-read on every decision", async (t) => {
  writeConfig(t, { maxRounds: 1 });
  const h = harness();
  assert.equal((await h.settleWith())?.continue, true);
  h.takeNotes();
  const stopped = await h.settleWith();
  assert.equal(stopped?.continue, undefined);
  const reason = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
  assert.deepEqual(stopped?.entries, [{ type: "custom", customType: "todo-loop:stop", data: { reason, round: 1, open: 2, anchor: "u1" } }]);
  assert.deepEqual(h.takeNotes(), [{ message: `todo loop ${reason}`, type: "warning" }]);
  writeConfig(t, { maxRounds: 5 });
  assert.equal((details(await h.settleWith()) as { round: number }).round, 2);
});

test("turn_end: a broken config file never fails a turn", async (t) => {
  writeConfig(t, "{ broken");
  const h = harness();
  assert.equal((await h.settleWith())?.continue, true);
  assert.ok((await statusLines(h)).some((line) => line.startsWith("config problem: invalid JSON")));
});

test("turn_end: after a reload the round is rebuilt from the markers, so a limit is not re-armed", async (t) => {
  writeConfig(t, { maxRounds: 3 });
  const branch = chain(...planned(), assistant(), marker({ round: 1, anchor: "u1", open: 2 }), assistant(), marker({ round: 2, anchor: "u1", open: 2 }));
  const h = harness({ branch });
  assert.equal((details(await h.settleWith()) as { round: number }).round, 3);
  assert.equal((await h.settleWith())?.continue, undefined);
});

test("turn_end: after /tree navigation the rounds spent on the abandoned branch no longer count", async (t) => {
  writeConfig(t, { maxRounds: 2 });
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  assert.equal((await h.settleWith())?.continue, undefined, "the limit is reached on this branch");
  h.session.moveTo("t1");
  assert.deepEqual(details(await h.settleWith()), { v: 1, round: 1, anchor: "u1", open: 2, hint: false });
});

test("turn_end: spend since the anchor counts toward maxTokens", async (t) => {
  writeConfig(t, { maxTokens: 1150 });
  const h = harness();
  assert.equal((await h.settleWith())?.continue, true, "1,100 tokens so far");
  assert.equal((await h.settleWith())?.continue, undefined, "1,200 tokens reach the limit");
});

test("turn_end: a delegated child session runs its own loop", async () => {
  const parent = harness({ sessionId: "parent" });
  await parent.settleWith();
  await parent.settleWith();
  const child = harness({ pi: parent.pi, sessionId: "child" });
  assert.equal((details(await child.settleWith()) as { round: number }).round, 1);
  assert.equal((details(await parent.settleWith()) as { round: number }).round, 3);
});

// ---- turn_end: kill switch and malformed events ---------------------------------------------------

for (const [where, path] of [
  ["the agent dir", GLOBAL_OFF],
  ["<cwd>/.pi", PROJECT_OFF],
] as const) {
  test(`turn_end: kill switch in ${where} → undefined, no notify, no state change`, async (t) => {
    const h = harness();
    switchOff(t, path);
    assert.equal(await h.settleWith(), undefined);
    assert.equal(await h.settleWith({ outcome: "error" }), undefined);
    assert.deepEqual(h.takeNotes(), []);
    assert.deepEqual(h.ctx.ui.statuses, []);
    rmSync(path);
    assert.equal((details(await h.settleWith()) as { round: number }).round, 1, "removing the file takes effect at once, with nothing spent");
  });
}

test("turn_end: kill switch turns an existing footer into 'todo loop off'", async (t) => {
  const h = harness();
  await h.settleWith();
  switchOff(t, GLOBAL_OFF);
  await h.settleWith();
  assert.equal(h.footer(), "todo loop off");
});

test("turn_end: malformed events never throw and never continue", async () => {
  const events: TurnEndEventLike[] = [
    {},
    { outcome: "completed" },
    { outcome: "completed", toolResults: "none" },
    { outcome: "completed", toolResults: [], context: null },
    { outcome: "completed", toolResults: [], context: "junk" },
    { outcome: "completed", toolResults: [], context: {} },
    { outcome: "completed", toolResults: [], context: { pendingMessages: "x" } },
    { outcome: "weird", toolResults: [], context: { pendingMessages: [] } },
    { outcome: 42, toolResults: [], context: { pendingMessages: [] } },
    { outcome: "completed", toolResults: [null, 5, "x", { toolName: 7 }], context: { pendingMessages: [] } },
    { outcome: "completed", toolResults: [], context: { pendingMessages: [] }, entries: "junk", continue: "yes" },
  ];
  for (const event of events) {
    const h = harness();
    h.session.append(assistant());
    const result = await h.turnEnd(event);
    assert.notEqual(result?.continue, true, JSON.stringify(event));
    assert.ok(!h.takeNotes().some((note) => note.type === "error"), `no failure report for ${JSON.stringify(event)}`);
  }
});

test("turn_end: a session that throws is reported as an error notify and the turn is left untouched", async () => {
  const h = harness();
  const broken: ContextLike = {
    cwd,
    hasUI: true,
    ui: h.ctx.ui,
    sessionManager: {
      getBranch() {
        throw new Error("disk on fire");
      },
    },
  };
  assert.equal(await h.turnEnd(settle(), broken), undefined);
  const notes = h.takeNotes();
  assert.equal(notes.length, 1);
  assert.equal(notes[0]?.type, "error");
  assert.match(notes[0]?.message ?? "", /disk on fire/);
});

test("turn_end: a UI whose notify throws does not break the turn", async () => {
  const h = harness();
  await h.settleWith();
  await h.toolsWith([completedBoth()]);
  h.session.append(assistant());
  const ctx: ContextLike = {
    ...h.ctx,
    ui: {
      notify() {
        throw new Error("no UI");
      },
      setStatus() {},
    },
  };
  const result = await h.turnEnd(settle(), ctx);
  assert.equal(result?.entries?.length, 1, "the stop is still recorded");
});

// ---- footer ---------------------------------------------------------------------------------------

test("footer: 'todo 2/2 · continue N' while tasks are open, cleared when the list is clear", async () => {
  const h = harness();
  await h.settleWith();
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: "todo 2/2 · continue 1" }]);
  await h.settleWith();
  assert.equal(h.footer(), "todo 2/2 · continue 2");
  await h.toolsWith([completedBoth()]);
  assert.equal(h.footer(), undefined);
  const count = h.ctx.ui.statuses.length;
  await h.settleWith();
  assert.equal(h.ctx.ui.statuses.length, count, "an unchanged footer is not set again");
});

test("footer: shows the round cap when maxRounds is set", async (t) => {
  writeConfig(t, { maxRounds: 12 });
  const h = harness();
  await h.settleWith();
  assert.equal(h.footer(), "todo 2/2 · continue 1/12");
});

test("footer: never set without a UI (print and JSON modes)", async () => {
  const h = harness({ hasUI: false });
  await h.settleWith();
  await h.command("pause");
  await h.block({ reason: "x" });
  assert.deepEqual(h.ctx.ui.statuses, []);
});

// ---- todo_loop_block ------------------------------------------------------------------------------

test("todo_loop_block: registered with a one-line snippet, a guideline naming it, and one required string reason", () => {
  const pi = createFakePi();
  todoLoop(pi);
  const tool = pi.tool("todo_loop_block");
  assert.equal(tool.name, "todo_loop_block");
  assert.ok(tool.promptSnippet && !tool.promptSnippet.includes("\n"));
  assert.ok(tool.promptGuidelines?.length);
  for (const line of tool.promptGuidelines ?? []) assert.match(line, /todo_loop_block/);
  assert.deepEqual(tool.parameters, {
    type: "object",
    properties: { reason: { type: "string", description: "What you need from the user, in one sentence." } },
    required: ["reason"],
    additionalProperties: false,
  });
  assert.equal(pi.tools.length, 1);
});

test("todo_loop_block: an empty or whitespace reason is an error result and the loop is not stopped", async () => {
  const h = harness();
  for (const params of [{ reason: "" }, { reason: "   \n\t " }, { reason: "\u200b\u202e" }, {}, { reason: 5 }, null]) {
    await assert.rejects(h.block(params), /reason/, JSON.stringify(params));
  }
  assert.deepEqual(h.takeNotes(), []);
  assert.equal((await h.settleWith())?.continue, true);
});

test("todo_loop_block: a reason → waiting, a warning notify, status 'waiting for you: <reason>', no continuation", async () => {
  const h = harness();
  const result = await h.block({ reason: "Which database should I migrate?" });
  assert.deepEqual(result.details, { v: 1, waiting: true, reason: "Which database should I migrate?", anchor: "u1" });
  assert.match(result.content[0]?.text ?? "", /will not continue until the user replies/);
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: the agent is waiting for you: Which database should I migrate?", type: "warning" }]);
  h.session.append(blockResult("Which database should I migrate?", "u1"));
  const settled = await h.settleWith();
  assert.equal(settled?.continue, undefined);
  assert.deepEqual(settled?.entries, [
    { type: "custom", customType: "todo-loop:stop", data: { reason: "waiting for you: Which database should I migrate?", round: 0, open: 2, anchor: "u1" } },
  ]);
  assert.deepEqual(h.takeNotes(), [], "the tool already told the human");
  const lines = await statusLines(h);
  assert.equal(lines[0], "todo loop: waiting");
  assert.ok(lines.includes("waiting for you: Which database should I migrate?"));
  assert.equal(h.footer(), "waiting for you");
});

test("todo_loop_block: hostile reason text is sanitised before it is shown", async () => {
  const h = harness();
  const hostile = `\u202Eevil\u202C line\none\u200b\u0007\u001b[31m red ${"x".repeat(1000)}`;
  const result = await h.block({ reason: hostile });
  const [note] = h.takeNotes();
  assert.ok(note);
  for (const text of [note.message, result.content[0]?.text ?? "", ...(await statusLines(h))]) {
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f\u200b\u202a-\u202e]/);
  }
  const reason = (result.details as { reason: string }).reason;
  assert.ok(Array.from(reason).length <= 500, "capped by code point");
  assert.match(reason, /^evil line one red x/, "the colour code goes whole");
});

test("todo_loop_block: with the kill switch on → a plain result saying the loop is off; no state change, no notify", async (t) => {
  const h = harness();
  switchOff(t, GLOBAL_OFF);
  const result = await h.block({ reason: "need a key" });
  assert.match(result.content[0]?.text ?? "", /todo loop is off/);
  assert.deepEqual(result.details, { v: 1, waiting: false, off: true });
  assert.deepEqual(h.takeNotes(), []);
  rmSync(GLOBAL_OFF);
  assert.equal((await h.settleWith())?.continue, true, "not waiting");
});

test("todo_loop_block: while paused → a plain result saying the loop is paused; no state change, no notify", async () => {
  const h = harness();
  await h.command("pause");
  h.takeNotes();
  const result = await h.block({ reason: "need a key" });
  assert.match(result.content[0]?.text ?? "", /paused/);
  assert.deepEqual(result.details, { v: 1, waiting: false, paused: true });
  assert.deepEqual(h.takeNotes(), []);
  await h.command("resume");
  assert.equal((await h.settleWith())?.continue, true, "not waiting after resume");
});

test("todo_loop_block: waiting is rebuilt from the tool's result on the branch", async () => {
  const branch = chain(...planned(), assistant(), blockResult("need the staging password", "u1"));
  const h = harness({ branch });
  assert.equal((await h.settleWith())?.continue, undefined);
  assert.ok((await statusLines(h)).includes("waiting for you: need the staging password"));
});

test("todo_loop_block: the human's next message clears waiting", async () => {
  const h = harness();
  await h.block({ reason: "which region?" });
  h.session.append(blockResult("which region?", "u1"));
  assert.equal((await h.settleWith())?.continue, undefined);
  h.session.append(user("eu-west-1", { id: "u2" }));
  assert.equal((await h.settleWith())?.continue, true);
});

test("todo_loop_block: /todoloop resume and reset clear waiting", async () => {
  for (const command of ["resume", "reset"]) {
    const h = harness();
    await h.block({ reason: "which region?" });
    h.session.append(blockResult("which region?", "u1"));
    await h.command(command);
    assert.equal((await h.settleWith())?.continue, true, command);
  }
});

// ---- /todoloop ------------------------------------------------------------------------------------

test("/todoloop status: mode, continuations, replies, tasks and source, spend, anchor, last and config", async () => {
  const h = harness();
  await h.settleWith();
  const lines = await statusLines(h);
  assert.deepEqual(lines, [
    "todo loop: active",
    "continuations for this message: 1 (no limit)",
    "replies since the list last changed: 0",
    "tasks open: 2 of 2 (rpiv-todo)",
    "spend since your message: 1,100 tokens (no limit), $0.0110 (no limit)",
    "counting from: message u1",
    "last: continuing: 2 tasks still open, continue 1",
    `config: ${CONFIG_FILE}`,
  ]);
  assert.deepEqual(await statusLines(h), lines, "/todoloop status changes nothing");
});

test("/todoloop with no argument is status", async () => {
  const h = harness();
  await h.command("");
  const [note] = h.takeNotes();
  assert.match(note?.message ?? "", /^todo loop: active\n/);
});

test("/todoloop pause: 'paused by user', footer 'todo loop paused', no continuation until resume", async () => {
  const h = harness();
  await h.settleWith();
  h.takeNotes();
  await h.command("pause");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: paused by user", type: "info" }]);
  assert.equal(h.footer(), "todo loop paused");
  assert.equal(await h.settleWith(), undefined);
  assert.equal((await statusLines(h))[0], "todo loop: PAUSED");
  h.session.append(user("next thing", { id: "u2" }));
  assert.equal(await h.settleWith(), undefined, "a pause outlives a new message");
  await h.command("resume");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: resumed by user", type: "info" }]);
  assert.equal((await h.settleWith())?.continue, true);
});

test("/todoloop reset: 'counters reset' and the next continuation is round 1 again", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  h.takeNotes();
  await h.command("reset");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: counters reset", type: "info" }]);
  assert.deepEqual(details(await h.settleWith()), { v: 1, round: 1, anchor: "u1", open: 2, hint: false });
});

test("/todoloop with an unknown sub-command: an error notify with the usage line, nothing changed", async () => {
  const h = harness();
  await h.command("stop");
  assert.deepEqual(h.takeNotes(), [{ message: 'todo loop: unknown sub-command "stop". Usage: /todoloop [status|pause|resume|reset]', type: "error" }]);
  assert.equal((await h.settleWith())?.continue, true);
});

test("/todoloop offers argument completions for the four words", () => {
  const pi = createFakePi();
  todoLoop(pi);
  const complete = pi.command("todoloop").getArgumentCompletions;
  assert.ok(complete);
  const values = (prefix: string) => complete(prefix)?.map((item) => item.value) ?? null;
  assert.deepEqual(values(""), ["status", "pause", "resume", "reset"]);
  assert.deepEqual(values("re"), ["resume", "reset"]);
  assert.deepEqual(values("P"), ["pause"]);
  assert.equal(values("x"), null);
});

test("/todoloop status with the kill switch: DISABLED with the file, footer 'todo loop off'", async (t) => {
  const h = harness();
  await h.settleWith();
  switchOff(t, PROJECT_OFF);
  assert.equal((await statusLines(h))[0], `todo loop: DISABLED (kill switch ${PROJECT_OFF})`);
  assert.equal(h.footer(), "todo loop off");
});

test("/todoloop status names the config problems", async (t) => {
  writeConfig(t, { maxRounds: "ten", colour: "blue" });
  const problems = (await statusLines(harness())).filter((line) => line.startsWith("config problem: "));
  assert.equal(problems.length, 2);
});

test("/todoloop status explains a missing list: no todo tool active vs. not used yet", async () => {
  const noTool = harness({ branch: chain(user("hi", { id: "u1" })), activeTools: ["read", "bash"] });
  assert.ok((await statusLines(noTool)).includes("tasks open: none — no todo tool is active"));
  const unused = harness({ branch: chain(user("hi", { id: "u1" })), activeTools: ["read", "todo"] });
  assert.ok((await statusLines(unused)).includes("tasks open: none — the todo tool has not been used on this branch"));
});

test("/todoloop status shows the branch the session is on after /tree navigation", async () => {
  const h = harness();
  h.session.append(user("second", { id: "u2" }), assistant());
  assert.ok((await statusLines(h)).includes("counting from: message u2"));
  h.session.moveTo("t1");
  assert.ok((await statusLines(h)).includes("counting from: message u1"));
});

test("nothing is ever written to the working tree; the session only gains markers and stop records", async () => {
  const before = readdirSync(cwd, { recursive: true, encoding: "utf8" }).sort();
  const h = harness();
  const start = h.session.getBranch().length;
  await h.settleWith();
  await h.settleWith({ pendingMessages: [{ role: "user", content: "x" }] });
  await h.block({ reason: "which region?" });
  await h.command("status");
  await h.command("pause");
  await h.command("resume");
  await h.toolsWith([completedBoth()]);
  await h.settleWith();
  assert.deepEqual(readdirSync(cwd, { recursive: true, encoding: "utf8" }).sort(), before);
  const added = h.session
    .getBranch()
    .slice(start)
    .filter((entry) => !(entry.type === "message"))
    .map((entry) => `${entry.type}:${String(entry.customType)}`);
  assert.deepEqual(added, ["custom_message:todo-loop:continue", "custom:todo-loop:stop"]);
});
