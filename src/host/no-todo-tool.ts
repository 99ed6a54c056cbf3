/**
 * The one notice for a person who installed the loop but no todo tool (SPEC §7, "No todo tool"): at the
 * first interactive start of the process, with no known todo tool registered, one `info` notify that
 * the loop has nothing to read and how to install a supported todo tool. Never again on `/reload`,
 * `/new`, a resume or a fork, and never in print, JSON or RPC mode.
 */
import type { PiLike, SessionStartEventLike } from "../core/pi-shapes.ts";
import type { Runtime } from "./runtime.ts";
import { TODO_TOOL_NAMES } from "../sources/index.ts";
import { isRecord } from "../core/record.ts";
import { NO_TODO_TOOL_TEXT } from "../core/text.ts";

export interface NoTodoToolFacts {
  /** `session_start`'s reason: `startup`, `reload`, `new`, `resume`, `fork`. */
  readonly reason: unknown;
  readonly mode: string | undefined;
  /** Names of every registered tool. */
  readonly registered: readonly string[];
  /** Tool names of the todo tools the loop reads. */
  readonly known: ReadonlySet<string>;
  /** Whether this process already showed the notice. */
  readonly shown: boolean;
}

/** Whether the notice is due: the process's first start, in the interactive terminal, no todo tool the loop reads. */
export function noTodoToolDue(facts: NoTodoToolFacts): boolean {
  if (facts.shown || facts.reason !== "startup" || facts.mode !== "tui") return false;
  return !facts.registered.some((name) => facts.known.has(name));
}

function registeredNames(pi: PiLike): string[] {
  try {
    return pi.getAllTools().map((tool) => tool.name);
  } catch {
    // Unknown is not "none": say nothing rather than something false.
    return [...TODO_TOOL_NAMES];
  }
}

export function registerNoTodoToolNotice(runtime: Runtime): void {
  let shown = false;
  runtime.pi.on("session_start", async (event: SessionStartEventLike, ctx) => {
    try {
      const reason = isRecord(event) ? event.reason : undefined;
      if (!noTodoToolDue({ reason, mode: ctx.mode, registered: registeredNames(runtime.pi), known: TODO_TOOL_NAMES, shown })) return;
      shown = true;
      runtime.notify(ctx, NO_TODO_TOOL_TEXT, "info");
    } catch (error) {
      runtime.failed(ctx, "session_start", error);
    }
  });
}
