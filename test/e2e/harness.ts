/**
 * End-to-end harness: runs the REAL pi CLI with the real @juicesharp/rpiv-todo, this package, and the
 * scripted model (scripted-model.ts) in an isolated home, and returns what happened — every request the
 * model received, the session entries, notifications — plus the checks every scenario must pass.
 *
 * PI_TODO_LOOP_PI_ROOT selects another pi install (a node_modules folder) for the compatibility matrix.
 *
 * Two ways to drive pi:
 * - `runPi(box, args)`: one headless run (`-p` or `--mode json`) to completion.
 * - `startRpc(box, options)`: a long-lived `--mode rpc` child driven through pi's own `RpcClient`
 *   (loaded from the selected pi install). The returned `RpcSession`:
 *     `prompt(text)`    sends a prompt; when pi starts a run, resolves once the agent settled
 *                       (`agent_settled`); a command (`/todoloop …`) resolves when it was handled.
 *                       Returns pi's disposition ("started" | "handled" | "queued").
 *     `command(args)`   `prompt("/todoloop " + args)`, returning the notifies it produced.
 *     `send(text)`      sends a prompt and resolves on acceptance, without waiting for the run.
 *     `followUp(text)` / `steer(text)`   queue a human message mid-run.
 *     `waitSettled()`   waits for the next `agent_settled` not yet consumed.
 *     `getEntries()`    the session's entries (append order) from pi itself.
 *     `events` / `notifies` ({ message, notifyType }) / `statuses` ({ key, text })   everything recorded.
 *     `client`          the RpcClient, for anything else (compact(), abort(), …).
 *     `stop()`          ends the child; idempotent. Call it in `finally`. It also runs when the
 *                       `signal` option aborts (pass the test's `t.signal`: node:test aborts it on a
 *                       timeout) and, as a last resort, when the test process exits.
 *   `withRpc(t.signal, sandboxOptions, async (box, rpc) => …)` wraps sandbox + startRpc + stop + cleanup
 *   and returns what the body returns.
 *
 * Isolation: every scenario gets its own sandbox (HOME, agent dir, XDG config, cwd, session dir, script,
 * request log); only TMPDIR, which pi uses for its compile caches, is shared (COMPILE_CACHE). RpcClient
 * starts pi with the test process's environment overlaid by the sandbox's `env`.
 *
 * Timeouts: SCENARIO_TIMEOUT_MS is the per-test budget (`test(name, { timeout: SCENARIO_TIMEOUT_MS }, …)`);
 * RPC_WAIT_MS bounds each wait inside a scenario, so a stuck run fails the wait (and `finally` stops
 * the child) well before the test's own timeout.
 */
import { ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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
export const CONTROL_TYPE = "todo-loop:control";

/** The nudge sentences start with this; a user-role request message that does is a marker. */
export const NUDGE_PREFIX = "Continue with the open tasks on your todo list.";

export interface RequestMessage {
  role: string;
  content: unknown;
}
export interface LoggedRequest {
  step: number;
  messages: RequestMessage[];
  /** Names of the tools declared to the model in this request. */
  tools: string[];
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
  /** Whether markers are shown in the transcript (`display`): the config's `transcript`, default true. */
  transcript: boolean;
  cleanup(): void;
}

export interface SandboxOptions {
  script: ScriptStep[];
  /** Written to <agent dir>/todo-loop.json: an object is JSON-encoded, a string is written as is. */
  config?: unknown;
  /** Extra files relative to the sandbox root (e.g. "home/agent/todo-loop-off"). */
  files?: Record<string, string>;
  /** pi's own <agent dir>/settings.json (e.g. `{ retry: { enabled: false } }`). */
  settings?: Record<string, unknown>;
  /** A TMPDIR of its own instead of the shared compile cache (see COMPILE_CACHE). */
  isolatedTmp?: boolean;
  /** Extra environment variables for pi, over the sandbox's own. */
  env?: Record<string, string>;
  /** The working directory, relative to the sandbox root; default "work" (e.g. "home/my-project"). */
  cwd?: string;
}

/**
 * TMPDIR for pi runs: pi keeps only caches there (jiti's transpiled extensions, Node's compile cache),
 * both keyed by content hash and safe to share between concurrent runs, and a warm cache cuts a pi
 * start to about a third of its CPU. One folder per pi install, under the system temp dir.
 */
export const COMPILE_CACHE = join(tmpdir(), "pi-todo-loop-e2e-cache", createHash("sha256").update(MODULES).digest("hex").slice(0, 12));

/** A fresh isolated pi home: HOME, agent dir, XDG config, session dir, offline flags; TMPDIR is the shared COMPILE_CACHE unless `isolatedTmp`. */
export function sandbox(options: SandboxOptions): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "todo-loop-e2e-"));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const cwd = join(root, options.cwd ?? "work");
  const sessionDir = join(root, "sessions");
  const tmp = options.isolatedTmp ? join(root, "tmp") : COMPILE_CACHE;
  for (const dir of [agentDir, cwd, sessionDir, tmp, join(home, ".config")]) mkdirSync(dir, { recursive: true });
  const scriptPath = join(root, "script.json");
  const requestsPath = join(root, "requests.jsonl");
  writeFileSync(scriptPath, JSON.stringify(options.script));
  if (options.config !== undefined) {
    writeFileSync(join(agentDir, "todo-loop.json"), typeof options.config === "string" ? options.config : JSON.stringify(options.config));
  }
  if (options.settings !== undefined) writeFileSync(join(agentDir, "settings.json"), JSON.stringify(options.settings));
  for (const [path, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_CONFIG_HOME: join(home, ".config"),
    TMPDIR: tmp,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    PI_TODO_LOOP_SCRIPT: scriptPath,
    PI_TODO_LOOP_REQUESTS: requestsPath,
    ...options.env,
  };
  const configured = typeof options.config === "object" && options.config !== null ? (options.config as { transcript?: unknown }).transcript : undefined;
  return {
    root, home, agentDir, cwd, sessionDir, scriptPath, requestsPath, env,
    transcript: configured !== false,
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
  // Only complete lines: the model may be appending one right now.
  const lines = readFileSync(box.requestsPath, "utf8").split("\n");
  return lines
    .slice(0, -1)
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
  timestamp?: string;
}

/** The path of the sandbox's session file; there must be exactly one. */
export function sessionFile(box: Sandbox): string {
  const files = readdirSync(box.sessionDir, { recursive: true }).map(String).filter((name) => name.endsWith(".jsonl"));
  assert.equal(files.length, 1, `expected one session file, found ${files.length}`);
  return join(box.sessionDir, files[0] ?? "");
}

/** Every entry of the (single) session file, in append order. */
export function sessionEntries(box: Sandbox): EntryRecord[] {
  return readFileSync(sessionFile(box), "utf8")
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

// ---------------------------------------------------------------------------------------------
// Script and session helpers
// ---------------------------------------------------------------------------------------------

/** A reply without tool calls (a settle). */
export function say(text: string, extra: Omit<ScriptStep, "text" | "calls"> = {}): ScriptStep {
  return { text, ...extra };
}

/** A tool turn creating one rpiv-todo task per subject (ids 1, 2, … on a fresh list). */
export function createTasks(...subjects: string[]): ScriptStep {
  return { text: "Planning.", calls: subjects.map((subject) => ({ name: "todo", args: { action: "create", subject } })) };
}

/** A tool turn setting each rpiv-todo task id to `status` (default completed). */
export function updateTasks(ids: readonly number[], status = "completed"): ScriptStep {
  return { text: "Working.", calls: ids.map((id) => ({ name: "todo", args: { action: "update", id, status } })) };
}

/** The two-task list most scenarios plan, the tool turn that creates it, and the one that completes both. */
export const TWO_TASKS: readonly string[] = ["Write the parser", "Write the tests"];
export const PLAN_TWO: ScriptStep = createTasks(...TWO_TASKS);

/** A provider's usage limit, as Anthropic words its 429; pi retries none of it under NO_RETRY. */
export const LIMIT_429: ScriptStep = { stopReason: "error", errorMessage: '429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}' };
export const NO_RETRY = { retry: { enabled: false } } as const;
/** A `maxLimitWaitMinutes` of 3 s, so a usage-limit wait ends within a test. */
export const LIMIT_WAIT_CAP = 0.05;
export const LIMIT_WAIT_MS = LIMIT_WAIT_CAP * 60_000;
export const FINISH_TWO: ScriptStep = updateTasks([1, 2]);

/** A tool turn with arbitrary calls. */
export function callTools(...calls: Array<{ name: string; args: Record<string, unknown> }>): ScriptStep {
  return { text: "Working.", calls };
}

/** A marker's `details` (0.2): the loop state when it was written; never sent to the model. */
export interface MarkerDetails {
  v: number;
  round: number;
  anchor: string;
  open: number;
  total: number;
  /** maxRounds when set, else null. */
  cap: number | null;
  hint: boolean;
  /** Replies in a row without a tool call, this one included. */
  idle: number;
  /** Replies since the list last changed. */
  stale: number;
}

/** The `details` of every marker, in order. */
export function markerDetails(entries: readonly EntryRecord[]): MarkerDetails[] {
  return markers(entries).map((entry) => entry.details as MarkerDetails);
}

/** The `round` of every marker, in order. */
export function markerRounds(entries: readonly EntryRecord[]): number[] {
  return markerDetails(entries).map((details) => details.round);
}

/** A stop record's `data` (0.2: `v` and `kind`, plus `limit` for a limit stop; 0.1 records had neither). */
export interface StopData {
  v?: number;
  kind?: string;
  limit?: string;
  reason: string;
  round: number;
  open: number;
  anchor: string;
}

/** A stop record's `data` without the run's `report` (its figures are pinned by test/e2e/report.test.ts). */
export function withoutReport(data: unknown): StopData {
  const { report: _report, ...rest } = data as StopData & { report?: unknown };
  return rest;
}

/** The `data` of every stop record, in order, without the run's `report`. */
export function stopData(entries: readonly EntryRecord[]): StopData[] {
  return stops(entries).map((entry) => withoutReport(entry.data));
}

/** The `report` of every stop record, in order (SPEC §7.2). */
export function stopReports(entries: readonly EntryRecord[]): unknown[] {
  return stops(entries).map((entry) => (entry.data as { report?: unknown }).report);
}

/** The `reason` of every stop record, in order. */
export function stopReasons(entries: readonly EntryRecord[]): string[] {
  return stopData(entries).map((data) => data.reason);
}

/** The `data` of every `/todoloop` control record (pause, resume, reset, continue), in order. */
export function controlData(entries: readonly EntryRecord[]): Array<{ v: number; action: string; anchor: string }> {
  return entries
    .filter((entry) => entry.type === "custom" && entry.customType === CONTROL_TYPE)
    .map((entry) => entry.data as { v: number; action: string; anchor: string });
}

/** The footer texts (`setStatus("todo-loop", …)`) pi transmitted, in order; undefined is a clear. */
export function footers(statuses: readonly StatusUpdate[]): Array<string | undefined> {
  return statuses.filter((status) => status.key === "todo-loop").map((status) => status.text);
}

/** The ids of the human-authored user messages, in order. */
export function userMessageIds(entries: readonly EntryRecord[]): string[] {
  return entries.filter((entry) => entry.type === "message" && entry.message?.role === "user").map((entry) => entry.id ?? "");
}

/** The last message of a logged request (system messages aside). */
export function lastMessage(request: LoggedRequest | undefined): RequestMessage {
  return request?.messages[request.messages.length - 1] ?? { role: "", content: "" };
}

/** Notifies this extension sent (its messages start with "todo loop"). */
export function loopNotifies(notifies: readonly Notify[]): Notify[] {
  return notifies.filter((notify) => notify.message.startsWith("todo loop"));
}

/** Resolves once the model has received `count` requests (the newest may still be in flight). */
export async function untilRequests(box: Sandbox, count: number, timeoutMs = RPC_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Counts complete lines, as requests() does, without parsing them: this runs every 20 ms.
  const logged = (): number => (existsSync(box.requestsPath) ? readFileSync(box.requestsPath, "utf8").split("\n").slice(0, -1).filter(Boolean).length : 0);
  while (logged() < count) {
    if (Date.now() > deadline) throw new Error(`the model did not receive ${count} requests within ${timeoutMs} ms`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
  }
}

/** Resolves once `done()` holds, polling; fails naming `what` after `timeoutMs`. */
export async function until(what: string, done: () => boolean, timeoutMs = RPC_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
  }
}

/**
 * The checks every scenario passes, from what the model actually received and what the session holds:
 * no two assistant messages in a row; no marker right before a user-role message; markers hidden and
 * free of task text, displayed exactly when the transcript is on; the script consumed exactly (a runaway would overrun it).
 */
export interface InvariantOptions {
  script: readonly ScriptStep[];
  taskTexts?: readonly string[];
  /**
   * Scripted steps whose request may carry a marker right before a user message: only requests made
   * while a kill switch is on, when the context hook must touch nothing.
   */
  markerBeforeUserAllowed?: readonly number[];
  /** Ids of markers an older version wrote (0.1: always `display: false`), exempt from the display check. */
  legacyMarkers?: readonly string[];
}

export function checkInvariants(box: Sandbox, options: InvariantOptions): void {
  const logged = requests(box);
  assert.equal(logged.length, options.script.length, `the model got ${logged.length} requests for ${options.script.length} scripted steps`);
  for (const request of logged) {
    const messages = request.messages.filter((message) => message.role !== "system");
    const allowed = options.markerBeforeUserAllowed?.includes(request.step) ?? false;
    for (let index = 1; index < messages.length; index++) {
      const previous = messages[index - 1];
      const current = messages[index];
      assert.ok(!(previous?.role === "assistant" && current?.role === "assistant"), `request ${request.step}: two assistant messages in a row at ${index}`);
      if (previous && isNudge(previous) && !allowed) assert.notEqual(current?.role, "user", `request ${request.step}: a marker sits right before a user message`);
    }
  }
  for (const marker of markers(sessionEntries(box))) {
    if (!options.legacyMarkers?.includes(marker.id ?? "")) assert.equal(marker.display, box.transcript, "a marker is displayed exactly when the transcript is on");
    const text = textOf(marker.content);
    for (const task of options.taskTexts ?? []) assert.ok(!text.includes(task), `marker carries task text ${task}`);
  }
}

// ---------------------------------------------------------------------------------------------
// RPC driver
// ---------------------------------------------------------------------------------------------

/** The budget of one scenario (pass as the node:test `timeout`). */
export const SCENARIO_TIMEOUT_MS = 60_000;
/** The budget of one wait inside a scenario (a settle, a command). */
export const RPC_WAIT_MS = 20_000;

/** One record pi wrote on stdout that was not a command response. */
export type RpcEvent = { type: string } & Record<string, unknown>;
export interface Notify {
  message: string;
  notifyType: string;
}
export interface StatusUpdate {
  key: string;
  text: string | undefined;
}

/** The part of pi's RpcClient the harness uses (structural, so any pi version's class fits). */
export interface RpcClientLike {
  start(): Promise<void>;
  stop(): Promise<void>;
  onEvent(listener: (event: RpcEvent) => void): () => void;
  getStderr(): string;
  prompt(message: string): Promise<string>;
  followUp(message: string): Promise<string>;
  steer(message: string): Promise<string>;
  abort(): Promise<void>;
  abortRetry(): Promise<void>;
  compact(customInstructions?: string): Promise<unknown>;
  getEntries(since?: string): Promise<{ entries: EntryRecord[]; leafId: string | null }>;
}
interface RpcClientConstructor {
  new (options: { cliPath?: string; cwd?: string; env?: Record<string, string>; provider?: string; model?: string; args?: string[] }): RpcClientLike;
}

export interface RpcOptions {
  /** Extra pi arguments (after the `-e` list); default none. */
  args?: readonly string[];
  /** The `-e` list; default `extensionArgs()`. */
  extensions?: readonly string[];
  /** Aborting it stops the child (pass the test's `t.signal`). */
  signal?: AbortSignal;
  /** Per-wait budget; default RPC_WAIT_MS. */
  waitMs?: number;
}

export interface RpcSession {
  readonly client: RpcClientLike;
  readonly events: RpcEvent[];
  readonly notifies: Notify[];
  readonly statuses: StatusUpdate[];
  prompt(text: string): Promise<string>;
  command(args: string): Promise<Notify[]>;
  send(text: string): Promise<string>;
  followUp(text: string): Promise<string>;
  steer(text: string): Promise<string>;
  waitSettled(): Promise<void>;
  getEntries(): Promise<EntryRecord[]>;
  /** What pi wrote on stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

const live = new Set<RpcClientLike>();
let exitHookInstalled = false;

function childOf(client: RpcClientLike): ChildProcess | undefined {
  const child: unknown = Reflect.get(client, "process");
  return child instanceof ChildProcess ? child : undefined;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const client of live) childOf(client)?.kill("SIGKILL");
  });
}

/**
 * pi's RpcClient from the selected pi install: its own module when present (light: it imports only
 * node:child_process and a line reader), else the package index (loads the whole SDK).
 */
async function loadRpcClient(): Promise<RpcClientConstructor> {
  const own = join(PI_PACKAGE, "dist", "modes", "rpc", "rpc-client.js");
  const file = existsSync(own) ? own : join(PI_PACKAGE, "dist", "index.js");
  const loaded: { RpcClient: RpcClientConstructor } = await import(pathToFileURL(file).href);
  return loaded.RpcClient;
}

function isEvent(value: unknown): value is RpcEvent {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** Starts pi in `--mode rpc` in the sandbox, recording every event. See the file header. */
export async function startRpc(box: Sandbox, options: RpcOptions = {}): Promise<RpcSession> {
  installExitHook();
  const RpcClient = await loadRpcClient();
  const waitMs = options.waitMs ?? RPC_WAIT_MS;
  const client = new RpcClient({
    cliPath: PI_CLI,
    cwd: box.cwd,
    env: box.env,
    args: [...(options.extensions ?? extensionArgs()), ...baseArgs(box), ...(options.args ?? [])],
  });
  const events: RpcEvent[] = [];
  const notifies: Notify[] = [];
  const statuses: StatusUpdate[] = [];
  let settled = 0;
  let consumed = 0;
  const waiters = new Set<() => void>();
  client.onEvent((event) => {
    if (!isEvent(event)) return;
    events.push(event);
    if (event.type === "extension_ui_request" && event.method === "notify") {
      notifies.push({ message: String(event.message ?? ""), notifyType: String(event.notifyType ?? "info") });
    }
    if (event.type === "extension_ui_request" && event.method === "setStatus") {
      statuses.push({ key: String(event.statusKey ?? ""), text: typeof event.statusText === "string" ? event.statusText : undefined });
    }
    if (event.type === "agent_settled") {
      settled++;
      for (const wake of [...waiters]) wake();
    }
  });

  let stopped = false;
  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    try {
      await client.stop();
    } finally {
      childOf(client)?.kill("SIGKILL");
      live.delete(client);
    }
  }
  options.signal?.addEventListener("abort", () => void stop(), { once: true });

  /** Set when the child exits before stop(): every wait fails at once with pi's stderr. */
  let exited: Error | undefined;

  /** Resolves when a settle beyond the consumed ones has arrived, and consumes it. */
  function waitSettled(): Promise<void> {
    return new Promise((resolvePromise, reject) => {
      const check = (): boolean => {
        if (settled > consumed) {
          consumed++;
          return true;
        }
        return false;
      };
      if (check()) return resolvePromise();
      if (exited) return reject(exited);
      const done = (error?: Error): void => {
        clearTimeout(timer);
        waiters.delete(wake);
        if (error) reject(error);
        else resolvePromise();
      };
      const wake = (): void => {
        if (check()) done();
        else if (exited) done(exited);
      };
      const timer = setTimeout(() => done(new Error(`pi did not settle within ${waitMs} ms\nstderr:\n${stderr}`)), waitMs);
      waiters.add(wake);
    });
  }

  async function send(text: string): Promise<string> {
    return client.prompt(text);
  }

  async function prompt(text: string): Promise<string> {
    const disposition = await send(text);
    if (disposition === "started") await waitSettled();
    return disposition;
  }

  live.add(client);
  // pi's RpcClient copies the child's stderr to this process's stderr, where it would land among the
  // runner's lines; the harness keeps it instead, for the error messages below.
  let stderr = "";
  const starting = client.start();
  const output = childOf(client)?.stderr;
  if (output) {
    output.removeAllListeners("data");
    output.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  }
  try {
    await starting;
  } catch (error) {
    await stop();
    throw error;
  }
  childOf(client)?.once("exit", (code, signal) => {
    if (stopped) return;
    exited = new Error(`pi exited (code ${code}, signal ${signal})\nstderr:\n${stderr}`);
    for (const wake of [...waiters]) wake();
  });
  return {
    client,
    events,
    notifies,
    statuses,
    prompt,
    send,
    async command(args: string): Promise<Notify[]> {
      const before = notifies.length;
      const disposition = await prompt(`/todoloop${args ? ` ${args}` : ""}`);
      assert.equal(disposition, "handled", `/todoloop ${args} was not handled as a command`);
      return notifies.slice(before);
    },
    followUp: (text) => client.followUp(text),
    steer: (text) => client.steer(text),
    waitSettled,
    async getEntries(): Promise<EntryRecord[]> {
      return (await client.getEntries()).entries;
    },
    stderr: () => stderr,
    stop,
  };
}

/**
 * One isolated RPC scenario: a fresh sandbox, pi started in it, `body` run (its result is returned), then
 * the child stopped and the sandbox removed — also when `body` throws or the test times out (`signal`).
 */
export async function withRpc<T>(
  signal: AbortSignal,
  sandboxOptions: SandboxOptions,
  body: (box: Sandbox, rpc: RpcSession) => Promise<T>,
  rpcOptions: Omit<RpcOptions, "signal"> = {},
): Promise<T> {
  const box = sandbox(sandboxOptions);
  try {
    const rpc = await startRpc(box, { ...rpcOptions, signal });
    try {
      return await body(box, rpc);
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
}

/**
 * How `/todoloop` names the message its counts start from — `your message of 14:02 ("Plan A")`: the
 * entry's local time and the first 40 characters of its text, never its id.
 */
export function anchorWords(entries: readonly EntryRecord[], id: string | undefined): string {
  const entry = entries.find((candidate) => candidate.id === id);
  assert.ok(entry, `no entry ${String(id)}`);
  const date = new Date(entry.timestamp ?? "");
  const two = (value: number): string => String(value).padStart(2, "0");
  const clock = `${two(date.getHours())}:${two(date.getMinutes())}`;
  const text = [...textOf(entry.message?.content).replace(/\s+/g, " ").trim()];
  const words = text.length > 40 ? `${text.slice(0, 39).join("").trimEnd()}…` : text.join("");
  return words === "" ? `your message of ${clock}` : `your message of ${clock} ("${words}")`;
}

/**
 * A marker's `details` with its fingerprint (0.3 `fp`: a 28-digit hex hash, or null) checked and left
 * out, so the rest — `stuck` and `repeats` included — can be compared exactly.
 */
export function withoutFingerprint(details: unknown): Record<string, unknown> {
  const { fp, ...rest } = (typeof details === "object" && details !== null ? details : {}) as Record<string, unknown>;
  assert.ok(fp === null || (typeof fp === "string" && /^[0-9a-f]{28}$/.test(fp)), `a marker's fingerprint: ${String(fp)}`);
  return rest;
}
