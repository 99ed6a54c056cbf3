/**
 * What the branch reader and the loop's records know about verification (SPEC §4.14, §4.16): the work
 * done since the anchor (a verification runs again only after work), the newest verification marker's
 * run (reload-safe), the verify fields of stop records, and the stop kinds of verification reasons.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { align, freshMemory, NO_EARLIER, settle, stopKind } from "../../src/loop.ts";
import type { BranchFacts, Memory, Reason } from "../../src/core/types.ts";
import { readSnapshot } from "../../src/state.ts";
import { describeReason } from "../../src/core/text.ts";
import { assistant, chain, control, customMessage, marker, stopRecord, task, todoResult, toolResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";

function verifyMarker(details: Record<string, unknown>, content: unknown = "The todo list is clear, but…\n\n````text\nboom ``` x\n````\n\nThe user's latest instruction outranks this reminder."): Entry {
  return { ...marker({ round: 1, anchor: "u1", idle: 0 }), content, details: { v: 1, round: 1, anchor: "u1", open: 0, total: 1, cap: null, hint: false, idle: 0, stale: 0, ...details } };
}

const OPEN = todoResult({ tasks: [task({ id: 1 })], id: "t1" });
const DONE = todoResult({ tasks: [task({ id: 1, status: "completed" })], action: "update", id: "t2" });

test("reader work: every tool result but read, grep, find, ls and todo_loop_block counts; a todo result counts only when it changed the list", () => {
  const reads = ["read", "grep", "find", "ls", "todo_loop_block"].map((name) => toolResult(name, {}));
  assert.equal(readSnapshot(chain(user("go", { id: "u1" }), assistant(), ...reads)).work, 0);
  assert.equal(readSnapshot(chain(user("go", { id: "u1" }), assistant(), toolResult("bash", {}), toolResult("edit", {}), toolResult("other_ext", {}))).work, 3);
  const listed = todoResult({ tasks: [task({ id: 1 })], action: "list", id: "t3" });
  assert.equal(readSnapshot(chain(user("go", { id: "u1" }), assistant(), OPEN, assistant(), listed)).work, 1, "the first list is a change, reading it again is not");
  assert.equal(readSnapshot(chain(user("go", { id: "u1" }), assistant(), OPEN, assistant(), DONE)).work, 2);
  assert.equal(readSnapshot(chain(user("go", { id: "u1" }), toolResult("bash", {}), user("again", { id: "u2" }), assistant())).work, 0, "a new message starts at 0");
  assert.equal(readSnapshot(chain(user("go", { id: "u1" }), { type: "message", message: { role: "toolResult" } })).work, 1, "a result without a tool name is work");
});

test("reader verify: the newest verification marker's run, exit, seconds, command and fenced output, and the work it saw", () => {
  const snapshot = readSnapshot(chain(user("go", { id: "u1" }), assistant(), OPEN, assistant(), DONE, verifyMarker({ verify: { command: "npm test", exit: 2, seconds: 4.5, run: 2 } })));
  assert.deepEqual(snapshot.verify, { command: "npm test", runs: 2, exit: 2, seconds: 4.5, output: "````text\nboom ``` x\n````", workAt: 2 });
  const later = readSnapshot(chain(user("go", { id: "u1" }), verifyMarker({ verify: { command: "a", exit: 1, seconds: 1, run: 1 } }), toolResult("bash", {}), marker({ round: 2, anchor: "u1" })));
  assert.equal(later.verify?.command, "a", "an ordinary marker keeps the last verification run");
  assert.equal(later.verify?.workAt, 0);
  assert.equal(later.work, 1);
});

test("reader verify: malformed details.verify are ignored; a content without a fence gives '(no output)'; odd seconds read as 0", () => {
  const read = (verify: unknown, content?: unknown) => readSnapshot(chain(user("go", { id: "u1" }), verifyMarker({ verify }, content))).verify;
  assert.equal(read("npm test"), undefined);
  assert.equal(read({ command: 5, exit: 1, run: 1 }), undefined);
  assert.equal(read({ command: "x", exit: 1 }), undefined, "no run");
  assert.equal(read({ command: "x", exit: 1.5, run: 1 }), undefined, "a fractional exit");
  assert.equal(read({ command: "x", exit: "1", run: 1 }), undefined);
  assert.equal(read({ command: "x", exit: 1, run: -1 }), undefined);
  assert.equal(read({ command: "x", exit: 1, run: 1, seconds: -3 })?.seconds, 0);
  assert.equal(read({ command: "x", exit: 1, run: 1, seconds: Number.NaN })?.seconds, 0);
  assert.equal(read({ command: "x", exit: 1, run: 1, seconds: "9" })?.seconds, 0);
  assert.equal(read({ command: "x", exit: 0, run: 0, seconds: 0 })?.exit, 0);
  assert.equal(read({ command: "x", exit: 1, run: 1 }, ["not a string"])?.output, "```text\n(no output)\n```");
  assert.equal(read({ command: "x", exit: 1, run: 1 }, "no fence here")?.output, "```text\n(no output)\n```");
  assert.equal(read({ command: "x", exit: 1, run: 1 }, "a\n```text\nout\n```\nb")?.output, "```text\nout\n```");
});

test("reader verify: a new human message and /todoloop reset clear the run; resume and pause do not", () => {
  const base = [user("go", { id: "u1" }), verifyMarker({ verify: { command: "x", exit: 1, seconds: 1, run: 1 } })];
  assert.equal(readSnapshot(chain(...base, user("next", { id: "u2" }))).verify, undefined);
  assert.equal(readSnapshot(chain(...base, control("reset"))).verify, undefined);
  assert.equal(readSnapshot(chain(...base, control("resume"))).verify?.runs, 1);
  assert.equal(readSnapshot(chain(...base, control("pause"))).verify?.runs, 1);
  assert.equal(readSnapshot(chain(...base, customMessage())).verify?.runs, 1);
});

test("reader: verify-failed and verify-error stop records are known kinds (one stop each between continuations)", () => {
  const snapshot = readSnapshot(chain(user("go", { id: "u1" }), stopRecord({ reason: "stopped: x", anchor: "u1", kind: "verify-failed" }), stopRecord({ reason: "stopped: y", anchor: "u1", kind: "verify-error" })));
  assert.deepEqual(snapshot.announced, ["verify-failed", "verify-error"]);
  for (const kind of ["stuck", "repeat", "earlier"]) {
    assert.deepEqual(readSnapshot(chain(user("go", { id: "u1" }), stopRecord({ reason: "r", anchor: "u1", kind }))).announced, [kind]);
  }
});

const branch = (overrides: Partial<BranchFacts> = {}): BranchFacts => ({
  anchor: "u1", round: 0, idle: 0, stale: 0, signature: undefined, waiting: undefined, paused: false, hadWork: true, announced: [], earlier: NO_EARLIER, stuck: 0, fp: undefined, repeats: 0, ...overrides,
});
const memo = (workAt: number) => ({ command: "x", runs: 1, exit: 1, seconds: 1, output: "o", workAt });

test("align: the process's verification run wins for the same anchor unless the branch holds one seen after more work", () => {
  const mine: Memory = { ...freshMemory("u1"), verify: memo(3) };
  assert.equal(align(mine, branch({ verify: memo(2) }), true).verify?.workAt, 3, "a branch switch keeps the newer run of this process");
  assert.equal(align(mine, branch({ verify: memo(5) }), true).verify?.workAt, 5);
  assert.equal(align(mine, branch({ verify: { ...memo(3), command: "branch" } }), true).verify?.command, "x", "equal work: the process's own run");
  assert.equal(align(mine, branch(), true).verify?.workAt, 3);
  assert.equal(align({ ...freshMemory("u0"), verify: memo(9) }, branch({ verify: memo(1) }), false).verify?.workAt, 1, "another anchor: the branch's");
  assert.equal(align({ ...freshMemory("u0"), verify: memo(9) }, branch(), false).verify, undefined);
  assert.equal("verify" in align(undefined, branch(), false), false, "no key when there is no run");
  assert.equal(align(undefined, branch({ verify: memo(4) }), false).verify?.workAt, 4);
});

test("stopKind and settle: a verified stop keeps clear or no-list and records verify; a failure records verify with run and its limit", () => {
  const pendingOf = (reason: Reason): Memory => ({ ...freshMemory("u1"), hadWork: true, round: 2, pending: { reason, open: 0, level: "warning" } });
  const verified: Reason = { kind: "verified", base: "clear", command: "npm test", seconds: 41 };
  assert.equal(stopKind(verified), "clear");
  assert.equal(stopKind({ ...verified, base: "emptied" }), "no-list");
  assert.deepEqual(settle(pendingOf(verified), false, describeReason).record, { v: 1, kind: "clear", reason: "stopped: list is clear · npm test passed (41 s)", round: 2, open: 0, anchor: "u1", verify: { command: "npm test", exit: 0, seconds: 41 } });
  const limited: Reason = { kind: "verify-failed", command: "npm test", exit: 1, seconds: 3, runs: 2, why: "limit", limit: { limit: "maxCost", used: 2, max: 1 } };
  const record = settle(pendingOf(limited), false, describeReason).record;
  assert.equal(record?.kind, "verify-failed");
  assert.equal(record?.limit, "maxCost");
  assert.deepEqual(record?.verify, { command: "npm test", exit: 1, seconds: 3, run: 2 });
  const plain = settle(pendingOf({ ...limited, why: "runs", limit: undefined }), false, describeReason);
  assert.equal("limit" in (plain.record ?? {}), false);
  assert.deepEqual(plain.memory.announced, ["verify-failed"]);
  const error: Reason = { kind: "verify-error", command: "x", why: "timeout", detail: "10", base: "clear" };
  assert.equal(stopKind(error), "verify-error");
  assert.equal("verify" in (settle(pendingOf(error), false, describeReason).record ?? {}), false);
  assert.equal(stopKind({ kind: "verify-continuing", command: "x", exit: 1, seconds: 1, round: 1, maxRounds: null }), undefined);
  assert.deepEqual(settle(pendingOf(error), false, describeReason).notice, { kind: "stop", reason: error, level: "warning" });
});
