/**
 * `workflow:mutex:v1` (SPEC §4.19): the cooperative lock goal and plan extensions share on pi's event
 * bus, so that one workflow drives a session at a time. A probe is a fresh `{ session, group, busy:
 * false }` emitted synchronously; a holder of that session and group sets `busy = true`. Pure: which
 * probe the loop answers, and what a probe it sent says after the emit. The emit, the listener and the
 * lock's owner are in `host/workflow.ts`.
 */
import { isRecord } from "./record.ts";

export const MUTEX_CHANNEL = "workflow:mutex:v1";
export const MUTEX_GROUP = "agent-workflow";

/** A probe the loop sends: exactly the three fields of the protocol. */
export interface MutexProbe {
  readonly session: object;
  readonly group: string;
  busy: boolean;
}

export function freshProbe(session: object): MutexProbe {
  return { session, group: MUTEX_GROUP, busy: false };
}

/**
 * Whether the loop answers `probe` with `busy = true`: it holds the lock for `held` sessions, and the
 * probe is a well-formed one for one of them and the agent-workflow group (`busy` a boolean). Anything
 * else — another session object, another group, a `busy` that is no boolean, a field whose getter
 * throws — gets no answer. Never throws.
 */
export function answers(probe: unknown, holds: (session: object) => boolean): probe is object {
  try {
    if (!isRecord(probe)) return false;
    const { session, group, busy } = probe;
    if (typeof session !== "object" || session === null) return false;
    if (group !== MUTEX_GROUP || typeof busy !== "boolean") return false;
    return holds(session);
  } catch {
    return false;
  }
}

/**
 * What the loop's own probe says after the emit: free only when `busy` is still exactly `false` (the
 * protocol's test). A listener that made it anything else, or a getter that throws, claims the session:
 * another workflow drives it, and the loop stands aside where it can be seen (`last:`, the footer).
 */
export function probeBusy(probe: unknown): boolean {
  try {
    return !isRecord(probe) || probe.busy !== false;
  } catch {
    return true;
  }
}
