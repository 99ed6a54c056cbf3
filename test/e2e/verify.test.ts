// Proves on the real host that the user's verification command runs when the list clears, and its result is kept.
/**
 * Verified done on the real host (SPEC §4.16): a verification command from the user's config file runs
 * when the list clears — real shell scripts, real rpiv-todo, a scripted model.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import {
  baseArgs,
  callTools,
  checkInvariants,
  createTasks,
  extensionArgs,
  lastMessage,
  loopNotifies,
  markerDetails,
  markers,
  requests,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  textOf,
  until,
  updateTasks,
  withRpc,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";
import { running } from "../processes.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const WORK: ScriptStep = callTools({ name: "bash", args: { command: "echo fixing" } });

/** Writes an executable script into the sandbox root and returns its path. */
function script(box: Sandbox, name: string, body: string): string {
  const path = join(box.root, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}


async function printRun(config: (box: Sandbox) => unknown, steps: ScriptStep[], setup?: (box: Sandbox) => void) {
  const box = sandbox({ script: steps });
  setup?.(box);
  writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify(config(box)));
  const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], 45_000);
  return { box, run };
}

test("a check that fails once, then passes: exactly one verification continuation carrying its output, then a verified clear", { timeout }, async () => {
  const steps: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done."), WORK, say("Fixed it.")];
  const { box, run } = await printRun(
    (b) => ({ verify: script(b, "check.sh", `if [ -f "${b.root}/ran-once" ]; then echo "41 passing"; exit 0; fi\ntouch "${b.root}/ran-once"\necho "1 failing: parser rejects empty input"\nexit 1`) }),
    steps,
  );
  try {
    assert.equal(run.code, 0, run.stderr);
    const entries = sessionEntries(box);
    const found = markers(entries);
    assert.equal(found.length, 1, "one verification continuation");
    const details = markerDetails(entries)[0] as unknown as { round: number; verify: { exit: number; run: number; command: string } };
    assert.equal(details.round, 1);
    assert.equal(details.verify.exit, 1);
    assert.equal(details.verify.run, 1);
    const content = textOf(found[0]?.content);
    assert.match(content, /^The todo list is clear, but the verification command failed\./);
    assert.match(content, /```text\n1 failing: parser rejects empty input\n```/);
    assert.match(content, /The user's latest instruction outranks this reminder\.$/);
    assert.equal(textOf(lastMessage(requests(box)[3]).content), content, "the model saw the output in the continuation request");
    const records = stopData(entries);
    assert.equal(records.length, 1);
    assert.equal(records[0]?.kind, "clear");
    assert.match(records[0]?.reason ?? "", /^stopped: list is clear · .*check\.sh passed \(\d+ s\)$/);
    assert.deepEqual((records[0] as unknown as { verify: { exit: number } }).verify.exit, 0);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  } finally {
    box.cleanup();
  }
});

test("a check that never passes: three runs, two verification continuations, then verify-failed — it needs you", { timeout }, async () => {
  const steps: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done."), WORK, say("Fixed."), WORK, say("Fixed again.")];
  const { box, run } = await printRun((b) => ({ verify: script(b, "check.sh", `echo run >> "${b.root}/runs"; echo "still red"; exit 1`) }), steps);
  try {
    assert.equal(run.code, 0, run.stderr);
    const entries = sessionEntries(box);
    const details = markerDetails(entries) as unknown as Array<{ round: number; verify: { run: number; exit: number } }>;
    assert.deepEqual(details.map((marker) => [marker.round, marker.verify.run]), [[1, 1], [2, 2]]);
    assert.equal(readFileSync(join(box.root, "runs"), "utf8"), "run\nrun\nrun\n", "three runs");
    const records = stopData(entries);
    assert.equal(records.length, 1);
    assert.equal(records[0]?.kind, "verify-failed");
    assert.match(records[0]?.reason ?? "", /^stopped: .*check\.sh still fails after 3 runs \(exit 1\), the list is clear; it needs you$/);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  } finally {
    box.cleanup();
  }
});

test("a check that hangs past a fractional timeoutMinutes: verify-error, no continuation, its process group gone", { timeout }, async () => {
  const steps: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done.")];
  const { box, run } = await printRun(
    (b) => ({ verify: { command: script(b, "hang.sh", `sleep 60 &\necho $! > "${b.root}/child.pid"\necho $$ > "${b.root}/shell.pid"\nwait`), timeoutMinutes: 0.02 } }),
    steps,
  );
  try {
    assert.equal(run.code, 0, run.stderr);
    const entries = sessionEntries(box);
    assert.equal(markers(entries).length, 0, "never a continuation");
    const records = stopData(entries);
    assert.equal(records[0]?.kind, "verify-error");
    assert.equal(records[0]?.reason, "stopped: the verification command did not finish (timed out after 0.02 minutes)");
    for (const name of ["child.pid", "shell.pid"]) {
      const pid = Number(readFileSync(join(box.root, name), "utf8"));
      assert.equal(running(pid), false, `${name} ${pid} is gone`);
    }
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  } finally {
    box.cleanup();
  }
});

test("a list emptied by clear is verified too: the stop keeps kind no-list and records the pass", { timeout }, async () => {
  const steps: ScriptStep[] = [createTasks("Alpha task"), callTools({ name: "todo", args: { action: "clear" } }), say("Cleared.")];
  const { box, run } = await printRun((b) => ({ verify: script(b, "check.sh", `touch "${b.root}/verified"; echo ok`) }), steps);
  try {
    assert.equal(run.code, 0, run.stderr);
    assert.ok(existsSync(join(box.root, "verified")), "the command ran");
    const records = stopData(sessionEntries(box));
    assert.equal(records.length, 1);
    assert.equal(records[0]?.kind, "no-list");
    assert.match(records[0]?.reason ?? "", /^stopped: no list \(the list was emptied: its tasks were deleted or cleared\) · .*check\.sh passed \(\d+ s\)$/);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  } finally {
    box.cleanup();
  }
});

test("plain chat runs nothing: after a verified list, a chat message under a clear list runs no verification and records no stop", { timeout }, async (t) => {
  const steps: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done."), say("Hello! How can I help?")];
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    const runs = join(box.root, "runs");
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: script(box, "check.sh", `echo run >> "${runs}"`) }));
    await rpc.prompt("Do the work");
    assert.equal(readFileSync(runs, "utf8"), "run\n", "the finished list was verified once");
    await rpc.prompt("Thanks, what next?");
    assert.equal(readFileSync(runs, "utf8"), "run\n", "the chat message ran nothing");
    const records = stopData(sessionEntries(box));
    assert.equal(records.length, 1, "the chat recorded no stop");
    assert.equal(records[0]?.kind, "clear");
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  });
});

test("Escape during the command (RPC abort): the group is killed within a second, no continuation, the stop says you stopped it", { timeout }, async (t) => {
  const steps: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done.")];
  const holder: { pidFile: string } = { pidFile: "" };
  await withRpc(t.signal, { script: steps, config: {} }, async (box, rpc) => {
    holder.pidFile = join(box.root, "check.pid");
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: script(box, "slow.sh", `echo $$ > "${holder.pidFile}"\nsleep 60`) }));
    await rpc.send("Do the work");
    await until("the command started", () => existsSync(holder.pidFile) && readFileSync(holder.pidFile, "utf8").trim() !== "");
    const pid = Number(readFileSync(holder.pidFile, "utf8"));
    assert.equal(running(pid), true);
    const started = Date.now();
    await rpc.client.abort();
    await until("the command was killed", () => !running(pid), 1000);
    const killedIn = Date.now() - started;
    assert.ok(killedIn < 1000, `killed in ${killedIn} ms`);
    t.diagnostic(`the command's shell was gone ${killedIn} ms after the abort`);
    await rpc.waitSettled();
    const entries = sessionEntries(box);
    assert.equal(markers(entries).length, 0, "no continuation after an abort");
    const records = stopData(entries);
    assert.equal(records[0]?.kind, "verify-error");
    assert.equal(records[0]?.reason, "stopped: the verification command did not finish (you stopped it (Escape))");
    assert.ok(rpc.statuses.some((status) => status.key === "todo-loop" && /^todo loop: verifying · /.test(status.text ?? "")), "the footer said it was verifying");
    assert.ok(loopNotifies(rpc.notifies).length >= 1);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  });
});

test("dir entries: the longest prefix holding the working directory wins over a shorter one and over \"*\"; others never run", { timeout }, async () => {
  const steps: ScriptStep[] = [createTasks("Alpha task"), updateTasks([1]), say("All done.")];
  const { box, run } = await printRun(
    (b) => ({
      verify: [
        { dir: "*", command: `touch "${b.root}/star"` },
        { dir: b.root, command: `touch "${b.root}/root"` },
        { dir: b.cwd, command: `touch "${b.root}/cwd"` },
        { dir: `${b.cwd}-other`, command: `touch "${b.root}/sibling"` },
      ],
    }),
    steps,
  );
  try {
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(["star", "root", "cwd", "sibling"].filter((name) => existsSync(join(box.root, name))), ["cwd"]);
    assert.equal(stopData(sessionEntries(box))[0]?.kind, "clear");
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  } finally {
    box.cleanup();
  }
});
