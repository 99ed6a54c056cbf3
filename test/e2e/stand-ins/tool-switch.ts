/**
 * Test-only pi extension: `/e2e-deactivate <tool name>` takes one tool out of the active set with
 * `pi.setActiveTools()` (the tool stays registered), the way a person or another extension narrows the
 * tools mid-session. Reports the active set afterwards as an `info` notify ("e2e-deactivate: a, b, …").
 */

interface CommandCtx {
  ui: { notify(message: string, type?: "info" | "warning" | "error"): void };
}
interface PiLike {
  getActiveTools(): string[];
  setActiveTools(names: string[]): void;
  registerCommand(name: string, options: { description?: string; handler(args: string, ctx: CommandCtx): Promise<void> }): void;
}

export default function toolSwitch(pi: PiLike): void {
  pi.registerCommand("e2e-deactivate", {
    description: "Test only: deactivate one tool",
    async handler(args, ctx) {
      const name = args.trim();
      pi.setActiveTools(pi.getActiveTools().filter((tool) => tool !== name));
      ctx.ui.notify(`e2e-deactivate: ${pi.getActiveTools().join(", ")}`, "info");
    },
  });
}
