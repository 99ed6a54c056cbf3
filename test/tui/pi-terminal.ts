/**
 * pi's interactive mode in a real terminal, for the terminal suite and `npm run screenshot`: the real
 * `pi` CLI with the scripted model, rpiv-todo and this package, started exactly as the end-to-end
 * harness starts it (its sandbox and arguments), in a tmux window of its own (tmux.ts), plus readers
 * for what a person sees there: the footer's status row, the transcript rows, the prompt still on screen.
 */
import assert from "node:assert/strict";
import { baseArgs, extensionArgs, PI_CLI } from "../e2e/harness.ts";
import type { Sandbox } from "../e2e/harness.ts";
import { startTerminal } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

/** A tall window: the TUI keeps no scrollback, so whatever scrolls off the top is gone for good. */
export const WIDTH = 140;
export const HEIGHT = 90;

/**
 * pi settings for terminal runs: no start-up header (rows are scarce), and no automatic retry of a
 * scripted provider error (a retry would consume the next scripted step).
 */
export const TERMINAL_SETTINGS = { quietStartup: true, retry: { enabled: false } };

/** The model row of pi's footer ends with the model's id. */
const MODEL_ROW = /faux-1\s*$/;

export interface PiTerminalOptions {
  /** Extra pi arguments after the harness's (e.g. `["-c"]` to resume the newest session). */
  readonly args?: readonly string[];
  readonly width?: number;
  readonly height?: number;
  /** Extra environment over the sandbox's. */
  readonly env?: Readonly<Record<string, string>>;
  /** The todo tool to load (`extensionArgs`' `todo`): default rpiv-todo, `null` for none. */
  readonly todo?: string | null;
}

/** Starts interactive pi in the sandbox and resolves once its footer shows the model (ready for input). */
export async function startPi(box: Sandbox, options: PiTerminalOptions = {}): Promise<Terminal> {
  const terminal = startTerminal({
    command: [process.execPath, PI_CLI, ...extensionArgs([], { todo: options.todo }), ...baseArgs(box), ...(options.args ?? [])],
    cwd: box.cwd,
    env: { ...box.env, ...options.env },
    width: options.width ?? WIDTH,
    height: options.height ?? HEIGHT,
  });
  try {
    await terminal.waitFor((screen) => screen.split("\n").some((row) => MODEL_ROW.test(row)), 30_000, "pi's footer with the model faux-1");
  } catch (error) {
    terminal.stop();
    throw error;
  }
  return terminal;
}

/** Types a line into pi's editor and presses Enter. */
export function submit(terminal: Terminal, text: string): void {
  terminal.type(text);
  terminal.keys("Enter");
}

/**
 * Empties pi's editor and closes an open completion list (Enter would pick from it). Ctrl+C does both;
 * Escape would not do here: sent right before another key, pi reads the pair as one Alt-key.
 */
export function clearEditor(terminal: Terminal): void {
  terminal.keys("C-c");
}

/** Ends pi with `/quit` and waits for it to exit. */
export async function quit(terminal: Terminal): Promise<void> {
  clearEditor(terminal);
  submit(terminal, "/quit");
  await terminal.waitForExit(10_000);
}

/** The rows of a screen. */
export function rows(screen: string): string[] {
  return screen.split("\n");
}

/** The footer's extension status row: what pi draws below the row with the model ("" when none). */
export function statusRow(screen: string): string {
  const lines = rows(screen);
  let model = -1;
  lines.forEach((row, index) => {
    if (MODEL_ROW.test(row)) model = index;
  });
  assert.ok(model >= 0, `no footer row with the model on the screen:\n${screen}`);
  return lines.slice(model + 1).join(" ").trim();
}

/** The rows whose text (after pi's one-column pad) starts with `prefix`, trimmed. */
export function rowsStartingWith(screen: string, prefix: string): string[] {
  return rows(screen).map((row) => row.trim()).filter((row) => row.startsWith(prefix));
}

/** How many rows hold `text`. */
export function countRows(screen: string, text: string): number {
  return rows(screen).filter((row) => row.includes(text)).length;
}

/**
 * Fails loudly unless `text` (the first prompt of the scenario) is still on the visible screen: the TUI
 * keeps no scrollback, so a scenario taller than the window would silently lose its first rows.
 */
export function assertOnScreen(screen: string, text: string): void {
  assert.ok(
    rows(screen).some((row) => row.includes(text)),
    `"${text}" scrolled off the top of the ${HEIGHT}-row window (the TUI keeps no scrollback): make the window taller or the scenario shorter. The screen:\n${screen}`,
  );
}
