/**
 * The approvals file (SPEC §8): which project commands the person approved, for which real directory,
 * the way `direnv allow` works — for a check found in the project's files also the text it runs
 * (`pinned`), and "never for this directory" (0.5). It lives in `<agent dir>/todo-loop-approved.json`,
 * written atomically (temp file, rename) with mode 0600. What is chosen from it is
 * `host/verify-setup.ts`'s, `core/verify.ts`'s and `core/project-check.ts`'s business.
 */
import { chmodSync, realpathSync, renameSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readRegularFile } from "./files.ts";
import { agentDir } from "./paths.ts";
import type { ApprovalEntry, Pinned } from "../core/project-check.ts";

/** One entry: a command approved for a real directory (with what it pins, for a found check), or `{ dir, never: true, at }`. */
export type Approval = ApprovalEntry;

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
    const entry = typeof item === "object" && item !== null ? (item as { dir?: unknown; command?: unknown; at?: unknown; never?: unknown; pinned?: unknown }) : undefined;
    const at = typeof entry?.at === "string" ? entry.at : "";
    if (entry && typeof entry.dir === "string" && entry.never === true) {
      approved.push({ dir: entry.dir, never: true, at });
      continue;
    }
    if (!entry || typeof entry.dir !== "string" || typeof entry.command !== "string") {
      return { approved: [], problem: "the approvals file holds an entry without dir and command; no project command is approved" };
    }
    const pinned = pinnedOf(entry.pinned);
    if (pinned === null) return { approved: [], problem: "the approvals file holds a pinned that is not { file, text } or { file, sha256 }; no project command is approved" };
    approved.push(pinned === undefined ? { dir: entry.dir, command: entry.command, at } : { dir: entry.dir, command: entry.command, at, pinned });
  }
  return { approved, problem: undefined };
}

/** An entry's `pinned`: undefined when absent, null when malformed. */
function pinnedOf(raw: unknown): Pinned | undefined | null {
  if (raw === undefined) return undefined;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const { file, text, sha256 } = raw as { file?: unknown; text?: unknown; sha256?: unknown };
  if (typeof file !== "string") return null;
  if (typeof text === "string" && sha256 === undefined) return { file, text };
  if (typeof sha256 === "string" && /^[0-9a-f]{64}$/.test(sha256) && text === undefined) return { file, sha256 };
  return null;
}

export function readApprovals(path: string = approvalsPath()): Approvals {
  const read = readRegularFile(path);
  if (read.kind === "missing") return { approved: [], problem: undefined };
  if (read.kind === "problem") return { approved: [], problem: `the approvals file ${read.why}; no project command is approved` };
  return parseApprovals(read.text);
}

/** Writes the approvals atomically (a temp file beside it, then rename), readable by the owner only. */
export function writeApprovals(approved: readonly Approval[], path: string = approvalsPath()): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ v: 1, approved }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

/**
 * Approves the project's command for this real directory (replacing any earlier entry for it, a
 * `never` included); `pinned` is what a found check runs, as it is now. Returns why it refused, or
 * undefined once written: a file that exists but cannot be read or parsed holds other projects'
 * approvals, so it is never written over (SPEC §8, 0.4).
 */
export function approve(real: string, command: string, now: string, path: string = approvalsPath(), pinned?: Pinned): string | undefined {
  return replaceMine(real, pinned === undefined ? { dir: real, command, at: now } : { dir: real, command, at: now, pinned }, path);
}

/** Records "never for this directory" (0.5): no more offers of a found check here. Refuses like `approve`. */
export function never(real: string, now: string, path: string = approvalsPath()): string | undefined {
  return replaceMine(real, { dir: real, never: true, at: now }, path);
}

function replaceMine(real: string, entry: Approval, path: string): string | undefined {
  const current = readApprovals(path);
  if (current.problem !== undefined) return current.problem;
  const others = current.approved.filter((item) => item.dir !== real);
  writeApprovals([...others, entry], path);
  return undefined;
}

/**
 * Removes this real directory's entries (a `never` included); whether there were any. An approvals file that cannot be read
 * is never written over (it holds other projects' approvals): nothing is removed.
 */
export function forget(real: string, path: string = approvalsPath()): boolean {
  const current = readApprovals(path);
  if (current.problem !== undefined) return false;
  const others = current.approved.filter((entry) => entry.dir !== real);
  if (others.length === current.approved.length) return false;
  writeApprovals(others, path);
  return true;
}

/** What the person is told when `approve` or `forget` refuse to write over an approvals file they cannot read. */
export function refusedText(path: string, problem: string): string {
  return `${path}: ${problem.replace(/; no project command is approved$/, "")}. It holds the approvals of every project, so it is not written over: fix or move it, then try again`;
}
