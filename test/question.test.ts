/**
 * Whether a reply ends with a question to the human (SPEC §4.8): the last non-empty line of the reply's
 * text, after a trailing code block and markdown decoration are dropped, ends with `?`, `？` or `؟`.
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
  assert.equal(askedQuestion("Shall I run it?\n[This bracketed line is far too long to be a tag line at all]"), undefined);
  assert.equal(askedQuestion("Shall I run it?\n[the docs](https://example.com)"), undefined);
  assert.equal(askedQuestion("Shall I run it?\n[1]"), undefined);
  assert.equal(askedQuestion("Shall I run it?\n[a]\n[b]\n[c]\n[d]"), undefined, "more than three tag lines is text");
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

test("options: a closing list of options under a line that asks", () => {
  const colon = "The tests pass.\n\n**Would you like me to:**\n1. Ship it now\n2. Add the benchmarks first\n\n[done]";
  assert.equal(askedQuestion(colon), "Would you like me to:");
  const question = "Shall I clear the cache before the next phase? (recommended)\n\n- **Yes**: I clear it and restart\n- **No**: I go straight on";
  assert.equal(askedQuestion(question), "Shall I clear the cache before the next phase?");
  assert.equal(askedQuestion("Which one do you prefer:\n- SQLite\n- Postgres"), "Which one do you prefer:");
  assert.equal(askedQuestion("您希望我：\n1. 现在发布\n2. 先补充测试"), "您希望我：");
  assert.equal(askedQuestion("どちらにしますか：\n- 今すぐ公開\n- 先にテストを追加"), "どちらにしますか：");
  assert.equal(askedQuestion("Хотите, чтобы я:\n1. выпустил версию\n2. сначала дописал тесты"), "Хотите, чтобы я:");
  assert.equal(askedQuestion("¿Quieres que:\n1. publique ahora\n2. añada pruebas antes"), "¿Quieres que:");
  assert.equal(askedQuestion("Möchtest du, dass ich:\n1. jetzt veröffentliche\n2. erst Tests ergänze"), "Möchtest du, dass ich:");
  assert.equal(askedQuestion("Voulez-vous que je :\n1. publie maintenant\n2. ajoute d'abord des tests"), "Voulez-vous que je :");
});

test("options: a list under a line that only describes, or under a question to nobody, asks nothing", () => {
  assert.equal(askedQuestion("What changed:\n- the parser\n- the tests"), undefined);
  assert.equal(askedQuestion("Why did the build fail?\n- a stale cache\n- a missing key"), undefined, "a rhetorical heading");
  assert.equal(askedQuestion("## Why did the build fail?\n\n- a stale cache"), undefined);
  assert.equal(askedQuestion("Next steps you can take:\n1. Run the app\n2. Open the page"), undefined);
  assert.equal(askedQuestion("Would you like me to:\n" + Array.from({ length: 13 }, (_, i) => `- option ${i}`).join("\n")), undefined, "more than twelve items is a list, not a choice");
});

test("depends: a closing line that depends on the answer, right under a question", () => {
  const cases: Array<[string, string]> = [
    ["Shall I clear the context first?\n\nIf yes, type /clear and I will pick up from the plan.", "Shall I clear the context first?"],
    ["Does the schema look right?\nOnce you confirm, I'll generate the migrations.", "Does the schema look right?"],
    ["Does the schema look right?\nOtherwise I keep the old one.", "Does the schema look right?"],
    ["要我先删除旧的表吗？\n如果同意，我会先备份。", "要我先删除旧的表吗？"],
    ["古いテーブルを削除しますか？\nよろしければ、先にバックアップを取ります。", "古いテーブルを削除しますか？"],
    ["Удалить старую таблицу?\nЕсли да, я сначала сделаю резервную копию.", "Удалить старую таблицу?"],
    ["¿Borro la tabla antigua?\nSi estás de acuerdo, haré antes una copia.", "¿Borro la tabla antigua?"],
    ["Soll ich die alte Tabelle löschen?\nWenn ja, sichere ich sie vorher.", "Soll ich die alte Tabelle löschen?"],
    ["Dois-je supprimer l'ancienne table ?\nSi oui, je ferai d'abord une sauvegarde.", "Dois-je supprimer l'ancienne table ?"],
  ];
  for (const [reply, question] of cases) assert.equal(askedQuestion(reply), question, reply);
  // Not under a question, or an opener that does not depend on an answer: nothing asked.
  assert.equal(askedQuestion("The schema is in place.\nIf so, the migrations run on the next start."), undefined);
  // Standing alone, "once you confirm, I'll …" is a request of its own.
  assert.equal(askedQuestion("The schema is in place.\nOnce you confirm, I'll generate the migrations."), "Once you confirm, I'll generate the migrations.");
  assert.equal(askedQuestion("Why did it fail?\nIf the cache is stale, the key changes."), undefined);
  assert.equal(askedQuestion("Does the schema look right?\nI generated the migrations."), undefined);
});

test("request: explicit requests for what only the person can give, in English", () => {
  const cases = [
    "Please add `src/db.ts` to the chat so I can change it.",
    "I found the bug in the loader. Please share the failing log and I will fix it.",
    "To go on, please provide the API base URL you want.",
    "Please confirm the table can be dropped.",
    "Let me know which of the two layouts you want.",
    "Tell me whether the old endpoint must stay.",
    "I'll need you to paste the error from the browser console.",
    "Once you share the config file, I can wire the new option in.",
    "Please run `npm login` so I can continue with the release.",
    "Could you share the screenshot.",
  ];
  for (const reply of cases) assert.notEqual(askedQuestion(`I looked at the repo.\n\n${reply}`), undefined, reply);
  assert.equal(askedQuestion("Please add `src/db.ts` to the chat so I can change it."), "Please add `src/db.ts` to the chat so I can change it.");
});

const REQUESTS: Record<string, readonly string[]> = {
  Chinese: ["请提供数据库的连接地址，我再继续。", "请告诉我您想用哪个方案。", "需要您确认一下接口的格式。", "请上传最新的日志文件。"],
  Japanese: ["設定ファイルを共有してください。", "どちらの方式で進めるか教えてください。", "使うデータベースを選んでください。", "APIキーを追加してください。"],
  Russian: ["Пожалуйста, добавьте файл конфигурации в чат.", "Пришлите, пожалуйста, журнал ошибок.", "Сообщите, какой вариант вам подходит."],
  Spanish: ["Por favor, comparte el archivo de configuración.", "Indícame cuál de las dos opciones prefieres.", "Necesito que confirmes el nombre del esquema."],
  German: ["Bitte füge die Konfigurationsdatei zum Chat hinzu.", "Sag mir, welche Variante du willst.", "Bestätige bitte den Namen der Tabelle."],
  French: ["Veuillez partager le fichier de configuration.", "Dites-moi quelle option vous préférez.", "Ajoutez le fichier au chat, s'il vous plaît."],
};

for (const [language, requests] of Object.entries(REQUESTS)) {
  test(`request: explicit requests for what only the person can give, in ${language}`, () => {
    for (const reply of requests) assert.equal(askedQuestion(`Готово. Done.\n${reply}`), reply, reply);
  });
}

const SIGN_OFFS: Record<string, readonly string[]> = {
  English: [
    "Let me know if you need anything else.",
    "Let me know if you want me to restyle another page!",
    "If you still see errors, please share the full log.",
    "If anything breaks, paste the output here and I'll look at it.",
    "Feel free to ask if you have more questions!",
    "Should anything fail, please provide the stack trace.",
    "Refresh the page and it should work now.",
    "Ready to continue whenever you are.",
  ],
  Chinese: ["如果还有问题，请提供具体的错误信息。", "如果需要调整，请告诉我。", "你可以刷新页面查看效果。"],
  Japanese: ["何か問題があれば教えてください。", "ブラウザで表示を確認してください。", "ご不明な点がありましたらお知らせください。"],
  Russian: ["Если будут вопросы, дайте знать.", "Если что-то не так, пришлите, пожалуйста, журнал."],
  Spanish: ["Si tienes algún problema, por favor comparte el error.", "Avísame si necesitas algo más."],
  German: ["Wenn noch etwas fehlt, bitte gib mir Bescheid.", "Falls Fehler auftreten, bitte sende mir das Protokoll."],
  French: ["Si vous avez d'autres questions, dites-moi.", "S'il y a un souci, veuillez partager le journal."],
};

for (const [language, signOffs] of Object.entries(SIGN_OFFS)) {
  test(`request: a request that opens with a condition is a sign-off, and a sign-off is no request, in ${language}`, () => {
    for (const reply of signOffs) assert.equal(askedQuestion(`Fixed the loader.\n\n${reply}`), undefined, reply);
  });
}

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
  assert.equal(askedQuestion("Ready to go on with the parser? This will touch three files."), undefined);
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
  assert.equal(askedQuestion(`Shall I run it?\n[${"x".repeat(47)}]`), undefined, "49 characters are a line of text");
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
  assert.equal(askedQuestion("😀 Shall I run it? 😀\n\u{1f600}"), undefined, "an astral emoji is visible");
});

test("question (0.3): each rhetorical opener asks nobody", () => {
  for (const line of ["Who knew it was the cache?", "Who would have thought?", "Who would have guessed?", "What could go wrong?", "What could possibly go wrong?", "How cool is that?", "How neat is that?", "How great is that?", "Why not?"]) {
    assert.equal(askedQuestion(`It works.\n${line}`), undefined, line);
  }
  assert.equal(askedQuestion("It works.\nWhy nothing changed, should I look?"), "Why nothing changed, should I look?");
});

test("request: each condition opener makes a request a sign-off", () => {
  const conditional = [
    "Unless it works, please share the log.",
    "Should it fail, please share the log.",
    "In case it fails, please share the log.",
    "Whenever it fails, please share the log.",
    "若有问题，请提供日志。",
    "假如失败，请提供日志。",
    "如有问题，请提供日志。",
    "如需修改，请提供日志。",
    "如还有错误，请提供日志。",
    "要是失败了，请提供日志。",
    "万一失败，请提供日志。",
    "もし失敗したら、ログを共有してください。",
    "万が一失敗した場合は、ログを共有してください。",
    "エラーがなければ、ログを共有してください。",
    "失敗する際は、ログを共有してください。",
    "В случае ошибки, пожалуйста, пришлите журнал.",
    "En caso de error, por favor comparte el registro.",
    "Sollte es fehlschlagen, bitte sende mir das Protokoll.",
    "Au cas où, veuillez partager le journal.",
    "En cas d'erreur, veuillez partager le journal.",
  ];
  for (const reply of conditional) assert.equal(askedQuestion(`Done.\n${reply}`), undefined, reply);
  assert.equal(askedQuestion("Done.\nS'il vous plaît, partagez le journal."), "S'il vous plaît, partagez le journal.", "s'il vous plaît is no condition");
});

test("request: a request word counts as a whole word anywhere in its sentence, never inside another word", () => {
  const requests = [
    "Хорошо, теперь пришлите, пожалуйста, журнал.",
    "Готово, теперь пожалуйста добавьте файл в чат.",
    "Готово, теперь скажите, какой вариант лучше.",
    "Listo, ahora por favor comparte el archivo.",
    "Listo, ahora comparte el archivo, por favor.",
    "Listo, ahora dime cuál prefieres.",
    "Listo, ahora necesito que confirmes el nombre.",
    "Fertig, jetzt bitte füge die Datei hinzu.",
    "Fertig, jetzt sende bitte die Datei.",
    "Fertig, jetzt sag mir, welche Variante du willst.",
    "C'est fait, maintenant veuillez partager le fichier.",
    "C'est fait, maintenant partagez le fichier, s'il vous plaît.",
    "C'est fait, s'il vous plaît, partagez le fichier.",
    "C'est fait, maintenant dites-moi quelle option vous préférez.",
    "Done, now please  share the log.",
    "Done, now let me know  which one you want.",
    "Done, now could you  share the log.",
    "Done, now I'll need you to  paste the log.",
    "Done, now I need you to paste the log.",
    "Done, once you've  shared the log, I can fix it.",
    "Done, now please  run `npm login` to continue.",
    "完成了，现在请提供日志。",
    "完了しました。ログを共有をお願いします。",
  ];
  for (const reply of requests) assert.equal(askedQuestion(`Ok.\n${reply}`), reply, reply);
  const inside = [
    "Ok, недобавьте ничего, пожалуйста.",
    "Ok, nocomparte nada.",
    "Ok, mitbitte füge nichts hinzu.",
    "Ok, surajoutez rien, s'il vous plaît.",
    "Ok, redites-moi quelle heure il est.",
    "Ok, сообщитель, какой угодно.",
    "Ok, dimelo cuálquiera.",
    "Ok, ich sag mirwelche.",
  ];
  for (const reply of inside) assert.equal(askedQuestion(`Ok.\n${reply}`), undefined, reply);
});

test("request: a condition only counts at the start of the sentence and as a whole word", () => {
  const requests = [
    "Please share the log, even if it is long.",
    "Please share the log; should be quick.",
    "请提供日志，如果方便的话。",
    "ログを共有してください、もしくはファイルを追加してください。",
    "Пожалуйста, пришлите журнал, если он есть.",
    "Por favor, comparte el registro si lo tienes.",
    "Bitte sende mir das Protokoll, falls vorhanden.",
    "Veuillez partager le journal si possible.",
    "Sicher, por favor comparte el archivo.",
    "Wenngleich, bitte sende die Datei.",
    "Sinon rien, veuillez partager le fichier.",
    "Если бы, пожалуйста, пришлите журнал.",
  ];
  for (const reply of requests.slice(0, 8)) assert.equal(askedQuestion(`Ok.\n${reply}`), reply, reply);
  for (const reply of requests.slice(8, 11)) assert.equal(askedQuestion(`Ok.\n${reply}`), reply, reply);
  assert.equal(askedQuestion("Ok.\nЕсли бы, пожалуйста, пришлите журнал."), undefined, "если followed by a space is a condition");
  const conditional = ["Если будет ошибка, пожалуйста, пришлите журнал.", "Si hay un error, por favor comparte el registro.", "Wenn es hakt, bitte sende das Protokoll.", "Si ça plante, veuillez partager le journal.", "S'il y a une erreur, veuillez partager le journal."];
  for (const reply of conditional) assert.equal(askedQuestion(`Ok.\n${reply}`), undefined, reply);
});

test("depends: the opener counts only at the start of the line under the question", () => {
  const cases = [
    "Shall I go on?\nI will go on, if yes is what you say.",
    "Shall I go on?\nI go on once you confirm nothing.",
    "要继续吗？\n我会继续，如果是这样。",
    "続けますか？\n続けます、よろしければ。",
    "Продолжить?\nЯ продолжу, если да.",
    "¿Sigo?\nSigo, si es así.",
    "Soll ich weitermachen?\nIch mache weiter, wenn ja.",
    "Je continue ?\nJe continue, si oui.",
  ];
  for (const reply of cases) assert.equal(askedQuestion(reply), undefined, reply);
  const depends = [
    ["Продолжить?\nЕсли да, я начну с тестов.", "Продолжить?"],
    ["Продолжить?\nЕсли вы согласны, я начну с тестов.", "Продолжить?"],
    ["¿Sigo?\nSi es así, empiezo por las pruebas.", "¿Sigo?"],
    ["Je continue ?\nSi c'est le cas, je commence par les tests.", "Je continue ?"],
    ["Je continue ?\nSi vous êtes d'accord, je commence par les tests.", "Je continue ?"],
    ["Je continue ?\nSi tu es d'accord, je commence par les tests.", "Je continue ?"],
    ["Shall I go on?\nIf you'd like me to, I start with the tests.", "Shall I go on?"],
    ["Shall I go on?\nIf that's fine, I start with the tests.", "Shall I go on?"],
    ["Shall I go on?\nOnce you have confirmed, I start with the tests.", "Shall I go on?"],
  ];
  for (const [reply, question] of depends) assert.equal(askedQuestion(reply ?? ""), question, reply);
  // A word that only starts like an opener does not depend on the answer.
  assert.equal(askedQuestion("Продолжить?\nЕсли даже так, я начну."), undefined);
  assert.equal(askedQuestion("¿Sigo?\nSi nothing, empiezo."), undefined);
});

test("options: the asking line before the list, by language, with its words in the middle of the line", () => {
  const cases: Array<[string, string]> = [
    ["Now, would you like to:\n- ship\n- wait", "Now, would you like to:"],
    ["Now, do you want to:\n- ship\n- wait", "Now, do you want to:"],
    ["Now, do you want me to:\n- ship\n- wait", "Now, do you want me to:"],
    ["Now, should I:\n- ship\n- wait", "Now, should I:"],
    ["Next, which approach do you like:\n- ship\n- wait", "Next, which approach do you like:"],
    ["Пора решить, хотите ли вы:\n- выпустить\n- подождать", "Пора решить, хотите ли вы:"],
    ["Bien, ¿prefieres:\n- publicar\n- esperar", "Bien, ¿prefieres:"],
    ["Gut, soll ich:\n- veröffentlichen\n- warten", "Gut, soll ich:"],
    ["Bien, dois-je :\n- publier\n- attendre", "Bien, dois-je :"],
    ["Alors, voulez-vous :\n- publier\n- attendre", "Alors, voulez-vous :"],
  ];
  for (const [reply, asked] of cases) assert.equal(askedQuestion(reply), asked, reply);
  const none = ["Der Vorschlag:\n- a\n- b", "Le choix:\n- a\n- b", "Мыслей пара:\n- a\n- b", "Lista de cosas:\n- a\n- b", "Dashboards:\n- a\n- b"];
  for (const reply of none) assert.equal(askedQuestion(reply), undefined, reply);
});

test("options: a question above a list speaks to the person in each language; a pronoun inside another word does not count", () => {
  const asks = ["Что вы выберете?", "Что выберете вы?", "¿Qué opción prefieres tú?", "¿Cuál elige usted?", "Was nimmst du?", "Welche Variante nehmen Sie?", "Laquelle voulez-vous, vous ?", "Tu préfères laquelle ?"];
  for (const question of asks) assert.equal(askedQuestion(`${question}\n- a\n- b`), question, question);
  const nobody = ["Почему вызов упал?", "Warum scheiterte Sudoku?", "Pourquoi le tutu casse?", "¿Por qué falla el tema?"];
  for (const question of nobody) assert.equal(askedQuestion(`${question}\n- a\n- b`), undefined, question);
});

test("request: any sentence of the last line may be the request; a dot inside a word does not end a sentence", () => {
  assert.equal(askedQuestion("Done.\nPlease share the log. I will look at it then."), "Please share the log. I will look at it then.");
  assert.equal(askedQuestion("Done.\nI checked it. Please share the file config.json with me."), "I checked it. Please share the file config.json with me.");
  assert.equal(askedQuestion("Done.\nIf it breaks, please share the log. Otherwise we are done."), undefined);
  assert.equal(askedQuestion("Done.\nログの共有お願いします。"), "ログの共有お願いします。");
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
    "Shall I?\nok ---",
    "Shall I?\n--- ok",
    "Shall I?\nok <!-- x -->",
    "Shall I?\n<!-- x --> ok",
    "Would you like me to:\nnot - a list",
    "So, who knew this would work",
    "The dialog reads (\"Discard changes?\")",
    "Done.\n`npm test`?",
    " ``\nWhat is it",
    "Shall I?\n```\nx\n```\nIf yes, I go on.",
    "Would you like me to:\n```\nx\n```\n- ship\n- wait",
    "Done.\nWould you like me to:",
    "Which one: SQLite or Postgres\n- a\n- b",
    "If yes, I go on.",
    "Shall I go on?\n\u200bx",
    "Shall I go on?\n\u007f x",
  ];
  for (const reply of none) assert.equal(askedQuestion(reply), undefined, reply);
  assert.equal(askedQuestion("Shall I go on?\n\u007f"), "Shall I go on?", "DEL is invisible");
  assert.equal(askedQuestion("So, who knew this?"), "So, who knew this?", "a rhetorical opener only at the start");
  assert.equal(askedQuestion("  ``\nWhat is it?"), "What is it?", "two backticks after spaces are no fence");
});

test("request and depends: spacing, commas and apostrophes as people type them, and words that only begin like a request", () => {
  const requests = [
    "Ok, пожалуйста,  добавьте файл.",
    "Добавьте файл пожалуйста.",
    "Добавьте файл,  пожалуйста.",
    "Ok, por favor,  comparte el archivo.",
    "Comparte el archivo por favor.",
    "Comparte el archivo,  por favor.",
    "Ok, bitte  füge die Datei hinzu.",
    "Sende  bitte die Datei.",
    "Schick mir  bitte die Datei.",
    "Ok, veuillez  partager le fichier.",
    "Merci de m'envoyer le journal.",
    "Merci de m’envoyer le journal.",
    "S'il vous plaît partagez le fichier.",
    "S'il vous plaît,  partagez le fichier.",
    "Partagez le fichier s'il vous plaît.",
    "Partagez le fichier,s'il vous plaît.",
    "Partagez le fichier, s’il te plait.",
    "Veuillez partager le journal en cas de besoin.",
    "Please run `npm login` and I'll continue.",
    "Please run it so that I can proceed.",
    "Please type /login, then I'll go on.",
    "Please enter the code before I continue.",
    "If it breaks, tell me. Please share the log.",
  ];
  for (const reply of requests) assert.equal(askedQuestion(`Ok.\n${reply}`), reply, reply);
  const none = [
    "Ok, пожалуйста, выберитель.",
    "Добавьтеся файл, пожалуйста.",
    "Compartes el archivo, por favor.",
    "Sende bitteres Zeug.",
    "Colleurs, s'il vous plaît.",
    "Dites-moi quelques mots.",
    "Dites-moi séquelle.",
    "Dime cuálquiera cosa.",
    "Sag mir welcherlei.",
    "Done. If it breaks, please share the log.",
    "Please run the tests to see them pass.",
  ];
  for (const reply of none) assert.equal(askedQuestion(`Ok.\n${reply}`), undefined, reply);
  const depends: Array<[string, string]> = [
    ["Shall I go on?\nIf you agree, I start with the tests.", "Shall I go on?"],
    ["Shall I go on?\nIf you would prefer, I stop here.", "Shall I go on?"],
    ["Продолжить?\nЕсли нет, я остановлюсь.", "Продолжить?"],
    ["Продолжить?\nПосле подтверждения я начну.", "Продолжить?"],
    ["Продолжить?\nКак только вы подтвердите, я начну.", "Продолжить?"],
    ["Продолжить?\nВ противном случае я остановлюсь.", "Продолжить?"],
  ];
  for (const [reply, asked] of depends) assert.equal(askedQuestion(reply), asked, reply);
  const choose: Array<[string, string]> = [
    ["Please choose one:\n- a\n- b", "Please choose one:"],
    ["Pick:\n- a\n- b", "Pick:"],
    ["How would you like me to proceed:\n- a\n- b", "How would you like me to proceed:"],
    ["Would you prefer:\n- a\n- b", "Would you prefer:"],
  ];
  for (const [reply, asked] of choose) assert.equal(askedQuestion(reply), asked, reply);
});

test("question (0.3): a thematic break under a question that speaks to nobody in particular is still dropped", () => {
  for (const rule of ["- - -", "* * *", "_ _ _", "***", "---", "___"]) assert.equal(askedQuestion(`Ready?\n${rule}`), "Ready?", rule);
  for (const notRule of ["*", "--", "_ _"]) assert.equal(askedQuestion(`Ready?\n${notRule}`), undefined, notRule);
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
  assert.equal(askedQuestion("Shall I?\n<!-- x -->ok"), undefined);
});

test("question (0.3): a quotation ends the line only when nothing but decoration follows its closing quote", () => {
  assert.equal(askedQuestion('Done.\nKeep the "Sure?"-prompts?'), 'Keep the "Sure?"-prompts?');
});

test("request: a request word and the please after it may stand up to 80 characters apart, however many spaces then", () => {
  const gap = "x".repeat(79);
  for (const [verb, please] of [["Пришлите", "пожалуйста"], ["Comparte", "por favor"], ["Partagez", "s'il vous plaît"]]) {
    const near = `${verb} ${gap}  ${please}.`;
    assert.equal(askedQuestion(`Ok.\n${near}`), near, near);
    const far = `${verb} ${gap}x  ${please}.`;
    assert.equal(askedQuestion(`Ok.\n${far}`), undefined, far);
  }
});

test("request: words between the tell-me opener and the which word, and whole verbs after s'il vous plaît", () => {
  const requests = [
    "Please run `npm login` so I can  continue.",
    "Dime ahora cuál prefieres.",
    "Sag mir, welchen Weg du willst.",
    "S'il vous plaît, envoie le journal.",
    "Dites-moi donc quelle option vous préférez.",
  ];
  for (const reply of requests) assert.equal(askedQuestion(`Ok.\n${reply}`), reply, reply);
});

test("request: emphasis around a request is stripped from the sentence and from the text asked", () => {
  assert.equal(askedQuestion("Ok.\n__Please confirm__"), "Please confirm");
  assert.equal(askedQuestion("Ok.\n**Please confirm the name.**"), "Please confirm the name.");
});

test("depends: an apostrophe left out and an optional pronoun left out still depend on the answer", () => {
  assert.equal(askedQuestion("Shall I go on?\nIf thats fine, I start with the tests."), "Shall I go on?");
  assert.equal(askedQuestion("Продолжить?\nКак только подтвердите, я начну."), "Продолжить?");
});

test("question (0.3): a line of one astral character is blank only when that character is invisible", () => {
  assert.equal(askedQuestion("Shall I run it?\n\u{10ffff}"), "Shall I run it?", "a noncharacter at the top of the last plane is invisible");
  assert.equal(askedQuestion("Shall I run it?\n😀"), undefined, "an emoji alone on the last line is text");
  assert.equal(askedQuestion("Shall I go on?\n\ufeffx"), undefined, "a visible letter after an invisible BMP character is text");
});

test("question (0.3): any number of consecutive code blocks after a question count as one", () => {
  assert.equal(askedQuestion(`Shall I go on?\n${"```\nx\n```\n".repeat(100)}`), "Shall I go on?");
});

test("reply text: an undefined block is skipped like any other junk block", () => {
  assert.equal(replyText({ role: "assistant", content: [undefined, { type: "text", text: "Done." }] }), "Done.");
});
