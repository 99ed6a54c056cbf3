/**
 * Where the verification command comes from (SPEC §8): the user's file, or a project's
 * `<cwd>/.pi/todo-loop.json` whose exact command the person approved for this real directory, the way
 * `direnv allow` works. Approvals live in `<agent dir>/todo-loop-approved.json`, written atomically
 * (temp file, rename) with mode 0600. The few lines of file I/O; the rule is `chooseVerify()`.
 */
import { chmodSync, readFileSync, realpathSync, renameSync, writeFileSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { agentDir, parseVerify } from "../config.ts";
import type { Config, VerifyEntry } from "../config.ts";
import { chooseVerify } from "../core/verify.ts";
import type { VerifyChoice } from "../core/verify.ts";

export interface Approval {
  readonly dir: string;
  readonly command: string;
  readonly at: string;
}

export interface Approvals {
  readonly approved: readonly Approval[];
  /** One line when the file is unreadable or corrupt (then there are no approvals). */
  readonly problem: string | undefined;
}

export function approvalsPath(dir: string = agentDir()): string {
  return join(dir, "todo-loop-approved.json");
}

export function projectFile(cwd: string): string {
  return join(cwd, ".pi", "todo-loop.json");
}

/** The real directory (symlinks and `..` resolved); the path itself when it cannot be resolved. */
export function realDir(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

/** Parses the approvals file's text; anything but `{ v: 1, approved: [...] }` is corrupt: no approvals. */
export function parseApprovals(text: string): Approvals {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { approved: [], problem: "the approvals file is not valid JSON; no project command is approved" };
  }
  const record = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as { v?: unknown; approved?: unknown }) : undefined;
  if (!record || record.v !== 1 || !Array.isArray(record.approved)) {
    return { approved: [], problem: 'the approvals file is not { "v": 1, "approved": [...] }; no project command is approved' };
  }
  const approved: Approval[] = [];
  for (const item of record.approved) {
    const entry = typeof item === "object" && item !== null ? (item as { dir?: unknown; command?: unknown; at?: unknown }) : undefined;
    if (!entry || typeof entry.dir !== "string" || typeof entry.command !== "string") {
      return { approved: [], problem: "the approvals file holds an entry without dir and command; no project command is approved" };
    }
    approved.push({ dir: entry.dir, command: entry.command, at: typeof entry.at === "string" ? entry.at : "" });
  }
  return { approved, problem: undefined };
}

export function readApprovals(path: string = approvalsPath()): Approvals {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return { approved: [], problem: undefined };
    return { approved: [], problem: `the approvals file cannot be read (${error instanceof Error ? error.message : String(error)}); no project command is approved` };
  }
  return parseApprovals(text);
}

/** Writes the approvals atomically (a temp file beside it, then rename), readable by the owner only. */
export function writeApprovals(approved: readonly Approval[], path: string = approvalsPath()): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ v: 1, approved }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

/** What a project's `.pi/todo-loop.json` proposes: `verify` only; any other key is a problem, ignored. */
export interface ProjectVerify {
  readonly entry: Omit<VerifyEntry, "dir"> | undefined;
  readonly problems: readonly string[];
}

export function readProjectVerify(cwd: string): ProjectVerify {
  const path = projectFile(cwd);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT") || isErrno(error, "ENOTDIR")) return { entry: undefined, problems: [] };
    return { entry: undefined, problems: [`${path}: cannot be read; no project command`] };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { entry: undefined, problems: [`${path}: invalid JSON; no project command`] };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { entry: undefined, problems: [`${path}: must hold a JSON object; no project command`] };
  const problems: string[] = [];
  const record = raw as { readonly [key: string]: unknown };
  for (const key of Object.keys(record)) {
    if (key !== "verify") problems.push(`${path}: only verify is read from a project file; ${JSON.stringify(key.slice(0, 40))} ignored`);
  }
  const parsed: string[] = [];
  const [first] = parseVerify(record.verify, parsed, false);
  for (const problem of parsed) problems.push(`${path}: ${problem}`);
  return { entry: first && { command: first.command, timeoutMinutes: first.timeoutMinutes, maxRuns: first.maxRuns }, problems };
}

/** Everything known about verification in this directory: the choice, and what `/todoloop` shows. */
export interface VerifySetup {
  readonly choice: VerifyChoice;
  readonly realDir: string;
  readonly project: Omit<VerifyEntry, "dir"> | undefined;
  readonly approval: "approved" | "changed" | "none";
  readonly trusted: boolean;
  readonly problems: readonly string[];
}

function trustedOf(isProjectTrusted: (() => boolean) | undefined): boolean {
  if (typeof isProjectTrusted !== "function") return true;
  try {
    return isProjectTrusted() !== false;
  } catch {
    return false;
  }
}

/** Reads the project file and the approvals for `cwd` and chooses the command (SPEC §8). */
export function verifySetup(cwd: string, config: Config, isProjectTrusted: (() => boolean) | undefined, path: string = approvalsPath()): VerifySetup {
  const real = realDir(cwd);
  const project = readProjectVerify(cwd);
  const problems = [...project.problems];
  let approval: VerifySetup["approval"] = "none";
  if (project.entry) {
    const approvals = readApprovals(path);
    if (approvals.problem) problems.push(approvals.problem);
    const mine = approvals.approved.filter((entry) => entry.dir === real);
    if (mine.some((entry) => entry.command === project.entry?.command)) approval = "approved";
    else if (mine.length > 0) approval = "changed";
  }
  const trusted = trustedOf(isProjectTrusted);
  const choice = chooseVerify({
    user: config.verify,
    cwds: cwd === real ? [cwd] : [cwd, real],
    home: homedir(),
    project: project.entry,
    approval,
    trusted,
  });
  if (project.entry && choice.kind === "refused" && choice.why === "hidden-characters") {
    problems.push(`${projectFile(cwd)}: the command holds control, format or bidi characters; refused`);
  }
  return { choice, realDir: real, project: project.entry, approval, trusted, problems };
}

/** Approves the project's command for this real directory (replacing any earlier one for it). */
export function approve(real: string, command: string, now: string, path: string = approvalsPath()): void {
  const current = readApprovals(path);
  const others = current.approved.filter((entry) => entry.dir !== real);
  writeApprovals([...others, { dir: real, command, at: now }], path);
}

/** Removes this real directory's approvals; whether there were any. */
export function forget(real: string, path: string = approvalsPath()): boolean {
  const current = readApprovals(path);
  const others = current.approved.filter((entry) => entry.dir !== real);
  if (others.length === current.approved.length && current.problem === undefined) return false;
  writeApprovals(others, path);
  return others.length !== current.approved.length;
}
