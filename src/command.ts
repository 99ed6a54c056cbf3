/**
 * The `/todoloop` command: status, pause, resume, reset and continue (SPEC §7). Controls are recorded on
 * the branch as `todo-loop:control` entries so a reload, a restart or a fork reads them back; `continue`
 * may start a run with one marker.
 */
import { configPath } from "./config.ts";
import { applyCommand, COMMANDS, parseCommand } from "./loop.ts";
import type { Command } from "./loop.ts";
import { markerMessage } from "./runtime.ts";
import type { Runtime } from "./runtime.ts";
import { sourceLabel } from "./sources/index.ts";
import { CONTROL_TYPE } from "./state.ts";
import { describeReason, sanitize, statusText } from "./text.ts";
import { handleVerify, isVerifyCommand, VERIFY_COMPLETIONS, verifyStatusLines } from "./verify-command.ts";

const DESCRIPTIONS: Record<Command, string> = {
  status: "what the loop is doing and why",
  pause: "no continuing until resume or continue",
  resume: "continue again; also ends a wait",
  reset: "clear the continuation and reply counts",
  continue: "lift a pause or wait and go on now",
};

const USAGE = "Usage: /todoloop [status|pause|resume|reset|continue|verify [approve|forget]]";

export function registerCommand(runtime: Runtime): void {
  const { pi } = runtime;
  pi.registerCommand("todoloop", {
    description: "Todo loop: status | pause | resume | reset | continue",
    getArgumentCompletions(prefix) {
      const typed = typeof prefix === "string" ? prefix.trim().toLowerCase() : "";
      const items = COMMANDS.filter((word) => word.startsWith(typed)).map((word) => ({
        value: word,
        label: word,
        description: DESCRIPTIONS[word],
      }));
      const verify = VERIFY_COMPLETIONS.filter((item) => item.value.startsWith(typed) && item.value !== typed);
      const all = [...items, ...verify];
      return all.length > 0 ? all : null;
    },
    async handler(args, ctx) {
      try {
        if (isVerifyCommand(args)) {
          await handleVerify(runtime, args, ctx);
          return;
        }
        const command = parseCommand(args);
        if (!command) {
          runtime.notify(ctx, `todo loop: unknown sub-command "${sanitize(args, 40)}". ${USAGE}`, "error");
          return;
        }
        const facts = runtime.gather(ctx);
        const idle = typeof ctx.isIdle === "function" ? ctx.isIdle() : true;
        const result = applyCommand(facts.memory, command, {
          list: facts.list,
          limits: facts.config,
          idle,
          killSwitch: facts.killSwitch !== undefined,
        });
        facts.session.memory = result.memory;
        if (result.record) pi.appendEntry(CONTROL_TYPE, { v: 1, action: command, anchor: facts.memory.anchor });
        if (command === "status") {
          const label = facts.snapshot.list ? sourceLabel(facts.snapshot.list.source) : undefined;
          runtime.notify(ctx, statusText({
            memory: result.memory,
            list: facts.list,
            sourceLabel: label,
            spend: facts.spend,
            limits: facts.config,
            configFile: configPath(),
            problems: facts.problems,
            killSwitch: facts.killSwitch,
          }) + verifyStatusLines(ctx, facts.config), "info");
        } else {
          runtime.notify(ctx, `todo loop: ${describeReason(result.reply)}`, result.reply.kind === "cannot-continue" ? "warning" : "info");
        }
        runtime.showFooter(ctx, facts.session, runtime.footerFor(facts, result.memory));
        if (result.marker) pi.sendMessage(markerMessage(result.marker, facts.config.transcript), { triggerTurn: true });
      } catch (error) {
        runtime.failed(ctx, "/todoloop", error);
      }
    },
  });
}
