/**
 * SPEC 0.4 §4.8, waiting for the person as real agents say it: the closing prose (the last paragraph, or
 * the lines under a closing heading) asks a question anywhere in it, asks the person to act before the work
 * can go on, or says it awaits their approval — and what is no wait: sign-offs, instructions for later use,
 * anything in code, a quotation or a URL. Every sentence here is written for these tests.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { askedQuestion } from "../src/core/question.ts";

test("asks: a question followed by an emoji or closing emphasis is still asked", () => {
  assert.equal(askedQuestion("The parser is in.\n\nShall I start on the exporter? 🚀"), "Shall I start on the exporter?");
});
