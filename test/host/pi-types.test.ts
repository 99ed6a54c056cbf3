/**
 * Drift check: pi's real extension types (`@earendil-works/pi-coding-agent`, type-only imports, nothing
 * loaded at runtime) still fit the structural shapes of src/core/pi-shapes.ts. The checks are types, so
 * `npx tsc --noEmit` fails when pi's types drift; the test below only reports them.
 *
 * pi's `on` has one overload per event, so `ExtensionAPI` is not assignable to `PiLike` as a whole:
 * our handlers return `unknown[]` where pi's result types name its own entry and message types. The
 * pieces are checked instead: pi's events and contexts go into our handlers, what our handlers,
 * registrations and calls hand back is what pi accepts, and what pi answers is what we read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type {
  AgentSettledEvent,
  AgentToolResult,
  ContextEvent,
  ContextEventResult,
  CustomEntry,
  EntryRenderer,
  ExtensionAPI,
  ExtensionCommandContext,
  ExtensionContext,
  ExtensionHandler,
  ExtensionToolContext,
  ExtensionUIContext,
  MessageRenderer,
  SessionBoundaryDraft,
  SessionStartEvent,
  MessageStartEvent,
  SessionTreeEvent,
  ToolInfo,
  Theme,
  ThemeColor,
  TurnEndEvent,
  TurnEndEventResult,
} from "@earendil-works/pi-coding-agent";
import type {
  AgentSettledEventLike,
  BoundaryContextLike,
  CommandOptionsLike,
  ContextEventLike,
  ContextLike,
  RenderedEntryLike,
  RenderedMessageLike,
  EntryDraft,
  ModeLike,
  PiLike,
  SessionManagerLike,
  SessionStartEventLike,
  MessageStartEventLike,
  SessionTreeEventLike,
  EntryRendererLike,
  MessageRendererLike,
  ThemeColorLike,
  ThemeLike,
  ToolDefinitionLike,
  ToolInfoLike,
  ToolResultLike,
  ToolResultValue,
  TurnEndEventLike,
  UiLike,
} from "../../src/core/pi-shapes.ts";

/** true when every `From` is a `To`. */
type Fits<From, To> = [From] extends [To] ? true : false;
/** true when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * The overloads of `PiLike["on"]` as `[event, handler]` pairs. Inference from overloads matches the last
 * ones, so an eighth overload would drop the first: the `onEvents` check below then fails.
 */
type OnOverloads<T> = T extends {
  (event: infer E0, handler: infer H0): void;
  (event: infer E1, handler: infer H1): void;
  (event: infer E2, handler: infer H2): void;
  (event: infer E3, handler: infer H3): void;
  (event: infer E4, handler: infer H4): void;
  (event: infer E5, handler: infer H5): void;
  (event: infer E6, handler: infer H6): void;
}
  ? [E0, H0] | [E1, H1] | [E2, H2] | [E3, H3] | [E4, H4] | [E5, H5] | [E6, H6]
  : never;
type PiLikeOn = OnOverloads<PiLike["on"]>;
/** Our handler type for one event of `PiLike["on"]`. */
type HandlerOf<E extends string> = Extract<PiLikeOn, [E, unknown]>[1];
type TurnEndHandler = HandlerOf<"turn_end">;
type ContextHandler = HandlerOf<"context">;
type AgentSettledHandler = HandlerOf<"agent_settled">;
type SessionStartHandler = HandlerOf<"session_start">;
type MessageStartHandler = HandlerOf<"message_start">;
type SessionTreeHandler = HandlerOf<"session_tree">;
type SessionShutdownHandler = HandlerOf<"session_shutdown">;
type Handler = (...args: never[]) => unknown;

type PiTool = Parameters<ExtensionAPI["registerTool"]>[0];

const checks = {
  // PiLike's `on` overloads are exactly these seven events, each with a handler.
  onEvents: true satisfies Same<PiLikeOn[0], "turn_end" | "context" | "agent_settled" | "session_start" | "message_start" | "session_tree" | "session_shutdown">,
  onHandlers: true satisfies Fits<[TurnEndHandler, ContextHandler, AgentSettledHandler, SessionStartHandler, MessageStartHandler, SessionTreeHandler, SessionShutdownHandler], [Handler, Handler, Handler, Handler, Handler, Handler, Handler]>,
  // pi's events and contexts go into our handlers.
  turnEndEvent: true satisfies Fits<TurnEndEvent, TurnEndEventLike>,
  turnEndToolResults: true satisfies Fits<TurnEndEvent["toolResults"][number], ToolResultLike>,
  turnEndContext: true satisfies Fits<TurnEndEvent["context"], BoundaryContextLike>,
  contextEvent: true satisfies Fits<ContextEvent, ContextEventLike>,
  agentSettledEvent: true satisfies Fits<AgentSettledEvent, AgentSettledEventLike>,
  sessionStartEvent: true satisfies Fits<SessionStartEvent, SessionStartEventLike>,
  messageStartEvent: true satisfies Fits<MessageStartEvent, MessageStartEventLike>,
  sessionTreeEvent: true satisfies Fits<SessionTreeEvent, SessionTreeEventLike>,
  extensionContext: true satisfies Fits<ExtensionContext, ContextLike>,
  toolContext: true satisfies Fits<ExtensionToolContext, ContextLike>,
  commandContext: true satisfies Fits<ExtensionCommandContext, ContextLike>,
  // ContextLike's `mode` and `isIdle` are optional (older hosts); pi 1.5.2+ has both, with these types.
  contextMode: true satisfies Fits<ExtensionContext["mode"], ModeLike>,
  contextIsIdle: true satisfies Fits<ExtensionContext["isIdle"], NonNullable<ContextLike["isIdle"]>>,
  ui: true satisfies Fits<ExtensionUIContext, UiLike>,
  sessionManager: true satisfies Fits<ExtensionContext["sessionManager"], SessionManagerLike>,
  turnEndHandlerParameters: true satisfies Fits<[TurnEndEvent, ExtensionContext], Parameters<TurnEndHandler>>,
  contextHandlerParameters: true satisfies Fits<[ContextEvent, ExtensionContext], Parameters<ContextHandler>>,
  agentSettledHandlerParameters: true satisfies Fits<[AgentSettledEvent, ExtensionContext], Parameters<AgentSettledHandler>>,
  sessionStartHandlerParameters: true satisfies Fits<[SessionStartEvent, ExtensionContext], Parameters<SessionStartHandler>>,
  // What we hand back is what pi accepts.
  agentSettledHandler: true satisfies Fits<AgentSettledHandler, ExtensionHandler<AgentSettledEvent>>,
  sessionStartHandler: true satisfies Fits<SessionStartHandler, ExtensionHandler<SessionStartEvent>>,
  messageStartHandler: true satisfies Fits<MessageStartHandler, ExtensionHandler<MessageStartEvent>>,
  sessionTreeHandler: true satisfies Fits<SessionTreeHandler, ExtensionHandler<SessionTreeEvent>>,
  entryDrafts: true satisfies Fits<EntryDraft, SessionBoundaryDraft>,
  turnEndResult: true satisfies Fits<{ entries: Array<SessionBoundaryDraft | EntryDraft>; continue: boolean }, TurnEndEventResult>,
  contextResult: true satisfies Fits<{ messages: ContextEvent["messages"] }, ContextEventResult>,
  toolDefinition: true satisfies Fits<ToolDefinitionLike, PiTool>,
  toolExposure: true satisfies Fits<NonNullable<ToolDefinitionLike["exposure"]>, NonNullable<PiTool["exposure"]>>,
  toolResult: true satisfies Fits<ToolResultValue, AgentToolResult<unknown>>,
  commandOptions: true satisfies Fits<CommandOptionsLike, Parameters<ExtensionAPI["registerCommand"]>[1]>,
  registerCommandName: true satisfies Fits<string, Parameters<ExtensionAPI["registerCommand"]>[0]>,
  // pi's methods can stand in for the ones we call: they take every argument we pass.
  appendEntry: true satisfies Fits<ExtensionAPI["appendEntry"], PiLike["appendEntry"]>,
  sendMessage: true satisfies Fits<ExtensionAPI["sendMessage"], PiLike["sendMessage"]>,
  getActiveToolsMethod: true satisfies Fits<ExtensionAPI["getActiveTools"], PiLike["getActiveTools"]>,
  getAllToolsMethod: true satisfies Fits<ExtensionAPI["getAllTools"], PiLike["getAllTools"]>,
  // What pi answers is what we read.
  activeTools: true satisfies Fits<ReturnType<ExtensionAPI["getActiveTools"]>, readonly string[]>,
  allTools: true satisfies Fits<ReturnType<ExtensionAPI["getAllTools"]>, readonly ToolInfoLike[]>,
  toolInfo: true satisfies Fits<ToolInfo, ToolInfoLike>,
  toolInfoExposure: true satisfies Fits<ToolInfo["exposure"], NonNullable<ToolInfoLike["exposure"]>>,
  // Renderers: pi's messages, entries, options and theme go into ours; our renderers are what pi registers.
  customMessage: true satisfies Fits<Parameters<MessageRenderer>[0], RenderedMessageLike>,
  customEntry: true satisfies Fits<CustomEntry, RenderedEntryLike>,
  themeColors: true satisfies Fits<ThemeColorLike, ThemeColor>,
  theme: true satisfies Fits<Theme, ThemeLike>,
  messageRenderParameters: true satisfies Fits<Parameters<MessageRenderer>, Parameters<MessageRendererLike>>,
  entryRenderParameters: true satisfies Fits<Parameters<EntryRenderer>, Parameters<EntryRendererLike>>,
  messageRenderer: true satisfies Fits<MessageRendererLike, Parameters<ExtensionAPI["registerMessageRenderer"]>[1]>,
  entryRenderer: true satisfies Fits<EntryRendererLike, Parameters<ExtensionAPI["registerEntryRenderer"]>[1]>,
  registerRendererNames: true satisfies Fits<string, Parameters<ExtensionAPI["registerEntryRenderer" | "registerMessageRenderer"]>[0]>,
  // pi's event bus takes what we emit; the session file is a path or undefined (`--no-session`).
  events: true satisfies Fits<ExtensionAPI["events"], NonNullable<PiLike["events"]>>,
  sessionFile: true satisfies Fits<ExtensionContext["sessionManager"]["getSessionFile"], NonNullable<SessionManagerLike["getSessionFile"]>>,
};

/**
 * Type-checked, never run: pi's `on(…)` hands each of our handlers events it accepts, and the event
 * names resolve to those overloads. The agent_settled and session_start handlers are passed as they
 * are (their results fit pi's); turn_end and context results name our own draft types, so those two
 * are wrapped.
 */
export function wire(
  api: ExtensionAPI,
  handlers: { turnEnd: TurnEndHandler; context: ContextHandler; agentSettled: AgentSettledHandler; sessionStart: SessionStartHandler; messageStart: MessageStartHandler; sessionTree: SessionTreeHandler },
): void {
  api.on("turn_end", async (event, ctx) => {
    await handlers.turnEnd(event, ctx);
  });
  api.on("context", async (event, ctx) => {
    await handlers.context(event, ctx);
  });
  api.on("agent_settled", handlers.agentSettled);
  api.on("session_start", handlers.sessionStart);
  api.on("message_start", handlers.messageStart);
  api.on("session_tree", handlers.sessionTree);
  api.appendEntry("todo-loop:stop", { v: 1 });
  api.sendMessage({ customType: "todo-loop:continue", content: "Continue.", display: true, details: { v: 1 } }, { triggerTurn: true });
}

test("pi's real ExtensionAPI, contexts and events fit the structural shapes in src/core/pi-shapes.ts (checked by tsc)", () => {
  for (const [piece, fits] of Object.entries(checks)) assert.equal(fits, true, piece);
  assert.equal(Object.keys(checks).length, 52);
});
