/**
 * sanitize() (SPEC §10): text that came from the model or the session file is made safe before a
 * person sees it — control, bidi and zero-width characters removed, line breaks flattened, unpaired
 * surrogates dropped, length capped by code point — and the places it is applied: the block reason in
 * the warning and in /todoloop (also when read back from the session), task texts in the deleted-tasks
 * warning, and an unknown sub-command echoed back.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import todoLoop from "../src/index.ts";
import { describeNotice, sanitize } from "../src/text.ts";
import { assistant, blockResult, rpivDetails, task, todoResult, toolResultMessage, toolTurn, user } from "./builders.ts";
import type { Entry } from "./builders.ts";
import { createContext, createFakePi, createSession } from "./fake-pi.ts";
import type { FakeContext, FakePi } from "./fake-pi.ts";
import { forAll, HOSTILE, text } from "./gen.ts";

const root = mkdtempSync(join(tmpdir(), "todo-loop-sanitize-"));
const agentDir = join(root, "agent");
const cwd = join(root, "project");
mkdirSync(agentDir);
mkdirSync(cwd);
process.env.PI_CODING_AGENT_DIR = agentDir;
process.on("exit", () => rmSync(root, { recursive: true, force: true }));

const BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"];
const ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"];
const LINE_BREAKS = ["\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085"];

function hex(char: string): string {
  return Array.from(char, (point) => `U+${(point.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`).join(" ");
}

/** The first character a display must not receive raw, judged code point by code point. */
function firstHostile(value: string): string | undefined {
  for (const point of value) {
    const code = point.codePointAt(0) ?? 0;
    const control = code <= 0x1f || (code >= 0x7f && code <= 0x9f);
    const lone = code >= 0xd800 && code <= 0xdfff;
    if (control || lone || BIDI.includes(point) || ZERO_WIDTH.includes(point) || point === "\u2028" || point === "\u2029") return hex(point);
  }
  return undefined;
}

function points(value: string): number {
  return Array.from(value).length;
}

// ---- sanitize() --------------------------------------------------------------------------------------

test("sanitize removes C0 controls, DEL and C1 controls", () => {
  assert.equal(sanitize("a\u0000b\u0007c\u001bd\u007fe\u0080f\u009bg\u009fh"), "abcdefgh");
  assert.equal(sanitize("\u001b[31mred\u001b[0m"), "[31mred[0m", "an escape sequence loses its ESC, so the terminal shows it inert");
});

test("sanitize removes every bidi control: U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C", () => {
  for (const char of BIDI) assert.equal(sanitize(`pay${char}lap`), "paylap", hex(char));
  assert.equal(sanitize("\u202eexe.txt\u202c"), "exe.txt");
});

test("sanitize removes zero-width characters: U+200B–200D, U+2060, U+FEFF", () => {
  for (const char of ZERO_WIDTH) assert.equal(sanitize(`to${char}do`), "todo", hex(char));
});

test("sanitize flattens line breaks (\\n, \\r\\n, \\r, U+2028, U+2029, U+0085) and tabs to one space", () => {
  for (const brk of LINE_BREAKS) assert.equal(sanitize(`first${brk}second`), "first second", hex(brk));
  assert.equal(sanitize("a\n\n\r\n\u2028b"), "a b", "a run of breaks is one space");
  assert.equal(sanitize("a\tb\u000bc\u000cd"), "a b c d");
  assert.equal(sanitize("\n  padded  \n"), "padded", "no leading or trailing space");
});

test("sanitize drops unpaired surrogates, lone high or lone low, and keeps real pairs", () => {
  assert.equal(sanitize("a\ud800b"), "ab", "lone high");
  assert.equal(sanitize("a\udc00b"), "ab", "lone low");
  assert.equal(sanitize("end\ud83d"), "end", "high at the end");
  assert.equal(sanitize("\ude00start"), "start", "low at the start");
  assert.equal(sanitize("\ude00\ud83d"), "", "a reversed pair is two lone halves");
  assert.equal(sanitize("ok \ud83d\ude00"), "ok 😀", "a real pair stays");
  assert.equal(sanitize("\ud83d\ud83d\ude00"), "😀", "a lone high before a pair");
});

test("sanitize caps the length by code point and never splits an astral character", () => {
  const capped = sanitize("😀".repeat(300));
  assert.equal(points(capped), 200, "the default cap is 200 code points, the ellipsis included");
  assert.equal(capped, `${"😀".repeat(199)}…`);
  assert.equal(firstHostile(capped), undefined, "no half of a pair is left");
  assert.equal(sanitize("😀".repeat(200)), "😀".repeat(200), "exactly the cap is kept whole");
  assert.equal(sanitize("abcdef", 4), "abc…");
  assert.equal(sanitize("a𝄞b𝄞c", 3), "a𝄞…");
  assert.equal(sanitize(`${"\u202e".repeat(50)}abc`, 3), "abc", "removed characters do not count towards the cap");
});

test("sanitize returns an empty string for anything that is not a string", () => {
  for (const value of [undefined, null, 0, 42, Number.NaN, true, {}, [], ["a"], { toString: () => "x" }, Symbol("s"), 10n]) {
    assert.equal(sanitize(value), "", typeof value);
  }
});

test("sanitize leaves ordinary text alone: accents, CJK, RTL letters, emoji, punctuation", () => {
  const plain = "Ünïcödé 中文 עברית العربية 😀👍🏽 — \"quotes\" & <tags>";
  assert.equal(sanitize(plain), plain);
});

test(`sanitize output never holds a control, bidi, zero-width, line-break or lone-surrogate character, fits the cap and is stable (10000 cases)`, (t) => {
  const count = forAll(
    "sanitize-clean",
    10_000,
    (rng) => ({ input: text(rng, 80, 0.4), max: rng.int(1, 60) }),
    ({ input, max }) => {
      const output = sanitize(input, max);
      assert.equal(firstHostile(output), undefined, "no hostile character");
      assert.ok(points(output) <= max, `at most ${max} code points`);
      assert.equal(output, output.trim(), "trimmed");
      assert.doesNotMatch(output, / {2}/, "no run of spaces");
      assert.equal(sanitize(output, max), output, "sanitising twice changes nothing");
    },
  );
  t.diagnostic(`${count} cases over ${HOSTILE.length} hostile characters`);
});

// ---- where it is applied ---------------------------------------------------------------------------------

const HOSTILE_REASON = "Need\u202e the\u200b prod\nkey\u0007\ud800 now\u2028please";
const CLEAN_REASON = "Need the prod key now please";

function setup(entries: readonly Entry[]): { pi: FakePi; ctx: FakeContext } {
  const pi = createFakePi({ activeTools: ["read", "bash", "todo"] });
  todoLoop(pi);
  const ctx = createContext({ session: createSession(entries), cwd });
  return { pi, ctx };
}

const OPEN_LIST: Entry[] = [user("Do the work", { id: "u1" }), assistant(), todoResult({ tasks: [task({ id: 1 }), task({ id: 2 })] }), assistant()];

async function status(pi: FakePi, ctx: FakeContext): Promise<string> {
  await pi.command("todoloop").handler("status", ctx);
  const last = ctx.ui.notifications.at(-1);
  assert.ok(last, "status was shown");
  return last.message;
}

test("todo_loop_block: the reason is sanitised in the warning, in the tool result and in /todoloop status", async () => {
  const { pi, ctx } = setup(OPEN_LIST);
  const result = await pi.tool("todo_loop_block").execute("call-1", { reason: HOSTILE_REASON }, undefined, undefined, ctx);
  const [warning] = ctx.ui.notifications;
  assert.deepEqual(warning, { message: `todo loop: the agent is waiting for you: ${CLEAN_REASON}`, type: "warning" });
  assert.equal(Reflect.get(Object(result.details), "reason"), CLEAN_REASON, "what the branch records is already clean");
  const shown = await status(pi, ctx);
  assert.ok(shown.split("\n").includes(`waiting for you: ${CLEAN_REASON}`), shown);
  for (const line of shown.split("\n")) assert.equal(firstHostile(line), undefined, line);
});

test("todo_loop_block: a reason is capped at 500 code points without splitting an emoji", async () => {
  const { pi, ctx } = setup(OPEN_LIST);
  await pi.tool("todo_loop_block").execute("call-1", { reason: "🔑".repeat(800) }, undefined, undefined, ctx);
  const message = ctx.ui.notifications[0]?.message ?? "";
  const reason = message.slice(message.indexOf(": ", message.indexOf("waiting for you")) + 2);
  assert.equal(points(reason), 500);
  assert.equal(firstHostile(message), undefined);
});

test("a block reason read back from the session file is sanitised before /todoloop shows it", async () => {
  const { pi, ctx } = setup([...OPEN_LIST, blockResult(HOSTILE_REASON, "u1"), assistant()]);
  const shown = await status(pi, ctx);
  assert.ok(shown.split("\n").includes(`waiting for you: ${CLEAN_REASON}`), shown);
  for (const line of shown.split("\n")) assert.equal(firstHostile(line), undefined, line);
});

test("deleted-tasks warning: task texts are sanitised and capped at 60 code points (describeNotice)", () => {
  const texts = [`Ship\u202e it\nnow\u0000`, "🚀".repeat(100), "\u200bplain"];
  const { message, type } = describeNotice({ kind: "emptied", how: "delete", count: 3, texts }, "/cfg/todo-loop.json");
  assert.equal(type, "warning");
  assert.equal(firstHostile(message), undefined);
  assert.ok(message.includes(`"Ship it now", "${"🚀".repeat(59)}…", "plain"`), message);
});

test("deleted-tasks warning through turn_end: hostile task subjects reach the human sanitised", async () => {
  const subjects = ["Fix\u202e login\r\nbug", `Write\u2066 docs\u2069${"!".repeat(120)}`];
  const open = subjects.map((subject, index) => task({ id: index + 1, subject }));
  const { pi, ctx } = setup([user("Do the work", { id: "u1" }), assistant(), todoResult({ tasks: open }), assistant()]);
  const deleted = open.map((item) => ({ ...item, status: "deleted" }));
  const result = toolResultMessage("todo", rpivDetails({ action: "delete", params: { action: "delete", id: 1 }, tasks: deleted }));
  ctx.sessionManager.append({ type: "message", message: result });
  const handler = pi.turnEndHandlers[0];
  assert.ok(handler);
  await handler(toolTurn([result]), ctx);
  const warning = ctx.ui.notifications.find((note) => note.message.includes("deleted rather than completed"));
  assert.ok(warning, JSON.stringify(ctx.ui.notifications));
  assert.equal(warning.type, "warning");
  assert.equal(firstHostile(warning.message), undefined, warning.message);
  assert.ok(warning.message.includes(`"Fix login bug", "Write docs${"!".repeat(49)}…"`), warning.message);
});

test("/todoloop echoes an unknown sub-command sanitised and capped", async () => {
  const { pi, ctx } = setup(OPEN_LIST);
  await pi.command("todoloop").handler(`\u202eres\u200bume\nnow\u0007${"z".repeat(100)}`, ctx);
  const [error] = ctx.ui.notifications;
  assert.ok(error);
  assert.equal(error.type, "error");
  assert.equal(firstHostile(error.message), undefined, error.message);
  assert.ok(error.message.includes(`unknown sub-command "resume now${"z".repeat(29)}…"`), error.message);
});
