/**
 * A small ANSI → SVG converter for terminal screenshots. `parseAnsi` reads text with SGR escape
 * sequences (what `tmux capture-pane -e` prints) into rows of styled runs on a grid of terminal columns;
 * `toSvg` draws them in a monospace grid. SGR covers the 16 colours, the 256-colour palette and
 * truecolor (`;` and `:` forms), bold, dim, italic, underline, strikethrough, inverse and hidden; every
 * other escape sequence and control character is dropped. Text is XML-escaped. No dependencies.
 */
import { columns, fit } from "../src/host/render.ts";

/** A palette index (0–255) or a `#rrggbb` colour. */
export type Colour = number | string;

export interface Style {
  readonly fg: Colour | undefined;
  readonly bg: Colour | undefined;
  readonly bold: boolean;
  readonly dim: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  readonly strike: boolean;
  readonly inverse: boolean;
  readonly hidden: boolean;
}

/** Text of one style and one character width, starting at `column` and `width` columns wide. */
export interface Run {
  readonly text: string;
  readonly column: number;
  readonly width: number;
  readonly style: Style;
}

export const PLAIN: Style = {
  fg: undefined, bg: undefined, bold: false, dim: false, italic: false, underline: false, strike: false, inverse: false, hidden: false,
};

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** CSI (any final byte), OSC (to BEL or ST), charset and other ESC sequences, a stray ESC. */
const ESCAPE = /\u001b\[([0-9;:<=>?]*)([ -/]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -/]+[0-~]|\u001b[@-_]|\u001b/g;

/** Characters XML 1.0 does not allow, and other controls a screen has no use for. */
const UNSHOWABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function hex(r: number, g: number, b: number): string {
  const part = (value: number) => Math.max(0, Math.min(255, Math.round(value))).toString(16).padStart(2, "0");
  return `#${part(r)}${part(g)}${part(b)}`;
}

/** Reads an extended colour (`38;5;n`, `38;2;r;g;b`, or one `38:…` parameter) starting at `params[at]`; returns it and how many parameters it used. */
function extended(params: readonly string[], at: number): { colour: Colour | undefined; used: number } {
  const head = params[at] ?? "";
  if (head.includes(":")) {
    const parts = head.split(":");
    if (parts[1] === "5") return { colour: index(parts[2]), used: 1 };
    if (parts[1] === "2") {
      // 38:2:r:g:b or 38:2:<colour space>:r:g:b
      const rgb = parts.length >= 6 ? parts.slice(3, 6) : parts.slice(2, 5);
      return { colour: rgbOf(rgb), used: 1 };
    }
    return { colour: undefined, used: 1 };
  }
  const mode = params[at + 1];
  if (mode === "5") return { colour: index(params[at + 2]), used: 3 };
  if (mode === "2") return { colour: rgbOf(params.slice(at + 2, at + 5)), used: 5 };
  return { colour: undefined, used: 1 };
}

function index(value: string | undefined): Colour | undefined {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isInteger(n) && n >= 0 && n <= 255 ? n : undefined;
}

function rgbOf(parts: readonly string[]): Colour | undefined {
  if (parts.length !== 3) return undefined;
  const values = parts.map((part) => Number(part));
  if (values.some((value) => !Number.isInteger(value) || value < 0 || value > 255)) return undefined;
  const [r = 0, g = 0, b = 0] = values;
  return hex(r, g, b);
}

/** The style after one SGR sequence (`params` is what sits between `ESC[` and `m`). */
export function applySgr(style: Style, params: string): Style {
  const list = params === "" ? ["0"] : params.split(";");
  let next = style;
  for (let at = 0; at < list.length; at++) {
    const param = list[at] ?? "";
    const code = Number(param.split(":")[0] || "0");
    if (code === 38 || code === 48) {
      const { colour, used } = extended(list, at);
      at += used - 1;
      next = code === 38 ? { ...next, fg: colour } : { ...next, bg: colour };
      continue;
    }
    if (code === 0) next = PLAIN;
    else if (code === 1) next = { ...next, bold: true };
    else if (code === 2) next = { ...next, dim: true };
    else if (code === 3) next = { ...next, italic: true };
    else if (code === 4) next = { ...next, underline: param !== "4:0" };
    else if (code === 7) next = { ...next, inverse: true };
    else if (code === 8) next = { ...next, hidden: true };
    else if (code === 9) next = { ...next, strike: true };
    else if (code === 21) next = { ...next, underline: true };
    else if (code === 22) next = { ...next, bold: false, dim: false };
    else if (code === 23) next = { ...next, italic: false };
    else if (code === 24) next = { ...next, underline: false };
    else if (code === 27) next = { ...next, inverse: false };
    else if (code === 28) next = { ...next, hidden: false };
    else if (code === 29) next = { ...next, strike: false };
    else if (code >= 30 && code <= 37) next = { ...next, fg: code - 30 };
    else if (code === 39) next = { ...next, fg: undefined };
    else if (code >= 40 && code <= 47) next = { ...next, bg: code - 40 };
    else if (code === 49) next = { ...next, bg: undefined };
    else if (code >= 90 && code <= 97) next = { ...next, fg: code - 90 + 8 };
    else if (code >= 100 && code <= 107) next = { ...next, bg: code - 100 + 8 };
  }
  return next;
}

function sameStyle(a: Style, b: Style): boolean {
  return a.fg === b.fg && a.bg === b.bg && a.bold === b.bold && a.dim === b.dim && a.italic === b.italic &&
    a.underline === b.underline && a.strike === b.strike && a.inverse === b.inverse && a.hidden === b.hidden;
}

/**
 * Rows of runs, one row per input line. The style carries over from line to line (as on a terminal);
 * a new run starts where the style or the character width (1 or 2 columns) changes. Tabs advance to
 * the next multiple of 8; zero-width graphemes stay with the run before them.
 */
export function parseAnsi(input: string): Run[][] {
  const out: Run[][] = [];
  let style = PLAIN;
  for (const line of input.replace(/\r\n?/g, "\n").split("\n")) {
    const runs: Run[] = [];
    /** Whether each run holds double-width characters (a run never mixes widths). */
    const wide: boolean[] = [];
    let column = 0;
    const add = (text: string, width: number) => {
      const last = runs.length - 1;
      const run = runs[last];
      if (run && sameStyle(run.style, style) && (width === 0 || wide[last] === (width === 2))) {
        runs[last] = { ...run, text: run.text + text, width: run.width + width };
      } else {
        runs.push({ text, column, width, style });
        wide.push(width === 2);
      }
      column += width;
    };
    let at = 0;
    ESCAPE.lastIndex = 0;
    for (let match = ESCAPE.exec(line); ; match = ESCAPE.exec(line)) {
      const end = match ? match.index : line.length;
      for (const { segment } of graphemes.segment(line.slice(at, end))) {
        if (segment === "\t") {
          add(" ".repeat(8 - (column % 8)), 8 - (column % 8));
          continue;
        }
        const clean = segment.replace(UNSHOWABLE, "");
        if (clean === "") continue;
        add(clean, columns(clean));
      }
      if (!match) break;
      if (match[3] === "m" && match[2] === "" && match[1] !== undefined && !/[<=>?]/.test(match[1])) style = applySgr(style, match[1]);
      at = match.index + match[0].length;
    }
    out.push(runs);
  }
  return out;
}

export interface SvgOptions {
  /** The 16 base colours, 0–15. */
  readonly palette?: readonly string[];
  readonly foreground?: string;
  readonly background?: string;
  readonly fontSize?: number;
  /** Width of one column in px; default 0.6 × fontSize. */
  readonly cellWidth?: number;
  /** Height of one row in px; default 1.25 × fontSize. */
  readonly lineHeight?: number;
  readonly padding?: number;
  /** Grid width in columns; default the widest row. */
  readonly columns?: number;
  /** Read by screen readers (`<title>`, `aria-label`). */
  readonly title?: string;
}

/** A dark palette for the 16 base colours (chosen for this project's screenshots). */
export const DARK_PALETTE: readonly string[] = [
  "#1b1e23", "#e26d6d", "#86c46b", "#e2b85c", "#5e9de0", "#c07bd6", "#4db5c2", "#c8cdd5",
  "#5a606b", "#f08a8a", "#a3da85", "#f0cf7a", "#82b5f0", "#d69ee5", "#74cdd7", "#eef1f5",
];

const CUBE = [0, 95, 135, 175, 215, 255];

/** The `#rrggbb` of a palette index or colour. */
export function resolveColour(colour: Colour, palette: readonly string[] = DARK_PALETTE): string {
  if (typeof colour === "string") return colour;
  if (colour < 16) return palette[colour] ?? DARK_PALETTE[colour] ?? "#000000";
  if (colour < 232) {
    const n = colour - 16;
    return hex(CUBE[Math.floor(n / 36)] ?? 0, CUBE[Math.floor(n / 6) % 6] ?? 0, CUBE[n % 6] ?? 0);
  }
  const grey = 8 + (colour - 232) * 10;
  return hex(grey, grey, grey);
}

/** `a` moved `amount` (0–1) of the way towards `b`. */
function mix(a: string, b: string, amount: number): string {
  const channels = (value: string) => [1, 3, 5].map((at) => parseInt(value.slice(at, at + 2), 16));
  const [ar = 0, ag = 0, ab = 0] = channels(a);
  const [br = 0, bg = 0, bb = 0] = channels(b);
  return hex(ar + (br - ar) * amount, ag + (bg - ag) * amount, ab + (bb - ab) * amount);
}

/** Text safe inside an XML element or a double-quoted attribute. */
export function escapeXml(text: string): string {
  return text
    .replace(UNSHOWABLE, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function px(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Draws `input` (text with SGR sequences) as an SVG document. */
export function toSvg(input: string, options: SvgOptions = {}): string {
  const palette = options.palette ?? DARK_PALETTE;
  const foreground = options.foreground ?? "#d5d9df";
  const background = options.background ?? "#15171b";
  const fontSize = options.fontSize ?? 14;
  const cell = options.cellWidth ?? fontSize * 0.6;
  const line = options.lineHeight ?? fontSize * 1.25;
  const padding = options.padding ?? 16;
  const grid = parseAnsi(input);
  const widest = Math.max(0, ...grid.map((runs) => runs.reduce((end, run) => Math.max(end, run.column + run.width), 0)));
  const cols = options.columns ?? widest;
  const width = cols * cell + 2 * padding;
  const height = grid.length * line + 2 * padding;
  const title = options.title ?? "terminal";
  const rects: string[] = [];
  const texts: string[] = [];
  grid.forEach((runs, row) => {
    const top = padding + row * line;
    const baseline = top + (line - fontSize) / 2 + fontSize * 0.8;
    for (const run of runs) {
      if (run.column >= cols) continue;
      const { style } = run;
      let fg = style.fg === undefined ? foreground : resolveColour(style.fg, palette);
      let bg = style.bg === undefined ? undefined : resolveColour(style.bg, palette);
      if (style.inverse) [fg, bg] = [bg ?? background, fg];
      if (style.dim) fg = mix(fg, bg ?? background, 0.45);
      const x = padding + run.column * cell;
      const text = run.column + run.width > cols ? fit(run.text, cols - run.column) : run.text;
      const span = (run.column + run.width > cols ? columns(text) : run.width) * cell;
      if (bg !== undefined) rects.push(`<rect x="${px(x)}" y="${px(top)}" width="${px(span)}" height="${px(line)}" fill="${bg}"/>`);
      // Blanks at either end are left out, so the stretch to the grid applies to visible characters only.
      const shown = text.replace(/^ +/, "").replace(/ +$/, "");
      if (style.hidden || span <= 0 || shown === "") continue;
      const lead = text.length - text.replace(/^ +/, "").length;
      const attributes = [
        `x="${px(x + lead * cell)}"`,
        `y="${px(baseline)}"`,
        `textLength="${px(columns(shown) * cell)}"`,
        `lengthAdjust="spacingAndGlyphs"`,
        fg === foreground ? "" : `fill="${fg}"`,
        style.bold ? `font-weight="bold"` : "",
        style.italic ? `font-style="italic"` : "",
        style.underline || style.strike ? `text-decoration="${[style.underline ? "underline" : "", style.strike ? "line-through" : ""].filter(Boolean).join(" ")}"` : "",
      ].filter(Boolean);
      texts.push(`<text ${attributes.join(" ")}>${escapeXml(shown)}</text>`);
    }
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px(width)}" height="${px(height)}" viewBox="0 0 ${px(width)} ${px(height)}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<style>text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace;font-size:${px(fontSize)}px;white-space:pre}</style>`,
    `<rect width="100%" height="100%" rx="8" fill="${background}"/>`,
    `<g fill="${foreground}" xml:space="preserve">`,
    ...rects,
    ...texts,
    `</g>`,
    `</svg>`,
    "",
  ].join("\n");
}
