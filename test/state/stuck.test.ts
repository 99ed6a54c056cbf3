/**
 * What each reply did (src/state.ts, src/core/reply.ts, SPEC §4.10): progress or not, the fingerprint,
 * what was read under the message, and the counts the markers carry.
 */
import { TOOL_TABLE } from "../../src/sources/index.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBranchReader, EMPTY_SNAPSHOT, readSnapshot } from "../../src/state.ts";
import type { Snapshot } from "../../src/state.ts";
import { MAX_READ_KEYS } from "../../src/core/reply.ts";
import { canonicalJson, hashText } from "../../src/core/fingerprint.ts";
import { assistant, assistantCalls, callResult, called, chain, control, marker, markerDetails, rpivState, task, toolResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { createSession } from "../fake-pi.ts";
import { TWO_OPEN } from "./branches.ts";

// ---- §4.10 busy but stuck: what each reply did ----------------------------------------------------------

/** The reply the newest assistant message ended, read from a branch that starts with a human message. */
function replyOf(...entries: (Entry | Entry[])[]) {
  return readSnapshot(chain(user("a", { id: "u1" }), ...entries.flat())).reply.last;
}

const LIST_CALL = { action: "list" };
const LISTED = { ...rpivDetailsOf(), action: "list" };

function rpivDetailsOf(): Record<string, unknown> {
  return { action: "create", params: {}, tasks: TWO_OPEN, nextId: 3 };
}

test("reply: a reply ends at an assistant message without a tool call; one with calls, an errored or an aborted one does not end it", () => {
  assert.equal(replyOf(assistantCalls([{ id: "c1", name: "read", args: { path: "a.ts" } }])), undefined);
  assert.ok(replyOf(called("c1", "read", { path: "a.ts" }), assistant({ text: "Read it." })));
  const errored = { ...assistant({ text: "boom" }), message: { ...assistant().message, stopReason: "error" } };
  assert.equal(replyOf(called("c1", "bash", { command: "x" }), errored), undefined);
});

test("reply: re-reading the list (rpiv-todo list) is no progress; reading it the first time under this message is", () => {
  const first = replyOf(called("c1", "todo", LIST_CALL, { details: LISTED }), assistant());
  assert.equal(first?.progress, true, "the first read under the message explores");
  const again = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "todo", LIST_CALL, { details: LISTED }), assistant(), ...called("c2", "todo", LIST_CALL, { details: LISTED }), assistant()));
  assert.equal(again.reply.last?.progress, false, "the same read again");
});

test("reply: reading another path or pattern is progress; the same read with its keys in another order is not", () => {
  const base = [user("a", { id: "u1" }), ...called("c1", "read", { path: "a.ts", limit: 10 }), assistant()];
  assert.equal(readSnapshot(chain(...base, ...called("c2", "read", { path: "b.ts", limit: 10 }), assistant())).reply.last?.progress, true);
  assert.equal(readSnapshot(chain(...base, ...called("c2", "grep", { pattern: "todo" }), assistant())).reply.last?.progress, true);
  assert.equal(readSnapshot(chain(...base, ...called("c2", "read", { limit: 10, path: "a.ts" }), assistant())).reply.last?.progress, false);
});

test("reply: a new human message forgets what was read: the same read is progress again", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "read", { path: "a.ts" }), assistant(), user("b", { id: "u2" }), ...called("c2", "read", { path: "a.ts" }), assistant()));
  assert.equal(snapshot.reply.last?.progress, true);
});

test("reply: edits, writes, commands (even failing ones) and unknown tools are progress; a failed edit or write and a rejected todo change are not", () => {
  assert.equal(replyOf(called("c1", "edit", { path: "a.ts" }), assistant())?.progress, true);
  assert.equal(replyOf(called("c1", "write", { path: "a.ts" }), assistant())?.progress, true);
  assert.equal(replyOf(called("c1", "bash", { command: "npm test" }, { isError: true }), assistant())?.progress, true, "a failing command ran");
  assert.equal(replyOf(called("c1", "web_fetch", { url: "x" }, { isError: true }), assistant())?.progress, true, "another extension's tool: the loop cannot tell");
  assert.equal(replyOf(called("c1", "edit", { path: "a.ts" }, { isError: true }), assistant())?.progress, false);
  assert.equal(replyOf(called("c1", "write", { path: "a.ts" }, { isError: true }), assistant())?.progress, false);
  assert.equal(replyOf(called("c1", "todo", { action: "update", id: 9 }, { details: { ...rpivDetailsOf(), error: "no task 9" } }), assistant())?.progress, false);
  assert.equal(replyOf(called("c1", "todo", { action: "update", id: 1, status: "completed" }, { details: rpivDetailsOf() }), assistant())?.progress, true);
});

test("reply: the block tool and pi's read, grep, find and ls only read: the same call again is re-reading, even when it gives back something else", () => {
  for (const name of ["read", "grep", "find", "ls", "todo_loop_block"]) {
    const snapshot = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", name, { path: "x" }, { text: "first" }), assistant(), ...called("c2", name, { path: "x" }, { text: "second" }), assistant()));
    assert.equal(snapshot.reply.last?.progress, false, name);
  }
});

test("reply: every adapter declares its tool's read-only calls (list/get, TaskList/TaskGet, todo_read); writes, and another tool's action of the same name, stay progress", () => {
  const reads: readonly [string, unknown][] = [
    ["todo", { action: "list" }],
    ["todo", { action: "get", id: 1 }],
    ["TaskList", {}],
    ["TaskGet", { taskId: "1" }],
    ["todo_read", {}],
    ["todoread", {}],
  ];
  for (const [name, args] of reads) assert.equal(TOOL_TABLE.readsOnly(name, args), true, `${name} ${JSON.stringify(args)}`);
  const writes: readonly [string, unknown][] = [
    ["todo", { action: "create", subject: "x" }],
    ["todo", { action: "update", id: 1 }],
    ["todo", { action: "add", texts: ["x"] }],
    ["todo", { todos: [] }],
    ["todo", undefined],
    ["notes", { action: "list" }],
    ["TaskUpdate", { taskId: "1" }],
    ["TaskCreate", {}],
    ["todo_write", { todos: [] }],
    ["bash", { command: "ls" }],
    ["edit", {}],
  ];
  for (const [name, args] of writes) assert.equal(TOOL_TABLE.readsOnly(name, args), false, `${name} ${JSON.stringify(args)}`);
});

test("reply: a codemode call is progress only through its nested calls: one not known to only read, or an incomplete record", () => {
  const script = (nestedCalls: unknown) => replyOf(called("c1", "codemode", { code: "…" }, { nestedCalls }), assistant())?.progress;
  assert.equal(script({ calls: [{ id: "n1", name: "todo", arguments: { action: "list" }, status: "ok" }, { id: "n2", name: "read", arguments: { path: "a" }, status: "ok" }], complete: true }), false);
  assert.equal(script({ calls: [{ id: "n1", name: "edit", arguments: { path: "a" }, status: "ok" }], complete: true }), true);
  assert.equal(script({ calls: [{ id: "n1", name: "read", arguments: { path: "a" }, status: "ok" }], complete: false }), true);
  assert.equal(script({ calls: [{ id: "n1", name: "todo", status: "ok" }], complete: true }), true, "a todo call whose arguments were not kept may have written");
  assert.equal(script(undefined), false, "a script that called nothing");
  assert.equal(script({ calls: [null], complete: true }), true, "an unreadable nested call: the loop cannot tell");
});

test("reply: a result whose call is not on the branch is progress (the loop cannot tell what it did)", () => {
  assert.equal(replyOf(assistant({ text: "x" }), toolResult("read", {}), assistant())?.progress, true);
});

test("reply: the fingerprint is the final text (whitespace collapsed, thinking ignored) plus every call's name, canonical arguments and error flag, in order", () => {
  const fp = (...entries: Entry[][]) => replyOf(...entries)?.fingerprint;
  const plain = fp([assistant({ text: "Still  failing.\n" })]);
  assert.equal(plain, fp([assistant({ text: " Still failing." })]), "whitespace collapsed");
  assert.notEqual(plain, fp([assistant({ text: "Still failing!" })]));
  const run = (args: unknown, isError: boolean, text = "Still failing.") => fp(called("c1", "bash", args, { isError }), [assistant({ text })]);
  assert.equal(run({ command: "npm test", timeout: 60 }, true), run({ timeout: 60, command: "npm test" }, true), "keys sorted");
  assert.notEqual(run({ command: "npm test" }, true), run({ command: "npm test" }, false), "the error flag counts");
  assert.notEqual(run({ command: "npm test" }, true), run({ command: "npm run test" }, true));
  const thinking = (words: string) => fp(
    [assistantCalls([{ id: "c1", name: "bash", args: { command: "npm test" } }], { thinking: words }), callResult("c1", "bash", { isError: true })],
    [assistant({ text: "Still failing." })],
  );
  assert.equal(thinking("first thought"), thinking("other thought"), "thinking is not part of it");
  const ordered = fp([assistantCalls([{ id: "c1", name: "read", args: { path: "a" } }, { id: "c2", name: "read", args: { path: "b" } }]), callResult("c1", "read"), callResult("c2", "read")], [assistant()]);
  const reversed = fp([assistantCalls([{ id: "c2", name: "read", args: { path: "b" } }, { id: "c1", name: "read", args: { path: "a" } }]), callResult("c2", "read"), callResult("c1", "read")], [assistant()]);
  assert.notEqual(ordered, reversed, "calls in order");
});

test("reply: two identical replies in a row have the same fingerprint; the reply after a settle starts afresh", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "bash", { command: "npm test" }, { isError: true }), assistant({ text: "Fails." })));
  const again = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "bash", { command: "npm test" }, { isError: true }), assistant({ text: "Fails." }), marker({ round: 1, anchor: "u1", idle: 1 }), ...called("c2", "bash", { command: "npm test" }, { isError: true }), assistant({ text: "Fails." })));
  assert.equal(again.reply.last?.fingerprint, snapshot.reply.last?.fingerprint);
});

test("reply: what was read is kept per human message and bounded (the oldest reads go first)", () => {
  const entries: Entry[] = [user("a", { id: "u1" })];
  for (let index = 0; index < MAX_READ_KEYS + 10; index++) entries.push(...called(`c${index}`, "read", { path: `f${index}` }));
  entries.push(assistant());
  const snapshot = readSnapshot(chain(...entries));
  assert.equal(snapshot.reply.readKeys.length, MAX_READ_KEYS);
  assert.equal(snapshot.reply.last?.progress, true);
});

test("reply: the incremental reader folds the same reply facts as a full read", () => {
  const entries = chain(user("a", { id: "u1" }), ...called("c1", "read", { path: "a" }), assistant(), marker({ round: 1, anchor: "u1", idle: 1 }), ...called("c2", "read", { path: "a" }), ...called("c3", "bash", { command: "x" }, { isError: true }), assistant({ text: "again" }));
  const session = createSession<Entry>([]);
  const reader = createBranchReader();
  let incremental: Snapshot = EMPTY_SNAPSHOT;
  for (const entry of entries) {
    session.append(entry);
    incremental = reader.read(session).snapshot;
  }
  assert.deepEqual(incremental.reply, readSnapshot(entries).reply);
  assert.equal(incremental.reply.last?.progress, true, "the failing command");
});

test("markers: stuck, fp and repeats come from the newest marker's details; a reset or a new message clears them", () => {
  const counted = { ...marker({ round: 2, anchor: "u1", idle: 2 }), details: { ...markerDetails({ round: 2, anchor: "u1", idle: 2 }), stuck: 3, fp: "fp-x", repeats: 2 } };
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), counted, assistant()));
  assert.deepEqual({ stuck: snapshot.stuck, fp: snapshot.fp, repeats: snapshot.repeats }, { stuck: 3, fp: "fp-x", repeats: 2 });
  const reset = readSnapshot(chain(user("a", { id: "u1" }), assistant(), counted, control("reset")));
  assert.deepEqual({ stuck: reset.stuck, fp: reset.fp, repeats: reset.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
  const next = readSnapshot(chain(user("a", { id: "u1" }), assistant(), counted, user("b", { id: "u2" })));
  assert.deepEqual({ stuck: next.stuck, fp: next.fp, repeats: next.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
  const legacy = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1", idle: 2 })));
  assert.deepEqual({ stuck: legacy.stuck, fp: legacy.fp, repeats: legacy.repeats }, { stuck: 0, fp: undefined, repeats: 0 }, "a 0.2 marker has none: counting starts again");
  const junk = { ...counted, details: { ...counted.details, stuck: -1, fp: 7, repeats: 1.5 } };
  const odd = readSnapshot(chain(user("a", { id: "u1" }), assistant(), junk));
  assert.deepEqual({ stuck: odd.stuck, fp: odd.fp, repeats: odd.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
});

test("canonicalJson: keys sorted at every level; never throws on cycles, depth or values JSON cannot hold", () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: "x" } }), '{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}');
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = cycle;
  assert.equal(canonicalJson(cycle), '{"a":1,"self":"<…>"}');
  assert.equal(canonicalJson([Number.NaN, undefined, () => 1, 10n]), '[null,null,"<function>","<bigint>"]');
  let deep: unknown = 1;
  for (let index = 0; index < 200; index++) deep = [deep];
  assert.ok(canonicalJson(deep).includes("<…>"));
  assert.equal(hashText("a").length, 28);
  assert.notEqual(hashText("a"), hashText("b"));
});

test("reply: a todo tool's read reads the list: after the agent's own todo call it is re-reading; a task read by an id not read before is exploring (0.4); after the list changed elsewhere it is new", () => {
  const created = called("c1", "todo", { action: "create", subject: "Write tests" }, { details: rpivDetailsOf() });
  const afterCreate = (id: string, args: unknown) => readSnapshot(chain(user("a", { id: "u1" }), ...created, assistant(), ...called(id, "todo", args, { details: LISTED }), assistant()));
  assert.equal(afterCreate("c2", LIST_CALL).reply.last?.progress, false, "the list the agent just wrote");
  assert.equal(afterCreate("c2", { action: "get", id: 2 }).reply.last?.progress, true, "a task of it by an id not read before: exploring");
  const elsewhere = readSnapshot(chain(user("a", { id: "u1" }), ...created, assistant(), rpivState([task({ id: 1, status: "in_progress" })]), ...called("c2", "todo", LIST_CALL, { details: { action: "list", params: {}, tasks: [task({ id: 1, status: "in_progress" })], nextId: 2 } }), assistant()));
  assert.equal(elsewhere.reply.last?.progress, true, "the list changed since the agent last saw it");
  const failed = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "todo", LIST_CALL, { isError: true }), assistant()));
  assert.equal(failed.reply.last?.progress, false, "a read that failed read nothing");
  const tintinweb = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "TaskCreate", { subject: "x" }), assistant(), ...called("c2", "TaskList", {}), assistant()));
  assert.equal(tintinweb.reply.last?.progress, false, "a list kept in a file: read after the agent's own call");
});
