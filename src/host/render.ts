/**
 * The loop's lines in pi's interactive transcript: one dim line per continuation marker and one line per
 * stop record, drawn from the session entries, so a resumed session shows them too. Components are
 * structural (`render(width)` + `invalidate()`), so nothing is imported from pi; every line is cut to the
 * width it is given, measured in terminal columns.
 */
import type { ComponentLike, PiLike, ThemeColorLike, ThemeLike } from "../core/pi-shapes.ts";
import { isRecord } from "../core/record.ts";
import { MARKER_TYPE, STOP_TYPE } from "../state.ts";
import { commandName, continuationLine, sanitize, secondsText, stopLine } from "../core/text.ts";
import type { ContinuationView } from "../core/text.ts";

export const CONTINUE_MARK = "↻";
export const STOP_MARK = "■";
export const PASS_MARK = "✓";
export const FAIL_MARK = "✗";
/** pi's default `outputPad`: transcript text starts one column in. */
const PAD = 1;
/** A stop reason longer than this is cut before it is measured (the line is one row anyway). */
const MAX_REASON = 300;

/** Registers the continuation line and the stop line; `transcript()` is read each time a stop is drawn. */
export function registerRenderers(pi: PiLike, transcript: () => boolean): void {
  pi.registerMessageRenderer(MARKER_TYPE, (message, options, theme) => {
    // Never undefined: pi would fall back to showing the nudge's text.
    const pad = typeof options.outputPad === "number" && options.outputPad >= 0 ? Math.floor(options.outputPad) : PAD;
    const failed = verifyLine(message.details);
    if (failed !== undefined) return line(pad, [["warning", FAIL_MARK], ["dim", ` ${failed}`]], theme);
    return line(pad, [["dim", `${CONTINUE_MARK} ${continuationLine(continuationView(message.details))}`]], theme);
  });
  pi.registerEntryRenderer(STOP_TYPE, (entry, _options, theme) => {
    if (!transcriptOn(transcript)) return undefined;
    const stop = stopView(entry.data);
    const mark = verifyMark(entry.data);
    // A clear list that hands the testing to the person needs them (SPEC §4.23): drawn as such stops are.
    if (stop.handsOver) return line(PAD, [["warning", `${mark === PASS_MARK ? PASS_MARK : STOP_MARK} ${stopLine(stop.reason)}`]], theme);
    if (mark === PASS_MARK) return line(PAD, [["accent", PASS_MARK], ["dim", ` ${stopLine(stop.reason)}`]], theme);
    if (mark === FAIL_MARK) return line(PAD, [["warning", `${FAIL_MARK} ${stopLine(stop.reason)}`]], theme);
    if (stop.clear) return line(PAD, [["accent", STOP_MARK], ["dim", ` ${stopLine(stop.reason)}`]], theme);
    // Tasks from an earlier message: a note, not a warning (SPEC §4.15).
    if (stop.earlier) return line(PAD, [["dim", `${STOP_MARK} ${stopLine(stop.reason)}`]], theme);
    return line(PAD, [["warning", `${STOP_MARK} ${stopLine(stop.reason)}`]], theme);
  });
}

function transcriptOn(transcript: () => boolean): boolean {
  try {
    return transcript() !== false;
  } catch {
    return true;
  }
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** What a marker's `details` say, field by field; anything unreadable is left out (old or edited files). */
export function continuationView(details: unknown): ContinuationView {
  if (!isRecord(details)) return { round: undefined, open: undefined, total: undefined, cap: undefined };
  const open = count(details.open);
  const total = count(details.total);
  const cap = count(details.cap);
  return {
    round: count(details.round),
    open,
    total: open !== undefined && total !== undefined && total >= open ? total : undefined,
    cap: cap !== undefined && cap > 0 ? cap : undefined,
  };
}

/** A verification continuation's words (`todo loop: npm test failed (exit 1, 12 s) · continue 4`), or undefined for any other marker. */
export function verifyLine(details: unknown): string | undefined {
  if (!isRecord(details) || !isRecord(details.verify) || typeof details.verify.command !== "string") return undefined;
  const { command, exit, seconds } = details.verify;
  const code = typeof exit === "number" && Number.isInteger(exit) ? `exit ${exit}` : "failed";
  const time = typeof seconds === "number" && Number.isFinite(seconds) ? `, ${secondsText(seconds)}` : "";
  const round = count(details.round);
  return `todo loop: ${commandName(command)} failed (${code}${time})${round === undefined ? "" : ` · continue ${round}`}`;
}

/** ✓ for a verified stop, ✗ for a failed or unfinished verification, undefined otherwise. */
export function verifyMark(data: unknown): string | undefined {
  if (!isRecord(data)) return undefined;
  if (data.kind === "verify-failed" || data.kind === "verify-error") return FAIL_MARK;
  if (isRecord(data.verify) && data.verify.exit === 0) return PASS_MARK;
  return undefined;
}

/** A stop record's reason, sanitised (session files can be edited), whether it is the clear-list stop, and whether that hands the testing over. */
export function stopView(data: unknown): { reason: string; clear: boolean; earlier: boolean; handsOver: boolean } {
  const record = isRecord(data) ? data : {};
  const reason = sanitize(record.reason, MAX_REASON);
  // 0.1 records have no kind: the clear stop is known by its wording.
  const clear = record.kind === undefined ? reason === "stopped: list is clear" : record.kind === "clear";
  return { reason, clear, earlier: record.kind === "earlier", handsOver: clear && typeof record.handsOver === "string" && record.handsOver !== "" };
}

type Span = readonly [ThemeColorLike, string];

/** One row: `pad` spaces, then the spans, cut to the width in columns; colours are applied after the cut. */
function line(pad: number, spans: readonly Span[], theme: ThemeLike): ComponentLike {
  let cache: { width: number; lines: string[] } | undefined;
  return {
    render(width: number): string[] {
      if (cache?.width === width) return cache.lines;
      cache = { width, lines: [layout(pad, spans, width, theme)] };
      return cache.lines;
    },
    invalidate() {
      cache = undefined;
    },
  };
}

function layout(pad: number, spans: readonly Span[], width: number, theme: ThemeLike): string {
  const room = Math.floor(width) - pad;
  if (!(room > 0)) return "";
  const total = spans.reduce((sum, [, text]) => sum + columns(text), 0);
  const cut = total > room;
  let left = cut ? room - 1 : room;
  let out = " ".repeat(pad);
  let lastColour: ThemeColorLike | undefined;
  for (const [colour, text] of spans) {
    const part = fit(text, left);
    left -= columns(part);
    if (part !== "") out += theme.fg(colour, part);
    lastColour = colour;
    if (part !== text) break;
  }
  return cut ? out + theme.fg(lastColour ?? "dim", "…") : out;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** East Asian Wide and Fullwidth blocks (Unicode 15), as [first, last] code points. */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3],
  [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1],
  [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea],
  [0x26f2, 0x26f3], [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b],
  [0x2728, 0x2728], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797],
  [0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55], [0x2e80, 0x303e],
  [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3],
  [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff], [0x1aff0, 0x1b2ff], [0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a], [0x1f1e6, 0x1f1ff], [0x1f200, 0x1f265], [0x1f300, 0x1f64f], [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb], [0x1f7f0, 0x1f7f0], [0x1f90c, 0x1f9ff], [0x1fa70, 0x1faff], [0x20000, 0x3fffd],
];

function wide(point: number): boolean {
  for (const [first, last] of WIDE) {
    if (point < first) return false;
    if (point <= last) return true;
  }
  return false;
}

const ZERO = /^[\p{M}\p{Cf}\p{Cc}]+$/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

/** Columns one grapheme takes; errs wide, never narrow (a line drawn too wide breaks pi's frame). */
function graphemeColumns(segment: string): number {
  if (ZERO.test(segment)) return 0;
  const point = segment.codePointAt(0) ?? 0;
  if (point >= 0x20 && point < 0x7f && segment.length === 1) return 1;
  if (wide(point) || segment.includes("\ufe0f") || (point >= 0x1f000 && PICTOGRAPH.test(segment))) return 2;
  return 1;
}

/** The terminal columns of plain text (no escape sequences). */
export function columns(text: string): number {
  let sum = 0;
  for (const { segment } of graphemes.segment(text)) sum += graphemeColumns(segment);
  return sum;
}

/** The longest head of `text` that fits in `width` columns, cut between graphemes. */
export function fit(text: string, width: number): string {
  let used = 0;
  let out = "";
  for (const { segment } of graphemes.segment(text)) {
    const size = graphemeColumns(segment);
    if (used + size > width) break;
    used += size;
    out += segment;
  }
  return out;
}
