/**
 * The `todo_loop_block` tool: the agent's "I need a person" signal for the current human message
 * (SPEC §6). The wait is rebuilt from the tool's own result on the branch (`details.waiting`).
 */
import { killSwitch } from "../io/paths.ts";
import { applyBlock } from "../loop.ts";
import { transcriptShown } from "./runtime.ts";
import type { Runtime } from "./runtime.ts";
import { isRecord } from "../core/record.ts";
import { BLOCK_TOOL } from "../core/tools.ts";
import { blockResultText, childOffBlockText, sanitize } from "../core/text.ts";

const REASON_CHARS = 500;

function textResult(text: string, details: unknown) {
  return { content: [{ type: "text" as const, text }], details };
}

export function registerBlockTool(runtime: Runtime): void {
  runtime.pi.registerTool({
    name: BLOCK_TOOL,
    label: "Todo loop: wait for the user",
    description:
      "Stop the todo loop's automatic continuation until the user replies. Call it when the open tasks cannot be finished without a person (a decision, a credential, missing information). Give the reason in one sentence.",
    promptSnippet: "Stop the todo loop's automatic continuation and wait for the user, with a reason",
    promptGuidelines: [
      "Use todo_loop_block when the open todo tasks cannot go on without the user (a decision, access, missing information); give the reason, then end your reply.",
      "Do not stop to ask whether to go on with open todo tasks: go on. Ask only for a decision you need, as the last line of your reply or through todo_loop_block.",
    ],
    // Called by the model itself, also when codemode's `only` mode hides the other tools: a call from a
    // script would leave no result on the branch to rebuild the wait from.
    exposure: "model-only",
    parameters: {
      type: "object",
      properties: {
        reason: { type: "string", description: "What you need from the user, in one sentence." },
      },
      required: ["reason"],
      additionalProperties: false,
    },
    async execute(_toolCallId, params: unknown, _signal, _onUpdate, ctx) {
      if (runtime.conduct(ctx) === "off") return textResult(childOffBlockText(runtime.children.ruleOf(ctx).why), { v: 1, waiting: false, off: true, child: true });
      const disabled = killSwitch(ctx.cwd);
      if (disabled) return textResult(`The todo loop is off (kill switch ${disabled}); there is no continuation to stop.`, { v: 1, waiting: false, off: true });
      const reason = sanitize(isRecord(params) ? params.reason : undefined, REASON_CHARS);
      if (reason === "") throw new Error("todo_loop_block needs a non-empty reason: say what you need from the user.");
      const facts = runtime.gather(ctx);
      const blocked = applyBlock(facts.memory, reason);
      facts.session.memory = blocked.memory;
      if (!blocked.accepted) {
        return textResult("The todo loop is paused by the user; there is no continuation to stop.", { v: 1, waiting: false, paused: true });
      }
      // In the interactive transcript the stop line announces the wait; elsewhere this notice does.
      if (!transcriptShown(ctx, facts.config)) runtime.notify(ctx, `todo loop: the agent is waiting for you: ${reason}`, "warning");
      runtime.refreshFooter(ctx, facts, blocked.memory);
      return textResult(blockResultText(reason), { v: 1, waiting: true, reason, anchor: facts.memory.anchor });
    },
  });
}
