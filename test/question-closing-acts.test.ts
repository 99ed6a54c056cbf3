/**
 * SPEC 0.4 §4.8, waiting for the person as real agents say it — the closing prose asks the person to act
 * before the work can go on, or says it awaits their approval; and what is no wait: sign-offs, instructions
 * for later use of finished work, anything in code, a quotation or a URL. Every sentence here is written for
 * these tests.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { askedQuestion } from "../src/core/question.ts";
import { asks, DONE, none } from "./question-cases.ts";
import { forAll } from "./gen.ts";

test("acts: asked to run or test and give the output back, in English", () => {
  asks([
    [`${DONE}\n\nPlease run the tests and paste the output.`, "Please run the tests and paste the output."],
    ["The loader is rewritten.\n\nPlease run this and share the console output.", "Please run this and share the console output."],
    ["Could you run `npm test` and send me the results.", "Could you run `npm test` and send me the results."],
    ["Run `npm run e2e` and paste what it prints here.", "Run `npm run e2e` and paste what it prints here."],
    ["Try it and let me know whether the header still jumps.", "Try it and let me know whether the header still jumps."],
    ["For a closer look you would need to provide the contents of the other schema files.", "For a closer look you would need to provide the contents of the other schema files."],
    ["Add the remaining route files to the chat, then I can wire them up.", "Add the remaining route files to the chat, then I can wire them up."],
    ["Please review the plan above and approve it.", "Please review the plan above and approve it."],
    ["Choose one of the two layouts and I'll build it.", "Choose one of the two layouts and I'll build it."],
    ["I added logging. Please reproduce the issue and send me the console logs.", "Please reproduce the issue and send me the console logs."],
    ["Once the build finishes, paste the log here.", "Once the build finishes, paste the log here."],
    ["Refresh the page and let me know.", "Refresh the page and let me know."],
    ["Please run `npm install` (the sandbox blocks it here), then tell me.", "Please run `npm install` (the sandbox blocks it here), then tell me."],
    ["Test it and report back!", "Test it and report back!"],
  ]);
  none([
    "Give it a spin and let me know!",
    "Try it out and let me know!",
    "When the build finishes, the bundle lands in `dist/`.",
    "After that, run `npm start` to see it.",
    "Let me know.",
  ]);
});

test("acts: the agent's next step hangs on the person's act (so I can, to proceed, before I, then I'll)", () => {
  asks([
    ["Please close the app so I can deploy.", "Please close the app so I can deploy."],
    ["Close the app, then I can deploy the new build.", "Close the app, then I can deploy the new build."],
    ["Run `npm login` so I can publish the package.", "Run `npm login` so I can publish the package."],
    ["Please run `/clear` then `/continue` to proceed with the next story.", "Please run `/clear` then `/continue` to proceed with the next story."],
    ["You'll need to provide the API token before I can continue.", "You'll need to provide the API token before I can continue."],
    ["Review the changes and I'll push when you're happy.", "Review the changes and I'll push when you're happy."],
    ["Stop the dev server. Then I'll run the migration.", "Stop the dev server."],
    ["You'll need to log in with `gh auth login` first; I can't push without it.", "You'll need to log in with `gh auth login` first; I can't push without it."],
    ["When it's done, ping me and I'll continue.", "When it's done, ping me and I'll continue."],
  ]);
  none([
    "I can't reproduce it without the exact config, but the fix covers the likely cause.",
    "Restart the server. Then I can deploy, if you want.",
  ]);
  asks([["Open http://localhost:3000/admin?tab=1, then paste the console output here.", "Open http://localhost:3000/admin?tab=1, then paste the console output here."]]);
});

const ACTS: Record<string, ReadonlyArray<readonly [string, string]>> = {
  Chinese: [
    ["请运行测试并把输出粘贴给我。", "请运行测试并把输出粘贴给我。"],
    ["请关闭应用，以便我部署。", "请关闭应用，以便我部署。"],
    ["请确认页面是否正常显示。", "请确认页面是否正常显示。"],
    ["运行完后把日志发给我。", "运行完后把日志发给我。"],
  ],
  Japanese: [
    ["テストを実行して、結果を貼り付けてください。", "テストを実行して、結果を貼り付けてください。"],
    ["アプリを閉じてください。その後デプロイを続行します。", "アプリを閉じてください。"],
    ["どちらの案にするか選んでください。", "どちらの案にするか選んでください。"],
  ],
  Russian: [
    ["Пожалуйста, запустите тесты и пришлите вывод.", "Пожалуйста, запустите тесты и пришлите вывод."],
    ["Закройте приложение, чтобы я мог развернуть сборку.", "Закройте приложение, чтобы я мог развернуть сборку."],
    ["Можете прислать мне журнал ошибок.", "Можете прислать мне журнал ошибок."],
    ["Запустите сборку и сообщите, какой результат.", "Запустите сборку и сообщите, какой результат."],
  ],
  Spanish: [
    ["Por favor, ejecuta las pruebas y pega la salida aquí.", "Por favor, ejecuta las pruebas y pega la salida aquí."],
    ["Cierra la aplicación para que pueda desplegar.", "Cierra la aplicación para que pueda desplegar."],
    ["¿Puedes enviarme los registros? Los necesito para el fallo.", "¿Puedes enviarme los registros?"],
    ["Prueba la página y dime si el menú se abre.", "Prueba la página y dime si el menú se abre."],
  ],
  German: [
    ["Bitte führe die Tests aus und schicke mir die Ausgabe.", "Bitte führe die Tests aus und schicke mir die Ausgabe."],
    ["Schließe die App, damit ich deployen kann.", "Schließe die App, damit ich deployen kann."],
    ["Kannst du die Fehlermeldung hier einfügen.", "Kannst du die Fehlermeldung hier einfügen."],
    ["Starte den Server neu und sag mir, ob der Fehler bleibt.", "Starte den Server neu und sag mir, ob der Fehler bleibt."],
  ],
  French: [
    ["Veuillez lancer les tests et coller la sortie ici.", "Veuillez lancer les tests et coller la sortie ici."],
    ["Fermez l'application pour que je puisse déployer.", "Fermez l'application pour que je puisse déployer."],
    ["Relancez le serveur et dites-moi si l'erreur revient.", "Relancez le serveur et dites-moi si l'erreur revient."],
    ["Validez le plan ci-dessus.", "Validez le plan ci-dessus."],
  ],
};

for (const [language, cases] of Object.entries(ACTS)) {
  test(`acts: asked to act and give back, or to act so the agent can go on, in ${language}`, () => {
    asks(cases.map(([reply, asked]) => [`${DONE}\n\n${reply}`, asked] as const));
  });
}

test("acts: asked to test what was built, in English, Chinese, Japanese, Russian, German and French", () => {
  asks([
    ["Launch it and test!", "Launch it and test!"],
    [`${DONE}\n\nPlease test the login flow.`, "Please test the login flow."],
    [`${DONE} Test it now!`, "Test it now!"],
    [`${DONE} Refresh the page and test the new button.`, "Refresh the page and test the new button."],
    ["修复完成。请测试一下登录流程。", "请测试一下登录流程。"],
    ["修正しました。テストしてみてください。", "テストしてみてください。"],
    ["Готово. Протестируйте, пожалуйста.", "Протестируйте, пожалуйста."],
    ["Fertig. Teste es bitte.", "Teste es bitte."],
    ["C'est prêt. Testez-le maintenant.", "Testez-le maintenant."],
    ["Fertig. Bitte testen Sie die Anmeldung.", "Bitte testen Sie die Anmeldung."],
    ["Fertig. Testen Sie bitte die neue Seite.", "Testen Sie bitte die neue Seite."],
    ["Fertig. Bitte teste den Login jetzt.", "Bitte teste den Login jetzt."],
  ]);
  none([
    `${DONE} Test it by running \`npm test\`.`,
    `${DONE} Test results are green across the board.`,
    `${DONE}\n\nNext:\n- Test the parser with real data\n- Wire it into the CLI`,
    `${DONE}\n\nRemaining:\n- Test it now\n- Ship the release`,
  ]);
  asks([
    ["修正しました。テストしてください！", "テストしてください！"],
    [`${DONE} Test it now!!`, "Test it now!!"],
  ]);
});

test("acts: under a heading that hands the turn to the person, any imperative counts", () => {
  asks([
    ["## Ready to test\n\n1. Refresh the page to see it\n2. Click Save", "Click Save"],
    ["**Ready for next steps:**\n1. Run `schema.sql` in your database client\n2. Reply here when done", "Reply here when done"],
    ["## Your turn\n\n- Open the app and log in with the new account", "Open the app and log in with the new account"],
    ["Ready to test:\n\n- Restart the server\n- Open /admin", "Open /admin"],
    ["### 请您测试\n\n1. 刷新页面\n2. 打开设置", "打开设置"],
    ["## Что нужно сделать\n\n- Откройте приложение", "Откройте приложение"],
    ["## Tu turno\n\n- Abre la aplicación", "Abre la aplicación"],
    ["## Zum Testen\n\n- Öffne die App", "Öffne die App"],
    ["## À vous de jouer\n\n- Ouvrez l'application", "Ouvrez l'application"],
  ]);
});

test("acts: under a Next steps heading only a step the person alone takes counts, not the agent's own plan", () => {
  asks([
    ["**Next step:** Run `/clear` then `/continue` to start the next story.", "Run `/clear` then `/continue` to start the next story."],
    ["## Next steps\n\n1. Restart the dev server\n2. Open the settings page", "Open the settings page"],
    ["## 下一步\n\n- 重启开发服务器", "重启开发服务器"],
    ["## Nächste Schritte\n\n- Starte den Server neu", "Starte den Server neu"],
  ]);
  none([
    "## Summary\n\n- Parser rewritten\n\n## Next steps\n\n- Add integration tests\n- Update the docs\n- Consider caching the schema",
    "Next steps:\n1. Implement the exporter\n2. Write tests for it\n3. Update the README",
    "## Next Steps\n\n1. Run the migrations\n2. Deploy to staging",
    "### Next steps\n1. Test the parser with real data\n2. Review the API design",
    "## Prochaines étapes\n\n- Ajouter des tests\n- Mettre à jour la doc",
  ]);
});

test("not a wait: instructions for later use of finished work, in English", () => {
  none([
    `${DONE}\n\nYou can run \`npm start\` to see it.`,
    `${DONE} To see it, run npm start.`,
    "Fixed the header. Refresh the page and it should work now.",
    "Added the endpoint. Try clicking Save again.",
    "All set. To run the demo:\n\n1. Start the dev server: `npm run dev`\n2. In another terminal, run `node demo.mjs`\n\nA window opens. Press ENTER to advance each step.",
    "Restart the dev server, and run the demo from the `web/` directory:\n\n```bash\nnpm run dev\n```",
    "Open http://localhost:3000 in your browser to see the dashboard.",
    "Select the Dark theme in Settings to switch.",
    "Send a POST request to `/login` to get a token.",
    "Paste the snippet into your `.env` file to configure the key.",
    "Share this link with your team to give them access.",
    "Run `npm test` to verify the fix.",
    "Please restart the dev server to apply the changes.",
    "Copy `.env.example` to `.env` and fill in your keys.",
    "First, run the migration script, then restart the server.",
    "## How to test\n\n1. Run `npm start`\n2. Open http://localhost:3000",
    "I pushed the branch. Review it on GitHub whenever you have time.",
    "Launch it and you'll see the new splash screen.",
  ]);
});

test("not a wait: instructions for later use of finished work, in Chinese, Japanese, Russian, Spanish, German and French", () => {
  none([
    "现在可以刷新页面查看效果。",
    "修复完成，你可以运行 `npm start` 查看效果。",
    "请在浏览器中打开 http://localhost:3000 查看。",
    "现在请再次尝试：\n\n1. 删除缓存\n2. 重新启动开发服务器",
    "修正しました。ブラウザで表示を確認してください。",
    "すべて完了しました。`npm test` で確認できます。",
    "Готово. Можно запустить `npm start`, чтобы посмотреть результат.",
    "Все задачи выполнены. Можете проверить, запустив `npm test`.",
    "Listo. Puedes ejecutar `npm start` para verlo.",
    "Prueba superada: los 42 tests pasan.",
    "Fertig. Du kannst `npm start` ausführen, um es zu sehen.",
    "Teile der App wurden neu geschrieben und ich mache mit den Tests weiter.",
    "C'est fait. Vous pouvez lancer `npm start` pour le voir.",
    "Lance les tests quand tu veux.",
  ]);
});

test("not a wait: a request under a condition or offered is a sign-off, in every language", () => {
  none([
    "Let me know if you need anything else!",
    "Let me know if this helps! 🚀",
    "Let me know what you think!",
    "Try it out and let me know what you think!",
    "Please let me know if you have any questions.",
    "If you hit any errors, paste the full output here and I'll tell you what to change.",
    "Feel free to share more files if you want me to look at them.",
    "Paste your CSS file here if you want and I'll convert it.",
    "Check the logs in `~/.pi/agent/logs` if anything looks off.",
    "有任何问题请随时告诉我。",
    "如果还有问题，请把报错信息发给我。",
    "何か問題があれば、ログを共有してください。",
    "Если что-то не так, пришлите, пожалуйста, журнал.",
    "Avísame si necesitas algo más.",
    "Falls Fehler auftreten, schicke mir bitte das Protokoll.",
    "N'hésitez pas à partager le journal si besoin.",
  ]);
});

test("not a wait: a word of a pattern inside a longer word counts for nothing", () => {
  none([
    "Share the dashboard with members of your team.",
    "Share the build with the game studio.",
    "Runner logs are archived nightly and I'll rotate them.",
    "Pleased to report the parser is done; then I'll write the docs.",
    "Close-up screenshots are in `docs/`, and I'll add more.",
    "Прислать журнал можно позже; я продолжу с тестами.",
  ]);
});

test("not a wait: statements and plans of the agent that only start like an imperative", () => {
  none([
    "The build passes and I'll move on to the docs next.",
    "Test results are green. Build output looks clean and I'll commit next.",
    "Please note: I'll continue with the exporter next.",
    "Please find the summary below.",
    "I'll now run the tests so I can verify the fix.",
    "Next, I'll wire the parser into the CLI.",
    "Confirmed: the parser handles all three formats.",
    "Review complete: no issues found.",
    "It asks the user to confirm before deleting, and logs the answer.",
    "> **Tip:** Run `npm run lint` before you commit.",
  ]);
});

test("not a wait: a request inside code, a quotation or a URL", () => {
  none([
    "The banner now reads \"Please run the tests and paste the output\" on failure.",
    "The CLI prints `Please close the app so I can deploy` when the port is busy.",
    "Docs: https://example.com/please-run-the-tests-and-paste-the-output",
    "The template says «Veuillez lancer les tests et coller la sortie ici».",
  ]);
});

test("not a wait: a quotation in any quote style hides what it holds, and ends at its closing quote", () => {
  const request = "Please run the tests and paste the output.";
  const pairs = [['"', '"'], ["“", "”"], ["„", "“"], ["«", "»"], ["‹", "›"], ["「", "」"], ["『", "』"], ["'", "'"], ["‘", "’"]] as const;
  for (const [open, close] of pairs) {
    assert.equal(askedQuestion(`The banner reads ${open}${request}${close}`), undefined, `${open}…${close} hides the request`);
    assert.equal(askedQuestion(`The banner reads ${open}Retry?${close} and ${request.toLowerCase()}`), `The banner reads ${open}Retry?${close} and ${request.toLowerCase()}`, `${close} closes it`);
  }
  assert.equal(askedQuestion(`The banner reads "${request}`), undefined, "an unclosed quotation runs to the end of its line");
  assert.equal(askedQuestion(`The banner reads "" and ${request.toLowerCase()}`), `The banner reads "" and ${request.toLowerCase()}`, "an empty quotation closes too");
  assert.equal(askedQuestion(`Node 20's parser is kept. ${request}`), request, "an apostrophe after a digit opens nothing");
  assert.equal(askedQuestion(`"${request}"`), `"${request}`, "a quotation that opens the line is the reply's own words");
  assert.equal(askedQuestion(`It's done; the users' files are kept. ${request}`), request, "an apostrophe inside or after a word opens no quotation");
});

test("sentences: each ends at its mark and what closes around it; a mark inside a word or number ends nothing", () => {
  asks([
    ["Done. Shall I merge it?) It is big.", "Shall I merge it?"],
    ["Done. Shall I merge it?»  It is big.", "Shall I merge it?"],
    ["完成了。要我合并吗？」它很大。", "要我合并吗？"],
    ["Version 1.2 is out.Shall I tag it? It is big.", "Version 1.2 is out.Shall I tag it?"],
  ]);
  none(["Is it v1.2?x It is big."]);
  asks([
    ["Shall I go on؟ It is big.", "Shall I go on؟"],
    ["完成了！要我合并吗？它很大。", "要我合并吗？"],
  ]);
});

// ---- awaits: waiting for approval, decision or input ------------------------------------------

test("awaits: the reply says it waits for the person's approval, decision or input, in English", () => {
  asks([
    [`${DONE}\n\nAwaiting your approval to proceed.`, "Awaiting your approval to proceed."],
    ["I'm waiting for your go-ahead before I start phase 2.", "I'm waiting for your go-ahead before I start phase 2."],
    ["Once you confirm, I'll drop the old tables.", "Once you confirm, I'll drop the old tables."],
    ["The plan is in PLAN.md, pending your review.", "The plan is in PLAN.md, pending your review."],
    ["The PR needs your review before I merge it.", "The PR needs your review before I merge it."],
    ["This depends on your decision about the schema.", "This depends on your decision about the schema."],
    ["Let me know once you've restarted the server.", "Let me know once you've restarted the server."],
    ["With your go-ahead I start the migration.", "With your go-ahead I start the migration."],
    ["I'd recommend option B. Your call.", "Your call."],
    ["Both approaches work. Up to you!", "Up to you!"],
    ["I'll hold off on the migration until you give the word.", "I'll hold off on the migration until you give the word."],
    ["Let me know your decision.", "Let me know your decision."],
    ["Let me know once the deploy finishes.", "Let me know once the deploy finishes."],
    ["Ping me when the build is green.", "Ping me when the build is green."],
    ["I need two things from you:\n1. The API base URL\n2. A test account", "I need two things from you:"],
    ["Blocked: I need the `STRIPE_KEY` value to run the payment tests.", "Blocked: I need the `STRIPE_KEY` value to run the payment tests."],
  ]);
  none([
    "The choice of engine is up to the config: both work.",
    "It's your call whether to enable caching later; both paths are tested.",
    "You decide the port in `.env`; the default is 3000.",
    "Let me know your thoughts!",
    "Let me know when you need anything else.",
    "I need to refactor the loader next, then the exporter.",
    "Blocked requests now return 429.",
  ]);
});

test("awaits: the reply waits for approval, decision or input, in Chinese, Japanese, Russian, Spanish, German and French", () => {
  asks([
    ["计划已写好。等待您的确认后我再继续。", "等待您的确认后我再继续。"],
    ["計画をまとめました。ご承認をお待ちしております。", "ご承認をお待ちしております。"],
    ["План готов. Жду вашего подтверждения.", "Жду вашего подтверждения."],
    ["El plan está listo. Quedo a la espera de tu aprobación.", "Quedo a la espera de tu aprobación."],
    ["Der Plan steht. Ich warte auf deine Freigabe.", "Ich warte auf deine Freigabe."],
    ["Le plan est prêt. J'attends votre validation pour continuer.", "J'attends votre validation pour continuer."],
  ]);
});

test("not a wait: waiting on something other than the person, or nothing awaited", () => {
  none([
    "Waiting for the CI run to finish; it is queued.",
    "No approval needed from you; everything is merged.",
    "The function awaits your callback before returning.",
    "The delete button now requires your confirmation.",
    "Ready when you are.",
    "Ready to continue with the next story whenever you are.",
    "Сборка ждёт очереди на CI.",
    "Der Job wartet auf den Runner.",
  ]);
});

// ---- reading the closing prose ----------------------------------------------------------------

// ---- properties -------------------------------------------------------------------------------

const VERBS = ["run", "open", "restart", "refresh", "check", "try", "launch", "reload", "review"];
const RELOADS = ["restart", "refresh", "reload"];
const THINGS = ["the page", "the app", "`npm start`", "the dev server", "it", "the dashboard"];
const PURPOSES = ["to see it", "to see the change", "and it should work now", "to pick up the change", "when you like", "to try it out"];
const GIVE = ["paste the output", "share the console output", "send me the log", "tell me which one you want", "confirm it works"];
const HANGS = ["so I can deploy", "to proceed with the import", "before I continue", "then I'll publish"];

test("property: an instruction for later use of finished work never waits (3,000 cases)", () => {
  forAll(
    "closing-later-use",
    3000,
    (rng) => {
      const verb = rng.pick(VERBS);
      // Reloading to look at the change asks the person to look now (the test above); "You can …" never does.
      const opener = rng.pick(["", "Now ", "You can ", "Just "]);
      const purposes = RELOADS.includes(verb) && opener !== "You can " ? PURPOSES.filter((p) => !p.startsWith("to see")) : PURPOSES;
      const sentence = `${opener}${verb} ${rng.pick(THINGS)} ${rng.pick(purposes)}${rng.pick([".", "!", ""])}`;
      return `${rng.pick(["Done.", "All fixed.", DONE])}${rng.pick([" ", "\n\n"])}${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}${rng.pick(["", " 🚀", "\n\n[saved]"])}`;
    },
    (reply) => assert.equal(askedQuestion(reply), undefined, reply),
  );
});

test("property: a request to act that asks for something back or that the next step hangs on always waits (3,000 cases)", () => {
  forAll(
    "closing-request-to-act",
    3000,
    (rng) => {
      const verb = rng.pick(VERBS);
      const action = `${verb} ${rng.pick(THINGS)}`;
      const sentence = `${rng.pick(["", "Please ", "Now "])}${rng.chance(0.5) ? `${action} and ${rng.pick(GIVE)}` : `${action} ${rng.pick(HANGS)}`}.`;
      return { reply: `${rng.pick(["Done.", DONE])}${rng.pick([" ", "\n\n"])}${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}${rng.pick(["", " 🙏", "\n\n---"])}` };
    },
    ({ reply }) => assert.notEqual(askedQuestion(reply), undefined, reply),
  );
});
