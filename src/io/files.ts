/**
 * Reading the files a person or a repository controls (SPEC §10): only a regular file is read, and at
 * most 1 MiB of it. A FIFO, a device such as `/dev/stdin` or `/dev/zero`, a socket or a directory —
 * directly or through a link — is a problem line, never an open that waits or a read that never ends.
 * The file is opened without blocking and checked on the open descriptor, so it cannot be swapped
 * between the check and the read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";

/** The most this extension reads of any one file. */
export const MAX_FILE_BYTES = 1024 * 1024;

export type FileRead =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "problem"; readonly why: string };

export type BytesRead =
  | { readonly kind: "bytes"; readonly bytes: Buffer }
  | { readonly kind: "missing" }
  | { readonly kind: "problem"; readonly why: string };

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code: unknown = Reflect.get(error, "code");
  return typeof code === "string" ? code : undefined;
}

function whatItIs(stats: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** Reads a regular file as UTF-8 (at most `maxBytes`); a missing file is `missing`, anything else wrong a `problem`. */
export function readRegularFile(path: string, maxBytes: number = MAX_FILE_BYTES): FileRead {
  const read = readRegularBytes(path, maxBytes);
  return read.kind === "bytes" ? { kind: "text", text: read.bytes.toString("utf8") } : read;
}

/** Whether a regular file is there (through links); never opens it, so a FIFO cannot make it wait. */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Reads a regular file's bytes (at most `maxBytes`), under the same rule as `readRegularFile`. */
export function readRegularBytes(path: string, maxBytes: number = MAX_FILE_BYTES): BytesRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "problem", why: `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})` };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { kind: "problem", why: `is ${whatItIs(stats)}, not a regular file; not read` };
    if (stats.size > maxBytes) return { kind: "problem", why: `is larger than ${maxBytes === MAX_FILE_BYTES ? "1 MiB" : `${maxBytes} bytes`}; not read` };
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    // The file grew past the cap between the size check and the read.
    if (length > maxBytes) return { kind: "problem", why: `is larger than ${maxBytes === MAX_FILE_BYTES ? "1 MiB" : `${maxBytes} bytes`}; not read` };
    return { kind: "bytes", bytes: buffer.subarray(0, length) };
  } catch (error) {
    return { kind: "problem", why: `cannot be read (${errorCode(error) ?? (error instanceof Error ? error.message : String(error))})` };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing to release.
    }
  }
}

/**
 * How long ago a file must have last changed for a read of it to be kept: a file changed this close to
 * its read could change again within the same tick of a coarse file-system clock, unseen by `stat`.
 */
export const SETTLED_MS = 2_000;

/** A path where `stat` finds nothing: its read is `missing` until `stat` finds a file there. */
const MISSING = { key: "missing", changedMs: 0 } as const;

/**
 * The file's identity and last change (device, inode, size, mtime and ctime), `MISSING` when there is
 * nothing at the path, or undefined when it is not a regular file or cannot be looked at.
 */
function identityOf(path: string): { readonly key: string; readonly changedMs: number } | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return MISSING;
    if (!stats.isFile()) return undefined;
    return { key: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`, changedMs: stats.ctimeMs };
  } catch {
    return undefined;
  }
}

/**
 * `parse(readRegularFile(path), path)`, read again whenever the file may have changed: a read is kept by
 * path with the file's identity and last change from `stat` (any write, rename over it, `touch` or
 * `chmod` changes the ctime), and only once that change is `SETTLED_MS` older than the read, so no write
 * can hide in the tick of the change before it. A missing file is kept as missing until `stat` finds
 * one there; anything else that is not a regular file (a FIFO, a device) is read every time. `now` is the clock the reads are timed by.
 */
export function fileCache<T>(parse: (read: FileRead, path: string) => T, now: () => number = Date.now, size = 16): (path: string) => T {
  const kept = new Map<string, { readonly key: string; readonly value: T }>();
  return (path) => {
    const identity = identityOf(path);
    const hit = identity === undefined ? undefined : kept.get(path);
    if (identity !== undefined && hit?.key === identity.key) return hit.value;
    const readAt = now();
    // Nothing there: the read is `missing` without opening anything (a file put there later has another identity).
    const value = parse(identity === MISSING ? { kind: "missing" } : readRegularFile(path), path);
    kept.delete(path);
    if (identity !== undefined && identity.changedMs < readAt - SETTLED_MS) {
      kept.set(path, { key: identity.key, value });
      if (kept.size > size) kept.delete(kept.keys().next().value ?? path);
    }
    return value;
  };
}
