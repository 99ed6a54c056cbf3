/**
 * Test-only pi extension: a scripted model on pi-ai's faux provider.
 *
 * The script is a JSON file named by PI_TODO_LOOP_SCRIPT: an array of steps, one per model request.
 * Every request the model receives (its messages and the names of the tools declared to it) is appended
 * to PI_TODO_LOOP_REQUESTS as one JSON line, so tests can assert on exactly what reached the provider. When the steps run out the model answers with
 * an error, so a runaway loop ends at once and the test sees an unconsumed-or-overrun script.
 *
 * It also registers `/e2e-tree <entry id>`, which moves the session to another point of its tree with
 * `ctx.navigateTree` (RPC mode has no `/tree`), and reports the outcome as an `info` notify
 * ("e2e-tree: <leaf id>") or an `error` notify.
 */
import { readFileSync, appendFileSync } from "node:fs";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from "@earendil-works/pi-ai";

interface ScriptedCall { name: string; args: Record<string, unknown> }
export interface ScriptStep {
  text?: string;
  calls?: ScriptedCall[];
  stopReason?: "stop" | "error" | "aborted" | "length";
  errorMessage?: string;
  /** Milliseconds to wait before answering (lets a test queue a follow-up mid-request). */
  delayMs?: number;
}

/** Waits `ms`, or less when the request is aborted (pi aborts on user abort and on /compact). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

interface CommandContextLike {
  navigateTree(targetId: string, options?: { summarize?: boolean }): Promise<{ cancelled: boolean }>;
  sessionManager: { getLeafId(): string | null };
  ui: { notify(message: string, type?: "info" | "warning" | "error"): void };
}
interface PiLike {
  registerProvider(provider: never): void;
  registerCommand(name: string, options: { description: string; handler(args: string, ctx: CommandContextLike): Promise<void> }): void;
}

/** The tools declared to the model: the system messages' `toolsAdded` / `toolsRemoved`, replayed in order. */
function declaredTools(messages: readonly unknown[]): string[] {
  const names = new Set<string>();
  const nameOf = (tool: unknown): string | undefined =>
    typeof tool === "object" && tool !== null && typeof (tool as { name?: unknown }).name === "string" ? (tool as { name: string }).name : undefined;
  for (const message of messages) {
    if (typeof message !== "object" || message === null || (message as { role?: unknown }).role !== "system") continue;
    const { toolsAdded, toolsRemoved } = message as { toolsAdded?: unknown; toolsRemoved?: unknown };
    for (const tool of Array.isArray(toolsAdded) ? toolsAdded : []) {
      const name = nameOf(tool);
      if (name) names.add(name);
    }
    for (const tool of Array.isArray(toolsRemoved) ? toolsRemoved : []) {
      const name = nameOf(tool);
      if (name) names.delete(name);
    }
  }
  return [...names];
}

export default function scriptedModel(pi: PiLike): void {
  const scriptPath = process.env.PI_TODO_LOOP_SCRIPT;
  const logPath = process.env.PI_TODO_LOOP_REQUESTS;
  const steps: ScriptStep[] = scriptPath ? JSON.parse(readFileSync(scriptPath, "utf8")) : [];
  const faux = fauxProvider({
    provider: "faux",
    models: [{ id: "faux-1", name: "Scripted", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }],
  });
  faux.setResponses(
    steps.map((step, index) => async (context: { messages: unknown[] }, options?: { signal?: AbortSignal }) => {
      const tools = declaredTools(context.messages);
      if (logPath) appendFileSync(logPath, JSON.stringify({ step: index, messages: context.messages, tools }) + "\n");
      if (step.delayMs) await pause(step.delayMs, options?.signal);
      const blocks = [
        ...(step.text ? [fauxText(step.text)] : []),
        ...(step.calls ?? []).map((call) => fauxToolCall(call.name, call.args as Parameters<typeof fauxToolCall>[1])),
      ];
      const stopReason = step.stopReason ?? (step.calls?.length ? "toolUse" : "stop");
      return fauxAssistantMessage(blocks.length ? blocks : [fauxText("")], {
        stopReason,
        errorMessage: step.errorMessage,
      });
    }),
  );
  pi.registerProvider(faux.provider as never);
  pi.registerCommand("e2e-tree", {
    description: "Test only: navigate the session tree to an entry id",
    async handler(args, ctx) {
      try {
        const result = await ctx.navigateTree(args.trim(), { summarize: false });
        ctx.ui.notify(result.cancelled ? "e2e-tree: cancelled" : `e2e-tree: ${ctx.sessionManager.getLeafId() ?? ""}`, "info");
      } catch (error) {
        ctx.ui.notify(`e2e-tree failed: ${error instanceof Error ? error.message : String(error)}`, "error");
      }
    },
  });
}
