/**
 * The facts a session keeps from its start to its end besides the loop's memory: its place in the
 * process's registry of sessions (a child or not, SPEC §4.18) and the `workflow:mutex:v1` lock (SPEC
 * §4.19). Registered before the boundaries, so every other `session_start` handler already knows whether
 * the session is a child.
 */
import type { Runtime } from "./runtime.ts";

export function registerSessionFacts(runtime: Runtime): void {
  const { pi } = runtime;
  pi.on("session_start", async (_event, ctx) => {
    try {
      runtime.children.started(ctx);
    } catch {
      // The rule falls back to the environment alone (ruleOf).
    }
  });
  pi.on("session_shutdown", async (_event, ctx) => {
    try {
      runtime.workflow.release(ctx);
      runtime.children.ended(ctx);
    } catch {
      // A session that ends cannot be helped by an error.
    }
  });
}
