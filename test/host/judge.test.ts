/**
 * The judge's call through the wiring on a fake pi (SPEC §4.22, host/judge.ts): a fake `ctx.modelRegistry`
 * answers, hangs, rejects or waits for the run's abort; the turn goes on as without a judge, says so once
 * per cause, treats an abort as the person's Escape, and `/todoloop` shows the calls and the last problem.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ModelRegistryLike } from "../../src/core/pi-shapes.ts";
import { writeFileSync, rmSync } from "node:fs";
import { fieldOf, GLOBAL_OFF, harness, writeConfig } from "./wiring.ts";
import type { Harness } from "./wiring.ts";

const MODEL = "faux/judge";
const CLASSIFIER = { provider: "faux", id: "judge", api: "test-classify" };

interface Registry extends ModelRegistryLike {
  calls: unknown[];
}

/** A registry whose classifier answers `answer(signal)`; `find` knows no chat model. */
function registry(answer: (signal: AbortSignal | undefined) => Promise<unknown>): Registry {
  const calls: unknown[] = [];
  return {
    calls,
    findOfType: (type, provider, id) => (type === "classifier" && `${provider}/${id}` === MODEL ? CLASSIFIER : undefined),
    find: () => undefined,
    classify: (_model, context, options) => {
      calls.push(context);
      return answer(options?.signal);
    },
  };
}

function answered(p: number): Promise<unknown> {
  return Promise.resolve({ stopReason: "stop", answers: { waits: { type: "bool", probability: p } }, usage: { totalTokens: 120, cost: { total: 0.0004 } } });
}

function withRegistry(h: Harness, fake: Registry, signal?: AbortSignal): void {
  Object.assign(h.ctx, { modelRegistry: fake, ...(signal ? { signal } : {}) });
}

test("a judge that never answers and ignores the signal: the settle continues after judgeTimeoutSeconds, one warning however often", { timeout: 20_000 }, async (t) => {
  writeConfig(t, { judge: MODEL, judgeTimeoutSeconds: 1 });
  const h = harness();
  const fake = registry(() => new Promise(() => {}));
  withRegistry(h, fake);
  const first = await h.settleWith({ text: "Working on it." });
  assert.equal(first?.continue, true);
  assert.deepEqual(fieldOf(first?.entries?.at(-1) && fieldOf(first.entries.at(-1), "details"), "judge"), { model: MODEL, question: "waits", p: null, tokens: 0, cost: 0 });
  const second = await h.settleWith({ text: "Still working on it." });
  assert.equal(second?.continue, true);
  assert.equal(fake.calls.length, 2);
  const warnings = h.takeNotes().filter((note) => note.message.includes("the judge"));
  assert.deepEqual(warnings, [{ message: `todo loop: the judge "${MODEL}" gave no answer within judgeTimeoutSeconds; decided as without a judge`, type: "warning" }]);
});

test("a judge whose call rejects is an error: the settle continues", async (t) => {
  writeConfig(t, { judge: MODEL });
  const h = harness();
  withRegistry(h, registry(() => Promise.reject(new Error("socket hang up"))));
  const result = await h.settleWith({ text: "Working on it." });
  assert.equal(result?.continue, true);
  assert.deepEqual(h.takeNotes().filter((note) => note.message.includes("the judge")).map((note) => note.message), [
    `todo loop: the judge "${MODEL}" answered with an error (socket hang up); decided as without a judge`,
  ]);
});

test("an abort during the judge's call is the person's Escape: no continuation, the aborted-turn stop", async (t) => {
  writeConfig(t, { judge: MODEL });
  const h = harness();
  const controller = new AbortController();
  withRegistry(h, registry((signal) => new Promise((resolve) => signal?.addEventListener("abort", () => resolve({ stopReason: "aborted", answers: {} }), { once: true }))), controller.signal);
  const pending = h.settleWith({ text: "Working on it." });
  setTimeout(() => controller.abort(), 20);
  const result = await pending;
  assert.equal(result?.continue, undefined);
  await h.endRun();
  const records = h.records("todo-loop:stop");
  assert.deepEqual(records.map((record) => [fieldOf(record, "kind"), fieldOf(record, "reason")]), [["outcome", "stopped: you stopped it (Escape)"]]);
  assert.deepEqual(h.takeNotes().filter((note) => note.message.includes("the judge")), [], "no problem line for an abort");
});

test("/todoloop shows the judge's calls under the message and its last problem", async (t) => {
  writeConfig(t, { judge: MODEL });
  const h = harness();
  withRegistry(h, registry(() => answered(0.2)));
  const result = await h.settleWith({ text: "Working on it." });
  assert.equal(result?.continue, true);
  h.takeNotes();
  await h.command("");
  const status = h.takeNotes().map((note) => note.message).join("\n");
  assert.match(status, /judge faux\/judge: 1 call, 120 tokens, \$0\.0004/);
});

test("at or above the threshold the settle waits, the judge's model and p in the record; below it the marker keeps the call", async (t) => {
  writeConfig(t, { judge: MODEL, judgeThreshold: 0.8 });
  const h = harness();
  let p = 0.79;
  withRegistry(h, registry(() => answered(p)));
  const below = await h.settleWith({ text: "Working on it." });
  assert.equal(below?.continue, true);
  p = 0.8;
  assert.equal(await h.reply({ text: "Done with the tests. Restart the server to see it." }), undefined);
  const [record] = h.records("todo-loop:stop");
  assert.equal(fieldOf(record, "kind"), "question");
  assert.equal(fieldOf(record, "reason"), 'waiting for you: the judge read the reply as waiting for you: "Restart the server to see it."');
  assert.deepEqual(fieldOf(record, "judge"), { model: MODEL, question: "waits", p: 0.8, tokens: 120, cost: 0.0004 });
});

test("a message the person sends while the judge reads goes first: no continuation", async (t) => {
  writeConfig(t, { judge: MODEL });
  const h = harness();
  let queued = false;
  withRegistry(h, registry(() => {
    queued = true;
    return answered(0.1);
  }));
  Object.assign(h.ctx, { hasPendingMessages: () => queued });
  const result = await h.settleWith({ text: "Working on it." });
  assert.equal(result?.continue, undefined);
  assert.equal(result?.entries?.some((entry) => fieldOf(entry, "customType") === "todo-loop:continue") ?? false, false);
});

test("a kill switch created while the judge reads: nothing at all happens at that settle, not even the judge's marker", async (t) => {
  writeConfig(t, { judge: MODEL });
  const h = harness();
  withRegistry(h, registry(() => {
    // The person switches the loop off while the call is out.
    writeFileSync(GLOBAL_OFF, "");
    return answered(0.2);
  }));
  t.after(() => rmSync(GLOBAL_OFF, { force: true }));
  const result = await h.settleWith({ text: "Working on it." });
  assert.equal(result, undefined, "no continuation and no entries");
  assert.deepEqual(h.pi.appended, []);
  assert.equal(h.footer(), "todo loop off");
});
