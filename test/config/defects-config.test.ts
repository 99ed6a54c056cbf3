/**
 * Config and commands (SPEC §8, 0.4): `approve` and `forget` never write over an approvals file they
 * cannot read; a relative `notifyCommand` program is a problem and nothing runs (absolute, `~/…` and a
 * bare name on PATH are fine, `~/…` is the home directory); a project file's problems are announced once
 * per set, apart from the user file's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { approve, forget, readApprovals, refusedText } from "../../src/io/approvals.ts";
import { parseConfig, relativeProgram } from "../../src/config.ts";
import { createReach, runCommand } from "../../src/io/notify.ts";
import type { ReachIo } from "../../src/io/notify.ts";
import { createContext, createFakePi, createSession } from "../fake-pi.ts";

function scratch(): { dir: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-config-"));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const OTHERS = '{ "v": 1, "approved": [{ "dir": "/home/me/other", "command": "make check", "at": "2026-01-01T00:00:00.000Z" }';

test("approvals: approve refuses to write over a file it cannot parse, says what is wrong, and leaves every byte of it", () => {
  const { dir, done } = scratch();
  try {
    const path = join(dir, "todo-loop-approved.json");
    writeFileSync(path, OTHERS);
    const refused = approve("/home/me/project", "npm test", "now", path);
    assert.equal(refused, "the approvals file is not valid JSON; no project command is approved");
    assert.equal(readFileSync(path, "utf8"), OTHERS, "untouched: the other project's approval is still in it");
    assert.equal(refusedText(path, refused ?? ""), `${path}: the approvals file is not valid JSON. It holds the approvals of every project, so it is not written over: fix or move it, then try again`);
  } finally {
    done();
  }
});

test("approvals: forget removes nothing from a file it cannot read — a corrupt one, a FIFO — and writes nothing", () => {
  const { dir, done } = scratch();
  try {
    const path = join(dir, "todo-loop-approved.json");
    writeFileSync(path, '{ "v": 2, "approved": [] }');
    assert.equal(forget("/home/me/project", path), false);
    assert.equal(readFileSync(path, "utf8"), '{ "v": 2, "approved": [] }');
    const fifo = join(dir, "fifo.json");
    execFileSync("mkfifo", [fifo]);
    assert.equal(forget("/home/me/project", fifo), false);
    assert.match(approve("/home/me/project", "npm test", "now", fifo) ?? "", /is a FIFO/);
    assert.match(readApprovals(fifo).problem ?? "", /is a FIFO/);
  } finally {
    done();
  }
});

test("approvals: a readable file is still approved into and forgotten from, keeping the others", () => {
  const { dir, done } = scratch();
  try {
    const path = join(dir, "todo-loop-approved.json");
    writeFileSync(path, `${OTHERS}] }`);
    assert.equal(approve("/home/me/project", "npm test", "now", path), undefined);
    assert.deepEqual(readApprovals(path).approved.map((entry) => entry.dir), ["/home/me/other", "/home/me/project"]);
    assert.equal(forget("/home/me/project", path), true);
    assert.deepEqual(readApprovals(path).approved.map((entry) => entry.dir), ["/home/me/other"]);
    assert.equal(forget("/home/me/project", path), false);
  } finally {
    done();
  }
});

test("notifyCommand: a relative program with a slash is a problem and no command is run; absolute, ~/… and a bare name are taken", () => {
  for (const program of ["./notify.sh", "bin/notify", "../notify", "scripts/../notify.sh"]) {
    const parsed = parseConfig({ notifyCommand: [program, "--loud"] });
    assert.equal(parsed.config.notifyCommand, null, program);
    assert.equal(parsed.problems.length, 1, program);
    assert.match(parsed.problems[0] ?? "", /is a relative path, which would resolve against the project directory .*; no command is run$/, program);
    assert.equal(relativeProgram(program), true, program);
  }
  for (const program of ["/usr/local/bin/notify", "~/bin/notify", "notify-send"]) {
    const parsed = parseConfig({ notifyCommand: [program, "--loud"] });
    assert.deepEqual(parsed.config.notifyCommand, [program, "--loud"], program);
    assert.deepEqual(parsed.problems, [], program);
  }
});

test("notifyCommand: ~/… runs the program under the home directory", async () => {
  const { dir, done } = scratch();
  const home = process.env.HOME;
  try {
    process.env.HOME = dir;
    mkdirSync(join(dir, "bin"));
    const out = join(dir, "ran");
    writeFileSync(join(dir, "bin", "notify"), `#!/bin/sh\necho "$1" > "${out}"\n`);
    chmodSync(join(dir, "bin", "notify"), 0o755);
    assert.equal(await runCommand(["~/bin/notify"], '{"v":1}', tmpdir(), 10_000), undefined);
    assert.equal(readFileSync(out, "utf8"), '{"v":1}\n');
  } finally {
    if (home === undefined) delete process.env.HOME;
    else process.env.HOME = home;
    done();
  }
});

test("project problems: announced once per set (a warning notify), apart from the user file's; again only when they change", () => {
  const lines: string[] = [];
  const io: ReachIo = {
    env: {},
    writeTerminal: () => undefined,
    writeStderr: (line) => void lines.push(`stderr ${line}`),
    setExitCode: () => undefined,
    getExitCode: () => undefined,
    run: async () => undefined,
    memo: { lastProblems: undefined },
  };
  const ctx = createContext({ session: createSession([], "s1"), cwd: "/work", mode: "rpc", hasUI: true });
  const reach = createReach(createFakePi(), io);
  const ignored = ['only verify is read from a project file; "maxRounds" ignored'];
  reach.problems(ctx, "/agent/todo-loop.json", ["maxCost is negative (-1); using no limit"]);
  reach.projectProblems(ctx, "/work/.pi/todo-loop.json", ignored);
  reach.projectProblems(ctx, "/work/.pi/todo-loop.json", [...ignored]);
  reach.problems(ctx, "/agent/todo-loop.json", ["maxCost is negative (-1); using no limit"]);
  reach.projectProblems(ctx, "/work/.pi/todo-loop.json", []);
  reach.projectProblems(ctx, "/work/.pi/todo-loop.json", ignored);
  const shown = ctx.ui.notifications.map((notice) => notice.message);
  assert.deepEqual(shown, [
    "todo loop: config problem in /agent/todo-loop.json: maxCost is negative (-1); using no limit",
    'todo loop: config problem in /work/.pi/todo-loop.json: only verify is read from a project file; "maxRounds" ignored',
    'todo loop: config problem in /work/.pi/todo-loop.json: only verify is read from a project file; "maxRounds" ignored',
  ]);
  assert.deepEqual(lines, []);
  const headless = createContext({ session: createSession([], "s2"), cwd: "/work", mode: "print", hasUI: false });
  const printIo: ReachIo = { ...io, memo: { lastProblems: undefined } };
  createReach(createFakePi(), printIo).projectProblems(headless, "/work/.pi/todo-loop.json", ignored);
  assert.deepEqual(lines, ['stderr todo loop: config problem in /work/.pi/todo-loop.json: only verify is read from a project file; "maxRounds" ignored']);
  assert.equal(existsSync("/work/.pi/todo-loop.json"), false, "nothing read or written here");
});
