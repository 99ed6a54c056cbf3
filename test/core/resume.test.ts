/**
 * Picking up a run that died with pi: how a branch ends (every end a death leaves, what a finished run
 * leaves, entries that say nothing, malformed last entries), which session starts may ask or re-arm a
 * wait, the decision over paused, kill switch, nothing open and limit waits past, pending, unreadable or
 * absurd, the channel per mode, and the wording of the question.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  decideResume,
  marksRestart,
  readTail,
  RESUME_CONFIRM_TIMEOUT_MS,
  resumeChannel,
  startMayAsk,
  startMayRearm,
} from "../../src/core/resume.ts";
import { MAX_LIMIT_WAIT_CEILING_MINUTES } from "../../src/core/limit-wait.ts";
import { resumeNotice, resumeQuestion } from "../../src/core/text.ts";
import type { ResumeDecision, ResumeFacts, TailSummary } from "../../src/core/resume.ts";
import type { ModeLike } from "../../src/core/pi-shapes.ts";
import { assistant, assistantCalls, callResult, chain, control, customEntry, customMessage, marker, stopRecord, user } from "../builders.ts";
import type { Entry, MessageEntry } from "../builders.ts";

const NOW = Date.UTC(2026, 0, 5, 15, 0, 0);
const MIN = 60_000;

/** An assistant message that ended with `stopReason` (pi writes `aborted` on Escape or shutdown, `error` on a final provider error). */
function ended(stopReason: string, errorMessage?: string): MessageEntry {
  const message = { role: "assistant", content: [], stopReason, timestamp: 2, ...(errorMessage === undefined ? {} : { errorMessage }) };
  return { type: "message", timestamp: "2026-01-05T14:00:00.000Z", message };
}

function limitWait(resumeAt: unknown): Entry {
  return customEntry("todo-loop:stop", { v: 1, kind: "limit-wait", reason: "waiting for the usage limit", round: 1, open: 2, anchor: "u1", resumeAt });
}

function abortRecord(extra: Record<string, unknown> = {}): Entry {
  return customEntry("todo-loop:stop", { v: 1, kind: "outcome", reason: "stopped: turn was aborted", round: 1, open: 2, anchor: "u1", ...extra });
}

const HUMAN = user("Do the work", { id: "u1" });
const MODEL = { type: "model_change", provider: "anthropic", modelId: "claude" };
const THINKING = { type: "thinking_level_change", thinkingLevel: "high" };

function tail(...entries: unknown[]): TailSummary {
  return readTail(entries);
}

function facts(summary: TailSummary, overrides: Partial<ResumeFacts> = {}): ResumeFacts {
  return { reason: "startup", tail: summary, open: 2, total: 5, paused: false, killSwitch: false, nowMs: NOW, ...overrides };
}

// ---- how the branch ends ----

test("0.5: a resumed start marks the restart when the dead run ended on a marker or a tool result; never a fresh start, /reload, /new or a fork, nor a run that ended", () => {
  const onMarker = tail(...chain(HUMAN, assistant(), marker({ round: 1, anchor: "u1" })));
  const onResult = tail(...chain(HUMAN, assistantCalls([{ id: "c1", name: "bash" }]), callResult("c1", "bash"), MODEL));
  for (const summary of [onMarker, onResult]) {
    assert.equal(marksRestart("startup", summary), true);
    assert.equal(marksRestart("resume", summary), true);
    for (const reason of ["reload", "new", "fork", undefined]) assert.equal(marksRestart(reason, summary), false, String(reason));
  }
  for (const summary of [tail(...chain(HUMAN)), tail(...chain(HUMAN, assistantCalls([{ id: "c1", name: "bash" }]))), tail(...chain(HUMAN, ended("aborted"))), tail(...chain(HUMAN, assistant())), tail(...chain(HUMAN, assistant(), marker({ round: 1, anchor: "u1" }), assistant(), stopRecord({ reason: "x", anchor: "u1", kind: "idle" }))), tail()]) {
    assert.equal(marksRestart("startup", summary), false, summary.end);
  }
  // The restart's own record says nothing of the run: a second restart still finds the dead run (and asks again).
  const again = tail(...chain(HUMAN, assistant(), marker({ round: 1, anchor: "u1" }), customEntry("todo-loop:restart", { v: 1 })));
  assert.deepEqual([again.end, again.restarted], ["marker", true]);
  assert.equal(decideResume(facts(again)).kind, "ask");
  assert.equal(marksRestart("startup", again), false, "recorded once: not again at the second start");
  const after = tail(...chain(HUMAN, assistant(), marker({ round: 1, anchor: "u1" }), customEntry("todo-loop:restart", { v: 1 }), MODEL));
  assert.equal(marksRestart("startup", after), false, "entries that say nothing of the run after it do not matter");
  const older = tail(...chain(HUMAN, assistant(), customEntry("todo-loop:restart", { v: 1 }), marker({ round: 1, anchor: "u1" })));
  assert.equal(marksRestart("startup", older), true, "a restart before the run's own end is an older one");
});

test("every end a death leaves is read as such", () => {
  assert.equal(tail(...chain(HUMAN)).end, "human");
  assert.equal(tail(...chain(HUMAN, assistant(), stopRecord({ reason: "x", anchor: "u1", kind: "idle" }), marker({ round: 1, anchor: "u1" }))).end, "marker");
  assert.equal(tail(...chain(HUMAN, assistantCalls([{ id: "c1", name: "bash" }]))).end, "tool-call");
  assert.equal(tail(...chain(HUMAN, assistantCalls([{ id: "c1", name: "bash" }]), callResult("c1", "bash"))).end, "tool-result");
  assert.equal(tail(...chain(HUMAN, ended("aborted"))).end, "aborted");
  assert.equal(tail(...chain(HUMAN, ended("error", "529 overloaded"))).end, "errored");
});

test("pi's retries leave several errored replies in one run: the newest decides", () => {
  const limit = '429 {"type":"error","error":{"type":"rate_limit_error","message":"x"}}';
  const retried = chain(HUMAN, ended("error", limit), ended("error", limit), ended("error", limit));
  assert.deepEqual(readTail(retried), { end: "errored", outcomeRecorded: false });
  assert.deepEqual(decideResume(facts(readTail(retried))), { kind: "ask", cause: "died", open: 2, total: 5 });
  const thenWaited = [...retried, limitWait("2026-01-05T15:20:00.000Z")];
  assert.deepEqual(decideResume(facts(readTail(thenWaited))), { kind: "rearm", resumeAtMs: Date.UTC(2026, 0, 5, 15, 20) });
});

test("what a finished run leaves is read as such", () => {
  assert.equal(tail(...chain(HUMAN, assistant())).end, "reply");
  assert.equal(tail(...chain(HUMAN, ended("length"))).end, "reply");
  const stopped = tail(...chain(HUMAN, assistant(), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" })));
  assert.deepEqual(stopped, { end: "stopped", stop: { kind: "clear", resumeAt: undefined, hasResumeAt: false, shutdown: false }, outcomeRecorded: false });
  assert.equal(tail(...chain(HUMAN, ended("aborted"), abortRecord())).end, "stopped");
  assert.equal(tail(...chain(HUMAN, ended("aborted"), abortRecord(), control("pause"))).end, "control");
});

test("a session with no human message reads as empty", () => {
  assert.deepEqual(tail(), { end: "empty", outcomeRecorded: false });
  assert.deepEqual(tail(MODEL, THINKING), { end: "empty", outcomeRecorded: false });
});

test("a fresh startup asks nothing; resuming a session with no human message finds no run to pick up", () => {
  assert.deepEqual(decideResume(facts(tail(MODEL), { reason: "startup" })), { kind: "none", why: "start" });
  assert.deepEqual(decideResume(facts(tail(MODEL), { reason: "resume" })), { kind: "none", why: "ended" });
});

test("entries that say nothing of the run are skipped", () => {
  const quiet = [
    MODEL,
    THINKING,
    { type: "label", targetId: "u1", label: "x" },
    { type: "session_info", name: "work" },
    { type: "compaction", summary: "s", firstKeptEntryId: "u1", tokensBefore: 1 },
    customEntry("rpiv-todo:state", { tasks: [] }),
    customMessage("subagent-notify"),
    { type: "message", message: { role: "bashExecution", command: "ls", output: "" } },
    { type: "message", message: { role: "custom-role" } },
  ];
  assert.equal(tail(...chain(HUMAN, assistantCalls([{ id: "c1", name: "bash" }])), ...quiet).end, "tool-call");
  assert.equal(tail(...chain(HUMAN, assistant(), stopRecord({ reason: "x", anchor: "u1", kind: "waiting" })), ...quiet).end, "stopped");
});

test("a malformed last entry (a line cut short when pi was killed) is skipped", () => {
  const malformed: unknown[] = [
    null,
    undefined,
    "{\"type\":\"mess",
    42,
    [],
    {},
    { type: 7 },
    { type: "message" },
    { type: "message", message: "hello" },
    { type: "message", message: null },
    { type: "message", message: { role: 5 } },
    { type: "custom" },
    { type: "custom_message", customType: 1 },
    { customType: "todo-loop:stop", data: { kind: "idle" } },
    { type: "session_info", customType: "todo-loop:control" },
  ];
  for (const bad of malformed) {
    assert.equal(tail(...chain(HUMAN, callResult("c1", "bash")), bad).end, "tool-result", JSON.stringify(bad) ?? String(bad));
  }
});

test("a stop record whose data is damaged still ends the run", () => {
  for (const data of [undefined, null, "x", [], { kind: 5 }]) {
    const summary = tail(...chain(HUMAN, assistant()), customEntry("todo-loop:stop", data));
    assert.equal(summary.end, "stopped");
    assert.equal(summary.stop?.kind, undefined);
  }
  const legacy = tail(...chain(HUMAN, assistant(), stopRecord({ reason: "stopped: list is clear", anchor: "u1" })));
  assert.deepEqual(legacy.stop, { kind: undefined, resumeAt: undefined, hasResumeAt: false, shutdown: false });
});

test("an abort after an abort already recorded in the same run is not a death", () => {
  const other = customMessage("subagent-notify");
  const summary = tail(...chain(HUMAN, ended("aborted"), abortRecord(), other, ended("aborted")));
  assert.deepEqual(summary, { end: "aborted", outcomeRecorded: true });
  // A marker between them starts a new run: the second abort was never recorded.
  const later = tail(...chain(HUMAN, ended("aborted"), abortRecord(), marker({ round: 1, anchor: "u1" }), ended("aborted")));
  assert.deepEqual(later, { end: "aborted", outcomeRecorded: false });
  // Another kind of stop earlier in the run does not count.
  const kinds = tail(...chain(HUMAN, assistant(), stopRecord({ reason: "x", anchor: "u1", kind: "idle" }), other, ended("error", "boom")));
  assert.deepEqual(kinds, { end: "errored", outcomeRecorded: false });
});

test("an error after an error already recorded in the same run is not a death", () => {
  const errorRecord = stopRecord({ reason: "stopped: turn outcome was error", anchor: "u1", kind: "outcome" });
  const summary = tail(...chain(HUMAN, ended("error", "boom"), errorRecord, customMessage("subagent-notify"), ended("error", "boom")));
  assert.deepEqual(summary, { end: "errored", outcomeRecorded: true });
  assert.deepEqual(decideResume(facts(summary)), { kind: "none", why: "ended" });
});

test("a new human message starts a new run: an abort recorded before it does not cover the abort after it", () => {
  const summary = tail(...chain(HUMAN, ended("aborted"), abortRecord(), user("Go on", { id: "u2" }), ended("aborted")));
  assert.deepEqual(summary, { end: "aborted", outcomeRecorded: false });
  assert.deepEqual(decideResume(facts(summary)), { kind: "ask", cause: "died", open: 2, total: 5 });
});

test("only an aborted or errored end looks back for a recorded stop", () => {
  const before = [HUMAN, ended("aborted"), abortRecord()];
  assert.deepEqual(tail(...chain(...before, assistantCalls([{ id: "c1", name: "bash" }]))), { end: "tool-call", outcomeRecorded: false });
  assert.deepEqual(tail(...chain(...before, assistant())), { end: "reply", outcomeRecorded: false });
});

test("a very long branch is read from its end", () => {
  const many: unknown[] = [];
  for (let index = 0; index < 50_000; index += 1) many.push(THINKING);
  assert.equal(tail(...chain(HUMAN), ...many).end, "human");
});

// ---- which session starts ----

test("startup of a session with messages and resume may ask; new, fork, reload and a fresh startup never", () => {
  assert.equal(startMayAsk("startup", true), true);
  assert.equal(startMayAsk("resume", true), true);
  assert.equal(startMayAsk("startup", false), false);
  for (const reason of ["new", "fork", "reload", "clone", undefined, null, 5, "STARTUP", ""]) {
    assert.equal(startMayAsk(reason, true), false, String(reason));
  }
});

test("reload may re-arm a pending wait but never asks", () => {
  assert.equal(startMayRearm("reload", true), true);
  assert.equal(startMayRearm("reload", false), false);
  assert.equal(startMayRearm("new", true), false);
  assert.equal(startMayRearm("fork", true), false);
  const pending = tail(...chain(HUMAN, ended("error", "429"), limitWait(new Date(NOW + 10 * MIN).toISOString())));
  assert.deepEqual(decideResume(facts(pending, { reason: "reload" })), { kind: "rearm", resumeAtMs: NOW + 10 * MIN });
  assert.deepEqual(decideResume(facts(tail(...chain(HUMAN)), { reason: "reload" })), { kind: "none", why: "start" });
});

// ---- the decision ----

test("a run that died is asked about, with its counts", () => {
  const deaths = [
    chain(HUMAN),
    chain(HUMAN, assistant(), marker({ round: 1, anchor: "u1" })),
    chain(HUMAN, assistantCalls([{ id: "c1", name: "bash" }])),
    chain(HUMAN, assistantCalls([{ id: "c1", name: "bash" }]), callResult("c1", "bash")),
    chain(HUMAN, ended("aborted")),
    chain(HUMAN, ended("error", "429 rate limit")),
  ];
  for (const branch of deaths) {
    assert.deepEqual(decideResume(facts(readTail(branch))), { kind: "ask", cause: "died", open: 2, total: 5 });
    assert.deepEqual(decideResume(facts(readTail(branch), { reason: "resume" })), { kind: "ask", cause: "died", open: 2, total: 5 });
  }
});

test("a run the loop saw end is not asked about", () => {
  const finished = [
    chain(HUMAN, assistant()),
    chain(HUMAN, assistant(), stopRecord({ reason: "x", anchor: "u1", kind: "idle" })),
    chain(HUMAN, ended("aborted"), abortRecord()),
    chain(HUMAN, ended("error", "boom"), stopRecord({ reason: "stopped: turn outcome was error", anchor: "u1", kind: "outcome" })),
    chain(HUMAN, ended("aborted"), control("reset")),
    chain(HUMAN, ended("aborted"), abortRecord(), customMessage(), ended("aborted")),
  ];
  for (const branch of finished) assert.deepEqual(decideResume(facts(readTail(branch))), { kind: "none", why: "ended" });
});

test("a stop summary without its record ends the run", () => {
  assert.deepEqual(decideResume(facts({ end: "stopped", outcomeRecorded: false })), { kind: "none", why: "ended" });
});

test("a mark that belongs to another kind of stop is not read: shutdown only on an abort record, resumeAt only on a limit wait", () => {
  const idleAtShutdown = tail(...chain(HUMAN, assistant(), customEntry("todo-loop:stop", { v: 1, kind: "idle", reason: "x", round: 1, open: 2, anchor: "u1", shutdown: true })));
  assert.deepEqual(decideResume(facts(idleAtShutdown)), { kind: "none", why: "ended" });
  const idleWithTime = tail(...chain(HUMAN, assistant(), customEntry("todo-loop:stop", { v: 1, kind: "idle", reason: "x", round: 1, open: 2, anchor: "u1", resumeAt: "2026-01-05T14:30:00.000Z" })));
  assert.deepEqual(decideResume(facts(idleWithTime)), { kind: "none", why: "ended" });
});

test("an abort recorded while pi was shutting down counts as a death", () => {
  const summary = tail(...chain(HUMAN, ended("aborted"), abortRecord({ shutdown: true })));
  assert.deepEqual(decideResume(facts(summary)), { kind: "ask", cause: "shutdown", open: 2, total: 5 });
  const notTrue = tail(...chain(HUMAN, ended("aborted"), abortRecord({ shutdown: "yes" })));
  assert.equal(decideResume(facts(notTrue)).kind, "none");
});

test("paused, the kill switch and no open task ask nothing", () => {
  const died = tail(...chain(HUMAN));
  assert.deepEqual(decideResume(facts(died, { paused: true })), { kind: "none", why: "paused" });
  assert.deepEqual(decideResume(facts(died, { killSwitch: true })), { kind: "none", why: "kill-switch" });
  assert.deepEqual(decideResume(facts(died, { killSwitch: true, paused: true })), { kind: "none", why: "kill-switch" });
  for (const open of [0, -1, Number.NaN, 0.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.deepEqual(decideResume(facts(died, { open })), { kind: "none", why: "nothing-open" }, String(open));
});

test("strange counts are made whole, and the total is never below the open count", () => {
  const died = tail(...chain(HUMAN));
  assert.deepEqual(decideResume(facts(died, { open: 2.7, total: Number.NaN })), { kind: "ask", cause: "died", open: 2, total: 2 });
  assert.deepEqual(decideResume(facts(died, { open: 3, total: 1 })), { kind: "ask", cause: "died", open: 3, total: 3 });
  assert.deepEqual(decideResume(facts(died, { open: 2, total: Number.POSITIVE_INFINITY })), { kind: "ask", cause: "died", open: 2, total: 2 });
});

test("new, fork and reload never ask, even about a death", () => {
  const died = tail(...chain(HUMAN));
  for (const reason of ["new", "fork", "reload"]) assert.equal(decideResume(facts(died, { reason })).kind, "none", reason);
  for (const reason of ["new", "fork"]) {
    for (const overrides of [{}, { paused: true }, { killSwitch: true }, { open: 0 }]) {
      assert.deepEqual(decideResume(facts(died, { reason, ...overrides })), { kind: "none", why: "start" }, `${reason} ${JSON.stringify(overrides)}`);
    }
  }
});

test("a limit wait still to come is armed again, one whose time passed is asked about", () => {
  const pending = tail(...chain(HUMAN, ended("error", "429"), limitWait("2026-01-05T15:30:00.000Z")));
  assert.deepEqual(decideResume(facts(pending)), { kind: "rearm", resumeAtMs: Date.UTC(2026, 0, 5, 15, 30) });
  const passed = tail(...chain(HUMAN, ended("error", "429"), limitWait("2026-01-05T14:30:00.000Z")));
  assert.deepEqual(decideResume(facts(passed)), { kind: "ask", cause: "limit-passed", open: 2, total: 5 });
  const exactlyNow = tail(...chain(HUMAN, ended("error", "429"), limitWait(new Date(NOW).toISOString())));
  assert.equal(decideResume(facts(exactlyNow)).kind, "ask");
});

test("a limit wait as far ahead as the longest wait allowed is armed again; a millisecond further is asked about", () => {
  const longest = NOW + MAX_LIMIT_WAIT_CEILING_MINUTES * MIN;
  const atCeiling = tail(...chain(HUMAN, ended("error", "429"), limitWait(new Date(longest).toISOString())));
  assert.deepEqual(decideResume(facts(atCeiling)), { kind: "rearm", resumeAtMs: longest });
  const beyond = tail(...chain(HUMAN, ended("error", "429"), limitWait(new Date(longest + 1).toISOString())));
  assert.deepEqual(decideResume(facts(beyond)), { kind: "ask", cause: "limit-passed", open: 2, total: 5 });
});

test("a limit wait's resumeAt that cannot be read, or lies further than any wait, is asked about", () => {
  for (const resumeAt of ["soon", "", 0, -1, {}, [], true, "2026-13-45T99:00:00Z", "2027-01-05T15:00:00.000Z"]) {
    const summary = tail(...chain(HUMAN, ended("error", "429"), limitWait(resumeAt)));
    assert.deepEqual(decideResume(facts(summary)), { kind: "ask", cause: "limit-passed", open: 2, total: 5 }, JSON.stringify(resumeAt));
  }
});

test("a limit wait without resumeAt (the loop gave up waiting) needs the person, not a question", () => {
  for (const resumeAt of [undefined, null]) {
    const summary = tail(...chain(HUMAN, ended("error", "429"), limitWait(resumeAt)));
    assert.deepEqual(decideResume(facts(summary)), { kind: "none", why: "ended" });
  }
});

test("a clock that jumped: the pending wait is judged by the clock now", () => {
  const resumeAt = "2026-01-05T15:30:00.000Z";
  const summary = tail(...chain(HUMAN, ended("error", "429"), limitWait(resumeAt)));
  assert.equal(decideResume(facts(summary, { nowMs: Date.UTC(2026, 0, 6) })).kind, "ask");
  assert.equal(decideResume(facts(summary, { nowMs: Date.UTC(2026, 0, 5, 15, 29) })).kind, "rearm");
  assert.equal(decideResume(facts(summary, { nowMs: Date.UTC(2026, 0, 4, 15, 0) })).kind, "ask");
  assert.equal(decideResume(facts(summary, { nowMs: Number.NaN })).kind, "ask");
});

test("a limit wait followed by its continuation that then died is a death", () => {
  const summary = tail(...chain(HUMAN, ended("error", "429"), limitWait("2026-01-05T14:30:00.000Z"), marker({ round: 2, anchor: "u1" })));
  assert.deepEqual(decideResume(facts(summary)), { kind: "ask", cause: "died", open: 2, total: 5 });
});

// ---- channel and wording ----

test("the question is a dialog in the TUI, a notify over RPC, nothing in print or JSON", () => {
  const ask: ResumeDecision = { kind: "ask", cause: "died", open: 2, total: 5 };
  const rearm: ResumeDecision = { kind: "rearm", resumeAtMs: NOW + MIN };
  const none: ResumeDecision = { kind: "none", why: "ended" };
  const expected: Record<string, readonly string[]> = { tui: ["confirm", "timer", "none"], rpc: ["notify", "timer", "none"], print: ["none", "none", "none"], json: ["none", "none", "none"] };
  for (const mode of ["tui", "rpc", "print", "json"] satisfies ModeLike[]) {
    assert.deepEqual([ask, rearm, none].map((decision) => resumeChannel(decision, mode)), expected[mode], mode);
  }
  assert.deepEqual([ask, rearm].map((decision) => resumeChannel(decision, undefined)), ["none", "none"]);
  assert.equal(RESUME_CONFIRM_TIMEOUT_MS, 60_000);
});

test("the question and the notice say how many tasks are open and what to do", () => {
  assert.equal(resumeQuestion({ cause: "died", open: 2, total: 5 }), "The last run stopped with 2 of 5 tasks open when pi exited. Continue now?");
  assert.equal(resumeQuestion({ cause: "shutdown", open: 1, total: 1 }), "The last run stopped with 1 of 1 task open when pi exited. Continue now?");
  assert.equal(
    resumeQuestion({ cause: "limit-passed", open: 3, total: 4 }),
    "The last run was waiting for the usage limit with 3 of 4 tasks open when pi exited; its time has passed. Continue now?",
  );
  assert.equal(resumeNotice({ cause: "died", open: 2, total: 5 }), "todo loop: the last run stopped with 2 of 5 tasks open when pi exited. /todoloop continue picks it up.");
});
