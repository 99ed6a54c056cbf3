/**
 * Test-only pi extension: a goal workflow that takes part in `workflow:mutex:v1` the way the goal and
 * plan extensions do. At `session_start` it acquires the lock for the session (a fresh probe, `busy ===
 * false` in the same tick, then it is the owner); its listener (registered here, synchronous) sets `busy
 * = true` for probes of that session object and the `agent-workflow` group while it holds. While it
 * holds, it pushes the agent itself at each settle — its own hidden message and `continue: true` —
 * PI_TODO_LOOP_E2E_GOAL_PUSHES times (default 2); after its last push the goal is complete and it lets
 * the lock go — unless PI_TODO_LOOP_E2E_GOAL_KEEP=1 (a goal still active, waiting on something). Load it after pi-todo-loop, so the loop decides first and must yield by the lock alone.
 * Each push is appended to PI_TODO_LOOP_E2E_GOAL as one JSON line `{ push, acquired }`.
 */
import { appendFileSync } from "node:fs";

export const GOAL_TYPE = "e2e-goal:continue";
const CHANNEL = "workflow:mutex:v1";
const GROUP = "agent-workflow";

interface Probe {
  session?: unknown;
  group?: unknown;
  busy?: unknown;
}
interface Ctx {
  sessionManager: object;
}
interface TurnEndEvent {
  toolResults?: unknown;
  outcome?: unknown;
  entries?: unknown;
}
interface PiLike {
  events: { emit(channel: string, data: unknown): void; on(channel: string, handler: (data: unknown) => void): () => void };
  on(event: "session_start", handler: (event: unknown, ctx: Ctx) => Promise<void>): void;
  on(event: "turn_end", handler: (event: TurnEndEvent, ctx: Ctx) => Promise<{ entries: unknown[]; continue: boolean } | undefined>): void;
}

export default function goalHolder(pi: PiLike): void {
  const log = process.env.PI_TODO_LOOP_E2E_GOAL;
  let pushesLeft = Number(process.env.PI_TODO_LOOP_E2E_GOAL_PUSHES ?? "2");
  let owner: object | undefined;
  let acquired = false;
  let pushes = 0;

  pi.events.on(CHANNEL, (data) => {
    const probe = data as Probe;
    if (owner !== undefined && probe.session === owner && probe.group === GROUP && typeof probe.busy === "boolean") probe.busy = true;
  });

  pi.on("session_start", async (_event, ctx) => {
    const probe = { session: ctx.sessionManager, group: GROUP, busy: false };
    pi.events.emit(CHANNEL, probe);
    if (probe.busy === false) {
      owner = ctx.sessionManager;
      acquired = true;
    }
  });

  pi.on("turn_end", async (event, ctx) => {
    const settle = event.outcome === "completed" && Array.isArray(event.toolResults) && event.toolResults.length === 0;
    if (!settle || owner !== ctx.sessionManager || pushesLeft <= 0) return undefined;
    pushesLeft -= 1;
    pushes += 1;
    if (log) appendFileSync(log, `${JSON.stringify({ push: pushes, acquired })}\n`);
    // The goal is complete after its last push: the lock goes with it.
    if (pushesLeft === 0 && process.env.PI_TODO_LOOP_E2E_GOAL_KEEP !== "1") owner = undefined;
    const earlier: unknown[] = Array.isArray(event.entries) ? event.entries : [];
    const own = { type: "custom_message", customType: GOAL_TYPE, content: "Keep working toward the goal.", display: false };
    return { entries: [...earlier, own], continue: true };
  });
}
