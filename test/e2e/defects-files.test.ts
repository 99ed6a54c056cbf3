// Proves on the real host that project and user files which are FIFOs or links to /dev/stdin or /dev/zero never block pi: it starts, answers and the loop works.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import {
  baseArgs,
  checkInvariants,
  extensionArgs,
  loopNotifies,
  markers,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  startRpc,
  stopData,
} from "./harness.ts";
import type { RpcOptions, RpcSession, Sandbox, SandboxOptions, ScriptStep } from "./harness.ts";
import { TINTINWEB_TASKS } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const TASKS = ["Write the parser", "Write the tests"];
const PLAN: ScriptStep = { text: "Planning.", calls: [{ name: "TaskCreateMany", args: { tasks: TASKS.map((subject) => ({ subject, description: subject })) } }] };
/** Like `withRpc`, with `setup` run on the sandbox before pi starts. */
async function withFiles(signal: AbortSignal, options: SandboxOptions, setup: (box: Sandbox) => void, body: (box: Sandbox, rpc: RpcSession) => Promise<void>, rpcOptions: Omit<RpcOptions, "signal"> = {}): Promise<void> {
  const box = sandbox(options);
  try {
    setup(box);
    const rpc = await startRpc(box, { ...rpcOptions, signal });
    try {
      await body(box, rpc);
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
}

const FINISH: ScriptStep = { text: "Finishing.", calls: ["1", "2"].map((taskId) => ({ name: "TaskUpdate", args: { taskId, status: "completed" } })) };

test("RPC: .pi/todo-loop.json a FIFO and .pi/tasks-config.json a link to /dev/stdin (pi's RPC pipe), with pi-tasks active: pi starts, the loop continues once and stops on a clear list", { timeout }, async (t) => {
  const script: ScriptStep[] = [PLAN, say("Plan made; stopping here."), FINISH, say("All done.")];
  await withFiles(t.signal, { script }, (box) => {
    mkdirSync(join(box.cwd, ".pi"), { recursive: true });
    execFileSync("mkfifo", [join(box.cwd, ".pi", "todo-loop.json")]);
    symlinkSync("/dev/stdin", join(box.cwd, ".pi", "tasks-config.json"));
  }, async (box, rpc) => {
    assert.equal(await rpc.prompt("Do the work"), "started");
    const entries = await rpc.getEntries();
    assert.equal(markers(entries).length, 1, "one continuation");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    const status = (await rpc.command("status")).map((notify) => notify.message).join("\n");
    assert.match(status, /config problem: .*\.pi\/todo-loop\.json: is a FIFO, not a regular file; not read; no project command/);
    // Announced once, as a warning, not only inside /todoloop (SPEC §8, 0.4).
    const announced = loopNotifies(rpc.notifies).filter((notify) => notify.notifyType === "warning" && notify.message.includes("is a FIFO"));
    assert.equal(announced.length, 1, JSON.stringify(rpc.notifies));
    checkInvariants(box, { script, taskTexts: TASKS });
  }, { extensions: extensionArgs([], { todo: TINTINWEB_TASKS }) });
});

test("print mode: the user's config a link to /dev/zero and the project file a FIFO: pi answers, the problems go to stderr once, the loop runs on defaults", { timeout }, async () => {
  const script: ScriptStep[] = [
    { text: "Planning.", calls: TASKS.map((subject) => ({ name: "todo", args: { action: "create", subject } })) },
    say("Stopping here."),
    { text: "Working.", calls: [1, 2].map((id) => ({ name: "todo", args: { action: "update", id, status: "completed" } })) },
    say("All done."),
  ];
  const box = sandbox({ script });
  try {
    symlinkSync("/dev/zero", join(box.agentDir, "todo-loop.json"));
    mkdirSync(join(box.cwd, ".pi"), { recursive: true });
    execFileSync("mkfifo", [join(box.cwd, ".pi", "todo-loop.json")]);
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], 45_000);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /All done\./);
    const entries = sessionEntries(box);
    assert.equal(markers(entries).length, 1);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
    const lines = run.stderr.split("\n").filter((line) => line.startsWith("todo loop: config problem"));
    assert.equal(lines.filter((line) => line.includes("is a device, not a regular file")).length, 1, run.stderr);
    assert.deepEqual(lines.filter((line) => line.includes("is a FIFO")), [`todo loop: config problem in ${join(box.cwd, ".pi", "todo-loop.json")}: is a FIFO, not a regular file; not read; no project command`]);
    checkInvariants(box, { script, taskTexts: TASKS });
  } finally {
    box.cleanup();
  }
});
