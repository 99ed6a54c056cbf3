// Proves on the real host that the package installed with pi install (a folder or the packed tarball) loads and continues.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  baseArgs,
  checkInvariants,
  createTasks,
  markerDetails,
  PACKAGE_ROOT,
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

const timeout = SCENARIO_TIMEOUT_MS;
const script: ScriptStep[] = [createTasks("Alpha task"), say("Stopping here."), updateTasks([1]), say("Done.")];

/** A run that loads this package only from the agent dir's settings (no `-e` for it, no `-ne`). */
async function runInstalled(box: Sandbox): Promise<void> {
  const run = await runPi(box, ["-e", SCRIPTED_MODEL, "-e", RPIV_TODO, ...baseArgs(box), "-p", "Do the work"]);
  assert.equal(run.code, 0, run.stderr);
  const entries = sessionEntries(box);
  assert.deepEqual(markerDetails(entries).map(({ round, open }) => ({ round, open })), [{ round: 1, open: 1 }], "the installed package continued the settle");
  assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
  checkInvariants(box, { script, taskTexts: ["Alpha task"] });
}

function settingsPackages(box: Sandbox): unknown {
  return (JSON.parse(readFileSync(join(box.agentDir, "settings.json"), "utf8")) as { packages?: unknown }).packages;
}

test("`pi install <package dir>` into an isolated agent dir: a later run loads it from settings (built-in extensions on) and continues", { timeout }, async () => {
  const box = sandbox({ script });
  try {
    const install = await runPi(box, ["install", PACKAGE_ROOT]);
    assert.equal(install.code, 0, install.stderr);
    const packages = settingsPackages(box);
    assert.ok(Array.isArray(packages) && packages.length === 1, JSON.stringify(packages));
    await runInstalled(box);
  } finally {
    box.cleanup();
  }
});

test("`pi install` of the packed tarball (npm pack) into an isolated agent dir: a later run loads the installed copy and continues", { timeout }, async () => {
  const builtinsOff = { extensions: ["-builtin:mcp", "-builtin:llama.cpp", "-builtin:codemode", "-builtin:tool-search"] };
  const box = sandbox({ script, settings: builtinsOff });
  try {
    const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", box.root], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, npm_config_cache: join(box.root, "npm-cache"), npm_config_update_notifier: "false" },
      encoding: "utf8",
    });
    const [tarball] = JSON.parse(packed) as Array<{ filename: string }>;
    assert.ok(tarball, "npm pack made a tarball");
    // pi names an npm package by its spec, so a bare tarball path needs the name@file: form.
    const spec = `npm:pi-todo-loop@file:${join(box.root, tarball.filename)}`;
    const install = await runPi(box, ["install", spec]);
    assert.equal(install.code, 0, install.stderr);
    assert.deepEqual(settingsPackages(box), [spec]);
    const installed = join(box.agentDir, "npm", "node_modules", "pi-todo-loop");
    assert.ok(existsSync(join(installed, "src", "index.ts")), "the tarball carries the extension source");
    await runInstalled(box);
  } finally {
    box.cleanup();
  }
});
