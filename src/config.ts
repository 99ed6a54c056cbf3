/**
 * The configuration loader. `parseConfig` is pure and falls back key by key, naming each problem;
 * `loadConfig` reads the file (a regular file only, through `io/files.ts`) and is re-run on every
 * decision so edits apply without `/reload` (parsed again only when `stat` says the file changed).
 * Where the files are: `io/paths.ts`.
 */
import { fileCache } from "./io/files.ts";
import type { FileRead } from "./io/files.ts";
import { configPath } from "./io/paths.ts";
import type { Config, ConfigResult, EarlierTasks, Limits, NotifySetting, VerifyEntry } from "./core/types.ts";
import { DEFAULT_MAX_LIMIT_WAIT_MINUTES, MAX_LIMIT_WAIT_CEILING_MINUTES } from "./core/limit-wait.ts";
import { CHILDREN_SETTINGS } from "./core/child.ts";
import { DEFAULT_CHECK_IN_MINUTES, MAX_CHECK_IN_MINUTES } from "./core/work.ts";
import type { ChildrenSetting } from "./core/child.ts";

const EARLIER_TASKS: readonly EarlierTasks[] = ["ask", "continue"];

export const NOTIFY_SETTINGS: readonly NotifySetting[] = ["needs-you", "all", "off"];


export const VERIFY_DEFAULTS = { timeoutMinutes: 10, maxRuns: 3 } as const;
export const VERIFY_CEILINGS = { timeoutMinutes: 120, maxRuns: 20 } as const;


export const DEFAULT_CONFIG: Config = {
  maxRounds: null,
  maxTokens: null,
  maxCost: null,
  maxMinutes: null,
  maxIdleReplies: 3,
  maxStuckReplies: 5,
  maxRepeats: 3,
  stopOnQuestion: true,
  transcript: true,
  notify: "needs-you",
  notifyCommand: null,
  exitCode: null,
  earlierTasks: "ask",
  verify: [],
  maxLimitWaitMinutes: DEFAULT_MAX_LIMIT_WAIT_MINUTES,
  children: "quiet",
  checkInMinutes: DEFAULT_CHECK_IN_MINUTES,
};

export const CEILINGS: Limits = { maxRounds: 1000, maxTokens: 1_000_000_000, maxCost: 10_000, maxMinutes: 10_080, maxIdleReplies: 100, maxStuckReplies: 100, maxRepeats: 100 };

type LimitKey = keyof Limits;
type FlagKey = "stopOnQuestion" | "transcript";
const LIMIT_KEYS: readonly LimitKey[] = ["maxRounds", "maxTokens", "maxCost", "maxMinutes", "maxIdleReplies", "maxStuckReplies", "maxRepeats"];
const FLAG_KEYS: readonly FlagKey[] = ["stopOnQuestion", "transcript"];
const KEYS: readonly string[] = [...LIMIT_KEYS, ...FLAG_KEYS, "notify", "notifyCommand", "exitCode", "earlierTasks", "verify", "maxLimitWaitMinutes", "children", "checkInMinutes"];
/** Keys whose value may be a fraction; the others are whole counts, rounded down. */
const FRACTIONAL: ReadonlySet<LimitKey> = new Set(["maxCost", "maxMinutes"]);

function isLimitKey(key: string): key is LimitKey {
  return (LIMIT_KEYS as readonly string[]).includes(key);
}

function isFlagKey(key: string): key is FlagKey {
  return (FLAG_KEYS as readonly string[]).includes(key);
}

function parseLimit(key: LimitKey, value: unknown, problems: string[]): number | null {
  const fallback = DEFAULT_CONFIG[key];
  const fallbackText = fallback === null ? "no limit" : `the default ${fallback}`;
  if (value === null) return null;
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    problems.push(`${key} must be a positive number or null (got ${describe(value)}); using ${fallbackText}`);
    return fallback;
  }
  if (value < 0) {
    problems.push(`${key} is negative (${value}); using ${fallbackText}`);
    return fallback;
  }
  const fractional = FRACTIONAL.has(key);
  if (fractional ? value <= 0 : value < 1) return null;
  const whole = fractional ? value : Math.floor(value);
  const ceiling = CEILINGS[key] ?? whole;
  if (whole > ceiling) {
    problems.push(`${key} ${value} is above the ceiling ${ceiling}; using ${ceiling}`);
    return ceiling;
  }
  return whole;
}

function parseFlag(key: FlagKey, value: unknown, problems: string[]): boolean {
  if (typeof value === "boolean") return value;
  const fallback = DEFAULT_CONFIG[key];
  problems.push(`${key} must be true or false (got ${describe(value)}); using ${fallback}`);
  return fallback;
}

/**
 * A program named by a relative path (`./notify.sh`, `bin/notify`): it would run from whatever project pi
 * was started in (SPEC §8, 0.4). An absolute path, `~/…` and a bare name looked up on PATH are fine.
 */
export function relativeProgram(program: string): boolean {
  return program.includes("/") && !program.startsWith("/") && !program.startsWith("~/");
}

/** The longest `notifyCommand` taken: a program and its arguments, not a script. */
const MAX_COMMAND_WORDS = 64;

/** `notify` (SPEC §7.1, §8): a bad value falls back to the default, with a problem. */
function parseNotify(value: unknown, problems: string[]): NotifySetting {
  if (typeof value === "string" && (NOTIFY_SETTINGS as readonly string[]).includes(value)) return value as NotifySetting;
  problems.push(`notify must be "needs-you", "all" or "off" (got ${describe(value)}); using "needs-you"`);
  return DEFAULT_CONFIG.notify;
}

/** `notifyCommand` (SPEC §7.1, §8): a bad value runs no command, with a problem. */
function parseNotifyCommand(value: unknown, problems: string[]): readonly string[] | null {
  if (value === null) return null;
  const words = Array.isArray(value) ? (value as readonly unknown[]) : undefined;
  const fine = words !== undefined && words.length > 0 && words.length <= MAX_COMMAND_WORDS &&
    words.every((word) => typeof word === "string" && word !== "" && !word.includes("\0"));
  if (!fine) {
    const hint = typeof value === "string" ? `, not one string: write ["program", "argument", …]` : "";
    problems.push(`notifyCommand must be a list of non-empty strings, the program first (got ${describe(value)})${hint}; no command is run`);
    return null;
  }
  const program = String(words[0]);
  if (relativeProgram(program)) {
    problems.push(`notifyCommand's program ${JSON.stringify(program.slice(0, 60))} is a relative path, which would resolve against the project directory a repository controls; write an absolute path, ~/…, or a bare name on PATH; no command is run`);
    return null;
  }
  return words as readonly string[];
}

/** `exitCode` (SPEC §7.1, §8): a bad value leaves the exit status to pi, with a problem. */
function parseExitCode(value: unknown, problems: string[]): number | null {
  if (value === null || (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 125)) return value;
  problems.push(`exitCode must be a whole number from 1 to 125 or null (got ${describe(value)}); the exit status is left to pi`);
  return null;
}

function parseEarlierTasks(value: unknown, problems: string[]): EarlierTasks {
  if (typeof value === "string" && (EARLIER_TASKS as readonly string[]).includes(value)) return value as EarlierTasks;
  const fallback = DEFAULT_CONFIG.earlierTasks;
  problems.push(`earlierTasks must be "ask" or "continue" (got ${describe(value)}); using "${fallback}"`);
  return fallback;
}

/** `children` (SPEC §4.18): "quiet", "off" or "full"; anything else is a problem and the default applies. */
function parseChildren(value: unknown, problems: string[]): ChildrenSetting {
  if (typeof value === "string" && (CHILDREN_SETTINGS as readonly string[]).includes(value)) return value as ChildrenSetting;
  const fallback = DEFAULT_CONFIG.children;
  problems.push(`children must be "quiet", "off" or "full" (got ${describe(value)}); using "${fallback}"`);
  return fallback;
}

/** `maxLimitWaitMinutes` (SPEC §4.20): minutes from 0 (off) to 1440, fractions allowed; anything else is a problem. */
function parseLimitWait(value: unknown, problems: string[]): number {
  const fallback = DEFAULT_MAX_LIMIT_WAIT_MINUTES;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    problems.push(`maxLimitWaitMinutes must be a number of minutes from 0 (off) to ${MAX_LIMIT_WAIT_CEILING_MINUTES} (got ${describe(value)}); using ${fallback}`);
    return fallback;
  }
  if (value > MAX_LIMIT_WAIT_CEILING_MINUTES) {
    problems.push(`maxLimitWaitMinutes ${value} is above the ceiling ${MAX_LIMIT_WAIT_CEILING_MINUTES}; using ${MAX_LIMIT_WAIT_CEILING_MINUTES}`);
    return MAX_LIMIT_WAIT_CEILING_MINUTES;
  }
  return value;
}

/** `checkInMinutes` (SPEC §4.17): minutes from 0 (no check-ins) to 1440, fractions allowed; anything else is a problem. */
function parseCheckIn(value: unknown, problems: string[]): number {
  const fallback = DEFAULT_CHECK_IN_MINUTES;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    problems.push(`checkInMinutes must be a number of minutes from 0 (no check-ins) to ${MAX_CHECK_IN_MINUTES} (got ${describe(value)}); using ${fallback}`);
    return fallback;
  }
  if (value > MAX_CHECK_IN_MINUTES) {
    problems.push(`checkInMinutes ${value} is above the ceiling ${MAX_CHECK_IN_MINUTES}; using ${MAX_CHECK_IN_MINUTES}`);
    return MAX_CHECK_IN_MINUTES;
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 20))}`;
  return typeof value === "object" ? "an object" : String(value);
}

/** Parses the parsed JSON of the config file. Never throws; bad keys fall back to their defaults. */
export function parseConfig(raw: unknown): ConfigResult {
  const problems: string[] = [];
  if (raw === undefined) return { config: DEFAULT_CONFIG, problems };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { config: DEFAULT_CONFIG, problems: [`the file must hold a JSON object (got ${describe(raw)}); using defaults`] };
  }
  const record: { readonly [key: string]: unknown } = raw as { readonly [key: string]: unknown };
  const config: { -readonly [K in keyof Config]: Config[K] } = { ...DEFAULT_CONFIG };
  for (const key of Object.keys(record)) {
    if (isLimitKey(key)) config[key] = parseLimit(key, record[key], problems);
    else if (isFlagKey(key)) config[key] = parseFlag(key, record[key], problems);
    else if (key === "notify") config.notify = parseNotify(record[key], problems);
    else if (key === "notifyCommand") config.notifyCommand = parseNotifyCommand(record[key], problems);
    else if (key === "exitCode") config.exitCode = parseExitCode(record[key], problems);
    else if (key === "earlierTasks") config.earlierTasks = parseEarlierTasks(record[key], problems);
    else if (key === "verify" && record[key] === false) config.verifyOff = true;
    else if (key === "verify") config.verify = parseVerify(record[key], problems, true);
    else if (key === "maxLimitWaitMinutes") config.maxLimitWaitMinutes = parseLimitWait(record[key], problems);
    else if (key === "children") config.children = parseChildren(record[key], problems);
    else if (key === "checkInMinutes") config.checkInMinutes = parseCheckIn(record[key], problems);
    else problems.push(`unknown key ${JSON.stringify(key.slice(0, 40))} ignored (known: ${KEYS.join(", ")})`);
  }
  return { config, problems };
}

function verifyNumber(where: string, key: "timeoutMinutes" | "maxRuns", value: unknown, problems: string[]): number {
  const fallback = VERIFY_DEFAULTS[key];
  if (value === undefined) return fallback;
  const whole = key === "maxRuns";
  const positive = typeof value === "number" && Number.isFinite(value) && (whole ? value >= 1 : value > 0);
  if (!positive) {
    problems.push(`${where}.${key} must be a positive number (got ${describe(value)}); using ${fallback}`);
    return fallback;
  }
  const ceiling = VERIFY_CEILINGS[key];
  const kept = whole ? Math.floor(value) : value;
  if (kept > ceiling) {
    problems.push(`${where}.${key} ${value} is above the ceiling ${ceiling}; using ${ceiling}`);
    return ceiling;
  }
  return kept;
}

function verifyObject(where: string, raw: unknown, problems: string[], needsDir: boolean): VerifyEntry | undefined {
  if (typeof raw === "string") {
    if (raw.trim() === "") {
      problems.push(`${where} is an empty command; no verification`);
      return undefined;
    }
    return { dir: "*", command: raw, ...VERIFY_DEFAULTS };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problems.push(`${where} must be a command string, an object with a command, or a list of those (got ${describe(raw)}); no verification`);
    return undefined;
  }
  const record = raw as { readonly [key: string]: unknown };
  for (const key of Object.keys(record)) {
    if (!["command", "timeoutMinutes", "maxRuns", "dir"].includes(key)) {
      problems.push(`${where}: unknown key ${JSON.stringify(key.slice(0, 40))} ignored (known: command, timeoutMinutes, maxRuns, dir)`);
    }
  }
  const { command, dir } = record;
  if (typeof command !== "string" || command.trim() === "") {
    problems.push(`${where}.command must be a non-empty string (got ${describe(command)}); no verification${needsDir ? " for this entry" : ""}`);
    return undefined;
  }
  if (dir !== undefined && (typeof dir !== "string" || dir.trim() === "")) {
    problems.push(`${where}.dir must be a path or "*" (got ${describe(dir)}); entry ignored`);
    return undefined;
  }
  if (needsDir && dir === undefined) {
    problems.push(`${where}.dir is missing (a path prefix, or "*" for any directory); entry ignored`);
    return undefined;
  }
  return {
    dir: typeof dir === "string" ? dir : "*",
    command,
    timeoutMinutes: verifyNumber(where, "timeoutMinutes", record.timeoutMinutes, problems),
    maxRuns: verifyNumber(where, "maxRuns", record.maxRuns, problems),
  };
}

/**
 * `verify` (SPEC §8): a command string, `{ command, timeoutMinutes, maxRuns }`, or (when `lists`) a list
 * of such objects each with a `dir`. Every bad shape is a problem and leaves that entry out; never throws.
 * (`false`, verification off, is the user file's only and is read by `parseConfig`.)
 */
export function parseVerify(raw: unknown, problems: string[], lists: boolean): readonly VerifyEntry[] {
  if (raw === null || raw === undefined) return [];
  if (Array.isArray(raw)) {
    if (!lists) {
      problems.push("verify must be a command string or an object with a command (got an array); no verification");
      return [];
    }
    const entries: VerifyEntry[] = [];
    raw.slice(0, 100).forEach((item, index) => {
      const entry = typeof item === "string" ? undefined : verifyObject(`verify[${index}]`, item, problems, true);
      if (typeof item === "string") problems.push(`verify[${index}] must be an object with dir and command (got ${describe(item)}); entry ignored`);
      if (entry) entries.push(entry);
    });
    return entries;
  }
  const entry = verifyObject("verify", raw, problems, false);
  return entry ? [entry] : [];
}

/** Parses the text of the config file. */
export function parseConfigText(text: string): ConfigResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    // Parse errors quote the file, line breaks included; a problem is one line.
    const why = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");
    return { config: DEFAULT_CONFIG, problems: [`invalid JSON (${why}); using defaults`] };
  }
  return parseConfig(raw);
}

/** The file's text parsed again only when the file changed (`fileCache`): every hook asks, and the renderer per line it draws. */
const readConfig = fileCache((read: FileRead): ConfigResult => {
  if (read.kind === "missing") return { config: DEFAULT_CONFIG, problems: [] };
  if (read.kind === "problem") return { config: DEFAULT_CONFIG, problems: [`the file ${read.why}; using defaults`] };
  return parseConfigText(read.text);
});

/** Reads the config file; a missing file is the defaults with no problem. */
export function loadConfig(path: string = configPath()): ConfigResult {
  return readConfig(path);
}
