/**
 * README walk-through from a fresh clone (SPEC §11, the first ten minutes): the install-from-clone,
 * `pi list` and uninstall commands are read out of README.md and run as they are written, by a shell,
 * in an isolated pi home, from the folder that holds a `git clone` of this repository; between install
 * and uninstall a scripted-model session loads the package from pi's settings and continues.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  baseArgs,
  checkInvariants,
  createTasks,
  markerDetails,
  PACKAGE_ROOT,
  PI_CLI,
  RPIV_TODO,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  SCRIPTED_MODEL,
  sessionEntries,
  stopReasons,
  updateTasks,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";

const CLONE = "pi-todo-loop";
const script: ScriptStep[] = [createTasks("Alpha task"), say("Stopping here."), updateTasks([1]), say("Done.")];

/** Every fenced `bash` block of the README, as its lines (blank lines and comments left out). */
function bashBlocks(markdown: string): string[][] {
  const blocks: string[][] = [];
  const fence = /```bash\n([\s\S]*?)```/g;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    blocks.push((match[1] ?? "").split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#")));
  }
  return blocks;
}

/** The one README block holding `command`. */
function blockWith(command: string): string[] {
  const found = bashBlocks(readFileSync(join(PACKAGE_ROOT, "README.md"), "utf8")).filter((lines) => lines.includes(command));
  assert.equal(found.length, 1, `README.md has exactly one bash block with \`${command}\` (found ${found.length})`);
  return found[0] ?? [];
}

/** A fresh clone of this repository (a copy of the package files where there is no git checkout). */
function cloneInto(folder: string): void {
  const git = spawnSync("git", ["-C", PACKAGE_ROOT, "rev-parse", "--is-inside-work-tree"], { encoding: "utf8" });
  if (git.status === 0) {
    execFileSync("git", ["clone", "--quiet", PACKAGE_ROOT, folder], { stdio: "pipe" });
    return;
  }
  mkdirSync(folder, { recursive: true });
  for (const name of ["src", "package.json", "README.md", "LICENSE"]) cpSync(join(PACKAGE_ROOT, name), join(folder, name), { recursive: true });
}

/** `pi` on PATH, as a person who installed pi has it: the pi under test, on this Node. */
function piOnPath(box: Sandbox): Record<string, string> {
  const bin = join(box.root, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "pi"), `#!/bin/sh\nexec '${process.execPath}' '${PI_CLI}' "$@"\n`);
  chmodSync(join(bin, "pi"), 0o755);
  return { ...box.env, PATH: `${bin}:${box.env.PATH ?? ""}` };
}

interface Ran {
  readonly line: string;
  readonly code: number | null;
  readonly out: string;
}

/** Runs each README line through a shell, as typed, from the folder that holds the clone. */
function runLines(box: Sandbox, env: Record<string, string>, lines: readonly string[]): Ran[] {
  return lines.map((line) => {
    const result = spawnSync("/bin/sh", ["-c", line], { cwd: box.cwd, env, encoding: "utf8", timeout: 60_000 });
    return { line, code: result.status, out: `${result.stdout ?? ""}${result.stderr ?? ""}` };
  });
}

function settingsPackages(box: Sandbox): unknown {
  return (JSON.parse(readFileSync(join(box.agentDir, "settings.json"), "utf8")) as { packages?: unknown }).packages;
}

async function scriptedRun(box: Sandbox): Promise<void> {
  const run = await runPi(box, ["-e", SCRIPTED_MODEL, "-e", RPIV_TODO, ...baseArgs(box), "-p", "Do the work"]);
  assert.equal(run.code, 0, run.stderr);
}

test("README from a fresh clone: its install-from-clone, pi list and uninstall commands, run verbatim, install the clone, show it, load it in a session, and remove it", { timeout: SCENARIO_TIMEOUT_MS * 2 }, async () => {
  const box = sandbox({ script });
  try {
    const clone = join(box.cwd, CLONE);
    cloneInto(clone);
    assert.ok(existsSync(join(clone, "src", "index.ts")), "the clone holds the extension source");
    assert.ok(!existsSync(join(clone, "node_modules")), "a fresh clone: nothing installed in it");
    const env = piOnPath(box);

    const install = blockWith(`pi install ./${CLONE}`);
    assert.deepEqual(install, [`pi install ./${CLONE}`, "pi list"], "the README's install-from-clone block");
    const installed = runLines(box, env, install);
    for (const ran of installed) assert.equal(ran.code, 0, `${ran.line}\n${ran.out}`);
    const packages = settingsPackages(box);
    assert.ok(Array.isArray(packages) && packages.length === 1, JSON.stringify(packages));
    const listed = installed[1]?.out ?? "";
    assert.match(listed, /^User packages:$/m, listed);
    assert.ok(listed.includes(clone), `pi list shows the clone's full path, as README says:\n${listed}`);
    console.log(`install: ${installed.map((ran) => `${ran.line} → ${ran.code}`).join("; ")}; settings packages ${JSON.stringify(packages)}`);
    console.log(`pi list:\n${listed.trimEnd()}`);

    // The session in between: the package comes from pi's settings only (no -e for it, no -ne).
    await scriptedRun(box);
    const entries = sessionEntries(box);
    assert.deepEqual(markerDetails(entries).map(({ round, open }) => ({ round, open })), [{ round: 1, open: 1 }], "the clone, installed, continued the settle");
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
    console.log(`session: ${markerDetails(entries).length} marker(s), stops ${JSON.stringify(stopReasons(entries))}`);

    const uninstall = blockWith(`pi remove ./${CLONE}`);
    assert.deepEqual(uninstall, [`pi remove ./${CLONE}`, "pi list"], "the README's uninstall-from-clone block");
    const removed = runLines(box, env, uninstall);
    for (const ran of removed) assert.equal(ran.code, 0, `${ran.line}\n${ran.out}`);
    assert.deepEqual(settingsPackages(box), []);
    const after = removed[1]?.out ?? "";
    assert.ok(!after.includes(clone), `pi list no longer shows the clone:\n${after}`);
    assert.match(after, /No packages installed\./, after);
    console.log(`uninstall: ${removed.map((ran) => `${ran.line} → ${ran.code}`).join("; ")}; pi list: ${after.trim()}`);

    // Removed means removed: the next run (its own session folder) loads nothing of it.
    writeFileSync(box.scriptPath, JSON.stringify([createTasks("Beta task"), say("Stopping here.")]));
    const second = join(box.root, "sessions-after");
    mkdirSync(second, { recursive: true });
    const run = await runPi(box, ["-e", SCRIPTED_MODEL, "-e", RPIV_TODO, "--provider", "faux", "--model", "faux-1", "--session-dir", second, "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    const files = readdirSync(second, { recursive: true }).map(String).filter((name) => name.endsWith(".jsonl"));
    assert.equal(files.length, 1, JSON.stringify(files));
    const text = readFileSync(join(second, files[0] ?? ""), "utf8");
    assert.ok(text.includes("Beta task"), "the run made its list");
    assert.ok(!text.includes("todo-loop:"), "and nothing of the loop is in its session");
  } finally {
    box.cleanup();
  }
});

test("README from a clone: `pi remove ./pi-todo-loop` from another folder finds nothing, as README warns, and the full path removes it", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const box = sandbox({ script: [] });
  try {
    const clone = join(box.cwd, CLONE);
    cloneInto(clone);
    const env = piOnPath(box);
    const [install] = runLines(box, env, [`pi install ./${CLONE}`]);
    assert.equal(install?.code, 0, install?.out);
    const elsewhere = spawnSync("/bin/sh", ["-c", `pi remove ./${CLONE}`], { cwd: box.home, env, encoding: "utf8", timeout: 60_000 });
    assert.notEqual(elsewhere.status, 0);
    assert.match(`${elsewhere.stdout}${elsewhere.stderr}`, /No matching package found/);
    const readme = readFileSync(join(PACKAGE_ROOT, "README.md"), "utf8");
    assert.ok(readme.includes('"No matching package found"'), "README names the message");
    const full = spawnSync("/bin/sh", ["-c", `pi remove '${clone}'`], { cwd: box.home, env, encoding: "utf8", timeout: 60_000 });
    assert.equal(full.status, 0, `${full.stdout}${full.stderr}`);
    assert.deepEqual(settingsPackages(box), []);
  } finally {
    box.cleanup();
  }
});
