/**
 * The 0.3 patterns that read the last line's words (SPEC §4.8): explicit requests for what only the person
 * can give, a line that depends on the answer to the question above it, and a closing list of options
 * under a line that asks — in English, Chinese, Japanese, Russian, Spanish, German and French.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { askedQuestion } from "../src/core/question.ts";

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
  // 0.4: what is shown is the sentence that asks.
  const asked = (reply: string): string => (reply.startsWith("完了しました。") ? reply.slice("完了しました。".length) : reply);
  for (const reply of requests) assert.equal(askedQuestion(`Ok.\n${reply}`), asked(reply), reply);
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
  // 0.4: what is shown is the sentence that asks, not its whole line.
  assert.equal(askedQuestion("Done.\nPlease share the log. I will look at it then."), "Please share the log.");
  assert.equal(askedQuestion("Done.\nI checked it. Please share the file config.json with me."), "Please share the file config.json with me.");
  assert.equal(askedQuestion("Done.\nIf it breaks, please share the log. Otherwise we are done."), undefined);
  assert.equal(askedQuestion("Done.\nログの共有お願いします。"), "ログの共有お願いします。");
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
  ];
  for (const reply of requests) assert.equal(askedQuestion(`Ok.\n${reply}`), reply, reply);
  assert.equal(askedQuestion("Ok.\nIf it breaks, tell me. Please share the log."), "Please share the log.", "the sentence that asks, after one that opens with a condition");
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

test("request: an explicit request stays a request with an offer after it, in every language (no looser form reads it then)", () => {
  const requests = [
  "Please share the log if you want me to look.",
  "Kindly attach the screenshot if you have it.",
  "Let me know which layout you prefer if you have a minute.",
  "Tell me whether the old endpoint stays, if you know.",
  "Could you share the screenshot if you have it.",
  "Could you please share the screenshot if you have it.",
  "I need you to paste the error if you still see it.",
  "I'll need you to paste the error if you still see it.",
  "Once you share the config file, I can wire it in if you want.",
  "After you've added the key, we can go on if you like.",
  "Please run `npm login` so I can continue, if you have npm access.",
  "Please type /login and I'll continue if you want.",
  "请提供日志，如果你需要我继续。",
  "请告诉我您想用哪个方案，如果你需要我继续。",
  "需要您确认一下接口的格式，如果你需要我继续。",
  "設定ファイルを共有してください、よろしければ。",
  "どちらの方式で進めるか教えてください、よろしければ。",
  "使うデータベースを選んでください、よろしければ。",
  "Пожалуйста, добавьте файл конфигурации в чат, если хотите.",
  "Пришлите, пожалуйста, журнал, если хотите.",
  "Сообщите, какой вариант вам подходит, если хотите.",
  "Por favor, comparte el archivo si quieres.",
  "Comparte el archivo, por favor, si quieres.",
  "Indícame cuál de las dos opciones prefieres si quieres.",
  "Necesito que confirmes el nombre del esquema si quieres.",
  "Bitte füge die Konfigurationsdatei hinzu, falls du möchtest.",
  "Bestätige bitte den Namen der Tabelle, falls du möchtest.",
  "Sag mir, welche Variante du willst, falls du möchtest.",
  "Veuillez partager le fichier si vous voulez.",
  "Ajoutez le fichier au chat, s'il vous plaît, si vous voulez.",
  "S'il vous plaît, partagez le fichier si vous voulez.",
  "Dites-moi quelle option vous préférez si vous voulez.",
  ];
  for (const reply of requests) assert.equal(askedQuestion(`Done.\n${reply}`), reply, reply);
  // The looser forms under the same offer: a sign-off.
  for (const reply of ["Run the tests and paste the output if you want.", "Close the app so I can deploy, if you like."]) assert.equal(askedQuestion(`Done.\n${reply}`), undefined, reply);
});

test("request: spaces doubled as people type them, words between the opener and the question word, and forms without a particle", () => {
  const requests = [
    "Please  confirm the table can go if you want.",
    "Could you  share the screenshot if you have it.",
    "I need you to  paste the error if you still see it.",
    "Please  run `npm login` so I can continue, if you have npm access.",
    "Please run `npm login` so I can  continue, if you have npm access.",
    "使うデータベースをご指定ください、よろしければ。",
    "Dime entonces cuál de las dos opciones prefieres si quieres.",
    "Schick mir  bitte das Log, falls du möchtest.",
    "Sag mir, welchen Weg du nimmst, falls du möchtest.",
    "Pourriez-vous m'indiquer le nom de la table si vous voulez.",
    "S'il vous plaît, envoyez le journal si vous voulez.",
    "Dites-moi alors quelle option vous préférez si vous voulez.",
  ];
  // The offer after each leaves only the explicit request to find it.
  for (const reply of requests) assert.equal(askedQuestion(`Done.\n${reply}`), reply, reply);
});

test("depends: under a question that names nobody, the line that depends on its answer makes it a wait, in English, German and French", () => {
  const cases = [
    ["Is the schema right?\nIf you agree, I'll generate the migrations.", "Is the schema right?"],
    ["Is the schema right?\nIf thats fine, I'll generate the migrations.", "Is the schema right?"],
    ["Ist das Schema richtig?\nWenn ja, erzeuge ich die Migrationen.", "Ist das Schema richtig?"],
    ["Le schéma est-il correct ?\nSi c'est le cas, je génère les migrations.", "Le schéma est-il correct ?"],
    ["Le schéma est-il correct ?\nSi vous êtes d'accord, je génère les migrations.", "Le schéma est-il correct ?"],
    ["Le schéma est-il correct ?\nSi tu es d'accord, je génère les migrations.", "Le schéma est-il correct ?"],
    ["Le schéma est-il correct ?\nSi oui, je génère les migrations.", "Le schéma est-il correct ?"],
  ];
  for (const [reply, question] of cases) assert.equal(askedQuestion(reply ?? ""), question, reply);
});

test("options: a pronoun inside the question above the list speaks to the person (Russian, German)", () => {
  assert.equal(askedQuestion("Подходит ли вам один из вариантов?\n- первый\n- второй"), "Подходит ли вам один из вариантов?");
  assert.equal(askedQuestion("Passt eine der Varianten für Sie?\n- die erste\n- die zweite"), "Passt eine der Varianten für Sie?");
});
