/**
 * Waiting on work in flight (SPEC §4.17), the pure part the host applies: decide() at a settle with work
 * in flight (no continuation, no round, counts kept, nothing recorded), the work-timeout stop, the wake
 * and check-in continuations (`core/work-wake.ts`), their words, and the `checkInMinutes` key.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Decision, Memory, Reason } from "../../src/core/types.ts";
import { settle } from "../../src/loop.ts";
import { checkInNudgeText, describeReason, footerText, nudgeText, stopHeadline, wakeNudgeText, workStatusLines } from "../../src/core/text.ts";
import { holdDeadline, workHoldLimit, workNudge } from "../../src/core/work-wake.ts";
import type { WorkNudgeFacts } from "../../src/core/work-wake.ts";
import { DEFAULT_CONFIG, parseConfig } from "../../src/config.ts";
import { needsPerson } from "../../src/core/reach-plan.ts";
import { ANCHOR, branch, CLEAR, ended, input, LIST, limits, memory, NO_LIMITS, run, seen, settleTurn, TODO_ACTIVE } from "./facts.ts";

const WORK = { inFlight: 2 };

function waiting(decision: Decision): void {
  assert.equal(decision.continue, false);
  assert.equal(decision.marker, undefined);
  assert.equal(decision.memory.pending, undefined, "no stop to record or announce");
  assert.deepEqual(decision.notices, []);
}

test("decide §4.17: a settle with open tasks and work in flight waits: no marker, no round, no stop, the counts and the signature unchanged", () => {
  const before = seen({ round: 2, settleRun: 1, staleSettles: 4, stuck: 2, repeats: 2, fp: "f1", signature: "sig-old" });
  const decision = run(input({ memory: before, work: WORK, turn: settleTurn({ reply: { progress: false, fingerprint: "f1" } }) }));
  waiting(decision);
  const { memory: after } = decision;
  assert.deepEqual(after.last, { kind: "waiting-work", jobs: 2, open: 2 });
  for (const key of ["round", "settleRun", "staleSettles", "stuck", "repeats", "fp", "signature", "announced"] as const) assert.deepEqual(after[key], before[key], key);
  // pi settles: nothing is recorded or announced.
  const end = ended(decision);
  assert.equal(end.record, undefined);
  assert.equal(end.notice, undefined);
});

test("decide §4.17: the wait comes after pause, the person's wait and a question, before the earlier-message hold, the limits and the brakes", () => {
  assert.deepEqual(run(input({ memory: seen({ paused: true }), work: WORK })).memory.last, { kind: "paused" });
  const blocked = run(input({ memory: seen({ waiting: { reason: "which DB?", asked: false } }), work: WORK }));
  assert.equal(blocked.memory.pending?.reason.kind, "waiting");
  const asked = run(input({ memory: seen(), work: WORK, turn: settleTurn({ question: "Shall I deploy?" }) }));
  assert.equal(asked.memory.pending?.reason.kind, "waiting");
  assert.deepEqual(asked.memory.waiting, { reason: "Shall I deploy?", asked: true });
  // An earlier message's list: the work this message started still holds it, no `earlier` stop.
  const earlier = run(input({ memory: memory(), work: WORK, branch: branch({ earlier: { open: true, carried: false, adopted: false, shown: undefined, before: "u0" } }) }));
  waiting(earlier);
  // Limits and brakes reached: still waiting, they are met at the next settle that could continue.
  const spent = run(input({ memory: seen({ round: 5, settleRun: 3, stuck: 9, repeats: 9 }), work: WORK, limits: limits({ maxRounds: 5, maxIdleReplies: 3, maxStuckReplies: 5, maxRepeats: 3, maxMinutes: 1 }), spend: { tokens: 0, cost: 0, minutes: 30 } }));
  waiting(spent);
  // Another workflow drives the session: it is named first.
  assert.deepEqual(run(input({ memory: seen(), work: WORK, otherWorkflow: true })).memory.last, { kind: "other-workflow" });
});

test("decide §4.17: a queued message or another extension's continuation goes first; no work, a clear list or none decide as before", () => {
  assert.deepEqual(run(input({ memory: seen(), work: WORK, pendingMessages: true })).memory.last, { kind: "queued" });
  assert.deepEqual(run(input({ memory: seen(), work: WORK, otherContinued: true })).memory.last, { kind: "other-extension" });
  assert.equal(run(input({ memory: seen(), work: { inFlight: 0 } })).continue, true);
  assert.equal(run(input({ memory: seen() })).continue, true);
  assert.equal(run(input({ memory: seen(), work: WORK, list: CLEAR })).memory.pending?.reason.kind, "clear");
  assert.equal(run(input({ memory: seen(), work: WORK, list: { kind: "none", why: "emptied" } })).memory.pending?.reason.kind, "no-list");
  assert.equal(run(input({ memory: seen(), work: WORK, list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } })).memory.pending?.reason.kind, "out-of-date");
});

test("decide §4.17: check-ins ran out (timedOut) → the work-timeout stop, needing the person, recorded and announced once", () => {
  const decision = run(input({ memory: seen({ round: 3 }), work: { inFlight: 1, timedOut: 210.4 } }));
  assert.equal(decision.continue, false);
  const reason = decision.memory.pending?.reason;
  assert.deepEqual(reason, { kind: "work-timeout", minutes: 210.4, open: 2 });
  const end = ended(decision);
  assert.equal(end.record?.kind, "work-timeout");
  assert.equal(end.record?.reason, "stopped: background work still running after 210 minutes, 2 tasks open; it may need you");
  assert.equal(end.record?.round, 3);
  assert.equal(end.notice?.kind, "stop");
  assert.equal(needsPerson({ kind: "work-timeout", aborted: false }, "rpc"), true);
  // Once per stop: the same kind is not recorded twice between two continuations.
  const again = settle({ ...end.memory, pending: decision.memory.pending }, false, describeReason);
  assert.equal(again.record, undefined);
});

test("words §4.17: the wait, the timeout and the footer; one job is singular; the headline carries no counts", () => {
  assert.equal(describeReason({ kind: "waiting-work", jobs: 2, open: 3 }), "waiting on 2 background jobs: the agent goes on when the work reports, 3 tasks still open");
  assert.equal(describeReason({ kind: "waiting-work", jobs: 1, open: 1 }), "waiting on 1 background job: the agent goes on when the work reports, 1 task still open");
  assert.equal(describeReason({ kind: "work-timeout", minutes: 0.14, open: 1 }), "stopped: background work still running after 0.1 minutes, 1 task open; it may need you");
  assert.equal(describeReason({ kind: "work-timeout", minutes: 1, open: 1 }), "stopped: background work still running after 1 minute, 1 task open; it may need you");
  assert.equal(stopHeadline({ kind: "work-timeout", minutes: 210, open: 2 }), "stopped: background work still running after 210 minutes");
  const list = { ...LIST, open: 2, total: 5 };
  const footer = (last: Reason, extra: Partial<Memory> = {}): string | undefined => footerText(memory({ last, ...extra }), list, DEFAULT_CONFIG, undefined);
  assert.equal(footer({ kind: "waiting-work", jobs: 2, open: 2 }), "todo loop: waiting on 2 background jobs · todo 2 of 5 open");
  assert.equal(footer({ kind: "waiting-work", jobs: 1, open: 2 }), "todo loop: waiting on 1 background job · todo 2 of 5 open");
  assert.equal(footer({ kind: "waiting-work", jobs: 0, open: 2 }), "todo loop: background work finished · todo 2 of 5 open");
  assert.equal(footer({ kind: "waiting-work", jobs: 2, open: 2 }, { paused: true }), "todo loop paused · todo 2 of 5 open");
  assert.equal(footer({ kind: "work-timeout", minutes: 9, open: 2 }), "todo loop stopped: background work · todo 2 of 5 open");
});

test("words §4.17: the wake and check-in nudges are fixed sentences that name the tool, no task text or counters, and keep the concession last", () => {
  for (const tool of ["todo", "todo_write", "TaskUpdate", undefined]) {
    for (const text of [wakeNudgeText(tool), checkInNudgeText(tool)]) {
      assert.doesNotMatch(text, /\d/);
      assert.ok(text.endsWith("The user's latest instruction outranks this reminder."));
      assert.notEqual(text, nudgeText(tool, false));
    }
  }
  assert.match(wakeNudgeText("todo"), /^Continue with the open tasks on your todo list\. .*background work you were waiting on has finished/);
  assert.match(checkInNudgeText("todo"), /background work has not reported yet: check on it/);
});

test("words §4.17: /todoloop lists the work by label, source and minutes, at most ten by name", () => {
  assert.deepEqual(workStatusLines([]), []);
  assert.deepEqual(workStatusLines([{ label: "reviewer", sourceLabel: "pi-subagents", minutes: 4.5 }, { label: "dev server", sourceLabel: "@aliou/pi-processes", minutes: 0.2 }]), [
    "background work in flight: 2",
    "  reviewer (pi-subagents, 4 min)",
    "  dev server (@aliou/pi-processes, under a minute)",
  ]);
  const many = Array.from({ length: 13 }, (_, index) => ({ label: `job ${index}`, sourceLabel: "todo-loop:work", minutes: 70 }));
  const lines = workStatusLines(many);
  assert.equal(lines.length, 12);
  assert.equal(lines[1], "  job 0 (todo-loop:work, 1 h 10 min)");
  assert.equal(lines.at(-1), "  … and 3 more");
  assert.equal(workStatusLines([{ label: "\u001b[31mred\u001b[0m", sourceLabel: "x", minutes: 1 }])[1], "  red (x, 1 min)");
});

function nudgeFacts(overrides: Partial<WorkNudgeFacts> = {}): WorkNudgeFacts {
  return { list: LIST, limits: NO_LIMITS, spend: { tokens: 0, cost: 0, minutes: 1 }, tools: TODO_ACTIVE, killSwitch: false, earlierTasks: "ask", branch: branch(), ...overrides };
}

test("workNudge: a wake or a check-in is one continuation that counts as a round, its marker says which", () => {
  for (const work of ["wake", "check-in"] as const) {
    const result = workNudge(seen({ round: 2, last: { kind: "waiting-work", jobs: 1, open: 2 }, announced: ["clear"] }), work, nudgeFacts());
    assert.equal(result.kind, "continue");
    assert.ok(result.kind === "continue");
    assert.equal(result.memory.round, 3);
    assert.deepEqual(result.memory.announced, []);
    assert.deepEqual(result.memory.last, { kind: "continuing", open: 2, round: 3, maxRounds: null });
    assert.equal(result.marker.work, work);
    assert.equal(result.marker.round, 3);
    assert.equal(result.marker.anchor, ANCHOR);
    assert.equal(result.marker.tool, "todo");
    assert.equal(result.marker.hint, false);
  }
  // A message that had no work yet has work now: the continuation is its.
  const fresh = workNudge(memory(), "wake", nudgeFacts());
  assert.ok(fresh.kind === "continue" && fresh.memory.hadWork);
  // Plan mode keeps no tool: nothing to be out of reach.
  const plan = workNudge(seen(), "wake", nudgeFacts({ list: { ...LIST, source: "plan-mode", tool: undefined }, tools: { active: [], registered: [] } }));
  assert.ok(plan.kind === "continue" && plan.marker.tool === undefined);
});

test("workNudge: the person's pause or wait, the kill switch, no open task and an earlier message's list send nothing", () => {
  assert.deepEqual(workNudge(seen({ paused: true }), "wake", nudgeFacts()), { kind: "none", why: "paused" });
  assert.deepEqual(workNudge(seen({ waiting: { reason: "?", asked: true } }), "wake", nudgeFacts()), { kind: "none", why: "waiting" });
  assert.deepEqual(workNudge(seen(), "check-in", nudgeFacts({ killSwitch: true })), { kind: "none", why: "kill-switch" });
  assert.deepEqual(workNudge(seen(), "wake", nudgeFacts({ list: CLEAR })), { kind: "none", why: "nothing-open" });
  assert.deepEqual(workNudge(seen(), "wake", nudgeFacts({ list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } })), { kind: "none", why: "nothing-open" });
  const earlier = branch({ earlier: { open: true, carried: false, adopted: false, shown: undefined, before: "u0" } });
  assert.deepEqual(workNudge(memory(), "wake", nudgeFacts({ branch: earlier })), { kind: "none", why: "earlier" });
  assert.equal(workNudge(memory(), "wake", nudgeFacts({ branch: earlier, earlierTasks: "continue" })).kind, "continue");
});

test("workNudge: every limit applies — a limit reached, or the tool out of reach, is that stop instead of a continuation", () => {
  const capped = workNudge(seen({ round: 4 }), "check-in", nudgeFacts({ limits: limits({ maxRounds: 4 }) }));
  assert.ok(capped.kind === "stop");
  assert.deepEqual(capped.memory.pending?.reason, { kind: "limit", limit: "maxRounds", used: 4, max: 4, open: 2, stale: 0 });
  const late = workNudge(seen(), "wake", nudgeFacts({ limits: limits({ maxMinutes: 30 }), spend: { tokens: 0, cost: 0, minutes: 31 } }));
  assert.ok(late.kind === "stop" && late.memory.pending?.reason.kind === "limit");
  const unreachable = workNudge(memory(), "wake", nudgeFacts({ tools: { active: ["read"], registered: [] } }));
  assert.ok(unreachable.kind === "stop");
  assert.deepEqual(unreachable.memory.pending, { reason: { kind: "out-of-reach", tool: "todo", open: 2 }, open: 2, level: "warning" });
  assert.equal(unreachable.memory.hadWork, true, "the stop is announced: the message had work");
  const record = settle(unreachable.memory, false, describeReason).record;
  assert.equal(record?.kind, "out-of-reach");
});

test("headless hold: it gives up at the run's maxMinutes with the time-limit stop; without a limit there is no deadline", () => {
  assert.equal(holdDeadline(1_000, 2), 121_000);
  assert.equal(holdDeadline(undefined, 2), null);
  assert.equal(holdDeadline(1_000, null), null);
  assert.equal(holdDeadline(Number.NaN, 2), null);
  const stopped = workHoldLimit(memory(), limits({ maxMinutes: 2 }), { tokens: 0, cost: 0, minutes: 2.5 }, LIST);
  const reason = { kind: "limit", limit: "maxMinutes", used: 2.5, max: 2, open: 2, stale: 0 };
  assert.deepEqual(stopped?.pending, { reason, open: 2, level: "warning" });
  assert.deepEqual(stopped?.last, reason);
  assert.equal(stopped?.hadWork, true);
  assert.equal(workHoldLimit(seen(), limits({ maxMinutes: 2 }), { tokens: 0, cost: 0, minutes: 3 }, { kind: "none", why: "emptied" }), undefined);
  assert.equal(workHoldLimit(seen(), limits({ maxMinutes: 2 }), { tokens: 0, cost: 0, minutes: 1 }, LIST), undefined);
  assert.equal(workHoldLimit(seen(), limits({ maxMinutes: 2 }), { tokens: 0, cost: 0, minutes: 3 }, CLEAR), undefined);
});

test("config §8 checkInMinutes: default 30, 0 turns check-ins off, fractions allowed, ceiling 1440; a wrong value is a problem and the default applies", () => {
  assert.equal(DEFAULT_CONFIG.checkInMinutes, 30);
  assert.deepEqual(parseConfig({ checkInMinutes: 0 }), { config: { ...DEFAULT_CONFIG, checkInMinutes: 0 }, problems: [] });
  assert.equal(parseConfig({ checkInMinutes: 0.02 }).config.checkInMinutes, 0.02);
  assert.deepEqual(parseConfig({ checkInMinutes: 5000 }), { config: { ...DEFAULT_CONFIG, checkInMinutes: 1440 }, problems: ["checkInMinutes 5000 is above the ceiling 1440; using 1440"] });
  for (const [value, got] of [[-1, "-1"], ["10", 'the string "10"'], [null, "null"], [Number.NaN, "NaN"]] as const) {
    assert.deepEqual(parseConfig({ checkInMinutes: value }), {
      config: DEFAULT_CONFIG,
      problems: [`checkInMinutes must be a number of minutes from 0 (no check-ins) to 1440 (got ${got}); using 30`],
    });
  }
});

test("decide §4.17 (0.5): a work result message due at this settle (a source that holds it until the agent settles) runs next: no marker, no round, no stop", () => {
  const before = seen({ round: 2, stuck: 1, fp: "f1" });
  const decision = run(input({ memory: before, work: { inFlight: 0, resultDue: true } }));
  waiting(decision);
  assert.deepEqual(decision.memory.last, { kind: "queued" });
  assert.equal(decision.memory.round, before.round);
  assert.equal(describeReason({ kind: "queued" }), "not continuing: a queued message runs next");
  // Work still in flight waits on it as before; another extension's continuation and a question go first.
  assert.deepEqual(run(input({ memory: seen(), work: { inFlight: 1, resultDue: true } })).memory.last, { kind: "waiting-work", jobs: 1, open: 2 });
  assert.deepEqual(run(input({ memory: seen(), work: { inFlight: 0, resultDue: true }, otherContinued: true })).memory.last, { kind: "other-extension" });
  assert.equal(run(input({ memory: seen(), work: { inFlight: 0, resultDue: true }, turn: settleTurn({ question: "Shall I deploy?" }) })).memory.pending?.reason.kind, "waiting");
  // Nothing due: the loop continues; a clear list has nothing to continue for.
  assert.equal(run(input({ memory: seen(), work: { inFlight: 0 } })).continue, true);
  assert.equal(run(input({ memory: seen(), list: CLEAR, work: { inFlight: 0, resultDue: true } })).continue, false);
});
