/**
 * The bus API's rules (src/core/bus.ts, SPEC §4.25): the state event's content, which requests are
 * served, refused or ignored, and the reply.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { busState, readRequest, replyChannel, replyOf, stateKey } from "../../src/core/bus.ts";
import type { StateFacts } from "../../src/core/bus.ts";
import { CLEAR, LIST, limits, NO_LIMITS, seen } from "../loop/facts.ts";

function facts(overrides: Partial<StateFacts> = {}): StateFacts {
  return { session: "s1", memory: seen({ round: 2 }), list: LIST, limits: NO_LIMITS, off: false, ...overrides };
}

test("bus state: running with the counts; the cap when maxRounds is set", () => {
  assert.deepEqual(busState(facts()), { v: 1, session: "s1", mode: "running", open: 2, total: 3, continuations: 2 });
  assert.equal(busState(facts({ limits: limits({ maxRounds: 5 }) })).limit, 5);
});

test("bus state: off, paused, idle (with last clear), waiting, working, resuming, stopped", () => {
  assert.equal(busState(facts({ off: true })).mode, "off");
  assert.equal(busState(facts({ memory: seen({ paused: true }) })).mode, "paused");
  const clear = busState(facts({ list: CLEAR, memory: seen({ last: { kind: "clear" } }) }));
  assert.deepEqual([clear.mode, clear.last], ["idle", "clear"]);
  assert.equal(busState(facts({ list: { kind: "none", why: "unused" } })).mode, "idle");
  assert.equal(busState(facts({ memory: seen({ waiting: { reason: "which?", asked: true } }) })).mode, "waiting");
  const working = busState(facts({ memory: seen({ last: { kind: "waiting-work", jobs: 2, open: 2 } }) }));
  assert.deepEqual([working.mode, working.work], ["working", 2]);
  const resuming = busState(facts({ memory: seen({ last: { kind: "limit-wait", state: "waiting", resumeAtMs: Date.UTC(2026, 11, 7, 9), waitMinutes: 30, atMs: 0, first: true, timer: true } }) }));
  assert.deepEqual([resuming.mode, resuming.resumeAt, resuming.last], ["resuming", "2026-12-07T09:00:00.000Z", "limit-wait"]);
  const stopped = busState(facts({ memory: seen({ last: { kind: "limit", limit: "maxRounds", used: 2, max: 2, open: 2, stale: 0 } }) }));
  assert.deepEqual([stopped.mode, stopped.last], ["stopped", "limit"]);
  const pending = busState(facts({ memory: seen({ last: { kind: "clear" }, pending: { reason: { kind: "clear" }, open: 0, level: "info" } }) }));
  assert.equal(pending.mode, "running", "a stop still pending may not end the run");
  const rebuilt = busState(facts({ memory: seen({ announced: ["limit:maxRounds"] }) }));
  assert.deepEqual([rebuilt.mode, rebuilt.last], ["stopped", "limit"]);
  assert.notEqual(stateKey(busState(facts())), stateKey(busState(facts({ off: true }))));
});

test("bus requests: malformed ones are ignored — no v: 1, no string id", () => {
  for (const raw of [undefined, null, "status", 1, [], {}, { v: 2, id: "a", op: "status" }, { v: 1, op: "status" }, { v: 1, id: 7, op: "status" }, { v: 1, id: "", op: "status" }, { v: 1, id: "x".repeat(201), op: "status" }]) {
    assert.deepEqual(readRequest(raw, "s1"), { kind: "ignore" }, JSON.stringify(raw));
  }
});

test("bus requests: an unknown op, a session that is no string or another session's is refused with the reason", () => {
  assert.equal(readRequest({ v: 1, id: "a", op: "explode" }, "s1").kind, "refuse");
  assert.equal(readRequest({ v: 1, id: "a" }, "s1").kind, "refuse");
  assert.equal(readRequest({ v: 1, id: "a", op: "status", session: 7 }, "s1").kind, "refuse");
  const other = readRequest({ v: 1, id: "a", op: "status", session: "s2" }, "s1");
  assert.equal(other.kind, "refuse");
  assert.match(other.kind === "refuse" ? other.error : "", /another session/);
});

test("bus requests: the five words are served, for this session or none named; the reply carries the state or the error", () => {
  for (const op of ["status", "pause", "resume", "continue", "reset"]) assert.deepEqual(readRequest({ v: 1, id: "r1", op }, "s1"), { kind: "serve", id: "r1", op });
  assert.equal(readRequest({ v: 1, id: "r1", op: "pause", session: "s1" }, "s1").kind, "serve");
  const state = busState(facts());
  assert.deepEqual(replyOf(state, undefined), { v: 1, ok: true, state });
  assert.deepEqual(replyOf(state, "nothing to continue"), { v: 1, ok: false, error: "nothing to continue" });
  assert.equal(replyChannel("r1"), "todo-loop:reply:r1");
});
