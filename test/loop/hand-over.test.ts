/**
 * A clear list that hands the testing to the person (SPEC §4.23), as pure rules: the hand-over is a fact
 * of the turn; decide(), settle(), the verification judgement and the reach plan make the clear stop one
 * that needs the person — its words, its record, needsYou, the headless line and exit status — while an
 * ordinary clear, `earlier`, a question and a wait stay what they were.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import type { Config, Memory, Reason, StopRecord } from "../../src/core/types.ts";
import { createReach } from "../../src/io/notify.ts";
import type { ReachIo } from "../../src/io/notify.ts";
import { exitStatus, handOverOf, needsPerson, notifies, planReach } from "../../src/core/reach-plan.ts";
import type { StopPayload } from "../../src/core/reach-plan.ts";
import { describeReason, reachText, stopDetail, stopHeadline } from "../../src/core/text.ts";
import { judgeVerify, planVerify } from "../../src/core/verify.ts";
import type { JudgeInput, VerifyCommand, VerifyResult } from "../../src/core/verify.ts";
import { createContext, createFakePi, createSession } from "../fake-pi.ts";
import type { ModeLike } from "../../src/core/pi-shapes.ts";
import { branch, CLEAR, ended, input, LIST, run, seen, settleTurn } from "./facts.ts";

const SENTENCE = "Please test the login page now.";
const WORDS = `stopped: list is clear · the agent asks you to test it: "${SENTENCE}"`;
const MODES: readonly ModeLike[] = ["tui", "rpc", "json", "print"];

/** A settle at a clear list whose reply hands the testing over (or not). */
function atClear(handsOver: string | undefined, question: string | undefined = handsOver) {
  return run(input({ memory: seen(), list: CLEAR, turn: settleTurn({ handsOver, question }) }));
}

test("decide: a clear list whose reply hands the testing over stops as `clear` with the sentence in its words, announced as a warning", () => {
  const decision = atClear(SENTENCE);
  assert.equal(decision.continue, false);
  assert.deepEqual(decision.memory.pending, { reason: { kind: "clear", handsOver: SENTENCE }, open: 0, level: "warning" });
  assert.equal(describeReason(decision.memory.last), WORDS);
});

test("settle: the record keeps kind `clear` and gains handsOver; the notice is a warning", () => {
  const settled = ended(atClear(SENTENCE));
  assert.deepEqual(settled.record, { v: 1, kind: "clear", reason: WORDS, round: 0, open: 0, anchor: "u1", handsOver: SENTENCE });
  assert.deepEqual(settled.notice, { kind: "stop", reason: { kind: "clear", handsOver: SENTENCE }, level: "warning" });
});

test("an offer of extras is an ordinary clear stop: no handsOver, an info notice, the usual words", () => {
  // The question rule reads the offer as a question; at a clear list that changes nothing (SPEC §4.8, §4.23).
  const decision = atClear(undefined, "Want me to also add tests?");
  assert.deepEqual(decision.memory.pending, { reason: { kind: "clear" }, open: 0, level: "info" });
  const settled = ended(decision);
  assert.deepEqual(settled.record, { v: 1, kind: "clear", reason: "stopped: list is clear", round: 0, open: 0, anchor: "u1" });
  assert.equal(settled.notice?.kind === "stop" && settled.notice.level, "info");
  // An empty sentence is no hand-over.
  assert.deepEqual(atClear("").memory.pending?.reason, { kind: "clear" });
});

test("unaffected: with tasks open a hand-over fact changes nothing — the question stop, the wait and the earlier hold keep their kind and words", () => {
  const asked = ended(run(input({ memory: seen(), list: LIST, turn: settleTurn({ handsOver: SENTENCE, question: SENTENCE }) })));
  assert.equal(asked.record?.kind, "question");
  assert.equal(asked.record?.reason, `waiting for you: the agent asked: "${SENTENCE}"`);
  assert.equal(asked.record?.handsOver, undefined);

  const waiting = ended(run(input({ memory: seen({ waiting: { reason: "needs the API key", asked: false } }), list: CLEAR, turn: settleTurn({ handsOver: SENTENCE }) })));
  assert.equal(waiting.record?.kind, "waiting");
  assert.equal(waiting.record?.handsOver, undefined);

  const earlierBranch = branch({ earlier: { open: true, carried: false, adopted: false, shown: undefined, before: "u0" } });
  const earlier = ended(run(input({ memory: seen(), branch: earlierBranch, list: LIST, turn: settleTurn({ handsOver: SENTENCE }) })));
  assert.equal(earlier.record?.kind, "earlier");
  assert.equal(earlier.record?.handsOver, undefined);
  assert.equal(needsPerson({ kind: "earlier", aborted: false }, "print"), false);
});

// ---- the verification judgement -----------------------------------------------------------------------

const SPEC: VerifyCommand = { command: "npm test", timeoutMinutes: 10, maxRuns: 3, source: "user" };

function passed(seconds = 41): VerifyResult {
  return { exit: 0, signal: null, tail: "ok\n", seconds, timedOut: false, aborted: false, error: undefined };
}

function judged(memory: Memory, result: VerifyResult): Memory {
  const given: JudgeInput = { spec: SPEC, base: "clear", result, work: 5, limits: DEFAULT_CONFIG, spend: { tokens: 0, cost: 0, minutes: 1 }, list: CLEAR, queued: false, paused: false };
  return judgeVerify(memory, given).memory;
}

test("verify: a hand-over does not skip the check as a question would; a pass keeps it — the record carries both verify and handsOver", () => {
  const memory = atClear(SENTENCE).memory;
  assert.deepEqual(planVerify(memory, { kind: "run", spec: SPEC }, false, 5, SENTENCE), { kind: "run", spec: SPEC, base: "clear" });
  const after = judged(memory, passed());
  assert.deepEqual(after.pending, { reason: { kind: "verified", base: "clear", command: "npm test", seconds: 41, handsOver: SENTENCE }, open: 0, level: "warning" });
  const settled = ended({ memory: after, continue: false, marker: undefined, notices: [] });
  assert.deepEqual(settled.record, {
    v: 1, kind: "clear", reason: `stopped: list is clear · npm test passed (41 s) · the agent asks you to test it: "${SENTENCE}"`, round: 0, open: 0, anchor: "u1",
    verify: { command: "npm test", exit: 0, seconds: 41 }, handsOver: SENTENCE,
  });
  assert.equal(needsPerson({ kind: "clear", aborted: false, verified: true, handsOver: true }, "print"), true);
});

test("verify: a passing check without a hand-over is the ordinary verified clear; a failing one continues and drops the hand-over", () => {
  const plain = judged(atClear(undefined).memory, passed());
  assert.deepEqual(plain.pending?.reason, { kind: "verified", base: "clear", command: "npm test", seconds: 41 });
  assert.equal(plain.pending?.level, "info");
  const failed = judgeVerify(atClear(SENTENCE).memory, { spec: SPEC, base: "clear", result: { ...passed(), exit: 1 }, work: 5, limits: DEFAULT_CONFIG, spend: { tokens: 0, cost: 0, minutes: 1 }, list: CLEAR, queued: false, paused: false });
  assert.notEqual(failed.marker, undefined, "one continuation with the output");
  assert.equal(failed.memory.pending, undefined);
});

test("verify: after a failed run under this message a reply that waits for the person is still the 0.4 wait, hand-over or not", () => {
  const memo = { command: "npm test", runs: 1, exit: 1, seconds: 3, output: "", workAt: 4 };
  const memory: Memory = { ...atClear(SENTENCE).memory, verify: memo };
  const plan = planVerify(memory, { kind: "run", spec: SPEC }, false, 5, SENTENCE);
  assert.equal(plan.kind, "decided");
  assert.equal(plan.kind === "decided" && plan.memory.pending?.reason.kind, "waiting");
  // After a passing run the hand-over still runs the check first.
  const afterPass: Memory = { ...atClear(SENTENCE).memory, verify: { ...memo, exit: 0 } };
  assert.equal(planVerify(afterPass, { kind: "run", spec: SPEC }, false, 5, SENTENCE).kind, "run");
});

// ---- reaching the person ------------------------------------------------------------------------------

const HANDS_OVER: Reason = { kind: "clear", handsOver: SENTENCE };

test("reach plan: a hand-over needs the person in every mode — needsYou, the notify command under needs-you, the stderr line headless", () => {
  const config = { notify: "needs-you" as const, notifyCommand: ["ping"], exitCode: 4 };
  for (const mode of MODES) {
    const stop = { kind: "clear", aborted: false, handsOver: true };
    assert.equal(needsPerson(stop, mode), true, mode);
    assert.equal(notifies(stop, "needs-you", mode), true, mode);
    assert.equal(notifies(stop, "off", mode), false, mode);
    const plan = planReach(stop, config, mode);
    assert.equal(plan.needsYou, true, mode);
    assert.equal(plan.terminal, mode === "tui", mode);
    assert.equal(plan.stderrLine, mode === "print" || mode === "json", mode);
    assert.equal(exitStatus(stop, config, mode), mode === "print" || mode === "json" ? 4 : undefined, mode);
    // The ordinary clear list stays a stop that needs nobody.
    assert.equal(planReach({ kind: "clear", aborted: false }, config, mode).needsYou, false, mode);
  }
  assert.equal(planReach({ kind: "clear", aborted: false, handsOver: true }, config, "print", true).stderrLine, false, "a quiet child reaches nobody");
});

test("words outside pi: the headline is fixed text, the sentence goes in detail, the summary line carries both", () => {
  assert.equal(handOverOf(HANDS_OVER), SENTENCE);
  assert.equal(handOverOf({ kind: "clear" }), undefined);
  assert.equal(handOverOf({ kind: "verified", base: "emptied", command: "x", seconds: 1, handsOver: SENTENCE }), undefined, "only a clear list hands over");
  assert.equal(stopHeadline(HANDS_OVER), "stopped: list is clear · the agent asks you to test it");
  assert.equal(stopHeadline({ kind: "verified", base: "clear", command: "npm test", seconds: 41, handsOver: SENTENCE }), "stopped: list is clear · npm test passed (41 s) · the agent asks you to test it");
  assert.equal(stopDetail(HANDS_OVER, 200), SENTENCE);
  assert.equal(stopDetail({ kind: "clear" }, 200), null);
  assert.equal(reachText(HANDS_OVER, 0, 3), WORDS);
});

function fakeIo(): ReachIo & { stderr: string[]; terminal: string[]; runs: string[]; exitCode: number | undefined } {
  const io = {
    env: {},
    stderr: [] as string[],
    terminal: [] as string[],
    runs: [] as string[],
    exitCode: undefined as number | undefined,
    writeTerminal: (bytes: string) => void io.terminal.push(bytes),
    writeStderr: (line: string) => void io.stderr.push(line),
    setExitCode(code: number) {
      io.exitCode = code;
    },
    getExitCode: () => io.exitCode,
    async run(_argv: readonly string[], payload: string) {
      io.runs.push(payload);
      return undefined;
    },
    memo: { lastProblems: undefined },
  };
  return io;
}

function record(reason: Reason, handsOver?: string): StopRecord {
  return { v: 1, kind: "clear", reason: describeReason(reason), round: 2, open: 0, anchor: "u1", ...(handsOver ? { handsOver } : {}) };
}

test("headless effects: a hand-over writes the stderr line, sets exitCode and runs the notify command with needsYou; an offer's clear does none of it", async () => {
  const config: Config = { ...DEFAULT_CONFIG, notifyCommand: ["ping"], exitCode: 3 };
  const pi = createFakePi();
  const emitted: unknown[] = [];
  pi.events = { emit: (_channel, data) => void emitted.push(data) };
  const ctx = createContext({ session: createSession([], "sid-1"), cwd: "/work/project", mode: "print", hasUI: false });
  const io = fakeIo();
  const reach = createReach(pi, io);
  await reach.settled(ctx, config, { ended: HANDS_OVER, record: record(HANDS_OVER, SENTENCE), total: 3 });
  assert.deepEqual(io.stderr, [`todo loop: ${WORDS}`]);
  assert.equal(io.exitCode, 3);
  assert.equal(io.runs.length, 1);
  const payload = JSON.parse(io.runs[0] ?? "") as StopPayload;
  assert.deepEqual({ kind: payload.kind, reason: payload.reason, detail: payload.detail, needsYou: payload.needsYou, open: payload.open, total: payload.total }, {
    kind: "clear", reason: "stopped: list is clear · the agent asks you to test it", detail: SENTENCE, needsYou: true, open: 0, total: 3,
  });
  assert.deepEqual(emitted, [payload], "the event carries the same payload");
  // The next run ends on an ordinary clear list (the offer): no line, no command, the exit status undone.
  await reach.settled(ctx, config, { ended: { kind: "clear" }, record: record({ kind: "clear" }), total: 3 });
  assert.equal(io.stderr.length, 1);
  assert.equal(io.runs.length, 1);
  assert.equal(io.exitCode, 0);
  assert.equal((emitted[1] as StopPayload).needsYou, false);
});
