/**
 * SPEC 0.5 §4.8, one table of forms per language: in every language the table claims, each form of a wait —
 * a question to the person, a request to act, waiting for their input or approval, a hand-over under a
 * condition, options to choose from — is recognised, and a sign-off, an instruction for later use, a request
 * under a condition and an offer are not. Every sentence here is written for these tests.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { askedQuestion } from "../src/core/question.ts";
import { FORMS } from "../src/core/question-forms.ts";

/** A reply and the sentence it asks. */
type Case = readonly [string, string];

interface Language {
  /** A question to the person with one sentence of explanation after it. */
  readonly question: readonly Case[];
  /** A request to act before the work goes on. */
  readonly act: readonly Case[];
  /** Waiting for their input or approval. */
  readonly awaits: readonly Case[];
  /** The agent's next step once the person has acted. */
  readonly handOver: readonly Case[];
  /** A question or a choosing line above a list of options. */
  readonly options: readonly Case[];
  /** A sign-off, an instruction for later use, a request under a condition, an offer: no wait. */
  readonly not: readonly string[];
}

const LANGUAGES: Readonly<Record<string, Language>> = {
  en: {
    question: [["The importer is done. Should I also migrate the old records? There are about two hundred of them.", "Should I also migrate the old records?"]],
    act: [
      ["The fix is in. Restart the server and check the login page.", "Restart the server and check the login page."],
      ["The session expired. Log in and try again.", "Log in and try again."],
      ["Run `npm run e2e` and check whether the upload passes.", "Run `npm run e2e` and check whether the upload passes."],
    ],
    awaits: [
      ["The plan is above. Waiting for your go-ahead.", "Waiting for your go-ahead."],
      ["I can't read the archive from here. Waiting for your files!", "Waiting for your files!"],
    ],
    handOver: [
      ["Once you add the two files to the chat, I'll point to the line.", "Once you add the two files to the chat, I'll point to the line."],
      ["The token has expired. Tell me when you have the new token and I'll retry.", "Tell me when you have the new token and I'll retry."],
    ],
    options: [["Which approach do you prefer?\n1. Keep the cache\n2. Drop it", "Which approach do you prefer?"]],
    not: [
      "Done. Let me know if you need anything else.",
      "Done. You can run `npm start` to see it.",
      "Done. If you hit errors, paste the log.",
      "Done. Let me know if you want me to add tests.",
      "Done. When you want, I can add tests.",
      "Done. Open the app and check out the new dark mode!",
    ],
  },
  zh: {
    question: [["导入器已完成。要我也迁移旧记录吗？大约有两百条。", "要我也迁移旧记录吗？"]],
    act: [
      ["修复已完成。请重启服务器后再测试登录页面。", "请重启服务器后再测试登录页面。"],
      ["会话已过期。请重新登录后再试。", "请重新登录后再试。"],
    ],
    awaits: [["方案已列在上面。等待您的确认。", "等待您的确认。"]],
    handOver: [
      ["等你把两个文件发给我之后，我再指出具体的行。", "等你把两个文件发给我之后，我再指出具体的行。"],
      ["令牌已过期。拿到新令牌后告诉我，我再重试。", "拿到新令牌后告诉我，我再重试。"],
    ],
    options: [["您希望用哪种方案？\n1. 保留缓存\n2. 去掉缓存", "您希望用哪种方案？"]],
    not: ["已完成。如有其他问题，请告诉我。", "已完成。你可以运行 `npm start` 查看效果。", "已完成。如果还有报错，请把日志发给我。", "已完成。如果需要，我可以再加上测试。", "已完成。请刷新页面查看。"],
  },
  ja: {
    question: [
      ["インポーターが完成しました。古いレコードも移行しますか？約二百件あります。", "古いレコードも移行しますか？"],
      ["方針は以上です。この方針で進めてよろしいでしょうか。", "方針は以上です。この方針で進めてよろしいでしょうか。"],
    ],
    act: [
      ["修正しました。サーバーを再起動してから確認してください。", "サーバーを再起動してから確認してください。"],
      ["セッションが切れました。ログインしてもう一度お試しください。", "ログインしてもう一度お試しください。"],
    ],
    awaits: [["方針は上記の通りです。ご承認をお待ちしています。", "ご承認をお待ちしています。"]],
    handOver: [["ファイルを追加していただければ、該当する行を指摘します。", "ファイルを追加していただければ、該当する行を指摘します。"]],
    options: [["どちらの方法で進めますか？\n・キャッシュを残す\n・キャッシュを削除する", "どちらの方法で進めますか？"]],
    not: [
      "完了しました。他に何かあればお気軽にお知らせください。",
      "完了しました。`npm start` を実行すると確認できます。",
      "完了しました。エラーが出たらログを送ってください。",
      "完了しました。必要であればテストも追加します。",
    ],
  },
  ko: {
    question: [["가져오기 기능을 완료했습니다. 이전 기록도 옮길까요? 약 이백 건입니다.", "이전 기록도 옮길까요?"]],
    act: [
      ["수정했습니다. 서버를 재시작한 후 로그인 페이지를 확인해 주세요.", "서버를 재시작한 후 로그인 페이지를 확인해 주세요."],
      ["세션이 만료되었습니다. 다시 로그인한 후 다시 시도해 주세요.", "다시 로그인한 후 다시 시도해 주세요."],
    ],
    awaits: [["계획은 위와 같습니다. 승인을 기다리고 있습니다.", "승인을 기다리고 있습니다."]],
    handOver: [["파일을 추가해 주시면 해당 줄을 알려드리겠습니다.", "파일을 추가해 주시면 해당 줄을 알려드리겠습니다."]],
    options: [["어떤 방식을 원하시나요?\n1. 캐시 유지\n2. 캐시 삭제", "어떤 방식을 원하시나요?"]],
    not: [
      "완료했습니다. 다른 필요한 것이 있으면 알려주세요.",
      "완료했습니다. `npm start`를 실행하면 확인할 수 있습니다.",
      "완료했습니다. 오류가 발생하면 로그를 보내주세요.",
      "완료했습니다. 원하시면 테스트도 추가하겠습니다.",
    ],
  },
  ru: {
    question: [["Импорт готов. Мне перенести и старые записи? Их около двухсот.", "Мне перенести и старые записи?"]],
    act: [
      ["Исправил. Перезапустите сервер и проверьте страницу входа.", "Перезапустите сервер и проверьте страницу входа."],
      ["Сессия истекла. Войдите и попробуйте снова.", "Войдите и попробуйте снова."],
      ["Пока неясно, что нужно. Пожалуйста, опишите задачу подробнее.", "Пожалуйста, опишите задачу подробнее."],
    ],
    awaits: [
      ["План выше. Жду вашего подтверждения.", "Жду вашего подтверждения."],
      ["Архив не открывается отсюда. Жду файлы.", "Жду файлы."],
    ],
    handOver: [["Как только добавите их в чат, я укажу нужную строку.", "Как только добавите их в чат, я укажу нужную строку."]],
    options: [["Какой вариант вы предпочитаете?\n1. Оставить кэш\n2. Удалить кэш", "Какой вариант вы предпочитаете?"]],
    not: [
      "Готово. Если понадобится что-то ещё, дайте знать.",
      "Готово. Можно запустить `npm start`, чтобы посмотреть результат.",
      "Готово. Если будут ошибки, пришлите лог.",
      "Готово. Если хотите, я добавлю тесты.",
    ],
  },
  es: {
    question: [["El importador está listo. ¿Quieres que migre también los registros antiguos? Son unos doscientos.", "¿Quieres que migre también los registros antiguos?"]],
    act: [
      ["Listo. Reinicia el servidor y comprueba la página de inicio de sesión.", "Reinicia el servidor y comprueba la página de inicio de sesión."],
      ["La sesión caducó. Inicia sesión y vuelve a intentarlo.", "Inicia sesión y vuelve a intentarlo."],
    ],
    awaits: [["El plan está arriba. Quedo a la espera de tu aprobación.", "Quedo a la espera de tu aprobación."]],
    handOver: [
      ["Cuando me envíes los archivos, te indicaré la línea exacta.", "Cuando me envíes los archivos, te indicaré la línea exacta."],
      ["El token caducó. Avísame cuando tengas el nuevo token y lo reintento.", "Avísame cuando tengas el nuevo token y lo reintento."],
    ],
    options: [["¿Qué opción prefieres?\n1. Mantener la caché\n2. Eliminarla", "¿Qué opción prefieres?"]],
    not: ["Listo. Si necesitas algo más, avísame.", "Listo. Puedes ejecutar `npm start` para verlo.", "Listo. Si hay errores, pega el log.", "Listo. Si quieres, añado pruebas.", "Listo. Cuando quieras, lo reviso otra vez."],
  },
  pt: {
    question: [["O importador está pronto. Você quer que eu migre também os registros antigos? São cerca de duzentos.", "Você quer que eu migre também os registros antigos?"]],
    act: [
      ["Pronto. Reinicie o servidor e verifique a página de login.", "Reinicie o servidor e verifique a página de login."],
      ["A sessão expirou. Faça login e tente novamente.", "Faça login e tente novamente."],
    ],
    awaits: [["O plano está acima. Aguardo a sua aprovação.", "Aguardo a sua aprovação."]],
    handOver: [["Assim que você enviar os arquivos, eu vou apontar a linha exata.", "Assim que você enviar os arquivos, eu vou apontar a linha exata."]],
    options: [["Qual opção você prefere?\n1. Manter o cache\n2. Removê-lo", "Qual opção você prefere?"]],
    not: ["Pronto. Se precisar de mais alguma coisa, é só avisar.", "Pronto. Você pode rodar `npm start` para ver.", "Pronto. Se houver erros, cole o log.", "Pronto. Se quiser, adiciono testes."],
  },
  de: {
    question: [["Der Import ist fertig. Soll ich auch die alten Einträge migrieren? Es sind etwa zweihundert.", "Soll ich auch die alten Einträge migrieren?"]],
    act: [
      ["Behoben. Starte den Server neu und prüfe die Login-Seite.", "Starte den Server neu und prüfe die Login-Seite."],
      ["Die Sitzung ist abgelaufen. Melde dich an und versuche es erneut.", "Melde dich an und versuche es erneut."],
    ],
    awaits: [["Der Plan steht oben. Ich warte auf deine Freigabe.", "Ich warte auf deine Freigabe."]],
    handOver: [["Sobald du die Dateien hinzugefügt hast, zeige ich dir die Zeile.", "Sobald du die Dateien hinzugefügt hast, zeige ich dir die Zeile."]],
    options: [["Welche Variante bevorzugst du?\n1. Cache behalten\n2. Cache entfernen", "Welche Variante bevorzugst du?"]],
    not: [
      "Fertig. Wenn du noch etwas brauchst, sag Bescheid.",
      "Fertig. Du kannst `npm start` ausführen, um es zu sehen.",
      "Fertig. Falls Fehler auftreten, schick mir das Log.",
      "Fertig. Wenn du möchtest, füge ich Tests hinzu.",
    ],
  },
  fr: {
    question: [["L'import est prêt. Dois-je aussi migrer les anciens enregistrements ? Il y en a environ deux cents.", "Dois-je aussi migrer les anciens enregistrements ?"]],
    act: [
      ["Corrigé. Redémarrez le serveur et vérifiez la page de connexion.", "Redémarrez le serveur et vérifiez la page de connexion."],
      ["La session a expiré. Connectez-vous et réessayez.", "Connectez-vous et réessayez."],
    ],
    awaits: [
      ["Le plan est ci-dessus. J'attends ton feu vert.", "J'attends ton feu vert."],
      ["Le plan est ci-dessus. En attente de ton accord.", "En attente de ton accord."],
    ],
    handOver: [["Dès que vous aurez ajouté les fichiers, je vous indiquerai la ligne.", "Dès que vous aurez ajouté les fichiers, je vous indiquerai la ligne."]],
    options: [["Quelle option préférez-vous ?\n1. Garder le cache\n2. Le supprimer", "Quelle option préférez-vous ?"]],
    not: [
      "C'est fait. Si vous avez besoin d'autre chose, dites-le-moi.",
      "C'est fait. Vous pouvez lancer `npm start` pour le voir.",
      "C'est fait. En cas d'erreur, collez le journal.",
      "C'est fait. Si vous voulez, j'ajoute des tests.",
    ],
  },
  it: {
    question: [["L'importatore è pronto. Vuoi che migri anche i vecchi record? Sono circa duecento.", "Vuoi che migri anche i vecchi record?"]],
    act: [
      ["Fatto. Riavvia il server e verifica la pagina di login.", "Riavvia il server e verifica la pagina di login."],
      ["La sessione è scaduta. Accedi e riprova.", "Accedi e riprova."],
    ],
    awaits: [["Il piano è qui sopra. Attendo la tua approvazione.", "Attendo la tua approvazione."]],
    handOver: [["Appena mi mandi i file, ti indicherò la riga esatta.", "Appena mi mandi i file, ti indicherò la riga esatta."]],
    options: [["Quale opzione preferisci?\n1. Tenere la cache\n2. Rimuoverla", "Quale opzione preferisci?"]],
    not: ["Fatto. Se hai bisogno di altro, fammi sapere.", "Fatto. Puoi eseguire `npm start` per vederlo.", "Fatto. Se ci sono errori, incolla il log.", "Fatto. Se vuoi, aggiungo dei test."],
  },
  tr: {
    question: [["İçe aktarma hazır. Eski kayıtları da taşıyayım mı? Yaklaşık iki yüz tane var.", "Eski kayıtları da taşıyayım mı?"]],
    act: [
      ["Düzelttim. Sunucuyu yeniden başlatın ve giriş sayfasını kontrol edin.", "Sunucuyu yeniden başlatın ve giriş sayfasını kontrol edin."],
      ["Oturum sona erdi. Tekrar giriş yapıp yeniden deneyin.", "Tekrar giriş yapıp yeniden deneyin."],
    ],
    awaits: [["Plan yukarıda. Onayınızı bekliyorum.", "Onayınızı bekliyorum."]],
    handOver: [["Dosyaları sohbete eklediğinizde ilgili satırı göstereceğim.", "Dosyaları sohbete eklediğinizde ilgili satırı göstereceğim."]],
    options: [["Hangi seçeneği tercih edersiniz?\n1. Önbelleği korumak\n2. Silmek", "Hangi seçeneği tercih edersiniz?"]],
    not: [
      "Tamamlandı. Başka bir şeye ihtiyacınız olursa haber verin.",
      "Tamamlandı. Görmek için `npm start` çalıştırabilirsiniz.",
      "Tamamlandı. Hata alırsanız logu gönderin.",
      "Tamamlandı. İsterseniz testler de ekleyebilirim.",
    ],
  },
  cs: {
    question: [["Import je hotový. Mám převést i staré záznamy? Je jich asi dvě stě.", "Mám převést i staré záznamy?"]],
    act: [
      ["Opraveno. Restartujte server a zkontrolujte přihlašovací stránku.", "Restartujte server a zkontrolujte přihlašovací stránku."],
      ["Relace vypršela. Přihlaste se a zkuste to znovu.", "Přihlaste se a zkuste to znovu."],
    ],
    awaits: [["Plán je výše. Čekám na vaše schválení.", "Čekám na vaše schválení."]],
    handOver: [["Jakmile mi pošlete soubory, ukážu vám přesný řádek.", "Jakmile mi pošlete soubory, ukážu vám přesný řádek."]],
    options: [["Kterou možnost preferujete?\n1. Ponechat cache\n2. Smazat ji", "Kterou možnost preferujete?"]],
    not: [
      "Hotovo. Pokud budete potřebovat něco dalšího, dejte vědět.",
      "Hotovo. Můžete spustit `npm start` a podívat se.",
      "Hotovo. Pokud se objeví chyby, pošlete log.",
      "Hotovo. Pokud chcete, přidám testy.",
    ],
  },
};

const FORM_NAMES = ["question", "act", "awaits", "handOver", "options"] as const;

test("forms: the table has a row for every language it claims, and every row every form", () => {
  const claimed = ["en", "zh", "ja", "ko", "ru", "es", "pt", "de", "fr", "it", "tr", "cs"];
  assert.deepEqual(FORMS.map((row) => row.language).sort(), [...claimed].sort());
  for (const row of FORMS) {
    for (const column of ["addresses", "polite", "giveBack", "testNext", "awaits", "handOver", "choose", "condition", "offer", "tests", "untested"] as const) {
      assert.ok(row[column] !== undefined && row[column] !== "", `${row.language} has no ${column}`);
    }
  }
  assert.deepEqual(Object.keys(LANGUAGES).sort(), [...claimed].sort());
});

for (const [language, forms] of Object.entries(LANGUAGES)) {
  for (const form of FORM_NAMES) {
    test(`forms: ${form} in ${language}`, () => {
      for (const [reply, asked] of forms[form]) assert.equal(askedQuestion(reply), asked, reply);
    });
  }
  test(`forms: a sign-off, later use, a condition or an offer asks nothing in ${language}`, () => {
    for (const reply of forms.not) assert.equal(askedQuestion(reply), undefined, reply);
  });
}

test("forms: a form in a language's own script is read whatever else the reply holds", () => {
  assert.equal(askedQuestion("Fixed `auth.ts`. Перезапустите сервер и проверьте страницу входа."), "Перезапустите сервер и проверьте страницу входа.");
  assert.equal(askedQuestion("The build passes.\n\nサーバーを再起動してから確認してください。"), "サーバーを再起動してから確認してください。");
});

test("forms: a language's row is read for a short reply in it, by its words or its letters", () => {
  assert.equal(askedQuestion("¿Cuál prefiere usted?\n- a\n- b"), "¿Cuál prefiere usted?");
  assert.equal(askedQuestion("Accedi e riprova."), "Accedi e riprova.");
  assert.equal(askedQuestion("Přihlaste se a zkuste to znovu."), "Přihlaste se a zkuste to znovu.");
});

test("forms: 'try again' as the next step, in every language", () => {
  const replies = [
    "The session expired. Please try again.",
    "会话已过期。请再试一次。",
    "セッションが切れました。もう一度お試しください。",
    "세션이 만료되었습니다. 다시 시도해 주세요.",
    "Сессия истекла. Попробуйте ещё раз.",
    "La sesión caducó. Vuelve a intentarlo.",
    "A sessão expirou. Tente novamente.",
    "Die Sitzung ist abgelaufen. Versuche es erneut.",
    "La session a expiré. Réessayez.",
    "La sessione è scaduta. Riprova.",
    "Oturum sona erdi. Tekrar deneyin.",
    "Relace vypršela. Zkuste to znovu.",
  ];
  for (const reply of replies) assert.notEqual(askedQuestion(reply), undefined, reply);
});

test("forms: a bare request to restart or run is how to apply the change, not a wait, in English and Turkish", () => {
  for (const reply of ["Done. Please restart the dev server to apply the changes.", "Tamamlandı. Lütfen uygulamayı yeniden başlatın."]) {
    assert.equal(askedQuestion(reply), undefined, reply);
  }
});

test("forms: a reply in a Latin language whose common words no row knows reads every row", () => {
  assert.equal(askedQuestion("Restartujte server a zkuste to znovu."), "Restartujte server a zkuste to znovu.");
  assert.equal(askedQuestion("Prova di nuovo ad accedere."), "Prova di nuovo ad accedere.");
});

test("forms: a question that asks to choose stands above its options without a pronoun; a hand-over and a request in their looser forms", () => {
  assert.equal(askedQuestion("Какой вариант выбрать?\n1. Оставить\n2. Удалить"), "Какой вариант выбрать?");
  assert.equal(askedQuestion("콘솔 로그를 보내주시면 원인을 찾아보겠습니다."), "콘솔 로그를 보내주시면 원인을 찾아보겠습니다.");
  assert.equal(askedQuestion("Necesito que me confirmes el nombre de la base de datos."), "Necesito que me confirmes el nombre de la base de datos.");
  assert.equal(askedQuestion("Почему вызов упал?\n1. Таймаут\n2. Ошибка сети"), undefined);
});
