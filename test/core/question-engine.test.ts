/**
 * SPEC §4.8 and §4.23, the engine of the question rule (src/core/question.ts): how a reply is read — code
 * blocks, inline code, URLs and quotations hidden, trailing decoration set aside, the closing paragraph or
 * heading found, sentences split — and the order in which its checks decide. English replies only (one set
 * of rows, so the file stays fast), and a Japanese one where a branch reads a question by its ending; the
 * forms of each language are pinned by test/question*.test.ts. Every sentence here is written for these tests.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { askedQuestion, handsOver, replyText } from "../../src/core/question.ts";

/** A finished piece of work a reply opens with. */
const DONE = "The exporter is written and its tests pass.";
const ASK = "Shall I merge the branch?";

/** Each reply asks exactly the expected text (undefined: it asks nothing). */
function reads(cases: ReadonlyArray<readonly [string, string | undefined]>): void {
  for (const [reply, expected] of cases) assert.equal(askedQuestion(reply), expected, JSON.stringify(reply));
}

/** Each reply hands over exactly the expected sentence (undefined: nothing). */
function handed(cases: ReadonlyArray<readonly [string, string | undefined]>): void {
  for (const [reply, expected] of cases) assert.equal(handsOver(reply), expected, JSON.stringify(reply));
}

test("input: not a string, empty, blank or only invisible characters asks nothing", () => {
  assert.equal(askedQuestion(42 as unknown as string), undefined);
  assert.equal(askedQuestion(undefined as unknown as string), undefined);
  assert.equal(handsOver(null as unknown as string), undefined);
  assert.equal(handsOver(["Please test it now."] as unknown as string), undefined);
  reads([
    ["", undefined],
    ["\n\n   \n\t\n", undefined],
    ["\u200b\u2060\n\u00a0\n", undefined],
  ]);
  handed([
    ["", undefined],
    [" \n \n", undefined],
  ]);
});

test("lines: CRLF, a lone CR, blank lines, spaces and invisible lines between a question and the end", () => {
  reads([
    [`${DONE}\r\n\r\n${ASK}\r\n`, ASK],
    [`${DONE}\r${ASK}`, ASK],
    [`${ASK}\n   \n`, ASK],
    [`${ASK}\n\n   \n`, ASK],
    [`${ASK}\n\n\x7f\n`, ASK],
    [`${ASK}\n\t\n\n`, ASK],
    [`${ASK}\n\u200b\n\u00a0 \n`, ASK],
    [`${ASK}\n\u{e0041}\u{e0042}\n`, ASK],
    [`${ASK}\n\u{e0101}\n`, ASK],
  ]);
});

test("lines: invisible characters are read past, joiners and tabs kept, terminal escapes dropped", () => {
  reads([
    [`${DONE}\n\n${ASK}\u200b`, ASK],
    [`${DONE}\n\nShall I mer\u200bge the branch?`, ASK],
    [`${DONE}\n\nShall I mer\u200dge the branch?`, "Shall I mer\u200dge the branch?"],
    [`${DONE}\n\nShall I\tmerge the branch?`, "Shall I\tmerge the branch?"],
    [`${DONE}\n\n${ASK}\u200d`, ASK],
    [`${DONE}\n\n${ASK}\ufe0f`, ASK],
    [`${DONE}\n\n\x1b[1m${ASK}\x1b[0m`, ASK],
  ]);
});

test("code: a question in a closed fenced block, or after an unclosed one, is not asked", () => {
  reads([
    [`${DONE}\n\n\`\`\`\n${ASK}\n\`\`\``, undefined],
    [`${DONE}\n\n\`\`\`ts\nconst x = 1;`, undefined],
    [`${ASK}\n\n\`\`\`ts\nconst x = 1;`, undefined],
    [`${ASK}\n\`\`\`\ncode\n~~~\n`, undefined],
    [`${ASK}\n~~~\ncode\n\`\`\`\n`, undefined],
    [`${ASK}\n\`\`\`\`\ncode\n\`\`\`\n`, undefined],
    [`${ASK}\n\`\`\`\ncode\n\`\`\` js\n`, undefined],
    [`${ASK}\n\`\`\`\ncode\n    \`\`\`\n`, undefined],
  ]);
});

test("code: a closing fenced block after the question is set aside, whatever closes it", () => {
  reads([
    [`${ASK}\n\`\`\`ts\nconst x = 1;\n\`\`\``, ASK],
    [`${ASK}\n\n\`\`\`\ncode\n\`\`\`\`\n`, ASK],
    [`${ASK}\n\n\`\`\`\ncode\n\`\`\`  \n`, ASK],
    [`${ASK}\n\n\`\`\`\ncode\n\`\`\`\t\n`, ASK],
    [`${ASK}\n\`\`\`\n\`code\`\n\`\`\``, ASK],
    [`${ASK}\n\n   \`\`\`\ncode\n   \`\`\`\n`, ASK],
    [`${ASK}\n\n   \`\`\`\nYes, I will merge it.\n   \`\`\``, ASK],
    [`${ASK}\n\n~~~\nYes, I will merge it.\n~~~`, ASK],
    [`${ASK}\n\n~~~ a\`b\ncode\n~~~\n`, ASK],
    [`${ASK}\n\n~~~~\ncode\n~~~\nmore code\n~~~~~\n`, ASK],
    [`${ASK}\n\n\`\`\`\none\n\`\`\`\n\`\`\`\ntwo\n\`\`\`\n`, ASK],
    [`${ASK}\n\n\`\`\`\n\`\`\`\nstill code, then a question?\n`, "still code, then a question?"],
  ]);
});

test("code: what only looks like a fence is a line", () => {
  reads([
    // Backticks in the info string of a backtick fence: not a fence, so the question below it is the last line.
    [`\`\`\`not\`a fence\n${ASK}`, ASK],
    // Two backticks, or four spaces before three, open nothing.
    [`\`\`\n${ASK}`, ASK],
    [`${DONE}\n\`\`\n${ASK}`, ASK],
    [`    \`\`\`\n${ASK}`, ASK],
    [`${DONE}\n\n\`\`\`ts\n`, undefined],
  ]);
});

test("code: inline code and URLs hide a question mark; a URL question needs two words before it", () => {
  reads([
    [`${DONE}\n\nThe flag is \`--dry-run?\``, undefined],
    [`${DONE}\n\nThe flag is \`\`a \` b?\`\``, undefined],
    [`${DONE}\n\n\`git status?\``, undefined],
    [`${DONE}\n\nThe report is at https://example.com/report?id=7`, undefined],
    [`${DONE}\n\nSee https://example.com/report?`, undefined],
    [`${DONE}\n\nCan you open https://example.com/report?`, "Can you open https://example.com/report?"],
    [`${DONE}\n\nShall I use \`pnpm\`?`, "Shall I use `pnpm`?"],
    [`${DONE}\n\n???`, undefined],
    [`${DONE}\n\nSee https://example.com/a? ${ASK}`, `See https://example.com/a? ${ASK}`],
    [`${DONE}\n\nhttps://example.com/report?`, undefined],
    [`${DONE}\n\nIs the report at https://example.com/report?`, "Is the report at https://example.com/report?"],
    // A mark after nothing but code asks nothing.
    [`${DONE}\n\n\`git status\`?`, undefined],
  ]);
  // The question mark after a URL inside brackets is prose, not part of the URL.
  assert.match(askedQuestion(`${DONE}\n\nCan you check it (https://example.com/report?)`) ?? "", /^Can you check it \(https:\/\/example\.com\/report\?\)?$/u);
  reads([
  ]);
});

test("quotations: a question quoted after other text is someone else's; one that opens the line is asked", () => {
  reads([
    [`${DONE}\n\nThe old prompt said "Shall I merge the branch?"`, undefined],
    [`${DONE}\n\nThe old prompt said «Shall I merge the branch?»`, undefined],
    [`${DONE}\n\nThe old prompt said 'Shall I merge the branch?'`, undefined],
    [`${DONE}\n\nThe old prompt said “Shall I merge the branch?”`, undefined],
    [`${DONE}\n\n(The old prompt said "Shall I merge the branch?")`, undefined],
    [`${DONE}\n\nPrompt:"Is the branch ready to merge?"`, undefined],
    // A closing quote that nothing opened is decoration.
    [`${DONE}\n\n${ASK}"`, ASK],
    // The quotation is not the end of the line: the line's own question is.
    [`${DONE}\n\nThe old prompt said "why?" Is the branch ready to merge?`, 'The old prompt said "why?" Is the branch ready to merge?'],
  ]);
  // A quotation that opens the line is the agent's own question (what is shown keeps its opening quote).
  assert.match(askedQuestion(`${DONE}\n\n"Is the branch ready to merge?"`) ?? "", /^"?Is the branch ready to merge\?"?$/u);
  assert.match(askedQuestion(`${DONE}\n\n**"Is the branch ready to merge?"**`) ?? "", /^"?Is the branch ready to merge\?"?$/u);
  for (const reply of [`${DONE}\n\n**"Shall I merge the branch?"**`, `${DONE}\n\n"Shall I merge the branch?"`, `${DONE}\n\n(“Shall I merge the branch?”)`]) {
    assert.match(askedQuestion(reply) ?? "", /^\(?["“]?Shall I merge the branch\?["”]?$/u, reply);
  }
});

test("quotations: in the closing prose, a quoted request is hidden, an apostrophe opens nothing", () => {
  reads([
    [`${DONE} The old dialog said "please confirm the version" and we dropped it.`, undefined],
    [`${DONE} The error reads 'please share the log' in the old build.`, undefined],
    [`${DONE}\n\nThe dialog said "please confirm the version" once.`, undefined],
    [`${DONE} The old dialog said "please confirm the version`, undefined],
    [`${DONE} The build's green. Please confirm the version.`, "Please confirm the version."],
    [`${DONE} It's done, and the build's green. Please confirm the version.`, "Please confirm the version."],
    // A quotation that opens the line is the agent's own words in quotes.
    [`${DONE}\n\n“Please confirm the version,” the exporter asks on start.`, "“Please confirm the version,” the exporter asks on start."],
  ]);
});

test("decoration: quote, list, heading and emphasis prefixes, closing marks, emoji and a parenthetical", () => {
  reads([
    [`${DONE}\n\n> - **${ASK}**`, ASK],
    [`${DONE}\n\n1. ${ASK}`, ASK],
    [`${DONE}\n\n2) ${ASK}`, ASK],
    [`${DONE}\n\n### ${ASK}`, ASK],
    [`${DONE}\n\n・${ASK}`, ASK],
    [`${DONE}\n\n①${ASK}`, ASK],
    [`${DONE}\n\n3、${ASK}`, ASK],
    [`${DONE}\n\n🚀 ${ASK} 🚀`, ASK],
    [`${DONE}\n\n_${ASK}_ 👍🏽`, ASK],
    [`${DONE}\n\n(${ASK})`, `(${ASK}`],
    [`${DONE}\n\nShall I merge the branch first? (recommended)`, "Shall I merge the branch first?"],
    [`${DONE}\n\n**Shall I merge the branch first?** _(my advice: yes)_`, "Shall I merge the branch first?"],
    [`${DONE}\n\nShall I merge the branch first? (it has ${"x".repeat(90)})`, "Shall I merge the branch first?"],
    // In a list item the next sentence would answer the question: only the parenthetical's removal keeps it asked.
    [`${DONE}\n\n- Shall I merge the branch first? (recommended)`, "Shall I merge the branch first?"],
    [`${DONE}\n\n- Shall I merge the branch first?(recommended)`, "Shall I merge the branch first?"],
    [`${DONE}\n\n- **Shall I merge the branch first?** _(my advice: yes)_`, "Shall I merge the branch first?"],
    [`${DONE}\n\n*** ${ASK}`, ASK],
    // Only a parenthetical that ends the line is set aside.
    [`${DONE}\n\nShall I merge it first? (recommended) Or rebase it?`, "Shall I merge it first? (recommended) Or rebase it?"],
  ]);
});

test("trailers: tag lines, rules, comments and decoration lines after the question are set aside", () => {
  reads([
    [`${ASK}\n\n[Logs saved]`, ASK],
    [`${ASK}\n**[Logs saved]**`, ASK],
    [`${ASK}\n(draft 2)`, ASK],
    [`${ASK}\n【Saved】`, ASK],
    [`${ASK}\n\n---`, ASK],
    [`${ASK}\n\n* * *`, ASK],
    [`${ASK}\n\n___`, ASK],
    [`${ASK}\n\n<!-- build 42 -->`, ASK],
    [`${ASK}\n\n🚀✨`, ASK],
    [`${ASK}\n\n**`, ASK],
    [`${ASK}\n\n✨ __ ✨`, ASK],
    [`${ASK}\n[one]\n\`\`\`\ncode\n\`\`\`\n[two]\n[three]`, ASK],
    [`${ASK}\n[one]\n[two]\n[three]`, ASK],
  ]);
});

test("trailers: more than three tag lines, or only trailers, ask nothing; a long bracketed line is prose", () => {
  reads([
    [`${ASK}\n[one]\n[two]\n[three]\n[four]`, undefined],
    [`${ASK}\n**[one]**\n[two]\n[three]\n[four]`, undefined],
    [`${ASK}\n[x]\n[y]\n[z]\n[w]`, undefined],
    [`${ASK}\n[one]\n[two]\n[three]\n  [four]  `, undefined],
    // Lines of emoji count; lines of invisible characters are blank and do not.
    [`${ASK}\n[one]\n[two]\n[three]\n🚀`, undefined],
    [`${ASK}\n[one]\n[two]\n[three]\n\u00a0✨`, undefined],
    [`${ASK}\n[one]\n[two]\n[three]\n\ufeff✨`, undefined],
    [`${ASK}\n[one]\n[two]\n[three]\n\u{e0041}`, ASK],
    [`${ASK}\n[one]\n[two]\n[three]\n\u00a0\u2060`, ASK],
    // Rules and comments count among the trailing lines too.
    [`${ASK}\n[one]\n[two]\n[three]\n* * *`, undefined],
    [`${ASK}\n[one]\n[two]\n[three]\n- - -`, undefined],
    [`${ASK}\n[one]\n[two]\n[three]\n_ _ _`, undefined],
    [`${ASK}\n[one]\n[two]\n[three]\n<!-- build 42 -->`, undefined],
    [`${ASK}\n\n- - -`, ASK],
    // A rule or a comment after text on the line is not a line of its own.
    [`${DONE}\n\nPlease confirm the version. ***`, "Please confirm the version."],
    [`${DONE}\n\nPlease confirm the version. <!-- v2 -->`, "Please confirm the version."],
    // A line that opens with a tag and goes on is prose.
    [`${DONE}\n\n[Note] Please confirm the version.`, "[Note] Please confirm the version."],
    [`[one]\n[two]`, undefined],
    ["```\ncode\n```", undefined],
    // 49 characters in brackets is not a tag: it is the last line, the question the paragraph before it.
    [`${ASK}\n\n[${"a".repeat(47)}]\n[one]\n[two]\n[three]`, ASK],
    [`${ASK}\n\n[${"a".repeat(46)}]\n[one]\n[two]\n[three]`, undefined],
    // A bracketed line without a letter says something: the paragraph it closes asks nothing.
    [`${DONE}\n\n[42]`, undefined],
    [`${DONE}\n\nShall I tag it? [Recommended]`, "Shall I tag it?"],
  ]);
});

test("trailers: a comment that opens a line of prose leaves the line prose", () => {
  // What is shown of the comment is not pinned here.
  assert.match(askedQuestion(`${DONE}\n\n<!-- v2 --> Please confirm the version.`) ?? "", /Please confirm the version\.$/u);
});

test("depends: a line that depends on the question right above it", () => {
  reads([
    [`${DONE}\n${ASK}\nIf yes, I'll tag the release.`, ASK],
    [`${DONE}\n${ASK}\n- Once you confirm, I'll tag the release.`, ASK],
    [`${DONE}\nThe branch is ready.\nIf yes, I'll tag the release.`, undefined],
    // The line above asks by its mark alone, which the closing prose would not read as speaking to the person.
    [`${DONE}\nIs the branch ready?\nIf yes, I'll tag the release.`, "Is the branch ready?"],
    [`If yes, I'll tag the release.`, undefined],
  ]);
});

test("options: a closing list under a line that asks", () => {
  reads([
    [`${DONE}\nWhich one should I use?\n- Postgres\n- SQLite`, "Which one should I use?"],
    [`${DONE}\nShall I use one of these?\n1. Postgres\n2. SQLite`, "Shall I use one of these?"],
    [`${DONE}\nWould you like me to:\n1. add tests\n2. ship it`, "Would you like me to:"],
    [`${DONE}\n**Please choose one:**\na) Postgres\nb) SQLite`, "Please choose one:"],
    [`${DONE}\nWould you like me to：\n・add tests\n・ship it`, "Would you like me to："],
    [`${DONE}\nNext I will:\n- add tests\n- ship it`, undefined],
    [`${DONE}\nWhat changed?\n- the parser\n- the writer`, undefined],
    [`${DONE}\nWould you like me to\n- add tests\n- ship it`, "Would you like me to"],
    [`${DONE}\n\`\`\`\ncode\n\`\`\`\n- add tests\n- ship it`, undefined],
    // A question word asks the person here because it is followed by the options to choose from.
    [`${DONE}\nWhich one?\n- Postgres\n- SQLite`, "Which one?"],
    [`${DONE}\nWhich one?\n(1) Postgres\n(2) SQLite`, "Which one?"],
    [`${DONE}\nWhich one?\na) Postgres\nb) SQLite`, "Which one?"],
    // An option that opens like a dependent line is still an option.
    [`${DONE}\nWhich one?\n- Postgres\n- Otherwise SQLite`, "Which one?"],
    [`${DONE}\n**Which option do you prefer:**\n- Postgres\n- SQLite`, "Which option do you prefer:"],
    [`${DONE}\nWhich one?\n・ Postgres\n・ SQLite`, "Which one?"],
    [`${DONE}\nWhich one?\n-  Postgres\n-  SQLite`, "Which one?"],
    [`${DONE}\nWhich one?\n${Array.from({ length: 10 }, (_, index) => `${index + 1}、option ${index + 1}`).join("\n")}`, "Which one?"],
    [`${DONE}\nWhich one?\n1、Postgres\n2、SQLite`, "Which one?"],
    [`${DONE}\nWhen can we ship it?\n- today\n- tomorrow`, "When can we ship it?"],
  ]);
});

test("options: twelve options are read, a thirteenth is past the bound", () => {
  const options = (count: number) => Array.from({ length: count }, (_, index) => `${index + 1}. option ${index + 1}`).join("\n");
  reads([
    [`${DONE}\n\nWhich one should I use?\n\n${options(12)}`, "Which one should I use?"],
    [`${DONE}\n\nWhich one should I use?\n\n${options(13)}`, undefined],
  ]);
});

test("closing prose: a question to the person anywhere in the last paragraph", () => {
  reads([
    [`${DONE} ${ASK} It touches three modules.`, ASK],
    [`${DONE}\n\n**${ASK}** Let me know.`, ASK],
    [`${DONE} What do you think of the layout? It is small.`, "What do you think of the layout?"],
    [`${DONE} Which database should I use? Both are installed.`, "Which database should I use?"],
    [`${DONE} Ready to ship it? The build is green.`, "Ready to ship it?"],
    [`${DONE} Do you want me to deploy it`, "Do you want me to deploy it"],
    [`${DONE} Should I also update the docs`, "Should I also update the docs"],
    [`${DONE}\n\nShould I use the cache:`, undefined],
    [`${DONE} The page is at https://example.com/login. Please confirm the version.`, "Please confirm the version."],
    [`${DONE} The file is v1.2.3 now. Please confirm the version.`, "Please confirm the version."],
    [`${DONE} Run \`npm run build\` once. Please confirm the version.`, "Please confirm the version."],
    ["エクスポートは完成しました。ブランチをマージしてもよろしいでしょうか。三つのモジュールに影響します。", "ブランチをマージしてもよろしいでしょうか。"],
  ]);
});

test("closing prose: questions that ask nobody, are answered, or set up what follows", () => {
  reads([
    [`${DONE}\n\nWho knew?`, undefined],
    [`${DONE} Who knew? It was the cache.`, undefined],
    [`${DONE} Should I go on? I will.`, undefined],
    [`${DONE} Should I go on? ... I will.`, undefined],
    [`${DONE} Should I go on? (Short answer) Yes.`, undefined],
    [`${DONE} What if you need JSON? Pass the flag.`, undefined],
    [`${DONE} Why does it fail? The cache is stale.`, undefined],
    // A question word asks the person only when it names them.
    [`${DONE} When can we ship it? The build is green.`, undefined],
    [`${DONE}\nNotes:\n- Can I reuse the cache? It runs once per build.`, undefined],
    // A list item's question that another question follows is not answered by it.
    [`${DONE}\nNotes:\n- Can I reuse the cache? Can it run twice?\n- It runs once per build.`, "Can I reuse the cache?"],
    [`${DONE}\nNotes:\n- Can I reuse the cache? It runs once per build.\n- The rest is small.`, undefined],
    // The next list item does not answer the question of the item above it.
    [`${DONE}\nNotes:\n- Can I reuse the cache?\n- It runs once per build.`, "Can I reuse the cache?"],
  ]);
});

test("closing prose: a question the next sentence does not answer still asks", () => {
  reads([
    [`${DONE} Should I go on? The rest is small.`, "Should I go on?"],
    [`${DONE} What if we drop the cache? Do you agree? It is small.`, "Do you agree?"],
    [`${DONE}\n\nWhat if we drop the cache?`, "What if we drop the cache?"],
  ]);
});

test("requests: what only the person can give, a wait, a hand-over, an act the next step hangs on", () => {
  reads([
    [`${DONE} Please confirm the version.`, "Please confirm the version."],
    [`${DONE} Awaiting your approval to proceed.`, "Awaiting your approval to proceed."],
    [`${DONE} Once you send the files, I'll wire them in.`, "Once you send the files, I'll wire them in."],
    [`${DONE} Now, run the migration and paste the output here.`, "Now, run the migration and paste the output here."],
    [`${DONE} Run the build and let me know.`, "Run the build and let me know."],
    [`${DONE} Run the migration yourself.`, "Run the migration yourself."],
    [`${DONE} Run the migration. Then I'll seed the data.`, "Run the migration."],
    [`${DONE} Please run the migration so I can seed the data.`, "Please run the migration so I can seed the data."],
    [`${DONE} Restart the app and check the header.`, "Restart the app and check the header."],
    [`${DONE} Reload the page to verify the fix.`, "Reload the page to verify the fix."],
    [`${DONE} Please test the login flow.`, "Please test the login flow."],
    [`${DONE} Test it now!`, "Test it now!"],
    [`${DONE} Let me know which database you prefer.`, "Let me know which database you prefer."],
    [`${DONE} You need to send me the build output.`, "You need to send me the build output."],
    [`${DONE} Open https://example.com/login and check the header.`, "Open https://example.com/login and check the header."],
    [`${DONE} Once you restart the server, I'll check the logs.`, "Once you restart the server, I'll check the logs."],
  ]);
});

test("requests: conditions, offers, negations and later use are sign-offs", () => {
  reads([
    [`${DONE} If you hit errors, paste the log here.`, undefined],
    [`${DONE} Should it fail, paste the log here.`, undefined],
    [`${DONE} If the build breaks, please share the log.`, undefined],
    [`${DONE} Share the log with me if you want.`, undefined],
    [`${DONE} Feel free to share the log with me.`, undefined],
    [`${DONE} Let me know if you need anything else.`, undefined],
    [`${DONE} There is no need to wait for your approval.`, undefined],
    [`${DONE} Run the migration. Then I can help if you want.`, undefined],
    [`${DONE} Run \`npm start\` to see it.`, undefined],
    [`${DONE} You can run \`npm start\` to see it.`, undefined],
    [`${DONE} Open settings and toggle dark mode.`, undefined],
    [`${DONE} Run \`/clear\` to start fresh.`, undefined],
    [`${DONE} Add the importer next.`, undefined],
    [`${DONE} The field is undefined in the old config.`, undefined],
    [`${DONE}\n\nThe old field stays undefined.`, undefined],
    [`${DONE} Test it now!!`, "Test it now!!"],
    // A list of what remains is the agent's own plan, not a request.
    [`${DONE}\n\nRemaining:\n- Restart the server and check the logs\n- Ship the release`, undefined],
    [`${DONE}\n\nRemaining:\n- Reload the page to verify the fix\n- Ship the release`, undefined],
    [`${DONE}\n\nStill to do:\n- Test the login flow\n- Ship the release`, undefined],
  ]);
});

test("headings: under a turn heading any imperative asks; under Next steps only a step the person takes", () => {
  reads([
    [`${DONE}\n\n## Ready to test\n\nOpen the app.`, "Open the app."],
    [`${DONE}\n\n## Ready to test 🚀\n\nOpen settings and toggle dark mode.`, "Open settings and toggle dark mode."],
    [`${DONE}\n\n**Your turn:**\n\nOpen settings and toggle dark mode.`, "Open settings and toggle dark mode."],
    [`${DONE}\n\nYour turn:\nOpen settings and toggle dark mode.`, "Open settings and toggle dark mode."],
    [`${DONE}\n\n=== Ready to test ===\nOpen settings and toggle dark mode.`, "Open settings and toggle dark mode."],
    [`${DONE}\n\n## Next steps\n\nRestart the server.`, "Restart the server."],
    [`${DONE}\n\nNext steps:\n- Restart the server.`, "Restart the server."],
    [`${DONE}\n\n## Next steps\n\nAdd the importer.`, undefined],
    [`${DONE}\n\n## Next steps\n\nRun \`/clear\` to start fresh.`, "Run `/clear` to start fresh."],
    [`${DONE}\n\n**Next step:** Restart the server.`, "Restart the server."],
    [`${DONE}\n\n- **Next step:** Restart the server.`, "Restart the server."],
    [`${DONE}\n\n**Next step**: Restart the server.`, "Restart the server."],
    [`${DONE}\n\n## Summary\n\nOpen settings and toggle dark mode.`, undefined],
    [`${DONE}\n\n## Ready to test!\n\nOpen settings and toggle dark mode.`, "Open settings and toggle dark mode."],
    [`${DONE}\n\n## Ready to test ##\n\nOpen settings and toggle dark mode.`, "Open settings and toggle dark mode."],
    // A line above the heading, in the same paragraph, is not under it.
    [`${DONE}\n\nOpen settings and toggle dark mode.\n## Ready to test\nThe app is built.`, undefined],
  ]);
});

test("headings: the whole section under a turn heading is the closing prose", () => {
  reads([
    [`${DONE}\n\n## Ready to test\n\nOpen the app.\n\nThe login page is new.`, "Open the app."],
    [`${DONE}\n\n## Ready to test\n\nOpen the app.\n\`\`\`\ncode\n\`\`\`\nThe login page is new.`, "Open the app."],
    [`${DONE}\n\nOpen the app.\n\nThe login page is new.`, undefined],
    [`${DONE}\n\n## Summary\n\nOpen the app.\n\nThe login page is new.`, undefined],
    // The closing section is the one under the last heading.
    [`${DONE}\n\n## Ready to test\n\nOpen the app.\n\n## Notes\n\nThe login page is new.`, undefined],
  ]);
});

test("closing prose: the lead line of a closing list, and the list itself", () => {
  reads([
    [`${DONE}\n\nI need two things from you:\n\n- the API key\n- the region`, "I need two things from you:"],
    [`${DONE}\n\nTo finish:\n- paste the token here\n- choose a region`, "paste the token here"],
    [`${DONE}\n\nI need these from you:\n\n${Array.from({ length: 9 }, (_, index) => `- value ${index + 1}`).join("\n")}`, "I need these from you:"],
  ]);
});

test("before: a question in the paragraph before one paragraph of explanation", () => {
  const lines = (count: number) => Array.from({ length: count }, (_, index) => `Line ${index + 1} of the notes is here.`).join("\n");
  reads([
    [`${DONE}\n\n${ASK}\n\nIt touches three modules.`, ASK],
    [`${DONE}\n\n${ASK}\n\n\`\`\`diff\n+ one line\n\`\`\`\n\nIt touches three modules.`, ASK],
    [`${DONE}\n\n${ASK}\n\`\`\`diff\n+ one line\n\`\`\`\n\`\`\`diff\n+ two\n\`\`\`\nIt touches three modules.`, ASK],
    [`${DONE}\n\n${ASK}\n\nYes, merging it now.`, undefined],
    [`${DONE}\n\n${ASK}\n\n## Notes\nIt touches three modules.`, undefined],
    [`${DONE}\n\n${ASK}\n\n${lines(8)}`, ASK],
    [`${DONE}\n\n${ASK}\n\n${lines(9)}`, undefined],
    [`${DONE}\n\n${ASK}\n\n${lines(3)}\n\nThe end is near.`, undefined],
    [`${DONE}\n\nWould you like me to:\n- add tests\n- ship it\n\nBoth take a minute.`, "Would you like me to:"],
    [`${DONE}\n\nPlease confirm the version.\n\nIt is pinned in two files.`, "Please confirm the version."],
    // A question that sets up the paragraph after it asks nothing.
    [`${DONE}\n\nWhat if you need JSON?\n\nPass the flag to the writer.`, undefined],
    // The paragraph before is read by its last sixteen lines, the closing one by its last twenty-four.
    [`${DONE}\n\n${ASK}\n${lines(15)}\n\nIt touches three modules.`, ASK],
    [`${DONE}\n\n${ASK}\n${lines(16)}\n\nIt touches three modules.`, undefined],
    [`${DONE}\n\n${ASK}\n${lines(23)}`, ASK],
    [`${DONE}\n\n${ASK}\n${lines(24)}`, undefined],
  ]);
});

test("long replies: a long line is read by its end, a long reply by its last lines", () => {
  const long = `${"word ".repeat(1000)}${ASK}`;
  const asked = askedQuestion(`${DONE}\n\n${long}`);
  assert.equal(asked, long.slice(-2000));
  const filler = Array.from({ length: 3000 }, (_, index) => `Step ${index} is done.`).join("\n");
  reads([
    [`${ASK}\n\n${filler}`, undefined],
    [`${filler}\n\n${ASK}`, ASK],
    [`${filler}\n\n${ASK}\n\`\`\`\ncode\n\`\`\``, ASK],
    [`${"`".repeat(3)}\n${filler}\n${"`".repeat(3)}\n\n${ASK}`, ASK],
  ]);
  // A line longer than the prose bound is read by its end: the request at its end is found.
  reads([
    [`${DONE} ${"The parser is stable. ".repeat(300)}Please confirm the version.`, "Please confirm the version."],
    [`${DONE}\n\nPlease confirm the version. ${"The parser is stable. ".repeat(50)}`, undefined],
    // The closing prose is read by its last 4,000 characters.
    [`${DONE}\n\nPlease confirm the version.\n${`${"The parser is stable. ".repeat(46)}\n`.repeat(3)}`, "Please confirm the version."],
    [`${DONE}\n\nPlease confirm the version.\n${`${"The parser is stable. ".repeat(46)}\n`.repeat(4)}`, undefined],
  ]);
});

test("a question by its ending, without a mark (a script-specific branch)", () => {
  reads([
    ["エクスポートは完成しました。\n\nブランチをマージしてもよろしいでしょうか。", "ブランチをマージしてもよろしいでしょうか。"],
    ["エクスポートは完成しました。\n\nブランチをマージしてもよろしいでしょうか。🚀", "ブランチをマージしてもよろしいでしょうか。"],
  ]);
});

test("handsOver: a request to test now, or a word that it could not be run, is handed over", () => {
  handed([
    [`${DONE} Please test the login page now.`, "Please test the login page now."],
    [`${DONE} I couldn't run the UI tests.`, "I couldn't run the UI tests."],
    [`${DONE} Restart the server and check the log.`, "Restart the server and check the log."],
    [`${DONE} Now, try it and let me know if it works.`, "Now, try it and let me know if it works."],
    [`${DONE} It is ready to test.`, "It is ready to test."],
    [`Please test the login page now. ${DONE} I couldn't run the UI tests. The rest is done.`, "I couldn't run the UI tests."],
    [`**Please test the login page now.**\n\n[Logs saved]`, "Please test the login page now."],
    [`${DONE} I couldn't test it on a phone, so feel free to try it there.`, "I couldn't test it on a phone, so feel free to try it there."],
    [`${DONE} Note: try it in the browser.`, "Note: try it in the browser."],
    [`${DONE} Please check that it works.`, "Please check that it works."],
  ]);
});

test("handsOver: offers, conditions, later use, code, quotations and far-back lines are not", () => {
  const filler = Array.from({ length: 24 }, (_, index) => `Step ${index} is done.`).join("\n");
  handed([
    [`${DONE} Want me to also add tests?`, undefined],
    [`${DONE} If it fails, try again.`, undefined],
    [`${DONE} Should it break, test it again.`, undefined],
    [`${DONE} Feel free to test it.`, undefined],
    [`${DONE} You can run \`npm start\` to see it.`, undefined],
    [`${DONE} Who would have thought? Test it.`, "Test it."],
    [`${DONE} The old note said "please test the login page now" and is gone.`, undefined],
    [`${DONE}\n\n\`\`\`\nPlease test the login page now.\n\`\`\``, undefined],
    [`Please test the login page now.\n${filler}`, undefined],
    [`Please test the login page now.\n${filler.split("\n").slice(1).join("\n")}`, "Please test the login page now."],
    [`Please test the login page now.\n\`\`\`\ncode`, undefined],
    [`Please test the login page now.\n[one]\n[two]\n[three]\n[four]`, undefined],
    [`${DONE}\n\nRemaining:\n- Restart the server and check the logs\n- Ship the release`, undefined],
  ]);
});

test("replyText: the text blocks of a message, one per line", () => {
  assert.equal(replyText(null), "");
  assert.equal(replyText("text"), "");
  assert.equal(replyText({}), "");
  assert.equal(replyText({ content: "Shall I go on?" }), "Shall I go on?");
  assert.equal(replyText({ content: 7 }), "");
  assert.equal(
    replyText({
      content: [
        { type: "thinking", thinking: "hidden" },
        { type: "text", text: "One." },
        null,
        "loose",
        { type: "toolCall", text: "not text" },
        { type: "text", text: 3 },
        { type: "text", text: "Two?" },
      ],
    }),
    "One.\nTwo?",
  );
});

/** The patterns a line's form is told by, by the start of their source, and the sources each reply ran. */
const LINE_PATTERNS: readonly (readonly [string, string])[] = [
  ["a prefix or emphasis at the start", "^\\s*(?:(?:>|[-*+•]"],
  ["decoration at the end", "[\\s*_~\"'"],
  ["a parenthetical after the question mark", "(?<=[?？؟]"],
  ["inline code", "(`+)"],
  ["a URL", "[a-z][a-z0-9+.-]{0,20}:\\/\\/"],
  ["a heading", "^\\s*(?:#{1,6}\\s+"],
  ["a colon heading", "^\\s*([^:："],
  ["a label", "^\\s*(?:[-*+•]\\s+)?(?:\\*\\*|__)"],
  ["a list item", "^\\s*(?:(?:[-*+•]|\\d{1,9}[.)]|[A-Za-z][)]"],
  ["a thematic break", "^ {0,3}(?:(?:-"],
  ["an HTML comment", "^ {0,3}<!--"],
  ["a decoration line", "^(?=.*["],
  ["a tag line", "^[*_]*[[(（【]"],
  ["a carriage return", "\\r\\n?"],
];

function patternsRun(read: () => void): readonly string[] {
  const sources = new Set<string>();
  const exec = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    sources.add(this.source);
    return exec.call(this, text);
  };
  try {
    read();
  } finally {
    RegExp.prototype.exec = exec;
  }
  return [...sources];
}

test("a reply of plain sentences runs none of the patterns of decoration, headings, labels, lists, code, URLs or line breaks: a cheap test of what each match needs rules it out first", () => {
  const decorated = [
    "## Summary\r\n- first `npm test` https://example.com/x\n**Next step:** run it\nNext steps:\n> Shall we ship it? (my advice: yes) 🚀",
    "Done.\n\n<!-- done -->\n✨ ✨",
    "Done.\n\n[WIP]\n---",
  ];
  const plain = "The parser reads each token now\n\nAll tests pass now\nZero warnings are left in the build\n  and the cache keeps the index\nzones render the layout";
  const everyForm = patternsRun(() => {
    for (const reply of decorated) {
      askedQuestion(reply);
      handsOver(reply);
    }
  });
  const plainOnly = patternsRun(() => {
    assert.equal(askedQuestion(plain), undefined);
    assert.equal(handsOver(plain), undefined);
  });
  for (const [name, start] of LINE_PATTERNS) {
    assert.ok(everyForm.some((source) => source.startsWith(start)), `the decorated reply runs the pattern of ${name}`);
    assert.ok(!plainOnly.some((source) => source.startsWith(start)), `a plain reply runs no pattern of ${name}`);
  }
  // A digit may open a numbered item, so a line that opens with one is read for its prefix; it still ends
  // no tag, break, comment or decoration line, and a digit at a sentence's end is no decoration there.
  for (const reply of ["9 files changed in 2020", "0 files left at version 9"]) {
    const ran = patternsRun(() => assert.equal(askedQuestion(reply), undefined));
    for (const [name, start] of LINE_PATTERNS.filter(([name]) => /decoration at the end|tag|break|comment|decoration line/.test(name))) {
      assert.ok(!ran.some((source) => source.startsWith(start)), `${JSON.stringify(reply)} runs no pattern of ${name}`);
    }
  }
  assert.equal(askedQuestion("Done.\n\n  Can you confirm the schema?"), "Can you confirm the schema?", "an indented line is read without its indent");
});

test("a URL's trailing punctuation stays prose: the sentence after it is read whole", () => {
  assert.equal(askedQuestion("Deployed to https://example.com/app... Please test the login page now."), "Please test the login page now.");
  assert.equal(askedQuestion("See https://example.com/app...! Could you check the header, please?\n\nThanks."), "Could you check the header, please?");
});
