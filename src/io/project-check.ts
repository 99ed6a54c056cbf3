/**
 * Reading a project's files for its own check (SPEC §4.16, 0.5): each file under §10's rule (a regular
 * file, at most 1 MiB, never an open that waits), the rule itself in `core/project-check.ts`, and the
 * sha256 of a file an approval pins whole, taken over its bytes as read.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { detectCheck } from "../core/project-check.ts";
import type { CheckFile, LockFile, PinnedCheck, ProjectFile } from "../core/project-check.ts";
import { isRegularFile, readRegularBytes } from "./files.ts";

export interface ProjectCheck {
  readonly check: PinnedCheck | undefined;
  readonly skipped: readonly { readonly file: string; readonly why: string }[];
}

/** The check found in `cwd`, with what an approval would pin now. Never throws. */
export function findProjectCheck(cwd: string): ProjectCheck {
  const bytes = new Map<CheckFile, Buffer>();
  const detection = detectCheck({
    read(name: CheckFile): ProjectFile {
      const read = readRegularBytes(join(cwd, name));
      if (read.kind === "missing") return { kind: "missing" };
      if (read.kind === "problem") return { kind: "skipped", why: read.why };
      bytes.set(name, read.bytes);
      return { kind: "text", text: read.bytes.toString("utf8") };
    },
    has(name: LockFile): boolean {
      return isRegularFile(join(cwd, name));
    },
  });
  const { found } = detection;
  if (!found) return { check: undefined, skipped: detection.skipped };
  const pinned = found.pin.kind === "text"
    ? { file: found.file, text: found.pin.text }
    : { file: found.file, sha256: createHash("sha256").update(bytes.get(found.file) ?? Buffer.alloc(0)).digest("hex") };
  return { check: { command: found.command, file: found.file, where: found.where, pinned }, skipped: detection.skipped };
}
