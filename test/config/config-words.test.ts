/**
 * Config problems a new user reads (SPEC §7 and §8, 0.5): a misspelt key names the key it most likely
 * meant; a number too large to read is named as it was written, never as Infinity.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { meantKey, parseConfig, parseConfigText } from "../../src/config.ts";

const KNOWN = ["maxRounds", "maxTokens", "maxCost", "maxMinutes", "maxIdleReplies", "maxStuckReplies", "maxRepeats", "stopOnQuestion", "transcript", "notify", "notifyCommand", "exitCode", "earlierTasks", "verify", "maxLimitWaitMinutes", "children", "checkInMinutes"];

test("a misspelt key: did you mean the known key, as SPEC §8 words it", () => {
  assert.deepEqual(parseConfig({ maxRound: 3 }).problems, ['unknown key "maxRound" — did you mean "maxRounds"?']);
  assert.deepEqual(parseConfigText('{ "stoponquestion": false, "maxRounds": 4 }').problems, ['unknown key "stoponquestion" — did you mean "stopOnQuestion"?']);
  assert.equal(parseConfig({ maxRound: 3, maxRounds: 4 }).config.maxRounds, 4, "the misspelt key is still ignored");
  assert.deepEqual(parseConfig({ verify: { comand: "npm test", command: "npm test" } }).problems, ['verify: unknown key "comand" — did you mean "command"?']);
});

test("meantKey: equal ignoring case first, else the smallest edit distance up to 2, else none", () => {
  assert.equal(meantKey("MAXROUNDS", KNOWN), "maxRounds", "case alone");
  assert.equal(meantKey("maxRound", KNOWN), "maxRounds", "one letter missing");
  assert.equal(meantKey("maxRoundz", KNOWN), "maxRounds", "one letter wrong");
  assert.equal(meantKey("mxRunds", KNOWN), "maxRounds", "two letters missing");
  assert.equal(meantKey("mxRund", KNOWN), undefined, "three away");
  assert.equal(meantKey("notfy", KNOWN), "notify");
  assert.equal(meantKey("maxCosts", KNOWN), "maxCost");
  assert.equal(meantKey("maxTokenz", KNOWN), "maxTokens");
  assert.equal(meantKey("frobnicate", KNOWN), undefined);
  assert.equal(meantKey("", KNOWN), undefined);
  assert.equal(meantKey("m".repeat(10_000), KNOWN), undefined, "a huge key is no typo and costs nothing");
  // A tie goes to the first known key.
  assert.equal(meantKey("ab", ["ax", "ay"]), "ax");
});

test("a number too large to read is named as written: 1e400 is too large, never got Infinity", () => {
  const result = parseConfigText('{ "maxRounds": 1e400, "maxCost": -1E+999, "maxMinutes": 30 }');
  assert.deepEqual(result.problems, [
    "maxRounds must be a positive number or null (1e400 is too large); using no limit",
    "maxCost must be a positive number or null (-1E+999 is too large); using no limit",
  ]);
  assert.equal(result.config.maxMinutes, 30);
  assert.equal(result.problems.some((problem) => problem.includes("Infinity")), false);
});

test("1e400 inside a string is not a number; nested and listed numbers are named too, in the order written", () => {
  const result = parseConfigText('{ "notifyCommand": ["say", "1e400"], "verify": { "command": "npm test", "timeoutMinutes": 2e308, "maxRuns": 9e999 }, "exitCode": 1e500 }');
  assert.deepEqual(result.problems, [
    "verify.timeoutMinutes must be a positive number (2e308 is too large); using 10",
    "verify.maxRuns must be a positive number (9e999 is too large); using 3",
    "exitCode must be a whole number from 1 to 125 or null (1e500 is too large); the exit status is left to pi",
  ]);
  assert.deepEqual(result.config.notifyCommand, ["say", "1e400"]);
  const escaped = parseConfigText('{ "notifyCommand": ["say", "a \\" 1e400"], "maxRounds": 1e999 }');
  assert.deepEqual(escaped.problems, ["maxRounds must be a positive number or null (1e999 is too large); using no limit"]);
});

test("bad input: a __proto__ key next to a huge number stays an unknown key, and nothing is polluted", () => {
  const result = parseConfigText('{ "__proto__": { "polluted": 1 }, "maxRounds": 1e400 }');
  assert.equal(({} as { polluted?: number }).polluted, undefined);
  assert.ok(result.problems.some((problem) => problem.startsWith('unknown key "__proto__"')));
  assert.ok(result.problems.includes("maxRounds must be a positive number or null (1e400 is too large); using no limit"));
});
