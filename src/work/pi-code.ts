/**
 * pi-code's subagents (GitHub ilovepixelart/pi-code, `extensions/subagent/`): one channel,
 * `pi-code:subagent` `{ phase: "start" | "stop", agentType, agentId, lastAssistantMessage? }`, for
 * foreground runs (`fg-…` ids, the parent's tool call waits for them) and background runs (`bg-…` ids);
 * only the background ones are work in flight. A resumed background run starts again under its id.
 * The stop is emitted just before the result message, `customType: "subagent-background"` with
 * `triggerTurn`. Names no session.
 */
import type { UnknownRecord } from "../core/record.ts";
import { guardedRead, workEvent, workId, workLabelOf } from "./types.ts";
import type { WorkRead, WorkSource } from "./types.ts";

const SOURCE = "pi-code";
const CHANNEL = "pi-code:subagent";
const BACKGROUND_PREFIX = "bg-";

function phaseEvent(payload: UnknownRecord): WorkRead {
  const id = workId(payload.agentId);
  const phase = payload.phase === "start" ? "start" : payload.phase === "stop" ? "end" : undefined;
  if (id === undefined || phase === undefined || typeof payload.agentType !== "string") return undefined;
  if (!id.startsWith(BACKGROUND_PREFIX)) return [];
  return [workEvent(SOURCE, id, phase, workLabelOf(payload.agentType))];
}

export const piCode: WorkSource = {
  id: SOURCE,
  label: "pi-code",
  channels: [CHANNEL],
  read(channel, payload) {
    return channel === CHANNEL ? guardedRead(payload, phaseEvent) : undefined;
  },
  resultTypes: ["subagent-background"],
};
