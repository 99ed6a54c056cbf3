/**
 * The shared shapes of the loop's rules: what the reader and the host hand to `decide()`, what it
 * hands back, and the configuration it is given. Types only: the rules that use them live in
 * `loop.ts` and the other files of `core/`.
 */
import type { TurnOutcome } from "./pi-shapes.ts";
import type { ReplyFacts } from "./reply.ts";
import type { ChildrenSetting } from "./child.ts";
export type NoListWhy = "no-tool" | "unused" | "unreadable" | "emptied";
/** Why the list is out of date: a change made through a codemode script, or one in a shape not read. */
export type StaleWhy = "codemode" | "unreadable";
export type LimitKey = "maxRounds" | "maxTokens" | "maxCost" | "maxMinutes";

/** A wait for the human: the block tool's reason, or the question the agent asked. */
export interface Wait {
  readonly reason: string;
  readonly asked: boolean;
}

export type Reason =
  | { readonly kind: "none" }
  | { readonly kind: "continuing"; readonly open: number; readonly round: number; readonly maxRounds: number | null }
  /**
   * The list is clear; `handsOver`: the settle's reply hands the testing to the person (SPEC §4.23) — the
   * sentence, sanitised — so the stop needs them.
   */
  | { readonly kind: "clear"; readonly handsOver?: string }
  | { readonly kind: "no-list"; readonly why: NoListWhy }
  | { readonly kind: "out-of-date"; readonly why: StaleWhy }
  | { readonly kind: "out-of-reach"; readonly tool: string; readonly open: number }
  | { readonly kind: "planning" }
  | { readonly kind: "waiting"; readonly reason: string; readonly asked: boolean }
  | {
      readonly kind: "limit";
      readonly limit: LimitKey;
      readonly used: number;
      readonly max: number;
      readonly open: number;
      readonly stale: number;
    }
  | { readonly kind: "idle"; readonly replies: number; readonly open: number }
  /** `shutdown`: an abort pi made while shutting down on SIGTERM or SIGHUP, not the person's Escape (SPEC §4.21). */
  /** `fixing`: the run was a verification's fix run (no task open; SPEC 0.5: a run the loop started always ends with a record). */
  | { readonly kind: "outcome"; readonly outcome: Exclude<TurnOutcome, "completed">; readonly shutdown?: boolean; readonly fixing?: true }
  | { readonly kind: "paused" }
  | { readonly kind: "resumed" }
  | { readonly kind: "reset" }
  /** `/todoloop continue`: a run started now, kept for when pi settles, or (`kept: false`, the agent busy mid-run) only pause and wait lifted. */
  | { readonly kind: "requested"; readonly started: boolean; readonly kept?: false }
  | { readonly kind: "cannot-continue"; readonly why: "nothing-open" | "kill-switch" | "out-of-date" }
  | { readonly kind: "queued" }
  | { readonly kind: "other-extension" }
  /** Another workflow (a goal or a plan) holds `workflow:mutex:v1` for this session (SPEC §4.19). */
  | { readonly kind: "other-workflow" }
  /** Tasks open from an earlier message, not yet this message's (SPEC §4.15); `list` keys the list state. */
  | { readonly kind: "earlier"; readonly open: number; readonly list: string }
  /** That many replies in a row made no progress (SPEC §4.10, busy but stuck). */
  | { readonly kind: "stuck"; readonly replies: number; readonly open: number }
  /** That many replies in a row had the same fingerprint. */
  | { readonly kind: "repeat"; readonly replies: number; readonly open: number }
  /** Waiting on work in flight (SPEC §4.17): `jobs` background jobs still running; not a stop. */
  | { readonly kind: "waiting-work"; readonly jobs: number; readonly open: number }
  /** Work still in flight after the last check-in (SPEC §4.17): `minutes` since the loop began waiting. */
  | { readonly kind: "work-timeout"; readonly minutes: number; readonly open: number }
  | VerifyReason
  | LimitWaitReason;

/**
 * A run that ended on a usage or rate limit with tasks open (SPEC §4.20): waiting until `resumeAtMs`
 * (`timer`: a timer continues the run then — TUI and RPC; print and JSON mode exit), or no longer
 * waiting because the waits under this message reached `maxLimitWaitMinutes` (`spent`) or the limit
 * resets later than what is left of it (`too-far`). `atMs`: when the loop decided (for "in 37 min").
 */
export type LimitWaitReason =
  | {
      readonly kind: "limit-wait";
      readonly state: "waiting";
      readonly resumeAtMs: number;
      readonly waitMinutes: number;
      readonly atMs: number;
      /** The message's first wait: it needs the person (they may switch model); later ones notify nothing. */
      readonly first: boolean;
      readonly timer: boolean;
    }
  | {
      readonly kind: "limit-wait";
      readonly state: "gave-up";
      readonly why: "spent" | "too-far";
      readonly capMinutes: number;
      readonly resetAtMs?: number;
      readonly atMs: number;
    };

/** What a verification run meant (SPEC §4.16); the English is in text.ts. */
export type VerifyReason =
  /** The command passed: the stop keeps its kind (`clear`, or `no-list` for an emptied list). */
  /** `handsOver`: a clear list whose reply still asks the person to test it (SPEC §4.23). */
  | { readonly kind: "verified"; readonly base: "clear" | "emptied"; readonly command: string; readonly seconds: number; readonly handsOver?: string }
  | {
      readonly kind: "verify-failed";
      readonly command: string;
      readonly exit: number;
      readonly seconds: number;
      readonly runs: number;
      /** Why no continuation: maxRuns failed runs, a limit, a pause or a queued human message. */
      readonly why: "runs" | "limit" | "paused" | "queued";
      readonly limit?: { readonly limit: LimitKey; readonly used: number; readonly max: number };
    }
  | {
      readonly kind: "verify-error";
      readonly command: string;
      readonly why: VerifyErrorWhy;
      /** The timeout in minutes, the signal name or the start error, for the words. */
      readonly detail?: string;
      readonly base: "clear" | "emptied";
    }
  | { readonly kind: "verify-continuing"; readonly command: string; readonly exit: number; readonly seconds: number; readonly round: number; readonly maxRounds: number | null };

export type VerifyErrorWhy =
  | "timeout"
  | "start"
  | "not-found"
  | "not-executable"
  | "killed"
  | "aborted"
  | "unapproved"
  | "changed"
  | "hidden-characters"
  | "untrusted";

/** The kind a stop record carries (SPEC §4.13). */
export type StopKind = "clear" | "no-list" | "limit" | "idle" | "stuck" | "repeat" | "waiting" | "question" | "out-of-reach" | "out-of-date" | "outcome" | "earlier" | "verify-failed" | "verify-error" | "limit-wait" | "work-timeout";

/** The stop this run ends with if pi settles without going on. */
export interface PendingStop {
  readonly reason: Reason;
  readonly open: number;
  readonly level: "info" | "warning";
}

/** Per-session loop state for the current anchor: a cache of what the branch says, plus this run's pending stop. */
export interface Memory {
  readonly anchor: string;
  /** Continuations asked for under this anchor. */
  readonly round: number;
  /** Task signature seen by the last settle decision. */
  readonly signature: string | undefined;
  /** Settles since the list last changed. */
  readonly staleSettles: number;
  /** Settles since the last tool turn. */
  readonly settleRun: number;
  readonly waiting: Wait | undefined;
  readonly paused: boolean;
  /** Whether this human message has had work: an open task at some point, or a continuation. */
  readonly hadWork: boolean;
  /** Stops announced since the last continuation under this anchor, by `stopKey`. */
  readonly announced: readonly string[];
  readonly pending: PendingStop | undefined;
  readonly last: Reason;
  /** The person adopted the list for this message (`/todoloop continue` or `resume`, SPEC §4.15). */
  readonly adopted: boolean;
  /** This message carries the list over as far as this process saw it arrive: queued, or answering a wait. */
  readonly carried: boolean;
  /** The last turn under this message saw a human message queued: the next message carries the list over. */
  readonly queued: boolean;
  /**
   * A `/todoloop continue` that arrived while the agent was busy (a run winding down: its last turn
   * over, pi not yet settled): the round it arrived at. Honoured when pi settles, unless the loop has
   * continued since (SPEC 0.3 §7).
   */
  readonly kept?: number | undefined;
  /** The last turn was a settle that did not continue: the run ends unless something else carries it on. */
  readonly ending?: boolean | undefined;
  /** Replies in a row without progress (SPEC §4.10). */
  readonly stuck: number;
  /** Fingerprint of the last reply, and how many replies in a row had it. */
  readonly fp: string | undefined;
  readonly repeats: number;
  /** Verification runs under this anchor (SPEC §4.16); undefined = none yet. */
  readonly verify?: VerifyMemo | undefined;
}

/** The newest verification run under the anchor: its result, and how much work the branch held then. */
export interface VerifyMemo {
  readonly command: string;
  /** Failed runs so far under this anchor (a pass keeps the count). */
  readonly runs: number;
  readonly exit: number;
  readonly seconds: number;
  /** The output as the model saw it (fenced), for a failure counted again without a new run. */
  readonly output: string;
  /** The branch's work count (non-read tool results since the anchor) when it ran. */
  readonly workAt: number;
}

/** What the branch says about the loop under its newest human message (SPEC §4.14). */
export interface BranchFacts {
  readonly anchor: string;
  readonly round: number;
  readonly idle: number;
  readonly stale: number;
  readonly signature: string | undefined;
  readonly waiting: Wait | undefined;
  readonly paused: boolean;
  readonly hadWork: boolean;
  readonly announced: readonly string[];
  /** Tasks from an earlier message (SPEC §4.15), as the branch tells them. */
  readonly earlier: EarlierFacts;
  readonly stuck: number;
  readonly fp: string | undefined;
  readonly repeats: number;
  /** The newest verification marker's run under the anchor. */
  readonly verify?: VerifyMemo | undefined;
}

/** What the branch says about tasks open from an earlier message, under the newest human message (SPEC §4.15). */
export interface EarlierFacts {
  /** Tasks were open when the message arrived: the list is from an earlier message. */
  readonly open: boolean;
  /** The message carries the list over: it answered a wait, or it directly follows a tool result or a marker. */
  readonly carried: boolean;
  /** The list is this message's now: its own tool was called, its state changed, a `continue`/`resume` or a marker under it. */
  readonly adopted: boolean;
  /** The list state the newest `earlier` stop was recorded for (`listKey`), while that state lasts untouched. */
  readonly shown: string | undefined;
  /** The anchor of the human message before this one, if any. */
  readonly before: string | undefined;
}

/** `earlierTasks`: hold a list from an earlier message until it is this message's, or go on as 0.2 did. */
export type EarlierMode = "ask" | "continue";


export type ListState =
  | {
      readonly kind: "list";
      readonly open: number;
      readonly total: number;
      readonly signature: string;
      readonly source: SourceId;
      /** The tool that keeps the list, named in the nudge; undefined for a source with no tool (plan-mode). */
      readonly tool: string | undefined;
    }
  | { readonly kind: "none"; readonly why: NoListWhy }
  /** A change after the newest readable list could not be read; `open` is that older list's count. */
  | { readonly kind: "out-of-date"; readonly why: StaleWhy; readonly open: number; readonly source: SourceId | undefined }
  | { readonly kind: "planning"; readonly source: SourceId };

export interface TurnFacts {
  readonly outcome: TurnOutcome;
  /** Tool results in this turn (0 = a settle). */
  readonly toolResults: number;
  /** Whether every tool result came from a todo tool. */
  readonly todoOnly: boolean;
  /** What each recognised todo call did. */
  readonly calls: readonly CallKind[];
  /** Open tasks when this turn's reply was written, before its tool calls ran. */
  readonly openBefore: number;
  /** Texts of tasks that were open before this turn and are gone (deleted) now. */
  readonly vanished: readonly string[];
  /** The question the reply ends with (already sanitised), if it ends with one. */
  readonly question: string | undefined;
  /** What the reply this settle ends did (a settle only); undefined when the branch does not say. */
  readonly reply: ReplyFacts | undefined;
  /**
   * The sentence with which the settle's reply hands the testing to the person (SPEC §4.23), already
   * sanitised: the text rule's finding, a fact like `question`; undefined when it hands nothing over.
   */
  readonly handsOver?: string | undefined;
}

/** Which tools the model can reach: the active set and every registered tool's exposure. */
export interface ToolFacts {
  readonly active: readonly string[];
  readonly registered: readonly { readonly name: string; readonly exposure: string | undefined }[];
}

export interface DecideInput {
  readonly memory: Memory | undefined;
  /** The branch changed under the memory (`/tree`, fork): counters come from the branch again. */
  readonly branchSwitched: boolean;
  readonly branch: BranchFacts;
  readonly turn: TurnFacts;
  readonly list: ListState;
  /** A queued message will run next anyway. */
  readonly pendingMessages: boolean;
  /** An earlier handler already asked pi to continue this turn. */
  readonly otherContinued: boolean;
  readonly limits: Limits;
  readonly stopOnQuestion: boolean;
  /** Spend since the anchor; `minutes` from the anchor's timestamp to this reply's (undefined when either is missing). */
  readonly spend: { readonly tokens: number; readonly cost: number; readonly minutes: number | undefined };
  readonly tools: ToolFacts;
  /** Config `earlierTasks` (SPEC §4.15). */
  readonly earlierTasks: EarlierMode;
  /** Another workflow holds `workflow:mutex:v1` for this session: the loop stands aside (SPEC §4.19). */
  readonly otherWorkflow?: boolean;
  /** Work in flight this session waits on (SPEC §4.17); absent: none known. */
  readonly work?: WorkFacts;
}

/** What the host knows of this session's work in flight at a settle (SPEC §4.17). */
export interface WorkFacts {
  /** Background jobs still running. */
  readonly inFlight: number;
  /**
   * The check-in schedule ran out: the third check-in was sent, and no work ended and the list did not
   * change since; the minutes since the loop began waiting. Absent: not timed out.
   */
  readonly timedOut?: number;
}

/** What a marker's `details` record (never sent to the model); fields are added, never renamed. */
export interface MarkerDetails {
  readonly v: 1;
  readonly round: number;
  readonly anchor: string;
  readonly open: number;
  readonly total: number;
  /** maxRounds when set. */
  readonly cap: number | null;
  readonly hint: boolean;
  /** Replies in a row without a tool call, this one included. */
  readonly idle: number;
  /** Replies since the list last changed. */
  readonly stale: number;
  /** Set on a `/todoloop continue` run on an out-of-date list: its nudge asks the agent to read the list first. */
  readonly reread?: true;
  /** Replies in a row without progress, this one included. */
  readonly stuck: number;
  /** This reply's fingerprint (null when unknown), and how many replies in a row had it. */
  readonly fp: string | null;
  readonly repeats: number;
  /** A verification continuation's run (SPEC §4.16). */
  readonly verify?: { readonly command: string; readonly exit: number; readonly seconds: number; readonly run: number };
  /** A continuation about work in flight (SPEC §4.17): the work ended without a word (`wake`), or a `check-in` on work still running. */
  readonly work?: "wake" | "check-in";
}

/** A marker to append: its details plus the tool the nudge names (undefined: plan-mode's convention). */
export type MarkerDraft = MarkerDetails & {
  readonly tool: string | undefined;
  readonly source: SourceId | undefined;
  /** A verification continuation's fenced output, which its nudge carries (never in the details). */
  readonly output?: string;
};

export interface StopRecord {
  readonly v: 1;
  readonly kind: StopKind;
  readonly reason: string;
  readonly round: number;
  readonly open: number;
  readonly anchor: string;
  readonly limit?: LimitKey;
  /** An `earlier` stop: the list state it was shown for (`listKey`), so a later message with the same state stays quiet. */
  readonly list?: string;
  /** A verified stop's run: `{ command, exit: 0, seconds }`; a failed one adds `run`. */
  readonly verify?: { readonly command: string; readonly exit: number; readonly seconds: number; readonly run?: number };
  /** A clear list whose reply hands the testing to the person (SPEC §4.23): the sentence, sanitised. */
  readonly handsOver?: string;
  /** A `limit-wait` that waits (SPEC §4.20): when the run continues (ISO time), and the minutes waited. */
  readonly resumeAt?: string;
  readonly waitMinutes?: number;
  /** An abort pi made while shutting down on SIGTERM or SIGHUP (SPEC §4.21): a resumed session asks about it. */
  readonly shutdown?: true;
}

export type Notice =
  | { readonly kind: "stop"; readonly reason: Reason; readonly level: "info" | "warning" }
  | { readonly kind: "emptied"; readonly how: "delete"; readonly count: number; readonly texts: readonly string[] }
  | { readonly kind: "emptied"; readonly how: "clear" | "unlabelled" }
  | {
      readonly kind: "stale";
      readonly replies: number;
      readonly open: number;
      readonly limits: Limits;
      readonly roundsLeft: number | null;
    };

export interface Decision {
  readonly memory: Memory;
  readonly continue: boolean;
  readonly marker: MarkerDraft | undefined;
  /** Warnings that are their own event (an emptied list, every 10th unchanged reply), shown now. */
  readonly notices: readonly Notice[];
}

/** The todo tool a list came from (one adapter each, in `sources/`). */
export type SourceId =
  | "rpiv-todo"
  | "ian-pascoe-pi-todo"
  | "pi-example-todo"
  | "quangthai-pi-todo"
  | "criogaid-pi-todos"
  | "criogaid-pi-todos-tasks"
  | "zhushanwen-pi-todo"
  | "plan-mode"
  | "tintinweb-pi-tasks";

/** What one successful todo call did, for the "list emptied" warnings. */
export type CallKind = "delete" | "clear" | "complete" | "other" | "unlabelled";

// Configuration, as parsed by config.ts.

export interface Limits {
  /** Continuations per human message; null = no limit. */
  readonly maxRounds: number | null;
  /** Total tokens of assistant replies since the human message; null = no limit. */
  readonly maxTokens: number | null;
  /** Dollars of assistant replies since the human message; null = no limit. */
  readonly maxCost: number | null;
  /** Minutes from the human message to the settle's reply (branch timestamps); null = no limit. */
  readonly maxMinutes: number | null;
  /** Replies in a row without a tool call before the loop stops; null = off. */
  readonly maxIdleReplies: number | null;
  /** Replies in a row without progress (no edit, command, new read or todo change) before the loop stops; null = off. */
  readonly maxStuckReplies: number | null;
  /** Replies in a row with the same fingerprint before the loop stops; null = off. */
  readonly maxRepeats: number | null;
}

export interface Config extends Limits {
  /** A settle whose reply ends with a question to the human waits instead of being nudged. */
  readonly stopOnQuestion: boolean;
  /** Continuations and stops show as one line each in the interactive transcript. */
  readonly transcript: boolean;
  /** Which announced stops reach a person who walked away (terminal notification, command hook). */
  readonly notify: NotifySetting;
  /** Program and arguments run (without a shell) for those stops; only from the user's own file. */
  readonly notifyCommand: readonly string[] | null;
  /** Exit status of a print/JSON run that ended on a stop needing the person; null leaves it to pi. */
  readonly exitCode: number | null;
  /** Tasks open from an earlier message: `"ask"` holds them until this message takes them up; `"continue"` is 0.2's behaviour. */
  readonly earlierTasks: EarlierTasks;
  /** Verification commands (SPEC §4.16), by directory prefix; empty = none. */
  readonly verify: readonly VerifyEntry[];
  /** `"verify": false` (0.5): no verification, no check looked for or offered, a project file's `verify` ignored. */
  readonly verifyOff?: boolean | undefined;
  /** Minutes of waiting for usage limits per human message (SPEC §4.20); 0 = a limit is an ordinary error stop. */
  readonly maxLimitWaitMinutes: number;
  /** How the loop behaves in a child session (SPEC §4.18): quietly, not at all, or like any session. */
  readonly children: ChildrenSetting;
  /** Minutes before the first check-in on work in flight that has not reported (SPEC §4.17); 0 = no check-ins. */
  readonly checkInMinutes: number;
}

export type EarlierTasks = "ask" | "continue";

/** `"needs-you"`: every stop but a clear list, `earlier` and an abort; `"all"`: a clear list too; `"off"`. */
export type NotifySetting = "needs-you" | "all" | "off";

/** One verification command of the user's file: for `dir` ("*" = any directory; `~` expanded when matched). */
export interface VerifyEntry {
  readonly dir: string;
  readonly command: string;
  readonly timeoutMinutes: number;
  readonly maxRuns: number;
}

export interface ConfigResult {
  readonly config: Config;
  /** One line per problem, for `/todoloop`. Empty when the file is fine or absent. */
  readonly problems: readonly string[];
}
