/** What the tests of the table of forms assert: the sentence a reply asks or hands over, or none. */
import assert from "node:assert/strict";
import { askedQuestion, handsOver } from "../../src/core/question.ts";

/** A reply and the sentence it asks (the reply itself when it is one sentence). */
export type Case = string | readonly [string, string];

/**
 * The reply with a sentence of context before it that asks nothing (a reply is seldom one sentence): on the
 * same line, or on a line of its own when the reply has several lines.
 */
function reply(entry: Case, context: string): readonly [string, string] {
  const [text, sentence] = typeof entry === "string" ? [entry, entry] : entry;
  if (context === "") return [text, sentence];
  return [`${context}${text.includes("\n") ? "\n" : " "}${text}`, sentence];
}

export function asking(cases: readonly Case[], context = ""): void {
  for (const entry of cases) {
    const [text, sentence] = reply(entry, context);
    assert.equal(askedQuestion(text), sentence, text);
  }
}

export function askingNothing(replies: readonly string[], context = ""): void {
  for (const entry of replies) {
    const [text] = reply(entry, context);
    assert.equal(askedQuestion(text), undefined, text);
  }
}

export function handing(cases: readonly Case[], context = ""): void {
  for (const entry of cases) {
    const [text, sentence] = reply(entry, context);
    assert.equal(handsOver(text), sentence, text);
  }
}

export function handingNothing(replies: readonly string[], context = ""): void {
  for (const entry of replies) {
    const [text] = reply(entry, context);
    assert.equal(handsOver(text), undefined, text);
  }
}
