/**
 * The 0.5 keys of the config file (SPEC §4.22, §8): the judge and its two numbers at and past their
 * bounds, `"verify": false`, and numbers too large to read in the places a scan of the text can slip.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG, meantKey, parseConfig, parseConfigText } from "../../src/config.ts";

test("judge: a model name is kept trimmed; null is no judge and no problem; anything else is a problem and no judge", () => {
  assert.deepEqual(parseConfig({ judge: " judgefaux/jev " }), { config: { ...DEFAULT_CONFIG, judge: "judgefaux/jev" }, problems: [] });
  assert.deepEqual(parseConfig({ judge: null }), { config: DEFAULT_CONFIG, problems: [] });
  const bad = parseConfig({ judge: "no-slash" });
  assert.equal(bad.config.judge, null);
  assert.deepEqual(bad.problems, ['judge must be "provider/id", a model pi knows (got the string "no-slash"); no judge']);
});

test("judgeThreshold takes 0.5 to 0.99 and judgeTimeoutSeconds 1 to 120, both bounds included; past them the default, named by key", () => {
  for (const value of [0.5, 0.99]) assert.deepEqual(parseConfig({ judgeThreshold: value }), { config: { ...DEFAULT_CONFIG, judgeThreshold: value }, problems: [] });
  for (const value of [1, 120]) assert.deepEqual(parseConfig({ judgeTimeoutSeconds: value }), { config: { ...DEFAULT_CONFIG, judgeTimeoutSeconds: value }, problems: [] });
  assert.deepEqual(parseConfig({ judgeThreshold: 0.49 }).problems, ["judgeThreshold must be a number from 0.5 to 0.99 (got 0.49); using 0.7"]);
  assert.deepEqual(parseConfig({ judgeThreshold: 1 }).problems, ["judgeThreshold must be a number from 0.5 to 0.99 (got 1); using 0.7"]);
  assert.deepEqual(parseConfig({ judgeTimeoutSeconds: 0 }).problems, ["judgeTimeoutSeconds must be a number from 1 to 120 (got 0); using 20"]);
  assert.deepEqual(parseConfig({ judgeTimeoutSeconds: "20" }).problems, ['judgeTimeoutSeconds must be a number from 1 to 120 (got the string "20"); using 20']);
  assert.equal(parseConfig({ judgeTimeoutSeconds: 121 }).config.judgeTimeoutSeconds, 20);
});

test('"verify": false turns verification off with no problem; other values are read as a check', () => {
  assert.deepEqual(parseConfig({ verify: false }), { config: { ...DEFAULT_CONFIG, verifyOff: true }, problems: [] });
  assert.equal(parseConfig({ verify: true }).config.verifyOff, undefined);
  assert.equal(parseConfig({ verify: [] }).config.verifyOff, undefined);
});

test("meantKey: letters before a known key count as edits, so a key with three extra is none", () => {
  assert.equal(meantKey("abcnotify", ["notify", "maxRounds"]), undefined);
  assert.equal(meantKey("anotify", ["notify", "maxRounds"]), "notify");
});

test("numbers too large to read: many digits, fractions, a leading zero, no exponent, and compact JSON", () => {
  const problem = (key: string, written: string): string => `${key} must be a positive number or null (${written} is too large); using no limit`;
  assert.deepEqual(parseConfigText('{"maxRounds":12e400,"maxCost":1.25e400}').problems, [problem("maxRounds", "12e400"), problem("maxCost", "1.25e400")]);
  assert.deepEqual(parseConfigText('{"maxTokens":0.1e400}').problems, [problem("maxTokens", "0.1e400")]);
  const digits = "9".repeat(400);
  assert.deepEqual(parseConfigText(`{"maxMinutes":${digits}}`).problems, [problem("maxMinutes", digits)]);
  const mixed = parseConfigText('{"exitCode":null,"notifyCommand":["say","hi"],"maxRounds":1e400}');
  assert.equal(mixed.config.exitCode, null);
  assert.deepEqual(mixed.config.notifyCommand, ["say", "hi"]);
  assert.deepEqual(mixed.problems, [problem("maxRounds", "1e400")]);
});
