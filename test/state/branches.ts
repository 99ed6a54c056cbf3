/**
 * Helpers the reader's test files share: junk where the reader expects an array, the texts of a list's
 * tasks, a list of two open tasks, plan-mode steps and reply blocks, a codemode script, and the
 * earlier-message facts of a branch read both ways.
 */
import type { TodoList } from "../../src/sources/index.ts";
import assert from "node:assert/strict";
import { EMPTY_SNAPSHOT, extendSnapshot, readSnapshot } from "../../src/state.ts";
import type { Snapshot } from "../../src/state.ts";
import { task, customEntry as stateEntry } from "../builders.ts";
import type { Entry } from "../builders.ts";

/** Any value passed where the reader expects an array: the reader must cope with what pi never promised. */
export function junk(value: unknown): readonly unknown[] {
  return value as readonly unknown[];
}

export function texts(list: TodoList | undefined): string[] {
  return (list?.tasks ?? []).map((item) => item.text);
}

export function openTexts(list: TodoList | undefined): string[] {
  return (list?.tasks ?? []).filter((item) => item.open).map((item) => item.text);
}

export const TWO_OPEN = [task({ id: 1, subject: "Write tests" }), task({ id: 2, subject: "Ship it" })];

/** pi's plan-mode entry while it executes these steps (`[step, text, completed]`). */
export function planSteps(...steps: Array<[number, string, boolean]>): Entry {
  return stateEntry("plan-mode", { enabled: false, executing: true, todos: steps.map(([step, text, completed]) => ({ step, text, completed })) });
}

/** An assistant reply with these content blocks. */
export function replyBlocks(content: unknown): Entry {
  return { type: "message", timestamp: "2026-11-30T00:00:00.000Z", message: { role: "assistant", content, stopReason: "stop", timestamp: 2 } };
}

/** A codemode result whose script called these tools. */
export function script(calls: unknown, complete = true): Entry {
  return { type: "message", message: { role: "toolResult", toolName: "codemode", details: {}, isError: false, nestedCalls: { calls, complete } } };
}

/** Both reads of a branch, which must agree on what §4.15 needs. */
export function earlierOf(entries: Entry[]): Pick<Snapshot, "earlierOpen" | "earlierCarried" | "earlierAdopted" | "earlierShown" | "previousAnchor"> {
  const full = readSnapshot(entries);
  const folded = extendSnapshot(EMPTY_SNAPSHOT, entries);
  const pick = (snapshot: Snapshot) => ({
    earlierOpen: snapshot.earlierOpen,
    earlierCarried: snapshot.earlierCarried,
    earlierAdopted: snapshot.earlierAdopted,
    earlierShown: snapshot.earlierShown,
    previousAnchor: snapshot.previousAnchor,
  });
  assert.deepEqual(pick(full), pick(folded), "a full read and a fold from the start agree");
  return pick(full);
}
