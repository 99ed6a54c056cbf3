/**
 * Whether a reply waits for the person (SPEC §4.8), as a pure function of its text.
 *
 * The reply is read as CommonMark reads it: fenced code blocks pair by character and length (a closing
 * fence of the same character, at least as long, indented by at most three spaces); a reply that ends
 * inside an unclosed block asks nothing. From the end, trailing decoration is set aside: blank lines, fenced
 * code blocks, thematic breaks, HTML comments, short tag lines (`[Logs saved]`) and lines of emoji or
 * emphasis markers only. Then, in this order (each a named pattern, pinned by test/question*.test.ts):
 *
 * 0.3, on the last line left:
 * - `question`: it ends with `?`, `？` or `؟` once markdown decoration, closing quotes or brackets, emoji, a
 *   short parenthetical after the mark (`…first? (recommended)`) and invisible characters are gone; a `?`
 *   inside inline code, a URL, or a quotation that opens after other text does not count;
 * - `depends`: it depends on the answer (`If yes, …`, `Once you confirm, I'll …`) and the line right above
 *   it asks by `question`;
 * - `request`: one of its sentences explicitly asks for what only the person can give (`please add / share /
 *   provide / confirm …`, `let me know which …`) and does not open with a condition;
 * - `options`: it closes a list of options under a line that asks.
 *
 * 0.4, on the closing prose — the last paragraph (with the line that leads into it when it is a list under
 * a line ending in `:`), or the lines under a closing heading that hands the turn to the person — read
 * sentence by sentence with code, URLs and quotations hidden:
 * - `asks`: a question anywhere in it that speaks to the person (you, I, we; `Ready to …?`; a question word
 *   only with `you`), unless the next sentence answers it (`Should I go on? I will.`);
 * - `acts`: a sentence addressed to the person (an imperative, `please`, `can you`, `you need to`) that asks
 *   them to give something back (output, a log, a choice, a confirmation), or on whose act the agent's next
 *   step hangs (`so I can`, `to proceed`, `before I`, `then I'll`), or asks them to test; under a heading
 *   such as `Ready to test` any imperative counts, under `Next steps` only a step the person alone takes;
 * - `awaits`: it says it waits for their approval, decision or input (`Awaiting your approval`);
 * - `before`: a question or request in the paragraph before, when the closing paragraph only explains it.
 * A condition or an offer (`If you hit errors, paste the log`, `if you want`) is a sign-off, not a request;
 * instructions for later use (`Run npm start to see it`) ask nothing. Languages: English, Chinese,
 * Japanese, Russian, Spanish, German, French.
 * Linear in the reply's length: one pass over the lines; every pattern runs on a bounded tail.
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
/** Lines of the closing prose read at most. */
const MAX_PROSE = 24;
/** Lines of the paragraph before the closing prose that a question followed by one more paragraph may stand in. */
const MAX_BEFORE = 16;
/** Characters of the closing prose read at most, and of one line. */
const PROSE_CHARS = 4000;
const LINE_CHARS = 1000;
/** Lines the one paragraph after such a question may have. */
const MAX_AFTER = 8;
/** Items (lines and code blocks) kept from the end of the reply: more than the patterns ever look back. */
const KEPT = 2 * (MAX_TAGS + MAX_OPTIONS) + MAX_PROSE + MAX_BEFORE + MAX_AFTER + 8;

/**
 * Invisible characters that human text is made of (joiners, variation selectors, emoji tags): kept in the
 * line, so the text asked keeps them and sanitize() decides which survive; the patterns read past them.
 */
const HUMAN_INVISIBLE = "\\u200c\\u200d\\ufe0e\\ufe0f\\u180b-\\u180d\\u180f\\u{e0020}-\\u{e007f}\\u{e0100}-\\u{e01ef}";
const INVISIBLE = new RegExp(`(?![\\t${HUMAN_INVISIBLE}])[${INVISIBLE_CLASS}]`, "gu");
/** Emoji and what builds them (modifiers, flags, keycaps, joiners, selectors, tags): decoration at a line's end. */
const EMOJI = `\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\p{Regional_Indicator}\\u20e3${HUMAN_INVISIBLE}`;
const QUESTION_END = /[?？؟]$/u;
/** A quote or list prefix, a heading, or emphasis openers at the start of a line. */
const LEADING = new RegExp(`^\\s*(?:(?:>|[-*+•]|\\d{1,9}[.)]|#{1,6})(?:\\s+|$)|[*_~${EMOJI}]+)`, "u");
/** Emphasis, closing quotes and brackets, emoji after the question mark. */
const TRAILING = new RegExp(`[\\s*_~"'”’“»›)\\]}」』】〉》${EMOJI}]+$`, "u");
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
/** A line of emoji and emphasis markers only (`🚀`, `**`, `✨ __ ✨`): it says nothing. */
const DECORATION_LINE = new RegExp(`^(?=.*[${EMOJI}]|(?:\\*\\*|__)+$)[\\s*_~${EMOJI}]+$`, "u");

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

/** A prose line (`para`: a blank line or a code block stands before it, so it opens a paragraph), or a code block. */
type Item = { readonly kind: "line"; readonly text: string; readonly para: boolean } | { readonly kind: "code" };

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
  // Kept items: code blocks as [-1, -1, 1], lines as their [start, stop, para].
  let kept: number[] = [];
  // The open fence's character and length; 0 when outside a code block.
  let openChar = 0;
  let openLength = 0;
  // Whether the next line opens a paragraph.
  let para = 1;
  for (let start = 0; start <= source.length; ) {
    const newline = source.indexOf("\n", start);
    const stop = newline === -1 ? source.length : newline;
    const run = fenceRun(source, start, stop);
    if (openChar !== 0) {
      if (run && runChar === openChar && runLength >= openLength && onlySpaces(source, runAfter, stop)) openChar = 0;
    } else if (run && !(runChar === 0x60 && source.lastIndexOf("`", stop - 1) >= runAfter)) {
      openChar = runChar;
      openLength = runLength;
      if (kept[kept.length - 3] !== -1) kept.push(-1, -1, 1);
      para = 1;
    } else if (hasVisible(source, start, stop)) {
      kept.push(Math.max(start, stop - TAIL), stop, para);
      para = 0;
    } else {
      para = 1;
    }
    if (kept.length > 6 * KEPT) kept = kept.slice(-3 * KEPT);
    start = stop + 1;
  }
  if (openChar !== 0) return undefined;
  const items: Item[] = [];
  for (let index = 0; index < kept.length; index += 3) {
    const from = kept[index] ?? -1;
    const to = kept[index + 1] ?? -1;
    const line = withoutEscapes(source.slice(from, to)).replace(INVISIBLE, "");
    items.push(from === -1 ? { kind: "code" } : { kind: "line", text: line, para: kept[index + 2] === 1 });
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

function isTrailer(item: Item): boolean {
  if (item.kind === "code") return true;
  const line = item.text.trim();
  return (line.length <= MAX_TAG && TAG_LINE.test(line)) || THEMATIC_BREAK.test(item.text) || HTML_COMMENT.test(line) || DECORATION_LINE.test(line);
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
 * above a dependent line or a list of options (0.3, on the last line); else the sentence of the closing
 * prose that asks, requests or waits (0.4); undefined when the reply asks nothing.
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
  return lastLineAsks(items, last, line) ?? closingAsks(items, last);
}

/** The 0.3 patterns on the last line: `question`, `depends`, `request`, `options`. */
function lastLineAsks(items: readonly Item[], last: number, line: string): string | undefined {
  const question = asQuestion(line);
  if (question !== undefined) return question;
  const above = lineAt(items, last - 1);
  if (above !== undefined && DEPENDS.test(undecorated(line))) {
    const asked = asQuestion(above);
    if (asked !== undefined) return asked;
  }
  return asOptions(items, last);
}

// ---------------------------------------------------------------------------------------------
// 0.4: the closing prose. Every pattern below reads one sentence of a bounded number of lines.

/** What stands for code, a URL or a quotation in a masked line: one code unit per character hidden. */
const FILL = "\u{E002}";
/**
 * A quotation: what it holds is someone else's words. Any opening quote (straight, curly, guillemet, CJK
 * bracket, a single quote that opens a word) to the next closing one of any kind, or to the end of the line
 * when none closes it. An apostrophe inside a word opens nothing.
 */
const QUOTATION = /(?:["“„«‹「『]|(?<![\p{L}\p{N}])['‘])[^"“”„«»‹›「」『』'‘’\n]{0,300}(?:["”“»›」』'’]|$)/gu;
/**
 * Where a sentence ends: its mark and what closes around it (emphasis, closing brackets and quotes, emoji),
 * then a space or the end; CJK marks need no space. An opening bracket or quote starts the next sentence.
 */
const SENTENCE_END = /[.!?؟][^\s\p{L}\p{N}\p{Ps}\p{Pi}]*(?=\s|$)|[。！？][^\s\p{L}\p{N}\p{Ps}\p{Pi}]*/gu;
/** A markdown heading, a line of emphasis only, or `=== … ===`: its text in group 1. */
const HEADING = /^\s*(?:#{1,6}\s+(.{1,80}?)\s*#*|(?:\*\*|__)([^*_]{1,80}?)(?:\*\*|__)|={2,}\s*(.{1,80}?)\s*={2,})\s*[:：]?\s*$/u;
/** A heading by its marks: `#` or `===`. */
const MARKDOWN_HEADING = /^\s*(?:#|==)/u;
/** A label in emphasis with its colon that opens a line (`**Next step:** Run …`): the label in group 1, the rest in group 2. */
const LABEL = /^\s*(?:[-*+•]\s+)?(?:\*\*|__)([^*_]{1,60}?)(?:[:：](?:\*\*|__)|(?:\*\*|__)[:：])\s+(\S.*)$/u;
/** A short line of one phrase that ends in a colon (`Next steps:`): a heading over what follows. */
const COLON_HEADING = /^\s*([^:：.!?;。！？；]{1,60}?)\s*[:：]\s*$/u;

/** Not inside a word, in any script: what a lexicon word has before and after it. */
const WORD_START = "(?<![\\p{L}\\p{N}])";
const WORD_END = "(?![\\p{L}\\p{N}])";

/** The words of a lexicon, each whole. */
function whole(lexicon: RegExp): string {
  return `${WORD_START}(?:${lexicon.source})${WORD_END}`;
}

/** At most `most` more characters of the same sentence. */
function within(most: number): string {
  return `[^.!?。！？]{0,${most}}?`;
}

/** One pattern, any case, from its parts (each the source of a pattern). */
function anyOf(...parts: readonly string[]): RegExp {
  return new RegExp(parts.join("|"), "iu");
}

/** The parts as the whole of the text. */
function wholeText(...parts: readonly string[]): RegExp {
  return new RegExp(`^(?:${parts.join("|")})$`, "iu");
}

/**
 * Headings that hand the turn to the person (`Ready to test`, `Your turn`): under one, an imperative with an
 * action verb asks the person to act. Emoji, emphasis and punctuation are gone from the heading text.
 */
const TURN_HEADING = wholeText(
  /ready for next step|ready for next steps|ready for testing|ready for review|ready for your review|ready for you|ready to test|please test|testing required|testing needed|test required|test needed|your turn|your action|your move|your part|over to you|action required|actions required|action needed|actions needed|what you need to do|required steps|required actions|manual steps|manual step|next steps for you|next step for you|to proceed|to continue|before I continue|before I proceed|before I go on/.source,
  /请测试|请您测试|请你测试|测试步骤|需要您操作|需要你操作|需要您做的|需要你做的|待您操作|待您确认|待你确认/.source,
  /テスト手順|動作確認|動作確認のお願い|ご確認のお願い|ご確認いただきたいこと|お願いしたいこと|お願い事項|必要な操作/.source,
  /что нужно сделать|что вам нужно сделать|что требуется сделать|требуется ваше действие|требуется ваше участие|для проверки|ваша очередь/.source,
  /listo para probar|para probar|acción requerida|tu turno|qué necesitas hacer/.source,
  /bereit zum testen|zum testen|bitte testen|deine aufgabe|ihre aufgabe|aktion erforderlich|was du tun musst|was sie tun müssen/.source,
  /prêt à tester|pour tester|à vous de jouer|à toi de jouer|action requise|ce que vous devez faire|ce que tu dois faire/.source,
);
/** Headings that name the next steps, which may be the agent's own: only steps the person alone takes count. */
const NEXT_HEADING = wholeText(
  /next|next step|next steps|下一步|下一步操作|后续步骤|接下来|次のステップ|次の手順|следующий шаг|следующие шаги|próximos pasos|siguientes pasos|siguiente paso|próximo paso|nächste schritte|nächster schritt|prochaines étapes|prochaine étape|étapes suivantes/.source,
);

/**
 * Words that may open an imperative before its verb (`Now,`, `Then`, `Please`), after a short label (`Note:`)
 * or a clause of time (`Once the build finishes,`).
 */
const LEAD_IN = new RegExp(
  `^(?:[\\p{L}\\p{N} ]{1,24}[:：]\\s+)?(?:${whole(/when|once|after/)}${within(40)},\\s*)?(?:${whole(
    /now|then|next|first|finally|also|so|and|just|ok|okay|alright|great|please|kindly|go ahead and|be sure to|make sure to|remember to|теперь|затем|сначала|потом|пожалуйста|ahora|luego|después|primero|por favor|jetzt|nun|dann|zuerst|bitte|maintenant|ensuite|puis|d'abord|d’abord|alors/,
  )}[,，、:]?\\s*|(?:${/现在|然后|接下来|首先|请|麻烦/.source})[,，、:]?\\s*){0,4}`,
  "iu",
);

/** English verbs of what a person may be asked to do. */
const ENGLISH_VERBS =
  /run|rerun|re-run|execute|test|try|retry|reproduce|ping|check|verify|restart|reload|refresh|relaunch|re-launch|launch|start|stop|open|close|quit|exit|log in|login|log into|log out|sign in|select|choose|pick|confirm|approve|review|share|send|paste|post|provide|upload|attach|add|grant|enter|type|click|press|visit|navigate|install|set|copy|reply|answer|decide|specify|clarify|tell|give|use|pull|push|merge|deploy|rebuild|build|update|clear|delete|remove|kill|create|save|restore|authorize|authorise|authenticate|connect|accept|allow|enable|disable/;

/**
 * An imperative at the start of a sentence, by language. In English the verb needs an object or a particle
 * after it (`Run the tests`, `Run \`npm test\``, `launch it`), so a noun that opens a statement (`Test passes`,
 * `Build output looks clean`) is no imperative; the other languages' forms are imperative in themselves.
 */
const IMPERATIVE = anyOf(
  `^(?:${
    ENGLISH_VERBS.source
  })(?:\\s+${whole(
    /the|a|an|this|that|these|those|it|them|your|my|our|me|us|all|both|each|any|some|again|now|out|up|in|on|off|over|back|down|with|to|and|then|from|into|through|for|here|there|first|once|one|everything|something|anything|whether|which|what|how|if|when|please/,
  )}|\\s*[${FILL}"“'‘«]|\\s*[.!]*$)`,
  `^(?:请|麻烦)?(?:您|你)?(?:先|再|帮我)?(?:${/运行|执行|测试|尝试|检查|验证|重启|重新启动|重新加载|刷新|启动|打开|关闭|登录|选择|确认|批准|审核|审阅|查看|分享|发送|粘贴|提供|上传|告诉我/.source})`,
  `^${whole(
    /запустите|запусти|выполните|выполни|протестируйте|протестируй|попробуйте|попробуй|проверьте|проверь|перезапустите|перезапусти|перезагрузите|перезагрузи|обновите|обнови|откройте|открой|закройте|закрой|войдите|войди|выберите|выбери|подтвердите|подтверди|одобрите|одобри|просмотрите|просмотри|поделитесь|поделись|отправьте|отправь|пришлите|пришли|вставьте|вставь|предоставьте|предоставь|сообщите|сообщи|скажите|скажи|напишите|напиши|скиньте|скинь|приложите|приложи|загрузите|загрузи|укажите|укажи|добавьте|добавь|дайте знать/,
  )}`,
  `^${whole(
    /ejecuta|ejecute|prueba|pruebe|testea|revisa|revise|comprueba|compruebe|verifica|verifique|reinicia|reinicie|recarga|recargue|actualiza|actualice|refresca|refresque|abre|abra|cierra|cierre|inicia sesión|inicie sesión|selecciona|seleccione|elige|elija|confirma|confirme|aprueba|apruebe|comparte|comparta|envía|envíe|envia|manda|mande|pega|pegue|proporciona|proporcione|pásame|páseme|dime|dígame|indícame|indíqueme|avísame|avíseme|sube|suba|adjunta|adjunte/,
  )}`,
  `^${whole(
    /führe|führen sie|teste|testen sie|probiere|probier|probieren sie|prüfe|prüfen sie|überprüfe|überprüfen sie|starte|starten sie|lade|laden sie|aktualisiere|aktualisieren sie|öffne|öffnen sie|schließe|schließ|schließen sie|melde dich|melden sie sich|wähle|wählen sie|bestätige|bestätigen sie|genehmige|genehmigen sie|teile|teilen sie|sende|senden sie|schicke|schick|schicken sie|füge|füg|fügen sie|gib|geben sie|kopiere|kopieren sie|sag|sage|sagen sie/,
  )}`,
  `^${whole(
    /exécutez|exécute|lancez|lance|relancez|relance|testez|teste|essayez|essaie|essaye|vérifiez|vérifie|redémarrez|redémarre|rechargez|recharge|actualisez|actualise|rafraîchissez|rafraîchis|ouvrez|ouvre|fermez|ferme|connectez-vous|connecte-toi|sélectionnez|sélectionne|choisissez|choisis|confirmez|confirme|approuvez|approuve|validez|relisez|relis|examinez|partagez|partage|envoyez|envoie|collez|colle|fournissez|fournis|transmettez|transmets|dites-moi|dis-moi|indiquez-moi|indique-moi/,
  )}`,
);

/** Under a heading that hands the turn to the person: an imperative verb, whatever follows it. */
const IMPERATIVE_VERB = anyOf(`^(?:${ENGLISH_VERBS.source})${WORD_END}`);

/** A request addressed to the person anywhere in the sentence: please, can you, you need to, by language. */
const POLITE = anyOf(
  whole(
    /please|kindly|can you|could you|would you|will you|you need to|you'll need to|you will need to|you would need to|you'd need to|you have to|you'll have to|you will have to|you must|I need you to|I'll need you to|I will need you to|I'd need you to|I would need you to/,
  ),
  /请|麻烦您|麻烦你|需要您|需要你|得您|得你|您需要|你需要|您得|你得|您必须|你必须|能否|能不能|劳驾/.source,
  /ください|下さい|お願いします|お願いいたします|いただけますか|いただけますでしょうか|もらえますか|必要があります/.source,
  whole(/пожалуйста|можете|не можете|могли бы|не могли бы|сможете|вам нужно|вам надо|вам необходимо|вам следует|вам придётся|тебе нужно|тебе надо|нужно, чтобы вы/),
  whole(/por favor|puedes|podrías|podría|necesito que|tienes que|tendrás que|debes|necesitas|hace falta que/),
  whole(/bitte|kannst du|können sie|könntest du|könnten sie|du musst|sie müssen|ich brauche/),
  whole(
    /merci de|veuillez|s'il vous plaît|s'il vous plait|s’il vous plaît|s’il vous plait|s'il te plaît|s'il te plait|s’il te plaît|s’il te plait|pouvez-vous|pourriez-vous|peux-tu|pourrais-tu|il faut que vous|il faut que tu|vous devez|tu dois|vous devrez|j'ai besoin que vous|j’ai besoin que vous|j'ai besoin que tu|j’ai besoin que tu/,
  ),
);

/**
 * Something the person is asked to give back: output, a log, a screenshot, files into the chat, a choice,
 * a confirmation, an answer. Read in a sentence addressed to the person.
 */
const GIVE_BACK = anyOf(
  `${whole(/share|send|paste|post|provide|upload|attach|forward|drop|copy/)}${within(80)}${whole(/with me|to me|me|here|back|below|into the chat|in the chat|in this chat|into this chat|to the chat|to this chat|in the conversation|in our conversation|in this conversation/)}`,
  `${whole(/share|send|paste|post|provide|upload|attach|give me|show me|copy/)}\\s+(?:me\\s+)?(?:${whole(/the|your|a|any|all|its|their|what/)}\\s+)?(?:[\\w-]+\\s+){0,3}?${whole(
    /output|log|logs|error|errors|result|results|response|screenshot|screenshots|stack trace|stacktrace|traceback|content|contents|details|info|information|credentials|token|answer|feedback|decision|preference|preferences|choice|version|console|says|printed|shows/,
  )}`,
  `${whole(/add|attach|upload/)}${within(60)}${whole(/to the chat|to this chat|to our chat|to the conversation|to this conversation/)}`,
  `${whole(/tell me|let me know|report back|reply with|answer with|ping me|notify me|message me/)},?\\s*${whole(/which|whether|what|how|when|once|as soon as|where|who|the|if/)}`,
  whole(/confirm|approve|decide|specify|clarify|report back/),
  `${whole(/choose|select|pick/)}\\s*${whole(
    /one|which|between|whether|an option|the option|your option|an approach|the approach|your approach|a variant|the variant|an alternative|the alternative|a plan|the plan|a name|the name|a version|the version|your preferred option|your preferred approach|from the options|from these options|from the choices|from these choices/,
  )}`,
  `(?:${/粘贴|贴|分享|发送|发|提供|上传|附上|反馈/.source})(?:给我|到这里|过来|一下)?${within(30)}(?:${/输出|日志|错误|报错|结果|截图|内容|信息/.source})`,
  `(?:把|将)${within(20)}(?:${/输出|日志|错误|报错|结果|截图|内容|信息/.source})${within(10)}(?:${/粘贴|贴|发|分享|提供|告诉|反馈/.source})`,
  /发给我|贴给我|发送给我|粘贴给我|分享给我/.source,
  `(?:告诉我|让我知道)${within(20)}(?:${/哪|是否|什么|结果|输出|如何|怎么样|效果|选择|决定|意见/.source})`,
  `(?:${/确认|批准|选择|决定/.source})${within(20)}(?:是否|哪|用哪)`,
  `(?:${/共有|送信|送っ|貼り付け|貼っ|提供|教え|お知らせ|知らせ|添付|アップロード|返信|回答|選ん|選択|承認|指示|決め/.source})(?:て|し|して)?(?:${/ください|下さい|いただけ|もらえ|お願い/.source})`,
  /ご承認ください|ご指示ください|ご判断ください|ご回答ください|ご返信ください|ご承認をお願い|ご指示をお願い|ご判断をお願い|ご回答をお願い|ご返信をお願い/.source,
  `${whole(
    /поделитесь|поделись|поделиться|отправьте|отправь|отправить|пришлите|пришли|прислать|вставьте|вставь|вставить|предоставьте|предоставь|предоставить|скиньте|скинь|скинуть|приложите|приложи|приложить|загрузите|загрузи|загрузить/,
  )}${within(80)}${WORD_START}(?:${/вывод|лог|ошибк|результат|скриншот|содержим|трассировк|сюда|мне|в чат/.source})`,
  `${whole(/сообщите|сообщи|скажите|скажи|напишите|напиши|дайте знать|дай знать/)}${within(40)}${whole(/ли|какой|какая|какие|какое|какую|что|как|когда|результат/)}`,
  whole(/подтвердите|подтверди|одобрите|одобри|выберите|выбери|укажите|укажи|уточните|уточни|решите|реши/),
  `${whole(
    /comparte|comparta|compartir|envía|envíe|envia|enviar|manda|mande|mandar|pega|pegue|pegar|proporciona|proporcione|proporcionar|pásame|páseme|pasarme|sube|suba|subir|adjunta|adjunte|adjuntar/,
  )}${within(80)}${whole(/salida|resultado|resultados|log|logs|registro|registros|error|errores|captura|capturas|contenido|aquí|conmigo|me|traza/)}`,
  `${whole(/dime|dígame|indícame|indíqueme|avísame|avíseme|hazme saber|hágame saber|cuéntame|cuénteme/)}${within(40)}${whole(/cuál|cuáles|qué|si|cómo|cuándo|el resultado/)}`,
  whole(/confirma|confirme|aprueba|apruebe|elige|elija|decide|decida/),
  `${whole(
    /teile|teilen sie|teilen|sende|senden sie|senden|schicke|schick|schicken sie|schicken|füge|füg|fügen sie|einfügen|gib|geben sie|geben|poste|posten|kopiere|kopieren sie|kopieren/,
  )}${within(80)}${whole(/ausgabe|log|logs|protokoll|fehler|fehlermeldung|fehlermeldungen|ergebnis|ergebnisse|screenshot|screenshots|inhalt|hier|mir|zurück|in den chat|stacktrace/)}`,
  `${whole(/ausgabe|log|logs|protokoll|fehler|fehlermeldung|fehlermeldungen|ergebnis|ergebnisse|screenshot|screenshots|inhalt|hier|mir|stacktrace/)}${within(60)}${whole(/einfügen|schicken|senden|teilen|geben|posten|kopieren|zeigen/)}`,
  `${whole(/sag mir|sage mir|sagen sie mir|teile mir mit|teilen sie mir mit|gib mir bescheid|geben sie mir bescheid|lass mich wissen|lassen sie mich wissen/)}${within(40)}${whole(/ob|welche|welcher|welches|welchen|welchem|was|wie|wann|sobald/)}`,
  whole(/bestätige|bestätigen sie|genehmige|genehmigen sie|entscheide|entscheiden sie/),
  `${whole(
    /partagez|partage|partager|envoyez|envoie|envoyer|collez|colle|coller|fournissez|fournis|fournir|transmettez|transmets|transmettre|copiez|copie|copier|envoyez-moi|envoie-moi|transmettez-moi|partagez-moi|collez-moi/,
  )}${within(80)}${whole(/sortie|résultat|résultats|journal|journaux|log|logs|erreur|erreurs|capture|captures|contenu|ici|moi|dans le chat|trace/)}`,
  `${whole(/dites-moi|dis-moi|indiquez-moi|indique-moi|faites-moi savoir|fais-moi savoir|tenez-moi au courant/)}${within(40)}${whole(/quel|quelle|quels|quelles|si|ce que|comment|quand|lequel|laquelle|dès que/)}`,
  whole(/confirmez|confirme|approuvez|approuve|validez|décidez|décide|choisissez|choisis/),
);

/** Run or test it, then tell me (`Refresh and let me know.`): the outcome is what is asked for. */
const REPORT_BACK = anyOf(
  `^${whole(/run|rerun|re-run|execute|test|reproduce|retry|restart|reload|refresh|launch|relaunch|install|verify/)}${within(120)}${whole(/and|then/)},?\\s+${whole(/let me know|tell me/)}[\\s.!]*$`,
);

/** The person has to do it because the agent cannot (`You'll need to run it yourself`, `on your machine`). */
const YOURSELF = anyOf(
  whole(/yourself|on your side|on your end|on your machine|from your machine|from your terminal|in your terminal|selbst|bei dir|bei ihnen|vous-même|toi-même|de votre côté|tú mismo|usted mismo|en tu máquina|сами|сам|самостоятельно/),
  /自己|您那边|你那边|在您的|在你的|ご自身/.source,
);

/**
 * Reload what runs and look at the change (`Refresh the page to see it`, `Restart the app and check the
 * header`): the person is asked to look now, and the agent waits for what they see.
 */
const LOOK_AT_CHANGE = anyOf(
  `^${whole(/refresh|hard-refresh|reload|restart|relaunch|reopen/)}\\s+(?:${whole(/the|your|this|that/)}\\s+)?(?:[\\w-]+\\s+)?${whole(
    /page|pages|app|application|browser|tab|window|site|preview|server|extension|editor|simulator|emulator|ui|it|pi|vs code|vscode/,
  )}${within(40)}${whole(/to see|and see|to check|and check|to verify|and verify|to confirm|and confirm/)}`,
  `^(?:${/刷新|重新加载|重启|重新启动/.source})${within(20)}(?:${/查看|看看|看一下|确认|检查/.source})`,
  `^${whole(/recarga|recargue|refresca|refresque|actualiza|actualice|reinicia|reinicie/)}${within(60)}${whole(/para ver|y verás|para comprobar|y comprueba|y compruebe/)}`,
  `^${whole(/lade|laden sie|starte|starten sie|aktualisiere|aktualisieren sie/)}${within(60)}${whole(/um|und/)}${within(40)}${whole(/sehen|prüfen|überprüfen/)}`,
  `^${whole(/rechargez|recharge|actualisez|actualise|rafraîchissez|rafraîchis|redémarrez|redémarre/)}${within(60)}${whole(/pour voir|et voyez|pour vérifier|et vérifiez|et vérifie/)}`,
);

/** The agent's next step hangs on the person's act: `so I can`, `to proceed`, `before I`, `then I'll`. */
const CONTINUES = anyOf(
  `${whole(/I can't|I cannot|I can not|I'm unable to|I am unable to|I won't be able to/)}${within(40)}${whole(/until|without|unless/)}`,
  whole(
    /so I can|so I could|so I may|so we can|so we could|so that I can|so that I could|so that we can|to proceed|to continue|to resume|to go on|to move on|to unblock|to let me continue|to let me proceed|to let me finish|to let me go on|before I|before we|until I|until we|and I'll|and I will|and I can|and I could|and we'll|and we can|then I'll|then I will|then I can|then I could|then we'll|then we can|after that I'll|after that I can|afterwards I'll|once done, I'll|once done, I can|once that's done, I'll|once that's done, I can|once it's done, I'll|once you're done, I'll|once you're done, I can|I'll wait|I will wait|I'll hold off|I'll pause|I'll be waiting|I'll stand by|I'm waiting|I am waiting|I'm blocked|I am blocked|I can't continue|I cannot continue|I can't proceed|I cannot proceed|I can't go on|I cannot go on|I can't finish|I cannot finish/,
  ),
  /以便我|好让我|这样我就可以|这样我可以|这样我能|这样我才能|然后我|之后我|我再继续|我才能继续|我就可以继续|我就能继续|我再部署|我才能部署|我再修复|我再处理|我会继续|我将继续|再继续|才能继续/.source,
  `(?:${/そうすれば|そうしたら|その後|それから|完了したら|終わったら|いただければ|次第/.source})${within(20)}(?:${/続行|続け|進め|再開|対応|修正|デプロイ/.source})`,
  /続行できます|続行します|再開します|作業を続けます|先に進めます|次に進めます|続行することができます|先に進められます/.source,
  whole(
    /чтобы я мог|чтобы я могла|чтобы я смог|чтобы я смогла|и я продолжу|и я смогу|и я исправлю|и я займусь|после этого я|тогда я смогу|тогда я продолжу|затем я|прежде чем я|перед тем как я|чтобы продолжить|для продолжения/,
  ),
  whole(
    /para que pueda|para que yo pueda|así podré|así puedo|así podremos|y continuaré|y seguiré|y podré|y luego continuaré|y luego seguiré|y luego podré|y después continuaré|antes de continuar|antes de seguir|antes de que continúe|antes de que siga|para continuar|para seguir|para proceder|luego continuaré|luego seguiré|luego podré/,
  ),
  whole(/damit ich|dann kann ich|danach kann ich|danach mache ich|danach fahre ich|bevor ich|und ich mache weiter|und ich fahre fort|und ich kann|um fortzufahren|um weiterzumachen|dann mache ich weiter/),
  whole(
    /pour que je puisse|afin que je puisse|et je pourrai|et je continuerai|et je poursuivrai|et je corrigerai|ensuite je|puis je|avant que je|pour continuer|pour poursuivre|je pourrai ensuite|je continuerai/,
  ),
);

/** The reply says it waits for the person's approval, decision or input; no address needed. */
const AWAITS = anyOf(
  `${whole(/await|awaits|awaiting|wait for|waits for|waiting for|wait on|waiting on|pending|need|needs|needed|I'll need|I will need|depends on|depend on|depending on|hinges on/)}\\s+${whole(/your|you to/)}${within(30)}${whole(
    /approval|go-ahead|go ahead|green light|confirmation|confirm|decision|decide|input|feedback|answer|answers|reply|response|review|sign-off|signoff|ok|okay|permission|choice|choose|instructions|instruction|direction|call|consent|authorization|authorisation|verdict|thoughts|preference|preferences|approve|say-so/,
  )}`,
  whole(
    /once you confirm|once you approve|once you decide|once you choose|once you pick|once you reply|once you answer|once you agree|once you sign off|once you've confirmed|once you've approved|once you've decided|once you've chosen|once you've picked|once you've replied|once you've answered|once you've agreed|once you have confirmed|once you have approved|once you have decided|once you give the go-ahead|once you give me the go-ahead|once you say so|once you say go|once you say yes/,
  ),
  whole(
    /after your approval|after your go-ahead|after your confirmation|after your ok|after your decision|after your answer|upon your approval|upon your confirmation|with your approval|with your go-ahead|with your permission|with your ok|pending your approval|pending your review|pending your confirmation|pending your decision/,
  ),
  whole(/let me know once|let me know as soon as|let me know when you've|let me know when you have|let me know when it|let me know when the/),
  `${whole(/I've paused|I have paused|I'm pausing|I am pausing|I'll pause|paused here|stopping here|I'll wait|I will wait|I'm waiting|I am waiting|I'll hold off|I'm holding off|I'll stand by|standing by|on hold|blocked/)}${within(60)}${whole(/until you|till you|for you to/)}`,
  `${whole(/when you|whenever you|as soon as you|after you/)}(?:'ve| have)?\\s+${whole(/approve|approved|confirm|confirmed|sign off|signed off|give the go-ahead|give me the go-ahead|given the go-ahead|say so|say go|say yes|agree|agreed/)}`,
  `${whole(/let me know|tell me/)}\\s+${whole(/your decision|your choice|your preference|your preferences|your answer|your pick|your call|your vote|your go-ahead/)}`,
  `${whole(/until you|till you|until you've|until you have/)}\\s+${whole(/give the word|give me the word|give the go-ahead|give me the go-ahead|confirm|approve|decide|reply|answer|say so|say go|tell me|let me know|are ready|'re ready/)}`,
  `${whole(/I need|I'll need|I will need|I'd need/)}${within(60)}${whole(/from you/)}`,
  `${whole(/I need your|I'll need your|I will need your|I'm blocked|I am blocked|I'm stuck until|I am stuck until/)}`,
  `^(?:${/blocked|waiting on you|waiting for you|input needed|needs your input|decision needed|action needed|action required/.source})\\s*[:：]`,
  `^(?:${/your call|up to you|it's up to you|it's your call|that's your call|your choice|the choice is yours|you decide|you tell me|your pick/.source})[\\s.!]*$`,
  /等待您的|等待你的|等候您的|等您的|等你的|待您确认|待你确认|待您批准|待你批准|待您审核|待您决定|您确认后|你确认后|您批准后|你批准后|您同意后|你同意后/.source,
  `(?:${/承認|確認|返答|回答|判断|決定|指示|許可|承諾|返信|フィードバック/.source})をお?待(?:ち|っ)`,
  /承認待ち|指示待ち|判断待ち/.source,
  `${whole(/жду|ожидаю|в ожидании|жду от вас/)}\\s+${whole(/вашего|твоего|вашей|твоей|ваших|твоих|ваш|твой/)}\\s+${WORD_START}(?:${/подтвержден|одобрен|решени|ответ|отзыв|согласи|указани|выбор|разрешени/.source})`,
  whole(/после вашего подтверждения|после вашего одобрения|после вашего согласия|после твоего подтверждения|как только вы подтвердите|как только ты подтвердишь|как только вы одобрите/),
  `${whole(/espero|quedo a la espera de|en espera de|pendiente de|a la espera de|necesito/)}\\s+${whole(/tu|su|vuestra/)}\\s+${whole(
    /aprobación|confirmación|decisión|respuesta|visto bueno|autorización|opinión|elección|luz verde|permiso/,
  )}`,
  whole(/una vez que confirmes|una vez que apruebes|una vez que me confirmes|una vez que lo apruebes|una vez que decidas|tras tu aprobación|tras su aprobación|después de tu aprobación|con tu aprobación|con tu visto bueno/),
  `${whole(/warte auf|ich warte auf|wartend auf/)}\\s+${whole(/deine|ihre|eure|dein|ihr/)}\\s+${whole(
    /bestätigung|freigabe|entscheidung|antwort|zustimmung|rückmeldung|genehmigung|auswahl|eingabe|ok|okay/,
  )}`,
  whole(
    /sobald du bestätigst|sobald du zustimmst|sobald du freigibst|sobald sie bestätigen|sobald sie zustimmen|sobald sie freigeben|nach deiner freigabe|nach ihrer freigabe|nach deiner bestätigung|nach ihrer bestätigung|brauche deine bestätigung|brauche ihre bestätigung|brauche deine freigabe|brauche ihre freigabe|brauche deine entscheidung|brauche ihre entscheidung/,
  ),
  `${whole(/j'attends|j’attends|en attente de|dans l'attente de|dans l’attente de|j'ai besoin de|j’ai besoin de/)}\\s+${whole(/votre|ta|vos|tes/)}\\s+${whole(
    /validation|confirmation|approbation|décision|réponse|accord|feu vert|retour|choix|avis|autorisation|instructions/,
  )}`,
  whole(/une fois que vous aurez validé|une fois que vous aurez confirmé|une fois que vous aurez approuvé|une fois que tu auras validé|une fois que tu auras confirmé|dès votre validation|dès votre confirmation|dès votre réponse|après votre validation|après votre confirmation|après ta validation/),
);

/** A request to test what was built (`Launch it and test!`, `Please test the login flow.`), the whole sentence. */
const TEST_REQUEST = anyOf(
  `^(?:${whole(/please|now|so|just|go ahead and|ok|okay/)},?\\s+)*(?:${whole(/launch|open|start|run|reload|refresh|restart|rebuild|relaunch|fire up|spin up/)}${within(60)}\\s+and\\s+)?(?:please\\s+)?test(?:\\s+(?:${
    /it|this|that|them|things|everything/.source
  }|the(?:\\s+[\\w-]+){0,2}?\\s+(?:${/changes|change|fix|fixes|app|application|page|site|feature|flow|build|update|ui|login|form|endpoint|button|screen|version/.source})))?(?:\\s+(?:${
    /out|now|again|manually|yourself|locally|please|in the browser|in your browser/.source
  }))*$`,
  `^(?:请|麻烦)?(?:您|你)?(?:(?:${/启动|运行|刷新|打开|重启/.source})${within(20)}(?:并|然后|后))?测试一下吧?$`,
  /^请测试|^请您测试|^请你测试|^请测一下|^请您测一下/.source,
  /テストしてください$|テストして下さい$|テストしてみてください$|テストしてみて下さい$/.source,
  `^${whole(/протестируйте|протестируй/)}(?:\\s+${whole(/это|его|её|их|изменения|приложение|страницу/)})?(?:,?\\s+пожалуйста)?$`,
  `^(?:bitte\\s+)?${whole(/teste|testen sie/)}(?:\\s+bitte)?(?:\\s+(?:${whole(/es|das|sie/)}|${whole(/die|den|das/)}(?:\\s+[\\p{L}-]+)?\\s+${whole(
    /änderung|änderungen|app|anwendung|seite|anmeldung|funktion|oberfläche|version|korrektur|formular|schaltfläche|login/,
  )}))?(?:\\s+${whole(/bitte|jetzt|mal/)})*$`,
  /^bitte testen$/.source,
  `^${whole(/merci de tester|veuillez tester|testez|testez-le|testez-la|testez-les|teste|teste-le|teste-la|teste-les/)}(?:\\s+${whole(/maintenant|s'il vous plaît|s’il vous plaît|s'il te plaît|s’il te plaît/)})?$`,
);

/** Verbs of steps only the person takes, for the steps under a `Next steps` heading (which may be the agent's own). */
const PERSON_STEP = anyOf(
  `^${whole(
    /restart|reload|refresh|relaunch|re-launch|launch|open|close|quit|log in|login|sign in|select|choose|pick|confirm|approve|share|send|paste|provide|upload|attach|type|enter|click|visit|grant|reply|answer|tell me|let me know|перезапустите|перезагрузите|откройте|закройте|войдите|выберите|подтвердите|одобрите|поделитесь|пришлите|отправьте|вставьте|предоставьте|reinicia|reinicie|recarga|abre|abra|cierra|inicia sesión|elige|elija|confirma|confirme|aprueba|comparte|envía|pega|proporciona|starte|öffne|schließe|melde dich|wähle|bestätige|teile|sende|schicke|gib|redémarrez|rechargez|ouvrez|fermez|connectez-vous|choisissez|confirmez|approuvez|partagez|envoyez|collez|fournissez/,
  )}`,
  `^(?:${/重启|刷新|打开|关闭|登录|选择|确认|批准|分享|发送|粘贴|提供|上传/.source})`,
);
/** A slash command in code (`/clear`, `/continue`): typed into the chat by the person, never run by the agent. */
const SLASH_COMMAND = /`\/[a-z][\w-]*`/u;

/**
 * A condition or an offer in the sentence: the request is a sign-off (`If you hit errors, paste the log`,
 * `Paste your file if you want and I'll convert it`, `Let me know if you need anything else`).
 */
const OFFER = anyOf(
  whole(
    /if you want|if you'd want|if you like|if you'd like|if you would like|if you prefer|if you'd prefer|if you wish|if you need|if you have|if you run into|if you encounter|if you see|if you hit|if you get|if you notice|if you spot|if you find|if you are interested|if you still|if needed|if necessary|if desired|if anything|if something|if any|if there is|if there are|if it fails|if it still fails|if it breaks|if it still breaks|if it doesn't|if it does not|if that doesn't|if errors|if error|if problems|if problem|if issues|if issue|if so|in case|should anything|should something|should it|should you|when you need|whenever you need|when you want|whenever you want|when you like|whenever you like|any time|anytime|at your convenience|when you have time|whenever you have time|when you get a chance|feel free|what you think|how it goes|how it went|how that goes|how this goes|how it feels|how it works for you|how that works for you/,
  ),
  /如有|如需|有问题|有任何问题|有其他问题|有疑问|有任何疑问|有需要|有任何需要|需要的话|随时|如果你需要|如果您需要|如果你想|如果您想|如果你愿意|如果您愿意|如果你希望|如果您希望/.source,
  /お気軽に|いつでも|よろしければ|必要であれば|ご希望であれば/.source,
  whole(/при необходимости|если понадобится|если нужно|если захотите|если хотите|если будут вопросы|не стесняйтесь/),
  whole(/si necesitas|si quieres|si tienes|si deseas|si te parece|si lo deseas|si hay|si algo|en caso|no dudes/),
  whole(/bei bedarf|gerne|falls gewünscht|wenn du willst|wenn du möchtest|wenn du magst|wenn sie wollen|wenn sie möchten|falls du willst|falls du möchtest|falls sie wollen|falls sie möchten/),
  whole(/si vous avez|si tu as|si vous voulez|si tu veux|si vous souhaitez|si tu souhaites|si vous aimeriez|si vous rencontrez|si tu rencontres|si besoin|au besoin|en cas|n'hésitez|n’hésitez/),
);
/** A negation: `no need for your input`, `without your approval` — nothing is awaited. */
const NEGATED = anyOf(
  whole(/no|not|never|without|nothing|don't|doesn't|didn't|won't|isn't|aren't|can't/),
  /不需要|无需|不用|必要ありません/.source,
  whole(/не нужно|без вашего|без твоего|sin tu|sin su|ohne deine|ohne ihre|sans votre|sans ta/),
);

/** A question that speaks to the person without a pronoun: `Ready to proceed?`, `Want to test more?`, `Sounds good?` */
const ASKS_OPENER = anyOf(
  `^${whole(
    /ready|ok|okay|good to go|happy|want|proceed|continue|go ahead|sound good|sounds good|sound ok|sounds ok|sounds okay|sounds right|look good|looks good|looks ok|looks okay|looks right|any thoughts|any preferences|any objections|any feedback|any questions|any concerns|any other|anything else|agree|agreed|approve|approved|alright/,
  )}`,
);
/** A question opened by a question word: it speaks to the person only when it names them (`What do you think?`). */
const WH_OPENER = anyOf(
  `^${whole(
    /why|how|what|where|when|who|which|почему|зачем|как|что|где|когда|кто|какой|por qué|cómo|qué|dónde|cuándo|quién|cuál|warum|wieso|weshalb|wie|was|wo|wann|wer|welche|pourquoi|comment|que|qu'|qu’|où|quand|qui|quel/,
  )}`,
  `^(?:${/为什么|为何|怎么|如何|什么|哪|なぜ|どうして|何/.source})`,
);
/** A question word with the agent asking what it should do (`Which database should I use?`): the person decides. */
const AGENT_ASKS = anyOf(
  whole(/should I|shall I|should we|shall we|do I|do we|must I|soll ich|sollen wir|dois-je|devons-nous|debo|debería|deberíamos|должен ли я|мне стоит/),
);
const SECOND_PERSON = anyOf(
  whole(/you|your|yours|вы|вам|вас|ваш|ваша|ваше|ваши|вашего|ты|тебе|тебя|твой|твоя|твоё|твои|usted|tú|te|ti|tu|prefieres|quieres|du|dich|dir|dein|deine|sie|ihnen|vous|toi|votre|ton|ta/),
  /你|您|あなた/.source,
);
/** A question in its word order, with its mark left out (`Do you want me to deploy it`, `Should I also update the docs`). */
const QUESTION_ORDER = anyOf(
  `^${whole(/do you want|do you prefer|would you like|would you prefer|want me to|shall I|should I|shall we|should we|may I|can I go ahead|is it ok if I|is it okay if I/)}`,
);
/** A question that sets up what follows rather than asking (`What if you need JSON? Pass --json.`). */
const HYPOTHETICAL = anyOf(`^${whole(/what if|what about|did you know|ever wondered|wondering|curious|want to know|do you want to know|want to learn|want more details|need more details|interested/)}`);
/** The sentence after a question answers it: the agent decided itself (`Should I go on? I will.`). */
const ANSWERED = anyOf(
  `^${whole(
    /yes|yeah|yep|yup|no|nope|nah|sure|of course|absolutely|definitely|certainly|indeed|not really|not yet|not quite|not at all|i will|i would|i won't|i did|i didn't|i went|i chose|i picked|i opted|i settled|i used|i've gone|i have gone|i've chosen|i have chosen|i've picked|i've used|we went|we chose|i do|i don't|i can|i can't|i think|i believe|i guess|i doubt|i go|i continue|i proceed|i start|i keep|i'll|i'd|i'm going|i am going|let's|we will|we won't|we did|we can|we do|we'll|because|since|turns out|answer|the answer|short answer|proceeding|continuing|going ahead|moving on|да|нет|конечно|потому что|я продолжу|я сделаю|я начну|я думаю|давайте|sí|claro|por supuesto|porque|voy a|sigo|continúo|procedo|ja|nein|natürlich|klar|weil|ich werde|ich mache|oui|non|bien sûr|parce que|je vais|je continue|je commence/,
  )}`,
  `^let me${WORD_END}(?! know)`,
  `^[a-z]+ing now${WORD_END}`,
  `^(?:${/是的|是|对|不是|不|没有|会的|好的|当然|因为|我会|我将|让我|我们会|接下来我|はい|いいえ|もちろん|なぜなら|続けます|進めます/.source})`,
);

/** One sentence of the closing prose: its masked text (patterns), its own text (what is shown), where it stands. */
interface Sentence {
  readonly masked: string;
  readonly text: string;
  /** Whether it ends in a question mark. */
  readonly question: boolean;
  /** Whether its line is a list item. */
  readonly listed: boolean;
  /** The index of its line among the items. */
  readonly line: number;
  /** 2 under a heading that hands the turn to the person, 1 under a `Next steps` heading, else 0. */
  readonly turn: number;
}

/** Words or code before a quotation: it quotes someone. */
const WORDS_BEFORE = new RegExp(`[\\p{L}\\p{N}${FILL}]`, "u");

/** The line with code spans, URLs and quotations that open after other words hidden, one FILL per character. */
function masked(line: string): string {
  const hidden = line
    .replace(CODE_SPAN, (code) => FILL.repeat(code.length))
    .replace(URL, (url) => {
      const punctuation = URL_PUNCTUATION.exec(url)?.[0] ?? "";
      return FILL.repeat(url.length - punctuation.length) + punctuation;
    });
  // A quotation that opens the line is the agent's own words in quotes; one after other text quotes someone.
  return hidden.replace(QUOTATION, (quote: string, offset: number) => (WORDS_BEFORE.test(hidden.slice(0, offset)) ? FILL.repeat(quote.length) : quote));
}

/** The text of a heading line with emoji, emphasis and end punctuation gone; undefined when the line is none. */
function headingText(line: string): string | undefined {
  const heading = HEADING.exec(line);
  if (heading === null) {
    const colon = COLON_HEADING.exec(undecorated(line));
    return colon === null ? undefined : bareHeading(colon[1] ?? "");
  }
  const [, hashes, emphasis, equals] = heading;
  // A line of emphasis that ends in a question mark is a question set in bold, not a heading.
  if (emphasis !== undefined) return /[?？؟]\s*$/u.test(emphasis) ? undefined : bareHeading(emphasis);
  return bareHeading(hashes ?? equals ?? "");
}

function bareHeading(text: string): string {
  return undecorated(text).replace(TRAILING, "").replace(/[\s:：.!！]+$/u, "").trim();
}

/**
 * Whether a line holds no sentence to read: a `#` or `===` heading, or a line of emphasis or a colon line
 * that names a turn (`Next steps:`); one that says something (`**Please confirm**`, `I need two things from
 * you:`) is prose.
 */
function skipped(line: string): boolean {
  const heading = LABEL.exec(line) === null ? headingText(line) : undefined;
  return heading !== undefined && (MARKDOWN_HEADING.test(line) || turnOf(heading) > 0);
}

/** How a heading hands the turn: 2 to the person, 1 to whoever takes the next steps, 0 not at all. */
function turnOf(heading: string): number {
  if (TURN_HEADING.test(heading)) return 2;
  return NEXT_HEADING.test(heading) ? 1 : 0;
}

/** The sentences of a line, in order; `turn` as the heading above the line says. */
function sentencesOf(line: string, index: number, turn: number): Sentence[] {
  const label = LABEL.exec(line);
  const labelTurn = label === null ? 0 : turnOf(bareHeading(label[1] ?? ""));
  const body = label === null ? line : (label[2] ?? "");
  const own = undecorated(body);
  const hidden = masked(own);
  const listed = LIST_ITEM.test(line);
  const out: Sentence[] = [];
  const stops = [...hidden.matchAll(SENTENCE_END)].map((match) => match.index + match[0].length);
  let start = 0;
  for (const stop of [...stops, hidden.length]) {
    const piece = hidden.slice(start, stop);
    if (/[\p{L}\p{N}]/u.test(piece)) {
      const text = undecorated(own.slice(start, stop)).replace(TRAILING, "");
      const mask = undecorated(piece).replace(TRAILING, "");
      out.push({ masked: mask, text, question: /[?？؟]$/u.test(mask), listed, line: index, turn: Math.max(turn, labelTurn) });
    }
    start = stop;
  }
  return out;
}

/** Whether a question that more text follows speaks to the person, and the sentence after it does not answer it. */
function asksPerson(sentence: Sentence, next: Sentence | undefined): boolean {
  const text = sentence.masked;
  if (RHETORICAL.test(text)) return false;
  if (next !== undefined) {
    // Answered by the agent, a list item that answers its own question (`- Can I …? It runs …`), or a hypothetical.
    if (ANSWERED.test(next.masked.replace(/^[(（][^()（）]{0,80}[)）]\s*/u, ""))) return false;
    if (sentence.listed && next.line === sentence.line && !next.question) return false;
    if (HYPOTHETICAL.test(text)) return false;
  }
  if (WH_OPENER.test(text)) return SECOND_PERSON.test(text) || AGENT_ASKS.test(text);
  return ADDRESSES.test(text) || ASKS_OPENER.test(text) || POLITE.test(text);
}

/** Whether a sentence asks the person to act, to give something back, or says it waits for them. */
function requestsAct(sentence: Sentence, next: Sentence | undefined): boolean {
  const text = sentence.masked;
  // An explicit request (0.3) is a sign-off only under a condition that opens the sentence; the looser forms
  // below are under an offer or a condition anywhere in it.
  if (CONDITION.test(text)) return false;
  if (REQUEST.test(text)) return true;
  if (OFFER.test(text)) return false;
  if (AWAITS.test(text)) return !NEGATED.test(text);
  const verb = text.replace(LEAD_IN, "");
  const imperative = IMPERATIVE.test(verb);
  if (sentence.turn === 2 && (imperative || IMPERATIVE_VERB.test(verb))) return true;
  if (sentence.turn === 1 && (PERSON_STEP.test(verb) || (imperative && SLASH_COMMAND.test(sentence.text)))) return true;
  if (!sentence.listed && LOOK_AT_CHANGE.test(verb)) return true;
  if (imperative || POLITE.test(text)) {
    if (GIVE_BACK.test(text) || CONTINUES.test(text) || REPORT_BACK.test(verb) || YOURSELF.test(text)) return true;
    if (next !== undefined && CONTINUES.test(next.masked) && !OFFER.test(next.masked)) return true;
  }
  return !sentence.listed && TEST_REQUEST.test(text.replace(/[.!！。]+$/u, ""));
}

/** Whether the sentence asks (a question to the person) or requests; `after` follows a question, `next` a request. */
function asks(sentence: Sentence, after: Sentence | undefined, next: Sentence | undefined): boolean {
  if (sentence.question || (QUESTION_ORDER.test(sentence.masked) && !sentence.masked.endsWith(":"))) return asksPerson(sentence, after);
  return requestsAct(sentence, next);
}

/**
 * The sentences of lines [from, to] of the items, code blocks and headings skipped; `turnFrom` starts the
 * lines under a turn heading. Read from the end, at most PROSE_CHARS characters, each line by its last
 * LINE_CHARS: the work per reply is bounded whatever its lines hold.
 */
function proseOf(items: readonly Item[], from: number, to: number, turnFrom: number, turn: number): Sentence[] {
  const lines: Sentence[][] = [];
  let budget = PROSE_CHARS;
  for (let index = to; index >= from && budget > 0; index -= 1) {
    const whole = lineAt(items, index);
    if (whole === undefined || skipped(whole)) continue;
    const line = whole.slice(-Math.min(LINE_CHARS, budget));
    budget -= line.length;
    lines.push(sentencesOf(line, index, index >= turnFrom ? turn : 0));
  }
  return lines.reverse().flat();
}

/** The first line of the paragraph that ends at `end`, at most `max` lines up. */
function paragraphStart(items: readonly Item[], end: number, max: number): number {
  let start = end;
  while (end - start < max - 1) {
    const item = items[start];
    if (item?.kind !== "line" || item.para || items[start - 1]?.kind !== "line") break;
    start -= 1;
  }
  return start;
}

/**
 * What the closing prose asks (SPEC §4.8, 0.4): the last paragraph — with the line that leads into it when
 * it is a list under a line ending in `:` — or the lines under a closing heading that hands the turn to the
 * person; else a question in the paragraph before it, when one paragraph of explanation follows.
 */
function closingAsks(items: readonly Item[], last: number): string | undefined {
  let start = paragraphStart(items, last, MAX_PROSE);
  const lead = lineAt(items, start - 1);
  if (lead !== undefined && LIST_ITEM.test(lineAt(items, start) ?? "") && /[:：]\W*$/u.test(lead)) {
    start = paragraphStart(items, start - 1, MAX_PROSE);
  }
  // A heading within the closing lines: the section under it is the closing prose.
  let turnFrom = last + 1;
  let turn = 0;
  for (let index = last; index >= 0 && last - index < MAX_PROSE; index -= 1) {
    const line = lineAt(items, index);
    if (line === undefined) continue;
    const heading = LABEL.exec(line) === null ? headingText(line) : undefined;
    if (heading === undefined) continue;
    turn = turnOf(heading);
    if (turn > 0) {
      turnFrom = index + 1;
      start = Math.min(start, index + 1);
    }
    break;
  }
  const closing = proseOf(items, start, last, turnFrom, turn);
  const asking = closing.findLast((sentence, index) => asks(sentence, closing[index + 1], closing[index + 1]));
  return asking?.text ?? askedBefore(items, start, last, closing[0]);
}

/**
 * A question or request in the paragraph before the closing one, when the closing one (at most MAX_AFTER
 * lines, no heading) explains it and does not answer it.
 */
function askedBefore(items: readonly Item[], start: number, last: number, first: Sentence | undefined): string | undefined {
  const opening = lineAt(items, start);
  if (first === undefined || ANSWERED.test(first.masked) || last - start >= MAX_AFTER || opening === undefined || headingText(opening) !== undefined) return undefined;
  let end = start - 1;
  while (items[end]?.kind === "code") end -= 1;
  const before = proseOf(items, paragraphStart(items, end, MAX_BEFORE), end, end + 1, 0);
  const asking = before.findLast((sentence, index) => asks(sentence, before[index + 1] ?? first, before[index + 1]));
  return asking?.text ?? asOptions(items, end);
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
