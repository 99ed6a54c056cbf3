/**
 * Configuration and kill switch (SPEC §8): every bad shape falls back to "no limit" key by key with a
 * one-line problem, nothing ever throws, and both kill-switch files are found where pi users put them.
 */
import { test } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { agentDir, CEILINGS, configPath, DEFAULT_LIMITS, killSwitch, killSwitchPaths, loadConfig, parseConfig, parseConfigText } from "../src/config.ts";
import type { ConfigResult } from "../src/config.ts";

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

test("parseConfig: nothing to parse means every limit off and no problem", () => {
  assert.deepEqual(parseConfig(undefined), { config: DEFAULT_LIMITS, problems: [] });
  assert.deepEqual(DEFAULT_LIMITS, { maxRounds: null, maxTokens: null, maxCost: null });
});

test("parseConfig: positive numbers are the limits", () => {
  assert.deepEqual(parseConfig({ maxRounds: 12, maxTokens: 200_000, maxCost: 1.5 }), {
    config: { maxRounds: 12, maxTokens: 200_000, maxCost: 1.5 },
    problems: [],
  });
});

test("parseConfig: an empty object and explicit nulls mean no limit, with no problem", () => {
  assert.deepEqual(parseConfig({}), { config: DEFAULT_LIMITS, problems: [] });
  assert.deepEqual(parseConfig({ maxRounds: null, maxTokens: null, maxCost: null }), { config: DEFAULT_LIMITS, problems: [] });
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

test("parseConfig: a negative value means no limit, with a problem", () => {
  const result = parseConfig({ maxRounds: -1, maxTokens: -100, maxCost: -0.5 });
  assert.deepEqual(result.config, DEFAULT_LIMITS);
  assertOneLineProblems(result, 3);
});

test("parseConfig: zero means no limit", () => {
  assert.deepEqual(parseConfig({ maxRounds: 0, maxTokens: 0, maxCost: 0 }).config, DEFAULT_LIMITS);
});

test("parseConfig: rounds and tokens below 1 mean no limit; any positive cost is a limit", () => {
  assert.deepEqual(parseConfig({ maxRounds: 0.5, maxTokens: 0.9, maxCost: 0.001 }).config, { maxRounds: null, maxTokens: null, maxCost: 0.001 });
});

test("parseConfig: fractional rounds and tokens are rounded down; cost keeps its cents", () => {
  assert.deepEqual(parseConfig({ maxRounds: 2.7, maxTokens: 1000.9, maxCost: 0.25 }).config, { maxRounds: 2, maxTokens: 1000, maxCost: 0.25 });
});

test("parseConfig: huge values are clamped to a sane ceiling, with a problem (maxRounds ≤ 1000)", () => {
  const result = parseConfig({ maxRounds: 5000, maxTokens: 1e15, maxCost: 1e9 });
  assert.equal(CEILINGS.maxRounds, 1000);
  assert.deepEqual(result.config, CEILINGS);
  assertOneLineProblems(result, 3);
  assert.deepEqual(parseConfig({ maxRounds: 1000 }), { config: { ...DEFAULT_LIMITS, maxRounds: 1000 }, problems: [] });
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
    assert.deepEqual(result.config, DEFAULT_LIMITS, JSON.stringify(raw));
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
    assert.deepEqual(result.config, DEFAULT_LIMITS, text);
    assertOneLineProblems(result, 1);
    assert.match(result.problems[0] ?? "", /^invalid JSON/);
  }
});

test("parseConfigText: valid JSON is parsed like parseConfig, a byte-order mark included", () => {
  assert.deepEqual(parseConfigText('{"maxRounds": 3}'), { config: { ...DEFAULT_LIMITS, maxRounds: 3 }, problems: [] });
  assert.deepEqual(parseConfigText('\uFEFF{"maxCost": 2}'), { config: { ...DEFAULT_LIMITS, maxCost: 2 }, problems: [] });
  assert.deepEqual(parseConfigText("null").config, DEFAULT_LIMITS);
});

// ---- loadConfig -----------------------------------------------------------------------------------

test("loadConfig: a missing file is the defaults with no problem", (t) => {
  const dir = tempDir(t);
  assert.deepEqual(loadConfig(join(dir, "todo-loop.json")), { config: DEFAULT_LIMITS, problems: [] });
});

test("loadConfig: an unreadable file (a directory at the path) is the defaults with a one-line problem", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "todo-loop.json");
  mkdirSync(path);
  const result = loadConfig(path);
  assert.deepEqual(result.config, DEFAULT_LIMITS);
  assertOneLineProblems(result, 1);
  assert.match(result.problems[0] ?? "", /^cannot read the file/);
});

test("loadConfig: reads the file every time, so edits apply without /reload", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "todo-loop.json");
  writeFileSync(path, JSON.stringify({ maxRounds: 3 }));
  assert.equal(loadConfig(path).config.maxRounds, 3);
  writeFileSync(path, JSON.stringify({ maxRounds: 7 }));
  assert.equal(loadConfig(path).config.maxRounds, 7);
  writeFileSync(path, "{ broken");
  assert.deepEqual(loadConfig(path).config, DEFAULT_LIMITS);
  rmSync(path);
  assert.deepEqual(loadConfig(path), { config: DEFAULT_LIMITS, problems: [] });
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
