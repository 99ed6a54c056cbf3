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
import { childLine, childOffReply, commandReplyText, sanitize, statusText } from "../core/text.ts";
import { handleVerify, isVerifyCommand, VERIFY_COMPLETIONS, verifyStatusLines } from "./verify-command.ts";
import { workStatus } from "./work.ts";

const DESCRIPTIONS: Record<Command, string> = {
  status: "what the loop is doing and why",
  pause: "no continuing until resume or continue",
  resume: "continue again; also ends a wait",
  reset: "clear the continuation and reply counts",
  continue: "lift a pause or wait and go on now",
};

const USAGE = "Usage: /todoloop [status|pause|resume|reset|continue|verify [approve|forget]]";

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
    description: "Todo loop: status | pause | resume | reset | continue | verify",
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
      const all = [...items, ...verify];
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
        const command = parseCommand(args);
        if (!command) {
          runtime.notify(ctx, `todo loop: unknown sub-command "${sanitize(args, 40)}". ${USAGE}`, "error");
          return;
        }
        const child = runtime.children.ruleOf(ctx);
        if (child.child && runtime.conduct(ctx) === "off") {
          // Nothing at all in this child: `/todoloop` says why, and no word records or starts anything.
          runtime.notify(ctx, command === "status" ? `todo loop: off\n${childLine(child.why, "off")}` : childOffReply(child.why), "info");
          return;
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
        if (command === "status") {
          const label = facts.snapshot.list ? sourceLabel(facts.snapshot.list.source) : undefined;
          const hook = runtime.reach.statusLine();
          runtime.notify(ctx, statusText({
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
          }) + workStatus(runtime).map((line) => `\n${line}`).join("") + (hook ? `\n${hook}` : "") + (child.child ? `\n${childLine(child.why, runtime.conduct(ctx, facts.config))}` : "") + verifyStatusLines(ctx, facts.config), "info");
        } else {
          const open = facts.list.kind === "list" ? facts.list.open : 0;
          runtime.notify(ctx, commandReplyText(result.reply, { idle, open }), result.reply.kind === "cannot-continue" ? "warning" : "info");
        }
        runtime.refreshFooter(ctx, facts, result.memory);
        if (result.marker) {
          // The person's decision: no probe (SPEC §4.19); the run it starts holds the lock like any continuation.
          pi.sendMessage(markerMessage(result.marker, facts.config.transcript), { triggerTurn: true });
          runtime.workflow.hold(ctx);
        }
      } catch (error) {
        runtime.failed(ctx, "/todoloop", error);
      }
    },
  });
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
