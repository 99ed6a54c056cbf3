/**
 * The run's report as the branch reader folds it (src/state.ts with src/core/report.ts, SPEC §7.2):
 * from the branch alone, so a restart reads the same figures, and the incremental read agrees.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBranchReader, currentRun, EMPTY_SNAPSHOT, readSnapshot } from "../../src/state.ts";
import type { Snapshot } from "../../src/state.ts";
import { runReport } from "../../src/core/report.ts";
import { assistant, assistantCalls, callResult, chain, marker, markerDetails, rpivState, stopRecord, task, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { createSession } from "../fake-pi.ts";
import { TWO_OPEN } from "./branches.ts";

function withUsage(entry: Entry, tokens: number, cost: number): Entry {
  const message = entry.message as Record<string, unknown>;
  return { ...entry, message: { ...message, usage: { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: tokens, cost: { total: cost } } } };
}

function nudge(round: number, extra: Record<string, unknown> = {}): Entry {
  return { ...marker({ round, anchor: "u1", idle: 1 }), details: { ...markerDetails({ round, anchor: "u1", idle: 1 }), ...extra } };
}

/** The person's turn (not the loop's), then three continuations: an edit, nothing, a list change. */
function threeContinuations(): Entry[] {
  return chain(
    user("do it", { id: "u1" }),
    rpivState(TWO_OPEN),
    withUsage(assistant({ text: "Starting." }), 5000, 1),
    nudge(1),
    withUsage(assistantCalls([{ id: "c1", name: "edit", args: { path: "a.ts" } }]), 1000, 0.01),
    callResult("c1", "edit"),
    withUsage(assistant({ text: "Edited." }), 500, 0.005),
    nudge(2),
    withUsage(assistant({ text: "Thinking." }), 700, 0.007),
    nudge(3, { by: "continue" }),
    rpivState([task({ id: 1, subject: "Write tests", status: "completed" }), TWO_OPEN[1]!]),
    withUsage(assistant({ text: "Closed one." }), 300, 0.003),
  );
}

test("report state: three continuations, one changed nothing; the person's own turn is not counted", () => {
  const report = runReport(currentRun(readSnapshot(threeContinuations())), { minutes: 4, verifyRan: false });
  assert.equal(report.continuations, 3);
  assert.deepEqual(report.byKind, { nudge: 2, wake: 0, checkIn: 0, resume: 0, continue: 1, handOff: 0 });
  assert.equal(report.changed, 2);
  assert.equal(report.unchanged, 1);
  assert.equal(report.tokens, 2500);
  assert.equal(report.cost, 0.025);
});

test("report state: a recorded stop ends the run — the next run starts from nothing, the last is kept for /todoloop report", () => {
  const entries = [...threeContinuations(), stopRecord({ reason: "stopped: 3 continuations used, 1 task still open", anchor: "u1", kind: "limit", limit: "maxRounds" })];
  const snapshot = readSnapshot(chain(...entries));
  assert.equal(currentRun(snapshot).closed.continuations, 0);
  assert.equal(snapshot.lastRun?.closed.continuations, 3);
  const after = readSnapshot(chain(...entries, nudge(4, { by: "continue" }), withUsage(assistant({ text: "More." }), 11, 0)));
  assert.equal(currentRun(after).closed.tokens, 11);
  assert.equal(currentRun(after).closed.byKind.continue, 1);
  const next = readSnapshot(chain(...entries, user("new", { id: "u2" })));
  assert.equal(next.lastRun, undefined, "a new message starts afresh");
});

test("report state: a hand-off marker is known until a stop is recorded", () => {
  const handed = readSnapshot(chain(...threeContinuations(), nudge(3, { handOff: true })));
  assert.equal(handed.handOff, true);
  assert.equal(currentRun(handed).closed.byKind.handOff, 1);
  const stopped = readSnapshot(chain(...threeContinuations(), nudge(3, { handOff: true }), stopRecord({ reason: "stopped", anchor: "u1", kind: "limit" })));
  assert.equal(stopped.handOff, false);
});

test("report state: the incremental reader folds the same run as a full read (a restart reads the same report)", () => {
  const entries = threeContinuations();
  const session = createSession<Entry>([]);
  const reader = createBranchReader();
  let incremental: Snapshot = EMPTY_SNAPSHOT;
  for (const entry of entries) {
    session.append(entry);
    incremental = reader.read(session).snapshot;
  }
  assert.deepEqual(incremental.run, readSnapshot(entries).run);
  assert.deepEqual(currentRun(incremental), currentRun(readSnapshot(entries)));
});

test("report state: progress before the marker is not the continuation's — an errored reply after it changed nothing", () => {
  const errored = withUsage({ ...assistant({ text: "" }), message: { ...assistant().message, stopReason: "error" } }, 50, 0);
  const entries = chain(
    user("do it", { id: "u1" }),
    rpivState(TWO_OPEN),
    withUsage(assistantCalls([{ id: "c1", name: "edit", args: { path: "a.ts" } }]), 10, 0),
    callResult("c1", "edit"),
    // The reply ends on a provider error: no settle, so the reply's own progress stays true.
    { ...errored },
    nudge(1, { by: "resume" }),
    errored,
  );
  const run = currentRun(readSnapshot(entries));
  assert.equal(run.closed.byKind.resume, 1);
  assert.equal(run.closed.unchanged, 1);
  assert.equal(run.closed.tokens, 50);
});
