/**
 * Work in flight (SPEC §4.17, 0.5): an end heard before its start, same source and id, the start within
 * 10 s after it, is work that already finished, never work in flight.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyAllWork, applyWork, EARLY_END_MS, inFlight, MAX_TRACKED_WORK, NO_WORK, reconcileSource, startsFinished } from "../../src/core/work.ts";
import type { WorkEvent, WorkState } from "../../src/core/work.ts";

const HERE: readonly string[] = [];
const end = (id: string, source = "tintinweb-pi-subagents"): WorkEvent => ({ source, id, phase: "end" });
const start = (id: string, source = "tintinweb-pi-subagents"): WorkEvent => ({ source, id, phase: "start", label: "review" });

test("an end heard just before its start: nothing in flight, no end counted, nothing left remembered", () => {
  const after = applyAllWork(NO_WORK, [end("a1"), start("a1")], 1_000, HERE);
  assert.equal(inFlight(after), 0);
  assert.equal(after.ends, 0);
  assert.equal(after.lastEndAt, null);
  assert.deepEqual(after.early, []);
});

test("the start counts as already finished up to 10 s after its end, and is work in flight after that", () => {
  const ended = applyWork(NO_WORK, end("a1"), 1_000, HERE);
  assert.equal(inFlight(applyWork(ended, start("a1"), 1_000 + EARLY_END_MS, HERE)), 0, "exactly 10 s after");
  assert.equal(inFlight(applyWork(ended, start("a1"), 1_000 + EARLY_END_MS + 1, HERE)), 1, "later than 10 s");
  assert.equal(inFlight(applyWork(ended, start("a1"), 999, HERE)), 1, "a start heard before the end (a clock that went back) is not matched");
});

test("the end and the start must name the same source and the same id", () => {
  const ended = applyWork(NO_WORK, end("a1"), 1_000, HERE);
  assert.equal(inFlight(applyWork(ended, start("a2"), 1_001, HERE)), 1, "another id");
  assert.equal(inFlight(applyWork(ended, start("a1", "pi-code"), 1_001, HERE)), 1, "another source");
});

test("an early end matches one start: the same id started again later is new work", () => {
  const once = applyAllWork(NO_WORK, [end("a1"), start("a1")], 1_000, HERE);
  const again = applyWork(once, start("a1"), 2_000, HERE);
  assert.equal(inFlight(again), 1);
});

test("an end of another session is not remembered", () => {
  const other = applyWork(NO_WORK, { ...end("a1"), session: "elsewhere" }, 1_000, ["here"]);
  assert.equal(other, NO_WORK);
  assert.equal(inFlight(applyWork(other, start("a1"), 1_001, ["here"])), 1);
});

test("ends of tracked work still end it; only ends of untracked work are remembered", () => {
  const started = applyWork(NO_WORK, start("a1"), 1_000, HERE);
  const ended = applyWork(started, end("a1"), 2_000, HERE);
  assert.equal(inFlight(ended), 0);
  assert.equal(ended.ends, 1);
  assert.deepEqual(ended.early, []);
});

test("bad input: remembered ends stay bounded and are forgotten 10 s later", () => {
  let state: WorkState = NO_WORK;
  for (let index = 0; index < 10_000; index++) state = applyWork(state, end(`x${index}`), 5_000, HERE);
  assert.equal(state.early.length, MAX_TRACKED_WORK);
  assert.equal(state.early.at(-1)?.id, "x9999");
  const later = applyWork(state, start("y"), 5_000 + EARLY_END_MS + 1, HERE);
  assert.deepEqual(later.early, []);
  assert.equal(inFlight(later), 1);
  const twice = applyAllWork(NO_WORK, [end("a1"), end("a1")], 1_000, HERE);
  assert.equal(twice.early.length, 1, "the same end twice is remembered once");
});

test("a source's list of live work wins over an end heard before it", () => {
  const ended = applyWork(NO_WORK, end("p1", "aliou-pi-processes"), 1_000, HERE);
  const live = reconcileSource(ended, "aliou-pi-processes", [start("p1", "aliou-pi-processes")], 1_500, HERE);
  assert.equal(inFlight(live), 1);
});

test("each remembered end waits for its own start: ends of other work are kept, the matched one alone is forgotten", () => {
  assert.deepEqual(NO_WORK.early, [], "nothing is remembered at first");
  const ended = applyAllWork(NO_WORK, [end("a1"), end("a2"), end("a1", "pi-code")], 1_000, HERE);
  assert.deepEqual(ended.early.map((item) => `${item.source}/${item.id}`), ["tintinweb-pi-subagents/a1", "tintinweb-pi-subagents/a2", "pi-code/a1"]);
  const first = applyWork(ended, start("a1"), 1_500, HERE);
  assert.equal(inFlight(first), 0);
  assert.deepEqual(first.early.map((item) => `${item.source}/${item.id}`), ["tintinweb-pi-subagents/a2", "pi-code/a1"]);
  assert.equal(inFlight(applyAllWork(first, [start("a2"), start("a1", "pi-code")], 1_600, HERE)), 0, "the other two are still known as finished");
});

test("an end forgotten after 10 s leaves the ends still within 10 s, the one exactly 10 s old included", () => {
  const ended = applyAllWork(applyWork(NO_WORK, end("old"), 0, HERE), [end("a1")], 5_000, HERE);
  const at = 5_000 + EARLY_END_MS;
  assert.equal(inFlight(applyWork(ended, start("a1"), at, HERE)), 0, "a1's end is exactly 10 s old: still remembered");
  assert.equal(inFlight(applyWork(ended, start("old"), at, HERE)), 1, "old's end is 15 s old: forgotten");
  assert.equal(startsFinished(ended, start("a1"), at, HERE), true);
  assert.equal(startsFinished(ended, start("old"), at, HERE), false);
});

test("remembered ends are bounded at every count, not only at some", () => {
  let state: WorkState = NO_WORK;
  for (let index = 0; index <= MAX_TRACKED_WORK; index++) {
    state = applyWork(state, end(`x${index}`), 5_000, HERE);
    assert.equal(state.early.length, Math.min(index + 1, MAX_TRACKED_WORK));
  }
  state = applyWork(state, end("last"), 5_000, HERE);
  assert.equal(state.early.length, MAX_TRACKED_WORK);
  assert.equal(state.early[0]?.id, "x2", "the oldest go first");
});

test("startsFinished: only a start, here, untracked, whose end of the same source and id was heard", () => {
  const ended = applyWork(NO_WORK, end("a1"), 1_000, HERE);
  assert.equal(startsFinished(ended, start("a1"), 1_001, HERE), true);
  assert.equal(startsFinished(ended, end("a1"), 1_001, HERE), false, "an end is no start");
  assert.equal(startsFinished(ended, start("a2"), 1_001, HERE), false, "another id");
  assert.equal(startsFinished(ended, start("a1", "pi-code"), 1_001, HERE), false, "another source");
  assert.equal(startsFinished(NO_WORK, start("a1"), 1_001, HERE), false, "no end heard");
  assert.equal(startsFinished(ended, { ...start("a1"), session: "elsewhere" }, 1_001, ["here"]), false, "another session");
  const tracked = applyWork(applyWork(NO_WORK, start("a1"), 500, HERE), end("b1"), 900, HERE);
  const both = { ...tracked, early: [...tracked.early, { source: "tintinweb-pi-subagents", id: "a1", at: 950 }] };
  assert.equal(startsFinished(both, start("a1"), 1_001, HERE), false, "work already tracked is not a new start");
  assert.equal(startsFinished(ended, start("a1"), 1_000 + EARLY_END_MS + 1, HERE), false, "more than 10 s later");
});

test("a source's live list clears only its own remembered ends of work it says runs", () => {
  const ended = applyAllWork(NO_WORK, [end("p1", "aliou-pi-processes"), end("p2", "aliou-pi-processes"), end("p1", "pi-code")], 1_000, HERE);
  const live = reconcileSource(ended, "aliou-pi-processes", [start("p1", "aliou-pi-processes")], 1_500, HERE);
  assert.deepEqual(live.early.map((item) => `${item.source}/${item.id}`), ["aliou-pi-processes/p2", "pi-code/p1"]);
  assert.equal(inFlight(live), 1);
});
