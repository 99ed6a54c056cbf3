/**
 * The `/todoloop` command: status, pause, resume, reset and continue (SPEC §7). Controls are recorded on
 * the branch as `todo-loop:control` entries so a reload, a restart or a fork reads them back; `continue`
 * may start a run with one marker.
 */
import { existsSync } from "node:fs";
import { configPath } from "../io/paths.ts";
import { applyCommand, COMMANDS, parseCommand } from "../loop.ts";
import { minutesSince } from "../core/stops.ts";
import type { Command, CommandFacts } from "../loop.ts";
import { markerMessage } from "./runtime.ts";
import type { ContextLike } from "../core/pi-shapes.ts";
import { isRecord } from "../core/record.ts";
import type { Facts, Runtime } from "./runtime.ts";
import { sourceLabel } from "../sources/index.ts";
import { CONTROL_TYPE } from "../state.ts";
import { childLine, childOffReply, commandReplyText, judgeStatusText, sanitize, statusText } from "../core/text.ts";
import { judgeProblem } from "./judge.ts";
import { handleVerify, isVerifyCommand, VERIFY_COMPLETIONS, verifyStatusLines } from "./verify-command.ts";
import { isReportCommand, REPORT_COMPLETION, showReport } from "./report-command.ts";
import type { Memory } from "../core/types.ts";
import { workStatus } from "./work.ts";

const DESCRIPTIONS: Record<Command, string> = {
  status: "what the loop is doing and why",
  pause: "no continuing until resume or continue",
  resume: "continue again; also ends a wait",
  reset: "clear the continuation and reply counts",
  continue: "lift a pause or wait and go on now",
};

const USAGE = "Usage: /todoloop [status|pause|resume|reset|continue|report|verify [approve|forget]]";

/** What `continue` needs besides the memory and whether the agent is idle (also when a kept consent fires). */
export function commandFacts(facts: Facts): Omit<CommandFacts, "idle"> {
  const older = facts.snapshot.list;
  return {
    list: facts.list,
    limits: facts.config,
    killSwitch: facts.killSwitch !== undefined,
    staleList: facts.list.kind === "out-of-date" && older ? { tool: older.tool, total: older.tasks.length } : undefined,
  };
}

export function registerCommand(runtime: Runtime): void {
  const { pi } = runtime;
  pi.registerCommand("todoloop", {
    description: "Todo loop: status | pause | resume | reset | continue | report | verify",
    getArgumentCompletions(prefix) {
      const raw = typeof prefix === "string" ? prefix.toLowerCase() : "";
      const typed = raw.trim();
      // A word typed in full offers nothing to pick: Enter then runs it instead of accepting a completion.
      // Only a space after it (`verify `) asks for the words that may follow it.
      const full = (COMMANDS as readonly string[]).includes(typed) || VERIFY_COMPLETIONS.some((item) => item.value === typed);
      if (full && !(/\s$/.test(raw) && VERIFY_COMPLETIONS.some((item) => item.value.startsWith(`${typed} `)))) return null;
      const items = COMMANDS.filter((word) => word.startsWith(typed)).map((word) => ({
        value: word,
        label: word,
        description: DESCRIPTIONS[word],
      }));
      const verify = VERIFY_COMPLETIONS.filter((item) => item.value.startsWith(full ? `${typed} ` : typed));
      const report = !full && REPORT_COMPLETION.value.startsWith(typed) && typed !== REPORT_COMPLETION.value ? [REPORT_COMPLETION] : [];
      const all = [...items, ...report, ...verify];
      return all.length > 0 ? all : null;
    },
    async handler(args, ctx) {
      try {
        // Any `/todoloop` is a command that sees the kill switch: a wait cancelled, the footer following it.
        runtime.followSwitch(ctx);
        if (isVerifyCommand(args)) {
          await handleVerify(runtime, args, ctx);
          return;
        }
        if (isReportCommand(args)) {
          showReport(runtime, ctx);
          return;
        }
        const command = parseCommand(args);
        if (!command) {
          runtime.reach.answer(ctx, `todo loop: unknown sub-command "${sanitize(args, 40)}". ${USAGE}`, "error");
          return;
        }
        doWord(runtime, ctx, command, true);
      } catch (error) {
        runtime.failed(ctx, "/todoloop", error);
      }
    },
  });
}

/** The judge's calls under this message and its last problem (SPEC §4.22), when one is named or was asked. */
function judgeLines(facts: Facts): string {
  const { judge } = facts.snapshot;
  const model = facts.config.judge;
  if (model === null && judge.calls === 0) return "";
  const problem = judgeProblem(facts.session);
  return `\n${judgeStatusText(model ?? "(none now)", judge)}${problem ? `\n${problem}` : ""}`;
}

/** What a word did: the memory after it, and the line a refused `continue` answered with (a bus request's error). */
export interface WordDone {
  readonly facts: Facts;
  readonly memory: Memory;
  readonly refused: string | undefined;
}

/**
 * One word, as `/todoloop` does it: applied to the memory, recorded as a control, its line shown
 * (`show`: status shows the whole status, the other words their line), the footer, and a marker when
 * `continue` starts a run. A bus request does the same (SPEC §4.25); its `status` shows nothing.
 * Undefined in a child session where the loop is off: nothing is recorded or started there.
 */
export function doWord(runtime: Runtime, ctx: ContextLike, command: Command, show: boolean): WordDone | undefined {
  const { pi } = runtime;
  const child = runtime.children.ruleOf(ctx);
  if (child.child && runtime.conduct(ctx) === "off") {
    // Nothing at all in this child: `/todoloop` says why, and no word records or starts anything.
    if (show) runtime.notify(ctx, command === "status" ? `todo loop: off\n${childLine(child.why, "off")}` : childOffReply(child.why), "info");
    return undefined;
  }
  runtime.readControls(ctx, runtime.sessionOf(ctx));
  const facts = runtime.gather(ctx);
  const idle = typeof ctx.isIdle === "function" ? ctx.isIdle() : true;
  const result = applyCommand(facts.memory, command, { ...commandFacts(facts), idle });
  facts.session.memory = result.memory;
  if (result.record) {
    pi.appendEntry(CONTROL_TYPE, { v: 1, action: command, anchor: facts.memory.anchor });
    facts.session.paused = result.memory.paused;
  }
  const open = facts.list.kind === "list" ? facts.list.open : 0;
  const line = command === "status" ? undefined : commandReplyText(result.reply, { idle, open });
  if (show && command === "status") {
    const label = facts.snapshot.list ? sourceLabel(facts.snapshot.list.source) : undefined;
    const hook = runtime.reach.statusLine();
    runtime.reach.answer(ctx, statusText({
      memory: result.memory,
      list: facts.list,
      sourceLabel: label,
      spend: { ...facts.spend, minutes: minutesSince(facts.snapshot.anchorTime, Date.now()) },
      limits: facts.config,
      configFile: configPath(),
      problems: facts.problems,
      killSwitch: facts.killSwitch,
      ...anchorOf(ctx, facts.memory.anchor, facts.snapshot.anchorTime),
      configExists: configExists(),
    }) + workStatus(runtime).map((entry) => `\n${entry}`).join("") + (hook ? `\n${hook}` : "") + (child.child ? `\n${childLine(child.why, runtime.conduct(ctx, facts.config))}` : "") + verifyStatusLines(ctx, facts.config) + judgeLines(facts), "info");
  } else if (show && line !== undefined) {
    runtime.reach.answer(ctx, line, result.reply.kind === "cannot-continue" ? "warning" : "info");
  }
  runtime.refreshFooter(ctx, facts, result.memory);
  if (result.marker) {
    // The person's decision: no probe (SPEC §4.19); the run it starts holds the lock like any continuation.
    pi.sendMessage(markerMessage(result.marker, facts.config.transcript), { triggerTurn: true });
    runtime.workflow.hold(ctx);
  }
  return { facts, memory: result.memory, refused: result.reply.kind === "cannot-continue" ? line : undefined };
}

function configExists(): boolean | undefined {
  try {
    return existsSync(configPath());
  } catch {
    return undefined;
  }
}

/** The anchor as a person knows it: when it was written and its first words (read from its entry). */
function anchorOf(ctx: ContextLike, anchor: string, time: number | undefined): { anchorTime: number | undefined; anchorText: string | undefined } {
  let entry: unknown;
  try {
    entry = anchor === "" ? undefined : ctx.sessionManager.getEntry?.(anchor);
  } catch {
    entry = undefined;
  }
  const message = isRecord(entry) && isRecord(entry.message) ? entry.message : undefined;
  const stamp = isRecord(entry) && typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
  return { anchorTime: Number.isFinite(stamp) ? stamp : time, anchorText: message ? textOf(message.content) : undefined };
}

function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return sanitize(content, 200);
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((block) => isRecord(block) && block.type === "text" && typeof block.text === "string").map((block) => (block as { text: string }).text);
  return texts.length > 0 ? sanitize(texts.join(" "), 200) : undefined;
}
