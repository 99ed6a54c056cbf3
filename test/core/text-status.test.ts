/**
 * The words of `/todoloop` and the footer (SPEC §7): the status report line by line, the footer in each
 * mode and after each stop, counts at and past their caps, and minutes, durations and money as a person
 * says them. Reasons and notices are in text-stops.test.ts, the nudge in text-nudge.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SECOND_SESSION } from "../../src/core/child.ts";
import { childLine, childOffBlockText, childOffReply, commandReplyText, continuationLine, describeReason, duration, footerText, roundText, secondsText, statusText, workStatusLines } from "../../src/core/text.ts";
import type { StatusView } from "../../src/core/text.ts";
import type { Memory, Reason, StopKind } from "../../src/core/types.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import { freshMemory } from "../../src/loop.ts";
import { CONFIG, GAVE_UP, LIST, memory, view, WAITING_FOR_LIMIT, WAITING_HEADLESS } from "./text-facts.ts";

/** A stop announced since the last continuation, as a memory rebuilt from the branch has it (`last` unknown). */
function rebuilt(key: string): Memory {
  return memory({ round: 2, announced: [key] });
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

test("money: a dollar or more shows cents, less than a dollar four decimals", () => {
  const cost = (used: number): string => describeReason({ kind: "limit", limit: "maxCost", used, max: 1, open: 1, stale: 0 });
  assert.match(cost(1), /\(\$1\.00 of \$1\.00 since your message\)/);
  assert.match(cost(0.99), /\(\$0\.9900 of \$1\.00 since your message\)/);
});

test("status report: plan mode while it is only planning reads 'none yet' with the source", () => {
  const lines = statusText(view({ list: { kind: "planning", source: "plan-mode" }, sourceLabel: "plan mode" })).split("\n");
  assert.equal(lines[6], "tasks open: none yet — plan mode is planning (plan mode)");
});

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

test("secondsText: whole seconds under a minute, then minutes with the seconds left (none when even)", () => {
  const cases: Array<[number, string]> = [[0, "0 s"], [-5, "0 s"], [41.4, "41 s"], [59.4, "59 s"], [59.6, "1 min"], [60, "1 min"], [61, "1 min 1 s"], [125, "2 min 5 s"], [600, "10 min"], [3599, "59 min 59 s"]];
  for (const [seconds, text] of cases) assert.equal(secondsText(seconds), text, String(seconds));
});

test("status report: the earlier-message hold, brakes turned off and a fractional minute limit", () => {
  const held = statusText(view({ memory: memory({ last: { kind: "earlier", open: 2, list: "abc" } }) })).split("\n");
  assert.equal(held[0], "todo loop: holding (the open tasks are from an earlier message)");
  const off = statusText(view({ limits: { ...DEFAULT_CONFIG, maxStuckReplies: null, maxRepeats: null, maxMinutes: 2.5 } })).split("\n");
  assert.ok(off.some((line) => /^replies in a row without progress: \d+ \(no limit\)$/.test(line)), off.join("\n"));
  assert.ok(off.some((line) => /^the same reply in a row: \d+ \(no limit\)$/.test(line)), off.join("\n"));
  assert.ok(off.some((line) => line.includes("limit 2.5 min")), off.join("\n"));
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
