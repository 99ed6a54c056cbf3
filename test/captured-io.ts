/**
 * The process-wide things the extension writes to (stdout, stderr, the exit status), captured for a unit
 * test instead of reaching the test runner's own streams: a terminal notification or a headless stop line
 * written by a test would otherwise land on the developer's terminal (and a terminal that honours OSC 777
 * pops a desktop notification). The notify command still runs for real.
 *
 *   todoLoop(pi, ioOf(pi))         the extension on a fake pi, its writes kept in ioOf(pi)
 */
import { runCommand } from "../src/io/notify.ts";
import type { ReachIo } from "../src/io/notify.ts";

export interface CapturedIo extends ReachIo {
  /** Every terminal write (notification escape sequences), in order. */
  readonly terminal: string[];
  /** Every stderr line (headless stop lines, config problems without a UI), in order, without the newline. */
  readonly stderr: string[];
  /** The exit status the extension set last; undefined when it set none. */
  exitCode: number | undefined;
}

/** A fresh capture; `env` is what the terminal rule reads (default: a plain terminal). */
export function capturedIo(env: ReachIo["env"] = {}): CapturedIo {
  const io: CapturedIo = {
    env,
    terminal: [],
    stderr: [],
    exitCode: undefined,
    writeTerminal: (bytes) => void io.terminal.push(bytes),
    writeStderr: (line) => void io.stderr.push(line),
    setExitCode(code) {
      io.exitCode = code;
    },
    getExitCode: () => io.exitCode,
    run: runCommand,
    memo: { lastProblems: undefined },
  };
  return io;
}

const perHost = new WeakMap<object, CapturedIo>();

/** The capture of one fake host, made on first use: one host is one process, so a `/reload` on it shares the memo. */
export function ioOf(host: object): CapturedIo {
  let io = perHost.get(host);
  if (io === undefined) {
    io = capturedIo();
    perHost.set(host, io);
  }
  return io;
}
