/**
 * The timing rules of waiting on work in flight (SPEC §4.17): check-ins after `checkInMinutes`, the
 * interval doubling up to 4×, at most three without a change, then `work-timeout` with the minutes since
 * the wait began; and the wake one continuation gives when the last work ended without a run starting.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  beginWaiting,
  checkInInterval,
  checkInSent,
  checkInsOn,
  checkInVerdict,
  countAgain,
  DEFAULT_CHECK_IN_MINUTES,
  MAX_CHECK_IN_BACKOFF,
  MAX_CHECK_INS,
  nextCheckInAt,
  WAKE_AFTER_MS,
  wakeVerdict,
} from "../../src/core/work.ts";
import type { CheckIns, WakeFacts } from "../../src/core/work.ts";

const MIN = 60_000;
const T0 = 1_755_878_000_000;

/** Runs the schedule as the host would: at each due time the check-in is sent; returns when each went out. */
function sendAll(checkInMinutes: number, start: number = T0): { sentAt: number[]; state: CheckIns } {
  let state = beginWaiting(start);
  const sentAt: number[] = [];
  for (let guard = 0; guard < 10; guard++) {
    const dueAt = nextCheckInAt(state, checkInMinutes);
    if (dueAt === null) break;
    const verdict = checkInVerdict(state, checkInMinutes, dueAt);
    assert.deepEqual(verdict, { kind: "check-in", nth: state.sent + 1 });
    sentAt.push(dueAt);
    state = checkInSent(state, dueAt);
  }
  return { sentAt, state };
}

test("check-ins: the defaults are 30 minutes, three check-ins, an interval of at most 4×", () => {
  assert.equal(DEFAULT_CHECK_IN_MINUTES, 30);
  assert.equal(MAX_CHECK_INS, 3);
  assert.equal(MAX_CHECK_IN_BACKOFF, 4);
});

test("check-ins: at 30, 60 and 120 minutes after the one before (30, 90, 210 after the wait began), then none", () => {
  const { sentAt, state } = sendAll(30);
  assert.deepEqual(
    sentAt.map((at) => (at - T0) / MIN),
    [30, 90, 210],
  );
  assert.equal(state.sent, 3);
  assert.equal(nextCheckInAt(state, 30), null);
});

test("check-ins: a tiny setting keeps the same 1×, 2×, 4× shape", () => {
  const { sentAt } = sendAll(0.01);
  assert.deepEqual(
    sentAt.map((at) => Math.round(at - T0)),
    [600, 1_800, 4_200],
  );
});

test("check-ins: the interval is the setting times 1, 2, 4, then stays at 4", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 50, 5000].map((sent) => checkInInterval(30, sent)), [30, 60, 120, 120, 120, 120, 120]);
  assert.equal(checkInInterval(10, 1.7), 20, "a fraction of a check-in counts as the whole ones before it");
  assert.equal(checkInInterval(10, -2), 10);
  assert.equal(checkInInterval(0.5, 2), 2);
});

test("check-ins: nothing is due before its time; the verdict names when it will be", () => {
  const state = beginWaiting(T0);
  assert.deepEqual(checkInVerdict(state, 30, T0), { kind: "wait", dueAt: T0 + 30 * MIN });
  assert.deepEqual(checkInVerdict(state, 30, T0 + 30 * MIN - 1), { kind: "wait", dueAt: T0 + 30 * MIN });
  assert.deepEqual(checkInVerdict(state, 30, T0 + 30 * MIN), { kind: "check-in", nth: 1 });
  assert.deepEqual(checkInVerdict(state, 30, T0 + 45 * MIN), { kind: "check-in", nth: 1 }, "a settle past the due time sends it");
  const first = checkInSent(state, T0 + 45 * MIN);
  assert.deepEqual(checkInVerdict(first, 30, T0 + 46 * MIN), { kind: "wait", dueAt: T0 + 105 * MIN }, "the next counts from when the last went out");
});

test("check-ins: the first settle after the third is the work-timeout, with the minutes since the wait began", () => {
  const { state } = sendAll(30);
  assert.deepEqual(checkInVerdict(state, 30, T0 + 210 * MIN), { kind: "work-timeout", minutes: 210 });
  assert.deepEqual(checkInVerdict(state, 30, T0 + 211.5 * MIN), { kind: "work-timeout", minutes: 211.5 });
  const twice = checkInSent(checkInSent(beginWaiting(T0), T0 + 30 * MIN), T0 + 90 * MIN);
  assert.equal(checkInVerdict(twice, 30, T0 + 91 * MIN).kind, "wait", "two are not yet the limit");
  assert.deepEqual(checkInVerdict(checkInSent(beginWaiting(T0), T0 - MIN), 30, T0 - MIN).kind, "wait");
});

test("check-ins: the timeout's minutes are never negative (a clock that went back)", () => {
  const { state } = sendAll(30);
  assert.deepEqual(checkInVerdict(state, 30, T0 - 5 * MIN), { kind: "work-timeout", minutes: 0 });
  assert.deepEqual(checkInVerdict(state, 30, Number.NaN), { kind: "work-timeout", minutes: 0 });
});

test("check-ins: work ending or a list change starts the count again from that moment; the wait's start stays", () => {
  const { state } = sendAll(30);
  const again = countAgain(state, T0 + 215 * MIN);
  assert.deepEqual(again, { began: T0, since: T0 + 215 * MIN, sent: 0, lastAt: null });
  assert.deepEqual(checkInVerdict(again, 30, T0 + 216 * MIN), { kind: "wait", dueAt: T0 + 245 * MIN });
  let next: CheckIns = again;
  for (const at of [245, 305, 425]) {
    assert.deepEqual(checkInVerdict(next, 30, T0 + at * MIN).kind, "check-in");
    next = checkInSent(next, T0 + at * MIN);
  }
  assert.deepEqual(checkInVerdict(next, 30, T0 + 426 * MIN), { kind: "work-timeout", minutes: 426 });
});

test("check-ins: 0, a negative or a non-number setting turns them off: no timer, no check-in, no timeout", () => {
  for (const off of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.equal(checkInsOn(off), false);
    const state = checkInSent(checkInSent(checkInSent(beginWaiting(T0), T0 + MIN), T0 + 2 * MIN), T0 + 3 * MIN);
    assert.equal(nextCheckInAt(beginWaiting(T0), off), null);
    assert.deepEqual(checkInVerdict(beginWaiting(T0), off, T0 + 10_000 * MIN), { kind: "wait", dueAt: null });
    assert.deepEqual(checkInVerdict(state, off, T0 + 10_000 * MIN), { kind: "wait", dueAt: null });
  }
  assert.equal(checkInsOn(0.001), true);
  assert.equal(checkInsOn(1440), true);
});

test("check-ins: each step returns a new schedule and leaves the old one as it was", () => {
  const state = beginWaiting(T0);
  assert.deepEqual(state, { began: T0, since: T0, sent: 0, lastAt: null });
  const sent = checkInSent(state, T0 + 30 * MIN);
  assert.deepEqual(sent, { began: T0, since: T0, sent: 1, lastAt: T0 + 30 * MIN });
  assert.deepEqual(state, { began: T0, since: T0, sent: 0, lastAt: null });
  assert.deepEqual(checkInSent(sent, T0 + 90 * MIN), { began: T0, since: T0, sent: 2, lastAt: T0 + 90 * MIN });
});

// --- the wake -------------------------------------------------------------------------------------------

const ENDED = T0 + 10 * MIN;

function facts(over: Partial<WakeFacts> = {}): WakeFacts {
  return { waiting: true, inFlight: 0, lastEndAt: ENDED, runStarted: false, open: 2, idle: true, now: ENDED + WAKE_AFTER_MS, ...over };
}

test("wake: the last work ended, 5 s passed without a run, tasks open, the agent idle: one wake", () => {
  assert.equal(WAKE_AFTER_MS, 5_000);
  assert.deepEqual(wakeVerdict(facts()), { kind: "wake" });
  assert.deepEqual(wakeVerdict(facts({ now: ENDED + 60 * MIN })), { kind: "wake" });
});

test("wake: before the 5 s it asks to be asked again at the end of them", () => {
  assert.deepEqual(wakeVerdict(facts({ now: ENDED })), { kind: "later", at: ENDED + WAKE_AFTER_MS });
  assert.deepEqual(wakeVerdict(facts({ now: ENDED + WAKE_AFTER_MS - 1 })), { kind: "later", at: ENDED + WAKE_AFTER_MS });
  assert.deepEqual(wakeVerdict(facts({ now: ENDED - 1, idle: false })), { kind: "later", at: ENDED + WAKE_AFTER_MS });
});

test("wake: no wake when a run started, work is still in flight, no task is open, the agent is busy or the loop was not waiting", () => {
  assert.deepEqual(wakeVerdict(facts({ runStarted: true })), { kind: "no" }, "the source's result message started the run");
  assert.deepEqual(wakeVerdict(facts({ inFlight: 1 })), { kind: "no" });
  assert.deepEqual(wakeVerdict(facts({ open: 0 })), { kind: "no" });
  assert.deepEqual(wakeVerdict(facts({ idle: false })), { kind: "no" });
  assert.deepEqual(wakeVerdict(facts({ waiting: false })), { kind: "no" });
  assert.deepEqual(wakeVerdict(facts({ lastEndAt: null })), { kind: "no" }, "no work ever ended");
  assert.deepEqual(wakeVerdict(facts({ runStarted: true, now: ENDED })), { kind: "no" }, "a run that started early ends the wait at once");
  assert.deepEqual(wakeVerdict(facts({ open: -1 })), { kind: "no" });
});
