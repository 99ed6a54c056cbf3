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
