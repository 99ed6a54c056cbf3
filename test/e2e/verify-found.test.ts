// Proves on the real host that the project's own check is found and named, never runs before approval, runs once approved and not after an edit.
/**
 * The project's own check, found and offered (SPEC §4.16 0.5, §8): pi in RPC and print mode never asks;
 * `/todoloop` and `/todoloop verify` name what was found and from which file; `/todoloop verify approve`
 * (a select answered on the RPC child's stdin) pins the command and the text it runs, so the check runs
 * at the next clear list, and an edited script does not run and is reported. What ran is told by a
 * marker file outside the working tree.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
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
  stopData,
  until,
  updateTasks,
  withRpc,
} from "./harness.ts";
import type { RpcSession, Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

function work(subject: string, id: number): ScriptStep[] {
  return [createTasks(subject), updateTasks([id]), say("All done.")];
}

function marker(box: Sandbox): string {
  return join(box.root, "ran");
}

/** How many times a check ran: one line in the marker file outside the working tree per run. */
function ranCount(box: Sandbox): number {
  return existsSync(marker(box)) ? readFileSync(marker(box), "utf8").split("\n").filter(Boolean).length : 0;
}

function packageJson(box: Sandbox, test: string): void {
  writeFileSync(join(box.cwd, "package.json"), JSON.stringify({ name: "app", private: true, scripts: { test } }));
}

function clearFiles(box: Sandbox): void {
  for (const name of ["package.json", "Makefile", "Cargo.toml", "go.mod", "pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg", "deno.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock"]) {
    rmSync(join(box.cwd, name), { force: true, recursive: true });
  }
}

async function status(rpc: RpcSession): Promise<string> {
  return (await rpc.command("status")).map((note) => note.message).join("\n");
}

function dialogs(rpc: RpcSession, from = 0): Array<Record<string, unknown>> {
  return rpc.events.slice(from).filter((event) => event.type === "extension_ui_request" && (event.method === "select" || event.method === "confirm"));
}

/** Runs `/todoloop verify approve` and picks `option` (1: Yes) in its select on the child's stdin; returns the dialog's title and options. */
async function approveOverRpc(rpc: RpcSession, option = 1): Promise<string> {
  const before = rpc.events.length;
  const done = rpc.command("verify approve");
  await until("the approve dialog", () => dialogs(rpc, before).length > 0);
  const request = dialogs(rpc, before)[0];
  const options = Array.isArray(request?.options) ? request.options.map(String) : [];
  assert.match(options[0] ?? "", /^No\b/, "the safe answer is first");
  const child: unknown = Reflect.get(rpc.client, "process");
  assert.ok(child instanceof ChildProcess && child.stdin);
  child.stdin.write(`${JSON.stringify({ type: "extension_ui_response", id: request?.id, value: options[option] })}\n`);
  await done;
  return `${String(request?.title ?? "")}\n${options.join("\n")}`;
}

const KINDS: ReadonlyArray<{ name: string; files: Record<string, string>; line: string }> = [
  { name: "npm", files: { "package.json": JSON.stringify({ scripts: { test: "node --test" } }) }, line: "a check was found: npm test (from package.json)" },
  { name: "pnpm", files: { "package.json": JSON.stringify({ scripts: { test: "vitest" } }), "pnpm-lock.yaml": "lockfileVersion: 9\n" }, line: "a check was found: pnpm test (from package.json)" },
  { name: "yarn", files: { "package.json": JSON.stringify({ scripts: { test: "jest" } }), "yarn.lock": "# yarn\n" }, line: "a check was found: yarn test (from package.json)" },
  { name: "bun", files: { "package.json": JSON.stringify({ scripts: { test: "bun test" } }), "bun.lock": "{}\n" }, line: "a check was found: bun run test (from package.json)" },
  { name: "make", files: { Makefile: "build:\n\tcc x.c\ntest: build\n\t./run-tests\n" }, line: "a check was found: make test (from Makefile)" },
  { name: "cargo", files: { "Cargo.toml": "[package]\nname = \"app\"\n" }, line: "a check was found: cargo test (from Cargo.toml)" },
  { name: "go", files: { "go.mod": "module example.com/app\n" }, line: "a check was found: go test ./... (from go.mod)" },
  { name: "pyproject", files: { "pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-q\"\n" }, line: "a check was found: python -m pytest (from pyproject.toml)" },
  { name: "pytest.ini", files: { "pytest.ini": "[pytest]\n" }, line: "a check was found: python -m pytest (from pytest.ini)" },
  { name: "tox.ini", files: { "tox.ini": "[pytest]\n" }, line: "a check was found: python -m pytest (from tox.ini)" },
  { name: "setup.cfg", files: { "setup.cfg": "[tool:pytest]\n" }, line: "a check was found: python -m pytest (from setup.cfg)" },
  { name: "deno", files: { "deno.json": JSON.stringify({ tasks: { test: "deno test -A" } }) }, line: "a check was found: deno task test (from deno.json)" },
];

test("RPC: each kind of project is found and named by /todoloop and /todoloop verify; the placeholder, a directory named go.mod and verify: false find nothing; nothing runs and nothing asks", { timeout: 120_000 }, async (t) => {
  const steps = work("Alpha task", 1);
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    for (const kind of KINDS) {
      clearFiles(box);
      for (const [name, text] of Object.entries(kind.files)) writeFileSync(join(box.cwd, name), text);
      assert.ok((await status(rpc)).includes(`verify: ${kind.line} — /todoloop verify approve to use it`), kind.name);
      const verify = await rpc.command("verify");
      assert.equal(verify[0]?.message, `todo loop: not verified: ${kind.line} — /todoloop verify approve to use it`, kind.name);
    }
    clearFiles(box);
    packageJson(box, 'echo "Error: no test specified" && exit 1');
    mkdirSync(join(box.cwd, "go.mod"));
    assert.doesNotMatch(await status(rpc), /^verify:/m, "the placeholder and a directory named go.mod find nothing");
    const nothing = await rpc.command("verify");
    assert.equal(nothing[0]?.message, `todo loop: no verification command for this directory and no check found in its files (set verify in ${join(box.agentDir, "todo-loop.json")}); passed over: go.mod is a directory, not a regular file; not read`);

    clearFiles(box);
    packageJson(box, `echo ran >> "${marker(box)}"`);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ verify: false }));
    const off = await status(rpc);
    assert.match(off, /^verify: off \("verify": false in /m);
    assert.doesNotMatch(off, /a check was found/);
    writeFileSync(join(box.agentDir, "todo-loop.json"), "{}");

    const before = rpc.events.length;
    await rpc.prompt("Do the work");
    assert.equal(dialogs(rpc, before).length, 0, "RPC never asks at a settle");
    assert.equal(ranCount(box), 0, "nothing runs before approval");
    assert.deepEqual(stopData(sessionEntries(box)).map((data) => [data.kind, data.reason]), [["clear", "stopped: list is clear"]]);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  });
});

test("pi -p: a found check never runs before approval, and the clear list is an ordinary clear", { timeout }, async () => {
  const steps = work("Alpha task", 1);
  const box = sandbox({ script: steps });
  try {
    packageJson(box, `echo ran >> "${marker(box)}"`);
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], 45_000);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(ranCount(box), 0);
    assert.deepEqual(stopData(sessionEntries(box)).map((data) => [data.kind, data.reason]), [["clear", "stopped: list is clear"]]);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task"] });
  } finally {
    box.cleanup();
  }
});

test("pi -p with verify: false: an approved found check does not run, and a project file's verify is ignored, said once on stderr", { timeout }, async () => {
  const steps = work("Alpha task", 1);
  const box = sandbox({ script: steps, config: { verify: false } });
  try {
    writeFileSync(join(box.cwd, "Makefile"), `test:\n\techo ran >> "${marker(box)}"\n`);
    writeFileSync(join(box.agentDir, "todo-loop-approved.json"), JSON.stringify({ v: 1, approved: [{ dir: realpathSync(box.cwd), command: "make test", at: "t", pinned: { file: "Makefile", text: `test:\n\techo ran >> "${marker(box)}"` } }] }));
    mkdirSync(join(box.cwd, ".pi"));
    writeFileSync(join(box.cwd, ".pi", "todo-loop.json"), JSON.stringify({ verify: `echo ran >> "${marker(box)}"` }));
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"], 45_000);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(ranCount(box), 0);
    assert.equal(stopData(sessionEntries(box))[0]?.reason, "stopped: list is clear");
    assert.equal(run.stderr.split("\n").filter((line) => line.includes('its verify is ignored: "verify": false in your config')).length, 1, run.stderr);
  } finally {
    box.cleanup();
  }
});

test("RPC: after /todoloop verify approve npm test runs at the next clear list; an edited script is not run and /todoloop says why; verify forget removes the approval", { timeout: 90_000 }, async (t) => {
  const steps = [...work("Alpha task", 1), ...work("Beta task", 2), ...work("Gamma task", 3)];
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    const script = `echo ran >> "${marker(box)}"`;
    packageJson(box, script);
    const dialog = await approveOverRpc(rpc);
    assert.ok(dialog.includes(`Directory: ${JSON.stringify(realpathSync(box.cwd))}`), dialog);
    assert.ok(dialog.includes('Command: "npm test"'), dialog);
    assert.ok(dialog.includes(`It runs: package.json's test script: ${JSON.stringify(script)}`), dialog);
    const approvals = join(box.agentDir, "todo-loop-approved.json");
    assert.equal(statSync(approvals).mode & 0o777, 0o600);
    const stored = JSON.parse(readFileSync(approvals, "utf8")) as { v: number; approved: Array<Record<string, unknown>> };
    assert.deepEqual(stored.approved.map(({ dir, command, pinned }) => ({ dir, command, pinned })), [{ dir: realpathSync(box.cwd), command: "npm test", pinned: { file: "package.json", text: script } }]);
    assert.match(await status(rpc), /^verify: "npm test" \(found in package.json's test script, approved for .*; timeout 10 min, 3 runs\)$/m);

    await rpc.prompt("Do the work");
    assert.equal(ranCount(box), 1, "the approved check ran at the clear");
    const first = stopData(sessionEntries(box))[0] as { kind?: string; reason: string; verify?: { command: string; exit: number } };
    assert.equal(first.kind, "clear");
    assert.match(first.reason, /^stopped: list is clear · npm test passed \(\d+ s\)$/);
    assert.deepEqual(first.verify && { command: first.verify.command, exit: first.verify.exit }, { command: "npm test", exit: 0 });

    packageJson(box, `${script}; echo edited`);
    const before = rpc.events.length;
    await rpc.prompt("Now the next part");
    assert.equal(ranCount(box), 1, "the edited script did not run");
    assert.equal(dialogs(rpc, before).length, 0);
    assert.equal(stopData(sessionEntries(box))[1]?.reason, "stopped: list is clear");
    assert.match(await status(rpc), /^verify: package.json's test script changed since you approved npm test; it needs \/todoloop verify approve$/m);

    const notes = await rpc.command("verify forget");
    assert.match(notes[0]?.message ?? "", /^todo loop: forgot the approved verification command for /);
    assert.deepEqual((JSON.parse(readFileSync(approvals, "utf8")) as { approved: unknown[] }).approved, []);
    packageJson(box, script);
    await rpc.prompt("And the last part");
    assert.equal(ranCount(box), 1, "forgotten: not run again");
    assert.match(await status(rpc), /a check was found: npm test \(from package.json\) — \/todoloop verify approve to use it/);
    checkInvariants(box, { script: steps, taskTexts: ["Alpha task", "Beta task", "Gamma task"] });
  });
});

test("RPC: an approved Makefile test target runs (make test) until its recipe changes; a Cargo.toml approval is pinned to its sha256", { timeout: 90_000 }, async (t) => {
  const steps = [...work("Alpha task", 1), ...work("Beta task", 2)];
  await withRpc(t.signal, { script: steps }, async (box, rpc) => {
    writeFileSync(join(box.cwd, "Makefile"), `test:\n\techo ran >> "${marker(box)}"\n`);
    const dialog = await approveOverRpc(rpc);
    assert.ok(dialog.includes(`It runs: Makefile's test target: ${JSON.stringify(`test:\n\techo ran >> "${marker(box)}"`)}`), dialog);
    await rpc.prompt("Do the work");
    assert.equal(ranCount(box), 1);
    assert.match(stopData(sessionEntries(box))[0]?.reason ?? "", /^stopped: list is clear · make test passed/);
    writeFileSync(join(box.cwd, "Makefile"), `test:\n\techo ran >> "${marker(box)}"\n\techo more\n`);
    await rpc.prompt("Now the next part");
    assert.equal(ranCount(box), 1, "the changed recipe did not run");
    assert.match(await status(rpc), /^verify: Makefile's test target changed since you approved make test; it needs \/todoloop verify approve$/m);

    rmSync(join(box.cwd, "Makefile"));
    writeFileSync(join(box.cwd, "Cargo.toml"), "[package]\nname = \"app\"\n");
    const cargo = await approveOverRpc(rpc);
    assert.match(cargo, /It runs: Cargo.toml as it is now \(sha256 [0-9a-f]{12}…\)/);
    const stored = JSON.parse(readFileSync(join(box.agentDir, "todo-loop-approved.json"), "utf8")) as { approved: Array<{ pinned?: { sha256?: string } }> };
    assert.match(stored.approved[0]?.pinned?.sha256 ?? "", /^[0-9a-f]{64}$/);
    assert.match(await status(rpc), /^verify: "cargo test" \(found in Cargo.toml, approved for /m);
    writeFileSync(join(box.cwd, "Cargo.toml"), "[package]\nname = \"app2\"\n");
    assert.match(await status(rpc), /^verify: Cargo.toml changed since you approved cargo test; it needs \/todoloop verify approve$/m);
  });
});
