/**
 * This extension's own event for any other extension that runs background work: `pi.events.emit(
 * "todo-loop:work", { v: 1, id, phase: "start" | "end", label? })`. `id` is the emitter's key for the
 * work (unique while it runs), `label` how `/todoloop` shows it. Names no session: the work belongs to
 * the session whose bus heard it. Any other `v` is a shape this version does not know.
 */
import type { UnknownRecord } from "../core/record.ts";
import { guardedRead, workEvent, workId, workLabelOf } from "./types.ts";
import type { WorkRead, WorkSource } from "./types.ts";

const SOURCE = "todo-loop-work";
export const WORK_CHANNEL = "todo-loop:work";

function generic(payload: UnknownRecord): WorkRead {
  const id = workId(payload.id);
  const phase = payload.phase;
  if (payload.v !== 1 || id === undefined || (phase !== "start" && phase !== "end")) return undefined;
  if (payload.label !== undefined && typeof payload.label !== "string") return undefined;
  return [workEvent(SOURCE, id, phase, phase === "start" ? workLabelOf(payload.label) : undefined)];
}

export const todoLoopWork: WorkSource = {
  id: SOURCE,
  label: "todo-loop:work",
  channels: [WORK_CHANNEL],
  read(channel, payload) {
    return channel === WORK_CHANNEL ? guardedRead(payload, generic) : undefined;
  },
  resultTypes: [],
};
