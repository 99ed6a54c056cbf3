/**
 * A run that ends on a usage or rate limit (SPEC §4.20), decided in the core: which error becomes a
 * `limit-wait` and which stays an error stop, the record it leaves, the words, who is reached, whether a
 * wait is still due when its timer fires, what the wake does, and `maxLimitWaitMinutes`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG, parseConfig } from "../../src/config.ts";
import { decide, freshMemory, NO_EARLIER, settle, stopKind } from "../../src/loop.ts";
import { limitStop, limitWake, readLimitRun, wakeDue, withLimitStop, withoutTimer } from "../../src/core/limit-stop.ts";
import type { LimitRun, WakeFacts } from "../../src/core/limit-stop.ts";
import type { LimitWaitReason, ListState, Memory, PendingStop, Reason, VerifyMemo } from "../../src/core/types.ts";
import { branch, CLEAR, input, seen, settleTurn } from "../loop/facts.ts";
import { describeReason, footerText, headlessLine, reachText, statusText, stopHeadline } from "../../src/core/text.ts";
import { needsPerson, notifies, planReach } from "../../src/core/reach-plan.ts";

/** 15:05 local time on a fixed day, so clock times read the same in every time zone. */
const NOW = new Date(2026, 0, 5, 15, 5, 0).getTime();
const MIN = 60_000;
const ANTHROPIC_429 = '429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization"},"request_id":"req_011"}';
const CODEX_37 = "You have hit your ChatGPT usage limit (plus plan). Try again in ~37 min.";
const QUOTA = "429 You exceeded your current quota, please check your plan and billing details. (insufficient_quota)";
const ERROR_STOP: PendingStop = { reason: { kind: "outcome", outcome: "error" }, open: 2, level: "warning" };

function run(message: unknown, prior: readonly (number | undefined)[] = [], atMs: number | undefined = NOW): LimitRun {
  return { error: { message, atMs }, prior };
}

function decided(message: unknown, options: { prior?: readonly (number | undefined)[]; cap?: number; timer?: boolean; pending?: PendingStop; atMs?: number } = {}): PendingStop {
  return limitStop({
    pending: options.pending ?? ERROR_STOP,
    run: run(message, options.prior ?? [], options.atMs ?? NOW),
    capMinutes: options.cap ?? 300,
    nowMs: NOW,
    timer: options.timer ?? true,
  });
}

function waiting(stop: PendingStop): Extract<LimitWaitReason, { state: "waiting" }> {
  const reason = stop.reason;
  assert.ok(reason.kind === "limit-wait" && reason.state === "waiting", `not a wait: ${JSON.stringify(reason)}`);
  return reason;
}

// ---- which errors wait ----

test("a 429 rate_limit_error with tasks open (Anthropic, no time stated) waits the first backoff step: 5 minutes, announced with the time", () => {
  const stop = decided(ANTHROPIC_429);
  const reason = waiting(stop);
  assert.deepEqual(reason, { kind: "limit-wait", state: "waiting", resumeAtMs: NOW + 5 * MIN, waitMinutes: 5, atMs: NOW, first: true, timer: true });
  assert.equal(stop.open, 2);
  assert.equal(stop.level, "warning");
  assert.equal(stopKind(reason), "limit-wait");
  assert.equal(describeReason(reason), "waiting for the usage limit: continuing at 15:10 (in 5 min) · /todoloop pause to cancel");
});

test("Codex's 'Try again in ~37 min' waits until then, counted from the error (plus the half minute Codex rounds away)", () => {
  const reason = waiting(decided(CODEX_37, { atMs: NOW }));
  assert.equal(reason.resumeAtMs, NOW + 37.5 * MIN);
  assert.equal(describeReason(reason), "waiting for the usage limit: continuing at 15:42 (in 38 min) · /todoloop pause to cancel");
});

test("a quota or billing error stays an ordinary error stop, even as a 429 that says usage limit", () => {
  for (const text of [QUOTA, "Monthly usage limit reached", "429 billing_hard_limit_reached", '{"error":{"code":"insufficient_quota","message":"usage limit"}}']) {
    assert.equal(decided(text), ERROR_STOP, text);
  }
});

test("maxLimitWaitMinutes 0 turns the rule off: a limit is an ordinary error stop", () => {
  assert.equal(decided(ANTHROPIC_429, { cap: 0 }), ERROR_STOP);
  assert.equal(describeReason(ERROR_STOP.reason), "stopped: turn outcome was error");
});

test("errors that are no limit, an abort, and a run with nothing open keep their stop", () => {
  assert.equal(decided('400 {"type":"error","error":{"type":"invalid_request_error","message":"text \\"fix the rate limit bug\\" is too long"}}'), ERROR_STOP, "rate limit inside a quoted user string");
  assert.equal(decided("Connection reset by peer"), ERROR_STOP);
  const aborted: PendingStop = { reason: { kind: "outcome", outcome: "aborted" }, open: 2, level: "warning" };
  assert.equal(decided(ANTHROPIC_429, { pending: aborted }), aborted);
  const nothingOpen: PendingStop = { ...ERROR_STOP, open: 0 };
  assert.equal(decided(ANTHROPIC_429, { pending: nothingOpen }), nothingOpen);
  const other: PendingStop = { reason: { kind: "idle", replies: 3, open: 2 }, open: 2, level: "warning" };
  assert.equal(decided(ANTHROPIC_429, { pending: other }), other);
  assert.equal(limitStop({ pending: ERROR_STOP, run: { error: undefined, prior: [] }, capMinutes: 300, nowMs: NOW, timer: true }), ERROR_STOP, "no error on the branch");
  for (const text of [undefined, null, 42, { message: "rate limit" }, ""]) assert.equal(decided(text), ERROR_STOP, String(text));
});

test("'Try again in ~0 min' still waits a minute, so repeated waits spend the cap and end", () => {
  assert.equal(waiting(decided("You have hit your ChatGPT usage limit (pro plan). Try again in ~0 min.")).waitMinutes, 1);
});

test("a huge N is not waited: the limit resets past what maxLimitWaitMinutes leaves, which needs the person, and is said as more than 7 days, never a clamped time", () => {
  for (const minutes of ["99999999999", "5256000"]) {
    const stop = decided(`You have hit your ChatGPT usage limit (plus plan). Try again in ~${minutes} min.`);
    assert.equal(stop.reason.kind, "limit-wait");
    assert.ok(stop.reason.kind === "limit-wait" && stop.reason.state === "gave-up" && stop.reason.why === "too-far");
    assert.equal(describeReason(stop.reason), "stopped: the usage limit resets in more than 7 days", minutes);
    assert.equal(stop.level, "warning");
  }
});

test("a stated reset between 24 hours and 7 days away is said with its day: resets at Tue 15:42", () => {
  const stop = decided("You have hit your ChatGPT usage limit (plus plan). Try again in ~2880 min.");
  assert.ok(stop.reason.kind === "limit-wait" && stop.reason.state === "gave-up");
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(NOW + 2880 * 60_000 + 30_000).getDay()];
  assert.match(describeReason(stop.reason), new RegExp(`^stopped: the usage limit resets at ${day} \\d\\d:\\d\\d \\(in 48 h[^)]*\\), past the 300 minutes of maxLimitWaitMinutes$`));
});

test("the waits under one message add up to the cap, then: stopped: still rate limited after 300 minutes (kind limit-wait, no resumeAt)", () => {
  const stop = decided(ANTHROPIC_429, { prior: [5, 10, 20, 40, 60, 60, 60, 45] });
  assert.deepEqual(stop.reason, { kind: "limit-wait", state: "gave-up", why: "spent", capMinutes: 300, atMs: NOW });
  assert.equal(describeReason(stop.reason), "stopped: still rate limited after 300 minutes");
  const settled = settle({ ...freshMemory("u1"), hadWork: true, round: 4, pending: stop }, false, describeReason);
  assert.deepEqual(settled.record, { v: 1, kind: "limit-wait", reason: "stopped: still rate limited after 300 minutes", round: 4, open: 2, anchor: "u1" });
  assert.equal(needsPerson({ kind: "limit-wait", aborted: false }, "tui"), true);
});

test("a second limit error under the same message waits the next step, quietly: it notifies nothing", () => {
  const stop = decided(ANTHROPIC_429, { prior: [5] });
  const reason = waiting(stop);
  assert.equal(reason.waitMinutes, 10);
  assert.equal(reason.first, false);
  assert.equal(stop.level, "info");
  const later = { kind: "limit-wait", aborted: false, laterWait: true };
  assert.equal(needsPerson(later, "tui"), false);
  assert.equal(needsPerson(later, "print"), false);
  assert.equal(notifies(later, "all", "tui"), false);
  assert.equal(planReach(later, { notify: "needs-you", notifyCommand: ["notify-send"], exitCode: 3 }, "tui").command, "none");
  const first = { kind: "limit-wait", aborted: false };
  assert.equal(needsPerson(first, "tui"), true);
  assert.deepEqual(planReach(first, { notify: "needs-you", notifyCommand: ["notify-send"], exitCode: 3 }, "tui"), { needsYou: true, terminal: true, command: "start", stderrLine: false, event: true });
});

test("a damaged earlier record counts as the backoff step it would have been", () => {
  assert.equal(waiting(decided(ANTHROPIC_429, { prior: [undefined] })).waitMinutes, 10);
});

test("a clock set back does not stretch a stated wait; one set forward past the reset waits the minimum", () => {
  assert.equal(waiting(decided(CODEX_37, { atMs: NOW + 60 * MIN })).resumeAtMs, NOW + 37.5 * MIN, "the error is dated an hour ahead of now");
  assert.equal(waiting(decided(CODEX_37, { atMs: NOW - 120 * MIN })).waitMinutes, 1, "the reset is an hour and a half past");
});

test("print and JSON mode: no timer, the reason names the limit and pi -c, and the stderr line says it", () => {
  const reason = waiting(decided(ANTHROPIC_429, { timer: false }));
  assert.equal(describeReason(reason), "stopped: usage limit reached: it resets about 15:10 (in 5 min); run pi -c then to continue");
  assert.equal(headlessLine(reachText(reason, 2, 5)), "todo loop: stopped: usage limit reached: it resets about 15:10 (in 5 min); run pi -c then to continue, 2 of 5 tasks open");
  assert.equal(planReach({ kind: "limit-wait", aborted: false }, { notify: "needs-you", notifyCommand: null, exitCode: 3 }, "print").stderrLine, true);
});

// ---- the record, the memory, the words ----

test("the record of a wait carries resumeAt (ISO) and waitMinutes; the memory shows the wait as last", () => {
  const memory: Memory = { ...freshMemory("u1"), hadWork: true, round: 2, pending: ERROR_STOP, last: ERROR_STOP.reason };
  const next = withLimitStop(memory, { run: run(ANTHROPIC_429), capMinutes: 300, nowMs: NOW, timer: true });
  assert.equal(next.last, next.pending?.reason);
  const settled = settle(next, false, describeReason);
  assert.deepEqual(settled.record, {
    v: 1,
    kind: "limit-wait",
    reason: "waiting for the usage limit: continuing at 15:10 (in 5 min) · /todoloop pause to cancel",
    round: 2,
    open: 2,
    anchor: "u1",
    resumeAt: new Date(NOW + 5 * MIN).toISOString(),
    waitMinutes: 5,
  });
  assert.equal(withLimitStop({ ...memory, pending: undefined }, { run: run(ANTHROPIC_429), capMinutes: 300, nowMs: NOW, timer: true }).pending, undefined);
  assert.equal(withLimitStop(memory, { run: run("500 internal"), capMinutes: 300, nowMs: NOW, timer: true }), memory, "an error that is no limit leaves the memory as it is");
});

test("footer and /todoloop while waiting: resumes at 15:42, the counts after; paused and the kill switch win", () => {
  const list: ListState = { kind: "list", open: 2, total: 5, signature: "s", source: "rpiv-todo", tool: "todo" };
  const reason: Reason = { kind: "limit-wait", state: "waiting", resumeAtMs: NOW + 37 * MIN, waitMinutes: 37, atMs: NOW, first: true, timer: true };
  const memory: Memory = { ...freshMemory("u1"), last: reason, announced: ["limit-wait"] };
  assert.equal(footerText(memory, list, DEFAULT_CONFIG, undefined), "todo loop: resumes at 15:42 · todo 2 of 5 open");
  assert.match(footerText({ ...memory, paused: true }, list, DEFAULT_CONFIG, undefined) ?? "", /^todo loop paused/);
  assert.equal(footerText(memory, list, DEFAULT_CONFIG, "/x/todo-loop-off"), "todo loop off");
  assert.doesNotMatch(footerText({ ...memory, last: { ...reason, timer: false } }, list, DEFAULT_CONFIG, undefined) ?? "", /resumes/);
  assert.doesNotMatch(footerText({ ...memory, pending: { reason, open: 2, level: "warning" } }, list, DEFAULT_CONFIG, undefined) ?? "", /resumes/, "not before the run really ended");
  assert.match(footerText({ ...memory, last: { kind: "none" } }, list, DEFAULT_CONFIG, undefined) ?? "", /usage limit/, "a memory rebuilt from the branch names the stop");
  const status = statusText({ memory, list, sourceLabel: undefined, spend: { tokens: 0, cost: 0, minutes: 1 }, limits: DEFAULT_CONFIG, configFile: "/c.json", problems: [], killSwitch: undefined });
  assert.match(status, /^todo loop: waiting for the usage limit \(continuing at 15:42\)$/m);
  assert.match(status, /^last: waiting for the usage limit: continuing at 15:42 \(in 37 min\) · \/todoloop pause to cancel$/m);
  assert.equal(stopHeadline(reason), "waiting for the usage limit: continuing at 15:42 (in 37 min) · /todoloop pause to cancel");
});

// ---- reading the branch ----

const stamp = (minutes: number): string => new Date(NOW + minutes * MIN).toISOString();
const human = (text = "Do the work") => ({ type: "message", timestamp: stamp(0), message: { role: "user", content: text, timestamp: NOW } });
const errored = (message: string, at = NOW) => ({ type: "message", timestamp: new Date(at).toISOString(), message: { role: "assistant", content: [], stopReason: "error", errorMessage: message, timestamp: at } });
const reply = (stopReason = "stop") => ({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "ok" }], stopReason, timestamp: NOW } });
const waitRecord = (data: Record<string, unknown>, at = 0) => ({ type: "custom", customType: "todo-loop:stop", timestamp: stamp(at), data: { v: 1, kind: "limit-wait", reason: "waiting", round: 1, open: 2, anchor: "u1", ...data } });
const markerEntry = { type: "custom_message", customType: "todo-loop:continue", content: "Continue", display: true, details: { v: 1, round: 1 } };
const controlEntry = (action: string) => ({ type: "custom", customType: "todo-loop:control", data: { v: 1, action, anchor: "u1" } });

test("readLimitRun: the newest reply's error under the newest human message, and the waits recorded since it", () => {
  const branch = [
    human("Earlier"),
    waitRecord({ resumeAt: stamp(5), waitMinutes: 5 }),
    human(),
    errored("first"),
    waitRecord({ resumeAt: stamp(5), waitMinutes: 5 }),
    markerEntry,
    errored("retry one", NOW + 1000),
    errored(CODEX_37, NOW + 2000),
    waitRecord({ resumeAt: stamp(20) }, 5),
    waitRecord({ reason: "stopped: still rate limited after 300 minutes" }),
    { type: "model_change", provider: "x" },
    "not an entry",
    null,
    { type: "message" },
    { type: "custom", customType: "todo-loop:stop", data: "broken" },
  ];
  assert.deepEqual(readLimitRun(branch), { error: { message: CODEX_37, atMs: NOW + 2000 }, prior: [5, 15] }, "the gave-up record and the earlier message's wait are no waits of this message");
  assert.deepEqual(readLimitRun([human(), errored("x"), reply()]).error, undefined, "the run went on after the error");
  assert.deepEqual(readLimitRun([human(), waitRecord({ resumeAt: "garbage" })]).prior, [undefined], "a damaged record counts, as undefined");
  assert.deepEqual(readLimitRun([]), { error: undefined, prior: [] });
  const noStamp = { type: "message", timestamp: stamp(3), message: { role: "assistant", stopReason: "error", errorMessage: "429" } };
  assert.deepEqual(readLimitRun([human(), noStamp]).error, { message: "429", atMs: NOW + 3 * MIN }, "the entry's time when the message has none");
});

test("wakeDue: the wait is due while the branch still ends on its record; a person's act or a run since cancels it", () => {
  const at = stamp(5);
  const base = [human(), errored(ANTHROPIC_429), waitRecord({ resumeAt: at, waitMinutes: 5 })];
  assert.equal(wakeDue(base, at), true);
  assert.equal(wakeDue([...base, { type: "model_change" }, { type: "label" }, { type: "custom", customType: "other-ext" }, { type: "custom_message", customType: "other" }, "junk", null], at), true, "entries that say nothing of the run");
  assert.equal(wakeDue([...base, controlEntry("resume")], at), true, "resume lifts nothing here");
  assert.equal(wakeDue(base, stamp(6)), false, "another wait's time");
  assert.equal(wakeDue([waitRecord({ resumeAt: at, waitMinutes: 5 }), { type: "label" }], at), true, "the record as the branch's first entry");
  for (const [what, entry] of [
    ["pause", controlEntry("pause")],
    ["reset", controlEntry("reset")],
    ["continue", controlEntry("continue")],
    ["a human message", human("Actually, stop")],
    ["a marker", markerEntry],
    ["a reply", reply()],
    ["another stop", { type: "custom", customType: "todo-loop:stop", data: { v: 1, kind: "clear", reason: "stopped: list is clear" } }],
  ] as const) {
    assert.equal(wakeDue([...base, entry], at), false, what);
  }
  assert.equal(wakeDue([human()], at), false);
  assert.equal(wakeDue([], at), false);
});

// ---- the wake ----

const LIST: ListState = { kind: "list", open: 2, total: 5, signature: "s", source: "rpiv-todo", tool: "todo" };
const TOOLS = { active: ["todo"], registered: [] };

function wakeFacts(overrides: Partial<WakeFacts> = {}): WakeFacts {
  return { list: LIST, limits: DEFAULT_CONFIG, spend: { tokens: 0, cost: 0, minutes: 6 }, tools: TOOLS, killSwitch: false, earlierTasks: "ask", branch: branch({ anchor: "u1" }), ...overrides };
}

const WAITING: Memory = {
  ...freshMemory("u1"),
  hadWork: true,
  round: 2,
  settleRun: 1,
  announced: ["limit-wait"],
  last: { kind: "limit-wait", state: "waiting", resumeAtMs: NOW, waitMinutes: 5, atMs: NOW - 5 * MIN, first: true, timer: true },
};

test("the wake continues once: a round, the stops announced since forgotten, a marker with the counters kept", () => {
  const wake = limitWake(WAITING, wakeFacts());
  assert.equal(wake.kind, "continue");
  if (wake.kind !== "continue") return;
  assert.equal(wake.memory.round, 3);
  assert.deepEqual(wake.memory.announced, []);
  assert.deepEqual(wake.memory.last, { kind: "continuing", open: 2, round: 3, maxRounds: null });
  assert.deepEqual({ round: wake.marker.round, anchor: wake.marker.anchor, open: wake.marker.open, total: wake.marker.total, idle: wake.marker.idle, hint: wake.marker.hint, tool: wake.marker.tool }, { round: 3, anchor: "u1", open: 2, total: 5, idle: 1, hint: false, tool: "todo" });
});

test("the wake meets every limit: maxRounds, and maxMinutes counting the wait; the stop is pending for the host to record", () => {
  const rounds = limitWake(WAITING, wakeFacts({ limits: { ...DEFAULT_CONFIG, maxRounds: 2 } }));
  assert.equal(rounds.kind, "stop");
  if (rounds.kind === "stop") {
    assert.deepEqual(rounds.memory.pending, { reason: { kind: "limit", limit: "maxRounds", used: 2, max: 2, open: 2, stale: 0 }, open: 2, level: "warning" });
    const settled = settle(rounds.memory, false, describeReason);
    assert.equal(settled.record?.kind, "limit");
  }
  const minutes = limitWake(WAITING, wakeFacts({ limits: { ...DEFAULT_CONFIG, maxMinutes: 5 }, spend: { tokens: 0, cost: 0, minutes: 6 } }));
  assert.equal(minutes.kind === "stop" ? minutes.memory.pending?.reason.kind : minutes.kind, "limit");
});

test("the wake does nothing when the loop is off or paused, the agent waits for the person, or nothing is open; it stops on a list out of date or out of reach", () => {
  assert.deepEqual(limitWake(WAITING, wakeFacts({ killSwitch: true })), { kind: "none", why: "kill-switch" });
  assert.deepEqual(limitWake({ ...WAITING, paused: true }, wakeFacts()), { kind: "none", why: "paused" });
  assert.deepEqual(limitWake({ ...WAITING, waiting: { reason: "which one?", asked: true } }, wakeFacts()), { kind: "none", why: "waiting" });
  assert.deepEqual(limitWake(WAITING, wakeFacts({ list: { ...LIST, open: 0 } })), { kind: "none", why: "nothing-open" });
  assert.deepEqual(limitWake(WAITING, wakeFacts({ list: { kind: "none", why: "emptied" } })), { kind: "none", why: "nothing-open" });
  const stale = limitWake(WAITING, wakeFacts({ list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } }));
  assert.equal(stale.kind === "stop" ? stale.memory.pending?.reason.kind : stale.kind, "out-of-date");
  const reach = limitWake(WAITING, wakeFacts({ tools: { active: [], registered: [] } }));
  assert.equal(reach.kind === "stop" ? reach.memory.pending?.reason.kind : reach.kind, "out-of-reach");
});

// ---- 0.5: the wake meets the earlier-message rule; a verification's fix run ends as a wait ----

/** The branch of a message sent after message 1 left its list open, unrelated to it (SPEC §4.15). */
const UNRELATED = branch({ anchor: "u2", earlier: { ...NO_EARLIER, open: true, before: "u1" } });

test("0.5: a limit that ended an unrelated new message stays an error stop (no wait promised) and its wake pushes nothing; taken up, it waits and wakes as usual", () => {
  const held = limitStop({ pending: ERROR_STOP, run: run(ANTHROPIC_429), capMinutes: 300, nowMs: NOW, timer: true, held: true });
  assert.equal(held, ERROR_STOP, "the error stop as decide() left it");
  assert.equal(limitStop({ pending: ERROR_STOP, run: run(ANTHROPIC_429), capMinutes: 300, nowMs: NOW, timer: true, held: false }).reason.kind, "limit-wait");
  const waiting2: Memory = { ...WAITING, anchor: "u2" };
  assert.deepEqual(limitWake(waiting2, wakeFacts({ branch: UNRELATED })), { kind: "none", why: "earlier" }, "a record written before 0.5 (or re-armed at a restart) wakes to nothing");
  assert.equal(limitWake(waiting2, wakeFacts({ branch: UNRELATED, earlierTasks: "continue" })).kind, "continue", "earlierTasks: continue is 0.2's behaviour");
  assert.equal(limitWake({ ...waiting2, adopted: true }, wakeFacts({ branch: UNRELATED })).kind, "continue", "a /todoloop resume since adopts the list");
  for (const [what, earlier] of [["carried over", { carried: true }], ["adopted on the branch", { adopted: true }]] as const) {
    assert.equal(limitWake(waiting2, wakeFacts({ branch: branch({ anchor: "u2", earlier: { ...NO_EARLIER, open: true, before: "u1", ...earlier } }) })).kind, "continue", what);
  }
  // Before out of date: a list that is not this message's is not reported stale.
  assert.deepEqual(limitWake(waiting2, wakeFacts({ branch: UNRELATED, list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } })), { kind: "none", why: "earlier" });
});

const FAILED_CHECK: VerifyMemo = { command: "npm test", runs: 1, exit: 1, seconds: 2, output: "```text\nFAIL one\n```", workAt: 3 };
const FIXING: Memory = { ...seen(), round: 2, verify: FAILED_CHECK, last: { kind: "verify-continuing", command: "npm test", exit: 1, seconds: 2, round: 2, maxRounds: null } };

test("0.5: a verification's fix run that errors with no task open ends with an outcome stop marked fixing; a limit there is a limit-wait; outside a fix run nothing changes", () => {
  for (const turn of [settleTurn({ outcome: "error" }), settleTurn({ outcome: "error", toolResults: 1 })]) {
    const decision = decide(input({ memory: FIXING, list: CLEAR, turn }));
    assert.deepEqual(decision.memory.pending, { reason: { kind: "outcome", outcome: "error", fixing: true }, open: 0, level: "warning" });
    const ended = withLimitStop(decision.memory, { run: run(ANTHROPIC_429), capMinutes: 300, nowMs: NOW, timer: true });
    assert.equal(ended.pending?.reason.kind, "limit-wait");
    assert.equal(ended.pending?.open, 0);
    const settled = settle(ended, false, describeReason);
    assert.deepEqual([settled.record?.kind, settled.record?.open, typeof settled.record?.resumeAt], ["limit-wait", 0, "string"]);
    // Any other error in a fix run is recorded too: a run the loop started always ends with a record.
    assert.equal(settle(decision.memory, false, describeReason).record?.reason, "stopped: turn outcome was error");
  }
  const plain = decide(input({ memory: seen({ last: { kind: "clear" } }), list: CLEAR, turn: settleTurn({ outcome: "error" }) }));
  assert.equal(plain.memory.pending, undefined, "a clear list outside a fix run: no stop, as before");
  assert.equal(limitStop({ pending: { ...ERROR_STOP, open: 0 }, run: run(ANTHROPIC_429), capMinutes: 300, nowMs: NOW, timer: true }).reason.kind, "outcome");
});

test("0.5: the wake of a fix run continues it with the check's output again — one round, the same run of the check; a limit stops it as a failed check", () => {
  const asleep: Memory = { ...FIXING, last: WAITING.last, announced: ["limit-wait"] };
  for (const list of [{ ...LIST, open: 0 }, { kind: "none", why: "emptied" }] as const) {
    const wake = limitWake(asleep, wakeFacts({ list }));
    assert.equal(wake.kind, "continue");
    if (wake.kind !== "continue") return;
    assert.equal(wake.memory.round, 3);
    assert.deepEqual(wake.memory.last, { kind: "verify-continuing", command: "npm test", exit: 1, seconds: 2, round: 3, maxRounds: null });
    assert.deepEqual(wake.marker.verify, { command: "npm test", exit: 1, seconds: 2, run: 1 });
    assert.equal(wake.marker.output, FAILED_CHECK.output);
    assert.equal(wake.marker.open, 0);
  }
  const capped = limitWake(asleep, wakeFacts({ list: { ...LIST, open: 0 }, limits: { ...DEFAULT_CONFIG, maxRounds: 2 } }));
  assert.equal(capped.kind, "stop");
  if (capped.kind === "stop") assert.deepEqual(capped.memory.pending?.reason, { kind: "verify-failed", command: "npm test", exit: 1, seconds: 2, runs: 1, why: "limit", limit: { limit: "maxRounds", used: 2, max: 2 } });
  assert.deepEqual(limitWake({ ...asleep, verify: { ...FAILED_CHECK, exit: 0 } }, wakeFacts({ list: { ...LIST, open: 0 } })), { kind: "none", why: "nothing-open" }, "a check that passed has nothing to fix");
  assert.deepEqual(limitWake({ ...asleep, verify: undefined }, wakeFacts({ list: { kind: "none", why: "unused" } })), { kind: "none", why: "nothing-open" });
});

test("0.5: a wait whose timer the kill switch cancelled no longer says when the run goes on: the footer and /todoloop name the usage-limit stop", () => {
  const cancelled = withoutTimer(WAITING);
  assert.deepEqual(cancelled.last, { ...WAITING.last, timer: false });
  const list: ListState = { kind: "list", open: 2, total: 2, signature: "s", source: "rpiv-todo", tool: "todo" };
  assert.equal(footerText(WAITING, list, DEFAULT_CONFIG, undefined)?.startsWith("todo loop: resumes at 15:05"), true);
  assert.equal(footerText(cancelled, list, DEFAULT_CONFIG, undefined), "todo loop stopped: usage limit · todo 2 of 2 open");
  for (const memory of [freshMemory("u1"), { ...WAITING, last: { ...WAITING.last, timer: false } as Reason }, { ...WAITING, last: { kind: "limit-wait", state: "gave-up", why: "spent", capMinutes: 5, atMs: NOW } as Reason }]) {
    assert.equal(withoutTimer(memory), memory, "nothing to cancel: the same memory");
  }
});

// ---- maxLimitWaitMinutes ----

test("maxLimitWaitMinutes: default 300, 0 turns it off, fractions allowed, ceiling 1440; a wrong value is a problem and the default applies", () => {
  assert.equal(DEFAULT_CONFIG.maxLimitWaitMinutes, 300);
  for (const value of [0, 0.05, 45, 1440]) assert.deepEqual(parseConfig({ maxLimitWaitMinutes: value }), { config: { ...DEFAULT_CONFIG, maxLimitWaitMinutes: value }, problems: [] });
  assert.deepEqual(parseConfig({ maxLimitWaitMinutes: 5000 }), { config: { ...DEFAULT_CONFIG, maxLimitWaitMinutes: 1440 }, problems: ["maxLimitWaitMinutes 5000 is above the ceiling 1440; using 1440"] });
  for (const [value, got] of [[-1, "-1"], ["60", 'the string "60"'], [null, "null"], [true, "true"], [Number.NaN, "NaN"]] as const) {
    assert.deepEqual(parseConfig({ maxLimitWaitMinutes: value }), {
      config: DEFAULT_CONFIG,
      problems: [`maxLimitWaitMinutes must be a number of minutes from 0 (off) to 1440 (got ${got}); using 300`],
    }, String(value));
  }
});

test("an abort pi made while shutting down on a signal reads as that, not as the person's Escape; its record says shutdown", () => {
  assert.equal(describeReason({ kind: "outcome", outcome: "aborted", shutdown: true }), "stopped: pi was shut down during the run (SIGTERM or SIGHUP)");
  assert.equal(describeReason({ kind: "outcome", outcome: "aborted" }), "stopped: you stopped it (Escape)");
  assert.equal(needsPerson({ kind: "outcome", aborted: true }, "rpc"), false, "nobody to reach in a process that is ending");
  assert.equal(needsPerson({ kind: "outcome", aborted: true }, "print"), true);
});

// ---- reading the branch: what counts ----

test("readLimitRun counts only limit-wait stop records that scheduled a wait, by resumeAt or by waitMinutes alone", () => {
  const waits = (...entries: unknown[]) => readLimitRun([human(), errored(ANTHROPIC_429), ...entries]).prior;
  assert.deepEqual(waits(waitRecord({ waitMinutes: 7 })), [7], "waitMinutes without resumeAt");
  assert.deepEqual(waits(waitRecord({ resumeAt: stamp(12) })), [12], "resumeAt without waitMinutes");
  assert.deepEqual(waits(waitRecord({ resumeAt: null, waitMinutes: null })), [], "both null: the loop gave up");
  assert.deepEqual(waits(waitRecord({ resumeAt: undefined, waitMinutes: undefined })), [], "both absent");
  assert.deepEqual(waits(waitRecord({ kind: "clear", waitMinutes: 7 })), [], "a stop of another kind");
  assert.deepEqual(waits({ ...waitRecord({ waitMinutes: 7 }), customType: "todo-loop:control" }), [], "a control entry");
  assert.deepEqual(waits({ ...waitRecord({ waitMinutes: 7 }), type: "custom_message" }), [], "a message entry of the same custom type");
});

test("readLimitRun reads the error from a branch without a human message, and skips entries that only look like messages", () => {
  assert.deepEqual(readLimitRun([errored("429")]).error, { message: "429", atMs: NOW });
  const fake = { type: "custom", message: { role: "user" } };
  assert.deepEqual(readLimitRun([human(), errored("429"), fake]).error, { message: "429", atMs: NOW }, "a custom entry with a message field is no human message");
  const other = { type: "message", message: { role: "toolResult", content: [] } };
  assert.deepEqual(readLimitRun([human(), errored("429"), other]).error, { message: "429", atMs: NOW }, "a message of another role is no reply");
});

test("earlier waits recorded under the message count against the cap", () => {
  assert.equal(waiting(decided(ANTHROPIC_429, { prior: [296] })).waitMinutes, 4);
  assert.deepEqual(decided(ANTHROPIC_429, { prior: [300] }).reason, { kind: "limit-wait", state: "gave-up", why: "spent", capMinutes: 300, atMs: NOW });
});

test("wakeDue: a tool result after the record cancels the wait; malformed messages and a stop of another kind are never a due wait", () => {
  const at = stamp(5);
  const base = [human(), errored(ANTHROPIC_429), waitRecord({ resumeAt: at, waitMinutes: 5 })];
  assert.equal(wakeDue([...base, { type: "message", message: { role: "toolResult", content: [] } }], at), false);
  assert.equal(wakeDue([...base, { type: "message" }, { type: "message", message: null }, { type: "message", message: { role: 42 } }], at), true);
  assert.equal(wakeDue([{ type: "custom_message", customType: "todo-loop:stop", data: { kind: "limit-wait", resumeAt: at } }, { type: "label", customType: "todo-loop:control" }], at), false, "entries of other types with the loop's custom types");
  assert.equal(wakeDue([...base, { type: "label", customType: "todo-loop:control" }], at), true);
  const clear = { type: "custom", customType: "todo-loop:stop", data: { v: 1, kind: "clear", reason: "stopped: list is clear" } };
  assert.equal(wakeDue([human(), clear], undefined), false, "a stop of another kind carries no time to match");
  assert.equal(wakeDue([human(), { type: "custom", customType: "todo-loop:stop", data: "broken" }], undefined), false);
});

test("the wake on a list out of date with nothing open does nothing", () => {
  assert.deepEqual(limitWake(WAITING, wakeFacts({ list: { kind: "out-of-date", why: "codemode", open: 0, source: "rpiv-todo" } })), { kind: "none", why: "nothing-open" });
});

test("0.5: the wake's marker counts as a resume after a limit, in a fix run too; a stop carries no marker", () => {
  const wake = limitWake(WAITING, wakeFacts());
  assert.equal(wake.kind === "continue" ? wake.marker.by : wake.kind, "resume");
  const stop = limitWake(WAITING, wakeFacts({ limits: { ...DEFAULT_CONFIG, maxRounds: 2 } }));
  assert.deepEqual(Object.keys(stop).sort(), ["kind", "memory"]);
  const asleep: Memory = { ...FIXING, last: WAITING.last, announced: ["limit-wait"] };
  const fix = limitWake(asleep, wakeFacts({ list: { ...LIST, open: 0, total: 4 } }));
  assert.equal(fix.kind === "continue" ? fix.marker.by : fix.kind, "resume");
  assert.equal(fix.kind === "continue" ? fix.marker.total : fix.kind, 4, "the list's tasks, all done");
  const emptied = limitWake(asleep, wakeFacts({ list: { kind: "none", why: "emptied" } }));
  assert.equal(emptied.kind === "continue" ? emptied.marker.total : emptied.kind, 0, "an emptied list has no tasks");
});

test("0.5: a fix run's wake needs a failed check and a list that is clear or emptied; nothing open under an unrelated message is nothing to do", () => {
  const asleep: Memory = { ...FIXING, last: WAITING.last, announced: ["limit-wait"] };
  for (const why of ["unused", "unreadable", "no-tool"] as const) {
    assert.deepEqual(limitWake(asleep, wakeFacts({ list: { kind: "none", why } })), { kind: "none", why: "nothing-open" }, why);
  }
  assert.deepEqual(limitWake({ ...WAITING, adopted: false }, wakeFacts({ branch: UNRELATED, list: { ...LIST, open: 0 } })), { kind: "none", why: "nothing-open" }, "no task open: not held as an earlier message's");
});
