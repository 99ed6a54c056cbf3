/**
 * pi's example `plan-mode` extension (examples/extensions/plan-mode/, index.ts and utils.ts, as shipped
 * with pi 1.6.0). It has no todo tool: it saves `custom` entries `plan-mode` with
 * `data: { enabled, todos: [{ step, text, completed }], executing, toolsBeforePlanMode? }` on every toggle,
 * after every executing turn and at the end of a run, and the model closes a step by writing `[DONE:n]`
 * (or one of the variants below) in its reply.
 *
 * - executing: the steps are the list; a step is open until completed.
 * - planning (enabled, not executing): read-only planning, never tasks to continue (`planning: true`).
 * - off (neither): no plan. A finished plan and a toggled-off one both save `todos: []`. Off holds no
 *   list at all (`none: true`): it ends plan-mode's own steps, but it is not "the list was emptied" and
 *   never hides another tool's list.
 */
import type { SessionEntryLike, ToolResultLike } from "../core/pi-shapes.ts";
import { customData, readItems } from "./types.ts";
import { isRecord } from "../core/record.ts";
import type { CallKind } from "../core/types.ts";
import type { Task, TodoList, TodoSource } from "./types.ts";

export const PLAN_MODE_TYPE = "plan-mode";

/** What the nudge names instead of a tool: plan-mode's own convention for closing a step. */
export const PLAN_MODE_CONVENTION = "[DONE:n]";

function readStep(item: unknown): Task | undefined {
  if (!isRecord(item)) return undefined;
  const { step, text, completed } = item;
  if (typeof step !== "number" || !Number.isInteger(step) || step < 1) return undefined;
  if (typeof text !== "string" || typeof completed !== "boolean") return undefined;
  return { id: String(step), text, status: completed ? "completed" : "pending", open: !completed };
}

function isOptionalFlag(value: unknown): value is boolean | undefined {
  return value === undefined || typeof value === "boolean";
}

function list(tasks: readonly Task[], planning?: true): TodoList {
  return planning ? { source: "plan-mode", tool: PLAN_MODE_CONVENTION, tasks, planning } : { source: "plan-mode", tool: PLAN_MODE_CONVENTION, tasks };
}

/** The plan-mode state an entry saves, or undefined when it is not one (or not readable). */
export function readPlanMode(entry: SessionEntryLike): TodoList | undefined {
  const state = customData(entry, PLAN_MODE_TYPE);
  if (!state || !isRecord(state.data)) return undefined;
  const { enabled, executing, todos, toolsBeforePlanMode } = state.data;
  // The extension restores `executing` and `todos` with fallbacks, so older entries may lack them.
  if (typeof enabled !== "boolean" || !isOptionalFlag(executing)) return undefined;
  if (toolsBeforePlanMode !== undefined && !(Array.isArray(toolsBeforePlanMode) && toolsBeforePlanMode.every((name) => typeof name === "string"))) {
    return undefined;
  }
  const steps = todos === undefined ? [] : readItems(todos, readStep);
  if (!steps) return undefined;
  if (executing === true) return list(steps);
  if (enabled) return list([], true);
  return { source: "plan-mode", tool: PLAN_MODE_CONVENTION, tasks: [], none: true };
}

// ---- closing steps from a reply, by plan-mode's own rules (utils.ts) ----------------------------------

/**
 * The step numbers a reply marks done: `[DONE:n]` in any case, with optional spaces and colon
 * (`[Done: 2]`, `[DONE 3]`); `Done: n` without brackets; and `Step n done` / `Step n is complete` /
 * `completed` / `finished`, where the word must follow the number (so "Step 9 is not done" is no mark).
 */
export function doneSteps(reply: string): number[] {
  const found = new Set<number>();
  const rules = [
    /\[DONE\s*:?\s*(\d+)\]/gi,
    /\bDONE\s*:\s*(\d+)\b/gi,
    /\bSTEP\s*(\d+)\s+(?:IS\s+)?(?:DONE|COMPLETE|COMPLETED|FINISHED)\b/gi,
  ];
  for (const rule of rules) {
    for (const match of reply.matchAll(rule)) found.add(Number(match[1]));
  }
  return [...found];
}

/**
 * Whether a reply says the whole plan is finished: "all steps done", "every step completed", "the
 * plan is complete", "plan done", … Plan-mode asks this of the last reply of a run only. Its rule
 * accepts "is" between the words but "are" only when written together with the next word, so "all
 * steps are done" is not such a reply; that is kept as it is.
 */
export function saysPlanComplete(reply: string): boolean {
  const allSteps = /(?:ALL|EVERY)\s+STEPS?\s+(?:ARE|IS\s+)?(?:DONE|COMPLETE|COMPLETED|FINISHED)/i;
  const planDone = /\b(?:THE\s+)?PLAN\s+(?:IS\s+)?(?:COMPLETE|COMPLETED|DONE)\b/i;
  return allSteps.test(reply) || planDone.test(reply);
}

/**
 * The executing plan with the steps this reply closes marked completed: each `[DONE:n]`-style mark
 * closes the first unfinished step numbered n, and a reply that says the plan is complete closes every
 * step (what plan-mode does when the run ends on that reply). Idempotent; any other list is returned as it is.
 */
export function applyPlanReply(current: TodoList, reply: string): TodoList {
  if (current.source !== "plan-mode" || current.planning === true || current.tasks.length === 0 || typeof reply !== "string") return current;
  const all = saysPlanComplete(reply);
  const closing = new Set<number>();
  if (!all) {
    for (const step of doneSteps(reply)) {
      const index = current.tasks.findIndex((task) => task.id === String(step) && task.open);
      if (index >= 0) closing.add(index);
    }
  }
  const tasks = current.tasks.map((task, index): Task => (task.open && (all || closing.has(index)) ? { ...task, status: "completed", open: false } : task));
  const changed = tasks.some((task, index) => task !== current.tasks[index]);
  return changed ? { ...current, tasks } : current;
}

export const planMode: TodoSource = {
  id: "plan-mode",
  label: "pi plan-mode",
  toolNames: [],
  resultsCarryList: false,
  stateTypes: [PLAN_MODE_TYPE],
  read: readPlanMode,
  applyReply: applyPlanReply,
  classify(_result: ToolResultLike): CallKind | undefined {
    return undefined;
  },
  saysNoList: true,
};
