/**
 * Whether a reply ends by asking the human something (SPEC §4.8), as a pure function of its text.
 *
 * The reply is read as CommonMark reads it: fenced code blocks pair by character and length (a closing
 * fence of the same character, at least as long, indented by at most three spaces); a reply that ends
 * inside an unclosed block asks nothing. From the end, trailing blank lines, fenced code blocks,
 * thematic breaks, HTML comments and short tag lines (`[Logs saved]`) are dropped. The last line left
 * then asks when one of these holds (each is a named pattern, pinned by test/question.test.ts):
 * - `question`: it ends with `?`, `？` or `؟` once markdown decoration, closing quotes or brackets, a
 *   short parenthetical after the mark (`…first? (recommended)`) and invisible characters are gone;
 *   a `?` inside inline code, a URL, or a quotation that opens after other text does not count;
 * - `request`: one of its sentences explicitly asks for what only the person can give (`please add /
 *   share / provide / confirm …`, `let me know which …`), in English, Chinese, Japanese, Russian, Spanish,
 *   German or French, and does not open with a condition (`If you still see errors, please share the log`
 *   is a sign-off, not a request);
 * - `depends`: it depends on the answer (`If yes, …`, `Once you confirm, I'll …`) and the line right above
 *   it asks by `question`;
 * - `options`: it closes a list of options under a line that asks (`Would you like me to:`, or a line
 *   ending in `?` that speaks to the person).
 * Linear in the reply's length: one pass over the lines, and every pattern runs on a bounded tail.
 */
import { INVISIBLE_CLASS, withoutEscapes } from "./sanitize.ts";

/** The part of a long line the patterns read: its last characters. */
const TAIL = 2000;
/** Trailing tag lines dropped after the last line that says something. */
const MAX_TAGS = 3;
/** The length of a tag line, brackets and emphasis included. */
const MAX_TAG = 48;
/** Items of a closing list of options. */
const MAX_OPTIONS = 12;
/** Items (lines and code blocks) kept from the end of the reply: more than the patterns ever look back. */
const KEPT = 2 * (MAX_TAGS + MAX_OPTIONS) + 8;

const INVISIBLE = new RegExp(`(?!\\t)[${INVISIBLE_CLASS}]`, "gu");
const QUESTION_END = /[?？؟]$/u;
/** A quote or list prefix, a heading, or emphasis openers at the start of a line. */
const LEADING = /^\s*(?:(?:>|[-*+•]|\d{1,9}[.)]|#{1,6})(?:\s+|$)|[*_~]+)/u;
/** Emphasis, closing quotes and brackets after the question mark. */
const TRAILING = /[\s*_~"'”’“»›)\]}」』】〉》]+$/u;
/** A short parenthetical after the question mark: `…first? (my advice: yes)`. */
const PARENTHETICAL = /(?<=[?？؟][*_~]*)\s*[*_~]*[(（][^()（）?？؟]{1,80}[)）][*_~]*\s*$/u;
/** Inline code: what it holds is code, not prose. */
const CODE_SPAN = /(`+)[^`]*?\1/g;
/** A URL; its trailing punctuation is prose (as GitHub's autolinks read it). */
const URL = /[a-z][a-z0-9+.-]{0,20}:\/\/[^\s<>]*/giu;
const URL_PUNCTUATION = /[?!.,:;*_~'")\]]+$/u;
/** What stands for a code span or a URL in the line the patterns read. */
const HOLE = "\u{E000}";
const URL_HOLE = "\u{E001}";
/** A `?` right after a URL is a question only in a sentence of two words or more (`Can you open <url>?`). */
const URL_QUESTION = /\u{E001}[?？؟]$/u;

/** Lines that say nothing after the last line that does. */
const TAG_LINE = /^[*_]*[[(（【][^[\]()（）【】?？؟]{0,40}\p{L}[^[\]()（）【】?？؟]{0,40}[\])）】][*_]*$/u;
const THEMATIC_BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const HTML_COMMENT = /^ {0,3}<!--[^]*-->\s*$/;
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,9}[.)])\s+\S/u;

/** Rhetorical questions that ask nobody anything. */
const RHETORICAL = /^(?:who (?:knew|would have (?:thought|guessed))|what could (?:possibly )?go wrong|how (?:cool|neat|great) is that|why not)\b/iu;

/** Sentence openers that make a request conditional (a sign-off, not a request). */
const CONDITION = new RegExp(
  [
    /^(?:if|unless|should|in case|whenever)\b/u.source,
    /^(?:如果|若|假如|如有|如需|如还|要是|万一)/u.source,
    /^(?:もし|万が一)|(?:あれば|なければ|たら|なら|場合は|場合には|際は)/u.source,
    /^(?:если|в случае)(?!\p{L})/u.source,
    /^(?:si|en caso)(?!\p{L})/u.source,
    /^(?:wenn|falls|sollte|sollten)(?!\p{L})/u.source,
    /^(?:s['’]il(?! (?:vous|te) pla[iî]t)|au cas|en cas)(?!\p{L})/u.source,
  ].join("|"),
  "iu",
);

/** Explicit requests for what only the person can give, by language. */
const REQUEST = new RegExp(
  [
    // English
    /\b(?:please|kindly)\s+(?:add|attach|share|provide|send|paste|upload|confirm|approve|choose|pick|select|specify|clarify|decide|reply|grant)\b/u.source,
    /\b(?:let me know|tell me)\s+(?:which|whether)\b/u.source,
    /\b(?:could|can|would) you(?: please)?\s+(?:add|attach|share|provide|send|paste|upload|confirm|approve|choose|pick|specify|tell me)\b/u.source,
    /\bI(?:'ll| will|'d| would)? need you to\s+(?:add|attach|share|provide|send|paste|upload|confirm|approve|choose|pick|specify|tell me|let me know)\b/u.source,
    /\b(?:once|as soon as|after) you(?:'ve| have)?\s+(?:added|shared|provided|sent|pasted|uploaded|confirmed|approved|chosen|picked|add|share|provide|send|paste|upload|confirm|approve|choose|pick)\b.{0,200}?\b(?:I(?:'ll| will| can)|we(?:'ll| can))\b/u.source,
    /\bplease\s+(?:run|execute|type|enter)\b.{0,200}?\b(?:to|so (?:that )?I can|and I(?:'ll| will)|then I(?:'ll| will)|before I)\s+(?:proceed|continue|resume|go on)\b/u.source,
    // Chinese
    /请(?:您|你)?(?:提供|添加|上传|分享|发送|粘贴|附上|选择|指定|批准|确认是否|确认一下是否|确认以上|确认上述)/u.source,
    /请(?:您|你)?(?:告诉我|让我知道|说明)[^。！]{0,40}?(?:哪|是否|要不要|还是)/u.source,
    /(?:需要|麻烦)(?:您|你)(?:提供|确认|添加|上传|分享|选择|告诉我)/u.source,
    // Japanese
    /(?:共有|提供|追加|送信|送付|アップロード|貼り付け|添付|指定|選択|承認|許可)(?:して|を)?(?:ください|下さい|いただけますか|お願いします)/u.source,
    /(?:選んで|決めて)(?:ください|下さい)/u.source,
    /か(?:どうか)?(?:を)?(?:教えて|お知らせ|ご連絡|ご指示)(?:ください|下さい|いただけ)/u.source,
    // Russian
    /пожалуйста,?\s+(?:добавьте|добавь|предоставьте|предоставь|поделитесь|поделись|пришлите|пришли|отправьте|отправь|вставьте|вставь|загрузите|загрузи|подтвердите|подтверди|укажите|укажи|выберите|выбери|уточните|уточни)(?!\p{L})/u.source,
    /(?<!\p{L})(?:добавьте|предоставьте|поделитесь|пришлите|отправьте|подтвердите|укажите|выберите|уточните)(?!\p{L})[^.!]{0,80}?,?\s+пожалуйста/u.source,
    /(?<!\p{L})(?:сообщите|скажите|дайте знать|напишите|подскажите)(?!\p{L})[^.!]{0,40}?(?<!\p{L})(?:какой|какая|какое|какие|какую|каким|который|которую|которые|что из)(?!\p{L})/u.source,
    // Spanish
    /por favor,?\s+(?:añade|añada|agrega|agregue|comparte|comparta|proporciona|proporcione|envía|envíe|pega|pegue|sube|suba|confirma|confirme|indica|indique|elige|elija|selecciona|seleccione|especifica|especifique|aclara|aclare)(?!\p{L})/u.source,
    /(?<!\p{L})(?:añade|agrega|comparte|proporciona|envía|pega|sube|confirma|indica|elige|especifica|añada|agregue|comparta|proporcione|envíe|pegue|suba|confirme|indique|elija|especifique)(?!\p{L})[^.!]{0,80}?,?\s+por favor/u.source,
    /(?<!\p{L})(?:dime|dígame|indícame|indíqueme|avísame|avíseme|hazme saber|hágame saber)(?!\p{L})[^.!]{0,40}?(?<!\p{L})(?:cuál|cuáles|qué opción|qué enfoque)(?!\p{L})/u.source,
    /(?<!\p{L})necesito que (?:añadas|agregues|compartas|proporciones|envíes|pegues|subas|confirmes|elijas|me digas|me indiques)(?!\p{L})/u.source,
    // German
    /(?<!\p{L})bitte\s+(?:füge|füg|fügen Sie|teile|teilen Sie|gib|geben Sie|sende|senden Sie|schicke|schick|schicken Sie|lade|laden Sie|bestätige|bestätigen Sie|wähle|wählen Sie|nenne|nennen Sie|kopiere|kopieren Sie)(?!\p{L})/u.source,
    /(?<!\p{L})(?:füge|füg|fügen Sie|teile|teilen Sie|gib|geben Sie|sende|senden Sie|schicke|schick|schicken Sie|lade|laden Sie|bestätige|bestätigen Sie|wähle|wählen Sie|nenne|nennen Sie)\s+(?:mir\s+)?bitte(?!\p{L})/u.source,
    /(?<!\p{L})(?:sag mir|sagen Sie mir|lass mich wissen|lassen Sie mich wissen|teile mir mit|teilen Sie mir mit|gib mir Bescheid|geben Sie mir Bescheid)(?!\p{L})[^.!]{0,40}?(?<!\p{L})(?:welche[nrsm]?)(?!\p{L})/u.source,
    // French
    /(?<!\p{L})(?:merci de|veuillez|pourriez-vous|pouvez-vous)\s+(?:m['’])?(?:ajouter|partager|fournir|envoyer|coller|téléverser|confirmer|indiquer|préciser|choisir|sélectionner|dire)(?!\p{L})/u.source,
    /(?<!\p{L})(?:ajoute|ajoutez|partage|partagez|fournis|fournissez|envoie|envoyez|colle|collez|confirme|confirmez|indique|indiquez|précise|précisez|choisis|choisissez)(?!\p{L})[^.!]{0,80}?,?\s*s['’]il (?:vous|te) pla[iî]t/u.source,
    /s['’]il (?:vous|te) pla[iî]t,?\s+(?:ajoute|ajoutez|partage|partagez|fournis|fournissez|envoie|envoyez|colle|collez|confirme|confirmez|indique|indiquez|précise|précisez|choisis|choisissez)(?!\p{L})/u.source,
    /(?<!\p{L})(?:dites-moi|dis-moi|indiquez-moi|indique-moi|faites-moi savoir|fais-moi savoir)(?!\p{L})[^.!]{0,40}?(?<!\p{L})(?:quel|quelle|quels|quelles|lequel|laquelle|lesquels|lesquelles)(?!\p{L})/u.source,
  ].join("|"),
  "iu",
);

/** Openers of a line that depends on the answer to the question right above it, by language. */
const DEPENDS = new RegExp(
  [
    /^(?:if (?:yes|so|not|no)\b|if you(?:'d| would)? (?:agree|approve|confirm|prefer|want me to|like me to|say yes)\b|if (?:that|this) (?:works|sounds good|looks good|looks right|is (?:ok|okay|fine|correct|right))\b|if that'?s (?:ok|okay|fine|correct|right)\b)/u.source,
    /^(?:once you(?:'ve| have)? (?:confirm|approve|decide|choose|pick|reply|answer|agree|say|tell me|let me know|confirmed|approved|decided|chosen|picked|replied|answered|agreed)\b|once (?:confirmed|approved)\b|after (?:you confirm|your (?:confirmation|approval|answer|reply))\b|upon (?:confirmation|approval)\b|when you (?:confirm|approve|decide|reply)\b|otherwise\b|either way\b)/u.source,
    /^(?:如果(?:是|可以|同意|需要|没问题|确认|您同意|你同意|您确认|你确认|要的话|不需要|不)|确认后|您确认后|你确认后|同意后|否则|若同意)/u.source,
    /^(?:よろしければ|問題なければ|ご承認いただければ|承認いただければ|ご確認いただければ|確認(?:が取れ|でき)次第|OKでしたら|OKであれば|はいの場合|いいえの場合|了承いただければ|そうでなければ|もし(?:よろしければ|問題なければ|そうなら))/u.source,
    /^(?:если да|если нет|если вы согласны|если ты согласен|если согласны|если подтвердите|если подтвердишь|если это подходит|после (?:вашего |твоего )?подтверждения|как только (?:вы )?подтвердите|иначе|в противном случае)(?!\p{L})/u.source,
    /^(?:si es así|si sí|si no|si estás de acuerdo|si está de acuerdo|si me confirmas|si confirmas|si lo apruebas|una vez que (?:confirmes|me confirmes|lo apruebes)|cuando confirmes|en caso afirmativo|de lo contrario|si te parece bien|si le parece bien)(?!\p{L})/u.source,
    /^(?:wenn ja|falls ja|wenn nicht|falls nicht|wenn du zustimmst|wenn Sie zustimmen|falls du zustimmst|falls Sie zustimmen|sobald du (?:bestätigst|zustimmst)|sobald Sie (?:bestätigen|zustimmen)|nach deiner Bestätigung|nach Ihrer Bestätigung|andernfalls|ansonsten|wenn das passt|falls das passt)(?!\p{L})/u.source,
    /^(?:si oui|si non|sinon|si c['’]est le cas|si vous êtes d['’]accord|si tu es d['’]accord|si cela vous convient|si ça te va|une fois que vous aurez confirmé|une fois (?:confirmé|validé)|dès que vous confirmez|dès votre confirmation|après votre confirmation|après ta confirmation)(?!\p{L})/u.source,
  ].join("|"),
  "iu",
);

/** A line ending in `:` that asks the person to choose among the options below it, by language. */
const ASKS_TO_CHOOSE = new RegExp(
  [
    /\b(?:would you like(?: me)? to|do you want(?: me)? to|shall I|should I|which (?:one|option|approach|would you|do you)|(?:please )?(?:choose|pick|select)(?: one)?|would you prefer)\b/u.source,
    /(?:您希望|你希望|您想|你想|需要我|请选择|选择哪|您倾向|你倾向)/u.source,
    /(?:どちら|どれ|いかがしますか|しますか|ご希望|選んで)/u.source,
    /(?<!\p{L})(?:хотите|хочешь|выберите|выбери|какой вариант|предпочитаете)(?!\p{L})/u.source,
    /(?<!\p{L})(?:quieres que|prefieres|desea que|deseas|elige|elija|qué opción|cuál prefieres)(?!\p{L})/u.source,
    /(?<!\p{L})(?:möchtest du|möchten Sie|soll ich|sollen wir|wähle|wählen Sie|welche Option)(?!\p{L})/u.source,
    /(?<!\p{L})(?:voulez-vous|veux-tu|souhaitez-vous|préférez-vous|dois-je|choisissez|quelle option)(?!\p{L})/u.source,
  ].join("|"),
  "iu",
);

/** A question that speaks to the person (you, I, we …), by language. */
const ADDRESSES = new RegExp(
  [
    /\b(?:you|your|I|me|we|us)\b/u.source,
    /[你您我]/u.source,
    /(?:ますか|ましょうか|でしょうか|ませんか)/u.source,
    /(?<!\p{L})(?:вы|вам|вас|ты|тебе|я|мне|мы)(?!\p{L})/u.source,
    /(?<!\p{L})(?:usted|tú|te|quieres|prefieres|deseas|puedo|debo)(?!\p{L})/u.source,
    /(?<!\p{L})(?:Sie|du|ich|wir|soll)(?!\p{L})/u.source,
    /(?<!\p{L})(?:vous|tu|je|nous)(?!\p{L})/u.source,
  ].join("|"),
  "iu",
);

type Item = { readonly kind: "line"; readonly text: string } | { readonly kind: "code" };

/** Per UTF-16 code unit: 0 not yet seen, 1 visible, 2 blank (white space or invisible). */
const BLANK_UNITS = new Uint8Array(0x10000);
const BLANK_CHAR = new RegExp(`^[\\s${INVISIBLE_CLASS}]$`, "u");

/**
 * Whether source[start, stop) holds a visible character. Linear, with a per-code-unit cache. A high
 * surrogate right before `stop` (a line break or the end) reads as itself, a lone surrogate: visible.
 */
function hasVisible(source: string, start: number, stop: number): boolean {
  for (let index = start; index < stop; index += 1) {
    const unit = source.charCodeAt(index);
    if (unit > 0x20 && unit < 0x7f) return true;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      // An astral character: tag characters and the supplementary variation selectors are invisible.
      const point = source.codePointAt(index) ?? unit;
      if (!BLANK_CHAR.test(String.fromCodePoint(point))) return true;
      index += 1;
      continue;
    }
    let known = BLANK_UNITS[unit] ?? 0;
    if (known === 0) {
      known = BLANK_CHAR.test(String.fromCharCode(unit)) ? 2 : 1;
      BLANK_UNITS[unit] = known;
    }
    if (known === 1) return true;
  }
  return false;
}

/** The fence run fenceRun() found last: its character, its length and where the line goes on after it. */
let runChar = 0;
let runLength = 0;
let runAfter = 0;

/**
 * Whether source[start, stop) opens with a run of three or more ` or ~ after at most three spaces; the
 * run is left in runChar, runLength and runAfter (no allocation per line: replies can be long). `stop` is
 * always a line break or the end of the source, which is neither a space nor a fence character, so the
 * scans need no bound of their own.
 */
function fenceRun(source: string, start: number, stop: number): boolean {
  let index = start;
  while (index - start < 3 && source.charCodeAt(index) === 0x20) index += 1;
  const char = source.charCodeAt(index);
  if (char !== 0x60 && char !== 0x7e) return false;
  let after = index;
  while (source.charCodeAt(after) === char) after += 1;
  if (after - index < 3) return false;
  runChar = char;
  runLength = after - index;
  runAfter = after;
  return true;
}

/** Whether source[start, stop) holds nothing but spaces and tabs. */
function onlySpaces(source: string, start: number, stop: number): boolean {
  for (let index = start; index < stop; index += 1) {
    const unit = source.charCodeAt(index);
    if (unit !== 0x20 && unit !== 0x09) return false;
  }
  return true;
}

/**
 * The end of the reply as a list of non-blank prose lines (invisible characters removed, long ones cut
 * to their tail) and fenced code blocks (consecutive ones as one), in order; undefined when it ends
 * inside an unclosed block. One pass over the characters; only the last items are kept, since nothing
 * further back decides.
 */
function readItems(text: string): Item[] | undefined {
  const source = text.replace(/\r\n?/g, "\n");
  // Kept items: code blocks as [-1, -1], lines as their [start, stop).
  let kept: number[] = [];
  // The open fence's character and length; 0 when outside a code block.
  let openChar = 0;
  let openLength = 0;
  for (let start = 0; start <= source.length; ) {
    const newline = source.indexOf("\n", start);
    const stop = newline === -1 ? source.length : newline;
    const run = fenceRun(source, start, stop);
    if (openChar !== 0) {
      if (run && runChar === openChar && runLength >= openLength && onlySpaces(source, runAfter, stop)) openChar = 0;
    } else if (run && !(runChar === 0x60 && source.lastIndexOf("`", stop - 1) >= runAfter)) {
      openChar = runChar;
      openLength = runLength;
      if (kept[kept.length - 2] !== -1) kept.push(-1, -1);
    } else if (hasVisible(source, start, stop)) {
      kept.push(Math.max(start, stop - TAIL), stop);
    }
    if (kept.length > 4 * KEPT) kept = kept.slice(-2 * KEPT);
    start = stop + 1;
  }
  if (openChar !== 0) return undefined;
  const items: Item[] = [];
  for (let index = 0; index < kept.length; index += 2) {
    const from = kept[index] ?? -1;
    const to = kept[index + 1] ?? -1;
    items.push(from === -1 ? { kind: "code" } : { kind: "line", text: withoutEscapes(source.slice(from, to)).replace(INVISIBLE, "") });
  }
  return items;
}

/** Markdown decoration at the start of a line stripped (quote, list and heading prefixes, emphasis). */
function undecorated(line: string): string {
  let bare = line;
  for (let previous = ""; previous !== bare; ) {
    previous = bare;
    bare = bare.replace(LEADING, "");
  }
  return bare.trim();
}

/** Inline code and URLs replaced by a hole, so a `?` inside them is not read as prose. */
function withoutCode(line: string): string {
  return line.replace(CODE_SPAN, HOLE).replace(URL, (url) => URL_HOLE + (URL_PUNCTUATION.exec(url)?.[0] ?? ""));
}

/** Whether the line's last `?` closes a quotation that opens after other text on the line. */
function quoted(line: string): boolean {
  const match = /[?？؟][*_~]*\s*["'”’“»›」』][\s*_~"'”’“»›)\]}」』】〉》]*$/u.exec(line);
  if (!match) return false;
  const before = /^(.*)["'“„«‹「『‘]/su.exec(line.slice(0, match.index));
  return before !== null && !/^[\s([{（【*_~]*$/u.test(before[1] ?? "");
}

/** The line as a question to the person (`question` pattern), undecorated; undefined when it is none. */
function asQuestion(line: string): string | undefined {
  const bare = undecorated(line);
  const prose = withoutCode(bare).replace(PARENTHETICAL, "");
  if (quoted(prose) || RHETORICAL.test(prose)) return undefined;
  const end = prose.replace(TRAILING, "");
  if (!QUESTION_END.test(end) || !/\p{L}|\p{N}/u.test(end.replace(/[\u{E000}\u{E001}]/gu, ""))) return undefined;
  if (URL_QUESTION.test(end) && !/\S+\s+\S+\s+\u{E001}/u.test(end)) return undefined;
  return bare.replace(PARENTHETICAL, "").replace(TRAILING, "");
}

/** The sentences of a line (code spans and URLs already holes), trailing punctuation dropped. */
function sentences(prose: string): string[] {
  const out: string[] = [];
  let start = 0;
  const ends = /[.!?](?=\s)|[。！？]/gu;
  for (let match = ends.exec(prose); match; match = ends.exec(prose)) {
    out.push(prose.slice(start, match.index));
    start = match.index + match[0].length;
  }
  out.push(prose.slice(start));
  return out.map((sentence) => undecorated(sentence.replace(/[\s.!。！*_~)\]]+$/u, "")));
}

/**
 * The line as an explicit request to the person (`request` pattern): one of its sentences asks for what
 * only the person can give and does not open with a condition. Undefined when it is none.
 */
function asRequest(line: string): string | undefined {
  const bare = undecorated(line);
  const asks = sentences(withoutCode(bare)).some((sentence) => !CONDITION.test(sentence) && REQUEST.test(sentence));
  return asks ? bare.replace(TRAILING, "") : undefined;
}

function isTrailer(item: Item): boolean {
  if (item.kind === "code") return true;
  const line = item.text.trim();
  return (line.length <= MAX_TAG && TAG_LINE.test(line)) || THEMATIC_BREAK.test(item.text) || HTML_COMMENT.test(line);
}

/** The prose line at `index`, or undefined when it is a code block or out of range. */
function lineAt(items: readonly Item[], index: number): string | undefined {
  const item = items[index];
  return item?.kind === "line" ? item.text : undefined;
}

/** A closing list of options (`options` pattern): the line that asks above it, or undefined. */
function asOptions(items: readonly Item[], last: number): string | undefined {
  let top = last;
  while (last - top < MAX_OPTIONS && LIST_ITEM.test(lineAt(items, top) ?? "")) top -= 1;
  if (top === last) return undefined;
  const asking = lineAt(items, top);
  if (asking === undefined || LIST_ITEM.test(asking)) return undefined;
  const question = asQuestion(asking);
  if (question !== undefined) return ADDRESSES.test(withoutCode(question)) ? question : undefined;
  const bare = undecorated(asking).replace(/[\s*_~]+$/u, "");
  return /[:：]$/u.test(bare) && ASKS_TO_CHOOSE.test(withoutCode(bare)) ? bare : undefined;
}

/**
 * What the reply ends by asking the human, undecorated: the question, the request, or the line that asks
 * above a dependent line or a list of options; undefined when the reply asks nothing.
 */
export function askedQuestion(text: string): string | undefined {
  if (typeof text !== "string") return undefined;
  const items = readItems(text);
  if (items === undefined) return undefined;
  let last = items.length - 1;
  let tags = 0;
  for (; ; last -= 1) {
    const item = items[last];
    if (item === undefined || !isTrailer(item)) break;
    if (item.kind === "line" && (tags += 1) > MAX_TAGS) return undefined;
  }
  const line = lineAt(items, last);
  if (line === undefined) return undefined;
  const question = asQuestion(line);
  if (question !== undefined) return question;
  const above = lineAt(items, last - 1);
  if (above !== undefined && DEPENDS.test(undecorated(line))) {
    const asked = asQuestion(above);
    if (asked !== undefined) return asked;
  }
  return asRequest(line) ?? asOptions(items, last);
}

/** The text blocks of an assistant message (not thinking, not tool calls), one per line. */
export function replyText(message: unknown): string {
  if (typeof message !== "object" || message === null) return "";
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type === "text" && typeof text === "string") texts.push(text);
  }
  return texts.join("\n");
}
