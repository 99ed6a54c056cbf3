/**
 * goesOn() and messageText() (SPEC §4.15, 0.4): what people type to say "go on" — in English, Chinese,
 * Japanese, Russian, Spanish, German and French, alone or with the polite words around it — carries the
 * open list over; an instruction that starts with the same word, a question, or polite words alone do
 * not. Every message here is one a person would send; each way of saying it is tried on its own.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { goesOn, messageText } from "../../src/core/go-on.ts";

/** Messages that only say "go on", by language: each way of saying it, and each polite word with one. */
const GOES_ON: Record<string, readonly string[]> = {
  English: [
    "Continue.", "continue on", "Continue working, please", "ok, continue with the rest", "Continue with the tasks.",
    "continue with the list please", "keep going!", "Keep at it 👍", "keep on", "keep working", "Go on.", "go ahead",
    "go", "carry on", "Proceed.", "resume", "next", "next one", "next task", "next step", "do the rest",
    "Do the next one.", "finish the rest", "The rest, please.", "OK, move on.", "Onward!", "onwards",
    // the polite words around them
    "continue pls", "okay, keep going", "yes, go ahead", "yep, continue", "yeah go on", "sure, continue",
    "alright, next task", "all right, carry on", "right, next one", "now continue", "then do the rest",
    "and keep going", "just keep going", "so, continue", "good, next", "great, keep going", "thanks, continue",
    "thank you, go on", "cool, next one", "fine, continue", "you can continue", "you may proceed",
  ],
  Chinese: [
    "继续", "繼續", "继续做", "继续下去", "继续干", "接着", "接著", "接着做", "接着来", "接著做", "下一个", "下一步",
    "下一個", "剩下的", "做完剩下的", "把剩下的做完", "剩下的也做了", "继续往下", "往下做",
    "请继续", "請繼續", "好，继续", "好的，继续", "嗯，继续", "继续吧", "可以，继续", "行，接着来", "那就继续",
    "谢谢，继续", "謝謝，請繼續", "麻烦继续", "好了，继续",
  ],
  Japanese: [
    "続けて", "続けましょう", "続行", "続行して", "次", "次へ", "次に進んで", "進めて", "先に進んで", "残りもやって",
    "残りをやって", "残りもお願いします", "続き、お願いします", "続きをお願いします", "続きをやって",
    "はい、続けて", "うん、続けて", "次、おねがいします", "続けてください", "どうぞ、続けて", "では、次へ", "じゃあ次",
    "続き、よろしく",
  ],
  Russian: [
    "продолжай", "Продолжайте", "продолжи", "Продолжим", "продолжить", "дальше", "далее", "следующий", "Следующая",
    "следующее", "Вперёд!", "вперед", "делай остальное", "сделай остальное", "остальное",
    "да, продолжай", "ок, дальше", "давай дальше", "хорошо, продолжай", "ладно, дальше", "продолжай, пожалуйста",
    "так, дальше", "теперь дальше", "спасибо, продолжай",
  ],
  Spanish: [
    "continúa", "continua", "continúe", "continuar", "sigue", "siga", "seguí", "adelante", "prosigue", "siguiente",
    "el siguiente", "haz el resto", "lo demás", "el resto", "dale",
    "sí, sigue", "si, continua", "vale, sigue", "sigue, por favor", "bueno, sigue", "ahora sigue", "gracias, sigue",
    "pues sigue", "y lo demás",
  ],
  German: [
    "weiter", "mach weiter", "Machen Sie weiter.", "weitermachen", "Bitte fortfahren.", "fahre fort", "fahr fort",
    "nächste", "nächster", "nächstes", "der nächste", "den Rest", "mach den Rest", "mach den Rest fertig", "leg los",
    "ja, weiter", "gut, weiter", "jetzt weiter", "dann weiter", "danke, weiter", "und weiter", "also weiter",
  ],
  French: [
    "continuez", "continuons", "vas-y", "allez-y", "la suite", "suivant", "suivante", "fais le reste", "faites le reste",
    "poursuis", "poursuivez", "on continue", "reprends", "reprenez",
    "oui, continue", "d'accord, continuez", "daccord continue", "continue, s'il te plaît", "continuez, s'il vous plaît",
    "continue s'il te plait", "continuez s'il vous plait", "continue stp", "la suite svp", "merci, continuez",
    "bon, on continue", "alors, suivant", "maintenant continue", "et la suite",
  ],
};

/** Messages that start the way a go-on message does, or hold only polite words, and say something else. */
const SAYS_MORE: Record<string, readonly string[]> = {
  English: [
    "continue with the docs instead", "keep going until the tests pass", "go ahead and delete the branch",
    "next time ask me first", "proceed only after the tests pass", "resume the download", "carry on but skip task 3",
    "the rest of the file is wrong", "go home", "nextjs", "don't continue", "what does this function do?", "stop",
    "ok thanks", "yes please", "",
  ],
  Chinese: ["继续解释一下这个函数", "下一个问题：这个函数做什么？", "剩下的先别做", "好的，谢谢"],
  Japanese: ["次の関数を説明して", "続けて、でも先にテストを直して", "はい、お願いします"],
  Russian: ["продолжай, но сначала объясни ошибку", "дальше не надо", "спасибо"],
  Spanish: ["sigue con la documentación", "siguiente pregunta: ¿qué hace esto?", "gracias"],
  German: ["weiter unten steht ein Fehler", "nächste Woche", "danke"],
  French: ["continue à expliquer le code", "la suite du fichier est fausse", "merci"],
};

test("go-on words: every way of saying go on in each language, alone or with a polite word, carries the list over", () => {
  for (const [language, messages] of Object.entries(GOES_ON)) {
    for (const message of messages) assert.equal(goesOn(message), true, `${language}: ${message}`);
  }
});

test("go-on words: an instruction that starts with a go-on word, a question, or polite words alone do not", () => {
  for (const [language, messages] of Object.entries(SAYS_MORE)) {
    for (const message of messages) assert.equal(goesOn(message), false, `${language}: ${message}`);
  }
});

test("go-on words: a message is short at ten words and 80 characters, counted after punctuation is set aside", () => {
  assert.equal(goesOn("Yes please, just keep going and do the rest, thanks!"), true, "ten words");
  assert.equal(goesOn("Yes please, just keep going and do the rest now, thanks!"), false, "eleven words");
  assert.equal(goesOn("ok, ok, ok... continue, continue -- please!!"), true, "runs of punctuation are one gap");
  assert.equal(goesOn("¡Vale, sí, sigue, por favor, y haz el resto, gracias!"), true, "ten words between opening and closing marks");
  assert.equal(goesOn("  continue  "), true);
  const eighty = "Так, хорошо, спасибо! Продолжайте, пожалуйста, теперь сделай остальное. Спасибо, хорошо";
  assert.equal(goesOn(eighty), true, "80 characters");
  assert.equal(goesOn(eighty.replace("Так", "Ладно")), false, "82 characters in ten words");
});

test("go-on words: case, full-width letters, emoji, invisible characters and apostrophes change nothing", () => {
  assert.equal(goesOn("CONTINUE"), true);
  assert.equal(goesOn("ｎｅｘｔ"), true, "typed with a Japanese input method");
  assert.equal(goesOn("keep going 👨‍💻"), true, "an emoji joined by a zero-width joiner");
  assert.equal(goesOn("\ufeffcontinue"), true, "a byte order mark from a paste");
  assert.equal(goesOn("go\u200b on"), true, "a zero-width space");
  assert.equal(goesOn("continue\u0007"), true, "a control character");
  assert.equal(goesOn("s’il vous plaît, continuez"), true, "a typographic apostrophe");
  assert.equal(goesOn("ok继续"), true, "a Latin word runs into Chinese");
  assert.equal(goesOn("继续ok"), true, "a Chinese word runs into a Latin one");
  assert.equal(goesOn("继续，ok"), true);
});

test("go-on words: a Latin or Cyrillic word inside a longer word is no go-on word", () => {
  for (const message of ["nextjs", "gonext", "okgo", "gone", "nowhere", "goodnext", "далеедальше", "ysigue", "d'accordcontinue"]) {
    assert.equal(goesOn(message), false, message);
  }
});

test("messageText: a string as it is, the text blocks of a list joined by a line break, anything else nothing", () => {
  assert.equal(messageText("keep going"), "keep going");
  assert.equal(messageText([{ type: "text", text: "keep" }, null, undefined, "going", 5, { type: "image", data: "…", text: "a screenshot" }, { type: "text" }, { type: "text", text: "going" }]), "keep\ngoing");
  assert.equal(messageText(undefined), "");
  assert.equal(messageText({ type: "text", text: "continue" }), "");
  assert.equal(messageText([]), "");
});

test("goesOn: only text can say go on", () => {
  for (const value of [undefined, null, 42, ["continue"], { text: "continue" }]) assert.equal(goesOn(value), false);
});
