/**
 * A run ends here, whichever way it ends: once pi settled (`agent_settled`), at a timer's wake (a usage
 * limit's wake, work's wake or check-in, a limit reached meanwhile) and in the settle's own `turn_end`
 * when verification's stop is recorded at once (a human message came first, or a pause). One chain: the
 * usage-limit step (`runtime.limitStep`), `settle()`, the memory write, the stop record, the notice, the
 * footer and reaching a person (`io/notify.ts`). Nothing here decides: `settle()` does.
 */
import { handOffNow, settle } from "../loop.ts";
import type { Config, Memory, StopRecord } from "../core/types.ts";
import type { ContextLike } from "../core/pi-shapes.ts";
import { describeNotice, describeReason } from "../core/text.ts";
import { configPath } from "../io/paths.ts";
import { currentRun, STOP_TYPE } from "../state.ts";
import { runReport, stopRanVerify } from "../core/report.ts";
import type { RunReport } from "../core/report.ts";
import { minutesSince } from "../core/stops.ts";
import type { JudgeUse, Reason } from "../core/types.ts";
import { readJudgeUse } from "../core/judge.ts";
import { markerMessage, transcriptShown } from "./runtime.ts";
import type { Runtime, SessionState } from "./runtime.ts";

/** Where a run ends: pi settled, a timer decided a stop, or verification recorded its stop inside `turn_end`. */
export type RunEndAt = "settle" | "timer" | "turn";

interface EndSteps {
  /** The record is appended now (`pi.appendEntry`); otherwise the caller returns it among `turn_end`'s entries. */
  readonly append: boolean;
  /** The notice, the footer naming the stop, and reaching a person (notifications, hook, event, exit status). */
  readonly announce: boolean;
  /** A run that ended on no stop still reaches the exit status (print and JSON: the last run decides). */
  readonly reachWithoutStop: boolean;
}

const STEPS: Readonly<Record<RunEndAt, EndSteps>> = {
  settle: { append: true, announce: true, reachWithoutStop: true },
  // A timer acts between runs: only a stop it decided ends anything.
  timer: { append: true, announce: true, reachWithoutStop: false },
  // The run goes on (a human message is queued) or is paused: the record is one of the turn's entries and
  // nothing is announced now.
  turn: { append: false, announce: false, reachWithoutStop: false },
};

export interface RunEnd {
  /** The stop record written (`turn`: to be written by the caller), or undefined when nothing new was recorded. */
  readonly record: StopRecord | undefined;
  /** Reaching a person: `agent_settled` awaits it (an awaited notify hook), a timer lets it run. */
  readonly reached: Promise<void>;
}

const NOT_REACHED: Promise<void> = Promise.resolve();

/**
 * Ends the session's run on its pending stop. `config`: the config this hook read. Synchronous up to
 * reaching a person, so a failure on the way throws to the caller's own guard.
 */
export function endRun(runtime: Runtime, ctx: ContextLike, session: SessionState, config: Config, at: RunEndAt): RunEnd {
  const steps = STEPS[at];
  if (!session.memory?.pending) {
    const reached = steps.reachWithoutStop ? runtime.reach.settled(ctx, config, { ended: undefined, record: undefined, total: 0 }) : NOT_REACHED;
    return { record: undefined, reached };
  }
  // A provider error that is a usage limit ends the run as a wait, not an error (SPEC §4.20).
  const memory = runtime.limitStep.atSettle(ctx, session.memory, config);
  // A limit a timer or a headless hold met: the hand-off turn first, when the person asked for one (SPEC §4.24).
  if (at !== "turn" && handOffFirst(runtime, ctx, memory, config)) return { record: undefined, reached: NOT_REACHED };
  const ended = memory.pending?.reason;
  const settled = settle(memory, transcriptShown(ctx, config), describeReason);
  session.memory = settled.memory;
  // The record and the event carry the run's report, read from the branch as it stands (SPEC §7.2).
  const reported = settled.record && { ...settled.record, report: reportNow(runtime, ctx, ended, readJudgeUse(settled.record.judge)) };
  const record = reported && runtime.limitStep.atRecord(ctx, reported, ended);
  if (record && steps.append) runtime.pi.appendEntry(STOP_TYPE, record);
  if (!steps.announce) return { record, reached: NOT_REACHED };
  if (settled.notice) {
    const { message, type } = describeNotice(settled.notice, configPath());
    runtime.notify(ctx, message, type);
  }
  const after = settled.record || ctx.hasUI ? runtime.gather(ctx) : undefined;
  const total = settled.record ? (after?.snapshot.list?.tasks.length ?? 0) : 0;
  // The run really ended: the footer now names the stop instead of the running count.
  if (after) runtime.refreshFooter(ctx, after, settled.memory);
  return { record, reached: runtime.reach.settled(ctx, config, { ended, record: reported, total }) };
}

/**
 * Sends the hand-off continuation for the pending limit stop instead of ending the run, when `handOff`
 * says so (`handOffNow`); `turn_end` already did it for the stops it decided. Not while another workflow drives.
 */
function handOffFirst(runtime: Runtime, ctx: ContextLike, memory: Memory, config: Config): boolean {
  if (!config.handOff) return false;
  const facts = runtime.gather(ctx);
  const queued = typeof ctx.hasPendingMessages === "function" && ctx.hasPendingMessages();
  const handed = handOffNow(memory, { handOff: true, list: facts.list, limits: config, pendingMessages: queued });
  if (!handed || runtime.workflow.otherDrives(ctx)) return false;
  runtime.setMemory(ctx, facts, handed.memory);
  runtime.pi.sendMessage(markerMessage(handed.marker, config.transcript), { triggerTurn: true });
  runtime.workflow.hold(ctx);
  return true;
}

/** The report of the run ending now: its continuations from the branch, minutes from the person's message to now. */
function reportNow(runtime: Runtime, ctx: ContextLike, ended: Reason | undefined, judge: JudgeUse | undefined): RunReport {
  const { snapshot } = runtime.gather(ctx);
  return runReport(currentRun(snapshot), { minutes: minutesSince(snapshot.anchorTime, Date.now()), verifyRan: stopRanVerify(ended), judge });
}
