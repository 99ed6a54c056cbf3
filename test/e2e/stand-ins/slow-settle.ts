/**
 * Test-only pi extension: another extension whose `agent_before_settle` handler takes two seconds (the
 * way a summariser or a checker at the end of a run would). It announces the hold with an `info` notify
 * (`e2e-slow-settle: holding`) so a test can act while the run is winding down: its last turn over, pi
 * not yet settled.
 */

export const HOLDING = "e2e-slow-settle: holding";
const HOLD_MS = 2000;

interface Ctx {
  ui: { notify(message: string, type?: "info" | "warning" | "error"): void };
}
interface PiLike {
  on(event: "agent_before_settle", handler: (event: unknown, ctx: Ctx) => Promise<undefined>): void;
}

export default function slowSettle(pi: PiLike): void {
  pi.on("agent_before_settle", async (_event, ctx) => {
    ctx.ui.notify(HOLDING, "info");
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    return undefined;
  });
}
