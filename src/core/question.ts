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
 * instructions for later use (`Run npm start to see it`, 0.5: `Refresh the page to see it`) ask nothing.
 *
 * 0.5, one table of forms per language (`question-forms.ts`: English, Chinese, Japanese, Korean, Russian,
 * Spanish, Portuguese, German, French, Italian, Turkish, Czech): every pattern above is the union of one
 * column of the table, and each language has the same forms — a question to the person (with a polite ending
 * in place of its mark: `…でしょうか。`), a request to act (an act then a check: `Restart the server and
 * check`, `Log in and try again`), waiting for their input (`Waiting for your files`), a hand-over under a
 * condition (`hand-over`: `Once you send the files, I'll …`, `Tell me when you have the token and I'll
 * retry`), options under a line that asks (`・` and `①` bullets too). A sentence reads the rows of its
 * scripts; Latin rows other than English only when the reply holds one of their common words or letters.
 * Patterns are compiled once per set of rows and matched on lower-cased text (no backtracking beyond a
 * sentence). `handsOver()` (§4.23) reads the same table for a reply that asks the person to test the
 * result or says it could not run or test it.
 * Linear in the reply's length: one pass over the lines; every pattern runs on a bounded tail.
 */
import { INVISIBLE_CLASS, withoutEscapes } from "./sanitize.ts";
import { FORMS, type Forms, LATIN, scriptsOf, whole, within } from "./question-forms.ts";

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
const LEADING = new RegExp(`^\\s*(?:(?:>|[-*+•]|\\d{1,9}[.)]|#{1,6})(?:\\s+|$)|(?:[・①-⑳]|\\d{1,9}[、．）])\\s*|[*_~${EMOJI}]+)`, "u");
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
const LIST_ITEM = /^\s*(?:(?:[-*+•]|\d{1,9}[.)]|[A-Za-z][)]|[(（][A-Za-z0-9][)）])\s+|(?:[・①-⑳]|\d{1,9}[、．）])\s*)\S/u;
/** A line of emoji and emphasis markers only (`🚀`, `**`, `✨ __ ✨`): it says nothing. */
const DECORATION_LINE = new RegExp(`^(?=.*[${EMOJI}]|(?:\\*\\*|__)+$)[\\s*_~${EMOJI}]+$`, "u");

// ---------------------------------------------------------------------------------------------
// The forms, read from the table of languages (question-forms.ts).

/** A column of the table. */
type Column = Exclude<keyof Forms, "language" | "scripts">;

/** The text the forms read last, its scripts and its lower case: one scan per text, however many forms read it. */
let lastText = "";
let lastScripts = 0;
let lastLower = "";
/** The scripts and lower case of the texts read lately (a sentence, its verb, the next sentence): a few dozen at most. */
const TEXTS = new Map<string, readonly [number, string]>();

function readText(text: string): void {
  if (text === lastText) return;
  let known = TEXTS.get(text);
  if (known === undefined) {
    if (TEXTS.size >= 32) TEXTS.clear();
    known = [scriptsOf(text), text.toLowerCase()];
    TEXTS.set(text, known);
  }
  lastText = text;
  [lastScripts, lastLower] = known;
}

/** The rows (bits by index in FORMS) read for a set of scripts, per set. */
const ROWS_BY_SCRIPTS = Array.from({ length: 32 }, (_, scripts) =>
  FORMS.reduce((rows, row, index) => ((row.scripts & scripts) !== 0 ? rows | (1 << index) : rows), 0),
);

function rowsOf(scripts: number): number {
  return ROWS_BY_SCRIPTS[scripts & 31] ?? 0;
}

/** Every row. */
const ALL_ROWS = (1 << FORMS.length) - 1;
/** Rows read only for a reply that holds one of their marks (English, the first row, is always read). */
const MARKED_ROWS = FORMS.reduce((rows, row, index) => (row.marks === undefined || index === 0 ? rows : rows | (1 << index)), 0);
/** Characters of the reply's end that its language is told by. */
const MARKS_CHARS = 1500;
/** The items of the reply being read, and the rows it needs (-1 until a form needs them): languagesOf() tells. */
let readItemsOf: readonly Item[] = [];
let readRows = ALL_ROWS;

/** Starts the reading of a reply: which of the marked rows it needs is told when a form first asks. */
function startReading(items: readonly Item[]): void {
  readItemsOf = items;
  readRows = -1;
}

/** The rows the reply being read needs, from the words of its end (at most MARKS_CHARS characters). */
function languagesOf(): number {
  if (readRows !== -1) return readRows;
  let tail = "";
  for (let index = readItemsOf.length - 1; index >= 0 && tail.length < MARKS_CHARS; index -= 1) {
    const item = readItemsOf[index];
    if (item?.kind === "line") tail = `${item.text}\n${tail}`;
  }
  const lower = tail.slice(-MARKS_CHARS).toLowerCase();
  // A reply in another script than Latin is told by its script; English, the first row, is always read.
  let marked = 0;
  let found = (scriptsOf(lower) & ~LATIN) !== 0;
  for (const word of lower.split(NOT_WORD)) {
    const rows = MARK_WORDS.get(word);
    if (rows !== undefined) {
      marked |= rows;
      found = true;
    }
  }
  for (let index = 0; index < lower.length; index += 1) {
    if (lower.charCodeAt(index) < 0xc0) continue;
    const rows = MARK_LETTERS.get(lower[index] ?? "");
    if (rows !== undefined) marked |= rows;
  }
  readRows = found || marked !== 0 ? (ALL_ROWS & ~MARKED_ROWS) | (marked & MARKED_ROWS) : ALL_ROWS;
  return readRows;
}

/**
 * A pattern's source in lower case, escapes (`\S`, `\p{L}`, `\u{E002}`) kept as they are: matched without the
 * `i` flag on lower-cased text, it finds what the source finds in any case, and V8 can look ahead for its first
 * characters (with `iu` and a lookbehind first it tries every alternative at every position).
 */
function lowerSource(source: string): string {
  let out = "";
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index] ?? "";
    if (char !== "\\") {
      out += char.toLowerCase();
      continue;
    }
    const next = source[index + 1] ?? "";
    if ((next === "p" || next === "P" || next === "u") && source[index + 2] === "{") {
      const close = source.indexOf("}", index);
      out += source.slice(index, close + 1);
      index = close;
    } else {
      out += char + next;
      index += 1;
    }
  }
  return out;
}

/** Each row's marks, compiled once. */
/** What splits a reply into words. */
const NOT_WORD = /[^\p{L}\p{N}'’]+/u;
/** Each mark word and each mark letter, with the rows (bits) it tells. */
const MARK_WORDS = new Map<string, number>();
const MARK_LETTERS = new Map<string, number>();
for (const [index, row] of FORMS.entries()) {
  for (const word of row.marks?.split("|") ?? []) MARK_WORDS.set(word, (MARK_WORDS.get(word) ?? 0) | (1 << index));
  for (const letter of row.letters ?? "") MARK_LETTERS.set(letter, (MARK_LETTERS.get(letter) ?? 0) | (1 << index));
}

/**
 * One form in every language: the union of a column over the rows whose scripts the text holds, compiled once
 * per set of scripts (at most 32 sets), `shape` wrapping the union, in lower case. A text in no script of any
 * row matches nothing.
 */
class Form {
  readonly #column: Column;
  readonly #shape: (union: string) => string;
  readonly #compiled = new Map<number, RegExp | null>();
  /** The rows that have a cell in the column. */
  readonly #marked: number;

  constructor(column: Column, shape: (union: string) => string = (union) => union) {
    this.#column = column;
    this.#shape = shape;
    this.#marked = FORMS.reduce((rows, row, index) => (row[column] === undefined ? rows : rows | (1 << index)), 0);
  }

  #pattern(text: string): RegExp | null {
    readText(text);
    const inScripts = rowsOf(lastScripts);
    // Marked rows cost the marks of the reply only when the form has a cell in one of them.
    const rows = (inScripts & MARKED_ROWS & this.#marked) === 0 ? inScripts & ~MARKED_ROWS : inScripts & languagesOf();
    let pattern = this.#compiled.get(rows);
    if (pattern === undefined) {
      const cells = FORMS.filter((_, index) => (rows & (1 << index)) !== 0)
        .map((row) => row[this.#column])
        .filter((cell): cell is string => cell !== undefined && cell !== "");
      pattern = cells.length === 0 ? null : new RegExp(lowerSource(this.#shape(cells.map((cell) => `(?:${cell})`).join("|"))), "u");
      this.#compiled.set(rows, pattern);
    }
    return pattern;
  }

  test(text: string): boolean {
    const pattern = this.#pattern(text);
    return pattern !== null && pattern.test(lastLower);
  }

  /** The text without the form's match at its start (a lead-in); the text itself when lower case changes its length. */
  strip(text: string): string {
    const pattern = this.#pattern(text);
    if (pattern === null || lastLower.length !== text.length) return text;
    const match = pattern.exec(lastLower);
    return match === null || match.index !== 0 ? text : text.slice(match[0].length);
  }
}

/** The parts as the whole of the text. */
function wholeText(union: string): string {
  return `^(?:${union})$`;
}

/** Rhetorical questions that ask nobody anything. */
const RHETORICAL = new Form("rhetorical");
/** Sentence openers that make a request conditional (a sign-off, not a request). */
const CONDITION = new Form("condition");
/** Explicit requests for what only the person can give. */
const REQUEST = new Form("request");
/** Openers of a line that depends on the answer to the question right above it. */
const DEPENDS = new Form("depends");
/** A line ending in `:` that asks the person to choose among the options below it. */
const ASKS_TO_CHOOSE = new Form("choose");
/** A question that speaks to the person (you, I, we …). */
const ADDRESSES = new Form("addresses");
/** A question without its mark, by its ending (`…よろしいでしょうか。`, `…할까요.`, `…ister misiniz.`). */
const ASKS_WITHOUT_MARK = new Form("questionEnd", (union) => `(?:${union})[。.．]?$`);

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
  const source = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
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

// Cheap tests that rule a pattern out before it runs: each is a condition the pattern's match needs, so a
// text that fails it gets the answer the pattern would give. A settle reads one reply once, in a process
// whose caches pi's own work has just filled, and every pattern run there costs.

/** Whether a code unit is an ASCII letter: no prefix, decoration, emphasis, quote or emoji class holds one. */
function asciiLetter(unit: number): boolean {
  return (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a);
}

/** Whether a code unit is an ASCII letter or digit. */
function asciiWord(unit: number): boolean {
  return asciiLetter(unit) || (unit >= 0x30 && unit <= 0x39);
}

/** The first code unit of the text after white space (what `^\s*` passes over), NaN when there is none. */
function firstUnit(text: string): number {
  return text.trimStart().charCodeAt(0);
}

/** The text without emphasis, closing quotes or brackets and emoji at its end (`TRAILING`). */
function withoutTrailing(text: string): string {
  return asciiWord(text.charCodeAt(text.length - 1)) ? text : text.replace(TRAILING, "");
}

/** Whether the text holds a question mark of any script: `PARENTHETICAL` follows one. */
function hasQuestionMark(text: string): boolean {
  return text.includes("?") || text.includes("？") || text.includes("؟");
}

/** The text without a short parenthetical after its question mark (`PARENTHETICAL`). */
function withoutParenthetical(text: string): string {
  return hasQuestionMark(text) ? text.replace(PARENTHETICAL, "") : text;
}

/** A label in emphasis that opens the line (`LABEL`'s match), or null; it needs its `**` or `__`. */
function labelOf(line: string): RegExpExecArray | null {
  return line.includes("**") || line.includes("__") ? LABEL.exec(line) : null;
}

/** Whether the line is a list item (`LIST_ITEM`); a letter first opens one only as `a)`. */
function isListItem(line: string): boolean {
  const bare = line.trimStart();
  if (asciiLetter(bare.charCodeAt(0)) && bare.charCodeAt(1) !== 0x29) return false;
  return LIST_ITEM.test(line);
}

/** Markdown decoration at the start of a line stripped (quote, list and heading prefixes, emphasis). */
function undecorated(line: string): string {
  // A letter first: no prefix, emphasis or emoji opens the line.
  if (asciiLetter(firstUnit(line))) return line.trim();
  let bare = line;
  for (let previous = ""; previous !== bare; ) {
    previous = bare;
    bare = bare.replace(LEADING, "");
  }
  return bare.trim();
}

/**
 * The line with each inline code span and URL replaced: `span` gets the code, `url` the URL without its
 * trailing punctuation, which stays prose. Each pattern runs only where a backtick or a `://` is.
 */
function replaceCode(line: string, span: (code: string) => string, url: (address: string) => string): string {
  const code = line.includes("`") ? line.replace(CODE_SPAN, span) : line;
  if (!code.includes("://")) return code;
  return code.replace(URL, (found) => {
    const punctuation = URL_PUNCTUATION.exec(found)?.[0] ?? "";
    return url(found.slice(0, found.length - punctuation.length)) + punctuation;
  });
}

/** Inline code and URLs replaced by a hole, so a `?` inside them is not read as prose. */
function withoutCode(line: string): string {
  return replaceCode(line, () => HOLE, () => URL_HOLE);
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
  const prose = withoutParenthetical(withoutCode(bare));
  const end = withoutTrailing(prose);
  // How the line ends first: most lines are no question, and that is the cheapest to tell.
  if (!(QUESTION_END.test(end) || ASKS_WITHOUT_MARK.test(end)) || !/\p{L}|\p{N}/u.test(end.replace(/[\u{E000}\u{E001}]/gu, ""))) return undefined;
  if (quoted(prose) || RHETORICAL.test(prose)) return undefined;
  if (URL_QUESTION.test(end) && !/\S+\s+\S+\s+\u{E001}/u.test(end)) return undefined;
  return withoutTrailing(withoutParenthetical(bare));
}

function isTrailer(item: Item): boolean {
  if (item.kind === "code") return true;
  const line = item.text.trim();
  // A letter or digit first: no tag, break, comment or decoration line.
  if (asciiWord(line.charCodeAt(0))) return false;
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
  while (last - top < MAX_OPTIONS && isListItem(lineAt(items, top) ?? "")) top -= 1;
  if (top === last) return undefined;
  const asking = lineAt(items, top);
  if (asking === undefined || isListItem(asking)) return undefined;
  const question = asQuestion(asking);
  if (question !== undefined) {
    const prose = withoutCode(question);
    return ADDRESSES.test(prose) || ASKS_TO_CHOOSE.test(prose) ? question : undefined;
  }
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
  startReading(items);
  const last = lastSaying(items);
  const line = lineAt(items, last);
  if (line === undefined) return undefined;
  return lastLineAsks(items, last, line) ?? closingAsks(items, last);
}

/** The index of the last item that says something, trailing decoration set aside; -1 when more than MAX_TAGS tag lines trail. */
function lastSaying(items: readonly Item[]): number {
  let last = items.length - 1;
  let tags = 0;
  for (; ; last -= 1) {
    const item = items[last];
    if (item === undefined || !isTrailer(item)) return last;
    if (item.kind === "line" && (tags += 1) > MAX_TAGS) return -1;
  }
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

/** Headings that hand the turn to the person (`Ready to test`, `Your turn`); emoji, emphasis and punctuation are gone from the heading text. */
const TURN_HEADING = new Form("turnHeading", wholeText);
/** Headings that name the next steps, which may be the agent's own: only steps the person alone takes count. */
const NEXT_HEADING = new Form("nextHeading", wholeText);
/**
 * Words that may open an imperative before its verb (`Now,`, `Then`, `Please`), after a short label (`Note:`)
 * or a clause of time (`Once the build finishes,`).
 */
const LEAD_IN = new Form(
  "leadIn",
  (union) => `^(?:[\\p{L}\\p{N} ]{1,24}[:：]\\s+)?(?:${whole(/when|once|after/)}${within(40)},\\s*)?(?:(?:${union})[,，、:]?\\s*){0,4}`,
);
/** An imperative at the start of a sentence (in English the verb needs an object or a particle after it). */
const IMPERATIVE = new Form("imperative");
/** Under a heading that hands the turn to the person: an imperative verb, whatever follows it. */
const IMPERATIVE_VERB = new Form("turnVerb");
/** A request addressed to the person anywhere in the sentence: please, can you, you need to. */
const POLITE = new Form("polite");
/** Something the person is asked to give back: output, a log, a choice, a confirmation, an answer. */
const GIVE_BACK = new Form("giveBack");
/** Run or test it, then tell me (`Refresh and let me know.`): the outcome is what is asked for. */
const REPORT_BACK = new Form("reportBack");
/** The person has to do it because the agent cannot (`You'll need to run it yourself`, `on your machine`). */
const YOURSELF = new Form("yourself");
/** Reload what runs and check the change (`Restart the app and check the header`). */
const LOOK_AT_CHANGE = new Form("lookAtChange");
/** The agent's next step hangs on the person's act: `so I can`, `to proceed`, `before I`, `then I'll`. */
const CONTINUES = new Form("continues");
/** The reply says it waits for the person's approval, decision or input; no address needed. */
const AWAITS = new Form("awaits");
/** A request to test what was built (`Launch it and test!`, `Please test the login flow.`), the whole sentence. */
const TEST_REQUEST = new Form("testRequest");
/** An act, then a check or a retry, as the next step (`Restart the server and check`, `Log in and try again`). */
const TEST_NEXT = new Form("testNext");
/** The agent's next step once the person has acted (`Once you send the files, I'll …`). */
const HAND_OVER = new Form("handOver");
/** Verbs of steps only the person takes, for the steps under a `Next steps` heading (which may be the agent's own). */
const PERSON_STEP = new Form("personStep");
/** A slash command in code (`/clear`, `/continue`): typed into the chat by the person, never run by the agent. */
const SLASH_COMMAND = /`\/[a-z][\w-]*`/u;
/**
 * A condition or an offer in the sentence: the request is a sign-off (`If you hit errors, paste the log`,
 * `Paste your file if you want and I'll convert it`, `Let me know if you need anything else`).
 */
const OFFER = new Form("offer");
/** A negation: `no need for your input`, `without your approval` — nothing is awaited. */
const NEGATED = new Form("negated");
/** A question that speaks to the person without a pronoun: `Ready to proceed?`, `Want to test more?`, `Sounds good?` */
const ASKS_OPENER = new Form("asksOpener");
/** A question opened by a question word: it speaks to the person only when it names them (`What do you think?`). */
const WH_OPENER = new Form("whOpener");
/** A question word with the agent asking what it should do (`Which database should I use?`): the person decides. */
const AGENT_ASKS = new Form("agentAsks");
const SECOND_PERSON = new Form("secondPerson");
/** A question in its word order, with its mark left out (`Do you want me to deploy it`, `Should I also update the docs`). */
const QUESTION_ORDER = new Form("questionOrder");
/** A question that sets up what follows rather than asking (`What if you need JSON? Pass --json.`). */
const HYPOTHETICAL = new Form("hypothetical");
/** The sentence after a question answers it: the agent decided itself (`Should I go on? I will.`). */
const ANSWERED = new Form("answered");
/** §4.23: asks the person to test or try the result now. */
const TESTS = new Form("tests");
/** §4.23: says the agent could not run or test the result. */
const UNTESTED = new Form("untested");
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
  const hidden = replaceCode(line, (code) => FILL.repeat(code.length), (address) => FILL.repeat(address.length));
  // A quotation that opens the line is the agent's own words in quotes; one after other text quotes someone.
  return hidden.replace(QUOTATION, (quote: string, offset: number) => (WORDS_BEFORE.test(hidden.slice(0, offset)) ? FILL.repeat(quote.length) : quote));
}

/** The text of a heading line with emoji, emphasis and end punctuation gone; undefined when the line is none. */
function headingText(line: string): string | undefined {
  // A heading opens with `#`, emphasis or `==`; a colon heading holds its colon.
  const first = firstUnit(line);
  const heading = first === 0x23 || first === 0x2a || first === 0x5f || first === 0x3d ? HEADING.exec(line) : null;
  if (heading === null) {
    if (!line.includes(":") && !line.includes("：")) return undefined;
    const colon = COLON_HEADING.exec(undecorated(line));
    return colon === null ? undefined : bareHeading(colon[1] ?? "");
  }
  const [, hashes, emphasis, equals] = heading;
  // A line of emphasis that ends in a question mark is a question set in bold, not a heading.
  if (emphasis !== undefined) return /[?？؟]\s*$/u.test(emphasis) ? undefined : bareHeading(emphasis);
  return bareHeading(hashes ?? equals ?? "");
}

function bareHeading(text: string): string {
  return withoutTrailing(undecorated(text)).replace(/[\s:：.!！]+$/u, "").trim();
}

/**
 * Whether a line holds no sentence to read: a `#` or `===` heading, or a line of emphasis or a colon line
 * that names a turn (`Next steps:`); one that says something (`**Please confirm**`, `I need two things from
 * you:`) is prose.
 */
function skipped(line: string): boolean {
  const heading = labelOf(line) === null ? headingText(line) : undefined;
  return heading !== undefined && (MARKDOWN_HEADING.test(line) || turnOf(heading) > 0);
}

/** How a heading hands the turn: 2 to the person, 1 to whoever takes the next steps, 0 not at all. */
function turnOf(heading: string): number {
  if (TURN_HEADING.test(heading)) return 2;
  return NEXT_HEADING.test(heading) ? 1 : 0;
}

/** The sentences of a line, in order; `turn` as the heading above the line says. */
function sentencesOf(line: string, index: number, turn: number): Sentence[] {
  const label = labelOf(line);
  const labelTurn = label === null ? 0 : turnOf(bareHeading(label[1] ?? ""));
  const body = label === null ? line : (label[2] ?? "");
  const own = undecorated(body);
  const hidden = masked(own);
  const listed = isListItem(line);
  const out: Sentence[] = [];
  const stops = [...hidden.matchAll(SENTENCE_END)].map((match) => match.index + match[0].length);
  let start = 0;
  for (const stop of [...stops, hidden.length]) {
    const piece = hidden.slice(start, stop);
    if (/[\p{L}\p{N}]/u.test(piece)) {
      const text = withoutTrailing(undecorated(own.slice(start, stop)));
      const mask = withoutTrailing(undecorated(piece));
      out.push({ masked: mask, text, question: /[?？؟]$/u.test(mask) || ASKS_WITHOUT_MARK.test(mask), listed, line: index, turn: Math.max(turn, labelTurn) });
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
  if (HAND_OVER.test(text)) return true;
  const verb = LEAD_IN.strip(text);
  const imperative = IMPERATIVE.test(verb);
  if (sentence.turn === 2 && (imperative || IMPERATIVE_VERB.test(verb))) return true;
  if (sentence.turn === 1 && (PERSON_STEP.test(verb) || (imperative && SLASH_COMMAND.test(sentence.text)))) return true;
  if (!sentence.listed && (LOOK_AT_CHANGE.test(verb) || TEST_NEXT.test(verb))) return true;
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
  if (lead !== undefined && isListItem(lineAt(items, start) ?? "") && /[:：]\W*$/u.test(lead)) {
    start = paragraphStart(items, start - 1, MAX_PROSE);
  }
  // A heading within the closing lines: the section under it is the closing prose.
  let turnFrom = last + 1;
  let turn = 0;
  for (let index = last; index >= 0 && last - index < MAX_PROSE; index -= 1) {
    const line = lineAt(items, index);
    if (line === undefined) continue;
    const heading = labelOf(line) === null ? headingText(line) : undefined;
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

// ---------------------------------------------------------------------------------------------
// §4.23: a reply that hands the testing to the person.

/**
 * The sentence with which a reply hands the testing to the person (SPEC §4.23), undecorated: it asks them to
 * test or try the result now (`Please test the login page now.`, `Try it and let me know.`), or says the agent
 * could not run or test it (`I couldn't run the UI tests.`). Read on the last MAX_PROSE lines of prose, code,
 * quotations and URLs hidden, in every language of the table; the last such sentence wins. Not a hand-over: an
 * offer of extras (`Want me to also add tests?`), how to use the finished work later (`You can run npm start
 * to see it`), a sign-off or a condition (`If it fails, try again`). Undefined when the reply hands nothing over.
 */
export function handsOver(text: string): string | undefined {
  if (typeof text !== "string") return undefined;
  const items = readItems(text);
  if (items === undefined) return undefined;
  startReading(items);
  const last = lastSaying(items);
  if (lineAt(items, last) === undefined) return undefined;
  const sentences = proseOf(items, Math.max(0, last - MAX_PROSE + 1), last, last + 1, 0);
  return sentences.findLast(handsTesting)?.text;
}

/** Whether a sentence asks the person to test or try the result, or says the agent could not run or test it. */
function handsTesting(sentence: Sentence): boolean {
  const text = sentence.masked;
  if (CONDITION.test(text) || RHETORICAL.test(text)) return false;
  if (UNTESTED.test(text)) return true;
  if (OFFER.test(text)) return false;
  const verb = LEAD_IN.strip(text);
  return TESTS.test(verb) || TESTS.test(text) || (!sentence.listed && TEST_NEXT.test(verb));
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
