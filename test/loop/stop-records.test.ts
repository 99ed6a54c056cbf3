/**
 * What settle() writes into a stop record beyond its kind and reason (src/loop.ts): the judge's call for the
 * stops it can make or mark (SPEC §4.22), and a usage-limit wait's resume time and minutes (§4.20).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JudgeUse, PendingStop, Reason } from "../../src/core/types.ts";
import { settle } from "../../src/loop.ts";
import { describeReason } from "../../src/core/text.ts";
import { seen } from "./facts.ts";

const USE: JudgeUse = { model: "judgefaux/jev", question: "waits", p: 0.91, tokens: 240, cost: 0.0004 };
const HANDS_OVER: JudgeUse = { model: "judgefaux/jev", question: "handsOver", p: 0.8, tokens: 120, cost: 0 };

function recordOf(reason: Reason, open = 0) {
  const pending: PendingStop = { reason, open, level: "warning" };
  return settle(seen({ round: 2, pending }), false, describeReason).record;
}

test("stop record: a wait, a clear list and a verified one the judge was asked about keep its call; without one, no judge field", () => {
  const waiting = recordOf({ kind: "waiting", reason: "Could you restart the server?", asked: true, judge: USE }, 2);
  assert.equal(waiting?.kind, "question");
  assert.deepEqual(waiting?.judge, USE);
  const clear = recordOf({ kind: "clear", handsOver: "Please try the login page.", judge: HANDS_OVER });
  assert.equal(clear?.kind, "clear");
  assert.deepEqual(clear?.judge, HANDS_OVER);
  assert.equal(clear?.handsOver, "Please try the login page.");
  const verified = recordOf({ kind: "verified", base: "clear", command: "npm test", seconds: 4, judge: HANDS_OVER });
  assert.equal(verified?.kind, "clear");
  assert.deepEqual(verified?.judge, HANDS_OVER);
  for (const reason of [
    { kind: "waiting", reason: "Which database?", asked: true },
    { kind: "clear" },
    { kind: "verified", base: "clear", command: "npm test", seconds: 4 },
  ] satisfies Reason[]) {
    const record = recordOf(reason, 1);
    assert.ok(record, reason.kind);
    assert.equal("judge" in record, false, `${reason.kind}: no judge field without a call`);
  }
});

test("stop record: a usage-limit wait keeps when it resumes and the minutes it waits; one that gave up, or has no finite time, keeps neither", () => {
  const at = Date.UTC(2026, 11, 7, 15, 42);
  const waiting = recordOf({ kind: "limit-wait", state: "waiting", resumeAtMs: at, waitMinutes: 37, atMs: at - 37 * 60_000, first: true, timer: true }, 2);
  assert.equal(waiting?.kind, "limit-wait");
  assert.equal(waiting?.resumeAt, "2026-12-07T15:42:00.000Z");
  assert.equal(waiting?.waitMinutes, 37);
  const nowhere = recordOf({ kind: "limit-wait", state: "waiting", resumeAtMs: Number.NaN, waitMinutes: 5, atMs: at, first: false, timer: false }, 2);
  assert.equal(nowhere?.kind, "limit-wait");
  assert.equal("resumeAt" in (nowhere ?? {}), false, "no time to say");
  assert.equal("waitMinutes" in (nowhere ?? {}), false);
  const gaveUp = recordOf({ kind: "limit-wait", state: "gave-up", why: "spent", capMinutes: 300, atMs: at }, 2);
  assert.equal(gaveUp?.kind, "limit-wait");
  assert.equal("resumeAt" in (gaveUp ?? {}), false, "a wait given up resumes at no time");
  assert.equal("waitMinutes" in (gaveUp ?? {}), false);
  assert.equal("judge" in (gaveUp ?? {}), false);
});
