/**
 * The normalised form every todo-tool adapter produces, and the small guards the adapters share.
 * An adapter recognises one tool's persisted state on the branch; it never throws and never guesses.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { isRecord } from "../core/record.ts";
import type { UnknownRecord } from "../core/record.ts";
import type { CallKind, SourceId } from "../core/types.ts";

export type { CallKind, SourceId } from "../core/types.ts";
export { isRecord } from "../core/record.ts";
export type { UnknownRecord } from "../core/record.ts";


/** One task as every source reads: deleted tasks (tombstones) are never tasks. */
export interface Task {
  readonly id: string;
  readonly text: string;
  readonly status: string;
  readonly open: boolean;
}

/** A whole list as the todo tool last persisted it. `tasks: []` is a cleared or emptied list. */
export interface TodoList {
  readonly source: SourceId;
  /** The tool the model uses for this list, named in the nudge (a fixed set of names per source). */
  readonly tool: string;
  readonly tasks: readonly Task[];
  /** pi's plan-mode while it is only planning (read-only): the loop never continues on it. */
  readonly planning?: boolean;
  /**
   * The source holds no list at all (pi's plan-mode switched off or never started): it ends that
   * source's own list, but never hides another source's list. `tasks` is empty.
   */
  readonly none?: true;
}


export interface TodoSource {
  readonly id: SourceId;
  /** How `/todoloop` names the source. */
  readonly label: string;
  /**
   * Tool names this source registers: to explain a missing list, to tell whether the tool is within the
   * model's reach (SPEC §4.6), and — with `resultsCarryList` — which results should carry the list.
   * Never used to recognise a list on its own. Empty for a source with no tool (plan-mode).
   */
  readonly toolNames: readonly string[];
  /**
   * Whether every successful result of the source's tool carries the full list (the list lives in tool
   * results). Then a successful result of that tool no adapter can read, or a codemode script that
   * called the tool, leaves the list out of date (SPEC §9). False for sources whose state lives in
   * `custom` entries: those land whoever called the tool.
   */
  readonly resultsCarryList: boolean;
  /**
   * `customType`s of the `custom` entries this source keeps its state in. An entry of one of these
   * types that no adapter reads (an unknown status, a new shape) leaves the list out of date.
   */
  readonly stateTypes: readonly string[];
  /** The full list this entry persists, or undefined when the entry is not this source's state. */
  read(entry: SessionEntryLike): TodoList | undefined;
  /**
   * Folds a settle's own reply (its text and thinking) into a list this source wrote, for sources whose
   * tasks are closed by what the model writes rather than by a tool call (plan-mode's `[DONE:n]`).
   * Must be idempotent: the source's own entry for the same reply may already have applied it.
   */
  applyReply?(list: TodoList, reply: string): TodoList;
  /** What a successful tool result of this source did, or undefined when it is not this source's. */
  classify(result: ToolResultLike): CallKind | undefined;
  /**
   * Whether this source can say it holds no list at all (`TodoList.none`, plan-mode off). A list of a
   * source that cannot is never uncovered again: nothing older can show through it.
   */
  readonly saysNoList?: boolean;
  /**
   * Whether a call of this source's tool (by name, with the arguments the model gave) only reads the
   * list, for the no-progress brake (SPEC §4.10): re-reading is no progress. Absent: no call only reads.
   */
  readonly readOnly?: (name: string, args: unknown) => boolean;
}


/** The tool result an entry holds, when it is a successful one: errored and rejected calls are never state. */
export function successfulToolResult(entry: SessionEntryLike): { toolName: string; details: UnknownRecord } | undefined {
  if (entry.type !== "message") return undefined;
  const message = entry.message;
  if (!isRecord(message) || message.role !== "toolResult") return undefined;
  return successfulResult(message);
}

/** The same test for a tool result message as `turn_end` delivers it. */
export function successfulResult(result: ToolResultLike): { toolName: string; details: UnknownRecord } | undefined {
  if (!isRecord(result) || result.isError === true) return undefined;
  const { toolName, details } = result;
  if (typeof toolName !== "string" || !isRecord(details)) return undefined;
  if (details.error !== undefined && details.error !== null && details.error !== false) return undefined;
  if (details.success === false) return undefined;
  return { toolName, details };
}

/** The data of a `custom` entry of the given type, or undefined. */
export function customData(entry: SessionEntryLike, customType: string): { data: unknown } | undefined {
  if (entry.type !== "custom" || entry.customType !== customType) return undefined;
  return { data: entry.data };
}

export function idText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Maps an array of raw items with `read`, or undefined when any item is malformed. */
export function readItems<T>(items: unknown, read: (item: unknown, index: number) => T | null | undefined): T[] | undefined {
  if (!Array.isArray(items)) return undefined;
  const out: T[] = [];
  for (let index = 0; index < items.length; index++) {
    const value = read(items[index], index);
    if (value === undefined) return undefined;
    if (value !== null) out.push(value);
  }
  return out;
}

/** A `readOnly` for a tool whose calls name an action: the call of `tool` is read-only when its action is one of `actions`. */
export function readsByAction(tool: string, actions: readonly string[]): (name: string, args: unknown) => boolean {
  return (name, args) => name === tool && isRecord(args) && typeof args.action === "string" && actions.includes(args.action);
}

/** A `readOnly` for tools that only read whatever their arguments. */
export function readsByName(names: readonly string[]): (name: string) => boolean {
  return (name) => names.includes(name);
}
