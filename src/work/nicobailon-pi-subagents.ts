/**
 * nicobailon/pi-subagents (npm `pi-subagents`, read at 0.54.0): subagents that run async by default, each
 * as a detached runner process.
 * - `subagent:async-started` `{ id, pid, sessionId, agent, agents?, mode, asyncDir, … }`: work starts.
 *   `sessionId` is the starting session's file when it has one, else its id.
 * - `subagent:process-terminal` `{ version: 1, state, runId, runnerProcessInstanceId, … }`: the runner
 *   process closed (`state` `observed` or `unknown`; `pending` is not an end). Names no session.
 * - `subagent:async-complete` `{ id, runId, sessionId, agent, success, state, results[], triggerTurn, … }`:
 *   emitted after the result message was handed to pi, so the message comes first.
 * The result message is `customType: "subagent-notify"`, sent with `triggerTurn` (no `deliverAs`).
 */
import type { UnknownRecord } from "../core/record.ts";
import { fieldsOf, sessionOf, workEvent, workId, workLabelOf } from "./types.ts";
import type { WorkRead, WorkSource } from "./types.ts";

const SOURCE = "nicobailon-pi-subagents";
const STARTED = "subagent:async-started";
const COMPLETE = "subagent:async-complete";
const TERMINAL = "subagent:process-terminal";

function started(fields: UnknownRecord | undefined): WorkRead {
  if (fields === undefined) return undefined;
  const id = workId(fields.id);
  if (id === undefined) return undefined;
  return [workEvent(SOURCE, id, "start", workLabelOf(fields.agent), sessionOf(fields.sessionId))];
}

function complete(fields: UnknownRecord | undefined): WorkRead {
  if (fields === undefined) return undefined;
  const id = workId(fields.runId) ?? workId(fields.id);
  if (id === undefined) return undefined;
  return [workEvent(SOURCE, id, "end", undefined, sessionOf(fields.sessionId))];
}

function terminal(fields: UnknownRecord | undefined): WorkRead {
  if (fields === undefined) return undefined;
  const id = workId(fields.runId);
  if (id === undefined || typeof fields.state !== "string") return undefined;
  return fields.state === "pending" ? [] : [workEvent(SOURCE, id, "end")];
}

export const nicobailonPiSubagents: WorkSource = {
  id: SOURCE,
  label: "pi-subagents",
  channels: [STARTED, COMPLETE, TERMINAL],
  read(channel, payload) {
    if (channel === STARTED) return started(fieldsOf(payload, ["id", "agent", "sessionId"]));
    if (channel === COMPLETE) return complete(fieldsOf(payload, ["runId", "id", "sessionId"]));
    if (channel === TERMINAL) return terminal(fieldsOf(payload, ["runId", "state"]));
    return undefined;
  },
  resultTypes: ["subagent-notify"],
};
