/**
 * A clear list that hands the testing to the person (SPEC §4.23) through the wiring on a fake pi: the
 * host reads the hand-over from the settle's reply, the stop record keeps kind `clear` and gains
 * `handsOver`, a print run writes the stderr line and sets `exitCode`, a passing check keeps the
 * hand-over, an offer of extras is an ordinary clear stop, and the transcript line shows the hand-over
 * as a stop that needs the person.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ioOf } from "../captured-io.ts";
import type { ComponentLike, RenderedEntryLike, ThemeLike } from "../../src/core/pi-shapes.ts";
import { registerRenderers } from "../../src/host/render.ts";
import { createFakePi } from "../fake-pi.ts";
import { completedBoth, harness, writeConfig } from "./wiring.ts";

const SENTENCE = "Please test the login page now.";
const WORDS = `stopped: list is clear · the agent asks you to test it: "${SENTENCE}"`;

test("print mode: a clear list whose reply asks the person to test it is recorded as clear with handsOver, writes the stderr line and sets exitCode", async (t) => {
  writeConfig(t, { exitCode: 5 });
  const h = harness({ mode: "print", hasUI: false });
  await h.settleWith();
  await h.toolsWith([completedBoth()]);
  assert.equal(await h.reply({ text: `Both tasks are done.\n\n${SENTENCE}` }), undefined, "no continuation");
  assert.deepEqual(h.records("todo-loop:stop"), [{ v: 1, kind: "clear", reason: WORDS, round: 1, open: 0, anchor: "u1", handsOver: SENTENCE }]);
  const io = ioOf(h.pi);
  assert.deepEqual(io.stderr, [`todo loop: ${WORDS}`]);
  assert.equal(io.exitCode, 5);
  assert.deepEqual(h.takeNotes(), [{ message: `todo loop ${WORDS}`, type: "warning" }], "announced as a stop that needs the person");
});

test("print mode: an offer of extras at a clear list is an ordinary clear stop — no handsOver, no stderr line, no exit status", async (t) => {
  writeConfig(t, { exitCode: 5 });
  const h = harness({ mode: "print", hasUI: false });
  await h.settleWith();
  await h.toolsWith([completedBoth()]);
  await h.reply({ text: "Both tasks are done. Want me to also add tests?" });
  assert.deepEqual(h.records("todo-loop:stop"), [{ v: 1, kind: "clear", reason: "stopped: list is clear", round: 1, open: 0, anchor: "u1" }]);
  const io = ioOf(h.pi);
  assert.deepEqual(io.stderr, []);
  assert.equal(io.exitCode, undefined);
  assert.deepEqual(h.takeNotes(), [{ message: "todo loop stopped: list is clear", type: "info" }]);
});

test("a passing verification keeps the hand-over: the record carries both verify and handsOver, and the stop needs the person", async (t) => {
  writeConfig(t, { verify: "true", exitCode: 6 });
  const h = harness({ mode: "json", hasUI: false });
  await h.settleWith();
  await h.toolsWith([completedBoth()]);
  assert.equal(await h.reply({ text: SENTENCE }), undefined, "the check passed: no continuation");
  const [record] = h.records("todo-loop:stop") as Array<Record<string, unknown>>;
  assert.equal(record?.kind, "clear");
  assert.equal(record?.handsOver, SENTENCE);
  assert.equal((record?.verify as { command: string; exit: number }).exit, 0);
  assert.match(String(record?.reason), /^stopped: list is clear · true passed \(\d+ s\) · the agent asks you to test it: "Please test the login page now\."$/);
  assert.equal(ioOf(h.pi).exitCode, 6);
  assert.equal(ioOf(h.pi).stderr.length, 1);
});

test("with tasks open the same sentence is the question stop it always was (kind question, no handsOver)", async () => {
  const h = harness({ mode: "rpc" });
  await h.settleWith();
  await h.reply({ text: SENTENCE });
  const records = h.records("todo-loop:stop") as Array<Record<string, unknown>>;
  assert.deepEqual(records.map((record) => [record.kind, record.handsOver]), [["question", undefined]]);
});

/** Marks each coloured span as `<colour>text</colour>`. */
const TAGS: ThemeLike = { fg: (color, text) => `<${color}>${text}</${color}>` };

function stopLine(data: unknown): string {
  const pi = createFakePi();
  registerRenderers(pi, () => true);
  const renderer = pi.entryRenderers.get("todo-loop:stop");
  assert.ok(renderer);
  const entry: RenderedEntryLike = { customType: "todo-loop:stop", data };
  const component: ComponentLike | undefined = renderer(entry, { expanded: false }, TAGS);
  assert.ok(component);
  return component.render(200)[0] ?? "";
}

test("transcript: the hand-over's stop line shows the sentence in the colour of a stop that needs the person; a verified one keeps its ✓", () => {
  const record = { v: 1, kind: "clear", reason: WORDS, round: 1, open: 0, anchor: "u1", handsOver: SENTENCE };
  assert.equal(stopLine(record), ` <warning>■ todo loop ${WORDS}</warning>`);
  const verified = { ...record, reason: `stopped: list is clear · npm test passed (41 s) · the agent asks you to test it: "${SENTENCE}"`, verify: { command: "npm test", exit: 0, seconds: 41 } };
  assert.equal(stopLine(verified), ` <warning>✓ todo loop ${verified.reason}</warning>`);
  // The ordinary clear line is unchanged.
  assert.equal(stopLine({ ...record, reason: "stopped: list is clear", handsOver: undefined }), " <accent>■</accent><dim> todo loop stopped: list is clear</dim>");
});
