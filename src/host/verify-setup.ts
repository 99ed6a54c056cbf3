/**
 * Where the verification command comes from (SPEC §8): the user's file, a project's
 * `<cwd>/.pi/todo-loop.json` whose exact command the person approved for this real directory, or
 * (0.5) the project's own check found in its files and approved as it is now. This gathers the facts —
 * the project file, the check found, the approvals, whether pi trusts the project — and the rule,
 * `chooseVerify()` in `core/verify.ts`, chooses.
 */
import { homedir } from "node:os";
import { parseVerify } from "../config.ts";
import type { Config, VerifyEntry } from "../core/types.ts";
import { chooseVerify, pinHidesCharacters } from "../core/verify.ts";
import type { VerifyChoice } from "../core/verify.ts";
import { foundApproval, isNever } from "../core/project-check.ts";
import type { PinnedCheck } from "../core/project-check.ts";
import { approvalsPath, projectFile, readApprovals, realDir } from "../io/approvals.ts";
import type { Approvals } from "../io/approvals.ts";
import { fileCache } from "../io/files.ts";
import type { FileRead } from "../io/files.ts";
import { findProjectCheck } from "../io/project-check.ts";

/** What a project's `.pi/todo-loop.json` proposes: `verify` only; any other key is a problem, ignored. */
export interface ProjectVerify {
  readonly entry: Omit<VerifyEntry, "dir"> | undefined;
  readonly problems: readonly string[];
}

const readProject = fileCache((read: FileRead, path: string): ProjectVerify => {
  if (read.kind === "missing") return { entry: undefined, problems: [] };
  if (read.kind === "problem") return { entry: undefined, problems: [`${path}: ${read.why}; no project command`] };
  let raw: unknown;
  try {
    raw = JSON.parse(read.text.replace(/^\uFEFF/, ""));
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
});

/**
 * The project file of `cwd`, parsed again only when it changed (`fileCache`): every `turn_end` asks.
 * `off`: the user's config says `"verify": false`, so a proposed command is ignored, said as a problem (0.5).
 */
export function readProjectVerify(cwd: string, off = false): ProjectVerify {
  const read = readProject(projectFile(cwd));
  if (!off || !read.entry) return read;
  return { entry: undefined, problems: [...read.problems, `${projectFile(cwd)}: its verify is ignored: "verify": false in your config`] };
}

/** Everything known about verification in this directory: the choice, and what `/todoloop` shows. */
export interface VerifySetup {
  readonly choice: VerifyChoice;
  readonly realDir: string;
  readonly project: Omit<VerifyEntry, "dir"> | undefined;
  readonly approval: "approved" | "changed" | "none";
  readonly trusted: boolean;
  readonly problems: readonly string[];
  /** The check found in the project's files, when it was looked for (0.5). */
  readonly found: PinnedCheck | undefined;
  /** Files of the project passed over while looking for its check (0.5), for `/todoloop verify`. */
  readonly skipped: readonly { readonly file: string; readonly why: string }[];
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
  if (config.verifyOff === true) return { choice: { kind: "none" }, realDir: real, project: undefined, approval: "none", trusted: true, problems: [], found: undefined, skipped: [] };
  const project = readProjectVerify(cwd);
  const problems = [...project.problems];
  let approvals: Approvals | undefined;
  const mine = (): Approvals["approved"] => {
    if (approvals === undefined) {
      approvals = readApprovals(path);
      if (approvals.problem) problems.push(approvals.problem);
    }
    return approvals.approved.filter((entry) => entry.dir === real);
  };
  let approval: VerifySetup["approval"] = "none";
  if (project.entry) {
    const commands = mine().filter((entry) => !isNever(entry));
    if (commands.some((entry) => !isNever(entry) && entry.command === project.entry?.command)) approval = "approved";
    else if (commands.length > 0) approval = "changed";
  }
  const trusted = trustedOf(isProjectTrusted);
  let skipped: VerifySetup["skipped"] = [];
  let check: PinnedCheck | undefined;
  const choice = chooseVerify({
    user: config.verify,
    cwds: cwd === real ? [cwd] : [cwd, real],
    home: homedir(),
    project: project.entry,
    approval,
    trusted,
    found: () => {
      const found = findProjectCheck(cwd);
      skipped = found.skipped;
      check = found.check;
      return found.check && { check: found.check, approval: foundApproval(mine(), found.check), hidden: pinHidesCharacters(found.check.pinned) };
    },
  });
  if (project.entry && choice.kind === "refused" && choice.why === "hidden-characters") {
    problems.push(`${projectFile(cwd)}: the command holds control, format or bidi characters; refused`);
  }
  return { choice, realDir: real, project: project.entry, approval, trusted, problems, found: check, skipped };
}
