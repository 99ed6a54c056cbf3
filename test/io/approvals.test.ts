/**
 * A project's proposed verification command (SPEC §8 "Where verify comes from"): read from
 * `.pi/todo-loop.json` (verify only), approved per real directory and exact command in
 * `<agent dir>/todo-loop-approved.json` (atomic, 0600), forgotten, refused when it hides characters.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { approve, forget, parseApprovals, readApprovals, realDir } from "../../src/io/approvals.ts";
import { readProjectVerify, verifySetup } from "../../src/host/verify-setup.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";

function dirs(): { root: string; project: string; approvals: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), "todo-loop-approvals-"));
  const project = join(root, "project");
  mkdirSync(join(project, ".pi"), { recursive: true });
  return { root, project, approvals: join(root, "agent", "todo-loop-approved.json"), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function propose(project: string, content: unknown): void {
  writeFileSync(join(project, ".pi", "todo-loop.json"), typeof content === "string" ? content : JSON.stringify(content));
}

test("project file: verify is read; any other key is a problem, ignored", () => {
  const d = dirs();
  try {
    propose(d.project, { verify: "make check", maxRounds: 99, notifyCommand: ["x"] });
    const read = readProjectVerify(d.project);
    assert.deepEqual(read.entry, { command: "make check", timeoutMinutes: 10, maxRuns: 3 });
    assert.equal(read.problems.length, 2);
    assert.match(read.problems[0] ?? "", /only verify is read from a project file; "maxRounds" ignored/);
    propose(d.project, "{ not json");
    assert.equal(readProjectVerify(d.project).entry, undefined);
    assert.equal(readProjectVerify(d.project).problems.length, 1);
    propose(d.project, { verify: [{ dir: "*", command: "x" }] });
    assert.equal(readProjectVerify(d.project).entry, undefined, "a project file takes no dir list");
  } finally {
    d.cleanup();
  }
});

test("an unapproved project command is refused; approving that exact command for this real directory makes it run, and it wins over the user's", () => {
  const d = dirs();
  try {
    propose(d.project, { verify: "make check" });
    const config = { ...DEFAULT_CONFIG, verify: [{ dir: "*", command: "npm test", timeoutMinutes: 10, maxRuns: 3 }] };
    assert.deepEqual(verifySetup(d.project, DEFAULT_CONFIG, undefined, d.approvals).choice, { kind: "refused", command: "make check", why: "unapproved" });
    approve(realDir(d.project), "make check", "2026-12-01T00:00:00.000Z", d.approvals);
    const setup = verifySetup(d.project, config, undefined, d.approvals);
    assert.equal(setup.choice.kind === "run" && setup.choice.spec.command, "make check");
    assert.deepEqual(JSON.parse(readFileSync(d.approvals, "utf8")), { v: 1, approved: [{ dir: realDir(d.project), command: "make check", at: "2026-12-01T00:00:00.000Z" }] });
  } finally {
    d.cleanup();
  }
});

test("approvals are written atomically with mode 0600 and leave no temp file", () => {
  const d = dirs();
  try {
    approve("/a", "x", "t", d.approvals);
    approve("/b", "y", "t", d.approvals);
    assert.equal(statSync(d.approvals).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(d.root, "agent")), ["todo-loop-approved.json"]);
    assert.deepEqual(readApprovals(d.approvals).approved.map((entry) => entry.dir), ["/a", "/b"]);
  } finally {
    d.cleanup();
  }
});

test("a changed command needs approval again (changed), and forget removes this directory's approval only", () => {
  const d = dirs();
  try {
    const real = realDir(d.project);
    approve(real, "make check", "t", d.approvals);
    approve("/elsewhere", "z", "t", d.approvals);
    propose(d.project, { verify: "make check && curl evil" });
    assert.deepEqual(verifySetup(d.project, DEFAULT_CONFIG, undefined, d.approvals).choice, { kind: "refused", command: "make check && curl evil", why: "changed" });
    assert.equal(forget(real, d.approvals), true);
    assert.deepEqual(readApprovals(d.approvals).approved.map((entry) => entry.dir), ["/elsewhere"]);
    assert.equal(forget(real, d.approvals), false);
    assert.deepEqual(verifySetup(d.project, DEFAULT_CONFIG, undefined, d.approvals).choice.kind, "refused");
  } finally {
    d.cleanup();
  }
});

test("a corrupt approvals file means no approvals and one problem line", () => {
  for (const text of ["{", "[]", '{"v":2,"approved":[]}', '{"v":1,"approved":[{"dir":1}]}']) {
    const parsed = parseApprovals(text);
    assert.deepEqual(parsed.approved, [], text);
    assert.ok(parsed.problem && !parsed.problem.includes("\n"), text);
  }
  const d = dirs();
  try {
    propose(d.project, { verify: "make check" });
    mkdirSync(join(d.root, "agent"), { recursive: true });
    writeFileSync(d.approvals, `{"v":1,"approved":[{"dir":${JSON.stringify(realDir(d.project))},"command":"make check"}`);
    const setup = verifySetup(d.project, DEFAULT_CONFIG, undefined, d.approvals);
    assert.equal(setup.choice.kind, "refused");
    assert.equal(setup.problems.length, 1);
  } finally {
    d.cleanup();
  }
});

test("a project command hiding a right-to-left override is refused even when approved, as a config problem", () => {
  const d = dirs();
  try {
    const command = "echo safe \u202e; rm -rf ~ #";
    propose(d.project, { verify: command });
    approve(realDir(d.project), command, "t", d.approvals);
    const setup = verifySetup(d.project, DEFAULT_CONFIG, undefined, d.approvals);
    assert.deepEqual(setup.choice, { kind: "refused", command, why: "hidden-characters" });
    assert.ok(setup.problems.some((problem) => /control, format or bidi/.test(problem)));
  } finally {
    d.cleanup();
  }
});

test("ctx.isProjectTrusted() false refuses the project command; a throwing one refuses too; no function at all does not", () => {
  const d = dirs();
  try {
    propose(d.project, { verify: "make check" });
    approve(realDir(d.project), "make check", "t", d.approvals);
    assert.equal(verifySetup(d.project, DEFAULT_CONFIG, () => false, d.approvals).choice.kind, "refused");
    assert.equal(verifySetup(d.project, DEFAULT_CONFIG, () => { throw new Error("x"); }, d.approvals).choice.kind, "refused");
    assert.equal(verifySetup(d.project, DEFAULT_CONFIG, () => true, d.approvals).choice.kind, "run");
    assert.equal(verifySetup(d.project, DEFAULT_CONFIG, undefined, d.approvals).choice.kind, "run");
  } finally {
    d.cleanup();
  }
});

test("a symlinked directory and a '..' in the path resolve to the real directory in the approval", () => {
  const d = dirs();
  try {
    propose(d.project, { verify: "make check" });
    const link = join(d.root, "link");
    symlinkSync(d.project, link);
    const dotted = `${d.project}/../project`;
    assert.equal(realDir(link), realDir(d.project));
    assert.equal(realDir(dotted), realDir(d.project));
    approve(realDir(link), "make check", "t", d.approvals);
    assert.equal(verifySetup(dotted, DEFAULT_CONFIG, undefined, d.approvals).choice.kind, "run");
    assert.doesNotMatch(readFileSync(d.approvals, "utf8"), /link|\.\./);
  } finally {
    d.cleanup();
  }
});
