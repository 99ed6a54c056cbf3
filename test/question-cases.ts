/** The two checks the question tests are written in: what a reply asks, and that a reply asks nothing. */
import assert from "node:assert/strict";
import { askedQuestion } from "../src/core/question.ts";

/** A finished piece of work the cases open with. */
export const DONE = "The exporter is written and its tests pass.";

/** Each reply asks, and what it asks is the expected sentence. */
export function asks(cases: ReadonlyArray<readonly [string, string]>): void {
  for (const [reply, asked] of cases) assert.equal(askedQuestion(reply), asked, reply);
}

/** No reply asks anything. */
export function none(replies: readonly string[]): void {
  for (const reply of replies) assert.equal(askedQuestion(reply), undefined, reply);
}
