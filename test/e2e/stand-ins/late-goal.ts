/**
 * Test-only pi extension: a goal workflow that takes `workflow:mutex:v1` for the session only when told
 * to, by the command `/e2e-goal-take` (an `info` notify "e2e-goal: held" or "e2e-goal: busy"), and
 * holds it from then on. Its listener (synchronous) sets `busy = true` for probes of that session object
 * and the `agent-workflow` group while it holds. It never pushes the agent.
 */
const CHANNEL = "workflow:mutex:v1";
const GROUP = "agent-workflow";

interface Probe {
  session?: unknown;
  group?: unknown;
  busy?: unknown;
}
interface Ctx {
  sessionManager: object;
  ui: { notify(message: string, type?: "info" | "warning" | "error"): void };
}
interface PiLike {
  events: { emit(channel: string, data: unknown): void; on(channel: string, handler: (data: unknown) => void): () => void };
  registerCommand(name: string, options: { description: string; handler(args: string, ctx: Ctx): Promise<void> }): void;
}

export default function lateGoal(pi: PiLike): void {
  let owner: object | undefined;
  pi.events.on(CHANNEL, (data) => {
    const probe = data as Probe;
    if (owner !== undefined && probe.session === owner && probe.group === GROUP && typeof probe.busy === "boolean") probe.busy = true;
  });
  pi.registerCommand("e2e-goal-take", {
    description: "Test only: take workflow:mutex:v1 for this session and hold it",
    async handler(_args, ctx) {
      const probe = { session: ctx.sessionManager, group: GROUP, busy: false };
      pi.events.emit(CHANNEL, probe);
      if (probe.busy === false) owner = ctx.sessionManager;
      ctx.ui.notify(owner === ctx.sessionManager ? "e2e-goal: held" : "e2e-goal: busy", "info");
    },
  });
}
