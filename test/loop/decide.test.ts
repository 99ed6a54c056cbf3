/**
 * decide() and settle() beyond the table (src/loop.ts): warnings at tool turns, provider retries, the
 * hint and the stale warning, the stop record and when a stop is announced; align() bringing the memory
 * to the branch; and the guards of the decision (what a new message resets, what each stop carries).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { DecideInput, ListState } from "../../src/core/types.ts";
import { align, applyBlock, applyCommand, freshMemory, settle, toolReachable, stopKey } from "../../src/loop.ts";
import { describeReason } from "../../src/core/text.ts";
import { ANCHOR, LIST, CLEAR, EMPTIED, memory, seen, branch, settleTurn, toolTurn, limits, input, run, ended, noticeName, facts } from "./facts.ts";

test("decide: §4.13 an emptied list is its own event: the warning at the tool turn, then the no-list stop when the run ends", () => {
  const afterTools = run(input({ memory: seen(), turn: toolTurn({ calls: ["delete"], vanished: ["Ship it"] }), list: EMPTIED }));
  assert.deepEqual(afterTools.notices.map(noticeName), ["emptied:delete"]);
  const emptied = afterTools.notices[0];
  assert.ok(emptied?.kind === "emptied" && emptied.how === "delete");
  assert.equal(emptied.count, 1);
  assert.deepEqual(emptied.texts, ["Ship it"]);
  const settled = run(input({ memory: afterTools.memory, list: EMPTIED }));
  assert.equal(settled.continue, false);
  assert.deepEqual(settled.notices, []);
  const end = ended(settled);
  assert.equal(end.record?.reason, "stopped: no list (the list was emptied: its tasks were deleted or cleared)");
  assert.equal(end.record?.kind, "no-list");
  assert.equal(end.notice?.kind, "stop");
});

test("decide: §4.3 a delete warning counts the deleted tasks even when their texts are unknown", () => {
  const decision = run(input({ memory: seen(), turn: toolTurn({ calls: ["delete", "delete", "delete"], vanished: [] }), list: EMPTIED }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "emptied" && notice.how === "delete");
  assert.equal(notice.count, 3);
});

test("decide: §4.3 an errored tool turn with no open task, or before any list, announces nothing", () => {
  for (const list of [CLEAR, EMPTIED, { kind: "none", why: "no-tool" } as const]) {
    for (const mem of [memory(), seen()]) {
      const decision = run(input({ memory: mem, list, turn: toolTurn({ outcome: "error" }) }));
      assert.equal(decision.memory.pending, undefined, JSON.stringify(list));
      assert.equal(decision.memory.last.kind, "outcome");
    }
  }
});

test("decide: §4.4 a provider retry under the same message gets no fresh budget", () => {
  const capped = limits({ maxRounds: 2 });
  let state = run(input({ memory: memory(), limits: capped }));
  state = run(input({ memory: state.memory, limits: capped, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.memory.round, 2);
  state = run(input({ memory: state.memory, limits: capped, turn: settleTurn({ outcome: "error" }) }));
  assert.equal(state.memory.round, 2);
  const retry = run(input({ memory: state.memory, limits: capped, list: { ...LIST, signature: "sig-c" } }));
  assert.equal(retry.continue, false);
  assert.equal(retry.memory.last.kind, "limit");
});

test("decide: §4.13 a provider error that pi retries is never announced: the next turn replaces the pending stop", () => {
  const error = run(input({ memory: seen({ round: 1 }), turn: settleTurn({ outcome: "error" }) }));
  assert.equal(error.memory.pending?.reason.kind, "outcome");
  const retried = run(input({ memory: error.memory, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(retried.continue, true);
  assert.equal(retried.memory.pending, undefined);
  const end = ended(retried);
  assert.equal(end.record, undefined);
  assert.equal(end.notice, undefined);
});

test("decide: §4.13 a retry that fails for good is announced once, with the round it reached", () => {
  let state = run(input({ memory: seen({ round: 2 }), turn: settleTurn({ outcome: "error" }) }));
  state = run(input({ memory: state.memory, turn: settleTurn({ outcome: "error" }) }));
  const end = ended(state);
  assert.deepEqual(end.record, { v: 1, kind: "outcome", reason: "stopped: turn outcome was error", round: 2, open: 2, anchor: ANCHOR });
  assert.equal(end.notice?.kind === "stop" && end.notice.level, "warning");
  assert.equal(ended({ ...state, memory: end.memory }).record, undefined, "settling again records nothing");
});

test("decide: §4.13 a run another extension continued, or a queued message carried on, announces no stop", () => {
  const error = run(input({ memory: seen(), turn: settleTurn({ outcome: "error" }) }));
  for (const next of [input({ memory: error.memory, otherContinued: true }), input({ memory: error.memory, pendingMessages: true })]) {
    const decision = run(next);
    assert.equal(decision.memory.pending, undefined);
    assert.equal(ended(decision).record, undefined);
  }
});

test("decide: §4.9 after a tool turn starts a new run of settles the hint is due again", () => {
  let state = run(input({ memory: memory() }));
  assert.equal(state.marker?.hint, false);
  state = run(input({ memory: state.memory }));
  assert.equal(state.marker?.hint, true, "second settle without progress");
  state = run(input({ memory: state.memory }));
  assert.equal(state.marker?.hint, false, "once per run");
  state = run(input({ memory: state.memory, turn: toolTurn() }));
  state = run(input({ memory: state.memory }));
  assert.equal(state.marker?.hint, false, "first settle of the new run");
  state = run(input({ memory: state.memory }));
  assert.equal(state.marker?.hint, true, "second settle of the new run");
});

test("decide: §4.9 tool turns do not clear staleSettles; only a changed list does", () => {
  let state = run(input({ memory: memory() }));
  state = run(input({ memory: state.memory }));
  state = run(input({ memory: state.memory, turn: toolTurn() }));
  state = run(input({ memory: state.memory }));
  assert.equal(state.memory.staleSettles, 2);
  state = run(input({ memory: state.memory, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.memory.staleSettles, 0);
});

test("decide: §4.12 the first stale warning comes on the tenth unchanged reply after the list last changed", () => {
  let state = run(input({ memory: memory() }));
  const warnedAt: number[] = [];
  for (let reply = 1; reply <= 25; reply++) {
    state = run(input({ memory: state.memory }));
    assert.equal(state.continue, true);
    if (state.notices.some((notice) => notice.kind === "stale")) warnedAt.push(reply);
  }
  assert.deepEqual(warnedAt, [10, 20]);
});

test("decide: §4.12 with a round limit the stale warning says how many continuations remain", () => {
  const decision = run(input({ memory: seen({ staleSettles: 9, round: 10 }), limits: limits({ maxRounds: 50 }) }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "stale");
  assert.equal(notice.replies, 10);
  assert.equal(notice.open, 2);
  assert.equal(notice.roundsLeft, 39);
  assert.deepEqual(notice.limits, limits({ maxRounds: 50 }));
});

test("decide: §4.12 without a round limit the stale warning names no remaining count", () => {
  const decision = run(input({ memory: seen({ staleSettles: 9 }), limits: limits({ maxTokens: 5000 }) }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "stale");
  assert.equal(notice.roundsLeft, null);
});

test("decide: §4.13 the stop record carries v, kind, reason, round, open and anchor; a limit adds which", () => {
  const error = ended(run(input({ memory: seen({ round: 3 }), turn: settleTurn({ outcome: "error" }) })));
  assert.deepEqual(error.record, { v: 1, kind: "outcome", reason: "stopped: turn outcome was error", round: 3, open: 2, anchor: ANCHOR });
  const limit = ended(run(input({ memory: seen({ round: 3 }), limits: limits({ maxRounds: 3 }) })));
  assert.equal(limit.record?.kind, "limit");
  assert.equal(limit.record?.limit, "maxRounds");
});

test("decide: §4.13 a stop is recorded once per kind over a sequence of settles, even when its figures change", () => {
  const capped = limits({ maxTokens: 100 });
  let state = run(input({ memory: seen(), limits: capped, spend: { tokens: 100, cost: 0, minutes: undefined } }));
  let end = ended(state);
  assert.match(end.record?.reason ?? "", /100 of 100 tokens/);
  let records = 0;
  let notices = 0;
  for (let index = 0; index < 3; index++) {
    state = run(input({ memory: end.memory, limits: capped, spend: { tokens: 200 + index, cost: 0, minutes: undefined } }));
    end = ended(state);
    if (end.record) records += 1;
    if (end.notice) notices += 1;
  }
  assert.equal(records, 0);
  assert.equal(notices, 0);
});

test("decide: §4.13 after the loop continued again under the same message, a later stop of the same kind is a new one", () => {
  let state = run(input({ memory: seen(), list: CLEAR }));
  let end = ended(state);
  assert.equal(end.record?.kind, "clear");
  state = run(input({ memory: end.memory, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.continue, true);
  end = ended(state);
  state = run(input({ memory: end.memory, list: CLEAR }));
  end = ended(state);
  assert.equal(end.record?.kind, "clear");
  assert.equal(end.notice?.kind, "stop");
});

test("decide: §4.13 with the transcript shown the stop is recorded but not notified", () => {
  const end = ended(run(input({ memory: seen(), list: CLEAR })), true);
  assert.equal(end.record?.reason, "stopped: list is clear");
  assert.equal(end.notice, undefined);
});

test("decide: §4.13 a list with an open task at some point under this message makes a later stop announced", () => {
  const first = run(input({ memory: memory() }));
  assert.equal(first.memory.hadWork, true);
  const later = run(input({ memory: first.memory, list: { kind: "none", why: "unreadable" } }));
  assert.equal(ended(later).record?.reason, "stopped: no list (todo results are in a shape this extension does not read)");
});

test("decide: §4.13 a list that was already clear when the message arrived announces nothing (plain chat after a finished list)", () => {
  for (let index = 0; index < 3; index++) {
    const decision = run(input({ memory: undefined, branch: branch({ anchor: `u${index + 5}`, hadWork: false }), list: CLEAR }));
    assert.equal(decision.memory.pending, undefined);
    assert.equal(ended(decision).record, undefined);
  }
});

test("settle: with no pending stop nothing is recorded or announced", () => {
  const end = settle(seen(), false, describeReason);
  assert.equal(end.record, undefined);
  assert.equal(end.notice, undefined);
});

test("decide never continues without a list that has open tasks", () => {
  const lists: ListState[] = [
    CLEAR,
    EMPTIED,
    { kind: "none", why: "no-tool" },
    { kind: "none", why: "unused" },
    { kind: "none", why: "unreadable" },
    { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" },
    { kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" },
    { kind: "planning", source: "plan-mode" },
  ];
  for (const list of lists) {
    for (const mem of [undefined, memory(), seen({ settleRun: 1 })]) {
      const decision = run(input({ memory: mem, list }));
      assert.equal(decision.continue, false);
      assert.equal(decision.marker, undefined);
    }
  }
});

// ---- align ----------------------------------------------------------------------------------------

test("align: the memory for the same anchor on the same branch is kept as it is", () => {
  const mem = seen({ round: 3, staleSettles: 2 });
  assert.equal(align(mem, branch({ round: 9 }), false), mem);
});

test("align: a new anchor takes every counter, the wait and the pause from the branch", () => {
  const aligned = align(seen({ anchor: "u0", round: 3, staleSettles: 2, settleRun: 2, paused: true, waiting: { reason: "x", asked: false } }), branch({ anchor: "u2" }), false);
  assert.deepEqual(aligned, freshMemory("u2", false));
});

test("align: with no memory, counters, wait, pause, hadWork and the stops announced come from the branch", () => {
  const facts = branch({ round: 4, idle: 2, stale: 3, signature: "sig-a", waiting: { reason: "which one?", asked: true }, paused: true, hadWork: true, announced: ["clear"], stuck: 3, fp: "fp-x", repeats: 2 });
  const aligned = align(undefined, facts, false);
  assert.deepEqual(aligned, {
    anchor: ANCHOR,
    round: 4,
    settleRun: 2,
    staleSettles: 3,
    signature: "sig-a",
    waiting: { reason: "which one?", asked: true },
    paused: true,
    hadWork: true,
    announced: ["clear"],
    pending: undefined,
    last: { kind: "none" },
    adopted: false,
    carried: false,
    queued: false,
    stuck: 3,
    fp: "fp-x",
    repeats: 2,
  });
});

test("align: after a branch switch everything is the branch's; the last reason stays for the same anchor", () => {
  const aligned = align(seen({ round: 7, paused: true, last: { kind: "paused" } }), branch({ round: 2 }), true);
  assert.equal(aligned.round, 2);
  assert.equal(aligned.paused, false, "the new branch has no pause");
  assert.equal(aligned.last.kind, "paused");
  assert.equal(aligned.signature, undefined);
});

// ---- guards of the decision: what a new message resets, what each stop and notice carries -----------

test("align: a new anchor starts with no last reason, whatever the previous message's was", () => {
  const stopped = seen({ anchor: "u0", last: { kind: "clear" } });
  assert.deepEqual(align(stopped, branch({ anchor: "u2" }), false).last, { kind: "none" });
  assert.deepEqual(align(stopped, branch({ anchor: "u2" }), true).last, { kind: "none" }, "also after a branch switch");
});

test("decide: §4.3 a delete warning counts the tasks that vanished when one call deleted several", () => {
  const decision = run(input({ memory: seen(), turn: toolTurn({ calls: ["delete"], vanished: ["a", "b", "c"] }), list: EMPTIED }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "emptied" && notice.how === "delete");
  assert.equal(notice.count, 3);
  assert.deepEqual(notice.texts, ["a", "b", "c"]);
});

test("decide: §4.6 an out-of-date list with open tasks is work: its stop is recorded with the older list's open count", () => {
  const stale: ListState = { kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" };
  const decision = run(input({ memory: memory(), list: stale }));
  assert.equal(decision.memory.hadWork, true);
  const end = ended(decision);
  assert.equal(end.record?.open, 2);
  assert.deepEqual(end.notice && noticeName(end.notice), "stop:warning");
});

test("decide: every stop but a clear list is announced as a warning (no list, out of date, out of reach, a question rebuilt from the branch)", () => {
  const cases: DecideInput[] = [
    input({ memory: seen(), list: EMPTIED }),
    input({ memory: seen(), list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } }),
    input({ memory: seen(), tools: { active: ["read"], registered: [] } }),
    input({ memory: seen({ waiting: { reason: "Which one?", asked: true } }) }),
  ];
  for (const given of cases) {
    const end = ended(run(given));
    assert.equal(end.notice?.kind === "stop" ? end.notice.level : "none", "warning", end.record?.reason);
  }
  const clear = ended(run(input({ memory: seen(), list: CLEAR })));
  assert.equal(clear.notice?.kind === "stop" ? clear.notice.level : "none", "info");
});

test("toolReachable: the exposure that counts is the named tool's, not another registered tool's", () => {
  const registered = [
    { name: "read", exposure: "codemode" },
    { name: "todo", exposure: "direct" },
  ];
  assert.equal(toolReachable("todo", { active: ["codemode"], registered }), false);
  assert.equal(toolReachable("todo", { active: ["codemode"], registered: [...registered].reverse() }), false);
});

test("stopKey: a limit stop is keyed by which limit when known; every other stop by its kind alone", () => {
  assert.equal(stopKey("limit", "maxRounds"), "limit:maxRounds");
  assert.equal(stopKey("limit"), "limit");
  assert.equal(stopKey("clear", "maxRounds"), "clear");
  assert.equal(stopKey("question"), "question");
});

test("applyBlock: the block is the last reason, with its reason", () => {
  assert.deepEqual(applyBlock(seen(), "which region?").memory.last, { kind: "waiting", reason: "which region?", asked: false });
});

test("applyCommand: resume and continue lift a question wait too, so the next question is announced again", () => {
  for (const command of ["resume", "continue"] as const) {
    const asked = seen({ waiting: { reason: "Which one?", asked: true }, announced: ["question", "waiting", "clear"] });
    const lifted = applyCommand(asked, command, facts({ idle: false }));
    assert.deepEqual(lifted.memory.announced, ["clear"], command);
  }
});

test("applyCommand: continue that cannot start says why (kill switch, nothing open)", () => {
  assert.deepEqual(applyCommand(seen(), "continue", facts({ killSwitch: true })).reply, { kind: "cannot-continue", why: "kill-switch" });
  assert.deepEqual(applyCommand(seen(), "continue", facts({ list: CLEAR })).reply, { kind: "cannot-continue", why: "nothing-open" });
});

test("applyCommand: a continue that starts a run is work for this message, and its nudge carries no hint", () => {
  const started = applyCommand(memory({ hadWork: false }), "continue", facts());
  assert.equal(started.memory.hadWork, true);
  assert.equal(started.marker?.hint, false);
});

test("decide: the memory says the run is ending only at a settle that does not continue", () => {
  const goesOn = run(input({ memory: seen() }));
  assert.equal(goesOn.continue, true);
  assert.equal(goesOn.memory.ending, false, "a settle that continues");
  const stops = run(input({ memory: seen(), list: CLEAR }));
  assert.equal(stops.continue, false);
  assert.equal(stops.memory.ending, true, "a settle that stops");
  for (const list of [LIST, CLEAR]) {
    const working = run(input({ memory: seen(), list, turn: toolTurn() }));
    assert.equal(working.continue, false);
    assert.equal(working.memory.ending, false, `a turn with tool results (${list.open} open)`);
  }
});
