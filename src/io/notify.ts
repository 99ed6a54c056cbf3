/**
 * The effects of reaching a person who walked away (SPEC §7.1, §8 "Never silent"), one job each: the
 * terminal's desktop notification (TUI only), the `notifyCommand` hook (no shell, its process group
 * killed at 10 s), the `todo-loop:stop` event, the print/JSON summary line and exit status, and the
 * once-only announcement of config problems. What happens for which stop is `reach.ts`'s rule.
 */
import { spawn } from "node:child_process";
import { forgetGroup, groupAlive, signalGroup, trackGroup } from "./groups.ts";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Config } from "../core/types.ts";
import type { Reason, StopRecord } from "../core/types.ts";
import { stopKind } from "../core/stops.ts";
import type { ContextLike, PiLike } from "../core/pi-shapes.ts";
import { DETAIL_CHARS, exitStatus, handOverOf, headless, notificationBody, planReach, STOP_EVENT, terminalSequence } from "../core/reach-plan.ts";
import type { StopFacts, StopPayload, TerminalEnv } from "../core/reach-plan.ts";
import { configProblemText, headlessLine, hookFailureText, reachText, sanitize, stopDetail, stopHeadline, stopLead } from "../core/text.ts";

/** How long a notify command may run, in any mode. */
export const COMMAND_LIMIT_MS = 10_000;

/** How a run ended at `agent_settled`: the stop it ended on (announced now or before), and the record written now. */
export interface SettledRun {
  readonly ended: Reason | undefined;
  /** The stop record appended at this settle; undefined when nothing new was announced. */
  readonly record: StopRecord | undefined;
  /** Tasks on the list as last read. */
  readonly total: number;
}

/** The process-wide things the effects touch, replaceable in tests. */
export interface ReachIo {
  readonly env: TerminalEnv;
  writeTerminal(bytes: string): void;
  writeStderr(line: string): void;
  setExitCode(code: number): void;
  getExitCode(): number | string | null | undefined;
  /** Starts `argv` with `payload` as its last argument and on stdin; resolves with why it failed, or undefined. */
  run(argv: readonly string[], payload: string, cwd: string, limitMs: number): Promise<string | undefined>;
  /** The config problems announced last in this process (kept across a `/reload`). */
  readonly memo: { lastProblems: string | undefined; lastProject?: string | undefined };
}

export interface Reach {
  /** A run settled: its stop reaches the person by the config and the mode; resolves once an awaited hook is done. */
  settled(ctx: ContextLike, config: Config, run: SettledRun): Promise<void>;
  /** Announces config problems once per distinct set (a warning notify, or stderr in print/JSON mode). */
  problems(ctx: ContextLike, file: string, problems: readonly string[]): void;
  /** The same for the project's `.pi/todo-loop.json` (SPEC §8, 0.4: its ignored keys are announced too), remembered apart. */
  projectProblems(ctx: ContextLike, file: string, problems: readonly string[]): void;
  /** The `/todoloop` line about the notify command's last failure, until it runs fine again. */
  statusLine(): string | undefined;
}

const MEMO_KEY = Symbol.for("pi-todo-loop.reach");

function processMemo(): { lastProblems: string | undefined } {
  const holder = globalThis as { [MEMO_KEY]?: { lastProblems: string | undefined } };
  holder[MEMO_KEY] ??= { lastProblems: undefined };
  return holder[MEMO_KEY];
}

/** A notify command's group at its limit: SIGKILL, and no longer tracked. */
function killGroup(pid: number): void {
  signalGroup(pid, "SIGKILL");
  forgetGroup(pid);
}

/**
 * Runs a notify command without a shell, in a process group of its own, the payload as its last
 * argument and on stdin, its output discarded (it must never draw into the TUI or the RPC stream).
 * Resolves when it exits or at the limit, when its whole group is killed (also anything it left
 * running). Never rejects.
 */
export function runCommand(argv: readonly string[], payload: string, cwd: string, limitMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const [named, ...args] = argv;
    if (named === undefined) return resolve("has no program");
    // `~/…` is the person's home (SPEC §8); a relative path never gets here (config.ts refuses it).
    const program = named.startsWith("~/") ? join(homedir(), named.slice(2)) : named;
    let done = false;
    const finish = (failure: string | undefined): void => {
      if (done) return;
      done = true;
      resolve(failure);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(program, [...args, payload], { cwd, detached: true, stdio: ["pipe", "ignore", "ignore"] });
    } catch (error) {
      return finish(`could not start (${error instanceof Error ? error.message : String(error)})`);
    }
    const pid = child.pid;
    // Tracked until it is empty: session shutdown and pi's exit kill it too (groups.ts).
    trackGroup(pid);
    const timer = setTimeout(() => {
      if (pid !== undefined) killGroup(pid);
      finish(`was stopped after ${Math.round(limitMs / 1000)} s`);
    }, limitMs);
    timer.unref();
    child.on("error", (error) => {
      clearTimeout(timer);
      forgetGroup(pid);
      finish(`could not start (${error.message})`);
    });
    child.on("exit", (code, signal) => {
      // Whatever it left behind in its group is killed at the limit; an empty group is forgotten now.
      if (pid !== undefined && !groupAlive(pid)) {
        clearTimeout(timer);
        forgetGroup(pid);
      }
      finish(code === 0 ? undefined : signal ? `was ended by ${signal}` : `exited with status ${code}`);
    });
    child.stdin?.on("error", () => {
      // A command that does not read its stdin closes it: fine.
    });
    child.stdin?.end(`${payload}\n`);
  });
}

export const processIo: ReachIo = {
  env: process.env,
  writeTerminal: (bytes) => void process.stdout.write(bytes),
  writeStderr: (line) => void process.stderr.write(`${line}\n`),
  setExitCode(code) {
    process.exitCode = code;
  },
  getExitCode: () => process.exitCode,
  run: runCommand,
  get memo() {
    return processMemo();
  },
};

function stopFacts(reason: Reason): StopFacts | undefined {
  const facts = kindFacts(reason);
  // A later usage-limit wait under the same message notifies nothing (SPEC §4.20).
  return facts && reason.kind === "limit-wait" && reason.state === "waiting" && !reason.first ? { ...facts, laterWait: true } : facts;
}

function kindFacts(reason: Reason): StopFacts | undefined {
  const kind = stopKind(reason);
  if (kind === undefined) return undefined;
  const aborted = (reason.kind === "outcome" && reason.outcome === "aborted") || (reason.kind === "verify-error" && reason.why === "aborted");
  return { kind, aborted, verified: reason.kind === "verified", handsOver: handOverOf(reason) !== undefined };
}

function sessionOf(ctx: ContextLike): { sessionId: string; sessionFile: string | null } {
  let sessionId = "";
  let sessionFile: string | null = null;
  try {
    sessionId = ctx.sessionManager.getSessionId?.() ?? "";
  } catch {
    sessionId = "";
  }
  try {
    sessionFile = ctx.sessionManager.getSessionFile?.() ?? null;
  } catch {
    sessionFile = null;
  }
  return { sessionId, sessionFile };
}

/**
 * `quiet(ctx)`: the session is a quiet child (SPEC §4.18) — it reaches nobody but its event bus: no exit
 * status, no stderr line (config problems included), no command, no terminal bytes.
 */
export function createReach(pi: PiLike, io: ReachIo = processIo, quiet: (ctx: ContextLike) => boolean = () => false): Reach {
  let hookFailure: string | undefined;
  /** The exit status this loop set, so that a later run can undo it (the last run decides). */
  let exitSet: number | undefined;

  function applyExit(ended: StopFacts | undefined, config: Config, ctx: ContextLike, hushed: boolean): void {
    const status = exitStatus(ended, config, ctx.mode, hushed);
    if (status === undefined) return;
    if (status !== null) {
      io.setExitCode(status);
      exitSet = status;
    } else if (exitSet !== undefined) {
      if (io.getExitCode() === exitSet) io.setExitCode(0);
      exitSet = undefined;
    }
  }

  async function hook(argv: readonly string[], payload: StopPayload, ctx: ContextLike): Promise<void> {
    const why = await io.run(argv, JSON.stringify(payload), ctx.cwd, COMMAND_LIMIT_MS);
    hookFailure = why === undefined ? undefined : hookFailureText(argv[0] ?? "", why);
  }

  function quietIn(ctx: ContextLike): boolean {
    try {
      return quiet(ctx);
    } catch {
      return false;
    }
  }

  /** A config file's problems where the person sees them: one warning notify, or a stderr line each headless. */
  function showProblems(ctx: ContextLike, file: string, problems: readonly string[]): void {
    const lines = problems.map((problem) => configProblemText(file, problem));
    try {
      if (headless(ctx.mode) || !ctx.hasUI) for (const line of lines) io.writeStderr(line);
      else ctx.ui.notify(lines.join("\n"), "warning");
    } catch {
      // Shown in /todoloop either way.
    }
  }

  return {
    async settled(ctx, config, run) {
      const ended = run.ended && stopFacts(run.ended);
      const hushed = quietIn(ctx);
      try {
        applyExit(ended, config, ctx, hushed);
      } catch {
        // An exit status that cannot be set must not break the settle.
      }
      const { record, ended: reason } = run;
      if (!record || !reason || !ended) return;
      const plan = planReach(ended, config, ctx.mode, hushed);
      const payload: StopPayload = {
        v: 1,
        kind: record.kind,
        reason: stopHeadline(reason),
        detail: stopDetail(reason, DETAIL_CHARS),
        open: record.open,
        total: Math.max(run.total, record.open),
        round: record.round,
        needsYou: plan.needsYou,
        ...sessionOf(ctx),
        cwd: ctx.cwd,
      };
      const text = reachText(reason, payload.open, payload.total);
      try {
        pi.events?.emit(STOP_EVENT, payload);
      } catch {
        // A listener's failure is its own.
      }
      try {
        if (plan.terminal) io.writeTerminal(terminalSequence(notificationBody(stopLead(reason), text), io.env));
        if (plan.stderrLine) io.writeStderr(headlessLine(text));
      } catch {
        // A closed terminal or stream must not break the settle.
      }
      const argv = config.notifyCommand;
      if (plan.command === "none" || argv === null) return;
      const running = hook(argv, payload, ctx);
      if (plan.command === "await") await running;
      else void running;
    },

    problems(ctx, file, problems) {
      // A quiet child leaves the process's memo alone: its parent announces its own problems.
      if (quietIn(ctx)) return;
      const key = problems.join("\n");
      if (io.memo.lastProblems === key || (io.memo.lastProblems === undefined && key === "")) return;
      io.memo.lastProblems = key;
      if (problems.length === 0) return;
      showProblems(ctx, file, problems);
    },

    projectProblems(ctx, file, problems) {
      if (quietIn(ctx)) return;
      const key = `${file}\n${problems.join("\n")}`;
      if (io.memo.lastProject === key || (io.memo.lastProject === undefined && problems.length === 0)) return;
      io.memo.lastProject = key;
      if (problems.length === 0) return;
      showProblems(ctx, file, problems);
    },

    statusLine: () => hookFailure && sanitize(hookFailure, 300),
  };
}
