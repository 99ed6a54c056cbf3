/**
 * Test-only pi extension: commands that let an RPC test move the session the way a person would,
 * without a new human message.
 *   /e2e-hidden-turn      appends a hidden custom message and starts a turn (no new anchor).
 *   /e2e-reload-runtime   runs pi's `/reload` flow (extensions are loaded again, memory is lost).
 * (`/e2e-tree <id>` lives in scripted-model.ts.)
 */

export const HIDDEN_TURN_TYPE = "e2e-control:hidden-turn";

interface CommandCtx {
  reload(): Promise<void>;
}
interface PiLike {
  registerCommand(name: string, options: { description?: string; handler(args: string, ctx: CommandCtx): Promise<void> }): void;
  sendMessage(
    message: { customType: string; content: string; display: boolean },
    options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" },
  ): void;
}

export default function sessionControl(pi: PiLike): void {
  pi.registerCommand("e2e-hidden-turn", {
    description: "Start a turn with a hidden message",
    async handler() {
      pi.sendMessage({ customType: HIDDEN_TURN_TYPE, content: "Go on.", display: false }, { triggerTurn: true });
    },
  });
  pi.registerCommand("e2e-reload-runtime", {
    description: "Reload extensions",
    async handler(_args, ctx) {
      await ctx.reload();
    },
  });
}
