/**
 * Words that only tell the agent to go on (SPEC §4.15, 0.4): "continue", "keep going", "go on", "carry
 * on", "proceed", "next", "do the rest" — a short message of such words, in the languages §4.8 covers
 * (English, Chinese, Japanese, Russian, Spanish, German, French). Such a message carries the open list
 * over: that is what the person means. Pure: text in, a yes or no out.
 *
 * The rule: the message, lower-cased, with punctuation and emoji set aside, is made only of go-on phrases
 * and polite filler ("ok", "please", "はい", "пожалуйста", …), holds at least one go-on phrase, and is
 * short (at most 10 words, 80 characters). Anything else — a new instruction, a question, "go on with
 * the docs instead" — is not.
 */

/**
 * The phrases that mean "go on", in their normalised form (see `normalise`). A phrase that is a shorter
 * one and a filler ("继续吧" is "继续" and "吧", "weiter so" is "weiter" and "so") is read without being listed.
 */
const PHRASES: readonly string[] = [
  // English
  "continue", "continue on", "continue working", "continue with the rest", "continue with the tasks", "continue with the list",
  "keep going", "keep at it", "keep on", "keep working", "go on", "go ahead", "go", "carry on", "proceed", "resume",
  "next", "next one", "next task", "next step", "do the rest", "do the next one", "finish the rest", "the rest", "move on", "onward", "onwards",
  // Chinese
  "继续", "繼續", "继续做", "继续下去", "继续干", "接着", "接著", "接着做", "接着来", "接著做", "下一个", "下一步", "下一個",
  "剩下的", "做完剩下的", "把剩下的做完", "剩下的也做了", "往下", "往下做",
  // Japanese
  "続けて", "続けましょう", "続行", "続行して", "次", "次へ", "次に進んで", "進めて",
  "先に進んで", "残りもやって", "残りをやって", "残りも", "続き", "続きを", "続きをやって",
  // Russian
  "продолжай", "продолжайте", "продолжи", "продолжим", "продолжить", "дальше", "далее", "следующий",
  "следующая", "следующее", "вперёд", "вперед", "делай остальное", "сделай остальное", "остальное",
  // Spanish
  "continúa", "continua", "continúe", "continuar", "sigue", "siga", "seguí", "adelante", "prosigue",
  "siguiente", "el siguiente", "haz el resto", "lo demás", "el resto", "dale",
  // German
  "weiter", "mach weiter", "machen sie weiter", "weitermachen", "fortfahren", "fahre fort", "fahr fort",
  "nächste", "nächster", "nächstes", "der nächste", "den rest", "mach den rest", "mach den rest fertig", "leg los",
  // French
  "continuez", "continuons", "vas y", "allez y", "la suite", "suivant", "suivante", "fais le reste", "faites le reste",
  "poursuis", "poursuivez", "on continue", "reprends", "reprenez",
];

/** Polite words around them, which change nothing. */
const FILLERS: readonly string[] = [
  "please", "pls", "ok", "okay", "yes", "yep", "yeah", "sure", "alright", "all right", "right", "now", "then", "and", "just",
  "so", "good", "great", "thanks", "thank you", "cool", "fine", "you can", "you may",
  "请", "請", "好", "好的", "嗯", "吧", "可以", "行", "那就", "谢谢", "謝謝", "麻烦", "了",
  "はい", "うん", "お願いします", "おねがいします", "ください", "どうぞ", "では", "じゃあ", "よろしく",
  "да", "ок", "давай", "хорошо", "ладно", "пожалуйста", "так", "теперь", "спасибо",
  "sí", "si", "vale", "por favor", "bueno", "ahora", "gracias", "pues", "y",
  "ja", "bitte", "gut", "jetzt", "dann", "danke", "und", "also",
  "oui", "d accord", "daccord", "s il te plaît", "s il vous plaît", "s il te plait", "s il vous plait", "stp", "svp", "merci", "bon", "alors", "maintenant", "et",
];

/** Longest first, so "keep going" is tried before "go". */
const BY_LENGTH: ReadonlyArray<{ readonly text: string; readonly goOn: boolean }> = [
  ...PHRASES.map((text) => ({ text, goOn: true })),
  ...FILLERS.map((text) => ({ text, goOn: false })),
].sort((a, b) => b.text.length - a.text.length);

const MAX_CHARS = 80;
const MAX_WORDS = 10;

/** Lower case, compatibility forms folded; punctuation (hyphens and apostrophes too), symbols and invisible characters become spaces. */
function normalise(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{Cf}\p{Cc}]/gu, " ")
    .replace(/[\p{P}\p{S}]/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * A letter that needs a space around a word: the words above are Latin or Cyrillic; CJK scripts run words
 * together. (A letter of any other script, or a digit, is in no word, so a message holding one never goes on.)
 */
const SPACED = /[\p{Script=Latin}\p{Script=Cyrillic}]/u;

/** Whether the message only tells the agent to go on. */
export function goesOn(text: unknown): boolean {
  if (typeof text !== "string") return false;
  const rest = normalise(text);
  if (rest.length > MAX_CHARS || rest.split(" ").length > MAX_WORDS) return false;
  let at = 0;
  let phrases = 0;
  while (at < rest.length) {
    if (rest[at] === " ") {
      at += 1;
      continue;
    }
    const match = BY_LENGTH.find(({ text: word }) => {
      if (!rest.startsWith(word, at)) return false;
      const after = rest[at + word.length];
      // A spaced word must end at a word boundary: "next" is not the start of "nextjs".
      return after === undefined || !SPACED.test(word.at(-1) ?? "") || !SPACED.test(after);
    });
    // No word fits here (an empty word would not move the scan on, so it fits nowhere).
    if (!match?.text) return false;
    if (match.goOn) phrases += 1;
    at += match.text.length;
  }
  return phrases > 0;
}

/** The text of a human message's content: a string, or its text blocks joined by a line break. */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text") {
      const value = (block as { text?: unknown }).text;
      if (typeof value === "string") texts.push(value);
    }
  }
  return texts.join("\n");
}
