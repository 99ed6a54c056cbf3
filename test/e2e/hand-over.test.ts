// Proves on the real host that a clear list whose reply asks the person to test it is a stop that needs them (after a passing check too), an offer of extras is not, and requests to act in Japanese, Russian and French hold the loop.
/**
 * SPEC 0.5 §4.23 and §7.1 on the real pi host, with real rpiv-todo and a scripted model, in `pi -p`: a
 * clear list whose reply hands the testing to the person stops as `clear` with `handsOver` in its
 * record, runs the notify command with `needsYou: true`, writes the stderr line and exits with
 * `exitCode`; an offer of extras at a clear list is an ordinary clear stop (no command, exit 0); and
 * (SPEC 0.5 §4.8) a request to act in Japanese, Russian or French at a settle with open tasks is held as
 * a question, with no marker. Requests, markers, records, hook runs and exit codes asserted exactly.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  baseArgs,
  checkInvariants,
  extensionArgs,
  FINISH_TWO,
  markers,
  PLAN_TWO,
  requests,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  TWO_TASKS,
  userMessageIds,
} from "./harness.ts";
import type { PrintRun, Sandbox, ScriptStep, StopData } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const STOP_LISTENER = join(dirname(fileURLToPath(import.meta.url)), "stand-ins", "stop-listener.ts");
const SENTENCE = "Please test the login page now.";
const HANDED = `stopped: list is clear · the agent asks you to test it: "${SENTENCE}"`;

interface Outcome {
  box: Sandbox;
  run: PrintRun;
  /** The notify command's payloads, one per run of it. */
  hooks: Array<Record<string, unknown>>;
  /** The `todo-loop:stop` events another extension received. */
  events: Array<Record<string, unknown>>;
  /** The loop's stderr lines. */
  lines: string[];
}

function jsonLines(path: string): Array<Record<string, unknown>> {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** `pi -p "Do the work"` with the script, a notify command that appends each payload, exitCode 3, and `config`. */
async function printRun(script: ScriptStep[], config: Record<string, unknown> = {}): Promise<Outcome> {
  const box = sandbox({ script });
  const hookFile = join(box.root, "hook.jsonl");
  const program = join(box.root, "hook.sh");
  writeFileSync(program, `#!/bin/sh\ncat >> "${hookFile}"\n`);
  chmodSync(program, 0o755);
  writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: [program], exitCode: 3, ...config }));
  box.env.PI_TODO_LOOP_E2E_STOPS = join(box.root, "stops.jsonl");
  const run = await runPi(box, [...extensionArgs([STOP_LISTENER]), ...baseArgs(box), "-p", "Do the work"], 45_000);
  const lines = run.stderr.split("\n").filter((line) => line.startsWith("todo loop"));
  return { box, run, hooks: jsonLines(hookFile), events: jsonLines(box.env.PI_TODO_LOOP_E2E_STOPS), lines };
}

function figures(outcome: Outcome): string {
  const entries = sessionEntries(outcome.box);
  return `requests ${requests(outcome.box).length}, markers ${markers(entries).length}, stop records ${stopData(entries).length}, notify command runs ${outcome.hooks.length}, exit ${outcome.run.code}`;
}

test("pi -p: a clear list whose reply asks the person to test it stops as a hand-over: handsOver in the record, the notify command with needsYou true, the stderr line, exit 3", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, FINISH_TWO, say(`Both tasks are done: the parser and its tests.\n\n${SENTENCE}`)];
  const outcome = await printRun(script);
  try {
    t.diagnostic(figures(outcome));
    const entries = sessionEntries(outcome.box);
    assert.equal(outcome.run.code, 3, outcome.run.stderr);
    assert.equal(requests(outcome.box).length, 3, "no continuation after the hand-over");
    assert.equal(markers(entries).length, 0);
    const [anchor] = userMessageIds(entries);
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "clear", reason: HANDED, round: 0, open: 0, anchor, handsOver: SENTENCE }]);
    assert.deepEqual(outcome.lines, [`todo loop: ${HANDED}`]);
    assert.equal(outcome.hooks.length, 1, "the notify command ran once, before pi exited");
    const payload = outcome.hooks[0] ?? {};
    assert.deepEqual([payload.kind, payload.reason, payload.detail, payload.open, payload.total, payload.needsYou], [
      "clear", "stopped: list is clear · the agent asks you to test it", SENTENCE, 0, 2, true,
    ]);
    assert.deepEqual(outcome.events, [payload], "the event carries the same payload");
    checkInvariants(outcome.box, { script, taskTexts: TWO_TASKS });
  } finally {
    outcome.box.cleanup();
  }
});

test("pi -p: an offer of extras at a clear list ('Want me to also add tests?') is an ordinary clear stop: no handsOver, no command, no stderr line, exit 0", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, FINISH_TWO, say("Both tasks are done: the parser and its tests.\n\nWant me to also add tests?")];
  const outcome = await printRun(script);
  try {
    t.diagnostic(figures(outcome));
    const entries = sessionEntries(outcome.box);
    assert.equal(outcome.run.code, 0, outcome.run.stderr);
    assert.equal(requests(outcome.box).length, 3);
    assert.equal(markers(entries).length, 0);
    const [anchor] = userMessageIds(entries);
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "clear", reason: "stopped: list is clear", round: 0, open: 0, anchor }]);
    assert.deepEqual(outcome.lines, []);
    assert.equal(outcome.hooks.length, 0);
    assert.deepEqual(outcome.events.map((event) => [event.kind, event.needsYou, event.detail]), [["clear", false, null]]);
    checkInvariants(outcome.box, { script, taskTexts: TWO_TASKS });
  } finally {
    outcome.box.cleanup();
  }
});

test("pi -p: the person's own check runs first and passes, and the hand-over still needs them: the record carries verify and handsOver, exit 3", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, FINISH_TWO, say(SENTENCE)];
  const outcome = await printRun(script, { verify: "echo '2 passing'" });
  try {
    t.diagnostic(figures(outcome));
    const entries = sessionEntries(outcome.box);
    assert.equal(outcome.run.code, 3, outcome.run.stderr);
    assert.equal(requests(outcome.box).length, 3, "the check passed: no continuation");
    assert.equal(markers(entries).length, 0);
    const records: Array<StopData & { handsOver?: unknown; verify?: { exit?: unknown } }> = stopData(entries);
    assert.equal(records.length, 1);
    const [record] = records;
    assert.deepEqual([record?.kind, record?.handsOver, record?.verify?.exit], ["clear", SENTENCE, 0]);
    assert.match(String(record?.reason), /^stopped: list is clear · echo '2 passing' passed \(\d+ s\) · the agent asks you to test it: "Please test the login page now\."$/);
    assert.deepEqual(outcome.lines, [`todo loop: ${String(record?.reason)}`]);
    assert.deepEqual(outcome.hooks.map((payload) => [payload.kind, payload.detail, payload.needsYou]), [["clear", SENTENCE, true]]);
    checkInvariants(outcome.box, { script, taskTexts: TWO_TASKS });
  } finally {
    outcome.box.cleanup();
  }
});

const REQUESTS: ReadonlyArray<readonly [string, string, string]> = [
  ["Japanese", "パーサーを書き終えました。", "サーバーを再起動してから確認してください。"],
  ["Russian", "Парсер готов.", "Перезапустите сервер и проверьте, пожалуйста."],
  ["French", "Le parseur est prêt.", "J'attends ton feu vert pour continuer."],
];

for (const [language, before, request] of REQUESTS) {
  test(`pi -p: a request to act in ${language} with tasks open is held as a question with no marker: "${request}"`, { timeout }, async (t) => {
    const script: ScriptStep[] = [PLAN_TWO, say(`${before}\n\n${request}`)];
    const outcome = await printRun(script);
    try {
      t.diagnostic(figures(outcome));
      const entries = sessionEntries(outcome.box);
      const waiting = `waiting for you: the agent asked: "${request}"`;
      assert.equal(requests(outcome.box).length, 2, "no continuation request");
      assert.equal(markers(entries).length, 0, "no marker");
      const [anchor] = userMessageIds(entries);
      assert.deepEqual(stopData(entries), [{ v: 1, kind: "question", reason: waiting, round: 0, open: 2, anchor }]);
      assert.deepEqual(outcome.lines, [`todo loop: ${waiting}, 2 of 2 tasks open`]);
      assert.equal(outcome.run.code, 3, outcome.run.stderr);
      assert.deepEqual(outcome.hooks.map((payload) => [payload.kind, payload.detail, payload.needsYou]), [["question", request, true]]);
      checkInvariants(outcome.box, { script, taskTexts: TWO_TASKS });
    } finally {
      outcome.box.cleanup();
    }
  });
}
