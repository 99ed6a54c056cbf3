/**
 * Whether a reply ends with a question to the human (SPEC §4.8): the last non-empty line of the reply's
 * text, after a trailing code block and markdown decoration are dropped, ends with `?`, `？` or `؟`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { askedQuestion, replyText } from "../src/question.ts";

test("question: a reply whose last line ends with ? asks that line", () => {
  assert.equal(askedQuestion("I finished T3.\nShould I migrate the database now?"), "Should I migrate the database now?");
  assert.equal(askedQuestion("Shall I go on?"), "Shall I go on?");
});

test("question: the full-width ？ and the Arabic ؟ end a question too", () => {
  assert.equal(askedQuestion("次のタスクに進みますか？"), "次のタスクに進みますか？");
  assert.equal(askedQuestion("هل أتابع؟"), "هل أتابع؟");
});

test("question: a question followed by more text is not a question to the human", () => {
  assert.equal(askedQuestion("Should I go on?\nI will go on with T4."), undefined);
  assert.equal(askedQuestion("Should I go on? I will."), undefined);
  assert.equal(askedQuestion("Done with T3."), undefined);
});

test("question: trailing blank and whitespace-only lines are dropped first", () => {
  assert.equal(askedQuestion("Shall I go on?\n\n   \n\t\n"), "Shall I go on?");
});

test("question: every line break form separates lines (LF, CRLF, CR)", () => {
  assert.equal(askedQuestion("Done.\r\nShall I go on?"), "Shall I go on?");
  assert.equal(askedQuestion("Done.\rShall I go on?"), "Shall I go on?");
  assert.equal(askedQuestion("Shall I go on?\r\nI will."), undefined);
  assert.equal(askedQuestion("Shall I go on?\rI will."), undefined);
});

test("question: a reply with no text line asks nothing (empty, blank lines only, junk)", () => {
  assert.equal(askedQuestion(""), undefined);
  assert.equal(askedQuestion("\n\n  \n"), undefined);
  for (const junk of [undefined, null, 3, { text: "Why?" }, ["Why?"]]) assert.equal(askedQuestion(junk as unknown as string), undefined);
});

test("question: a trailing fenced code block is dropped, so the question before it counts", () => {
  assert.equal(askedQuestion("Which of these should I keep?\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n"), "Which of these should I keep?");
  assert.equal(askedQuestion("Which of these should I keep?\n~~~\nls -la\n~~~"), "Which of these should I keep?");
  assert.equal(askedQuestion("Which of these should I keep?\n   ```\nls\n   ```"), "Which of these should I keep?");
});

test("question: a question inside a code block is not a question to the human", () => {
  assert.equal(askedQuestion("Here is the prompt:\n```\nWhat is your name?\n```"), undefined);
  assert.equal(askedQuestion("```\nWhat is your name?\n```"), undefined);
  assert.equal(askedQuestion("Here is the prompt:\n\n```\nWhat is your name?\n```\n\n"), undefined);
});

test("question: a reply that ends inside an unclosed code block asks nothing", () => {
  assert.equal(askedQuestion("Shall I go on?\n```\nWhat is your name?"), undefined);
  assert.equal(askedQuestion("Shall I go on?\n```"), undefined);
});

test("question: a fence needs three backticks or tildes, indented by at most three spaces", () => {
  // Not fences: the lines are ordinary text, so the last line decides.
  assert.equal(askedQuestion("``\nWhat is it?"), "What is it?");
  assert.equal(askedQuestion("~~\nWhat is it?"), "What is it?");
  assert.equal(askedQuestion("    ```\nWhat is it?"), "What is it?");
  assert.equal(askedQuestion("Note ```\nWhat is it?"), "What is it?");
  // Fences: an unclosed one swallows the rest.
  assert.equal(askedQuestion("````\nWhat is it?"), undefined);
  assert.equal(askedQuestion("~~~~\nWhat is it?"), undefined);
  assert.equal(askedQuestion("\t```\nWhat is it?"), undefined);
});

test("question: quote, list and heading prefixes are stripped from the question", () => {
  const cases: Array<[string, string]> = [
    ["> Shall I go on?", "Shall I go on?"],
    ["- Shall I go on?", "Shall I go on?"],
    ["* Shall I go on?", "Shall I go on?"],
    ["+ Shall I go on?", "Shall I go on?"],
    ["• Shall I go on?", "Shall I go on?"],
    ["1. Shall I go on?", "Shall I go on?"],
    ["12) Shall I go on?", "Shall I go on?"],
    ["### Shall I go on?", "Shall I go on?"],
    ["  > Shall I go on?", "Shall I go on?"],
    [">\tShall I go on?", "Shall I go on?"],
    ["> > - Shall I go on?", "Shall I go on?"],
  ];
  for (const [line, question] of cases) assert.equal(askedQuestion(`Done.\n${line}`), question, line);
});

test("question: emphasis around the question is stripped at both ends", () => {
  const cases: Array<[string, string]> = [
    ["**Shall I go on?**", "Shall I go on?"],
    ["_Shall I go on?_", "Shall I go on?"],
    ["~~Shall I go on?~~", "Shall I go on?"],
    ["`Shall I go on?`", "Shall I go on?"],
    ["> **Shall I go on?**", "Shall I go on?"],
    ["- *Shall I go on?*  ", "Shall I go on?"],
  ];
  for (const [line, question] of cases) assert.equal(askedQuestion(line), question, line);
});

test("question: closing quotes and brackets after the question mark are stripped", () => {
  const cases: Array<[string, string]> = [
    ['He asks: "Shall I go on?"', 'He asks: "Shall I go on?'],
    ["(Shall I go on?)", "(Shall I go on?"],
    ["[Shall I go on?]", "[Shall I go on?"],
    ["{Shall I go on?}", "{Shall I go on?"],
    ["'Shall I go on?'", "'Shall I go on?"],
    ["“Shall I go on?”", "“Shall I go on?"],
    ["‘Shall I go on?’", "‘Shall I go on?"],
    ["«Shall I go on?»", "«Shall I go on?"],
    ["‹Shall I go on?›", "‹Shall I go on?"],
    ["「次に進みますか？」", "「次に進みますか？"],
    ["『次に進みますか？』", "『次に進みますか？"],
    ["【次に進みますか？】", "【次に進みますか？"],
    ["〈次に進みますか？〉", "〈次に進みますか？"],
    ["《次に進みますか？》", "《次に進みますか？"],
    ['("Shall I go on?")', '("Shall I go on?'],
  ];
  for (const [line, question] of cases) assert.equal(askedQuestion(line), question, line);
});

test("question: a prefix needs a space after it; text that only starts like one is kept", () => {
  assert.equal(askedQuestion("#hashtags or mentions?"), "#hashtags or mentions?");
  assert.equal(askedQuestion("1.5 or 2?"), "1.5 or 2?");
  assert.equal(askedQuestion("-v or --verbose?"), "-v or --verbose?");
  assert.equal(askedQuestion(">=2 or <2?"), ">=2 or <2?");
  assert.equal(askedQuestion("####### Seven hashes?"), "####### Seven hashes?");
  assert.equal(askedQuestion("1234567890. Ten digits?"), "1234567890. Ten digits?");
});

test("question: a bare marker line ends nothing and a bare prefix is not a question", () => {
  assert.equal(askedQuestion("Shall I go on?\n>"), undefined);
  assert.equal(askedQuestion("Shall I go on?\n-"), undefined);
  assert.equal(askedQuestion("Shall I go on?\n**"), undefined);
});

test("question: leading spaces of the line are not part of the question", () => {
  assert.equal(askedQuestion("Done.\n   Shall I go on?"), "Shall I go on?");
});

test("question: a question mark inside the line does not make it a question", () => {
  assert.equal(askedQuestion("Is it? It is."), undefined);
  assert.equal(askedQuestion("Shall I go on?."), undefined);
});

test("reply text: text blocks one per line; thinking and tool calls are not the reply", () => {
  const message = {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "Should I ask the user?" },
      { type: "text", text: "Done with T3." },
      { type: "toolCall", name: "todo", arguments: {}, text: "ignored?" },
      { type: "text", text: "Shall I go on?" },
    ],
  };
  assert.equal(replyText(message), "Done with T3.\nShall I go on?");
  assert.equal(askedQuestion(replyText(message)), "Shall I go on?");
});

test("reply text: a thinking block that ends with a question is not a question to the human", () => {
  const message = { role: "assistant", content: [{ type: "text", text: "Done with T3." }, { type: "thinking", thinking: "Should I ask?" }] };
  assert.equal(askedQuestion(replyText(message)), undefined);
});

test("reply text: string content is the reply; junk content and junk blocks give no text", () => {
  assert.equal(replyText({ role: "assistant", content: "Shall I go on?" }), "Shall I go on?");
  for (const junk of [undefined, null, "text", 3, []]) assert.equal(replyText(junk), "");
  assert.equal(replyText({ role: "assistant" }), "");
  assert.equal(replyText({ role: "assistant", content: 7 }), "");
  assert.equal(replyText({ role: "assistant", content: { type: "text", text: "Why?" } }), "");
  const blocks = [null, 3, "Why?", { type: "text" }, { type: "text", text: 4 }, { text: "no type?" }, { type: "text", text: "Done." }];
  assert.equal(replyText({ role: "assistant", content: blocks }), "Done.");
});
