/**
 * The branch reader's rules (src/state.ts, SPEC §9, §4.14): which entry wins, the anchor, the spend and
 * the loop's own footprints since it (round, waiting, stops, controls, markers, time, work), listState's
 * no-list reasons, the signature and the tasks that vanished.
 */
import type { TodoList } from "../../src/sources/index.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { listState, openCount, readSnapshot, signature, vanishedTasks } from "../../src/state.ts";
import { assistant, blockResult, chain, control, customMessage, marker, rpivClear, rpivState, stopRecord, task, todoResult, toolResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { texts, openTexts, TWO_OPEN } from "./branches.ts";

// ---- which entry wins -----------------------------------------------------------------------------

test("reader: the newest recognised todo state wins", () => {
  const snapshot = readSnapshot(
    chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [task({ id: 1, subject: "Write tests", status: "completed" }), TWO_OPEN[1] ?? task({ id: 2 })] })),
  );
  assert.deepEqual(openTexts(snapshot.list), ["Ship it"]);
});

test("reader: a rejected rpiv-todo call (details.error, isError false) is skipped and never reads as clear", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [], error: "#9 not found", action: "update" })));
  assert.deepEqual(openTexts(snapshot.list), ["Write tests", "Ship it"]);
});

test("reader: an errored call (isError true, details {}) is skipped and never reads as clear", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [], isError: true })));
  assert.deepEqual(openTexts(snapshot.list), ["Write tests", "Ship it"]);
});

test("reader: an errored result that still carries a full empty list is skipped", () => {
  const errored = toolResult("todo", { action: "clear", tasks: [], nextId: 1 }, { isError: true });
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), errored));
  assert.equal(openCount(snapshot.list), 2);
});

test("reader: a malformed newer entry is skipped in favour of an older valid one", () => {
  const malformed = [
    toolResult("todo", { action: "update", tasks: [{ id: 1, subject: "x", status: "weird" }], nextId: 2 }),
    toolResult("todo", { action: "update", tasks: [{ id: 1, status: "pending" }], nextId: 2 }),
    toolResult("todo", { action: "update", tasks: "not an array", nextId: 2 }),
    toolResult("todo", { action: "update", tasks: [null], nextId: 2 }),
    toolResult("todo", { action: "update", tasks: [], nextId: "2" }),
    toolResult("todo", null),
    rpivState([task({ id: 1, status: "bogus" })]),
    { type: "custom", customType: "rpiv-todo-state", data: { tasks: [task({ id: 1 })], nextId: null } },
  ];
  for (const bad of malformed) {
    const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), bad));
    assert.deepEqual(openTexts(snapshot.list), ["Write tests", "Ship it"], JSON.stringify(bad));
  }
});

test("reader: a recognised clear is an empty list", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [], action: "clear", nextId: 1 })));
  assert.deepEqual(snapshot.list?.tasks, []);
  assert.deepEqual(listState(snapshot, true), { kind: "none", why: "emptied" });
});

test("reader: tombstones (status deleted) are not tasks at all", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: [task({ id: 1, status: "deleted" }), task({ id: 2, subject: "Ship it" })] })));
  assert.deepEqual(texts(snapshot.list), ["Ship it"]);
  const state = listState(snapshot, true);
  assert.ok(state.kind === "list");
  assert.equal(state.total, 1);
});

test("reader: a list whose every task was deleted is an emptied list, not a clear one", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: [task({ id: 1, status: "deleted" }), task({ id: 2, status: "deleted" })], action: "delete" })));
  assert.deepEqual(listState(snapshot, true), { kind: "none", why: "emptied" });
});

test("reader: deferred tasks are not open", () => {
  const snapshot = readSnapshot(chain(user(), rpivState([task({ id: 1, status: "deferred" }), task({ id: 2, status: "completed" })])));
  const state = listState(snapshot, true);
  assert.ok(state.kind === "list");
  assert.equal(state.open, 0);
  assert.equal(state.total, 2);
});

test("reader: an rpiv-todo-state entry is read like a tool result; the newest of either wins", () => {
  const stateThenResult = readSnapshot(chain(user(), rpivState([task({ id: 1, subject: "From state" })]), assistant(), todoResult({ tasks: [task({ id: 1, subject: "From result" })] })));
  assert.deepEqual(texts(stateThenResult.list), ["From result"]);
  const resultThenState = readSnapshot(chain(user(), assistant(), todoResult({ tasks: [task({ id: 1, subject: "From result" })] }), rpivState([task({ id: 1, subject: "From state" })])));
  assert.deepEqual(texts(resultThenState.list), ["From state"]);
});

test("reader: an rpiv-todo-clear entry resets the list until the next tool result", () => {
  const cleared = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), rpivClear()));
  assert.deepEqual(cleared.list?.tasks, []);
  const after = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), rpivClear(), assistant(), todoResult({ tasks: [task({ id: 1, subject: "New" })] })));
  assert.deepEqual(texts(after.list), ["New"]);
});

test("reader: the snapshot names the source and the tool", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN })));
  assert.equal(snapshot.list?.source, "rpiv-todo");
  assert.equal(snapshot.list?.tool, "todo");
});

test("reader: listAtLastReply is the list as it stood when the newest assistant message was written", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), assistant(), todoResult({ tasks: [task({ id: 1, subject: "Write tests" })], action: "delete" })));
  assert.deepEqual(texts(snapshot.listAtLastReply), ["Write tests", "Ship it"]);
  assert.deepEqual(texts(snapshot.list), ["Write tests"]);
});

// ---- anchor ---------------------------------------------------------------------------------------

test("anchor: the id of the newest human user message", () => {
  const snapshot = readSnapshot(chain(user("one", { id: "u1" }), assistant(), user("two", { id: "u2" }), assistant()));
  assert.equal(snapshot.anchor, "u2");
});

test("anchor: custom_message entries (ours or any extension's) are never anchors", () => {
  const snapshot = readSnapshot(chain(user("one", { id: "u1" }), assistant(), marker({ round: 1, anchor: "u1" }), customMessage("other:note", "c1"), assistant()));
  assert.equal(snapshot.anchor, "u1");
});

test("anchor: an entry without an id falls back to #<index>", () => {
  const entries: Entry[] = [{ type: "model_change" }, { type: "message", message: { role: "user", content: "hi" } }, assistant()];
  assert.equal(readSnapshot(entries).anchor, "#1");
});

test("anchor: an empty-string id also falls back to #<index>, never an empty anchor", () => {
  const entries: Entry[] = [{ type: "message", id: "", message: { role: "user", content: "hi" } }];
  assert.equal(readSnapshot(entries).anchor, "#0");
});

test("anchor: with no human message the anchor is empty", () => {
  assert.equal(readSnapshot(chain(assistant(), customMessage())).anchor, "");
});

// ---- spend, round, waiting, stop ------------------------------------------------------------------

test("spend: tokens and cost are summed over assistant messages since the anchor only", () => {
  const snapshot = readSnapshot(
    chain(
      user("one"),
      assistant({ usage: { totalTokens: 1000, cost: 1 } }),
      user("two"),
      assistant({ usage: { totalTokens: 120, cost: 0.25 } }),
      assistant({ usage: { totalTokens: 80, cost: 0.5 } }),
    ),
  );
  assert.equal(snapshot.tokens, 200);
  assert.equal(snapshot.cost, 0.75);
});

test("spend: without totalTokens the parts are summed", () => {
  const snapshot = readSnapshot(chain(user(), assistant({ rawUsage: { input: 10, output: 5, cacheRead: 100, cacheWrite: 1 } })));
  assert.equal(snapshot.tokens, 116);
  assert.equal(snapshot.cost, 0);
});

test("spend: junk usage counts as nothing", () => {
  const junkUsages: unknown[] = [null, "lots", 5, { totalTokens: -5, cost: { total: -1 } }, { totalTokens: Number.NaN, cost: "1" }, { totalTokens: "9" }, { totalTokens: Infinity }];
  const snapshot = readSnapshot(chain(user(), ...junkUsages.map((rawUsage) => assistant({ rawUsage }))));
  assert.equal(snapshot.tokens, 0);
  assert.equal(snapshot.cost, 0);
});

test("round: rebuilt from the newest marker's details since the anchor", () => {
  const snapshot = readSnapshot(chain(user("u", { id: "u1" }), assistant(), marker({ round: 1, anchor: "u1" }), assistant(), marker({ round: 2, anchor: "u1" }), assistant()));
  assert.equal(snapshot.round, 2);
});

test("round: markers under an earlier human message do not count", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 7, anchor: "u1" }), user("b", { id: "u2" }), assistant()));
  assert.equal(snapshot.round, 0);
});

test("round: a marker whose details are junk still counts one continuation", () => {
  const broken: Entry = { type: "custom_message", customType: "todo-loop:continue", content: "x", display: false, details: { round: "two" } };
  const snapshot = readSnapshot(chain(user(), assistant(), marker({ round: 3, anchor: "e1" }), assistant(), broken));
  assert.equal(snapshot.round, 4);
});

test("waiting: rebuilt from the todo_loop_block result since the anchor", () => {
  const snapshot = readSnapshot(chain(user("u", { id: "u1" }), assistant(), blockResult("which region?", "u1"), assistant()));
  assert.deepEqual(snapshot.waiting, { reason: "which region?", asked: false });
});

test("waiting: a new human message clears it", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), blockResult("which region?", "u1"), assistant(), user("eu", { id: "u2" })));
  assert.equal(snapshot.waiting, undefined);
});

test("waiting: a marker after the block result means the wait was lifted (resume), so it is not rebuilt", () => {
  const lifted = readSnapshot(chain(user("u", { id: "u1" }), assistant(), blockResult("which region?", "u1"), assistant(), marker({ round: 1, anchor: "u1" }), assistant()));
  assert.equal(lifted.waiting, undefined);
  const still = readSnapshot(chain(user("u", { id: "u1" }), assistant(), marker({ round: 1, anchor: "u1" }), assistant(), blockResult("which region?", "u1"), assistant()));
  assert.deepEqual(still.waiting, { reason: "which region?", asked: false });
});

test("waiting: an errored or non-waiting block result does not wait", () => {
  const errored = toolResult("todo_loop_block", { v: 1, waiting: true, reason: "x" }, { isError: true });
  const paused = toolResult("todo_loop_block", { v: 1, waiting: false, paused: true });
  assert.equal(readSnapshot(chain(user(), assistant(), errored)).waiting, undefined);
  assert.equal(readSnapshot(chain(user(), assistant(), paused)).waiting, undefined);
});

test("stop: the stops recorded since the newest marker under the anchor are known by kind (and limit)", () => {
  const snapshot = readSnapshot(
    chain(
      user("a", { id: "u1" }),
      assistant(),
      stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }),
      marker({ round: 1, anchor: "u1", idle: 1 }),
      assistant(),
      stopRecord({ reason: "stopped: 1 continuation used, 2 tasks still open", anchor: "u1", kind: "limit", limit: "maxRounds" }),
      stopRecord({ reason: "stopped: turn outcome was error", anchor: "u1", kind: "outcome" }),
    ),
  );
  assert.deepEqual(snapshot.announced, ["limit:maxRounds", "outcome"], "a marker starts the list again");
  const later = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }), user("b", { id: "u2" })));
  assert.deepEqual(later.announced, [], "a new human message starts it again too");
});

test("stop: records written by 0.1 (no v, no kind) are known by their reason", () => {
  const reasons: Array<[string, string]> = [
    ["stopped: list is clear", "clear"],
    ["stopped: no list (the list was emptied: its tasks were deleted or cleared)", "no-list"],
    ["stopped: turn outcome was error", "outcome"],
    ["stopped: 3 continuations used, 2 tasks still open", "limit:maxRounds"],
    ["stopped: token limit reached (4,000 of 3,500 tokens since your message), 2 tasks still open", "limit:maxTokens"],
    ["stopped: cost limit reached ($1.00 of $0.50 since your message), 2 tasks still open", "limit:maxCost"],
    ["waiting for you: need a key", "waiting"],
  ];
  for (const [reason, key] of reasons) {
    assert.deepEqual(readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason, anchor: "u1" }))).announced, [key], reason);
  }
  const unknown = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "something else", anchor: "u1" })));
  assert.deepEqual(unknown.announced, ["reason:something else"]);
});

test("waiting: a question stop record under the anchor is a wait on that question", () => {
  const snapshot = readSnapshot(
    chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: 'waiting for you: the agent asked: "Postgres or SQLite?"', anchor: "u1", kind: "question" })),
  );
  assert.deepEqual(snapshot.waiting, { reason: "Postgres or SQLite?", asked: true });
});

test("controls: a pause holds across human messages until a resume or a continue; reset does not lift it", () => {
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("pause"), user("b"), assistant())).paused, true);
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("pause"), control("reset"), user("b"))).paused, true);
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("pause"), control("resume"), user("b"))).paused, false);
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("pause"), control("continue"))).paused, false);
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("resume"), control("pause"))).paused, true);
});

test("controls: a pause far before the newest list is still found by a full read", () => {
  const snapshot = readSnapshot(chain(user("a"), assistant(), control("pause"), todoResult({ tasks: TWO_OPEN }), user("b", { id: "u2" }), assistant()));
  assert.equal(snapshot.paused, true);
});

test("controls: reset clears the counters and the wait under the anchor; the markers after it count again", () => {
  const reset = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 4, anchor: "u1", idle: 2, stale: 3 }), assistant(), blockResult("x", "u1"), control("reset")));
  assert.equal(reset.round, 0);
  assert.equal(reset.idle, 0);
  assert.equal(reset.stale, 0);
  assert.equal(reset.waiting, undefined);
  const after = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 4, anchor: "u1" }), control("reset"), assistant(), marker({ round: 1, anchor: "u1", idle: 1 })));
  assert.equal(after.round, 1);
});

test("controls: resume and continue lift a wait; junk controls are ignored", () => {
  assert.equal(readSnapshot(chain(user(), assistant(), blockResult("x", "u1"), control("resume"))).waiting, undefined);
  assert.equal(readSnapshot(chain(user(), assistant(), blockResult("x", "u1"), control("continue"))).waiting, undefined);
  const junk = { type: "custom", customType: "todo-loop:control", data: { action: "explode" } };
  assert.deepEqual(readSnapshot(chain(user(), assistant(), blockResult("x", "u1"), junk)).waiting, { reason: "x", asked: false });
});

test("markers: idle and stale come from the newest marker's details; a tool result after it starts the idle count again", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1", idle: 2, stale: 5 }), assistant()));
  assert.equal(snapshot.idle, 2);
  assert.equal(snapshot.stale, 5);
  const worked = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1", idle: 2 }), assistant(), todoResult({ tasks: TWO_OPEN })));
  assert.equal(worked.idle, 0);
  const legacy = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1" })));
  assert.equal(legacy.idle, 1, "a 0.1 marker without idle counts as one reply without work");
});

test("markers: the signature at the newest marker is the list as it stood then", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), todoResult({ tasks: TWO_OPEN }), assistant(), marker({ round: 1, anchor: "u1" })));
  assert.equal(snapshot.markerSignature, JSON.stringify([["1", "pending", "Write tests"], ["2", "pending", "Ship it"]]));
});

test("time: the anchor's timestamp and the newest reply's since it, in milliseconds", () => {
  const snapshot = readSnapshot(
    chain(user("a", { id: "u1", timestamp: "2026-12-01T10:00:00.000Z" }), assistant({ timestamp: "2026-12-01T10:05:00.000Z" }), assistant({ timestamp: "2026-12-01T10:31:00.000Z" })),
  );
  assert.equal(snapshot.anchorTime, Date.parse("2026-12-01T10:00:00.000Z"));
  assert.equal(snapshot.replyTime, Date.parse("2026-12-01T10:31:00.000Z"));
  const junk = readSnapshot(chain(user("a", { timestamp: "yesterday" }), assistant({ timestamp: 12 })));
  assert.equal(junk.anchorTime, undefined);
  assert.equal(junk.replyTime, undefined);
});

test("hadWork: plain chat never had work; a list with an open task since the anchor did", () => {
  assert.equal(readSnapshot(chain(user(), assistant())).hadWork, false);
  assert.equal(readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }))).hadWork, true);
  assert.equal(readSnapshot(chain(user(), assistant(), todoResult({ tasks: [task({ id: 1, status: "completed" })] }))).hadWork, false, "a finished list is no work");
});

test("hadWork: a list with open tasks carried into a new human message counts for it; a finished or empty one does not", () => {
  assert.equal(readSnapshot(chain(user("a"), assistant(), todoResult({ tasks: TWO_OPEN }), user("b"))).hadWork, true);
  assert.equal(readSnapshot(chain(user("a"), assistant(), todoResult({ tasks: [], action: "clear" }), user("b"))).hadWork, false);
  assert.equal(readSnapshot(chain(user("a"), assistant(), todoResult({ tasks: [task({ id: 1, status: "completed" })] }), user("b"))).hadWork, false);
});

test("hadWork: a marker since the anchor is work", () => {
  assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 1, anchor: "u1" }))).hadWork, true);
});

// ---- listState ------------------------------------------------------------------------------------

test("listState: open tasks give kind list with open, total, source, tool and signature", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: [...TWO_OPEN, task({ id: 3, status: "completed" })] })));
  assert.ok(snapshot.list);
  assert.deepEqual(listState(snapshot, true), { kind: "list", open: 2, total: 3, signature: signature(snapshot.list), source: "rpiv-todo", tool: "todo" });
});

test("listState: no list and no todo tool active or used → no-tool", () => {
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant())), false), { kind: "none", why: "no-tool" });
});

test("listState: a todo tool active but never used on this branch → unused", () => {
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant())), true), { kind: "none", why: "unused" });
});

test("listState: todo-tool results in a shape no adapter reads → unreadable", () => {
  const odd = toolResult("todo", { items: [{ name: "x", state: "open" }] });
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant(), odd)), false), { kind: "none", why: "unreadable" });
});

test("listState: a list emptied by clear or delete → emptied", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [], action: "clear" })));
  assert.deepEqual(listState(snapshot, false), { kind: "none", why: "emptied" });
});

// ---- signature, vanishedTasks -----------------------------------------------------------------------

function rpivList(...tasks: Array<{ id: string; text: string; status: string; open: boolean }>): TodoList {
  return { source: "rpiv-todo", tool: "todo", tasks };
}

test("signature: any change of id, status or text of a task is a different signature", () => {
  const base = rpivList({ id: "1", text: "a", status: "pending", open: true });
  const variants = [
    rpivList({ id: "2", text: "a", status: "pending", open: true }),
    rpivList({ id: "1", text: "b", status: "pending", open: true }),
    rpivList({ id: "1", text: "a", status: "in_progress", open: true }),
    rpivList({ id: "1", text: "a", status: "pending", open: true }, { id: "2", text: "c", status: "pending", open: true }),
  ];
  for (const variant of variants) assert.notEqual(signature(variant), signature(base));
  assert.equal(signature(rpivList({ id: "1", text: "a", status: "pending", open: true })), signature(base));
});

test("vanishedTasks: the texts of tasks open before that are gone now", () => {
  const before = rpivList(
    { id: "1", text: "done already", status: "completed", open: false },
    { id: "2", text: "deleted", status: "pending", open: true },
    { id: "3", text: "kept", status: "pending", open: true },
  );
  const now = rpivList({ id: "3", text: "kept", status: "completed", open: false });
  assert.deepEqual(vanishedTasks(before, now), ["deleted"]);
  assert.deepEqual(vanishedTasks(before, undefined), ["deleted", "kept"]);
  assert.deepEqual(vanishedTasks(undefined, now), []);
});
