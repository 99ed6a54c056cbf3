/**
 * The loop's rules as one pure state machine: plain data in, plain data out — no ctx, no clock, no
 * files. `decide()` runs on every `turn_end` and decides what this turn does and which stop the run
 * would end with; `settle()` runs once pi has settled without going on and says whether that stop is
 * announced and recorded; `applyCommand()` serves `/todoloop`; `filterMarkers()` is the `context`
 * hook's rule. Every reason and notice is data; `text.ts` turns them into English.
 */
import type { ReplyFacts } from "./core/reply.ts";
import { handOverOf } from "./core/reach-plan.ts";
import { handOff, heldStop } from "./core/hand-off.ts";
import type {
  BranchFacts, DecideInput, Decision, Limits, ListState, MarkerDraft, Memory, Notice, PendingStop, Reason, StopRecord, TurnFacts, Wait,
} from "./core/types.ts";
import { earlierFacts, holdsEarlier, limitReached, markerBase, markerFor, stopKey, stopKind, toolReachable, WAIT_KEYS } from "./core/stops.ts";
import { assertNever } from "./core/never.ts";

// The rules decide() shares with the rest of the core live there; their old home still names them.
export {
  earlierFacts, holdsEarlier, limitReached, markerFor, NO_EARLIER, stopKey, stopKind, timerContinuation, timerStop, toolReachable, WAIT_KEYS,
} from "./core/stops.ts";
export { assertNever } from "./core/never.ts";

export const NOTHING: Reason = { kind: "none" };

export function freshMemory(anchor: string, paused = false): Memory {
  return {
    anchor,
    round: 0,
    signature: undefined,
    staleSettles: 0,
    settleRun: 0,
    waiting: undefined,
    paused,
    hadWork: false,
    announced: [],
    pending: undefined,
    last: NOTHING,
    adopted: false,
    carried: false,
    queued: false,
    stuck: 0,
    fp: undefined,
    repeats: 0,
  };
}

/**
 * The memory for the branch's current anchor. Memory wins within a process while the anchor and the
 * branch are the ones it was built for; otherwise every counter, the wait, the pause and the stops
 * already announced come from the branch (a new anchor therefore starts afresh).
 */
export function align(memory: Memory | undefined, branch: BranchFacts, branchSwitched: boolean): Memory {
  if (memory && memory.anchor === branch.anchor && !branchSwitched) return memory;
  const sameAnchor = memory !== undefined && memory.anchor === branch.anchor;
  return {
    anchor: branch.anchor,
    round: branch.round,
    signature: branch.signature,
    staleSettles: branch.stale,
    settleRun: branch.idle,
    waiting: branch.waiting,
    paused: branch.paused,
    hadWork: branch.hadWork,
    announced: branch.announced,
    pending: undefined,
    last: sameAnchor ? memory.last : NOTHING,
    adopted: false,
    // How a new message arrived is known to the process that saw it come right after the memory's
    // message: queued while a run went on, or answering its wait. After a branch switch only the branch tells.
    carried: !branchSwitched && memory !== undefined && !sameAnchor && memory.anchor === branch.earlier?.before && (memory.queued || memory.waiting !== undefined),
    queued: false,
    stuck: branch.stuck,
    fp: branch.fp,
    repeats: branch.repeats,
    ...verifyMemo(sameAnchor ? memory : undefined, branch),
    // A hand-off under way (SPEC §4.24): its held stop is the process's; after a reload only the marker tells.
    ...(branch.handOff === true ? { handOff: { held: sameAnchor ? memory.handOff?.held : undefined } } : {}),
  };
}

/** The verification run to keep: the process's own for the same anchor unless the branch holds a newer one. */
function verifyMemo(memory: Memory | undefined, branch: BranchFacts): Pick<Memory, "verify"> {
  const mine = memory?.verify;
  const verify = mine && (branch.verify === undefined || mine.workAt >= branch.verify.workAt) ? mine : branch.verify;
  return verify === undefined ? {} : { verify };
}

function openOf(list: ListState): number {
  return list.kind === "list" || list.kind === "out-of-date" ? list.open : 0;
}

function noop(memory: Memory, notices: readonly Notice[] = []): Decision {
  return { memory, continue: false, marker: undefined, notices };
}

/** A stop decided at this turn: shown as `last`, and pending until pi settles — when the message had work. */
function stopWith(memory: Memory, reason: Reason, open: number, level: "info" | "warning", notices: readonly Notice[] = []): Decision {
  const pending = memory.hadWork ? { reason, open, level } : undefined;
  return noop({ ...memory, last: reason, pending }, notices);
}

/**
 * The clear-list stop. A reply that hands the testing to the person (SPEC §4.23, the sentence a fact of
 * the turn) keeps the kind `clear` but needs them: announced as a warning, as every such stop is.
 */
function clearStop(memory: Memory, handsOver: string | undefined): Decision {
  if (handsOver === undefined || handsOver === "") return stopWith(memory, { kind: "clear" }, 0, "info");
  return stopWith(memory, { kind: "clear", handsOver }, 0, "warning");
}

/**
 * A turn that errored or was aborted (SPEC §4.4): the stop the run ends with if it ends here — with
 * tasks open, or in a verification's fix run (no task open, the check failed: SPEC 0.5 §4.20, a run the
 * loop started always ends with a record; marked `fixing`, so a limit there is a `limit-wait`).
 */
function outcomeStop(memory: Memory, outcome: Exclude<TurnFacts["outcome"], "completed">, open: number): Decision {
  if (open > 0) return stopWith(memory, { kind: "outcome", outcome }, open, "warning");
  if (memory.last.kind === "verify-continuing") return stopWith(memory, { kind: "outcome", outcome, fixing: true }, 0, "warning");
  return noop({ ...memory, last: { kind: "outcome", outcome } });
}

/** The warning due when a todo-only tool turn left no open task: by what the calls did. */
function emptiedNotice(turn: TurnFacts, list: ListState): Notice | undefined {
  const deletes = turn.calls.filter((call) => call === "delete").length;
  if (deletes > 0) {
    return { kind: "emptied", how: "delete", count: Math.max(deletes, turn.vanished.length), texts: turn.vanished };
  }
  if (turn.calls.includes("clear")) return { kind: "emptied", how: "clear" };
  // Calls that carry no action can still be told apart by the list: every task still there, none open,
  // means they were closed, not deleted.
  const unclear = list.kind === "none" || turn.vanished.length > 0;
  if (turn.calls.includes("unlabelled") && unclear) return { kind: "emptied", how: "unlabelled" };
  return undefined;
}

/** A key for a list state, kept in an `earlier` stop record: a short hash of its signature (FNV-1a). */
export function listKey(list: ListState): string {
  const text = list.kind === "list" ? list.signature : list.kind === "out-of-date" ? `out-of-date:${list.why}:${list.open}` : list.kind;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * A settle under a message that has not taken up the open tasks of an earlier one (SPEC §4.15): after
 * pause, wait and the question, before out of date, out of reach and the limits. A queued message or
 * another extension's continuation still goes first (the run goes on anyway). The stop is shown once per
 * list state: a later message with the same untouched list is held quietly.
 */
function earlierHold(memory: Memory, input: DecideInput, open: number): Decision | undefined {
  const { list } = input;
  if (open === 0 || (list.kind !== "list" && list.kind !== "out-of-date")) return undefined;
  if (!holdsEarlier(input.earlierTasks, earlierFacts(memory, input.branch))) return undefined;
  if (input.pendingMessages) return noop({ ...memory, last: { kind: "queued" } });
  if (input.otherContinued) return noop({ ...memory, last: { kind: "other-extension" } });
  if (input.stopOnQuestion && input.turn.question !== undefined) {
    const waiting: Wait = { reason: input.turn.question, asked: true };
    return stopWith({ ...memory, waiting }, { kind: "waiting", ...waiting }, open, "warning");
  }
  const reason: Reason = { kind: "earlier", open, list: listKey(list) };
  if (input.branch.earlier?.shown === reason.list) return noop({ ...memory, last: reason });
  return stopWith(memory, reason, open, "info");
}

/**
 * The busy-but-stuck counts after a settle (SPEC §4.10): replies in a row without progress (a changed
 * list is progress too), and replies in a row with the same fingerprint. A reply the branch says nothing
 * about counts as progress with a fingerprint of its own: these brakes never guess (the others still apply).
 */
export function countReply(memory: Memory, reply: ReplyFacts | undefined, listChanged: boolean): Pick<Memory, "stuck" | "fp" | "repeats"> {
  if (reply === undefined) return { stuck: 0, fp: undefined, repeats: 0 };
  const stuck = listChanged || reply.progress ? 0 : memory.stuck + 1;
  const repeats = reply.fingerprint === memory.fp ? memory.repeats + 1 : 1;
  return { stuck, fp: reply.fingerprint, repeats };
}

/** The hint is due on the continuation one reply before a count brake stops the loop. */
function nearBrake(count: number, max: number | null): boolean {
  return max !== null && max > 1 && count === max - 1;
}

/**
 * A settle with open tasks while work the agent started runs in the background (SPEC §4.17): after
 * pause, wait and plan mode, before the earlier-message hold, the list checks, the limits and the
 * brakes. No continuation and no round; the idle, stuck and repeat counts and the list signature stay
 * as they were; no stop is recorded or announced — unless the check-ins ran out (`timedOut`), which is
 * the `work-timeout` stop. A queued message, another extension's continuation and a question to the
 * person go first, as they would at any settle.
 */
function workWait(memory: Memory, input: DecideInput, open: number): Decision | undefined {
  const { list, work } = input;
  if (work === undefined || list.kind !== "list" || open === 0) return undefined;
  // A work result message due at this settle runs next, like a queued message: a continuation now would cost a second turn.
  if (!(work.inFlight > 0)) {
    const asks = input.stopOnQuestion && input.turn.question !== undefined;
    return work.resultDue === true && !input.otherContinued && !asks ? noop({ ...memory, last: { kind: "queued" } }) : undefined;
  }
  if (input.pendingMessages) return noop({ ...memory, last: { kind: "queued" } });
  if (input.otherContinued) return noop({ ...memory, last: { kind: "other-extension" } });
  if (input.stopOnQuestion && input.turn.question !== undefined) {
    const waiting: Wait = { reason: input.turn.question, asked: true };
    return stopWith({ ...memory, waiting }, { kind: "waiting", ...waiting }, open, "warning");
  }
  if (work.timedOut !== undefined) return stopWith(memory, { kind: "work-timeout", minutes: work.timedOut, open }, open, "warning");
  return noop({ ...memory, last: { kind: "waiting-work", jobs: work.inFlight, open } });
}

/**
 * The turn_end decision (SPEC §4, items 3–12). The kill switch is checked before this is called. The
 * memory says whether the run is ending here (a settle that did not continue): a `/todoloop continue`
 * that arrives before pi settles is then kept for that moment, one that arrives mid-run is not (§7).
 */
export function decide(input: DecideInput): Decision {
  const decision = decideTurn(input);
  const handed = decision.continue || input.turn.toolResults > 0 ? undefined : handOffNow(decision.memory, input);
  if (handed) return { memory: { ...handed.memory, ending: false }, continue: true, marker: handed.marker, notices: decision.notices };
  return { ...decision, memory: { ...decision.memory, ending: input.turn.toolResults === 0 && !decision.continue } };
}

/**
 * The hand-off continuation for a limit stop this settle decided (SPEC §4.24), when config `handOff` is
 * on, nothing is queued and the stop would be recorded (not one already announced since the last continuation).
 */
export function handOffNow(memory: Memory, input: Pick<DecideInput, "handOff" | "list" | "limits" | "pendingMessages">): ReturnType<typeof handOff> {
  const key = memory.pending && pendingKey(memory.pending);
  if (key === undefined || memory.announced.includes(key)) return undefined;
  return handOff(memory, { handOff: input.handOff === true, list: input.list, limits: input.limits, queued: input.pendingMessages });
}

function decideTurn(input: DecideInput): Decision {
  const { turn, list, limits } = input;
  const open = openOf(list);
  let memory = align(input.memory, input.branch, input.branchSwitched);
  // Every turn replaces the stop the run would end with: a later turn means the run went on.
  memory = { ...memory, pending: undefined, hadWork: memory.hadWork || open > 0, queued: input.pendingMessages };

  // Under a hand-off (SPEC §4.24) every turn ends the run with the held limit stop: no continuation
  // follows, a question in the reply is shown, not waited on, a tool call runs as pi runs it.
  if (memory.handOff !== undefined) {
    const held = heldStop(memory, limitReached(memory, limits, input.spend, open), open);
    const next: Memory = { ...memory, hadWork: true, settleRun: turn.toolResults > 0 ? 0 : memory.settleRun };
    return held ? noop({ ...next, last: held.reason, pending: held }) : noop(next);
  }

  if (turn.toolResults > 0) {
    memory = { ...memory, settleRun: 0 };
    if (turn.outcome !== "completed") return outcomeStop(memory, turn.outcome, open);
    const emptied = turn.openBefore > 0 && open === 0 && turn.todoOnly ? emptiedNotice(turn, list) : undefined;
    return noop(memory, emptied ? [emptied] : []);
  }

  // Another workflow (a goal, a plan) drives the session (SPEC §4.19): no continuation, no round, no stop
  // to record or announce, no brake counting its replies; `last` says who drives.
  if (input.otherWorkflow === true) return noop({ ...memory, last: { kind: "other-workflow" } });

  if (turn.outcome !== "completed") return outcomeStop(memory, turn.outcome, open);
  if (memory.paused) return noop({ ...memory, last: { kind: "paused" } });
  if (memory.waiting !== undefined) return stopWith(memory, { kind: "waiting", ...memory.waiting }, open, "warning");
  if (list.kind === "planning") return noop({ ...memory, last: { kind: "planning" } });
  const waitingOnWork = workWait(memory, input, open);
  if (waitingOnWork) return waitingOnWork;
  const earlier = earlierHold(memory, input, open);
  if (earlier) return earlier;
  if (list.kind === "none") return stopWith(memory, { kind: "no-list", why: list.why }, 0, "warning");
  if (list.kind === "out-of-date") return stopWith(memory, { kind: "out-of-date", why: list.why }, open, "warning");
  if (list.open === 0) return clearStop(memory, turn.handsOver);
  if (list.tool !== undefined && !toolReachable(list.tool, input.tools)) {
    return stopWith(memory, { kind: "out-of-reach", tool: list.tool, open }, open, "warning");
  }
  if (input.pendingMessages) return noop({ ...memory, last: { kind: "queued" } });
  if (input.otherContinued) return noop({ ...memory, last: { kind: "other-extension" } });
  if (input.stopOnQuestion && turn.question !== undefined) {
    // The judge's reading (SPEC §4.22) is the same question stop, with its call in the record.
    const waiting: Wait = { reason: turn.question, asked: true, ...(turn.judge ? { judge: turn.judge } : {}) };
    return stopWith({ ...memory, waiting }, { kind: "waiting", ...waiting }, open, "warning");
  }

  const progress = list.signature !== memory.signature;
  // A reply that changed the list did something, tool call or not (plan-mode closes steps in its text).
  const settleRun = progress ? 1 : memory.settleRun + 1;
  memory = {
    ...memory,
    signature: list.signature,
    staleSettles: progress ? 0 : memory.staleSettles + 1,
    settleRun,
    ...countReply(memory, turn.reply, progress),
  };
  const hint = (settleRun === 2 && !progress) || nearBrake(memory.stuck, limits.maxStuckReplies) || nearBrake(memory.repeats, limits.maxRepeats);

  const limit = limitReached(memory, limits, input.spend, open);
  if (limit) return stopWith(memory, limit, open, "warning");

  const round = memory.round + 1;
  memory = { ...memory, round, announced: [], last: { kind: "continuing", open, round, maxRounds: limits.maxRounds } };
  const notices: Notice[] = [];
  if (memory.staleSettles > 0 && memory.staleSettles % 10 === 0) {
    notices.push({
      kind: "stale",
      replies: memory.staleSettles,
      open,
      limits,
      roundsLeft: limits.maxRounds === null ? null : Math.max(0, limits.maxRounds - round),
    });
  }
  return { memory, continue: true, marker: markerFor(memory, list, limits, hint), notices };
}

export interface Settled {
  readonly memory: Memory;
  /** The hidden `todo-loop:stop` record to append, if this stop is new. */
  readonly record: StopRecord | undefined;
  /** The notification to show, if this stop is new and not shown another way. */
  readonly notice: Notice | undefined;
}

/**
 * pi settled without going on (`agent_settled`): the pending stop, if any, really ended the run. It is
 * recorded and announced once per stop (by kind) between two continuations. `transcriptShown`: the stop
 * line in the interactive transcript is the announcement, so no notification; a wait the block tool
 * started was announced by the tool call itself. `describe` is the English of a reason.
 */
/** The `stopKey` of a pending stop, or undefined when its reason is no stop. */
export function pendingKey(stop: PendingStop): string | undefined {
  const kind = stopKind(stop.reason);
  if (!kind) return undefined;
  // stopKey names the limit only for a limit stop: a verification failure at a limit is still one verify-failed.
  return stopKey(kind, stop.reason.kind === "limit" ? stop.reason.limit : undefined);
}

export function settle(memory: Memory, transcriptShown: boolean, describe: (reason: Reason) => string): Settled {
  const stop = memory.pending;
  // The run ended: a hand-off under it is over, whether or not its stop is recorded now.
  const cleared: Memory = { ...memory, pending: undefined, handOff: undefined };
  const kind = stop && stopKind(stop.reason);
  if (!stop || !kind) return { memory: cleared, record: undefined, notice: undefined };
  const limit = stop.reason.kind === "limit" ? stop.reason.limit : stop.reason.kind === "verify-failed" ? stop.reason.limit?.limit : undefined;
  const key = pendingKey(stop) ?? kind;
  if (memory.announced.includes(key)) return { memory: cleared, record: undefined, notice: undefined };
  const record: StopRecord = {
    v: 1,
    kind,
    reason: describe(stop.reason),
    round: memory.round,
    open: stop.open,
    anchor: memory.anchor,
    ...(limit ? { limit } : {}),
    ...(stop.reason.kind === "earlier" ? { list: stop.reason.list } : {}),
    ...verifyRecord(stop.reason),
    ...handOverRecord(stop.reason),
    ...judgeRecord(stop.reason),
    ...limitWaitRecord(stop.reason),
  };
  const silent = transcriptShown || kind === "waiting";
  return {
    memory: { ...cleared, announced: [...memory.announced, key] },
    record,
    notice: silent ? undefined : { kind: "stop", reason: stop.reason, level: stop.level },
  };
}

/** What a stop record adds for a verification run (SPEC §4.16). */
function verifyRecord(reason: Reason): Pick<StopRecord, "verify"> {
  if (reason.kind === "verified") return { verify: { command: reason.command, exit: 0, seconds: reason.seconds } };
  if (reason.kind === "verify-failed") return { verify: { command: reason.command, exit: reason.exit, seconds: reason.seconds, run: reason.runs } };
  return {};
}

/** What a clear stop's record adds when its reply hands the testing to the person (SPEC §4.23): the sentence. */
function handOverRecord(reason: Reason): Pick<StopRecord, "handsOver"> {
  const handsOver = handOverOf(reason);
  return handsOver === undefined ? {} : { handsOver };
}

/** What a stop record adds when the judge was asked for it (SPEC §4.22): the call and its usage. */
function judgeRecord(reason: Reason): Pick<StopRecord, "judge"> {
  if ((reason.kind === "waiting" || reason.kind === "clear" || reason.kind === "verified") && reason.judge) return { judge: reason.judge };
  return {};
}

/** What a stop record adds for a usage-limit wait (SPEC §4.20): when the run continues, and the minutes waited. */
function limitWaitRecord(reason: Reason): Pick<StopRecord, "resumeAt" | "waitMinutes"> {
  if (reason.kind !== "limit-wait" || reason.state !== "waiting" || !Number.isFinite(reason.resumeAtMs)) return {};
  return { resumeAt: new Date(reason.resumeAtMs).toISOString(), waitMinutes: reason.waitMinutes };
}

/**
 * `todo_loop_block` with a (sanitised, non-empty) reason: the loop waits for the human under the current
 * anchor. While paused there is no continuation to stop, so nothing changes.
 */
export function applyBlock(memory: Memory, reason: string): { readonly memory: Memory; readonly accepted: boolean } {
  if (memory.paused) return { memory, accepted: false };
  const waiting: Wait = { reason, asked: false };
  return { memory: { ...memory, waiting, last: { kind: "waiting", ...waiting } }, accepted: true };
}

export type Command = "status" | "pause" | "resume" | "reset" | "continue";
export const COMMANDS: readonly Command[] = ["status", "pause", "resume", "reset", "continue"];

export function parseCommand(args: unknown): Command | undefined {
  const word = typeof args === "string" ? args.trim().toLowerCase() : "";
  if (word === "") return "status";
  return (COMMANDS as readonly string[]).includes(word) ? (word as Command) : undefined;
}

/** What `/todoloop continue` needs to know besides the memory. */
export interface CommandFacts {
  readonly list: ListState;
  readonly limits: Limits;
  /** The agent is idle, so a run can start now. */
  readonly idle: boolean;
  readonly killSwitch: boolean;
  /** The newest readable list when the list is out of date: the tool that keeps it and its task count. */
  readonly staleList?: { readonly tool: string; readonly total: number } | undefined;
}

export interface CommandResult {
  readonly memory: Memory;
  /** What to tell the human. */
  readonly reply: Reason;
  /** Whether the command is recorded on the branch as a `todo-loop:control` entry. */
  readonly record: boolean;
  /** `continue` starting a run: the marker to send. */
  readonly marker: MarkerDraft | undefined;
}

/** The wait lifted by the human: a later wait is a new stop, announced and recorded again. */
function liftWait(memory: Memory): Memory {
  return { ...memory, waiting: undefined, announced: memory.announced.filter((key) => !WAIT_KEYS.includes(key)) };
}

/** `/todoloop pause | resume | reset | continue` on the memory of the current anchor (SPEC §7). */
export function applyCommand(memory: Memory, command: Command, facts: CommandFacts): CommandResult {
  const done = (next: Memory, reply: Reason, record = true, marker?: MarkerDraft): CommandResult => ({
    memory: { ...next, last: reply },
    reply,
    record,
    marker,
  });
  switch (command) {
    case "status":
      return { memory, reply: memory.last, record: false, marker: undefined };
    case "pause":
      return done({ ...memory, paused: true, pending: undefined, kept: undefined }, { kind: "paused" });
    case "resume":
      return done(liftWait({ ...memory, paused: false, adopted: true }), { kind: "resumed" });
    case "reset": {
      // A kept continue survives a reset, counted from the reset's round 0; so does the person's adoption of the list.
      const kept = memory.kept === undefined ? {} : { kept: 0 };
      return done({ ...freshMemory(memory.anchor, memory.paused), hadWork: memory.hadWork, adopted: memory.adopted, carried: memory.carried, ...kept }, { kind: "reset" });
    }
    case "continue": {
      if (facts.killSwitch) return { memory, reply: { kind: "cannot-continue", why: "kill-switch" }, record: false, marker: undefined };
      const { list } = facts;
      // An out-of-date list is consent too (0.3): one run whose nudge asks the agent to read the list.
      const stale = list.kind === "out-of-date";
      if (!stale && (list.kind !== "list" || list.open === 0)) {
        return { memory, reply: { kind: "cannot-continue", why: "nothing-open" }, record: false, marker: undefined };
      }
      // Busy: a run winding down (it ended on a stop, pi has not settled yet) keeps the consent for when pi
      // settles, and the stop it ends with is not dropped. A run still going only gets its pause and wait
      // lifted (SPEC §7, 0.4): a second `continue` typed while the first one's run goes starts no second run.
      if (!facts.idle) {
        const winding = memory.ending === true || memory.pending !== undefined;
        const lifted = liftWait({ ...memory, paused: false, adopted: true });
        return done(winding ? { ...lifted, kept: memory.round } : lifted, winding ? { kind: "requested", started: false } : { kind: "requested", started: false, kept: false });
      }
      // A run starts now: it is not ending, so a second `continue` while it goes keeps nothing (0.4).
      const lifted: Memory = liftWait({ ...memory, paused: false, pending: undefined, adopted: true, kept: undefined, ending: false });
      const next: Memory = { ...lifted, round: memory.round + 1, hadWork: true, announced: [] };
      const marker = list.kind === "list" ? { ...markerFor(next, list, facts.limits, false), by: "continue" as const } : stale ? rereadMarker(next, list, facts) : undefined;
      return done(next, { kind: "requested", started: true }, true, marker);
    }
    default:
      return assertNever(command);
  }
}

/** The marker of a `continue` run on an out-of-date list: the nudge asks the agent to read its list with its todo tool. */
function rereadMarker(memory: Memory, list: Extract<ListState, { kind: "out-of-date" }>, facts: CommandFacts): MarkerDraft {
  return {
    ...markerBase(memory, { open: list.open, total: facts.staleList?.total ?? list.open }, facts.limits),
    reread: true,
    by: "continue",
    tool: facts.staleList?.tool ?? "todo",
    source: list.source,
  };
}

/**
 * pi has settled (`agent_settled`) after a `/todoloop continue` was kept while the agent was busy: the
 * consent is honoured now, as `continue` is when the agent is idle — one marker, no second control
 * record. It lapses, silently, only for the person's own later word: a pause since, an abort (Escape),
 * or a loop that already continued after the command. Undefined when nothing was kept.
 */
export function honourKept(memory: Memory, facts: Omit<CommandFacts, "idle">, aborted: boolean): CommandResult | undefined {
  if (memory.kept === undefined) return undefined;
  const rest: Memory = { ...memory, kept: undefined };
  if (memory.paused || aborted || memory.round > memory.kept) return { memory: rest, reply: NOTHING, record: false, marker: undefined };
  return { ...applyCommand(rest, "continue", { ...facts, idle: true }), record: false };
}

export const USER_ROLES: ReadonlySet<string> = new Set(["user", "custom", "bashExecution", "branchSummary", "compactionSummary"]);

function roleOf(message: unknown): unknown {
  return typeof message === "object" && message !== null ? (message as { role?: unknown }).role : undefined;
}

export function isMarkerMessage(message: unknown): boolean {
  return roleOf(message) === "custom" && (message as { customType?: unknown }).customType === "todo-loop:continue";
}

/**
 * The `context` rule: drop every marker whose next message is user-role; keep a marker at the tail and
 * one between two assistant messages. Returns the same array when nothing was dropped.
 */
export function filterMarkers<T>(messages: T[]): T[] {
  let kept: T[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as T;
    const nextRole = index + 1 < messages.length ? roleOf(messages[index + 1]) : undefined;
    const drop = isMarkerMessage(message) && typeof nextRole === "string" && USER_ROLES.has(nextRole);
    if (drop) {
      kept ??= messages.slice(0, index);
    } else if (kept) {
      kept.push(message);
    }
  }
  return kept ?? messages;
}
