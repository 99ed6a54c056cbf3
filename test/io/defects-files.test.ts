/**
 * Files a repository or a person controls are read only when regular, at most 1 MiB (SPEC §10): a FIFO,
 * a device reached through a link (`/dev/stdin`, `/dev/zero`), a directory or a socket is a problem,
 * never an open that waits or a read that never ends. Each case runs in a child process with a deadline,
 * so an open that blocks fails the test instead of hanging it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_FILE_BYTES, readRegularFile } from "../../src/io/files.ts";
import { readTasksFile } from "../../src/io/tasks-file.ts";
import { readProjectVerify } from "../../src/host/verify-setup.ts";
import { readApprovals } from "../../src/io/approvals.ts";
import { loadConfig } from "../../src/config.ts";

const FILES = fileURLToPath(new URL("../../src/io/files.ts", import.meta.url));

function scratch(): { dir: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-files-"));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Reads `path` with `readRegularFile` in a fresh Node process (stdin a pipe nobody writes to, so a read
 * of `/dev/stdin` would wait for ever) and returns its answer and peak memory; fails after 5 s.
 */
function readInChild(path: string): { kind: string; why?: string; length?: number; rssMiB: number } {
  const code = `
    import { readRegularFile } from ${JSON.stringify(FILES)};
    const read = readRegularFile(${JSON.stringify(path)});
    const rssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
    process.stdout.write(JSON.stringify({ kind: read.kind, why: read.why, length: read.text?.length, rssMiB }));
  `;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", code], { timeout: 5000, stdio: ["pipe", "pipe", "pipe"], encoding: "utf8" });
  assert.equal(result.error, undefined, `the read did not end within 5 s (${String(result.error)})`);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test("files: a FIFO nobody writes to is a problem at once, not an open that waits", () => {
  const { dir, done } = scratch();
  try {
    const fifo = join(dir, "todo-loop.json");
    execFileSync("mkfifo", [fifo]);
    const read = readInChild(fifo);
    assert.equal(read.kind, "problem");
    assert.equal(read.why, "is a FIFO, not a regular file; not read");
  } finally {
    done();
  }
});

test("files: a link to /dev/stdin (the terminal, here a pipe nobody writes to) is a problem, not a read that waits", () => {
  const { dir, done } = scratch();
  try {
    const link = join(dir, "tasks-config.json");
    symlinkSync("/dev/stdin", link);
    const read = readInChild(link);
    assert.equal(read.kind, "problem");
    // /dev/stdin is a link to the process's fd 0: here Node's pipe (a socket, which Linux refuses to
    // open: ENXIO), in a shell pipeline a FIFO, in a terminal a device.
    assert.match(read.why ?? "", /^(is a (FIFO|device|socket), not a regular file; not read|cannot be read \(ENXIO\))$/);
  } finally {
    done();
  }
});

test("files: a link to /dev/null and to /dev/zero is a device: nothing read, memory bounded", () => {
  const { dir, done } = scratch();
  try {
    for (const device of ["/dev/null", "/dev/zero"]) {
      const link = join(dir, `link-${device.slice(5)}`);
      symlinkSync(device, link);
      const read = readInChild(link);
      assert.equal(read.kind, "problem", device);
      assert.equal(read.why, "is a device, not a regular file; not read", device);
      assert.ok(read.rssMiB < 200, `${device}: peak memory ${read.rssMiB} MiB`);
    }
  } finally {
    done();
  }
});

test("files: a directory is a problem", () => {
  const { dir, done } = scratch();
  try {
    const folder = join(dir, "todo-loop.json");
    mkdirSync(folder);
    assert.deepEqual(readRegularFile(folder), { kind: "problem", why: "is a directory, not a regular file; not read" });
  } finally {
    done();
  }
});

test("files: a socket is a problem", async () => {
  const { dir, done } = scratch();
  const server = createServer();
  try {
    const socket = join(dir, "todo-loop.json");
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const read = readRegularFile(socket);
    assert.equal(read.kind, "problem");
    // Linux refuses to open a socket (ENXIO); elsewhere fstat names it.
    assert.match(read.kind === "problem" ? read.why : "", /^(is a socket, not a regular file; not read|cannot be read \(ENXIO\))$/);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    done();
  }
});

test("files: a file of 2 MiB is not read, one of exactly 1 MiB is", () => {
  const { dir, done } = scratch();
  try {
    const big = join(dir, "big.json");
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024, 0x20));
    assert.deepEqual(readRegularFile(big), { kind: "problem", why: "is larger than 1 MiB; not read" });
    const edge = join(dir, "edge.json");
    writeFileSync(edge, Buffer.alloc(MAX_FILE_BYTES, 0x20));
    const read = readRegularFile(edge);
    assert.equal(read.kind, "text");
    assert.equal(read.kind === "text" ? read.text.length : 0, MAX_FILE_BYTES);
  } finally {
    done();
  }
});

test("files: a link to a regular file is read through the link; a missing file or a dangling link is missing", () => {
  const { dir, done } = scratch();
  try {
    const target = join(dir, "real.json");
    writeFileSync(target, '{"verify":"npm test"}');
    const link = join(dir, "link.json");
    symlinkSync(target, link);
    assert.deepEqual(readRegularFile(link), { kind: "text", text: '{"verify":"npm test"}' });
    assert.deepEqual(readRegularFile(join(dir, "absent.json")), { kind: "missing" });
    const dangling = join(dir, "dangling.json");
    symlinkSync(join(dir, "nowhere.json"), dangling);
    assert.deepEqual(readRegularFile(dangling), { kind: "missing" });
  } finally {
    done();
  }
});

test("files: every reader of a project or user file turns a FIFO into a problem line, never a wait", () => {
  const { dir, done } = scratch();
  try {
    const cwd = join(dir, "project");
    const agent = join(dir, "agent");
    mkdirSync(join(cwd, ".pi", "tasks"), { recursive: true });
    mkdirSync(agent, { recursive: true });
    execFileSync("mkfifo", [join(cwd, ".pi", "todo-loop.json")]);
    execFileSync("mkfifo", [join(agent, "todo-loop.json")]);
    execFileSync("mkfifo", [join(agent, "todo-loop-approved.json")]);
    execFileSync("mkfifo", [join(cwd, ".pi", "tasks-config.json")]);
    execFileSync("mkfifo", [join(cwd, ".pi", "tasks", "tasks-s1.json")]);
    const project = readProjectVerify(cwd);
    assert.equal(project.entry, undefined);
    assert.deepEqual(project.problems, [`${join(cwd, ".pi", "todo-loop.json")}: is a FIFO, not a regular file; not read; no project command`]);
    const config = loadConfig(join(agent, "todo-loop.json"));
    assert.equal(config.problems.length, 1);
    assert.match(config.problems[0] ?? "", /FIFO/);
    const approvals = readApprovals(join(agent, "todo-loop-approved.json"));
    assert.deepEqual(approvals, { approved: [], problem: "the approvals file is a FIFO, not a regular file; not read; no project command is approved" });
    // The tasks config is skipped (default scope "session"), the session's task file is unreadable.
    const tasks = readTasksFile({ cwd, agentDir: agent, sessionId: "s1", env: {} }, (text) => text);
    assert.deepEqual(tasks, { list: "unreadable", path: join(cwd, ".pi", "tasks", "tasks-s1.json") });
  } finally {
    done();
  }
});
