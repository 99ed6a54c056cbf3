/**
 * The guards of the wiring (src/host/boundary.ts, src/host/runtime.ts): the kill switch in either place,
 * malformed events, junk entries and config, a session or UI that throws — never a throw, never a continuation.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import type { ContextLike, TurnEndEventLike } from "../../src/core/pi-shapes.ts";
import { assistant, chain, settle, todoResult, toolResult, user } from "../builders.ts";
import { cwd, GLOBAL_OFF, PROJECT_OFF, TASKS, harness, roundOf, writeConfig, switchOff, completedBoth } from "./wiring.ts";

// ---- kill switch and malformed input ------------------------------------------------------------------

for (const [where, path] of [
  ["the agent dir", GLOBAL_OFF],
  ["<cwd>/.pi", PROJECT_OFF],
] as const) {
  test(`turn_end: kill switch in ${where} → undefined, no notify, no state change`, async (t) => {
    const h = harness();
    switchOff(t, path);
    assert.equal(await h.reply(), undefined);
    assert.equal(await h.reply({ outcome: "error" }), undefined);
    assert.deepEqual(h.takeNotes(), []);
    // 0.5 §7: the footer follows the switch at every boundary, even one that had drawn no footer yet.
    assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: "todo loop off" }]);
    assert.deepEqual(h.pi.appended, []);
    rmSync(path);
    assert.equal(roundOf(await h.settleWith()), 1, "removing the file takes effect at once, with nothing spent");
    assert.equal(h.footer(), "todo 2 of 2 open · continue 1", "and the real state is drawn again");
  });
}

test("kill switch: a stop decided before the switch was created is not announced while it is on", async (t) => {
  const h = harness();
  await h.settleWith({ outcome: "error" });
  switchOff(t, GLOBAL_OFF);
  await h.endRun();
  assert.deepEqual(h.pi.appended, []);
  assert.deepEqual(h.takeNotes(), []);
});

test("turn_end: kill switch turns an existing footer into 'todo loop off'", async (t) => {
  const h = harness();
  await h.settleWith();
  switchOff(t, GLOBAL_OFF);
  await h.settleWith();
  assert.equal(h.footer(), "todo loop off");
});

test("0.5 kill switch: a run that ends while the switch is on leaves 'todo loop off' whatever the footer showed (nothing, or a stale count); the first boundary after removal draws the real state", async (t) => {
  const fresh = harness();
  switchOff(t, GLOBAL_OFF);
  await fresh.reply();
  assert.equal(fresh.footer(), "todo loop off", "no footer drawn before: not left empty");
  rmSync(GLOBAL_OFF);
  const stale = harness();
  await stale.settleWith();
  assert.equal(stale.footer(), "todo 2 of 2 open · continue 1");
  switchOff(t, GLOBAL_OFF);
  await stale.endRun();
  assert.equal(stale.footer(), "todo loop off", "not left stale at the run's end");
  await stale.command("");
  assert.equal(stale.footer(), "todo loop off");
  rmSync(GLOBAL_OFF);
  await stale.command("verify");
  assert.match(stale.footer() ?? "", /todo 2 of 2 open/, "the first command after removal draws the real state, whichever /todoloop it is");
  switchOff(t, GLOBAL_OFF);
  await stale.command("verify");
  assert.equal(stale.footer(), "todo loop off", "and the first one that sees the switch draws it");
  rmSync(GLOBAL_OFF);
  await stale.reply();
  assert.notEqual(stale.footer(), "todo loop off", "the first boundary after removal draws the real state");
  assert.match(stale.footer() ?? "", /todo 2 of 2 open/);
});

test("kill switch: at session start with tasks open the footer says 'todo loop off' and nothing else happens", async (t) => {
  const h = harness();
  switchOff(t, PROJECT_OFF);
  await h.start();
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: "todo loop off" }]);
  assert.deepEqual(h.takeNotes(), []);
  assert.deepEqual(h.pi.appended, []);
});

test("turn_end: malformed events never throw and never continue", async () => {
  const events: TurnEndEventLike[] = [
    {},
    { outcome: "completed" },
    { outcome: "completed", toolResults: "none" },
    { outcome: "completed", toolResults: [], context: null },
    { outcome: "completed", toolResults: [], context: "junk" },
    { outcome: "completed", toolResults: [], context: {} },
    { outcome: "completed", toolResults: [], context: { pendingMessages: "x" } },
    { outcome: "weird", toolResults: [], context: { pendingMessages: [] } },
    { outcome: 42, toolResults: [], context: { pendingMessages: [] } },
    { outcome: "completed", toolResults: [null, 5, "x", { toolName: 7 }], context: { pendingMessages: [] } },
    { outcome: "completed", toolResults: [], context: { pendingMessages: [] }, entries: "junk", continue: "yes" },
  ];
  for (const event of events) {
    const h = harness();
    h.session.append(assistant());
    const result = await h.turnEnd(event);
    assert.notEqual(result?.continue, true, JSON.stringify(event));
    await h.endRun();
    assert.ok(!h.takeNotes().some((note) => note.type === "error"), `no failure report for ${JSON.stringify(event)}`);
  }
});

test("malformed: a reply message that cannot be read is no question: the settle goes on as usual", async () => {
  for (const message of [null, 7, { content: 7 }, { content: [null, 5, { type: "text", text: 5 }, { type: "thinking", thinking: "Go on?" }] }]) {
    const h = harness();
    h.session.append(assistant());
    const result = await h.turnEnd({ ...settle(), message });
    assert.equal(result?.continue, true, JSON.stringify(message));
    assert.ok(!h.takeNotes().some((note) => note.type === "error"));
  }
});

test("malformed: agent_settled and session_start events, junk entries and a junk config never throw", async (t) => {
  writeConfig(t, '{"maxRounds": "x", "maxIdleReplies": [], "transcript": 3, "stopOnQuestion": null}');
  const junkBranch = chain(
    user("x", { id: "u1" }),
    { type: "custom", customType: "todo-loop:control", data: { v: 1, action: 5 } },
    { type: "custom", customType: "todo-loop:control", data: "pause" },
    { type: "custom", customType: "todo-loop:stop", data: { v: 1, kind: "nonsense", reason: 7 } },
    { type: "custom", customType: "todo-loop:stop", data: { kind: "question" } },
    { type: "custom_message", customType: "todo-loop:continue", content: 5, display: "x", details: { round: -1, idle: "x", stale: null } },
    toolResult("todo_loop_block", { waiting: true, reason: 9 }),
    toolResult("codemode", { x: 1 }),
    { type: "message", message: { role: "toolResult", toolName: "codemode", nestedCalls: { calls: "x", complete: "no" } } },
    { type: "message", timestamp: "yesterday", message: { role: "assistant", content: null, usage: "lots" } },
    todoResult({ tasks: TASKS }),
  );
  const h = harness({ branch: junkBranch });
  for (const event of [{}, { type: "agent_settled" as const }, { aborted: "yes" }, { aborted: null }]) await h.pi.fireAgentSettled(event, h.ctx);
  for (const event of [{}, { type: "session_start" as const }, { reason: 42 }, { reason: { nested: true } }]) await h.pi.fireSessionStart(event, h.ctx);
  await h.reply();
  await h.reply({ outcome: "aborted" });
  for (const args of ["continue", "pause", "resume", "reset", "status", "\u0000", "x".repeat(10_000)]) await h.command(args);
  assert.ok(!h.takeNotes().some((note) => / failed \(/.test(note.message)), "no handler hit an internal error");
});

test("turn_end: a session that throws is reported as an error notify and the turn is left untouched", async () => {
  const h = harness();
  const broken: ContextLike = {
    cwd,
    hasUI: true,
    ui: h.ctx.ui,
    sessionManager: {
      getBranch() {
        throw new Error("disk on fire");
      },
    },
  };
  assert.equal(await h.turnEnd(settle(), broken), undefined);
  const notes = h.takeNotes();
  assert.equal(notes.length, 1);
  assert.equal(notes[0]?.type, "error");
  assert.match(notes[0]?.message ?? "", /disk on fire/);
  await h.pi.fireSessionStart({ type: "session_start", reason: "startup" }, broken);
  assert.equal(h.takeNotes()[0]?.type, "error", "session_start reports it too, without throwing");
});

test("turn_end: a UI whose notify throws does not break the turn", async () => {
  const h = harness();
  await h.settleWith();
  await h.toolsWith([completedBoth()]);
  const ctx: ContextLike = {
    ...h.ctx,
    ui: {
      notify() {
        throw new Error("no UI");
      },
      setStatus() {},
    },
  };
  h.session.append(assistant());
  assert.equal(await h.turnEnd(settle(), ctx), undefined);
  await h.endRun(ctx);
  assert.equal(h.records("todo-loop:stop").length, 1, "the stop is still recorded");
});
