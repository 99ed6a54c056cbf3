/**
 * The run's report (src/core/report.ts, SPEC §7.2): continuations by kind, what each spent until the
 * next settle, whether it changed something, and the report read back from a stop record.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  continuationKind, EMPTY_RUN, MAX_LINES, pastRuns, shownRun, readReport, runReport, runSoFar, spentAnything, trackMarker, trackProgress, trackSettle, trackSpend, usageOf,
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
