/**
 * Test-only pi extension: a subagent tool that runs its child session inside pi's own process, the way
 * @tintinweb/pi-subagents does — a resource loader that loads the extensions (this package included),
 * `createAgentSession` with an in-memory session manager and the parent's model and providers, `bindExtensions` (which
 * fires the child's `session_start`), `session.prompt`, then `dispose` (no `session_shutdown`).
 *
 * The tool `spawn_child { prompt }` answers with the child's last reply. The extensions the child loads
 * are the paths in PI_TODO_LOOP_E2E_CHILD_EXTENSIONS (a JSON array); the child's own events (a
 * `todo-loop:stop` on its bus) are appended to PI_TODO_LOOP_E2E_CHILD_STOPS, one JSON line each.
 */
import { appendFileSync } from "node:fs";
import { createAgentSession, DefaultResourceLoader, getAgentDir, SessionManager, SettingsManager } from "@earendil-works/pi-coding-agent";
import type { CreateAgentSessionOptions, ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";

function textOf(message: unknown): string {
  const content = typeof message === "object" && message !== null ? (message as { content?: unknown }).content : undefined;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is { type: "text"; text: string } => typeof block === "object" && block !== null && block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("");
}

/** The child's own event bus (each in-process child has one), so its events can be told from the parent's. */
function childBus(): { emit(channel: string, data: unknown): void; on(channel: string, handler: (data: unknown) => void): () => void; clear(): void } {
  const listeners = new Map<string, Array<(data: unknown) => void>>();
  return {
    emit(channel, data) {
      for (const handler of [...(listeners.get(channel) ?? [])]) {
        try {
          handler(data);
        } catch {
          // A listener's error is its own.
        }
      }
    },
    on(channel, handler) {
      const list = listeners.get(channel) ?? [];
      list.push(handler);
      listeners.set(channel, list);
      return () => void list.splice(list.indexOf(handler), 1);
    },
    clear: () => listeners.clear(),
  };
}

/**
 * The parent's model runtime, which pi keeps behind the registry facade extensions get: a child in the
 * same process uses the parent's providers (tintinweb's passes the parent's registry for that), here the
 * scripted model the parent registered, so the child's requests take the script's next steps.
 */
function parentModels(ctx: ExtensionContext): CreateAgentSessionOptions["modelRuntime"] {
  const runtime: unknown = Reflect.get(ctx.modelRegistry, "runtime");
  return typeof runtime === "object" && runtime !== null ? (runtime as CreateAgentSessionOptions["modelRuntime"]) : undefined;
}

async function runChild(ctx: ExtensionContext, prompt: string): Promise<string> {
  const paths = JSON.parse(process.env.PI_TODO_LOOP_E2E_CHILD_EXTENSIONS ?? "[]") as string[];
  const agentDir = getAgentDir();
  const bus = childBus();
  const stops = process.env.PI_TODO_LOOP_E2E_CHILD_STOPS;
  if (stops) bus.on("todo-loop:stop", (data) => appendFileSync(stops, `${JSON.stringify(data)}\n`));
  const loader = new DefaultResourceLoader({
    cwd: ctx.cwd,
    agentDir,
    eventBus: bus,
    additionalExtensionPaths: paths,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
  });
  await loader.reload();
  const { session } = await createAgentSession({
    cwd: ctx.cwd,
    agentDir,
    sessionManager: SessionManager.inMemory(ctx.cwd),
    settingsManager: SettingsManager.create(ctx.cwd, agentDir),
    model: ctx.model,
    modelRuntime: parentModels(ctx),
    resourceLoader: loader,
  });
  try {
    await session.bindExtensions({});
    await session.prompt(prompt);
    const replies = session.messages.filter((message) => message.role === "assistant");
    return textOf(replies.at(-1)) || "(no reply)";
  } finally {
    session.dispose();
  }
}

export default function inProcessChild(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "spawn_child",
    label: "Spawn a child session",
    description: "Runs a task in a child session inside this process and answers with its last reply.",
    parameters: {
      type: "object",
      properties: { prompt: { type: "string", description: "The child's task." } },
      required: ["prompt"],
      additionalProperties: false,
    } as never,
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      const prompt = typeof (params as { prompt?: unknown }).prompt === "string" ? (params as { prompt: string }).prompt : "";
      const reply = await runChild(ctx, prompt);
      return { content: [{ type: "text", text: `child: ${reply}` }], details: {} };
    },
  });
}
