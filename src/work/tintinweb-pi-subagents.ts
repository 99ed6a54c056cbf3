/**
 * tintinweb/pi-subagents (npm `@tintinweb/pi-subagents`, read at 0.18.0): subagents run in pi's own
 * process, each in its own session with its own event bus, so their events name no session.
 * - `subagents:created` `{ id, type, description, isBackground }`: background work starts only when
 *   `isBackground` is true (a foreground agent holds the parent's turn until it returns).
 * - `subagents:completed` / `subagents:failed` `{ id, type, description, result, error, status, … }`:
 *   it ended (foreground agents end here too; their ids were never started, so nothing changes).
 * The result message is `customType: "subagent-notification"` with `deliverAs: "followUp"` and
 * `triggerTurn`, held 200 ms after the end (longer when agents are grouped); a result the agent already
 * fetched with `get_subagent_result` sends none.
 */
import type { UnknownRecord } from "../core/record.ts";
import { guardedRead, workEvent, workId, workLabelOf } from "./types.ts";
import type { WorkRead, WorkSource } from "./types.ts";

const SOURCE = "tintinweb-pi-subagents";
const CREATED = "subagents:created";
const COMPLETED = "subagents:completed";
const FAILED = "subagents:failed";

function created(payload: UnknownRecord): WorkRead {
  const id = workId(payload.id);
  if (id === undefined) return undefined;
  if (payload.isBackground !== true) return [];
  return [workEvent(SOURCE, id, "start", workLabelOf(payload.description, payload.type))];
}

function ended(payload: UnknownRecord): WorkRead {
  const id = workId(payload.id);
  return id === undefined ? undefined : [workEvent(SOURCE, id, "end")];
}

export const tintinwebPiSubagents: WorkSource = {
  id: SOURCE,
  label: "@tintinweb/pi-subagents",
  channels: [CREATED, COMPLETED, FAILED],
  read(channel, payload) {
    if (channel === CREATED) return guardedRead(payload, created);
    if (channel === COMPLETED || channel === FAILED) return guardedRead(payload, ended);
    return undefined;
  },
  resultTypes: ["subagent-notification"],
};
