/**
 * Every sentence the extension shows (SPEC §4 reason strings, §4.10 nudge, §7 status and footer), pinned
 * in one place: the rest of the suite asserts reason kinds, this file asserts their English.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../src/config.ts";
import type { Limits } from "../src/config.ts";
import { freshMemory } from "../src/loop.ts";
import type { ListState, Memory, Reason } from "../src/loop.ts";
import { describeNotice, describeReason, footerText, nudgeText, statusText } from "../src/text.ts";
import type { StatusView } from "../src/text.ts";

const LIST: ListState = { kind: "list", open: 2, total: 5, signature: "s", source: "rpiv-todo", tool: "todo" };

function memory(overrides: Partial<Memory> = {}): Memory {
  return { ...freshMemory("u1"), ...overrides };
}

test("reason English: every reason kind reads exactly as SPEC §4 lists it", () => {
  const cases: Array<[Reason, string]> = [
    [{ kind: "continuing", open: 2, round: 3, maxRounds: null }, "continuing: 2 tasks still open, continue 3"],
    [{ kind: "continuing", open: 2, round: 3, maxRounds: 12 }, "continuing: 2 tasks still open, continue 3/12"],
    [{ kind: "continuing", open: 1, round: 1, maxRounds: null }, "continuing: 1 task still open, continue 1"],
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
    [{ kind: "requested", started: false }, "resumed by user; the agent is busy, so the loop goes on when it next stops"],
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
    [{ kind: "outcome", outcome: "aborted" }, "stopped: turn outcome was aborted"],
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
    "Continue with the open tasks on your todo list. Use the todo tool to read the list and to update each task as you finish it. The user's latest instruction outranks this reminder.",
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
    "Continue with the open steps of the plan. Mark each step as you finish it by writing [DONE:n] in your reply, where n is the step number. The user's latest instruction outranks this reminder.",
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

test("nudge: only the hint variant offers todo_loop_block", () => {
  for (const tool of TOOLS) {
    assert.match(nudgeText(tool, true), /todo_loop_block/);
    assert.doesNotMatch(nudgeText(tool, false), /todo_loop_block/);
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
      "replies in a row without work: 0 of 3",
      "replies without progress: 0 of 5",
      "the same reply in a row: 0 of 3",
      "tasks open: 2 of 5 (rpiv-todo)",
      "spend since your message: 12,345 tokens (no limit), $0.0421 (no limit), 4.3 minutes (no limit)",
      "counting from: message u1",
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
  assert.equal(lines[3], "replies in a row without work: 2 (no limit)");
  assert.equal(lines[7], "spend since your message: 12,345 tokens (limit 500,000), $0.0421 (limit $3.00), 4.3 minutes (limit 30)");
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

test("status report: no minutes known yet reads as 0 minutes", () => {
  const lines = statusText(view({ spend: { tokens: 0, cost: 0, minutes: undefined } })).split("\n");
  assert.equal(lines[7], "spend since your message: 0 tokens (no limit), $0.0000 (no limit), 0 minutes (no limit)");
});

// ---- footer -----------------------------------------------------------------------------------------

test("footer: 'todo 2 of 5 open · continue 3' while tasks are open, with the cap when set — never a bare X/Y", () => {
  assert.equal(footerText(memory({ round: 3 }), LIST, DEFAULT_CONFIG, undefined), "todo 2 of 5 open · continue 3");
  assert.equal(footerText(memory({ round: 3 }), LIST, { ...DEFAULT_CONFIG, maxRounds: 12 }, undefined), "todo 2 of 5 open · continue 3/12");
  assert.doesNotMatch(footerText(memory({ round: 3 }), LIST, DEFAULT_CONFIG, undefined) ?? "", /\d+\/\d+/);
});

test("footer: paused, waiting and kill switch texts", () => {
  assert.equal(footerText(memory({ paused: true }), LIST, DEFAULT_CONFIG, undefined), "todo loop paused");
  assert.equal(footerText(memory({ waiting: { reason: "x", asked: true } }), LIST, DEFAULT_CONFIG, undefined), "waiting for you");
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

import { continuationLine, stopLine } from "../src/text.ts";

test("minutes: a value one decimal would show as 0 keeps two significant digits; zero and a clock set back show 0", () => {
  const spent = (minutes: number): string | undefined => statusText(view({ spend: { tokens: 0, cost: 0, minutes } })).split("\n")[7];
  assert.match(spent(0.02) ?? "", /, 0\.02 minutes \(no limit\)$/);
  assert.match(spent(0.049) ?? "", /, 0\.049 minutes \(no limit\)$/);
  assert.match(spent(0) ?? "", /, 0 minutes \(no limit\)$/);
  assert.match(spent(-0.01) ?? "", /, 0 minutes \(no limit\)$/);
  assert.match(spent(0.05) ?? "", /, 0\.1 minutes \(no limit\)$/);
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
