/**
 * The transcript lines (SPEC §7): one dim line per continuation marker, one line per stop record, drawn
 * by the renderers src/host/render.ts registers — from whatever the session file holds (current, 0.1 and
 * hand-edited entries), within the width pi gives, and never the nudge's text.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { visibleWidth } from "@earendil-works/pi-tui";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import type { ComponentLike, RenderedEntryLike, RenderedMessageLike, ThemeColorLike, ThemeLike } from "../../src/core/pi-shapes.ts";
import { columns, fit, registerRenderers } from "../../src/host/render.ts";
import { nudgeText } from "../../src/core/text.ts";
import { createFakePi } from "../fake-pi.ts";
import type { FakePi } from "../fake-pi.ts";
import { HOSTILE } from "../gen.ts";

const MARKER = "todo-loop:continue";
const STOP = "todo-loop:stop";

/** Marks each coloured span as `<colour>text</colour>`, so a test reads colours without escape codes. */
const TAGS: ThemeLike = { fg: (color, text) => `<${color}>${text}</${color}>` };

/** Colours as a terminal theme would (SGR codes), for measuring with pi-tui's own visibleWidth. */
const SGR: Record<ThemeColorLike, string> = { dim: "\u001b[2m", accent: "\u001b[38;5;39m", warning: "\u001b[33m" };
const ANSI: ThemeLike = { fg: (color, text) => `${SGR[color]}${text}\u001b[0m` };

function untagged(line: string): string {
  return line.replace(/<\/?(dim|accent|warning)>/g, "");
}

function renderers(transcript: () => boolean = () => true): FakePi {
  const pi = createFakePi();
  registerRenderers(pi, transcript);
  return pi;
}

function markerComponent(pi: FakePi, details: unknown, theme: ThemeLike = TAGS, outputPad = 1): ComponentLike {
  const renderer = pi.messageRenderers.get(MARKER);
  assert.ok(renderer, "a message renderer for todo-loop:continue");
  const message: RenderedMessageLike & { content: string; display: boolean } = {
    customType: MARKER,
    content: nudgeText("todo", true),
    display: true,
    details,
  };
  return renderer(message, { expanded: false, outputPad }, theme);
}

function stopComponent(pi: FakePi, data: unknown, theme: ThemeLike = TAGS): ComponentLike | undefined {
  const renderer = pi.entryRenderers.get(STOP);
  assert.ok(renderer, "an entry renderer for todo-loop:stop");
  const entry: RenderedEntryLike = { customType: STOP, data };
  return renderer(entry, { expanded: false }, theme);
}

function only(component: ComponentLike | undefined, width = 140): string {
  assert.ok(component, "a component");
  const lines = component.render(width);
  assert.equal(lines.length, 1, "one line");
  return lines[0] ?? "";
}

const details = (overrides: Record<string, unknown> = {}) => ({
  v: 1, round: 3, anchor: "u1", open: 2, total: 5, cap: null, hint: false, idle: 0, stale: 1, ...overrides,
});
const stop = (overrides: Record<string, unknown> = {}) => ({
  v: 1, kind: "clear", reason: "stopped: list is clear", round: 2, open: 0, anchor: "u1", ...overrides,
});

test("the extension registers one message renderer for its marker and one entry renderer for its stop record", () => {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  assert.deepEqual([...pi.messageRenderers.keys()], [MARKER]);
  assert.deepEqual([...pi.entryRenderers.keys()], [STOP]);
});

test("a continuation is one dim line: ↻ todo loop: continue 3 · 2 of 5 open", () => {
  assert.equal(only(markerComponent(renderers(), details())), " <dim>↻ todo loop: continue 3 · 2 of 5 open</dim>");
});

test("a continuation under a round cap names it: continue 3/12", () => {
  assert.equal(untagged(only(markerComponent(renderers(), details({ cap: 12 })))), " ↻ todo loop: continue 3/12 · 2 of 5 open");
});

test("a 0.1 marker (no total, no cap) reads as continue 3 · 2 open", () => {
  const old = { v: 1, round: 3, anchor: "u1", open: 2, hint: false };
  assert.equal(untagged(only(markerComponent(renderers(), old))), " ↻ todo loop: continue 3 · 2 open");
});

test("a continuation line never shows the nudge's text, whatever the details hold", () => {
  const pi = renderers();
  for (const junk of [undefined, null, "continue", 7, [], {}, details({ round: -1, open: "2", total: 1.5 }), details({ open: 6, total: 5 }), details({ cap: 0 })]) {
    const line = untagged(only(markerComponent(pi, junk)));
    assert.match(line, /^ ↻ todo loop: continue( \d+(\/\d+)?)?( · \d+( of \d+)? open)?$/, JSON.stringify(junk));
    assert.ok(!line.includes("Continue with"), "no nudge text");
  }
  assert.equal(untagged(only(markerComponent(pi, details({ open: 6, total: 5 })))), " ↻ todo loop: continue 3 · 6 open", "a total below open is dropped");
  assert.equal(untagged(only(markerComponent(pi, details({ cap: 0 })))), " ↻ todo loop: continue 3 · 2 of 5 open", "a cap of 0 is no cap");
});

test("the continuation line starts at pi's outputPad", () => {
  assert.equal(untagged(only(markerComponent(renderers(), details(), TAGS, 3))), "   ↻ todo loop: continue 3 · 2 of 5 open");
  assert.equal(untagged(only(markerComponent(renderers(), details(), TAGS, 0))), "↻ todo loop: continue 3 · 2 of 5 open");
});

test("a clear-list stop is one line: ■ todo loop stopped: list is clear, mark in accent, words dim", () => {
  assert.equal(only(stopComponent(renderers(), stop())), " <accent>■</accent><dim> todo loop stopped: list is clear</dim>");
});

test("every other stop kind is one line in the warning colour", () => {
  const pi = renderers();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ kind: "limit", limit: "maxRounds", reason: "stopped: 3 continuations used, 2 tasks still open", open: 2 }, "■ todo loop stopped: 3 continuations used, 2 tasks still open"],
    [{ kind: "waiting", reason: "waiting for you: which database should I migrate?" }, "■ todo loop waiting for you: which database should I migrate?"],
    [{ kind: "outcome", reason: "stopped: turn outcome was error" }, "■ todo loop stopped: turn outcome was error"],
    [{ kind: "no-list", reason: "stopped: no list (no todo tool is active)" }, "■ todo loop stopped: no list (no todo tool is active)"],
  ];
  for (const [overrides, words] of cases) assert.equal(only(stopComponent(pi, stop(overrides))), ` <warning>${words}</warning>`);
});

test("a 0.1 stop record (reason only) is read by its reason: clear in dim, anything else as a warning", () => {
  const pi = renderers();
  assert.equal(only(stopComponent(pi, { reason: "stopped: list is clear", round: 1, open: 0, anchor: "u1" })), " <accent>■</accent><dim> todo loop stopped: list is clear</dim>");
  assert.equal(only(stopComponent(pi, { reason: "stopped: 12 rounds used", round: 12, open: 3, anchor: "u1" })), " <warning>■ todo loop stopped: 12 rounds used</warning>");
});

test("a stop record with no readable reason still draws one harmless line", () => {
  const pi = renderers();
  for (const data of [undefined, null, 5, "stopped", [], {}, { kind: "limit", reason: 42 }]) {
    assert.match(untagged(only(stopComponent(pi, data))), /^ ■ todo loop stopped$/, JSON.stringify(data));
  }
});

test("a hostile stop reason from an edited session file is sanitised: no control, bidi, zero-width or line-break character reaches the screen", () => {
  const pi = renderers();
  const reason = `waiting for you: ${HOSTILE.join("x")}\u001b]0;pwned\u0007\u001b[2J done`;
  const line = untagged(only(stopComponent(pi, stop({ kind: "waiting", reason }))));
  assert.ok(line.startsWith(" ■ todo loop waiting for you: x"), line);
  for (const char of line) {
    const code = char.codePointAt(0) ?? 0;
    const bad = code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2060 && code <= 0x206f) || code === 0xfeff || code === 0x061c || code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff);
    assert.ok(!bad, `U+${code.toString(16)} reached the line`);
  }
});

test("with the transcript off a stop record draws nothing; a marker still draws its line, never its content", () => {
  let on = false;
  const pi = renderers(() => on);
  assert.equal(stopComponent(pi, stop()), undefined);
  assert.equal(untagged(only(markerComponent(pi, details()))), " ↻ todo loop: continue 3 · 2 of 5 open");
  on = true;
  assert.ok(stopComponent(pi, stop()), "read each time a stop is drawn");
});

test("a transcript setting that throws draws the stop line (the default is on)", () => {
  const pi = renderers(() => {
    throw new Error("unreadable config");
  });
  assert.equal(untagged(only(stopComponent(pi, stop()))), " ■ todo loop stopped: list is clear");
});

test("no line is ever wider than the width pi gives, measured by pi-tui's visibleWidth, colours included", () => {
  const pi = renderers();
  const components: ComponentLike[] = [
    markerComponent(pi, details({ round: 999, cap: 1000, open: 123456, total: 1234567 }), ANSI),
    stopComponent(pi, stop(), ANSI),
    stopComponent(pi, stop({ kind: "waiting", reason: `waiting for you: ${"a long reason ".repeat(20)}` }), ANSI),
    stopComponent(pi, stop({ kind: "waiting", reason: "waiting for you: 数据库迁移需要你的决定，请选择一个 😀👍🏽🇩🇪 e\u0301 ok" }), ANSI),
  ].flatMap((component) => (component ? [component] : []));
  assert.equal(components.length, 4);
  for (const component of components) {
    for (let width = 0; width <= 160; width++) {
      const lines = component.render(width);
      assert.equal(lines.length, 1);
      const line = lines[0] ?? "";
      assert.ok(visibleWidth(line) <= width, `width ${width}: ${visibleWidth(line)} columns: ${JSON.stringify(line)}`);
    }
  }
});

test("a line that does not fit is cut between characters and ends in …; one that fits is whole", () => {
  const pi = renderers();
  const component = markerComponent(pi, details());
  assert.equal(untagged(only(component, 38)), " ↻ todo loop: continue 3 · 2 of 5 open", "exactly fits");
  assert.equal(untagged(only(component, 37)), " ↻ todo loop: continue 3 · 2 of 5 op…");
  assert.equal(untagged(only(component, 2)), " …");
  assert.equal(only(component, 1), "");
  const wide = stopComponent(pi, stop({ kind: "waiting", reason: "waiting for you: 数据库" }));
  assert.equal(untagged(only(wide, 40)), " ■ todo loop waiting for you: 数据库");
  assert.equal(untagged(only(wide, 36)), " ■ todo loop waiting for you: 数据库", "exactly fits");
  assert.equal(untagged(only(wide, 34)), " ■ todo loop waiting for you: 数…", "a wide character is never split");
});

test("render keeps its lines per width until invalidate()", () => {
  const component = markerComponent(renderers(), details());
  const first = component.render(80);
  assert.equal(component.render(80), first);
  assert.notEqual(component.render(60), first);
  const again = component.render(60);
  component.invalidate();
  assert.notEqual(component.render(60), again);
  assert.deepEqual(component.render(60), again);
});

test("columns() never counts narrower than pi-tui's visibleWidth", () => {
  const samples = ["plain ascii", "↻ ■ · … — “quotes”", "é ß ж ω ע ب", "中文字符", "한국어", "ｆｕｌｌｗｉｄｔｈ", "😀", "👍🏽", "🇩🇪", "e\u0301", "❤️", "⚡", "✅", "𝄞", "ﾊﾝｶｸ"];
  for (const sample of samples) {
    assert.ok(columns(sample) >= visibleWidth(sample), `${sample}: ${columns(sample)} < ${visibleWidth(sample)}`);
  }
  for (const sample of ["plain ascii", "↻ ■ · … — “quotes”", "é ß ж ω ע ب", "中文字符", "😀", "👍🏽", "e\u0301"]) {
    assert.equal(columns(sample), visibleWidth(sample), sample);
  }
  assert.equal(fit("中文字符", 5), "中文");
  assert.equal(fit("e\u0301e\u0301", 1), "e\u0301");
});

test("a continuation past its cap (at your request) never reads 3/2: continue 3 (limit 2, at your request)", () => {
  assert.equal(untagged(only(markerComponent(renderers(), details({ cap: 2 })))), " ↻ todo loop: continue 3 (limit 2, at your request) · 2 of 5 open");
  assert.equal(untagged(only(markerComponent(renderers(), details({ cap: 3 })))), " ↻ todo loop: continue 3/3 · 2 of 5 open");
});

test("an abort's stop line reads: todo loop stopped: you stopped it (Escape)", () => {
  const data = stop({ kind: "outcome", reason: "stopped: you stopped it (Escape)", open: 1 });
  assert.equal(only(stopComponent(renderers(), data)), " <warning>■ todo loop stopped: you stopped it (Escape)</warning>");
});

test("an earlier-message stop is one dim line, a note rather than a warning (SPEC §4.15)", () => {
  const reason = "not continuing: 2 tasks are open from an earlier message — /todoloop continue to go on with them";
  assert.equal(only(stopComponent(renderers(), stop({ kind: "earlier", reason, open: 2, list: "0badc0de" }))), ` <dim>■ todo loop ${reason}</dim>`);
});
