/**
 * The footer and the pause as the runtime keeps them (src/host/runtime.ts): the footer's text per state,
 * set or cleared at session_start, message_start, session_tree and after a stop; never without a UI; the
 * pause read from the whole session at the points it may change.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assistant, blockResult, chain, task, todoResult, user, control, user as human } from "../builders.ts";
import { TASKS, planned, harness, fieldOf, writeConfig, statusLines, completedBoth } from "./wiring.ts";

// ---- footer -------------------------------------------------------------------------------------------

test("footer: 'todo X of Y open · continue N' while tasks are open, cleared when the list is clear", async () => {
  const h = harness();
  await h.settleWith();
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: "todo 2 of 2 open · continue 1" }]);
  await h.settleWith();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 2");
  await h.toolsWith([completedBoth()]);
  assert.equal(h.footer(), undefined);
  const count = h.ctx.ui.statuses.length;
  await h.settleWith();
  assert.equal(h.ctx.ui.statuses.length, count, "an unchanged footer is not set again");
});

test("footer: never a bare X/Y: tasks are 'X of Y open', only the continuation count has a cap after a slash", async (t) => {
  writeConfig(t, { maxRounds: 12 });
  const h = harness();
  await h.start();
  await h.settleWith();
  await h.toolsWith([todoResult({ tasks: [task({ id: 1, status: "completed" }), task({ id: 2 })], action: "update" })]);
  assert.ok(h.ctx.ui.statuses.length >= 2);
  for (const status of h.ctx.ui.statuses) {
    const text = status.text ?? "";
    assert.match(text, /^todo \d+ of \d+ open · continue \d+\/12$/);
    assert.doesNotMatch(text.replace(/continue \d+\/\d+/, ""), /\d\s*\/\s*\d/);
  }
});

test("footer: shows the round cap when maxRounds is set", async (t) => {
  writeConfig(t, { maxRounds: 12 });
  const h = harness();
  await h.settleWith();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 1/12");
});

test("footer: session_start shows it when tasks are open ('todo 2 of 3 open · continue 0'), before any turn", async () => {
  const h = harness({ branch: planned([task({ id: 1 }), task({ id: 2 }), task({ id: 3, status: "completed" })]) });
  await h.start("startup");
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: "todo 2 of 3 open · continue 0" }]);
});

test("footer: session_start clears the footer when no task is open or without a list (a client may keep an earlier session's), and sets nothing without a UI", async () => {
  const clear = harness({ branch: planned([task({ id: 1, status: "completed" })]) });
  await clear.start();
  const none = harness({ branch: chain(user("hi", { id: "u1" })) });
  await none.start();
  for (const h of [clear, none]) assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: undefined }]);
  const noUi = harness({ hasUI: false, mode: "print" });
  await noUi.start();
  assert.deepEqual(noUi.ctx.ui.statuses, []);
});

test("footer: after a reload session_start shows the rounds, a pause or a wait read from the branch", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  const reloaded = h.reload();
  await reloaded.start("reload");
  assert.equal(reloaded.footer(), "todo 2 of 2 open · continue 2");
  await reloaded.command("pause");
  const paused = reloaded.reload();
  await paused.start("resume");
  assert.equal(paused.footer(), "todo loop paused · todo 2 of 2 open");
  await paused.command("resume");
  paused.session.append(assistant(), blockResult("need the password", "u1"));
  const waiting = paused.reload();
  await waiting.start("reload");
  assert.equal(waiting.footer(), "todo loop: waiting for you · todo 2 of 2 open");
});

test("footer: never set without a UI (print and JSON modes)", async () => {
  const h = harness({ hasUI: false, mode: "json" });
  await h.settleWith();
  await h.command("pause");
  await h.block({ reason: "x" });
  await h.start();
  assert.deepEqual(h.ctx.ui.statuses, []);
});

// ---- the footer after a stop and at a new message ------------------------------------------------------

test("footer after an idle stop: once the run ends it names the stop, not the running count", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 2");
  await h.reply();
  assert.equal(h.footer(), "todo loop stopped: without doing anything · todo 2 of 2 open");
  assert.deepEqual(h.records("todo-loop:stop").map((data) => fieldOf(data, "kind")), ["idle"]);
});

test("footer after a limit stop names it; /todoloop continue past the cap never reads continue 2/1", async (t) => {
  writeConfig(t, { maxRounds: 1 });
  const h = harness();
  await h.reply();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 1/1");
  await h.reply();
  assert.equal(h.footer(), "todo loop stopped: limit · todo 2 of 2 open");
  await h.command("continue");
  assert.equal(h.footer(), "todo 2 of 2 open · continue 2 (limit 1, at your request)");
});

test("footer while a stop is pending (pi may still retry) keeps the count; agent_settled then names the stop", async () => {
  const h = harness();
  await h.reply();
  await h.settleWith({ outcome: "error" });
  assert.equal(h.footer(), "todo 2 of 2 open · continue 1");
  await h.endRun();
  assert.equal(h.footer(), "todo loop stopped: error · todo 2 of 2 open");
});

test("footer after a reload names the stop recorded since the last continuation (read from the branch)", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  await h.reply();
  const reloaded = h.reload();
  await reloaded.start("reload");
  assert.equal(reloaded.footer(), "todo loop stopped: without doing anything · todo 2 of 2 open");
});

test("footer: a new human message shows continue 0 at once (message_start), not the old message's count", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  await h.reply();
  assert.equal(h.footer(), "todo loop stopped: without doing anything · todo 2 of 2 open");
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "custom", customType: "todo-loop:continue" } }, h.ctx);
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "assistant" } }, h.ctx);
  assert.equal(h.footer(), "todo loop stopped: without doing anything · todo 2 of 2 open", "only a human message resets the footer");
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "user", content: "go on" } }, h.ctx);
  assert.equal(h.footer(), "todo 2 of 2 open · continue 0");
  await h.command("pause");
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "user", content: "next" } }, h.ctx);
  assert.equal(h.footer(), "todo loop paused · todo 2 of 2 open", "the pause outlives a new message");
});

test("footer: message_start never sets a footer without a UI, and survives junk events", async () => {
  const h = harness({ hasUI: false, mode: "print" });
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "user" } }, h.ctx);
  const junk = harness();
  for (const event of [undefined, null, 1, {}, { message: null }, { message: "user" }] as unknown[]) {
    await junk.pi.fireMessageStart(event as never, junk.ctx);
  }
  assert.deepEqual(h.ctx.ui.statuses, []);
  assert.deepEqual(junk.takeNotes(), []);
});

// ---- the footer and the pause follow the session ----------------------------------------------------

test("footer: session_tree (after /tree) recomputes the footer: a branch with no list clears it, a branch with the list shows it again", async () => {
  const h = harness({ branch: chain(human("hi", { id: "u0" }), assistant({ id: "a0" }), human("Do the work", { id: "u1" }), assistant({ id: "a1" }), todoResult({ tasks: TASKS, id: "t1" })) });
  await h.start();
  await h.settleWith();
  assert.equal(h.footer(), "todo 2 of 2 open · continue 1");
  h.session.moveTo("a0");
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal(h.ctx.ui.statuses.at(-1)?.key, "todo-loop");
  assert.equal(h.footer(), undefined, "no list on that branch: cleared");
  h.session.moveTo("t1");
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal(h.footer(), "todo 2 of 2 open · continue 0", "back on the list, its own counters (the marker is on the other branch)");
});

test("footer: session_start sets or clears the footer even when this runtime's cache already says so (a client keeps an earlier session's footer after /new)", async () => {
  const h = harness({ branch: chain(human("hi", { id: "u1" })) });
  await h.start("new");
  await h.start("new");
  assert.deepEqual(h.ctx.ui.statuses, [{ key: "todo-loop", text: undefined }, { key: "todo-loop", text: undefined }]);
});

test("pause: /tree back to before a pause keeps it paused (the newest pause/resume/continue anywhere in the session decides); the counters stay with the branch", async () => {
  const h = harness();
  await h.start();
  await h.settleWith();
  await h.command("pause");
  assert.equal(h.footer(), "todo loop paused · todo 2 of 2 open");
  h.session.moveTo("t1");
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal(h.footer(), "todo loop paused · todo 2 of 2 open");
  assert.ok((await statusLines(h)).includes("todo loop: PAUSED"));
  assert.ok((await statusLines(h)).includes("continuations for this message: 0 (no limit)"), "counters of this branch");
  assert.equal((await h.settleWith())?.continue, undefined, "no continuation while paused");
  await h.command("resume");
  h.session.moveTo("t1");
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal((await h.settleWith())?.continue, true, "resumed anywhere in the session: resumed here too");
});

test("pause: read from every entry of the session only at session start, on a tree change and on a command, never per turn", async () => {
  const h = harness();
  await h.start();
  assert.equal(h.session.entriesReads, 1);
  for (let index = 0; index < 5; index++) await h.reply();
  assert.equal(h.session.entriesReads, 1, "turns and settles read the kept value");
  await h.command("status");
  assert.equal(h.session.entriesReads, 2);
  await h.pi.fireSessionTree({ type: "session_tree" }, h.ctx);
  assert.equal(h.session.entriesReads, 3);
});

test("pause: a fork copies only its branch, so it is paused only when the pause record is on that branch", async () => {
  const onBranch = harness({ branch: [...planned(), control("pause")] });
  await onBranch.start("fork");
  assert.equal(onBranch.footer(), "todo loop paused · todo 2 of 2 open");
  const elsewhere = harness();
  await elsewhere.start("fork");
  assert.equal(elsewhere.footer(), "todo 2 of 2 open · continue 0");
});
