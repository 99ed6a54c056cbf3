// Proves in the real terminal that project files linked to the terminal itself cannot freeze pi.
/**
 * A cloned repository cannot freeze pi (SPEC §10, 0.4): with `.pi/tasks-config.json` and
 * `.pi/todo-loop.json` linked to /dev/stdin — the terminal itself — the real `pi` under tmux starts,
 * runs the loop to a stop, answers `/todoloop` with the problem line, and the person's keys still reach
 * the editor (nothing reads the terminal behind pi's back).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { sandbox, say } from "../e2e/harness.ts";
import type { ScriptStep } from "../e2e/harness.ts";
import { TINTINWEB_TASKS } from "../e2e/stand-ins/paths.ts";
import { clearEditor, quit, rows, startPi, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";

const TASKS = ["Write the parser", "Write the tests"];
const SCRIPT: ScriptStep[] = [
  { text: "Planning.", calls: [{ name: "TaskCreateMany", args: { tasks: TASKS.map((subject) => ({ subject, description: subject })) } }] },
  say("Plan made; stopping here."),
  { text: "Finishing.", calls: ["1", "2"].map((taskId) => ({ name: "TaskUpdate", args: { taskId, status: "completed" } })) },
  say("All done."),
];

test("project files linked to /dev/stdin: pi starts, the loop runs to its stop, /todoloop names the problem, and typed keys still reach the editor", { timeout: 90_000 }, async (t) => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  const box = sandbox({ script: SCRIPT, settings: TERMINAL_SETTINGS });
  mkdirSync(join(box.cwd, ".pi"), { recursive: true });
  symlinkSync("/dev/stdin", join(box.cwd, ".pi", "tasks-config.json"));
  symlinkSync("/dev/stdin", join(box.cwd, ".pi", "todo-loop.json"));
  // pi-tasks active: its config file is one this extension reads to find the task file.
  const terminal = await startPi(box, { todo: TINTINWEB_TASKS });
  try {
    submit(terminal, "Do the work");
    const stopped = await terminal.waitFor(/■ todo loop stopped: list is clear/, 30_000, "the clear stop line");
    assert.ok(rows(stopped).some((row) => row.includes("↻ todo loop: continue 1")), stopped);

    terminal.type("these keys reach the editor");
    await terminal.waitFor(/these keys reach the editor/, 5000, "the typed keys in the editor");
    clearEditor(terminal);

    submit(terminal, "/todoloop");
    const status = await terminal.waitFor(/config problem: .*todo-loop\.json: is a device, not a regular file; not read/, 10_000, "the problem line in /todoloop");
    t.diagnostic(rows(status).filter((row) => row.includes("config problem")).map((row) => row.trim()).join("\n"));
    await quit(terminal);
  } finally {
    terminal.stop();
    box.cleanup();
  }
});
