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
 *    bidi controls, zero-width space and joiners, word joiner, U+FEFF, U+061C, U+180E, tag characters,
 *    interlinear annotation, …), every Default_Ignorable_Code_Point (combining grapheme joiner U+034F,
 *    Hangul fillers U+115F U+1160 U+3164 U+FFA0, Khmer U+17B4 U+17B5, Mongolian variation selectors
 *    U+180B–U+180F, variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF, U+E0000–U+E0FFF) and every
 *    noncharacter (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF). One exception: U+FE0E / U+FE0F directly after an
 *    emoji (once the rest is removed) stays, because that is how ⚠️ or ❤️ is written.
 * Then runs of spaces collapse, the ends are trimmed and the length is capped by code point, the last
 * one "…" when cut. What is left of ordinary text (any script, combining marks, emoji, CJK, private
 * use, no-break and ideographic spaces) is unchanged.
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
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const LINE_BREAK = /[\t\n\v\f\r\u0085\u2028\u2029]+/gu;
const INVISIBLE = /(?![\ufe0e\ufe0f])[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/gu;
// After the rest is gone, so that a selector separated from its emoji only by removed characters stays.
const STRAY_PRESENTATION = /(?<!\p{Emoji})[\ufe0e\ufe0f]/gu;

/**
 * Makes model-authored text safe to show: escape sequences, controls and invisible characters removed
 * (see the header for the exact set), line breaks flattened, spaces collapsed, trimmed, and capped at
 * `max` code points, the last one "…" when cut. Anything but a string gives "".
 */
export function sanitize(text: unknown, max: number = MAX_SHOWN): string {
  if (typeof text !== "string") return "";
  const limit = Math.floor(max);
  if (!(limit >= 1)) return "";
  const flat = text
    .replace(ESCAPE_SEQUENCE, "")
    .replace(LONE_SURROGATE, "")
    .replace(LINE_BREAK, " ")
    .replace(INVISIBLE, "")
    .replace(STRAY_PRESENTATION, "")
    .replace(/ {2,}/g, " ")
    .trim();
  const points = Array.from(flat);
  return points.length > limit ? `${points.slice(0, limit - 1).join("").trimEnd()}…` : flat;
}

const OTHER_BREAKS = /[\v\f\u0085\u2028\u2029]/gu;

/**
 * One line of a command's output made safe to show the model (SPEC §4.16): cleaned as `sanitize()` cleans
 * (escape sequences, controls, invisible characters) but not flattened, collapsed or capped; a line
 * redrawn with CR keeps its last version, a tab becomes spaces, trailing spaces go.
 */
export function cleanOutputLine(line: string): string {
  const stripped = line.replace(ESCAPE_SEQUENCE, "").replace(LONE_SURROGATE, "");
  const versions = stripped.split("\r");
  let last = "";
  for (let index = versions.length - 1; index >= 0; index--) {
    if ((versions[index] ?? "") !== "") {
      last = versions[index] ?? "";
      break;
    }
  }
  return last.replace(/\t/g, "    ").replace(OTHER_BREAKS, " ").replace(INVISIBLE, "").replace(STRAY_PRESENTATION, "").trimEnd();
}
