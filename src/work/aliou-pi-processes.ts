/**
 * aliou/pi-processes (npm `@aliou/pi-processes`, read at 0.10.9): background processes the agent starts
 * with its `process` tool. Payloads are its `ProcessInfo` `{ id, name, pid, command, cwd, startTime,
 * endTime, status, exitCode, success, endReason, … }`, `status` one of `running`, `terminating`,
 * `terminate_timeout` (live) or `exited`, `killed`.
 * - `processes:started`: a live process starts. `processes:ended`: it ended (a kill that times out stays
 *   `terminate_timeout` and never ends here; check-ins cover it).
 * - `processes:request:list` `{ reply(list) }`: answered synchronously with every process it knows,
 *   ended ones included.
 * The end's message (`customType: "ad-process:notification"`, `deliverAs: "steer"`) follows the end
 * event; it starts a turn (`triggerTurn`) by default, but not for a process killed from outside or
 * stopped on purpose. Names no session; at `session_shutdown` (reload included) it kills them all.
 */
import type { UnknownRecord } from "../core/record.ts";
import { guardedRead, workEvent, workId, workLabelOf } from "./types.ts";
import type { SourceWorkEvent, WorkRead, WorkSource } from "./types.ts";

const SOURCE = "aliou-pi-processes";
const STARTED = "processes:started";
const ENDED = "processes:ended";
const LIST = "processes:request:list";

const LIVE: ReadonlySet<string> = new Set(["running", "terminating", "terminate_timeout"]);
const DONE: ReadonlySet<string> = new Set(["exited", "killed"]);

/** A process's id and whether it is live, or undefined when the payload is not a `ProcessInfo`. */
function processOf(payload: UnknownRecord): { event: SourceWorkEvent; live: boolean } | undefined {
  const id = workId(payload.id);
  const status = payload.status;
  if (id === undefined || typeof status !== "string" || (!LIVE.has(status) && !DONE.has(status))) return undefined;
  return { event: workEvent(SOURCE, id, "start", workLabelOf(payload.name, payload.command)), live: LIVE.has(status) };
}

function started(payload: UnknownRecord): WorkRead {
  const process = processOf(payload);
  if (process === undefined) return undefined;
  return process.live ? [process.event] : [];
}

function ended(payload: UnknownRecord): WorkRead {
  const process = processOf(payload);
  return process === undefined ? undefined : [workEvent(SOURCE, process.event.id, "end")];
}

/** The live processes of a list reply; an item of another shape is skipped, a reply that is no list is undefined. */
function liveList(reply: unknown): readonly SourceWorkEvent[] | undefined {
  try {
    if (!Array.isArray(reply)) return undefined;
    const live: SourceWorkEvent[] = [];
    for (const item of reply) {
      const process = guardedRead(item, processOf);
      if (process?.live === true) live.push(process.event);
    }
    return live;
  } catch {
    return undefined;
  }
}

export const aliouPiProcesses: WorkSource = {
  id: SOURCE,
  label: "@aliou/pi-processes",
  channels: [STARTED, ENDED],
  read(channel, payload) {
    if (channel === STARTED) return guardedRead(payload, started);
    if (channel === ENDED) return guardedRead(payload, ended);
    return undefined;
  },
  resultTypes: ["ad-process:notification"],
  snapshot: { channel: LIST, read: liveList },
};
