/**
 * The extension on a fake pi for the wiring tests: a harness that fires pi's events the way pi does
 * (turn_end, agent_settled, session_start, the tool and the command) and commits what the handlers return,
 * with the branch, config and kill-switch helpers the test files share.
 */
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import type { ContextLike, ModeLike, ToolResultValue, TurnEndEventLike, TurnEndResultLike } from "../../src/core/pi-shapes.ts";
import { callResultPart, foldFingerprint, resultHash, textPart } from "../../src/core/fingerprint.ts";
import { assistant, chain, isEntry, settle, task, todoResult, toolResult, toolTurn, user } from "../builders.ts";
import type { Entry, EventOptions, Message, MessageEntry, RpivTask } from "../builders.ts";
import { createContext, createFakePi, createSession, isolatedDirs } from "../fake-pi.ts";
import type { FakeContext, FakePi, FakeSession } from "../fake-pi.ts";

export const { agentDir, cwd } = isolatedDirs("todo-loop-adapter-");

export const CONFIG_FILE = join(agentDir, "todo-loop.json");
export const GLOBAL_OFF = join(agentDir, "todo-loop-off");
export const PROJECT_OFF = join(cwd, ".pi", "todo-loop-off");

export const TASKS: RpivTask[] = [task({ id: 1, subject: "Write tests" }), task({ id: 2, subject: "Ship it" })];

/** A human message, a reply that made a list of two open tasks. */
export function planned(tasks: RpivTask[] = TASKS): Entry[] {
  return chain(user("Do the work", { id: "u1" }), assistant({ id: "a1", usage: { totalTokens: 1000, cost: 0.01 } }), todoResult({ tasks, id: "t1" }));
}

export interface SettleOptions extends EventOptions {
  /** The reply's text (the assistant entry and the event's message). */
  text?: string;
  /** The reply entry's ISO timestamp. */
  timestamp?: string;
}

export interface HarnessOptions {
  branch?: Entry[];
  /** Reuse a session (a reload over the same session file). */
  session?: FakeSession;
  hasUI?: boolean;
  mode?: ModeLike;
  activeTools?: string[];
  sessionId?: string;
  pi?: FakePi;
}

export interface Harness {
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
  /** The records on the branch, a stop's `report` left out. */
  records(customType: "todo-loop:stop" | "todo-loop:control"): unknown[];
  /** A fresh extension instance on a new fake pi over the same session: what `/reload` or a restart does. */
  reload(options?: Omit<HarnessOptions, "branch" | "session" | "pi">): Harness;
}

export function harness(options: HarnessOptions = {}): Harness {
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
        // A stop's `report` (SPEC §7.2) is pinned by its own tests (test/host/report.test.ts).
        .map((entry) => withoutReport(entry.data));
    },
    reload(reloadOptions = {}) {
      return harness({ hasUI: options.hasUI, mode: options.mode, activeTools: options.activeTools, ...reloadOptions, session });
    },
  };
  return h;
}

export function markerOf(result: TurnEndResultLike | undefined): Record<string, unknown> {
  const last = result?.entries?.at(-1);
  assert.ok(isEntry(last), "an appended entry");
  assert.equal(last.customType, "todo-loop:continue");
  return last;
}

export function details(result: TurnEndResultLike | undefined): unknown {
  return markerOf(result).details;
}

/** A field of a record, or undefined for anything else. */
export function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

export function roundOf(result: TurnEndResultLike | undefined): unknown {
  return fieldOf(details(result), "round");
}

/** The full details of a marker with two tasks open of two under u1, no cap. */
/** The fingerprint of the harness's plain reply ("Stopping here.", no tool call). */
export const PLAIN_FP = foldFingerprint("", textPart(["Stopping here."]));
/** The hash of a builders' tool result (`content: [{ type: "text", text: "ok" }]`, no error). */
export const OK_RESULT = resultHash([{ type: "text", text: "ok" }], false);
/** The fingerprint of the first reply after `planned()`: the todo result (its call is not on the branch, its result "ok"), then the plain text. */
export const FIRST_FP = foldFingerprint(foldFingerprint("", callResultPart("todo", "?", false, OK_RESULT)), textPart(["Stopping here."]));

export function markerDetails(overrides: {
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

export function stop(kind: string, reason: string, overrides: { round?: number; open?: number; anchor?: string; limit?: string } = {}) {
  const { limit, ...rest } = overrides;
  return { v: 1, kind, reason, round: rest.round ?? 0, open: rest.open ?? 2, anchor: rest.anchor ?? "u1", ...(limit ? { limit } : {}) };
}

export function writeConfig(t: TestContext, content: unknown): void {
  writeFileSync(CONFIG_FILE, typeof content === "string" ? content : JSON.stringify(content));
  t.after(() => rmSync(CONFIG_FILE, { force: true }));
}

export function switchOff(t: TestContext, path: string): void {
  writeFileSync(path, "");
  t.after(() => rmSync(path, { force: true }));
}

/** Every notify message of the status report, as lines. */
export async function statusLines(h: Harness): Promise<string[]> {
  h.takeNotes();
  await h.command("status");
  const notes = h.takeNotes();
  assert.equal(notes.length, 1);
  assert.equal(notes[0]?.type, "info");
  return (notes[0]?.message ?? "").split("\n");
}

export const completedBoth = () => todoResult({ tasks: [task({ id: 1, subject: "Write tests", status: "completed" }), task({ id: 2, subject: "Ship it", status: "completed" })], action: "update" });
/** A tool turn that did some work without changing the list (ends the run of replies without work). */
export const bashResult = () => toolResult("bash", { exitCode: 0 });

function withoutReport(data: unknown): unknown {
  if (typeof data !== "object" || data === null || !("report" in data)) return data;
  const { report: _report, ...rest } = data as Record<string, unknown>;
  return rest;
}
