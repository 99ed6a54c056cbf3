/**
 * How the question detector reads a reply (SPEC §4.8): its last non-empty line, after trailing code blocks,
 * tag lines and markdown decoration are dropped, ends with `?`, `？` or `؟`; fences, invisible characters,
 * code, URLs and quotations. The word patterns are in question-requests.test.ts (0.3) and
 * question-closing.test.ts (0.4).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { askedQuestion, replyText } from "../src/core/question.ts";
import { sanitize } from "../src/core/sanitize.ts";
import { forAll } from "./gen.ts";
import type { Random } from "./gen.ts";

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

test("question: a fence needs three backticks or tildes, indented by at most three spaces (not a tab)", () => {
  // Not fences: the lines are ordinary text, so the last line decides.
  assert.equal(askedQuestion("``\nWhat is it?"), "What is it?");
  assert.equal(askedQuestion("~~\nWhat is it?"), "What is it?");
  assert.equal(askedQuestion("    ```\nWhat is it?"), "What is it?");
  assert.equal(askedQuestion("Note ```\nWhat is it?"), "What is it?");
  // Fences: an unclosed one swallows the rest.
  assert.equal(askedQuestion("````\nWhat is it?"), undefined);
  assert.equal(askedQuestion("~~~~\nWhat is it?"), undefined);
  // A tab indents by four columns: indented code, not a fence (CommonMark), so the line after it is prose.
  assert.equal(askedQuestion("\t```\nWhat is it?"), "What is it?");
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
    ["> **Shall I go on?**", "Shall I go on?"],
    ["- *Shall I go on?*  ", "Shall I go on?"],
  ];
  for (const [line, question] of cases) assert.equal(askedQuestion(line), question, line);
});

test("question: closing quotes and brackets after the question mark are stripped", () => {
  const cases: Array<[string, string]> = [
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
  assert.equal(askedQuestion("Is it cached?\n>"), undefined);
  assert.equal(askedQuestion("Is it cached?\n-"), undefined);
  // 0.4: a line of emphasis markers only is decoration, and a question to the person before a bare marker is still asked.
  assert.equal(askedQuestion("Is it cached?\n**"), "Is it cached?");
  assert.equal(askedQuestion("Shall I go on?\n>"), "Shall I go on?");
});

test("question: leading spaces of the line are not part of the question", () => {
  assert.equal(askedQuestion("Done.\n   Shall I go on?"), "Shall I go on?");
});

test("question: a question mark inside the line does not make it a question", () => {
  assert.equal(askedQuestion("Is it? It is."), undefined);
  assert.equal(askedQuestion("Is it?."), undefined);
  // 0.4: a question in its word order asks the person whatever mark ends it.
  assert.equal(askedQuestion("Shall I go on?."), "Shall I go on?.");
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

// ---------------------------------------------------------------------------------------------
// 0.3: measured on real replies. Each pattern by name; every sentence here is written for these tests.

test("question (0.3): invisible characters at the end of a line do not hide its question mark", () => {
  assert.equal(askedQuestion("هل أحذف الملف القديم؟\u200f"), "هل أحذف الملف القديم؟");
  assert.equal(askedQuestion("Shall I merge the branch?\u200b"), "Shall I merge the branch?");
  assert.equal(askedQuestion("Shall I merge the branch?\u2060\ufeff\u00ad"), "Shall I merge the branch?");
  assert.equal(askedQuestion("Shall I merge the branch?\n\u200b\n\u200e"), "Shall I merge the branch?");
  // Still text after it: an invisible character does not make a line blank when something visible is on it.
  assert.equal(askedQuestion("Shall I merge the branch?\n\u200bMerging now."), undefined);
});

test("question (0.3): fences pair as CommonMark pairs them, so a question next to a nested block is seen", () => {
  const nested = "Here is the README section:\n\n````md\n# Usage\n```sh\nnpm start\n```\n````\n\nShall I commit it?";
  assert.equal(askedQuestion(nested), "Shall I commit it?");
  const before = "Shall I commit this README section?\n\n````md\n```sh\nnpm start\n```\n````";
  assert.equal(askedQuestion(before), "Shall I commit this README section?");
  const tilde = "The notes:\n~~~\n```\n~~~\nShall I keep them?";
  assert.equal(askedQuestion(tilde), "Shall I keep them?");
  const longer = "Shall I add this block?\n```\ncode\n`````";
  assert.equal(askedQuestion(longer), "Shall I add this block?", "a closing fence may be longer than the opening one");
  // A shorter fence or the other character does not close: the reply ends inside the block.
  assert.equal(askedQuestion("Notes:\n````\n```\nShall I keep them?"), undefined);
  assert.equal(askedQuestion("Notes:\n~~~\n```\nShall I keep them?"), undefined);
  // A closing fence takes no info string; a backtick opener's info string holds no backtick.
  assert.equal(askedQuestion("Notes:\n```\n``` js\nShall I keep them?"), undefined);
  assert.equal(askedQuestion("``` not `a` fence\nShall I keep them?"), "Shall I keep them?");
  // Four spaces indent is no fence.
  assert.equal(askedQuestion("Notes:\n```\n    ```\nShall I keep them?"), undefined);
});

test("question (0.3): several trailing code blocks are dropped, and a question inside one is still code", () => {
  assert.equal(askedQuestion("Which layout do you prefer?\n```\nA\n```\n\n```\nB\n```"), "Which layout do you prefer?");
  assert.equal(askedQuestion("Two blocks:\n```\nA?\n```\n```\nB?\n```"), undefined);
});

test("tag line: a short bracketed line after the question keeps it a question", () => {
  for (const tag of ["[Notes written]", "(session archived)", "*[autosaved]*", "【已保存】", "[3 files logged]"]) {
    assert.equal(askedQuestion(`The migration script is ready.\n\nShall I run it against staging?\n\n${tag}`), "Shall I run it against staging?", tag);
  }
  assert.equal(askedQuestion("Shall I run it?\n[saved]\n(synced)"), "Shall I run it?", "two tag lines");
  assert.equal(askedQuestion("Shall I run it?\n\n---\n\n<!-- end of reply -->"), "Shall I run it?", "a rule and a comment say nothing");
  // Not tags: a long bracketed line, a link, a line with a question mark of its own, a bare number.
  // (A question to nobody in particular is asked only on the last line, so what is a trailer shows.)
  assert.equal(askedQuestion("Is it cached?\n[This bracketed line is far too long to be a tag line at all]"), undefined);
  assert.equal(askedQuestion("Is it cached?\n[the docs](https://example.com)"), undefined);
  assert.equal(askedQuestion("Is it cached?\n[1]"), undefined);
  assert.equal(askedQuestion("Is it cached?\n[a]\n[b]\n[c]\n[d]"), undefined, "more than three tag lines is text");
  // A statement with a tag under it is still a statement.
  assert.equal(askedQuestion("Pushed to main.\n\n[Notes written]"), undefined);
});

test("parenthetical: a short parenthetical after the question mark keeps it a question", () => {
  assert.equal(askedQuestion("Shall I squash the commits first? (I would say yes)"), "Shall I squash the commits first?");
  assert.equal(askedQuestion("**Shall I squash the commits first?** (my advice: yes)"), "Shall I squash the commits first?");
  assert.equal(askedQuestion("要先合并提交吗？（建议：是）"), "要先合并提交吗？");
  assert.equal(askedQuestion("Shall I squash them? (yes/no)"), "Shall I squash them?");
  // Text after the parenthetical, or a parenthetical with its own sentence after, is more text.
  assert.equal(askedQuestion("Shall I squash them? (yes/no) I will."), undefined);
});

test("question (0.3): an offer after finished work still asks when it ends on a question mark", () => {
  assert.equal(askedQuestion("All done and committed.\n\nWant me to also tidy the imports?"), "Want me to also tidy the imports?");
  assert.equal(askedQuestion("已全部完成。需要我再调整别的地方吗？"), "已全部完成。需要我再调整别的地方吗？");
});

test("question (0.3): a ? in inline code, a URL or a type signature is not a question", () => {
  const cases = [
    "The field is now `error?: string`.",
    "The result type is `{ ok: boolean; error?: string }`",
    "Use `a ?? b` or `a?.b`",
    "`Shall I go on?`",
    "See https://example.com/search?q=todo",
    "https://example.com/search?",
    "See https://example.com/search?",
    "Docs: <https://example.com/faq?>",
    "function parse(input: string, strict?: boolean)",
  ];
  for (const reply of cases) assert.equal(askedQuestion(`Done.\n${reply}`), undefined, reply);
  // A ? after the code or the URL is prose again.
  assert.equal(askedQuestion("Shall I rename `error?` to `failure`?"), "Shall I rename `error?` to `failure`?");
  assert.equal(askedQuestion("Can you open http://localhost:3000 and check the header?"), "Can you open http://localhost:3000 and check the header?");
  assert.equal(askedQuestion("Can you open http://localhost:3000?"), "Can you open http://localhost:3000?");
});

test("question (0.3): a quoted question that opens after other text is not asked; a rhetorical one neither", () => {
  const cases = [
    'The dialog now reads "Discard your changes?"',
    "The prompt says: 'Are you sure?'",
    "Der Dialog fragt jetzt „Änderungen verwerfen?“",
    "La boîte affiche « Quitter ? »",
    "ダイアログには「保存しますか？」と表示されます",
    "弹窗现在显示「要保存吗？」",
    "Who knew a missing semicolon could do that?",
    "What could possibly go wrong?",
  ];
  for (const reply of cases) assert.equal(askedQuestion(`I changed the dialog.\n${reply}`), undefined, reply);
  // A whole line in quotes or brackets is still the agent's own question.
  assert.equal(askedQuestion('"Shall I go on?"'), '"Shall I go on?');
  assert.equal(askedQuestion('("Shall I go on?")'), '("Shall I go on?');
});

test("question (0.3): cases a text rule cannot tell, decided: asked is asked, answered is answered", () => {
  // The agent asks whether to go on while tasks are open: the guideline says not to ask, but it asked, so the loop waits.
  assert.equal(askedQuestion("T1 and T2 are done.\n\nShould I proceed with the rest?"), "Should I proceed with the rest?");
  // A question the reply answers itself, on the same line or the next, asks nothing — even when the
  // second sentence only says what going on would do.
  // 0.4: a question to the person that one explanation follows still waits.
  assert.equal(askedQuestion("Ready to go on with the parser? This will touch three files."), "Ready to go on with the parser?");
  assert.equal(askedQuestion("Should I go on?\nI will."), undefined);
});

test("question (0.3): a line past the tail limit is read by its end; a long line of decoration is no question", () => {
  const long = `${"word ".repeat(5000)}shall I go on?`;
  assert.match(askedQuestion(long) ?? "", /shall I go on\?$/);
  assert.equal(askedQuestion(`Done.\n${"*".repeat(100_000)}`), undefined);
  assert.equal(askedQuestion(`Done.\n${"`".repeat(100_000)}x`), undefined);
});

// ---------------------------------------------------------------------------------------------
// Properties over generated replies (10,000 seeded cases each; a failure names its seed).

const CASES = 10_000;
const WORDS = ["the", "parser", "config", "tests", "pass", "build", "cache", "schema", "loader", "fixed", "updated", "branch", "file", "main", "render", "layout", "docs", "значение", "файл", "配置", "测试", "設定", "ファイル", "archivo", "Datei", "fichier"];
const INVISIBLES = ["\u200b", "\u200e", "\u200f", "\u2060", "\ufeff", "\u00ad", "\u061c"];

function words(rng: Random, min: number, max: number): string {
  return Array.from({ length: rng.int(min, max) }, () => rng.pick(WORDS)).join(" ");
}

/** A line that states something: it may hold a `?` mid-line, inline code, a URL or a list prefix, never a question at its end. */
function statement(rng: Random): string {
  const body = rng.pick([
    () => `${words(rng, 1, 8)}.`,
    () => `Why ${words(rng, 1, 3)}? Because ${words(rng, 1, 4)}.`,
    () => `The field is \`${rng.pick(["error?: string", "a ?? b", "x?.y", "name?"])}\` now.`,
    () => `See https://example.com/${rng.pick(["a", "b/c"])}?q=${rng.int(1, 99)} for ${words(rng, 1, 3)}.`,
    () => `${words(rng, 1, 4)}: done`,
  ])();
  return `${rng.pick(["", "", "- ", "> ", "1. ", "**"])}${body}`;
}

/** A question to the person, in one of several languages and decorations. */
function question(rng: Random): string {
  const stem = rng.pick([
    () => `Shall I ${words(rng, 1, 4)}?`,
    () => `Should I update the ${rng.pick(WORDS)}?`,
    () => `Want me to also ${words(rng, 1, 3)}?`,
    () => `要我更新${rng.pick(["配置", "测试", "文档"])}吗？`,
    () => `${rng.pick(["設定", "ファイル"])}を更新しますか？`,
    () => `Обновить ${rng.pick(["файл", "конфигурацию"])}?`,
    () => `¿Actualizo el ${rng.pick(["archivo", "esquema"])}?`,
    () => `Soll ich die ${rng.pick(["Datei", "Tabelle"])} löschen?`,
    () => `Dois-je mettre à jour le ${rng.pick(["fichier", "schéma"])} ?`,
    () => "هل أحذف الملف؟",
  ])();
  const decorated = rng.pick([stem, `**${stem}**`, `> ${stem}`, `- ${stem}`, `_${stem}_`, `2. ${stem}`]);
  const aside = rng.chance(0.3) ? ` (${rng.pick(["recommended", "yes/no", "default: yes", "建议：是"])})` : "";
  const invisible = rng.chance(0.3) ? rng.pick(INVISIBLES) : "";
  return `${decorated}${aside}${invisible}`;
}

function prose(rng: Random): string[] {
  return Array.from({ length: rng.int(0, 5) }, () => (rng.chance(0.2) ? "" : statement(rng)));
}

/** How a reply ends when the `?` at its end is code, a URL or a quotation. */
function codeEnding(rng: Random): string {
  const asked = question(rng);
  return rng.pick([
    () => `\`\`\`\n${asked}\n\`\`\``,
    () => `~~~~md\n\`\`\`\n${asked}\n\`\`\`\n~~~~`,
    () => `\`\`\`\`\n${asked}\n\`\`\``, // unclosed: a shorter fence does not close
    () => `~~~\n${asked}\n\`\`\``, // unclosed: the other character does not close
    () => `\`\`\`ts\nconst a = b ?? c;\nfunction f(x?: number) {}\n${asked}`, // unclosed at the end
    () => `Run \`${asked}\``,
    () => `\`${rng.pick(["error?: string", "a?.b ?? c", "Maybe<T>?"])}\``,
    () => rng.pick(["https://example.com/find?", "https://example.com/a?b=1&c=?", "See https://example.com/?"]),
    () => `${rng.pick(["The dialog reads", "It prints", "Der Dialog zeigt", "La page affiche", "画面には"])} ${rng.pick(['"', "“", "«", "「", "'"])}${asked.replace(/^[-*_>\d. ]+/u, "")}${rng.pick(['"', "”", "»", "」", "'"])}`,
  ])();
}

test(`property: a reply that ends with code, a URL or a quoted question never waits (${CASES} cases)`, (t) => {
  let fenced = 0;
  const count = forAll(
    "question-code-ending",
    CASES,
    (rng) => ({ lines: prose(rng), ending: codeEnding(rng), tags: rng.chance(0.3) ? ["", "[saved]"] : [] }),
    ({ lines, ending, tags }) => {
      if (ending.includes("\n")) fenced += 1;
      const reply = [...lines, ending, ...tags].join("\n");
      assert.equal(askedQuestion(reply), undefined, reply);
    },
  );
  t.diagnostic(`${count} replies, ${fenced} ending in a fenced block`);
  assert.ok(fenced > count / 4, "the generator reaches fenced endings");
});

test(`property: a trailing tag line after a question keeps it the same question (${CASES} cases)`, (t) => {
  let tagged = 0;
  const count = forAll(
    "question-tag-line",
    CASES,
    (rng) => ({
      lines: prose(rng),
      asked: question(rng),
      tags: Array.from({ length: rng.int(1, 3) }, () => `${rng.chance(0.5) ? "\n" : ""}${rng.pick(["[Logs saved]", "[notes]", "(auto-saved)", "*[synced]*", "【已保存】", "[сохранено]", "---", "<!-- end -->"])}`),
    }),
    ({ lines, asked, tags }) => {
      const reply = [...lines, asked].join("\n");
      const before = askedQuestion(reply);
      assert.notEqual(before, undefined, reply);
      assert.equal(askedQuestion(`${reply}\n${tags.join("\n")}`), before, `${reply} + ${tags.join(" ")}`);
      tagged += 1;
    },
  );
  t.diagnostic(`${count} questions, ${tagged} with tag lines`);
});

test("question (0.3): the limits of the trailing patterns — three tag lines of at most 48 characters, twelve options", () => {
  assert.equal(askedQuestion("Shall I run it?\n[a]\n[b]\n[c]"), "Shall I run it?", "three tag lines");
  const longest = `[${"x".repeat(46)}]`;
  assert.equal(askedQuestion(`Shall I run it?\n${longest}`), "Shall I run it?", "a tag line of 48 characters");
  assert.equal(askedQuestion(`Is it cached?\n[${"x".repeat(47)}]`), undefined, "49 characters are a line of text");
  const twelve = Array.from({ length: 12 }, (_, i) => `- option ${i}`).join("\n");
  assert.equal(askedQuestion(`Would you like me to:\n${twelve}`), "Would you like me to:", "twelve options");
  assert.equal(askedQuestion("Would you like me to:\n- only one"), "Would you like me to:", "one option");
});

test("question (0.3): a long reply is read by its end, however many lines and blocks come before", () => {
  const body = Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? "```\ncode?\n```" : `Line ${i} of the report.`)).join("\n");
  assert.equal(askedQuestion(`${body}\n\nWould you like me to:\n1. Ship it\n2. Wait`), "Would you like me to:");
  assert.equal(askedQuestion(`${body}\n\nShall I ship it?\n\n[saved]`), "Shall I ship it?");
  assert.equal(askedQuestion(`${body}\nShall I ship it?\nIf yes, I tag the release.`), "Shall I ship it?");
  assert.equal(askedQuestion(`${body}\nAll shipped.`), undefined);
});

test("question (0.3): a line of invisible characters only, astral ones included, is blank; a closing fence may end in tabs", () => {
  assert.equal(askedQuestion("Shall I run it?\n\u{e0041}\u{e0100}"), "Shall I run it?");
  assert.equal(askedQuestion("Shall I run it?\n\u00a0\u3000"), "Shall I run it?", "no-break and ideographic spaces are blank too");
  assert.equal(askedQuestion("Shall I run it?\n```\ncode\n```\t \t"), "Shall I run it?");
  assert.equal(askedQuestion("Shall I run it?\n```\ncode\n``` x"), undefined, "text after a fence does not close it");
  assert.equal(askedQuestion("Is it cached?\n\u{1f600} x"), undefined, "an astral emoji is visible");
  assert.equal(askedQuestion("😀 Shall I run it? 😀\n\u{1f600}"), "Shall I run it?", "0.4: emoji around the question and on a line of their own are decoration");
});

test("question (0.3): each rhetorical opener asks nobody", () => {
  for (const line of ["Who knew it was the cache?", "Who would have thought?", "Who would have guessed?", "What could go wrong?", "What could possibly go wrong?", "How cool is that?", "How neat is that?", "How great is that?", "Why not?"]) {
    assert.equal(askedQuestion(`It works.\n${line}`), undefined, line);
  }
  assert.equal(askedQuestion("It works.\nWhy nothing changed, should I look?"), "Why nothing changed, should I look?");
});

test("question (0.3): the edges of each reading rule", () => {
  const asks: Array<[string, string]> = [
    ["Shall I?\n* * *", "Shall I?"],
    ["Shall I?\n___", "Shall I?"],
    ["Shall I?\n- - -", "Shall I?"],
    ["Shall I?\n   ---", "Shall I?"],
    ["Shall I?\n   [saved]", "Shall I?"],
    ["Would you like me to:\n  - ship\n  - wait", "Would you like me to:"],
    ["Would you like me to:\n-  ship\n-  wait", "Would you like me to:"],
    ["Would you like me to:\n10. ship\n11. wait", "Would you like me to:"],
    ['He said "really?" — shall I go on?', 'He said "really?" — shall I go on?'],
    ['Shall I go on?"', "Shall I go on?"],
    ["Can  you  open  http://localhost:3000?", "Can  you  open  http://localhost:3000?"],
    ["~~~ notes with `ticks`\nWhat?\n~~~\nShall I keep them?", "Shall I keep them?"],
    ["Shall I?\n```\na\n```\n[x]\n```\nb\n```\n[y]\n[z]", "Shall I?"],
    ["¿Cuál prefiere Usted?\n- a\n- b", "¿Cuál prefiere Usted?"],
  ];
  for (const [reply, asked] of asks) assert.equal(askedQuestion(reply), asked, reply);
  const none = [
    "Why?\nok ---",
    "Why?\n--- ok",
    "Why?\nok <!-- x -->",
    "Why?\n<!-- x --> ok",
    "Would you like me to:\nnot - a list",
    "So, who knew this would work",
    "The dialog reads (\"Discard changes?\")",
    "Done.\n`npm test`?",
    " ``\nWhat is it",
    "Why?\n```\nx\n```\nIf yes, I go on.",
    "Would you like me to:\n```\nx\n```\n- ship\n- wait",
    "Done.\nWould you like me to:",
    "Which one: SQLite or Postgres\n- a\n- b",
    "If yes, I go on.",
    "Is it cached?\n\u200bx",
    "Is it cached?\n\u007f x",
  ];
  for (const reply of none) assert.equal(askedQuestion(reply), undefined, reply);
  assert.equal(askedQuestion("Shall I go on?\n\u007f"), "Shall I go on?", "DEL is invisible");
  assert.equal(askedQuestion("So, who knew this?"), "So, who knew this?", "a rhetorical opener only at the start");
  assert.equal(askedQuestion("  ``\nWhat is it?"), "What is it?", "two backticks after spaces are no fence");
});

test("question (0.3): a thematic break under a question that speaks to nobody in particular is still dropped", () => {
  for (const rule of ["- - -", "* * *", "_ _ _", "***", "---", "___"]) assert.equal(askedQuestion(`Ready?\n${rule}`), "Ready?", rule);
  for (const notRule of ["*", "--", "_ _"]) assert.equal(askedQuestion(`Is it cached?\n${notRule}`), undefined, notRule);
});

test("question: a terminal escape sequence inside the question goes whole, payload and all, not only its escape byte", () => {
  // As the wait reason shows it: sanitised after (spaces collapsed).
  assert.equal(sanitize(askedQuestion("Which \u001b]777;notify;x;y\u0007 database should I use?")), "Which database should I use?");
  assert.equal(askedQuestion("Ready \u001b[31mnow\u001b[0m?"), "Ready now?");
  assert.equal(askedQuestion("Done \u001b]0;title?\u0007"), undefined, "a ? inside an escape's payload is no question");
});

test("parenthetical: only a parenthetical at the very end of the line is dropped, and only right after the question mark", () => {
  assert.equal(askedQuestion("Done.\nIs it ready? (yes) Shall I go on?"), "Is it ready? (yes) Shall I go on?", "a parenthetical mid-line stays in the question");
  assert.equal(askedQuestion("Shall I squash them? I would (probably)"), undefined, "words between the mark and the parenthetical are more text");
});

test("question (0.3): a code span of any number of backticks is code, so a question mark after code alone asks nothing", () => {
  assert.equal(askedQuestion("Done.\n``npm test``?"), undefined);
  assert.equal(askedQuestion("Done.\n`confirm()` \"Are you sure?\""), undefined, "code before a quotation is other text");
  assert.equal(askedQuestion("`cfg` at http://localhost:3000?"), "`cfg` at http://localhost:3000?", "code counts as a word before a URL");
});

test("question (0.3): the punctuation after a URL is prose, all of it, and only a URL at the end of the line needs words before it", () => {
  assert.equal(askedQuestion("Can you open http://localhost:3000?**"), "Can you open http://localhost:3000?");
  assert.equal(askedQuestion("Is http://localhost:3000? Or should I use the other port?"), "Is http://localhost:3000? Or should I use the other port?");
  const shared = "Once you share https://example.com/gist with me, I'll fix it.";
  assert.equal(askedQuestion(`Ok.\n${shared}`), shared, "a URL without punctuation after it does not split the sentence");
});

test("question (0.3): an HTML comment is a trailer only when nothing but spaces follows it", () => {
  assert.equal(askedQuestion("Why?\n<!-- x -->ok"), undefined);
});

test("question (0.3): a quotation ends the line only when nothing but decoration follows its closing quote", () => {
  assert.equal(askedQuestion('Done.\nKeep the "Sure?"-prompts?'), 'Keep the "Sure?"-prompts?');
});

test("question (0.3): a line of one astral character is blank only when that character is invisible", () => {
  assert.equal(askedQuestion("Shall I run it?\n\u{10ffff}"), "Shall I run it?", "a noncharacter at the top of the last plane is invisible");
  assert.equal(askedQuestion("Shall I run it?\n😀"), "Shall I run it?", "0.4: an emoji alone on the last line is decoration");
  assert.equal(askedQuestion("Is it cached?\n😀 x"), undefined, "an emoji before text is not");
  assert.equal(askedQuestion("Is it cached?\n\ufeffx"), undefined, "a visible letter after an invisible BMP character is text");
});

test("question (0.3): any number of consecutive code blocks after a question count as one", () => {
  assert.equal(askedQuestion(`Shall I go on?\n${"```\nx\n```\n".repeat(100)}`), "Shall I go on?");
});

test("reply text: an undefined block is skipped like any other junk block", () => {
  assert.equal(replyText({ role: "assistant", content: [undefined, { type: "text", text: "Done." }] }), "Done.");
});

// A question that asks nobody (no you, I or we): only the last-line reading finds it, so these cases show
// what that reading alone sets aside after it.
const PLAIN = "Is the cache stale?";

test("question: a line of nothing visible after the question is no line (no-break space, zero-width space, control or tag character)", () => {
  for (const tail of ["\u00a0\n\u200b", "\u007f", "\u{E0001}"]) assert.equal(askedQuestion(`${PLAIN}\n\n${tail}`), PLAIN, JSON.stringify(tail));
});

test("question: tag lines, rules and emoji lines after the question are set aside, three of them at most", () => {
  const tails = ["[2 files saved]", " [2 files saved] ", `[${"x".repeat(46)}]`, "- - -", "***", "___", "_ _ _"];
  for (const tail of tails) assert.equal(askedQuestion(`${PLAIN}\n\n${tail}`), PLAIN, tail);
  assert.equal(askedQuestion(`${PLAIN}\n\n_`), undefined, "one underscore is no rule");
  assert.equal(askedQuestion(`${PLAIN}\n🚀\n🚀\n🚀\n🚀`), undefined, "four emoji lines are more than a sign-off");
});

test("question: any number of code blocks after the question are set aside", () => {
  assert.equal(askedQuestion(`${PLAIN}\n\n${"```\nx\n```\n\n".repeat(400)}`), PLAIN);
});

test("question: a fence indented by up to three spaces opens a block on any line", () => {
  assert.equal(askedQuestion(`Done.\n   \`\`\`\n${PLAIN}`), undefined);
});

test("question: a quotation that opens the line is the agent's own question; a closing quote alone opens none", () => {
  assert.equal(askedQuestion(`"${PLAIN}"`), `"${PLAIN}`);
  assert.equal(askedQuestion("Does it build?”"), "Does it build?");
});

test("question: a URL right before the mark asks with two words before it, however they are spaced; a URL alone asks nothing", () => {
  for (const line of ["Deployed  to https://staging.example.com/?", "Deployed to  https://staging.example.com/?"]) assert.equal(askedQuestion(line), line);
  assert.equal(askedQuestion("Done.\n\nhttps://example.com/status ?"), undefined);
});

test("question: the text before the closing prose, however long, leaves the answer as it is", () => {
  const lead = Array.from({ length: 23 }, (_, i) => `Note ${i} on the change.`).join("\n");
  const list = Array.from({ length: 24 }, (_, i) => `- module ${i}`).join("\n");
  const tail = "```\nx\n```\n[a]\n```\nx\n```\n[b]\n```\nx\n```\n[c]\n```\nx\n```";
  const reply = `Shall I merge the branch?\n${lead} It touches:\n\n${list}\n\n${tail}`;
  for (let lines = 0; lines < 200; lines += 1) {
    assert.equal(askedQuestion(`${"Filler line.\n".repeat(lines)}\n${reply}`), "Shall I merge the branch?", `${lines} lines before`);
  }
});

test("question: a reply of a million characters in short lines is read in linear time", () => {
  const started = performance.now();
  assert.equal(askedQuestion(`${"a\n".repeat(500_000)}Shall I go on?`), "Shall I go on?");
  assert.ok(performance.now() - started < 3000, "well under a second when linear");
});
