/**
 * Verified done (SPEC §4.16, §8): which verification command applies here, whether a settle runs it, and
 * what its result means — a verified stop, one continuation carrying its output, or a stop that needs the
 * person. Pure: plain data in, plain data out; the process itself is `verify-run.ts`, the words `text.ts`.
 */
import type { Limits, VerifyEntry } from "./types.ts";
import { limitReached, markerBase } from "./stops.ts";
import type { DecideInput, ListState, MarkerDetails, Memory, Reason, VerifyErrorWhy, VerifyMemo } from "./types.ts";
import { cleanOutputLine } from "./sanitize.ts";
import { handOverOf } from "./reach-plan.ts";
import type { FoundApproval, Pinned, PinnedCheck } from "./project-check.ts";

/** What the runner reports; it decides nothing. */
export interface VerifyResult {
  /** The shell's exit code; null when a signal ended it or it never started. */
  readonly exit: number | null;
  readonly signal: string | null;
  /** The tail of the combined output, as text. */
  readonly tail: string;
  readonly seconds: number;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Why it could not start. */
  readonly error: string | undefined;
}

/** The command that applies here, and where it came from. */
export interface VerifyCommand {
  readonly command: string;
  readonly timeoutMinutes: number;
  readonly maxRuns: number;
  /** The user's file, a project file's approved command, or the project's own check found and approved (0.5). */
  readonly source: "user" | "project" | "found";
}

/** The project's own check (SPEC §4.16, 0.5) when it is not approved as it is now: it does not run. */
export interface FoundChoice {
  readonly kind: "found";
  readonly check: PinnedCheck;
  readonly approval: Exclude<FoundApproval, { kind: "approved" }>;
  /** Never offered or approved: its text hides characters, or pi does not trust the project. */
  readonly refused: "hidden-characters" | "untrusted" | undefined;
}

export type VerifyChoice =
  | { readonly kind: "none" }
  | { readonly kind: "run"; readonly spec: VerifyCommand }
  | { readonly kind: "refused"; readonly command: string; readonly why: Extract<VerifyErrorWhy, "unapproved" | "changed" | "hidden-characters" | "untrusted"> }
  | FoundChoice;

/** How far the model's copy of the output goes. */
export const OUTPUT_LINES = 60;
export const OUTPUT_POINTS = 6000;

/** Control, format, bidi, line and paragraph separators, and other invisible characters: what is shown must be what runs. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;

/** Whether a command holds a character that would not show (a project command with one is refused). */
export function hasHiddenCharacters(command: string): boolean {
  return HIDDEN.test(command);
}

/**
 * Whether a found check's pinned text holds a character that would not show (tabs and line breaks aside,
 * CRLF included): it is never offered or run. A lone CR is not a line break: a terminal would draw the
 * text after it over the text before it.
 */
export function pinHidesCharacters(pinned: Pinned): boolean {
  return "text" in pinned && hasHiddenCharacters(pinned.text.replace(/\r\n|[\t\n]/g, " "));
}

/** A path as a prefix: slashes collapsed, one at the end (`/a//b` → `/a/b/`, `/` stays `/`). */
function asPrefix(path: string): string {
  return `${path}/`.replace(/\/+/g, "/");
}

/**
 * How well `dir` matches: the length of the prefix holding one of `cwds` (the same path or one below
 * it, never a sibling sharing letters), 0 for `"*"`, -1 for no match; `~` is the home directory and a
 * relative prefix never matches.
 */
function rank(dir: string, cwds: readonly string[], home: string): number {
  if (dir === "*") return 0;
  // A relative prefix never matches: the working directories are absolute.
  const prefix = asPrefix(dir.replace(/^~(?=\/|$)/, home));
  return cwds.some((cwd) => asPrefix(cwd).startsWith(prefix)) ? prefix.length : -1;
}

/** The user's entry for this directory: the longest matching `dir` prefix; `"*"` matches any directory last; the first of equals wins. */
export function pickUserEntry(entries: readonly VerifyEntry[], cwds: readonly string[], home: string): VerifyEntry | undefined {
  let best: VerifyEntry | undefined;
  let bestRank = -1;
  for (const entry of entries) {
    const score = rank(entry.dir, cwds, home);
    if (score > bestRank) {
      best = entry;
      bestRank = score;
    }
  }
  return best;
}

export interface ChooseInput {
  readonly user: readonly VerifyEntry[];
  /** The directory as pi gives it and its real path. */
  readonly cwds: readonly string[];
  readonly home: string;
  /** The project file's `verify`, if it proposes one. */
  readonly project: Omit<VerifyEntry, "dir"> | undefined;
  /** Whether that exact command is approved for this real directory; "changed": another command was. */
  readonly approval: "approved" | "changed" | "none";
  /** `ctx.isProjectTrusted()`; true when the host has no such function. */
  readonly trusted: boolean;
  /** The config says `"verify": false`: nothing applies, nothing is looked for (0.5). */
  readonly off?: boolean | undefined;
  /** The project's own check and its approval, looked for only when nothing else applies (0.5). */
  readonly found?: (() => { readonly check: PinnedCheck; readonly approval: FoundApproval; readonly hidden: boolean } | undefined) | undefined;
}

/**
 * Which command runs here (SPEC §8): an approved project command wins over the user file's; a project
 * command that is not approved, not trusted or holding hidden characters never runs, and is named as
 * the reason only when the user's file has nothing for this directory either.
 */
export function chooseVerify(input: ChooseInput): VerifyChoice {
  if (input.off === true) return { kind: "none" };
  const { project } = input;
  let refused: VerifyChoice | undefined;
  if (project) {
    if (hasHiddenCharacters(project.command)) refused = { kind: "refused", command: project.command, why: "hidden-characters" };
    else if (!input.trusted) refused = { kind: "refused", command: project.command, why: "untrusted" };
    else if (input.approval === "approved") return { kind: "run", spec: { ...project, source: "project" } };
    else refused = { kind: "refused", command: project.command, why: input.approval === "changed" ? "changed" : "unapproved" };
  }
  const entry = pickUserEntry(input.user, input.cwds, input.home);
  if (entry) return { kind: "run", spec: { command: entry.command, timeoutMinutes: entry.timeoutMinutes, maxRuns: entry.maxRuns, source: "user" } };
  if (refused) return refused;
  // 0.5: a project file that proposes a command is the project's answer; only without one is its check looked for.
  const found = project ? undefined : input.found?.();
  if (!found) return { kind: "none" };
  const why = found.hidden ? "hidden-characters" : !input.trusted ? "untrusted" : undefined;
  if (found.approval.kind === "approved") {
    if (why === undefined) return { kind: "run", spec: { command: found.check.command, ...FOUND_DEFAULTS, source: "found" } };
    return { kind: "found", check: found.check, approval: { kind: "none" }, refused: why };
  }
  return { kind: "found", check: found.check, approval: found.approval, refused: why };
}

/** A found check runs with the defaults of `verify` (SPEC §8). */
export const FOUND_DEFAULTS = { timeoutMinutes: 10, maxRuns: 3 } as const;

/** The lines of a command's output the model sees: cleaned, line feeds kept, the last 60 lines, at most 6,000 code points. */
export function outputTail(text: string): string {
  const lines = text.replace(/\r\n/g, "\n").split("\n").map(cleanOutputLine);
  while (lines[lines.length - 1] === "") lines.pop();
  const kept = lines.slice(-OUTPUT_LINES);
  while (kept[0] === "") kept.shift();
  const joined = kept.join("\n");
  const points = Array.from(joined);
  if (points.length <= OUTPUT_POINTS) return joined;
  // Cut where a line starts (the text ends on a non-empty line, so a line feed is never the last).
  const cut = points.slice(-OUTPUT_POINTS).join("");
  return cut.slice(cut.indexOf("\n") + 1);
}

/** The output inside a fence longer than any run of backticks in it, so nothing in it can close the fence. */
export function fenced(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text === "" ? "(no output)" : text}\n${fence}`;
}

function baseOf(memory: Memory): "clear" | "emptied" | undefined {
  const reason = memory.pending?.reason;
  if (reason?.kind === "clear") return "clear";
  if (reason?.kind === "no-list" && reason.why === "emptied") return "emptied";
  return undefined;
}

export type VerifyPlan =
  | { readonly kind: "none" }
  /** Run the command now (in this settle's turn_end). */
  | { readonly kind: "run"; readonly spec: VerifyCommand; readonly base: "clear" | "emptied" }
  /** Nothing but reads since the last run of this command: its result counts again, without a run. */
  | { readonly kind: "again"; readonly spec: VerifyCommand; readonly base: "clear" | "emptied" }
  /** Not run (a project command that is not approved): the stop says why. */
  | { readonly kind: "decided"; readonly memory: Memory }
  /** The project's own check is offered before the stop (0.5); a yes runs it as `run` would. */
  | { readonly kind: "offer"; readonly choice: FoundChoice; readonly base: "clear" | "emptied" };

/** The clear stop hands the testing to the person (SPEC §4.23) and no run under this message failed yet. */
function handsOverFirst(memory: Memory): boolean {
  const reason = memory.pending?.reason;
  if (reason === undefined || handOverOf(reason) === undefined) return false;
  return memory.verify === undefined || memory.verify.exit === 0;
}

/**
 * Whether this settle runs the verification command (SPEC §4.16 "When"): only when `decide()` would end
 * the run on a clear list or one emptied by a clear or deletes, for a message that had work — so never
 * while paused, waiting, planning or for plain chat — and not when a human message is queued, nor when
 * the reply asked the person something (`question`, already sanitised): then the loop waits for them.
 * 0.5: a reply that hands the testing to the person at a clear list (SPEC §4.23) is not that wait while
 * no run under this message has failed: the check runs first, and a pass keeps the hand-over.
 */
export function planVerify(memory: Memory, choice: VerifyChoice, pendingMessages: boolean, work: number, question?: string, mayOffer = false): VerifyPlan {
  const base = baseOf(memory);
  if (base === undefined || choice.kind === "none" || pendingMessages || memory.paused || memory.waiting !== undefined) return { kind: "none" };
  // 0.5: a found check that is not approved as it is now is no verification: an ordinary clear, offered
  // once a session in the TUI (`mayOffer`) unless refused, said never to, or the reply asks the person something.
  if (choice.kind === "found") {
    const offer = mayOffer && choice.refused === undefined && choice.approval.kind !== "never" && (question === undefined || handsOverFirst(memory));
    return offer ? { kind: "offer", choice, base } : { kind: "none" };
  }
  // 0.4: a reply that waits for the person (a question after a failed run, say) is a wait, not another
  // run: no command, no failing output pushed again; the person's answer carries the list over.
  if (question !== undefined && choice.kind === "run" && !handsOverFirst(memory)) {
    const wait: Reason = { kind: "waiting", reason: question, asked: true };
    return { kind: "decided", memory: { ...memory, waiting: { reason: question, asked: true }, last: wait, pending: { reason: wait, open: 0, level: "warning" } } };
  }
  if (choice.kind === "refused") {
    const reason: Reason = { kind: "verify-error", command: choice.command, why: choice.why, base };
    return { kind: "decided", memory: { ...memory, last: reason, pending: { reason, open: 0, level: "warning" } } };
  }
  const memo = memory.verify;
  if (memo && memo.command === choice.spec.command && work <= memo.workAt) return { kind: "again", spec: choice.spec, base };
  return { kind: "run", spec: choice.spec, base };
}

/** Why a result is no verdict on the work: it could not start, could not be found or run, was killed or ran out of time. */
export function errorOf(result: VerifyResult): { why: VerifyErrorWhy; detail?: string } | undefined {
  if (result.aborted) return { why: "aborted" };
  if (result.timedOut) return { why: "timeout" };
  if (result.error !== undefined) return { why: "start", detail: result.error };
  if (result.exit === null) return { why: "killed", detail: result.signal ?? "a signal" };
  if (result.exit === 127) return { why: "not-found" };
  if (result.exit === 126) return { why: "not-executable" };
  return undefined;
}

export interface JudgeInput {
  readonly spec: VerifyCommand;
  readonly base: "clear" | "emptied";
  /** The run's result; undefined: the last run's result counts again (plan `again`). */
  readonly result: VerifyResult | undefined;
  /** The branch's work count now. */
  readonly work: number;
  readonly limits: Limits;
  readonly spend: DecideInput["spend"];
  readonly list: ListState;
  /** Re-checked once the command finished: a human message arrived, or the person paused the loop. */
  readonly queued: boolean;
  readonly paused: boolean;
}

/** A verification continuation: the marker's details and the fenced output its content carries. */
export interface VerifyMarker {
  readonly details: MarkerDetails;
  readonly output: string;
}

export interface Judged {
  readonly memory: Memory;
  readonly marker: VerifyMarker | undefined;
  /** The stop is recorded at once (the run goes on with a human message, or is paused), not at agent_settled. */
  readonly recordNow: boolean;
}

function stop(memory: Memory, reason: Reason, level: "info" | "warning", recordNow: boolean): Judged {
  return { memory: { ...memory, last: reason, pending: { reason, open: 0, level } }, marker: undefined, recordNow };
}

/** What a verification result means (SPEC §4.16 Pass / Fail / after maxRuns / cannot start). */
export function judgeVerify(memory: Memory, input: JudgeInput): Judged {
  const { spec, base, result } = input;
  const previous = memory.verify && memory.verify.command === spec.command ? memory.verify : undefined;
  const recordNow = input.queued || input.paused;
  if (result) {
    const error = errorOf(result);
    if (error) {
      const reason: Reason = { kind: "verify-error", command: spec.command, why: error.why, base, ...(error.why === "timeout" ? { detail: String(spec.timeoutMinutes) } : error.detail ? { detail: error.detail } : {}) };
      return stop(memory, reason, "warning", recordNow);
    }
  }
  const exit = result ? (result.exit ?? 1) : (previous?.exit ?? 1);
  const seconds = result ? result.seconds : (previous?.seconds ?? 0);
  const output = result ? fenced(outputTail(result.tail)) : (previous?.output ?? fenced(""));
  const failedRuns = previous?.runs ?? 0;
  if (exit === 0) {
    const memo: VerifyMemo = { command: spec.command, runs: failedRuns, exit, seconds, output: "", workAt: input.work };
    // A pass keeps a clear stop's hand-over (SPEC §4.23): the person's check passed, and the reply still asks them to test.
    const handsOver = base === "clear" && memory.pending !== undefined ? handOverOf(memory.pending.reason) : undefined;
    if (handsOver !== undefined) return stop({ ...memory, verify: memo }, { kind: "verified", base, command: spec.command, seconds, handsOver }, "warning", recordNow);
    return stop({ ...memory, verify: memo }, { kind: "verified", base, command: spec.command, seconds }, "info", recordNow);
  }
  const runs = failedRuns + 1;
  const withMemo: Memory = { ...memory, verify: { command: spec.command, runs, exit, seconds, output, workAt: input.work } };
  const failed = (why: "runs" | "limit" | "paused" | "queued", limit?: { limit: "maxRounds" | "maxTokens" | "maxCost" | "maxMinutes"; used: number; max: number }): Judged =>
    stop(withMemo, { kind: "verify-failed", command: spec.command, exit, seconds, runs, why, ...(limit ? { limit } : {}) }, "warning", recordNow);
  if (input.queued) return failed("queued");
  if (input.paused) return failed("paused");
  if (runs >= spec.maxRuns) return failed("runs");
  // Only a limit stops a failed verification here (the idle, repeat and stuck brakes come after the limits).
  const reached = limitReached(withMemo, input.limits, input.spend, 0);
  if (reached?.kind === "limit") return failed("limit", { limit: reached.limit, used: reached.used, max: reached.max });

  const round = withMemo.round + 1;
  const next: Memory = {
    ...withMemo,
    round,
    announced: [],
    pending: undefined,
    // The run goes on with the verification continuation: it is not ending.
    ending: false,
    last: { kind: "verify-continuing", command: spec.command, exit, seconds, round, maxRounds: input.limits.maxRounds },
  };
  const list = input.list.kind === "list" ? input.list : undefined;
  const details: MarkerDetails = {
    ...markerBase(next, list ?? { open: 0, total: 0 }, input.limits),
    verify: { command: spec.command, exit, seconds, run: runs },
  };
  return { memory: next, marker: { details, output }, recordNow: false };
}
