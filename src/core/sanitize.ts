/**
 * sanitize() (SPEC §10): model-authored text made safe to show a person. Pure; no dependencies.
 *
 * Removed, in this order:
 * 1. Whole terminal escape sequences, 7-bit (ESC …) and 8-bit (C1):
 *    - CSI `ESC [` / U+009B, parameter and intermediate bytes 0x20–0x3F, one final byte 0x40–0x7E;
 *    - OSC `ESC ]` / U+009D, DCS `ESC P` / U+0090, SOS `ESC X` / U+0098, PM `ESC ^` / U+009E and
 *      APC `ESC _` / U+009F with their payload, up to BEL or ST (`ESC \` or U+009C); another ESC, CAN,
 *      SUB or C1 control ends the payload early, and an unterminated one runs to the end of the text;
 *    - `ESC`, intermediate bytes 0x20–0x2F, a final byte 0x30–0x7E (`ESC ( B`, `ESC # 8`);
 *    - `ESC` and one byte 0x30–0x7E (`ESC =`, `ESC 7`, `ESC c`, `ESC \`).
 *    A sequence cut short (by another control or by the end of the text) is removed as far as it got.
 * 2. Unpaired surrogates.
 * 3. Line breaks and tabs (CR, LF, VT, FF, TAB, U+0085, U+2028, U+2029) become one space.
 * 4. Every remaining control (Cc: U+0000–U+001F, U+007F–U+009F), every format character (Cf: soft hyphen,
 *    bidi controls, zero-width space, word joiner, U+FEFF, U+061C, U+180E, interlinear annotation, …),
 *    every Default_Ignorable_Code_Point (combining grapheme joiner U+034F, Hangul fillers U+115F U+1160
 *    U+3164 U+FFA0, Khmer U+17B4 U+17B5, variation selectors U+FE00–U+FE0D, U+E0000–U+E0FFF) and every
 *    noncharacter (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF) — but for the characters human text is made of,
 *    which stay exactly where they belong (0.3) and go everywhere else (alone, repeated, at an edge of
 *    the text or of a word, or between characters they cannot join):
 *    - the zero-width joiner U+200D inside an emoji ZWJ sequence (👩‍💻: after an emoji, an emoji modifier
 *      or U+FE0F, before an emoji; UTS #51) or after a virama before a letter of the same script (क्‍ष;
 *      UAX #31 §2.3 B);
 *    - the zero-width non-joiner U+200C between two letters of a script that joins its letters (Arabic,
 *      Syriac, N'Ko, Mongolian, …: می‌خواهم; UAX #31 §2.3 A1, marks between allowed) or after a virama
 *      before a letter of the same script (A2);
 *    - one presentation selector U+FE0E / U+FE0F right after an emoji (⚠️, and the keycap 1️⃣ whose U+20E3
 *      is a combining mark), one ideographic variation selector U+E0100–U+E01EF after an ideograph, one
 *      Mongolian free variation selector U+180B–U+180D, U+180F after a Mongolian letter;
 *    - tag characters only in a valid emoji tag sequence: 🏴 U+1F3F4, two to seven tag digits or
 *      lower-case tag letters, the cancel tag U+E007F (🏴󠁧󠁢󠁥󠁮󠁧󠁿);
 *    - combining marks after the character they belong to; a mark with nothing to sit on (at the start,
 *      after a space) or the same mark twice in a row goes.
 * Then runs of spaces collapse, the ends are trimmed and the length is capped by grapheme cluster
 * (Intl.Segmenter), never splitting one, the last one "…" when cut. What is left of ordinary text (any
 * script, combining marks, emoji sequences, CJK, private use, no-break and ideographic spaces) is unchanged.
 * The classes are Unicode properties, so they follow the Unicode version of the running Node.
 */

const MAX_SHOWN = 200;

const ESCAPE_SEQUENCE = new RegExp(
  [
    /(?:\x1b\[|\x9b)[\x20-\x3f]*[\x40-\x7e]?/.source, // CSI
    /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x18\x1a\x1b\x80-\x9f]*(?:\x07|\x1b\\|\x9c)?/.source, // OSC DCS SOS PM APC
    /\x1b[\x20-\x2f]+[\x30-\x7e]?/.source, // nF
    /\x1b[\x30-\x7e]?/.source, // Fp Fe Fs, or a lone ESC
  ].join("|"),
  "gu",
);
/** `text` without its terminal escape sequences, whole (what an escape carries is never text). */
export function withoutEscapes(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "");
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const LINE_BREAK = /[\t\n\v\f\r\u0085\u2028\u2029]+/gu;
/**
 * The invisible characters of SPEC §10, as the inside of a regular expression character class (`u`
 * flag): controls, format characters, default-ignorable code points and noncharacters. One definition
 * for every module that has to look past them (the question detector reads a line's end through them).
 */
export const INVISIBLE_CLASS = "\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\p{Noncharacter_Code_Point}";

/** Invisible characters that human text is made of: kept or removed by their neighbours (see the header). */
const CONTEXTUAL = "\\u200c\\u200d\\ufe0e\\ufe0f\\u180b-\\u180d\\u180f\\u{e0020}-\\u{e007f}\\u{e0100}-\\u{e01ef}";
const INVISIBLE = new RegExp(`(?![${CONTEXTUAL}])[${INVISIBLE_CLASS}]`, "gu");

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const EMOJI_VS = 0xfe0f;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = "\u{e007f}";

// The classes below are only ever tested against one code point (the text is split into code points first).
const EMOJI = /\p{Emoji}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const MODIFIER = /\p{Emoji_Modifier}/u;
const IDEOGRAPH = /\p{Ideographic}/u;
const MONGOLIAN = /\p{Script=Mongolian}/u;
const MARK = /\p{M}/u;
const LETTER = /\p{L}/u;
const SPACE = /\s/u;
/** Viramas of the scripts that form conjuncts with a joiner (UAX #31 §2.3: Canonical_Combining_Class=Virama). */
const VIRAMA = /[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d3b\u0d3c\u0d4d\u0dca\u0e3a\u0f84\u1039\u103a\u1714\u1734\u17d2\u1a60\u1b44\u1baa\u1bab\u1bf2\u1bf3\u2d7f\ua806\ua8c4\ua953\ua9c0\uaaf6\uabed\u{10a3f}\u{11046}\u{1107f}\u{110b9}\u{11133}\u{11134}\u{111c0}\u{11235}\u{112ea}\u{1134d}\u{11442}\u{114c2}\u{115bf}\u{1163f}\u{116b6}\u{1172b}\u{11839}\u{1193d}\u{1193e}\u{119e0}\u{11a34}\u{11a47}\u{11a99}\u{11c3f}\u{11d44}\u{11d45}\u{11d97}]/u;
/** Scripts that join their letters, where a non-joiner between two letters breaks the join (UAX #31 §2.3 A1). */
const JOINING_SCRIPTS = ["Arabic", "Syriac", "Nko", "Mongolian", "Mandaic", "Manichaean", "Psalter_Pahlavi", "Hanifi_Rohingya", "Sogdian", "Adlam", "Phags_Pa"].map(
  (script) => new RegExp(`\\p{Script=${script}}`, "u"),
);
/** Scripts with a virama, for the A2 and B contexts: the letter after the joiner is of the same script. */
const VIRAMA_SCRIPTS = ["Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Tibetan", "Myanmar", "Tagalog", "Hanunoo", "Khmer", "Tai_Tham", "Balinese", "Sundanese", "Batak", "Tifinagh", "Syloti_Nagri", "Saurashtra", "Rejang", "Javanese", "Tai_Viet", "Meetei_Mayek", "Kharoshthi", "Brahmi", "Kaithi", "Chakma", "Sharada", "Khojki", "Khudawadi", "Grantha", "Newa", "Tirhuta", "Siddham", "Modi", "Takri", "Ahom", "Dogra", "Dives_Akuru", "Nandinagari", "Zanabazar_Square", "Soyombo", "Bhaiksuki", "Masaram_Gondi", "Gunjala_Gondi"].map(
  (script) => new RegExp(`\\p{Script=${script}}`, "u"),
);

/** Grapheme clusters: a segmenter's default granularity. */
const GRAPHEMES = new Intl.Segmenter();

function is(pattern: RegExp, point: string | undefined): boolean {
  return point !== undefined && pattern.test(point);
}

function sameScript(scripts: readonly RegExp[], a: string | undefined, b: string | undefined): boolean {
  return scripts.some((script) => is(script, a) && is(script, b));
}

/** The last kept character that is not a combining mark (the letter the marks after it belong to). */
function baseOf(kept: readonly string[]): string | undefined {
  for (let index = kept.length - 1; index >= 0; index -= 1) {
    const point = kept[index];
    if (!is(MARK, point)) return point;
  }
  return undefined;
}

/** Whether the zero-width joiner continues an emoji ZWJ sequence: an emoji element before it, an emoji after. */
function joinsEmoji(kept: readonly string[], next: string | undefined): boolean {
  const previous = kept[kept.length - 1];
  if (!is(PICTOGRAPHIC, next)) return false;
  if (is(PICTOGRAPHIC, previous) || is(MODIFIER, previous)) return true;
  return previous?.codePointAt(0) === EMOJI_VS && is(PICTOGRAPHIC, kept[kept.length - 2]);
}

/** Whether a joiner follows a virama and comes before a letter of the same script (UAX #31 §2.3 A2, B). */
function afterVirama(kept: readonly string[], next: string | undefined): boolean {
  const previous = kept[kept.length - 1];
  return is(VIRAMA, previous) && is(LETTER, next) && sameScript(VIRAMA_SCRIPTS, previous, next);
}

/** Tag digits and lower-case tag letters, the body of an emoji tag sequence. */
const TAG_LETTER = /[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]/u;

/**
 * How many characters after a black flag make a valid emoji tag sequence with it (🏴, two to seven tag
 * letters, the cancel tag), or 0. The scan stops at the first character that is no tag letter, so each
 * one is looked at once.
 */
function tagSequence(points: readonly string[], flag: number): number {
  let index = flag + 1;
  while (is(TAG_LETTER, points[index])) index += 1;
  const tags = index - flag - 1;
  return tags >= 2 && tags <= 7 && points[index] === CANCEL_TAG ? tags + 1 : 0;
}

/** Whether the selector or mark `point` belongs after what is kept so far (see the header). */
function belongs(point: string, kept: readonly string[]): boolean {
  const code = point.codePointAt(0) ?? 0;
  const previous = kept[kept.length - 1];
  const selector = (base: RegExp): boolean => is(base, previous);
  if (code === 0xfe0e || code === EMOJI_VS) return selector(EMOJI);
  if (code >= 0xe0100 && code <= 0xe01ef) return selector(IDEOGRAPH);
  if ((code >= 0x180b && code <= 0x180d) || code === 0x180f) return selector(MONGOLIAN) && is(LETTER, previous);
  if (code >= 0xe0020 && code <= 0xe007f) return false;
  // A combining mark: something to sit on, and not the same mark again.
  return previous !== undefined && !is(SPACE, previous) && previous !== point;
}

/** The contextual characters kept where they belong and removed elsewhere (SPEC §10, 0.3). */
function keepHumanText(text: string): string {
  const points = Array.from(text);
  const kept: string[] = [];
  // The characters of an emoji tag sequence still to come after its black flag: kept as they are.
  let sequence = 0;
  for (const [index, point] of points.entries()) {
    const code = point.codePointAt(0) ?? 0;
    const next = points[index + 1];
    if (sequence > 0) {
      sequence -= 1;
      kept.push(point);
    } else if (code === BLACK_FLAG) {
      sequence = tagSequence(points, index);
      kept.push(point);
    } else if (code === ZWJ) {
      if (joinsEmoji(kept, next) || afterVirama(kept, next)) kept.push(point);
    } else if (code === ZWNJ) {
      if (afterVirama(kept, next) || (is(LETTER, baseOf(kept)) && is(LETTER, next) && sameScript(JOINING_SCRIPTS, baseOf(kept), next))) kept.push(point);
    } else if (MARK.test(point) || (code >= 0xe0020 && code <= 0xe007f)) {
      if (belongs(point, kept)) kept.push(point);
    } else {
      kept.push(point);
    }
  }
  return kept.join("");
}

/** `text` cut to at most `limit` grapheme clusters, the last one "…" when cut. */
function capGraphemes(text: string, limit: number): string {
  let count = 0;
  let end = 0;
  for (const { index } of GRAPHEMES.segment(text)) {
    if (count === limit - 1) end = index;
    count += 1;
    // A joiner left at the cut would join nothing: it goes with the rest.
    // (Two joiners are never kept side by side.)
    if (count > limit) return `${text.slice(0, end).replace(/[\u200c\u200d]$/u, "").trimEnd()}…`;
  }
  return text;
}

/**
 * Makes model-authored text safe to show: escape sequences, controls and invisible characters removed
 * (see the header for the exact set and what human text keeps), line breaks flattened, spaces collapsed,
 * trimmed, and capped at `max` grapheme clusters, the last one "…" when cut. Anything but a string gives "".
 */
export function sanitize(text: unknown, max: number = MAX_SHOWN): string {
  if (typeof text !== "string") return "";
  const limit = Math.floor(max);
  if (!(limit >= 1)) return "";
  const flat = keepHumanText(text.replace(ESCAPE_SEQUENCE, "").replace(LONE_SURROGATE, "").replace(LINE_BREAK, " ").replace(INVISIBLE, ""));
  // Spaces side by side or at an end, whether the text had them or removing what did not belong left them.
  return capGraphemes(flat.replace(/ {2,}/g, " ").trim(), limit);
}

const OTHER_BREAKS = /[\v\f\u0085\u2028\u2029]/gu;

/**
 * One line of a command's output made safe to show the model (SPEC §4.16): cleaned as `sanitize()` cleans
 * (escape sequences, controls, invisible characters) but not flattened, collapsed or capped; a line
 * redrawn with CR keeps its last version, a tab becomes spaces, trailing spaces go.
 */
export function cleanOutputLine(line: string): string {
  const stripped = line.replace(ESCAPE_SEQUENCE, "").replace(LONE_SURROGATE, "");
  const last = stripped.split("\r").filter((version) => version !== "").pop() ?? "";
  return keepHumanText(last.replace(/\t/g, "    ").replace(OTHER_BREAKS, " ").replace(INVISIBLE, "")).trimEnd();
}
