/**
 * Runs a verification command (SPEC §4.16 "How"): `/bin/sh -c <command>` in its own process group,
 * stdin closed, `NO_COLOR=1 FORCE_COLOR=0`, keeping only the tail of the combined output as it streams.
 * When the shell exits the group is signalled and the pipes closed, so a background child holding
 * stdout cannot hang the run. On timeout, abort or `killAllVerifications()` the group gets SIGTERM, then
 * SIGKILL after 2 s. The group is tracked (`groups.ts`) until it is empty, so session shutdown and pi's
 * exit end it too, even when pi exits before the 2 s (a passing check that left a child behind in `-p`).
 * It reports what happened; it decides nothing.
 */
import { spawn } from "node:child_process";
import type { VerifyResult } from "../core/verify.ts";
import { forgetGroup, groupAlive, signalGroup, trackGroup } from "./groups.ts";

/** Bytes of output kept (the newest); the model sees far less, after cleaning. */
export const TAIL_BYTES = 64 * 1024;
const KILL_AFTER_MS = 2000;

export interface RunOptions {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly env?: NodeJS.ProcessEnv;
  /** How many bytes of the output's tail to keep; default TAIL_BYTES. */
  readonly tailBytes?: number;
}

/** Groups still running, for session shutdown. */
const running = new Set<() => void>();

/** Ends every verification this process is running (session shutdown). */
export function killAllVerifications(): void {
  for (const kill of [...running]) kill();
}

/** Keeps the newest `limit` bytes of a stream of chunks. */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly limit: number;
  truncated = false;
  constructor(limit: number) {
    this.limit = limit;
  }
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 0) {
      const first = this.chunks[0] as Buffer;
      const over = this.size - this.limit;
      this.truncated = true;
      if (first.length <= over) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(over);
        this.size -= over;
      }
    }
  }
  /** Bytes held now (bounded by the limit plus nothing). */
  get held(): number {
    return this.size;
  }
  text(): string {
    const text = Buffer.concat(this.chunks).toString("utf8");
    // A cut tail starts mid-line (maybe mid-character): drop that partial line.
    if (!this.truncated) return text;
    const start = text.indexOf("\n");
    return start >= 0 ? text.slice(start + 1) : text;
  }
}

/** Runs the command to its end, its limit or an abort; never rejects. */
export function runVerification(options: RunOptions): Promise<VerifyResult> {
  const started = Date.now();
  const tail = new Tail(Math.max(1024, Math.floor(options.tailBytes ?? TAIL_BYTES)));
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let finished = false;
    let killTimer: NodeJS.Timeout | undefined;
    let child: ReturnType<typeof spawn>;
    const seconds = (): number => Math.round((Date.now() - started) / 100) / 10;
    const finish = (result: Omit<VerifyResult, "seconds" | "tail" | "timedOut" | "aborted">): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      running.delete(stopGroup);
      resolve({ ...result, tail: tail.text(), seconds: seconds(), timedOut, aborted });
    };
    const stopGroup = (): void => {
      signalGroup(child?.pid, "SIGTERM");
      if (killTimer === undefined) {
        killTimer = setTimeout(() => {
          signalGroup(child?.pid, "SIGKILL");
          forgetGroup(child?.pid);
        }, KILL_AFTER_MS);
        killTimer.unref();
      }
    };
    const onAbort = (): void => {
      if (finished) return;
      aborted = true;
      stopGroup();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup();
    }, Math.max(1, options.timeoutMs));
    timer.unref();
    try {
      child = spawn("/bin/sh", ["-c", options.command], {
        cwd: options.cwd,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...(options.env ?? process.env), NO_COLOR: "1", FORCE_COLOR: "0" },
      });
    } catch (error) {
      finish({ exit: null, signal: null, error: error instanceof Error ? error.message : String(error) });
      return;
    }
    running.add(stopGroup);
    trackGroup(child.pid);
    child.stdout?.on("data", (chunk: Buffer) => tail.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => tail.push(chunk));
    child.on("error", (error) => {
      finish({ exit: null, signal: null, error: error.message });
    });
    child.on("exit", (code, signal) => {
      // The shell is done: whatever it left behind in its group goes too, and its pipes are closed.
      signalGroup(child.pid, "SIGTERM");
      if (child.pid !== undefined && !groupAlive(child.pid)) forgetGroup(child.pid);
      else {
        // A member that ignores SIGTERM: SIGKILL in 2 s, or at pi's exit if that comes first.
        const later = setTimeout(() => {
          signalGroup(child.pid, "SIGKILL");
          forgetGroup(child.pid);
        }, KILL_AFTER_MS);
        later.unref();
      }
      // Output already buffered in the pipes arrives before 'close'; wait for it a moment, not for a child holding them.
      const close = (): void => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish({ exit: code, signal, error: undefined });
      };
      const grace = setTimeout(close, 100);
      grace.unref();
      child.once("close", () => {
        clearTimeout(grace);
        close();
      });
    });
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
