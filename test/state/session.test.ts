/**
 * The branch reader and the whole session (src/state.ts): the session's pause, the facts before any
 * human message, where a full read starts, and the plan-mode stack over another source's list.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_SNAPSHOT, extendSnapshot, readSnapshot, sessionPaused } from "../../src/state.ts";
import { assistant, chain, control, customMessage, nestedCallsResult, rpivState, task, toolResult, user, customEntry as stateEntry } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { openTexts, planSteps, replyBlocks, earlierOf } from "./branches.ts";

// ---- reader guards: the session's pause, the facts before any message, and the plan-mode stack ------------

test("sessionPaused: the newest pause, resume or continue anywhere in the session decides; reset and junk do not", () => {
  assert.equal(sessionPaused([]), false);
  assert.equal(sessionPaused("not entries" as unknown as unknown[]), false);
  assert.equal(sessionPaused([control("pause")]), true);
  assert.equal(sessionPaused([null, 5, "x", control("pause")]), true, "junk before the pause is skipped");
  assert.equal(sessionPaused([control("pause"), null]), true, "junk after it too");
  assert.equal(sessionPaused([control("pause"), control("resume")]), false);
  assert.equal(sessionPaused([control("pause"), control("continue")]), false);
  assert.equal(sessionPaused([control("resume"), control("pause")]), true);
  assert.equal(sessionPaused([control("pause"), control("reset")]), true, "a reset keeps the pause");
  assert.equal(sessionPaused([control("pause"), control("bogus")]), true, "an unknown action is no control");
});

test("reader: before any human message there are no earlier-message facts, even with a list on the branch", () => {
  for (const snapshot of [readSnapshot([]), EMPTY_SNAPSHOT, readSnapshot(chain(rpivState([task({ id: 1 })]))), extendSnapshot(EMPTY_SNAPSHOT, chain(rpivState([task({ id: 1 })])))]) {
    assert.equal(snapshot.earlierOpen, false);
    assert.equal(snapshot.earlierCarried, false);
    assert.equal(snapshot.earlierAdopted, false);
    assert.equal(snapshot.earlierShown, undefined);
    assert.equal(snapshot.previousAnchor, "");
  }
});

test("reader: only an earlier stop record with a string list is the list it was shown for; another stop keeps it", () => {
  const record = (data: Record<string, unknown>) => stateEntry("todo-loop:stop", { v: 1, round: 0, open: 2, anchor: "e3", reason: "x", ...data });
  const open = rpivState([task({ id: 1 }), task({ id: 2 })]);
  assert.equal(earlierOf(chain(user(), open, user("next"), record({ kind: "earlier", list: "abc" }))).earlierShown, "abc");
  assert.equal(earlierOf(chain(user(), open, user("next"), record({ kind: "clear", list: "abc" }))).earlierShown, undefined, "another kind's list field");
  assert.equal(earlierOf(chain(user(), open, user("next"), record({ kind: "earlier", list: 5 }))).earlierShown, undefined, "a list that is no string");
  assert.equal(earlierOf(chain(user(), open, user("next"), record({ kind: "earlier", list: "abc" }), record({ kind: "idle" }))).earlierShown, "abc", "a later stop of another kind keeps it");
});

test("reader: a codemode script adopts the list when any of its calls is the list's tool, junk calls skipped", () => {
  const open = rpivState([task({ id: 1 }), task({ id: 2 })]);
  const adopted = (calls: unknown[]) => earlierOf(chain(user(), open, user("next"), nestedCallsResult(calls))).earlierAdopted;
  assert.equal(adopted([{ name: "read", arguments: {} }, { name: "todo", arguments: { action: "list" } }]), true, "one call of two");
  assert.equal(adopted([null, 7, { name: 5 }, { name: "todo", arguments: {} }]), true, "after junk calls");
  assert.equal(adopted([{ name: "read", arguments: {} }]), false);
});

test("reader: another extension's hidden message between a tool result and the next message means the message was not carried over", () => {
  const open = rpivState([task({ id: 1 }), task({ id: 2 })]);
  assert.equal(earlierOf(chain(user(), open, toolResult("read", {}), user("Also fix the typo"))).earlierCarried, true, "right after a tool result: a follow-up");
  // (Not "next": a message that only says go on carries the list over wherever it comes, 0.4.)
  assert.equal(earlierOf(chain(user(), open, toolResult("read", {}), customMessage(), user("Also fix the typo"))).earlierCarried, false);
});

test("reader: a plan-mode reply that closes a step adopts an earlier plan; one that closes nothing does not", () => {
  const plan = planSteps([1, "a", false], [2, "b", false]);
  const earlierRecord = stateEntry("todo-loop:stop", { v: 1, kind: "earlier", list: "shown", round: 0, open: 2, anchor: "e3", reason: "x" });
  const closed = earlierOf(chain(user(), plan, user("next"), earlierRecord, replyBlocks("[DONE:1]")));
  assert.equal(closed.earlierAdopted, true);
  assert.equal(closed.earlierShown, undefined, "the list changed: a later earlier stop is news again");
  const quiet = earlierOf(chain(user(), plan, user("next"), earlierRecord, replyBlocks("Looking at it.")));
  assert.equal(quiet.earlierAdopted, false);
  assert.equal(quiet.earlierShown, "shown");
  assert.equal(earlierOf(chain(user(), plan, user("next"), replyBlocks("[DONE:9]"))).earlierAdopted, false, "a mark of no step changes nothing");
});

test("reader: plan mode switched off uncovers the list another source holds below it, in both reads", () => {
  const rpiv = rpivState([task({ id: 1, subject: "Below" }), task({ id: 2, subject: "Done", status: "completed" })]);
  const off = stateEntry("plan-mode", { enabled: false });
  for (const entries of [
    chain(user(), rpiv, planSteps([1, "a", false]), off),
    chain(user(), rpiv, planSteps([1, "a", false]), planSteps([1, "a", true]), off),
    chain(user(), rpiv, user("plan it"), planSteps([1, "a", false]), user("go"), off),
  ]) {
    for (const snapshot of [readSnapshot(entries), extendSnapshot(EMPTY_SNAPSHOT, entries)]) {
      assert.equal(snapshot.list?.source, "rpiv-todo");
      assert.deepEqual(openTexts(snapshot.list), ["Below"]);
      assert.deepEqual(snapshot.lists.map((list) => list.source), ["rpiv-todo"]);
    }
  }
  const alone = readSnapshot(chain(user(), planSteps([1, "a", false]), off));
  assert.equal(alone.list, undefined, "nothing below: no list at all");
  assert.deepEqual(alone.lists, []);
  const rpivOnTop = readSnapshot(chain(user(), planSteps([1, "a", false]), rpiv, off));
  assert.equal(rpivOnTop.list?.source, "rpiv-todo", "plan mode off under another source's newer list changes nothing");
});

test("reader: a marker's empty fp is none; a verification marker with an infinite duration or non-text content keeps the defaults", () => {
  const withDetails = (details: Record<string, unknown>, content: unknown = "Continue."): Entry => ({ type: "custom_message", customType: "todo-loop:continue", content, display: false, details: { v: 1, round: 1, anchor: "e1", open: 1, ...details } });
  const open = rpivState([task({ id: 1 })]);
  assert.equal(readSnapshot(chain(user(), open, withDetails({ fp: "" }))).fp, undefined);
  assert.equal(readSnapshot(chain(user(), open, withDetails({ fp: "abc" }))).fp, "abc");
  const fence = "```text\nboom\n```";
  const verify = { command: "npm test", run: 1, exit: 1, seconds: Number.POSITIVE_INFINITY };
  const memo = readSnapshot(chain(user(), open, withDetails({ verify }, `Fix it.\n${fence}\nThe user comes first.`))).verify;
  assert.equal(memo?.seconds, 0, "an infinite duration reads as 0");
  assert.equal(memo?.output, fence);
  const blocks = readSnapshot(chain(user(), open, withDetails({ verify: { ...verify, seconds: 3 } }, [fence]))).verify;
  assert.equal(blocks?.seconds, 3);
  assert.equal(blocks?.output, "```text\n(no output)\n```", "content that is not a string carries no output");
});

/** The branch behind a proxy that records which positions were read, and any read outside the array. */
function watched(entries: Entry[]): { branch: Entry[]; read: Set<number>; outside: string[] } {
  const read = new Set<number>();
  const outside: string[] = [];
  const branch = new Proxy(entries, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^-?\d+$/.test(key)) {
        const index = Number(key);
        if (index < 0 || index >= target.length) outside.push(key);
        else read.add(index);
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { branch, read, outside };
}

test("reader: a full read starts at the newest list or the message before the anchor, whichever is older, and reads nothing older than the control before it", () => {
  const entries = chain(
    user("old"),
    rpivState([task({ id: 1, subject: "Old" })]),
    assistant(),
    control("resume"),
    rpivState([task({ id: 1, subject: "Current" }), task({ id: 2, subject: "Next" })]),
    user("previous"),
    assistant(),
    user("anchor"),
    assistant(),
  );
  const { branch, read, outside } = watched(entries);
  const snapshot = readSnapshot(branch);
  assert.deepEqual(outside, [], "no position outside the branch is read");
  assert.equal(Math.min(...read), 3, "the walk back for the pause stops at the control; nothing older is read");
  assert.deepEqual(openTexts(snapshot.list), ["Current", "Next"]);
  assert.equal(snapshot.previousAnchor, "e6");
  assert.equal(snapshot.anchor, "e8");
  assert.deepEqual(snapshot, readSnapshot(entries));
  assert.deepEqual({ ...snapshot, reply: undefined }, { ...extendSnapshot(EMPTY_SNAPSHOT, entries), reply: undefined }, "the same as folding every entry");
});

test("reader: a full read with no earlier message, or no list before the anchor, reads from the first entry and never before it", () => {
  for (const entries of [
    chain(rpivState([task({ id: 1 })]), assistant(), user("anchor"), assistant()),
    chain(user("previous"), assistant(), user("anchor"), rpivState([task({ id: 1 })]), assistant()),
    chain(assistant(), user("anchor"), assistant()),
  ]) {
    const { branch, read, outside } = watched(entries);
    readSnapshot(branch);
    assert.deepEqual(outside, [], "no position outside the branch is read");
    assert.equal(Math.min(...read), 0);
  }
  const { branch, outside } = watched(chain(control("pause"), user()));
  assert.equal(sessionPaused(branch), true);
  assert.deepEqual(outside, [], "the session's pause reads no position outside it");
});

test("reader: the first human message, and one right after another, arrive after no work: nothing carried over", () => {
  assert.equal(earlierOf(chain(user())).earlierCarried, false);
  assert.equal(earlierOf(chain(rpivState([task({ id: 1 })]), user())).earlierCarried, false);
  assert.equal(earlierOf(chain(user(), rpivState([task({ id: 1 })]), user("next"), user("again"))).earlierCarried, false);
  assert.equal(EMPTY_SNAPSHOT.afterWork, false);
});

test("reader: plan mode switched off with no list on the branch, or with only another source's list, holds no plan", () => {
  const off = stateEntry("plan-mode", { enabled: false });
  for (const entries of [chain(user(), off), chain(off, user(), off)]) {
    for (const snapshot of [readSnapshot(entries), extendSnapshot(EMPTY_SNAPSHOT, entries)]) {
      assert.equal(snapshot.list, undefined);
      assert.deepEqual(snapshot.lists, []);
    }
  }
  const rpiv = readSnapshot(chain(user(), rpivState([task({ id: 1, subject: "Kept" })]), off));
  assert.deepEqual(openTexts(rpiv.list), ["Kept"]);
});
