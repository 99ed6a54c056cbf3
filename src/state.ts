/**
 * The branch reader: turns the session branch (root → leaf) into a snapshot of what the loop needs —
 * the newest todo list and its source (or that it is out of date), the anchor (newest human message),
 * the spend and the minutes since it, and the loop's own footprints (markers, the block tool's result,
 * stop records, the user's controls) from which the loop's state is rebuilt (SPEC §4.14).
 *
 * One forward fold serves both reads: a full read walks back from the leaf only as far as the newest
 * list state at or before the anchor and folds forward from there; an incremental read folds just the
 * entries appended since the last read. Never throws on any input.
 */
import { readJudgeUse } from "./core/judge.ts";
import type { SessionEntryLike, SessionManagerLike } from "./core/pi-shapes.ts";
import { SOURCES, sourceOf, TODO_TOOL_NAMES, TOOL_TABLE } from "./sources/index.ts";
import { BLOCK_TOOL, READ_ONLY_TOOLS } from "./core/tools.ts";
import type { TodoList } from "./sources/index.ts";
import type { ListState, StaleWhy, VerifyMemo, Wait } from "./core/types.ts";
import { stopKey, WAIT_KEYS } from "./core/stops.ts";
import type { StopKind } from "./core/types.ts";
import { isRecord } from "./core/record.ts";
import { goesOn, messageText } from "./core/go-on.ts";
import type { UnknownRecord } from "./core/record.ts";
import { EMPTY_TRACK, trackAssistant, trackHumanMessage, trackResult } from "./core/reply.ts";
import type { ReplyTrack } from "./core/reply.ts";
import { EMPTY_RUN, runSoFar, trackMarker, trackProgress, trackSettle, trackSpend, usageOf } from "./core/report.ts";
import type { RunTrack } from "./core/report.ts";

export const MARKER_TYPE = "todo-loop:continue";
export const STOP_TYPE = "todo-loop:stop";
export const CONTROL_TYPE = "todo-loop:control";
/** Written at a start after pi stopped mid-run (SPEC 0.5 §4.21): what follows it does not follow the dead run's work. */
export const RESTART_TYPE = "todo-loop:restart";

export type ControlAction = "pause" | "resume" | "reset" | "continue";

/** The judge's calls under the anchor and what they spent. */
export interface JudgeSpend {
  readonly calls: number;
  readonly tokens: number;
  readonly cost: number;
}

export const NO_JUDGE: JudgeSpend = { calls: 0, tokens: 0, cost: 0 };

export interface Snapshot {
  /** The newest recognised todo state; `tasks: []` when cleared. Undefined when none is on the branch. */
  readonly list: TodoList | undefined;
  /** The list as it stood when the newest assistant message was written (before that turn's tool calls). */
  readonly listAtLastReply: TodoList | undefined;
  /** Set when a change after the newest readable list could not be read (SPEC §9). */
  readonly outOfDate: StaleWhy | undefined;
  /** Id of the newest human message; "" when there is none. */
  readonly anchor: string;
  /** Epoch milliseconds of the anchor entry and of the newest assistant message since it. */
  readonly anchorTime: number | undefined;
  readonly replyTime: number | undefined;
  /** Tokens and dollars of assistant messages since the anchor, the judge's calls included (SPEC §4.22). */
  readonly tokens: number;
  readonly cost: number;
  /** The judge's calls since the anchor, as markers and stop records keep them, and their share of the spend. */
  readonly judge: JudgeSpend;
  /** Counters recorded by the newest marker since the anchor (or a reset): round, replies in a row without work, replies since the list changed. */
  readonly round: number;
  readonly idle: number;
  readonly stale: number;
  /** Signature of the list as it stood at the newest marker since the anchor. */
  readonly markerSignature: string | undefined;
  /** The wait under the anchor: the block tool's result or a question stop, unless lifted since. */
  readonly waiting: Wait | undefined;
  /** The user's pause, from the newest pause / resume / continue on the whole branch. */
  readonly paused: boolean;
  /** Whether the anchor's message had work: an open task at some point since it, or a marker. */
  readonly hadWork: boolean;
  /** Keys of the stops recorded since the newest marker under the anchor. */
  readonly announced: readonly string[];
  /** Results of a known todo tool name were seen (only complete when `list` is undefined). */
  readonly todoToolUsed: boolean;
  /** Some of those results were in a shape no adapter reads (only complete when `list` is undefined). */
  readonly unreadTodoResults: boolean;
  /** Number of entries on the branch. */
  readonly length: number;
  /** Tasks were open when the anchor's message arrived: the list is an earlier message's (SPEC §4.15). */
  readonly earlierOpen: boolean;
  /**
   * The anchor carried the list over: it answered a wait, directly follows a tool result or a marker of
   * a run still going (not across a restart's record), or only says to go on.
   */
  readonly earlierCarried: boolean;
  /** Under the anchor the list's own tool was called, its state changed, a marker, or a `continue`/`resume`. */
  readonly earlierAdopted: boolean;
  /** The list state (`listKey`) the newest `earlier` stop was recorded for, until the list is touched or a marker follows. */
  readonly earlierShown: string | undefined;
  /** The anchor of the human message before the newest one ("" when there is none). */
  readonly previousAnchor: string;
  /** Signature of the list when the anchor's message arrived. */
  readonly anchorSignature: string | undefined;
  /**
   * Whether the newest message-like entry (a message or a custom message) was a tool result or a marker,
   * with no restart recorded since: a human message arriving then was sent while the agent worked, and
   * carries the list over.
   */
  readonly afterWork: boolean;
  /**
   * The newest list of each source that holds one, oldest first; `list` is the last of them. A source
   * that says it holds no list (plan-mode off) leaves this set, uncovering the list before it.
   */
  readonly lists: readonly TodoList[];
  /** What the current reply did so far, the reply the newest assistant message ended, and what was read under the anchor. */
  readonly reply: ReplyTrack;
  /** Recorded by the newest marker since the anchor (or a reset): replies in a row without progress, the last reply's fingerprint, and how many in a row had it. */
  readonly stuck: number;
  readonly fp: string | undefined;
  readonly repeats: number;
  /** Tool results since the anchor that did more than read (SPEC §4.16: a verification runs again only after work). */
  readonly work: number;
  /** The newest verification continuation's run under the anchor (from its marker's `details.verify`). */
  readonly verify: VerifyMemo | undefined;
  /** What the continuations since the anchor, or the newest stop record under it, spent and changed (SPEC §7.2). */
  readonly run: RunTrack;
  /** The run the newest stop record under the anchor ended (its open continuation closed), if any. */
  readonly lastRun: RunTrack | undefined;
  /** The newest marker under the anchor is a hand-off and no stop was recorded since (SPEC §4.24). */
  readonly handOff: boolean;
}

export const EMPTY_SNAPSHOT: Snapshot = {
  list: undefined,
  listAtLastReply: undefined,
  outOfDate: undefined,
  anchor: "",
  anchorTime: undefined,
  replyTime: undefined,
  tokens: 0,
  cost: 0,
  judge: NO_JUDGE,
  round: 0,
  idle: 0,
  stale: 0,
  markerSignature: undefined,
  waiting: undefined,
  paused: false,
  hadWork: false,
  announced: [],
  todoToolUsed: false,
  unreadTodoResults: false,
  length: 0,
  earlierOpen: false,
  earlierCarried: false,
  earlierAdopted: false,
  earlierShown: undefined,
  previousAnchor: "",
  anchorSignature: undefined,
  afterWork: false,
  lists: [],
  reply: EMPTY_TRACK,
  stuck: 0,
  fp: undefined,
  repeats: 0,
  work: 0,
  verify: undefined,
  run: EMPTY_RUN,
  lastRun: undefined,
  handOff: false,
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The list an entry persists, from the first source that recognises it. */
export function readList(entry: unknown): TodoList | undefined {
  if (!isRecord(entry)) return undefined;
  for (const source of SOURCES) {
    const list = source.read(entry);
    if (list) return list;
  }
  return undefined;
}

function messageOf(entry: SessionEntryLike): UnknownRecord | undefined {
  if (entry.type !== "message" || !isRecord(entry.message)) return undefined;
  return entry.message;
}

function isHumanMessage(entry: unknown): entry is SessionEntryLike {
  return isRecord(entry) && messageOf(entry)?.role === "user";
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function timeOf(entry: SessionEntryLike): number | undefined {
  const value = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** Text and thinking of an assistant message, for sources closed by what the model writes. */
function replyWithThinking(message: UnknownRecord): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    if (block.type === "thinking" && typeof block.thinking === "string") parts.push(block.thinking);
  }
  return parts.join("\n");
}

function blockReason(message: UnknownRecord): string | undefined {
  if (message.toolName !== BLOCK_TOOL || message.isError === true) return undefined;
  const details = message.details;
  if (!isRecord(details) || details.waiting !== true || typeof details.reason !== "string") return undefined;
  return details.reason;
}

const STOP_KINDS: ReadonlySet<string> = new Set<StopKind>(["clear", "no-list", "limit", "idle", "stuck", "repeat", "waiting", "question", "out-of-reach", "out-of-date", "outcome", "earlier", "verify-failed", "verify-error", "limit-wait", "work-timeout"]);

/** Records written before stop kinds existed are known by their reason's wording. */
const LEGACY_STOPS: readonly (readonly [RegExp, StopKind, string?])[] = [
  [/^stopped: list is clear/, "clear"],
  [/^stopped: no list/, "no-list"],
  [/^stopped: turn outcome was/, "outcome"],
  [/^stopped: \d+ continuations? used/, "limit", "maxRounds"],
  [/^stopped: token limit/, "limit", "maxTokens"],
  [/^stopped: cost limit/, "limit", "maxCost"],
  [/^waiting for you: the agent asked/, "question"],
  [/^waiting for you/, "waiting"],
];

/** The stop a record stands for, as a `stopKey`, plus the question it waits on (question stops). */
function readStop(data: unknown): { key: string; question: string | undefined } | undefined {
  if (!isRecord(data) || typeof data.reason !== "string") return undefined;
  let kind: StopKind | undefined;
  let limit: string | undefined;
  if (typeof data.kind === "string" && STOP_KINDS.has(data.kind)) {
    kind = data.kind as StopKind;
    limit = typeof data.limit === "string" ? data.limit : undefined;
  } else {
    const legacy = LEGACY_STOPS.find(([pattern]) => pattern.test(String(data.reason)));
    if (!legacy) return { key: `reason:${data.reason}`, question: undefined };
    [, kind, limit] = legacy;
  }
  const asked = /^waiting for you: the (?:agent asked|judge read the reply as waiting for you): "(.*)"$/.exec(data.reason);
  return { key: stopKey(kind, limit), question: kind === "question" ? (asked?.[1] ?? data.reason) : undefined };
}

/** The list state an `earlier` stop record was shown for. */
function earlierShownBy(data: unknown): string | undefined {
  return isRecord(data) && data.kind === "earlier" && typeof data.list === "string" ? data.list : undefined;
}

function controlAction(entry: SessionEntryLike): ControlAction | undefined {
  if (entry.type !== "custom" || entry.customType !== CONTROL_TYPE || !isRecord(entry.data)) return undefined;
  const { action } = entry.data;
  return action === "pause" || action === "resume" || action === "reset" || action === "continue" ? action : undefined;
}

/** Whether a tool result's codemode calls may have changed the list without leaving it on the branch. */
function madeThroughCodemode(message: UnknownRecord, list: TodoList | undefined): boolean {
  const nested = message.nestedCalls;
  if (!isRecord(nested)) return false;
  const tools = list ? sourceOf(list.source) : undefined;
  if (list && !tools?.resultsCarryList) return false;
  const names = list ? new Set(tools?.toolNames ?? []) : RESULT_TOOL_NAMES;
  if (nested.complete === false) return list !== undefined || (Array.isArray(nested.calls) && nested.calls.length > 0);
  return Array.isArray(nested.calls) && nested.calls.some((call) => isRecord(call) && typeof call.name === "string" && names.has(call.name));
}

/** Tool names of sources whose results carry the list. */
const RESULT_TOOL_NAMES: ReadonlySet<string> = new Set(SOURCES.filter((source) => source.resultsCarryList).flatMap((source) => source.toolNames));

function onHumanMessage(state: Mutable<Snapshot>, entry: SessionEntryLike, index: number): void {
  // How the message arrived, before the previous message's state is dropped (SPEC §4.15).
  state.earlierOpen = openCount(state.list) > 0;
  // 0.4: a message that only tells the agent to go on ("continue", "keep going", …) carries the list over too.
  state.earlierCarried = state.waiting !== undefined || state.afterWork || goesOn(messageText(isRecord(entry.message) ? entry.message.content : undefined));
  state.earlierAdopted = false;
  state.anchorSignature = state.list ? signature(state.list) : undefined;
  state.afterWork = false;
  state.previousAnchor = state.anchor;
  state.anchor = typeof entry.id === "string" && entry.id !== "" ? entry.id : `#${index}`;
  state.anchorTime = timeOf(entry);
  state.replyTime = undefined;
  state.tokens = 0;
  state.cost = 0;
  state.judge = NO_JUDGE;
  state.round = 0;
  state.idle = 0;
  state.stale = 0;
  state.markerSignature = undefined;
  state.waiting = undefined;
  state.announced = [];
  state.hadWork = openCount(state.list) > 0;
  state.reply = trackHumanMessage();
  state.stuck = 0;
  state.fp = undefined;
  state.repeats = 0;
  state.work = 0;
  state.verify = undefined;
  state.run = EMPTY_RUN;
  state.lastRun = undefined;
  state.handOff = false;
}

/** Tool names of the list's own tool: its source's, or any todo tool's while no list is on the branch. */
function listToolNames(list: TodoList | undefined): ReadonlySet<string> | readonly string[] {
  return list ? (sourceOf(list.source)?.toolNames ?? []) : TODO_TOOL_NAMES;
}

function hasName(names: ReadonlySet<string> | readonly string[], name: string): boolean {
  return names instanceof Set ? names.has(name) : (names as readonly string[]).includes(name);
}

/** Whether a tool result is a call of the list's own tool, directly or from a codemode script (a read counts). */
function callsListTool(message: UnknownRecord, list: TodoList | undefined): boolean {
  const names = listToolNames(list);
  if (typeof message.toolName === "string" && hasName(names, message.toolName)) return true;
  const nested = message.nestedCalls;
  if (!isRecord(nested) || !Array.isArray(nested.calls)) return false;
  return nested.calls.some((call) => isRecord(call) && typeof call.name === "string" && hasName(names, call.name));
}

/** The agent touched the list: it is this message's, and a later earlier-message stop is news again. */
function touched(state: Mutable<Snapshot>): void {
  state.earlierAdopted = true;
  state.earlierShown = undefined;
}

function onToolResult(state: Mutable<Snapshot>, entry: SessionEntryLike, message: UnknownRecord): void {
  state.idle = 0;
  state.afterWork = true;
  if (callsListTool(message, state.list)) touched(state);
  // What the agent saw: the list as this result leaves it (its own list, or the one standing).
  const after = readList(entry) ?? state.list;
  // This result's own progress (the reply's is an "or" of every result's), for the continuation it belongs to (SPEC §7.2).
  const before = state.reply.progress;
  const next = trackResult(TOOL_TABLE, { ...state.reply, progress: false }, message, after ? signature(after) : "");
  state.reply = before ? { ...next, progress: true } : next;
  if (next.progress) state.run = trackProgress(state.run);
  const reason = blockReason(message);
  if (reason !== undefined) state.waiting = { reason, asked: false };
  if (madeThroughCodemode(message, state.list)) state.outOfDate = "codemode";
  const { toolName } = message;
  if (typeof toolName !== "string" || message.isError === true || !TODO_TOOL_NAMES.has(toolName)) return;
  state.todoToolUsed = true;
  // Only successful results that should carry a list can be unreadable ones (a rejected call is no state).
  if (!RESULT_TOOL_NAMES.has(toolName) || !succeeded(message) || readList(entry)) return;
  state.unreadTodoResults = true;
  const source = state.list ? sourceOf(state.list.source) : undefined;
  // A successful result of the list's own tool that should carry the list, but cannot be read.
  if (source?.resultsCarryList && source.toolNames.includes(toolName)) state.outOfDate = "unreadable";
}

/** A tool result that is no error: not `isError`, no `details.error`, no `details.success === false`. */
function succeeded(message: UnknownRecord): boolean {
  const { details } = message;
  if (!isRecord(details)) return true;
  return (details.error === undefined || details.error === null || details.error === false) && details.success !== false;
}

/** A judge call kept on the branch: counted with the spend since the anchor (SPEC §4.22). */
function addJudge(state: Mutable<Snapshot>, raw: unknown): void {
  const use = readJudgeUse(raw);
  if (!use) return;
  state.tokens += use.tokens;
  state.cost += use.cost;
  state.judge = { calls: state.judge.calls + 1, tokens: state.judge.tokens + use.tokens, cost: state.judge.cost + use.cost };
}

/** The list's signature as the run's report compares it ("" without a list). */
function listSignature(state: Snapshot): string {
  return state.list ? signature(state.list) : "";
}

/** The run as it stands: its open continuation counted with what it changed so far (SPEC §7.2). */
export function currentRun(snapshot: Snapshot): RunTrack {
  return runSoFar(snapshot.run, snapshot.run.open ? listSignature(snapshot) : "");
}

function onMarker(state: Mutable<Snapshot>, entry: SessionEntryLike): void {
  const details = isRecord(entry.details) ? entry.details : {};
  // Before the counters change: a continuation still open closes with what it did so far.
  state.run = trackMarker(state.run, details, listSignature(state), readJudgeUse(details.judge));
  state.handOff = details.handOff === true;
  addJudge(state, details.judge);
  state.round = count(details.round) ?? state.round + 1;
  state.idle = count(details.idle) ?? 1;
  state.stale = count(details.stale) ?? 0;
  state.stuck = count(details.stuck) ?? 0;
  state.fp = typeof details.fp === "string" && details.fp !== "" ? details.fp : undefined;
  state.repeats = count(details.repeats) ?? 0;
  state.markerSignature = state.list ? signature(state.list) : undefined;
  // The loop only continues once a wait is over: a marker after it means it was lifted.
  state.waiting = undefined;
  state.announced = [];
  state.hadWork = true;
  state.afterWork = true;
  touched(state);
  const verify = verifyOf(details, entry.content, state.work);
  if (verify) state.verify = verify;
}

/** A verification marker's run (`details.verify`) and the fenced output its content carried. */
function verifyOf(details: UnknownRecord, content: unknown, work: number): VerifyMemo | undefined {
  const verify = details.verify;
  if (!isRecord(verify) || typeof verify.command !== "string") return undefined;
  const run = count(verify.run);
  const exit = typeof verify.exit === "number" && Number.isInteger(verify.exit) ? verify.exit : undefined;
  if (run === undefined || exit === undefined) return undefined;
  const seconds = typeof verify.seconds === "number" && Number.isFinite(verify.seconds) && verify.seconds >= 0 ? verify.seconds : 0;
  const text = typeof content === "string" ? content : "";
  const output = /(`{3,})text\n[\s\S]*?\n\1/.exec(text)?.[0] ?? "```text\n(no output)\n```";
  return { command: verify.command, runs: run, exit, seconds, output, workAt: work };
}

function onControl(state: Mutable<Snapshot>, action: ControlAction): void {
  // `continue` and `resume` adopt the list for the rest of the message (SPEC §4.15).
  if (action === "resume" || action === "continue") state.earlierAdopted = true;
  if (action === "pause") {
    state.paused = true;
    return;
  }
  state.waiting = undefined;
  // A lifted wait: the next one is a new stop.
  state.announced = state.announced.filter((key) => !WAIT_KEYS.includes(key));
  if (action === "resume" || action === "continue") state.paused = false;
  if (action === "reset") {
    state.round = 0;
    state.idle = 0;
    state.stale = 0;
    state.markerSignature = undefined;
    state.announced = [];
    state.stuck = 0;
    state.fp = undefined;
    state.repeats = 0;
    state.verify = undefined;
  }
}

/** Folds one entry (at branch position `index`) into the state. */
function fold(state: Mutable<Snapshot>, raw: unknown, index: number): void {
  state.length = index + 1;
  if (!isRecord(raw)) return;
  const entry: SessionEntryLike = raw;
  const message = messageOf(entry);
  if (message) {
    if (message.role === "user") return onHumanMessage(state, entry, index);
    // A tool result sets it again below.
    state.afterWork = false;
    if (message.role === "assistant") {
      const spent = usageOf(message);
      state.tokens += spent.tokens;
      state.cost += spent.cost;
      state.run = trackSpend(state.run, spent);
      state.replyTime = timeOf(entry) ?? state.replyTime;
      state.listAtLastReply = state.list;
      state.reply = trackAssistant(state.reply, message);
      const apply = state.list && !state.outOfDate ? sourceOf(state.list.source)?.applyReply : undefined;
      if (apply && state.list) {
        const before = state.list;
        setCurrent(state, apply(state.list, replyWithThinking(message)));
        // A source returns the list it was given when the reply closes nothing.
        if (state.list !== before) touched(state);
      }
      if (state.reply.last && state.run.open) state.run = trackSettle(state.run, listSignature(state));
      return;
    }
    if (message.role === "toolResult") {
      onToolResult(state, entry, message);
      const name = typeof message.toolName === "string" ? message.toolName : "";
      // A todo call is work when it changed the list (below); any other call but a known read is work.
      if (!READ_ONLY_TOOLS.has(name) && !TODO_TOOL_NAMES.has(name)) state.work += 1;
    }
  } else if (entry.type === "custom_message" && entry.customType === MARKER_TYPE) {
    return onMarker(state, entry);
  } else if (entry.type === "custom" && entry.customType === STOP_TYPE) {
    const stop = readStop(entry.data);
    if (isRecord(entry.data)) addJudge(state, entry.data.judge);
    if (stop && !state.announced.includes(stop.key)) state.announced = [...state.announced, stop.key];
    const shown = earlierShownBy(entry.data);
    if (shown !== undefined) state.earlierShown = shown;
    if (stop?.question !== undefined) state.waiting = { reason: stop.question, asked: true };
    // A recorded stop ends the run: what follows under the message is another run (SPEC §7.2).
    state.lastRun = currentRun(state);
    state.run = EMPTY_RUN;
    state.handOff = false;
    return;
  } else if (entry.type === "custom") {
    const action = controlAction(entry);
    if (action) return onControl(state, action);
    if (entry.customType === RESTART_TYPE) {
      // pi started again after the run died: a message now is not sent while that run was going.
      state.afterWork = false;
      return;
    }
  }
  if (entry.type === "custom_message") state.afterWork = false;
  const list = readList(entry);
  if (list?.none) return onNoList(state, list);
  if (list) {
    // A readable change of the list under the message adopts it; any state written ends the quiet
    // spell of an earlier-message stop (a full read starts at such an entry, so both reads agree).
    if (state.anchor !== "" && signature(list) !== state.anchorSignature) state.earlierAdopted = true;
    state.earlierShown = undefined;
    if (!state.list || signature(state.list) !== signature(list)) state.work += 1;
    setCurrent(state, list);
    state.outOfDate = undefined;
    if (openCount(list) > 0) state.hadWork = true;
    return;
  }
  // An entry of a state type that no adapter reads: an unknown status or a new shape.
  if (entry.type === "custom" && typeof entry.customType === "string" && STATE_TYPES.has(entry.customType)) {
    state.unreadTodoResults = true;
    const source = state.list ? sourceOf(state.list.source) : undefined;
    if (source?.stateTypes.includes(entry.customType)) state.outOfDate = "unreadable";
  }
}

const STATE_TYPES: ReadonlySet<string> = new Set(SOURCES.flatMap((source) => source.stateTypes));

/** Whether a source can say it holds no list, so that an older list may show again (plan-mode). */
function saysNoList(list: TodoList): boolean {
  return sourceOf(list.source)?.saysNoList === true;
}

/**
 * `list` becomes its source's newest list and the current one. A list of a source that never says it
 * holds none is never uncovered again, so nothing older needs keeping below it.
 */
function setCurrent(state: Mutable<Snapshot>, list: TodoList): void {
  const below = saysNoList(list) ? state.lists.filter((held) => held.source !== list.source) : [];
  state.lists = [...below, list];
  state.list = list;
}

/**
 * A source says it holds no list (plan-mode off): its own list ends, uncovering the newest list another
 * source holds; another source's current list stays as it is (SPEC 0.3 §9).
 */
function onNoList(state: Mutable<Snapshot>, none: TodoList): void {
  const current = state.list?.source === none.source;
  state.lists = state.lists.filter((held) => held.source !== none.source);
  if (!current) return;
  state.list = state.lists[state.lists.length - 1];
  state.outOfDate = undefined;
}

/** Whether the newest pause / resume / continue on the branch is a pause (the pause spans messages). */
function pausedOn(branch: readonly unknown[], before: number): boolean {
  for (let index = before - 1; index >= 0; index--) {
    const entry = branch[index];
    if (!isRecord(entry)) continue;
    const action = controlAction(entry);
    if (action === "pause") return true;
    if (action === "resume" || action === "continue") return false;
  }
  return false;
}

/**
 * The session's pause (SPEC 0.3 §7): whether the newest pause / resume / continue record anywhere in the
 * session file — every branch, in append order — is a pause. The pause belongs to the session, so a
 * `/tree` move keeps it; a fork copies only its branch, so only that branch's records count there.
 */
export function sessionPaused(entries: readonly unknown[]): boolean {
  if (!Array.isArray(entries)) return false;
  return pausedOn(entries, entries.length);
}

/**
 * Reads a whole branch (root → leaf). Walks back from the leaf to the anchor and on to the newest list
 * state at or before it of a source that never says it holds no list (nothing older can show through
 * it; plan-mode's lists can be uncovered, so the walk goes past them), then folds forward from there;
 * the pause comes from the newest control before.
 */
export function readSnapshot(branch: readonly unknown[]): Snapshot {
  if (!Array.isArray(branch)) return EMPTY_SNAPSHOT;
  let anchorFound = false;
  let listAt = -1;
  let previousHuman = -1;
  // Back from the leaf, past the anchor, until a lasting list and the previous human message are both
  // behind. Plan mode's lists are passed: one that says "no list" may uncover an older list of another
  // source. From the previous human message on, too: how the anchor arrived (a wait it answers) is read
  // there. A second list or message met before the walk ends marks a place between the two, so the
  // start stays the older of the first two found.
  for (let index = branch.length - 1; index >= 0 && (listAt < 0 || previousHuman < 0); index--) {
    const entry = branch[index];
    if (!anchorFound) {
      anchorFound = isHumanMessage(entry);
      continue;
    }
    const list = readList(entry);
    if (list && !saysNoList(list)) listAt = index;
    if (isHumanMessage(entry)) previousHuman = index;
  }
  // The older of the two; with either missing, everything before the anchor (it is what the anchor follows).
  const start = Math.max(0, Math.min(listAt, previousHuman));
  const state: Mutable<Snapshot> = { ...EMPTY_SNAPSHOT, paused: pausedOn(branch, start) };
  for (let index = start; index < branch.length; index++) fold(state, branch[index], index);
  state.length = branch.length;
  return state;
}

/** Folds entries appended after `previous` (in root → leaf order). */
export function extendSnapshot(previous: Snapshot, appended: readonly unknown[]): Snapshot {
  const state: Mutable<Snapshot> = { ...previous };
  for (let offset = 0; offset < appended.length; offset++) fold(state, appended[offset], previous.length + offset);
  return state;
}

/** How the branch relates to the one the reader saw last. */
export type BranchChange = "first" | "same" | "appended" | "switched";

export interface BranchRead {
  readonly snapshot: Snapshot;
  readonly change: BranchChange;
}

export interface BranchReader {
  read(session: SessionManagerLike): BranchRead;
}

/** How far an incremental read walks back before it settles for a full read. */
const MAX_INCREMENTAL_WALK = 10_000;

function entryId(entry: unknown): string | undefined {
  return isRecord(entry) && typeof entry.id === "string" ? entry.id : undefined;
}

/**
 * A reader that remembers where its last read ended (the leaf id and the snapshot) and folds only the
 * entries appended since, walking `getEntry(parentId)` back from the new leaf. When the remembered leaf
 * is not an ancestor (a `/tree` move, a fork, another session) it reads the whole branch again.
 * Retains one snapshot: O(1) in the session's length.
 */
export function createBranchReader(): BranchReader {
  let lastLeaf: string | undefined;
  let last: Snapshot | undefined;

  function incremental(session: SessionManagerLike, leaf: string): Snapshot | undefined {
    if (!last || lastLeaf === undefined || typeof session.getEntry !== "function") return undefined;
    const appended: unknown[] = [];
    let id: unknown = leaf;
    while (typeof id === "string" && appended.length <= MAX_INCREMENTAL_WALK) {
      if (id === lastLeaf) return extendSnapshot(last, appended.reverse());
      const entry = session.getEntry(id);
      if (!isRecord(entry)) return undefined;
      appended.push(entry);
      id = entry.parentId;
    }
    return undefined;
  }

  return {
    read(session) {
      const leaf = typeof session.getLeafId === "function" ? session.getLeafId() : undefined;
      if (typeof leaf === "string" && last && leaf === lastLeaf) return { snapshot: last, change: "same" };
      if (typeof leaf === "string") {
        const next = incremental(session, leaf);
        if (next) {
          lastLeaf = leaf;
          last = next;
          return { snapshot: next, change: "appended" };
        }
      }
      const branch = session.getBranch();
      const entries: readonly unknown[] = Array.isArray(branch) ? branch : [];
      let change: BranchChange = "first";
      if (lastLeaf !== undefined) {
        change = "switched";
        for (let index = entries.length - 1; index >= 0; index--) {
          if (entryId(entries[index]) === lastLeaf) {
            change = "appended";
            break;
          }
        }
      }
      last = readSnapshot(entries);
      lastLeaf = typeof leaf === "string" ? leaf : entryId(entries[entries.length - 1]);
      return { snapshot: last, change };
    },
  };
}

/** The task signature: id, status and text of every task, so any edit of the list is progress. */
export function signature(list: TodoList): string {
  return JSON.stringify(list.tasks.map((task) => [task.id, task.status, task.text]));
}

/** The list as the loop sees it, or why there is none. */
export function listState(snapshot: Snapshot, todoToolActive: boolean): ListState {
  const { list } = snapshot;
  if (snapshot.outOfDate) return { kind: "out-of-date", why: snapshot.outOfDate, open: openCount(list), source: list?.source };
  if (list?.planning) return { kind: "planning", source: list.source };
  if (list && list.tasks.length > 0) {
    const open = openCount(list);
    const hasTool = (sourceOf(list.source)?.toolNames.length ?? 0) > 0;
    return {
      kind: "list",
      open,
      total: list.tasks.length,
      signature: signature(list),
      source: list.source,
      tool: hasTool ? list.tool : undefined,
    };
  }
  if (list) return { kind: "none", why: "emptied" };
  if (snapshot.unreadTodoResults) return { kind: "none", why: "unreadable" };
  if (!todoToolActive && !snapshot.todoToolUsed) return { kind: "none", why: "no-tool" };
  return { kind: "none", why: "unused" };
}

/** Texts of tasks open in `before` that are no longer tasks in `now` (deleted or removed). */
export function vanishedTasks(before: TodoList | undefined, now: TodoList | undefined): string[] {
  if (!before) return [];
  const remaining = new Set((now?.tasks ?? []).map((task) => task.id));
  return before.tasks.filter((task) => task.open && !remaining.has(task.id)).map((task) => task.text);
}

/** Open tasks in a list (0 when there is none). */
export function openCount(list: TodoList | undefined): number {
  return list ? list.tasks.filter((task) => task.open).length : 0;
}
