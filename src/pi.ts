/**
 * The few pi shapes this extension touches, declared structurally so that nothing is imported from pi
 * at runtime. `test/pi-types.test.ts` checks that pi's real `ExtensionAPI` still satisfies them.
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
}

export interface UiLike {
  notify(message: string, type?: NotifyType): void;
  setStatus(key: string, text: string | undefined): void;
}

export interface ContextLike {
  readonly cwd: string;
  readonly hasUI: boolean;
  readonly ui: UiLike;
  readonly sessionManager: SessionManagerLike;
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
export interface CustomMessageLike {
  readonly customType?: unknown;
  readonly details?: unknown;
}

/** A `custom` entry as an entry renderer receives it; `data` comes from the session file. */
export interface CustomEntryLike {
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
export type MessageRendererLike = (message: CustomMessageLike, options: MessageRenderOptionsLike, theme: ThemeLike) => ComponentLike;

/** Draws a `custom` entry; undefined draws nothing. */
export type EntryRendererLike = (entry: CustomEntryLike, options: EntryRenderOptionsLike, theme: ThemeLike) => ComponentLike | undefined;

/** The part of pi's `ExtensionAPI` this extension uses. */
export interface PiLike {
  on(event: "turn_end", handler: (event: TurnEndEventLike, ctx: ContextLike) => Promise<TurnEndResultLike | undefined>): void;
  on(event: "context", handler: (event: ContextEventLike, ctx: ContextLike) => Promise<{ messages: unknown[] } | undefined>): void;
  registerTool(tool: ToolDefinitionLike): void;
  registerCommand(name: string, options: CommandOptionsLike): void;
  getActiveTools(): readonly string[];
  registerMessageRenderer(customType: string, renderer: MessageRendererLike): void;
  registerEntryRenderer(customType: string, renderer: EntryRendererLike): void;
}
