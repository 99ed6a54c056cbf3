/**
 * `/todoloop report` (SPEC §7.2): the current run of the latest message — or its last one — continuation
 * by continuation, and the session's last five runs one line each, from their stop records. Gathers
 * and shows; the sums are `core/report.ts`'s, the words `core/text-report.ts`'s.
 */
import type { ContextLike } from "../core/pi-shapes.ts";
import { pastRuns, runReport, shownRun } from "../core/report.ts";
import { minutesSince } from "../core/stops.ts";
import { reportText } from "../core/text-report.ts";
import { currentRun, STOP_TYPE } from "../state.ts";
import type { Runtime } from "./runtime.ts";

export const REPORT_COMPLETION = { value: "report", label: "report", description: "what the loop's continuations cost and changed" } as const;

export function isReportCommand(args: unknown): boolean {
  return typeof args === "string" && args.trim().toLowerCase() === "report";
}

/** Runs of the session listed one line each. */
const PAST_RUNS = 5;

export function showReport(runtime: Runtime, ctx: ContextLike): void {
  const facts = runtime.gather(ctx);
  const { track, ended } = shownRun(currentRun(facts.snapshot), facts.snapshot.lastRun);
  // A run that ended shows its stop record's report (the same figures the record and the event carry);
  // the current one counts its minutes to now.
  const recorded = ended ? pastRuns(read(() => ctx.sessionManager.getBranch()), STOP_TYPE, 1)[0]?.report : undefined;
  const report = recorded ?? runReport(track, { minutes: minutesSince(facts.snapshot.anchorTime, Date.now()), verifyRan: false });
  const past = pastRuns(read(() => ctx.sessionManager.getEntries?.() ?? ctx.sessionManager.getBranch()), STOP_TYPE, PAST_RUNS);
  runtime.reach.answer(ctx, reportText({ run: { report, lines: track.lines, ended }, past }), "info");
}

function read(entries: () => unknown): readonly unknown[] {
  try {
    const value = entries();
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
