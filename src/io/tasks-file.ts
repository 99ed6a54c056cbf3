/**
 * `@tintinweb/pi-tasks` keeps its list in a file as well as in the session: where that file is, the way
 * the tool resolves it (`PI_TASKS`, `taskScope` from its config files), and reading it — a regular file
 * of at most 1 MiB only (SPEC §10). What is read is parsed by the adapter in
 * `sources/tintinweb-pi-tasks.ts`; the host joins the two.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { isRecord } from "../core/record.ts";
import { readRegularFile } from "./files.ts";

export interface TasksFileWhere {
  readonly cwd: string;
  readonly agentDir: string;
  readonly sessionId: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The workspace's directory name, the way pi names it for its own session logs. */
export function projectKey(cwd: string): string {
  const path = resolve(cwd);
  const trimmed = path.startsWith("/") || path.startsWith("\\") ? path.slice(1) : path;
  return `--${trimmed.replace(/[/\\:]/g, "-")}--`;
}

function readConfig(path: string): Record<string, unknown> {
  const read = readRegularFile(path);
  if (read.kind !== "text") return {};
  try {
    const parsed: unknown = JSON.parse(read.text);
    return isRecord(parsed) ? { ...parsed } : {};
  } catch {
    return {};
  }
}

/** `taskScope` as the tool resolves it: global config, then the project's, default "session". */
function taskScope(where: TasksFileWhere): unknown {
  const merged = { ...readConfig(join(where.agentDir, "tasks-config.json")), ...readConfig(join(where.cwd, ".pi", "tasks-config.json")) };
  return merged.taskScope ?? "session";
}

/**
 * The files the tool may hold this session's list in, newest layout first. Empty when the list lives
 * only in memory.
 */
export function tasksFileCandidates(where: TasksFileWhere): string[] {
  const named = where.env.PI_TASKS;
  if (named === "off") return [];
  if (named !== undefined && named !== "") {
    if (named.startsWith("/")) return [named];
    if (named.startsWith(".")) return [resolve(where.cwd, named)];
    const home = where.env.HOME ?? homedir();
    return [join(where.agentDir, "tasks", `${named}.json`), join(home, ".pi", "tasks", `${named}.json`)];
  }
  const scope = taskScope(where);
  if (scope === "memory") return [];
  if (scope === "session") {
    if (where.sessionId === "") return [];
    const file = `tasks-${where.sessionId}.json`;
    return [join(where.agentDir, "tasks", "sessions", projectKey(where.cwd), file), join(where.cwd, ".pi", "tasks", file)];
  }
  return [join(where.cwd, ".pi", "tasks", "tasks.json")];
}

/**
 * Reads the session's task file (read-only): the first candidate that exists wins. Undefined when no
 * file exists (never used, in memory only, or deleted after an automatic clear).
 */
export function readTasksFile<T>(where: TasksFileWhere, parse: (text: string) => T): { list: T | "unreadable"; path: string } | undefined {
  let candidates: string[];
  try {
    candidates = tasksFileCandidates(where);
  } catch {
    return undefined;
  }
  for (const path of candidates) {
    const read = readRegularFile(path);
    if (read.kind === "missing") continue;
    if (read.kind === "problem") return { list: "unreadable", path };
    return { list: parse(read.text), path };
  }
  return undefined;
}
