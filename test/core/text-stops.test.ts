/**
 * The English of every stop, wait and notice (SPEC §4 reason strings, §4.16–§4.21, §6): each reason kind
 * word for word, the notices of an emptied or stale list, the transcript lines, `todo_loop_block`'s result,
 * and no doubled punctuation whatever a reason ends with. The footer and status are in
 * text-status.test.ts, the nudge in text-nudge.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { asSentence, blockResultText, childLine, continuationLine, describeNotice, describeReason, describeVerify, limitExhaustedText, sanitize, statusText, stopHeadline, stopLead, stopLine } from "../../src/core/text.ts";
import type { Limits, Reason } from "../../src/core/types.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import { forAll } from "../gen.ts";
import { CONFIG, GAVE_UP, memory, NOW, RESUME_AT, view, WAITING_FOR_LIMIT, WAITING_HEADLESS } from "./text-facts.ts";

const ENDINGS = ["", ".", "?", "!", ":", ";", ",", "…", "。", "？", "！", ".)", '."', "?'", " ", ". ", ":  ", ")", "\n"];

const WORDS = ["need", "the", "API", "key", "migration", "Postgres", "SQLite", "step", "3", "ok", "é", "中文"];

/** Two marks of punctuation in a row (blanks between them allowed). */
const DOUBLED = /[.!?…。！？,;:]\s*[.!?…。！？,;:]/u;

/** A block reason as the tool keeps it: sanitised (§10). */
function sanitizeReason(raw: string): string {
  return sanitize(raw, 500);
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

test("notice English: exactly five deleted tasks are all named, with no 'and 0 more'", () => {
  const { message } = describeNotice({ kind: "emptied", how: "delete", count: 5, texts: ["a", "b", "c", "d", "e"] }, CONFIG);
  assert.match(message, /completed: "a", "b", "c", "d", "e"\. No task is open/);
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

test("a wait the usage limit would take past maxLimitWaitMinutes names the reset time and the cap as it was set", () => {
  const reset = RESUME_AT + 5 * 60 * 60_000;
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 300, resetAtMs: reset }, RESUME_AT), "the usage limit resets at 20:42 (in 5 h), past the 300 minutes of maxLimitWaitMinutes");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 1, resetAtMs: reset }, RESUME_AT), "the usage limit resets at 20:42 (in 5 h), past the 1 minute of maxLimitWaitMinutes");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 1.25, resetAtMs: reset }, RESUME_AT), "the usage limit resets at 20:42 (in 5 h), past the 1.25 minutes of maxLimitWaitMinutes");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 0.05 }, NOW), "still rate limited after 0.05 minutes", "no reset time known");
  assert.equal(limitExhaustedText({ why: "too-far", capMinutes: 300, resetAtMs: Number.NaN }, NOW), "still rate limited after 300 minutes", "a reset time that is no time");
  assert.equal(limitExhaustedText({ why: "spent", capMinutes: 300, resetAtMs: reset }, NOW), "still rate limited after 300 minutes", "the waits spent the cap");
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
