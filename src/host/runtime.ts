/**
 * What every handler shares: the per-session state (a branch reader and the loop's memory, a cache of
 * the branch), gathering the facts a decision needs (config, kill switch, branch snapshot, list, tools),
 * and the few effects on pi's UI (notify, footer). Nothing here decides anything.
 */
import { agentDir, configPath, killSwitch } from "../io/paths.ts";
import { loadConfig } from "../config.ts";
import type { Config } from "../core/types.ts";
import { align } from "../loop.ts";
import type { BranchFacts, ListState, MarkerDraft, Memory, Reason, StopRecord, ToolFacts } from "../core/types.ts";
import type { ContextLike, CustomMessageLike, NotifyType, PiLike } from "../core/pi-shapes.ts";
import { parseTasksFile, sourceOf, TODO_TOOL_NAMES } from "../sources/index.ts";
import { readTasksFile } from "../io/tasks-file.ts";
import { createBranchReader, listState, MARKER_TYPE, sessionPaused } from "../state.ts";
import type { BranchReader, Snapshot } from "../state.ts";
import { createReach, processIo } from "../io/notify.ts";
import type { Reach, ReachIo } from "../io/notify.ts";
import { checkInNudgeText, footerText, nudgeText, OFF_FOOTER, rereadNudgeText, sanitize, verifyNudgeText, wakeNudgeText } from "../core/text.ts";
import { createChildren } from "./children.ts";
import type { Children } from "./children.ts";
import type { ChildConduct } from "../core/child.ts";
import { createWorkflow } from "./workflow.ts";
import type { Workflow } from "./workflow.ts";
import { createWorkTracker } from "./work-tracker.ts";
import type { WorkTracker } from "./work-tracker.ts";

export interface SessionState {
  readonly reader: BranchReader;
  memory: Memory | undefined;
  footer: string | undefined;
  /**
   * The session's pause from its control records anywhere in the session file, read at session start,
   * on a tree change and on a command (never per turn); undefined until read.
   */
  paused: boolean | undefined;
}

/** Everything one decision reads, gathered once. */
export interface Facts {
  readonly session: SessionState;
  readonly snapshot: Snapshot;
  readonly switched: boolean;
  readonly branch: BranchFacts;
  readonly list: ListState;
  readonly config: Config;
  readonly problems: readonly string[];
  readonly killSwitch: string | undefined;
  readonly tools: ToolFacts;
  /** Spend since the anchor; minutes from its timestamp to the newest reply's (undefined when either is missing). */
  readonly spend: { readonly tokens: number; readonly cost: number; readonly minutes: number | undefined };
  /** The memory brought to the branch's current anchor. */
  readonly memory: Memory;
}

export interface Runtime {
  readonly pi: PiLike;
  sessionOf(ctx: ContextLike): SessionState;
  /** `read`: the kill switch this hook already looked up, so one hook looks once. */
  gather(ctx: ContextLike, read?: { readonly killSwitch: string | undefined }): Facts;
  notify(ctx: ContextLike, message: string, type: NotifyType): void;
  /** Reports an unexpected failure where a person can see it; returns undefined so the turn goes on untouched. */
  failed(ctx: ContextLike, where: string, error: unknown): undefined;
  /**
   * Shows the footer for the loop's state (a no-op without a UI, or when unchanged unless `force`: a new
   * runtime cannot know what an earlier session left on the client's footer).
   */
  showFooter(ctx: ContextLike, session: SessionState, text: string | undefined, force?: boolean): void;
  /** Shows the footer for gathered facts and a memory (the loop's footer text, `showFooter`'s rules). */
  refreshFooter(ctx: ContextLike, facts: Facts, memory: Memory, force?: boolean): void;
  /** The session's memory is now `memory`, and the footer shows it. */
  setMemory(ctx: ContextLike, facts: Facts, memory: Memory, force?: boolean): void;
  /**
   * The usage-limit step of a run's end (SPEC §4.20, §4.21), applied by `run-end.ts` wherever a run ends,
   * and the kill switch's cancel of a wait, applied wherever a hook or a command sees the switch.
   * `limit-waits.ts` installs it when it registers: the timer its record arms ends a run through
   * `run-end.ts`, so the step is handed over here instead of imported (no import cycle).
   */
  limitStep: LimitStep;
  /** Reaching a person who walked away: notifications, the command hook, the event, exit status (notify.ts). */
  readonly reach: Reach;
  /** Reads the session's pause from every control record of the session file (`getEntries()` copies them all). */
  readControls(ctx: ContextLike, session: SessionState): void;
  /** Child sessions (SPEC §4.18): the process's registry and each session's rule. */
  readonly children: Children;
  /** How the loop behaves in this session: as usual, quietly (a child), or not at all (a child, `children: "off"`). */
  conduct(ctx: ContextLike, config?: Config): ChildConduct;
  /** `workflow:mutex:v1` (SPEC §4.19): the probe before an automatic continuation, and the lock the loop holds. */
  readonly workflow: Workflow;
  /** Work in flight (SPEC §4.17): what this session's bus announced, and the loop's timers and hold for it. */
  readonly work: WorkTracker;
  /**
   * The kill switch in force now (its file, or undefined), followed at once wherever a hook or a command
   * looks (SPEC §8, 0.5 §4.20 and §7): a usage-limit wait is cancelled for good, and the footer reads
   * `todo loop off` while tasks are open, or the loop's own state again once the file is gone.
   */
  followSwitch(ctx: ContextLike): string | undefined;
}

/** What a run's end asks the usage-limit wait (`limit-waits.ts`). */
export interface LimitStep {
  /** Before the stop is settled: the pending stop as the limit rules see it (an error that is a usage limit becomes a wait). */
  atSettle(ctx: ContextLike, memory: Memory, config: Config): Memory;
  /** The stop record about to be written (marked, its wait's timer armed); `ended`: the reason the run ended on. */
  atRecord(ctx: ContextLike, record: StopRecord, ended: Reason | undefined): StopRecord;
  /** A hook or a command saw the kill switch: the session's wait is cancelled for good (SPEC 0.5 §4.20). */
  switchSeen(ctx: ContextLike): void;
}

/** No usage-limit step: until `limit-waits.ts` registers, a run's end is settled as it is. */
export const NO_LIMIT_STEP: LimitStep = { atSettle: (_ctx, memory) => memory, atRecord: (_ctx, record) => record, switchSeen: () => undefined };

/** The tools of the one source that keeps its list in a file of the project (@tintinweb/pi-tasks). */
const TASKS_FILE_TOOLS: ReadonlySet<string> = new Set(sourceOf("tintinweb-pi-tasks")?.toolNames ?? []);

/** Sessions one process keeps state for (a delegated child session runs its own loop). */
const MAX_SESSIONS = 16;

/** The interactive transcript shows continuation and stop lines: they are the announcement there. */
export function transcriptShown(ctx: ContextLike, config: Config): boolean {
  return ctx.mode === "tui" && config.transcript;
}

/**
 * Whether another workflow drives the session (SPEC §4.19), asked before every automatic continuation: if
 * so, the memory and the footer say so and nothing is sent.
 */
export function yieldsToWorkflow(runtime: Runtime, ctx: ContextLike, facts: Facts): boolean {
  if (!runtime.workflow.otherDrives(ctx)) return false;
  runtime.setMemory(ctx, facts, { ...facts.memory, last: { kind: "other-workflow" } });
  return true;
}

/** The marker as a custom message: its content is the nudge, its details the loop state. */
export function markerMessage(marker: MarkerDraft, display: boolean): CustomMessageLike {
  const { tool, source: _source, output, ...details } = marker;
  const content = output !== undefined
    ? verifyNudgeText(output)
    : details.reread === true
    ? rereadNudgeText(tool ?? "todo")
    : details.work === "wake" ? wakeNudgeText(tool) : details.work === "check-in" ? checkInNudgeText(tool) : nudgeText(tool, details.hint);
  return { customType: MARKER_TYPE, content, display, details };
}

export function branchFacts(snapshot: Snapshot): BranchFacts {
  // The branch is read back from a file anyone can edit: show nothing from it unsanitised.
  const waiting = snapshot.waiting && { ...snapshot.waiting, reason: sanitize(snapshot.waiting.reason, 500) };
  return {
    anchor: snapshot.anchor,
    round: snapshot.round,
    idle: snapshot.idle,
    stale: snapshot.stale,
    signature: snapshot.markerSignature,
    waiting: waiting && waiting.reason !== "" ? waiting : undefined,
    paused: snapshot.paused,
    hadWork: snapshot.hadWork,
    announced: snapshot.announced,
    earlier: {
      open: snapshot.earlierOpen,
      carried: snapshot.earlierCarried,
      adopted: snapshot.earlierAdopted,
      shown: snapshot.earlierShown,
      before: snapshot.previousAnchor === "" ? undefined : snapshot.previousAnchor,
    },
    stuck: snapshot.stuck,
    fp: snapshot.fp,
    repeats: snapshot.repeats,
    verify: snapshot.verify,
  };
}

function spendOf(snapshot: Snapshot): Facts["spend"] {
  const { anchorTime, replyTime } = snapshot;
  const minutes = anchorTime !== undefined && replyTime !== undefined ? Math.max(0, replyTime - anchorTime) / 60_000 : undefined;
  return { tokens: snapshot.tokens, cost: snapshot.cost, minutes };
}

/** `io`: the process's streams, exit status and notify command, which reaching a person writes to. */
export function createRuntime(pi: PiLike, io: ReachIo = processIo): Runtime {
  const sessions = new Map<string, SessionState>();
  const children = createChildren();
  // Registered now, while the extension loads: the listener must be there before any workflow probes.
  const workflow = createWorkflow(pi);
  // Work in flight is heard on the bus from the start: a job may start before the first turn ends.
  const work = createWorkTracker(pi);

  /** The child rule is one fact per session; the config is read only in a child. */
  function conduct(ctx: ContextLike, config?: Config): ChildConduct {
    if (!children.ruleOf(ctx).child) return "normal";
    return children.conductOf(ctx, (config ?? loadConfig(configPath()).config).children);
  }

  function sessionId(ctx: ContextLike): string {
    try {
      return ctx.sessionManager.getSessionId?.() ?? "";
    } catch {
      return "";
    }
  }

  function sessionOf(ctx: ContextLike): SessionState {
    const id = sessionId(ctx);
    let state = sessions.get(id);
    if (!state) {
      state = { reader: createBranchReader(), memory: undefined, footer: undefined, paused: undefined };
      sessions.set(id, state);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value ?? id);
    }
    return state;
  }

  function tools(): ToolFacts {
    let active: readonly string[] = [];
    let registered: ToolFacts["registered"] = [];
    try {
      active = pi.getActiveTools();
    } catch {
      active = [];
    }
    try {
      registered = pi.getAllTools().map((tool) => ({ name: tool.name, exposure: tool.exposure }));
    } catch {
      registered = [];
    }
    return { active, registered };
  }

  /**
   * A list kept in a file rather than on the branch (@tintinweb/pi-tasks), read when the branch holds
   * none. The file is not branch-aware: it is the tool's list for this session and directory now.
   */
  function withFileList(snapshot: Snapshot, ctx: ContextLike, active: readonly string[]): Snapshot {
    if (snapshot.list || snapshot.outOfDate) return snapshot;
    // A repository's leftover task file is not this session's list: it is read only while the tool that
    // keeps it is active (SPEC §9, 0.4), which also keeps its config files unopened otherwise.
    if (!active.some((name) => TASKS_FILE_TOOLS.has(name))) return snapshot;
    const found = readTasksFile({ cwd: ctx.cwd, agentDir: agentDir(), sessionId: sessionId(ctx), env: process.env }, parseTasksFile);
    if (!found) return snapshot;
    if (found.list === "unreadable") return { ...snapshot, outOfDate: "unreadable" };
    const open = found.list.tasks.some((task) => task.open);
    // The file does not say when its tasks were written; one created under this message took a call of
    // its tool, which adopts it (SPEC §4.15), so open tasks count as an earlier message's.
    return { ...snapshot, list: found.list, hadWork: snapshot.hadWork || open, earlierOpen: snapshot.anchor !== "" && open };
  }

  function gather(ctx: ContextLike, read?: { readonly killSwitch: string | undefined }): Facts {
    const loaded = loadConfig(configPath());
    const session = sessionOf(ctx);
    const branchRead = session.reader.read(ctx.sessionManager);
    const toolFacts = tools();
    const snapshot = withFileList(branchRead.snapshot, ctx, toolFacts.active);
    const switched = branchRead.change === "switched";
    const fromBranch = branchFacts(snapshot);
    // The pause belongs to the session: its control records anywhere in the file decide, once read.
    const branch = session.paused === undefined ? fromBranch : { ...fromBranch, paused: session.paused };
    return {
      session,
      snapshot,
      switched,
      branch,
      list: listState(snapshot, toolFacts.active.some((name) => TODO_TOOL_NAMES.has(name))),
      config: loaded.config,
      problems: loaded.problems,
      killSwitch: read ? read.killSwitch : killSwitch(ctx.cwd),
      tools: toolFacts,
      spend: spendOf(snapshot),
      memory: align(session.memory, branch, switched),
    };
  }

  function notify(ctx: ContextLike, message: string, type: NotifyType): void {
    try {
      ctx.ui.notify(message, type);
    } catch {
      // A UI that cannot show a message must not break the turn.
    }
  }

  function showFooter(ctx: ContextLike, session: SessionState, text: string | undefined, force = false): void {
    if (!ctx.hasUI || (session.footer === text && !force)) return;
    // A child session shows no footer (SPEC §4.18): its UI, if any, is not the person's.
    if (conduct(ctx) !== "normal") return;
    session.footer = text;
    try {
      ctx.ui.setStatus("todo-loop", text);
    } catch {
      // The footer is a courtesy; a UI that cannot show it must not break the turn.
    }
  }

  function footerFor(facts: Facts, memory: Memory): string | undefined {
    return footerText(memory, facts.list, facts.config, facts.killSwitch);
  }

  const runtime: Runtime = {
    pi,
    children,
    conduct,
    workflow,
    work,
    sessionOf,
    gather,
    notify,
    failed(ctx, where, error) {
      const why = sanitize(error instanceof Error ? error.message : String(error));
      notify(ctx, `todo loop: ${where} failed (${why}); this turn was left as it was.`, "error");
      return undefined;
    },
    showFooter,
    refreshFooter(ctx, facts, memory, force = false) {
      showFooter(ctx, facts.session, footerFor(facts, memory), force);
    },
    setMemory(ctx, facts, memory, force = false) {
      facts.session.memory = memory;
      showFooter(ctx, facts.session, footerFor(facts, memory), force);
    },
    limitStep: NO_LIMIT_STEP,
    reach: createReach(pi, io, (ctx) => conduct(ctx) !== "normal"),
    readControls(ctx, session) {
      const read = ctx.sessionManager.getEntries;
      if (typeof read !== "function") return;
      const entries = read.call(ctx.sessionManager);
      session.paused = Array.isArray(entries) ? sessionPaused(entries) : undefined;
    },
    followSwitch(ctx) {
      const off = killSwitch(ctx.cwd);
      if (off !== undefined) runtime.limitStep.switchSeen(ctx);
      if (!ctx.hasUI) return off;
      const session = sessionOf(ctx);
      // With the switch: `todo loop off` while tasks are open, whatever the footer showed (nothing, for a
      // list written under the switch; a stale count). Without it: the real state once more (SPEC 0.5 §7).
      if (off !== undefined ? session.footer !== OFF_FOOTER : session.footer === OFF_FOOTER) {
        const facts = gather(ctx, { killSwitch: off });
        showFooter(ctx, session, footerFor(facts, facts.memory));
      }
      return off;
    },
  };
  return runtime;
}
