// Proves in the real terminal that pi's startup list names the extension pi-todo-loop.
/**
 * pi's startup list names the extension `pi-todo-loop` (not `src`) in the real terminal, for a package
 * installed from a clone with `pi install ./pi-todo-loop` (pi names an extension after its entry's folder).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { baseArgs, PACKAGE_ROOT, PI_CLI, sandbox, SCRIPTED_MODEL, say } from "../e2e/harness.ts";
import type { Sandbox } from "../e2e/harness.ts";
import { quit, WIDTH, HEIGHT } from "./pi-terminal.ts";
import { startTerminal, tmuxAvailable } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

let box: Sandbox | undefined;
let terminal: Terminal | undefined;

after(() => {
  terminal?.stop();
  box?.cleanup();
});

/** The rows under pi's `[Extensions]` heading, up to the next blank row. */
function extensionRows(screen: string): string[] {
  const rows = screen.split("\n");
  const start = rows.findIndex((row) => row.trim() === "[Extensions]");
  if (start < 0) return [];
  const out: string[] = [];
  for (const row of rows.slice(start + 1)) {
    if (row.trim() === "") break;
    out.push(row.trim());
  }
  return out;
}

test("the startup list names the extension pi-todo-loop, installed from a clone folder", { timeout: 90_000 }, async () => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  box = sandbox({ script: [say("Hello.")], settings: { quietStartup: false } });
  const clone = join(box.root, "pi-todo-loop");
  mkdirSync(clone);
  for (const name of ["index.ts", "src", "package.json"]) cpSync(join(PACKAGE_ROOT, name), join(clone, name), { recursive: true });
  const install = spawnSync(process.execPath, [PI_CLI, "install", "./pi-todo-loop"], { cwd: box.root, env: box.env, encoding: "utf8", timeout: 60_000 });
  assert.equal(install.status, 0, `pi install: ${install.stdout}${install.stderr}`);
  terminal = startTerminal({
    command: [process.execPath, PI_CLI, "-e", SCRIPTED_MODEL, ...baseArgs(box)],
    cwd: box.cwd,
    env: box.env,
    width: WIDTH,
    height: HEIGHT,
  });
  const screen = await terminal.waitFor((text) => extensionRows(text).length > 0 && /faux-1\s*$/m.test(text), 30_000, "the [Extensions] list");
  const listed = extensionRows(screen).join(" ");
  assert.match(listed, /(^|[\s,])pi-todo-loop([\s,]|$)/, `the list: ${listed}`);
  assert.doesNotMatch(listed, /(^|[\s,])src([\s,]|$)/, `the list: ${listed}`);
  await quit(terminal);
});
