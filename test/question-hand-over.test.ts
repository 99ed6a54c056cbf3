/**
 * SPEC 0.4 §4.8, the forms that hand the turn to the person without the words of a request: a question word
 * with the agent asking what it should do, reloading a running thing to look at the change, pausing until
 * the person acts, approval at any "when", a step the person must take themselves — each with the cases
 * that look alike and ask nothing. Every sentence here is written for these tests.
 */
import { test } from "node:test";
import { asks, DONE, none } from "./question-cases.ts";


test("asks: a question word with the agent asking what it should do, one paragraph of explanation after it", () => {
  asks([
    ["Which database should I use?\n\nThe repository already has a Postgres client, but SQLite keeps the tests simple.", "Which database should I use?"],
    [`${DONE}\n\nWhere should we put the cache files?\n\nThe home folder survives reboots; the temp folder does not.`, "Where should we put the cache files?"],
    ["Der Export ist fertig.\n\nWelche Datenbank soll ich nehmen?\n\nPostgres läuft schon, SQLite wäre einfacher.", "Welche Datenbank soll ich nehmen?"],
    ["L'export est prêt.\n\nQuelle base dois-je utiliser ?\n\nPostgres tourne déjà, SQLite serait plus simple.", "Quelle base dois-je utiliser ?"],
    ["El exportador está listo.\n\n¿Qué base de datos debo usar?\n\nPostgres ya corre, SQLite sería más simple.", "¿Qué base de datos debo usar?"],
  ]);
  none([
    "Which database should I use? I went with Postgres, since the client is already there.",
    "Why did the import fail?\n\nThe parser skipped empty lines. Fixed and covered by a test.",
    "How should the cache behave? It keeps entries for an hour now, as the docs ask.",
  ]);
});

test("acts: reload what runs and check the change, in five languages", () => {
  asks([
    ["The fix is in. Restart the app and check whether the menu still flickers.", "Restart the app and check whether the menu still flickers."],
    ["Fixed the layout. Please refresh the page and tell me if the header looks right.", "Please refresh the page and tell me if the header looks right."],
    ["布局已修好。刷新页面后确认标题是否正常。", "刷新页面后确认标题是否正常。"],
    ["He corregido el menú. Recarga la página y comprueba el menú.", "Recarga la página y comprueba el menú."],
    ["Das Menü ist repariert. Lade die Seite neu und prüfe das Menü.", "Lade die Seite neu und prüfe das Menü."],
    ["Le menu est corrigé. Rechargez la page et vérifiez le menu.", "Rechargez la page et vérifiez le menu."],
  ]);
  none([
    `${DONE} You can refresh the page to see the new header.`,
    `${DONE} If the header does not show, refresh the page to see it.`,
    "Fixed the header. Refresh the page and it should work now.",
    "## How to try it\n\n- Refresh the page to see the header\n- Click Save",
    "Please restart the dev server to apply the changes.",
    "Let me know if it works!",
    "Please let me know if anything else comes up.",
  ]);
});

test("not a wait (0.5): reload to see the finished change is how to look at it, in every language", () => {
  // 0.4 read these as waits; on held-out replies "please refresh the page to see it" after finished work asked
  // nothing (SPEC 0.5 §4.8, §4.23: how to use the finished work is no wait), so only a check asked back counts.
  none([
    `${DONE} Refresh the page to see the new header 🎉`,
    "布局已修好。刷新页面查看效果。",
    "布局已修好。请刷新页面查看。",
    "He corregido el menú. Recarga la página para ver el cambio.",
    "Das Menü ist repariert. Lade die Seite neu, um die Änderung zu sehen.",
    "Le menu est corrigé. Rechargez la page pour voir le changement.",
  ]);
});

test("acts and awaits: the agent pauses until the person acts, waits for their approval at any 'when', or needs them to do it themselves", () => {
  asks([
    ["I've paused here until you add the `STRIPE_KEY` to `.env`.", "I've paused here until you add the `STRIPE_KEY` to `.env`."],
    [`${DONE} Ready for the import whenever you approve the plan above.`, "Ready for the import whenever you approve the plan above."],
    ["The sandbox has no network. You'll need to run `pip install -r requirements.txt` yourself.", "You'll need to run `pip install -r requirements.txt` yourself."],
    ["沙盒里没有网络。请你自己运行 `pip install`。", "请你自己运行 `pip install`。"],
    ["Die Sandbox hat kein Netz. Bitte führe `pip install` selbst aus.", "Bitte führe `pip install` selbst aus."],
    ["La sandbox n'a pas de réseau. Veuillez lancer `pip install` vous-même.", "Veuillez lancer `pip install` vous-même."],
  ]);
  none([
    "You can also run it yourself with `npm start`.",
    "Tip: run `npm test` yourself any time to check.",
    "The script waits until you press Enter before it deploys.",
    "CI was blocked until the lockfile was updated, so I updated it.",
    "I verified it on my side: all green.",
    "Reload the config to see the new values, as the docs describe.",
    "I'll refresh the page to see whether the fix worked.",
  ]);
});
