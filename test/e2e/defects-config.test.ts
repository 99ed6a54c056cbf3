// Proves on the real host the config and command fixes: approve and forget refuse to write over an unreadable approvals file, a project file's ignored keys are announced once, a relative notifyCommand never runs, and /todoloop verify by hand obeys timeoutMinutes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  baseArgs,
  extensionArgs,
  loopNotifies,
  PLAN_TWO,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  until,
  withRpc,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";
import { running } from "../processes.ts";

const timeout = SCENARIO_TIMEOUT_MS;

function propose(box: Sandbox, body: unknown): void {
  mkdirSync(join(box.cwd, ".pi"), { recursive: true });
  writeFileSync(join(box.cwd, ".pi", "todo-loop.json"), JSON.stringify(body));
}

test("RPC: an approvals file that cannot be parsed is never written over — verify approve and verify forget refuse, say where it is and what is wrong, show no dialog, and leave its bytes", { timeout }, async (t) => {
  await withRpc(t.signal, { script: [] }, async (box, rpc) => {
    propose(box, { verify: "npm test" });
    const path = join(box.agentDir, "todo-loop-approved.json");
    const corrupt = '{ "v": 1, "approved": [{ "dir": "/home/me/other", "command": "make check", "at": "2026-01-01T00:00:00.000Z" }';
    writeFileSync(path, corrupt);
    const approved = await rpc.command("verify approve");
    t.diagnostic(JSON.stringify(approved));
    assert.deepEqual(approved.map((notice) => notice.notifyType), ["error"]);
    assert.equal(approved[0]?.message, `todo loop: not approved: ${path}: the approvals file is not valid JSON. It holds the approvals of every project, so it is not written over: fix or move it, then try again`);
    assert.ok(!rpc.events.some((event) => event.type === "extension_ui_request" && (event.method === "select" || event.method === "confirm")), "no dialog");
    const forgotten = await rpc.command("verify forget");
    assert.deepEqual(forgotten.map((notice) => notice.notifyType), ["error"]);
    assert.match(forgotten[0]?.message ?? "", /^todo loop: nothing forgotten: .*todo-loop-approved\.json: the approvals file is not valid JSON\./);
    assert.equal(readFileSync(path, "utf8"), corrupt, "every other project's approval is still there");
  });
});

test("RPC: a project file's ignored keys are announced once as a warning at session start — not again at the next settle, nor by /todoloop", { timeout }, async (t) => {
  const script: ScriptStep[] = [say("Hello."), say("Hello again.")];
  const box = sandbox({ script });
  try {
    propose(box, { verify: "npm test", maxRounds: 50, notifyCommand: ["curl", "evil"] });
    const { startRpc } = await import("./harness.ts");
    const rpc = await startRpc(box, { signal: t.signal });
    try {
      await rpc.prompt("hi");
      await rpc.prompt("hi again");
      await rpc.command("status");
      const warnings = loopNotifies(rpc.notifies).filter((notice) => notice.notifyType === "warning");
      t.diagnostic(JSON.stringify(warnings));
      assert.equal(warnings.length, 1);
      const file = join(box.cwd, ".pi", "todo-loop.json");
      assert.equal(warnings[0]?.message, [
        `todo loop: config problem in ${file}: only verify is read from a project file; "maxRounds" ignored`,
        `todo loop: config problem in ${file}: only verify is read from a project file; "notifyCommand" ignored`,
      ].join("\n"));
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
});

test("print mode: a relative notifyCommand (./notify.sh, present in the project) never runs; the problem is one stderr line", { timeout }, async () => {
  const script: ScriptStep[] = [PLAN_TWO, say("Stopping here."), say("Still stopping."), say("Stopping again.")];
  const box = sandbox({ script });
  try {
    const ran = join(box.root, "ran");
    writeFileSync(join(box.cwd, "notify.sh"), `#!/bin/sh\ntouch "${ran}"\n`);
    chmodSync(join(box.cwd, "notify.sh"), 0o755);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: ["./notify.sh"] }));
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], 45_000);
    assert.deepEqual(stopData(sessionEntries(box)).map((stop) => stop.kind), ["idle"]);
    assert.equal(existsSync(ran), false, "the project's script never ran");
    const problems = run.stderr.split("\n").filter((line) => line.startsWith("todo loop: config problem"));
    assert.deepEqual(problems, [`todo loop: config problem in ${join(box.agentDir, "todo-loop.json")}: notifyCommand's program "./notify.sh" is a relative path, which would resolve against the project directory a repository controls; write an absolute path, ~/…, or a bare name on PATH; no command is run`]);
  } finally {
    box.cleanup();
  }
});

test("RPC: /todoloop verify by hand obeys timeoutMinutes — a command that hangs (its child ignoring SIGTERM) is ended at its limit, and its processes are gone", { timeout }, async (t) => {
  await withRpc(t.signal, { script: [] }, async (box, rpc) => {
    const pids = join(box.root, "pids");
    const check = join(box.root, "hang.sh");
    writeFileSync(check, `#!/bin/sh\n(trap '' TERM; exec sleep 120) &\necho $$ $! > "${pids}"\nwait\n`);
    chmodSync(check, 0o755);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: { command: check, timeoutMinutes: 0.05 } }));
    const result = await rpc.command("verify");
    // From the moment the command ran (its pid file), not from when pi took the prompt.
    const took = Date.now() - statSync(pids).mtimeMs;
    t.diagnostic(`${Math.round(took)} ms: ${JSON.stringify(result)}`);
    assert.deepEqual(result.map((notice) => notice.message), [`todo loop: ${check} did not finish (timed out after 0.05 min)`]);
    assert.ok(took >= 2500 && took < 5000, `${took} ms for a 3 s limit`);
    const [shell = 0, child = 0] = readFileSync(pids, "utf8").trim().split(/\s+/).map(Number);
    await until("the command's processes are gone", () => !running(shell) && !running(child), 3000);
  });
});
