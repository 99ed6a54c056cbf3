/**
 * `npm run test:release`: the release the way users get it, through a real npm registry on this machine.
 *
 *  1. verdaccio, installed on demand into .release/verdaccio/ (gitignored, not a devDependency; reused
 *     while the installed version matches), serves 127.0.0.1:<free port> from a temporary storage with
 *     no uplinks.
 *  2. The previous release, as users have it installed: the commit that made package.json say the
 *     version listed below this one in CHANGELOG.md (found with `git log -S`) is checked out with
 *     `git archive`, packed with `npm pack` and published with `npm publish` and a temporary userconfig
 *     holding a dummy `_authToken`.
 *  3. A new user — own HOME, PI_CODING_AGENT_DIR, XDG_CONFIG_HOME, TMPDIR and cwd; npm pointed at the
 *     local registry by `npm_config_registry` and `NPM_CONFIG_USERCONFIG` — runs README's commands:
 *     `pi install npm:pi-todo-loop`, `pi list`, and gets the previous release; a scripted session loads
 *     the package from pi's settings (no `-e` for it, no `-ne`) and continues on open tasks; an agent
 *     that only re-reads its list is checked against what that release does; an agent that starts
 *     background work and waits for it is pushed while the work runs (before 0.4); then the 0.5 checks
 *     below, each against what that release does; one fresh interactive start in tmux records the
 *     installed version and finds it under `[Extensions]` (named `pi-todo-loop` since 0.4's ./index.ts
 *     entry, `pi-todo-loop:src` before); the hand-over session, resumed in tmux, shows its stop line.
 *  4. This tree, packed the same way, is published as the new version; `pi update --extensions`
 *     (online: under PI_OFFLINE it skips and still exits 0, so the installed package.json is what is
 *     checked) brings it; a scripted session shows the new code running (the nudge offers
 *     todo_loop_block), the same re-reading agent is stopped at its 6th settle (`stuck`), and the agent
 *     waiting on background work gets no marker: the work's own report starts its next turn; the same
 *     0.5 checks; the next fresh interactive start shows pi's "Extension Updates" block with this
 *     version's CHANGELOG entry whole (every non-blank line of it, as pi draws the Markdown, wrapped
 *     anywhere) and not the previous one's, read from the terminal and printed; the new hand-over
 *     session, resumed in tmux, shows its stop line and the report line under it.
 *     The 0.5 checks, one function each run on both releases, expecting by versionAtLeast(…, "0.5.0"),
 *     each with its own todo-loop.json in the user's agent dir (removed after it):
 *     - a Russian request to act ("Перезапустите, пожалуйста, сервер и проверьте, …") under open tasks,
 *       with `exitCode` and a `notifyCommand` set: 0.4 pushes it (a marker), 0.5 holds (a `question`
 *       stop, its stderr line, the notify command with needsYou, `exitCode`);
 *     - a clear list whose last reply asks the person to test the page: 0.4 a plain clear, 0.5 a clear
 *       that needs them (`handsOver` in the record, its stderr line, the notify command, `exitCode`);
 *     - `judge` in the user's todo-loop.json naming the classifier stand-in (test/e2e/stand-ins/
 *       judge-provider.ts, loaded with `-e` like any provider extension): 0.5 asks it (its calls
 *       counted and printed) and holds the reply it reads as waiting; 0.4 names the unknown key on
 *       stderr and pushes; nothing reaches the proxy trap;
 *     - the report line under a stop (`1 continuation · 1 changed something · 5.3k tokens · …`), read
 *       in the terminal with the figures of the stop record's `report`: 0.5 draws it, 0.4 has none.
 *  5. `pi remove npm:pi-todo-loop`; `pi list` no longer has it and the next run loads nothing of it;
 *     the session of step 3, resumed in tmux, shows its displayed marker as pi's plain custom message
 *     (label and fixed sentence), as README's Uninstall section says.
 *
 * The user's pi and npm reach nothing but 127.0.0.1: their HTTP(S) proxy is a trap on 127.0.0.1 that
 * refuses and counts every request (NO_PROXY keeps the local registry direct); sessions and terminal
 * starts also run with PI_OFFLINE=1. The registry and every child are stopped by pid on every path
 * (finally, SIGINT/SIGTERM/SIGHUP, exit); every command has a time limit and the whole run a deadline.
 * Prints a summary with figures; on a failure, the step, the command's output or the screen, and the
 * registry's log, and exits 1.
 *
 *   npm run test:release              KEEP=1 keeps the temporary folder for a look afterwards
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { changelogProblems, previousRelease, releaseNotes, versionAtLeast } from "./changelog.ts";
import {
  callTools,
  checkInvariants,
  createTasks,
  MARKER_TYPE,
  markerDetails,
  markers,
  NUDGE_PREFIX,
  PI_CLI,
  RPIV_TODO,
  requests,
  say,
  SCRIPTED_MODEL,
  sessionEntries,
  sessionFile,
  stopData,
  stopReasons,
  stops,
  textOf,
  updateTasks,
} from "../test/e2e/harness.ts";
import type { EntryRecord, Sandbox, ScriptStep } from "../test/e2e/harness.ts";
import { startTerminal, tmuxAvailable } from "../test/tui/tmux.ts";
import type { Terminal } from "../test/tui/tmux.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const VERDACCIO = "6.10.4";
/** verdaccio 6 pulls a package asking for a node-fetch dist-tag the registry lacks; 2.7.0 works. */
const VERDACCIO_OVERRIDES = { "node-fetch": "2.7.0" };
const VERDACCIO_DIR = join(ROOT, ".release", "verdaccio");
const INSTALL_MS = 300_000;
/** The whole run after verdaccio is installed. */
const RUN_MS = 240_000;
const COMMAND_MS = 90_000;
const SCREEN_MS = 30_000;
const NAME = "pi-todo-loop";
/** The README's commands, run as they are written. */
const INSTALL = ["install", `npm:${NAME}`];
const LIST = ["list"];
const UPDATE = ["update", "--extensions"];
const REMOVE = ["remove", `npm:${NAME}`];

type Json = { readonly [key: string]: unknown };

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readJson(path: string): Json {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isRecord(parsed)) throw new Error(`${path} is not a JSON object`);
  return parsed;
}

function versionIn(dir: string): string | undefined {
  try {
    const version = readJson(join(dir, "package.json")).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Failing loudly

/** A failed check: its message and what shows it (a command's output, a screen, a file). */
class Failure extends Error {
  readonly evidence: string;
  constructor(message: string, evidence = "") {
    super(message);
    this.evidence = evidence;
  }
}

function ensure(ok: boolean, message: string, evidence = ""): void {
  if (!ok) throw new Failure(message, evidence);
}

/** Runs an assertion-style check (the e2e harness's), turning its error into a Failure with evidence. */
function attempt(check: () => void, evidence: string): void {
  try {
    check();
  } catch (error) {
    throw new Failure(error instanceof Error ? error.message : String(error), evidence);
  }
}

// ---------------------------------------------------------------------------------------------------
// Processes: every child is tracked by pid and killed on any way out

const children = new Set<ChildProcess>();
const terminals = new Set<Terminal>();

interface Ran {
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

function shown(ran: Ran): string {
  return `$ ${ran.command}\n(exit ${ran.code}, ${ran.seconds.toFixed(1)} s)\n--- stdout ---\n${ran.stdout.trimEnd()}\n--- stderr ---\n${ran.stderr.trimEnd()}`;
}

function run(file: string, args: readonly string[], options: { cwd: string; env: Readonly<Record<string, string>>; timeoutMs?: number; label?: string }): Promise<Ran> {
  const command = options.label ?? [file, ...args].join(" ");
  const timeoutMs = options.timeoutMs ?? COMMAND_MS;
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const child = spawn(file, [...args], { cwd: options.cwd, env: { ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let stdout = "";
    let stderr = "";
    let settled = false;
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const finish = (code: number | null, note = ""): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      children.delete(child);
      resolvePromise({ command, code, stdout, stderr: stderr + note, seconds: (Date.now() - started) / 1000 });
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(null, `\n(killed after ${timeoutMs} ms)`);
    }, timeoutMs);
    child.on("error", (error) => finish(null, `\n${error.message}`));
    child.on("close", (code) => finish(code));
  });
}

async function runOk(file: string, args: readonly string[], options: { cwd: string; env: Readonly<Record<string, string>>; timeoutMs?: number; label?: string }): Promise<Ran> {
  const ran = await run(file, args, options);
  ensure(ran.code === 0, `${ran.command} failed (exit ${ran.code})`, shown(ran));
  return ran;
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await sleep(intervalMs);
  }
}

// ---------------------------------------------------------------------------------------------------
// verdaccio

/** Installs verdaccio into .release/verdaccio/ unless the right version is there; says which. */
async function ensureVerdaccio(): Promise<string> {
  const modules = join(VERDACCIO_DIR, "node_modules");
  if (versionIn(join(modules, "verdaccio")) === VERDACCIO && versionIn(join(modules, "node-fetch")) === VERDACCIO_OVERRIDES["node-fetch"]) {
    return `reused ${VERDACCIO_DIR}`;
  }
  mkdirSync(VERDACCIO_DIR, { recursive: true });
  const manifest = { name: "pi-todo-loop-release-registry", private: true, dependencies: { verdaccio: VERDACCIO }, overrides: VERDACCIO_OVERRIDES };
  writeFileSync(join(VERDACCIO_DIR, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ""}`;
  const ran = await runOk("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: VERDACCIO_DIR, env, timeoutMs: INSTALL_MS });
  const found = versionIn(join(modules, "verdaccio"));
  ensure(found === VERDACCIO, `verdaccio ${VERDACCIO} expected in ${modules}, found ${found ?? "none"}`, shown(ran));
  return `installed into ${VERDACCIO_DIR} in ${ran.seconds.toFixed(1)} s`;
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

interface Registry {
  url: string;
  port: number;
  pid: number;
  log: string;
  readySeconds: number;
  stop(): Promise<string>;
  stopNow(): void;
}

async function startRegistry(dir: string): Promise<Registry> {
  const storage = join(dir, "storage");
  mkdirSync(storage, { recursive: true });
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(storage)}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
      "    max_users: -1",
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $all",
      "    unpublish: $all",
      "web:",
      "  enable: false",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const logPath = join(dir, "verdaccio.log");
  let log = "";
  const started = Date.now();
  const child = spawn(process.execPath, [join(VERDACCIO_DIR, "node_modules", "verdaccio", "bin", "verdaccio"), "--config", config, "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir, TMPDIR: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    writeFileSync(logPath, log);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  let exited: string | undefined;
  child.on("exit", (code, signal) => {
    exited = signal ?? `exit ${code}`;
  });
  const pid = child.pid;
  ensure(pid !== undefined, "verdaccio did not start", log);
  const registry: Registry = {
    url,
    port,
    pid: pid ?? 0,
    get log() {
      return log;
    },
    readySeconds: 0,
    async stop() {
      if (exited) return `already ended (${exited})`;
      child.kill("SIGTERM");
      if (!(await until(() => exited !== undefined, 5_000))) child.kill("SIGKILL");
      await until(() => exited !== undefined, 5_000);
      return `stopped (pid ${pid}, ${exited ?? "still running"}${alive(pid) ? ", STILL ALIVE" : ""})`;
    },
    stopNow() {
      if (!exited) child.kill("SIGKILL");
    },
  };
  stopRegistryNow = () => registry.stopNow();
  const ready = await until(async () => {
    if (exited) return true;
    try {
      return (await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(1_000) })).ok;
    } catch {
      return false;
    }
  }, 30_000);
  ensure(ready && !exited, `verdaccio did not answer on ${url} within 30 s${exited ? ` (it ended: ${exited})` : ""}`, log);
  registry.readySeconds = (Date.now() - started) / 1000;
  return registry;
}

let stopRegistryNow: () => void = () => {};

async function packument(registry: Registry, name: string): Promise<{ status: number; versions: string[]; latest: string }> {
  const response = await fetch(`${registry.url}${name}`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) return { status: response.status, versions: [], latest: "" };
  const body: unknown = await response.json();
  const versions = isRecord(body) && isRecord(body.versions) ? Object.keys(body.versions) : [];
  const tags = isRecord(body) && isRecord(body["dist-tags"]) ? body["dist-tags"] : {};
  return { status: response.status, versions, latest: typeof tags.latest === "string" ? tags.latest : "" };
}

// ---------------------------------------------------------------------------------------------------
// A trap for anything that would leave the machine

interface Trap {
  url: string;
  seen: string[];
  close(): Promise<void>;
}

/** An HTTP proxy on 127.0.0.1 that answers every request (CONNECT or plain) with 403 and records it. */
async function startTrap(): Promise<Trap> {
  const seen: string[] = [];
  const server: Server = createServer((socket) => {
    socket.on("error", () => {});
    socket.once("data", (chunk: Buffer) => {
      seen.push(chunk.toString("latin1").split("\r\n")[0] ?? "?");
      socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolvePromise());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolvePromise) => server.close(() => resolvePromise())),
  };
}

// ---------------------------------------------------------------------------------------------------
// The new user

interface User {
  root: string;
  home: string;
  agentDir: string;
  cwd: string;
  /** For package commands (`pi install`, `list`, `update`, `remove`): online, through the local registry only. */
  env: Record<string, string>;
  /** For sessions and terminal starts: the same plus PI_OFFLINE=1. */
  offline: Record<string, string>;
}

function newUser(root: string, registry: Registry, trap: Trap): User {
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const cwd = join(root, "work");
  const tmp = join(root, "tmp");
  for (const dir of [agentDir, cwd, tmp, join(home, ".config")]) mkdirSync(dir, { recursive: true });
  const npmrc = join(home, ".npmrc");
  writeFileSync(npmrc, `registry=${registry.url}\n`);
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_CONFIG_HOME: join(home, ".config"),
    TMPDIR: tmp,
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    npm_config_registry: registry.url,
    NPM_CONFIG_USERCONFIG: npmrc,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    HTTP_PROXY: trap.url,
    HTTPS_PROXY: trap.url,
    http_proxy: trap.url,
    https_proxy: trap.url,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    NODE_USE_ENV_PROXY: "1",
  };
  return { root, home, agentDir, cwd, env, offline: { ...env, PI_OFFLINE: "1" } };
}

function pi(user: User, args: readonly string[], env: Record<string, string> = user.env): Promise<Ran> {
  return run(process.execPath, [PI_CLI, ...args], { cwd: user.cwd, env, label: `pi ${args.join(" ")}` });
}

async function piOk(user: User, args: readonly string[]): Promise<Ran> {
  const ran = await pi(user, args);
  ensure(ran.code === 0, `pi ${args.join(" ")} failed (exit ${ran.code})`, shown(ran));
  return ran;
}

function settings(user: User): Json {
  const path = join(user.agentDir, "settings.json");
  return existsSync(path) ? readJson(path) : {};
}

/** The version pi recorded for this package's changelog, if any. */
function recordedVersion(user: User): string | undefined {
  const versions = settings(user).extensionChangelogVersions;
  if (!isRecord(versions)) return undefined;
  const value = versions[JSON.stringify({ source: `npm:${NAME}`, scope: "user" })];
  return typeof value === "string" ? value : undefined;
}

function installedDir(user: User): string {
  return join(user.agentDir, "npm", "node_modules", NAME);
}

/** A scripted `pi -p` run that loads this package only through pi's settings. */
async function scriptedRun(
  user: User,
  name: string,
  script: ScriptStep[],
  extra: { readonly extensions?: readonly string[]; readonly env?: Readonly<Record<string, string>>; readonly code?: number } = {},
): Promise<{ box: Sandbox; ran: Ran }> {
  const dir = join(user.root, `run-${name}`);
  const sessionDir = join(dir, "sessions");
  mkdirSync(sessionDir, { recursive: true });
  const scriptPath = join(dir, "script.json");
  const requestsPath = join(dir, "requests.jsonl");
  writeFileSync(scriptPath, JSON.stringify(script));
  const env = { ...user.offline, PI_TODO_LOOP_SCRIPT: scriptPath, PI_TODO_LOOP_REQUESTS: requestsPath, ...extra.env };
  // todo-loop.json is the user's (none but during the steps that write one): markers are displayed, as the default `transcript` has it.
  const box: Sandbox = { root: dir, home: user.home, agentDir: user.agentDir, cwd: user.cwd, sessionDir, scriptPath, requestsPath, env, transcript: true, cleanup: () => {} };
  const args = ["-e", SCRIPTED_MODEL, "-e", RPIV_TODO, ...(extra.extensions ?? []).flatMap((path) => ["-e", path]), "--provider", "faux", "--model", "faux-1", "--session-dir", sessionDir, "-p", "Do the work"];
  const ran = await pi(user, args, env);
  const code = extra.code ?? 0;
  ensure(ran.code === code, `the scripted session (${name}) exited ${ran.code}, not ${code}`, `${shown(ran)}${existsSync(sessionDir) ? `\n--- session ---\n${sessionTextIn(sessionDir)}` : ""}`);
  return { box, ran };
}

/**
 * The agent that is busy but stuck: it plans two tasks, then only re-reads its list, seven times, each
 * time in other words, before it finishes. A release before 0.3 continues every reply (a read resets
 * its idle count); 0.3's no-progress brake (`maxStuckReplies`, 5 by default) stops the 6th settle.
 */
const STUCK_TASKS = ["Alpha task", "Beta task"];
const STUCK_SCRIPT: ScriptStep[] = [
  createTasks(...STUCK_TASKS),
  say("Planned the work."),
  ...[1, 2, 3, 4, 5, 6, 7].flatMap((n): ScriptStep[] => [{ ...callTools({ name: "todo", args: { action: "list" } }), text: "Looking." }, say(`Checked the list (${n}).`)]),
  updateTasks([1, 2]),
  say("Done."),
];
/** Where 0.3 stops the script above: the plan's reply and five re-reads, two requests each. */
const STUCK_REQUESTS = 12;
const STUCK_REASON = "stopped: 5 replies in a row without progress (no edits, commands, new reads or todo changes), 2 tasks still open; it may need you";

/**
 * The stuck script on the installed `release`, checked against what that release does: one without the
 * brake continues every reply to the end of the script (8 markers, the list cleared); one with it stops
 * at the 6th settle (5 markers, the stuck stop). Returns the step's summary.
 */
async function stuckCheck(user: User, name: string, release: string): Promise<string> {
  const run = await scriptedRun(user, name, STUCK_SCRIPT);
  const entries = sessionEntries(run.box);
  const evidence = `${shown(run.ran)}\n--- session ---\n${sessionText(run.box)}`;
  const braked = versionAtLeast(release, "0.3.0"); // the no-progress brake came with 0.3.0
  const expected = braked
    ? { requests: STUCK_REQUESTS, rounds: [1, 2, 3, 4, 5], stops: [STUCK_REASON] }
    : { requests: STUCK_SCRIPT.length, rounds: [1, 2, 3, 4, 5, 6, 7, 8], stops: ["stopped: list is clear"] };
  const got = { requests: requests(run.box).length, rounds: markerDetails(entries).map(({ round }) => round), stops: stopReasons(entries) };
  ensure(JSON.stringify(got) === JSON.stringify(expected), `the stuck script on ${release}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`, evidence);
  attempt(() => checkInvariants(run.box, { script: STUCK_SCRIPT.slice(0, expected.requests), taskTexts: STUCK_TASKS }), evidence);
  return `${got.requests} model requests, ${got.rounds.length} markers${braked ? "" : ": every re-read continued"}, stop "${got.stops.join(", ")}"`;
}

/**
 * The agent that starts background work and waits for it: it plans two tasks, starts a job (the
 * stand-in playing `@aliou/pi-processes`, its real events and result message), says it waits, and
 * finishes both tasks on the next turn. A release before 0.4 pushes it while the job runs (one marker;
 * `pi -p` is done before the job's report arrives); 0.4 waits on the work, holds `pi -p` open, and the
 * job's own report starts the next turn (no marker).
 */
const WORK_SOURCE = join(ROOT, "test", "e2e", "stand-ins", "work-source.ts");
const WORK_TASKS = ["Build the bundle", "Publish the preview"];
const WORK_SCRIPT: ScriptStep[] = [
  createTasks(...WORK_TASKS),
  { text: "Starting the build in the background.", calls: [{ name: "start_background_work", args: { id: "build-1" } }] },
  say("The build runs in the background; I will go on when its result arrives."),
  updateTasks([1, 2]),
  say("Both tasks are done."),
];
/** The stand-in's pi-processes result message, as the model gets it: its summary line. */
const WORK_REPORT = "dev server exited with code 0";

/** The release that waits on work in flight and offers the block tool in every nudge. */
const WAITS_SINCE = "0.4.0";
/** The block offer every 0.4 nudge carries. */
const BLOCK_TOOL = "todo_loop_block";
const BLOCK_OFFER = `call ${BLOCK_TOOL}`;

/**
 * The background-work script on the installed `release`, checked against what that release does.
 * Returns the step's summary.
 */
async function workCheck(user: User, name: string, release: string, waits: boolean): Promise<string> {
  const run = await scriptedRun(user, name, WORK_SCRIPT, { extensions: [WORK_SOURCE], env: { PI_TODO_LOOP_E2E_WORK_SOURCE: "pi-processes", PI_TODO_LOOP_E2E_WORK_MS: "2500" } });
  const entries = sessionEntries(run.box);
  const evidence = `${shown(run.ran)}\n--- session ---\n${sessionText(run.box)}`;
  const asked = requests(run.box);
  // What the model got after the agent said it waits: a nudge (before 0.4) or the job's own report.
  const fourth = JSON.stringify(asked[3]?.messages.at(-1) ?? null);
  const after = fourth.includes(WORK_REPORT) ? "report" : fourth.includes(NUDGE_PREFIX) ? "nudge" : "other";
  const got = { requests: asked.length, markers: markers(entries).length, after, stops: stopReasons(entries) };
  const expected = waits
    ? { requests: 5, markers: 0, after: "report", stops: ["stopped: list is clear"] }
    : { requests: 5, markers: 1, after: "nudge", stops: ["stopped: list is clear"] };
  ensure(JSON.stringify(got) === JSON.stringify(expected), `the background-work script on ${release}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`, evidence);
  attempt(() => checkInvariants(run.box, { script: WORK_SCRIPT, taskTexts: WORK_TASKS }), evidence);
  return `${got.requests} model requests, ${got.markers} marker${got.markers === 1 ? "" : "s"} while the job ran, ${waits ? "the job's report started the next turn" : "pushed before the job's report"}, stop "${got.stops.join(", ")}"`;
}

// ---------------------------------------------------------------------------------------------------
// 0.5: a request to act in Russian, a hand-over at a clear list, a judge, the report under a stop

/** The release that reads the twelve-language forms table, announces a hand-over, consults a judge and reports a run's spend. */
const EVIDENCE_SINCE = "0.5.0";
/** `exitCode` in the user's config for the steps that check which stops need the person. */
const NEEDS_YOU_EXIT = 3;

/** The user's todo-loop.json (in their PI_CODING_AGENT_DIR), there for one step and removed after it. */
async function withUserConfig<T>(user: User, config: Json, body: () => Promise<T>): Promise<T> {
  const path = join(user.agentDir, "todo-loop.json");
  ensure(!existsSync(path), `${path} is already there`);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  try {
    return await body();
  } finally {
    rmSync(path, { force: true });
  }
}

/** A notify command (`notifyCommand`) that appends each payload it gets on stdin to a file: what the person's notifier receives. */
function notifyHook(dir: string): { program: string; payloads(): Json[] } {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "payloads.jsonl");
  const program = join(dir, "notify.sh");
  writeFileSync(program, `#!/bin/sh\ncat >> '${file}'\necho >> '${file}'\n`);
  chmodSync(program, 0o755);
  return { program, payloads: () => jsonLines(file) };
}

function jsonLines(path: string): Json[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line): unknown => JSON.parse(line))
    .filter(isRecord);
}

/** What the loop wrote on stderr in `pi -p`: its lines start with "todo loop". */
function loopLines(ran: Ran): string[] {
  return ran.stderr.split("\n").filter((line) => line.startsWith("todo loop"));
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * An agent with open tasks asks the person, in Russian, to restart the server and check the page. 0.5's
 * forms table reads "restart …, and check …" as a request to act (`testNext`); 0.4's Russian read a
 * request to act only with something to give back ("… и напишите, что он выводит" it already held), so
 * it pushes this one.
 */
const ACT_TASKS = ["Fix the login redirect", "Update the session cookie"];
const ACT_SENTENCE = "Перезапустите, пожалуйста, сервер и проверьте, открывается ли страница.";
const ACT_SCRIPT: ScriptStep[] = [createTasks(...ACT_TASKS), say(`Редирект исправлен.\n\n${ACT_SENTENCE}`), updateTasks([1, 2]), say("Готово.")];

/** The Russian request to act on the installed `release`, with `exitCode` and a notify command set. Returns the step's summary. */
async function requestToActCheck(user: User, name: string, release: string): Promise<string> {
  const holds = versionAtLeast(release, EVIDENCE_SINCE);
  const hook = notifyHook(join(user.root, `hook-${name}`));
  const run = await withUserConfig(user, { exitCode: NEEDS_YOU_EXIT, notifyCommand: [hook.program] }, () => scriptedRun(user, name, ACT_SCRIPT, { code: holds ? NEEDS_YOU_EXIT : 0 }));
  const entries = sessionEntries(run.box);
  const evidence = `${shown(run.ran)}\n--- session ---\n${sessionText(run.box)}`;
  const waiting = `waiting for you: the agent asked: "${ACT_SENTENCE}"`;
  const got = {
    requests: requests(run.box).length,
    rounds: markerDetails(entries).map(({ round }) => round),
    stops: stopData(entries).map((stop) => [stop.kind, stop.reason]),
    lines: loopLines(run.ran),
    notified: hook.payloads().map((payload) => [payload.kind, payload.needsYou]),
    exit: run.ran.code,
  };
  const expected = holds
    ? { requests: 2, rounds: [], stops: [["question", waiting]], lines: [`todo loop: ${waiting}, 2 of 2 tasks open`], notified: [["question", true]], exit: NEEDS_YOU_EXIT }
    : { requests: ACT_SCRIPT.length, rounds: [1], stops: [["clear", "stopped: list is clear"]], lines: [], notified: [], exit: 0 };
  ensure(JSON.stringify(got) === JSON.stringify(expected), `the Russian request to act on ${release}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`, evidence);
  attempt(() => checkInvariants(run.box, { script: ACT_SCRIPT.slice(0, expected.requests), taskTexts: ACT_TASKS }), evidence);
  return `"${ACT_SENTENCE}": ${got.requests} model requests, ${plural(got.rounds.length, "todo-loop:continue marker")}, stop "${got.stops.map(([, reason]) => reason).join(", ")}" (${got.stops.map(([kind]) => kind).join(", ")}), ${plural(got.lines.length, "stderr line")}, notify command ran ${plural(got.notified.length, "time")}${got.notified.length > 0 ? ` (kind ${got.notified.map(([kind, needsYou]) => `${String(kind)}, needsYou ${String(needsYou)}`).join("; ")})` : ""}, exit ${got.exit}`;
}

/**
 * A list the agent clears, whose last reply asks the person to test the page. 0.5 announces the clear
 * stop as needing the person (its record's `handsOver`, the stderr line, the notify command, `exitCode`);
 * 0.4 stops it as a plain clear.
 */
const TEST_TASKS = ["Build the login page", "Wire the login form"];
const TEST_SENTENCE = "Please test the login page in your browser and tell me if it works.";
const TEST_SCRIPT: ScriptStep[] = [createTasks(...TEST_TASKS), say("The page is in place."), updateTasks([1, 2]), say(`All done. ${TEST_SENTENCE}`)];
const HANDED_OVER = `stopped: list is clear · the agent asks you to test it: "${TEST_SENTENCE}"`;

/** The hand-over on the installed `release`. Returns the step's summary and the session, resumed later for the line under its stop. */
async function handOverCheck(user: User, name: string, release: string): Promise<{ summary: string; session: string }> {
  const hands = versionAtLeast(release, EVIDENCE_SINCE);
  const hook = notifyHook(join(user.root, `hook-${name}`));
  const run = await withUserConfig(user, { exitCode: NEEDS_YOU_EXIT, notifyCommand: [hook.program] }, () => scriptedRun(user, name, TEST_SCRIPT, { code: hands ? NEEDS_YOU_EXIT : 0 }));
  const entries = sessionEntries(run.box);
  const evidence = `${shown(run.ran)}\n--- session ---\n${sessionText(run.box)}`;
  const got = {
    requests: requests(run.box).length,
    rounds: markerDetails(entries).map(({ round }) => round),
    stops: stops(entries).map((stop) => {
      const data = isRecord(stop.data) ? stop.data : {};
      return [data.kind, data.reason, data.handsOver ?? null];
    }),
    lines: loopLines(run.ran),
    notified: hook.payloads().map((payload) => [payload.kind, payload.needsYou, payload.detail]),
    exit: run.ran.code,
  };
  const expected = hands
    ? { requests: 4, rounds: [1], stops: [["clear", HANDED_OVER, TEST_SENTENCE]], lines: [`todo loop: ${HANDED_OVER}`], notified: [["clear", true, TEST_SENTENCE]], exit: NEEDS_YOU_EXIT }
    : { requests: 4, rounds: [1], stops: [["clear", "stopped: list is clear", null]], lines: [], notified: [], exit: 0 };
  ensure(JSON.stringify(got) === JSON.stringify(expected), `the hand-over on ${release}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`, evidence);
  attempt(() => checkInvariants(run.box, { script: TEST_SCRIPT, taskTexts: TEST_TASKS }), evidence);
  for (const line of got.lines) process.stdout.write(`${indent(`stderr: ${line}`)}\n`);
  const summary = `"All done. ${TEST_SENTENCE}": ${got.requests} model requests, ${plural(got.rounds.length, "marker")}, stop record "${String(got.stops[0]?.[1])}"${hands ? " (handsOver)" : ""}, ${plural(got.lines.length, "stderr line")}, notify command ran ${plural(got.notified.length, "time")}${hands ? " (needsYou true)" : ""}, exit ${got.exit}`;
  return { summary, session: sessionFile(run.box) };
}

/**
 * A judge the user configures (`judge` in their todo-loop.json): the classifier stand-in, loaded with `-e`
 * like any provider extension, answers p 0.9 to whether a reply the wording rule lets through waits for
 * the person. 0.5 consults it and holds; 0.4 ignores the key (a config problem on stderr) and pushes.
 */
const JUDGE_PROVIDER = join(ROOT, "test", "e2e", "stand-ins", "judge-provider.ts");
const JUDGE_MODEL = "judgefaux/jev";
const JUDGE_TASKS = ["Write the parser", "Write the tests"];
const JUDGED_SENTENCE = "Could you restart the dev server and check the page for me.";
const JUDGE_SCRIPT: ScriptStep[] = [createTasks(...JUDGE_TASKS), say(`The parser is written.\n\n${JUDGED_SENTENCE}`), updateTasks([1, 2]), say("Both tasks are done and the tests pass.")];

/** The judge on the installed `release`. Returns the step's summary. */
async function judgeCheck(user: User, name: string, release: string): Promise<string> {
  const judges = versionAtLeast(release, EVIDENCE_SINCE);
  const dir = join(user.root, `judge-${name}`);
  mkdirSync(dir, { recursive: true });
  const log = join(dir, "calls.jsonl");
  const steps = join(dir, "steps.json");
  writeFileSync(steps, JSON.stringify([{ p: 0.9, tokens: 240, cost: 0.0003 }]));
  const env = { PI_TODO_LOOP_JUDGE_LOG: log, PI_TODO_LOOP_JUDGE_SCRIPT: steps };
  const run = await withUserConfig(user, { judge: JUDGE_MODEL }, () => scriptedRun(user, name, JUDGE_SCRIPT, { extensions: [JUDGE_PROVIDER], env }));
  const entries = sessionEntries(run.box);
  const calls = jsonLines(log);
  const evidence = `${shown(run.ran)}\n--- judge calls ---\n${calls.map((call) => JSON.stringify(call)).join("\n")}\n--- session ---\n${sessionText(run.box)}`;
  const question = (call: Json): string => Object.keys(isRecord(call.questions) ? call.questions : {}).join(",");
  const reply = (call: Json): string => (isRecord(call.state) && typeof call.state.reply === "string" ? call.state.reply : "");
  const lines = loopLines(run.ran);
  const reason = `waiting for you: the judge read the reply as waiting for you: "${JUDGED_SENTENCE}"`;
  const got = {
    calls: calls.map((call) => [call.kind, call.model, question(call)]),
    requests: requests(run.box).length,
    rounds: markerDetails(entries).map(({ round }) => round),
    stops: stops(entries).map((stop) => {
      const data = isRecord(stop.data) ? stop.data : {};
      return [data.kind, data.reason, data.judge ?? null];
    }),
  };
  const expected = judges
    ? { calls: [["classify", JUDGE_MODEL, "waits"]], requests: 2, rounds: [], stops: [["question", reason, { model: JUDGE_MODEL, question: "waits", p: 0.9, tokens: 240, cost: 0.0003 }]] }
    : { calls: [], requests: JUDGE_SCRIPT.length, rounds: [1], stops: [["clear", "stopped: list is clear", null]] };
  ensure(JSON.stringify(got) === JSON.stringify(expected), `the judge on ${release}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`, evidence);
  // 0.5 says why it waits; 0.4 names the key it does not know.
  const unknownKey = /^todo loop: config problem in (.*todo-loop\.json): (unknown key "judge" ignored) \(known: [^)]*\)$/;
  const linesOk = judges ? JSON.stringify(lines) === JSON.stringify([`todo loop: ${reason}, 2 of 2 tasks open`]) : lines.length === 1 && unknownKey.exec(lines[0] ?? "")?.[1] === join(user.agentDir, "todo-loop.json");
  ensure(linesOk, `the judge on ${release}: stderr lines ${JSON.stringify(lines)}`, evidence);
  attempt(() => checkInvariants(run.box, { script: JUDGE_SCRIPT.slice(0, expected.requests), taskTexts: JUDGE_TASKS }), evidence);
  for (const call of calls) process.stdout.write(`${indent(`judge call ${String(call.call)}: ${String(call.kind)} ${String(call.model)}, question ${question(call)}, reply "${reply(call)}"`)}\n`);
  for (const line of lines) process.stdout.write(`${indent(`stderr: ${line}`)}\n`);
  const said = judges ? `stop "${reason}" with judge p 0.9, 240 tokens` : `stop "stopped: list is clear"; stderr: "todo loop: config problem in <agent dir>/todo-loop.json: ${unknownKey.exec(lines[0] ?? "")?.[2] ?? ""} (known: …)"`;
  return `${plural(got.calls.length, "classifier request")}${got.calls.length > 0 ? ` (${got.calls.map(([kind, model, asked]) => `${String(kind)} ${String(model)} "${String(asked)}"`).join(", ")})` : ""}, ${got.requests} model requests, ${plural(got.rounds.length, "marker")}, ${said}`;
}

/** `3 continuations · 2 changed something · 41k tokens · $0.12 · 6 min` (SPEC §7.2, docs/commands.md), as drawn under a stop. */
const REPORT_LINE = /^(\d+) continuations? · (\d+) changed something · \d+(?:\.\d)?[kM]? tokens(?: · \$\d+(?:\.\d+)?)?(?: · \d+ check runs?)?(?: · \d+ judge calls?)? · (?:under a minute|\d+ min|\d+ h(?: \d+ min)?)$/;

/**
 * The hand-over session resumed in the terminal with the installed `release`: the stop line the person
 * sees and, on 0.5, the line under it saying what the run's continuations spent (figures as in the stop
 * record's `report`); 0.4 draws the stop line alone.
 */
async function reportCheck(user: User, name: string, release: string, session: string): Promise<string> {
  const reports = versionAtLeast(release, EVIDENCE_SINCE);
  const stopRow = `■ todo loop ${reports ? HANDED_OVER : "stopped: list is clear"}`;
  const shownStop = (row: string): boolean => stopRow.startsWith(row.trim().replace(/…$/, "")) && row.trim().length >= 30;
  const resumed = await interactiveStart(user, name, (screen) => screen.split("\n").some(shownStop) && screen.includes("faux-1"), `the stop line "${stopRow}"`, session);
  const rows = resumed.screen.split("\n");
  const at = rows.findIndex(shownStop);
  const under = rows[at + 1]?.trim() ?? "";
  const report = stops(readFileSync(session, "utf8").split("\n").filter(Boolean).map((line): EntryRecord => JSON.parse(line))).at(-1)?.data;
  const figures = isRecord(report) && isRecord(report.report) ? report.report : undefined;
  const drawn = REPORT_LINE.exec(under);
  const reportRows = rows.filter((row) => REPORT_LINE.test(row.trim()));
  if (reports) {
    ensure(figures !== undefined, "the stop record has no report", resumed.screen);
    ensure(drawn !== null, `the line under the stop is not the report line: "${under}"`, resumed.screen);
    ensure(Number(drawn?.[1]) === figures?.continuations && Number(drawn?.[2]) === figures?.changed, `the report line "${under}" does not say the record's ${String(figures?.continuations)} continuations, ${String(figures?.changed)} changed something`, `${resumed.screen}\n--- report ---\n${JSON.stringify(figures)}`);
    ensure(reportRows.length === 1, `${reportRows.length} report lines on the screen`, resumed.screen);
  } else {
    ensure(figures === undefined && reportRows.length === 0, `${release} drew a report line or recorded a report: ${JSON.stringify(reportRows)}`, resumed.screen);
  }
  process.stdout.write(`${indent(rows.slice(at, at + (reports ? 2 : 1)).join("\n"))}\n`);
  return `stop line "${rows[at]?.trim()}"; ${reports ? `under it "${under}" (record: ${String(figures?.continuations)} continuation, ${String(figures?.changed)} changed, ${String(figures?.tokens)} tokens, $${String(figures?.cost)})` : "no report line under it, no report in the record"}; ready in ${resumed.seconds.toFixed(1)} s; ${resumed.quit}`;
}

function sessionText(box: Sandbox): string {
  return readFileSync(sessionFile(box), "utf8");
}

/** Every session file under `dir`, one after the other (for a failure's evidence). */
function sessionTextIn(dir: string): string {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => readFileSync(join(dir, name), "utf8"))
    .join("\n");
}

/** The names of the tools pi declared to the model in the session (its system entries' `toolsAdded`). */
function declaredTools(box: Sandbox): string[] {
  const names: string[] = [];
  for (const line of sessionText(box).split("\n")) {
    if (!line.startsWith("{")) continue;
    const entry: unknown = JSON.parse(line);
    const message = isRecord(entry) && entry.type === "message" && isRecord(entry.message) ? entry.message : undefined;
    if (message?.role !== "system" || !Array.isArray(message.toolsAdded)) continue;
    for (const tool of message.toolsAdded) if (isRecord(tool) && typeof tool.name === "string") names.push(tool.name);
  }
  return names;
}

/** Session entries this package wrote (`todo-loop:…` custom types). */
function loopEntries(box: Sandbox): number {
  return sessionEntries(box).filter((entry) => entry.customType?.startsWith("todo-loop:") === true).length;
}

/** The extensions pi lists under `[Extensions]` at a start, one name each (its rows up to the next blank one, split at commas). */
function extensionRows(screen: string): string[] {
  const rows = screen.split("\n");
  const start = rows.findIndex((row) => row.trim() === "[Extensions]");
  if (start < 0) return [];
  const end = rows.findIndex((row, index) => index > start && row.trim() === "");
  return rows
    .slice(start + 1, end < 0 ? undefined : end)
    .flatMap((row) => row.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

/** How pi names the installed `release` in its `[Extensions]` list: after the entry's folder, the package's own since 0.4's ./index.ts. */
function extensionLabel(release: string): string {
  return versionAtLeast(release, "0.4.0") ? NAME : `${NAME}:src`;
}

/** Lines of the screen from "Extension Updates" to the border that closes the block. */
function updatesBlock(screen: string): string[] | undefined {
  const lines = screen.split("\n");
  const start = lines.findIndex((line) => line.trim() === "Extension Updates");
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.trim().startsWith("─"));
  return end < 0 ? undefined : lines.slice(start, end);
}

/**
 * One interactive pi start in tmux: a fresh one (a new session in a session dir of its own, no `-c`),
 * or `resume` opens that session file. Waits until the screen satisfies `ready` and then holds still,
 * returns that screen, and quits with ctrl+d.
 */
async function interactiveStart(user: User, name: string, ready: (screen: string) => boolean, what: string, resume?: string, height = 90): Promise<{ screen: string; seconds: number; quit: string }> {
  const sessionDir = join(user.root, `tui-${name}`, "sessions");
  mkdirSync(sessionDir, { recursive: true });
  const started = Date.now();
  const terminal = startTerminal({
    command: [process.execPath, PI_CLI, "-e", SCRIPTED_MODEL, "--provider", "faux", "--model", "faux-1", ...(resume ? ["--session", resume] : ["--session-dir", sessionDir])],
    cwd: user.cwd,
    env: user.offline,
    width: 140,
    height,
  });
  terminals.add(terminal);
  try {
    let screen = await terminal.waitFor(ready, SCREEN_MS, what);
    const seconds = (Date.now() - started) / 1000;
    // Let the start finish drawing: the same screen for half a second (at most five seconds).
    let same = 0;
    await until(() => {
      const next = terminal.screen();
      same = next === screen ? same + 1 : 0;
      screen = next;
      return same >= 5;
    }, 5_000);
    terminal.keys("C-d");
    const quit = (await until(() => !terminal.alive(), 10_000)) ? "quit with ctrl+d" : "did not quit on ctrl+d; killed";
    return { screen, seconds, quit };
  } finally {
    terminal.stop();
    terminals.delete(terminal);
  }
}

/**
 * The ways pi may draw one line of a CHANGELOG entry, as plain(): a link as its text and its address in
 * parentheses, or (a terminal with hyperlinks) its text alone; headings keep their `### `, list items their `- `.
 */
function drawnForms(line: string): string[] {
  const link = /\[([^\]]*)\]\(([^)\s]*)\)/g;
  return [...new Set([plain(line.replace(link, "$1 ($2)")), plain(line.replace(link, "$1"))])];
}

/** Text as a terminal shows rendered Markdown: no emphasis or code marks, white space collapsed. */
function plain(text: string): string {
  return text.replace(/[*`_]/g, "").replace(/\s+/g, " ").trim();
}

/** The commit that made package.json say `version`: the previous release as it was made. */
async function releaseCommit(version: string): Promise<{ commit: string; subject: string }> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? ROOT, GIT_CONFIG_NOSYSTEM: "1" };
  const shallow = await run("git", ["rev-parse", "--is-shallow-repository"], { cwd: ROOT, env });
  ensure(shallow.code === 0, "this is not a git checkout: the previous release is packed from its commit", shown(shallow));
  ensure(shallow.stdout.trim() !== "true", `the clone is shallow, so the commit of ${version} may be missing: run git fetch --unshallow`, shown(shallow));
  const found = await runOk("git", ["log", "--reverse", "--format=%H %s", `-S"version": "${version}"`, "--", "package.json"], { cwd: ROOT, env });
  const line = found.stdout.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  const commit = line.slice(0, line.indexOf(" "));
  ensure(/^[0-9a-f]{40}$/.test(commit), `no commit made package.json say "version": "${version}"`, shown(found));
  const manifest = await runOk("git", ["show", `${commit}:package.json`], { cwd: ROOT, env });
  const said: unknown = JSON.parse(manifest.stdout);
  ensure(isRecord(said) && said.version === version, `package.json at ${commit} does not say ${version}`, manifest.stdout);
  return { commit, subject: line.slice(commit.length + 1) };
}

interface Published {
  version: string;
  files: number;
  size: number;
  versions: string[];
  latest: string;
  warnings: string;
}

/** `npm pack` in `dir`, then `npm publish` of that tarball; the registry's latest must be `version` after it. */
async function publishTree(dir: string, version: string, registry: Registry, publisher: string, env: Record<string, string>): Promise<Published> {
  const packed = await runOk("npm", ["pack", "--json", "--pack-destination", publisher], { cwd: dir, env });
  const packedJson: unknown = JSON.parse(packed.stdout.slice(Math.max(0, packed.stdout.indexOf("["))));
  const first = Array.isArray(packedJson) && isRecord(packedJson[0]) ? packedJson[0] : {};
  const tarball = typeof first.filename === "string" ? join(publisher, first.filename) : "";
  ensure(tarball !== "" && existsSync(tarball), `npm pack in ${dir} made no tarball`, shown(packed));
  ensure(first.version === version, `npm pack in ${dir} made version ${String(first.version)}, not ${version}`, shown(packed));
  const published = await runOk("npm", ["publish", tarball, "--registry", registry.url], { cwd: publisher, env });
  const after = await packument(registry, NAME);
  ensure(after.latest === version, `the registry's latest is ${JSON.stringify(after.latest)}, not ${version}`, `${shown(published)}\n--- registry log ---\n${registry.log}`);
  const warnings = `${published.stdout}\n${published.stderr}`.split("\n").filter((line) => line.startsWith("npm warn"));
  return {
    version,
    files: Array.isArray(first.files) ? first.files.length : 0,
    size: typeof first.size === "number" ? first.size : 0,
    versions: after.versions,
    latest: after.latest,
    warnings: warnings.length === 0 ? "none" : warnings.join(" | "),
  };
}

// ---------------------------------------------------------------------------------------------------
// The run

const summary: string[] = [];
let step = "start";

function begin(name: string): number {
  step = name;
  process.stdout.write(`\n==> ${name}\n`);
  return Date.now();
}

function done(started: number, detail: string): void {
  const line = `${step}: ${detail} (${((Date.now() - started) / 1000).toFixed(1)} s)`;
  summary.push(line);
  process.stdout.write(`<== ${line}\n`);
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

async function main(root: string, registryHolder: { registry?: Registry; trap?: Trap }): Promise<void> {
  let started = begin("preflight");
  ensure(tmuxAvailable(), "tmux is not installed; the interactive starts need it (apt-get install tmux)");
  const manifest = readJson(join(ROOT, "package.json"));
  const version = typeof manifest.version === "string" ? manifest.version : "";
  const parts = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  ensure(parts !== null, `package.json's version ${JSON.stringify(version)} is not x.y.z`);
  const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
  const problems = changelogProblems(changelog, version);
  ensure(problems.length === 0, `CHANGELOG.md is not ready for ${version}:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  const previous = previousRelease(changelog, version);
  ensure(previous !== undefined, `CHANGELOG.md lists no release below ${version} to update from`);
  const from = await releaseCommit(previous ?? "");
  done(started, `${NAME}@${version}, CHANGELOG has "## [${version}]"; updating from ${previous}, whose package.json came with ${from.commit.slice(0, 10)} (${from.subject})`);

  started = begin("verdaccio");
  const how = await ensureVerdaccio();
  done(started, `verdaccio ${VERDACCIO} ${how}`);

  const watchdog = setTimeout(() => {
    process.stderr.write(`\nrelease check: FAILED, still at step "${step}" after the ${RUN_MS / 1000} s limit\n`);
    void cleanup(root, registryHolder).finally(() => process.exit(1));
  }, RUN_MS);

  try {
    started = begin("registry");
    const registry = await startRegistry(join(root, "registry"));
    registryHolder.registry = registry;
    const empty = await packument(registry, NAME);
    const foreign = await packument(registry, "left-pad");
    ensure(empty.status === 404 && foreign.status === 404, `the new registry is not empty or proxies another (GET /${NAME}: ${empty.status}, GET /left-pad: ${foreign.status})`, registry.log);
    done(started, `verdaccio ${VERDACCIO} on ${registry.url}, pid ${registry.pid}, ready in ${registry.readySeconds.toFixed(1)} s; no uplinks (GET /left-pad: ${foreign.status})`);

    const trap = await startTrap();
    registryHolder.trap = trap;

    // The publisher: its own home, npm cache and userconfig with a dummy token for the local registry.
    const publisher = join(root, "publisher");
    mkdirSync(join(publisher, "home"), { recursive: true });
    const publisherRc = join(publisher, "npmrc");
    writeFileSync(publisherRc, `registry=${registry.url}\n//127.0.0.1:${registry.port}/:_authToken=dummy-release-check-token\n`);
    const publishEnv: Record<string, string> = {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: join(publisher, "home"),
      TMPDIR: publisher,
      NPM_CONFIG_USERCONFIG: publisherRc,
      npm_config_registry: registry.url,
      npm_config_cache: join(publisher, "cache"),
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    };

    started = begin(`publish ${previous}`);
    // The previous release exactly as it was committed: its tree, not this one with another version.
    const oldTree = join(publisher, `tree-${previous}`);
    mkdirSync(oldTree, { recursive: true });
    const archive = join(publisher, `tree-${previous}.tar`);
    await runOk("git", ["archive", "--format=tar", "-o", archive, from.commit], { cwd: ROOT, env: publishEnv });
    await runOk("tar", ["-xf", archive, "-C", oldTree], { cwd: publisher, env: publishEnv });
    const old = await publishTree(oldTree, previous ?? "", registry, publisher, publishEnv);
    done(started, `${NAME}@${old.version} packed from ${from.commit.slice(0, 10)}: ${old.files} files, ${(old.size / 1024).toFixed(1)} KiB; registry latest ${old.latest}; npm warnings: ${old.warnings}`);

    const user = newUser(join(root, "user"), registry, trap);

    started = begin("proxy trap");
    // Proof that the trap sees what would leave: Node's fetch and npm, each with the user's environment.
    const probeHost = "release-check-probe.invalid";
    const probes = [
      await run(process.execPath, ["-e", `fetch("http://${probeHost}/node").catch(() => {})`], { cwd: user.cwd, env: user.env, timeoutMs: 20_000 }),
      await run("npm", ["view", "probe", "--registry", `http://${probeHost}/`, "--fetch-retries=0"], { cwd: user.cwd, env: user.env, timeoutMs: 20_000 }),
    ];
    const caught = trap.seen.filter((line) => line.includes(probeHost));
    ensure(caught.length >= 2 && trap.seen.length === caught.length, `the proxy trap saw ${JSON.stringify(trap.seen)} for two probes`, probes.map(shown).join("\n"));
    trap.seen.length = 0;
    done(started, `${trap.url} caught both probes (${caught.join(" | ")})`);

    started = begin(`pi ${INSTALL.join(" ")}`);
    const install = await piOk(user, INSTALL);
    const packages = settings(user).packages;
    ensure(JSON.stringify(packages) === JSON.stringify([`npm:${NAME}`]), `settings.json packages: ${JSON.stringify(packages)}`, shown(install));
    const installedVersion = versionIn(installedDir(user));
    ensure(installedVersion === previous, `installed ${NAME} is ${installedVersion ?? "missing"}, not ${previous}`, shown(install));
    const lock = readFileSync(join(user.agentDir, "npm", "package-lock.json"), "utf8");
    ensure(lock.includes(`${registry.url}${NAME}/-/${NAME}-${previous}.tgz`), "the package was not resolved from the local registry", lock);
    done(started, `${previous} into ${installedDir(user)}, resolved from ${registry.url}; settings.json packages ${JSON.stringify(packages)}`);

    started = begin(`pi ${LIST.join(" ")}`);
    const list = await piOk(user, LIST);
    ensure(list.stdout.includes(`npm:${NAME}`) && list.stdout.includes(installedDir(user)), `pi list does not show npm:${NAME} at ${installedDir(user)}`, shown(list));
    process.stdout.write(`${indent(list.stdout)}\n`);
    done(started, `shows npm:${NAME}`);

    started = begin("scripted session, package from settings");
    const script: ScriptStep[] = [createTasks("Alpha task"), say("Stopping here."), updateTasks([1]), say("Done.")];
    const session = await scriptedRun(user, "installed", script);
    const entries = sessionEntries(session.box);
    const rounds = markerDetails(entries).map(({ round, open }) => ({ round, open }));
    const evidence = `${shown(session.ran)}\n--- session ---\n${sessionText(session.box)}`;
    ensure(JSON.stringify(rounds) === JSON.stringify([{ round: 1, open: 1 }]), `expected one todo-loop:continue marker (round 1, 1 open), got ${JSON.stringify(rounds)}`, evidence);
    ensure(JSON.stringify(stopReasons(entries)) === JSON.stringify(["stopped: list is clear"]), `stop records: ${JSON.stringify(stopReasons(entries))}`, evidence);
    attempt(() => checkInvariants(session.box, { script, taskTexts: ["Alpha task"] }), evidence);
    ensure(declaredTools(session.box).includes("todo_loop_block"), "pi did not declare todo_loop_block to the model", evidence);
    const afterPrint = recordedVersion(user);
    done(started, `${requests(session.box).length} model requests, 1 todo-loop:continue marker (round 1, 1 open), stop "stopped: list is clear", todo_loop_block declared; changelog version recorded by the print run: ${afterPrint ?? "none"}`);

    started = begin(`stuck script on ${previous}`);
    done(started, await stuckCheck(user, "stuck-old", previous ?? ""));

    started = begin(`background-work script on ${previous}`);
    done(started, await workCheck(user, "work-old", previous ?? "", versionAtLeast(previous ?? "", WAITS_SINCE)));

    started = begin(`Russian request to act on ${previous}`);
    done(started, await requestToActCheck(user, "act-old", previous ?? ""));

    started = begin(`hand-over at a clear list on ${previous}`);
    const oldHandOver = await handOverCheck(user, "handover-old", previous ?? "");
    done(started, oldHandOver.summary);

    started = begin(`judge on ${previous}`);
    const oldJudge = await judgeCheck(user, "judge-old", previous ?? "");
    done(started, `${oldJudge}; ${trap.seen.length} requests reached the proxy trap`);

    started = begin("interactive start 1");
    // pi names an extension after its entry's folder: 0.4 moved the entry from ./src/index.ts to ./index.ts.
    const oldLabel = extensionLabel(previous ?? "");
    const firstStart = await interactiveStart(user, "first", (screen) => extensionRows(screen).includes(oldLabel) && screen.includes("faux-1"), `[Extensions] with ${oldLabel} and the footer`);
    ensure(!firstStart.screen.includes("Extension Updates"), "pi showed Extension Updates on the first start after a fresh install", firstStart.screen);
    const recordedFirst = recordedVersion(user);
    ensure(recordedFirst === previous, `the first interactive start recorded ${recordedFirst ?? "nothing"}, not ${previous}`, `${firstStart.screen}\n--- settings.json ---\n${JSON.stringify(settings(user), null, 2)}`);
    done(started, `[Extensions] lists ${extensionRows(firstStart.screen).join(", ")}, ready in ${firstStart.seconds.toFixed(1)} s, no Extension Updates, recorded ${recordedFirst}; ${firstStart.quit}`);

    started = begin(`report line on ${previous}`);
    done(started, await reportCheck(user, "report-old", previous ?? "", oldHandOver.session));

    started = begin(`publish ${version}`);
    const current = await publishTree(ROOT, version, registry, publisher, publishEnv);
    done(started, `${NAME}@${current.version} packed from this tree: ${current.files} files, ${(current.size / 1024).toFixed(1)} KiB; registry versions ${current.versions.join(", ")}, latest ${current.latest}; npm warnings: ${current.warnings}`);

    started = begin(`pi ${UPDATE.join(" ")}`);
    const update = await piOk(user, UPDATE);
    const updatedVersion = versionIn(installedDir(user));
    ensure(updatedVersion === version, `after pi update --extensions the installed ${NAME} is ${updatedVersion ?? "missing"}, not ${version}`, shown(update));
    const updateLine = update.stdout.split("\n").find((line) => line.includes(`npm:${NAME}`) && line.includes("->"))?.trim() ?? "(no update line)";
    done(started, `${updateLine}; ${installedDir(user)}/package.json has ${updatedVersion}`);

    // The update is real when the next session runs the new code: a 0.4 nudge offers todo_loop_block to
    // an agent whose last reply asked something, which no 0.3 nudge does.
    started = begin(`scripted session on ${version}`);
    const updated = await scriptedRun(user, "updated", script);
    const updatedEntries = sessionEntries(updated.box);
    const updatedEvidence = `${shown(updated.ran)}\n--- session ---\n${sessionText(updated.box)}`;
    const nudges = (list: readonly EntryRecord[]): string[] => markers(list).map((marker) => textOf(marker.content));
    const updatedNudges = nudges(updatedEntries);
    ensure(updatedNudges.length === 1 && updatedNudges[0]?.includes(BLOCK_OFFER) === true, `expected one marker whose nudge offers ${BLOCK_TOOL}, got ${JSON.stringify(updatedNudges)}`, updatedEvidence);
    const oldNudges = nudges(entries);
    const oldOffers = versionAtLeast(previous ?? "", WAITS_SINCE);
    ensure(oldNudges.length === 1 && oldNudges[0]?.includes(BLOCK_OFFER) === oldOffers, `the ${previous} session's nudge ${oldOffers ? "does not offer" : "already offered"} ${BLOCK_TOOL}: ${JSON.stringify(oldNudges)}`, evidence);
    ensure(JSON.stringify(stopReasons(updatedEntries)) === JSON.stringify(["stopped: list is clear"]), `stop records: ${JSON.stringify(stopReasons(updatedEntries))}`, updatedEvidence);
    attempt(() => checkInvariants(updated.box, { script, taskTexts: ["Alpha task"] }), updatedEvidence);
    done(started, `${requests(updated.box).length} model requests, the nudge offers ${BLOCK_TOOL} ("…${BLOCK_OFFER}…"; the ${previous} nudge does not), stop "stopped: list is clear"`);

    started = begin(`stuck script on ${version}`);
    done(started, await stuckCheck(user, "stuck-new", version));

    started = begin(`background-work script on ${version}`);
    // This tree waits on work in flight whatever its version says.
    done(started, await workCheck(user, "work-new", version, true));

    started = begin(`Russian request to act on ${version}`);
    done(started, await requestToActCheck(user, "act-new", version));

    started = begin(`hand-over at a clear list on ${version}`);
    const newHandOver = await handOverCheck(user, "handover-new", version);
    done(started, newHandOver.summary);

    started = begin(`judge on ${version}`);
    const newJudge = await judgeCheck(user, "judge-new", version);
    ensure(trap.seen.length === 0, `the judge's run tried to reach beyond 127.0.0.1`, trap.seen.join("\n"));
    done(started, `${newJudge}; ${trap.seen.length} requests reached the proxy trap`);

    started = begin("interactive start 2");
    // What pi shows is this version's CHANGELOG entry: its heading and the words it opens with.
    const notes = releaseNotes(changelog, version);
    const heading = notes.heading.replace(/^## /, `${NAME} `);
    const opening = plain(notes.body.find((line) => line.trim() !== "" && !line.startsWith("#")) ?? "").split(" ").slice(0, 6).join(" ");
    ensure(opening !== "", `the "## [${version}]" entry has no text to look for`, notes.body.join("\n"));
    // The whole entry is drawn at once: a terminal tall enough to hold it.
    const height = Math.max(90, notes.body.length * 3 + 60);
    const secondStart = await interactiveStart(user, "second", (screen) => screen.includes("Extension Updates") && screen.includes("faux-1") && plain(screen).includes(opening), `"Extension Updates" with "${opening}"`, undefined, height);
    const block = updatesBlock(secondStart.screen);
    ensure(block !== undefined, "the Extension Updates block is not whole on the screen (scrolled out or unterminated)", secondStart.screen);
    const blockText = (block ?? []).join("\n");
    ensure(blockText.includes(heading) && plain(blockText).includes(opening), `the block lacks "${heading}" or "${opening}"`, secondStart.screen);
    ensure(!blockText.includes(`[${previous}]`), `the block repeats the already seen ${previous}`, secondStart.screen);
    // The entry whole: every non-blank line of it, as pi draws Markdown, somewhere in the block (pi may wrap it elsewhere).
    const entryLines = notes.body.filter((line) => line.trim() !== "");
    const drawnBlock = plain(blockText);
    const missing = entryLines.filter((line) => !drawnForms(line).some((form) => drawnBlock.includes(form)));
    ensure(missing.length === 0, `${missing.length} of the entry's ${entryLines.length} lines are not in the block:\n${missing.join("\n")}`, secondStart.screen);
    const recordedSecond = recordedVersion(user);
    ensure(recordedSecond === version, `the second start recorded ${recordedSecond ?? "nothing"}, not ${version}`, secondStart.screen);
    const shownLines = block ?? [];
    process.stdout.write(`${indent(shownLines.slice(0, 12).join("\n"))}\n    … (${shownLines.length} lines in all)\n`);
    done(started, `Extension Updates shown (${shownLines.length} lines, "${heading}", all ${entryLines.length - missing.length} of the entry's ${entryLines.length} non-blank lines found, no [${previous}]), ${height}-line terminal, ready in ${secondStart.seconds.toFixed(1)} s, recorded ${recordedSecond}; ${secondStart.quit}`);

    started = begin(`report line on ${version}`);
    done(started, await reportCheck(user, "report-new", version, newHandOver.session));

    started = begin(`pi ${REMOVE.join(" ")}`);
    const remove = await piOk(user, REMOVE);
    const listAfter = await piOk(user, LIST);
    ensure(!listAfter.stdout.includes(NAME), `pi list still shows ${NAME}`, shown(listAfter));
    ensure(!existsSync(installedDir(user)), `${installedDir(user)} is still there`, shown(remove));
    const packagesAfter = settings(user).packages;
    ensure(JSON.stringify(packagesAfter) === "[]", `settings.json packages after remove: ${JSON.stringify(packagesAfter)}`, shown(remove));
    const kept = recordedVersion(user);
    const script2: ScriptStep[] = [createTasks("Alpha task"), say("Stopping here.")];
    const after = await scriptedRun(user, "removed", script2);
    const evidence2 = `${shown(after.ran)}\n--- session ---\n${sessionText(after.box)}`;
    ensure(loopEntries(after.box) === 0, "the run after pi remove still has todo-loop entries", evidence2);
    ensure(!declaredTools(after.box).includes("todo_loop_block"), "pi still declared todo_loop_block after pi remove", evidence2);
    attempt(() => checkInvariants(after.box, { script: script2 }), evidence2);
    process.stdout.write(`${indent(listAfter.stdout)}\n`);
    done(started, `pi list: "${listAfter.stdout.trim()}"; the next run: ${requests(after.box).length} model requests, no todo-loop entry, no todo_loop_block; settings.json still records changelog version ${kept ?? "none"}`);

    // README (Uninstall): without the package pi shows a displayed marker of an old session as a plain
    // custom message, its label and fixed sentence; a hidden one stays hidden.
    started = begin("old session without the package");
    const oldMarker = markers(entries)[0];
    const displayed = oldMarker?.display === true;
    const oldSession = await interactiveStart(user, "resumed", (screen) => screen.includes("Done.") && screen.includes("faux-1"), "the resumed session's last reply", sessionFile(session.box));
    const label = `[${MARKER_TYPE}]`;
    const showsMarker = oldSession.screen.includes(label) && oldSession.screen.includes(NUDGE_PREFIX);
    ensure(showsMarker === displayed, `the old marker (display: ${oldMarker?.display}) is ${showsMarker ? "" : "not "}shown as "${label}" + "${NUDGE_PREFIX}"`, oldSession.screen);
    ensure(!extensionRows(oldSession.screen).some((row) => row.startsWith(NAME)), `the resumed session still loads ${NAME}: ${extensionRows(oldSession.screen).join(", ")}`, oldSession.screen);
    const screenLines = oldSession.screen.split("\n");
    const labelAt = screenLines.findIndex((line) => line.includes(label));
    if (displayed) process.stdout.write(`${indent(screenLines.slice(labelAt, labelAt + 5).filter((line) => line.trim() !== "").slice(0, 3).join("\n"))}\n`);
    done(started, `the old marker (display: ${oldMarker?.display}) ${displayed ? `shows as a plain custom message "${label}" + its fixed sentence` : "stays hidden"}; ${oldSession.quit}`);

    ensure(trap.seen.length === 0, `the user's pi or npm tried to reach beyond 127.0.0.1 ${trap.seen.length} times`, trap.seen.join("\n"));
    summary.push(`network: 0 requests beyond 127.0.0.1 reached the proxy trap`);
  } finally {
    clearTimeout(watchdog);
  }
}

let cleaning: Promise<string> | undefined;

/** Stops the terminals, children, registry and trap, and removes the temporary folder; once. */
function cleanup(root: string, holder: { registry?: Registry; trap?: Trap }): Promise<string> {
  cleaning ??= cleanupOnce(root, holder);
  return cleaning;
}

async function cleanupOnce(root: string, holder: { registry?: Registry; trap?: Trap }): Promise<string> {
  for (const terminal of [...terminals]) terminal.stop();
  terminals.clear();
  for (const child of [...children]) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  const stopped = holder.registry ? await holder.registry.stop() : "not started";
  await holder.trap?.close();
  if (process.env.KEEP) process.stdout.write(`kept ${root}\n`);
  else rmSync(root, { recursive: true, force: true });
  return stopped;
}

const wallStarted = Date.now();
const root = mkdtempSync(join(tmpdir(), "todo-loop-release-"));
const holder: { registry?: Registry; trap?: Trap } = {};
process.on("exit", () => {
  stopRegistryNow();
  for (const child of children) child.kill("SIGKILL");
});
let interrupted = false;
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  process.once(signal, () => {
    interrupted = true;
    process.stderr.write(`\nrelease check: interrupted by ${signal} at step "${step}"\n`);
    void cleanup(root, holder)
      .then((stopped) => process.stderr.write(`registry: ${stopped}\n`))
      .finally(() => process.exit(code));
  });
}

try {
  await main(root, holder);
  const stopped = await cleanup(root, holder);
  process.stdout.write(`\nrelease check passed in ${((Date.now() - wallStarted) / 1000).toFixed(1)} s\n${summary.map((line) => `  ${line}`).join("\n")}\n  registry: ${stopped}\n`);
} catch (error) {
  // After an interrupt the handler above reports, cleans up and exits; what failed then is its consequence.
  if (!interrupted) {
    const failure = error instanceof Failure ? error : new Failure(error instanceof Error ? error.stack ?? error.message : String(error));
    process.stderr.write(`\nrelease check: FAILED at step "${step}": ${failure.message}\n`);
    if (failure.evidence) process.stderr.write(`${indent(failure.evidence)}\n`);
    if (holder.registry) process.stderr.write(`--- verdaccio log (${holder.registry.url}) ---\n${indent(holder.registry.log || "(empty)")}\n`);
    const stopped = await cleanup(root, holder);
    process.stderr.write(`registry: ${stopped}; ${((Date.now() - wallStarted) / 1000).toFixed(1)} s\n`);
    process.exitCode = 1;
  }
}
