/**
 * The branch reader's guards (src/state.ts): what is no wait, no use of the todo tool, no stop or no
 * marker count; the reader without getEntry or getLeafId, long and cyclic walks; plan-mode replies;
 * scripts that leave a list out of date.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBranchReader, listState, openCount, readSnapshot } from "../../src/state.ts";
import { assistant, blockResult, chain, control, marker, rpivClear, rpivState, stopRecord, task, todoResult, toolResult, user, customEntry as stateEntry } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { createSession } from "../fake-pi.ts";
import type { SessionManagerLike } from "../../src/core/pi-shapes.ts";
import { junk, openTexts, TWO_OPEN, planSteps, replyBlocks, script } from "./branches.ts";

// ---- the reader's guards: waits, diagnostics, work, and reading a session ---------------------------

test("waiting: a { waiting: true, reason } result of another tool is no block", () => {
  const lookalike = toolResult("ask_user", { v: 1, waiting: true, reason: "which region?", anchor: "u1" });
  assert.equal(readSnapshot(chain(user("u", { id: "u1" }), assistant(), lookalike)).waiting, undefined);
});

test("waiting: a block result that does not say waiting: true is no wait, whatever its reason", () => {
  for (const details of [{ reason: "which region?" }, { waiting: false, reason: "which region?" }, { waiting: "true", reason: "which region?" }, { waiting: true }, { waiting: true, reason: 5 }]) {
    assert.equal(readSnapshot(chain(user("u", { id: "u1" }), assistant(), toolResult("todo_loop_block", details))).waiting, undefined, JSON.stringify(details));
  }
});

test("waiting: later tool results of other tools do not lift a wait; only a marker, a control or a new message does", () => {
  const snapshot = readSnapshot(
    chain(user("u", { id: "u1" }), assistant(), blockResult("which region?", "u1"), toolResult("bash", { exitCode: 0 }), todoResult({ tasks: TWO_OPEN }), assistant()),
  );
  assert.deepEqual(snapshot.waiting, { reason: "which region?", asked: false });
});

test("listState: other tools' results and errored todo results are not the todo tool being used", () => {
  const branches: Entry[][] = [
    chain(user(), assistant(), toolResult("bash", { exitCode: 0 })),
    chain(user(), assistant(), todoResult({ tasks: [], isError: true })),
    chain(user(), assistant(), toolResult("todo", { junk: true }, { isError: true })),
  ];
  for (const entries of branches) {
    const snapshot = readSnapshot(entries);
    assert.equal(snapshot.todoToolUsed, false);
    assert.equal(snapshot.unreadTodoResults, false);
    assert.deepEqual(listState(snapshot, false), { kind: "none", why: "no-tool" });
    assert.deepEqual(listState(snapshot, true), { kind: "none", why: "unused" });
  }
});

test("listState: a successful todo result in an unread shape says so even when no todo tool is active now", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), toolResult("todo", { tasks: "all of them", nextId: 2 })));
  assert.equal(snapshot.todoToolUsed, true);
  assert.deepEqual(listState(snapshot, false), { kind: "none", why: "unreadable" });
});

test("listState: a successful, readable todo result that was later cleared is the todo tool used, the list emptied", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), rpivClear()));
  assert.deepEqual(listState(snapshot, false), { kind: "none", why: "emptied" });
});

test("hadWork: a list cleared or finished after the anchor, with no open task at any point since, is no work", () => {
  assert.equal(readSnapshot(chain(user(), assistant(), rpivClear())).hadWork, false);
  assert.equal(readSnapshot(chain(user(), assistant(), rpivState([task({ id: 1, status: "completed" })]))).hadWork, false);
  assert.equal(readSnapshot(chain(user(), assistant(), rpivState(TWO_OPEN), rpivClear())).hadWork, true, "open at some point");
});

test("stop: a record of an unknown kind is known by its reason; a junk record by nothing", () => {
  const snapshot = readSnapshot(
    chain(
      user("a", { id: "u1" }),
      assistant(),
      stopRecord({ reason: "stopped: something new", anchor: "u1", kind: "shiny" }),
      stateEntry("todo-loop:stop", { kind: "clear" }),
      stateEntry("todo-loop:stop", "stopped: list is clear"),
    ),
  );
  assert.deepEqual(snapshot.announced, ["reason:stopped: something new"]);
});

test("stop: a record is counted once however often it is written", () => {
  const record = stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" });
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), record, assistant(), { ...record }));
  assert.deepEqual(snapshot.announced, ["clear"]);
});

test("stop: a kinded limit record without a limit name is the limit kind alone", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stateEntry("todo-loop:stop", { v: 1, kind: "limit", reason: "stopped: …", limit: 5 })));
  assert.deepEqual(snapshot.announced, ["limit"]);
});

test("stop: a question record whose reason is not the agent-asked wording waits on the whole reason", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "Shall I go on?", anchor: "u1", kind: "question" })));
  assert.deepEqual(snapshot.waiting, { reason: "Shall I go on?", asked: true });
});

test("markers: a marker's counts must be whole numbers of at least 0; anything else falls back", () => {
  const odd: Entry = { type: "custom_message", customType: "todo-loop:continue", content: "x", display: false, details: { v: 1, round: -1, idle: 1.5, stale: "3" } };
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1", idle: 2, stale: 4 }), assistant(), odd));
  assert.equal(snapshot.round, 3, "one more than the marker before");
  assert.equal(snapshot.idle, 1);
  assert.equal(snapshot.stale, 0);
  const zero = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 0, anchor: "u1", idle: 0, stale: 0 })));
  assert.deepEqual([zero.round, zero.idle, zero.stale], [0, 0, 0]);
});

test("spend: only positive finite figures count; the parts are summed only when there is no total", () => {
  const snapshot = readSnapshot(
    chain(
      user(),
      assistant({ rawUsage: { totalTokens: -5, input: 2, output: 3, cacheRead: Number.NaN, cacheWrite: "4", cost: { total: -1 } } }),
      assistant({ rawUsage: { totalTokens: 10, input: 100, cost: { total: 0.5 } } }),
      assistant({ rawUsage: { input: Number.POSITIVE_INFINITY, output: 1, cost: 2 } }),
    ),
  );
  assert.equal(snapshot.tokens, 5 + 10 + 1);
  assert.equal(snapshot.cost, 0.5);
});

test("time: a reply without a timestamp keeps the newest known reply time", () => {
  const snapshot = readSnapshot(
    chain(user("a", { timestamp: "2026-12-01T10:00:00.000Z" }), assistant({ timestamp: "2026-12-01T10:05:00.000Z" }), assistant({ timestamp: "junk" })),
  );
  assert.equal(snapshot.replyTime, Date.parse("2026-12-01T10:05:00.000Z"));
});

/** A session manager without the incremental calls, as older pi versions have it. */
function branchOnly(session: ReturnType<typeof createSession>, withLeaf: boolean): SessionManagerLike {
  return withLeaf ? { getBranch: () => session.getBranch(), getLeafId: () => session.getLeafId() } : { getBranch: () => session.getBranch() };
}

test("branch reader: without getEntry every read is a full read that still tells appended from switched", () => {
  for (const withLeaf of [true, false]) {
    const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
    const reader = createBranchReader();
    const manager = branchOnly(session, withLeaf);
    assert.equal(reader.read(manager).change, "first");
    session.append(todoResult({ tasks: TWO_OPEN, id: "t1" }));
    const appended = reader.read(manager);
    assert.equal(appended.change, "appended", `getLeafId: ${withLeaf}`);
    assert.equal(openCount(appended.snapshot.list), 2);
    session.moveTo("u1");
    session.append(assistant({ id: "a2", usage: { totalTokens: 4 } }));
    const switched = reader.read(manager);
    assert.equal(switched.change, "switched", `getLeafId: ${withLeaf}`);
    assert.equal(switched.snapshot.list, undefined);
    assert.equal(switched.snapshot.tokens, 4);
  }
});

test("branch reader: an unchanged leaf is 'same' only when the session names its leaf", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(branchOnly(session, false));
  assert.equal(reader.read(branchOnly(session, false)).change, "appended", "no leaf id: the whole branch is read and the old leaf found on it");
  const named = createBranchReader();
  named.read(session);
  assert.equal(named.read(session).change, "same");
});

test("branch reader: a walk back of up to 10,000 appended entries is incremental; a longer one is a full read", () => {
  for (const [count, fullReads] of [
    [10_000, 0],
    [10_001, 1],
  ] as const) {
    const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
    const reader = createBranchReader();
    reader.read(session);
    const before = session.branchReads;
    const added: Entry[] = [];
    for (let index = 0; index < count; index++) added.push(assistant({ usage: { totalTokens: 1 } }));
    session.append(...added);
    const read = reader.read(session);
    assert.equal(read.change, "appended");
    assert.equal(read.snapshot.tokens, count);
    assert.equal(session.branchReads - before, fullReads, `${count} appended`);
  }
});

test("branch reader: a cyclic parentId chain ends the walk in a full read, never a hang", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(session);
  const loopA = { ...assistant({ id: "x1" }), parentId: "x2" };
  const loopB = { ...assistant({ id: "x2" }), parentId: "x1" };
  const entries = new Map<string, unknown>([
    ["x1", loopA],
    ["x2", loopB],
  ]);
  let reads = 0;
  const cyclic: SessionManagerLike = {
    getBranch: () => {
      reads += 1;
      return [user("a", { id: "u1" }), loopA, loopB];
    },
    getLeafId: () => "x1",
    getEntry: (id) => entries.get(id),
  };
  const read = reader.read(cyclic);
  assert.equal(reads, 1);
  assert.equal(read.change, "switched");
  assert.equal(read.snapshot.anchor, "u1");
});

test("branch reader: after an incremental read the next one starts from the new leaf", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(session);
  session.append(assistant({ usage: { totalTokens: 2 } }));
  assert.equal(reader.read(session).snapshot.tokens, 2);
  session.append(assistant({ usage: { totalTokens: 3 } }));
  const next = reader.read(session);
  assert.equal(next.snapshot.tokens, 5);
  assert.equal(next.snapshot.length, 4);
  assert.equal(reader.read(session).change, "same");
});

test("plan-mode: a reply closes steps by [DONE:n] in its text or its thinking, or in plain string content", () => {
  const plan = planSteps([1, "a", false], [2, "b", false], [3, "c", false]);
  const snapshot = readSnapshot(
    chain(user(), plan, replyBlocks([null, "x", { type: "text", text: "[DONE:1]" }, { type: "thinking", thinking: "[DONE:2]" }, { type: "toolCall", text: "[DONE:3]" }])),
  );
  assert.deepEqual(openTexts(snapshot.list), ["c"]);
  assert.deepEqual(openTexts(readSnapshot(chain(user(), plan, replyBlocks("[DONE:3]"))).list), ["a", "b"]);
  assert.deepEqual(openTexts(readSnapshot(chain(user(), plan, replyBlocks({ text: "[DONE:3]" }))).list), ["a", "b", "c"], "content neither text nor blocks");
  assert.deepEqual(openTexts(readSnapshot(chain(user(), plan, replyBlocks([{ type: "text", text: 3 }, { type: "thinking", thinking: {} }]))).list), ["a", "b", "c"]);
});

test("plan-mode: the reply's blocks are read one per line, so a mark never spans two blocks", () => {
  const plan = planSteps([1, "a", false], [12, "l", false]);
  const snapshot = readSnapshot(chain(user(), plan, replyBlocks([{ type: "text", text: "[DONE:1" }, { type: "text", text: "2]" }])));
  assert.deepEqual(openTexts(snapshot.list), ["l"]);
});

test("plan-mode: a list that is out of date is not changed by a later reply", () => {
  const plan = planSteps([1, "a", false]);
  const snapshot = readSnapshot(chain(user(), plan, stateEntry("plan-mode", { enabled: "?" }), replyBlocks("[DONE:1]")));
  assert.equal(snapshot.outOfDate, "unreadable");
  assert.deepEqual(openTexts(snapshot.list), ["a"]);
});

test("listState: plan-mode's list names no tool; an out-of-date snapshot without any list has no source", () => {
  const plan = listState(readSnapshot(chain(user(), planSteps([1, "a", false]))), true);
  assert.equal(plan.kind === "list" ? plan.tool : plan.kind, undefined);
  const script = { type: "message", message: { role: "toolResult", toolName: "codemode", details: {}, nestedCalls: { calls: [{ name: "todo" }], complete: true } } };
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant(), script)), true), { kind: "out-of-date", why: "codemode", open: 0, source: undefined });
});

test("stop: every stop kind of a kinded record is known by that kind", () => {
  for (const kind of ["clear", "no-list", "limit", "idle", "waiting", "question", "out-of-reach", "out-of-date", "outcome"]) {
    const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "any words", anchor: "u1", kind })));
    assert.deepEqual(snapshot.announced, [kind], kind);
  }
});

test("stop: a 0.1 record is known by how its reason starts, and only then", () => {
  const cases: Array<[string, string]> = [
    ["stopped: list is clear", "clear"],
    ["stopped: no list (no todo tool is active)", "no-list"],
    ["stopped: turn outcome was error", "outcome"],
    ["stopped: 1 continuation used, 2 tasks still open", "limit:maxRounds"],
    ["stopped: 12 continuations used, 2 tasks still open", "limit:maxRounds"],
    ["stopped: token limit reached (10 of 10 tokens since your message)", "limit:maxTokens"],
    ["stopped: cost limit reached ($1.00 of $1.00 since your message)", "limit:maxCost"],
    ['waiting for you: the agent asked: "Which one?"', "question"],
    ["waiting for you: which region?", "waiting"],
  ];
  for (const [reason, key] of cases) {
    assert.deepEqual(readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason, anchor: "u1" }))).announced, [key], reason);
    const quoted = `note: ${reason}`;
    assert.deepEqual(readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: quoted, anchor: "u1" }))).announced, [`reason:${quoted}`], quoted);
  }
});

test("stop: a 0.1 question record waits on the question; other records never make a wait", () => {
  const asked = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: 'waiting for you: the agent asked: "Which one?"', anchor: "u1" })));
  assert.deepEqual(asked.waiting, { reason: "Which one?", asked: true });
  for (const kind of ["clear", "limit", "waiting"]) {
    assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind }))).waiting, undefined, kind);
  }
});

test("stop: the question is taken from the record only when the whole reason is the agent-asked wording", () => {
  const cases: Array<[string, string]> = [
    ['note: waiting for you: the agent asked: "Which one?"', 'note: waiting for you: the agent asked: "Which one?"'],
    ['waiting for you: the agent asked: "Which one?" (later)', 'waiting for you: the agent asked: "Which one?" (later)'],
    ['waiting for you: the agent asked: "Say "yes"?"', 'Say "yes"?'],
  ];
  for (const [reason, question] of cases) {
    const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason, anchor: "u1", kind: "question" })));
    assert.deepEqual(snapshot.waiting, { reason: question, asked: true }, reason);
  }
});

test("controls: only todo-loop:control custom entries are controls", () => {
  const lookalikes: Entry[] = [
    stateEntry("other-extension:control", { v: 1, action: "pause", anchor: "u1" }),
    { type: "custom_message", customType: "todo-loop:control", content: "x", display: false, data: { v: 1, action: "pause", anchor: "u1" } },
  ];
  for (const entry of lookalikes) assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), entry)).paused, false, JSON.stringify(entry));
});

test("controls: resume lifts the wait and makes the next wait a new stop, keeps the other stops and the counters", () => {
  const snapshot = readSnapshot(
    chain(
      user("a", { id: "u1" }),
      assistant(),
      marker({ round: 2, anchor: "u1", idle: 1, stale: 1 }),
      stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }),
      stopRecord({ reason: 'waiting for you: the agent asked: "Which one?"', anchor: "u1", kind: "question" }),
      control("resume"),
    ),
  );
  assert.equal(snapshot.waiting, undefined);
  assert.deepEqual(snapshot.announced, ["clear"]);
  assert.equal(snapshot.round, 2, "resume keeps the counters");
  const reset = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1" }), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }), control("reset")));
  assert.deepEqual(reset.announced, []);
});

test("controls: with no control on the branch nothing is paused, also when the list predates the message", () => {
  assert.equal(readSnapshot(chain(user("a"), assistant(), todoResult({ tasks: TWO_OPEN }), user("b"), assistant())).paused, false);
  assert.equal(readSnapshot(chain(user("a"), assistant())).paused, false);
});

test("controls: a resume before the newest list lifts a pause older than it", () => {
  const snapshot = readSnapshot(chain(user("a"), control("pause"), assistant(), control("resume"), todoResult({ tasks: TWO_OPEN }), user("b", { id: "u2" }), assistant()));
  assert.equal(snapshot.paused, false);
  const continued = readSnapshot(chain(user("a"), control("pause"), assistant(), control("continue"), todoResult({ tasks: TWO_OPEN }), user("b", { id: "u2" }), assistant()));
  assert.equal(continued.paused, false);
});

test("entries: only a message entry holds a message, only a custom_message is a marker, only a custom entry is a stop record or a state", () => {
  const fakeUser: Entry = { type: "custom", customType: "x", message: { role: "user", content: "hi" }, id: "fake" };
  assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), fakeUser)).anchor, "u1");
  const fakeMarker: Entry = { type: "custom", customType: "todo-loop:continue", details: { v: 1, round: 5, anchor: "u1" } };
  assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), fakeMarker)).round, 0);
  const fakeStop: Entry = { type: "custom_message", customType: "todo-loop:stop", content: "x", display: false, data: { v: 1, kind: "clear", reason: "stopped: list is clear" } };
  assert.deepEqual(readSnapshot(chain(user("a", { id: "u1" }), assistant(), fakeStop)).announced, []);
  const fakeState: Entry = { type: "custom_message", customType: "rpiv-todo-state", content: "x", display: false, data: { tasks: "?", nextId: 1 } };
  assert.equal(readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), fakeState)).outOfDate, undefined);
  const bashResult: Entry = { type: "message", message: { role: "bashExecution", toolName: "todo", details: { tasks: "?" } } };
  const bash = readSnapshot(chain(user(), assistant(), bashResult));
  assert.equal(bash.todoToolUsed, false);
});

test("listState: an unreadable state entry of a todo source says unreadable; other extensions' entries say nothing", () => {
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant(), stateEntry("rpiv-todo-state", { tasks: "?" }))), false), { kind: "none", why: "unreadable" });
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant(), stateEntry("other-extension:state", { tasks: "?" }))), false), { kind: "none", why: "no-tool" });
});

test("out of date: an unreadable state entry of another source leaves this source's list alone", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), stateEntry("pi-todo-state", { nextId: 1, tasks: [{ id: 1 }] })));
  assert.equal(snapshot.outOfDate, undefined);
  assert.equal(openCount(snapshot.list), 2);
});

test("listState: results of a todo tool that keeps its list elsewhere are the tool used, never an unreadable list", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), toolResult("todo_read", { count: 2 })));
  assert.equal(snapshot.todoToolUsed, true);
  assert.deepEqual(listState(snapshot, true), { kind: "none", why: "unused" });
});

test("out of date: a script's calls leave a list from tool results out of date only when they name its tool or the record is incomplete", () => {
  const list = todoResult({ tasks: TWO_OPEN });
  const outOfDate = (...entries: Entry[]) => readSnapshot(chain(user(), assistant(), ...entries)).outOfDate;
  assert.equal(outOfDate(list, script([{ name: "bash" }, { name: "read" }])), undefined);
  assert.equal(outOfDate(list, script([null, "todo", { name: 5 }, { name: "bash" }])), undefined);
  assert.equal(outOfDate(list, script([{ name: "bash" }, { name: "todo" }])), "codemode");
  assert.equal(outOfDate(list, script([], false)), "codemode", "an incomplete record may have lost any call");
  assert.equal(outOfDate(list, script("calls", true)), undefined);
  assert.equal(outOfDate(list, { type: "message", message: { role: "toolResult", toolName: "codemode", details: {}, nestedCalls: "x" } }), undefined);
});

test("out of date: before any list, only a script that called a tool whose results carry a list, or an incomplete one with calls, counts", () => {
  const outOfDate = (entry: Entry) => readSnapshot(chain(user(), assistant(), entry)).outOfDate;
  assert.equal(outOfDate(script([{ name: "todo" }])), "codemode");
  assert.equal(outOfDate(script([{ name: "todo_write" }])), undefined, "that tool's list lands in custom entries");
  assert.equal(outOfDate(script([{ name: "TaskUpdate" }])), undefined);
  assert.equal(outOfDate(script([{ name: "bash" }], false)), "codemode");
  assert.equal(outOfDate(script([], false)), undefined, "an incomplete record of no call");
});

test("out of date: an unreadable result is one that succeeded (error null or false is no error; success false is one)", () => {
  const list = todoResult({ tasks: TWO_OPEN });
  const after = (details: unknown) => readSnapshot(chain(user(), assistant(), list, toolResult("todo", details))).outOfDate;
  assert.equal(after({ tasks: "?", error: null }), "unreadable");
  assert.equal(after({ tasks: "?", error: false }), "unreadable");
  assert.equal(after({ tasks: "?", success: true }), "unreadable");
  assert.equal(after(undefined), "unreadable", "a result with no details at all");
  assert.equal(after({ tasks: "?", success: false }), undefined);
  assert.equal(after({ tasks: "?", error: "not found" }), undefined);
});

test("junk: a branch that is not an array reads as an empty one: nothing paused, no work, nothing announced", () => {
  const snapshot = readSnapshot(junk({ length: 3 }));
  assert.deepEqual(
    [snapshot.paused, snapshot.hadWork, snapshot.announced, snapshot.length, snapshot.anchor],
    [false, false, [], 0, ""],
  );
  const reader = createBranchReader();
  assert.equal(reader.read({ getBranch: () => junk("nope") }).snapshot.length, 0);
});

test("branch reader: without getLeafId, entries added after an empty first read are seen", () => {
  const session = createSession<Entry>([]);
  const reader = createBranchReader();
  const manager = branchOnly(session, false);
  assert.equal(reader.read(manager).snapshot.length, 0);
  session.append(user("a", { id: "u1" }), todoResult({ tasks: TWO_OPEN, id: "t1" }));
  const next = reader.read(manager).snapshot;
  assert.equal(next.anchor, "u1");
  assert.equal(openCount(next.list), 2);
});

test("branch reader: an old leaf at the very start of the branch still makes a full read 'appended'", () => {
  const session = createSession(chain(user("a", { id: "u1" })));
  const reader = createBranchReader();
  const manager = branchOnly(session, true);
  reader.read(manager);
  session.append(assistant({ id: "a1" }));
  assert.equal(reader.read(manager).change, "appended");
});

test("plan-mode: only text and thinking that are strings are read from a reply, each from its own block type", () => {
  const plan = planSteps([1, "a", false], [2, "b", false]);
  const blocks = [
    { type: "text", text: ["[DONE:1]"] },
    { type: "thinking", thinking: ["[DONE:1]"] },
    { type: "toolCall", thinking: "[DONE:2]" },
    { type: "text", thinking: "[DONE:2]" },
  ];
  assert.deepEqual(openTexts(readSnapshot(chain(user(), plan, replyBlocks(blocks))).list), ["a", "b"]);
});

test("branch reader: entries without string ids give no leaf to compare, so a later full read is a first read again", () => {
  const entries: Entry[] = [
    { ...user("a"), id: undefined },
    { ...assistant(), id: undefined },
  ];
  const numbered = entries.map((entry, index) => ({ ...entry, id: index }));
  const reader = createBranchReader();
  const manager: SessionManagerLike = { getBranch: () => numbered };
  assert.equal(reader.read(manager).change, "first");
  assert.equal(reader.read(manager).change, "first");
});
