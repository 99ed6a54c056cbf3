/**
 * The words of the run's report (SPEC §7.2): the line under a stop in the transcript, and
 * `/todoloop report`. Figures only — no task text — and only what pi recorded: a provider that reports
 * no cost shows tokens only.
 */
import type { ContinuationKind, ContinuationSpend, PastRun, RunReport } from "./report.ts";
import { duration } from "./text.ts";

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `count` in `unit`s: one decimal under ten as it rounds (`4.1k`, `9,950` → `10k`), whole from ten. */
function scaled(count: number, unit: number, suffix: string): string {
  const tenths = Math.round(count / (unit / 10));
  return tenths < 100 ? `${tenths / 10}${suffix}` : `${Math.round(count / unit)}${suffix}`;
}

/** Tokens as a person reads them: `950`, `4.1k`, `41k`, `1.2M` (never `1000k`). */
export function tokenText(value: number): string {
  const whole = Math.round(Math.max(0, value));
  if (whole < 1000) return String(whole);
  if (Math.round(whole / 1000) < 1000) return scaled(whole, 1000, "k");
  return scaled(whole, 1_000_000, "M");
}

/** Dollars as a person reads them: `$0.12`, `$1.50`; under a cent two significant digits (`$0.0042`, never `$1e-7`). */
export function dollarText(value: number): string {
  if (!(value > 0)) return "$0";
  if (value >= 0.01) return `$${value.toFixed(2)}`;
  const decimals = Math.min(100, 1 - Math.floor(Math.log10(value)));
  return `$${value.toFixed(decimals).replace(/\.?0+$/, "")}`;
}

/** `3 continuations · 2 changed something · 41k tokens · $0.12 · 6 min`: the line under a stop. */
export function reportLine(report: RunReport): string {
  const parts = [plural(report.continuations, "continuation"), `${report.changed} changed something`, `${tokenText(report.tokens)} tokens`];
  if (report.cost > 0) parts.push(dollarText(report.cost));
  if (report.verify) parts.push(plural(report.verify.runs, "check run"));
  if (report.judge && report.judge.calls > 0) parts.push(plural(report.judge.calls, "judge call"));
  parts.push(duration(report.minutes));
  return parts.join(" · ");
}

const KIND_WORDS: Readonly<Record<ContinuationKind, string>> = {
  nudge: "nudge",
  wake: "wake after work",
  checkIn: "check-in",
  resume: "resume after a limit",
  continue: "/todoloop continue",
  handOff: "hand-off",
};

/** One continuation of `/todoloop report`: `  3. nudge · 12k tokens · $0.04 · changed something`. */
export function continuationReportLine(line: ContinuationSpend, index: number): string {
  const cost = line.cost > 0 ? ` · ${dollarText(line.cost)}` : "";
  return `  ${index}. ${KIND_WORDS[line.kind]} · ${tokenText(line.tokens)} tokens${cost} · ${line.changed ? "changed something" : "changed nothing"}`;
}

function clock(time: number): string {
  const date = new Date(time);
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

/** What `/todoloop report` shows. */
export interface ReportView {
  /** The current run, or the last one of this message; undefined when the message has none. */
  readonly run: { readonly report: RunReport; readonly lines: readonly ContinuationSpend[]; readonly ended: boolean } | undefined;
  /** The session's newest runs with a recorded report, oldest first. */
  readonly past: readonly PastRun[];
}

/** `/todoloop report`: the run continuation by continuation, then the session's last runs one line each. */
export function reportText(view: ReportView): string {
  const lines: string[] = [];
  const { run } = view;
  if (!run || run.report.continuations === 0) {
    lines.push("todo loop report: no continuation under your latest message");
  } else {
    lines.push(`todo loop report, ${run.ended ? "last run" : "current run"} of your latest message: ${reportLine(run.report)}`);
    const shown = run.lines.length;
    const first = run.report.continuations - shown + 1;
    if (first > 1) lines.push(`  (the first ${first - 1} not listed)`);
    run.lines.forEach((line, offset) => lines.push(continuationReportLine(line, first + offset)));
    if (run.report.unchanged > 0) lines.push(`  ${plural(run.report.unchanged, "continuation")} changed nothing`);
  }
  if (view.past.length > 0) {
    lines.push(`last ${plural(view.past.length, "run")} of this session:`);
    for (const past of view.past) lines.push(`  ${past.time === undefined ? "" : `${clock(past.time)} `}${past.kind}: ${reportLine(past.report)}`);
  }
  return lines.join("\n");
}
