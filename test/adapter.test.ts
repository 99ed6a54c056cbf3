/**
 * The pi adapter (src/index.ts) wired to a fake pi: what `turn_end` returns, what `agent_settled`
 * records (`pi.appendEntry`) and announces, the footer from `session_start` on, the `todo_loop_block`
 * tool, the `/todoloop` command with its control records and `continue`, reloads that read the branch
 * back, and malformed input that must never throw or continue.
 */
import { test } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import todoLoop from "../src/index.ts";
import { ioOf } from "./captured-io.ts";
import type { ContextLike, ModeLike, ToolResultValue, TurnEndEventLike, TurnEndResultLike } from "../src/core/pi-shapes.ts";
import { nudgeText } from "../src/core/text.ts";
import { callPart, foldFingerprint, textPart } from "../src/core/fingerprint.ts";
import {
  assistant,
  assistantCalls,
  blockResult,
  callResult,
  chain,
  rpivDetails,
  isEntry,
  marker,
  settle,
  task,
  todoResult,
  toolResult,
  toolResultMessage,
  toolTurn,
  user,
  TIMESTAMP,
} from "./builders.ts";
import type { Entry, EventOptions, Message, MessageEntry, RpivTask } from "./builders.ts";
import { createContext, createFakePi, createSession, isolatedDirs } from "./fake-pi.ts";
import type { FakeContext, FakePi, FakeSession } from "./fake-pi.ts";

const { agentDir, cwd } = isolatedDirs("todo-loop-adapter-");

const CONFIG_FILE = join(agentDir, "todo-loop.json");
const GLOBAL_OFF = join(agentDir, "todo-loop-off");
const PROJECT_OFF = join(cwd, ".pi", "todo-loop-off");

const TASKS: RpivTask[] = [task({ id: 1, subject: "Write tests" }), task({ id: 2, subject: "Ship it" })];

/** A human message, a reply that made a list of two open tasks. */
function planned(tasks: RpivTask[] = TASKS): Entry[] {
  return chain(user("Do the work", { id: "u1" }), assistant({ id: "a1", usage: { totalTokens: 1000, cost: 0.01 } }), todoResult({ tasks, id: "t1" }));
}

interface SettleOptions extends EventOptions {
  /** The reply's text (the assistant entry and the event's message). */
  text?: string;
  /** The reply entry's ISO timestamp. */
  timestamp?: string;
}

interface HarnessOptions {
  branch?: Entry[];
  /** Reuse a session (a reload over the same session file). */
  session?: FakeSession;
  hasUI?: boolean;
  mode?: ModeLike;
  activeTools?: string[];
  sessionId?: string;
  pi?: FakePi;
}

interface Harness {
  readonly pi: FakePi;
  readonly ctx: FakeContext;
  readonly session: FakeSession;
  /** Calls the extension's turn_end handler with the event as it is. */
  turnEnd(event: TurnEndEventLike, ctx?: ContextLike): Promise<TurnEndResultLike | undefined>;
  /** A reply without tool calls, then turn_end; drafts the extension returned are committed as pi would. */
  settleWith(options?: SettleOptions): Promise<TurnEndResultLike | undefined>;
  /** pi settled without going on: agent_settled. */
  endRun(ctx?: ContextLike): Promise<void>;
  /** A reply without tool calls; when nothing goes on after it (no continuation, nothing queued), pi settles. */
  reply(options?: SettleOptions): Promise<TurnEndResultLike | undefined>;
  /** A reply with todo calls whose results are appended, then turn_end. */
  toolsWith(results: MessageEntry[], options?: EventOptions): Promise<TurnEndResultLike | undefined>;
  /** turn_end for the tool turn a test appended itself (an assistant message with calls, then their results). */
  toolsAfterCalls(options?: EventOptions): Promise<TurnEndResultLike | undefined>;
  /** session_start, as pi fires it after startup, a reload, a resume, … */
  start(reason?: string): Promise<void>;
  block(params: unknown): Promise<ToolResultValue>;
  command(args: string): Promise<void>;
  /** Notifications since the last call of `takeNotes()`. */
  takeNotes(): Array<{ message: string; type: string | undefined }>;
  footer(): string | undefined;
  /** The data of the loop's own `custom` entries of that type on the branch, oldest first. */
  records(customType: "todo-loop:stop" | "todo-loop:control"): unknown[];
  /** A fresh extension instance on a new fake pi over the same session: what `/reload` or a restart does. */
  reload(options?: Omit<HarnessOptions, "branch" | "session" | "pi">): Harness;
}

function harness(options: HarnessOptions = {}): Harness {
  const pi = options.pi ?? createFakePi({ activeTools: options.activeTools });
  if (!options.pi) todoLoop(pi, ioOf(pi));
  const session = options.session ?? createSession(options.branch ?? planned(), options.sessionId);
  pi.session = session;
  const ctx = createContext({ session, cwd, hasUI: options.hasUI, mode: options.mode });
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

  async function settleWith(settleOptions: SettleOptions = {}) {
    const { text, timestamp, ...eventOptions } = settleOptions;
    const reply = assistant({ text: text ?? "Stopping here.", usage: { totalTokens: 100, cost: 0.001 } });
    session.append(timestamp === undefined ? reply : { ...reply, timestamp });
    const event = { ...settle(eventOptions), message: reply.message };
    const result = await turnEnd(event);
    commit(event, result);
    return result;
  }

  async function endRun(context: ContextLike = ctx) {
    await pi.fireAgentSettled({ type: "agent_settled", aborted: false }, context);
  }

  const h: Harness = {
    pi,
    ctx,
    session,
    turnEnd,
    settleWith,
    endRun,
    async reply(settleOptions = {}) {
      const result = await settleWith(settleOptions);
      const queued = (settleOptions.pendingMessages?.length ?? 0) > 0;
      if (result?.continue !== true && settleOptions.continue !== true && !queued) await endRun();
      return result;
    },
    async toolsAfterCalls(eventOptions = {}) {
      // The tool turn whose assistant message and results a test appended itself.
      const messages = session.getBranch().map((entry) => (entry as { message?: Message }).message);
      const from = messages.findLastIndex((message) => message?.role === "assistant");
      const results = messages.filter((message, index): message is Message => index > from && message?.role === "toolResult");
      const event = toolTurn(results, eventOptions);
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
    start(reason = "startup") {
      return pi.fireSessionStart({ type: "session_start", reason }, ctx);
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
    records(customType) {
      return session
        .getBranch()
        .filter((entry) => entry.type === "custom" && entry.customType === customType)
        .map((entry) => entry.data);
    },
    reload(reloadOptions = {}) {
      return harness({ hasUI: options.hasUI, mode: options.mode, activeTools: options.activeTools, ...reloadOptions, session });
    },
  };
  return h;
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

/** A field of a record, or undefined for anything else. */
function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

function roundOf(result: TurnEndResultLike | undefined): unknown {
  return fieldOf(details(result), "round");
}

/** The full details of a marker with two tasks open of two under u1, no cap. */
/** The fingerprint of the harness's plain reply ("Stopping here.", no tool call). */
const PLAIN_FP = foldFingerprint("", textPart(["Stopping here."]));
/** The fingerprint of the first reply after `planned()`: the todo result (its call is not on the branch), then the plain text. */
const FIRST_FP = foldFingerprint(foldFingerprint("", callPart("todo", "?", false)), textPart(["Stopping here."]));

function markerDetails(overrides: {
  round: number;
  hint?: boolean;
  idle?: number;
  stale?: number;
  anchor?: string;
  open?: number;
  total?: number;
  cap?: number | null;
  stuck?: number;
  fp?: string;
  repeats?: number;
}) {
  return {
    v: 1,
    round: overrides.round,
    anchor: overrides.anchor ?? "u1",
    open: overrides.open ?? 2,
    total: overrides.total ?? 2,
    cap: overrides.cap ?? null,
    hint: overrides.hint ?? false,
    idle: overrides.idle ?? 1,
    stale: overrides.stale ?? 0,
    stuck: overrides.stuck ?? 0,
    fp: overrides.fp ?? PLAIN_FP,
    repeats: overrides.repeats ?? 1,
  };
}

function stop(kind: string, reason: string, overrides: { round?: number; open?: number; anchor?: string; limit?: string } = {}) {
  const { limit, ...rest } = overrides;
  return { v: 1, kind, reason, round: rest.round ?? 0, open: rest.open ?? 2, anchor: rest.anchor ?? "u1", ...(limit ? { limit } : {}) };
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
/** A tool turn that did some work without changing the list (ends the run of replies without work). */
const bashResult = () => toolResult("bash", { exitCode: 0 });

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
        display: true,
        details: markerDetails({ round: 1, fp: FIRST_FP }),
      },
    ],
    continue: true,
  });
});

test("turn_end: with transcript false in the config the marker has display: false, whatever the mode", async (t) => {
  writeConfig(t, { transcript: false });
  for (const mode of ["tui", "rpc", "json", "print"] as const) {
    const h = harness({ mode, hasUI: mode === "tui" || mode === "rpc" });
    assert.equal(markerOf(await h.settleWith()).display, false, mode);
  }
});

test("turn_end: the marker details carry v, round, anchor, open, total, cap, hint, idle and stale", async (t) => {
  writeConfig(t, { maxRounds: 12 });
  const h = harness({ branch: planned([task({ id: 1 }), task({ id: 2 }), task({ id: 3, status: "completed" })]) });
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 1, open: 2, total: 3, cap: 12, fp: FIRST_FP }));
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 2, open: 2, total: 3, cap: 12, hint: true, idle: 2, stale: 1, stuck: 1 }));
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
  todoLoop(pi, ioOf(pi));
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
  assert.deepEqual(details(second), markerDetails({ round: 2, hint: true, idle: 2, stale: 1, stuck: 1 }));
  assert.equal(markerOf(second).content, nudgeText("todo", true));
});

test("turn_end: with maxIdleReplies off, the third settle without progress continues with round 3 and no hint", async (t) => {
  writeConfig(t, { maxIdleReplies: null, maxStuckReplies: null, maxRepeats: null });
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 3, idle: 3, stale: 2, stuck: 2, repeats: 2 }));
});

test("turn_end: the third reply in a row without a tool call stops the loop (maxIdleReplies 3), recorded as idle when the run ends", async () => {
  const h = harness();
  assert.equal((await h.reply())?.continue, true);
  assert.equal((await h.reply())?.continue, true);
  h.takeNotes();
  assert.equal(await h.reply(), undefined);
  const reason = "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you";
  assert.deepEqual(h.records("todo-loop:stop"), [stop("idle", reason, { round: 2 })]);
  assert.deepEqual(h.takeNotes(), [{ message: `todo loop ${reason}`, type: "warning" }]);
});

test("turn_end: a tool turn between replies starts the count of replies without work again", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  await h.toolsWith([bashResult()]);
  const afterBash = foldFingerprint(foldFingerprint("", callPart("bash", "?", false)), textPart(["Stopping here."]));
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 3, idle: 1, stale: 2, fp: afterBash }));
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
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 1, anchor: "u2" }));
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
  assert.equal(roundOf(after), 1, "no round was spent");
});

// ---- stops: decided at turn_end, recorded and announced at agent_settled ------------------------------

test("stop: a cleared list is recorded once as todo-loop:stop and notified once (info) at agent_settled, never at turn_end", async () => {
  const h = harness();
  await h.settleWith();
  await h.toolsWith([completedBoth()]);
  h.takeNotes();
  assert.equal(await h.settleWith(), undefined, "turn_end returns nothing: no stop entry among its drafts");
  assert.deepEqual(h.takeNotes(), [], "nothing announced at turn_end");
  assert.deepEqual(h.records("todo-loop:stop"), [], "nothing recorded at turn_end");
  await h.endRun();
  assert.deepEqual(h.pi.appended, [{ customType: "todo-loop:stop", data: stop("clear", "stopped: list is clear", { round: 1, open: 0 }) }]);
  assert.deepEqual(h.records("todo-loop:stop"), [stop("clear", "stopped: list is clear", { round: 1, open: 0 })], "appended to the session as a custom entry");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop stopped: list is clear", type: "info" }]);
  assert.equal(await h.reply(), undefined);
  assert.equal(h.records("todo-loop:stop").length, 1, "the same stop is not recorded twice");
  assert.deepEqual(h.takeNotes(), [], "nor announced twice");
});

test("stop: every kind of stop waits for agent_settled: error, limit, idle, no list, out of reach", async (t) => {
  writeConfig(t, { maxRounds: 1 });
  const cases: Array<{ name: string; setup: (h: Harness) => Promise<void>; options?: SettleOptions; activeTools?: string[]; branch?: Entry[] }> = [
    { name: "error", setup: async () => {}, options: { outcome: "error" } },
    { name: "limit", setup: async (h) => void (await h.settleWith()) },
    { name: "no list", setup: async () => {}, branch: chain(user("x", { id: "u1" }), todoResult({ tasks: [task({ id: 1 })] }), assistant(), todoResult({ tasks: [], action: "clear" })) },
    { name: "out of reach", setup: async () => {}, activeTools: ["read"] },
  ];
  for (const row of cases) {
    const h = harness({ branch: row.branch, activeTools: row.activeTools });
    await row.setup(h);
    h.takeNotes();
    const result = await h.settleWith(row.options);
    assert.notEqual(result?.continue, true, row.name);
    assert.deepEqual(h.takeNotes(), [], `${row.name}: not announced at turn_end`);
    assert.deepEqual(h.records("todo-loop:stop"), [], `${row.name}: not recorded at turn_end`);
    await h.endRun();
    assert.equal(h.records("todo-loop:stop").length, 1, `${row.name}: recorded at agent_settled`);
    assert.equal(h.takeNotes().length, 1, `${row.name}: announced at agent_settled`);
  }
});

test("turn_end: a stop recorded on the branch is not recorded again after a reload", async () => {
  const first = harness();
  await first.reply();
  await first.toolsWith([completedBoth()]);
  await first.reply();
  assert.equal(first.records("todo-loop:stop").length, 1);
  const reloaded = first.reload();
  assert.equal(await reloaded.reply(), undefined);
  assert.equal(reloaded.records("todo-loop:stop").length, 1);
  assert.deepEqual(reloaded.takeNotes(), []);
});

test("stop: an error settle with open tasks records 'stopped: turn outcome was error' and warns when the run ends", async () => {
  const h = harness();
  const result = await h.settleWith({ outcome: "error" });
  assert.equal(result, undefined);
  assert.deepEqual(h.takeNotes(), []);
  await h.endRun();
  assert.deepEqual(h.records("todo-loop:stop"), [stop("outcome", "stopped: turn outcome was error")]);
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop stopped: turn outcome was error", type: "warning" }]);
});

test("stop: a turn_end(error) that pi retries, then a continuing turn_end and agent_settled, records and announces nothing", async () => {
  const h = harness();
  assert.equal(await h.settleWith({ outcome: "error" }), undefined);
  assert.equal((await h.settleWith())?.continue, true, "the retry's settle continues");
  await h.endRun();
  assert.deepEqual(h.records("todo-loop:stop"), []);
  assert.deepEqual(h.pi.appended, []);
  assert.deepEqual(h.takeNotes(), []);
});

test("stop: a retried error that fails for good is recorded once when pi settles, with the round it reached", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith({ outcome: "error" });
  await h.settleWith({ outcome: "error" });
  await h.endRun();
  await h.endRun();
  assert.deepEqual(h.records("todo-loop:stop"), [stop("outcome", "stopped: turn outcome was error", { round: 1 })]);
  assert.equal(h.takeNotes().length, 1);
});

test("stop: a run carried on by a queued message or another extension announces nothing", async () => {
  for (const options of [{ pendingMessages: [{ role: "user", content: "more" }] }, { continue: true }]) {
    const h = harness();
    await h.settleWith({ outcome: "error" });
    await h.settleWith(options);
    await h.endRun();
    assert.deepEqual(h.records("todo-loop:stop"), [], JSON.stringify(options));
    assert.deepEqual(h.takeNotes(), []);
  }
});

test("stop: in the TUI with the transcript on (default) the stop is recorded but not notified; with it off it is notified", async (t) => {
  const shown = harness({ mode: "tui" });
  await shown.toolsWith([completedBoth()]);
  await shown.reply();
  assert.deepEqual(shown.records("todo-loop:stop"), [stop("clear", "stopped: list is clear", { open: 0 })]);
  assert.deepEqual(shown.takeNotes(), [], "the transcript line is the announcement");
  writeConfig(t, { transcript: false });
  const hidden = harness({ mode: "tui" });
  await hidden.toolsWith([completedBoth()]);
  await hidden.reply();
  assert.equal(hidden.records("todo-loop:stop").length, 1);
  assert.deepEqual(hidden.takeNotes(), [{ message: "todo loop stopped: list is clear", type: "info" }]);
});

test("stop: outside the TUI (rpc, json, print) a stop is both recorded and notified", async () => {
  for (const mode of ["rpc", "json", "print"] as const) {
    const h = harness({ mode });
    await h.reply({ outcome: "error" });
    assert.equal(h.records("todo-loop:stop").length, 1, mode);
    assert.equal(h.takeNotes().length, 1, mode);
  }
});

test("stop: agent_settled with no pending stop (a continued run, a tool turn) records nothing", async () => {
  const h = harness();
  await h.endRun();
  await h.settleWith();
  await h.endRun();
  await h.toolsWith([bashResult()]);
  await h.endRun();
  assert.deepEqual(h.pi.appended, []);
  assert.deepEqual(h.takeNotes(), []);
});

test("turn_end: plain chat with no list records and announces nothing", async () => {
  const h = harness({ branch: chain(user("hi", { id: "u1" })) });
  assert.equal(await h.reply(), undefined);
  assert.deepEqual(h.pi.appended, []);
  assert.deepEqual(h.takeNotes(), []);
});

test("stop: chat after a list finished under an earlier message records and announces nothing", async () => {
  const h = harness();
  await h.toolsWith([completedBoth()]);
  await h.reply();
  assert.equal(h.records("todo-loop:stop").length, 1);
  h.session.append(user("thanks, what next?", { id: "u2" }));
  h.takeNotes();
  assert.equal(await h.reply(), undefined);
  assert.equal(h.records("todo-loop:stop").length, 1);
  assert.deepEqual(h.takeNotes(), []);
});

test("turn_end: a todo-only tool turn that deleted the last open task warns that it was deleted rather than completed; the stop is its own event", async () => {
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
  assert.equal(await h.reply(), undefined);
  assert.equal(h.records("todo-loop:stop").length, 1, "the stop is recorded");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop stopped: list is clear", type: "info" }], "and announced as the stop it is");
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

// ---- questions and reach ----------------------------------------------------------------------------

test("question: a settle whose reply ends with a question does not continue; the loop waits with the question", async () => {
  const h = harness();
  const result = await h.settleWith({ text: "I finished the schema.\n\nShould I use Postgres or SQLite?" });
  assert.equal(result, undefined);
  const lines = await statusLines(h);
  assert.equal(lines[0], "todo loop: waiting");
  assert.ok(lines.includes('waiting for you: the agent asked: "Should I use Postgres or SQLite?"'));
  assert.equal(h.footer(), "todo 2 of 2 open · todo loop: waiting for you");
  await h.endRun();
  assert.deepEqual(h.records("todo-loop:stop"), [stop("question", 'waiting for you: the agent asked: "Should I use Postgres or SQLite?"')]);
  assert.deepEqual(h.takeNotes(), [{ message: 'todo loop waiting for you: the agent asked: "Should I use Postgres or SQLite?"', type: "warning" }]);
  assert.equal(await h.reply(), undefined, "still waiting at the next settle");
  assert.equal(h.records("todo-loop:stop").length, 1, "announced once");
});

test("question: the wait is rebuilt from the question stop record after a reload, and the next human message ends it", async () => {
  const h = harness();
  await h.reply({ text: "Which region?" });
  const reloaded = h.reload();
  assert.equal(await reloaded.settleWith(), undefined);
  assert.ok((await statusLines(reloaded)).includes('waiting for you: the agent asked: "Which region?"'));
  reloaded.session.append(user("eu-west-1", { id: "u2" }));
  assert.equal((await reloaded.settleWith())?.continue, true);
});

// src bug (reported, not fixed here): a second question under the same message after /todoloop resume is
// never recorded (the "question" stop was already recorded since the last continuation: loop.ts settle()
// skips keys in `announced`, and neither applyCommand's resume nor state.ts onControl clears it), so the
// wait cannot be rebuilt and a reload lets the loop push past the unanswered question.
test("question: a second question after /todoloop resume still holds the loop after a reload", async () => {
  const h = harness();
  await h.reply({ text: "Which region?" });
  await h.command("resume");
  assert.equal(await h.reply({ text: "Which database should I use?" }), undefined, "the second question waits in this process");
  const reloaded = h.reload();
  assert.equal(await reloaded.settleWith(), undefined, "and after a reload");
});

test("question: a question inside a code block, or followed by more text, is no question", async () => {
  for (const text of ["Next I run:\n```\nready?\n```\n", "Is it done? Not yet, going on.", "Done?\nGoing on with the tests."]) {
    const h = harness();
    assert.equal((await h.settleWith({ text }))?.continue, true, text);
  }
});

test("question: with stopOnQuestion false a question gets the normal nudge", async (t) => {
  writeConfig(t, { stopOnQuestion: false });
  const h = harness();
  assert.equal((await h.settleWith({ text: "Shall I go on?" }))?.continue, true);
});

test("reach: with the todo tool not active (getActiveTools without todo) there is no continuation and status says it is out of reach", async () => {
  const h = harness({ activeTools: ["read", "bash"] });
  assert.equal(await h.settleWith(), undefined);
  const reason = "stopped: the todo tool todo is not active, so the list cannot change, 2 tasks still open";
  assert.ok((await statusLines(h)).includes(`last: ${reason}`));
  await h.endRun();
  assert.deepEqual(h.records("todo-loop:stop"), [stop("out-of-reach", reason)]);
});

test("reach: a todo tool reachable through an active codemode (exposure codemode) is in reach; a direct one is not", async () => {
  for (const [exposure, continues] of [["codemode", true], ["deferred", true], ["direct", false]] as const) {
    const h = harness({ activeTools: ["codemode", "read"] });
    h.pi.allTools = [{ name: "codemode", exposure: "direct" }, { name: "read", exposure: "direct" }, { name: "todo", exposure }];
    assert.equal((await h.settleWith())?.continue === true, continues, exposure);
  }
});

test("reach: the tool read per turn: activating the todo tool again lets the loop go on", async () => {
  const h = harness({ activeTools: ["read"] });
  assert.equal(await h.settleWith(), undefined);
  h.pi.activeTools = ["read", "todo"];
  assert.equal((await h.settleWith())?.continue, true);
});

// ---- turn_end: limits and counters from the branch ------------------------------------------------

test("turn_end: limits come from the config file, re-read on every decision", async (t) => {
  writeConfig(t, { maxRounds: 1 });
  const h = harness();
  assert.equal((await h.settleWith())?.continue, true);
  h.takeNotes();
  const stopped = await h.reply();
  assert.equal(stopped, undefined);
  const reason = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
  assert.deepEqual(h.records("todo-loop:stop"), [stop("limit", reason, { round: 1, limit: "maxRounds" })]);
  assert.deepEqual(h.takeNotes(), [{ message: `todo loop ${reason}`, type: "warning" }]);
  writeConfig(t, { maxRounds: 5, maxIdleReplies: null });
  assert.equal(roundOf(await h.settleWith()), 2);
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
  assert.equal(roundOf(await h.settleWith()), 3);
  assert.equal(await h.settleWith(), undefined);
});

test("turn_end: after a reload the replies in a row without work come from the marker details, so the idle brake is not re-armed", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  const reloaded = h.reload();
  assert.equal(await reloaded.reply(), undefined, "the third reply in a row without work stops");
  assert.equal(fieldOf(reloaded.records("todo-loop:stop")[0], "kind"), "idle");
});

test("turn_end: after /tree navigation the rounds spent on the abandoned branch no longer count", async (t) => {
  writeConfig(t, { maxRounds: 2 });
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  assert.equal(await h.settleWith(), undefined, "the limit is reached on this branch");
  h.session.moveTo("t1");
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 1, cap: 2, fp: FIRST_FP }));
});

test("turn_end: spend since the anchor counts toward maxTokens", async (t) => {
  writeConfig(t, { maxTokens: 1150 });
  const h = harness();
  assert.equal((await h.settleWith())?.continue, true, "1,100 tokens so far");
  assert.equal(await h.settleWith(), undefined, "1,200 tokens reach the limit");
});

test("turn_end: maxMinutes counts from the anchor's timestamp to the settle's reply", async (t) => {
  writeConfig(t, { maxMinutes: 30 });
  const h = harness();
  assert.equal((await h.settleWith({ timestamp: "2026-11-30T00:29:00.000Z" }))?.continue, true, "29 minutes");
  await h.reply({ timestamp: "2026-11-30T00:31:00.000Z" });
  const [record] = h.records("todo-loop:stop");
  assert.deepEqual(record, stop("limit", "stopped: time limit reached (31 of 30 minutes since your message), 2 tasks still open, no todo change for 1 reply; the agent may need you", { round: 1, limit: "maxMinutes" }));
});

test("turn_end: a delegated child session runs its own loop", async () => {
  const parent = harness({ sessionId: "parent" });
  await parent.settleWith();
  await parent.settleWith();
  const child = harness({ pi: parent.pi, sessionId: "child" });
  assert.equal(roundOf(await child.settleWith()), 1);
  parent.pi.session = parent.session;
  await parent.toolsWith([bashResult()]);
  assert.equal(roundOf(await parent.settleWith()), 3);
});

// ---- kill switch and malformed input ------------------------------------------------------------------

for (const [where, path] of [
  ["the agent dir", GLOBAL_OFF],
  ["<cwd>/.pi", PROJECT_OFF],
] as const) {
  test(`turn_end: kill switch in ${where} → undefined, no notify, no state change`, async (t) => {
    const h = harness();
    switchOff(t, path);
    assert.equal(await h.reply(), undefined);
    assert.equal(await h.reply({ outcome: "error" }), undefined);
    assert.deepEqual(h.takeNotes(), []);
    assert.deepEqual(h.ctx.ui.statuses, []);
    assert.deepEqual(h.pi.appended, []);
    rmSync(path);
    assert.equal(roundOf(await h.settleWith()), 1, "removing the file takes effect at once, with nothing spent");
  });
}

test("kill switch: a stop decided before the switch was created is not announced while it is on", async (t) => {
  const h = harness();
  await h.settleWith({ outcome: "error" });
  switchOff(t, GLOBAL_OFF);
  await h.endRun();
  assert.deepEqual(h.pi.appended, []);
  assert.deepEqual(h.takeNotes(), []);
});

test("turn_end: kill switch turns an existing footer into 'todo loop off'", async (t) => {
  const h = harness();
  await h.settleWith();
  switchOff(t, GLOBAL_OFF);
  await h.settleWith();
  assert.equal(h.footer(), "todo loop off");
});

test("kill switch: at session start with tasks open the footer says 'todo loop off' and nothing else happens", async (t) => {
  const h = harness();
  switchOff(t, PROJECT_OFF);
  await h.start();
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: "todo loop off" }]);
  assert.deepEqual(h.takeNotes(), []);
  assert.deepEqual(h.pi.appended, []);
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
    await h.endRun();
    assert.ok(!h.takeNotes().some((note) => note.type === "error"), `no failure report for ${JSON.stringify(event)}`);
  }
});

test("malformed: a reply message that cannot be read is no question: the settle goes on as usual", async () => {
  for (const message of [null, 7, { content: 7 }, { content: [null, 5, { type: "text", text: 5 }, { type: "thinking", thinking: "Go on?" }] }]) {
    const h = harness();
    h.session.append(assistant());
    const result = await h.turnEnd({ ...settle(), message });
    assert.equal(result?.continue, true, JSON.stringify(message));
    assert.ok(!h.takeNotes().some((note) => note.type === "error"));
  }
});

test("malformed: agent_settled and session_start events, junk entries and a junk config never throw", async (t) => {
  writeConfig(t, '{"maxRounds": "x", "maxIdleReplies": [], "transcript": 3, "stopOnQuestion": null}');
  const junkBranch = chain(
    user("x", { id: "u1" }),
    { type: "custom", customType: "todo-loop:control", data: { v: 1, action: 5 } },
    { type: "custom", customType: "todo-loop:control", data: "pause" },
    { type: "custom", customType: "todo-loop:stop", data: { v: 1, kind: "nonsense", reason: 7 } },
    { type: "custom", customType: "todo-loop:stop", data: { kind: "question" } },
    { type: "custom_message", customType: "todo-loop:continue", content: 5, display: "x", details: { round: -1, idle: "x", stale: null } },
    toolResult("todo_loop_block", { waiting: true, reason: 9 }),
    toolResult("codemode", { x: 1 }),
    { type: "message", message: { role: "toolResult", toolName: "codemode", nestedCalls: { calls: "x", complete: "no" } } },
    { type: "message", timestamp: "yesterday", message: { role: "assistant", content: null, usage: "lots" } },
    todoResult({ tasks: TASKS }),
  );
  const h = harness({ branch: junkBranch });
  for (const event of [{}, { type: "agent_settled" as const }, { aborted: "yes" }, { aborted: null }]) await h.pi.fireAgentSettled(event, h.ctx);
  for (const event of [{}, { type: "session_start" as const }, { reason: 42 }, { reason: { nested: true } }]) await h.pi.fireSessionStart(event, h.ctx);
  await h.reply();
  await h.reply({ outcome: "aborted" });
  for (const args of ["continue", "pause", "resume", "reset", "status", "\u0000", "x".repeat(10_000)]) await h.command(args);
  assert.ok(!h.takeNotes().some((note) => / failed \(/.test(note.message)), "no handler hit an internal error");
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
  await h.pi.fireSessionStart({ type: "session_start", reason: "startup" }, broken);
  assert.equal(h.takeNotes()[0]?.type, "error", "session_start reports it too, without throwing");
});

test("turn_end: a UI whose notify throws does not break the turn", async () => {
  const h = harness();
  await h.settleWith();
  await h.toolsWith([completedBoth()]);
  const ctx: ContextLike = {
    ...h.ctx,
    ui: {
      notify() {
        throw new Error("no UI");
      },
      setStatus() {},
    },
  };
  h.session.append(assistant());
  assert.equal(await h.turnEnd(settle(), ctx), undefined);
  await h.endRun(ctx);
  assert.equal(h.records("todo-loop:stop").length, 1, "the stop is still recorded");
});

// ---- footer -------------------------------------------------------------------------------------------

test("footer: 'todo X of Y open · continue N' while tasks are open, cleared when the list is clear", async () => {
  const h = harness();
  await h.settleWith();
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: "todo 2 of 2 open · continue 1" }]);
  await h.settleWith();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 2");
  await h.toolsWith([completedBoth()]);
  assert.equal(h.footer(), undefined);
  const count = h.ctx.ui.statuses.length;
  await h.settleWith();
  assert.equal(h.ctx.ui.statuses.length, count, "an unchanged footer is not set again");
});

test("footer: never a bare X/Y: tasks are 'X of Y open', only the continuation count has a cap after a slash", async (t) => {
  writeConfig(t, { maxRounds: 12 });
  const h = harness();
  await h.start();
  await h.settleWith();
  await h.toolsWith([todoResult({ tasks: [task({ id: 1, status: "completed" }), task({ id: 2 })], action: "update" })]);
  assert.ok(h.ctx.ui.statuses.length >= 2);
  for (const status of h.ctx.ui.statuses) {
    const text = status.text ?? "";
    assert.match(text, /^todo \d+ of \d+ open · continue \d+\/12$/);
    assert.doesNotMatch(text.replace(/continue \d+\/\d+/, ""), /\d\s*\/\s*\d/);
  }
});

test("footer: shows the round cap when maxRounds is set", async (t) => {
  writeConfig(t, { maxRounds: 12 });
  const h = harness();
  await h.settleWith();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 1/12");
});

test("footer: session_start shows it when tasks are open ('todo 2 of 3 open · continue 0'), before any turn", async () => {
  const h = harness({ branch: planned([task({ id: 1 }), task({ id: 2 }), task({ id: 3, status: "completed" })]) });
  await h.start("startup");
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: "todo 2 of 3 open · continue 0" }]);
});

test("footer: session_start clears the footer when no task is open or without a list (a client may keep an earlier session's), and sets nothing without a UI", async () => {
  const clear = harness({ branch: planned([task({ id: 1, status: "completed" })]) });
  await clear.start();
  const none = harness({ branch: chain(user("hi", { id: "u1" })) });
  await none.start();
  for (const h of [clear, none]) assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: undefined }]);
  const noUi = harness({ hasUI: false, mode: "print" });
  await noUi.start();
  assert.deepEqual(noUi.ctx.ui.statuses, []);
});

test("footer: after a reload session_start shows the rounds, a pause or a wait read from the branch", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  const reloaded = h.reload();
  await reloaded.start("reload");
  assert.equal(reloaded.footer(), "todo 2 of 2 open · continue 2");
  await reloaded.command("pause");
  const paused = reloaded.reload();
  await paused.start("resume");
  assert.equal(paused.footer(), "todo loop paused");
  await paused.command("resume");
  paused.session.append(assistant(), blockResult("need the password", "u1"));
  const waiting = paused.reload();
  await waiting.start("reload");
  assert.equal(waiting.footer(), "todo 2 of 2 open · todo loop: waiting for you");
});

test("footer: never set without a UI (print and JSON modes)", async () => {
  const h = harness({ hasUI: false, mode: "json" });
  await h.settleWith();
  await h.command("pause");
  await h.block({ reason: "x" });
  await h.start();
  assert.deepEqual(h.ctx.ui.statuses, []);
});

// ---- todo_loop_block ------------------------------------------------------------------------------

test("todo_loop_block: registered model-only, with a one-line snippet, guidelines naming it, and one required string reason", () => {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const tool = pi.tool("todo_loop_block");
  assert.equal(tool.name, "todo_loop_block");
  assert.equal(tool.exposure, "model-only");
  assert.ok(tool.promptSnippet && !tool.promptSnippet.includes("\n"));
  assert.ok(tool.promptGuidelines?.length);
  for (const line of tool.promptGuidelines ?? []) assert.match(line, /todo_loop_block/);
  assert.ok(
    tool.promptGuidelines?.some((line) => /do not stop to ask whether to go on/i.test(line)),
    "a guideline says not to stop to ask whether to go on",
  );
  assert.deepEqual(tool.parameters, {
    type: "object",
    properties: { reason: { type: "string", description: "What you need from the user, in one sentence." } },
    required: ["reason"],
    additionalProperties: false,
  });
  assert.equal(pi.tools.length, 1);
  assert.deepEqual(
    pi.getAllTools().find((info) => info.name === "todo_loop_block"),
    { name: "todo_loop_block", exposure: "model-only" },
  );
});

test("todo_loop_block: an empty or whitespace reason is an error result and the loop is not stopped", async () => {
  const h = harness();
  for (const params of [{ reason: "" }, { reason: "   \n\t " }, { reason: "\u200b\u202e" }, { reason: "\u00ad\u{e0041}\ufff9" }, {}, { reason: 5 }, null]) {
    await assert.rejects(h.block(params), /reason/, JSON.stringify(params));
  }
  assert.deepEqual(h.takeNotes(), []);
  assert.equal((await h.settleWith())?.continue, true);
});

test("todo_loop_block: in RPC a reason → waiting, one warning notify, status 'waiting for you: <reason>'; the stop at settle is recorded, not notified", async () => {
  const h = harness({ mode: "rpc" });
  const result = await h.block({ reason: "Which database should I migrate?" });
  assert.deepEqual(result.details, { v: 1, waiting: true, reason: "Which database should I migrate?", anchor: "u1" });
  assert.match(result.content[0]?.text ?? "", /will not continue until the user replies/);
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: the agent is waiting for you: Which database should I migrate?", type: "warning" }]);
  h.session.append(blockResult("Which database should I migrate?", "u1"));
  assert.equal(await h.toolsWith([]), undefined);
  const settled = await h.reply();
  assert.equal(settled, undefined);
  assert.deepEqual(h.records("todo-loop:stop"), [stop("waiting", "waiting for you: Which database should I migrate?")]);
  assert.deepEqual(h.takeNotes(), [], "the tool already told the human");
  const lines = await statusLines(h);
  assert.equal(lines[0], "todo loop: waiting");
  assert.ok(lines.includes("waiting for you: Which database should I migrate?"));
  assert.equal(h.footer(), "todo 2 of 2 open · todo loop: waiting for you");
});

test("todo_loop_block: in the TUI with the transcript on the tool does not notify (the stop line announces the wait); the stop is recorded", async () => {
  const h = harness({ mode: "tui" });
  await h.block({ reason: "Which region?" });
  assert.deepEqual(h.takeNotes(), []);
  h.session.append(blockResult("Which region?", "u1"));
  await h.reply();
  assert.deepEqual(h.records("todo-loop:stop"), [stop("waiting", "waiting for you: Which region?")]);
  assert.deepEqual(h.takeNotes(), []);
});

test("todo_loop_block: in the TUI with the transcript off the tool notifies once", async (t) => {
  writeConfig(t, { transcript: false });
  const h = harness({ mode: "tui" });
  await h.block({ reason: "Which region?" });
  assert.equal(h.takeNotes().length, 1);
  h.session.append(blockResult("Which region?", "u1"));
  await h.reply();
  assert.deepEqual(h.takeNotes(), []);
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
  const reason = String(fieldOf(result.details, "reason"));
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
  assert.equal(await h.settleWith(), undefined);
  assert.ok((await statusLines(h)).includes("waiting for you: need the staging password"));
});

test("todo_loop_block: the human's next message clears waiting", async () => {
  const h = harness();
  await h.block({ reason: "which region?" });
  h.session.append(blockResult("which region?", "u1"));
  assert.equal(await h.settleWith(), undefined);
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

test("todo_loop_block: /todoloop resume, reset and continue clear waiting, and a lifted wait stays lifted after a reload", async () => {
  for (const command of ["resume", "reset", "continue"]) {
    const h = harness();
    h.ctx.idle = false;
    await h.block({ reason: "which region?" });
    h.session.append(blockResult("which region?", "u1"));
    await h.command(command);
    assert.equal((await h.settleWith())?.continue, true, command);
    const again = harness();
    again.ctx.idle = false;
    again.session.append(assistant(), blockResult("which region?", "u1"));
    await again.command(command);
    assert.equal((await again.reload().settleWith())?.continue, true, `${command}: a lifted wait stays lifted after a reload`);
  }
});

// ---- /todoloop ------------------------------------------------------------------------------------

test("/todoloop status: mode, continuations, replies, replies without work, tasks and source, spend, anchor, last and config", async () => {
  const h = harness();
  await h.settleWith();
  const lines = await statusLines(h);
  // Minutes count to now (the wall clock): checked on their own below.
  assert.match(lines[7] ?? "", /^spend since your message: 1,100 tokens \(no limit\), \$0\.0110 \(no limit\), .+ \(no limit\)$/);
  assert.deepEqual(lines.filter((_, index) => index !== 7), [
    "todo loop: active",
    "continuations for this message: 1 (no limit)",
    "replies since the list last changed: 0",
    "replies in a row without work: 1 of 3",
    "replies without progress: 0 of 5",
    "the same reply in a row: 1 of 3",
    "tasks open: 2 of 2 (rpiv-todo)",
    `counting from: your message of ${clockOf(TIMESTAMP)} ("Do the work")`,
    "last: continuing: 2 tasks still open, continue 1",
    `config: none (defaults) — create ${CONFIG_FILE} to set limits`,
  ]);
  assert.deepEqual(await statusLines(h), lines, "/todoloop status changes nothing");
  assert.deepEqual(h.pi.appended, [], "and records nothing");
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
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: resumed: the loop goes on when the agent next stops; /todoloop continue starts it now", type: "info" }]);
  assert.equal((await h.settleWith())?.continue, true);
});

test("/todoloop pause, resume, reset and continue append todo-loop:control entries { v: 1, action, anchor }", async () => {
  const h = harness();
  for (const action of ["pause", "resume", "reset", "continue"]) await h.command(action);
  await h.command("status");
  await h.command("bogus");
  const controls = ["pause", "resume", "reset", "continue"].map((action) => ({ v: 1, action, anchor: "u1" }));
  assert.deepEqual(h.records("todo-loop:control"), controls);
  assert.deepEqual(
    h.pi.appended.map((entry) => entry.customType),
    ["todo-loop:control", "todo-loop:control", "todo-loop:control", "todo-loop:control"],
  );
});

test("/todoloop pause holds across a reload and a new human message; resume holds too", async () => {
  const h = harness();
  await h.command("pause");
  const reloaded = h.reload();
  assert.equal(await reloaded.settleWith(), undefined, "paused after the reload");
  assert.equal((await statusLines(reloaded))[0], "todo loop: PAUSED");
  reloaded.session.append(user("and the docs", { id: "u2" }));
  const restarted = reloaded.reload();
  assert.equal(await restarted.settleWith(), undefined, "paused under a new message after a restart");
  await restarted.command("resume");
  const resumed = restarted.reload();
  assert.equal((await resumed.settleWith())?.continue, true, "resumed after another reload");
});

test("/todoloop reset: 'counters reset' and the next continuation is round 1 again", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  h.takeNotes();
  await h.command("reset");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: counters reset", type: "info" }]);
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 1 }));
});

test("/todoloop reset holds across a reload: the counters are read back as reset", async (t) => {
  writeConfig(t, { maxRounds: 2 });
  const h = harness();
  await h.reply();
  await h.reply();
  assert.equal(await h.reply(), undefined, "the limit is reached");
  await h.command("reset");
  const reloaded = h.reload();
  assert.deepEqual(details(await reloaded.settleWith()), markerDetails({ round: 1, cap: 2 }), "the reset holds after a reload");
});

test("/todoloop continue with open tasks and an idle agent sends one marker with triggerTurn, counting as a round", async () => {
  const h = harness();
  await h.settleWith();
  h.takeNotes();
  await h.command("continue");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: continuing at your request", type: "info" }]);
  assert.deepEqual(h.pi.sent, [
    {
      message: { customType: "todo-loop:continue", content: nudgeText("todo", false), display: true, details: markerDetails({ round: 2, idle: 1, stale: 0, fp: FIRST_FP }) },
      options: { triggerTurn: true },
    },
  ]);
  const branch = h.session.getBranch();
  assert.equal(branch.at(-1)?.type, "custom_message", "the marker is appended to the session");
  assert.equal(branch.at(-2)?.customType, "todo-loop:control");
  assert.equal(roundOf(await h.settleWith()), 3, "the run it started goes on counting");
});

test("/todoloop continue lifts a pause and a limit stop gives exactly one more run", async (t) => {
  writeConfig(t, { maxRounds: 1 });
  const h = harness();
  await h.reply();
  await h.reply();
  assert.equal(h.records("todo-loop:stop").length, 1, "the limit stop");
  await h.command("pause");
  await h.command("continue");
  assert.equal(h.pi.sent.length, 1, "no limit refuses it");
  assert.equal(fieldOf(h.pi.sent[0]?.message.details, "round"), 2);
  assert.equal(await h.reply(), undefined, "the settle after it meets the limit again");
  assert.equal(h.records("todo-loop:stop").length, 2, "and that stop is a new one");
});

test("/todoloop continue with nothing open, or with a kill switch, refuses, records nothing, and a pause stays", async (t) => {
  const clear = harness({ branch: planned([task({ id: 1, status: "completed" })]) });
  await clear.command("pause");
  clear.takeNotes();
  await clear.command("continue");
  assert.deepEqual(clear.takeNotes(), [{ message: "todo loop: not continuing: no task is open", type: "warning" }]);
  assert.deepEqual(clear.records("todo-loop:control"), [{ v: 1, action: "pause", anchor: "u1" }]);
  assert.deepEqual(clear.pi.sent, []);
  assert.equal((await statusLines(clear))[0], "todo loop: PAUSED");

  const off = harness();
  switchOff(t, PROJECT_OFF);
  await off.command("continue");
  assert.deepEqual(off.takeNotes(), [{ message: "todo loop: not continuing: the kill switch is on", type: "warning" }]);
  assert.deepEqual(off.pi.appended, []);
  assert.deepEqual(off.pi.sent, []);
});

test("/todoloop continue while the agent is busy only lifts the pause and the wait: no marker", async () => {
  const h = harness();
  h.ctx.idle = false;
  await h.command("pause");
  await h.block({ reason: "x" });
  h.takeNotes();
  await h.command("continue");
  assert.deepEqual(h.pi.sent, []);
  assert.equal(h.takeNotes().length, 1);
  assert.deepEqual(h.records("todo-loop:control").at(-1), { v: 1, action: "continue", anchor: "u1" });
  assert.equal((await statusLines(h))[0], "todo loop: active");
  assert.equal(roundOf(await h.settleWith()), 1, "the next settle continues as usual");
});

test("/todoloop with an unknown sub-command: an error notify with the usage line, nothing changed", async () => {
  const h = harness();
  await h.command("stop");
  assert.deepEqual(h.takeNotes(), [{ message: 'todo loop: unknown sub-command "stop". Usage: /todoloop [status|pause|resume|reset|continue|verify [approve|forget]]', type: "error" }]);
  assert.deepEqual(h.pi.appended, []);
  assert.equal((await h.settleWith())?.continue, true);
});

test("/todoloop offers argument completions for the five words, each with a description", () => {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const complete = pi.command("todoloop").getArgumentCompletions;
  assert.ok(complete);
  const values = (prefix: string) => complete(prefix)?.map((item) => item.value) ?? null;
  assert.deepEqual(values(""), ["status", "pause", "resume", "reset", "continue", "verify", "verify approve", "verify forget"]);
  assert.deepEqual(values("verify "), ["verify approve", "verify forget"], "a space after verify asks for what follows it");
  assert.equal(values("verify"), null, "verify typed in full runs on one Enter");
  assert.deepEqual(values("veri"), ["verify", "verify approve", "verify forget"]);
  assert.deepEqual(values("verify a"), ["verify approve"]);
  assert.deepEqual(values("re"), ["resume", "reset"]);
  assert.deepEqual(values("P"), ["pause"]);
  assert.deepEqual(values("c"), ["continue"]);
  assert.equal(values("x"), null);
  for (const item of complete("") ?? []) {
    assert.equal(item.label, item.value);
    assert.ok(typeof item.description === "string" && item.description.trim().length > 0, item.value);
  }
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
  assert.ok((await statusLines(h)).includes(`counting from: your message of ${clockOf(TIMESTAMP)} ("second")`));
  h.session.moveTo("t1");
  assert.ok((await statusLines(h)).includes(`counting from: your message of ${clockOf(TIMESTAMP)} ("Do the work")`));
});

test("nothing is ever written to the working tree; the session only gains markers, stop records and control records", async () => {
  const before = readdirSync(cwd, { recursive: true, encoding: "utf8" }).sort();
  const h = harness();
  const start = h.session.getBranch().length;
  await h.reply();
  await h.reply({ pendingMessages: [{ role: "user", content: "x" }] });
  await h.block({ reason: "which region?" });
  await h.command("status");
  await h.command("pause");
  await h.command("resume");
  await h.start("reload");
  await h.toolsWith([completedBoth()]);
  await h.reply();
  assert.deepEqual(readdirSync(cwd, { recursive: true, encoding: "utf8" }).sort(), before);
  const added = h.session
    .getBranch()
    .slice(start)
    .filter((entry) => !(entry.type === "message"))
    .map((entry) => `${entry.type}:${String(entry.customType)}`);
  assert.deepEqual(added, ["custom_message:todo-loop:continue", "custom:todo-loop:control", "custom:todo-loop:control", "custom:todo-loop:stop"]);
});

/** A timestamp as `/todoloop` shows it: the local hour and minute. */
function clockOf(timestamp: string): string {
  const date = new Date(timestamp);
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

// ---- 0.3: the first ten minutes ------------------------------------------------------------------------

test("/todoloop completion: a word typed in full offers no completion, so one Enter runs it", () => {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const complete = pi.command("todoloop").getArgumentCompletions;
  assert.ok(complete);
  for (const word of ["status", "pause", "resume", "reset", "continue", "PAUSE", "pause ", " continue"]) assert.equal(complete(word), null, word);
  assert.deepEqual(complete("paus")?.map((item) => item.value), ["pause"], "a word typed in part still completes");
  assert.deepEqual(complete("re")?.map((item) => item.value), ["resume", "reset"]);
});

test("footer after an idle stop: once the run ends it names the stop, not the running count", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 2");
  await h.reply();
  assert.equal(h.footer(), "todo 2 of 2 open · stopped: no progress");
  assert.deepEqual(h.records("todo-loop:stop").map((data) => fieldOf(data, "kind")), ["idle"]);
});

test("footer after a limit stop names it; /todoloop continue past the cap never reads continue 2/1", async (t) => {
  writeConfig(t, { maxRounds: 1 });
  const h = harness();
  await h.reply();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 1/1");
  await h.reply();
  assert.equal(h.footer(), "todo 2 of 2 open · stopped: limit");
  await h.command("continue");
  assert.equal(h.footer(), "todo 2 of 2 open · continue 2 (limit 1, at your request)");
});

test("footer while a stop is pending (pi may still retry) keeps the count; agent_settled then names the stop", async () => {
  const h = harness();
  await h.reply();
  await h.settleWith({ outcome: "error" });
  assert.equal(h.footer(), "todo 2 of 2 open · continue 1");
  await h.endRun();
  assert.equal(h.footer(), "todo 2 of 2 open · stopped: error");
});

test("footer after a reload names the stop recorded since the last continuation (read from the branch)", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  await h.reply();
  const reloaded = h.reload();
  await reloaded.start("reload");
  assert.equal(reloaded.footer(), "todo 2 of 2 open · stopped: no progress");
});

test("footer: a new human message shows continue 0 at once (message_start), not the old message's count", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  await h.reply();
  assert.equal(h.footer(), "todo 2 of 2 open · stopped: no progress");
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "custom", customType: "todo-loop:continue" } }, h.ctx);
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "assistant" } }, h.ctx);
  assert.equal(h.footer(), "todo 2 of 2 open · stopped: no progress", "only a human message resets the footer");
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "user", content: "go on" } }, h.ctx);
  assert.equal(h.footer(), "todo 2 of 2 open · continue 0");
  await h.command("pause");
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "user", content: "next" } }, h.ctx);
  assert.equal(h.footer(), "todo loop paused", "the pause outlives a new message");
});

test("footer: message_start never sets a footer without a UI, and survives junk events", async () => {
  const h = harness({ hasUI: false, mode: "print" });
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "user" } }, h.ctx);
  const junk = harness();
  for (const event of [undefined, null, 1, {}, { message: null }, { message: "user" }] as unknown[]) {
    await junk.pi.fireMessageStart(event as never, junk.ctx);
  }
  assert.deepEqual(h.ctx.ui.statuses, []);
  assert.deepEqual(junk.takeNotes(), []);
});

test("/todoloop resume after a stop says what happens next; the busy agent is told apart", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  await h.reply();
  h.takeNotes();
  await h.command("resume");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: resumed: the loop goes on when the agent next stops; /todoloop continue starts it now", type: "info" }]);
  h.ctx.idle = false;
  await h.command("resume");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: resumed: the loop goes on when the agent next stops", type: "info" }]);
});

test("todo_loop_block: a reason ending in a full stop gives one full stop in the result (no '..')", async () => {
  const h = harness();
  const result = await h.block({ reason: "Which database should I migrate." });
  const text = result.content[0]?.text ?? "";
  assert.match(text, /Reason: Which database should I migrate\. End your reply now/);
  assert.doesNotMatch(text, /\.\./);
});

test("/todoloop status: config: none (defaults) without a file, the path with one; the anchor by time, never its id", async (t) => {
  const h = harness({ branch: chain(user("Do the work", { id: "ad74f7a6" }), assistant({ id: "a1" }), todoResult({ tasks: TASKS, id: "t1" })) });
  const before = await statusLines(h);
  assert.ok(before.includes(`config: none (defaults) — create ${CONFIG_FILE} to set limits`), before.join("\n"));
  assert.ok(before.every((line) => !line.includes("ad74f7a6")), before.join("\n"));
  writeConfig(t, { maxRounds: 5 });
  assert.ok((await statusLines(h)).includes(`config: ${CONFIG_FILE} (maxRounds 5)`));
});

test("no todo tool: at the first interactive start one info notify says the loop has nothing to read and how to install one", async () => {
  const pi = createFakePi({ activeTools: ["read", "bash"] });
  todoLoop(pi, ioOf(pi));
  const h = harness({ pi, mode: "tui", branch: chain(user("hi", { id: "u1" })) });
  await h.start("startup");
  const notes = h.takeNotes();
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.equal(notes[0]?.type, "info");
  assert.match(notes[0]?.message ?? "", /nothing to read/);
  assert.match(notes[0]?.message ?? "", /pi install npm:@juicesharp\/rpiv-todo/);
  for (const reason of ["reload", "new", "resume", "fork", "startup"]) await h.start(reason);
  assert.deepEqual(h.takeNotes(), [], "never again in this process: not on /reload, /new, a resume or a fork");
});

test("no todo tool: no notice with a known todo tool registered, nor in RPC, print or JSON mode", async () => {
  const withTool = harness({ mode: "tui" });
  await withTool.start("startup");
  assert.deepEqual(withTool.takeNotes(), []);
  for (const mode of ["rpc", "print", "json"] as const) {
    const pi = createFakePi({ activeTools: ["read", "bash"] });
    todoLoop(pi, ioOf(pi));
    const h = harness({ pi, mode, hasUI: mode === "rpc", branch: chain(user("hi", { id: "u1" })) });
    await h.start("startup");
    assert.deepEqual(h.takeNotes(), [], mode);
  }
});

test("no todo tool: a registered but inactive todo tool counts as installed (no notice)", async () => {
  const pi = createFakePi({ activeTools: ["read", "bash"] });
  pi.allTools = [...pi.allTools, { name: "todo", exposure: "direct" }];
  todoLoop(pi, ioOf(pi));
  const h = harness({ pi, mode: "tui", branch: chain(user("hi", { id: "u1" })) });
  await h.start("startup");
  assert.deepEqual(h.takeNotes(), []);
});

// ---- 0.3: the footer and the pause follow the session; a kept continue; minutes to now --------------

import { rereadNudgeText } from "../src/core/text.ts";
import { minutesSince } from "../src/host/command.ts";
import { control, nestedCallsResult, user as human } from "./builders.ts";

test("footer: session_tree (after /tree) recomputes the footer: a branch with no list clears it, a branch with the list shows it again", async () => {
  const h = harness({ branch: chain(human("hi", { id: "u0" }), assistant({ id: "a0" }), human("Do the work", { id: "u1" }), assistant({ id: "a1" }), todoResult({ tasks: TASKS, id: "t1" })) });
  await h.start();
  await h.settleWith();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 1");
  h.session.moveTo("a0");
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal(h.ctx.ui.statuses.at(-1)?.key, "todo-loop");
  assert.equal(h.footer(), undefined, "no list on that branch: cleared");
  h.session.moveTo("t1");
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal(h.footer(), "todo 2 of 2 open · continue 0", "back on the list, its own counters (the marker is on the other branch)");
});

test("footer: session_start sets or clears the footer even when this runtime's cache already says so (a client keeps an earlier session's footer after /new)", async () => {
  const h = harness({ branch: chain(human("hi", { id: "u1" })) });
  await h.start("new");
  await h.start("new");
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: undefined }, { key: "todo-loop", text: undefined }]);
});

test("pause: /tree back to before a pause keeps it paused (the newest pause/resume/continue anywhere in the session decides); the counters stay with the branch", async () => {
  const h = harness();
  await h.start();
  await h.settleWith();
  await h.command("pause");
  assert.equal(h.footer(), "todo loop paused");
  h.session.moveTo("t1");
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal(h.footer(), "todo loop paused");
  assert.ok((await statusLines(h)).includes("todo loop: PAUSED"));
  assert.ok((await statusLines(h)).includes("continuations for this message: 0 (no limit)"), "counters of this branch");
  assert.equal((await h.settleWith())?.continue, undefined, "no continuation while paused");
  await h.command("resume");
  h.session.moveTo("t1");
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal((await h.settleWith())?.continue, true, "resumed anywhere in the session: resumed here too");
});

test("pause: read from every entry of the session only at session start, on a tree change and on a command, never per turn", async () => {
  const h = harness();
  await h.start();
  assert.equal(h.session.entriesReads, 1);
  for (let index = 0; index < 5; index++) await h.reply();
  assert.equal(h.session.entriesReads, 1, "turns and settles read the kept value");
  await h.command("status");
  assert.equal(h.session.entriesReads, 2);
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal(h.session.entriesReads, 3);
});

test("pause: a fork copies only its branch, so it is paused only when the pause record is on that branch", async () => {
  const onBranch = harness({ branch: [...planned(), control("pause")] });
  await onBranch.start("fork");
  assert.equal(onBranch.footer(), "todo loop paused");
  const elsewhere = harness();
  await elsewhere.start("fork");
  assert.equal(elsewhere.footer(), "todo 2 of 2 open · continue 0");
});

test("/todoloop continue while a run winds down: kept, and honoured when pi settles with one marker through the same path as an idle continue; the stop that run ended with is recorded first", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  // The run's last turn ends with the idle stop; pi has not settled (another extension's agent_before_settle).
  assert.equal(await h.settleWith({ text: "Third stop." }), undefined, "the idle brake stops this run");
  assert.deepEqual(h.records("todo-loop:stop"), [], "the idle stop is pending until pi settles");
  h.ctx.idle = false;
  await h.command("continue");
  assert.deepEqual(h.takeNotes().at(-1), { message: "todo loop: the agent is busy: the loop continues as soon as its current run ends", type: "info" });
  assert.equal(h.pi.sent.length, 0, "nothing sent while busy");
  h.ctx.idle = true;
  await h.endRun();
  assert.deepEqual(h.records("todo-loop:stop").map((record) => fieldOf(record, "kind")), ["idle"], "the stop is not lost");
  assert.equal(h.pi.sent.length, 1, "one marker when pi settles");
  assert.deepEqual(h.pi.sent[0]?.options, { triggerTurn: true });
  assert.equal(fieldOf(h.pi.sent[0]?.message.details, "round"), 3);
  assert.deepEqual(h.records("todo-loop:control").map((record) => fieldOf(record, "action")), ["continue"], "recorded once");
  await h.endRun();
  assert.equal(h.pi.sent.length, 1, "never a second marker");
});

test("/todoloop continue on an out-of-date list starts one run whose nudge asks the agent to read the list with its todo tool", async () => {
  const h = harness({ branch: [...planned(), nestedCallsResult([{ name: "todo", status: "ok" }])] });
  await h.command("continue");
  assert.equal(h.pi.sent.length, 1);
  const message = h.pi.sent[0]?.message;
  assert.equal(message?.content, rereadNudgeText("todo"));
  assert.equal(fieldOf(message?.details, "reread"), true);
  for (const subject of TASKS.map((item) => item.subject)) assert.ok(!message?.content.includes(subject));
  assert.ok(!/\d/.test(message?.content ?? ""), "no counters");
});

test("/todoloop: minutes since your message count to now, not to the newest reply (the figure the time limit meets next)", async () => {
  const anchor = new Date(Date.now() - 90 * 60_000).toISOString();
  const reply = new Date(Date.now() - 89 * 60_000).toISOString();
  const h = harness({ branch: chain(human("Do the work", { id: "u1", timestamp: anchor }), { ...assistant({ id: "a1" }), timestamp: reply }, todoResult({ tasks: TASKS, id: "t1" })) });
  const line = (await statusLines(h)).find((text) => text.startsWith("spend since your message:")) ?? "";
  // 90 minutes since the message, 89 since the newest reply: the report says 1 h 30 min.
  assert.match(line, /, 1 h 30 min \(no limit\)$/, line);
  assert.equal(minutesSince(Date.parse(anchor), Date.parse(anchor) + 150_000), 2.5);
  assert.equal(minutesSince(undefined, Date.now()), undefined);
  assert.equal(minutesSince(2_000, 1_000), 0, "a clock behind the message counts as none");
});

// ---- §4.10 busy but stuck, through the wiring ---------------------------------------------------------

test("turn_end: replies that only re-read the list stop after maxStuckReplies (default 5), the calls matched to their results by toolCallId; announced once as stuck", async () => {
  const h = harness();
  const list = rpivDetails({ tasks: TASKS, action: "list" });
  const reread = async (index: number) => {
    h.session.append(assistantCalls([{ id: `c${index}`, name: "todo", args: { action: "list" } }]), callResult(`c${index}`, "todo", { details: list }));
    await h.toolsAfterCalls();
    return h.reply({ text: `Checked the list (${index}).` });
  };
  const first = await reread(0);
  assert.equal(first?.continue, true, "the first read under the message explores");
  const results = [];
  for (let index = 1; index <= 5; index++) results.push(await reread(index));
  assert.deepEqual(results.map((result) => result?.continue === true), [true, true, true, true, false]);
  assert.deepEqual(results.slice(0, 4).map((result) => fieldOf(details(result), "stuck")), [1, 2, 3, 4]);
  assert.equal(fieldOf(details(results[3]), "hint"), true, "the hint one reply before the stop");
  const reason = "stopped: 5 replies in a row without progress (no edits, commands, new reads or todo changes), 2 tasks still open; it may need you";
  assert.deepEqual(h.records("todo-loop:stop"), [stop("stuck", reason, { round: 5 })]);
  const lines = await statusLines(h);
  assert.ok(lines.includes("replies without progress: 5 of 5"), lines.join("\n"));
});

test("turn_end: the same reply three times in a row stops (maxRepeats default 3), announced once as repeat", async () => {
  const h = harness();
  const failing = async (index: number) => {
    h.session.append(assistantCalls([{ id: `c${index}`, name: "bash", args: { command: "npm test" } }]), callResult(`c${index}`, "bash", { isError: true }));
    await h.toolsAfterCalls();
    return h.reply({ text: "The tests still fail." });
  };
  // The first reply also holds the list's creation (planned()), so it differs from the next ones.
  const results = [await failing(0), await failing(1), await failing(2), await failing(3)];
  assert.deepEqual(results.map((result) => result?.continue === true), [true, true, true, false]);
  assert.deepEqual(results.slice(0, 3).map((result) => fieldOf(details(result), "repeats")), [1, 1, 2]);
  assert.deepEqual(results.slice(0, 3).map((result) => fieldOf(details(result), "stuck")), [0, 0, 0], "a failing command is progress");
  const reason = "stopped: the agent gave the same reply 3 times in a row, 2 tasks still open; it may need you";
  assert.deepEqual(h.records("todo-loop:stop"), [stop("repeat", reason, { round: 3 })]);
});
