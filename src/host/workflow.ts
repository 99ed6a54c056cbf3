/**
 * `workflow:mutex:v1` (SPEC §4.19), wired: the loop's probe before an automatic continuation, the lock
 * it holds from a continuation until that run ends, and its listener — registered when the extension
 * loads; synchronous, it never throws, never emits, never awaits — which answers `busy = true` only for
 * a well-formed probe of a session it holds. Which probe it answers and what a probe says are the rules
 * of `core/workflow.ts`.
 */
import { answers, freshProbe, MUTEX_CHANNEL, probeBusy } from "../core/workflow.ts";
import type { ContextLike, PiLike } from "../core/pi-shapes.ts";

export interface Workflow {
  /** Probes the bus synchronously: true when another workflow holds this session. Never throws. */
  otherDrives(ctx: ContextLike): boolean;
  /** A continuation of this session started: hold the lock until its run ends. */
  hold(ctx: ContextLike): void;
  /** The run ended (pi settled without going on) or the session ended: let the lock go. */
  release(ctx: ContextLike): void;
  /** Whether the loop holds the lock for this session. */
  holds(ctx: ContextLike): boolean;
}

function managerOf(ctx: ContextLike): object | undefined {
  try {
    const manager: unknown = ctx.sessionManager;
    return typeof manager === "object" && manager !== null ? manager : undefined;
  } catch {
    return undefined;
  }
}

export function createWorkflow(pi: PiLike): Workflow {
  const held = new Set<object>();
  /** The probe the loop is emitting right now: its own listener must not answer it. */
  let own: object | undefined;

  try {
    pi.events?.on?.(MUTEX_CHANNEL, (data) => {
      try {
        if (data === own || !answers(data, (session) => held.has(session))) return;
        // A frozen probe, or a `busy` whose setter throws, cannot be answered; that is its sender's loss.
        Reflect.set(data, "busy", true);
      } catch {
        // Never throw into another extension's emit.
      }
    });
  } catch {
    // A host without a usable bus: the loop neither probes usefully nor answers; it works as before.
  }

  return {
    otherDrives(ctx) {
      const session = managerOf(ctx);
      const bus = pi.events;
      if (!session || !bus) return false;
      const probe = freshProbe(session);
      own = probe;
      try {
        bus.emit(MUTEX_CHANNEL, probe);
      } catch {
        // A listener's failure is its own; the probe says what it says.
      } finally {
        own = undefined;
      }
      return probeBusy(probe);
    },
    hold(ctx) {
      const session = managerOf(ctx);
      if (session) held.add(session);
    },
    release(ctx) {
      const session = managerOf(ctx);
      if (session) held.delete(session);
    },
    holds(ctx) {
      const session = managerOf(ctx);
      return session !== undefined && held.has(session);
    },
  };
}
