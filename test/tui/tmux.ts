/**
 * A small driver for a real terminal: one program in a tmux session on a tmux server of its own (a
 * private socket), so a test reads the screen a person would see and kills only what it started.
 *
 * `startTerminal()` starts the program; the returned `Terminal` types keys, reads the visible screen
 * (plain or with colours) and waits for text with bounded polling, never a fixed sleep. `stop()` kills
 * the private server and with it the program; it is idempotent and also runs when the process exits.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";

export interface TerminalOptions {
  /** The program and its arguments. */
  readonly command: readonly string[];
  readonly cwd: string;
  /** The whole environment of the program (nothing else is inherited but what tmux itself needs). */
  readonly env: Readonly<Record<string, string>>;
  readonly width?: number;
  readonly height?: number;
}

export interface Terminal {
  /** The private tmux socket name. */
  readonly socket: string;
  /** The visible screen as plain text, one string per row, trailing blanks trimmed. */
  screen(): string;
  /** The visible screen with its colour escape sequences (`capture-pane -e`). */
  screenAnsi(): string;
  /** Types literal text (no key names). */
  type(text: string): void;
  /** Sends tmux key names: "Enter", "Escape", "C-c", "Tab", … */
  keys(...names: string[]): void;
  /** Polls the screen until `match` holds; resolves with that screen, rejects with it after `timeoutMs`. */
  waitFor(match: RegExp | ((screen: string) => boolean), timeoutMs?: number, what?: string): Promise<string>;
  /** Whether the program is still running. */
  alive(): boolean;
  /** Polls until the program has exited; rejects with the screen after `timeoutMs`. */
  waitForExit(timeoutMs?: number): Promise<void>;
  stop(): void;
}

const POLL_MS = 50;
const live = new Set<string>();
let exitHook = false;

export function tmuxAvailable(): boolean {
  return spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
}

function tmux(socket: string, args: readonly string[], env?: Readonly<Record<string, string>>): string {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", env: env ? { ...env } : undefined, stdio: ["ignore", "pipe", "pipe"] });
}

/** Where tmux keeps a `-L` socket: `$TMUX_TMPDIR` (else /tmp) / `tmux-<uid>` / name. */
function socketPath(socket: string): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  return join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${uid}`, socket);
}

function killServer(socket: string): void {
  spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
  rmSync(socketPath(socket), { force: true });
  live.delete(socket);
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function startTerminal(options: TerminalOptions): Terminal {
  if (!exitHook) {
    exitHook = true;
    process.on("exit", () => {
      for (const socket of [...live]) killServer(socket);
    });
  }
  const socket = `todo-loop-${process.pid}-${randomBytes(4).toString("hex")}`;
  const env: Record<string, string> = { TERM: "xterm-256color", ...options.env };
  // The server starts with this environment, and the program inherits it from the server.
  tmux(socket, [
    "-f", "/dev/null",
    // Before the program starts: pi asks tmux for extended-keys at start-up and warns when it is off.
    "start-server", ";",
    "set-option", "-g", "extended-keys", "on", ";",
    "new-session", "-d", "-s", "main",
    "-x", String(options.width ?? 140), "-y", String(options.height ?? 90),
    "-c", options.cwd,
    options.command.map(quote).join(" "),
  ], env);
  live.add(socket);
  tmux(socket, ["set-option", "-g", "remain-on-exit", "on"]);
  let stopped = false;

  function capture(colours: boolean): string {
    const args = ["capture-pane", "-p", "-t", "main", ...(colours ? ["-e"] : [])];
    return tmux(socket, args)
      .split("\n")
      .map((line) => line.replace(/\s+$/, ""))
      .join("\n");
  }

  function alive(): boolean {
    if (stopped) return false;
    try {
      return tmux(socket, ["display-message", "-p", "-t", "main", "#{pane_dead}"]).trim() === "0";
    } catch {
      return false;
    }
  }

  return {
    socket,
    screen: () => capture(false),
    screenAnsi: () => capture(true),
    type(text) {
      tmux(socket, ["send-keys", "-t", "main", "-l", text]);
    },
    keys(...names) {
      tmux(socket, ["send-keys", "-t", "main", ...names]);
    },
    async waitFor(match, timeoutMs = 20_000, what) {
      const test = typeof match === "function" ? match : (screen: string) => match.test(screen);
      const deadline = Date.now() + timeoutMs;
      let screen = "";
      for (;;) {
        screen = stopped ? screen : capture(false);
        if (test(screen)) return screen;
        if (Date.now() > deadline || stopped) {
          throw new Error(`the terminal did not show ${what ?? String(match)} within ${timeoutMs} ms; the screen:\n${screen}`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    alive,
    async waitForExit(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (alive()) {
        if (Date.now() > deadline) throw new Error(`the program did not exit within ${timeoutMs} ms; the screen:\n${capture(false)}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    stop() {
      if (stopped) return;
      stopped = true;
      killServer(socket);
    },
  };
}
