/**
 * Progress is new information (SPEC §4.10, 0.4): another task id read is exploring; the same call with
 * the same arguments and the same result under one human message is a re-run, whatever words surround
 * it; the same call with another result (polling that moved) is progress, and its fingerprint differs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { TOOL_TABLE } from "../../src/sources/index.ts";
import { EMPTY_TRACK, trackAssistant, trackResult } from "../../src/core/reply.ts";
import type { ReplyFacts, ReplyTrack } from "../../src/core/reply.ts";
import { countReply, freshMemory } from "../../src/loop.ts";
import type { Memory } from "../../src/core/types.ts";

interface Call {
  readonly name: string;
  readonly args: unknown;
  /** The result's text. */
  readonly output: string;
  readonly isError?: boolean;
}

let serial = 0;

/** One reply: its calls (each in a turn of its own, with its result), then a closing text. `list` is the list signature the reader would pass. */
function reply(track: ReplyTrack, calls: readonly Call[], text: string, list = "L"): { track: ReplyTrack; facts: ReplyFacts } {
  let next = track;
  for (const call of calls) {
    const id = `c${serial++}`;
    next = trackAssistant(next, { role: "assistant", stopReason: "toolUse", content: [{ type: "toolCall", id, name: call.name, arguments: call.args }] });
    next = trackResult(TOOL_TABLE, next, { role: "toolResult", toolCallId: id, toolName: call.name, content: [{ type: "text", text: call.output }], isError: call.isError === true }, list);
  }
  next = trackAssistant(next, { role: "assistant", stopReason: "stop", content: [{ type: "text", text }] });
  assert.ok(next.last);
  return { track: next, facts: next.last };
}

/** Folds replies through the stuck and repeat counts as decide() does (the list never changes). */
function counts(replies: ReadonlyArray<{ calls: readonly Call[]; text: string }>, start: ReplyTrack = EMPTY_TRACK): Array<{ progress: boolean; stuck: number; repeats: number }> {
  let track = start;
  let memory: Memory = freshMemory("u1");
  const out: Array<{ progress: boolean; stuck: number; repeats: number }> = [];
  for (const step of replies) {
    const done = reply(track, step.calls, step.text);
    track = done.track;
    memory = { ...memory, ...countReply(memory, done.facts, false) };
    out.push({ progress: done.facts.progress, stuck: memory.stuck, repeats: memory.repeats });
  }
  return out;
}

const NPM_TEST: Call = { name: "bash", args: { command: "npm test" }, output: "1 failing: parser rejects empty input\nexit 1", isError: true };

test("progress: the same failing command re-run with different words is a re-run after its first run — the stuck count climbs", () => {
  const words = ["Let me run the tests.", "Running them again to be sure.", "One more time.", "Checking the tests.", "Trying the suite.", "Again.", "Once more.", "Last try."];
  const seen = counts(words.map((text) => ({ calls: [NPM_TEST], text })));
  assert.deepEqual(seen.map((step) => step.progress), [true, false, false, false, false, false, false, false]);
  assert.deepEqual(seen.map((step) => step.stuck), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(seen.map((step) => step.repeats), [1, 1, 1, 1, 1, 1, 1, 1], "different words: never the same fingerprint");
});

test("progress: the same command with another result (a CI status that moved) is progress, and only the same answer again repeats a fingerprint", () => {
  const poll = (status: string): Call => ({ name: "bash", args: { command: "gh run view 42 --json status" }, output: `{"status":"${status}"}` });
  const seen = counts(["queued", "in_progress", "in_progress", "completed"].map((status) => ({ calls: [poll(status)], text: "Still waiting for CI." })));
  assert.deepEqual(seen.map((step) => step.progress), [true, true, false, true], "the third answer told nothing new");
  assert.deepEqual(seen.map((step) => step.repeats), [1, 1, 2, 1], "a repeat only when the answer was the same");
});

test("progress: the same poll with the same answer three times is a repeat (the fingerprint holds the result's hash)", () => {
  const same: Call = { name: "bash", args: { command: "gh run view 42" }, output: "in_progress" };
  const seen = counts([1, 2, 3].map(() => ({ calls: [same], text: "Waiting." })));
  assert.deepEqual(seen.map((step) => step.repeats), [1, 2, 3]);
});

test("progress: reading five different task ids is exploring (rpiv-todo get, pi-tasks TaskGet); reading one of them again is not", () => {
  for (const [name, args] of [["todo", (id: number) => ({ action: "get", id })], ["TaskGet", (id: number) => ({ taskId: String(id) })]] as const) {
    const reads = [1, 2, 3, 4, 5, 3].map((id) => ({ calls: [{ name, args: args(id), output: `task ${id}` }], text: `Read task ${id}.` }));
    // The list was already seen by a todo call under this message: only the ids are news.
    const seen = counts(reads, { ...EMPTY_TRACK, todoSeen: "L" });
    assert.deepEqual(seen.map((step) => step.progress), [true, true, true, true, true, false], name);
    assert.deepEqual(seen.map((step) => step.stuck), [0, 0, 0, 0, 0, 1], name);
  }
});

test("progress: re-reading the whole list that did not change is still not progress; a failed read of a new id is not exploring", () => {
  const list: Call = { name: "todo", args: { action: "list" }, output: "2 open" };
  assert.deepEqual(counts([{ calls: [list], text: "a" }, { calls: [list], text: "b" }], { ...EMPTY_TRACK, todoSeen: "L" }).map((step) => step.progress), [false, false]);
  const failed: Call = { name: "todo", args: { action: "get", id: 9 }, output: "no task 9", isError: true };
  assert.deepEqual(counts([{ calls: [failed], text: "a" }], { ...EMPTY_TRACK, todoSeen: "L" }).map((step) => step.progress), [false]);
});

test("progress: an edit between two identical failing runs is the progress of that reply; the run after it is still a re-run if its result did not change", () => {
  const edit: Call = { name: "edit", args: { path: "src/parser.ts", oldText: "a", newText: "b" }, output: "Edited." };
  const seen = counts([
    { calls: [NPM_TEST], text: "Red." },
    { calls: [edit, NPM_TEST], text: "Fixed one thing; still red." },
    { calls: [NPM_TEST], text: "Still red." },
  ]);
  assert.deepEqual(seen.map((step) => step.progress), [true, true, false]);
});

test("progress: re-runs are counted per human message — a new message starts with none", () => {
  const first = reply(EMPTY_TRACK, [NPM_TEST], "Red.");
  const again = reply(first.track, [NPM_TEST], "Red again.");
  assert.equal(again.facts.progress, false);
  const fresh = reply(EMPTY_TRACK, [NPM_TEST], "Red under the new message.");
  assert.equal(fresh.facts.progress, true);
});
