/**
 * The turn_end wiring (src/host/boundary.ts) on a fake pi: what a settle with open tasks returns (the
 * marker and `continue: true`), when natural work follows instead, and the limits and counters it reads
 * from the config and the branch, also after a reload, /tree and in a delegated child session.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import { nudgeText } from "../../src/core/text.ts";
import { callResultPart, foldFingerprint, textPart } from "../../src/core/fingerprint.ts";
import { assistant, assistantCalls, callResult, chain, rpivDetails, marker, settle, task, todoResult, user } from "../builders.ts";
import { createContext, createFakePi, createSession } from "../fake-pi.ts";
import { cwd, TASKS, planned, harness, markerOf, details, fieldOf, roundOf, FIRST_FP, OK_RESULT, markerDetails, stop, writeConfig, statusLines, completedBoth, bashResult } from "./wiring.ts";

// ---- turn_end: continuing -------------------------------------------------------------------------

test("turn_end: a settle with open tasks returns [...event.entries, marker] and continue: true", async () => {
  const h = harness();
  const result = await h.settleWith();
  assert.deepEqual(result, {
    entries: [
      {
        type: "custom_message",
        customType: "todo-loop:continue",
        content: nudgeText("todo", false),
        display: true,
        details: markerDetails({ round: 1, fp: FIRST_FP }),
      },
    ],
    continue: true,
  });
});

test("turn_end: with transcript false in the config the marker has display: false, whatever the mode", async (t) => {
  writeConfig(t, { transcript: false });
  for (const mode of ["tui", "rpc", "json", "print"] as const) {
    const h = harness({ mode, hasUI: mode === "tui" || mode === "rpc" });
    assert.equal(markerOf(await h.settleWith()).display, false, mode);
  }
});

test("turn_end: the marker details carry v, round, anchor, open, total, cap, hint, idle and stale", async (t) => {
  writeConfig(t, { maxRounds: 12 });
  const h = harness({ branch: planned([task({ id: 1 }), task({ id: 2 }), task({ id: 3, status: "completed" })]) });
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 1, open: 2, total: 3, cap: 12, fp: FIRST_FP }));
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 2, open: 2, total: 3, cap: 12, hint: true, idle: 2, stale: 1, stuck: 1 }));
});

test("turn_end: the marker content names no task and no counter", async () => {
  const h = harness();
  const content = markerOf(await h.settleWith()).content;
  assert.equal(typeof content, "string");
  assert.doesNotMatch(String(content), /Write tests|Ship it|\d/);
});

test("turn_end: proposals of earlier handlers are kept in front of the marker", async () => {
  const h = harness();
  const earlier = { type: "custom", customType: "other-extension:state", data: { n: 1 } };
  const result = await h.settleWith({ entries: [earlier] });
  assert.equal(result?.entries?.length, 2);
  assert.equal(result?.entries?.[0], earlier);
  assert.equal(result?.continue, true);
  markerOf(result);
});

test("turn_end: through pi's chained dispatch the earlier proposal and the marker are both committed", async () => {
  const pi = createFakePi();
  const earlier = { type: "custom", customType: "other-extension:state" };
  pi.on("turn_end", async (event) => ({ entries: [...(Array.isArray(event.entries) ? event.entries : []), earlier] }));
  todoLoop(pi, ioOf(pi));
  const session = createSession(planned());
  session.append(assistant());
  const result = await pi.fireTurnEnd(settle(), createContext({ session, cwd }));
  assert.equal(result?.continue, true);
  assert.equal(result?.entries?.length, 2);
  assert.equal(result?.entries?.[0], earlier);
});

test("turn_end: a second settle without progress continues with round 2 and the hint", async () => {
  const h = harness();
  await h.settleWith();
  const second = await h.settleWith();
  assert.deepEqual(details(second), markerDetails({ round: 2, hint: true, idle: 2, stale: 1, stuck: 1 }));
  assert.equal(markerOf(second).content, nudgeText("todo", true));
});

test("turn_end: with maxIdleReplies off, the third settle without progress continues with round 3 and no hint", async (t) => {
  writeConfig(t, { maxIdleReplies: null, maxStuckReplies: null, maxRepeats: null });
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 3, idle: 3, stale: 2, stuck: 2, repeats: 2 }));
});

test("turn_end: the third reply in a row without a tool call stops the loop (maxIdleReplies 3), recorded as idle when the run ends", async () => {
  const h = harness();
  assert.equal((await h.reply())?.continue, true);
  assert.equal((await h.reply())?.continue, true);
  h.takeNotes();
  assert.equal(await h.reply(), undefined);
  const reason = "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you";
  assert.deepEqual(h.records("todo-loop:stop"), [stop("idle", reason, { round: 2 })]);
  assert.deepEqual(h.takeNotes(), [{ message: `todo loop ${reason}`, type: "warning" }]);
});

test("turn_end: a tool turn between replies starts the count of replies without work again", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  await h.toolsWith([bashResult()]);
  const afterBash = foldFingerprint(foldFingerprint("", callResultPart("bash", "?", false, OK_RESULT)), textPart(["Stopping here."]));
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 3, idle: 1, stale: 2, fp: afterBash }));
});

test("turn_end: a tool turn returns nothing (pi continues after it anyway)", async () => {
  const h = harness();
  const result = await h.toolsWith([todoResult({ tasks: [task({ id: 1, subject: "Write tests", status: "in_progress" }), TASKS[1] ?? task({ id: 2 })], action: "update" })]);
  assert.equal(result, undefined);
  assert.deepEqual(h.takeNotes(), []);
});

test("turn_end: a new human message starts counting again from round 1", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  h.session.append(user("Also update the docs", { id: "u2" }));
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 1, anchor: "u2" }));
});

// ---- turn_end: natural work follows ---------------------------------------------------------------

test("turn_end: a queued human message (pendingMessages) → nothing, and status says so", async () => {
  const h = harness();
  const result = await h.settleWith({ pendingMessages: [{ role: "user", content: "and also…" }] });
  assert.equal(result, undefined);
  assert.ok((await statusLines(h)).includes("last: not continuing: a queued message runs next"));
});

test("turn_end: event.continue already true → nothing, and status says another extension continued", async () => {
  const h = harness();
  const result = await h.settleWith({ continue: true });
  assert.equal(result, undefined);
  assert.ok((await statusLines(h)).includes("last: not continuing: another extension already continued this turn"));
  const after = await h.settleWith();
  assert.equal(roundOf(after), 1, "no round was spent");
});

// ---- turn_end: limits and counters from the branch ------------------------------------------------

test("turn_end: limits come from the config file, re-read on every decision", async (t) => {
  writeConfig(t, { maxRounds: 1 });
  const h = harness();
  assert.equal((await h.settleWith())?.continue, true);
  h.takeNotes();
  const stopped = await h.reply();
  assert.equal(stopped, undefined);
  const reason = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
  assert.deepEqual(h.records("todo-loop:stop"), [stop("limit", reason, { round: 1, limit: "maxRounds" })]);
  assert.deepEqual(h.takeNotes(), [{ message: `todo loop ${reason}`, type: "warning" }]);
  writeConfig(t, { maxRounds: 5, maxIdleReplies: null });
  assert.equal(roundOf(await h.settleWith()), 2);
});

test("turn_end: a broken config file never fails a turn", async (t) => {
  writeConfig(t, "{ broken");
  const h = harness();
  assert.equal((await h.settleWith())?.continue, true);
  assert.ok((await statusLines(h)).some((line) => line.startsWith("config problem: invalid JSON")));
});

test("turn_end: after a reload the round is rebuilt from the markers, so a limit is not re-armed", async (t) => {
  writeConfig(t, { maxRounds: 3 });
  const branch = chain(...planned(), assistant(), marker({ round: 1, anchor: "u1", open: 2 }), assistant(), marker({ round: 2, anchor: "u1", open: 2 }));
  const h = harness({ branch });
  assert.equal(roundOf(await h.settleWith()), 3);
  assert.equal(await h.settleWith(), undefined);
});

test("turn_end: after a reload the replies in a row without work come from the marker details, so the idle brake is not re-armed", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  const reloaded = h.reload();
  assert.equal(await reloaded.reply(), undefined, "the third reply in a row without work stops");
  assert.equal(fieldOf(reloaded.records("todo-loop:stop")[0], "kind"), "idle");
});

test("turn_end: after /tree navigation the rounds spent on the abandoned branch no longer count", async (t) => {
  writeConfig(t, { maxRounds: 2 });
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  assert.equal(await h.settleWith(), undefined, "the limit is reached on this branch");
  h.session.moveTo("t1");
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 1, cap: 2, fp: FIRST_FP }));
});

test("turn_end: spend since the anchor counts toward maxTokens", async (t) => {
  writeConfig(t, { maxTokens: 1150 });
  const h = harness();
  assert.equal((await h.settleWith())?.continue, true, "1,100 tokens so far");
  assert.equal(await h.settleWith(), undefined, "1,200 tokens reach the limit");
});

test("turn_end: maxMinutes counts from the anchor's timestamp to the settle's reply", async (t) => {
  writeConfig(t, { maxMinutes: 30 });
  const h = harness();
  assert.equal((await h.settleWith({ timestamp: "2026-11-30T00:29:00.000Z" }))?.continue, true, "29 minutes");
  await h.reply({ timestamp: "2026-11-30T00:31:00.000Z" });
  const [record] = h.records("todo-loop:stop");
  assert.deepEqual(record, stop("limit", "stopped: time limit reached (31 of 30 minutes since your message), 2 tasks still open, no todo change for 1 reply; the agent may need you", { round: 1, limit: "maxMinutes" }));
});

test("turn_end: a delegated child session runs its own loop", async () => {
  const parent = harness({ sessionId: "parent" });
  await parent.settleWith();
  await parent.settleWith();
  const child = harness({ pi: parent.pi, sessionId: "child" });
  assert.equal(roundOf(await child.settleWith()), 1);
  parent.pi.session = parent.session;
  await parent.toolsWith([bashResult()]);
  assert.equal(roundOf(await parent.settleWith()), 3);
});

// ---- the working tree is left alone ---------------------------------------------------------------

test("nothing is ever written to the working tree; the session only gains markers, stop records and control records", async () => {
  const before = readdirSync(cwd, { recursive: true, encoding: "utf8" }).sort();
  const h = harness();
  const start = h.session.getBranch().length;
  await h.reply();
  await h.reply({ pendingMessages: [{ role: "user", content: "x" }] });
  await h.block({ reason: "which region?" });
  await h.command("status");
  await h.command("pause");
  await h.command("resume");
  await h.start("reload");
  await h.toolsWith([completedBoth()]);
  await h.reply();
  assert.deepEqual(readdirSync(cwd, { recursive: true, encoding: "utf8" }).sort(), before);
  const added = h.session
    .getBranch()
    .slice(start)
    .filter((entry) => !(entry.type === "message"))
    .map((entry) => `${entry.type}:${String(entry.customType)}`);
  assert.deepEqual(added, ["custom_message:todo-loop:continue", "custom:todo-loop:control", "custom:todo-loop:control", "custom:todo-loop:stop"]);
});

// ---- §4.10 busy but stuck, through the wiring ---------------------------------------------------------

test("turn_end: replies that only re-read the list stop after maxStuckReplies (default 5), the calls matched to their results by toolCallId; announced once as stuck", async () => {
  const h = harness();
  const list = rpivDetails({ tasks: TASKS, action: "list" });
  const reread = async (index: number) => {
    h.session.append(assistantCalls([{ id: `c${index}`, name: "todo", args: { action: "list" } }]), callResult(`c${index}`, "todo", { details: list }));
    await h.toolsAfterCalls();
    return h.reply({ text: `Checked the list (${index}).` });
  };
  const first = await reread(0);
  assert.equal(first?.continue, true, "the first read under the message explores");
  const results = [];
  for (let index = 1; index <= 5; index++) results.push(await reread(index));
  assert.deepEqual(results.map((result) => result?.continue === true), [true, true, true, true, false]);
  assert.deepEqual(results.slice(0, 4).map((result) => fieldOf(details(result), "stuck")), [1, 2, 3, 4]);
  assert.equal(fieldOf(details(results[3]), "hint"), true, "the hint one reply before the stop");
  const reason = "stopped: 5 replies in a row without progress (no edits, commands, new reads or todo changes), 2 tasks still open; it may need you";
  assert.deepEqual(h.records("todo-loop:stop"), [stop("stuck", reason, { round: 5 })]);
  const lines = await statusLines(h);
  assert.ok(lines.includes("replies in a row without progress: 5 of 5"), lines.join("\n"));
});

test("turn_end: the same reply three times in a row stops (maxRepeats default 3), announced once as repeat", async () => {
  const h = harness();
  const failing = async (index: number) => {
    h.session.append(assistantCalls([{ id: `c${index}`, name: "bash", args: { command: "npm test" } }]), callResult(`c${index}`, "bash", { isError: true }));
    await h.toolsAfterCalls();
    return h.reply({ text: "The tests still fail." });
  };
  // The first reply also holds the list's creation (planned()), so it differs from the next ones.
  const results = [await failing(0), await failing(1), await failing(2), await failing(3)];
  assert.deepEqual(results.map((result) => result?.continue === true), [true, true, true, false]);
  assert.deepEqual(results.slice(0, 3).map((result) => fieldOf(details(result), "repeats")), [1, 1, 2]);
  // 0.4: its first run is progress; the same command with the same result again under the message is a re-run.
  assert.deepEqual(results.slice(0, 3).map((result) => fieldOf(details(result), "stuck")), [0, 1, 2], "a failing command's re-runs are no progress");
  const reason = "stopped: the agent gave the same reply 3 times in a row, 2 tasks still open; it may need you";
  assert.deepEqual(h.records("todo-loop:stop"), [stop("repeat", reason, { round: 3 })]);
});
