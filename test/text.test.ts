/**
 * Every sentence the extension shows (SPEC §4 reason strings, §4.10 nudge, §7 status and footer), pinned
 * in one place: the rest of the suite asserts reason kinds, this file asserts their English.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../src/config.ts";
import type { Limits } from "../src/core/types.ts";
import { freshMemory } from "../src/loop.ts";
import type { ListState, Memory, Reason } from "../src/core/types.ts";
import { describeNotice, describeReason, footerText, nudgeText, rereadNudgeText, secondsText, statusText, stopHeadline, stopLead, verifyingFooter } from "../src/core/text.ts";
import type { StatusView } from "../src/core/text.ts";

const LIST: ListState = { kind: "list", open: 2, total: 5, signature: "s", source: "rpiv-todo", tool: "todo" };

function memory(overrides: Partial<Memory> = {}): Memory {
  return { ...freshMemory("u1"), ...overrides };
}

test("reason English: every reason kind reads exactly as SPEC §4 lists it", () => {
  const cases: Array<[Reason, string]> = [
    [{ kind: "continuing", open: 2, round: 3, maxRounds: null }, "continuing: 2 tasks still open, continue 3"],
    [{ kind: "continuing", open: 2, round: 3, maxRounds: 12 }, "continuing: 2 tasks still open, continue 3/12"],
    [{ kind: "continuing", open: 1, round: 1, maxRounds: null }, "continuing: 1 task still open, continue 1"],
    [{ kind: "continuing", open: 2, round: 3, maxRounds: 2 }, "continuing: 2 tasks still open, continue 3 (limit 2, at your request)"],
    [{ kind: "clear" }, "stopped: list is clear"],
    [{ kind: "no-list", why: "no-tool" }, "stopped: no list (no todo tool is active)"],
    [{ kind: "no-list", why: "unused" }, "stopped: no list (the todo tool has not been used on this branch)"],
    [{ kind: "no-list", why: "unreadable" }, "stopped: no list (todo results are in a shape this extension does not read)"],
    [{ kind: "no-list", why: "emptied" }, "stopped: no list (the list was emptied: its tasks were deleted or cleared)"],
    [{ kind: "waiting", reason: "which database should I migrate?", asked: false }, "waiting for you: which database should I migrate?"],
    [{ kind: "waiting", reason: "Should I use Postgres or SQLite?", asked: true }, 'waiting for you: the agent asked: "Should I use Postgres or SQLite?"'],
    [{ kind: "out-of-date", why: "codemode" }, "stopped: the todo list is out of date (made through codemode)"],
    [{ kind: "out-of-date", why: "unreadable" }, "stopped: the todo list is out of date (in a shape this extension does not read)"],
    [{ kind: "out-of-reach", tool: "todo", open: 2 }, "stopped: the todo tool todo is not active, so the list cannot change, 2 tasks still open"],
    [{ kind: "planning" }, "not continuing: plan mode is planning"],
    [{ kind: "idle", replies: 3, open: 2 }, "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you"],
    [
      { kind: "limit", limit: "maxMinutes", used: 31, max: 30, open: 2, stale: 0 },
      "stopped: time limit reached (31 of 30 minutes since your message), 2 tasks still open",
    ],
    [
      { kind: "limit", limit: "maxMinutes", used: 0.53, max: 0.5, open: 1, stale: 0 },
      "stopped: time limit reached (0.5 of 0.5 minutes since your message), 1 task still open",
    ],
    [{ kind: "limit", limit: "maxMinutes", used: 1, max: 1, open: 1, stale: 0 }, "stopped: time limit reached (1 of 1 minute since your message), 1 task still open"],
    [{ kind: "requested", started: true }, "continuing at your request"],
    [{ kind: "requested", started: false }, "the agent is busy: the loop continues as soon as its current run ends"],
    [{ kind: "cannot-continue", why: "nothing-open" }, "not continuing: no task is open"],
    [{ kind: "cannot-continue", why: "kill-switch" }, "not continuing: the kill switch is on"],
    [{ kind: "cannot-continue", why: "out-of-date" }, "not continuing: the todo list is out of date; the model has to read it with its todo tool first"],
    [{ kind: "limit", limit: "maxRounds", used: 12, max: 12, open: 3, stale: 0 }, "stopped: 12 continuations used, 3 tasks still open"],
    [{ kind: "limit", limit: "maxRounds", used: 1, max: 1, open: 1, stale: 1 }, "stopped: 1 continuation used, 1 task still open, no todo change for 1 reply; the agent may need you"],
    [
      { kind: "limit", limit: "maxRounds", used: 12, max: 12, open: 3, stale: 4 },
      "stopped: 12 continuations used, 3 tasks still open, no todo change for 4 replies; the agent may need you",
    ],
    [
      { kind: "limit", limit: "maxTokens", used: 250_000, max: 200_000, open: 2, stale: 0 },
      "stopped: token limit reached (250,000 of 200,000 tokens since your message), 2 tasks still open",
    ],
    [{ kind: "limit", limit: "maxCost", used: 2.5, max: 2, open: 2, stale: 0 }, "stopped: cost limit reached ($2.50 of $2.00 since your message), 2 tasks still open"],
    [{ kind: "outcome", outcome: "error" }, "stopped: turn outcome was error"],
    [{ kind: "outcome", outcome: "aborted" }, "stopped: you stopped it (Escape)"],
    [{ kind: "paused" }, "paused by user"],
    [{ kind: "resumed" }, "resumed by user"],
    [{ kind: "reset" }, "counters reset"],
    [{ kind: "none" }, "idle"],
    [{ kind: "queued" }, "not continuing: a queued message runs next"],
    [{ kind: "other-extension" }, "not continuing: another extension already continued this turn"],
  ];
  for (const [reason, english] of cases) assert.equal(describeReason(reason), english);
});

test("reason English: plain words only (no settles, strikes or round caps)", () => {
  const reasons: Reason[] = [
    { kind: "continuing", open: 2, round: 3, maxRounds: 12 },
    { kind: "limit", limit: "maxRounds", used: 12, max: 12, open: 3, stale: 4 },
    { kind: "limit", limit: "maxTokens", used: 1, max: 1, open: 3, stale: 4 },
    { kind: "limit", limit: "maxCost", used: 1, max: 1, open: 3, stale: 4 },
    { kind: "limit", limit: "maxMinutes", used: 1, max: 1, open: 3, stale: 4 },
    { kind: "idle", replies: 3, open: 1 },
    { kind: "no-list", why: "emptied" },
  ];
  for (const reason of reasons) assert.doesNotMatch(describeReason(reason), /settle|strike|round cap|signature|anchor/i);
});

// ---- the nudge ------------------------------------------------------------------------------------

const TOOLS = ["todo", "todo_write", "todowrite", "TaskUpdate", undefined];

test("nudge: a small fixed set of sentences (one per tool phrase and hint)", () => {
  const all = new Set(TOOLS.flatMap((tool) => [nudgeText(tool, false), nudgeText(tool, true)]));
  assert.equal(all.size, 10);
  assert.equal(nudgeText("some_unknown_tool", false), nudgeText("todo", false), "an unknown tool name falls back to the generic phrase");
});

test("nudge: exact English of the plain and the hint variant", () => {
  assert.equal(
    nudgeText("todo", false),
    "Continue with the open tasks on your todo list. Use the todo tool to read the list and to update each task as you finish it. If your last reply asked the user something or needs them to act, call todo_loop_block with that question instead of continuing. The user's latest instruction outranks this reminder.",
  );
  assert.equal(
    nudgeText("todo", true),
    "Continue with the open tasks on your todo list. Use the todo tool to read the list and to update each task as you finish it. If you cannot go on without a person, call todo_loop_block with the reason instead of stopping. The user's latest instruction outranks this reminder.",
  );
});

test("nudge: names the todo tool of the source that wrote the list", () => {
  assert.match(nudgeText("todo", false), /Use the todo tool /);
  assert.match(nudgeText("todo_write", false), /Use the todo_read and todo_write tools /);
  assert.match(nudgeText("todowrite", false), /Use the todoread and todowrite tools /);
  assert.match(nudgeText("TaskUpdate", false), /Use the TaskList and TaskUpdate tools /);
});

test("nudge: a source with no tool (plan-mode) names the [DONE:n] convention instead", () => {
  assert.equal(
    nudgeText(undefined, false),
    "Continue with the open steps of the plan. Mark each step as you finish it by writing [DONE:n] in your reply, where n is the step number. If your last reply asked the user something or needs them to act, call todo_loop_block with that question instead of continuing. The user's latest instruction outranks this reminder.",
  );
});

test("nudge: no counters (no digits) and the concession to the human comes last", () => {
  for (const tool of TOOLS) {
    for (const hint of [false, true]) {
      const text = nudgeText(tool, hint);
      assert.doesNotMatch(text, /\d/);
      assert.ok(text.endsWith("The user's latest instruction outranks this reminder."), text);
    }
  }
});

test("nudge: every standard nudge offers todo_loop_block for a question or a request to act; the hint keeps its own offer", () => {
  const offer = "If your last reply asked the user something or needs them to act, call todo_loop_block with that question instead of continuing.";
  for (const tool of TOOLS) {
    const standard = nudgeText(tool, false);
    assert.equal(standard.split(offer).length, 2, `the standard nudge holds the offer once: ${standard}`);
    assert.ok(standard.endsWith(`${offer} The user's latest instruction outranks this reminder.`), standard);
    const hint = nudgeText(tool, true);
    assert.ok(!hint.includes(offer), `the hint keeps its wording: ${hint}`);
    assert.match(hint, / If you cannot go on without a person, call todo_loop_block with the reason instead of stopping\. /);
  }
});

// ---- notices --------------------------------------------------------------------------------------

const CONFIG = "/home/u/.pi/agent/todo-loop.json";

test("notice English: a stop is 'todo loop <reason>' at its level", () => {
  assert.deepEqual(describeNotice({ kind: "stop", reason: { kind: "clear" }, level: "info" }, CONFIG), { message: "todo loop stopped: list is clear", type: "info" });
  assert.deepEqual(describeNotice({ kind: "stop", reason: { kind: "outcome", outcome: "error" }, level: "warning" }, CONFIG), {
    message: "todo loop stopped: turn outcome was error",
    type: "warning",
  });
});

test("notice English: an emptied list by delete names how many tasks were deleted rather than completed", () => {
  assert.deepEqual(describeNotice({ kind: "emptied", how: "delete", count: 2, texts: ["Write tests", "Ship it"] }, CONFIG), {
    message:
      'todo loop: 2 tasks were deleted rather than completed: "Write tests", "Ship it". No task is open, so the loop stops; check that the work is really done.',
    type: "warning",
  });
  assert.match(describeNotice({ kind: "emptied", how: "delete", count: 1, texts: [] }, CONFIG).message, /^todo loop: 1 task was deleted rather than completed\. /);
});

test("notice English: deleted task texts are sanitised, capped and at most five are named", () => {
  const texts = ["a\u202Eevil\nline", "b", "c", "d", "e", "f", "g"];
  const { message } = describeNotice({ kind: "emptied", how: "delete", count: 7, texts }, CONFIG);
  assert.doesNotMatch(message, /[\u202E\n]/);
  assert.match(message, /"aevil line", "b", "c", "d", "e" and 2 more\./);
  const long = describeNotice({ kind: "emptied", how: "delete", count: 1, texts: ["x".repeat(500)] }, CONFIG).message;
  assert.ok(long.length < 300, "a long task text is capped");
});

test("notice English: a clear says the list was cleared without completing anything", () => {
  assert.deepEqual(describeNotice({ kind: "emptied", how: "clear" }, CONFIG), {
    message: "todo loop: the todo list was cleared without completing anything. No task is open, so the loop stops; check that the work is really done.",
    type: "warning",
  });
});

test("notice English: results without an action say finished cannot be told from deleted", () => {
  const notice = describeNotice({ kind: "emptied", how: "unlabelled" }, CONFIG);
  assert.equal(notice.type, "warning");
  assert.match(notice.message, /cannot tell finished from deleted/);
});

test("notice English: the stale warning names replies, open tasks and the brakes", () => {
  assert.deepEqual(describeNotice({ kind: "stale", replies: 10, open: 3, limits: DEFAULT_CONFIG, roundsLeft: null }, CONFIG), {
    message: `todo loop: 10 replies without a todo change, 3 tasks still open; still continuing. Brakes: /todoloop pause, set maxRounds, maxTokens, maxCost or maxMinutes in ${CONFIG}.`,
    type: "warning",
  });
});

test("notice English: with a limit set the stale warning says how many continuations remain", () => {
  const limits: Limits = { maxRounds: 50, maxTokens: 1_000_000, maxCost: 5, maxMinutes: 90, maxIdleReplies: 3, maxStuckReplies: 5, maxRepeats: 3 };
  assert.deepEqual(describeNotice({ kind: "stale", replies: 20, open: 1, limits, roundsLeft: 29 }, CONFIG), {
    message:
      "todo loop: 20 replies without a todo change, 1 task still open; still continuing. 29 continuations left before maxRounds. Brakes: /todoloop pause, limits set: maxRounds 50, maxTokens 1,000,000, maxCost $5.00, maxMinutes 90.",
    type: "warning",
  });
});

// ---- /todoloop status -----------------------------------------------------------------------------

/** 14:02 local time, whatever the machine's time zone. */
const ANCHOR_TIME = new Date(2026, 10, 30, 14, 2, 30).getTime();

function view(overrides: Partial<StatusView> = {}): StatusView {
  return {
    memory: memory({ round: 3, staleSettles: 1, last: { kind: "continuing", open: 2, round: 3, maxRounds: null } }),
    list: LIST,
    sourceLabel: "rpiv-todo",
    spend: { tokens: 12_345, cost: 0.0421, minutes: 4.25 },
    limits: DEFAULT_CONFIG,
    configFile: CONFIG,
    problems: [],
    killSwitch: undefined,
    anchorTime: ANCHOR_TIME,
    ...overrides,
  };
}

test("status report: every line, active with no limits", () => {
  assert.equal(
    statusText(view()),
    [
      "todo loop: active",
      "continuations for this message: 3 (no limit)",
      "replies since the list last changed: 1",
      "replies in a row without doing anything: 0 of 3",
      "replies in a row without progress: 0 of 5",
      "the same reply in a row: 0 of 3",
      "tasks open: 2 of 5 (rpiv-todo)",
      "spend since your message: 12,345 tokens (no limit), $0.0421 (no limit), 4 min (no limit)",
      "counting from: your message of 14:02",
      "last: continuing: 2 tasks still open, continue 3",
      `config: ${CONFIG}`,
    ].join("\n"),
  );
});

test("status report: limits, config problems and the cap", () => {
  const limits = { ...DEFAULT_CONFIG, maxRounds: 12, maxTokens: 500_000, maxCost: 3, maxMinutes: 30, maxIdleReplies: null };
  const text = statusText(view({ limits, memory: memory({ round: 3, settleRun: 2 }), problems: ["unknown key \"x\" ignored", "maxCost is negative (-1); using no limit"] }));
  const lines = text.split("\n");
  assert.equal(lines[1], "continuations for this message: 3 of 12");
  assert.equal(lines[3], "replies in a row without doing anything: 2 (no limit)");
  assert.equal(lines[7], "spend since your message: 12,345 tokens (limit 500,000), $0.0421 (limit $3.00), 4 min (limit 30 min)");
  assert.equal(lines[10], `config: ${CONFIG} (maxRounds 12, maxTokens 500,000, maxCost $3.00, maxMinutes 30)`);
  assert.deepEqual(lines.slice(11), ["config problem: unknown key \"x\" ignored", "config problem: maxCost is negative (-1); using no limit"]);
});

test("status report: the mode line for paused, disabled, waiting and stopped", () => {
  assert.equal(statusText(view({ memory: memory({ paused: true, last: { kind: "paused" } }) })).split("\n")[0], "todo loop: PAUSED");
  assert.equal(statusText(view({ killSwitch: "/home/u/.pi/agent/todo-loop-off" })).split("\n")[0], "todo loop: DISABLED (kill switch /home/u/.pi/agent/todo-loop-off)");
  const waiting = statusText(view({ memory: memory({ waiting: { reason: "need the key", asked: false }, last: { kind: "waiting", reason: "need the key", asked: false } }) })).split("\n");
  assert.equal(waiting[0], "todo loop: waiting");
  assert.ok(waiting.includes("waiting for you: need the key"));
  const asked = statusText(view({ memory: memory({ waiting: { reason: "Which one?", asked: true } }) })).split("\n");
  assert.ok(asked.includes('waiting for you: the agent asked: "Which one?"'));
  const stops: Reason[] = [
    { kind: "clear" },
    { kind: "no-list", why: "emptied" },
    { kind: "outcome", outcome: "error" },
    { kind: "idle", replies: 3, open: 1 },
    { kind: "out-of-reach", tool: "todo", open: 1 },
    { kind: "out-of-date", why: "codemode" },
    { kind: "limit", limit: "maxMinutes", used: 2, max: 1, open: 1, stale: 0 },
  ];
  for (const last of stops) {
    assert.equal(statusText(view({ memory: memory({ last }) })).split("\n")[0], "todo loop: stopped", last.kind);
  }
});

test("status report: no list names why; no human message yet says so", () => {
  const lines = statusText(view({ list: { kind: "none", why: "no-tool" }, sourceLabel: undefined, memory: freshMemory("") })).split("\n");
  assert.equal(lines[6], "tasks open: none — no todo tool is active");
  assert.equal(lines[8], "counting from: no message yet");
  assert.equal(lines[9], "last: idle");
});

test("status report: an out-of-date list shows its open count as unknown and says why", () => {
  const lines = statusText(view({ list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } })).split("\n");
  assert.equal(lines[6], "tasks open: unknown (the list is out of date: made through codemode) (rpiv-todo)");
});

test("status report: no minutes known yet reads as under a minute", () => {
  const lines = statusText(view({ spend: { tokens: 0, cost: 0, minutes: undefined } })).split("\n");
  assert.equal(lines[7], "spend since your message: 0 tokens (no limit), $0.0000 (no limit), under a minute (no limit)");
});

// ---- footer -----------------------------------------------------------------------------------------

test("footer: 'todo 2 of 5 open · continue 3' while tasks are open, with the cap when set — never a bare X/Y", () => {
  assert.equal(footerText(memory({ round: 3 }), LIST, DEFAULT_CONFIG, undefined), "todo 2 of 5 open · continue 3");
  assert.equal(footerText(memory({ round: 3 }), LIST, { ...DEFAULT_CONFIG, maxRounds: 12 }, undefined), "todo 2 of 5 open · continue 3/12");
  assert.doesNotMatch(footerText(memory({ round: 3 }), LIST, DEFAULT_CONFIG, undefined) ?? "", /\d+\/\d+/);
});

test("footer: paused, waiting and kill switch texts", () => {
  assert.equal(footerText(memory({ paused: true }), LIST, DEFAULT_CONFIG, undefined), "todo loop paused · todo 2 of 5 open");
  assert.equal(footerText(memory({ waiting: { reason: "x", asked: true } }), LIST, DEFAULT_CONFIG, undefined), "todo loop: waiting for you · todo 2 of 5 open");
  assert.equal(footerText(memory({ paused: true }), LIST, DEFAULT_CONFIG, "/a/todo-loop-off"), "todo loop off");
});

test("footer: cleared (undefined) when no task is open", () => {
  assert.equal(footerText(memory(), { ...LIST, open: 0 }, DEFAULT_CONFIG, undefined), undefined);
  assert.equal(footerText(memory(), { kind: "none", why: "emptied" }, DEFAULT_CONFIG, undefined), undefined);
  assert.equal(footerText(memory({ paused: true }), { kind: "none", why: "no-tool" }, DEFAULT_CONFIG, "/a/todo-loop-off"), undefined);
  assert.equal(footerText(memory(), { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" }, DEFAULT_CONFIG, undefined), undefined, "an out-of-date list clears the footer");
});

// ---- boundaries of the figures and the lists in the English -----------------------------------------

test("money: a dollar or more shows cents, less than a dollar four decimals", () => {
  const cost = (used: number): string => describeReason({ kind: "limit", limit: "maxCost", used, max: 1, open: 1, stale: 0 });
  assert.match(cost(1), /\(\$1\.00 of \$1\.00 since your message\)/);
  assert.match(cost(0.99), /\(\$0\.9900 of \$1\.00 since your message\)/);
});

test("notice English: exactly five deleted tasks are all named, with no 'and 0 more'", () => {
  const { message } = describeNotice({ kind: "emptied", how: "delete", count: 5, texts: ["a", "b", "c", "d", "e"] }, CONFIG);
  assert.match(message, /completed: "a", "b", "c", "d", "e"\. No task is open/);
});

test("status report: plan mode while it is only planning reads 'none yet' with the source", () => {
  const lines = statusText(view({ list: { kind: "planning", source: "plan-mode" }, sourceLabel: "plan mode" })).split("\n");
  assert.equal(lines[6], "tasks open: none yet — plan mode is planning (plan mode)");
});

import { continuationLine, stopLine } from "../src/core/text.ts";

test("minutes in /todoloop read as a person says them: under a minute, 4 min, 1 h 10 min, 2 h; never a fraction", () => {
  const spent = (minutes: number): string | undefined => statusText(view({ spend: { tokens: 0, cost: 0, minutes } })).split("\n")[7];
  const cases: Array<[number, string]> = [
    [0, "under a minute"],
    [0.0012, "under a minute"],
    [-0.01, "under a minute"],
    [0.99, "under a minute"],
    [1, "1 min"],
    [4.25, "4 min"],
    [4.99, "4 min"],
    [59.9, "59 min"],
    [60, "1 h"],
    [70, "1 h 10 min"],
    [120.5, "2 h"],
    [Number.NaN, "under a minute"],
  ];
  for (const [minutes, words] of cases) assert.equal(spent(minutes), `spend since your message: 0 tokens (no limit), $0.0000 (no limit), ${words} (no limit)`, String(minutes));
  const limit = (maxMinutes: number): string | undefined => statusText(view({ limits: { ...DEFAULT_CONFIG, maxMinutes } })).split("\n")[7];
  assert.match(limit(30) ?? "", /, 4 min \(limit 30 min\)$/);
  assert.match(limit(90) ?? "", /, 4 min \(limit 1 h 30 min\)$/);
  assert.match(limit(0.5) ?? "", /, 4 min \(limit 0\.5 min\)$/);
  assert.match(limit(0.02) ?? "", /, 4 min \(limit 0\.02 min\)$/);
});

test("transcript line English: a continuation names its round (with the cap) and the open count (of the total) it knows", () => {
  const line = (round?: number, cap?: number, open?: number, total?: number): string => continuationLine({ round, cap, open, total });
  assert.equal(line(3, 12, 2, 5), "todo loop: continue 3/12 · 2 of 5 open");
  assert.equal(line(3, undefined, 2, 5), "todo loop: continue 3 · 2 of 5 open");
  assert.equal(line(3, 12, 2, undefined), "todo loop: continue 3/12 · 2 open");
  assert.equal(line(undefined, 12, undefined, 5), "todo loop: continue");
  assert.equal(line(3, undefined, undefined, 5), "todo loop: continue 3");
});

test("transcript line English: a stop line is its reason, or just 'stopped' when the reason is empty", () => {
  assert.equal(stopLine("stopped: list is clear"), "todo loop stopped: list is clear");
  assert.equal(stopLine(""), "todo loop stopped");
});

// ---- 0.3: the first ten minutes ------------------------------------------------------------------------

import { asSentence, blockResultText, commandReplyText, duration, NO_TODO_TOOL_TEXT, roundText } from "../src/core/text.ts";
import type { StopKind } from "../src/core/types.ts";
import { forAll } from "./gen.ts";

/** A stop announced since the last continuation, as a memory rebuilt from the branch has it (`last` unknown). */
function rebuilt(key: string): Memory {
  return memory({ round: 2, announced: [key] });
}

test("footer after a stop names the stop instead of the running count: one short name per 0.3 stop kind", () => {
  const names: Record<StopKind, string> = {
    clear: "todo loop stopped: list is clear",
    "no-list": "todo loop stopped: no list",
    limit: "todo loop stopped: limit",
    idle: "todo loop stopped: without doing anything",
    stuck: "todo loop stopped: without progress",
    repeat: "todo loop stopped: the same reply",
    waiting: "todo loop: waiting for you",
    question: "todo loop: waiting for you",
    "out-of-reach": "todo loop stopped: todo tool not active",
    "out-of-date": "todo loop stopped: list out of date",
    outcome: "todo loop stopped: error or Escape",
    earlier: "todo loop: tasks from an earlier message",
    "verify-failed": "todo loop stopped: check failed",
    "verify-error": "todo loop stopped: check did not run",
    "limit-wait": "todo loop stopped: usage limit",
    "work-timeout": "todo loop stopped: background work",
  };
  for (const [kind, name] of Object.entries(names)) {
    const key = kind === "limit" ? "limit:maxRounds" : kind;
    assert.equal(footerText(rebuilt(key), LIST, DEFAULT_CONFIG, undefined), `${name} · todo 2 of 5 open`, kind);
  }
});

test("footer after a stop decided in this process: idle, limit, error, Escape, out of reach, each by name", () => {
  const after = (last: Reason): string | undefined => footerText(memory({ round: 2, last }), LIST, { ...DEFAULT_CONFIG, maxRounds: 2 }, undefined);
  assert.equal(after({ kind: "idle", replies: 3, open: 2 }), "todo loop stopped: without doing anything · todo 2 of 5 open");
  assert.equal(after({ kind: "limit", limit: "maxRounds", used: 2, max: 2, open: 2, stale: 0 }), "todo loop stopped: limit · todo 2 of 5 open");
  assert.equal(after({ kind: "limit", limit: "maxMinutes", used: 31, max: 30, open: 2, stale: 0 }), "todo loop stopped: limit · todo 2 of 5 open");
  assert.equal(after({ kind: "outcome", outcome: "error" }), "todo loop stopped: error · todo 2 of 5 open");
  assert.equal(after({ kind: "outcome", outcome: "aborted" }), "todo loop stopped: by you (Escape) · todo 2 of 5 open");
  assert.equal(after({ kind: "out-of-reach", tool: "todo", open: 2 }), "todo loop stopped: todo tool not active · todo 2 of 5 open");
});

test("footer while a stop is still pending (the run may go on: a retry, a queued message) keeps the running count", () => {
  const reason: Reason = { kind: "outcome", outcome: "error" };
  const pending = memory({ round: 2, last: reason, pending: { reason, open: 2, level: "warning" } });
  assert.equal(footerText(pending, LIST, DEFAULT_CONFIG, undefined), "todo 2 of 5 open · continue 2");
});

test("footer after a continuation, a resume or a reset is the running count, whatever stop came before", () => {
  for (const last of [{ kind: "continuing", open: 2, round: 2, maxRounds: null }, { kind: "resumed" }, { kind: "reset" }, { kind: "requested", started: true }] as Reason[]) {
    assert.equal(footerText(memory({ round: 2, last, announced: ["idle"] }), LIST, DEFAULT_CONFIG, undefined), "todo 2 of 5 open · continue 2", last.kind);
  }
});

test("footer for a new human message starts at continue 0 (a fresh memory keeps only the pause)", () => {
  assert.equal(footerText(freshMemory("u2"), LIST, DEFAULT_CONFIG, undefined), "todo 2 of 5 open · continue 0");
  assert.equal(footerText(freshMemory("u2"), LIST, { ...DEFAULT_CONFIG, maxRounds: 12 }, undefined), "todo 2 of 5 open · continue 0/12");
  assert.equal(footerText(freshMemory("u2", true), LIST, DEFAULT_CONFIG, undefined), "todo loop paused · todo 2 of 5 open");
});

test("footer: waiting always names the loop — todo loop: waiting for you — for a block and for a question", () => {
  for (const asked of [false, true]) {
    const text = footerText(memory({ waiting: { reason: "x", asked } }), LIST, DEFAULT_CONFIG, undefined) ?? "";
    assert.ok(text.includes("todo loop: waiting for you"), text);
  }
});

test("a count never reads past its cap: continue 3 (limit 2, at your request), in the footer, the reason and the transcript line", () => {
  assert.equal(roundText(3, 2), "continue 3 (limit 2, at your request)");
  assert.equal(roundText(2, 2), "continue 2/2");
  assert.equal(roundText(3, null), "continue 3");
  assert.equal(footerText(memory({ round: 3, last: { kind: "requested", started: true } }), LIST, { ...DEFAULT_CONFIG, maxRounds: 2 }, undefined), "todo 2 of 5 open · continue 3 (limit 2, at your request)");
  assert.equal(continuationLine({ round: 3, cap: 2, open: 2, total: 5 }), "todo loop: continue 3 (limit 2, at your request) · 2 of 5 open");
  for (let round = 0; round < 30; round++) {
    for (const cap of [1, 2, 5, 12]) {
      const words = roundText(round, cap);
      const shown = /(\d+)\/(\d+)/.exec(words);
      if (shown) assert.ok(Number(shown[1]) <= Number(shown[2]), words);
    }
  }
});

test("duration: whole minutes as a person says them", () => {
  assert.deepEqual([0, 0.5, 1, 4.2, 59, 60, 61, 70, 125, 600].map(duration), [
    "under a minute", "under a minute", "1 min", "4 min", "59 min", "1 h", "1 h 1 min", "1 h 10 min", "2 h 5 min", "10 h",
  ]);
});

test("status report: the anchor is your message's time (and first words), never an id", () => {
  const lines = (overrides: Partial<StatusView>): string[] => statusText(view({ memory: memory({ anchor: "ad74f7a6" }), ...overrides })).split("\n");
  assert.equal(lines({})[8], "counting from: your message of 14:02");
  assert.equal(lines({ anchorText: "Write the parser and its tests" })[8], 'counting from: your message of 14:02 ("Write the parser and its tests")');
  assert.equal(lines({ anchorText: "a".repeat(100) })[8], `counting from: your message of 14:02 ("${"a".repeat(39)}…")`);
  assert.equal(lines({ anchorText: "x\u001b[31m\ny" })[8], 'counting from: your message of 14:02 ("x y")');
  assert.equal(lines({ anchorTime: undefined })[8], "counting from: your latest message");
  assert.equal(lines({ anchorTime: Number.NaN })[8], "counting from: your latest message");
  for (const line of lines({ anchorText: "hello" })) assert.doesNotMatch(line, /ad74f7a6/);
});

test("status report: config: none (defaults) when the file does not exist; the path when it does", () => {
  assert.equal(statusText(view({ configExists: false })).split("\n")[10], `config: none (defaults) — create ${CONFIG} to set limits`);
  assert.equal(statusText(view({ configExists: true })).split("\n")[10], `config: ${CONFIG}`);
});

test("status report: an abort reads 'you stopped it (Escape)'", () => {
  const lines = statusText(view({ memory: memory({ last: { kind: "outcome", outcome: "aborted" } }) })).split("\n");
  assert.equal(lines[0], "todo loop: stopped");
  assert.equal(lines[9], "last: stopped: you stopped it (Escape)");
});

test("/todoloop resume says what happens next: when the agent next stops, and that continue starts it now", () => {
  assert.equal(commandReplyText({ kind: "resumed" }, { idle: true, open: 2 }), "todo loop: resumed: the loop goes on when the agent next stops; /todoloop continue starts it now");
  assert.equal(commandReplyText({ kind: "resumed" }, { idle: false, open: 2 }), "todo loop: resumed: the loop goes on when the agent next stops");
  assert.equal(commandReplyText({ kind: "resumed" }, { idle: true, open: 0 }), "todo loop: resumed: no task is open now; the loop goes on when the agent next stops with tasks open");
  assert.equal(commandReplyText({ kind: "paused" }, { idle: true, open: 2 }), "todo loop: paused by user");
  assert.equal(commandReplyText({ kind: "reset" }, { idle: true, open: 2 }), "todo loop: counters reset");
  assert.equal(commandReplyText({ kind: "requested", started: true }, { idle: true, open: 2 }), "todo loop: continuing at your request");
});

test("todo_loop_block's result: the reason as one sentence, then 'End your reply now' (never '..')", () => {
  assert.equal(
    blockResultText("which database should I migrate."),
    "Recorded. The todo loop will not continue until the user replies. Reason: which database should I migrate. End your reply now and tell the user what you need.",
  );
  assert.equal(blockResultText("need the API key"), "Recorded. The todo loop will not continue until the user replies. Reason: need the API key. End your reply now and tell the user what you need.");
  assert.match(blockResultText("Postgres or SQLite?"), /Reason: Postgres or SQLite\? End your reply now/);
  assert.match(blockResultText("see the log (step 3)."), /Reason: see the log \(step 3\)\. End/);
  assert.match(blockResultText('he said "stop."'), /Reason: he said "stop\." End/);
  assert.match(blockResultText("the migration:"), /Reason: the migration\. End/);
  assert.match(blockResultText("cut short…"), /Reason: cut short… End/);
});

test("the no-todo-tool notice says the loop has nothing to read and how to install a supported todo tool", () => {
  assert.match(NO_TODO_TOOL_TEXT, /^todo loop: no todo tool is installed, so the loop has nothing to read/);
  assert.ok(NO_TODO_TOOL_TEXT.includes("pi install npm:@juicesharp/rpiv-todo"));
});

const ENDINGS = ["", ".", "?", "!", ":", ";", ",", "…", "。", "？", "！", ".)", '."', "?'", " ", ". ", ":  ", ")", "\n"];
const WORDS = ["need", "the", "API", "key", "migration", "Postgres", "SQLite", "step", "3", "ok", "é", "中文"];
/** Two marks of punctuation in a row (blanks between them allowed). */
const DOUBLED = /[.!?…。！？,;:]\s*[.!?…。！？,;:]/u;

test("property: no sentence built from a reason has doubled punctuation, whatever the reason ends with", () => {
  forAll("no doubled punctuation around a reason", 3000, (rng) => {
    const words = Array.from({ length: rng.int(1, 6) }, () => rng.pick(WORDS)).join(" ");
    return `${words}${rng.pick(ENDINGS)}`;
  }, (raw) => {
    const reason = sanitizeReason(raw);
    if (reason === "") return;
    const wait = { reason, asked: false };
    const question = { reason, asked: true };
    const sentences = [
      blockResultText(reason),
      describeReason({ kind: "waiting", ...wait }),
      describeReason({ kind: "waiting", ...question }),
      describeNotice({ kind: "stop", reason: { kind: "waiting", ...wait }, level: "warning" }, CONFIG).message,
      stopLine(describeReason({ kind: "waiting", ...wait })),
      ...statusText(view({ memory: memory({ waiting: wait, last: { kind: "waiting", ...wait } }) })).split("\n"),
      ...statusText(view({ memory: memory({ waiting: question, last: { kind: "waiting", ...question } }) })).split("\n"),
    ];
    // Whatever punctuation is the reason's own is its own; none may be added next to it.
    const own = DOUBLED.test(reason);
    for (const sentence of sentences) {
      if (own) assert.ok(!DOUBLED.test(sentence.replace(reason, "x")), sentence);
      else assert.ok(!DOUBLED.test(sentence), sentence);
    }
    assert.ok(!DOUBLED.test(asSentence(reason)) || own, asSentence(reason));
  });
});

import { sanitize } from "../src/core/text.ts";

/** A block reason as the tool keeps it: sanitised (§10). */
function sanitizeReason(raw: string): string {
  return sanitize(raw, 500);
}

// ---- small forms: seconds, sentences, headlines, the verifying footer ------------------------------------

test("secondsText: whole seconds under a minute, then minutes with the seconds left (none when even)", () => {
  const cases: Array<[number, string]> = [[0, "0 s"], [-5, "0 s"], [41.4, "41 s"], [59.4, "59 s"], [59.6, "1 min"], [60, "1 min"], [61, "1 min 1 s"], [125, "2 min 5 s"], [600, "10 min"], [3599, "59 min 59 s"]];
  for (const [seconds, text] of cases) assert.equal(secondsText(seconds), text, String(seconds));
});

test("asSentence: a trailing comma, colon, semicolon or space gives way to one full stop; a text that ends a sentence gets none", () => {
  assert.equal(asSentence("done,,"), "done.");
  assert.equal(asSentence("done ;: "), "done.");
  assert.equal(asSentence(",;: "), "");
  assert.equal(asSentence(""), "");
  assert.equal(asSentence("Ready?"), "Ready?");
  assert.equal(asSentence('He said "go."'), 'He said "go."');
  assert.equal(asSentence("a. b"), "a. b.", "a stop inside the text does not end it");
});

test("stopLead and stopHeadline: a wait leads with 'waiting for you:'; task counts of any size and 'it may need you' leave the headline", () => {
  assert.equal(stopLead({ kind: "waiting", reason: "x", asked: true }), "waiting for you:");
  assert.equal(stopLead({ kind: "idle", replies: 3, open: 1 }), "stopped:");
  assert.equal(stopHeadline({ kind: "idle", replies: 3, open: 12 }), "stopped: the agent stopped 3 times in a row without doing anything");
  assert.equal(stopHeadline({ kind: "repeat", replies: 3, open: 1 }), "stopped: the agent gave the same reply 3 times in a row");
});

test("verify-error of a project command that was not run: each reason keeps the stop's own words and says why", () => {
  for (const why of ["unapproved", "changed", "hidden-characters", "untrusted"] as const) {
    const text = describeReason({ kind: "verify-error", command: "npm test", why, detail: "", base: "clear" });
    assert.match(text, /^stopped: list is clear · not verified: /, why);
  }
});

test("verifyingFooter names the command; rereadNudgeText asks to read the list with the tool first", () => {
  assert.equal(verifyingFooter("npm test"), "todo loop: verifying · npm test");
  assert.equal(verifyingFooter("\u001b[31m"), "todo loop: verifying · the verification command");
  const text = rereadNudgeText("todo");
  assert.match(text, /^Continue with the open tasks on your todo list\. /);
  assert.match(text, /first use the todo tool to read the list, then update each task as you finish it\./);
  assert.match(text, /The user's latest instruction outranks this reminder\.$/);
  assert.match(rereadNudgeText("todo_write"), /first use the todo_read and todo_write tools to read the list/);
});

test("status report: the earlier-message hold, brakes turned off and a fractional minute limit", () => {
  const held = statusText(view({ memory: memory({ last: { kind: "earlier", open: 2, list: "abc" } }) })).split("\n");
  assert.equal(held[0], "todo loop: holding (the open tasks are from an earlier message)");
  const off = statusText(view({ limits: { ...DEFAULT_CONFIG, maxStuckReplies: null, maxRepeats: null, maxMinutes: 2.5 } })).split("\n");
  assert.ok(off.some((line) => /^replies in a row without progress: \d+ \(no limit\)$/.test(line)), off.join("\n"));
  assert.ok(off.some((line) => /^the same reply in a row: \d+ \(no limit\)$/.test(line)), off.join("\n"));
  assert.ok(off.some((line) => line.includes("limit 2.5 min")), off.join("\n"));
});

// ---- 0.4: work in flight, usage limits, resumed runs, another workflow, child sessions -----------------

import { SECOND_SESSION } from "../src/core/child.ts";
import { childLine, childOffBlockText, childOffReply, describeVerify, limitExhaustedText, resumeNotice, resumeQuestion, resumeSituation, workStatusLines } from "../src/core/text.ts";

/** 15:42 local time, whatever the machine's time zone; NOW is 37 minutes before it. */
const RESUME_AT = new Date(2026, 11, 5, 15, 42, 0).getTime();
const NOW = RESUME_AT - 37 * 60_000;

const WAITING_FOR_LIMIT: Reason = { kind: "limit-wait", state: "waiting", resumeAtMs: RESUME_AT, waitMinutes: 37, atMs: NOW, first: true, timer: true };
const WAITING_HEADLESS: Reason = { ...WAITING_FOR_LIMIT, timer: false };
const GAVE_UP: Reason = { kind: "limit-wait", state: "gave-up", why: "spent", capMinutes: 300, atMs: NOW };

test("reason English of the 0.4 stops and waits: no progress, shutdown, a busy agent, work in flight, another workflow, usage limits", () => {
  const cases: Array<[Reason, string]> = [
    [{ kind: "stuck", replies: 5, open: 2 }, "stopped: 5 replies in a row without progress (no edits, commands, new reads or todo changes), 2 tasks still open; it may need you"],
    [{ kind: "repeat", replies: 3, open: 2 }, "stopped: the agent gave the same reply 3 times in a row, 2 tasks still open; it may need you"],
    [{ kind: "outcome", outcome: "aborted", shutdown: true }, "stopped: pi was shut down during the run (SIGTERM or SIGHUP)"],
    [{ kind: "outcome", outcome: "aborted", shutdown: false }, "stopped: you stopped it (Escape)"],
    [{ kind: "requested", started: false, kept: false }, "the agent is busy: pause and wait are lifted, and the loop goes on as usual when it next stops"],
    [{ kind: "other-workflow" }, "not continuing: another workflow (a goal or a plan) drives the session"],
    [{ kind: "earlier", open: 2, list: "abc" }, "not continuing: 2 tasks are open from an earlier message — /todoloop continue to go on with them"],
    [{ kind: "waiting-work", jobs: 0, open: 2 }, "not continuing yet: the background work finished and its report is due, 2 tasks still open"],
    [{ kind: "waiting-work", jobs: 1, open: 1 }, "waiting on 1 background job: the agent goes on when the work reports, 1 task still open"],
    [{ kind: "work-timeout", minutes: 210, open: 2 }, "stopped: background work still running after 210 minutes, 2 tasks open; it may need you"],
    [WAITING_FOR_LIMIT, "waiting for the usage limit: continuing at 15:42 (in 37 min) · /todoloop pause to cancel"],
    [WAITING_HEADLESS, "stopped: usage limit reached: it resets about 15:42 (in 37 min); run pi -c then to continue"],
    [GAVE_UP, "stopped: still rate limited after 300 minutes"],
  ];
  for (const [reason, english] of cases) assert.equal(describeReason(reason), english, english);
});

test("work that timed out names whole minutes from one on (rounded) and one decimal below, with the unit in the singular for one", () => {
  const after = (minutes: number): string => describeReason({ kind: "work-timeout", minutes, open: 1 });
  assert.equal(after(45.6), "stopped: background work still running after 46 minutes, 1 task open; it may need you");
  assert.equal(after(1.2), "stopped: background work still running after 1 minute, 1 task open; it may need you");
  assert.equal(after(2), "stopped: background work still running after 2 minutes, 1 task open; it may need you");
  assert.equal(after(0.5), "stopped: background work still running after 0.5 minutes, 1 task open; it may need you");
  assert.equal(stopHeadline({ kind: "work-timeout", minutes: 0.5, open: 1 }), "stopped: background work still running after 0.5 minutes");
});

test("/todoloop lists work in flight: a count, then at most ten by label, source and minutes, then how many more", () => {
  const work = (count: number) => Array.from({ length: count }, (_, index) => ({ label: `job ${index + 1}`, sourceLabel: "pi-subagents", minutes: 65 }));
  assert.deepEqual(workStatusLines([]), []);
  assert.deepEqual(workStatusLines(work(1)), ["background work in flight: 1", "  job 1 (pi-subagents, 1 h 5 min)"]);
  const ten = workStatusLines(work(10));
  assert.equal(ten.length, 11, "ten are all named, with no 'and 0 more'");
  assert.equal(ten[10], "  job 10 (pi-subagents, 1 h 5 min)");
  const twelve = workStatusLines(work(12));
  assert.equal(twelve[0], "background work in flight: 12");
  assert.equal(twelve.length, 12);
  assert.equal(twelve[10], "  job 10 (pi-subagents, 1 h 5 min)");
  assert.equal(twelve[11], "  … and 2 more");
});

test("status report: the mode line while waiting for a usage limit, on work in flight, and under another workflow", () => {
  const modeOf = (last: Reason, extra: Partial<Memory> = {}): string | undefined => statusText(view({ memory: memory({ last, ...extra }) })).split("\n")[0];
  assert.equal(modeOf(WAITING_FOR_LIMIT), "todo loop: waiting for the usage limit (continuing at 15:42)");
  assert.equal(modeOf(WAITING_HEADLESS), "todo loop: stopped", "with no timer nothing continues the run");
  assert.equal(modeOf(GAVE_UP), "todo loop: stopped");
  assert.equal(modeOf({ kind: "other-workflow" }), "todo loop: standing aside (another workflow drives the session)");
  assert.equal(modeOf({ kind: "waiting-work", jobs: 2, open: 2 }), "todo loop: waiting on background work");
  const reason: Reason = { kind: "outcome", outcome: "error" };
  assert.equal(modeOf({ kind: "waiting-work", jobs: 2, open: 2 }, { pending: { reason, open: 2, level: "warning" } }), "todo loop: active", "a stop still pending: the run may go on");
});

test("status report: a count at its cap reads 'of' it; past it (only at your request) it says so", () => {
  const lines = statusText(view({ memory: memory({ round: 3, settleRun: 3, stuck: 6 }), limits: { ...DEFAULT_CONFIG, maxRounds: 3 } })).split("\n");
  assert.equal(lines[1], "continuations for this message: 3 of 3");
  assert.equal(lines[3], "replies in a row without doing anything: 3 of 3");
  assert.equal(lines[4], "replies in a row without progress: 6 (limit 5, at your request)");
});

test("footer while waiting: a usage limit with a timer says when it resumes; without one, or given up, it names the stop; work in flight counts its jobs", () => {
  const footer = (last: Reason, extra: Partial<Memory> = {}): string | undefined => footerText(memory({ round: 2, last, ...extra }), LIST, DEFAULT_CONFIG, undefined);
  assert.equal(footer(WAITING_FOR_LIMIT), "todo loop: resumes at 15:42 · todo 2 of 5 open");
  assert.equal(footer(WAITING_HEADLESS), "todo loop stopped: usage limit · todo 2 of 5 open");
  assert.equal(footer(GAVE_UP), "todo loop stopped: usage limit · todo 2 of 5 open");
  assert.equal(footer({ kind: "other-workflow" }), "todo loop: another workflow is driving · todo 2 of 5 open");
  assert.equal(footer({ kind: "waiting-work", jobs: 2, open: 2 }), "todo loop: waiting on 2 background jobs · todo 2 of 5 open");
  assert.equal(footer({ kind: "waiting-work", jobs: 1, open: 2 }), "todo loop: waiting on 1 background job · todo 2 of 5 open");
  assert.equal(footer({ kind: "waiting-work", jobs: 0, open: 2 }), "todo loop: background work finished · todo 2 of 5 open");
  assert.equal(footer({ kind: "work-timeout", minutes: 210, open: 2 }), "todo loop stopped: background work · todo 2 of 5 open");
});

test("footer while a stop is still pending after a wait (on a usage limit or on work) keeps the running count", () => {
  const error: Reason = { kind: "outcome", outcome: "error" };
  const pending = { reason: error, open: 2, level: "warning" as const };
  for (const last of [WAITING_FOR_LIMIT, { kind: "waiting-work", jobs: 2, open: 2 } as const]) {
    assert.equal(footerText(memory({ round: 2, last, pending }), LIST, DEFAULT_CONFIG, undefined), "todo 2 of 5 open · continue 2", last.kind);
  }
});

test("a wait the usage limit would take past maxLimitWaitMinutes names the reset time and the cap as it was set", () => {
  const reset = RESUME_AT + 5 * 60 * 60_000;
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 300, resetAtMs: reset }, RESUME_AT), "the usage limit resets at 20:42 (in 5 h), past the 300 minutes of maxLimitWaitMinutes");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 1, resetAtMs: reset }, RESUME_AT), "the usage limit resets at 20:42 (in 5 h), past the 1 minute of maxLimitWaitMinutes");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 1.25, resetAtMs: reset }, RESUME_AT), "the usage limit resets at 20:42 (in 5 h), past the 1.25 minutes of maxLimitWaitMinutes");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 0.05 }, NOW), "still rate limited after 0.05 minutes", "no reset time known");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 300, resetAtMs: Number.NaN }, NOW), "still rate limited after 300 minutes", "a reset time that is no time");
  assert.equal(limitExhaustedText({ why: "spent", capMinutes: 300, resetAtMs: reset }, NOW), "still rate limited after 300 minutes", "the waits spent the cap");
});

test("a resumed session's question and notice say how the last run ended and how many tasks are open", () => {
  assert.equal(resumeSituation({ cause: "died", open: 1, total: 1 }), "The last run stopped with 1 of 1 task open when pi exited.");
  assert.equal(resumeSituation({ cause: "limit-passed", open: 3, total: 4 }), "The last run was waiting for the usage limit with 3 of 4 tasks open when pi exited; its time has passed.");
  assert.equal(resumeQuestion({ cause: "died", open: 2, total: 5 }), "The last run stopped with 2 of 5 tasks open when pi exited. Continue now?");
  assert.equal(
    resumeNotice({ cause: "limit-passed", open: 3, total: 4 }),
    "todo loop: the last run was waiting for the usage limit with 3 of 4 tasks open when pi exited; its time has passed. /todoloop continue picks it up.",
  );
});

test("child wording: /todoloop names the rule and what the loop does there", () => {
  assert.equal(
    childLine("PI_SUBAGENT_CHILD", "quiet"),
    "child session (PI_SUBAGENT_CHILD=1): quiet — no exit status, stderr line, notify command, terminal notification or footer; the todo-loop:stop event still fires",
  );
  assert.equal(childLine(SECOND_SESSION, "off"), 'child session (a second session in this process): the loop is off here (children: "off")');
  assert.equal(childLine("TODO_LOOP_CHILD", "normal"), 'child session (TODO_LOOP_CHILD=1): treated like any session (children: "full")');
  assert.equal(childOffReply("PI_CODE_SUBAGENT"), 'todo loop: off in this child session (PI_CODE_SUBAGENT=1, children: "off"); nothing changed');
  assert.equal(childOffBlockText(SECOND_SESSION), "The todo loop is off in this child session (a second session in this process); there is no continuation to stop.");
});


test("status report: a minute limit of an hour or more reads in hours, as the spend beside it does", () => {
  const lines = statusText(view({ limits: { ...DEFAULT_CONFIG, maxMinutes: 90 }, spend: { tokens: 0, cost: 0, minutes: 61 } })).split("\n");
  assert.equal(lines[7], "spend since your message: 0 tokens (no limit), $0.0000 (no limit), 1 h 1 min (limit 1 h 30 min)");
});

test("a reason, notice, list or child conduct of a kind this version does not know is an error, never a sentence that reads 'undefined'", () => {
  const unknown = "from-a-newer-version" as never;
  const ofUnknownKind = { kind: unknown } as never;
  assert.throws(() => describeReason(ofUnknownKind), /unexpected value/);
  assert.throws(() => describeReason({ kind: "limit", limit: unknown, used: 1, max: 1, open: 1, stale: 0 }), /unexpected value/);
  assert.throws(() => describeReason({ kind: "verify-error", command: "npm test", why: unknown, detail: "", base: "clear" }), /unexpected value/);
  assert.throws(() => describeReason({ kind: "verify-failed", command: "npm test", exit: 1, seconds: 2, runs: 1, why: unknown }), /unexpected value/);
  assert.throws(() => describeVerify(ofUnknownKind), /unexpected value/);
  assert.throws(() => describeNotice(ofUnknownKind, CONFIG), /unexpected value/);
  assert.throws(() => statusText(view({ list: ofUnknownKind })), /unexpected value/);
  assert.throws(() => childLine("TODO_LOOP_CHILD", unknown), /unexpected value/);
});
