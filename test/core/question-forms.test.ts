/**
 * The table of forms per language (src/core/question-forms.ts), pinned cell by cell through what reads it:
 * the scripts a text holds, the shapes of `whole()` and `within()`, and, in each language, one sentence per
 * form that must read as asking, waiting or handing over, beside a near-miss that must not (a sign-off, an
 * offer, a condition, a question answered or asked of nobody). Every sentence is written for these tests,
 * as a reply would say it; the checks of one language stay in its script, so each test compiles few rows.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { CYRILLIC, HAN, HANGUL, KANA, LATIN, scriptsOf, whole, within } from "../../src/core/question-forms.ts";
import { asking, askingNothing, handing, handingNothing } from "./question-forms-check.ts";

test("scriptsOf: each range by its first and last code unit, and the units just outside it", () => {
  const of = (unit: number): number => scriptsOf(String.fromCharCode(unit));
  // ASCII letters of either case, and the marks around them.
  for (const unit of [0x41, 0x4d, 0x5a, 0x61, 0x6d, 0x7a]) assert.equal(of(unit), LATIN, unit.toString(16));
  for (const unit of [0x00, 0x20, 0x30, 0x39, 0x40, 0x5b, 0x5f, 0x60, 0x7b, 0x7e, 0x7f, 0x80, 0xa0, 0xbf]) assert.equal(of(unit), 0, unit.toString(16));
  // Latin-1 letters to Latin Extended-B; IPA after it is not a language's script.
  for (const unit of [0xc0, 0xe9, 0x11b, 0x24f]) assert.equal(of(unit), LATIN, unit.toString(16));
  for (const unit of [0x250, 0x2ff, 0x3b1, 0x3ff]) assert.equal(of(unit), 0, unit.toString(16));
  for (const unit of [0x400, 0x416, 0x44f, 0x4ff]) assert.equal(of(unit), CYRILLIC, unit.toString(16));
  for (const unit of [0x500, 0x5d0]) assert.equal(of(unit), 0, unit.toString(16));
  for (const unit of [0x3040, 0x3042, 0x30ab, 0x30ff]) assert.equal(of(unit), KANA, unit.toString(16));
  for (const unit of [0x303f, 0x3100]) assert.equal(of(unit), 0, unit.toString(16));
  for (const unit of [0x3400, 0x4dbf, 0x4e00, 0x6f22, 0x9fff]) assert.equal(of(unit), HAN, unit.toString(16));
  for (const unit of [0x33ff, 0x4dc0, 0x4dff, 0xa000]) assert.equal(of(unit), 0, unit.toString(16));
  for (const unit of [0x1100, 0x11ff, 0x3130, 0x318f, 0xac00, 0xd55c, 0xd7af]) assert.equal(of(unit), HANGUL, unit.toString(16));
  for (const unit of [0x10ff, 0x1200, 0x312f, 0x3190, 0xabff, 0xd7b0]) assert.equal(of(unit), 0, unit.toString(16));
});

test("scriptsOf: a text holds the union of its characters' scripts", () => {
  assert.equal(scriptsOf(""), 0);
  assert.equal(scriptsOf("123 + 456 = 579!"), 0);
  assert.equal(scriptsOf("Done."), LATIN);
  assert.equal(scriptsOf("Готово."), CYRILLIC);
  assert.equal(scriptsOf("Deploy готов"), LATIN | CYRILLIC);
  assert.equal(scriptsOf("完了しました"), HAN | KANA);
  assert.equal(scriptsOf("完成了"), HAN);
  assert.equal(scriptsOf("완료했습니다"), HANGUL);
  assert.equal(scriptsOf("OK: 完了、완료, готово"), LATIN | HAN | HANGUL | CYRILLIC);
  assert.equal(scriptsOf("OK: 完了しました、완료, готово"), LATIN | HAN | KANA | HANGUL | CYRILLIC);
  // The last character counts as much as the first.
  assert.equal(scriptsOf("1234a"), LATIN);
  assert.equal(scriptsOf("…é"), LATIN);
});

test("whole(): the lexicon's words, never inside a word of any script", () => {
  const pattern = new RegExp(whole(/test|try it/), "u");
  for (const text of ["test", "Please test.", "(test)", "try it now", "1 test"]) assert.equal(pattern.test(text), true, text);
  for (const text of ["retest", "tests", "test1", "1test", "étest", "testé", "тtest", "try item", "tryit"]) assert.equal(pattern.test(text), false, text);
  // The lexicon is one group: an alternative never leaks past the boundaries.
  const anchored = new RegExp(`^${whole(/a|b/)}$`, "u");
  assert.equal(anchored.test("a"), true);
  assert.equal(anchored.test("b"), true);
  assert.equal(anchored.test("ab"), false);
});

test("within(): at most that many characters, lazily, inside one sentence", () => {
  const pattern = new RegExp(`^x${within(3)}y$`, "u");
  for (const text of ["xy", "x1y", "x12y", "x123y", "x y"]) assert.equal(pattern.test(text), true, text);
  for (const text of ["x1234y", "x.y", "x!y", "x?y", "x。y", "x！y", "x？y"]) assert.equal(pattern.test(text), false, text);
  // Lazy: the shortest run that lets the rest match.
  assert.equal(new RegExp(`x(${within(10)})y`, "u").exec("x12y34y")?.[1], "12");
});

test("en: questions to the person, and the ones that ask nobody or are answered", () => {
  asking([
    "Should I also migrate the old records?",
    "Do you want me to deploy it to staging",
    ["Can we drop the old table? Nothing reads it anymore.", "Can we drop the old table?"],
    ["Ready to merge? The checks are green.", "Ready to merge?"],
    ["What do you think of the new name? It is shorter.", "What do you think of the new name?"],
    ["Which database should I use? Both are installed.", "Which database should I use?"],
  ]);
  askingNothing([
    "Who knew the fix was one line?",
    "What could possibly go wrong?",
    "What could go wrong?",
    "How cool is that?",
    "Why did we pick Redis? It was the only store on the box.",
    "Should I keep the old flag? Yes, for now.",
    "Should I run it again? Let me check the log first.",
    "Should I deploy? Deploying now.",
    "Want to know more? The design notes cover it.",
  ]);
});

test("en: requests to act, waits and hand-overs", () => {
  asking([
    "Please share the exact error message.",
    "Let me know which port the proxy uses.",
    "Could you please attach the config file.",
    "Could you attach the config file.",
    "Please share the log if the build fails.",
    "I'll need you to confirm the new domain.",
    "Please run the migration so I can continue.",
    "Now run the seed script and paste the output here.",
    "Please drop the file here.",
    "Please give me the full traceback.",
    "Upload the screenshot to this conversation.",
    "Ping me when the deploy finishes.",
    "Please review the plan and approve it.",
    "Pick one of the layouts below.",
    "Rerun the import, then let me know.",
    "Run the migration yourself.",
    "Refresh the page to check the new header.",
    "You'll need to restart the worker so I can pick up the new config.",
    "Please restart the database, I cannot migrate without a fresh connection.",
    ["Restart the worker. Then I'll replay the queue.", "Restart the worker."],
    "Please test the login flow.",
    "Restart the server and check the login page.",
    "Please try that again now.",
    "The migration needs your approval before it runs.",
    "I'm waiting for your test results.",
    "Once you confirm the region, the deploy can start.",
    "The deploy is pending your review.",
    "Let me know once the VPN is up.",
    "I've paused the rollout until you check the metrics.",
    "The script starts as soon as you say go.",
    "Let me know your decision.",
    "I'll hold the branch until you give the word.",
    "I need the staging password from you.",
    "I'm blocked on the missing API key.",
    "Blocked: the staging key is missing.",
    "Your call.",
    "Once you have the new token, I'll rerun the sync.",
    "Tell me when you have the logs and I'll look.",
    ["Should the backups go to S3?\nIf yes, I'll add the bucket policy.", "Should the backups go to S3?"],
    ["Should the backups go to S3?\nOtherwise I'll keep them on the box.", "Should the backups go to S3?"],
    ["Would you like to go with:\n1. Redis\n2. Postgres", "Would you like to go with:"],
    ["Which approach would you like me to take:\n1. Keep the cache\n2. Drop it", "Which approach would you like me to take:"],
    ["## Your turn\n\nOpen Settings, then pick a theme.", "Open Settings, then pick a theme."],
    ["## Next steps\n\nSelect the staging profile.", "Select the staging profile."],
  ]);
  askingNothing([
    "Done. Let me know if you need anything else.",
    "Done. You can run `npm start` to see it.",
    "Run `npm start` to see it.",
    "Open the app and check out the new dark mode!",
    "If the build fails, please share the log.",
    "Send me the logs whenever you want.",
    "No need to wait for your approval on this one.",
    "Once you get a chance, I'll walk you through it.",
    "The release includes:\n- A new cache\n- A smaller bundle",
    "## Next steps\n\nI will add the migration.",
    "Should the backups go to S3? The bucket is already there.",
    "I ran the tests and they pass.",
    "The page reloads on its own.",
  ]);
});

test("en: the testing handed over, or said not done", () => {
  handing([
    "Restart the app and let me know if the crash is fixed.",
    "The build is ready to test.",
    "Please try it in the browser.",
    "Give it a spin.",
    "Could you check that the export works now.",
    "I couldn't run the UI tests here.",
    "I haven't tested it on Windows.",
    "The Safari path is untested.",
  ]);
  handingNothing([
    "Want me to add tests for this too?",
    "You can run `npm test` to check it.",
    "If it fails, try again.",
    "I tested the flow end to end.",
    "I didn't run into any errors.",
    "Let me know if you want a test for it.",
  ]);
});
