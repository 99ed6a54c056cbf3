/**
 * End-to-end harness: runs the REAL pi CLI with the real @juicesharp/rpiv-todo, this package, and the
 * scripted model (scripted-model.ts) in an isolated home, and returns what happened — every request the
 * model received, the session entries, notifications — plus the checks every scenario must pass.
 *
 * PI_TODO_LOOP_PI_ROOT selects another pi install (a node_modules folder) for the compatibility matrix.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import type { ScriptStep } from "./scripted-model.ts";

export type { ScriptStep };

export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The node_modules folder holding pi and rpiv-todo. */
export const MODULES = process.env.PI_TODO_LOOP_PI_ROOT ?? join(PACKAGE_ROOT, "node_modules");
export const PI_PACKAGE = join(MODULES, "@earendil-works", "pi-coding-agent");
export const PI_CLI = join(PI_PACKAGE, "dist", "bundle", "cli.js");
export const RPIV_TODO = join(MODULES, "@juicesharp", "rpiv-todo");
export const SCRIPTED_MODEL = join(PACKAGE_ROOT, "test", "e2e", "scripted-model.ts");
export const MARKER_TYPE = "todo-loop:continue";
export const STOP_TYPE = "todo-loop:stop";

/** The nudge sentences start with this; a user-role request message that does is a marker. */
export const NUDGE_PREFIX = "Continue with the open tasks on your todo list.";

export interface RequestMessage {
  role: string;
  content: unknown;
}
export interface LoggedRequest {
  step: number;
  messages: RequestMessage[];
}

export interface Sandbox {
  root: string;
  home: string;
  agentDir: string;
  cwd: string;
  sessionDir: string;
  scriptPath: string;
  requestsPath: string;
  env: Record<string, string>;
  cleanup(): void;
}

export interface SandboxOptions {
  script: ScriptStep[];
  /** Written to <agent dir>/todo-loop.json: an object is JSON-encoded, a string is written as is. */
  config?: unknown;
  /** Extra files relative to the sandbox root (e.g. "home/agent/todo-loop-off"). */
  files?: Record<string, string>;
}

/** A fresh isolated pi home: HOME, agent dir, XDG config, TMPDIR, session dir, offline flags. */
export function sandbox(options: SandboxOptions): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "todo-loop-e2e-"));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const cwd = join(root, "work");
  const sessionDir = join(root, "sessions");
  for (const dir of [agentDir, cwd, sessionDir, join(root, "tmp"), join(home, ".config")]) mkdirSync(dir, { recursive: true });
  const scriptPath = join(root, "script.json");
  const requestsPath = join(root, "requests.jsonl");
  writeFileSync(scriptPath, JSON.stringify(options.script));
  if (options.config !== undefined) {
    writeFileSync(join(agentDir, "todo-loop.json"), typeof options.config === "string" ? options.config : JSON.stringify(options.config));
  }
  for (const [path, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_CONFIG_HOME: join(home, ".config"),
    TMPDIR: join(root, "tmp"),
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    PI_TODO_LOOP_SCRIPT: scriptPath,
    PI_TODO_LOOP_REQUESTS: requestsPath,
  };
  return {
    root, home, agentDir, cwd, sessionDir, scriptPath, requestsPath, env,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The `-e` arguments: scripted model, rpiv-todo, this package, then any extra. */
export function extensionArgs(extra: readonly string[] = [], options: { todo?: string | null; loop?: boolean } = {}): string[] {
  const todo = options.todo === undefined ? RPIV_TODO : options.todo;
  const list = [SCRIPTED_MODEL, ...(todo ? [todo] : []), ...extra, ...(options.loop === false ? [] : [PACKAGE_ROOT])];
  return ["-ne", ...list.flatMap((path) => ["-e", path])];
}

export function baseArgs(box: Sandbox): string[] {
  return ["--provider", "faux", "--model", "faux-1", "--session-dir", box.sessionDir];
}

export interface PrintRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** JSON events when run with --mode json. */
  events: Array<Record<string, unknown>>;
}

/** Runs `pi` to completion (print or json mode), killing it after `timeoutMs`. */
export function runPi(box: Sandbox, args: readonly string[], timeoutMs = 30_000): Promise<PrintRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [PI_CLI, ...args], { cwd: box.cwd, env: box.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`pi did not finish within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const events = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        });
      resolvePromise({ code, stdout, stderr, events });
    });
  });
}

export function requests(box: Sandbox): LoggedRequest[] {
  if (!existsSync(box.requestsPath)) return [];
  return readFileSync(box.requestsPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoggedRequest);
}

export interface EntryRecord {
  type: string;
  id?: string;
  parentId?: string | null;
  customType?: string;
  data?: unknown;
  content?: unknown;
  display?: boolean;
  details?: unknown;
  message?: { role: string; content?: unknown; toolName?: string; details?: unknown; isError?: boolean };
}

/** Every entry of the (single) session file, in append order. */
export function sessionEntries(box: Sandbox): EntryRecord[] {
  const files = readdirSync(box.sessionDir, { recursive: true }).map(String).filter((name) => name.endsWith(".jsonl"));
  assert.equal(files.length, 1, `expected one session file, found ${files.length}`);
  return readFileSync(join(box.sessionDir, files[0] ?? ""), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as EntryRecord);
}

export function markers(entries: readonly EntryRecord[]): EntryRecord[] {
  return entries.filter((entry) => entry.type === "custom_message" && entry.customType === MARKER_TYPE);
}

export function stops(entries: readonly EntryRecord[]): EntryRecord[] {
  return entries.filter((entry) => entry.type === "custom" && entry.customType === STOP_TYPE);
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) => (typeof block === "object" && block !== null && "text" in block ? String((block as { text: unknown }).text) : ""))
    .join("");
}

export function isNudge(message: RequestMessage): boolean {
  return message.role === "user" && textOf(message.content).startsWith(NUDGE_PREFIX);
}

/**
 * The checks every scenario passes, from what the model actually received and what the session holds:
 * no two assistant messages in a row; no marker right before a user-role message; markers hidden and
 * free of task text; the script consumed exactly (a runaway would overrun it).
 */
export function checkInvariants(box: Sandbox, options: { script: readonly ScriptStep[]; taskTexts?: readonly string[] }): void {
  const logged = requests(box);
  assert.equal(logged.length, options.script.length, `the model got ${logged.length} requests for ${options.script.length} scripted steps`);
  for (const request of logged) {
    const messages = request.messages.filter((message) => message.role !== "system");
    for (let index = 1; index < messages.length; index++) {
      const previous = messages[index - 1];
      const current = messages[index];
      assert.ok(!(previous?.role === "assistant" && current?.role === "assistant"), `request ${request.step}: two assistant messages in a row at ${index}`);
      if (previous && isNudge(previous)) assert.notEqual(current?.role, "user", `request ${request.step}: a marker sits right before a user message`);
    }
  }
  for (const marker of markers(sessionEntries(box))) {
    assert.equal(marker.display, false, "markers are hidden");
    const text = textOf(marker.content);
    for (const task of options.taskTexts ?? []) assert.ok(!text.includes(task), `marker carries task text ${task}`);
  }
}
