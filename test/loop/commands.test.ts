/**
 * The rules of `/todoloop` and `todo_loop_block` (src/loop.ts, SPEC §7): applyCommand(), applyBlock(),
 * parseCommand(), and a continue that arrives while a run winds down (honourKept()).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Reason } from "../../src/core/types.ts";
import { align, applyBlock, applyCommand, COMMANDS, freshMemory, honourKept, parseCommand, settle } from "../../src/loop.ts";
import { describeReason } from "../../src/core/text.ts";
import { ANCHOR, LIST, CLEAR, EMPTIED, NO_LIMITS, seen, branch, limits, input, run, ended, facts } from "./facts.ts";

// ---- /todoloop and the block tool -----------------------------------------------------------------

test("applyCommand: pause stops continuing, keeps the counters and is recorded", () => {
  const result = applyCommand(seen({ round: 3 }), "pause", facts());
  assert.equal(result.memory.paused, true);
  assert.equal(result.memory.round, 3);
  assert.equal(result.reply.kind, "paused");
  assert.equal(result.record, true);
  assert.equal(result.marker, undefined);
});

test("applyCommand: a pause drops the stop the run would have ended with", () => {
  const result = applyCommand(seen({ pending: { reason: { kind: "clear" }, open: 0, level: "info" } }), "pause", facts());
  assert.equal(result.memory.pending, undefined);
});

test("applyCommand: resume lifts the pause and clears waiting", () => {
  const result = applyCommand(seen({ paused: true, waiting: { reason: "need a key", asked: false }, round: 3 }), "resume", facts());
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.waiting, undefined);
  assert.equal(result.memory.round, 3);
  assert.equal(result.reply.kind, "resumed");
  assert.equal(result.record, true);
});

test("applyCommand: reset clears counters, signature, waiting and the stops announced, and keeps the anchor, pause and hadWork", () => {
  const result = applyCommand(
    seen({ round: 5, staleSettles: 4, settleRun: 2, waiting: { reason: "x", asked: false }, paused: true, announced: ["clear"] }),
    "reset",
    facts(),
  );
  assert.deepEqual(result.memory, { ...freshMemory(ANCHOR, true), hadWork: true, last: { kind: "reset" } });
  assert.equal(result.record, true);
});

test("applyCommand: status changes nothing and records nothing", () => {
  const mem = seen({ round: 2 });
  const result = applyCommand(mem, "status", facts());
  assert.equal(result.memory, mem);
  assert.equal(result.record, false);
});

test("applyCommand: continue with open tasks and an idle agent lifts pause and wait and starts one run: one marker, one more round", () => {
  const result = applyCommand(seen({ round: 3, paused: true, waiting: { reason: "x", asked: true }, announced: ["limit:maxRounds"] }), "continue", facts({ limits: limits({ maxRounds: 3 }) }));
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.waiting, undefined);
  assert.equal(result.memory.round, 4);
  assert.deepEqual(result.memory.announced, []);
  assert.deepEqual(result.reply, { kind: "requested", started: true });
  assert.equal(result.record, true);
  assert.equal(result.marker?.round, 4);
  assert.equal(result.marker?.anchor, ANCHOR);
  assert.equal(result.marker?.cap, 3);
});

test("applyCommand: continue past a maxRounds stop gives exactly one more run, then the limit stops again and is announced again", () => {
  const capped = limits({ maxRounds: 3 });
  const stopped = run(input({ memory: seen({ round: 3 }), limits: capped }));
  const first = ended(stopped);
  assert.equal(first.record?.kind, "limit");
  const resumed = applyCommand(first.memory, "continue", facts({ limits: capped }));
  assert.equal(resumed.marker?.round, 4);
  const after = run(input({ memory: resumed.memory, limits: capped }));
  assert.equal(after.continue, false);
  const again = ended(after);
  assert.equal(again.record?.reason, "stopped: 4 continuations used, 2 tasks still open, no todo change for 2 replies; the agent may need you");
  assert.equal(again.notice?.kind, "stop");
});

test("applyCommand: continue with nothing open, or with a kill switch, says so and changes nothing (a pause stays)", () => {
  const paused = seen({ paused: true });
  for (const given of [facts({ list: CLEAR }), facts({ list: EMPTIED }), facts({ killSwitch: true })]) {
    const result = applyCommand(paused, "continue", given);
    assert.equal(result.memory, paused);
    assert.equal(result.reply.kind, "cannot-continue");
    assert.equal(result.record, false);
    assert.equal(result.marker, undefined);
  }
});

test("applyCommand: continue while the agent is busy only lifts pause and wait", () => {
  const result = applyCommand(seen({ paused: true, round: 2, waiting: { reason: "x", asked: false } }), "continue", facts({ idle: false }));
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.waiting, undefined);
  assert.equal(result.memory.round, 2);
  assert.equal(result.marker, undefined);
  // 0.4: mid-run (this run has not ended on a settle) nothing is kept for later: a second run never follows.
  assert.deepEqual(result.reply, { kind: "requested", started: false, kept: false });
  assert.equal(result.memory.kept, undefined);
});

test("applyBlock: the agent's block makes the loop wait; while paused it changes nothing", () => {
  const blocked = applyBlock(seen(), "need a key");
  assert.equal(blocked.accepted, true);
  assert.deepEqual(blocked.memory.waiting, { reason: "need a key", asked: false });
  const paused = seen({ paused: true });
  assert.deepEqual(applyBlock(paused, "need a key"), { memory: paused, accepted: false });
});

test("parseCommand: empty or missing arguments mean status", () => {
  assert.equal(parseCommand(""), "status");
  assert.equal(parseCommand("   "), "status");
  assert.equal(parseCommand(undefined), "status");
});

test("parseCommand: the five words, any case and surrounding space", () => {
  assert.deepEqual(COMMANDS, ["status", "pause", "resume", "reset", "continue"]);
  assert.equal(parseCommand("status"), "status");
  assert.equal(parseCommand(" PAUSE "), "pause");
  assert.equal(parseCommand("resume"), "resume");
  assert.equal(parseCommand("Reset"), "reset");
  assert.equal(parseCommand("continue"), "continue");
});

test("parseCommand: anything else is unknown", () => {
  assert.equal(parseCommand("stop"), undefined);
  assert.equal(parseCommand("pause now"), undefined);
  assert.equal(parseCommand("--help"), undefined);
});

// ---- a continue that arrives while a run winds down --------------------------------------------------

const WIND_DOWN_STOP = { reason: { kind: "idle", replies: 3, open: 2 } as Reason, open: 2, level: "warning" as const };

test("applyCommand: continue while the agent is busy keeps the consent (the round it came at), lifts a pause and a wait, and keeps the stop the run ends with", () => {
  const memory = seen({ round: 2, paused: true, waiting: { reason: "which one?", asked: true }, pending: WIND_DOWN_STOP });
  const result = applyCommand(memory, "continue", facts({ idle: false }));
  assert.deepEqual(result.reply, { kind: "requested", started: false });
  assert.equal(result.marker, undefined);
  assert.equal(result.record, true);
  assert.equal(result.memory.kept, 2);
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.waiting, undefined);
  assert.deepEqual(result.memory.pending, WIND_DOWN_STOP, "the stop is not lost: it is recorded when pi settles");
});

test("honourKept: pi settled after a kept continue: one marker then, as continue gives when idle, and no second control record", () => {
  const kept = applyCommand(seen({ round: 2, paused: true, ending: true }), "continue", facts({ idle: false })).memory;
  const idleFacts = { list: LIST, limits: NO_LIMITS, killSwitch: false };
  const honoured = honourKept(kept, idleFacts, false);
  assert.ok(honoured);
  assert.deepEqual(honoured.reply, { kind: "requested", started: true });
  assert.equal(honoured.record, false, "the control was recorded when the command came");
  assert.equal(honoured.marker?.round, 3);
  assert.equal(honoured.memory.round, 3);
  assert.equal(honoured.memory.kept, undefined, "one marker: the consent is used up");
  assert.equal(honourKept(honoured.memory, idleFacts, false), undefined, "nothing kept any more");
  const direct = applyCommand(seen({ round: 2, paused: true }), "continue", facts());
  assert.deepEqual(honoured.marker, direct.marker, "the same marker continue sends when the agent is idle");
});

test("honourKept: the stop the run ended with is recorded first (settle), then the kept consent gives its run", () => {
  const kept = applyCommand(seen({ round: 2, pending: WIND_DOWN_STOP }), "continue", facts({ idle: false })).memory;
  const settled = settle(kept, false, describeReason);
  assert.equal(settled.record?.kind, "idle");
  const honoured = honourKept(settled.memory, { list: LIST, limits: NO_LIMITS, killSwitch: false }, false);
  assert.equal(honoured?.marker?.round, 3);
  assert.deepEqual(honoured?.memory.announced, [], "after the new continuation a later stop is a new one");
});

test("honourKept: the consent lapses only for the person's own later word or a loop that already went on: a pause since, an abort, a continuation since", () => {
  const kept = applyCommand(seen({ round: 2, ending: true }), "continue", facts({ idle: false })).memory;
  const rest = { list: LIST, limits: NO_LIMITS, killSwitch: false };
  assert.equal(honourKept(applyCommand(kept, "pause", facts()).memory, rest, false), undefined, "a pause since withdraws it");
  for (const [name, memory, aborted] of [["paused since", { ...kept, paused: true }, false], ["aborted", kept, true], ["continued since", { ...kept, round: 3 }, false]] as const) {
    const result = honourKept(memory, rest, aborted);
    assert.equal(result?.marker, undefined, name);
    assert.equal(result?.memory.kept, undefined, name);
    assert.deepEqual(result?.reply, { kind: "none" }, `${name}: nothing to say`);
  }
  assert.equal(honourKept(freshMemory(ANCHOR), rest, false), undefined, "nothing kept");
});

test("honourKept: with nothing open by the time pi settles it says so rather than lapsing silently; a new message or a branch switch drops the consent", () => {
  const kept = applyCommand(seen({ round: 2, ending: true }), "continue", facts({ idle: false })).memory;
  const result = honourKept(kept, { list: { kind: "list", open: 0, total: 2, signature: "s", source: "rpiv-todo", tool: "todo" }, limits: NO_LIMITS, killSwitch: false }, false);
  assert.deepEqual(result?.reply, { kind: "cannot-continue", why: "nothing-open" });
  assert.equal(result?.marker, undefined);
  assert.equal(align(kept, branch({ anchor: "u2" }), false).kept, undefined, "a new human message outranks it");
  assert.equal(align(kept, branch(), true).kept, undefined, "another branch");
  assert.equal(align(kept, branch(), false).kept, 2, "kept within the run");
});

test("applyCommand: a pause after a kept continue withdraws it; a reset keeps it, counted from the reset", () => {
  const kept = applyCommand(seen({ round: 2, ending: true }), "continue", facts({ idle: false })).memory;
  assert.equal(applyCommand(kept, "pause", facts()).memory.kept, undefined);
  const reset = applyCommand(kept, "reset", facts()).memory;
  assert.equal(reset.kept, 0);
  assert.equal(honourKept(reset, { list: LIST, limits: NO_LIMITS, killSwitch: false }, false)?.marker?.round, 1);
});

test("decide: a continuation after a kept consent uses it up (the loop went on), so pi's settle adds no second marker", () => {
  const kept = applyCommand(seen({ round: 2, ending: true }), "continue", facts({ idle: false })).memory;
  const decision = run(input({ memory: kept, branch: branch({ round: 2 }) }));
  assert.equal(decision.continue, true);
  const honoured = honourKept(decision.memory, { list: LIST, limits: NO_LIMITS, killSwitch: false }, false);
  assert.equal(honoured?.marker, undefined);
});
