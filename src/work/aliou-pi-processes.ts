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
import { fieldsOf, workEvent, workId, workLabelOf } from "./types.ts";
import type { SourceWorkEvent, WorkRead, WorkSource } from "./types.ts";

const SOURCE = "aliou-pi-processes";
const STARTED = "processes:started";
const ENDED = "processes:ended";
const LIST = "processes:request:list";

/** Whether a process of each status is live; any other status is not its shape. */
const LIVE_BY_STATUS: ReadonlyMap<unknown, boolean> = new Map([
  ["running", true],
  ["terminating", true],
  ["terminate_timeout", true],
  ["exited", false],
  ["killed", false],
]);

const FIELDS = ["id", "status", "name", "command"];

/** A process's start event and whether it is live, or undefined when the fields are not a `ProcessInfo`'s. */
function processOf(fields: UnknownRecord | undefined): { event: SourceWorkEvent; live: boolean } | undefined {
  if (fields === undefined) return undefined;
  const id = workId(fields.id);
  const live = LIVE_BY_STATUS.get(fields.status);
  if (id === undefined || live === undefined) return undefined;
  return { event: workEvent(SOURCE, id, "start", workLabelOf(fields.name, fields.command)), live };
}

function started(fields: UnknownRecord | undefined): WorkRead {
  const process = processOf(fields);
  if (process === undefined) return undefined;
  return process.live ? [process.event] : [];
}

function ended(fields: UnknownRecord | undefined): WorkRead {
  const process = processOf(fields);
  return process === undefined ? undefined : [workEvent(SOURCE, process.event.id, "end")];
}

/** The items of a list reply, or undefined when it is no array (or a proxy that throws). */
function itemsOf(reply: unknown): readonly unknown[] | undefined {
  try {
    if (Array.isArray(reply)) return Array.from(reply);
  } catch {
    // Not a list the source sends.
  }
  return undefined;
}

/** The live processes of a list reply; an item of another shape is skipped, a reply that is no list is undefined. */
function liveList(reply: unknown): readonly SourceWorkEvent[] | undefined {
  return itemsOf(reply)?.flatMap((item) => started(fieldsOf(item, FIELDS)) ?? []);
}

export const aliouPiProcesses: WorkSource = {
  id: SOURCE,
  label: "@aliou/pi-processes",
  channels: [STARTED, ENDED],
  read(channel, payload) {
    if (channel === STARTED) return started(fieldsOf(payload, FIELDS));
    if (channel === ENDED) return ended(fieldsOf(payload, FIELDS));
    return undefined;
  },
  resultTypes: ["ad-process:notification"],
  snapshot: { channel: LIST, read: liveList },
};
