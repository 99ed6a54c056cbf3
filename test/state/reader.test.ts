/**
 * The incremental branch reader (src/state.ts): first read, same leaf, appended entries and a /tree move
 * told apart; junk that must never throw; a list made out of date (SPEC §9).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBranchReader, extendSnapshot, listState, openCount, readList, readSnapshot } from "../../src/state.ts";
import { assistant, chain, rpivState, task, todoResult, toolResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { createSession } from "../fake-pi.ts";
import { junk, texts, TWO_OPEN } from "./branches.ts";

// ---- the incremental reader -------------------------------------------------------------------------

test("branch reader: first read, same leaf, appended entries and a /tree move are told apart", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" }), todoResult({ tasks: TWO_OPEN, id: "t1" })));
  const reader = createBranchReader();
  assert.equal(reader.read(session).change, "first");
  assert.equal(reader.read(session).change, "same");
  session.append(assistant({ id: "a2" }));
  const appended = reader.read(session);
  assert.equal(appended.change, "appended");
  assert.equal(appended.snapshot.length, 4);
  session.moveTo("a1");
  session.append(todoResult({ tasks: [task({ id: 1, subject: "Other branch" })], id: "t2" }));
  const switched = reader.read(session);
  assert.equal(switched.change, "switched");
  assert.deepEqual(texts(switched.snapshot.list), ["Other branch"]);
});

test("branch reader: appending entries folds only the new ones (no whole-branch read)", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(session);
  const reads = session.branchReads;
  for (let index = 0; index < 5; index++) {
    session.append(assistant({ usage: { totalTokens: 10 } }));
    reader.read(session);
  }
  assert.equal(session.branchReads, reads);
  assert.equal(reader.read(session).snapshot.tokens, 50);
});

test("branch reader: after /tree navigation the list, anchor and spend are the new branch's", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1", usage: { totalTokens: 5 } })));
  session.append(todoResult({ tasks: TWO_OPEN, id: "t1" }), user("b", { id: "u2" }), assistant({ id: "a2", usage: { totalTokens: 100 } }));
  const reader = createBranchReader();
  assert.equal(reader.read(session).snapshot.anchor, "u2");
  session.moveTo("a1");
  const back = reader.read(session).snapshot;
  assert.equal(back.anchor, "u1");
  assert.equal(back.list, undefined);
  assert.equal(back.tokens, 5);
});

test("reader: a full read folds only from the newest list state at or before the anchor, or from the human message before the anchor when that is older; older entries are only looked at for a pause", () => {
  let typeReads = 0;
  let messageReads = 0;
  const older: Entry = {
    get type() {
      typeReads += 1;
      return "message";
    },
    get message() {
      messageReads += 1;
      return { role: "user", content: "an old message" };
    },
  };
  const branch: unknown[] = [older, user("before", { id: "u8" }), todoResult({ tasks: TWO_OPEN }), user("now", { id: "u9" }), assistant({ usage: { totalTokens: 3 } })];
  const snapshot = readSnapshot(branch);
  assert.equal(messageReads, 0, "entries before the list state are never folded");
  assert.equal(typeReads, 1, "only their type is read, to find the newest pause control");
  assert.equal(snapshot.anchor, "u9");
  assert.equal(openCount(snapshot.list), 2);
  assert.equal(snapshot.hadWork, true);
  assert.equal(snapshot.tokens, 3);
});

test("extendSnapshot folds appended entries onto a previous snapshot", () => {
  const first = readSnapshot(chain(user("a", { id: "u1" }), assistant()));
  const next = extendSnapshot(first, [todoResult({ tasks: TWO_OPEN }), assistant({ usage: { totalTokens: 7 } })]);
  assert.equal(next.length, 4);
  assert.equal(openCount(next.list), 2);
  assert.equal(next.tokens, 7);
});

// ---- junk -------------------------------------------------------------------------------------------

test("junk: the reader never throws on any input and never invents a list", () => {
  const cyclic: Record<string, unknown> = { type: "message" };
  cyclic.message = cyclic;
  cyclic.self = cyclic;
  const loopTasks: unknown[] = [];
  loopTasks.push(loopTasks);
  const inputs: unknown[] = [
    null,
    undefined,
    42,
    "branch",
    {},
    [null, undefined, 0, "x", [], true, Symbol("s"), () => 1],
    [cyclic, cyclic],
    [{ type: "message" }, { type: "message", message: null }, { type: "message", message: { role: 5 } }],
    [{ type: "message", message: { role: "toolResult", toolName: "todo", details: { tasks: loopTasks, nextId: 1 } } }],
    [{ type: "custom", customType: "rpiv-todo-state" }, { type: "custom", customType: "pi-todo-state", data: [] }],
    [{ type: "custom_message", customType: "todo-loop:continue", details: null }],
    [{ type: "custom", customType: "todo-loop:stop", data: { reason: 5 } }],
    [{ type: "message", message: { role: "toolResult", toolName: "todo_loop_block", details: { waiting: true, reason: { x: 1 } } } }],
  ];
  for (const value of inputs) {
    const snapshot = readSnapshot(junk(value));
    assert.equal(snapshot.list, undefined);
    assert.doesNotThrow(() => listState(snapshot, true));
    assert.doesNotThrow(() => extendSnapshot(snapshot, junk(Array.isArray(value) ? value : [value])));
    assert.equal(readList(value), undefined);
  }
});

test("junk: a session manager whose getBranch returns junk reads as an empty branch", () => {
  const reader = createBranchReader();
  const read = reader.read({ getBranch: () => junk("nope") });
  assert.equal(read.snapshot.list, undefined);
  assert.equal(read.snapshot.anchor, "");
});

test("junk: getEntry returning junk falls back to a full read", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(session);
  session.append(todoResult({ tasks: TWO_OPEN, id: "t1" }));
  const read = reader.read({ ...session, getBranch: () => session.getBranch(), getLeafId: () => session.getLeafId(), getEntry: () => "junk" });
  assert.equal(openCount(read.snapshot.list), 2);
});

// ---- out of date (SPEC §9) --------------------------------------------------------------------------

test("out of date: an unknown status in a newer rpiv-todo result after a readable list makes the list out of date, never the older list", () => {
  const snapshot = readSnapshot(
    chain(user("a", { id: "u1" }), todoResult({ tasks: TWO_OPEN }), assistant(), todoResult({ tasks: [task({ id: 1, status: "failed" }), task({ id: 2 })] }), assistant()),
  );
  assert.equal(snapshot.outOfDate, "unreadable");
  const state = listState(snapshot, true);
  assert.deepEqual(state, { kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" });
});

test("out of date: an unreadable entry of the list's own state type does the same; another source's entry does not", () => {
  const own = readSnapshot(chain(user(), rpivState(TWO_OPEN), assistant(), rpivState([task({ id: 1, status: "blocked" })]), assistant()));
  assert.equal(own.outOfDate, "unreadable");
  const foreign = readSnapshot(chain(user(), rpivState(TWO_OPEN), assistant(), { type: "custom", customType: "pi-todo-state", data: { nextId: 1, tasks: [{ id: 1, title: "x", status: "weird" }] } }, assistant()));
  assert.equal(foreign.outOfDate, undefined);
  assert.equal(openCount(foreign.list), 2);
});

test("out of date: a rejected call of the list's tool is no state and leaves the list as it was", () => {
  const snapshot = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), toolResult("todo", { action: "update", error: "#9 not found", tasks: [], nextId: 3 }), assistant()));
  assert.equal(snapshot.outOfDate, undefined);
  assert.equal(openCount(snapshot.list), 2);
});

test("out of date: a codemode result that names the list's tool, or says its calls are incomplete, makes it out of date; the next readable state ends it", () => {
  const codemode = (calls: unknown[], complete: boolean) => ({
    type: "message",
    message: { role: "toolResult", toolName: "codemode", content: [], details: {}, isError: false, nestedCalls: { calls, complete } },
  });
  const named = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), codemode([{ id: "c1", name: "todo", status: "done" }], true), assistant()));
  assert.equal(named.outOfDate, "codemode");
  const incomplete = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), codemode([{ id: "c1", name: "read", status: "done" }], false), assistant()));
  assert.equal(incomplete.outOfDate, "codemode");
  const other = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), codemode([{ id: "c1", name: "read", status: "done" }], true), assistant()));
  assert.equal(other.outOfDate, undefined);
  const ended = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), codemode([{ id: "c1", name: "todo" }], true), assistant(), todoResult({ tasks: [task({ id: 1, status: "completed" }), task({ id: 2 })] })));
  assert.equal(ended.outOfDate, undefined);
  assert.equal(openCount(ended.list), 1);
});

test("out of date: a list kept in custom entries is never made out of date by codemode or by its tool's results", () => {
  const state = { type: "custom", customType: "pi-todo-state", data: { nextId: 3, tasks: [{ id: 1, title: "a", status: "pending" }, { id: 2, title: "b", status: "active" }] } };
  const codemode = { type: "message", message: { role: "toolResult", toolName: "codemode", content: [], details: {}, isError: false, nestedCalls: { calls: [{ id: "c1", name: "todo" }], complete: false } } };
  const snapshot = readSnapshot(chain(user(), state, assistant(), codemode, toolResult("todo", { action: "update", task: { id: 1 } }), assistant()));
  assert.equal(snapshot.outOfDate, undefined);
  assert.equal(snapshot.list?.source, "ian-pascoe-pi-todo");
  assert.equal(openCount(snapshot.list), 2);
});
