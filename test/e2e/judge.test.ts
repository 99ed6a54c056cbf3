// Proves on the real host that a judge model the person names reads the replies the text rule lets through, is never asked where the loop would not continue, falls back with one problem line, sees only what docs say, and costs within maxCost.
/**
 * SPEC 0.5 §4.22 (and §4.23's judge) on the real pi host, with real rpiv-todo, a scripted agent model and
 * the judge stand-in (`stand-ins/judge-provider.ts`: a classifier registered with `classifiers`, a chat
 * model on the faux provider, each call logged with what it received), in `pi -p`. Per scenario the
 * requests to the agent's model, the judge's calls, markers, stop records and problem lines are asserted
 * exactly and printed as a diagnostic.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  baseArgs,
  callTools,
  checkInvariants,
  extensionArgs,
  FINISH_TWO,
  markerDetails,
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
import type { PrintRun, Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const JUDGE_PROVIDER = join(dirname(fileURLToPath(import.meta.url)), "stand-ins", "judge-provider.ts");
const CLASSIFIER = "judgefaux/jev";
const CHAT = "judgechat/chat-1";
const PROMPT = "Do the work";

interface JudgeStep {
  p?: number;
  line?: string;
  error?: string;
  delayMs?: number;
  tokens?: number;
  cost?: number;
}

interface JudgeCall {
  call: number;
  kind: "classify" | "chat";
  model: string;
  state?: { message: string; reply: string; tasks: Array<{ subject: string; status: string }>; open: number; total: number };
  questions?: Record<string, { type: string }>;
  messages?: unknown[];
}

interface Outcome {
  box: Sandbox;
  run: PrintRun;
  calls: JudgeCall[];
  /** The loop's stderr lines. */
  lines: string[];
}

async function printRun(script: ScriptStep[], config: Record<string, unknown>, judge: JudgeStep[] = [], env: Record<string, string> = {}): Promise<Outcome> {
  const box = sandbox({ script, config, env });
  const log = join(box.root, "judge.jsonl");
  const scriptFile = join(box.root, "judge-script.json");
  writeFileSync(scriptFile, JSON.stringify(judge));
  box.env.PI_TODO_LOOP_JUDGE_LOG = log;
  box.env.PI_TODO_LOOP_JUDGE_SCRIPT = scriptFile;
  const run = await runPi(box, [...extensionArgs([JUDGE_PROVIDER]), ...baseArgs(box), "-p", PROMPT], 45_000);
  const calls = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as JudgeCall) : [];
  const lines = run.stderr.split("\n").filter((line) => line.startsWith("todo loop"));
  return { box, run, calls, lines };
}

function figures(outcome: Outcome): string {
  const entries = sessionEntries(outcome.box);
  return `requests ${requests(outcome.box).length}, judge calls ${outcome.calls.length}, markers ${markers(entries).length}, stop records ${stopData(entries).length}, problem lines ${problemLines(outcome).length}, exit ${outcome.run.code}`;
}

function problemLines(outcome: Outcome): string[] {
  return outcome.lines.filter((line) => line.startsWith("todo loop: the judge"));
}

async function scenario(
  t: { diagnostic(message: string): void },
  script: ScriptStep[],
  config: Record<string, unknown>,
  judge: JudgeStep[],
  check: (outcome: Outcome, anchor: string | undefined) => void,
  env: Record<string, string> = {},
): Promise<void> {
  const outcome = await printRun(script, config, judge, env);
  try {
    t.diagnostic(figures(outcome));
    const [anchor] = userMessageIds(sessionEntries(outcome.box));
    check(outcome, anchor);
    checkInvariants(outcome.box, { script, taskTexts: TWO_TASKS });
  } finally {
    outcome.box.cleanup();
  }
}

const PLAIN = "The parser is written. I will restart the dev server next to check the page.";
const HELD = "Could you restart the dev server and check the page";
const STATUS_ANSWER = say("Working on the tests now.");

test("pi -p: a reply the text rule lets through, read by the classifier judge as waiting (p 0.9 ≥ 0.7), is the question stop with the judge in the record", { timeout }, async (t) => {
  const reply = `The parser is written.\n\n${HELD} for me.`;
  await scenario(t, [PLAN_TWO, say(reply)], { judge: CLASSIFIER, exitCode: 3 }, [{ tokens: 240, cost: 0.0003 }], (outcome, anchor) => {
    assert.equal(requests(outcome.box).length, 2, "no continuation request");
    assert.equal(outcome.calls.length, 1);
    const [call] = outcome.calls;
    assert.equal(call?.kind, "classify");
    assert.deepEqual(Object.keys(call?.questions ?? {}), ["waits"]);
    assert.equal(call?.state?.reply, `The parser is written. ${HELD} for me.`);
    assert.equal(markers(sessionEntries(outcome.box)).length, 0);
    const reason = `waiting for you: the judge read the reply as waiting for you: "${HELD} for me."`;
    assert.deepEqual(stopData(sessionEntries(outcome.box)), [
      { v: 1, kind: "question", reason, round: 0, open: 2, anchor, judge: { model: CLASSIFIER, question: "waits", p: 0.9, tokens: 240, cost: 0.0003 } },
    ]);
    assert.deepEqual(outcome.lines, [`todo loop: ${reason}, 2 of 2 tasks open`]);
    assert.equal(outcome.run.code, 3);
  });
});
