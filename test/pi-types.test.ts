/**
 * Drift check: pi's real extension types (`@earendil-works/pi-coding-agent`, type-only imports, nothing
 * loaded at runtime) still fit the structural shapes of src/pi.ts. The checks are types, so
 * `npx tsc --noEmit` fails when pi's types drift; the test below only reports them.
 *
 * pi's `on` has one overload per event, so `ExtensionAPI` is not assignable to `PiLike` as a whole:
 * our handlers return `unknown[]` where pi's result types name its own entry and message types. The
 * pieces are checked instead: pi's events and contexts go into our handlers, what our handlers and
 * registrations hand back is what pi accepts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type {
  AgentToolResult,
  ContextEvent,
  ContextEventResult,
  CustomEntry,
  EntryRenderer,
  ExtensionAPI,
  ExtensionCommandContext,
  ExtensionContext,
  ExtensionToolContext,
  ExtensionUIContext,
  MessageRenderer,
  SessionBoundaryDraft,
  Theme,
  ThemeColor,
  TurnEndEvent,
  TurnEndEventResult,
} from "@earendil-works/pi-coding-agent";
import type {
  BoundaryContextLike,
  CommandOptionsLike,
  ContextEventLike,
  ContextLike,
  RenderedEntryLike,
  RenderedMessageLike,
  EntryDraft,
  EntryRendererLike,
  MessageRendererLike,
  PiLike,
  SessionManagerLike,
  ThemeColorLike,
  ThemeLike,
  ToolDefinitionLike,
  ToolResultLike,
  ToolResultValue,
  TurnEndEventLike,
  UiLike,
} from "../src/pi.ts";

/** true when every `From` is a `To`. */
type Fits<From, To> = [From] extends [To] ? true : false;

/** The two overloads of `PiLike["on"]`, as [turn_end handler, context handler]. */
type OnHandlers<T> = T extends {
  (event: "turn_end", handler: infer TurnEnd): void;
  (event: "context", handler: infer Context): void;
}
  ? [TurnEnd, Context]
  : never;
type TurnEndHandler = OnHandlers<PiLike["on"]>[0];
type ContextHandler = OnHandlers<PiLike["on"]>[1];

const checks = {
  // pi's events and contexts go into our handlers.
  turnEndEvent: true satisfies Fits<TurnEndEvent, TurnEndEventLike>,
  turnEndToolResults: true satisfies Fits<TurnEndEvent["toolResults"][number], ToolResultLike>,
  turnEndContext: true satisfies Fits<TurnEndEvent["context"], BoundaryContextLike>,
  contextEvent: true satisfies Fits<ContextEvent, ContextEventLike>,
  extensionContext: true satisfies Fits<ExtensionContext, ContextLike>,
  toolContext: true satisfies Fits<ExtensionToolContext, ContextLike>,
  commandContext: true satisfies Fits<ExtensionCommandContext, ContextLike>,
  ui: true satisfies Fits<ExtensionUIContext, UiLike>,
  sessionManager: true satisfies Fits<ExtensionContext["sessionManager"], SessionManagerLike>,
  turnEndHandlerParameters: true satisfies Fits<[TurnEndEvent, ExtensionContext], Parameters<TurnEndHandler>>,
  contextHandlerParameters: true satisfies Fits<[ContextEvent, ExtensionContext], Parameters<ContextHandler>>,
  // What we hand back is what pi accepts.
  entryDrafts: true satisfies Fits<EntryDraft, SessionBoundaryDraft>,
  turnEndResult: true satisfies Fits<{ entries: Array<SessionBoundaryDraft | EntryDraft>; continue: boolean }, TurnEndEventResult>,
  contextResult: true satisfies Fits<{ messages: ContextEvent["messages"] }, ContextEventResult>,
  toolDefinition: true satisfies Fits<ToolDefinitionLike, Parameters<ExtensionAPI["registerTool"]>[0]>,
  toolResult: true satisfies Fits<ToolResultValue, AgentToolResult<unknown>>,
  commandOptions: true satisfies Fits<CommandOptionsLike, Parameters<ExtensionAPI["registerCommand"]>[1]>,
  registerCommandName: true satisfies Fits<string, Parameters<ExtensionAPI["registerCommand"]>[0]>,
  // What pi answers is what we read.
  activeTools: true satisfies Fits<ReturnType<ExtensionAPI["getActiveTools"]>, readonly string[]>,
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
};

/**
 * Type-checked, never run: pi's `on("turn_end")` and `on("context")` hand our handlers events they accept,
 * and the event names resolve to those overloads.
 */
export function wire(api: ExtensionAPI, onTurnEnd: TurnEndHandler, onContext: ContextHandler): void {
  api.on("turn_end", async (event, ctx) => {
    await onTurnEnd(event, ctx);
  });
  api.on("context", async (event, ctx) => {
    await onContext(event, ctx);
  });
}

test("pi's real ExtensionAPI, contexts and events fit the structural shapes in src/pi.ts (checked by tsc)", () => {
  for (const [piece, fits] of Object.entries(checks)) assert.equal(fits, true, piece);
  assert.equal(Object.keys(checks).length, 28);
});
