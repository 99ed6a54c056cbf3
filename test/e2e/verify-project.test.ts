// Proves on the real host that a project's proposed verify command runs only after the person approves it.
/**
 * A project's proposed verification command on the real host (SPEC §8 "Where verify comes from"):
 * `.pi/todo-loop.json` may propose `verify`, which runs only after `/todoloop verify approve` — a confirm
 * dialog answered here on the RPC child's stdin — for that exact command in that real directory.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  baseArgs,
  checkInvariants,
  createTasks,
  extensionArgs,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  startRpc,
  stopData,
  until,
  updateTasks,
  withRpc,
} from "./harness.ts";
import type { RpcSession, Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

/** One message's work: a task made and completed, then a reply that ends the run. */
function work(subject: string, id: number): ScriptStep[] {
  return [createTasks(subject), updateTasks([id]), say("All done.")];
}

function propose(box: Sandbox, command: string, projectDir = box.cwd): void {
  mkdirSync(join(projectDir, ".pi"), { recursive: true });
  writeFileSync(join(projectDir, ".pi", "todo-loop.json"), JSON.stringify({ verify: command }));
}

function ranCount(box: Sandbox): number {
  const file = join(box.root, "ran");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
}

function ranCommand(box: Sandbox): string {
  return `echo ran >> "${join(box.root, "ran")}"`;
}

const UNAPPROVED = "stopped: list is clear · not verified: the project's command needs /todoloop verify approve";

/**
 * Runs `/todoloop verify approve`, answers its dialog on the child's stdin (a select whose first, default
 * option is the safe "No"; `confirmed` picks the "Yes" option), and returns the dialog's text.
 */
async function approveOverRpc(rpc: RpcSession, confirmed = true): Promise<string> {
  const before = rpc.events.length;
  const done = rpc.command("verify approve");
  await until("the approve dialog", () => rpc.events.slice(before).some((event) => event.type === "extension_ui_request" && event.method === "select"));
  const request = rpc.events.slice(before).find((event) => event.type === "extension_ui_request" && event.method === "select");
  const options = Array.isArray(request?.options) ? request.options.map(String) : [];
  assert.match(options[0] ?? "", /^No\b/, "the safe answer is first, so it is the default");
  const child: unknown = Reflect.get(rpc.client, "process");
  assert.ok(child instanceof ChildProcess && child.stdin);
  child.stdin.write(`${JSON.stringify({ type: "extension_ui_response", id: request?.id, value: confirmed ? options[1] : options[0] })}\n`);
  await done;
  return `${String(request?.title ?? "")}\n${options.join("\n")}`;
}

async function status(rpc: RpcSession): Promise<string> {
  const notes = await rpc.command("status");
  return notes.map((note) => note.message).join("\n");
}

test("pi -p: an unapproved project command never runs (the file it would create never appears) and the stop says why", { timeout }, async () => {
  const steps = work("Alpha task", 1);
  const box = sandbox({ script: steps });
  try {
    propose(box, ranCommand(box));
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], 45_000);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(join(box.root, "ran")), false, "the project's command never ran");
    const records = stopData(sessionEntries(box));
    assert.equal(records.length, 1);
    assert.equal(records[0]?.kind, "verify-error");
    assert.equal(records[0]?.reason, UNAPPROVED);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  } finally {
    box.cleanup();
  }
});

test("approved over RPC it runs at the next clear; an edited command does not run and /todoloop says it changed; verify forget stops it again", { timeout }, async (t) => {
  const steps = [...work("Alpha task", 1), ...work("Beta task", 2), ...work("Gamma task", 3)];
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    propose(box, ranCommand(box));
    assert.match(await status(rpc), /needs \/todoloop verify approve/);
    const dialog = await approveOverRpc(rpc);
    assert.ok(dialog.includes(JSON.stringify(realpathSync(box.cwd))), "the dialog shows the directory");
    assert.ok(dialog.includes(JSON.stringify(ranCommand(box))), "the dialog shows the command JSON-escaped");
    const approvals = join(box.agentDir, "todo-loop-approved.json");
    assert.equal(statSync(approvals).mode & 0o777, 0o600);
    const stored = JSON.parse(readFileSync(approvals, "utf8")) as { v: number; approved: Array<{ dir: string; command: string; at: string }> };
    assert.equal(stored.v, 1);
    assert.deepEqual(stored.approved.map(({ dir, command }) => ({ dir, command })), [{ dir: realpathSync(box.cwd), command: ranCommand(box) }]);
    assert.ok(!Number.isNaN(Date.parse(stored.approved[0]?.at ?? "")));

    await rpc.prompt("Do the work");
    assert.equal(ranCount(box), 1, "the approved command ran at the clear");
    assert.equal(stopData(sessionEntries(box))[0]?.kind, "clear");

    propose(box, `${ranCommand(box)}; echo changed`);
    await rpc.prompt("Now the next part");
    assert.equal(ranCount(box), 1, "the changed command did not run");
    assert.match(stopData(sessionEntries(box))[1]?.reason ?? "", /not verified: the project's command changed since you approved it/);
    assert.match(await status(rpc), /the project's command changed since you approved it/);

    const notes = await rpc.command("verify forget");
    assert.match(notes[0]?.message ?? "", /^todo loop: forgot the approved verification command for /);
    propose(box, ranCommand(box));
    await rpc.prompt("And the last part");
    assert.equal(ranCount(box), 1, "forgotten: not run again");
    assert.equal(stopData(sessionEntries(box))[2]?.reason, UNAPPROVED);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task", "Beta task", "Gamma task"] });
  });
});

test("a corrupt approvals file: nothing runs, and /todoloop shows exactly one problem line for it", { timeout }, async (t) => {
  const steps = work("Alpha task", 1);
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    propose(box, ranCommand(box));
    writeFileSync(join(box.agentDir, "todo-loop-approved.json"), `{"v":1,"approved":[{"dir":${JSON.stringify(realpathSync(box.cwd))},"command":${JSON.stringify(ranCommand(box))}}`);
    await rpc.prompt("Do the work");
    assert.equal(ranCount(box), 0);
    assert.equal(stopData(sessionEntries(box))[0]?.reason, UNAPPROVED);
    const lines = (await status(rpc)).split("\n").filter((line) => /approvals file/.test(line));
    assert.equal(lines.length, 1, lines.join("\n"));
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  });
});

test("a project command hiding a right-to-left override is refused: approve refuses it, and even a pre-written approval does not run it", { timeout }, async (t) => {
  const steps = work("Alpha task", 1);
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    const command = `${ranCommand(box)} #\u202e tset mpn`;
    propose(box, command);
    const notes = await rpc.command("verify approve");
    assert.equal(notes[0]?.notifyType, "error");
    assert.match(notes[0]?.message ?? "", /refused: the project's command .* holds control, format or bidi characters/);
    assert.ok(!rpc.events.some((event) => event.type === "extension_ui_request" && (event.method === "confirm" || event.method === "select")), "no dialog for a refused command");
    writeFileSync(join(box.agentDir, "todo-loop-approved.json"), JSON.stringify({ v: 1, approved: [{ dir: realpathSync(box.cwd), command, at: new Date().toISOString() }] }));
    await rpc.prompt("Do the work");
    assert.equal(ranCount(box), 0, "never run");
    assert.match(stopData(sessionEntries(box))[0]?.reason ?? "", /not verified: the project's command holds control or invisible characters, so it is refused$/);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  });
});

for (const how of ["a symlinked .pi folder, entered through a symlinked path", "a '..' in the path"] as const) {
  test(`${how}: the approval names the real directory, and the command runs there`, { timeout }, async (t) => {
    const steps = work("Alpha task", 1);
    const box = sandbox({ script: steps });
    try {
      const real = realpathSync(box.cwd);
      if (how.startsWith("a symlinked")) {
        const shared = join(box.root, "shared-pi");
        mkdirSync(shared);
        writeFileSync(join(shared, "todo-loop.json"), JSON.stringify({ verify: ranCommand(box) }));
        rmSync(join(box.cwd, ".pi"), { recursive: true, force: true });
        symlinkSync(shared, join(box.cwd, ".pi"));
        symlinkSync(box.cwd, join(box.root, "alias"));
        box.cwd = join(box.root, "alias");
      } else {
        propose(box, ranCommand(box));
        mkdirSync(join(box.cwd, "sub"));
        box.cwd = `${box.cwd}/sub/..`;
      }
      const rpc = await startRpc(box, { signal: t.signal });
      try {
        await approveOverRpc(rpc);
        const stored = JSON.parse(readFileSync(join(box.agentDir, "todo-loop-approved.json"), "utf8")) as { approved: Array<{ dir: string }> };
        assert.deepEqual(stored.approved.map((entry) => entry.dir), [real]);
        await rpc.prompt("Do the work");
        assert.equal(ranCount(box), 1);
        assert.equal(stopData(sessionEntries(box))[0]?.kind, "clear");
      } finally {
        await rpc.stop();
      }
    } finally {
      box.cleanup();
    }
  });
}

test("pi -p in a project pi does not trust (its .pi holds settings.json): even an approved project command is refused", { timeout }, async () => {
  const steps = work("Alpha task", 1);
  const box = sandbox({ script: steps });
  try {
    propose(box, ranCommand(box));
    writeFileSync(join(box.cwd, ".pi", "settings.json"), "{}");
    writeFileSync(join(box.agentDir, "todo-loop-approved.json"), JSON.stringify({ v: 1, approved: [{ dir: realpathSync(box.cwd), command: ranCommand(box), at: new Date().toISOString() }] }));
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], 45_000);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(join(box.root, "ran")), false, "never run");
    assert.equal(stopData(sessionEntries(box))[0]?.reason, "stopped: list is clear · not verified: pi does not trust this project, so its command is refused");
  } finally {
    box.cleanup();
  }
});
