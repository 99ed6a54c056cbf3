/**
 * tintinweb/pi-subagents (npm `@tintinweb/pi-subagents`, read at 0.18.0): subagents run in pi's own
 * process, each in its own session with its own event bus, so their events name no session.
 * - `subagents:created` `{ id, type, description, isBackground }`: background work starts only when
 *   `isBackground` is true (a foreground agent holds the parent's turn until it returns).
 * - `subagents:completed` / `subagents:failed` `{ id, type, description, result, error, status, … }`:
 *   it ended (foreground agents end here too; their ids were never started, so nothing changes).
 * The result message is `customType: "subagent-notification"` with `deliverAs: "followUp"` and
 * `triggerTurn`, held 200 ms after the end (longer when agents are grouped); a result the agent already
 * fetched with `get_subagent_result` sends none. A result that comes due while the parent agent runs is
 * parked and sent at its `agent_settled` (`src/nudge-queue.ts`).
 */
import type { UnknownRecord } from "../core/record.ts";
import { fieldsOf, workEvent, workId, workLabelOf } from "./types.ts";
import type { WorkRead, WorkSource } from "./types.ts";

const SOURCE = "tintinweb-pi-subagents";
const CREATED = "subagents:created";
const COMPLETED = "subagents:completed";
const FAILED = "subagents:failed";

function created(fields: UnknownRecord | undefined): WorkRead {
  if (fields === undefined) return undefined;
  const id = workId(fields.id);
  if (id === undefined) return undefined;
  if (fields.isBackground !== true) return [];
  return [workEvent(SOURCE, id, "start", workLabelOf(fields.description, fields.type))];
}

function ended(fields: UnknownRecord | undefined): WorkRead {
  if (fields === undefined) return undefined;
  const id = workId(fields.id);
  return id === undefined ? undefined : [workEvent(SOURCE, id, "end")];
}

export const tintinwebPiSubagents: WorkSource = {
  id: SOURCE,
  label: "@tintinweb/pi-subagents",
  channels: [CREATED, COMPLETED, FAILED],
  read(channel, payload) {
    if (channel === CREATED) return created(fieldsOf(payload, ["id", "isBackground", "description", "type"]));
    if (channel === COMPLETED || channel === FAILED) return ended(fieldsOf(payload, ["id"]));
    return undefined;
  },
  resultTypes: ["subagent-notification"],
  // Its notice queue (`src/nudge-queue.ts`) parks a result due while the parent runs until `agent_settled`.
  holdsResults: true,
};
