/**
 * Generated-input testing without a dependency: a seeded PRNG, value generators (text with hostile
 * characters, ordinary text, escape sequences and every class of character sanitize() removes, JSON
 * junk, session entries of every kind the reader meets), a session tree that behaves like pi's (append
 * under the leaf, move the leaf), and `forAll`, which runs a property over many seeded cases and names
 * the seed and the case in every failure.
 *
 * Reproduce a failure: `PROPERTY_SEED=<seed> node --test test/property/<file>.test.ts` runs just that case
 * first in every property. `PROPERTY_CASES=<n>` caps every property at n cases (mutation runs use it).
 */

// ---- the PRNG ---------------------------------------------------------------------------------------

export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A fresh generator seeded from this one (for nested structures). */
  fork(): Random;
}

/** mulberry32: small, fast, good enough to spread test cases. */
export function random(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Random = {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[Math.floor(next() * items.length)] as T;
    },
    fork: () => random(Math.floor(next() * 4294967296)),
  };
  return rng;
}

/** The seed of case `index` of a property: spread, so neighbouring cases differ in every bit. */
export function caseSeed(property: string, index: number): number {
  let hash = 2166136261;
  for (const char of `${property}#${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

// ---- running a property -----------------------------------------------------------------------------

/** A readable, bounded rendering of a generated case (handles undefined, NaN, cycles). */
export function show(value: unknown, limit = 6000): string {
  const seen = new WeakSet<object>();
  let text: string;
  try {
    text = JSON.stringify(value, (_key, item: unknown) => {
      if (item === undefined) return "<undefined>";
      if (typeof item === "number" && !Number.isFinite(item)) return `<${String(item)}>`;
      if (typeof item === "bigint") return `<${item}n>`;
      if (typeof item === "function" || typeof item === "symbol") return `<${typeof item}>`;
      if (typeof item === "object" && item !== null) {
        if (seen.has(item)) return "<cycle>";
        seen.add(item);
      }
      return item;
    }) ?? String(value);
  } catch (error) {
    text = `<unprintable: ${error instanceof Error ? error.message : String(error)}>`;
  }
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length} chars)` : text;
}

export class PropertyFailure extends Error {
  override readonly name = "PropertyFailure";
}

function failure(property: string, seed: number, index: number, value: unknown, error: unknown): PropertyFailure {
  const why = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return new PropertyFailure(
    `property "${property}" failed on case ${index} (seed ${seed}; rerun with PROPERTY_SEED=${seed})\ncase: ${show(value)}\n${why}`,
    { cause: error },
  );
}

function seedsFor(property: string, count: number): number[] {
  const seeds: number[] = [];
  const pinned = process.env.PROPERTY_SEED;
  if (pinned !== undefined && /^\d+$/.test(pinned)) seeds.push(Number(pinned));
  const cap = Number(process.env.PROPERTY_CASES);
  const cases = Number.isInteger(cap) && cap > 0 ? Math.min(count, cap) : count;
  for (let index = 0; index < cases; index++) seeds.push(caseSeed(property, index));
  return seeds;
}

/**
 * Runs `check` on `count` generated cases and returns the number run. A failing case is reported with
 * its seed and its value; `check` fails by throwing (assert).
 */
export function forAll<T>(property: string, count: number, generate: (rng: Random) => T, check: (value: T, rng: Random) => void): number {
  const seeds = seedsFor(property, count);
  seeds.forEach((seed, index) => {
    const value = generate(random(seed));
    try {
      check(value, random(seed ^ 0x9e3779b9));
    } catch (error) {
      throw failure(property, seed, index, value, error);
    }
  });
  return seeds.length;
}

/** `forAll` for checks that await (the extension's handlers are async). */
export async function forAllAsync<T>(
  property: string,
  count: number,
  generate: (rng: Random) => T,
  check: (value: T, rng: Random) => Promise<void>,
): Promise<number> {
  const seeds = seedsFor(property, count);
  for (let index = 0; index < seeds.length; index++) {
    const seed = seeds[index] ?? 0;
    const value = generate(random(seed));
    try {
      await check(value, random(seed ^ 0x9e3779b9));
    } catch (error) {
      throw failure(property, seed, index, value, error);
    }
  }
  return seeds.length;
}

// ---- text and junk ------------------------------------------------------------------------------------

/** Characters a display must never receive raw: controls, bidi, zero-width, line breaks, lone surrogates. */
export const HOSTILE = [
  "\u0000", "\u0007", "\u001b", "\u007f", "\u0085", "\u009b", "\t", "\n", "\r\n", "\r", "\v", "\f",
  "\u2028", "\u2029", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
  "\u2069", "\u200e", "\u200f", "\u061c", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\ud800",
  "\udfff", "\udbff",
];

const PLAIN = ["a", "b", "Z", "0", " ", "-", "é", "ß", "中", "ж", "😀", "𝄞", "👍🏽", "\"", "'", "<", "&"];

export function text(rng: Random, maxLength = 12, hostile = 0.2): string {
  const length = rng.int(0, maxLength);
  let out = "";
  for (let index = 0; index < length; index++) out += rng.chance(hostile) ? rng.pick(HOSTILE) : rng.pick(PLAIN);
  return out;
}

/** Any JSON-ish value, including the odd ones a hand-edited or corrupt file can hold. */
export function junk(rng: Random, depth = 2): unknown {
  const roll = rng.int(0, depth > 0 ? 11 : 8);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return rng.chance(0.5);
    case 3:
      return rng.pick([0, -1, 1, 2.5, -0, 1e308, -1e308, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER]);
    case 4:
      return text(rng, 8, 0.3);
    case 5:
      return rng.pick(["", "todo", "user", "assistant", "toolResult", "custom", "message", "todo-loop:continue", "pending", "completed"]);
    case 6:
      return rng.int(-3, 40);
    case 7:
      return [];
    case 8:
      return {};
    case 9:
      return Array.from({ length: rng.int(0, 4) }, () => junk(rng, depth - 1));
    default: {
      const out: Record<string, unknown> = {};
      const keys = ["type", "role", "id", "status", "subject", "tasks", "todos", "nextId", "details", "data", "usage", "round", "reason", "message", "x"];
      for (let index = rng.int(0, 5); index > 0; index--) out[rng.pick(keys)] = junk(rng, depth - 1);
      return out;
    }
  }
}

// ---- text for sanitize() ------------------------------------------------------------------------------

/** An inclusive range of code points. */
export type CodeRange = readonly [number, number];

const NONCHARACTERS: CodeRange[] = [[0xfdd0, 0xfdef], ...Array.from({ length: 17 }, (_, plane): CodeRange => [plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff])];

/**
 * Every class of character sanitize() removes (SPEC §10), by code point. `lineBreak` becomes a space;
 * U+FE0E / U+FE0F stay right after an emoji (src/core/sanitize.ts says why).
 */
export const REMOVED_CLASSES = {
  c0: [[0x00, 0x08], [0x0e, 0x1f]],
  lineBreak: [[0x09, 0x0d], [0x85, 0x85], [0x2028, 0x2029]],
  del: [[0x7f, 0x7f]],
  c1: [[0x80, 0x84], [0x86, 0x9f]],
  bidi: [[0x061c, 0x061c], [0x200e, 0x200f], [0x202a, 0x202e], [0x2066, 0x2069]],
  zeroWidth: [[0x200b, 0x200d], [0x2060, 0x2060], [0xfeff, 0xfeff]],
  softHyphen: [[0x00ad, 0x00ad]],
  otherFormat: [
    [0x0600, 0x0605], [0x06dd, 0x06dd], [0x070f, 0x070f], [0x0890, 0x0891], [0x08e2, 0x08e2], [0x180e, 0x180e],
    [0x2061, 0x2064], [0x206a, 0x206f], [0x110bd, 0x110bd], [0x110cd, 0x110cd], [0x13430, 0x1343f],
    [0x1bca0, 0x1bca3], [0x1d173, 0x1d17a],
  ],
  interlinear: [[0xfff9, 0xfffb]],
  tags: [[0xe0000, 0xe007f]],
  graphemeJoiner: [[0x034f, 0x034f]],
  hangulFiller: [[0x115f, 0x1160], [0x3164, 0x3164], [0xffa0, 0xffa0]],
  khmerVowel: [[0x17b4, 0x17b5]],
  mongolianSelector: [[0x180b, 0x180d], [0x180f, 0x180f]],
  variationSelector: [[0xfe00, 0xfe0f], [0xe0100, 0xe01ef]],
  reservedIgnorable: [[0x2065, 0x2065], [0xfff0, 0xfff8], [0xe0080, 0xe00ff], [0xe01f0, 0xe0fff]],
  noncharacter: NONCHARACTERS,
  loneSurrogate: [[0xd800, 0xdfff]],
} satisfies Record<string, readonly CodeRange[]>;
export type RemovedClass = keyof typeof REMOVED_CLASSES;
export const REMOVED_KINDS = Object.keys(REMOVED_CLASSES) as RemovedClass[];

/** The first code points of escape and control sequences: alone they swallow what follows. */
const SEQUENCE_STARTS = new Set([0x1b, 0x90, 0x98, 0x9b, 0x9d, 0x9e, 0x9f]);
const PRESENTATION = new Set([0xfe0e, 0xfe0f]);

function inRanges(code: number, ranges: readonly CodeRange[]): boolean {
  return ranges.some(([low, high]) => code >= low && code <= high);
}

/** The class a code point belongs to, if sanitize() removes it. */
export function removedClassOf(code: number): RemovedClass | undefined {
  return REMOVED_KINDS.find((kind) => inRanges(code, REMOVED_CLASSES[kind]));
}

const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
/** Viramas of the main Indic scripts, written out here apart from src/core/sanitize.ts. */
const VIRAMAS = new Set([0x094d, 0x09cd, 0x0a4d, 0x0acd, 0x0b4d, 0x0bcd, 0x0c4d, 0x0ccd, 0x0d4d, 0x0dca, 0x1039, 0x17d2]);
const JOINING = [/^\p{Script=Arabic}$/u, /^\p{Script=Syriac}$/u, /^\p{Script=Nko}$/u, /^\p{Script=Mongolian}$/u];
const isTag = (code: number): boolean => code >= 0xe0000 && code <= 0xe007f;

/**
 * Whether the character at `index` is one that human text keeps there (SPEC §10, 0.3): a joiner inside an
 * emoji ZWJ sequence, after a virama before a letter, or (the non-joiner) between two letters of a joining
 * script; one presentation selector after an emoji; an ideographic selector after an ideograph; a
 * Mongolian selector after a Mongolian letter; a tag character inside 🏴 + 2–7 tag letters or digits + cancel.
 */
export function belongsThere(points: readonly string[], index: number): boolean {
  const code = points[index]?.codePointAt(0) ?? 0;
  const previous = points[index - 1];
  const next = points[index + 1];
  const test = (pattern: RegExp, point: string | undefined): boolean => point !== undefined && pattern.test(point);
  const afterVirama = VIRAMAS.has(previous?.codePointAt(0) ?? 0) && test(LETTER, next);
  if (code === 0x200d) {
    const emojiBefore =
      test(/^[\p{Extended_Pictographic}\p{Emoji_Modifier}]$/u, previous) ||
      (previous === "\ufe0f" && test(/^\p{Extended_Pictographic}$/u, points[index - 2]));
    return (emojiBefore && test(/^\p{Extended_Pictographic}$/u, next)) || afterVirama;
  }
  if (code === 0x200c) {
    let base = index - 1;
    while (base > 0 && test(MARK, points[base])) base -= 1;
    const letter = points[base];
    return afterVirama || (test(LETTER, letter) && test(LETTER, next) && JOINING.some((script) => test(script, letter) && test(script, next)));
  }
  if (PRESENTATION.has(code)) return test(/^\p{Emoji}$/u, previous);
  if (code >= 0xe0100 && code <= 0xe01ef) return test(/^\p{Ideographic}$/u, previous);
  if ((code >= 0x180b && code <= 0x180d) || code === 0x180f) return test(/^\p{Script=Mongolian}$/u, previous) && test(LETTER, previous);
  if (isTag(code)) {
    let start = index;
    while (start > 0 && isTag(points[start - 1]?.codePointAt(0) ?? 0)) start -= 1;
    let end = index;
    while (end + 1 < points.length && isTag(points[end + 1]?.codePointAt(0) ?? 0)) end += 1;
    const run = points.slice(start, end + 1).map((point) => point.codePointAt(0) ?? 0);
    const letters = run.slice(0, -1);
    return (
      points[start - 1] === "\u{1f3f4}" &&
      run.at(-1) === 0xe007f &&
      letters.length >= 2 &&
      letters.length <= 7 &&
      letters.every((tag) => (tag >= 0xe0030 && tag <= 0xe0039) || (tag >= 0xe0061 && tag <= 0xe007a))
    );
  }
  return false;
}

/**
 * The first character of `value` sanitize() must not let through, as "U+XXXX (class)": any removed
 * class, any control or format character (Cc, Cf) — except where human text keeps it (belongsThere) —
 * and a combining mark with nothing to sit on or the same mark twice in a row.
 */
export function firstRemoved(value: string): string | undefined {
  const points = Array.from(value);
  for (const [index, point] of points.entries()) {
    const code = point.codePointAt(0) ?? 0;
    const name = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    const kind = removedClassOf(code) ?? (/[\p{Cc}\p{Cf}]/u.test(point) ? "Cc/Cf" : undefined);
    if (kind !== undefined && !belongsThere(points, index)) return `${name} (${kind})`;
    const previous = points[index - 1];
    if (kind === undefined && MARK.test(point) && (previous === undefined || /^\s$/u.test(previous) || previous === point)) return `${name} (lone mark)`;
  }
  return undefined;
}

/** Characters human text keeps in some places (SPEC §10, 0.3): their removal depends on their neighbours. */
function contextual(code: number): boolean {
  return code === 0x200c || code === 0x200d || PRESENTATION.has(code) || (code >= 0xe0100 && code <= 0xe01ef) || (code >= 0x180b && code <= 0x180f && code !== 0x180e);
}

/**
 * One character of class `kind`. `standalone` leaves out the ones whose removal depends on their
 * neighbours: sequence introducers (ESC, 8-bit CSI, OSC, DCS, SOS, PM, APC) and the characters human
 * text keeps in places (joiners, presentation, ideographic and Mongolian selectors); tag characters
 * stay, since no ordinary token is a black flag.
 */
export function removedChar(rng: Random, kind: RemovedClass, standalone = false): string {
  for (let attempt = 0; ; attempt++) {
    const [low, high] = rng.pick(REMOVED_CLASSES[kind]);
    const code = rng.int(low, high);
    // A class made only of such characters (the Mongolian selectors) gives a zero-width space instead.
    if (standalone && attempt > 200) return "\u200b";
    if (standalone && (SEQUENCE_STARTS.has(code) || contextual(code))) continue;
    return code >= 0xd800 && code <= 0xdfff ? String.fromCharCode(code) : String.fromCodePoint(code);
  }
}

/**
 * Ordinary printable text, one grapheme or symbol per token: scripts, combining accents, CJK, emoji
 * (with skin tones, presentation selectors, keycaps, flags), punctuation that escape sequences are made
 * of, spaces (ASCII, no-break, ideographic) and a private-use icon.
 */
export const ORDINARY = [
  "a", "b", "z", "Q", "P", "X", "0", "7", " ", " ", " ", "-", ".", ",", ";", ":", "?", "!", "[", "]", "(", ")",
  "{", "}", "<", ">", "&", "\"", "'", "`", "~", "|", "/", "\\", "#", "*", "@", "$", "%", "^", "_", "=", "+",
  "é", "e\u0301", "a\u0308", "n\u0303", "ß", "ø", "Ω", "λ", "ж", "Я", "ש", "ל", "ع", "ب", "फ", "क्ष", "ก", "ก\u0e49",
  "가", "한", "\u1100\u1161", "か", "カ", "中", "文", "漢", "😀", "👍🏽", "🇫🇷", "⚠️", "❤️", "1️⃣", "✅", "🚀", "𝄞", "𝔘",
  "©", "™", "€", "…", "—", "\u00a0", "\u3000", "\ue000", "①", "½",
];

/** Between 0 and `maxTokens` tokens of ordinary text. */
export function ordinaryTokens(rng: Random, maxTokens = 20): string[] {
  return Array.from({ length: rng.int(0, maxTokens) }, () => rng.pick(ORDINARY));
}

export const ESCAPE_KINDS = ["csi", "csi8", "osc", "osc8", "dcs", "dcs8", "sos", "sos8", "pm", "pm8", "apc", "apc8", "nf", "fs"] as const;
export type EscapeKind = (typeof ESCAPE_KINDS)[number];

const STRING_INTRODUCERS: Record<string, readonly [string, string]> = {
  osc: ["\u001b]", "\u009d"],
  dcs: ["\u001bP", "\u0090"],
  sos: ["\u001bX", "\u0098"],
  pm: ["\u001b^", "\u009e"],
  apc: ["\u001b_", "\u009f"],
};

function charIn(rng: Random, low: number, high: number, except = ""): string {
  for (;;) {
    const char = String.fromCharCode(rng.int(low, high));
    if (!except.includes(char)) return char;
  }
}

function repeat(rng: Random, min: number, max: number, one: () => string): string {
  return Array.from({ length: rng.int(min, max) }, one).join("");
}

/**
 * A complete terminal escape sequence of `kind`: CSI with parameters, intermediates and a final byte;
 * OSC, DCS, SOS, PM or APC with a payload (ordinary text, tabs, line breaks) and a terminator (BEL,
 * ESC \ or U+009C); `ESC` with intermediates and a final byte (nF); `ESC` and one byte (Fp, Fe, Fs).
 * The 8-bit forms start with the C1 character instead of ESC.
 */
export function escapeSequence(rng: Random, kind: EscapeKind = rng.pick(ESCAPE_KINDS)): string {
  switch (kind) {
    case "csi":
    case "csi8": {
      const params = repeat(rng, 0, 6, () => charIn(rng, 0x30, 0x3f));
      const intermediates = repeat(rng, 0, 2, () => charIn(rng, 0x20, 0x2f));
      return `${kind === "csi" ? "\u001b[" : "\u009b"}${params}${intermediates}${charIn(rng, 0x40, 0x7e)}`;
    }
    case "nf":
      return `\u001b${repeat(rng, 1, 2, () => charIn(rng, 0x20, 0x2f))}${charIn(rng, 0x30, 0x7e)}`;
    case "fs":
      return `\u001b${charIn(rng, 0x30, 0x7e, "[]PX^_")}`;
    default: {
      const base = kind.replace("8", "");
      const [seven, eight] = STRING_INTRODUCERS[base] ?? ["\u001b]", "\u009d"];
      const payload = repeat(rng, 0, 12, () => (rng.chance(0.15) ? rng.pick(["\t", "\n", "\r\n", ";"]) : rng.pick(ORDINARY)));
      return `${kind.endsWith("8") ? eight : seven}${payload}${rng.pick(["\u0007", "\u001b\\", "\u009c"])}`;
    }
  }
}

/** A sequence cut short: a non-empty proper prefix of a complete one (a lone ESC, `ESC [ 3`, an unterminated OSC …). */
export function brokenEscape(rng: Random): string {
  const points = Array.from(escapeSequence(rng));
  return points.slice(0, rng.int(1, Math.max(1, points.length - 1))).join("");
}

/**
 * Ordinary text mixed with characters of every removed class, presentation selectors anywhere, and
 * complete and broken escape sequences: up to `maxItems` pieces.
 */
export function hostileText(rng: Random, maxItems = 40): string {
  let out = "";
  for (let index = rng.int(0, maxItems); index > 0; index--) {
    const roll = rng.next();
    if (roll < 0.45) out += rng.pick(ORDINARY);
    else if (roll < 0.7) out += removedChar(rng, rng.pick(REMOVED_KINDS));
    else if (roll < 0.82) out += escapeSequence(rng);
    else if (roll < 0.9) out += brokenEscape(rng);
    else out += rng.pick(["\ufe0e", "\ufe0f"]);
  }
  return out;
}

// ---- session entries -----------------------------------------------------------------------------------

export type RawEntry = { [key: string]: unknown };

const RPIV_STATUSES = ["pending", "in_progress", "completed", "deleted", "deferred"];

function rpivTasks(rng: Random): unknown[] {
  const count = rng.int(0, 6);
  return Array.from({ length: count }, (_, index) => ({ id: index + 1, subject: text(rng, 6, 0.1), status: rng.pick(RPIV_STATUSES) }));
}

function usage(rng: Random): unknown {
  if (rng.chance(0.15)) return junk(rng);
  const input = rng.int(0, 5000);
  const output = rng.int(0, 2000);
  return {
    input,
    output,
    cacheRead: rng.int(0, 9000),
    cacheWrite: 0,
    totalTokens: rng.chance(0.8) ? input + output : rng.pick([0, Number.NaN, -5, "12"]),
    cost: rng.chance(0.8) ? { total: rng.int(0, 300) / 1000 } : junk(rng),
  };
}

function message(message: RawEntry): RawEntry {
  return { type: "message", timestamp: "2026-11-30T00:00:00.000Z", message };
}

function toolResultEntry(rng: Random, toolName: string, details: unknown): RawEntry {
  return message({ role: "toolResult", toolCallId: `call-${rng.int(0, 999)}`, toolName, content: [{ type: "text", text: "ok" }], details, isError: rng.chance(0.1), timestamp: 3 });
}

/** The kinds of entry the reader meets on a branch, with their odd variants. */
export const ENTRY_KINDS = [
  "user",
  "assistant",
  "rpiv-result",
  "rpiv-bad-result",
  "rpiv-state",
  "rpiv-clear",
  "ian-state",
  "example-result",
  "quangthai-state",
  "criogaid-result",
  "criogaid-tasks",
  "other-tool",
  "marker",
  "marker-junk",
  "stop",
  "block",
  "other-custom-message",
  "compaction",
  "branch-summary",
  "model-change",
  "junk",
  "plan-executing",
  "plan-planning",
  "plan-off",
  "assistant-calls",
  "call-result",
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** Tool calls of an assistant message and results that may match them by `toolCallId` (few ids, so they meet). */
const CALL_NAMES = ["read", "grep", "todo", "bash", "edit", "codemode", "TaskList", "todo_loop_block"] as const;

function callArgs(rng: Random): unknown {
  const roll = rng.next();
  if (roll < 0.3) return { action: rng.pick(["list", "get", "create", "update"]), id: rng.int(1, 3) };
  if (roll < 0.6) return { path: rng.pick(["a.ts", "b.ts", "c.ts"]), limit: rng.pick([undefined, 10]) };
  if (roll < 0.8) return { command: rng.pick(["npm test", "ls"]) };
  return junk(rng);
}

/** One session entry of `kind` (no id or parentId: the session adds them). */
export function entryOf(rng: Random, kind: EntryKind): RawEntry {
  switch (kind) {
    case "assistant-calls": {
      const calls = Array.from({ length: rng.int(1, 3) }, () => ({ type: "toolCall", id: `call-${rng.int(0, 5)}`, name: rng.pick(CALL_NAMES), arguments: callArgs(rng) }));
      return message({ role: "assistant", content: [{ type: "text", text: text(rng) }, ...calls], usage: usage(rng), stopReason: "toolUse", timestamp: 2 });
    }
    case "call-result": {
      const nested = rng.chance(0.3) ? { nestedCalls: { calls: [{ id: "n", name: rng.pick(CALL_NAMES), arguments: callArgs(rng), status: "ok" }], complete: rng.chance(0.8) } } : {};
      return message({ role: "toolResult", toolCallId: `call-${rng.int(0, 5)}`, toolName: rng.pick(CALL_NAMES), content: [{ type: "text", text: "ok" }], details: rng.chance(0.5) ? {} : junk(rng), isError: rng.chance(0.3), timestamp: 3, ...nested });
    }
    case "user":
      return message({ role: "user", content: [{ type: "text", text: text(rng) }], timestamp: 1 });
    case "assistant":
      return message({ role: "assistant", content: [{ type: "text", text: text(rng) }], usage: usage(rng), stopReason: "stop", timestamp: 2 });
    case "rpiv-result": {
      const tasks = rpivTasks(rng);
      const details: RawEntry = { action: rng.pick(["create", "update", "delete", "clear", "list"]), params: {}, tasks, nextId: tasks.length + 1 };
      if (rng.chance(0.1)) details.error = "unknown id";
      return toolResultEntry(rng, "todo", details);
    }
    case "rpiv-bad-result":
      return toolResultEntry(rng, "todo", rng.chance(0.5) ? junk(rng) : { tasks: [junk(rng)], nextId: rng.pick([1, "1", null]) });
    case "rpiv-state":
      return { type: "custom", customType: "rpiv-todo-state", data: rng.chance(0.8) ? { tasks: rpivTasks(rng), nextId: 9 } : junk(rng) };
    case "rpiv-clear":
      return { type: "custom", customType: "rpiv-todo-clear" };
    case "ian-state":
      return {
        type: "custom",
        customType: "pi-todo-state",
        data: { nextId: 5, tasks: Array.from({ length: rng.int(0, 4) }, (_, index) => ({ id: index + 1, title: text(rng, 5, 0.1), status: rng.pick(["pending", "active", "completed"]) })) },
      };
    case "example-result":
      return toolResultEntry(rng, "todo", {
        action: rng.pick(["add", "toggle", "clear", "list"]),
        todos: Array.from({ length: rng.int(0, 4) }, (_, index) => ({ id: index + 1, text: text(rng, 5, 0.1), done: rng.chance(0.5) })),
        nextId: 5,
      });
    case "quangthai-state":
      return {
        type: "custom",
        customType: "pi-todo.state",
        data: { todos: Array.from({ length: rng.int(0, 4) }, () => ({ content: text(rng, 5, 0.1), status: rng.pick(["pending", "in_progress", "completed", "cancelled"]), priority: "high" })) },
      };
    case "criogaid-result":
      return toolResultEntry(rng, "todo", { todos: Array.from({ length: rng.int(0, 3) }, () => ({ content: text(rng, 5, 0.1), status: rng.pick(["pending", "completed"]) })) });
    case "criogaid-tasks":
      return {
        type: "custom",
        customType: "pi-todos-tasks",
        data: { version: 1, tasks: Array.from({ length: rng.int(0, 3) }, (_, index) => ({ id: String(index + 1), subject: text(rng, 5, 0.1), status: rng.pick(["pending", "completed", "deleted"]) })), highWaterMark: 3 },
      };
    case "other-tool":
      return toolResultEntry(rng, rng.pick(["bash", "read", "edit", "todo_read", "TaskList"]), rng.chance(0.5) ? junk(rng) : {});
    case "marker":
      return {
        type: "custom_message",
        customType: "todo-loop:continue",
        content: "Continue with the open tasks on your todo list.",
        display: false,
        details: { v: 1, round: rng.int(0, 20), anchor: "u", open: rng.int(0, 5), hint: rng.chance(0.2) },
      };
    case "marker-junk":
      return { type: "custom_message", customType: "todo-loop:continue", content: junk(rng), display: false, details: junk(rng) };
    case "stop":
      return { type: "custom", customType: "todo-loop:stop", data: rng.chance(0.8) ? { reason: text(rng, 20, 0.05), round: 1, open: 0, anchor: "u" } : junk(rng) };
    case "block":
      return toolResultEntry(rng, "todo_loop_block", rng.chance(0.8) ? { v: 1, waiting: true, reason: text(rng, 20, 0.3), anchor: "u" } : junk(rng));
    case "other-custom-message":
      return { type: "custom_message", customType: "other:note", content: "note", display: rng.chance(0.5) };
    case "compaction":
      return { type: "compaction", summary: text(rng, 30, 0.05), firstKeptEntryId: "x", tokensBefore: rng.int(0, 200_000) };
    case "branch-summary":
      return { type: "branch_summary", fromId: "x", summary: text(rng, 20, 0.05) };
    case "model-change":
      return { type: "model_change", provider: "p", modelId: "m" };
    case "plan-executing":
      return {
        type: "custom",
        customType: "plan-mode",
        data: { enabled: false, executing: true, todos: Array.from({ length: rng.int(0, 3) }, (_, index) => ({ step: index + 1, text: text(rng, 5, 0.1), completed: rng.chance(0.4) })) },
      };
    case "plan-planning":
      return { type: "custom", customType: "plan-mode", data: { enabled: true, executing: false, todos: [] } };
    case "plan-off":
      return { type: "custom", customType: "plan-mode", data: { enabled: false, executing: false, todos: [] } };
    case "junk": {
      const entry: RawEntry = { type: junk(rng, 1) };
      for (let index = rng.int(0, 3); index > 0; index--) entry[rng.pick(["message", "customType", "data", "details", "role", "content"])] = junk(rng);
      return entry;
    }
  }
}

/** A random entry, with the kinds the loop cares about weighted up. */
export function anyEntry(rng: Random): RawEntry {
  const roll = rng.next();
  if (roll < 0.12) return entryOf(rng, "user");
  if (roll < 0.3) return entryOf(rng, "assistant");
  if (roll < 0.45) return entryOf(rng, "rpiv-result");
  if (roll < 0.52) return entryOf(rng, "marker");
  return entryOf(rng, rng.pick(ENTRY_KINDS));
}

