/**
 * What one reply did, entry by entry (SPEC §4.10): the fingerprint's exact parts and hash (kept in
 * session files as a marker's `details.fp`, so they never change between versions), which results are
 * failures, which blocks are text and calls, and the bounds of what a reply remembers.
 */
import { TOOL_TABLE } from "../../src/sources/index.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { callPart, callResultPart, canonicalJson, foldFingerprint, hashText, readKey, resultHash, textPart } from "../../src/core/fingerprint.ts";
import { EMPTY_TRACK, MAX_READ_KEYS, trackAssistant, trackHumanMessage, trackResult } from "../../src/core/reply.ts";
import type { ReplyTrack } from "../../src/core/reply.ts";

type Message = { readonly [key: string]: unknown };

function calling(...calls: Array<{ id?: unknown; name?: unknown; arguments?: unknown }>): Message {
  return { role: "assistant", stopReason: "toolUse", content: calls.map((call) => ({ type: "toolCall", ...call })) };
}

function result(id: unknown, toolName: string, extra: Message = {}): Message {
  return { role: "toolResult", toolCallId: id, toolName, content: [], isError: false, ...extra };
}

test("fingerprint: the hash of a text is fixed across versions (marker details keep it)", () => {
  assert.equal(hashText(""), "0bdcb81aee8d8310c329583afc3b");
  assert.equal(hashText("abc"), "11f9f91ac18c8d110670909284e7");
  assert.equal(hashText("The same reply.\u0000call"), "048042bbfe71ad16bbdde42284bc");
  assert.equal(foldFingerprint("", "abc"), hashText("\u0000abc"));
  assert.equal(readKey("read", { path: "a" }), hashText('read\u0000{"path":"a"}'));
});

test("fingerprint: a result's hash is its outcome and canonical content, and a call's part carries it after the call", () => {
  assert.equal(resultHash([], false), hashText("ok\u0000[]"));
  assert.equal(resultHash([{ type: "text", text: "1 failing" }], true), hashText('error\u0000[{"text":"1 failing","type":"text"}]'));
  assert.equal(callResultPart("bash", {}, true, "h"), "call\u0000bash\u0000{}\u0000error\u0000result\u0000h");
});

test("fingerprint: a call's part is its name, canonical arguments and outcome; a text part is the words joined by one space", () => {
  assert.equal(callPart("bash", { command: "npm test", cwd: "." }, false), 'call\u0000bash\u0000{"command":"npm test","cwd":"."}\u0000ok');
  assert.equal(callPart("bash", {}, true), "call\u0000bash\u0000{}\u0000error");
  assert.equal(textPart(["Still  working.", "\nDone\t"]), "text\u0000Still working. Done");
  assert.equal(textPart([]), "text\u0000");
  assert.equal(textPart(["a", "b"]), "text\u0000a b", "blocks are joined by a space");
});

test("canonicalJson: null, booleans and undefined have one form; keys holding undefined are left out; a shared object is written each time", () => {
  assert.equal(canonicalJson([null, true, false, undefined, { b: undefined, a: 2 }]), "[null,true,false,null,{\"a\":2}]");
  const shared = { a: 1 };
  assert.equal(canonicalJson({ y: shared, x: shared }), '{"x":{"a":1},"y":{"a":1}}');
  const cycle: { self?: unknown } = {};
  cycle.self = cycle;
  assert.equal(canonicalJson(cycle), '{"self":"<…>"}');
});

test("canonicalJson: nesting is followed 64 levels deep, the 65th is a placeholder", () => {
  const nest = (levels: number): unknown => {
    let value: unknown = "leaf";
    for (let index = 0; index < levels; index++) value = [value];
    return value;
  };
  assert.ok(canonicalJson(nest(64)).includes('"leaf"'));
  assert.ok(!canonicalJson(nest(64)).includes("<…>"));
  assert.ok(canonicalJson(nest(65)).includes('"<…>"'));
  // Objects count their levels the same way.
  let record: unknown = "leaf";
  for (let index = 0; index < 65; index++) record = { k: record };
  assert.ok(canonicalJson(record).includes('"<…>"'));
  assert.ok(!canonicalJson(record).includes('"leaf"'));
});

test("reply: a new message starts from the empty track", () => {
  assert.deepEqual(trackHumanMessage(), { progress: false, running: "", calls: [], readKeys: [], runKeys: [], todoSeen: null, last: undefined });
  assert.deepEqual(EMPTY_TRACK.calls, []);
  assert.deepEqual(EMPTY_TRACK.readKeys, []);
});

test("reply: a result is a failure when isError, details.error (not null or false) or details.success false; other details are success", () => {
  const rows: Array<[Message, boolean]> = [
    [{}, false],
    [{ details: "text" }, false],
    [{ details: { error: null } }, false],
    [{ details: { error: false } }, false],
    [{ details: { error: "boom" } }, true],
    [{ details: { error: 0 } }, true],
    [{ details: { success: false } }, true],
    [{ details: { success: true } }, false],
    [{ isError: true }, true],
  ];
  for (const [extra, failed] of rows) {
    const track = trackResult(TOOL_TABLE, trackAssistant(EMPTY_TRACK, calling({ id: "c1", name: "bash", arguments: {} })), result("c1", "bash", extra));
    assert.equal(track.running, foldFingerprint("", callResultPart("bash", {}, failed, resultHash([], failed))), JSON.stringify(extra));
  }
  const failedEdit = trackResult(TOOL_TABLE, trackAssistant(EMPTY_TRACK, calling({ id: "e", name: "edit", arguments: { path: "a" } })), result("e", "edit", { details: { success: false } }));
  assert.equal(failedEdit.progress, false, "a failed edit changed nothing");
});

test("reply: the final text is the string content or the text blocks with string text, never thinking", () => {
  const end = (content: unknown) => trackAssistant(EMPTY_TRACK, { role: "assistant", stopReason: "stop", content }).last?.fingerprint;
  assert.equal(end("Done."), foldFingerprint("", textPart(["Done."])));
  assert.equal(end({ text: "Done." }), foldFingerprint("", textPart([])));
  assert.equal(end([{ type: "text", text: "a" }, { type: "thinking", thinking: "b", text: "b" }, { type: "text", text: 5 }, null, { type: "text", text: "c" }]), foldFingerprint("", textPart(["a", "c"])));
});

test("reply: at most 256 calls of a message are matched; blocks without a string name are skipped; an id that is not a string is none", () => {
  const many = calling(...Array.from({ length: 300 }, (_, index) => ({ id: `c${index}`, name: "bash", arguments: {} })));
  assert.equal(trackAssistant(EMPTY_TRACK, many).calls.length, 256);
  const mixed = trackAssistant(EMPTY_TRACK, { role: "assistant", stopReason: "toolUse", content: [null, { type: "text", text: "x" }, { type: "toolCall", id: "a", name: 7 }, { type: "toolCall", id: 9, name: "read", arguments: { path: "p" } }] });
  assert.deepEqual(mixed.calls, [{ id: "", name: "read", args: { path: "p" } }]);
  assert.equal(mixed.last, undefined);
});

test("reply: an errored or aborted message keeps the reply going: its progress and running fingerprint stay, its calls go", () => {
  const busy: ReplyTrack = { ...EMPTY_TRACK, progress: true, running: "r", calls: [{ id: "c", name: "bash", args: {} }] };
  for (const stopReason of ["error", "aborted"]) {
    const next = trackAssistant(busy, { role: "assistant", stopReason, content: [{ type: "text", text: "Oops." }] });
    assert.deepEqual(next, { ...busy, calls: [], last: undefined }, stopReason);
  }
  const ended = trackAssistant(busy, { role: "assistant", stopReason: "stop", content: "Done." });
  assert.deepEqual(ended.calls, []);
  assert.equal(ended.running, "");
  assert.equal(ended.progress, false);
  assert.deepEqual(ended.last, { progress: true, fingerprint: foldFingerprint("r", textPart(["Done."])) });
});

test("reply: a result matched to no call (no id, an empty or unknown id) is progress, fingerprinted by its tool name and '?'", () => {
  const pending = trackAssistant(EMPTY_TRACK, calling({ id: "", name: "read", arguments: {} }, { id: "c1", name: "read", arguments: {} }));
  for (const id of ["", undefined, 5, "zz"]) {
    const next = trackResult(TOOL_TABLE, pending, result(id, "read"));
    assert.equal(next.progress, true, String(id));
    assert.equal(next.running, foldFingerprint("", callResultPart("read", "?", false, resultHash([], false))), String(id));
  }
  const nameless = trackResult(TOOL_TABLE, pending, { role: "toolResult", toolCallId: "zz", content: [] });
  assert.equal(nameless.running, foldFingerprint("", callResultPart("", "?", false, resultHash([], false))));
  const matched = trackResult(TOOL_TABLE, pending, result("c1", "read"));
  assert.equal(matched.running, foldFingerprint("", callResultPart("read", {}, false, resultHash([], false))));
});

test("reply: read keys are capped per message, the oldest going first", () => {
  let track: ReplyTrack = EMPTY_TRACK;
  for (let index = 0; index <= MAX_READ_KEYS; index++) {
    track = trackAssistant(track, calling({ id: `r${index}`, name: "read", arguments: { path: `f${index}` } }));
    track = trackResult(TOOL_TABLE, track, result(`r${index}`, "read"));
  }
  assert.equal(track.readKeys.length, MAX_READ_KEYS);
  assert.equal(track.readKeys[0], readKey("read", { path: "f1" }));
  assert.equal(track.readKeys[MAX_READ_KEYS - 1], readKey("read", { path: `f${MAX_READ_KEYS}` }));
  const again = trackResult(TOOL_TABLE, trackAssistant({ ...track, progress: false }, calling({ id: "x", name: "read", arguments: { path: "f0" } })), result("x", "read"));
  assert.equal(again.progress, true, "a key that went out reads as new again");
});

test("reply: the list a todo call leaves is remembered only for a successful todo call; the default list is none", () => {
  const read = (track: ReplyTrack, id: string, extra: Message = {}, list?: string) =>
    trackResult(TOOL_TABLE, trackAssistant(track, calling({ id, name: "todo", arguments: { action: "list" } })), result(id, "todo", extra), ...(list === undefined ? [] : [list]));
  assert.equal(read(EMPTY_TRACK, "a").todoSeen, "");
  assert.equal(read(EMPTY_TRACK, "a", {}, "L1").todoSeen, "L1");
  assert.equal(read({ ...EMPTY_TRACK, todoSeen: "L1" }, "b", { isError: true }, "L2").todoSeen, "L1", "a failed todo call leaves it");
  const other = trackResult(TOOL_TABLE, trackAssistant({ ...EMPTY_TRACK, todoSeen: "L1" }, calling({ id: "c", name: "bash", arguments: {} })), result("c", "bash"), "L2");
  assert.equal(other.todoSeen, "L1", "another tool never sets it");
});

test("reply: a codemode call is progress only through its nested calls: a list holding one call that is not a read", () => {
  const run = (nestedCalls: unknown) => trackResult(TOOL_TABLE, trackAssistant(EMPTY_TRACK, calling({ id: "m", name: "codemode", arguments: {} })), result("m", "codemode", { nestedCalls })).progress;
  assert.equal(run({ complete: true, calls: "read" }), false, "calls that are not a list");
  assert.equal(run({ complete: true, calls: [{ name: "read", arguments: {} }, { name: "edit", arguments: {} }] }), true, "one edit among reads");
  assert.equal(run({ complete: true, calls: [{ name: "read", arguments: {} }] }), false);
  assert.equal(run({ complete: false, calls: [] }), true);
});

test("reply: a todo read that names one task, under any of the usual id argument names, explores: another task is progress, the same task again is not", () => {
  const read = (track: ReplyTrack, id: string, args: Message) =>
    trackResult(TOOL_TABLE, trackAssistant({ ...track, progress: false }, calling({ id, name: "todo", arguments: { action: "get", ...args } })), result(id, "todo"), "L");
  for (const name of ["id", "ids", "taskId", "task_id", "taskIds", "task_ids", "todoId", "todo_id", "index", "number"]) {
    const first = read({ ...EMPTY_TRACK, todoSeen: "L" }, "a", { [name]: 1 });
    assert.equal(first.progress, true, name);
    assert.equal(read(first, "b", { [name]: 2 }).progress, true, `${name}: another task`);
    assert.equal(read(first, "c", { [name]: 1 }).progress, false, `${name}: the same task`);
  }
  const seen = { ...EMPTY_TRACK, todoSeen: "L" };
  assert.equal(read(seen, "d", { id: null }).progress, false, "an id of null names no task");
  assert.equal(read(seen, "e", { id: undefined }).progress, false, "nor does a missing one");
  assert.equal(read(seen, "f", { path: "x" }).progress, false, "another argument is no task");
});

test("reply: a failed todo read of a task did not read it: the same task read successfully afterwards still explores", () => {
  const read = (track: ReplyTrack, id: string, extra: Message = {}) =>
    trackResult(TOOL_TABLE, trackAssistant({ ...track, progress: false }, calling({ id, name: "todo", arguments: { action: "get", id: 4 } })), result(id, "todo", extra), "L");
  const failed = read({ ...EMPTY_TRACK, todoSeen: "L" }, "a", { isError: true });
  assert.equal(failed.progress, false);
  assert.deepEqual(failed.readKeys, []);
  assert.equal(read(failed, "b").progress, true);
});

test("reply: a call repeated many times does not push out of the bounded lists what was read or run before it", () => {
  let track: ReplyTrack = EMPTY_TRACK;
  const step = (id: string, name: string, args: Message) => {
    track = trackResult(TOOL_TABLE, trackAssistant({ ...track, progress: false }, calling({ id, name, arguments: args })), result(id, name));
    return track.progress;
  };
  step("r0", "read", { path: "first" });
  step("b0", "bash", { command: "make" });
  for (let index = 1; index <= MAX_READ_KEYS + 1; index++) {
    step(`r${index}`, "read", { path: "again" });
    step(`b${index}`, "bash", { command: "npm test" });
  }
  assert.equal(step("rx", "read", { path: "first" }), false, "the first read is still known");
  assert.equal(step("bx", "bash", { command: "make" }), false, "the first run is still known");
});

test("reply: a todo read without arguments (TaskList, todo_read) reads the whole list: no task explored, and nothing thrown", () => {
  for (const name of ["TaskList", "todo_read"]) {
    const track = trackResult(TOOL_TABLE, trackAssistant({ ...EMPTY_TRACK, todoSeen: "L" }, calling({ id: "a", name })), result("a", name), "L");
    assert.equal(track.progress, false, name);
    assert.deepEqual(track.readKeys, [], name);
  }
});

test("reply: an assistant message with tool calls after an ended reply starts the next one: no reply is ended by it", () => {
  const ended = trackAssistant(EMPTY_TRACK, { role: "assistant", stopReason: "stop", content: "Done." });
  assert.ok(ended.last);
  assert.equal(trackAssistant(ended, calling({ id: "c", name: "bash", arguments: {} })).last, undefined);
});

test("reply: a re-run is the same tool with the same arguments and result: another command, or another tool with the same arguments, is progress", () => {
  let track: ReplyTrack = EMPTY_TRACK;
  const step = (id: string, name: string, args: Message) => {
    track = trackResult(TOOL_TABLE, trackAssistant({ ...track, progress: false }, calling({ id, name, arguments: args })), result(id, name, { content: [{ type: "text", text: "done" }] }));
    return track.progress;
  };
  assert.equal(step("a", "bash", { command: "make" }), true);
  assert.equal(step("b", "bash", { command: "make" }), false, "the same run again");
  assert.equal(step("c", "bash", { command: "make lint" }), true, "another command with the same answer");
  assert.equal(step("d", "write", { path: "a.ts" }), true);
  assert.equal(step("e", "edit", { path: "a.ts" }), true, "another tool with the same arguments and answer");
});

test("canonicalJson: NaN and the infinities are null, as JSON writes them", () => {
  assert.equal(canonicalJson([Number.NaN, Number.POSITIVE_INFINITY, -1.5]), "[null,null,-1.5]");
});
