/**
 * SPEC 0.4 §4.8, waiting for the person as real agents say it — the closing prose asks a question: the
 * closing prose (the last paragraph, or the lines under a closing heading) asks a question anywhere in it;
 * which questions speak to the person and which the next sentence answers; how the closing prose is found
 * (decoration, headings, bounds). The requests to act and waits are in question-closing-acts.test.ts.
 * Every sentence here is written for these tests.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { askedQuestion } from "../src/core/question.ts";
import { asks, DONE, none } from "./question-cases.ts";
import { sanitize } from "../src/core/sanitize.ts";

test("asks: a question followed by an emoji, closing emphasis or both is still asked", () => {
  asks([
    [`${DONE}\n\nShall I start on the importer? 🚀`, "Shall I start on the importer?"],
    [`${DONE}\n\n**Shall I start on the importer?**`, "Shall I start on the importer?"],
    [`${DONE}\n\n**Shall I start on the importer?** 🎉✨`, "Shall I start on the importer?"],
    [`${DONE}\n\n__Shall I start on the importer?__ 👍🏽`, "Shall I start on the importer?"],
    [`${DONE}\n\nShall I start on the importer? 👩‍💻`, "Shall I start on the importer?"],
    ["完成了。要我继续吗？1. 是", "要我继续吗？"],
    ["导出器已完成。要我接着写导入器吗？🚀", "导出器已完成。要我接着写导入器吗？"],
    ["Экспорт готов. Начать импорт? ✅", "Экспорт готов. Начать импорт?"],
    ["Soll ich mit dem Import weitermachen? 🙂", "Soll ich mit dem Import weitermachen?"],
  ]);
});

test("asks: a question to the person that one sentence of explanation follows, in every language", () => {
  asks([
    [`${DONE}\n\nShall I merge the branch? It touches three modules.`, "Shall I merge the branch?"],
    [`${DONE} Shall I merge the branch? It touches three modules.`, "Shall I merge the branch?"],
    [`${DONE}\n\n**Shall I merge the branch now?** Let me know.`, "Shall I merge the branch now?"],
    ["导出器已完成。要我合并分支吗？这会改动三个模块。", "要我合并分支吗？"],
    ["エクスポートは完成しました。ブランチをマージしますか？三つのモジュールに影響します。", "ブランチをマージしますか？"],
    ["Экспорт готов. Мне слить ветку? Это затронет три модуля.", "Мне слить ветку?"],
    ["El exportador está listo. ¿Quieres que fusione la rama? Afecta a tres módulos.", "¿Quieres que fusione la rama?"],
    ["Der Export ist fertig. Soll ich den Branch mergen? Das betrifft drei Module.", "Soll ich den Branch mergen?"],
    ["L'export est prêt. Dois-je fusionner la branche ? Cela touche trois modules.", "Dois-je fusionner la branche ?"],
  ]);
});

test("asks: a question followed by one paragraph that explains it, a code block between or not", () => {
  asks([
    [`${DONE}\n\nShall I merge the branch?\n\nThe merge touches three modules and the tests pass on it.`, "Shall I merge the branch?"],
    [`Want me to add the cache? The changes would be:\n1. a map in the loader\n2. a flag to turn it off\n\nOr we could skip it: the loader is fast enough for now.`, "Want me to add the cache?"],
    ["Shall I run this migration?\n\n```sql\nDROP TABLE old_users;\n```\n\nIt removes the table the import used.", "Shall I run this migration?"],
    ["Would you like me to:\n1. ship now\n2. add the benchmarks first\n\nSUMMARY: the exporter is done and tested.", "Would you like me to:"],
    ["Please run the tests and paste the output.\n\nThat tells me whether the cache is the culprit.", "Please run the tests and paste the output."],
    ["要我合并分支吗？\n\n这次合并会改动三个模块，测试全部通过。", "要我合并分支吗？"],
    ["Bitte führe die Tests aus und schicke mir die Ausgabe.\n\nDann sehe ich, ob der Cache schuld ist.", "Bitte führe die Tests aus und schicke mir die Ausgabe."],
  ]);
});

test("asks: questions that speak to the person without a pronoun (ready, want, sounds good, any thoughts)", () => {
  asks([
    [`${DONE} Ready to start on the importer? It reuses the parser.`, "Ready to start on the importer?"],
    [`${DONE} Want to try it on real data first? The sample is small.`, "Want to try it on real data first?"],
    [`${DONE} Sounds good? The plan is in PLAN.md.`, "Sounds good?"],
    [`${DONE} Any objections to dropping Node 18? It is out of support.`, "Any objections to dropping Node 18?"],
  ]);
});

test("asks: a question in its word order with its mark left out", () => {
  asks([
    [`${DONE} Do you want me to proceed with the deployment`, "Do you want me to proceed with the deployment"],
    [`${DONE} Want me to go ahead with this plan`, "Want me to go ahead with this plan"],
    [`${DONE} Should I also update the docs or leave them for now`, "Should I also update the docs or leave them for now"],
  ]);
  none([`${DONE} Should the server crash, it restarts itself.`, `${DONE} Do you want to know more? See the docs.`]);
});

test("asks: a question word speaks to the person only when it names them", () => {
  asks([
    [`${DONE} What do you think? I lean towards the first option.`, "What do you think?"],
    [`${DONE} Which one do you prefer? The first is faster.`, "Which one do you prefer?"],
    ["Готово. Какой вариант вы выберете? Первый быстрее.", "Какой вариант вы выберете?"],
    ["Fertig. Welche Variante nehmen Sie? Die erste ist schneller.", "Welche Variante nehmen Sie?"],
    ["你觉得哪个方案好？第一个更快。", "你觉得哪个方案好？"],
  ]);
  none([
    `${DONE} Why did it fail? Because the cache key ignored the locale.`,
    `${DONE} What changed? The parser now streams its input.`,
    `${DONE} How does it work? It reads the file in chunks.`,
    "修好了。为什么会失败？缓存的键没有包含语言。",
    "Готово. Почему упало? Ключ кеша не учитывал язык.",
    "Listo. ¿Por qué fallaba? La clave de la caché ignoraba el idioma.",
    "Fertig. Warum schlug es fehl? Der Schlüssel ignorierte die Sprache.",
    "C'est réglé. Pourquoi ça échouait ? La clé ignorait la langue.",
  ]);
});

test("not a wait: a question the next sentence answers, in every language", () => {
  none([
    "Should I go on? I will.",
    "Should I go on?\nI will go on with the importer.",
    "Shall I add tests? Yes, twelve of them are in.",
    "Shall I keep the flag? No, it is gone now.",
    "Shall I squash them? (yes/no) I will.",
    "Shall I merge it?\nMerging now.",
    "Shall I check the logs? Let me look.",
    "Shall I go on?\nI go on once you confirm nothing.",
    "要我继续吗？我会继续的。",
    "続けますか？はい、続けます。",
    "Продолжить? Да, продолжаю.",
    "¿Sigo? Sí, sigo con el importador.",
    "Soll ich weitermachen? Ja, ich mache weiter.",
    "Je continue ? Oui, je continue.",
  ]);
  // "Let me know" is no answer: it hands the question to the person.
  assert.equal(askedQuestion("Shall I merge it? Let me know."), "Shall I merge it?");
});

test("asks: a question in a list item that the next line does not answer", () => {
  asks([[`${DONE}\n\n- Which database do you use in production?\n- The parser is done either way.`, "Which database do you use in production?"]]);
  asks([["要我合并吗？（是/否）它会改动三个模块。", "要我合并吗？"]]);
  none(["要我合并吗？（是/否）我会的。"]);
});

test("not a wait: a rhetorical, hypothetical or self-answered list question followed by more text", () => {
  none([
    `${DONE} What could possibly go wrong? The parser is covered.`,
    `${DONE} What if you need JSON? Pass --json.`,
    `${DONE} Did you know? The parser is now twice as fast.`,
    "What if you need JSON?\n\nPass --json to the exporter.",
    `${DONE}\n\n- **Can you run it in CI?** It runs in GitHub Actions as is.\n- **Does it need Node 22?** Node 20 works too.`,
  ]);
});

test("not a wait: a question in a heading, a quotation, inline code or a URL before more text", () => {
  none([
    "## Why did it fail?\n\nThe cache key ignored the locale.",
    "The tests pass.\n\n### Should I worry about the warning?\n\nNo: it comes from a dependency.",
    'The dialog now asks "Are you sure you want to delete this?" before deleting.',
    "Users see a prompt: 'Do you want to continue?' when they leave.",
    "The prompt reads «Voulez-vous continuer ?» avant de quitter.",
    "The field is `shouldIRetry?: boolean` now, defaulting to false.",
    "See https://example.com/faq?q=can-you-help for the details.",
  ]);
});

test("not a wait: a question two paragraphs back, or before a paragraph that is a heading, answers it or runs long", () => {
  none([
    "Shall I merge the branch?\n\nThe merge touches three modules.\n\nAll tests pass on it.",
    "Shall I merge the branch?\n\n## Summary\n\nThe exporter is done.",
    "Shall I merge the branch?\n\nYes: I merged it after the review.",
    `Shall I merge the branch?\n\n${Array.from({ length: 9 }, (_, i) => `Line ${i} of the report.`).join("\n")}`,
  ]);
  assert.equal(askedQuestion(`Shall I merge the branch?\n\n${Array.from({ length: 8 }, (_, i) => `Line ${i} of the report.`).join("\n")}`), "Shall I merge the branch?", "eight lines of explanation are one paragraph");
});

// ---- acts: asked to act before the work can go on ---------------------------------------------

test("decoration: emoji lines, emphasis lines, tag lines, rules and a closing code block after the ask are set aside", () => {
  const ask = "Please run the tests and paste the output.";
  for (const tail of ["\n\n🚀", "\n\n**", "\n\n[Logs saved]", "\n\n---", "\n\n```sh\nnpm test\n```", "\n\n✨ 🎉\n\n[saved]"]) {
    assert.equal(askedQuestion(`${DONE}\n\n${ask}${tail}`), ask, JSON.stringify(tail));
  }
});

test("reason: the sentence that asks, with joiners, emoji sequences and tag sequences kept for the sanitiser", () => {
  const persian = "آیا می‌خواهید ادامه دهم؟";
  assert.equal(askedQuestion(persian), persian, "a zero-width non-joiner inside a word stays");
  assert.equal(sanitize(askedQuestion(persian)), persian);
  const coder = "Shall I hand this to the 👩‍💻 on call?";
  assert.equal(sanitize(askedQuestion(`${DONE} ${coder} They own the loader.`)), coder, "an emoji ZWJ sequence stays whole");
  const flag = "Shall I add the 🏴󠁧󠁢󠁳󠁣󠁴󠁿 locale?";
  assert.equal(sanitize(askedQuestion(`${flag} It needs new strings.`)), flag, "an emoji tag sequence stays whole");
  assert.equal(askedQuestion("Shall I merge it?\u200b It touches three modules."), "Shall I merge it?", "other invisible characters go");
});

test("headings: a closing heading given by #, a line of emphasis, === marks, a label or a colon line", () => {
  const step = "Open the admin page";
  for (const heading of ["## Your turn", "**Your turn**", "=== Your turn ===", "Your turn:", "**Your turn:**", "## 🧪 Ready to test"]) {
    assert.equal(askedQuestion(`${DONE}\n\n${heading}\n\n- ${step}`), step, heading);
  }
  assert.equal(askedQuestion(`${DONE}\n\n**Your turn:** ${step}.`), `${step}.`, "a label in emphasis heads its own line");
  none([`${DONE}\n\n## Changes\n\n- ${step}`, `${DONE}\n\nChanges: ${step}.`, `${DONE}\n\n**Your turn** has come. ${step}.`]);
});

test("headings: the edges of what reads as a heading", () => {
  const step = "Open the admin page";
  for (const heading of ["# Your turn #", "   ## Your turn", "__Your turn__", "## Your turn：", "**Your turn**:", "Your turn：", "== Your turn ==", "## Your turn!", "## Your turn.", "## Your turn！"]) {
    assert.equal(askedQuestion(`${DONE}\n\n${heading}\n\n- ${step}`), step, heading);
  }
  for (const text of ["####### Your turn", "= Your turn =", "##Your turn", `## Your turn ${"x".repeat(80)}`, "Your turn. Now:", "Done! Your turn:", "Done? Your turn:", "完成。Your turn:", "完成！Your turn:", "完成？Your turn:"]) {
    assert.equal(askedQuestion(`${DONE}\n\n${text}\n\n- ${step}`), undefined, text);
  }
});

test("headings: the last heading within the closing lines decides, and it must hand the turn over", () => {
  none([
    "## Your turn\n\n- Open the admin page\n\n## Changes\n\n- Open the admin page",
    "## Notes\n\nPlease run the tests and paste the output.\n\nThe parser is done.\n\nAll else is done too.",
    "   ## Shall I merge it?\n\nIt touches three modules.",
    "== Shall I merge it? ==\n\nIt touches three modules.",
  ]);
  const filler = (n: number): string => Array.from({ length: n }, (_, i) => `- Open page ${i}`).join("\n");
  assert.equal(askedQuestion(`## Your turn\n${filler(23)}`), "Open page 22", "a turn heading 23 lines up is read");
  assert.equal(askedQuestion(`## Your turn\n${filler(24)}`), undefined, "24 lines up it is not");
  asks([["完成了。\n\n**要我合并吗？**\n它会改动三个模块。", "要我合并吗？"]]);
});

test("bounded: the closing prose is read from its end, so what lies beyond its limits asks nothing", () => {
  const filler = (n: number): string => Array.from({ length: n }, (_, i) => `Line ${i} of the report.`).join("\n");
  assert.equal(askedQuestion(`Shall I merge the branch? It is big.\n${filler(22)}`), "Shall I merge the branch?", "23 lines of one paragraph are read");
  assert.equal(askedQuestion(`Shall I merge the branch? It is big.\n${filler(24)}`), undefined, "a 25th line up is not");
  const long = `Shall I merge the branch? It is big. ${"word ".repeat(300)}`;
  assert.equal(askedQuestion(`${long}\n${filler(1)}`), undefined, "a line is read by its last thousand characters");
  assert.equal(askedQuestion(`Shall I merge the branch? ${"word ".repeat(150)}\n${filler(1)}`), "Shall I merge the branch?");
  const lines = Array.from({ length: 5 }, () => "word ".repeat(190)).join("\n");
  assert.equal(askedQuestion(`Shall I merge the branch? It is big.\n${lines}`), undefined, "the closing prose is read to four thousand characters");
  assert.equal(askedQuestion(`Shall I merge the branch? It is big.\n${lines.split("\n").slice(1).join("\n")}`), "Shall I merge the branch?");
  assert.equal(askedQuestion(`Shall I merge the branch?\n\n${filler(1)}\n\n${"```\nx\n```\n".repeat(50)}`), "Shall I merge the branch?", "code blocks between count as one item");
  const thousand = (n: number): string => Array.from({ length: n }, () => `${"w".repeat(999)}.`).join("\n");
  assert.equal(askedQuestion(`Shall I merge the branch?\n${thousand(3)}`), "Shall I merge the branch?", "three lines of a thousand characters leave room for the question");
  assert.equal(askedQuestion(`Shall I merge the branch?\n${thousand(4)}`), undefined, "four use up the four thousand");
  const list = (n: number): string => Array.from({ length: n }, (_, i) => `- module ${i}`).join("\n");
  assert.equal(askedQuestion(`Ready to merge? It touches:\n\n${list(9)}`), "Ready to merge?", "a list under a line ending in a colon is read with that line");
  assert.equal(askedQuestion(`Ready to merge? It touches\n\n${list(9)}`), undefined, "without the colon the line is a paragraph of its own, too far up");
  assert.equal(askedQuestion(`**Ready to merge? It touches:**\n\n${list(9)}`), "Ready to merge?", "emphasis after the colon");
  assert.equal(askedQuestion(`要我合并吗？它会改动：\n\n${list(9)}`), "要我合并吗？", "a full-width colon");
});

test("headings: a label indented, after a list bullet, with its colon after the emphasis or two spaces after it, heads its line", () => {
  const step = "open the settings page.";
  for (const label of ["  **Your turn:**", "- **Your turn:**", "-  **Your turn:**", "**Your turn**:", "**Your turn:** "]) {
    assert.equal(askedQuestion(`${DONE}\n\n${label} ${step}`), step, label);
  }
  assert.equal(askedQuestion(`${DONE}\n\n**Important:** Paste the full log here.`), "Paste the full log here.", "a label that hands nothing over heads its line too");
  assert.equal(askedQuestion(`${DONE}\n\n== Ready to test==\nOpen the settings page.`), "Open the settings page.");
  assert.equal(askedQuestion(`${DONE}\n\n## Ready to test 🧪\n\n- Open the admin page`), "Open the admin page", "emoji after the heading");
  assert.equal(askedQuestion(`${DONE}\n\n## Your turn...\n\n- Open the admin page`), "Open the admin page", "an ellipsis after the heading");
});

test("headings: a # inside a line, a colon inside a word, or a bold question is no heading", () => {
  asks([
    [`${DONE}\n\n#42 is fixed. Please confirm it works.`, "Please confirm it works."],
    [`${DONE}\n\nPlease confirm the fix for issue #42:`, "Please confirm the fix for issue #42:"],
    ["Can you check the page?\n\nIt runs at localhost:3000", "Can you check the page?"],
    ["**Ready to test?**\nThe build is on staging.", "Ready to test?"],
    ["## Your turn\n- Open the admin page\n**Is the cache stale?**\nIt was built last week.", "Open the admin page"],
  ]);
});

test("headings: a turn heading reaches over blank lines down to the closing paragraph, and never above itself", () => {
  asks([["## Your turn\n\nOpen the admin page.\n\nThe build is on staging.", "Open the admin page."]]);
  none([
    "## Your turn\n\nThe admin page has a new button.",
    "Run `npm start` to try it.\n**Your turn:**\nThe build is on staging.",
    "Is the cache stale? Can you check it?\n\n## Your turn\n\nThe build is on staging.",
    "## Your turn\n\n```sh\nnpm start\n```\n\nThe build is on staging.",
  ]);
});

test("asks: what a sentence is answered by, and what it hangs on, is the sentence after it", () => {
  asks([
    ["Run the migration. Then I'll deploy it.\n\nIt takes about a minute.", "Run the migration."],
    ["Done.\n\n- Shall I drop the old table? …", "Shall I drop the old table?"],
    ["Docs: https://example.com/a. Can you open it? It has the steps.", "Can you open it?"],
  ]);
  none([
    "Shall I merge the branch? Yes, I will.\n\nIt touches three modules.",
    "Please share the log.\n\nNo need: I found the cause in the trace.",
    "Shall I merge the branch?\n\n## Summary\nThe exporter is done.",
  ]);
});

test("not a wait: a rhetorical question, a question word with only the agent in it, a mark inside a word, or a test someone else was asked to run", () => {
  none([
    "Who would have thought you could cache it? The page now loads in 40 ms.",
    "How did we miss it? The cache key never changed.",
    `${DONE}\n\nWe pass the page as ?page=2 now.`,
    "修复完成。我已经请测试组检查过了。",
    "修正しました。チームにテストしてくださいと依頼しました。",
    "修正しました。チームにテストしてみてくださいと伝えました。",
    "修正しました。チームにテストして下さいと依頼しました。",
    "修正しました。チームにテストしてみて下さいと伝えました。",
    "修复完成。我昨天已经请您测试过这个版本了。",
    "修复完成。同事说他会请你测试新版本。",
    "修复完成。上周我已经请您测一下性能了。",
    "修复完成。我请测一下数据库的同事帮忙了。",
    "Fertig. Teste den Parser mit echten Daten, sobald er fertig ist, schreibe ich die Doku.",
  ]);
});

test("bounded: a line ending in a colon leads into a list only, and only by its last character", () => {
  const nine = Array.from({ length: 9 }, (_, i) => `Reason ${i} holds.`).join("\n");
  const items = Array.from({ length: 9 }, (_, i) => `- job ${i}`).join("\n");
  none([`Shall we merge it? Here is why:\n\n${nine}`, `Shall we merge it? It changes the 10:30 jobs\n\n${items}`]);
});
