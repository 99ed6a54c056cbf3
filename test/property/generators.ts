/**
 * Generators of the core's inputs for the property tests (memories, branches, turns, lists, tools,
 * limits, spend, whole DecideInputs), the helpers that decide and settle with them, and the entries,
 * records and roles the handler, reader and context-hook properties share.
 */
import { decide, freshMemory, listKey, NOTHING, settle } from "../../src/loop.ts";
import type { Command, Settled } from "../../src/loop.ts";
import type { BranchFacts, DecideInput, Decision, ListState, Memory, NoListWhy, PendingStop, Reason, StaleWhy, ToolFacts, TurnFacts, Wait, EarlierFacts, Limits, CallKind, SourceId } from "../../src/core/types.ts";
import type { ReplyFacts } from "../../src/core/reply.ts";
import type { TurnOutcome } from "../../src/core/pi-shapes.ts";
import { describeReason } from "../../src/core/text.ts";
import { junk, text } from "../gen.ts";
import type { Random, RawEntry } from "../gen.ts";

export const CASES = 10_000;

export const ANCHORS = ["u1", "u2", "u3"];
export const SIGNATURES = ["s1", "s2", "s3"];
export const OUTCOMES: readonly TurnOutcome[] = ["completed", "completed", "completed", "error", "aborted"];
export const CALLS: readonly CallKind[] = ["delete", "clear", "complete", "other", "unlabelled"];
export const WHY: readonly NoListWhy[] = ["no-tool", "unused", "unreadable", "emptied"];
export const STALE_WHY: readonly StaleWhy[] = ["codemode", "unreadable"];
export const TOOLS = ["todo", "todo_write", "TaskUpdate"];
export const SOURCES: readonly SourceId[] = ["rpiv-todo", "quangthai-pi-todo", "criogaid-pi-todos-tasks"];
export const EXPOSURES = ["direct", "model-only", "codemode", "deferred", "hidden", undefined];
export const STOP_KEYS = ["clear", "no-list", "limit:maxRounds", "limit:maxTokens", "idle", "waiting", "question", "out-of-reach", "out-of-date", "outcome"];
export const QUESTIONS = ["Should I use Postgres or SQLite?", "Shall I go on?", "Which region?"];

export function genWait(rng: Random): Wait | undefined {
  if (!rng.chance(0.15)) return undefined;
  return rng.chance(0.5) ? { reason: "need a key", asked: false } : { reason: rng.pick(QUESTIONS), asked: true };
}

export function genAnnounced(rng: Random): string[] {
  return STOP_KEYS.filter(() => rng.chance(0.1));
}

export function genPending(rng: Random): PendingStop | undefined {
  if (!rng.chance(0.2)) return undefined;
  const reason: Reason = rng.pick<Reason>([{ kind: "clear" }, { kind: "outcome", outcome: "error" }, { kind: "no-list", why: "emptied" }, { kind: "idle", replies: 3, open: 2 }]);
  return { reason, open: rng.int(0, 4), level: rng.chance(0.5) ? "info" : "warning" };
}

export function genMemory(rng: Random, anchor: string): Memory {
  return {
    ...freshMemory(anchor, rng.chance(0.2)),
    round: rng.int(0, 14),
    signature: rng.chance(0.3) ? undefined : rng.pick(SIGNATURES),
    staleSettles: rng.int(0, 25),
    settleRun: rng.int(0, 5),
    waiting: genWait(rng),
    hadWork: rng.chance(0.6),
    announced: genAnnounced(rng),
    pending: genPending(rng),
    last: NOTHING,
    adopted: rng.chance(0.3),
    carried: rng.chance(0.2),
    queued: rng.chance(0.1),
  };
}

export function genBranch(rng: Random, anchor: string): BranchFacts {
  return {
    anchor,
    round: rng.int(0, 14),
    idle: rng.int(0, 4),
    stale: rng.int(0, 12),
    signature: rng.chance(0.4) ? undefined : rng.pick(SIGNATURES),
    waiting: genWait(rng),
    paused: rng.chance(0.15),
    hadWork: rng.chance(0.5),
    announced: genAnnounced(rng),
    stuck: rng.int(0, 2),
    fp: rng.chance(0.4) ? undefined : rng.pick(FINGERPRINTS),
    repeats: rng.int(0, 1),
    earlier: genEarlier(rng),
  };
}

export function genEarlier(rng: Random): EarlierFacts {
  return {
    open: rng.chance(0.5),
    carried: rng.chance(0.3),
    adopted: rng.chance(0.4),
    shown: rng.chance(0.2) ? listKey({ kind: "list", open: 2, total: 3, signature: rng.pick(SIGNATURES), source: "rpiv-todo", tool: "todo" }) : undefined,
    before: rng.chance(0.3) ? "old" : rng.chance(0.5) ? rng.pick(ANCHORS) : undefined,
  };
}

/** Fingerprints of replies: few, so identical replies in a row are common. */
export const FINGERPRINTS: readonly string[] = ["fp-a", "fp-b", "fp-c"];

/** What a settle's reply did: mostly known, often no progress, often the same as the one before. */
export function genReply(rng: Random): ReplyFacts | undefined {
  if (rng.chance(0.03)) return undefined;
  return { progress: rng.chance(0.5), fingerprint: rng.chance(0.4) ? "fp-a" : rng.pick(FINGERPRINTS) };
}

export function genTurn(rng: Random, toolResults: number = rng.chance(0.5) ? 0 : rng.int(1, 4)): TurnFacts {
  return {
    outcome: rng.pick(OUTCOMES),
    toolResults,
    todoOnly: rng.chance(0.5),
    calls: Array.from({ length: rng.int(0, 3) }, () => rng.pick(CALLS)),
    openBefore: rng.int(0, 5),
    vanished: Array.from({ length: rng.int(0, 2) }, () => text(rng, 6)),
    question: rng.chance(0.2) ? rng.pick(QUESTIONS) : undefined,
    reply: genReply(rng),
  };
}

export function genList(rng: Random): ListState {
  const roll = rng.next();
  if (roll < 0.12) return { kind: "none", why: rng.pick(WHY) };
  if (roll < 0.18) return { kind: "out-of-date", why: rng.pick(STALE_WHY), open: rng.int(0, 4), source: rng.pick(SOURCES) };
  if (roll < 0.21) return { kind: "planning", source: "plan-mode" };
  const open = rng.chance(0.2) ? 0 : rng.int(1, 6);
  const planMode = rng.chance(0.05);
  return {
    kind: "list",
    open,
    total: open + rng.int(open === 0 ? 1 : 0, 4),
    signature: rng.pick(SIGNATURES),
    source: planMode ? "plan-mode" : rng.pick(SOURCES),
    tool: planMode ? undefined : rng.pick(TOOLS),
  };
}

/** Which tools the model has: mostly the todo tools, sometimes none, sometimes through codemode. */
export function genTools(rng: Random): ToolFacts {
  const names = [...TOOLS, "codemode", "read"];
  if (rng.chance(0.6)) return { active: [...TOOLS, "read"], registered: names.map((name) => ({ name, exposure: "direct" })) };
  const active = names.filter((name) => rng.chance(name === "read" ? 0.9 : name === "codemode" ? 0.3 : 0.75));
  const registered = names.filter(() => rng.chance(0.9)).map((name) => ({ name, exposure: rng.pick(EXPOSURES) }));
  return { active, registered };
}

/** The oracle for SPEC §4.6, written out: active, or registered codemode/deferred while codemode is active. */
export function reachable(tool: string | undefined, tools: ToolFacts): boolean {
  if (tool === undefined) return true;
  if (tools.active.includes(tool)) return true;
  const exposure = tools.registered.find((entry) => entry.name === tool)?.exposure;
  return tools.active.includes("codemode") && (exposure === "codemode" || exposure === "deferred");
}

export function genLimits(rng: Random): Limits {
  return {
    maxRounds: rng.chance(0.5) ? null : rng.int(1, 12),
    maxTokens: rng.chance(0.7) ? null : rng.int(1, 50_000),
    maxCost: rng.chance(0.7) ? null : rng.int(1, 500) / 100,
    maxMinutes: rng.chance(0.7) ? null : rng.int(1, 120) / 2,
    maxIdleReplies: rng.chance(0.4) ? null : rng.int(1, 8),
    maxStuckReplies: rng.chance(0.4) ? null : rng.chance(0.1) ? 1 : rng.int(2, 8),
    maxRepeats: rng.chance(0.4) ? null : rng.chance(0.1) ? 1 : rng.int(2, 6),
  };
}

export function genSpend(rng: Random): DecideInput["spend"] {
  return { tokens: rng.int(0, 60_000), cost: rng.int(0, 600) / 100, minutes: rng.chance(0.3) ? undefined : rng.int(0, 1200) / 10 };
}

export function genInput(rng: Random, overrides: Partial<DecideInput> = {}): DecideInput {
  const anchor = rng.pick(ANCHORS);
  return {
    memory: rng.chance(0.2) ? undefined : genMemory(rng, rng.chance(0.7) ? anchor : rng.pick(ANCHORS)),
    branchSwitched: rng.chance(0.1),
    branch: genBranch(rng, anchor),
    turn: genTurn(rng),
    list: genList(rng),
    pendingMessages: rng.chance(0.1),
    otherContinued: rng.chance(0.1),
    limits: genLimits(rng),
    stopOnQuestion: rng.chance(0.8),
    spend: genSpend(rng),
    tools: genTools(rng),
    earlierTasks: rng.chance(0.7) ? "ask" : "continue",
    ...overrides,
  };
}

/** The state in force for this turn, by SPEC §4.14: memory for the same anchor on the same branch, else the branch's. */
export function effective(input: DecideInput): Pick<Memory, "round" | "paused" | "waiting" | "staleSettles" | "settleRun" | "signature" | "stuck" | "fp" | "repeats"> {
  const { memory, branch } = input;
  if (memory && memory.anchor === branch.anchor && !input.branchSwitched) return memory;
  return {
    round: branch.round,
    paused: branch.paused,
    waiting: branch.waiting,
    staleSettles: branch.stale,
    settleRun: branch.idle,
    signature: branch.signature,
    stuck: branch.stuck,
    fp: branch.fp,
    repeats: branch.repeats,
  };
}

export function run(input: DecideInput): Decision {
  return decide(input);
}

export function ended(memory: Memory, transcriptShown: boolean): Settled {
  return settle(memory, transcriptShown, describeReason);
}

export const COMMAND_WORDS: readonly Command[] = ["pause", "resume", "status", "reset", "continue"];

export const ODD_NUMBERS = [0, -0, 1, -1, 2, 0.5, 1e9, -1e9, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_SAFE_INTEGER];

export function odd(rng: Random): number {
  return rng.chance(0.5) ? rng.pick(ODD_NUMBERS) : rng.int(-5, 20);
}

export const MARKER_MESSAGE = { role: "custom", customType: "todo-loop:continue", content: "Continue.", display: false };

export function isRecordValue(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function record(entry: RawEntry): { readonly [key: string]: unknown } | undefined {
  const data = entry.type === "custom" ? entry.data : undefined;
  return isRecordValue(data) ? data : undefined;
}

export const STOP_KINDS = ["clear", "no-list", "limit", "idle", "waiting", "question", "out-of-reach", "out-of-date", "outcome", "bogus"];
export const STOP_REASONS = [
  "stopped: list is clear",
  'waiting for you: the agent asked: "Which region?"',
  "waiting for you: need a key",
  "stopped: 3 continuations used, 2 tasks still open",
  "stopped: token limit reached (1,000 of 1,000 tokens since your message), 1 task still open",
  "stopped: turn outcome was error",
  "stopped: no list (no todo tool is active)",
  "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you",
];

/** Entries the 0.2 loop and its hosts leave that test/gen.ts does not make: controls, kinded stops, full markers, codemode results. */
export function loopEntry(rng: Random): RawEntry {
  switch (rng.int(0, 5)) {
    case 0:
      return {
        type: "custom",
        customType: "todo-loop:control",
        data: rng.chance(0.9) ? { v: 1, action: rng.pick(["pause", "resume", "reset", "continue", "bogus"]), anchor: "u" } : junk(rng),
      };
    case 1: {
      const kind = rng.pick(STOP_KINDS);
      const data: RawEntry = { v: 1, kind, reason: rng.chance(0.8) ? rng.pick(STOP_REASONS) : text(rng, 20, 0.1), round: rng.int(0, 5), open: rng.int(0, 3), anchor: "u" };
      if (kind === "limit") data.limit = rng.pick(["maxRounds", "maxTokens", "maxCost", "maxMinutes", junk(rng, 0)]);
      if (rng.chance(0.2)) delete data.kind;
      return { type: "custom", customType: "todo-loop:stop", data };
    }
    case 2:
      return {
        type: "custom_message",
        customType: "todo-loop:continue",
        content: "Continue with the open tasks on your todo list.",
        display: rng.chance(0.7),
        details: {
          v: 1,
          round: rng.int(0, 20),
          anchor: "u",
          open: rng.int(0, 5),
          total: rng.int(1, 6),
          cap: rng.chance(0.5) ? null : rng.int(1, 12),
          hint: rng.chance(0.2),
          idle: rng.chance(0.9) ? rng.int(0, 4) : junk(rng, 0),
          stale: rng.chance(0.9) ? rng.int(0, 12) : junk(rng, 0),
        },
      };
    case 3: {
      const calls = Array.from({ length: rng.int(0, 3) }, () => ({ id: `c${rng.int(0, 9)}`, name: rng.chance(0.9) ? rng.pick(["todo", "bash", "todo_write", "TaskUpdate", "read"]) : junk(rng, 0), status: "done" }));
      const message: RawEntry = { role: "toolResult", toolCallId: "cm", toolName: "codemode", content: [{ type: "text", text: "ok" }], details: { calls: [] }, isError: rng.chance(0.2), timestamp: 3 };
      if (rng.chance(0.9)) message.nestedCalls = rng.chance(0.9) ? { calls, complete: rng.pick([true, true, false, junk(rng, 0)]) } : junk(rng);
      return { type: "message", message };
    }
    case 4:
      return {
        type: "message",
        message: { role: "assistant", content: [{ type: "text", text: rng.chance(0.5) ? rng.pick(QUESTIONS) : text(rng) }], usage: { totalTokens: rng.int(0, 500), cost: { total: rng.int(0, 10) / 1000 } }, stopReason: "stop", timestamp: 2 },
      };
    default:
      return { type: "custom", customType: rng.pick(["rpiv-todo-state", "pi-todo-state", "pi-todos-tasks"]), data: { tasks: [{ id: 1, subject: "x", title: "x", status: rng.pick(["pending", "weird", "completed"]) }], nextId: 2 } };
  }
}

export function roleOfEntry(entry: RawEntry): unknown {
  const message = entry.message;
  return entry.type === "message" && typeof message === "object" && message !== null && !Array.isArray(message) ? Reflect.get(message, "role") : undefined;
}

export function role(message: unknown): unknown {
  return typeof message === "object" && message !== null ? Reflect.get(message, "role") : undefined;
}
