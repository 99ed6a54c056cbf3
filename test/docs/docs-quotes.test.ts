/**
 * The user docs quote the sentences the model receives; those quotes must be the product's own words
 * (src/core/text.ts), so a changed sentence cannot leave an old one in the docs. Every italic quote
 * (`*"…"*`, the docs' way of quoting what the model reads) and every code span that starts like a
 * reminder, in README.md and docs/*.md, must be one of the sentences the product builds (a quote ending
 * in `…` must be the start of one).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkInNudgeText, nudgeText, rereadNudgeText, wakeNudgeText } from "../../src/core/text.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TOOLS = [undefined, "todo", "todo_write", "todowrite", "TaskUpdate", "manage_todo_list"] as const;

/** Every sentence the model may read from the loop, for every todo tool. */
function productSentences(): string[] {
  const sentences: string[] = [];
  for (const tool of TOOLS) {
    sentences.push(nudgeText(tool, false), nudgeText(tool, true), wakeNudgeText(tool), checkInNudgeText(tool));
    if (tool !== undefined) sentences.push(rereadNudgeText(tool));
  }
  return sentences;
}

const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

/** The shipped docs: README.md and docs/*.md. */
function docs(): Array<{ file: string; text: string }> {
  const files = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => join("docs", name))];
  return files.map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));
}

/** The sentences a doc quotes as the product's: italic quotes, and code spans that open like a reminder. */
function quotedSentences(text: string): string[] {
  const italic = [...text.matchAll(/\*"([^"*]+)"\*/g)].map((match) => match[1] ?? "");
  const spans = [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "").filter((span) => /^(?:Continue with the open|The background work you|Your background work has)/.test(span));
  return [...italic, ...spans].map(squash);
}

function isProducts(quote: string, sentences: readonly string[]): boolean {
  const open = quote.endsWith("…") ? quote.slice(0, -1).trimEnd() : undefined;
  return sentences.some((sentence) => (open === undefined ? sentence === quote : sentence.startsWith(open)));
}

test("docs: every quoted reminder is one the product sends, word for word", () => {
  const sentences = productSentences().map(squash);
  const quotes = docs().flatMap(({ file, text }) => quotedSentences(text).map((quote) => ({ file, quote })));
  assert.ok(quotes.length >= 1, "the docs quote at least the reminder (docs/commands.md)");
  for (const { file, quote } of quotes) assert.ok(isProducts(quote, sentences), `${file} quotes a sentence the product does not send: "${quote}"`);
});

test("docs: the check finds a stale quote, a quote cut short with … and one spread over lines", () => {
  const sentences = productSentences().map(squash);
  const old = 'sees: *"Continue with the open tasks on your todo list. Use the todo tool to read the list and to update each task as you\nfinish it. The user\'s latest instruction outranks this reminder."*';
  const [stale] = quotedSentences(old);
  assert.equal(isProducts(stale ?? "", sentences), false, "the sentence 0.4.0's docs quoted is no longer sent");
  const [cut] = quotedSentences('*"Continue with the open tasks on your todo list. Use the todo tool …"*');
  assert.equal(isProducts(cut ?? "", sentences), true);
  const [span] = quotedSentences("the nudge is `Continue with the open steps of the plan. Mark nothing.`");
  assert.equal(isProducts(span ?? "", sentences), false);
});
