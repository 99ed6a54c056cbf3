/**
 * Who is reached for which stop (SPEC §7.1, 0.4), and what the person reads (SPEC §7, 0.4): Escape during
 * a verification command is the person's own act, never "needs you"; an emptied list whose verification
 * passed is done; no count reads past its cap; the footer says the state first; one name per brake.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import type { Config, ListState, Memory, Reason, StopRecord } from "../../src/core/types.ts";
import { createReach } from "../../src/io/notify.ts";
import type { ReachIo } from "../../src/io/notify.ts";
import { exitStatus, needsPerson, planReach } from "../../src/core/reach-plan.ts";
import type { StopPayload } from "../../src/core/reach-plan.ts";
import type { ModeLike } from "../../src/core/pi-shapes.ts";
import { freshMemory } from "../../src/loop.ts";
import { describeReason, footerText, statusText } from "../../src/core/text.ts";
import { createContext, createFakePi, createSession } from "../fake-pi.ts";

const MODES: readonly ModeLike[] = ["tui", "rpc", "json", "print"];
const CONFIG: Config = { ...DEFAULT_CONFIG, notifyCommand: ["ping-me"], exitCode: 3 };

interface Captured {
  readonly io: ReachIo;
  readonly terminal: string[];
  readonly stderr: string[];
  readonly runs: string[];
  exit(): number | undefined;
}

function captured(): Captured {
  const terminal: string[] = [];
  const stderr: string[] = [];
  const runs: string[] = [];
  let exitCode: number | undefined;
  const io: ReachIo = {
    env: {},
    writeTerminal: (bytes) => void terminal.push(bytes),
    writeStderr: (line) => void stderr.push(line),
    setExitCode(code) {
      exitCode = code;
    },
    getExitCode: () => exitCode,
    async run(_argv, payload) {
      runs.push(payload);
      return undefined;
    },
    memo: { lastProblems: undefined },
  };
  return { io, terminal, stderr, runs, exit: () => exitCode };
}

async function settleWith(mode: ModeLike, reason: Reason, record: StopRecord): Promise<{ payload: StopPayload; out: Captured }> {
  const pi = createFakePi();
  const emitted: StopPayload[] = [];
  pi.events = { emit: (_channel, data) => void emitted.push(data as StopPayload) };
  const ctx = createContext({ session: createSession([], "s1"), cwd: "/work", mode, hasUI: mode === "tui" || mode === "rpc" });
  const out = captured();
  await createReach(pi, out.io).settled(ctx, CONFIG, { ended: reason, record, total: 2 });
  assert.equal(emitted.length, 1);
  return { payload: emitted[0] as StopPayload, out };
}

const ESCAPED: Reason = { kind: "verify-error", command: "npm test", why: "aborted", base: "clear" };
const ESCAPED_RECORD: StopRecord = { v: 1, kind: "verify-error", reason: describeReason(ESCAPED), round: 1, open: 0, anchor: "u1" };

test("reach: Escape during the verification command is the person's own act in the TUI and over RPC — needsYou false, no terminal notification, no hook", async () => {
  for (const mode of ["tui", "rpc"] as const) {
    const { payload, out } = await settleWith(mode, ESCAPED, ESCAPED_RECORD);
    assert.equal(payload.needsYou, false, mode);
    assert.deepEqual([out.terminal, out.runs, out.stderr], [[], [], []], mode);
  }
});

test("reach: a verification command that timed out still needs the person", async () => {
  const reason: Reason = { kind: "verify-error", command: "npm test", why: "timeout", detail: "10", base: "clear" };
  const { payload, out } = await settleWith("tui", reason, { ...ESCAPED_RECORD, reason: describeReason(reason) });
  assert.equal(payload.needsYou, true);
  assert.equal(out.terminal.length, 1);
  assert.equal(out.runs.length, 1);
});

test("reach: a list emptied and verified as passing is done — needsYou false in every mode, no stderr line, no exit code", async () => {
  const reason: Reason = { kind: "verified", base: "emptied", command: "npm test", seconds: 3 };
  const record: StopRecord = { v: 1, kind: "no-list", reason: describeReason(reason), round: 0, open: 0, anchor: "u1", verify: { command: "npm test", exit: 0, seconds: 3 } };
  for (const mode of MODES) {
    const { payload, out } = await settleWith(mode, reason, record);
    assert.equal(payload.needsYou, false, mode);
    assert.deepEqual([out.terminal, out.runs, out.stderr], [[], [], []], mode);
    assert.equal(out.exit(), undefined, `${mode}: no exit code`);
  }
});

test("reach: an emptied list with no verification still needs the person (the rule is the verification, not the kind)", () => {
  for (const mode of MODES) {
    assert.equal(needsPerson({ kind: "no-list", aborted: false }, mode), true, mode);
    assert.equal(needsPerson({ kind: "no-list", aborted: false, verified: true }, mode), false, mode);
    assert.equal(exitStatus({ kind: "no-list", aborted: false, verified: true }, CONFIG, mode), mode === "print" || mode === "json" ? null : undefined, mode);
  }
  assert.equal(planReach({ kind: "verify-error", aborted: true }, CONFIG, "tui").terminal, false);
  assert.equal(planReach({ kind: "verify-error", aborted: true }, CONFIG, "print").stderrLine, true, "in print mode nobody pressed Escape");
});

// ---- what the person reads ---------------------------------------------------------------------------

const LIST: ListState = { kind: "list", open: 2, total: 5, signature: "s", source: "rpiv-todo", tool: "todo" };

function status(memory: Memory, limits: Partial<Config> = {}): string[] {
  return statusText({
    memory,
    list: LIST,
    sourceLabel: "rpiv-todo",
    spend: { tokens: 0, cost: 0, minutes: 0 },
    limits: { ...DEFAULT_CONFIG, ...limits },
    configFile: "/agent/todo-loop.json",
    problems: [],
    killSwitch: undefined,
  }).split("\n");
}

test("status: a count past its cap never reads 'N of M' — continuations 2 (limit 1, at your request), and the same for every brake count", () => {
  const memory: Memory = { ...freshMemory("u1"), round: 2, settleRun: 4, stuck: 6, repeats: 4 };
  const lines = status(memory, { maxRounds: 1 });
  assert.ok(lines.includes("continuations for this message: 2 (limit 1, at your request)"), lines.join("\n"));
  assert.ok(lines.includes("replies in a row without doing anything: 4 (limit 3, at your request)"), lines.join("\n"));
  assert.ok(lines.includes("replies in a row without progress: 6 (limit 5, at your request)"), lines.join("\n"));
  assert.ok(lines.includes("the same reply in a row: 4 (limit 3, at your request)"), lines.join("\n"));
  for (const line of lines) {
    const match = /: (\d+) of (\d+)$/.exec(line);
    if (match) assert.ok(Number(match[1]) <= Number(match[2]), line);
  }
  assert.ok(status({ ...freshMemory("u1"), round: 1 }, { maxRounds: 1 }).includes("continuations for this message: 1 of 1"));
});

test("footer: when the loop is not continuing the state comes first, so 40 columns keep it", () => {
  const waiting = footerText({ ...freshMemory("u1"), waiting: { reason: "x", asked: true } }, LIST, DEFAULT_CONFIG, undefined) ?? "";
  assert.equal(waiting, "todo loop: waiting for you · todo 2 of 5 open");
  assert.ok(waiting.slice(0, 40).includes("todo loop: waiting for you"));
  assert.equal(footerText({ ...freshMemory("u1"), paused: true }, LIST, DEFAULT_CONFIG, undefined), "todo loop paused · todo 2 of 5 open");
  const stopped = footerText({ ...freshMemory("u1"), last: { kind: "stuck", replies: 5, open: 2 } }, LIST, DEFAULT_CONFIG, undefined) ?? "";
  assert.equal(stopped, "todo loop stopped: without progress · todo 2 of 5 open");
  assert.equal(footerText({ ...freshMemory("u1"), round: 3 }, LIST, DEFAULT_CONFIG, undefined), "todo 2 of 5 open · continue 3", "a running loop leads with the count");
});

test("one name per brake: the idle, stuck and repeat brakes each read the same in the stop reason, the footer and /todoloop", () => {
  const cases: Array<[Reason, string, string]> = [
    [{ kind: "idle", replies: 3, open: 2 }, "without doing anything", "replies in a row without doing anything"],
    [{ kind: "stuck", replies: 5, open: 2 }, "without progress", "replies in a row without progress"],
    [{ kind: "repeat", replies: 3, open: 2 }, "the same reply", "the same reply in a row"],
  ];
  const footers = new Set<string>();
  for (const [reason, name, line] of cases) {
    const memory: Memory = { ...freshMemory("u1"), last: reason };
    assert.ok(describeReason(reason).includes(name), describeReason(reason));
    const footer = footerText(memory, LIST, DEFAULT_CONFIG, undefined) ?? "";
    assert.ok(footer.includes(name), footer);
    footers.add(footer);
    assert.ok(status(memory).some((row) => row.startsWith(`${line}: `)), line);
  }
  assert.equal(footers.size, 3, "three brakes, three footers");
});
