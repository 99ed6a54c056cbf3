/**
 * Generated-input tests through the real handlers on a fake pi: the kill switch (SPEC §8) touches
 * nothing, junk events never fail a turn (§10), and sequences over a real session keep the invariants.
 *
 * Each property runs over at least 10,000 seeded cases (the count is in the test name); a failure names
 * its seed and prints its case (see test/gen.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "../../src/loop.ts";
import type { ModeLike } from "../../src/core/pi-shapes.ts";
import { createContext, createSession } from "../fake-pi.ts";
import type { AgentSettledHandler, SessionStartHandler, TurnEndHandler } from "../fake-pi.ts";
import { anyEntry, entryOf, forAllAsync, hostileText, junk, random, text } from "../gen.ts";
import type { Random, RawEntry } from "../gen.ts";
import { dirs, load, root } from "./handlers.ts";
import { CASES, QUESTIONS, COMMAND_WORDS, MARKER_MESSAGE, isRecordValue, record, loopEntry, roleOfEntry } from "./generators.ts";

// ---- the kill switch and junk, through the real handlers ------------------------------------------------

interface KillCase {
  readonly where: "global" | "cwd";
  readonly prefix: readonly RawEntry[];
  readonly tasks: number;
  readonly hasUI: boolean;
  readonly mode: ModeLike;
}

function rpivResult(open: number): RawEntry {
  const tasks = Array.from({ length: open }, (_, index) => ({ id: index + 1, subject: `Task ${index + 1}`, status: "pending" }));
  return {
    type: "message",
    message: { role: "toolResult", toolCallId: "c1", toolName: "todo", content: [], details: { action: "create", params: {}, tasks, nextId: open + 1 }, isError: false },
  };
}

const SETTLE = {
  type: "turn_end",
  turnIndex: 1,
  message: { role: "assistant", content: [] },
  toolResults: [],
  outcome: "completed",
  entries: [],
  continue: false,
  context: { pendingMessages: [] },
} as const;

const ERROR_SETTLE = { ...SETTLE, outcome: "error" } as const;

test(`kill switch: turn_end, agent_settled, context and /todoloop continue touch nothing while either kill-switch file exists, and the same turn continues without it (${CASES} cases)`, async (t) => {
  const count = await forAllAsync(
    "kill-switch",
    CASES,
    (rng): KillCase => ({
      where: rng.chance(0.5) ? "global" : "cwd",
      prefix: Array.from({ length: rng.int(0, 6) }, () => anyEntry(rng)),
      tasks: rng.int(1, 5),
      hasUI: rng.chance(0.5),
      mode: rng.pick<ModeLike>(["tui", "rpc", "json", "print"]),
    }),
    async (value) => {
      const session = createSession<RawEntry>([], "tree-session");
      for (const entry of value.prefix) session.append(entry);
      session.append({ type: "message", message: { role: "user", content: "Do the work", timestamp: 1 } });
      session.append(rpivResult(value.tasks));
      session.append({ type: "message", message: { role: "assistant", content: [], usage: { totalTokens: 10 }, timestamp: 2 } });
      const messages = [{ role: "assistant", content: [] }, MARKER_MESSAGE, { role: "user", content: "stop" }];
      const length = session.getBranch().length;

      process.env.PI_CODING_AGENT_DIR = value.where === "global" ? dirs.agentOff : dirs.agentClean;
      const off = load();
      off.pi.session = session;
      const offCtx = createContext({ session, cwd: value.where === "cwd" ? dirs.cwdOff : dirs.cwdClean, hasUI: value.hasUI, mode: value.mode });
      assert.equal(await off.turnEnd({ ...ERROR_SETTLE }, offCtx), undefined, "turn_end does nothing for an error");
      await off.agentSettled({ type: "agent_settled", aborted: false }, offCtx);
      assert.equal(await off.turnEnd({ ...SETTLE }, offCtx), undefined, "turn_end does nothing");
      await off.agentSettled({ type: "agent_settled", aborted: false }, offCtx);
      assert.equal(await off.context({ type: "context", messages }, offCtx), undefined, "context does nothing");
      await off.pi.command("todoloop").handler("continue", offCtx);
      assert.deepEqual(offCtx.ui.notifications, [{ message: "todo loop: not continuing: the kill switch is on", type: "warning" }], "no notify but the refusal");
      assert.deepEqual(offCtx.ui.statuses.filter((status) => status.text !== "todo loop off"), [], "no footer but 'todo loop off'");
      assert.deepEqual(off.pi.appended, [], "no record");
      assert.deepEqual(off.pi.sent, [], "no marker");
      assert.equal(session.getBranch().length, length, "the session is untouched");

      process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
      const on = load();
      const onCtx = createContext({ session, cwd: dirs.cwdClean, hasUI: value.hasUI, mode: value.mode });
      const result = await on.turnEnd({ ...SETTLE }, onCtx);
      assert.equal(result?.continue, true, "without the kill switch the same turn continues");
      assert.ok(await on.context({ type: "context", messages }, onCtx), "without the kill switch the marker before the human message is dropped");
    },
  );
  process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
  t.diagnostic(`${count} cases`);
});

interface JunkCase {
  readonly entries: readonly RawEntry[];
  readonly event: unknown;
  readonly settled: unknown;
  readonly started: unknown;
  readonly messages: unknown;
  readonly params: unknown;
  readonly args: unknown;
  readonly mode: ModeLike;
  readonly idle: boolean;
  /** Index into CONFIGS. */
  readonly config: number;
}

/** Agent dirs holding junk config files (written once; the first has none), picked by each case. */
const CONFIGS: readonly { dir: string; text: string | undefined }[] = Array.from({ length: 40 }, (_, index) => {
  const rng = random(index + 1);
  const dir = join(root, `agent-config-${index}`);
  mkdirSync(dir, { recursive: true });
  const valid = JSON.stringify({
    maxRounds: rng.int(0, 3),
    maxTokens: rng.chance(0.5) ? null : rng.int(1, 5000),
    maxCost: rng.chance(0.5) ? null : 0.01,
    maxMinutes: rng.chance(0.5) ? null : rng.pick([0.5, 1, 30]),
    maxIdleReplies: rng.pick([null, 0, 1, 3, 200]),
    stopOnQuestion: rng.chance(0.5),
    transcript: rng.chance(0.5),
  });
  const body = index === 0 ? undefined : index % 3 === 1 ? valid : rng.chance(0.6) ? JSON.stringify(junk(rng)) : text(rng, 20, 0.3);
  if (body !== undefined) writeFileSync(join(dir, "todo-loop.json"), body);
  return { dir, text: body };
});

function genJunkEvent(rng: Random): unknown {
  if (rng.chance(0.1)) return junk(rng);
  return {
    type: "turn_end",
    message: rng.chance(0.7) ? { role: "assistant", content: [{ type: "text", text: rng.chance(0.3) ? `${hostileText(rng, 8)}?` : text(rng) }] } : junk(rng),
    toolResults: rng.chance(0.8)
      ? Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.5) ? junk(rng) : (entryOf(rng, rng.pick(["rpiv-result", "rpiv-bad-result", "other-tool", "block"] as const)).message)))
      : junk(rng),
    outcome: rng.chance(0.7) ? rng.pick(["completed", "error", "aborted"]) : junk(rng),
    entries: rng.chance(0.8) ? [] : junk(rng),
    continue: rng.chance(0.8) ? false : junk(rng),
    context: rng.chance(0.7) ? { pendingMessages: rng.chance(0.9) ? [] : [junk(rng)] } : junk(rng),
  };
}

test(`junk: turn_end, agent_settled, session_start, context, todo_loop_block and /todoloop never fail on junk entries, events, messages, params and config (${CASES} cases)`, async (t) => {
  let continued = 0;
  const count = await forAllAsync(
    "junk",
    CASES,
    (rng): JunkCase => ({
      entries: Array.from({ length: rng.int(0, 25) }, () => (rng.chance(0.3) ? entryOf(rng, "junk") : rng.chance(0.3) ? loopEntry(rng) : anyEntry(rng))),
      event: genJunkEvent(rng),
      settled: rng.chance(0.7) ? { type: "agent_settled", aborted: rng.chance(0.2) } : junk(rng),
      started: rng.chance(0.7) ? { type: "session_start", reason: rng.pick(["startup", "reload", "new", "resume", "fork"]) } : junk(rng),
      messages: rng.chance(0.8) ? Array.from({ length: rng.int(0, 6) }, () => (rng.chance(0.3) ? MARKER_MESSAGE : junk(rng))) : junk(rng),
      params: rng.chance(0.5) ? { reason: rng.chance(0.7) ? hostileText(rng, 20) : junk(rng) } : junk(rng),
      args: rng.chance(0.7) ? rng.pick(["", "status", "pause", "resume", "reset", "continue", " RESET ", "Continue"]) : junk(rng),
      mode: rng.pick<ModeLike>(["tui", "rpc", "json", "print"]),
      idle: rng.chance(0.7),
      config: rng.int(0, CONFIGS.length - 1),
    }),
    async (value) => {
      process.env.PI_CODING_AGENT_DIR = CONFIGS[value.config]?.dir;
      const session = createSession<RawEntry>([], "tree-session");
      for (const entry of value.entries) session.append(entry);
      const { turnEnd, context, agentSettled, sessionStart, pi } = load();
      pi.session = session;
      const ctx = createContext({ session, cwd: dirs.cwdClean, mode: value.mode, idle: value.idle });
      await sessionStart(value.started as Parameters<SessionStartHandler>[0], ctx);
      const result = await turnEnd(value.event as Parameters<TurnEndHandler>[0], ctx);
      if (result !== undefined) {
        assert.ok(Array.isArray(result.entries), "a result carries entries");
        const last = result.entries.at(-1);
        if (result.continue === true) {
          continued += 1;
          assert.ok(typeof last === "object" && last !== null && Reflect.get(last, "customType") === "todo-loop:continue", "a continuation ends with the marker");
        }
      }
      await agentSettled(value.settled as Parameters<AgentSettledHandler>[0], ctx);
      const filtered = await context({ type: "context", messages: value.messages }, ctx);
      if (filtered !== undefined) assert.ok(Array.isArray(filtered.messages));
      try {
        const tool = await pi.tool("todo_loop_block").execute("call-1", value.params, undefined, undefined, ctx);
        assert.ok(Array.isArray(tool.content));
      } catch (error) {
        assert.match(error instanceof Error ? error.message : String(error), /needs a non-empty reason/, "the only error the tool raises is an empty reason");
      }
      await pi.command("todoloop").handler(value.args as string, ctx);
      const failures = ctx.ui.notifications.filter((notice) => / failed \(/.test(notice.message));
      assert.deepEqual(failures, [], "no handler hit an internal error");
      for (const notice of ctx.ui.notifications) {
        if (notice.type === "error") assert.match(notice.message, /unknown sub-command/, "the only error notice is an unknown sub-command");
      }
      for (const entry of pi.appended) assert.ok(entry.customType === "todo-loop:stop" || entry.customType === "todo-loop:control", entry.customType);
      assert.ok(pi.sent.length <= 1, "at most one marker sent");
      for (const sent of pi.sent) assert.deepEqual(sent.options, { triggerTurn: true });
    },
  );
  process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
  t.diagnostic(`${count} cases, ${continued} continued`);
});

// ---- sequences through the real handlers, over a real session -------------------------------------------------

/** Agent dirs with the config files the handler sequences run under. */
const SEQUENCE_CONFIGS: readonly { dir: string; maxRounds: number | null; maxIdleReplies: number | null }[] = [
  { maxRounds: 2, maxIdleReplies: 3 },
  { maxRounds: 4, maxIdleReplies: 2 },
  { maxRounds: null, maxIdleReplies: 3 },
  { maxRounds: 3, maxIdleReplies: null },
].map((limits, index) => {
  const dir = join(root, `agent-sequence-${index}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "todo-loop.json"), JSON.stringify(limits));
  return { dir, ...limits };
});

type HandlerStep =
  | { readonly kind: "reply"; readonly text: string }
  | { readonly kind: "error"; readonly settles: boolean }
  | { readonly kind: "tool"; readonly open: number; readonly done: number }
  | { readonly kind: "bash" }
  | { readonly kind: "human" }
  | { readonly kind: "reload" }
  | { readonly kind: "block" }
  | { readonly kind: "command"; readonly word: Command; readonly idle: boolean };

interface HandlerSequence {
  readonly config: number;
  readonly mode: ModeLike;
  readonly steps: readonly HandlerStep[];
}

function genHandlerSequence(rng: Random): HandlerSequence {
  const steps: HandlerStep[] = [];
  for (let index = rng.int(1, 24); index > 0; index--) {
    const roll = rng.next();
    if (roll < 0.45) steps.push({ kind: "reply", text: rng.chance(0.12) ? rng.pick(QUESTIONS) : "Stopping here." });
    else if (roll < 0.52) steps.push({ kind: "error", settles: rng.chance(0.5) });
    else if (roll < 0.67) steps.push({ kind: "tool", open: rng.int(0, 3), done: rng.int(0, 2) });
    else if (roll < 0.72) steps.push({ kind: "bash" });
    else if (roll < 0.77) steps.push({ kind: "human" });
    else if (roll < 0.85) steps.push({ kind: "reload" });
    else if (roll < 0.88) steps.push({ kind: "block" });
    else steps.push({ kind: "command", word: rng.pick(COMMAND_WORDS), idle: rng.chance(0.7) });
  }
  return { config: rng.int(0, SEQUENCE_CONFIGS.length - 1), mode: rng.pick<ModeLike>(["tui", "rpc", "json"]), steps };
}

function rpivList(open: number, done: number): RawEntry {
  const tasks = [
    ...Array.from({ length: open }, (_, index) => ({ id: index + 1, subject: `Task ${index + 1}`, status: "pending" })),
    ...Array.from({ length: done }, (_, index) => ({ id: open + index + 1, subject: `Done ${index + 1}`, status: "completed" })),
  ];
  return {
    type: "message",
    message: { role: "toolResult", toolCallId: "c1", toolName: "todo", content: [], details: { action: "update", params: {}, tasks, nextId: tasks.length + 1 }, isError: false },
  };
}

function replyEntry(text: string): RawEntry {
  return { type: "message", message: { role: "assistant", content: [{ type: "text", text }], usage: { totalTokens: 10 }, stopReason: "stop", timestamp: 2 } };
}

/** Runs a sequence through the extension's handlers on one session; reloads load a new instance over it. */
async function runHandlers(sequence: HandlerSequence): Promise<RawEntry[]> {
  const session = createSession<RawEntry>([], "sequence-session");
  session.append({ type: "message", message: { role: "user", content: "Do the work", timestamp: 1 } }, rpivList(2, 1));
  let handlers = load();
  handlers.pi.session = session;
  const ctx = createContext({ session, cwd: dirs.cwdClean, mode: sequence.mode });
  const settled = () => handlers.agentSettled({ type: "agent_settled", aborted: false }, ctx);
  const turn = async (event: Parameters<TurnEndHandler>[0]) => {
    const result = await handlers.turnEnd(event, ctx);
    for (const draft of result?.entries ?? []) if (typeof draft === "object" && draft !== null && !Array.isArray(draft)) session.append({ ...draft });
    return result;
  };
  for (const step of sequence.steps) {
    switch (step.kind) {
      case "reply": {
        const reply = replyEntry(step.text);
        session.append(reply);
        const result = await turn({ ...SETTLE, message: reply.message });
        if (result?.continue !== true) await settled();
        break;
      }
      case "error":
        session.append(replyEntry(""));
        await turn({ ...ERROR_SETTLE });
        if (step.settles) await settled();
        break;
      case "tool": {
        const result = rpivList(step.open, step.done);
        session.append(replyEntry("Updating."), result);
        await turn({ ...SETTLE, toolResults: [result.message] });
        break;
      }
      case "bash": {
        const result: RawEntry = { type: "message", message: { role: "toolResult", toolCallId: "b", toolName: "bash", content: [], details: {}, isError: false } };
        session.append(replyEntry("Running."), result);
        await turn({ ...SETTLE, toolResults: [result.message] });
        break;
      }
      case "human":
        session.append({ type: "message", message: { role: "user", content: "And next?", timestamp: 1 } });
        break;
      case "reload":
        handlers = load();
        handlers.pi.session = session;
        await handlers.sessionStart({ type: "session_start", reason: "reload" }, ctx);
        break;
      case "block": {
        const tool = await handlers.pi.tool("todo_loop_block").execute("call-b", { reason: "need a key" }, undefined, undefined, ctx);
        session.append({ type: "message", message: { role: "toolResult", toolCallId: "call-b", toolName: "todo_loop_block", content: tool.content, details: tool.details, isError: false } });
        break;
      }
      case "command":
        ctx.idle = step.idle;
        await handlers.pi.command("todoloop").handler(step.word, ctx);
        ctx.idle = true;
        break;
    }
  }
  return session.getBranch();
}

test(`handlers: over sequences of replies, errors, tool turns, messages, reloads, blocks and commands, the session holds at most one stop record per kind between continuations, no continuation past a recorded question, rounds within maxRounds and never maxIdleReplies replies in a row without work (${CASES} sequences)`, async (t) => {
  const totals = { markers: 0, stops: 0, controls: 0 };
  const count = await forAllAsync("handler-sequences", CASES, genHandlerSequence, async (sequence) => {
    const config = SEQUENCE_CONFIGS[sequence.config];
    assert.ok(config);
    process.env.PI_CODING_AGENT_DIR = config.dir;
    const branch = await runHandlers(sequence);
    let window = new Set<string>();
    let rounds = 0;
    let inRow = 0;
    /** A question stop was recorded and nothing has lifted its wait since. */
    let asked = false;
    branch.forEach((entry, index) => {
      const role = roleOfEntry(entry);
      if (role === "user") {
        window = new Set();
        rounds = 0;
        inRow = 0;
        asked = false;
      }
      if (role === "toolResult") inRow = 0;
      if (entry.customType === "todo-loop:control") {
        totals.controls += 1;
        const action = record(entry)?.action;
        if (action === "reset") {
          window = new Set();
          rounds = 0;
          inRow = 0;
        }
        if (action === "resume" || action === "continue") {
          window.delete("waiting");
          window.delete("question");
        }
        if (action === "resume" || action === "continue" || action === "reset") asked = false;
      }
      if (entry.customType === "todo-loop:continue") {
        totals.markers += 1;
        window = new Set();
        rounds += 1;
        const details = entry.details;
        assert.ok(isRecordValue(details), "a marker has details");
        assert.equal(details.round, rounds, `marker at ${index} counts the continuations since the message or a reset`);
        const byCommand = branch[index - 1]?.customType === "todo-loop:control";
        if (!byCommand) {
          assert.ok(!asked, `marker at ${index} continues past the agent's recorded question`);
          inRow += 1;
          if (config.maxRounds !== null) assert.ok(rounds <= config.maxRounds, `continuation ${rounds} past maxRounds ${config.maxRounds}`);
          if (config.maxIdleReplies !== null) assert.ok(inRow <= config.maxIdleReplies - 1, `${inRow} continuations in a row without a tool turn`);
        }
      }
      if (entry.customType === "todo-loop:stop") {
        totals.stops += 1;
        const data = record(entry);
        assert.ok(data && data.v === 1 && typeof data.kind === "string" && typeof data.reason === "string", "a 0.2 stop record");
        const key = data.kind === "limit" ? `limit:${String(data.limit)}` : data.kind;
        assert.ok(!window.has(key), `stop ${key} recorded twice between two continuations (entry ${index})`);
        window.add(key);
        if (data.kind === "question") asked = true;
      }
    });
  });
  process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
  t.diagnostic(`${count} sequences: ${JSON.stringify(totals)}`);
  assert.ok(totals.markers > count && totals.stops > count / 2 && totals.controls > count / 10, "the sequences continue, stop and command");
});
