/**
 * This extension's own event for any other extension that runs background work: `pi.events.emit(
 * "todo-loop:work", { v: 1, id, phase: "start" | "end", label? })`. `id` is the emitter's key for the
 * work (unique while it runs), `label` how `/todoloop` shows it. Names no session: the work belongs to
 * the session whose bus heard it. Any other `v` is a shape this version does not know.
 */
import type { UnknownRecord } from "../core/record.ts";
import { fieldsOf, workEvent, workId, workLabelOf } from "./types.ts";
import type { WorkRead, WorkSource } from "./types.ts";

const SOURCE = "todo-loop-work";
export const WORK_CHANNEL = "todo-loop:work";

function generic(fields: UnknownRecord | undefined): WorkRead {
  if (fields === undefined) return undefined;
  const id = workId(fields.id);
  const phase = fields.phase;
  if (fields.v !== 1 || id === undefined || (phase !== "start" && phase !== "end")) return undefined;
  if (fields.label !== undefined && typeof fields.label !== "string") return undefined;
  return [workEvent(SOURCE, id, phase, phase === "start" ? workLabelOf(fields.label) : undefined)];
}

export const todoLoopWork: WorkSource = {
  id: SOURCE,
  label: "todo-loop:work",
  channels: [WORK_CHANNEL],
  read(channel, payload) {
    return channel === WORK_CHANNEL ? generic(fieldsOf(payload, ["v", "id", "phase", "label"])) : undefined;
  },
  resultTypes: [],
};
