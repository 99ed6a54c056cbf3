/**
 * Reaching a person who walked away (SPEC §7.1): which stops need the person per kind and mode, the
 * exact bytes of the terminal notification per terminal and inside tmux, that no model text can end
 * the sequence early, the payload of the command hook and the event, the headless line and exit status,
 * and config problems announced once.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import type { Config } from "../../src/core/types.ts";
import type { Reason, StopRecord } from "../../src/core/types.ts";
import { createReach, runCommand } from "../../src/io/notify.ts";
import type { ReachIo } from "../../src/io/notify.ts";
import { ioOf } from "../captured-io.ts";
import type { ContextLike, ModeLike } from "../../src/core/pi-shapes.ts";
import { BODY_CHARS, exitStatus, graphemes, needsPerson, notificationBody, notifies, planReach, terminalSequence } from "../../src/core/reach-plan.ts";
import type { StopPayload } from "../../src/core/reach-plan.ts";
import { reachText, stopDetail, stopHeadline } from "../../src/core/text.ts";
import { createContext, createFakePi, createSession } from "../fake-pi.ts";
import { forAll, hostileText } from "../gen.ts";
import { running } from "../processes.ts";

/** Every stop kind of 0.3, in the record's order. */
const KINDS = ["clear", "no-list", "limit", "idle", "stuck", "repeat", "waiting", "question", "out-of-reach", "out-of-date", "outcome", "earlier", "verify-failed", "verify-error"];
const MODES: readonly ModeLike[] = ["tui", "rpc", "json", "print"];
const ESC = "\x1b";
const BEL = "\x07";

// ---- which stops need the person -------------------------------------------------------------------

test("needs-you rule: every stop kind needs the person except a clear list and earlier, in every mode", () => {
  for (const mode of MODES) {
    const needing = KINDS.filter((kind) => needsPerson({ kind, aborted: false }, mode));
    assert.deepEqual(needing, KINDS.filter((kind) => kind !== "clear" && kind !== "earlier"), mode);
  }
});

test("needs-you rule: an abort needs nobody where a person pressed Escape (TUI, RPC), but does in print and JSON mode", () => {
  assert.equal(needsPerson({ kind: "outcome", aborted: true }, "tui"), false);
  assert.equal(needsPerson({ kind: "outcome", aborted: true }, "rpc"), false);
  assert.equal(needsPerson({ kind: "outcome", aborted: true }, "print"), true);
  assert.equal(needsPerson({ kind: "outcome", aborted: true }, "json"), true);
  assert.equal(needsPerson({ kind: "outcome", aborted: false }, "tui"), true, "an error is no abort");
});

test("notify setting: needs-you follows the rule, all adds the clear list (never earlier), off lets nothing out", () => {
  for (const kind of KINDS) {
    const stop = { kind, aborted: false };
    assert.equal(notifies(stop, "needs-you", "tui"), needsPerson(stop, "tui"), kind);
    assert.equal(notifies(stop, "all", "tui"), kind !== "earlier", kind);
    assert.equal(notifies(stop, "off", "tui"), false, kind);
  }
  assert.equal(notifies({ kind: "outcome", aborted: true }, "needs-you", "tui"), false);
});

test("plan: the terminal notification only in the TUI; the hook awaited in print/JSON, started in TUI/RPC; the stderr line only headless; the event always", () => {
  const config = { ...DEFAULT_CONFIG, notifyCommand: ["ping"] };
  const idle = { kind: "idle", aborted: false };
  assert.deepEqual(planReach(idle, config, "tui"), { needsYou: true, terminal: true, command: "start", stderrLine: false, event: true });
  assert.deepEqual(planReach(idle, config, "rpc"), { needsYou: true, terminal: false, command: "start", stderrLine: false, event: true });
  assert.deepEqual(planReach(idle, config, "print"), { needsYou: true, terminal: false, command: "await", stderrLine: true, event: true });
  assert.deepEqual(planReach(idle, config, "json"), { needsYou: true, terminal: false, command: "await", stderrLine: true, event: true });
  assert.deepEqual(planReach(idle, config, undefined), { needsYou: true, terminal: false, command: "start", stderrLine: false, event: true }, "a host without ctx.mode is not the TUI");
  const clear = { kind: "clear", aborted: false };
  assert.deepEqual(planReach(clear, config, "tui"), { needsYou: false, terminal: false, command: "none", stderrLine: false, event: true });
  assert.deepEqual(planReach(clear, { ...config, notify: "all" }, "tui"), { needsYou: false, terminal: true, command: "start", stderrLine: false, event: true });
  assert.deepEqual(planReach(idle, { ...config, notify: "off" }, "print"), { needsYou: true, terminal: false, command: "none", stderrLine: true, event: true }, "off silences terminal and command, never the event or the summary line");
  assert.deepEqual(planReach(idle, DEFAULT_CONFIG, "tui").command, "none", "no command without notifyCommand");
  assert.deepEqual(planReach({ kind: "earlier", aborted: false }, { ...config, notify: "all" }, "print"), { needsYou: false, terminal: false, command: "none", stderrLine: false, event: true });
});

test("exit status: exitCode for a print/JSON run that ended on a stop needing the person; null (undo) for a clear list, earlier or no stop; untouched elsewhere or unset", () => {
  const config = { ...DEFAULT_CONFIG, exitCode: 3 };
  for (const mode of ["print", "json"] as const) {
    assert.equal(exitStatus({ kind: "idle", aborted: false }, config, mode), 3);
    assert.equal(exitStatus({ kind: "verify-failed", aborted: false }, config, mode), 3);
    assert.equal(exitStatus({ kind: "clear", aborted: false }, config, mode), null);
    assert.equal(exitStatus({ kind: "earlier", aborted: false }, config, mode), null);
    assert.equal(exitStatus(undefined, config, mode), null);
    assert.equal(exitStatus({ kind: "idle", aborted: false }, DEFAULT_CONFIG, mode), undefined);
  }
  assert.equal(exitStatus({ kind: "idle", aborted: false }, config, "tui"), undefined);
  assert.equal(exitStatus({ kind: "idle", aborted: false }, config, "rpc"), undefined);
});

// ---- the bytes -----------------------------------------------------------------------------------------

test("terminal bytes: OSC 777 by default, with the title and the body, ended by BEL", () => {
  assert.equal(terminalSequence("stopped: x", {}), "\x1b]777;notify;pi: todo loop;stopped: x\x07");
  assert.equal(terminalSequence("stopped: x", { TERM_PROGRAM: "WezTerm" }), "\x1b]777;notify;pi: todo loop;stopped: x\x07");
});

test("terminal bytes: kitty (KITTY_WINDOW_ID) gets OSC 99 in two parts, title then body, each ended by ESC \\ as pi's notify example writes them", () => {
  assert.equal(terminalSequence("stopped: x", { KITTY_WINDOW_ID: "1" }), "\x1b]99;i=1:d=0;pi: todo loop\x1b\\\x1b]99;i=1:p=body;stopped: x\x1b\\");
});

test("terminal bytes: iTerm2 (TERM_PROGRAM=iTerm.app) gets OSC 9 with the body, ended by BEL", () => {
  assert.equal(terminalSequence("waiting for you: y", { TERM_PROGRAM: "iTerm.app" }), "\x1b]9;waiting for you: y\x07");
});

test("terminal bytes: inside tmux the sequence is wrapped ESC P tmux ; … ESC \\ with every ESC doubled, then one BEL", () => {
  assert.equal(terminalSequence("stopped: x", { TMUX: "/tmp/tmux-1/default,1,0" }), "\x1bPtmux;\x1b\x1b]777;notify;pi: todo loop;stopped: x\x07\x1b\\\x07");
  assert.equal(
    terminalSequence("stopped: x", { TMUX: "/tmp/t,1,0", KITTY_WINDOW_ID: "3" }),
    "\x1bPtmux;\x1b\x1b]99;i=1:d=0;pi: todo loop\x1b\x1b\\\x1b\x1b]99;i=1:p=body;stopped: x\x1b\x1b\\\x1b\\\x07",
  );
  assert.equal(terminalSequence("stopped: x", { TMUX: "x", TERM_PROGRAM: "iTerm.app" }), "\x1bPtmux;\x1b\x1b]9;stopped: x\x07\x1b\\\x07");
  assert.equal(terminalSequence("stopped: x", { TMUX: "" }), "\x1b]777;notify;pi: todo loop;stopped: x\x07", "an empty TMUX is not tmux");
});

test("notification body: the fixed text comes first, then the reason, at most 120 characters", () => {
  assert.equal(notificationBody("stopped:", "stopped: list is clear"), "stopped: list is clear");
  assert.equal(notificationBody("waiting for you:", 'waiting for you: the agent asked: "Which one?"'), 'waiting for you: the agent asked: "Which one?"');
  assert.equal(notificationBody("stopped:", "4; a progress report"), "stopped: 4; a progress report", "a reason never leads");
  const long = notificationBody("stopped:", `stopped: ${"x".repeat(300)}`);
  assert.equal(Array.from(long).length, BODY_CHARS);
  assert.ok(long.startsWith("stopped: xxx") && long.endsWith("…"));
  const family = "👨‍👩‍👧";
  const emoji = notificationBody("stopped:", `stopped: ${family.repeat(200)}`);
  assert.equal(graphemes(emoji).length, BODY_CHARS, "capped by what a person sees");
  assert.ok(emoji.endsWith(`${family}…`), "never splitting an emoji sequence");
});

test("notification body: exactly 120 characters are kept whole; a cut that falls after a space leaves no space before the ellipsis", () => {
  const full = `stopped: ${"x".repeat(BODY_CHARS - "stopped: ".length)}`;
  assert.equal(notificationBody("stopped:", full), full);
  const words = `stopped: ${"x".repeat(BODY_CHARS - 2 - "stopped: ".length)} ${"y".repeat(40)}`;
  assert.equal(notificationBody("stopped:", words), `stopped: ${"x".repeat(BODY_CHARS - 2 - "stopped: ".length)}…`);
});

test("notification body: the lead is written once, with one space, whatever spacing the reason brings; a reason with nothing after its lead is the lead alone", () => {
  assert.equal(notificationBody("stopped:", "stopped:list is clear"), "stopped: list is clear");
  assert.equal(notificationBody("stopped:", "stopped:   list is clear   "), "stopped: list is clear");
  assert.equal(notificationBody("waiting for you:", "  the agent asked a question  "), "waiting for you: the agent asked a question");
  assert.equal(notificationBody("stopped:", "stopped:"), "stopped:");
  assert.equal(notificationBody("stopped:", "   "), "stopped:");
  assert.equal(notificationBody("stopped:", "the tool said stopped: early"), "stopped: the tool said stopped: early", "only a leading lead is dropped");
});

test("notification body: controls are removed, not replaced", () => {
  assert.equal(notificationBody("stopped:", "stopped: a\x07b\x1bc\u009bd"), "stopped: abcd");
});

test("terminal bytes: controls in a body that did not come from notificationBody are removed too", () => {
  assert.equal(terminalSequence("stopped: a\x07b\x1b\\c", {}), "\x1b]777;notify;pi: todo loop;stopped: ab\\c\x07");
});

test("notification body: a hostile reason holding BEL, ESC \\, ST and C1 bytes cannot end or open a sequence", () => {
  const hostile = `stopped: a\x07b\x1b\\c\x9cd\x9be\x90f\x1b]777;notify;x;y\x07g\u0085h`;
  const body = notificationBody("stopped:", hostile);
  assert.doesNotMatch(body, /[\u0000-\u001f\u007f-\u009f]/);
  assert.ok(body.startsWith("stopped: a"));
  const bytes = terminalSequence(body, { TMUX: "x" });
  const inner = bytes.slice("\x1bPtmux;".length, -"\x1b\\\x07".length);
  assert.doesNotMatch(inner.replace(/\x1b\x1b/g, ""), /\x1b/, "inside the passthrough every ESC is doubled");
  assert.equal(inner.split(BEL).length, 2, "one BEL inside: the OSC's own terminator");
  assert.ok(inner.endsWith(BEL));
  assert.doesNotMatch(inner, /\u009c/);
});

test("property: over 5,000 random reasons (escapes, C0, C1, broken sequences, any code point) the body never holds ESC, BEL, U+009C or any C1, and every sequence ends only where it should", () => {
  const count = forAll(
    "notification-body",
    5000,
    (rng) => {
      let raw = hostileText(rng, 50);
      for (let index = rng.int(0, 10); index > 0; index--) raw += String.fromCodePoint(rng.chance(0.5) ? rng.int(0, 0x9f) : rng.int(0, 0x10ffff));
      return { raw, lead: rng.pick(["stopped:", "waiting for you:"] as const), env: rng.pick([{}, { KITTY_WINDOW_ID: "1" }, { TERM_PROGRAM: "iTerm.app" }, { TMUX: "t" }, { TMUX: "t", KITTY_WINDOW_ID: "1" }]) };
    },
    ({ raw, lead, env }) => {
      const body = notificationBody(lead, raw);
      assert.doesNotMatch(body, /[\u0000-\u001f\u007f-\u009f]/);
      assert.ok(body.startsWith(lead));
      assert.ok(graphemes(body).length <= BODY_CHARS);
      const bytes = terminalSequence(body, env);
      assert.ok(bytes.includes(body), "the body goes through unchanged");
      const rest = bytes.replace(body, "");
      assert.doesNotMatch(bytes.replace(/[\x1b\x07]/g, ""), /[\u0000-\u001f\u007f-\u009f]/);
      assert.equal(rest.split(ESC).length - 1, bytes.split(ESC).length - 1, "every ESC comes from the fixed framing");
    },
  );
  // Every case ran (a mutation run caps the cases with PROPERTY_CASES).
  const cap = Number(process.env.PROPERTY_CASES);
  assert.equal(count, Number.isInteger(cap) && cap > 0 ? Math.min(5000, cap) : 5000);
});

// ---- the words -----------------------------------------------------------------------------------------

const QUESTION: Reason = { kind: "waiting", reason: "Which database\x07 should I use?", asked: true };
const BLOCK: Reason = { kind: "waiting", reason: "I need the API key", asked: false };

test("payload reason: fixed text and figures only, never the model's words; a wait says which kind", () => {
  assert.equal(stopHeadline(QUESTION), "waiting for you: the agent asked a question");
  assert.equal(stopHeadline(BLOCK), "waiting for you: the agent cannot go on without you");
  assert.equal(stopHeadline({ kind: "idle", replies: 3, open: 2 }), "stopped: the agent stopped 3 times in a row without doing anything");
  assert.equal(stopHeadline({ kind: "limit", limit: "maxRounds", used: 12, max: 12, open: 3, stale: 4 }), "stopped: 12 continuations used");
  assert.equal(stopHeadline({ kind: "clear" }), "stopped: list is clear");
  assert.equal(stopHeadline({ kind: "stuck", replies: 5, open: 2 }), "stopped: 5 replies in a row without progress");
  assert.equal(stopHeadline({ kind: "repeat", replies: 3, open: 2 }), "stopped: the agent gave the same reply 3 times in a row");
  assert.equal(stopHeadline({ kind: "outcome", outcome: "error" }), "stopped: turn outcome was error");
  assert.equal(stopHeadline({ kind: "out-of-reach", tool: "todo", open: 1 }), "stopped: the todo tool todo is not active, so the list cannot change");
});

test("payload detail: the model's own words, sanitised and capped; null for a stop that carries none", () => {
  assert.equal(stopDetail(QUESTION, 200), "Which database should I use?");
  assert.equal(stopDetail({ kind: "waiting", reason: "x".repeat(300), asked: false }, 200)?.length, 200);
  assert.equal(stopDetail({ kind: "idle", replies: 3, open: 2 }, 200), null);
  assert.equal(stopDetail({ kind: "waiting", reason: "\x1b[31m", asked: false }, 200), null);
});

test("summary text: the headline (a wait with the agent's words, sanitised) and the tasks open", () => {
  assert.equal(reachText({ kind: "idle", replies: 3, open: 2 }, 2, 5), "stopped: the agent stopped 3 times in a row without doing anything, 2 of 5 tasks open");
  assert.equal(reachText(QUESTION, 1, 1), 'waiting for you: the agent asked: "Which database should I use?", 1 of 1 task open');
  assert.equal(reachText({ kind: "no-list", why: "no-tool" }, 0, 0), "stopped: no list (no todo tool is active)");
  assert.equal(reachText({ kind: "clear" }, 0, 3), "stopped: list is clear", "no count when nothing is open");
});

// ---- the effects -------------------------------------------------------------------------------------------

interface FakeIo extends ReachIo {
  readonly terminal: string[];
  readonly stderr: string[];
  readonly runs: Array<{ argv: readonly string[]; payload: string; cwd: string; limitMs: number }>;
  exitCode: number | undefined;
  /** What the next command run answers. */
  failure: string | undefined;
}

function fakeIo(env: ReachIo["env"] = { TMUX: "t" }): FakeIo {
  const io: FakeIo = {
    env,
    terminal: [],
    stderr: [],
    runs: [],
    exitCode: undefined,
    failure: undefined,
    writeTerminal: (bytes) => void io.terminal.push(bytes),
    writeStderr: (line) => void io.stderr.push(line),
    setExitCode(code) {
      io.exitCode = code;
    },
    getExitCode: () => io.exitCode,
    async run(argv, payload, cwd, limitMs) {
      io.runs.push({ argv, payload, cwd, limitMs });
      return io.failure;
    },
    memo: { lastProblems: undefined },
  };
  return io;
}

function setup(mode: ModeLike, file: string | null = "/sessions/s.jsonl") {
  const sessionFile = file ?? undefined;
  const pi = createFakePi();
  const emitted: Array<{ channel: string; data: unknown }> = [];
  pi.events = { emit: (channel, data) => void emitted.push({ channel, data }) };
  const session = { ...createSession([], "sid-1"), getSessionFile: () => sessionFile };
  const ctx = createContext({ session, cwd: "/work/project", mode, hasUI: mode === "tui" || mode === "rpc" });
  const io = fakeIo();
  return { pi, emitted, ctx, io, reach: createReach(pi, io) };
}

function record(kind: StopRecord["kind"], reason: string, open: number, round = 2): StopRecord {
  return { v: 1, kind, reason, round, open, anchor: "u1" };
}

const IDLE: Reason = { kind: "idle", replies: 3, open: 2 };
const IDLE_RECORD = record("idle", "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you", 2);
const CONFIG: Config = { ...DEFAULT_CONFIG, notifyCommand: ["ping-me", "--loud"] };

test("payload: v, kind, reason, detail, open, total, round, needsYou, sessionId, sessionFile, cwd — the same to the command hook and the event", async () => {
  const { reach, ctx, io, emitted } = setup("print");
  await reach.settled(ctx, CONFIG, { ended: QUESTION, record: record("question", 'waiting for you: the agent asked: "Which database should I use?"', 1, 4), total: 3 });
  const expected: StopPayload = {
    v: 1,
    kind: "question",
    reason: "waiting for you: the agent asked a question",
    detail: "Which database should I use?",
    open: 1,
    total: 3,
    round: 4,
    needsYou: true,
    sessionId: "sid-1",
    sessionFile: "/sessions/s.jsonl",
    cwd: "/work/project",
  };
  assert.deepEqual(emitted, [{ channel: "todo-loop:stop", data: expected }]);
  assert.equal(io.runs.length, 1);
  assert.deepEqual(io.runs[0]?.argv, ["ping-me", "--loud"]);
  assert.deepEqual(JSON.parse(io.runs[0]?.payload ?? ""), expected);
  assert.equal(io.runs[0]?.cwd, "/work/project");
  assert.equal(io.runs[0]?.limitMs, 10_000);
});

test("payload: sessionFile is null without a session file (--no-session)", async () => {
  const { reach, ctx, emitted } = setup("rpc", null);
  await reach.settled(ctx, CONFIG, { ended: IDLE, record: IDLE_RECORD, total: 5 });
  assert.equal((emitted[0]?.data as StopPayload).sessionFile, null);
});

test("effects: in the TUI an idle stop writes the tmux-wrapped notification and starts the hook; nothing on stderr, no exit status", async () => {
  const { reach, ctx, io } = setup("tui");
  await reach.settled(ctx, { ...CONFIG, exitCode: 3 }, { ended: IDLE, record: IDLE_RECORD, total: 5 });
  assert.deepEqual(io.terminal, ["\x1bPtmux;\x1b\x1b]777;notify;pi: todo loop;stopped: the agent stopped 3 times in a row without doing anything, 2 of 5 tasks open\x07\x1b\\\x07"]);
  assert.equal(io.runs.length, 1);
  assert.deepEqual(io.stderr, []);
  assert.equal(io.exitCode, undefined);
});

test("effects: a clear list under the default reaches nobody but the event", async () => {
  for (const mode of MODES) {
    const { reach, ctx, io, emitted } = setup(mode);
    await reach.settled(ctx, { ...CONFIG, exitCode: 3 }, { ended: { kind: "clear" }, record: record("clear", "stopped: list is clear", 0), total: 2 });
    assert.deepEqual([io.terminal, io.stderr, io.runs], [[], [], []], mode);
    assert.equal(emitted.length, 1, mode);
    assert.equal((emitted[0]?.data as StopPayload).needsYou, false);
    assert.equal(io.exitCode, undefined, `${mode}: nothing was set to undo`);
  }
});

test("effects: notify off silences terminal and command, never the event", async () => {
  for (const mode of MODES) {
    const { reach, ctx, io, emitted } = setup(mode);
    await reach.settled(ctx, { ...CONFIG, notify: "off" }, { ended: IDLE, record: IDLE_RECORD, total: 5 });
    assert.deepEqual([io.terminal, io.runs], [[], []], mode);
    assert.equal(emitted.length, 1, mode);
  }
});

test("effects: RPC, JSON and print mode never write to the terminal", async () => {
  for (const mode of ["rpc", "json", "print"] as const) {
    const { reach, ctx, io } = setup(mode);
    await reach.settled(ctx, { ...CONFIG, notify: "all" }, { ended: IDLE, record: IDLE_RECORD, total: 5 });
    assert.deepEqual(io.terminal, [], mode);
  }
});

test("effects: print mode writes one stderr line for a stop that needs the person, and sets exitCode; a later clear run undoes it", async () => {
  const { reach, ctx, io } = setup("print");
  const config = { ...CONFIG, exitCode: 3 };
  await reach.settled(ctx, config, { ended: IDLE, record: IDLE_RECORD, total: 5 });
  assert.deepEqual(io.stderr, ["todo loop: stopped: the agent stopped 3 times in a row without doing anything, 2 of 5 tasks open"]);
  assert.equal(io.exitCode, 3);
  await reach.settled(ctx, config, { ended: { kind: "clear" }, record: record("clear", "stopped: list is clear", 0), total: 5 });
  assert.equal(io.exitCode, 0, "the last run decides");
  assert.equal(io.stderr.length, 1, "a clear list writes no line");
});

test("effects: the exit status follows the stop a run ended on even when it was announced before; a run without a stop undoes it", async () => {
  const { reach, ctx, io } = setup("json");
  const config = { ...CONFIG, exitCode: 7 };
  await reach.settled(ctx, config, { ended: IDLE, record: undefined, total: 0 });
  assert.equal(io.exitCode, 7);
  assert.deepEqual(io.stderr, [], "nothing new announced, no line");
  await reach.settled(ctx, config, { ended: undefined, record: undefined, total: 0 });
  assert.equal(io.exitCode, 0);
});

test("effects: an exit status someone else set is never undone", async () => {
  const { reach, ctx, io } = setup("print");
  io.exitCode = 9;
  await reach.settled(ctx, { ...CONFIG, exitCode: 3 }, { ended: undefined, record: undefined, total: 0 });
  assert.equal(io.exitCode, 9);
});

test("effects: a failed notify command shows as one line in /todoloop until it runs fine again, and never throws", async () => {
  const { reach, ctx, io } = setup("rpc");
  io.failure = "exited with status 2";
  await reach.settled(ctx, CONFIG, { ended: IDLE, record: IDLE_RECORD, total: 5 });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reach.statusLine(), "notify command failed: ping-me exited with status 2");
  io.failure = undefined;
  await reach.settled(ctx, CONFIG, { ended: IDLE, record: IDLE_RECORD, total: 5 });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reach.statusLine(), undefined);
});

test("effects: a throwing event listener or terminal never breaks the settle", async () => {
  const { reach, ctx, io, pi } = setup("tui");
  pi.events = { emit: () => { throw new Error("listener"); } };
  io.writeTerminal = () => { throw new Error("closed"); };
  await reach.settled(ctx, CONFIG, { ended: IDLE, record: IDLE_RECORD, total: 5 });
  assert.equal(io.runs.length, 1, "the hook still runs");
});

// ---- config problems -------------------------------------------------------------------------------------------

test("config problems: announced once (a warning notify in TUI/RPC) naming the file and the key, again only when they change, and never once fixed", () => {
  const { reach, ctx, io } = setup("rpc");
  const problems = ["maxCost is negative (-1); using no limit"];
  reach.problems(ctx, "/agent/todo-loop.json", problems);
  reach.problems(ctx, "/agent/todo-loop.json", [...problems]);
  assert.deepEqual(ctx.ui.notifications, [{ message: "todo loop: config problem in /agent/todo-loop.json: maxCost is negative (-1); using no limit", type: "warning" }]);
  reach.problems(ctx, "/agent/todo-loop.json", [...problems, "notify must be …"]);
  assert.equal(ctx.ui.notifications.length, 2, "changed problems are announced again");
  reach.problems(ctx, "/agent/todo-loop.json", []);
  reach.problems(ctx, "/agent/todo-loop.json", []);
  assert.equal(ctx.ui.notifications.length, 2, "a fixed file is silent");
  reach.problems(ctx, "/agent/todo-loop.json", problems);
  assert.equal(ctx.ui.notifications.length, 3, "broken again: announced again");
  assert.deepEqual(io.stderr, []);
});

test("config problems: print and JSON mode write them to stderr, one line each, never as a notify", () => {
  const { reach, ctx, io } = setup("print");
  reach.problems(ctx, "/agent/todo-loop.json", ["maxCost is negative (-1); using no limit", "invalid\x1b[31m thing"]);
  assert.deepEqual(io.stderr, [
    "todo loop: config problem in /agent/todo-loop.json: maxCost is negative (-1); using no limit",
    "todo loop: config problem in /agent/todo-loop.json: invalid thing",
  ]);
  assert.deepEqual(ctx.ui.notifications, []);
});

// ---- the command runner ------------------------------------------------------------------------------------------


function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-reach-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

test("notify command: run without a shell, the payload as its last argument and on its stdin", async () => {
  const dir = scratch();
  const program = script(dir, "record", `for a in "$@"; do last="$a"; done; printf '%s' "$last" > "${dir}/arg"; printf '%s' "$#" > "${dir}/count"; cat > "${dir}/stdin"`);
  const payload = JSON.stringify({ v: 1, reason: "stopped: $(touch pwned); `x`" });
  assert.equal(await runCommand([program, "one word", "--two"], payload, dir, 10_000), undefined);
  assert.equal(readFileSync(join(dir, "arg"), "utf8"), payload);
  assert.equal(readFileSync(join(dir, "count"), "utf8"), "3");
  assert.equal(readFileSync(join(dir, "stdin"), "utf8"), `${payload}\n`);
  assert.equal(existsSync(join(dir, "pwned")), false, "nothing in the payload is run");
});

test("notify command: a program that cannot start or exits non-zero is a failure, never a throw", async () => {
  const dir = scratch();
  assert.match((await runCommand([join(dir, "missing")], "{}", dir, 10_000)) ?? "", /^could not start/);
  assert.equal(await runCommand([script(dir, "fail", "exit 4")], "{}", dir, 10_000), "exited with status 4");
});

test("notify command: at its limit the whole process group is killed, children included, and the run resolves", async () => {
  const dir = scratch();
  const program = script(dir, "slow", `sleep 30 & echo $! > "${dir}/child"; sleep 30`);
  const started = Date.now();
  const why = await runCommand([program], "{}", dir, 500);
  assert.equal(why, "was stopped after 1 s");
  assert.ok(Date.now() - started < 5000);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const child = Number(readFileSync(join(dir, "child"), "utf8"));
  assert.ok(!running(child), "the background child is gone too");
});

test("notify command: a quick command is not waited on to its limit", async () => {
  const dir = scratch();
  const started = Date.now();
  assert.equal(await runCommand([script(dir, "quick", "exit 0")], "{}", dir, 10_000), undefined);
  assert.ok(Date.now() - started < 5000);
});

// ---- wiring (the extension on a fake pi) -------------------------------------------------------------------------

test("wiring: agent_settled emits todo-loop:stop with the payload for an announced stop (RPC mode)", async () => {
  const { default: todoLoop } = await import("../../src/index.ts");
  const { isolatedDirs } = await import("../fake-pi.ts");
  const builders = await import("../builders.ts");
  const { cwd } = isolatedDirs("todo-loop-reach-wiring-");
  const pi = createFakePi();
  const emitted: unknown[] = [];
  pi.events = { emit: (channel, data) => void emitted.push({ channel, data }) };
  todoLoop(pi, ioOf(pi));
  const open = [builders.task({ id: 1, subject: "Write tests" }), builders.task({ id: 2, subject: "Ship it" })];
  const session = createSession(builders.chain(builders.user("Do the work", { id: "u1" }), builders.assistant({ id: "a1" }), builders.todoResult({ tasks: open, id: "t1" })));
  pi.session = session;
  const ctx: ContextLike = createContext({ session, cwd, mode: "rpc" });
  for (let reply = 0; reply < 3; reply++) {
    const entry = builders.assistant({ text: "Stopping here." });
    session.append(entry);
    const result = await pi.fireTurnEnd({ ...builders.settle(), message: entry.message }, ctx);
    for (const draft of result?.entries ?? []) if (builders.isEntry(draft)) session.append(draft);
  }
  await pi.fireAgentSettled({ type: "agent_settled", aborted: false }, ctx);
  // The settles' workflow:mutex:v1 probes share the bus; the stop is the one event on its own channel.
  const stops = emitted.filter((item) => (item as { channel: string }).channel !== "workflow:mutex:v1");
  assert.equal(stops.length, 1);
  const { channel, data } = stops[0] as { channel: string; data: StopPayload };
  assert.equal(channel, "todo-loop:stop");
  assert.deepEqual({ ...data, cwd: "" }, {
    v: 1, kind: "idle", reason: "stopped: the agent stopped 3 times in a row without doing anything", detail: null,
    open: 2, total: 2, round: 2, needsYou: true, sessionId: "session-1", sessionFile: null, cwd: "",
  });
});
