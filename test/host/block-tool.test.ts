/**
 * The `todo_loop_block` tool (src/host/block-tool.ts) on a fake pi: its registration, the wait a reason
 * starts, what it notifies by mode, its guards (kill switch, pause, empty reason) and what lifts the wait.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import { assistant, blockResult, chain, user } from "../builders.ts";
import { createFakePi } from "../fake-pi.ts";
import { GLOBAL_OFF, planned, harness, fieldOf, stop, writeConfig, switchOff, statusLines } from "./wiring.ts";

// ---- todo_loop_block ------------------------------------------------------------------------------

test("todo_loop_block: registered model-only, with a one-line snippet, guidelines naming it, and one required string reason", () => {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const tool = pi.tool("todo_loop_block");
  assert.equal(tool.name, "todo_loop_block");
  assert.equal(tool.exposure, "model-only");
  assert.ok(tool.promptSnippet && !tool.promptSnippet.includes("\n"));
  assert.ok(tool.promptGuidelines?.length);
  for (const line of tool.promptGuidelines ?? []) assert.match(line, /todo_loop_block/);
  assert.ok(
    tool.promptGuidelines?.some((line) => /do not stop to ask whether to go on/i.test(line)),
    "a guideline says not to stop to ask whether to go on",
  );
  assert.deepEqual(tool.parameters, {
    type: "object",
    properties: { reason: { type: "string", description: "What you need from the user, in one sentence." } },
    required: ["reason"],
    additionalProperties: false,
  });
  assert.equal(pi.tools.length, 1);
  assert.deepEqual(
    pi.getAllTools().find((info) => info.name === "todo_loop_block"),
    { name: "todo_loop_block", exposure: "model-only" },
  );
});

test("todo_loop_block: an empty or whitespace reason is an error result and the loop is not stopped", async () => {
  const h = harness();
  for (const params of [{ reason: "" }, { reason: "   \n\t " }, { reason: "\u200b\u202e" }, { reason: "\u00ad\u{e0041}\ufff9" }, {}, { reason: 5 }, null]) {
    await assert.rejects(h.block(params), /reason/, JSON.stringify(params));
  }
  assert.deepEqual(h.takeNotes(), []);
  assert.equal((await h.settleWith())?.continue, true);
});

test("todo_loop_block: in RPC a reason → waiting, one warning notify, status 'waiting for you: <reason>'; the stop at settle is recorded, not notified", async () => {
  const h = harness({ mode: "rpc" });
  const result = await h.block({ reason: "Which database should I migrate?" });
  assert.deepEqual(result.details, { v: 1, waiting: true, reason: "Which database should I migrate?", anchor: "u1" });
  assert.match(result.content[0]?.text ?? "", /will not continue until the user replies/);
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: the agent is waiting for you: Which database should I migrate?", type: "warning" }]);
  h.session.append(blockResult("Which database should I migrate?", "u1"));
  assert.equal(await h.toolsWith([]), undefined);
  const settled = await h.reply();
  assert.equal(settled, undefined);
  assert.deepEqual(h.records("todo-loop:stop"), [stop("waiting", "waiting for you: Which database should I migrate?")]);
  assert.deepEqual(h.takeNotes(), [], "the tool already told the human");
  const lines = await statusLines(h);
  assert.equal(lines[0], "todo loop: waiting");
  assert.ok(lines.includes("waiting for you: Which database should I migrate?"));
  assert.equal(h.footer(), "todo loop: waiting for you · todo 2 of 2 open");
});

test("todo_loop_block: in the TUI with the transcript on the tool does not notify (the stop line announces the wait); the stop is recorded", async () => {
  const h = harness({ mode: "tui" });
  await h.block({ reason: "Which region?" });
  assert.deepEqual(h.takeNotes(), []);
  h.session.append(blockResult("Which region?", "u1"));
  await h.reply();
  assert.deepEqual(h.records("todo-loop:stop"), [stop("waiting", "waiting for you: Which region?")]);
  assert.deepEqual(h.takeNotes(), []);
});

test("todo_loop_block: in the TUI with the transcript off the tool notifies once", async (t) => {
  writeConfig(t, { transcript: false });
  const h = harness({ mode: "tui" });
  await h.block({ reason: "Which region?" });
  assert.equal(h.takeNotes().length, 1);
  h.session.append(blockResult("Which region?", "u1"));
  await h.reply();
  assert.deepEqual(h.takeNotes(), []);
});

test("todo_loop_block: hostile reason text is sanitised before it is shown", async () => {
  const h = harness();
  const hostile = `\u202Eevil\u202C line\none\u200b\u0007\u001b[31m red ${"x".repeat(1000)}`;
  const result = await h.block({ reason: hostile });
  const [note] = h.takeNotes();
  assert.ok(note);
  for (const text of [note.message, result.content[0]?.text ?? "", ...(await statusLines(h))]) {
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f\u200b\u202a-\u202e]/);
  }
  const reason = String(fieldOf(result.details, "reason"));
  assert.ok(Array.from(reason).length <= 500, "capped by code point");
  assert.match(reason, /^evil line one red x/, "the colour code goes whole");
});

test("todo_loop_block: with the kill switch on → a plain result saying the loop is off; no state change, no notify", async (t) => {
  const h = harness();
  switchOff(t, GLOBAL_OFF);
  const result = await h.block({ reason: "need a key" });
  assert.match(result.content[0]?.text ?? "", /todo loop is off/);
  assert.deepEqual(result.details, { v: 1, waiting: false, off: true });
  assert.deepEqual(h.takeNotes(), []);
  rmSync(GLOBAL_OFF);
  assert.equal((await h.settleWith())?.continue, true, "not waiting");
});

test("todo_loop_block: while paused → a plain result saying the loop is paused; no state change, no notify", async () => {
  const h = harness();
  await h.command("pause");
  h.takeNotes();
  const result = await h.block({ reason: "need a key" });
  assert.match(result.content[0]?.text ?? "", /paused/);
  assert.deepEqual(result.details, { v: 1, waiting: false, paused: true });
  assert.deepEqual(h.takeNotes(), []);
  await h.command("resume");
  assert.equal((await h.settleWith())?.continue, true, "not waiting after resume");
});

test("todo_loop_block: waiting is rebuilt from the tool's result on the branch", async () => {
  const branch = chain(...planned(), assistant(), blockResult("need the staging password", "u1"));
  const h = harness({ branch });
  assert.equal(await h.settleWith(), undefined);
  assert.ok((await statusLines(h)).includes("waiting for you: need the staging password"));
});

test("todo_loop_block: the human's next message clears waiting", async () => {
  const h = harness();
  await h.block({ reason: "which region?" });
  h.session.append(blockResult("which region?", "u1"));
  assert.equal(await h.settleWith(), undefined);
  h.session.append(user("eu-west-1", { id: "u2" }));
  assert.equal((await h.settleWith())?.continue, true);
});

test("todo_loop_block: /todoloop resume and reset clear waiting", async () => {
  for (const command of ["resume", "reset"]) {
    const h = harness();
    await h.block({ reason: "which region?" });
    h.session.append(blockResult("which region?", "u1"));
    await h.command(command);
    assert.equal((await h.settleWith())?.continue, true, command);
  }
});

test("todo_loop_block: /todoloop resume, reset and continue clear waiting, and a lifted wait stays lifted after a reload", async () => {
  for (const command of ["resume", "reset", "continue"]) {
    const h = harness();
    h.ctx.idle = false;
    await h.block({ reason: "which region?" });
    h.session.append(blockResult("which region?", "u1"));
    await h.command(command);
    assert.equal((await h.settleWith())?.continue, true, command);
    const again = harness();
    again.ctx.idle = false;
    again.session.append(assistant(), blockResult("which region?", "u1"));
    await again.command(command);
    assert.equal((await again.reload().settleWith())?.continue, true, `${command}: a lifted wait stays lifted after a reload`);
  }
});

// ---- the reason's punctuation --------------------------------------------------------------------------

test("todo_loop_block: a reason ending in a full stop gives one full stop in the result (no '..')", async () => {
  const h = harness();
  const result = await h.block({ reason: "Which database should I migrate." });
  const text = result.content[0]?.text ?? "";
  assert.match(text, /Reason: Which database should I migrate\. End your reply now/);
  assert.doesNotMatch(text, /\.\./);
});
