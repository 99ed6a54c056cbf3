/**
 * A `/todoloop continue` kept while a run was winding down (its last turn over, pi not yet settled —
 * another extension's `agent_before_settle`, or pi's compaction at the end of a run): honoured once pi
 * settles, by `honourKept()`, through the same marker `continue` sends when the agent is idle. Registered
 * after the boundaries, so the stop that run ended with is recorded first.
 */
import { commandFacts } from "./command.ts";
import { killSwitch } from "../io/paths.ts";
import { honourKept } from "../loop.ts";
import { markerMessage } from "./runtime.ts";
import type { Runtime } from "./runtime.ts";
import { describeReason } from "../core/text.ts";

export function registerKeptConsent(runtime: Runtime): void {
  const { pi } = runtime;
  pi.on("agent_settled", async (event, ctx) => {
    try {
      if (killSwitch(ctx.cwd) || runtime.conduct(ctx) === "off") return;
      const session = runtime.sessionOf(ctx);
      if (session.memory?.kept === undefined) return;
      const facts = runtime.gather(ctx);
      const result = honourKept(facts.memory, commandFacts(facts), event.aborted === true);
      if (!result) return;
      session.memory = result.memory;
      if (result.marker || result.reply.kind === "cannot-continue") {
        runtime.notify(ctx, `todo loop: ${describeReason(result.reply)}`, result.marker ? "info" : "warning");
      }
      runtime.refreshFooter(ctx, facts, result.memory);
      if (result.marker) {
        pi.sendMessage(markerMessage(result.marker, facts.config.transcript), { triggerTurn: true });
        runtime.workflow.hold(ctx);
      }
    } catch (error) {
      runtime.failed(ctx, "agent_settled", error);
    }
  });
}
