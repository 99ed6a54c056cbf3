/**
 * pi-code's subagents (GitHub ilovepixelart/pi-code, `extensions/subagent/`): one channel,
 * `pi-code:subagent` `{ phase: "start" | "stop", agentType, agentId, lastAssistantMessage? }`, for
 * foreground runs (`fg-…` ids, the parent's tool call waits for them) and background runs (`bg-…` ids);
 * only the background ones are work in flight. A resumed background run starts again under its id.
 * The stop is emitted just before the result message, `customType: "subagent-background"` with
 * `triggerTurn`. Names no session.
 */
import type { UnknownRecord } from "../core/record.ts";
import { fieldsOf, workEvent, workId, workLabelOf } from "./types.ts";
import type { WorkRead, WorkSource } from "./types.ts";

const SOURCE = "pi-code";
const CHANNEL = "pi-code:subagent";
const BACKGROUND_PREFIX = "bg-";

function phaseEvent(fields: UnknownRecord | undefined): WorkRead {
  if (fields === undefined) return undefined;
  const id = workId(fields.agentId);
  const phase = fields.phase === "start" ? "start" : fields.phase === "stop" ? "end" : undefined;
  if (id === undefined || phase === undefined || typeof fields.agentType !== "string") return undefined;
  if (!id.startsWith(BACKGROUND_PREFIX)) return [];
  return [workEvent(SOURCE, id, phase, workLabelOf(fields.agentType))];
}

export const piCode: WorkSource = {
  id: SOURCE,
  label: "pi-code",
  channels: [CHANNEL],
  read(channel, payload) {
    return channel === CHANNEL ? phaseEvent(fieldsOf(payload, ["phase", "agentType", "agentId"])) : undefined;
  },
  resultTypes: ["subagent-background"],
};
