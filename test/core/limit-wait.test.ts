/**
 * How long the loop waits out a limit: the backoff when the error names no time, the stated time
 * counted from the error, the total cap per human message (default, ceiling, off, fractions), the last
 * backoff shortened to fit the cap, a stated time past the cap, clocks that jump, earlier waits read
 * from old or damaged records, and the wording of a wait and of giving up.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  backoffMinutes,
  DEFAULT_MAX_LIMIT_WAIT_MINUTES,
  effectiveCap,
  LIMIT_BACKOFF_MINUTES,
  MAX_LIMIT_WAIT_CEILING_MINUTES,
  MIN_LIMIT_WAIT_MINUTES,
  parseTime,
  planLimitWait,
  priorWaitMinutes,
} from "../../src/core/limit-wait.ts";
import { limitExhaustedText, limitFooterText, limitHeadlessText, limitWaitText, waitSpan as waitText } from "../../src/core/text.ts";
import type { LimitFacts, LimitWaitPlan } from "../../src/core/limit-wait.ts";
import { classifyLimit } from "../../src/core/limit-error.ts";

const MIN = 60_000;
/** 15:05 local time on a fixed day, so clock times read the same in every time zone. */
const NOW = new Date(2026, 0, 5, 15, 5, 0).getTime();

function plan(limit: LimitFacts, prior: readonly number[] = [], capMinutes = DEFAULT_MAX_LIMIT_WAIT_MINUTES, nowMs = NOW): LimitWaitPlan {
  return planLimitWait({ limit, prior, capMinutes, nowMs });
}

function waited(result: LimitWaitPlan): number {
  assert.equal(result.kind, "wait");
  return result.kind === "wait" ? result.waitMinutes : Number.NaN;
}

// ---- the backoff ----

test("with no time in the error the waits are 5, 10, 20, 40, 60, then 60 minutes", () => {
  const prior: number[] = [];
  const seen: number[] = [];
  for (let index = 0; index < 7; index += 1) {
    const minutes = waited(plan({}, prior, 1000));
    seen.push(minutes);
    prior.push(minutes);
  }
  assert.deepEqual(seen, [5, 10, 20, 40, 60, 60, 60]);
  assert.deepEqual(LIMIT_BACKOFF_MINUTES, [5, 10, 20, 40, 60]);
});

test("a wait resumes that many minutes from now and reports the total so far", () => {
  assert.deepEqual(plan({}, [5, 10]), { kind: "wait", resumeAtMs: NOW + 20 * MIN, waitMinutes: 20, totalMinutes: 35, stated: false });
});

test("the backoff step of a strange index is the first, of a large one the last", () => {
  assert.equal(backoffMinutes(-1), 5);
  assert.equal(backoffMinutes(1.5), 5);
  assert.equal(backoffMinutes(Number.NaN), 5);
  assert.equal(backoffMinutes(99), 60);
});

// ---- the cap ----

test("under the default cap of 300 minutes the last backoff is shortened to fit, then the loop gives up", () => {
  const prior: number[] = [];
  for (;;) {
    const result = plan({}, prior);
    if (result.kind !== "wait") {
      assert.deepEqual(result, { kind: "exhausted", why: "spent", capMinutes: 300, waitedMinutes: 300 });
      break;
    }
    prior.push(result.waitMinutes);
  }
  assert.deepEqual(prior, [5, 10, 20, 40, 60, 60, 60, 45]);
  assert.equal(limitExhaustedText({ why: "spent", capMinutes: 300 }, NOW), "still rate limited after 300 minutes");
});

test("maxLimitWaitMinutes 0 turns the rule off: an ordinary error stop", () => {
  assert.deepEqual(plan({}, [], 0), { kind: "off" });
  assert.deepEqual(plan({ resumeInMs: MIN }, [], 0), { kind: "off" });
});

test("a wrong cap counts as the default, one past the ceiling as the ceiling", () => {
  for (const cap of [-1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.equal(effectiveCap(cap), DEFAULT_MAX_LIMIT_WAIT_MINUTES, String(cap));
  assert.equal(effectiveCap(5000), MAX_LIMIT_WAIT_CEILING_MINUTES);
  assert.equal(effectiveCap(0.5), 0.5);
  const prior = [5, 10, 20, 40, 60, 60, 60, 45];
  assert.equal(plan({}, prior, 5000).kind, "wait");
  assert.equal(plan({}, prior, -3).kind, "exhausted");
});

test("a fractional cap gives short waits: 0.1 minutes is one 6-second wait", () => {
  const first = plan({}, [], 0.1);
  assert.deepEqual(first, { kind: "wait", resumeAtMs: NOW + 6000, waitMinutes: 0.1, totalMinutes: 0.1, stated: false });
  assert.deepEqual(plan({}, [0.1], 0.1), { kind: "exhausted", why: "spent", capMinutes: 0.1, waitedMinutes: 0.1 });
  assert.equal(limitExhaustedText({ why: "spent", capMinutes: 0.1 }, NOW), "still rate limited after 0.1 minutes");
  assert.equal(limitExhaustedText({ why: "spent", capMinutes: 1 }, NOW), "still rate limited after 1 minute");
});

test("a cap spent by fractions that do not add up exactly still counts as spent", () => {
  assert.equal(plan({}, [0.1, 0.2], 0.3).kind, "exhausted");
});

// ---- a time stated in the error ----

test("the stated time counts from the error: 37 minutes named two minutes ago leave 35 and the rounding margin", () => {
  const erroredAt = NOW - 2 * MIN;
  const limit = classifyLimit("You have hit your ChatGPT usage limit (plus plan). Try again in ~37 min.", erroredAt);
  assert.equal(limit.kind, "limit");
  if (limit.kind !== "limit") return;
  const result = plan(limit);
  assert.equal(result.kind, "wait");
  if (result.kind !== "wait") return;
  assert.equal(result.resumeAtMs, erroredAt + 37 * MIN + 30_000);
  assert.equal(result.stated, true);
  assert.ok(Math.abs(result.waitMinutes - 35.5) < 1e-9);
});

test("a stated time overrides the backoff step, even a shorter one", () => {
  assert.equal(waited(plan({ resumeInMs: 2 * MIN }, [5, 10, 20])), 2);
  assert.equal(waited(plan({ resumeInMs: 90 * MIN }, [])), 90);
});

test("a stated time already past, or under a minute, still waits a minute", () => {
  assert.equal(waited(plan({ resumeInMs: 30_000, resetAtMs: NOW - 5 * MIN })), MIN_LIMIT_WAIT_MINUTES);
  assert.equal(waited(plan({ resumeInMs: 0 })), MIN_LIMIT_WAIT_MINUTES);
  assert.equal(waited(plan({ resumeInMs: 20 })), MIN_LIMIT_WAIT_MINUTES);
});

test("the minimum wait never passes the cap left", () => {
  assert.equal(waited(plan({ resumeInMs: 0 }, [], 0.25)), 0.25);
  assert.equal(waited(plan({ resumeInMs: 0 }, [299.5])), 0.5);
});

test("waits of a limit that always says it is over still come to an end", () => {
  const prior: number[] = [];
  let steps = 0;
  for (; steps < 1000; steps += 1) {
    const result = plan({ resumeInMs: 0, resetAtMs: NOW - MIN }, prior, 10);
    if (result.kind !== "wait") break;
    prior.push(result.waitMinutes);
  }
  assert.equal(steps, 10);
});

test("a stated time past what the cap leaves is not waited: the stop says when the limit resets", () => {
  const result = plan({ resumeInMs: 8 * 60 * MIN }, [], 300);
  assert.deepEqual(result, { kind: "exhausted", why: "too-far", capMinutes: 300, waitedMinutes: 0, resetAtMs: NOW + 8 * 60 * MIN });
  assert.equal(result.kind, "exhausted");
  if (result.kind !== "exhausted") return;
  assert.equal(limitExhaustedText(result, NOW), "the usage limit resets at 23:05 (in 8 h), past the 300 minutes of maxLimitWaitMinutes");
  assert.equal(plan({ resumeInMs: 100 * MIN }, [60, 60, 60, 60]).kind, "exhausted");
  assert.equal(waited(plan({ resumeInMs: 60 * MIN }, [60, 60, 60, 60])), 60);
});

test("a text capped at seven days is past any cap", () => {
  const limit = classifyLimit("You have hit your ChatGPT usage limit. Try again in ~99999999999 min.", NOW);
  assert.equal(limit.kind, "limit");
  if (limit.kind !== "limit") return;
  assert.equal(plan(limit, [], MAX_LIMIT_WAIT_CEILING_MINUTES).kind, "exhausted");
});

// ---- clocks that jump ----

test("a clock set back does not stretch a stated wait past what the text said", () => {
  const erroredAt = NOW + 60 * MIN; // the error's time is an hour in the future of the clock now
  assert.equal(waited(plan({ resumeInMs: 10 * MIN, resetAtMs: erroredAt + 10 * MIN })), 10);
});

test("a clock set forward past the reset waits the minimum", () => {
  assert.equal(waited(plan({ resumeInMs: 10 * MIN, resetAtMs: NOW - 3 * 60 * MIN })), MIN_LIMIT_WAIT_MINUTES);
});

test("a clock that reads nonsense plans from zero instead of failing", () => {
  const result = plan({}, [], 300, Number.NaN);
  assert.deepEqual(result, { kind: "wait", resumeAtMs: 5 * MIN, waitMinutes: 5, totalMinutes: 5, stated: false });
});

test("a negative or broken stated wait counts as none", () => {
  assert.equal(waited(plan({ resumeInMs: -5 })), 5);
  assert.equal(waited(plan({ resumeInMs: Number.NaN })), 5);
  assert.equal(waited(plan({ resumeInMs: 3 * MIN, resetAtMs: Number.NaN })), 3);
});

// ---- earlier waits, from records ----

test("an earlier wait that is not a number counts as the backoff step it would have been", () => {
  assert.deepEqual(plan({}, [Number.NaN, -1, Number.POSITIVE_INFINITY]), { kind: "wait", resumeAtMs: NOW + 40 * MIN, waitMinutes: 40, totalMinutes: 75, stated: false });
});

test("a record's wait: its waitMinutes, else its resumeAt less the entry's time", () => {
  assert.equal(priorWaitMinutes({ kind: "limit-wait", waitMinutes: 12.5, resumeAt: "junk" }, "junk"), 12.5);
  assert.equal(priorWaitMinutes({ kind: "limit-wait", resumeAt: "2026-01-05T15:42:00.000Z" }, "2026-01-05T15:05:00.000Z"), 37);
  assert.equal(priorWaitMinutes({ resumeAt: Date.UTC(2026, 0, 5, 16) }, Date.UTC(2026, 0, 5, 15)), 60);
});

test("an old or damaged record's wait is unknown", () => {
  const stamp = "2026-01-05T15:05:00.000Z";
  const cases: readonly [unknown, unknown][] = [
    [undefined, stamp],
    [null, stamp],
    ["limit-wait", stamp],
    [[1, 2], stamp],
    [{ kind: "limit-wait" }, stamp],
    [{ resumeAt: "yesterday-ish" }, stamp],
    [{ resumeAt: "2026-01-05T15:42:00.000Z" }, undefined],
    [{ resumeAt: "2026-01-05T15:42:00.000Z" }, "not a time"],
    [{ resumeAt: "2026-01-05T14:00:00.000Z" }, stamp],
    [{ resumeAt: "2027-01-05T14:00:00.000Z" }, stamp],
    [{ waitMinutes: -4 }, stamp],
    [{ waitMinutes: "10" }, stamp],
    [{ waitMinutes: 1e9 }, stamp],
    [{ resumeAt: "x".repeat(10_000) }, stamp],
  ];
  for (const [data, timestamp] of cases) assert.equal(priorWaitMinutes(data, timestamp), undefined, JSON.stringify(data));
});

test("times are ISO strings or epoch ms; anything else is unknown", () => {
  assert.equal(parseTime("2026-01-05T15:42:00.000Z"), Date.UTC(2026, 0, 5, 15, 42));
  assert.equal(parseTime(1_700_000_000_000), 1_700_000_000_000);
  for (const value of [undefined, null, "", "soon", 0, -5, Number.NaN, {}, [], true]) assert.equal(parseTime(value), undefined, String(value));
});

// ---- wording ----

test("the announcement, the footer and the headless line name the clock time and the wait", () => {
  const at = new Date(2026, 0, 5, 15, 42, 0).getTime();
  assert.equal(limitWaitText(at, NOW), "waiting for the usage limit: continuing at 15:42 (in 37 min) · /todoloop pause to cancel");
  assert.equal(limitFooterText(at), "resumes at 15:42");
  assert.equal(limitHeadlessText(at, NOW), "usage limit reached: it resets about 15:42 (in 37 min); run pi -c then to continue");
});

test("a wait reads in minutes and hours, to the nearest minute", () => {
  for (const ms of [0, -5, Number.NaN, 6000, MIN - 1]) assert.equal(waitText(ms), "under a minute", String(ms));
  assert.equal(waitText(MIN), "1 min");
  assert.equal(waitText(37 * MIN + 29_000), "37 min");
  assert.equal(waitText(37 * MIN + 30_000), "38 min");
  assert.equal(waitText(60 * MIN), "1 h");
  assert.equal(waitText(65 * MIN + 1), "1 h 5 min");
  assert.equal(waitText(59 * MIN + 45_000), "1 h");
});

// ---- edges ----

test("the backoff steps follow the wait's index: the second wait is 10 minutes, the fifth and later 60", () => {
  assert.equal(backoffMinutes(0), 5);
  assert.equal(backoffMinutes(1), 10);
  assert.equal(backoffMinutes(4), 60);
  assert.equal(backoffMinutes(5), 60);
});

test("an earlier wait of zero minutes counts as zero, not as a backoff step", () => {
  assert.deepEqual(plan({}, [0]), { kind: "wait", resumeAtMs: NOW + 10 * MIN, waitMinutes: 10, totalMinutes: 10, stated: false });
});

test("a cap left of a hair counts as spent; a stated time a hair past the cap left is still waited", () => {
  assert.deepEqual(plan({}, [], 1e-6), { kind: "exhausted", why: "spent", capMinutes: 1e-6, waitedMinutes: 0 });
  assert.equal(waited(plan({ resumeInMs: 300 * MIN }, [], 300)), 300);
  assert.equal(waited(plan({ resumeInMs: (300 + 1e-6) * MIN }, [], 300)), 300 + 1e-6);
  assert.equal(plan({ resumeInMs: 301 * MIN }, [], 300).kind, "exhausted");
});

test("a record's wait may be zero or the whole ceiling, whether written as waitMinutes or derived from resumeAt", () => {
  const stamp = "2026-01-05T15:05:00.000Z";
  assert.equal(priorWaitMinutes({ waitMinutes: 0 }, stamp), 0);
  assert.equal(priorWaitMinutes({ waitMinutes: MAX_LIMIT_WAIT_CEILING_MINUTES }, stamp), MAX_LIMIT_WAIT_CEILING_MINUTES);
  assert.equal(priorWaitMinutes({ waitMinutes: MAX_LIMIT_WAIT_CEILING_MINUTES + 1, resumeAt: "2026-01-05T15:15:00.000Z" }, stamp), 10);
  assert.equal(priorWaitMinutes({ resumeAt: stamp }, stamp), 0);
  assert.equal(priorWaitMinutes({ resumeAt: "2026-01-06T15:05:00.000Z" }, stamp), MAX_LIMIT_WAIT_CEILING_MINUTES);
  assert.equal(priorWaitMinutes({ resumeAt: "2026-01-06T15:05:00.001Z" }, stamp), undefined);
  assert.equal(priorWaitMinutes({ resumeAt: "2026-01-05T15:15:00.000Z" }, undefined), undefined);
  assert.equal(priorWaitMinutes({}, stamp), undefined);
});

test("a time is read only from a text of at most 64 characters, and only after 1970", () => {
  const day = "Jan 5 2026";
  assert.equal(parseTime(day.padEnd(64)), parseTime(day));
  assert.equal(typeof parseTime(day), "number");
  assert.equal(parseTime(day.padEnd(65)), undefined);
  assert.equal(parseTime("1970-01-01T00:00:00.000Z"), undefined);
  assert.equal(parseTime("1969-12-31T23:00:00.000Z"), undefined);
  assert.equal(parseTime("1970-01-01T00:00:00.001Z"), 1);
  assert.equal(parseTime(["2026-01-05T15:42:00.000Z"]), undefined, "a list holding a time is not a time");
});
