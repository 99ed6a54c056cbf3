/**
 * Other extensions ask and steer on pi's bus (SPEC §4.25): `todo-loop:request` is heard from the
 * extension's start and answered once on `todo-loop:reply:<id>` — the state, or why not — after doing
 * what the `/todoloop` word does (`doWord`: recorded the same way, its line shown in UI modes). Which
 * request is served is `core/bus.ts`'s rule; this listener is synchronous and never throws. The state
 * event itself goes out where the footer is refreshed (`runtime.publishState`).
 */
import { readRequest, replyChannel, replyOf, REQUEST_EVENT } from "../core/bus.ts";
import type { BusOp, BusReply } from "../core/bus.ts";
import type { ContextLike } from "../core/pi-shapes.ts";
import { doWord } from "./command.ts";
import type { Runtime } from "./runtime.ts";

export function registerBus(runtime: Runtime): void {
  const { pi } = runtime;
  if (typeof pi.events?.on !== "function") return;
  pi.events.on(REQUEST_EVENT, (raw) => {
    try {
      // The session the bus belongs to acts through the newest context pi handed a handler.
      const ctx = runtime.work.ctx;
      const check = readRequest(raw, ctx ? runtime.sessionId(ctx) : "");
      if (check.kind === "ignore") return;
      if (check.kind === "refuse") return answer(runtime, check.id, { v: 1, ok: false, error: check.error });
      if (!ctx) return answer(runtime, check.id, { v: 1, ok: false, error: "no session has started yet" });
      answer(runtime, check.id, serve(runtime, ctx, check.op));
    } catch {
      // A request never breaks the emitter nor the loop.
    }
  });
}

function serve(runtime: Runtime, ctx: ContextLike, op: BusOp): BusReply {
  try {
    // The other words show their `/todoloop` line in UI modes; a status request is a query and shows nothing.
    const done = doWord(runtime, ctx, op, op !== "status");
    if (!done) return { v: 1, ok: false, error: "the todo loop is off in this child session" };
    return replyOf(runtime.stateOf(ctx, done.facts, done.memory), done.refused);
  } catch (error) {
    return { v: 1, ok: false, error: error instanceof Error ? error.message.slice(0, 200) : "failed" };
  }
}

function answer(runtime: Runtime, id: string, reply: BusReply): void {
  try {
    runtime.pi.events?.emit(replyChannel(id), reply);
  } catch {
    // A listener's failure is its own.
  }
}
