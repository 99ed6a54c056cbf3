/**
 * The few pi shapes this extension touches, declared structurally so that nothing is imported from pi
 * at runtime. `test/host/pi-types.test.ts` checks that pi's real `ExtensionAPI` still satisfies them.
 */

export type NotifyType = "info" | "warning" | "error";
export type TurnOutcome = "completed" | "error" | "aborted";

/** One entry of `ctx.sessionManager.getBranch()`, read defensively: every field may be missing. */
export interface SessionEntryLike {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly parentId?: unknown;
  readonly [key: string]: unknown;
}

export interface SessionManagerLike {
  getBranch(): readonly unknown[];
  getLeafId?(): string | null;
  getEntry?(id: string): unknown;
  getSessionId?(): string;
  /** The session file's path; undefined without one (`--no-session`). */
  getSessionFile?(): string | undefined;
  /** Every entry of the session file (all branches), in append order; pi copies the list on each call. */
  getEntries?(): readonly unknown[];
}

export interface UiLike {
  notify(message: string, type?: NotifyType): void;
  setStatus(key: string, text: string | undefined): void;
  /** The working loader's message; no argument restores pi's default. */
  setWorkingMessage?(message?: string): void;
  /** A yes/no dialog (in RPC an `extension_ui_request` the client answers). */
  confirm?(title: string, message: string, options?: { timeout?: number; signal?: AbortSignal }): Promise<boolean>;
  /** A choice among options, the first one selected (in RPC an `extension_ui_request` the client answers); undefined when dismissed. */
  select?(title: string, options: string[], opts?: { timeout?: number; signal?: AbortSignal }): Promise<string | undefined>;
}

export type ModeLike = "tui" | "rpc" | "json" | "print";

export interface ContextLike {
  readonly cwd: string;
  readonly hasUI: boolean;
  /** The run mode; missing on hosts that predate it (treated as not the TUI). */
  readonly mode?: ModeLike;
  readonly ui: UiLike;
  readonly sessionManager: SessionManagerLike;
  /** Whether the agent is idle (not streaming). */
  isIdle?(): boolean;
  /** The run's abort signal (defined in turn_end). */
  readonly signal?: AbortSignal | undefined;
  /** Whether a human message is queued, asked live (the event's `pendingMessages` is a copy). */
  hasPendingMessages?(): boolean;
  /** Whether pi trusts the project's `.pi` folder. */
  isProjectTrusted?(): boolean;
}

export interface ToolResultLike {
  readonly role?: unknown;
  readonly toolName?: unknown;
  readonly details?: unknown;
  readonly isError?: unknown;
}

/** A draft `turn_end` may append; the two kinds this extension writes. */
export type EntryDraft =
  | { type: "custom_message"; customType: string; content: string; display: boolean; details?: unknown }
  | { type: "custom"; customType: string; data?: unknown };

export interface BoundaryContextLike {
  readonly pendingMessages?: readonly unknown[];
}

export interface TurnEndEventLike {
  readonly type?: "turn_end";
  /** The turn's assistant message. */
  readonly message?: unknown;
  readonly outcome?: unknown;
  readonly toolResults?: unknown;
  readonly entries?: unknown;
  readonly continue?: unknown;
  readonly context?: unknown;
}

export interface TurnEndResultLike {
  entries?: unknown[];
  continue?: boolean;
}

export interface ContextEventLike {
  readonly type?: "context";
  readonly messages?: unknown;
}

export interface TextContentLike {
  type: "text";
  text: string;
}

export interface ToolResultValue {
  content: TextContentLike[];
  details: unknown;
}

export interface ToolDefinitionLike {
  name: string;
  label: string;
  /** How the model reaches the tool (pi 1.5.2 and later); `model-only` keeps it callable directly under codemode's `only` mode. */
  exposure?: "direct" | "model-only";
  description: string;
  promptSnippet?: string;
  promptGuidelines?: string[];
  parameters: object;
  execute(
    toolCallId: string,
    params: never,
    signal: AbortSignal | undefined,
    onUpdate: unknown,
    ctx: ContextLike,
  ): Promise<ToolResultValue>;
}

export interface AutocompleteItemLike {
  value: string;
  label: string;
  description?: string;
}

export interface CommandOptionsLike {
  description?: string;
  getArgumentCompletions?: (prefix: string) => AutocompleteItemLike[] | null;
  handler(args: string, ctx: ContextLike): Promise<void>;
}

export interface SessionStartEventLike {
  readonly type?: "session_start";
  readonly reason?: unknown;
}

/** A message starting (pi fires it for every message: the human's, the model's, tool results, custom ones). */
export interface MessageStartEventLike {
  readonly type?: "message_start";
  readonly message?: unknown;
}

/** After `/tree` navigation (pi fires it on both 1.5.2 and 1.6.0); the fields are not read. */
export interface SessionTreeEventLike {
  readonly type?: "session_tree";
}

export interface AgentSettledEventLike {
  readonly type?: "agent_settled";
  readonly aborted?: unknown;
}

/** A custom message for `pi.sendMessage` (the marker of `/todoloop continue`). */
export interface CustomMessageLike {
  customType: string;
  content: string;
  display: boolean;
  details?: unknown;
}

/** One registered tool as `pi.getAllTools()` reports it. */
export interface ToolInfoLike {
  readonly name: string;
  readonly exposure?: string;
}

/** The theme colours the transcript lines use (pi's `ThemeColor` has them all). */
export type ThemeColorLike = "dim" | "accent" | "warning";

/** pi's `Theme`, as far as the renderers use it. */
export interface ThemeLike {
  fg(color: ThemeColorLike, text: string): string;
}

/** pi-tui's `Component`: lines for a width (none wider than it), and a cache reset. */
export interface ComponentLike {
  render(width: number): string[];
  invalidate(): void;
}

/** A custom message as a message renderer receives it; `details` comes from the session file. */
export interface RenderedMessageLike {
  readonly customType?: unknown;
  readonly details?: unknown;
}

/** A `custom` entry as an entry renderer receives it; `data` comes from the session file. */
export interface RenderedEntryLike {
  readonly customType?: unknown;
  readonly data?: unknown;
}

export interface MessageRenderOptionsLike {
  readonly expanded?: boolean;
  readonly outputPad?: number;
}

export interface EntryRenderOptionsLike {
  readonly expanded?: boolean;
}

/** Draws a displayed custom message; it must return a component, or pi shows the message's content. */
export type MessageRendererLike = (message: RenderedMessageLike, options: MessageRenderOptionsLike, theme: ThemeLike) => ComponentLike;

/** Draws a `custom` entry; undefined draws nothing. */
export type EntryRendererLike = (entry: RenderedEntryLike, options: EntryRenderOptionsLike, theme: ThemeLike) => ComponentLike | undefined;

/** The part of pi's `ExtensionAPI` this extension uses. */
export interface PiLike {
  on(event: "turn_end", handler: (event: TurnEndEventLike, ctx: ContextLike) => Promise<TurnEndResultLike | undefined>): void;
  on(event: "context", handler: (event: ContextEventLike, ctx: ContextLike) => Promise<{ messages: unknown[] } | undefined>): void;
  on(event: "agent_settled", handler: (event: AgentSettledEventLike, ctx: ContextLike) => Promise<void>): void;
  on(event: "session_start", handler: (event: SessionStartEventLike, ctx: ContextLike) => Promise<void>): void;
  on(event: "message_start", handler: (event: MessageStartEventLike, ctx: ContextLike) => Promise<void>): void;
  on(event: "session_tree", handler: (event: SessionTreeEventLike, ctx: ContextLike) => Promise<void>): void;
  on(event: "session_shutdown", handler: (event: unknown, ctx: ContextLike) => Promise<void>): void;
  registerTool(tool: ToolDefinitionLike): void;
  registerCommand(name: string, options: CommandOptionsLike): void;
  getActiveTools(): readonly string[];
  getAllTools(): readonly ToolInfoLike[];
  appendEntry(customType: string, data?: unknown): void;
  sendMessage(message: CustomMessageLike, options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" }): void;
  registerMessageRenderer(customType: string, renderer: MessageRendererLike): void;
  registerEntryRenderer(customType: string, renderer: EntryRendererLike): void;
  /** pi's event bus shared by extensions; `emit` does not wait for listeners. */
  events?: EventBusLike;
}

/** The part of pi's `EventBus` the loop uses. */
export interface EventBusLike {
  emit(channel: string, data: unknown): void;
  /** Listens on `channel` (pi runs listeners synchronously, in the emit); returns the unsubscribe. */
  on?(channel: string, handler: (data: unknown) => void): () => void;
}

