/**
 * SPEC 0.5 §4.23, a reply that hands the testing to the person: `handsOver(text)` is the sentence that asks
 * them to test or try the result now, or says the agent could not run or test it — in every language of
 * §4.8 — and nothing for an offer of extras, how to use the finished work later, a sign-off, a condition, or
 * a fix described as done and tested. Every sentence here is written for these tests.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { handsOver } from "../src/core/question.ts";
import { DONE } from "./question-cases.ts";

function handsOverAs(cases: ReadonlyArray<readonly [string, string]>): void {
  for (const [reply, sentence] of cases) assert.equal(handsOver(reply), sentence, reply);
}

function handsNothing(replies: readonly string[]): void {
  for (const reply of replies) assert.equal(handsOver(reply), undefined, reply);
}

test("handsOver: asked to test or try the result now, in English", () => {
  handsOverAs([
    ["Please test the login page now.", "Please test the login page now."],
    [`${DONE}\n\nPlease test the login page now.`, "Please test the login page now."],
    [`${DONE} Try it and let me know.`, "Try it and let me know."],
    ["The jump is fixed. Test in game with F6.", "Test in game with F6."],
    ["The form saves again. Can you test it in the browser?", "Can you test it in the browser?"],
    ["Restart the dev server, then test the upload again.", "Restart the dev server, then test the upload again."],
    ["Deployed to staging. Give it a try when the build is green.", "Give it a try when the build is green."],
    ["The export is in. Please verify it works with your real data.", "Please verify it works with your real data."],
    [`${DONE}\n\n**Please test the login page now.** 🚀`, "Please test the login page now."],
  ]);
});

test("handsOver: says it could not run or test the result, in English", () => {
  handsOverAs([
    ["I couldn't run the UI tests, please check them in the browser.", "I couldn't run the UI tests, please check them in the browser."],
    [`${DONE} I could not test the payment flow without a sandbox key.`, "I could not test the payment flow without a sandbox key."],
    ["The parser is rewritten. I wasn't able to run it against the production dump.", "I wasn't able to run it against the production dump."],
    ["The shader compiles. I haven't tested it on a real device.", "I haven't tested it on a real device."],
    ["The migration is written but untested.", "The migration is written but untested."],
    ["Summary:\n- new parser\n- new cache\n\nNote: the Windows build has not been tested.", "Note: the Windows build has not been tested."],
  ]);
});

test("handsOver: the same two forms in every language of the table", () => {
  handsOverAs([
    ["登录已修复。请测试一下登录页面。", "请测试一下登录页面。"],
    ["登录已修复。我无法运行 UI 测试，请在浏览器中检查。", "我无法运行 UI 测试，请在浏览器中检查。"],
    ["ログインを修正しました。ログイン画面をテストしてください。", "ログイン画面をテストしてください。"],
    ["ログインを修正しました。UIテストは実行できませんでした。", "UIテストは実行できませんでした。"],
    ["로그인을 고쳤습니다. 로그인 페이지를 테스트해 주세요.", "로그인 페이지를 테스트해 주세요."],
    ["로그인을 고쳤습니다. UI 테스트는 실행하지 못했습니다.", "UI 테스트는 실행하지 못했습니다."],
    ["Вход исправлен. Пожалуйста, протестируйте страницу входа.", "Пожалуйста, протестируйте страницу входа."],
    ["Вход исправлен. Я не смог запустить UI-тесты.", "Я не смог запустить UI-тесты."],
    ["El inicio de sesión está arreglado. Por favor, prueba la página de inicio.", "Por favor, prueba la página de inicio."],
    ["El inicio de sesión está arreglado. No pude ejecutar las pruebas de la interfaz.", "No pude ejecutar las pruebas de la interfaz."],
    ["O login está corrigido. Por favor, teste a página de login.", "Por favor, teste a página de login."],
    ["O login está corrigido. Não consegui executar os testes de interface.", "Não consegui executar os testes de interface."],
    ["Der Login ist repariert. Bitte teste die Login-Seite jetzt.", "Bitte teste die Login-Seite jetzt."],
    ["Der Login ist repariert. Ich konnte die UI-Tests nicht ausführen.", "Ich konnte die UI-Tests nicht ausführen."],
    ["La connexion est corrigée. Testez la page de connexion maintenant.", "Testez la page de connexion maintenant."],
    ["La connexion est corrigée. Je n'ai pas pu lancer les tests d'interface.", "Je n'ai pas pu lancer les tests d'interface."],
    ["Il login è sistemato. Prova la pagina di login adesso.", "Prova la pagina di login adesso."],
    ["Il login è sistemato. Non sono riuscito a eseguire i test dell'interfaccia.", "Non sono riuscito a eseguire i test dell'interfaccia."],
    ["Giriş düzeltildi. Lütfen giriş sayfasını test edin.", "Lütfen giriş sayfasını test edin."],
    ["Giriş düzeltildi. Arayüz testlerini çalıştıramadım.", "Arayüz testlerini çalıştıramadım."],
    ["Giriş düzeltildi. Sunucuyu yeniden başlatın ve giriş sayfasını kontrol edin.", "Sunucuyu yeniden başlatın ve giriş sayfasını kontrol edin."],
    ["Il login è sistemato. Riavvia il server e verifica la pagina di login.", "Riavvia il server e verifica la pagina di login."],
    ["Přihlášení je opravené. Otestujte prosím přihlašovací stránku.", "Otestujte prosím přihlašovací stránku."],
    ["Přihlášení je opravené. Nepodařilo se mi spustit testy rozhraní.", "Nepodařilo se mi spustit testy rozhraní."],
  ]);
});

test("handsOver: not an offer of extras, later use, a sign-off, a condition, or work done and tested", () => {
  handsNothing([
    "Want me to also add tests?",
    `${DONE} Want me to also add tests?`,
    "You can run `npm start` to see it.",
    `${DONE} You can test it any time with \`npm test\`.`,
    "Let me know if you need anything else.",
    "Fixed the crash and tested it locally: the suite passes.",
    "I tested the login page in the browser and it works.",
    "If the build still fails, try clearing the cache.",
    "If you want, try it with the sample file.",
    "Test coverage is now 94%.",
    "Tests pass and the linter is clean.",
    "Test results: 48 passed, 0 failed.",
    "I ran the UI tests and all of them pass.",
    "I didn't run into any problems with the migration.",
    "",
  ]);
});

test("handsOver: not a hand-over in the other languages either", () => {
  handsNothing([
    "已修复，测试全部通过。",
    "修复完成，你可以运行 `npm start` 查看效果。",
    "如果还有问题，请告诉我。",
    "修正しました。テストはすべて通りました。",
    "수정했습니다. 테스트가 모두 통과했습니다.",
    "Исправлено, все тесты проходят.",
    "Si necesitas algo más, dímelo.",
    "Corrigido e testado: todos os testes passam.",
    "Behoben und getestet, alle Tests laufen durch.",
    "Corrigé et testé : tous les tests passent.",
    "Sistemato e testato: tutti i test passano.",
    "Düzeltildi ve tüm testler geçti.",
    "Opraveno a otestováno, všechny testy prošly.",
  ]);
});

test("handsOver: nothing inside code, a quotation or a URL hands over", () => {
  handsNothing([
    "Added the help text:\n\n```\nPlease test the login page now.\n```",
    'The dialog now says "Please test the login page now." when the session expires.',
    "The docs link is https://example.com/please-test-it-now and the page is live.",
    "Please test the login page now.\n```\nnever closed",
  ]);
});

test("handsOver: the last sentence that hands over wins, read on the closing lines only", () => {
  assert.equal(handsOver("I couldn't run the UI tests.\n\nPlease test the login page in the browser."), "Please test the login page in the browser.");
  const far = `Please test the login page now.\n\n${"The cache keeps entries for an hour.\n".repeat(30)}`;
  assert.equal(handsOver(far), undefined);
  const near = `Please test the login page now.\n\n${"The cache keeps entries for an hour.\n".repeat(10)}`;
  assert.equal(handsOver(near), "Please test the login page now.");
});

test("handsOver: bad input hands nothing over", () => {
  for (const input of [undefined, null, 42, {}, []]) assert.equal(handsOver(input as unknown as string), undefined);
});
