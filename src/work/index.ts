/**
 * Every source of work in flight this extension reads (SPEC §4.17). Adding a source: one adapter file,
 * one line here. The host subscribes to `WORK_CHANNELS` and hands each payload to `readWork`.
 */
import { aliouPiProcesses } from "./aliou-pi-processes.ts";
import { nicobailonPiSubagents } from "./nicobailon-pi-subagents.ts";
import { piCode } from "./pi-code.ts";
import { tintinwebPiSubagents } from "./tintinweb-pi-subagents.ts";
import { todoLoopWork } from "./todo-loop-work.ts";
import type { WorkRead, WorkSnapshot, WorkSource, WorkSourceId } from "./types.ts";

export type { SourceWorkEvent, WorkRead, WorkSnapshot, WorkSource, WorkSourceId } from "./types.ts";
export { WORK_CHANNEL } from "./todo-loop-work.ts";

export const WORK_SOURCES: readonly WorkSource[] = [nicobailonPiSubagents, tintinwebPiSubagents, piCode, aliouPiProcesses, todoLoopWork];

const BY_CHANNEL: ReadonlyMap<string, WorkSource> = new Map(WORK_SOURCES.flatMap((source) => source.channels.map((channel) => [channel, source] as const)));

/** Every channel some source announces work on, each once. */
export const WORK_CHANNELS: readonly string[] = [...BY_CHANNEL.keys()];

/** Every `customType` of a message that carries some source's result. */
export const WORK_RESULT_TYPES: ReadonlySet<string> = new Set(WORK_SOURCES.flatMap((source) => source.resultTypes));

/** The sources that can be asked for their live work (after a reload or a late start). */
export const WORK_SNAPSHOTS: readonly { readonly source: WorkSourceId; readonly snapshot: WorkSnapshot }[] = WORK_SOURCES.flatMap((source) =>
  source.snapshot === undefined ? [] : [{ source: source.id, snapshot: source.snapshot }],
);

/** The events a payload heard on `channel` carries, by the source that owns the channel. Never throws. */
export function readWork(channel: string, payload: unknown): WorkRead {
  return BY_CHANNEL.get(channel)?.read(channel, payload);
}

/** Whether a message's `customType` is some source's result message. */
export function isWorkResult(customType: unknown): boolean {
  return WORK_SOURCES.some((source) => source.resultTypes.some((type) => type === customType));
}

/** Whether a source holds its result message until the agent settles. */
export function holdsResults(id: string): boolean {
  return WORK_SOURCES.some((source) => source.id === id && source.holdsResults === true);
}

/** How `/todoloop` names a source. */
export function workSourceLabel(id: string): string {
  return WORK_SOURCES.find((source) => source.id === id)?.label ?? id;
}
