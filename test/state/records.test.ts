/**
 * What the branch reader takes from the loop's own 0.5 records and fields (src/state.ts): the judge's
 * calls kept on markers and stop records (SPEC §4.22), the hand-over flag, the stop kinds of 0.5, the
 * restart record, the run's settle and progress, and plan-mode lists kept below another source's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { currentRun, EMPTY_SNAPSHOT, extendSnapshot, listState, readSnapshot } from "../../src/state.ts";
import type { Snapshot } from "../../src/state.ts";
import { runReport } from "../../src/core/report.ts";
import { assistant, assistantCalls, callResult, chain, customEntry, marker, markerDetails, nestedCallsResult, rpivState, stopRecord, task, toolResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { planSteps, TWO_OPEN } from "./branches.ts";

function nudge(round: number, extra: Record<string, unknown> = {}): Entry {
  return { ...marker({ round, anchor: "u1", idle: 1 }), details: { ...markerDetails({ round, anchor: "u1", idle: 1 }), ...extra } };
}

function judged(tokens: unknown, cost: unknown, question = "waits"): Record<string, unknown> {
  return { model: "anthropic/claude-haiku", question, p: 0.9, tokens, cost };
}

function stopWith(options: Parameters<typeof stopRecord>[0], extra: Record<string, unknown> = {}): Entry {
  const record = stopRecord(options);
  return { ...record, data: { ...(record.data as Record<string, unknown>), ...extra } };
}

/** Both reads: the full one, and a fold from nothing (what the incremental reader does). */
function bothReads(entries: Entry[]): Snapshot {
  const full = readSnapshot(entries);
  const folded = extendSnapshot(EMPTY_SNAPSHOT, entries);
  assert.deepEqual(full.judge, folded.judge, "both reads count the same judge calls");
  assert.equal(full.handOff, folded.handOff, "both reads agree on the hand-over");
  return full;
}

// ---- §4.22 the judge's calls -----------------------------------------------------------------------------

test("reader judge: no judge call under the message is zero calls, zero tokens, zero cost", () => {
  assert.deepEqual(EMPTY_SNAPSHOT.judge, { calls: 0, tokens: 0, cost: 0 });
  const snapshot = bothReads(chain(user("go", { id: "u1" }), nudge(1), nudge(2)));
  assert.deepEqual(snapshot.judge, { calls: 0, tokens: 0, cost: 0 });
  assert.equal(snapshot.tokens, 0);
  assert.equal(snapshot.cost, 0);
});

test("reader judge: each call on a marker counts once, and its tokens and cost join the message's spend", () => {
  const snapshot = bothReads(chain(user("go", { id: "u1" }), nudge(1, { judge: judged(120, 0.25) }), nudge(2, { judge: judged(30, 0.5, "handsOver") })));
  assert.deepEqual(snapshot.judge, { calls: 2, tokens: 150, cost: 0.75 });
  assert.equal(snapshot.tokens, 150);
  assert.equal(snapshot.cost, 0.75);
});

test("reader judge: a call on a stop record counts too; a stop record without one adds nothing", () => {
  const stop = stopWith({ reason: "waiting for you: the judge read the reply as waiting for you: \"Which file?\"", anchor: "u1", kind: "question" }, { judge: judged(40, 0.125) });
  const snapshot = bothReads(chain(user("go", { id: "u1" }), nudge(1, { judge: judged(10, 0.5) }), stop));
  assert.deepEqual(snapshot.judge, { calls: 2, tokens: 50, cost: 0.625 });
  assert.equal(snapshot.tokens, 50);
  const plain = bothReads(chain(user("go", { id: "u1" }), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" })));
  assert.deepEqual(plain.judge, { calls: 0, tokens: 0, cost: 0 });
});

test("reader judge: a malformed call (no model, an unknown question) is no call; bad tokens or cost read as 0", () => {
  const noModel = { question: "waits", tokens: 5, cost: 1 };
  const unknownQuestion = { model: "m", question: "other", tokens: 5, cost: 1 };
  const snapshot = bothReads(chain(user("go", { id: "u1" }), nudge(1, { judge: noModel }), nudge(2, { judge: unknownQuestion }), nudge(3, { judge: "yes" })));
  assert.deepEqual(snapshot.judge, { calls: 0, tokens: 0, cost: 0 });
  const bad = bothReads(chain(user("go", { id: "u1" }), nudge(1, { judge: judged(-3, "0.5") })));
  assert.deepEqual(bad.judge, { calls: 1, tokens: 0, cost: 0 });
});

test("reader judge: a new message starts the count again", () => {
  const snapshot = bothReads(chain(user("go", { id: "u1" }), nudge(1, { judge: judged(10, 0.5) }), user("next", { id: "u2" })));
  assert.deepEqual(snapshot.judge, { calls: 0, tokens: 0, cost: 0 });
});

// ---- the hand-over flag --------------------------------------------------------------------------------

test("reader hand-over: only a marker with handOff: true sets it; the next marker, a stop record or a new message clear it", () => {
  assert.equal(EMPTY_SNAPSHOT.handOff, false);
  assert.equal(bothReads(chain(rpivState(TWO_OPEN))).handOff, false, "a branch without a message");
  const handed = chain(user("go", { id: "u1" }), nudge(1, { handOff: true }));
  assert.equal(bothReads(handed).handOff, true);
  assert.equal(bothReads(chain(user("go", { id: "u1" }), nudge(1, { handOff: "yes" }))).handOff, false, "only true is a hand-over");
  assert.equal(bothReads(chain(user("go", { id: "u1" }), nudge(1))).handOff, false);
  assert.equal(bothReads(chain(...handed, nudge(2))).handOff, false);
  assert.equal(bothReads(chain(...handed, stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }))).handOff, false);
  assert.equal(bothReads(chain(...handed, user("new", { id: "u2" }))).handOff, false);
});

// ---- stop kinds ----------------------------------------------------------------------------------------

test("reader stops: every 0.5 kind is read by its kind, whatever the reason says", () => {
  for (const kind of ["verify-failed", "verify-error", "limit-wait", "work-timeout", "out-of-reach", "earlier"]) {
    const snapshot = readSnapshot(chain(user("go", { id: "u1" }), stopRecord({ reason: `ended (${kind})`, anchor: "u1", kind })));
    assert.deepEqual(snapshot.announced, [kind], kind);
  }
  const limited = readSnapshot(chain(user("go", { id: "u1" }), stopRecord({ reason: "ended", anchor: "u1", kind: "limit", limit: "maxMinutes" })));
  assert.deepEqual(limited.announced, ["limit:maxMinutes"]);
});

test("reader stops: an unknown kind is read by the reason's wording, or keyed by the reason itself", () => {
  const legacy = readSnapshot(chain(user("go", { id: "u1" }), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "from-the-future" })));
  assert.deepEqual(legacy.announced, ["clear"]);
  const unknown = readSnapshot(chain(user("go", { id: "u1" }), stopRecord({ reason: "ended somehow", anchor: "u1", kind: "from-the-future" })));
  assert.deepEqual(unknown.announced, ["reason:ended somehow"]);
});

// ---- the restart record ----------------------------------------------------------------------------------

test("reader restart: pi's restart record after a tool result means the run is no longer going", () => {
  const worked = chain(user("go", { id: "u1" }), toolResult("bash", {}));
  assert.equal(readSnapshot(worked).afterWork, true);
  assert.equal(readSnapshot(chain(...worked, customEntry("todo-loop:restart", { v: 1 }))).afterWork, false);
  assert.equal(readSnapshot(chain(...worked, customEntry("other-extension:restart", { v: 1 }))).afterWork, true, "another extension's record is not it");
});

// ---- the run's continuations ---------------------------------------------------------------------------

test("reader run: a failed edit is no progress — the continuation changed nothing", () => {
  const entries = chain(
    user("go", { id: "u1" }),
    rpivState(TWO_OPEN),
    assistant({ text: "Starting." }),
    nudge(1),
    assistantCalls([{ id: "c1", name: "edit", args: { path: "a.ts" } }]),
    callResult("c1", "edit", { isError: true, text: "no match" }),
    assistant({ text: "Could not." }),
  );
  const report = runReport(currentRun(readSnapshot(entries)), { minutes: 1, verifyRan: false });
  assert.equal(report.continuations, 1);
  assert.equal(report.changed, 0);
  assert.equal(report.unchanged, 1);
});

test("reader run: the settle closes the continuation with the list as it was then; a later change is not its doing", () => {
  const entries = chain(
    user("go", { id: "u1" }),
    rpivState(TWO_OPEN),
    assistant({ text: "Starting." }),
    nudge(1),
    assistant({ text: "Nothing to add." }),
    rpivState([task({ id: 1, subject: "Write tests", status: "completed" }), TWO_OPEN[1]!]),
  );
  const snapshot = readSnapshot(entries);
  assert.equal(snapshot.run.open, undefined, "the settle closed it");
  const report = runReport(currentRun(snapshot), { minutes: 1, verifyRan: false });
  assert.equal(report.continuations, 1);
  assert.equal(report.changed, 0);
});

// ---- tool results --------------------------------------------------------------------------------------

test("reader tools: junk among a codemode script's calls is skipped; a todo call beside it still adopts the list", () => {
  const before = [user("plan", { id: "u1" }), rpivState(TWO_OPEN), assistant(), user("go on?", { id: "u2" })];
  const junkOnly = readSnapshot(chain(...before, nestedCallsResult([null, 7, { name: 3 }])));
  assert.equal(junkOnly.earlierAdopted, false);
  assert.equal(readSnapshot(chain(...before, nestedCallsResult([null, { id: "c1", name: "todo" }]))).earlierAdopted, true);
});

test("reader tools: another tool's results are no use of a todo tool", () => {
  const snapshot = readSnapshot(chain(user("go", { id: "u1" }), toolResult("bash", {}), toolResult("edit", {})));
  assert.equal(snapshot.todoToolUsed, false);
  assert.deepEqual(listState(snapshot, false), { kind: "none", why: "no-tool" });
});

// ---- plan-mode below another source --------------------------------------------------------------------

test("reader plan-mode: a newer plan replaces the older one below, it is not kept twice", () => {
  const snapshot = readSnapshot(chain(user("go", { id: "u1" }), planSteps([1, "a", false]), planSteps([1, "a", true], [2, "b", false])));
  assert.equal(snapshot.lists.length, 1);
  assert.deepEqual(snapshot.lists[0]?.tasks.map((item) => item.text), ["a", "b"]);
});

test("reader plan-mode: plan-mode saying it holds no list leaves another source's current list as it stands, out of date too", () => {
  const unreadable = customEntry("rpiv-todo-state", { tasks: "not tasks", nextId: 1 });
  const planOff = customEntry("plan-mode", { enabled: false, executing: false });
  const snapshot = readSnapshot(chain(user("go", { id: "u1" }), planSteps([1, "a", false]), rpivState(TWO_OPEN), unreadable, planOff));
  assert.equal(snapshot.list?.source, "rpiv-todo");
  assert.equal(snapshot.outOfDate, "unreadable");
});
