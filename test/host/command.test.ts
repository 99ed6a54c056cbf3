/**
 * The `/todoloop` command (src/host/command.ts) on a fake pi: status and its lines, pause, resume, reset
 * and continue with their control records, completions and the unknown sub-command.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import { nudgeText, rereadNudgeText } from "../../src/core/text.ts";
import { assistant, chain, task, todoResult, user, TIMESTAMP, nestedCallsResult, user as human } from "../builders.ts";
import { createFakePi } from "../fake-pi.ts";
import { minutesSince } from "../../src/core/stops.ts";
import { CONFIG_FILE, PROJECT_OFF, TASKS, planned, harness, details, fieldOf, roundOf, FIRST_FP, markerDetails, writeConfig, switchOff, statusLines } from "./wiring.ts";

// ---- /todoloop ------------------------------------------------------------------------------------

test("/todoloop status: mode, continuations, replies, replies without work, tasks and source, spend, anchor, last and config", async () => {
  const h = harness();
  await h.settleWith();
  const lines = await statusLines(h);
  // Minutes count to now (the wall clock): checked on their own below.
  assert.match(lines[7] ?? "", /^spend since your message: 1,100 tokens \(no limit\), \$0\.0110 \(no limit\), .+ \(no limit\)$/);
  assert.deepEqual(lines.filter((_, index) => index !== 7), [
    "todo loop: active",
    "continuations for this message: 1 (no limit)",
    "replies since the list last changed: 0",
    "replies in a row without doing anything: 1 of 3",
    "replies in a row without progress: 0 of 5",
    "the same reply in a row: 1 of 3",
    "tasks open: 2 of 2 (rpiv-todo)",
    `counting from: your message of ${clockOf(TIMESTAMP)} ("Do the work")`,
    "last: continuing: 2 tasks still open, continue 1",
    `config: none (defaults) — create ${CONFIG_FILE} to set limits`,
  ]);
  // A second status may fall in the next minute: the minutes line is matched, every other line is the same.
  const again = await statusLines(h);
  assert.deepEqual(again.filter((_, index) => index !== 7), lines.filter((_, index) => index !== 7), "/todoloop status changes nothing");
  assert.match(again[7] ?? "", /^spend since your message: 1,100 tokens \(no limit\), \$0\.0110 \(no limit\), .+ \(no limit\)$/);
  assert.deepEqual(h.pi.appended, [], "and records nothing");
});

test("/todoloop with no argument is status", async () => {
  const h = harness();
  await h.command("");
  const [note] = h.takeNotes();
  assert.match(note?.message ?? "", /^todo loop: active\n/);
});

test("/todoloop pause: 'paused by user', footer 'todo loop paused', no continuation until resume", async () => {
  const h = harness();
  await h.settleWith();
  h.takeNotes();
  await h.command("pause");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: paused by user", type: "info" }]);
  assert.equal(h.footer(), "todo loop paused · todo 2 of 2 open");
  assert.equal(await h.settleWith(), undefined);
  assert.equal((await statusLines(h))[0], "todo loop: PAUSED");
  h.session.append(user("next thing", { id: "u2" }));
  assert.equal(await h.settleWith(), undefined, "a pause outlives a new message");
  await h.command("resume");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: resumed: the loop goes on when the agent next stops; /todoloop continue starts it now", type: "info" }]);
  assert.equal((await h.settleWith())?.continue, true);
});

test("/todoloop pause, resume, reset and continue append todo-loop:control entries { v: 1, action, anchor }", async () => {
  const h = harness();
  for (const action of ["pause", "resume", "reset", "continue"]) await h.command(action);
  await h.command("status");
  await h.command("bogus");
  const controls = ["pause", "resume", "reset", "continue"].map((action) => ({ v: 1, action, anchor: "u1" }));
  assert.deepEqual(h.records("todo-loop:control"), controls);
  assert.deepEqual(
    h.pi.appended.map((entry) => entry.customType),
    ["todo-loop:control", "todo-loop:control", "todo-loop:control", "todo-loop:control"],
  );
});

test("/todoloop pause holds across a reload and a new human message; resume holds too", async () => {
  const h = harness();
  await h.command("pause");
  const reloaded = h.reload();
  assert.equal(await reloaded.settleWith(), undefined, "paused after the reload");
  assert.equal((await statusLines(reloaded))[0], "todo loop: PAUSED");
  reloaded.session.append(user("and the docs", { id: "u2" }));
  const restarted = reloaded.reload();
  assert.equal(await restarted.settleWith(), undefined, "paused under a new message after a restart");
  await restarted.command("resume");
  const resumed = restarted.reload();
  assert.equal((await resumed.settleWith())?.continue, true, "resumed after another reload");
});

test("/todoloop reset: 'counters reset' and the next continuation is round 1 again", async () => {
  const h = harness();
  await h.settleWith();
  await h.settleWith();
  h.takeNotes();
  await h.command("reset");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: counters reset", type: "info" }]);
  assert.deepEqual(details(await h.settleWith()), markerDetails({ round: 1 }));
});

test("/todoloop reset holds across a reload: the counters are read back as reset", async (t) => {
  writeConfig(t, { maxRounds: 2 });
  const h = harness();
  await h.reply();
  await h.reply();
  assert.equal(await h.reply(), undefined, "the limit is reached");
  await h.command("reset");
  const reloaded = h.reload();
  assert.deepEqual(details(await reloaded.settleWith()), markerDetails({ round: 1, cap: 2 }), "the reset holds after a reload");
});

test("/todoloop continue with open tasks and an idle agent sends one marker with triggerTurn, counting as a round", async () => {
  const h = harness();
  await h.settleWith();
  h.takeNotes();
  await h.command("continue");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: continuing at your request", type: "info" }]);
  assert.deepEqual(h.pi.sent, [
    {
      message: { customType: "todo-loop:continue", content: nudgeText("todo", false), display: true, details: markerDetails({ round: 2, idle: 1, stale: 0, fp: FIRST_FP }) },
      options: { triggerTurn: true },
    },
  ]);
  const branch = h.session.getBranch();
  assert.equal(branch.at(-1)?.type, "custom_message", "the marker is appended to the session");
  assert.equal(branch.at(-2)?.customType, "todo-loop:control");
  assert.equal(roundOf(await h.settleWith()), 3, "the run it started goes on counting");
});

test("/todoloop continue lifts a pause and a limit stop gives exactly one more run", async (t) => {
  writeConfig(t, { maxRounds: 1 });
  const h = harness();
  await h.reply();
  await h.reply();
  assert.equal(h.records("todo-loop:stop").length, 1, "the limit stop");
  await h.command("pause");
  await h.command("continue");
  assert.equal(h.pi.sent.length, 1, "no limit refuses it");
  assert.equal(fieldOf(h.pi.sent[0]?.message.details, "round"), 2);
  assert.equal(await h.reply(), undefined, "the settle after it meets the limit again");
  assert.equal(h.records("todo-loop:stop").length, 2, "and that stop is a new one");
});

test("/todoloop continue with nothing open, or with a kill switch, refuses, records nothing, and a pause stays", async (t) => {
  const clear = harness({ branch: planned([task({ id: 1, status: "completed" })]) });
  await clear.command("pause");
  clear.takeNotes();
  await clear.command("continue");
  assert.deepEqual(clear.takeNotes(), [{ message: "todo loop: not continuing: no task is open", type: "warning" }]);
  assert.deepEqual(clear.records("todo-loop:control"), [{ v: 1, action: "pause", anchor: "u1" }]);
  assert.deepEqual(clear.pi.sent, []);
  assert.equal((await statusLines(clear))[0], "todo loop: PAUSED");

  const off = harness();
  switchOff(t, PROJECT_OFF);
  await off.command("continue");
  assert.deepEqual(off.takeNotes(), [{ message: "todo loop: not continuing: the kill switch is on", type: "warning" }]);
  assert.deepEqual(off.pi.appended, []);
  assert.deepEqual(off.pi.sent, []);
});

test("/todoloop continue while the agent is busy only lifts the pause and the wait: no marker", async () => {
  const h = harness();
  h.ctx.idle = false;
  await h.command("pause");
  await h.block({ reason: "x" });
  h.takeNotes();
  await h.command("continue");
  assert.deepEqual(h.pi.sent, []);
  assert.equal(h.takeNotes().length, 1);
  assert.deepEqual(h.records("todo-loop:control").at(-1), { v: 1, action: "continue", anchor: "u1" });
  assert.equal((await statusLines(h))[0], "todo loop: active");
  assert.equal(roundOf(await h.settleWith()), 1, "the next settle continues as usual");
});

test("/todoloop with an unknown sub-command: an error notify with the usage line, nothing changed", async () => {
  const h = harness();
  await h.command("stop");
  assert.deepEqual(h.takeNotes(), [{ message: 'todo loop: unknown sub-command "stop". Usage: /todoloop [status|pause|resume|reset|continue|verify [approve|forget]]', type: "error" }]);
  assert.deepEqual(h.pi.appended, []);
  assert.equal((await h.settleWith())?.continue, true);
});

test("/todoloop offers argument completions for the five words, each with a description", () => {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const complete = pi.command("todoloop").getArgumentCompletions;
  assert.ok(complete);
  const values = (prefix: string) => complete(prefix)?.map((item) => item.value) ?? null;
  assert.deepEqual(values(""), ["status", "pause", "resume", "reset", "continue", "verify", "verify approve", "verify forget"]);
  assert.deepEqual(values("verify "), ["verify approve", "verify forget"], "a space after verify asks for what follows it");
  assert.equal(values("verify"), null, "verify typed in full runs on one Enter");
  assert.deepEqual(values("veri"), ["verify", "verify approve", "verify forget"]);
  assert.deepEqual(values("verify a"), ["verify approve"]);
  assert.deepEqual(values("re"), ["resume", "reset"]);
  assert.deepEqual(values("P"), ["pause"]);
  assert.deepEqual(values("c"), ["continue"]);
  assert.equal(values("x"), null);
  for (const item of complete("") ?? []) {
    assert.equal(item.label, item.value);
    assert.ok(typeof item.description === "string" && item.description.trim().length > 0, item.value);
  }
});

test("/todoloop status with the kill switch: DISABLED with the file, footer 'todo loop off'", async (t) => {
  const h = harness();
  await h.settleWith();
  switchOff(t, PROJECT_OFF);
  assert.equal((await statusLines(h))[0], `todo loop: DISABLED (kill switch ${PROJECT_OFF})`);
  assert.equal(h.footer(), "todo loop off");
});

test("/todoloop status names the config problems", async (t) => {
  writeConfig(t, { maxRounds: "ten", colour: "blue" });
  const problems = (await statusLines(harness())).filter((line) => line.startsWith("config problem: "));
  assert.equal(problems.length, 2);
});

test("/todoloop status explains a missing list: no todo tool active vs. not used yet", async () => {
  const noTool = harness({ branch: chain(user("hi", { id: "u1" })), activeTools: ["read", "bash"] });
  assert.ok((await statusLines(noTool)).includes("tasks open: none — no todo tool is active"));
  const unused = harness({ branch: chain(user("hi", { id: "u1" })), activeTools: ["read", "todo"] });
  assert.ok((await statusLines(unused)).includes("tasks open: none — the todo tool has not been used on this branch"));
});

test("/todoloop status shows the branch the session is on after /tree navigation", async () => {
  const h = harness();
  h.session.append(user("second", { id: "u2" }), assistant());
  assert.ok((await statusLines(h)).includes(`counting from: your message of ${clockOf(TIMESTAMP)} ("second")`));
  h.session.moveTo("t1");
  assert.ok((await statusLines(h)).includes(`counting from: your message of ${clockOf(TIMESTAMP)} ("Do the work")`));
});

/** A timestamp as `/todoloop` shows it: the local hour and minute. */
function clockOf(timestamp: string): string {
  const date = new Date(timestamp);
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

// ---- completion, what resume says, the config line -----------------------------------------------------

test("/todoloop completion: a word typed in full offers no completion, so one Enter runs it", () => {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const complete = pi.command("todoloop").getArgumentCompletions;
  assert.ok(complete);
  for (const word of ["status", "pause", "resume", "reset", "continue", "PAUSE", "pause ", " continue"]) assert.equal(complete(word), null, word);
  assert.deepEqual(complete("paus")?.map((item) => item.value), ["pause"], "a word typed in part still completes");
  assert.deepEqual(complete("re")?.map((item) => item.value), ["resume", "reset"]);
});

test("/todoloop resume after a stop says what happens next; the busy agent is told apart", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  await h.reply();
  h.takeNotes();
  await h.command("resume");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: resumed: the loop goes on when the agent next stops; /todoloop continue starts it now", type: "info" }]);
  h.ctx.idle = false;
  await h.command("resume");
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop: resumed: the loop goes on when the agent next stops", type: "info" }]);
});

test("/todoloop status: config: none (defaults) without a file, the path with one; the anchor by time, never its id", async (t) => {
  const h = harness({ branch: chain(user("Do the work", { id: "ad74f7a6" }), assistant({ id: "a1" }), todoResult({ tasks: TASKS, id: "t1" })) });
  const before = await statusLines(h);
  assert.ok(before.includes(`config: none (defaults) — create ${CONFIG_FILE} to set limits`), before.join("\n"));
  assert.ok(before.every((line) => !line.includes("ad74f7a6")), before.join("\n"));
  writeConfig(t, { maxRounds: 5 });
  assert.ok((await statusLines(h)).includes(`config: ${CONFIG_FILE} (maxRounds 5)`));
});

// ---- a kept continue; minutes to now ----------------------------------------------------------------

test("/todoloop continue while a run winds down: kept, and honoured when pi settles with one marker through the same path as an idle continue; the stop that run ended with is recorded first", async () => {
  const h = harness();
  await h.reply();
  await h.reply();
  // The run's last turn ends with the idle stop; pi has not settled (another extension's agent_before_settle).
  assert.equal(await h.settleWith({ text: "Third stop." }), undefined, "the idle brake stops this run");
  assert.deepEqual(h.records("todo-loop:stop"), [], "the idle stop is pending until pi settles");
  h.ctx.idle = false;
  await h.command("continue");
  assert.deepEqual(h.takeNotes().at(-1), { message: "todo loop: the agent is busy: the loop continues as soon as its current run ends", type: "info" });
  assert.equal(h.pi.sent.length, 0, "nothing sent while busy");
  h.ctx.idle = true;
  await h.endRun();
  assert.deepEqual(h.records("todo-loop:stop").map((record) => fieldOf(record, "kind")), ["idle"], "the stop is not lost");
  assert.equal(h.pi.sent.length, 1, "one marker when pi settles");
  assert.deepEqual(h.pi.sent[0]?.options, { triggerTurn: true });
  assert.equal(fieldOf(h.pi.sent[0]?.message.details, "round"), 3);
  assert.deepEqual(h.records("todo-loop:control").map((record) => fieldOf(record, "action")), ["continue"], "recorded once");
  await h.endRun();
  assert.equal(h.pi.sent.length, 1, "never a second marker");
});

test("/todoloop continue on an out-of-date list starts one run whose nudge asks the agent to read the list with its todo tool", async () => {
  const h = harness({ branch: [...planned(), nestedCallsResult([{ name: "todo", status: "ok" }])] });
  await h.command("continue");
  assert.equal(h.pi.sent.length, 1);
  const message = h.pi.sent[0]?.message;
  assert.equal(message?.content, rereadNudgeText("todo"));
  assert.equal(fieldOf(message?.details, "reread"), true);
  for (const subject of TASKS.map((item) => item.subject)) assert.ok(!message?.content.includes(subject));
  assert.ok(!/\d/.test(message?.content ?? ""), "no counters");
});

test("/todoloop: minutes since your message count to now, not to the newest reply (the figure the time limit meets next)", async () => {
  const anchor = new Date(Date.now() - 90 * 60_000).toISOString();
  const reply = new Date(Date.now() - 89 * 60_000).toISOString();
  const h = harness({ branch: chain(human("Do the work", { id: "u1", timestamp: anchor }), { ...assistant({ id: "a1" }), timestamp: reply }, todoResult({ tasks: TASKS, id: "t1" })) });
  const line = (await statusLines(h)).find((text) => text.startsWith("spend since your message:")) ?? "";
  // 90 minutes since the message, 89 since the newest reply: the report says 1 h 30 min.
  assert.match(line, /, 1 h 30 min \(no limit\)$/, line);
  assert.equal(minutesSince(Date.parse(anchor), Date.parse(anchor) + 150_000), 2.5);
  assert.equal(minutesSince(undefined, Date.now()), undefined);
  assert.equal(minutesSince(2_000, 1_000), 0, "a clock behind the message counts as none");
});
