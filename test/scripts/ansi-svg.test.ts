/**
 * scripts/ansi-svg.ts, the screenshot converter: SGR colours (16, 256, truecolor) and attributes are
 * read as a terminal would, other escape sequences are dropped, characters sit on a grid of terminal
 * columns (double-width ones take two), and the SVG is well-formed with its text XML-escaped.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { applySgr, DARK_PALETTE, escapeXml, parseAnsi, PLAIN, resolveColour, toSvg } from "../../scripts/ansi-svg.ts";
import type { Run, Style } from "../../scripts/ansi-svg.ts";

const ESC = "\u001b";

function style(overrides: Partial<Style> = {}): Style {
  return { ...PLAIN, ...overrides };
}

function only(input: string): Run[] {
  const rows = parseAnsi(input);
  assert.equal(rows.length, 1);
  return rows[0] ?? [];
}

/** Elements open and close in order; no raw `<` or `&` outside markup and entities. */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let at = 0;
  for (let match = tag.exec(svg); match; match = tag.exec(svg)) {
    const between = svg.slice(at, match.index);
    assert.doesNotMatch(between, /[<>]/, `stray markup: ${between}`);
    assert.doesNotMatch(between, /&(?!(amp|lt|gt|quot|apos);)/, `stray &: ${between}`);
    const [, closing, name = "", , selfClosing] = match;
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes nothing open`);
    else if (!selfClosing) stack.push(name);
    at = match.index + match[0].length;
  }
  assert.equal(svg.slice(at).trim(), "");
  assert.deepEqual(stack, [], "unclosed elements");
}

test("plain text is one run of the default style at column 0", () => {
  assert.deepEqual(only("hello world"), [{ text: "hello world", column: 0, width: 11, style: PLAIN }]);
});

test("the 16 colours: 30–37 / 40–47, bright 90–97 / 100–107, and 39 / 49 back to the default", () => {
  assert.deepEqual(applySgr(PLAIN, "31;42"), style({ fg: 1, bg: 2 }));
  assert.deepEqual(applySgr(PLAIN, "97;104"), style({ fg: 15, bg: 12 }));
  assert.deepEqual(applySgr(style({ fg: 3, bg: 4 }), "39;49"), PLAIN);
});

test("256 colours and truecolor, in the ; and the : forms", () => {
  assert.deepEqual(applySgr(PLAIN, "38;5;208;48;5;17"), style({ fg: 208, bg: 17 }));
  assert.deepEqual(applySgr(PLAIN, "38;2;10;20;30"), style({ fg: "#0a141e" }));
  assert.deepEqual(applySgr(PLAIN, "48;2;255;255;255;1"), style({ bg: "#ffffff", bold: true }));
  assert.deepEqual(applySgr(PLAIN, "38:5:39"), style({ fg: 39 }));
  assert.deepEqual(applySgr(PLAIN, "38:2::1:2:3"), style({ fg: "#010203" }));
  assert.deepEqual(applySgr(PLAIN, "38:2:1:2:3"), style({ fg: "#010203" }));
  assert.deepEqual(applySgr(PLAIN, "38;5;999"), style({ fg: undefined }), "out of range is the default");
});

test("the palette: 16 base colours, the 6×6×6 cube, the grey ramp, #rrggbb as is", () => {
  assert.equal(resolveColour(1), DARK_PALETTE[1]);
  assert.equal(resolveColour(16), "#000000");
  assert.equal(resolveColour(196), "#ff0000");
  assert.equal(resolveColour(39), "#00afff");
  assert.equal(resolveColour(231), "#ffffff");
  assert.equal(resolveColour(232), "#080808");
  assert.equal(resolveColour(255), "#eeeeee");
  assert.equal(resolveColour("#123456"), "#123456");
});

test("attributes switch on and off: 1/2 and 22, 3 and 23, 4 and 24, 7 and 27, 9 and 29, 8 and 28; 0 and an empty SGR reset all", () => {
  const all = applySgr(PLAIN, "1;2;3;4;7;8;9");
  assert.deepEqual(all, style({ bold: true, dim: true, italic: true, underline: true, inverse: true, hidden: true, strike: true }));
  assert.deepEqual(applySgr(all, "22;23;24;27;28;29"), PLAIN);
  assert.deepEqual(applySgr(all, "0"), PLAIN);
  assert.deepEqual(applySgr(all, ""), PLAIN);
  assert.deepEqual(applySgr(PLAIN, "4:3"), style({ underline: true }));
  assert.deepEqual(applySgr(style({ underline: true }), "4:0"), PLAIN);
});

test("runs split where the style changes, with columns; the style carries over to the next line", () => {
  const rows = parseAnsi(` ${ESC}[2m↻ todo loop${ESC}[22m ok${ESC}[33m\nyellow`);
  assert.deepEqual(rows[0], [
    { text: " ", column: 0, width: 1, style: PLAIN },
    { text: "↻ todo loop", column: 1, width: 11, style: style({ dim: true }) },
    { text: " ok", column: 12, width: 3, style: PLAIN },
  ]);
  assert.deepEqual(rows[1], [{ text: "yellow", column: 0, width: 6, style: style({ fg: 3 }) }]);
});

test("double-width characters take two columns and get runs of their own", () => {
  assert.deepEqual(only("a中文b😀"), [
    { text: "a", column: 0, width: 1, style: PLAIN },
    { text: "中文", column: 1, width: 4, style: PLAIN },
    { text: "b", column: 5, width: 1, style: PLAIN },
    { text: "😀", column: 6, width: 2, style: PLAIN },
  ]);
  assert.deepEqual(only("e\u0301x"), [{ text: "e\u0301x", column: 0, width: 2, style: PLAIN }], "a combining mark adds no column");
});

test("escape sequences other than SGR and stray control characters are dropped", () => {
  const input = `a${ESC}[2Kb${ESC}]0;title${ESC}\\c${ESC}]8;;https://x.test${ESC}\\d${ESC}]8;;${ESC}\\e${ESC}(Bf${ESC}[?25lg\u0007h\u0000i${ESC}`;
  assert.deepEqual(only(input), [{ text: "abcdefghi", column: 0, width: 9, style: PLAIN }]);
});

test("a tab advances to the next multiple of eight columns", () => {
  assert.deepEqual(only("ab\tc"), [{ text: "ab      c", column: 0, width: 9, style: PLAIN }]);
});

test("XML escaping covers & < > \" ' and drops characters XML cannot hold", () => {
  assert.equal(escapeXml(`<a href="x">&'</a>`), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  assert.equal(escapeXml("a\u0001b\ufffec\ud800d"), "abcd");
});

test("toSvg: a well-formed document with a monospace grid sized columns × rows", () => {
  const svg = toSvg(`${ESC}[1mbold${ESC}[0m <tag> & "q"\n${ESC}[7minv${ESC}[27m ${ESC}[2;33mdim${ESC}[0m ${ESC}[3;4;9mx${ESC}[0m`, { fontSize: 10, cellWidth: 6, lineHeight: 12, padding: 4, title: "a <test>" });
  assertWellFormed(svg);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="104" height="32" viewBox="0 0 104 32"/, "16 columns × 6 + 8, 2 rows × 12 + 8");
  assert.match(svg, /<title>a &lt;test&gt;<\/title>/);
  assert.match(svg, /font-family:[^;]*monospace/);
  assert.match(svg, /<text x="4" y="[\d.]+" textLength="24" lengthAdjust="spacingAndGlyphs" font-weight="bold">bold<\/text>/);
  assert.match(svg, /<text x="34" [^>]*>&lt;tag&gt; &amp; &quot;q&quot;<\/text>/, "the leading blank is a gap, not text");
  // Inverse: the default foreground becomes the cell's background, the default background the text colour.
  assert.match(svg, /<rect x="4" y="16" width="18" height="12" fill="#d5d9df"\/>/);
  assert.match(svg, /fill="#15171b">inv<\/text>/);
  // Dim: the colour moves towards the background.
  const dim = /fill="(#[0-9a-f]{6})">dim<\/text>/.exec(svg);
  assert.ok(dim, "dim text drawn");
  assert.notEqual(dim[1], DARK_PALETTE[3]);
  assert.match(svg, /font-style="italic" text-decoration="underline line-through">x<\/text>/);
});

test("toSvg: double-width characters are stretched over two columns each; blank runs draw nothing", () => {
  const svg = toSvg("中文   a", { cellWidth: 10, padding: 0 });
  assert.match(svg, /<text x="0" [^>]*textLength="40"[^>]*>中文<\/text>/);
  assert.match(svg, /<text x="70" [^>]*textLength="10"[^>]*>a<\/text>/);
  assert.equal((svg.match(/<text /g) ?? []).length, 2);
});

test("toSvg: a grid narrower than the text clips it; an empty screen is still a document", () => {
  const svg = toSvg("abcdef", { cellWidth: 10, padding: 0, columns: 3 });
  assert.match(svg, /width="30"/);
  assert.match(svg, /textLength="30"[^>]*>abc<\/text>/);
  assertWellFormed(toSvg(""));
});
