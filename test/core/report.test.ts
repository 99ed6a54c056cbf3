/**
 * The run's report (src/core/report.ts, SPEC §7.2): continuations by kind, what each spent until the
 * next settle, whether it changed something, and the report read back from a stop record.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  continuationKind, EMPTY_RUN, MAX_LINES, pastRuns, shownRun, readReport, runReport, runSoFar, spentAnything, stopRanVerify, trackMarker, trackProgress, trackSettle, trackSpend, usageOf,
} from "../../src/core/report.ts";
import type { RunTrack } from "../../src/core/report.ts";

function continuation(track: RunTrack, details: unknown, spent: Array<[number, number]>, changed: boolean): RunTrack {
  let next = trackMarker(track, details, "L");
  for (const [tokens, cost] of spent) next = trackSpend(next, { tokens, cost });
  if (changed) next = trackProgress(next);
  return trackSettle(next, "L");
}

test("report: each continuation's kind comes from its marker's details; a verification continuation is a nudge", () => {
  assert.equal(continuationKind({ round: 1 }), "nudge");
  assert.equal(continuationKind({ round: 1, verify: { command: "npm test", exit: 1, seconds: 2, run: 1 } }), "nudge");
  assert.equal(continuationKind({ work: "wake" }), "wake");
  assert.equal(continuationKind({ work: "check-in" }), "checkIn");
  assert.equal(continuationKind({ by: "resume" }), "resume");
  assert.equal(continuationKind({ by: "continue" }), "continue");
  assert.equal(continuationKind({ reread: true }), "continue");
  assert.equal(continuationKind({ handOff: true, work: "wake" }), "handOff");
  assert.equal(continuationKind("junk"), "nudge");
});

test("report: three continuations, one changed nothing — sums are what pi recorded, minutes rounded to a tenth", () => {
  let track = continuation(EMPTY_RUN, { round: 1 }, [[1000, 0.01], [2000, 0.02]], true);
  track = continuation(track, { round: 2 }, [[500, 0.005]], false);
  track = continuation(track, { round: 3, by: "continue" }, [[300, 0.1], [0, 0.2]], true);
  const report = runReport(track, { minutes: 6.04, verifyRan: false });
  assert.deepEqual(report, {
    continuations: 3,
    byKind: { nudge: 2, wake: 0, checkIn: 0, resume: 0, continue: 1, handOff: 0 },
    changed: 2,
    unchanged: 1,
    tokens: 3800,
    cost: 0.335,
    minutes: 6,
  });
  assert.deepEqual(track.lines.map((line) => [line.round, line.tokens, line.changed]), [[1, 3000, true], [2, 500, false], [3, 300, true]]);
  assert.equal(spentAnything(report), true);
});

test("report: spend before the first marker (the person's own turn) is not the loop's; a changed list is a change", () => {
  let track = trackSpend(EMPTY_RUN, { tokens: 9999, cost: 9 });
  assert.equal(track, EMPTY_RUN);
  track = trackMarker(track, { round: 1 }, "before");
  track = trackSpend(track, { tokens: 10, cost: 0 });
  track = trackSettle(track, "after");
  const report = runReport(track, { minutes: undefined, verifyRan: false });
  assert.equal(report.changed, 1);
  assert.equal(report.tokens, 10);
  assert.equal(report.cost, 0, "a provider without cost reports 0");
  assert.equal(report.minutes, 0);
  assert.equal(spentAnything(runReport(EMPTY_RUN, { minutes: 3, verifyRan: false })), false);
});

test("report: a continuation a run ended without a settle counts with what it did so far; a marker after one closes it", () => {
  let track = trackMarker(EMPTY_RUN, { round: 1 }, "L");
  track = trackSpend(track, { tokens: 40, cost: 0.5 });
  assert.equal(runReport(runSoFar(trackProgress(track), "L"), { minutes: 1, verifyRan: false }).changed, 1);
  assert.equal(runReport(runSoFar(track, "L"), { minutes: 1, verifyRan: false }).unchanged, 1);
  assert.equal(runReport(runSoFar(track, "M"), { minutes: 1, verifyRan: false }).changed, 1, "the list changed meanwhile");
  const second = trackMarker(track, { round: 2 }, "L");
  assert.equal(second.closed.continuations, 1);
  assert.equal(second.open?.round, 2);
  assert.equal(second.open?.progress, false, "each continuation starts with nothing changed");
});

test("report: verification runs are its continuations plus the stop's own run; none leaves `verify` out, and no `judge` until one is called", () => {
  const track = continuation(EMPTY_RUN, { round: 1, verify: { command: "npm test", exit: 1, seconds: 1, run: 1 } }, [[5, 0]], true);
  assert.deepEqual(runReport(track, { minutes: 1, verifyRan: true }).verify, { runs: 2 });
  const plain = runReport(EMPTY_RUN, { minutes: 1, verifyRan: false });
  assert.equal("verify" in plain, false);
  assert.equal("judge" in plain, false);
});

test("report: the lines kept for /todoloop report are bounded; the sums count every continuation", () => {
  let track = EMPTY_RUN;
  for (let round = 1; round <= MAX_LINES + 5; round++) track = continuation(track, { round }, [[1, 0]], false);
  assert.equal(track.lines.length, MAX_LINES);
  assert.equal(track.lines[0]?.round, 6);
  assert.equal(track.closed.continuations, MAX_LINES + 5);
  assert.equal(track.closed.tokens, MAX_LINES + 5);
});

test("report: usage reads pi's totalTokens, else the parts; junk is 0", () => {
  assert.deepEqual(usageOf({ usage: { totalTokens: 12, cost: { total: 0.5 } } }), { tokens: 12, cost: 0.5 });
  assert.deepEqual(usageOf({ usage: { input: 3, output: 4, cacheRead: -1 } }), { tokens: 7, cost: 0 });
  assert.deepEqual(usageOf({ usage: "junk" }), { tokens: 0, cost: 0 });
});

test("report: read back from a record, every number is checked; the newest five runs come oldest first", () => {
  const good = runReport(continuation(EMPTY_RUN, { round: 1 }, [[7, 0.01]], true), { minutes: 2, verifyRan: false });
  assert.deepEqual(readReport(JSON.parse(JSON.stringify(good))), good);
  assert.equal(readReport({ ...good, tokens: -1 }), undefined);
  assert.equal(readReport({ ...good, byKind: null }), undefined);
  assert.equal(readReport("junk"), undefined);
  const stop = (round: number) => ({ type: "custom", customType: "todo-loop:stop", timestamp: "2026-12-01T10:00:00.000Z", data: { kind: "limit", round, report: { ...good, continuations: round } } });
  const entries = [stop(1), stop(2), { type: "custom", customType: "todo-loop:stop", data: { kind: "clear" } }, stop(3), stop(4), stop(5), stop(6), "junk"];
  assert.deepEqual(pastRuns(entries, "todo-loop:stop").map((run) => run.report.continuations), [2, 3, 4, 5, 6]);
  assert.equal(pastRuns(entries, "todo-loop:stop")[0]?.kind, "limit");
});

test("report: /todoloop report shows the current run when it has a continuation, else the last one that ended", () => {
  const last = continuation(EMPTY_RUN, { round: 1 }, [[5, 0]], true);
  assert.deepEqual(shownRun(EMPTY_RUN, last), { track: last, ended: true });
  const current = continuation(EMPTY_RUN, { round: 2 }, [[7, 0]], false);
  assert.deepEqual(shownRun(current, last), { track: current, ended: false });
  assert.deepEqual(shownRun(EMPTY_RUN, undefined), { track: EMPTY_RUN, ended: false });
});

test("report: the judge's calls of a run are summed from its markers and the stop's own call; none called, no judge field (SPEC §7.2)", () => {
  let track = trackMarker(EMPTY_RUN, { round: 1 }, "L", { tokens: 100, cost: 0.0001 });
  track = trackSettle(track, "L");
  track = trackMarker(track, { round: 2 }, "L");
  track = trackSettle(track, "L");
  const report = runReport(track, { minutes: 1, verifyRan: false, judge: { tokens: 50, cost: 0.0002 } });
  assert.deepEqual(report.judge, { calls: 2, tokens: 150, cost: 0.0003 });
  assert.deepEqual(readReport(report)?.judge, { calls: 2, tokens: 150, cost: 0.0003 }, "read back from a record as written");
  assert.equal(runReport(trackSettle(trackMarker(EMPTY_RUN, { round: 1 }, "L"), "L"), { minutes: 1, verifyRan: false }).judge, undefined);
});

test("report: malformed usage counts nothing of its own — wrong types, NaN, infinities, negatives and -0 are 0; totalTokens wins, else all four parts", () => {
  assert.deepEqual(usageOf({ usage: { input: 3, output: 4, cacheRead: 5, cacheWrite: 6, cost: { total: 0.25 } } }), { tokens: 18, cost: 0.25 });
  assert.deepEqual(usageOf({ usage: { totalTokens: 0, input: 1, output: 2, cacheRead: 30, cacheWrite: 400 } }), { tokens: 433, cost: 0 }, "a total of 0 falls back to the parts");
  assert.deepEqual(usageOf({ usage: { totalTokens: -5, input: 3, output: 4 } }), { tokens: 7, cost: 0 });
  assert.deepEqual(usageOf({ usage: { totalTokens: "12", input: 3, output: 4 } }), { tokens: 7, cost: 0 });
  assert.deepEqual(usageOf({ usage: { totalTokens: Number.POSITIVE_INFINITY, input: 3, output: 4 } }), { tokens: 7, cost: 0 });
  assert.deepEqual(usageOf({ usage: { totalTokens: Number.NaN, input: 3, output: Number.NEGATIVE_INFINITY, cacheRead: "9", cacheWrite: null } }), { tokens: 3, cost: 0 });
  assert.deepEqual(usageOf({ usage: { totalTokens: 12, cost: { total: -0.5 } } }), { tokens: 12, cost: 0 });
  assert.deepEqual(usageOf({ usage: { totalTokens: 12, cost: { total: "0.5" } } }), { tokens: 12, cost: 0 });
  assert.deepEqual(usageOf({ usage: { totalTokens: 12, cost: { total: Number.POSITIVE_INFINITY } } }), { tokens: 12, cost: 0 });
  assert.deepEqual(usageOf({ usage: { totalTokens: 12, cost: 0.5 } }), { tokens: 12, cost: 0 }, "cost is pi's record { total }, not a bare number");
  const negativeZero = usageOf({ usage: { totalTokens: 12, cost: { total: -0 } } });
  assert.ok(Object.is(negativeZero.cost, 0), "-0 is read as 0, not kept");
  assert.deepEqual(usageOf({ usage: null }), { tokens: 0, cost: 0 });
  assert.deepEqual(usageOf({}), { tokens: 0, cost: 0 });
});

test("report: details that are not a record are a nudge, never a throw", () => {
  assert.equal(continuationKind(null), "nudge");
  assert.equal(continuationKind(undefined), "nudge");
  assert.equal(continuationKind(7), "nudge");
  assert.equal(continuationKind({ handOff: "yes", work: "other", by: "someone", reread: 1 }), "nudge", "only the exact values name a kind");
});

test("report: a continuation's round is the marker's whole round >= 0, else the count of closed continuations + 1", () => {
  const roundOf = (track: RunTrack, details: unknown) => trackMarker(track, details, "L").open?.round;
  assert.equal(roundOf(EMPTY_RUN, { round: 7 }), 7);
  assert.equal(roundOf(EMPTY_RUN, { round: 0 }), 0);
  const two = continuation(continuation(EMPTY_RUN, { round: 1 }, [], false), { round: 2 }, [], false);
  assert.equal(two.closed.continuations, 2);
  assert.equal(roundOf(two, { round: -1 }), 3);
  assert.equal(roundOf(two, { round: 2.5 }), 3);
  assert.equal(roundOf(two, { round: "4" }), 3);
  assert.equal(roundOf(two, { round: Number.NaN }), 3);
  assert.equal(roundOf(two, {}), 3);
  assert.equal(roundOf(two, null), 3);
  assert.equal(roundOf(two, "junk"), 3);
  assert.equal(trackMarker(two, null, "L").verifyRuns, 0, "no details, no verification run");
});

test("report: a message that recorded nothing leaves the open continuation as it was; spend and cost are summed exactly", () => {
  const open = trackMarker(EMPTY_RUN, { round: 1 }, "L");
  assert.equal(trackSpend(open, { tokens: 0, cost: 0 }), open);
  const costOnly = trackSpend(open, { tokens: 0, cost: 0.1 });
  assert.deepEqual([costOnly.open?.tokens, costOnly.open?.cost], [0, 0.1]);
  const tokensOnly = trackSpend(costOnly, { tokens: 25, cost: 0 });
  const both = trackSpend(tokensOnly, { tokens: 5, cost: 0.2 });
  assert.deepEqual([both.open?.tokens, both.open?.cost], [30, 0.3]);
  assert.equal(trackProgress(EMPTY_RUN), EMPTY_RUN, "no open continuation, nothing to mark");
  const marked = trackProgress(open);
  assert.equal(trackProgress(marked), marked);
});

test("report: the sums count every kind of continuation on its own", () => {
  const kinds: Array<[unknown, number, number]> = [
    [{ round: 1 }, 10, 0.01], [{ work: "wake" }, 20, 0.02], [{ work: "wake" }, 30, 0.03], [{ work: "check-in" }, 40, 0.04],
    [{ by: "resume" }, 50, 0.05], [{ by: "continue" }, 60, 0.06], [{ reread: true }, 70, 0.07], [{ handOff: true }, 80, 0.08],
  ];
  let track = EMPTY_RUN;
  kinds.forEach(([details, tokens, cost], index) => { track = continuation(track, details, [[tokens, cost]], index % 2 === 0); });
  const report = runReport(track, { minutes: 12.35, verifyRan: false });
  assert.deepEqual(report, {
    continuations: 8,
    byKind: { nudge: 1, wake: 2, checkIn: 1, resume: 1, continue: 2, handOff: 1 },
    changed: 4,
    unchanged: 4,
    tokens: 360,
    cost: 0.36,
    minutes: 12.4,
  });
  assert.deepEqual(track.lines.map((line) => line.kind), ["nudge", "wake", "wake", "checkIn", "resume", "continue", "continue", "handOff"]);
  assert.deepEqual(track.lines.map((line) => line.round), [1, 2, 3, 4, 5, 6, 7, 8], "a marker without a round is numbered in order");
});

test("report: the stop's own verification is a run when the command ran — passed, failed, or started and cut — not when refused or unstartable", () => {
  assert.equal(stopRanVerify(undefined), false);
  assert.equal(stopRanVerify({ kind: "verified" }), true);
  assert.equal(stopRanVerify({ kind: "verify-failed", why: "runs" }), true);
  assert.equal(stopRanVerify({ kind: "verify-failed", why: "limit" }), true);
  for (const why of ["timeout", "killed", "aborted", "not-found", "not-executable"]) assert.equal(stopRanVerify({ kind: "verify-error", why }), true, why);
  for (const why of ["start", "unapproved", "changed", "hidden-characters", "untrusted", undefined, "", 1]) assert.equal(stopRanVerify({ kind: "verify-error", why }), false, String(why));
  for (const kind of ["clear", "limit", "outcome", "verify-continuing", ""]) assert.equal(stopRanVerify({ kind, why: "timeout" }), false, kind);
  const track = continuation(EMPTY_RUN, { round: 1 }, [[5, 0]], true);
  assert.deepEqual(runReport(track, { minutes: 1, verifyRan: stopRanVerify({ kind: "verify-error", why: "killed" }) }).verify, { runs: 1 });
  assert.equal(runReport(track, { minutes: 1, verifyRan: stopRanVerify({ kind: "verify-error", why: "start" }) }).verify, undefined);
});

test("report: minutes that are not a positive finite number are 0; others round to a tenth", () => {
  const minutes = (value: number | undefined) => runReport(EMPTY_RUN, { minutes: value, verifyRan: false }).minutes;
  assert.equal(minutes(Number.POSITIVE_INFINITY), 0);
  assert.equal(minutes(Number.NaN), 0);
  assert.equal(minutes(-3), 0);
  assert.equal(minutes(-0), 0, "-0 is 0, not kept");
  assert.equal(minutes(0), 0);
  assert.equal(minutes(0.04), 0);
  assert.equal(minutes(0.05), 0.1);
  assert.equal(minutes(90.26), 90.3);
});

test("report: anything was spent when a continuation ran, or tokens, or cost were recorded", () => {
  const none = runReport(EMPTY_RUN, { minutes: 5, verifyRan: false });
  assert.equal(spentAnything(none), false);
  assert.equal(spentAnything({ ...none, continuations: 1 }), true);
  assert.equal(spentAnything({ ...none, tokens: 1 }), true);
  assert.equal(spentAnything({ ...none, cost: 0.001 }), true);
  assert.equal(spentAnything({ ...none, verify: { runs: 1 } }), false, "a verification alone is not the loop's spend");
});

test("report: read back, each required number must be present and sound; byKind counts default to 0", () => {
  const good = runReport(continuation(EMPTY_RUN, { round: 1, verify: { command: "t" } }, [[7, 0.01]], true), { minutes: 2.5, verifyRan: true });
  assert.deepEqual(good.verify, { runs: 2 });
  assert.deepEqual(readReport(JSON.parse(JSON.stringify(good))), good);
  for (const field of ["continuations", "changed", "unchanged"]) {
    for (const bad of [undefined, "1", 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(readReport({ ...good, [field]: bad }), undefined, `${field}: ${String(bad)}`);
    assert.equal(readReport({ ...good, [field]: 0 })?.[field as "changed"], 0, `${field}: 0 is sound`);
  }
  for (const field of ["tokens", "cost", "minutes"]) {
    for (const bad of [undefined, "1", -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(readReport({ ...good, [field]: bad }), undefined, `${field}: ${String(bad)}`);
    assert.equal(readReport({ ...good, [field]: 0.5 })?.[field as "cost"], 0.5, `${field}: a fraction is sound`);
  }
  const byKind = readReport({ ...good, byKind: { nudge: 2, wake: "3", checkIn: -1, resume: 1.5, continue: 4 } })?.byKind;
  assert.deepEqual(byKind, { nudge: 2, wake: 0, checkIn: 0, resume: 0, continue: 4, handOff: 0 });
});

test("report: read back, `verify` is kept only with a whole number of runs above 0, `judge` only with every number sound", () => {
  const { verify: _verify, ...base } = runReport(continuation(EMPTY_RUN, { round: 1 }, [[7, 0.01]], true), { minutes: 2, verifyRan: false });
  assert.equal(_verify, undefined);
  assert.deepEqual(readReport({ ...base, verify: { runs: 3 } })?.verify, { runs: 3 });
  for (const runs of [0, -1, 1.5, "3", undefined]) assert.equal("verify" in (readReport({ ...base, verify: { runs } }) ?? {}), false, String(runs));
  assert.equal("verify" in (readReport({ ...base, verify: 3 }) ?? {}), false);
  const judge = { calls: 2, tokens: 150, cost: 0.0003 };
  assert.deepEqual(readReport({ ...base, judge })?.judge, judge);
  assert.deepEqual(readReport({ ...base, judge: { calls: 0, tokens: 0, cost: 0 } })?.judge, { calls: 0, tokens: 0, cost: 0 });
  for (const bad of [{ ...judge, calls: 1.5 }, { ...judge, calls: "2" }, { ...judge, tokens: -1 }, { ...judge, tokens: "150" }, { ...judge, cost: Number.NaN }, { ...judge, cost: -0.1 }, { calls: 2 }, "junk"]) {
    const read = readReport({ ...base, judge: bad });
    assert.ok(read, JSON.stringify(bad));
    assert.equal("judge" in read, false, JSON.stringify(bad));
  }
});

test("report: past runs come only from stop records with a sound report, with their time and kind as written", () => {
  const report = runReport(continuation(EMPTY_RUN, { round: 1 }, [[7, 0.01]], true), { minutes: 2, verifyRan: false });
  const stop = "todo-loop:stop";
  const entries: unknown[] = [
    { type: "custom", customType: stop, timestamp: "2026-12-01T10:00:00.000Z", data: { kind: "limit", report: { ...report, continuations: 1 } } },
    null,
    { type: "message", customType: stop, data: { kind: "limit", report: { ...report, continuations: 90 } } },
    { type: "custom", customType: "todo-loop:other", data: { kind: "limit", report: { ...report, continuations: 91 } } },
    { type: "custom", customType: stop, data: null },
    { type: "custom", customType: stop, data: { kind: "idle", report: { ...report, tokens: "x" } } },
    { type: "custom", customType: stop, timestamp: 2026, data: { kind: 5, report: { ...report, continuations: 2 } } },
    { type: "custom", customType: stop, timestamp: "not a time", data: { report: { ...report, continuations: 3 } } },
  ];
  const runs = pastRuns(entries, stop);
  assert.deepEqual(runs.map((run) => [run.report.continuations, run.kind, run.time]), [
    [1, "limit", Date.UTC(2026, 11, 1, 10)],
    [2, "stop", undefined],
    [3, "stop", undefined],
  ]);
  assert.deepEqual(pastRuns(entries, stop, 2).map((run) => run.report.continuations), [2, 3], "the newest `max`");
  assert.deepEqual(pastRuns([entries[0]], stop).map((run) => run.report.continuations), [1], "the only record, at the start, is read");
  assert.deepEqual(pastRuns([], stop), []);
  assert.deepEqual(pastRuns(null as unknown as unknown[], stop), []);
  assert.deepEqual(pastRuns("junk" as unknown as unknown[], stop), []);
});
