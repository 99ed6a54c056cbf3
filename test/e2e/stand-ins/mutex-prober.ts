/**
 * Test-only pi extension: another workflow that wants to start and asks `workflow:mutex:v1` first, at
 * every turn's start and once the agent has settled. Each answer is appended to PI_TODO_LOOP_E2E_PROBES
 * as one JSON line `{ at: "turn" | "settled", turn, busy }` — `busy` as the probe holds it when the
 * synchronous emit returns. Load it after pi-todo-loop, so at `agent_settled` the loop has already let go.
 */
import { appendFileSync } from "node:fs";

interface Ctx {
  sessionManager: object;
}
interface PiLike {
  events: { emit(channel: string, data: unknown): void };
  on(event: "turn_start" | "agent_settled", handler: (event: unknown, ctx: Ctx) => Promise<void>): void;
}

export default function mutexProber(pi: PiLike): void {
  const log = process.env.PI_TODO_LOOP_E2E_PROBES;
  let turn = 0;
  function probe(at: "turn" | "settled", ctx: Ctx): void {
    const attempt = { session: ctx.sessionManager, group: "agent-workflow", busy: false };
    pi.events.emit("workflow:mutex:v1", attempt);
    if (log) appendFileSync(log, `${JSON.stringify({ at, turn, busy: attempt.busy })}\n`);
  }
  pi.on("turn_start", async (_event, ctx) => {
    turn += 1;
    probe("turn", ctx);
  });
  pi.on("agent_settled", async (_event, ctx) => probe("settled", ctx));
}
