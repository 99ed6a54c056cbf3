/**
 * Test-only pi extension: a second continuation extension. On every settle (a completed turn without
 * tool results) while rpiv-todo's newest list has an open task, it appends its own hidden
 * custom_message and asks pi for another turn — the way any other "keep going" extension would.
 * Loaded before pi-todo-loop, so pi-todo-loop sees `event.continue === true`.
 */

export const OTHER_TYPE = "e2e-other:continue";

interface TurnEndEvent {
  toolResults?: unknown;
  outcome?: unknown;
  entries?: unknown;
}
interface Ctx {
  sessionManager: { getBranch(): readonly unknown[] };
}
interface PiLike {
  on(event: "turn_end", handler: (event: TurnEndEvent, ctx: Ctx) => Promise<{ entries: unknown[]; continue: boolean } | undefined>): void;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Whether the newest rpiv-todo result on the branch has a pending or in-progress task. */
function tasksOpen(branch: readonly unknown[]): boolean {
  for (let index = branch.length - 1; index >= 0; index--) {
    const message = record(record(branch[index])?.message);
    if (message?.role !== "toolResult" || message.toolName !== "todo") continue;
    const tasks = record(message.details)?.tasks;
    if (!Array.isArray(tasks)) continue;
    return tasks.some((task) => {
      const status = record(task)?.status;
      return status === "pending" || status === "in_progress";
    });
  }
  return false;
}

export default function otherContinuation(pi: PiLike): void {
  pi.on("turn_end", async (event, ctx) => {
    const settle = event.outcome === "completed" && Array.isArray(event.toolResults) && event.toolResults.length === 0;
    if (!settle || !tasksOpen(ctx.sessionManager.getBranch())) return undefined;
    const earlier: unknown[] = Array.isArray(event.entries) ? event.entries : [];
    const own = { type: "custom_message", customType: OTHER_TYPE, content: "Keep going with your work.", display: false };
    return { entries: [...earlier, own], continue: true };
  });
}
