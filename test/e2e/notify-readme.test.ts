// Proves on the real host that the notifyCommand examples of docs/notifications.md work as written.
/**
 * The `notifyCommand` examples of docs/notifications.md, run as written: each is the config of a real
 * `pi -p` run that ends on an idle stop, with a stub `notify-send`, `curl` and `terminal-notifier` first
 * on PATH that record the arguments and stdin they were given. And the page's CI use of `exitCode` with
 * several prompts: the last run decides.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseArgs, extensionArgs, FINISH_TWO, PACKAGE_ROOT, PLAN_TWO, runPi, sandbox, say, SCENARIO_TIMEOUT_MS } from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const IDLE_SCRIPT: ScriptStep[] = [PLAN_TWO, say("Stopping here."), say("Still stopping."), say("Stopping again.")];
const IDLE_REASON = "stopped: the agent stopped 3 times in a row without doing anything";
const STUBS = ["notify-send", "curl", "terminal-notifier"] as const;

/** The JSON blocks of docs/notifications.md that set `notifyCommand`. */
function pageExamples(): Map<string, unknown> {
  const section = readFileSync(join(PACKAGE_ROOT, "docs", "notifications.md"), "utf8");
  const examples = new Map<string, unknown>();
  for (const match of section.matchAll(/```json\n([\s\S]*?)\n```/g)) {
    const config = JSON.parse(match[1] ?? "") as { notifyCommand?: string[] };
    if (!config.notifyCommand) continue;
    const text = config.notifyCommand.join(" ");
    const stub = STUBS.find((name) => text.includes(name));
    assert.ok(stub, `an example for one of ${STUBS.join(", ")}: ${text}`);
    examples.set(stub, config);
  }
  return examples;
}

/** A bin folder of stubs, each writing its arguments (one per line) and its stdin into the sandbox. */
function stubs(box: Sandbox): string {
  const bin = join(box.root, "bin");
  mkdirSync(bin, { recursive: true });
  for (const name of STUBS) {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${join(box.root, `${name}.argv`)}"\ncat > "${join(box.root, `${name}.stdin`)}"\n`);
    chmodSync(path, 0o755);
  }
  return bin;
}

function recorded(box: Sandbox, name: string): { argv: string[]; stdin: string } | undefined {
  const argv = join(box.root, `${name}.argv`);
  if (!existsSync(argv)) return undefined;
  return { argv: readFileSync(argv, "utf8").split("\n").slice(0, -1), stdin: readFileSync(join(box.root, `${name}.stdin`), "utf8") };
}

test("docs/notifications.md: the notify-send, curl and terminal-notifier examples, run as written against stubs of those names on PATH, get the stop", { timeout }, async (t) => {
  const examples = pageExamples();
  assert.deepEqual([...examples.keys()].sort(), [...STUBS].sort());
  const boxes = [...examples].map(([name, config]) => ({ name, box: sandbox({ script: IDLE_SCRIPT, config }) }));
  try {
    const runs = await Promise.all(
      boxes.map(({ box }) => {
        box.env.PATH = `${stubs(box)}:${box.env.PATH ?? ""}`;
        return runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"]);
      }),
    );
    boxes.forEach(({ name, box }, index) => {
      const run = runs[index];
      assert.equal(run?.code, 0, run?.stderr);
      for (const other of STUBS) if (other !== name) assert.equal(recorded(box, other), undefined, `${name}'s example ran only ${name}`);
      const got = recorded(box, name);
      assert.ok(got, `${name} was run`);
      t.diagnostic(`${name}: argv ${JSON.stringify(got.argv)}, stdin ${got.stdin.length} bytes`);
      switch (name) {
        case "notify-send":
          assert.deepEqual(got.argv, ["--app-name=pi", "pi: todo loop", IDLE_REASON]);
          break;
        case "terminal-notifier":
          assert.deepEqual(got.argv, ["-title", "pi: todo loop", "-message", IDLE_REASON]);
          break;
        case "curl": {
          assert.deepEqual(got.argv, ["-fsS", "-m", "8", "-H", "Title: pi todo loop", "--data-binary", "@-", "https://ntfy.sh/your-topic"]);
          const payload = JSON.parse(got.stdin) as Record<string, unknown>;
          assert.equal(payload.kind, "idle");
          assert.equal(payload.reason, IDLE_REASON);
          assert.equal(payload.open, 2);
          break;
        }
        default:
          assert.fail(name);
      }
    });
  } finally {
    for (const { box } of boxes) box.cleanup();
  }
});

test("CI: with several prompts in one pi -p run the last run decides the exit status (exitCode 3)", { timeout }, async (t) => {
  // First prompt: a list left open by an idle stop; second: the list finished.
  const idleThenClear: ScriptStep[] = [...IDLE_SCRIPT, FINISH_TWO, say("All done.")];
  // First prompt: a list finished; second: a new list left open by an idle stop.
  const clearThenIdle: ScriptStep[] = [PLAN_TWO, FINISH_TWO, say("All done."), ...IDLE_SCRIPT];
  const boxes = [sandbox({ script: idleThenClear, config: { exitCode: 3 } }), sandbox({ script: clearThenIdle, config: { exitCode: 3 } })];
  try {
    const [first, second] = await Promise.all(boxes.map((box) => runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work", "Carry on"])));
    assert.equal(first?.code, 0, `idle, then clear: ${first?.stderr}`);
    assert.equal(second?.code, 3, `clear, then idle: ${second?.stderr}`);
    assert.equal(first?.stderr.split("\n").filter((line) => line.startsWith("todo loop: stopped")).length, 1, "the idle stop's line, once");
    t.diagnostic(`idle then clear: exit ${first?.code}; clear then idle: exit ${second?.code}`);
  } finally {
    for (const box of boxes) box.cleanup();
  }
});
