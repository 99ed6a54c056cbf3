/**
 * A run ends here, whichever way it ends: once pi settled (`agent_settled`), at a timer's wake (a usage
 * limit's wake, work's wake or check-in, a limit reached meanwhile) and in the settle's own `turn_end`
 * when verification's stop is recorded at once (a human message came first, or a pause). One chain: the
 * usage-limit step (`runtime.limitStep`), `settle()`, the memory write, the stop record, the notice, the
 * footer and reaching a person (`io/notify.ts`). Nothing here decides: `settle()` does.
 */
import { settle } from "../loop.ts";
import type { Config, StopRecord } from "../core/types.ts";
import type { ContextLike } from "../core/pi-shapes.ts";
import { describeNotice, describeReason } from "../core/text.ts";
import { configPath } from "../io/paths.ts";
import { STOP_TYPE } from "../state.ts";
import { transcriptShown } from "./runtime.ts";
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
  const ended = memory.pending?.reason;
  const settled = settle(memory, transcriptShown(ctx, config), describeReason);
  session.memory = settled.memory;
  const record = settled.record && runtime.limitStep.atRecord(ctx, settled.record, ended);
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
  return { record, reached: runtime.reach.settled(ctx, config, { ended, record: settled.record, total }) };
}
