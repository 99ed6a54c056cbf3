/**
 * Configuration and kill switch. `parseConfig` is pure and falls back key by key; `loadConfig` and
 * `killSwitch` are the few lines of I/O, re-run on every decision so edits apply without `/reload`.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface Limits {
  /** Continuations per human message; null = no limit. */
  readonly maxRounds: number | null;
  /** Total tokens of assistant replies since the human message; null = no limit. */
  readonly maxTokens: number | null;
  /** Dollars of assistant replies since the human message; null = no limit. */
  readonly maxCost: number | null;
}

export interface ConfigResult {
  readonly config: Limits;
  /** One line per problem, for `/todoloop`. Empty when the file is fine or absent. */
  readonly problems: readonly string[];
}

export const DEFAULT_LIMITS: Limits = { maxRounds: null, maxTokens: null, maxCost: null };

export const CEILINGS: Limits = { maxRounds: 1000, maxTokens: 1_000_000_000, maxCost: 10_000 };

type LimitKey = keyof Limits;
const KEYS: readonly LimitKey[] = ["maxRounds", "maxTokens", "maxCost"];

function isLimitKey(key: string): key is LimitKey {
  return (KEYS as readonly string[]).includes(key);
}

function parseLimit(key: LimitKey, value: unknown, problems: string[]): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    problems.push(`${key} must be a positive number or null (got ${describe(value)}); using no limit`);
    return null;
  }
  if (value < 0) {
    problems.push(`${key} is negative (${value}); using no limit`);
    return null;
  }
  const floor = key === "maxCost" ? 0 : 1;
  if (key === "maxCost" ? value <= floor : value < floor) return null;
  const whole = key === "maxCost" ? value : Math.floor(value);
  const ceiling = CEILINGS[key] ?? whole;
  if (whole > ceiling) {
    problems.push(`${key} ${value} is above the ceiling ${ceiling}; using ${ceiling}`);
    return ceiling;
  }
  return whole;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 20))}`;
  return typeof value === "object" ? "an object" : String(value);
}

/** Parses the parsed JSON of the config file. Never throws; bad keys fall back to no limit. */
export function parseConfig(raw: unknown): ConfigResult {
  const problems: string[] = [];
  if (raw === undefined) return { config: DEFAULT_LIMITS, problems };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { config: DEFAULT_LIMITS, problems: [`the file must hold a JSON object (got ${describe(raw)}); using defaults`] };
  }
  const record: { readonly [key: string]: unknown } = raw as { readonly [key: string]: unknown };
  const config: { -readonly [K in LimitKey]: number | null } = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(record)) {
    if (isLimitKey(key)) config[key] = parseLimit(key, record[key], problems);
    else problems.push(`unknown key ${JSON.stringify(key.slice(0, 40))} ignored (known: ${KEYS.join(", ")})`);
  }
  return { config, problems };
}

/** Parses the text of the config file. */
export function parseConfigText(text: string): ConfigResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    // Parse errors quote the file, line breaks included; a problem is one line.
    const why = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");
    return { config: DEFAULT_LIMITS, problems: [`invalid JSON (${why}); using defaults`] };
  }
  return parseConfig(raw);
}

/**
 * pi's rule: `$PI_CODING_AGENT_DIR` when set (a leading `~` is the home directory, a `file://` URL is its
 * path), else `~/.pi/agent`.
 */
export function agentDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.PI_CODING_AGENT_DIR;
  if (!fromEnv) return join(homedir(), ".pi", "agent");
  if (fromEnv === "~") return homedir();
  if (fromEnv.startsWith("~/")) return join(homedir(), fromEnv.slice(2));
  if (fromEnv.startsWith("file://")) {
    try {
      return fileURLToPath(fromEnv);
    } catch {
      return fromEnv;
    }
  }
  return fromEnv;
}

export function configPath(dir: string = agentDir()): string {
  return join(dir, "todo-loop.json");
}

/** Reads the config file; a missing file is the defaults with no problem. */
export function loadConfig(path: string = configPath()): ConfigResult {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = isErrno(error) ? error.code : undefined;
    if (code === "ENOENT") return { config: DEFAULT_LIMITS, problems: [] };
    const why = error instanceof Error ? error.message : String(error);
    return { config: DEFAULT_LIMITS, problems: [`cannot read the file (${why}); using defaults`] };
  }
  return parseConfigText(text);
}

function isErrno(error: unknown): error is { code: string } {
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string";
}

/** The kill-switch files, global first. */
export function killSwitchPaths(cwd: string, dir: string = agentDir()): readonly string[] {
  return [join(dir, "todo-loop-off"), join(cwd, ".pi", "todo-loop-off")];
}

/** The kill-switch file that is present, if any. */
export function killSwitch(cwd: string, dir: string = agentDir()): string | undefined {
  return killSwitchPaths(cwd, dir).find((path) => {
    try {
      return existsSync(path);
    } catch {
      return false;
    }
  });
}
