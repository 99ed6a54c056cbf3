/**
 * The bus on the wired extension (src/host/bus.ts, runtime.publishState, SPEC §4.25): `todo-loop:state`
 * at session start and on a change only, requests answered once on their reply channel, recorded like
 * the `/todoloop` words, another session refused, malformed requests ignored and listeners that never throw.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { harness, PROJECT_OFF, switchOff } from "./wiring.ts";

function states(h: ReturnType<typeof harness>): Array<Record<string, unknown>> {
  return h.pi.bus.emitted.filter((item) => item.channel === "todo-loop:state").map((item) => item.data as Record<string, unknown>);
}

function replies(h: ReturnType<typeof harness>, id: string): unknown[] {
  return h.pi.bus.emitted.filter((item) => item.channel === `todo-loop:reply:${id}`).map((item) => item.data);
}

test("bus: the state goes out at session start (every mode) and then only when it changes", async () => {
  const h = harness({ hasUI: false, mode: "print" });
  await h.start();
  assert.deepEqual(states(h).map((state) => [state.mode, state.open, state.total, state.continuations]), [["running", 2, 2, 0]]);
  await h.settleWith();
  await h.settleWith();
  assert.deepEqual(states(h).map((state) => state.continuations), [0, 1, 2], "one event per change");
  assert.equal(states(h)[0]?.session, "session-1");
});

test("bus: a status request is answered once with the state; pause and continue do what the words do and are recorded", async () => {
  const h = harness();
  await h.start();
  h.pi.bus.emit("todo-loop:request", { v: 1, id: "s", op: "status" });
  assert.deepEqual(replies(h, "s").map((reply) => (reply as { ok: boolean }).ok), [true]);
  h.pi.bus.emit("todo-loop:request", { v: 1, id: "p", op: "pause" });
  assert.equal(((replies(h, "p")[0] as { state: { mode: string } }).state).mode, "paused");
  assert.equal(states(h).at(-1)?.mode, "paused");
  h.pi.bus.emit("todo-loop:request", { v: 1, id: "c", op: "continue", session: "session-1" });
  assert.deepEqual(replies(h, "c").map((reply) => (reply as { ok: boolean }).ok), [true]);
  assert.deepEqual(h.records("todo-loop:control").map((data) => (data as { action: string }).action), ["pause", "continue"]);
  assert.equal(h.pi.sent.length, 1, "continue started one run");
});

test("bus: another session's request is refused, a bad op or session answered false, a malformed one ignored; no listener throws", async () => {
  const h = harness();
  await h.start();
  h.pi.bus.emit("todo-loop:request", { v: 1, id: "o", op: "pause", session: "another" });
  h.pi.bus.emit("todo-loop:request", { v: 1, id: "x", op: "explode" });
  h.pi.bus.emit("todo-loop:request", { v: 1, id: "n", op: "status", session: 42 });
  for (const junk of [undefined, null, "status", { v: 1 }, { v: 2, id: "m" }, { id: "m", op: "status" }]) h.pi.bus.emit("todo-loop:request", junk);
  assert.deepEqual([...replies(h, "o"), ...replies(h, "x"), ...replies(h, "n")].map((reply) => (reply as { ok: boolean }).ok), [false, false, false]);
  assert.deepEqual(replies(h, "m"), []);
  assert.deepEqual(h.records("todo-loop:control"), [], "nothing recorded");
  assert.deepEqual(h.takeNotes().filter((note) => note.type === "error"), []);
});

test("bus: the kill switch is heard once as off, and the real state comes back at the first hook after it is gone", async (t) => {
  const h = harness({ hasUI: false, mode: "print" });
  await h.start();
  switchOff(t, PROJECT_OFF);
  await h.settleWith();
  await h.settleWith();
  assert.deepEqual(states(h).map((state) => state.mode), ["running", "off"], "off once");
  rmSync(PROJECT_OFF, { force: true });
  await h.settleWith();
  assert.equal(states(h).at(-1)?.mode, "running");
});
