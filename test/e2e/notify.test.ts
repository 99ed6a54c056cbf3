// Proves on the real host how a stop reaches a person who walked away: the command hook, the event, the exit status.
/**
 * Reaching a person who walked away (SPEC 0.3 §7.1, §8 "Never silent") on the real pi host, with real
 * rpiv-todo and the scripted model: the command hook and its payload in `pi -p` (awaited before pi
 * exits, cut at 10 s), `notify: "off"`, the `todo-loop:stop` event for another extension, the one-line
 * summary and the exit status of headless runs (`exitCode`, which pi keeps: the compat matrix runs this
 * file on every pi version), no terminal bytes outside the TUI on stdout or stderr, and a broken config
 * announced exactly once.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  baseArgs,
  checkInvariants,
  createTasks,
  extensionArgs,
  FINISH_TWO,
  loopNotifies,
  PI_CLI,
  PLAN_TWO,
  RPC_WAIT_MS,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  sessionFile,
  stopData,
  TWO_TASKS,
  withRpc,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";
import { running } from "../processes.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const STOP_LISTENER = join(dirname(fileURLToPath(import.meta.url)), "stand-ins", "stop-listener.ts");

/** Three settles in a row without a tool call: nudge, hint, then the idle stop (2 of 2 open, round 2). */
const IDLE_SCRIPT: ScriptStep[] = [PLAN_TWO, say("Stopping here."), say("Still stopping."), say("Stopping again.")];
/** Plan, finish: a clear list. */
const CLEAR_SCRIPT: ScriptStep[] = [PLAN_TWO, FINISH_TWO, say("All done.")];
const IDLE_LINE = "todo loop: stopped: the agent stopped 3 times in a row without doing anything, 2 of 2 tasks open";

/** Environment that would pick each terminal form if the loop ever wrote one outside the TUI. */
const TERMINAL_ENV = { TMUX: "/tmp/tmux-0/default,1,0", TERM_PROGRAM: "iTerm.app", TERM: "xterm-256color" };

/** A notify command that records its last argument, its argument count and its stdin (after `delay` seconds). */
function recordingHook(box: Sandbox, delay = 0): { program: string; argFile: string; stdinFile: string; countFile: string } {
  const argFile = join(box.root, "hook-arg");
  const stdinFile = join(box.root, "hook-stdin");
  const countFile = join(box.root, "hook-count");
  const program = join(box.root, "hook.sh");
  writeFileSync(
    program,
    `#!/bin/sh\nsleep ${delay}\nfor a in "$@"; do last="$a"; done\nprintf '%s' "$last" > "${argFile}"\nprintf '%s\\n' "$#" >> "${countFile}"\ncat > "${stdinFile}"\n`,
  );
  chmodSync(program, 0o755);
  return { program, argFile, stdinFile, countFile };
}

/** How often the hook ran. */
function hookRuns(countFile: string): number {
  return existsSync(countFile) ? readFileSync(countFile, "utf8").split("\n").filter(Boolean).length : 0;
}

/** No OSC, DCS or BEL byte: nothing a terminal would read as a notification. */
function assertNoTerminalBytes(text: string, where: string): void {
  assert.doesNotMatch(text, /\x1b\]|\x1bP|\x07|\u009d|\u0090/, `${where} holds a terminal sequence or BEL`);
}

/** The payloads the stop-listener extension received, in order. */
function received(box: Sandbox): Array<Record<string, unknown>> {
  const path = join(box.root, "stops.jsonl");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

function boxWith(script: ScriptStep[], config: unknown, env: Record<string, string> = {}): Sandbox {
  const box = sandbox({ script, config });
  box.env.PI_TODO_LOOP_E2E_STOPS = join(box.root, "stops.jsonl");
  Object.assign(box.env, TERMINAL_ENV, env);
  return box;
}

function printArgs(box: Sandbox, mode: "-p" | "json", extra: readonly string[] = []): string[] {
  const head = mode === "-p" ? ["-p"] : ["--mode", "json"];
  return [...extensionArgs([STOP_LISTENER]), ...baseArgs(box), ...extra, ...head, "Do the work"];
}

/** The session's id, from the header line of its file. */
function headerId(box: Sandbox): string {
  const first = readFileSync(sessionFile(box), "utf8").split("\n")[0] ?? "{}";
  return String((JSON.parse(first) as { id?: unknown }).id);
}

test("pi -p: an idle stop runs notifyCommand with the payload as its last argument and on stdin, awaited before pi exits; one stderr line; no terminal bytes on stdout or stderr", { timeout }, async (t) => {
  const box = boxWith(IDLE_SCRIPT, {});
  try {
    // The hook waits a second before it writes: only an awaited hook can have written when pi has exited
    // (pi's exit kills a hook it did not wait for).
    const hook = recordingHook(box, 1);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: [hook.program, "--from-pi"] }));
    const run = await runPi(box, printArgs(box, "-p"));
    assert.equal(run.code, 0, run.stderr);
    assert.ok(existsSync(hook.argFile), "the hook ran to its end before pi exited");
    const { report, ...payload } = JSON.parse(readFileSync(hook.argFile, "utf8")) as Record<string, unknown>;
    assert.equal((report as { continuations?: unknown } | undefined)?.continuations, 2, "the run's report rides along (SPEC §7.2)");
    assert.deepEqual(payload, {
      v: 1,
      kind: "idle",
      reason: "stopped: the agent stopped 3 times in a row without doing anything",
      detail: null,
      open: 2,
      total: 2,
      round: 2,
      needsYou: true,
      sessionId: headerId(box),
      sessionFile: sessionFile(box),
      cwd: box.cwd,
    });
    assert.equal(readFileSync(hook.stdinFile, "utf8"), `${readFileSync(hook.argFile, "utf8")}\n`, "the same payload on stdin");
    assert.equal(hookRuns(hook.countFile), 1);
    assert.equal(readFileSync(hook.countFile, "utf8").trim(), "2", "its own argument, then the payload");
    assert.deepEqual(run.stderr.split("\n").filter((line) => line.startsWith("todo loop")), [IDLE_LINE]);
    assertNoTerminalBytes(run.stdout, "stdout");
    assertNoTerminalBytes(run.stderr, "stderr");
    assert.deepEqual(received(box).map((data) => data.kind), ["idle"], "the event too");
    assert.deepEqual(stopData(sessionEntries(box)).map((data) => data.kind), ["idle"]);
    checkInvariants(box, { script: IDLE_SCRIPT, taskTexts: TWO_TASKS });
    t.diagnostic(`exit ${run.code}; hook payload ${JSON.stringify(payload)}`);
  } finally {
    box.cleanup();
  }
});

/** The list, then five replies that only re-read it: the no-progress brake stops the fifth (2 of 2 open). */
const STUCK_SCRIPT: ScriptStep[] = [
  PLAN_TWO,
  say("Planned."),
  ...["one", "two", "three", "four", "five"].flatMap((word): ScriptStep[] => [
    { text: "Looking.", calls: [{ name: "todo", args: { action: "list" } }] },
    say(`Still on it (${word}).`),
  ]),
];

test("pi -p: a stuck stop (replies that only re-read the list) reaches notifyCommand before pi exits, with a reason of fixed text and figures; exitCode 3 sets the exit status", { timeout }, async (t) => {
  const box = boxWith(STUCK_SCRIPT, {});
  try {
    const hook = recordingHook(box, 1);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: [hook.program], exitCode: 3 }));
    const run = await runPi(box, printArgs(box, "-p"));
    assert.equal(run.code, 3, run.stderr);
    assert.ok(existsSync(hook.argFile), "the hook ran to its end before pi exited");
    const payload = JSON.parse(readFileSync(hook.argFile, "utf8")) as Record<string, unknown>;
    assert.equal(payload.kind, "stuck");
    assert.equal(payload.reason, "stopped: 5 replies in a row without progress");
    assert.equal(payload.detail, null);
    assert.equal(payload.needsYou, true);
    assert.deepEqual([payload.open, payload.total], [2, 2]);
    assert.equal(hookRuns(hook.countFile), 1);
    assert.deepEqual(run.stderr.split("\n").filter((line) => line.startsWith("todo loop")), [
      "todo loop: stopped: 5 replies in a row without progress, 2 of 2 tasks open",
    ]);
    assert.deepEqual(stopData(sessionEntries(box)).map((data) => data.kind), ["stuck"]);
    checkInvariants(box, { script: STUCK_SCRIPT, taskTexts: TWO_TASKS });
    t.diagnostic(`exit ${run.code}; hook payload ${JSON.stringify(payload)}`);
  } finally {
    box.cleanup();
  }
});

test("pi -p: a clear list under the default runs no command and writes no line; the event still carries it (needsYou false); exitCode 3 leaves exit 0", { timeout }, async (t) => {
  const box = boxWith(CLEAR_SCRIPT, {});
  try {
    const hook = recordingHook(box);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: [hook.program], exitCode: 3 }));
    const run = await runPi(box, printArgs(box, "-p"));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(hookRuns(hook.countFile), 0, "no command for a clear list");
    assert.deepEqual(run.stderr.split("\n").filter((line) => line.startsWith("todo loop")), []);
    const events = received(box);
    assert.deepEqual(events.map((data) => [data.kind, data.needsYou, data.open, data.total]), [["clear", false, 0, 2]]);
    assertNoTerminalBytes(run.stdout + run.stderr, "stdout and stderr");
    t.diagnostic(`exit ${run.code}; events ${JSON.stringify(events)}`);
  } finally {
    box.cleanup();
  }
});

test("notify off silences the command (and the terminal), never the event; with --no-session the payload's sessionFile is null", { timeout }, async (t) => {
  const box = boxWith(IDLE_SCRIPT, {});
  try {
    const hook = recordingHook(box);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notify: "off", notifyCommand: [hook.program] }));
    const run = await runPi(box, printArgs(box, "-p", ["--no-session"]));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(hookRuns(hook.countFile), 0, "notify off: no command");
    const events = received(box);
    assert.equal(events.length, 1, "the event arrives whatever notify says");
    assert.equal(events[0]?.kind, "idle");
    assert.equal(events[0]?.sessionFile, null, "--no-session: no session file");
    assert.equal(typeof events[0]?.sessionId, "string");
    assertNoTerminalBytes(run.stdout + run.stderr, "stdout and stderr");
    t.diagnostic(`exit ${run.code}; event ${JSON.stringify(events[0])}`);
  } finally {
    box.cleanup();
  }
});

test("a slow notify command is cut at 10 s, its whole process group killed, and the run still ends", { timeout }, async (t) => {
  const box = boxWith(IDLE_SCRIPT, {});
  try {
    const childFile = join(box.root, "hook-child");
    const program = join(box.root, "slow.sh");
    writeFileSync(program, `#!/bin/sh\nsleep 120 &\necho $! > "${childFile}"\nsleep 120\n`);
    chmodSync(program, 0o755);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: [program], exitCode: 4 }));
    const started = Date.now();
    const run = await runPi(box, printArgs(box, "-p"), 40_000);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(run.code, 4, run.stderr);
    assert.ok(seconds >= 10 && seconds < 25, `the run ended ${seconds.toFixed(1)} s after it started`);
    const child = Number(readFileSync(childFile, "utf8"));
    assert.ok(!running(child), "what the command left running was killed with its group");
    t.diagnostic(`exit ${run.code} after ${seconds.toFixed(1)} s`);
  } finally {
    box.cleanup();
  }
});


for (const mode of ["-p", "json"] as const) {
  test(`exitCode 3 in ${mode === "-p" ? "pi -p" : "--mode json"}: exit status 3 for a run that stopped with tasks open, 0 for a clear list; the stderr line printed once`, { timeout }, async (t) => {
    const idle = boxWith(IDLE_SCRIPT, { exitCode: 3 });
    const clear = boxWith(CLEAR_SCRIPT, { exitCode: 3 });
    try {
      const [stopped, cleared] = await Promise.all([runPi(idle, printArgs(idle, mode)), runPi(clear, printArgs(clear, mode))]);
      assert.equal(stopped.code, 3, stopped.stderr);
      assert.equal(cleared.code, 0, cleared.stderr);
      assert.deepEqual(stopped.stderr.split("\n").filter((line) => line.includes("todo loop")), [IDLE_LINE]);
      assert.deepEqual(cleared.stderr.split("\n").filter((line) => line.includes("todo loop")), []);
      for (const run of [stopped, cleared]) assertNoTerminalBytes(run.stdout + run.stderr, `${mode} output`);
      if (mode === "json") assert.ok(stopped.events.some((event) => event.type === "agent_end"), "the JSON stream is intact");
      t.diagnostic(`${mode}: idle stop exit ${stopped.code}, clear list exit ${cleared.code}`);
    } finally {
      idle.cleanup();
      clear.cleanup();
    }
  });
}

test("pi -p: pi's own exit 1 (the last reply errored) wins over exitCode", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN_TWO, { text: "", stopReason: "error", errorMessage: "provider down" }];
  const box = boxWith(script, { exitCode: 3 });
  writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ retry: { enabled: false } }));
  try {
    const run = await runPi(box, printArgs(box, "-p"));
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(stopData(sessionEntries(box)).map((data) => data.kind), ["outcome"]);
    t.diagnostic(`exit ${run.code}`);
  } finally {
    box.cleanup();
  }
});

/** Runs pi in RPC mode on raw pipes: every byte of stdout and stderr, the prompts sent one after the other. */
async function rawRpc(
  box: Sandbox,
  prompts: readonly string[],
  between: (index: number) => Promise<void> = async () => {},
): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [PI_CLI, ...extensionArgs([STOP_LISTENER]), ...baseArgs(box), "--mode", "rpc"], {
    cwd: box.cwd,
    env: box.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("latin1")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("latin1")));
  const count = (pattern: RegExp): number => stdout.split("\n").filter((line) => pattern.test(line)).length;
  const until = async (what: string, done: () => boolean): Promise<void> => {
    const deadline = Date.now() + RPC_WAIT_MS;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`${what} not within ${RPC_WAIT_MS} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    let index = 0;
    for (const message of prompts) {
      index++;
      const before = count(/"type":"agent_settled"/);
      const responses = count(/"type":"response"/);
      child.stdin.write(`${JSON.stringify({ id: `p${index}`, type: "prompt", message })}\n`);
      if (message.startsWith("/")) await until(`the response to ${message}`, () => count(/"type":"response"/) > responses && /"method":"notify"/.test(stdout.slice(-4000)));
      else await until(`agent_settled after ${message}`, () => count(/"type":"agent_settled"/) > before);
      await between(index);
    }
    // Give a hook started without waiting a moment to finish.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    child.kill("SIGKILL");
  }
  return { stdout, stderr };
}

test("RPC: an idle stop (notify all) puts no OSC, DCS or BEL byte on stdout or stderr; the hook is started without waiting, and its failure shows once in /todoloop", { timeout }, async (t) => {
  const box = boxWith(IDLE_SCRIPT, {});
  try {
    const failing = join(box.root, "failing.sh");
    const done = join(box.root, "hook-done");
    writeFileSync(failing, `#!/bin/sh\ncat > /dev/null\nsleep 2\ntouch "${done}"\nexit 5\n`);
    chmodSync(failing, 0o755);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notify: "all", notifyCommand: [failing] }));
    let doneAtSettle = true;
    const { stdout, stderr } = await rawRpc(box, ["Do the work", "/todoloop"], async (index) => {
      if (index !== 1) return;
      doneAtSettle = existsSync(done);
      const deadline = Date.now() + 10_000;
      while (!existsSync(done) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    assert.equal(doneAtSettle, false, "agent_settled did not wait for the hook (pi holds the person's next message while it runs)");
    assertNoTerminalBytes(stdout, "RPC stdout");
    assertNoTerminalBytes(stderr, "RPC stderr");
    const lines = stdout.split("\n").filter((line) => line.includes("notify command failed"));
    assert.equal(lines.length, 1, stdout);
    assert.match(lines[0] ?? "", /notify command failed: \S*failing\.sh exited with status 5/);
    assert.deepEqual(received(box).map((data) => data.kind), ["idle"]);
    t.diagnostic(`stdout ${stdout.length} bytes, stderr ${stderr.length} bytes, no terminal sequence; /todoloop: ${lines.length} failure line`);
  } finally {
    box.cleanup();
  }
});

test("a test extension listening on pi.events receives every stop's payload: a question, an idle stop and a clear list", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    PLAN_TWO,
    say("Should I start with the parser or the tests?"),
    say("Stopping here."),
    say("Still stopping."),
    say("Stopping again."),
    FINISH_TWO,
    say("All done."),
  ];
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-stops-"));
  const stopsFile = join(dir, "stops.jsonl");
  try {
    await withRpc(
      t.signal,
      { script, env: { ...TERMINAL_ENV, PI_TODO_LOOP_E2E_STOPS: stopsFile } },
      async (box, rpc) => {
        await rpc.prompt("Do the work");
        await rpc.prompt("The parser first");
        await rpc.prompt("Now finish them");
        checkInvariants(box, { script, taskTexts: TWO_TASKS });
        const kinds = stopData(await rpc.getEntries()).map((data) => data.kind);
        assert.deepEqual(kinds, ["question", "idle", "clear"]);
      },
      { extensions: extensionArgs([STOP_LISTENER]) },
    );
  } finally {
    t.after(() => rmSync(dir, { recursive: true, force: true }));
  }
  const payloads = readFileSync(stopsFile, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(
    payloads.map((data) => [data.kind, data.reason, data.detail, data.open, data.total, data.needsYou]),
    [
      ["question", "waiting for you: the agent asked a question", "Should I start with the parser or the tests?", 2, 2, true],
      ["idle", "stopped: the agent stopped 3 times in a row without doing anything", null, 2, 2, true],
      ["clear", "stopped: list is clear", null, 0, 2, false],
    ],
  );
  t.diagnostic(`${payloads.length} payloads: ${payloads.map((data) => data.kind).join(", ")}`);
});

test("a broken config is announced exactly once across several turns, naming the file and the key; fixing the file silences it; a new problem is announced again", { timeout }, async (t) => {
  const script: ScriptStep[] = [say("Hello."), say("Hi again."), say("Still here."), say("Once more."), say("And again.")];
  const result = await withRpc(t.signal, { script, config: { maxCost: -1 } }, async (box, rpc) => {
    const file = join(box.agentDir, "todo-loop.json");
    await rpc.prompt("Hello");
    await rpc.prompt("Again");
    const broken = loopNotifies(rpc.notifies).filter((note) => note.message.includes("config problem"));
    writeFileSync(file, "{}");
    await rpc.prompt("Fixed now");
    const afterFix = loopNotifies(rpc.notifies).filter((note) => note.message.includes("config problem")).length;
    writeFileSync(file, JSON.stringify({ notify: "loud" }));
    await rpc.prompt("Broken again");
    await rpc.prompt("Still broken");
    const all = loopNotifies(rpc.notifies).filter((note) => note.message.includes("config problem"));
    return { file, broken, afterFix, all };
  });
  assert.equal(result.broken.length, 1, JSON.stringify(result.broken));
  assert.equal(result.broken[0]?.notifyType, "warning");
  assert.equal(result.broken[0]?.message, `todo loop: config problem in ${result.file}: maxCost is negative (-1); using no limit`);
  assert.equal(result.afterFix, 1, "a fixed file is silent");
  assert.equal(result.all.length, 2, "a different problem is announced once more");
  assert.match(result.all[1]?.message ?? "", /config problem in .*todo-loop\.json: notify must be "needs-you", "all" or "off" \(got the string "loud"\); using "needs-you"/);
  t.diagnostic(`config problem notifies: ${result.all.length} (${result.all.map((note) => note.message).join(" | ")})`);
});

test("pi -p: a broken config goes to stderr exactly once over a run of several turns, naming the file and the key", { timeout }, async (t) => {
  const box = boxWith(IDLE_SCRIPT, { maxCost: -1, exitCode: 3 });
  try {
    const run = await runPi(box, printArgs(box, "-p"));
    assert.equal(run.code, 3, run.stderr);
    const problems = run.stderr.split("\n").filter((line) => line.includes("config problem"));
    assert.deepEqual(problems, [`todo loop: config problem in ${join(box.agentDir, "todo-loop.json")}: maxCost is negative (-1); using no limit`]);
    t.diagnostic(`stderr problem lines: ${problems.length}`);
  } finally {
    box.cleanup();
  }
});

test("pi -p: a question stop reaches the hook with the agent's words only in detail, sanitised", { timeout }, async (t) => {
  const hostile = "Which \x1b]777;notify;x;y\x07 database\x9c should I use?";
  const script: ScriptStep[] = [createTasks("Pick a database"), say(hostile)];
  const box = boxWith(script, {});
  try {
    const hook = recordingHook(box);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: [hook.program] }));
    const run = await runPi(box, printArgs(box, "-p"));
    assert.equal(run.code, 0, run.stderr);
    const payload = JSON.parse(readFileSync(hook.argFile, "utf8")) as Record<string, unknown>;
    assert.equal(payload.kind, "question");
    assert.equal(payload.reason, "waiting for you: the agent asked a question");
    assert.equal(payload.detail, "Which database should I use?");
    const line = run.stderr.split("\n").filter((text) => text.startsWith("todo loop"));
    assert.deepEqual(line, ['todo loop: waiting for you: the agent asked: "Which database should I use?", 1 of 1 task open']);
    assertNoTerminalBytes(run.stderr, "stderr");
    t.diagnostic(`payload ${JSON.stringify(payload)}`);
  } finally {
    box.cleanup();
  }
});
