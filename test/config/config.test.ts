/**
 * Configuration and kill switch (SPEC §8): every bad shape falls back to that key's default with a
 * one-line problem, nothing ever throws, and both kill-switch files are found where pi users put them.
 */
import { test } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { agentDir, configPath, killSwitch, killSwitchPaths } from "../../src/io/paths.ts";
import { CEILINGS, DEFAULT_CONFIG, loadConfig, parseConfig, parseConfigText, parseVerify } from "../../src/config.ts";
import type { ConfigResult } from "../../src/core/types.ts";

/** A fresh directory, removed when the test ends. */
function tempDir(t: TestContext): string {
  const path = mkdtempSync(join(tmpdir(), "todo-loop-config-"));
  t.after(() => rmSync(path, { recursive: true, force: true }));
  return path;
}

function assertOneLineProblems(result: ConfigResult, count: number): void {
  assert.equal(result.problems.length, count, result.problems.join(" | "));
  for (const problem of result.problems) {
    assert.ok(problem.length > 0);
    assert.doesNotMatch(problem, /[\r\n]/, "a problem is one line");
  }
}

// ---- parseConfig ----------------------------------------------------------------------------------

test("parseConfig: nothing to parse means the defaults (limits off, three idle replies, questions stop, transcript on) and no problem", () => {
  assert.deepEqual(parseConfig(undefined), { config: DEFAULT_CONFIG, problems: [] });
  assert.deepEqual(DEFAULT_CONFIG, {
    maxRounds: null,
    maxTokens: null,
    maxCost: null,
    maxMinutes: null,
    maxIdleReplies: 3,
    maxStuckReplies: 5,
    maxRepeats: 3,
    stopOnQuestion: true,
    transcript: true,
    notify: "needs-you",
    notifyCommand: null,
    exitCode: null,
    earlierTasks: "ask",
    verify: [],
    maxLimitWaitMinutes: 300,
    children: "quiet",
    checkInMinutes: 30,
  });
});

test("parseConfig: positive numbers are the limits and booleans the switches", () => {
  assert.deepEqual(parseConfig({ maxRounds: 12, maxTokens: 200_000, maxCost: 1.5, maxMinutes: 45, maxIdleReplies: 5, stopOnQuestion: false, transcript: false }), {
    config: { ...DEFAULT_CONFIG, maxRounds: 12, maxTokens: 200_000, maxCost: 1.5, maxMinutes: 45, maxIdleReplies: 5, stopOnQuestion: false, transcript: false },
    problems: [],
  });
});

test("parseConfig: an empty object and explicit nulls mean no limit, with no problem", () => {
  assert.deepEqual(parseConfig({}), { config: DEFAULT_CONFIG, problems: [] });
  assert.deepEqual(parseConfig({ maxRounds: null, maxTokens: null, maxCost: null, maxMinutes: null }), { config: DEFAULT_CONFIG, problems: [] });
});

test("parseConfig: a wrong type falls back to no limit for that key only, with a one-line problem", () => {
  for (const bad of ["12", true, { n: 1 }, [3], Number.NaN, Number.POSITIVE_INFINITY]) {
    const result = parseConfig({ maxRounds: bad, maxTokens: 500 });
    assert.equal(result.config.maxRounds, null, String(bad));
    assert.equal(result.config.maxTokens, 500, "other keys still apply");
    assertOneLineProblems(result, 1);
    assert.match(result.problems[0] ?? "", /^maxRounds /);
  }
});

test("parseConfig: a negative value falls back to that key's default, with a problem", () => {
  const result = parseConfig({ maxRounds: -1, maxTokens: -100, maxCost: -0.5, maxMinutes: -3, maxIdleReplies: -2 });
  assert.deepEqual(result.config, DEFAULT_CONFIG);
  assertOneLineProblems(result, 5);
  assert.match(result.problems[4] ?? "", /^maxIdleReplies is negative \(-2\); using the default 3$/);
});

test("parseConfig: zero means no limit, and turns the idle-reply brake off", () => {
  assert.deepEqual(parseConfig({ maxRounds: 0, maxTokens: 0, maxCost: 0, maxMinutes: 0, maxIdleReplies: 0 }).config, { ...DEFAULT_CONFIG, maxIdleReplies: null });
});

test("parseConfig: maxIdleReplies null turns the brake off with no problem", () => {
  assert.deepEqual(parseConfig({ maxIdleReplies: null }), { config: { ...DEFAULT_CONFIG, maxIdleReplies: null }, problems: [] });
});

test("parseConfig: rounds, tokens and idle replies below 1 mean no limit; any positive cost or minutes is a limit", () => {
  assert.deepEqual(parseConfig({ maxRounds: 0.5, maxTokens: 0.9, maxCost: 0.001, maxMinutes: 0.5, maxIdleReplies: 0.5 }).config, {
    ...DEFAULT_CONFIG,
    maxCost: 0.001,
    maxMinutes: 0.5,
    maxIdleReplies: null,
  });
});

test("parseConfig: fractional rounds, tokens and idle replies are rounded down; cost and minutes keep their fractions", () => {
  assert.deepEqual(parseConfig({ maxRounds: 2.7, maxTokens: 1000.9, maxCost: 0.25, maxMinutes: 1.5, maxIdleReplies: 4.9 }).config, {
    ...DEFAULT_CONFIG,
    maxRounds: 2,
    maxTokens: 1000,
    maxCost: 0.25,
    maxMinutes: 1.5,
    maxIdleReplies: 4,
  });
});

test("parseConfig: a wrong type for a switch falls back to its default (true), with a one-line problem", () => {
  for (const bad of ["false", 0, 1, null, {}, []]) {
    const result = parseConfig({ stopOnQuestion: bad, transcript: bad });
    assert.equal(result.config.stopOnQuestion, true, JSON.stringify(bad));
    assert.equal(result.config.transcript, true, JSON.stringify(bad));
    assertOneLineProblems(result, 2);
    assert.match(result.problems[0] ?? "", /^stopOnQuestion must be true or false \(got .+\); using true$/);
  }
});

test("parseConfig: a wrong type for maxIdleReplies keeps the default of 3", () => {
  const result = parseConfig({ maxIdleReplies: "3" });
  assert.equal(result.config.maxIdleReplies, 3);
  assertOneLineProblems(result, 1);
  assert.match(result.problems[0] ?? "", /^maxIdleReplies must be a positive number or null \(got the string "3"\); using the default 3$/);
});

test("parseConfig: huge values are clamped to a sane ceiling, with a problem (maxRounds ≤ 1000, maxMinutes ≤ 10080, maxIdleReplies ≤ 100)", () => {
  const result = parseConfig({ maxRounds: 5000, maxTokens: 1e15, maxCost: 1e9, maxMinutes: 1e6, maxIdleReplies: 1e4, maxStuckReplies: 101, maxRepeats: 1e3 });
  assert.equal(CEILINGS.maxRounds, 1000);
  assert.equal(CEILINGS.maxMinutes, 10_080);
  assert.equal(CEILINGS.maxIdleReplies, 100);
  assert.equal(CEILINGS.maxStuckReplies, 100);
  assert.equal(CEILINGS.maxRepeats, 100);
  assert.deepEqual(result.config, { ...DEFAULT_CONFIG, ...CEILINGS });
  assertOneLineProblems(result, 7);
  assert.deepEqual(parseConfig({ maxRounds: 1000 }), { config: { ...DEFAULT_CONFIG, maxRounds: 1000 }, problems: [] });
});

test("parseConfig: unknown keys are ignored with a problem; known keys still apply", () => {
  const result = parseConfig({ maxround: 3, maxRounds: 4, "bad\nkey": 1 });
  assert.equal(result.config.maxRounds, 4);
  assertOneLineProblems(result, 2);
  assert.match(result.problems[0] ?? "", /unknown key "maxround"/);
});

test("parseConfig: a top-level array, string, number, boolean or null is the defaults with a problem", () => {
  for (const raw of [[], [{ maxRounds: 3 }], "maxRounds", 3, true, null]) {
    const result = parseConfig(raw);
    assert.deepEqual(result.config, DEFAULT_CONFIG, JSON.stringify(raw));
    assertOneLineProblems(result, 1);
    assert.match(result.problems[0] ?? "", /must hold a JSON object/);
  }
  assert.match(parseConfig(null).problems[0] ?? "", /got null/);
  assert.match(parseConfig([]).problems[0] ?? "", /got an array/);
});

// ---- parseConfigText ------------------------------------------------------------------------------

test("parseConfigText: invalid JSON is the defaults with a one-line problem", () => {
  for (const text of ["", "{", "{\n\"maxRounds\": x,\n\"maxCost\": 2\n}", "maxRounds = 3", "{\"maxRounds\": 3,}"]) {
    const result = parseConfigText(text);
    assert.deepEqual(result.config, DEFAULT_CONFIG, text);
    assertOneLineProblems(result, 1);
    assert.match(result.problems[0] ?? "", /^invalid JSON/);
  }
});

test("parseConfigText: valid JSON is parsed like parseConfig, a byte-order mark included", () => {
  assert.deepEqual(parseConfigText('{"maxRounds": 3}'), { config: { ...DEFAULT_CONFIG, maxRounds: 3 }, problems: [] });
  assert.deepEqual(parseConfigText('\uFEFF{"maxCost": 2}'), { config: { ...DEFAULT_CONFIG, maxCost: 2 }, problems: [] });
  assert.deepEqual(parseConfigText("null").config, DEFAULT_CONFIG);
});

// ---- loadConfig -----------------------------------------------------------------------------------

test("loadConfig: a missing file is the defaults with no problem", (t) => {
  const dir = tempDir(t);
  assert.deepEqual(loadConfig(join(dir, "todo-loop.json")), { config: DEFAULT_CONFIG, problems: [] });
});

test("loadConfig: an unreadable file (a directory at the path) is the defaults with a one-line problem", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "todo-loop.json");
  mkdirSync(path);
  const result = loadConfig(path);
  assert.deepEqual(result.config, DEFAULT_CONFIG);
  assertOneLineProblems(result, 1);
  assert.match(result.problems[0] ?? "", /^the file is a directory, not a regular file; not read; using defaults$/);
});

test("loadConfig: reads the file every time, so edits apply without /reload", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "todo-loop.json");
  writeFileSync(path, JSON.stringify({ maxRounds: 3 }));
  assert.equal(loadConfig(path).config.maxRounds, 3);
  writeFileSync(path, JSON.stringify({ maxRounds: 7 }));
  assert.equal(loadConfig(path).config.maxRounds, 7);
  writeFileSync(path, "{ broken");
  assert.deepEqual(loadConfig(path).config, DEFAULT_CONFIG);
  rmSync(path);
  assert.deepEqual(loadConfig(path), { config: DEFAULT_CONFIG, problems: [] });
});

// ---- agent dir, config path, kill switch ----------------------------------------------------------

test("agentDir honours PI_CODING_AGENT_DIR, else ~/.pi/agent (pi's own rule)", () => {
  assert.equal(agentDir({ PI_CODING_AGENT_DIR: "/srv/pi-agent" }), "/srv/pi-agent");
  assert.equal(agentDir({}), join(homedir(), ".pi", "agent"));
  assert.equal(agentDir({ PI_CODING_AGENT_DIR: "" }), join(homedir(), ".pi", "agent"));
});

test("agentDir expands a leading ~ in PI_CODING_AGENT_DIR as pi does", () => {
  assert.equal(agentDir({ PI_CODING_AGENT_DIR: "~/agents/pi" }), join(homedir(), "agents", "pi"));
  assert.equal(agentDir({ PI_CODING_AGENT_DIR: "~" }), homedir());
});

test("agentDir turns a file:// URL in PI_CODING_AGENT_DIR into its path, as pi does", () => {
  assert.equal(agentDir({ PI_CODING_AGENT_DIR: "file:///srv/pi%20agent" }), "/srv/pi agent");
});

test("agentDir reads process.env by default", () => {
  const saved = process.env.PI_CODING_AGENT_DIR;
  try {
    process.env.PI_CODING_AGENT_DIR = "/tmp/some-agent-dir";
    assert.equal(agentDir(), "/tmp/some-agent-dir");
    assert.equal(configPath(), join("/tmp/some-agent-dir", "todo-loop.json"));
  } finally {
    if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
    else process.env.PI_CODING_AGENT_DIR = saved;
  }
});

test("configPath is <agent dir>/todo-loop.json", () => {
  assert.equal(configPath("/a/b"), join("/a/b", "todo-loop.json"));
});

test("killSwitchPaths: <agent dir>/todo-loop-off (everywhere) first, then <cwd>/.pi/todo-loop-off", () => {
  assert.deepEqual(killSwitchPaths("/work/project", "/home/u/.pi/agent"), [
    join("/home/u/.pi/agent", "todo-loop-off"),
    join("/work/project", ".pi", "todo-loop-off"),
  ]);
});

test("killSwitch: the global file switches the loop off; removing it switches it back on", (t) => {
  const agent = tempDir(t);
  const cwd = tempDir(t);
  assert.equal(killSwitch(cwd, agent), undefined);
  const file = join(agent, "todo-loop-off");
  writeFileSync(file, "");
  assert.equal(killSwitch(cwd, agent), file);
  rmSync(file);
  assert.equal(killSwitch(cwd, agent), undefined);
});

test("killSwitch: the project file switches the loop off in that directory only", (t) => {
  const agent = tempDir(t);
  const cwd = tempDir(t);
  const other = tempDir(t);
  mkdirSync(join(cwd, ".pi"));
  const file = join(cwd, ".pi", "todo-loop-off");
  writeFileSync(file, "");
  assert.equal(killSwitch(cwd, agent), file);
  assert.equal(killSwitch(other, agent), undefined);
});

test("killSwitch: with both files present the global one is named", (t) => {
  const agent = tempDir(t);
  const cwd = tempDir(t);
  mkdirSync(join(cwd, ".pi"));
  writeFileSync(join(cwd, ".pi", "todo-loop-off"), "");
  writeFileSync(join(agent, "todo-loop-off"), "");
  assert.equal(killSwitch(cwd, agent), join(agent, "todo-loop-off"));
});

test("killSwitch: a directory at the kill-switch path also counts (it exists)", (t) => {
  const agent = tempDir(t);
  const cwd = tempDir(t);
  mkdirSync(join(agent, "todo-loop-off"));
  assert.equal(killSwitch(cwd, agent), join(agent, "todo-loop-off"));
});

// ---- problems name what was wrong and what is used instead ------------------------------------------

test("parseConfig: a wrong-typed limit's problem says what it got and that no limit (or the default) is used", () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ maxRounds: true }, "maxRounds must be a positive number or null (got true); using no limit"],
    [{ maxRounds: { n: 1 } }, "maxRounds must be a positive number or null (got an object); using no limit"],
    [{ maxRounds: [3] }, "maxRounds must be a positive number or null (got an array); using no limit"],
    [{ maxTokens: Number.NaN }, "maxTokens must be a positive number or null (got NaN); using no limit"],
    [{ maxCost: Number.POSITIVE_INFINITY }, "maxCost must be a positive number or null (got Infinity); using no limit"],
    [{ maxIdleReplies: false }, "maxIdleReplies must be a positive number or null (got false); using the default 3"],
    [{ maxMinutes: -2 }, "maxMinutes is negative (-2); using no limit"],
    [{ maxIdleReplies: -1 }, "maxIdleReplies is negative (-1); using the default 3"],
  ];
  for (const [raw, problem] of cases) assert.deepEqual(parseConfig(raw).problems, [problem], JSON.stringify(raw));
});

test("parseConfig: a long string value is quoted in the problem by its first 20 characters", () => {
  const long = `${"a".repeat(20)}${"b".repeat(30)}`;
  assert.deepEqual(parseConfig({ maxRounds: long }).problems, [`maxRounds must be a positive number or null (got the string "${"a".repeat(20)}"); using no limit`]);
  assert.deepEqual(parseConfig({ transcript: "yes" }).problems, ['transcript must be true or false (got the string "yes"); using true']);
});

test("parseConfig: an unknown key's problem lists every known key, and quotes the key by its first 40 characters", () => {
  const known = "maxRounds, maxTokens, maxCost, maxMinutes, maxIdleReplies, maxStuckReplies, maxRepeats, stopOnQuestion, transcript, notify, notifyCommand, exitCode, earlierTasks, verify, maxLimitWaitMinutes, children, checkInMinutes";
  assert.deepEqual(parseConfig({ maxround: 3 }).problems, [`unknown key "maxround" ignored (known: ${known})`]);
  const key = `${"k".repeat(40)}${"z".repeat(10)}`;
  assert.deepEqual(parseConfig({ [key]: 1 }).problems, [`unknown key "${"k".repeat(40)}" ignored (known: ${known})`]);
});

test("parseConfig: a limit of exactly 1 is a limit (one continuation, one token, one idle reply)", () => {
  const { config, problems } = parseConfig({ maxRounds: 1, maxTokens: 1, maxIdleReplies: 1, maxCost: 1, maxMinutes: 1 });
  assert.deepEqual(problems, []);
  assert.deepEqual(
    [config.maxRounds, config.maxTokens, config.maxIdleReplies, config.maxCost, config.maxMinutes],
    [1, 1, 1, 1, 1],
  );
});

test("parseConfig: a key present with the value undefined counts as absent (its default, no problem)", () => {
  assert.deepEqual(parseConfig({ maxRounds: undefined, maxIdleReplies: undefined }), { config: DEFAULT_CONFIG, problems: [] });
});

test("parseConfigText: only a leading byte-order mark is dropped; one inside the text is invalid JSON", () => {
  const result = parseConfigText('{\uFEFF"maxRounds": 3}');
  assert.deepEqual(result.config, DEFAULT_CONFIG);
  assertOneLineProblems(result, 1);
  assert.match(result.problems[0] ?? "", /^invalid JSON/);
});

test("parseConfigText: the parse error's quote of the file reads as one line with single spaces", () => {
  const result = parseConfigText('{\n    "a": x\n\n}');
  assertOneLineProblems(result, 1);
  const problem = result.problems[0] ?? "";
  assert.doesNotMatch(problem, /\s{2}/, problem);
  assert.match(problem, /"\{ "a": x \}"/, problem);
});

test("agentDir: only a file:// URL is read as a URL (pi's rule); one it cannot turn into a path is kept as written", () => {
  assert.equal(agentDir({ PI_CODING_AGENT_DIR: "file:/srv/pi-agent" }), "file:/srv/pi-agent");
  assert.equal(agentDir({ PI_CODING_AGENT_DIR: "file://remote-host/srv/pi-agent" }), "file://remote-host/srv/pi-agent");
});

// ---- notify, notifyCommand, exitCode (SPEC §7.1, §8) --------------------------------------------

test("parseConfig: notify takes needs-you (the default), all or off", () => {
  for (const notify of ["needs-you", "all", "off"] as const) {
    assert.deepEqual(parseConfig({ notify }), { config: { ...DEFAULT_CONFIG, notify }, problems: [] });
  }
});

test("parseConfig: a bad notify falls back to needs-you with a one-line problem naming the key", () => {
  for (const bad of ["Needs-you", "sometimes", "", true, null, 1, ["all"], { all: true }]) {
    const result = parseConfig({ notify: bad, maxRounds: 4 });
    assert.equal(result.config.notify, "needs-you", String(bad));
    assert.equal(result.config.maxRounds, 4, "other keys still apply");
    assertOneLineProblems(result, 1);
    assert.match(result.problems[0] ?? "", /^notify must be "needs-you", "all" or "off" \(got .*\); using "needs-you"$/);
  }
});

test("parseConfig: notifyCommand is a program and its arguments, each a non-empty string; null is none", () => {
  assert.deepEqual(parseConfig({ notifyCommand: ["notify-send", "-u", "critical"] }).config.notifyCommand, ["notify-send", "-u", "critical"]);
  assert.deepEqual(parseConfig({ notifyCommand: ["/usr/local/bin/ping-me"] }), { config: { ...DEFAULT_CONFIG, notifyCommand: ["/usr/local/bin/ping-me"] }, problems: [] });
  assert.deepEqual(parseConfig({ notifyCommand: null }), { config: DEFAULT_CONFIG, problems: [] });
});

test("parseConfig: every bad notifyCommand shape runs no command, with a one-line problem naming the key", () => {
  const bad: unknown[] = ["notify-send hello", [], [""], ["notify-send", ""], ["notify-send", 3], [null], ["a\0b"], { program: "x" }, 7, true, Array.from({ length: 65 }, () => "x")];
  for (const value of bad) {
    const result = parseConfig({ notifyCommand: value });
    assert.equal(result.config.notifyCommand, null, JSON.stringify(value));
    assertOneLineProblems(result, 1);
    assert.match(result.problems[0] ?? "", /^notifyCommand must be a list of non-empty strings, the program first \(got .*; no command is run$/);
  }
  assert.match(parseConfig({ notifyCommand: "notify-send hi" }).problems[0] ?? "", /not one string: write \["program", "argument", …\]/);
});

test("parseConfig: exitCode is a whole number from 1 to 125, or null (the default: pi decides)", () => {
  for (const exitCode of [1, 3, 125]) assert.deepEqual(parseConfig({ exitCode }), { config: { ...DEFAULT_CONFIG, exitCode }, problems: [] });
  assert.deepEqual(parseConfig({ exitCode: null }), { config: DEFAULT_CONFIG, problems: [] });
});

test("parseConfig: every bad exitCode leaves the exit status to pi, with a one-line problem naming the key", () => {
  for (const bad of [0, -1, 126, 255, 2.5, "3", true, [3], Number.NaN]) {
    const result = parseConfig({ exitCode: bad });
    assert.equal(result.config.exitCode, null, String(bad));
    assertOneLineProblems(result, 1);
    assert.match(result.problems[0] ?? "", /^exitCode must be a whole number from 1 to 125 or null \(got .*\); the exit status is left to pi$/);
  }
});

test("loadConfig: the user's file is the only place notifyCommand comes from (a project's .pi/todo-loop.json is not read for it)", (t) => {
  const dir = tempDir(t);
  const project = join(dir, "project");
  mkdirSync(join(project, ".pi"), { recursive: true });
  writeFileSync(join(project, ".pi", "todo-loop.json"), JSON.stringify({ notifyCommand: ["evil"] }));
  writeFileSync(join(dir, "todo-loop.json"), JSON.stringify({ exitCode: 3 }));
  const result = loadConfig(configPath(dir));
  assert.equal(result.config.notifyCommand, null);
  assert.equal(result.config.exitCode, 3);
});
test("parseConfig: earlierTasks is \"ask\" (the default) or \"continue\"; every other shape is a problem naming the key and the fallback", () => {
  assert.equal(parseConfig({}).config.earlierTasks, "ask");
  assert.deepEqual(parseConfig({ earlierTasks: "ask" }), { config: { ...DEFAULT_CONFIG, earlierTasks: "ask" }, problems: [] });
  assert.deepEqual(parseConfig({ earlierTasks: "continue" }), { config: { ...DEFAULT_CONFIG, earlierTasks: "continue" }, problems: [] });
  const bad: Array<[unknown, string]> = [
    ["Continue", 'the string "Continue"'],
    ["yes", 'the string "yes"'],
    ["", 'the string ""'],
    [true, "true"],
    [false, "false"],
    [null, "null"],
    [1, "1"],
    [["continue"], "an array"],
    [{ mode: "continue" }, "an object"],
  ];
  for (const [value, shown] of bad) {
    const result = parseConfig({ earlierTasks: value, maxRounds: 4 });
    assert.equal(result.config.earlierTasks, "ask", JSON.stringify(value));
    assert.equal(result.config.maxRounds, 4, "other keys still apply");
    assert.deepEqual(result.problems, [`earlierTasks must be "ask" or "continue" (got ${shown}); using "ask"`]);
  }
});

// ---- the busy-but-stuck brakes (SPEC §4.10, §8) ---------------------------------------------------------

test("parseConfig: maxStuckReplies defaults to 5 and maxRepeats to 3; null or 0 turns each off with no problem", () => {
  assert.equal(DEFAULT_CONFIG.maxStuckReplies, 5);
  assert.equal(DEFAULT_CONFIG.maxRepeats, 3);
  assert.deepEqual(parseConfig({ maxStuckReplies: null, maxRepeats: null }), { config: { ...DEFAULT_CONFIG, maxStuckReplies: null, maxRepeats: null }, problems: [] });
  assert.deepEqual(parseConfig({ maxStuckReplies: 0, maxRepeats: 0 }), { config: { ...DEFAULT_CONFIG, maxStuckReplies: null, maxRepeats: null }, problems: [] });
  assert.deepEqual(parseConfig({ maxStuckReplies: 8, maxRepeats: 2 }), { config: { ...DEFAULT_CONFIG, maxStuckReplies: 8, maxRepeats: 2 }, problems: [] });
  assert.deepEqual(parseConfig({ maxStuckReplies: 100, maxRepeats: 100 }).problems, [], "the ceiling itself is allowed");
});

test("parseConfig: every bad shape of maxStuckReplies or maxRepeats is a one-line problem naming the key and the default used", () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ maxStuckReplies: "5" }, 'maxStuckReplies must be a positive number or null (got the string "5"); using the default 5'],
    [{ maxStuckReplies: true }, "maxStuckReplies must be a positive number or null (got true); using the default 5"],
    [{ maxStuckReplies: [5] }, "maxStuckReplies must be a positive number or null (got an array); using the default 5"],
    [{ maxStuckReplies: -1 }, "maxStuckReplies is negative (-1); using the default 5"],
    [{ maxStuckReplies: 500 }, "maxStuckReplies 500 is above the ceiling 100; using 100"],
    [{ maxRepeats: { n: 3 } }, "maxRepeats must be a positive number or null (got an object); using the default 3"],
    [{ maxRepeats: Number.NaN }, "maxRepeats must be a positive number or null (got NaN); using the default 3"],
    [{ maxRepeats: -3 }, "maxRepeats is negative (-3); using the default 3"],
    [{ maxRepeats: 101 }, "maxRepeats 101 is above the ceiling 100; using 100"],
  ];
  for (const [raw, problem] of cases) assert.deepEqual(parseConfig(raw).problems, [problem], JSON.stringify(raw));
  assert.equal(parseConfig({ maxStuckReplies: "5" }).config.maxStuckReplies, 5, "a bad value keeps the default, never off");
  assert.equal(parseConfig({ maxRepeats: -3 }).config.maxRepeats, 3);
  assert.equal(parseConfig({ maxRepeats: 500 }).config.maxRepeats, 100);
});

test("parseConfig: notifyCommand takes up to 64 words, and only a single string is told to write a list", () => {
  const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`);
  assert.deepEqual(parseConfig({ notifyCommand: words(64) }).config.notifyCommand, words(64));
  assert.equal(parseConfig({ notifyCommand: words(65) }).config.notifyCommand, null);
  assert.deepEqual(parseConfig({ notifyCommand: "notify-send hi" }).problems, [
    'notifyCommand must be a list of non-empty strings, the program first (got the string "notify-send hi"), not one string: write ["program", "argument", …]; no command is run',
  ]);
  assert.deepEqual(parseConfig({ notifyCommand: ["ok", ""] }).problems, ["notifyCommand must be a list of non-empty strings, the program first (got an array); no command is run"]);
});

test("parseConfig: every verify shape gives its entry or leaves it out, with the exact problem naming where it is", () => {
  const entry = (overrides: Record<string, unknown> = {}) => ({ dir: "*", command: "x", timeoutMinutes: 10, maxRuns: 3, ...overrides });
  const rows: Array<[unknown, unknown[], string[]]> = [
    [{ command: "x", timeoutMinutes: 0 }, [entry()], ["verify.timeoutMinutes must be a positive number (got 0); using 10"]],
    [{ command: "x", timeoutMinutes: "5" }, [entry()], ['verify.timeoutMinutes must be a positive number (got the string "5"); using 10']],
    [{ command: "x", timeoutMinutes: 0.5 }, [entry({ timeoutMinutes: 0.5 })], []],
    [{ command: "x", timeoutMinutes: 120 }, [entry({ timeoutMinutes: 120 })], []],
    [{ command: "x", timeoutMinutes: 121 }, [entry({ timeoutMinutes: 120 })], ["verify.timeoutMinutes 121 is above the ceiling 120; using 120"]],
    [{ command: "x", maxRuns: 1 }, [entry({ maxRuns: 1 })], []],
    [{ command: "x", maxRuns: 0.5 }, [entry()], ["verify.maxRuns must be a positive number (got 0.5); using 3"]],
    [{ command: "x", maxRuns: 2.7 }, [entry({ maxRuns: 2 })], []],
    [{ command: "x", maxRuns: 20 }, [entry({ maxRuns: 20 })], []],
    [{ command: "x", maxRuns: 21 }, [entry({ maxRuns: 20 })], ["verify.maxRuns 21 is above the ceiling 20; using 20"]],
    [5, [], ["verify must be a command string, an object with a command, or a list of those (got 5); no verification"]],
    [null, [], []],
    [[], [], []],
    [["npm test"], [], ['verify[0] must be an object with dir and command (got the string "npm test"); entry ignored']],
    [[null], [], ["verify[0] must be a command string, an object with a command, or a list of those (got null); no verification"]],
    [{ command: "x", extra: 1 }, [entry()], ['verify: unknown key "extra" ignored (known: command, timeoutMinutes, maxRuns, dir)']],
    [{ command: "  " }, [], ['verify.command must be a non-empty string (got the string "  "); no verification']],
    [{ command: 7 }, [], ["verify.command must be a non-empty string (got 7); no verification"]],
    [[{ dir: "*", command: "" }], [], ['verify[0].command must be a non-empty string (got the string ""); no verification for this entry']],
    [{ command: "x", dir: "" }, [], ['verify.dir must be a path or "*" (got the string ""); entry ignored']],
    [{ command: "x", dir: 5 }, [], ['verify.dir must be a path or "*" (got 5); entry ignored']],
    [{ command: "x", dir: "~/code" }, [entry({ dir: "~/code" })], []],
    [[{ command: "x" }], [], ['verify[0].dir is missing (a path prefix, or "*" for any directory); entry ignored']],
    ["   ", [], ["verify is an empty command; no verification"]],
  ];
  for (const [value, verify, problems] of rows) {
    assert.deepEqual(parseConfig({ verify: value }), { config: { ...DEFAULT_CONFIG, verify }, problems }, JSON.stringify(value));
  }
  const projectProblems: string[] = [];
  assert.deepEqual(parseVerify([{ dir: "*", command: "x" }], projectProblems, false), [], "a project's verify is never a list");
  assert.deepEqual(projectProblems, ["verify must be a command string or an object with a command (got an array); no verification"]);
});

test("parseConfig: a limit that is a string or not finite falls back to its default with a problem", () => {
  assert.deepEqual(parseConfig({ maxRounds: "20" }), { config: DEFAULT_CONFIG, problems: ['maxRounds must be a positive number or null (got the string "20"); using no limit'] });
  assert.deepEqual(parseConfig({ maxMinutes: Number.POSITIVE_INFINITY }), { config: DEFAULT_CONFIG, problems: ["maxMinutes must be a positive number or null (got Infinity); using no limit"] });
  assert.deepEqual(parseConfig({ maxStuckReplies: Number.NaN }).config.maxStuckReplies, 5);
});

test("parseConfig: a relative notifyCommand program is quoted in the problem by its first 60 characters", () => {
  const program = `./${"n".repeat(58)}${"x".repeat(20)}.sh`;
  assert.deepEqual(parseConfig({ notifyCommand: [program] }), {
    config: DEFAULT_CONFIG,
    problems: [
      `notifyCommand's program "./${"n".repeat(58)}" is a relative path, which would resolve against the project directory a repository controls; write an absolute path, ~/…, or a bare name on PATH; no command is run`,
    ],
  });
});

test("parseConfig: checkInMinutes of exactly the ceiling, 1440, is taken with no problem", () => {
  assert.deepEqual(parseConfig({ checkInMinutes: 1440 }), { config: { ...DEFAULT_CONFIG, checkInMinutes: 1440 }, problems: [] });
});

test("parseConfig: an infinite verify timeout or run count is a wrong value that falls back to the default, not one clamped to the ceiling", () => {
  assert.deepEqual(parseConfig({ verify: { command: "x", timeoutMinutes: Number.POSITIVE_INFINITY, maxRuns: Number.POSITIVE_INFINITY } }), {
    config: { ...DEFAULT_CONFIG, verify: [{ dir: "*", command: "x", timeoutMinutes: 10, maxRuns: 3 }] },
    problems: [
      "verify.timeoutMinutes must be a positive number (got Infinity); using 10",
      "verify.maxRuns must be a positive number (got Infinity); using 3",
    ],
  });
});

test("parseVerify: a project file without a verify key proposes no command and names no problem", () => {
  const problems: string[] = [];
  assert.deepEqual(parseVerify(undefined, problems, false), []);
  assert.deepEqual(problems, []);
});
