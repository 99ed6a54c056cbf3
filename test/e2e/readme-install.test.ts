// Proves on a fresh machine that the README's install block, run as written, makes /todoloop answer.
/**
 * The README's one install block, run through a shell line by line as written on a fresh machine, installs
 * pi's todo tool and this package so that `/todoloop` answers and the loop continues; the uninstall
 * commands of docs/install.md remove it again.
 *
 * What a test cannot do offline is stood in for, and nothing else: `npm install -g
 * @earendil-works/pi-coding-agent` is satisfied by the pi under test on PATH, `pi install
 * npm:@juicesharp/rpiv-todo` installs the rpiv-todo of node_modules by its path, and the `git clone` of
 * the repository's URL is a copy of this working tree; the rest of each line runs as written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
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
  startRpc,
  stopReasons,
  until,
  updateTasks,
} from "./harness.ts";
import type { Sandbox, ScriptStep } from "./harness.ts";

const CLONE = "pi-todo-loop";
const REPOSITORY = "https://github.com/pi-todo-loop/pi-todo-loop";
const INSTALL_PI = "npm install -g @earendil-works/pi-coding-agent";
const INSTALL_TODO = "pi install npm:@juicesharp/rpiv-todo";
const INSTALL_CLONE = `git clone ${REPOSITORY} && pi install ./${CLONE}`;
const script: ScriptStep[] = [createTasks("Alpha task"), say("Stopping here."), updateTasks([1]), say("Done.")];

interface Block {
  /** Where the block starts in the file, in characters. */
  readonly at: number;
  readonly raw: string;
  /** Its lines, trimmed, blank lines and comments left out. */
  readonly lines: string[];
}

/** Every fenced `bash` block of a markdown text. */
function bashBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const fence = /```bash\n([\s\S]*?)```/g;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    const raw = match[1] ?? "";
    blocks.push({ at: match.index, raw, lines: raw.split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#")) });
  }
  return blocks;
}

/** The one block of `file` holding `command`. */
function blockWith(file: string, command: string): Block {
  const found = bashBlocks(readFileSync(join(PACKAGE_ROOT, file), "utf8")).filter((block) => block.lines.includes(command));
  assert.equal(found.length, 1, `${file} has exactly one bash block with \`${command}\` (found ${found.length})`);
  const [block] = found;
  assert.ok(block);
  return block;
}

/** The files of this working tree a clone would hold (tracked or new, not ignored), or the package's own files without git. */
function workingTreeFiles(): string[] {
  const git = spawnSync("git", ["-C", PACKAGE_ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" });
  if (git.status === 0) return git.stdout.split("\0").filter((name) => name !== "" && name.split("/")[0] !== "node_modules" && existsSync(join(PACKAGE_ROOT, name)));
  return ["index.ts", "src", "docs", "package.json", "README.md", "LICENSE", "CHANGELOG.md"].filter((name) => existsSync(join(PACKAGE_ROOT, name)));
}

/** What `git clone <repository>` leaves: a copy of this working tree in `folder`. */
function cloneInto(folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const name of workingTreeFiles()) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    cpSync(join(PACKAGE_ROOT, name), join(folder, name), { recursive: true });
  }
}

/** `pi` on PATH, as `npm install -g` leaves it: the pi under test, on this Node. */
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

function shell(box: Sandbox, env: Record<string, string>, line: string, cwd = box.cwd): Ran {
  const result = spawnSync("/bin/sh", ["-c", line], { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { line, code: result.status, out: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

/** The README's install lines through a shell, from the sandbox's working folder, with the three stand-ins above. */
function runInstall(box: Sandbox, env: Record<string, string>, lines: readonly string[]): Ran[] {
  return lines.map((line) => {
    if (line === INSTALL_PI) return shell(box, env, "pi --version");
    if (line === INSTALL_TODO) return shell(box, env, `pi install '${RPIV_TODO}'`);
    const clone = `git clone ${REPOSITORY}`;
    if (line.startsWith(`${clone} && `)) {
      cloneInto(join(box.cwd, CLONE));
      return shell(box, env, line.slice(clone.length + " && ".length));
    }
    return shell(box, env, line);
  });
}

/** The session's entries so far, or none before pi has written its file. */
function readEntries(box: Sandbox): ReturnType<typeof sessionEntries> {
  try {
    return sessionEntries(box);
  } catch {
    return [];
  }
}

function settingsPackages(box: Sandbox): unknown[] {
  const packages = (JSON.parse(readFileSync(join(box.agentDir, "settings.json"), "utf8")) as { packages?: unknown }).packages;
  return Array.isArray(packages) ? packages : [];
}

test("README: its one install block, in the first 2,000 characters, run line by line through a shell, installs rpiv-todo and the clone; /todoloop answers and the loop continues; docs/install.md's uninstall block removes it", { timeout: SCENARIO_TIMEOUT_MS * 2 }, async (t) => {
  const box = sandbox({ script });
  try {
    const block = blockWith("README.md", INSTALL_TODO);
    assert.deepEqual(block.lines, [INSTALL_PI, INSTALL_TODO, INSTALL_CLONE], "the README's install block");
    assert.ok(block.at < 2000, `the install block starts at character ${block.at}, within the first 2,000`);
    assert.match(block.raw, /^# .*pi install npm:pi-todo-loop$/m, "the block names the npm line for when a release is on the registry");
    const env = piOnPath(box);

    const installed = runInstall(box, env, block.lines);
    for (const ran of installed) assert.equal(ran.code, 0, `${ran.line}\n${ran.out}`);
    const clone = join(box.cwd, CLONE);
    assert.ok(existsSync(join(clone, "index.ts")) && !existsSync(join(clone, "node_modules")), "a fresh clone: the source, nothing installed in it");
    const packages = settingsPackages(box);
    assert.equal(packages.length, 2, `rpiv-todo and the clone in pi's settings: ${JSON.stringify(packages)}`);
    t.diagnostic(`install: ${installed.map((ran) => `${ran.line} → ${ran.code}`).join("; ")}; settings packages ${JSON.stringify(packages)}`);

    // pi with nothing but what the block installed (no -e for either, no -ne): /todoloop answers, the loop continues.
    // pi's RpcClient copies the child's stderr to this process's; keep it in the test's report instead.
    const held: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string | Uint8Array): boolean => {
      held.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    };
    const rpc = await startRpc(box, { extensions: ["-e", SCRIPTED_MODEL], signal: t.signal }).catch((error: unknown) => {
      process.stderr.write = write;
      throw error;
    });
    try {
      const [first] = await rpc.command("");
      assert.ok(first, "/todoloop answered");
      assert.match(first.message, /^todo loop: active\ncontinuations for this message: 0 \(no limit\)\n/, first.message);
      assert.match(first.message, /^config: none \(defaults\)/m, first.message);
      await rpc.send("Do the work");
      await until("the run's stop record", () => stopReasons(readEntries(box)).length > 0);
      // The run's own stop notice may come through first; the report is the message that lists the tasks.
      const after = (await rpc.command("")).find((notice) => /^tasks open: /m.test(notice.message));
      assert.ok(after, "/todoloop answered after the run");
      assert.match(after.message, /^todo loop: stopped$/m, after.message);
      assert.match(after.message, /^tasks open: 0 of 1 \(rpiv-todo\)$/m, after.message);
      assert.match(after.message, /^last: stopped: list is clear$/m, after.message);
      t.diagnostic(`/todoloop: ${JSON.stringify(first.message.split("\n").slice(0, 2))} … then ${JSON.stringify(after.message.split("\n")[0])}`);
    } finally {
      await rpc.stop();
      process.stderr.write = write;
      for (const line of held.join("").split("\n").filter((text) => text.trim() !== "")) t.diagnostic(`pi's stderr: ${line}`);
    }
    const entries = sessionEntries(box);
    assert.deepEqual(markerDetails(entries).map(({ round, open }) => ({ round, open })), [{ round: 1, open: 1 }], "the installed clone continued the settle");
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });

    const uninstall = blockWith("docs/install.md", `pi remove ./${CLONE}`);
    assert.deepEqual(uninstall.lines, [`pi remove ./${CLONE}`, "pi list"], "docs/install.md's uninstall-from-clone block");
    const removed = uninstall.lines.map((line) => shell(box, env, line));
    for (const ran of removed) assert.equal(ran.code, 0, `${ran.line}\n${ran.out}`);
    assert.equal(settingsPackages(box).length, 1, "only rpiv-todo is left");
    const listed = removed[1]?.out ?? "";
    assert.ok(!listed.includes(clone), `pi list no longer shows the clone:\n${listed}`);
    t.diagnostic(`uninstall: ${removed.map((ran) => `${ran.line} → ${ran.code}`).join("; ")}`);

    // Removed means removed: the next run (its own session folder) loads nothing of it.
    writeFileSync(box.scriptPath, JSON.stringify([createTasks("Beta task"), say("Stopping here.")]));
    const second = join(box.root, "sessions-after");
    mkdirSync(second, { recursive: true });
    const run = await runPi(box, ["-e", SCRIPTED_MODEL, "--provider", "faux", "--model", "faux-1", "--session-dir", second, "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    const files = readdirSync(second, { recursive: true }).map(String).filter((name) => name.endsWith(".jsonl"));
    assert.equal(files.length, 1, JSON.stringify(files));
    const text = readFileSync(join(second, files[0] ?? ""), "utf8");
    assert.ok(text.includes("Beta task"), "the run made its list with the installed rpiv-todo");
    assert.ok(!text.includes("todo-loop:"), "and nothing of the loop is in its session");
  } finally {
    box.cleanup();
  }
});

test("docs/install.md: `pi remove ./pi-todo-loop` from another folder finds nothing, as the page warns, and the full path removes it", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const box = sandbox({ script: [] });
  try {
    const clone = join(box.cwd, CLONE);
    cloneInto(clone);
    const env = piOnPath(box);
    const install = shell(box, env, `pi install ./${CLONE}`);
    assert.equal(install.code, 0, install.out);
    const elsewhere = shell(box, env, `pi remove ./${CLONE}`, box.home);
    assert.notEqual(elsewhere.code, 0);
    assert.match(elsewhere.out, /No matching package found/);
    const page = readFileSync(join(PACKAGE_ROOT, "docs", "install.md"), "utf8");
    assert.ok(page.includes('"No matching package found"'), "docs/install.md names the message");
    const full = shell(box, env, `pi remove '${clone}'`, box.home);
    assert.equal(full.code, 0, full.out);
    assert.deepEqual(settingsPackages(box), []);
  } finally {
    box.cleanup();
  }
});
