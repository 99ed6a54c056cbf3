/**
 * The report's words (src/core/text-report.ts, SPEC §7.2): the line under a stop and /todoloop report.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { dollarText, reportLine, reportText, tokenText } from "../../src/core/text-report.ts";
import type { RunReport } from "../../src/core/report.ts";
import { handOffNudgeText, continuationLine } from "../../src/core/text.ts";

const REPORT: RunReport = {
  continuations: 3,
  byKind: { nudge: 3, wake: 0, checkIn: 0, resume: 0, continue: 0, handOff: 0 },
  changed: 2,
  unchanged: 1,
  tokens: 41_234,
  cost: 0.1234,
  minutes: 6.4,
};

test("report words: the SPEC's line, tokens only without cost", () => {
  assert.equal(reportLine(REPORT), "3 continuations · 2 changed something · 41k tokens · $0.12 · 6 min");
  assert.equal(reportLine({ ...REPORT, continuations: 1, changed: 0, tokens: 950, cost: 0, minutes: 0.2 }), "1 continuation · 0 changed something · 950 tokens · under a minute");
  assert.equal(reportLine({ ...REPORT, verify: { runs: 2 } }), "3 continuations · 2 changed something · 41k tokens · $0.12 · 2 check runs · 6 min");
});

test("report words: tokens and dollars as a person reads them", () => {
  assert.deepEqual([0, 999, 4_100, 41_499, 1_250_000, 12_000_000].map(tokenText), ["0", "999", "4.1k", "41k", "1.3M", "12M"]);
  assert.deepEqual([0, 0.0042, 0.01, 0.125, 12].map(dollarText), ["$0", "$0.0042", "$0.01", "$0.13", "$12.00"]);
});

test("report words: tokens at each boundary — 999/1000, one decimal under ten as it rounds, never 1000k, whole millions from ten", () => {
  const cases: [number, string][] = [
    [-5, "0"], [999, "999"], [999.4, "999"], [999.5, "1k"], [1000, "1k"], [1049, "1k"], [1050, "1.1k"],
    [9_949, "9.9k"], [9_950, "10k"], [9_999, "10k"], [10_000, "10k"], [10_499, "10k"], [10_500, "11k"],
    [999_499, "999k"], [999_500, "1M"], [999_999, "1M"], [1_000_000, "1M"], [1_049_999, "1M"], [1_050_000, "1.1M"],
    [9_949_999, "9.9M"], [9_950_000, "10M"], [10_000_000, "10M"], [12_345_678, "12M"], [1_000_000_000, "1000M"],
  ];
  for (const [tokens, text] of cases) assert.equal(tokenText(tokens), text, `${tokens} tokens`);
});

test("report words: dollars — nothing, less than nothing and not a number are $0; a cent and up in cents; under a cent two significant digits, written out", () => {
  const cases: [number, string][] = [
    [0, "$0"], [-0.5, "$0"], [Number.NaN, "$0"], [1e-120, "$0"],
    [0.01, "$0.01"], [0.0101, "$0.01"], [0.015, "$0.01"], [0.5, "$0.50"], [0.999, "$1.00"], [1234.567, "$1234.57"],
    [0.00999, "$0.01"], [0.0099, "$0.0099"], [0.005, "$0.005"], [0.00123, "$0.0012"], [0.001, "$0.001"],
    [0.000001, "$0.000001"], [1e-7, "$0.0000001"], [1.23456e-7, "$0.00000012"],
  ];
  for (const [cost, text] of cases) assert.equal(dollarText(cost), text, `${cost} dollars`);
});

test("report words: check runs and judge calls counted in the singular and the plural; no judge call, no judge words", () => {
  const base = { ...REPORT, cost: 0 };
  assert.equal(reportLine({ ...base, verify: { runs: 1 } }), "3 continuations · 2 changed something · 41k tokens · 1 check run · 6 min");
  assert.equal(reportLine({ ...base, judge: { calls: 1, tokens: 300, cost: 0 } }), "3 continuations · 2 changed something · 41k tokens · 1 judge call · 6 min");
  assert.equal(reportLine({ ...base, judge: { calls: 2, tokens: 600, cost: 0 } }), "3 continuations · 2 changed something · 41k tokens · 2 judge calls · 6 min");
  assert.equal(reportLine({ ...base, judge: { calls: 0, tokens: 0, cost: 0 } }), "3 continuations · 2 changed something · 41k tokens · 6 min");
  assert.equal(reportLine({ ...base, cost: 0.004, verify: { runs: 3 }, judge: { calls: 4, tokens: 1, cost: 0 } }), "3 continuations · 2 changed something · 41k tokens · $0.004 · 3 check runs · 4 judge calls · 6 min");
});

test("report words: /todoloop report — a current run, each kind in its words, the first ones not listed, no cost shown when none, clock times of past runs", () => {
  const kinds = ["nudge", "wake", "checkIn", "resume", "continue", "handOff"] as const;
  const text = reportText({
    run: {
      report: { ...REPORT, continuations: 9, changed: 9, unchanged: 0 },
      ended: false,
      lines: kinds.map((kind, index) => ({ kind, round: index + 1, tokens: 1000 * (index + 1), cost: index === 2 ? 0 : 0.02, changed: true })),
    },
    // Built from local time, so the expected clock holds in any time zone.
    past: [
      { kind: "limit", time: new Date(2026, 0, 5, 9, 7).getTime(), report: { ...REPORT, cost: 0 } },
      { kind: "done", time: new Date(2026, 0, 5, 23, 45).getTime(), report: { ...REPORT, continuations: 1, changed: 1, unchanged: 0, tokens: 999_999, cost: 0.005, minutes: 0.2 } },
    ],
  });
  assert.equal(text, [
    "todo loop report, current run of your latest message: 9 continuations · 9 changed something · 41k tokens · $0.12 · 6 min",
    "  (the first 3 not listed)",
    "  4. nudge · 1k tokens · $0.02 · changed something",
    "  5. wake after work · 2k tokens · $0.02 · changed something",
    "  6. check-in · 3k tokens · changed something",
    "  7. resume after a limit · 4k tokens · $0.02 · changed something",
    "  8. /todoloop continue · 5k tokens · $0.02 · changed something",
    "  9. hand-off · 6k tokens · $0.02 · changed something",
    "last 2 runs of this session:",
    "  09:07 limit: 3 continuations · 2 changed something · 41k tokens · 6 min",
    "  23:45 done: 1 continuation · 1 changed something · 1M tokens · $0.005 · under a minute",
  ].join("\n"));
});

test("report words: /todoloop report — a run with no continuation yet says so; the changed-nothing line needs one; one line missing is one not listed", () => {
  const past = [{ kind: "limit", time: undefined, report: REPORT }];
  assert.equal(reportText({ run: { report: { ...REPORT, continuations: 0, changed: 0, unchanged: 0, tokens: 0, cost: 0 }, ended: false, lines: [] }, past }), [
    "todo loop report: no continuation under your latest message",
    "last 1 run of this session:",
    "  limit: 3 continuations · 2 changed something · 41k tokens · $0.12 · 6 min",
  ].join("\n"));
  const line = { kind: "nudge", round: 2, tokens: 10, cost: 0, changed: false } as const;
  assert.equal(reportText({ run: { report: { ...REPORT, continuations: 2, changed: 0, unchanged: 2, cost: 0 }, ended: true, lines: [line] }, past: [] }), [
    "todo loop report, last run of your latest message: 2 continuations · 0 changed something · 41k tokens · 6 min",
    "  (the first 1 not listed)",
    "  2. nudge · 10 tokens · changed nothing",
    "  2 continuations changed nothing",
  ].join("\n"));
  assert.equal(reportText({ run: { report: { ...REPORT, continuations: 1, changed: 1, unchanged: 0, cost: 0 }, ended: true, lines: [{ ...line, round: 1, changed: true }] }, past: [] }), [
    "todo loop report, last run of your latest message: 1 continuation · 1 changed something · 41k tokens · 6 min",
    "  1. nudge · 10 tokens · changed something",
  ].join("\n"));
});

test("report words: /todoloop report lists the run continuation by continuation, then the last runs", () => {
  const text = reportText({
    run: {
      report: REPORT,
      ended: true,
      lines: [
        { kind: "nudge", round: 1, tokens: 20_000, cost: 0.06, changed: true },
        { kind: "nudge", round: 2, tokens: 1_234, cost: 0.0034, changed: false },
        { kind: "handOff", round: 2, tokens: 20_000, cost: 0.06, changed: true },
      ],
    },
    past: [{ kind: "limit", time: undefined, report: REPORT }],
  });
  assert.equal(text, [
    "todo loop report, last run of your latest message: 3 continuations · 2 changed something · 41k tokens · $0.12 · 6 min",
    "  1. nudge · 20k tokens · $0.06 · changed something",
    "  2. nudge · 1.2k tokens · $0.0034 · changed nothing",
    "  3. hand-off · 20k tokens · $0.06 · changed something",
    "  1 continuation changed nothing",
    "last 1 run of this session:",
    "  limit: 3 continuations · 2 changed something · 41k tokens · $0.12 · 6 min",
  ].join("\n"));
  assert.equal(reportText({ run: undefined, past: [] }), "todo loop report: no continuation under your latest message");
});

test("hand-off words: a fixed text without tools, and its transcript line", () => {
  assert.match(handOffNudgeText(), /limit the user set/);
  assert.match(handOffNudgeText(), /what is done, what is left, and the next step/);
  assert.match(handOffNudgeText(), /do not call any tools/);
  assert.equal(continuationLine({ round: 2, open: 1, total: 3, cap: 2, handOff: true }), "todo loop: hand-off · 1 of 3 open");
});
