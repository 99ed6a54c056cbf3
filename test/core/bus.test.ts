/**
 * The bus API's rules (src/core/bus.ts, SPEC §4.25): the state event's content, which requests are
 * served, refused or ignored, and the reply.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { busState, MAX_ID, readRequest, replyChannel, replyOf, stateKey } from "../../src/core/bus.ts";
import { stopKey } from "../../src/core/stops.ts";
import type { StopKind } from "../../src/core/types.ts";
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

/** Every stop kind a record can carry; a Record so that a kind added to StopKind must be added here. */
const EVERY_KIND: Record<StopKind, true> = {
  clear: true, "no-list": true, limit: true, idle: true, stuck: true, repeat: true, waiting: true, question: true, "out-of-reach": true,
  "out-of-date": true, outcome: true, earlier: true, "verify-failed": true, "verify-error": true, "limit-wait": true, "work-timeout": true,
};

test("bus state: the last stop rebuilt from the branch's announced keys — every kind, the newest key, a limit's key by its kind", () => {
  for (const kind of Object.keys(EVERY_KIND) as StopKind[]) {
    const state = busState(facts({ memory: seen({ announced: [stopKey(kind, "maxRounds")] }) }));
    const mode = kind === "waiting" || kind === "question" ? "waiting" : "stopped";
    assert.deepEqual([state.last, state.mode], [kind, mode], kind);
  }
  assert.equal(busState(facts({ memory: seen({ announced: ["limit:maxRounds", "idle"] }) })).last, "idle");
});

test("bus state: an announced key that names no stop kind (a tampered or newer record) gives no last stop", () => {
  for (const key of ["", "bogus", ":", "__proto__", "constructor", "toString", "CLEAR", " clear", "x".repeat(10_000)]) {
    const state = busState(facts({ memory: seen({ announced: [key] }) }));
    assert.deepEqual([state.last, state.mode, "last" in state], [undefined, "running", false], key.slice(0, 20));
  }
});

test("bus state: announced keys count only while nothing newer happened — a later non-stop reason means running", () => {
  for (const last of [{ kind: "resumed" }, { kind: "continuing", open: 2, round: 2, maxRounds: null }, { kind: "paused" }] as const) {
    const state = busState(facts({ memory: seen({ last, announced: ["limit:maxRounds"] }) }));
    assert.deepEqual([state.mode, state.last], ["running", undefined], last.kind);
  }
});

test("bus state: the last stop's own kind — a question or a wait said is waiting for the person, read from the stop when no wait is held", () => {
  const asked = busState(facts({ memory: seen({ last: { kind: "waiting", reason: "which file?", asked: true } }) }));
  assert.deepEqual([asked.mode, asked.last], ["waiting", "question"]);
  const said = busState(facts({ memory: seen({ last: { kind: "waiting", reason: "blocked", asked: false } }) }));
  assert.deepEqual([said.mode, said.last], ["waiting", "waiting"]);
  const idle = busState(facts({ memory: seen({ last: { kind: "idle", replies: 3, open: 2 } }) }));
  assert.deepEqual([idle.mode, idle.last], ["stopped", "idle"]);
});

test("bus state: another workflow driving the session is stopped, with no stop kind of the loop's own", () => {
  const state = busState(facts({ memory: seen({ last: { kind: "other-workflow" } }) }));
  assert.deepEqual(state, { v: 1, session: "s1", mode: "stopped", open: 2, total: 3, continuations: 0 });
});

const WAIT_AT = Date.UTC(2026, 11, 7, 9);
const limitWait = (timer: boolean, resumeAtMs = WAIT_AT) =>
  ({ kind: "limit-wait", state: "waiting", resumeAtMs, waitMinutes: 30, atMs: 0, first: true, timer }) as const;

test("bus state: resuming only with a timer armed and a finite reset time; without a timer (print mode) the run stopped", () => {
  const untimed = busState(facts({ memory: seen({ last: limitWait(false) }) }));
  assert.deepEqual([untimed.mode, untimed.last, "resumeAt" in untimed], ["stopped", "limit-wait", false]);
  for (const resumeAtMs of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    const state = busState(facts({ memory: seen({ last: limitWait(true, resumeAtMs) }) }));
    assert.deepEqual([state.mode, "resumeAt" in state], ["stopped", false], String(resumeAtMs));
  }
  const gaveUp = busState(facts({ memory: seen({ last: { kind: "limit-wait", state: "gave-up", why: "spent", capMinutes: 60, resetAtMs: WAIT_AT, atMs: 0 } }) }));
  assert.deepEqual([gaveUp.mode, gaveUp.last, "resumeAt" in gaveUp], ["stopped", "limit-wait", false]);
});

test("bus state: a limit's wait or work in flight with a stop still pending is running, not resuming or working", () => {
  const pending = { reason: { kind: "clear" }, open: 0, level: "info" } as const;
  const resuming = busState(facts({ memory: seen({ last: limitWait(true), pending }) }));
  assert.deepEqual([resuming.mode, "resumeAt" in resuming, "last" in resuming], ["running", false, false]);
  const working = busState(facts({ memory: seen({ last: { kind: "waiting-work", jobs: 2, open: 2 }, pending }) }));
  assert.deepEqual([working.mode, "work" in working], ["running", false]);
});

test("bus state: a list that could no longer be read counts the older list's open tasks, as the total too", () => {
  const stale = busState(facts({ list: { kind: "out-of-date", why: "unreadable", open: 4, source: "rpiv-todo" } }));
  assert.deepEqual([stale.mode, stale.open, stale.total], ["running", 4, 4]);
  const none = busState(facts({ list: { kind: "out-of-date", why: "unreadable", open: 0, source: undefined } }));
  assert.deepEqual([none.mode, none.open, none.total], ["idle", 0, 0]);
});

test("bus requests: an id is served up to MAX_ID characters, ignored past it", () => {
  const longest = "x".repeat(MAX_ID);
  assert.deepEqual(readRequest({ v: 1, id: longest, op: "status" }, "s1"), { kind: "serve", id: longest, op: "status" });
  assert.deepEqual(readRequest({ v: 1, id: `${longest}y`, op: "status" }, "s1"), { kind: "ignore" });
  assert.deepEqual(readRequest({ v: 1, id: "x".repeat(1_000_000), op: "status" }, "s1"), { kind: "ignore" });
  assert.equal(readRequest({ v: 1, id: "r:1/ä", op: "status" }, "s1").kind, "serve");
});

test("bus requests: hostile shapes — v of another type, ids of other types, a null prototype, extra fields", () => {
  for (const raw of [{ v: "1", id: "a", op: "status" }, { v: true, id: "a", op: "status" }, { v: 1, id: null, op: "status" }, { v: 1, id: ["a"], op: "status" }, { v: 1, id: { toString: () => "a" }, op: "status" }, new Map([["v", 1]])]) {
    assert.deepEqual(readRequest(raw, "s1"), { kind: "ignore" });
  }
  const bare = Object.assign(Object.create(null) as Record<string, unknown>, { v: 1, id: "a", op: "reset" });
  assert.deepEqual(readRequest(bare, "s1"), { kind: "serve", id: "a", op: "reset" });
  assert.deepEqual(readRequest({ v: 1, id: "a", op: "pause", extra: { deep: [1] } }, "s1"), { kind: "serve", id: "a", op: "pause" });
});

test("bus requests: a session given as undefined is no session named; any other non-string is refused, saying so", () => {
  assert.deepEqual(readRequest({ v: 1, id: "a", op: "status", session: undefined }, "s1"), { kind: "serve", id: "a", op: "status" });
  for (const session of [null, 7, false, {}, ["s1"]]) {
    assert.deepEqual(readRequest({ v: 1, id: "a", op: "status", session }, "s1"), { kind: "refuse", id: "a", error: "session must be a string" }, JSON.stringify(session));
  }
  assert.equal(readRequest({ v: 1, id: "a", op: "status", session: "" }, "s1").kind, "refuse", "an empty session names no session of this id");
});

test("bus requests: an op that is no word is refused, naming the five words", () => {
  const refusal = { kind: "refuse", id: "a", error: "unknown op: use status, pause, resume, continue, reset" };
  for (const op of [undefined, null, 7, ["status"], { op: "status" }, "", "STATUS", " status", "toString", "__proto__", "stop", "x".repeat(100_000)]) {
    assert.deepEqual(readRequest({ v: 1, id: "a", op }, "s1"), refusal, String(op).slice(0, 20));
  }
});
