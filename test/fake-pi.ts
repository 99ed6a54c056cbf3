/**
 * A typed fake of the pi host for unit tests: a `PiLike` that records what the extension registers and
 * dispatches events to it the way pi does, a session manager over a tree of entries (so `/tree` moves and
 * appends behave as in pi), and a context whose UI records every `notify` and `setStatus` call.
 *
 * Like pi, `appendEntry` and `sendMessage` write to the session the extension is bound to (`pi.session`):
 * a `custom` entry and a `custom_message` entry appended under the leaf, each also recorded in an array.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  AgentSettledEventLike,
  CommandOptionsLike,
  ContextEventLike,
  ContextLike,
  CustomMessageLike,
  ModeLike,
  EntryRendererLike,
  MessageRendererLike,
  NotifyType,
  PiLike,
  SessionManagerLike,
  SessionStartEventLike,
  MessageStartEventLike,
  SessionTreeEventLike,
  ToolDefinitionLike,
  ToolInfoLike,
  ToolResultValue,
  TurnEndEventLike,
  TurnEndResultLike,
  UiLike,
} from "../src/core/pi-shapes.ts";
import type { Entry } from "./builders.ts";

export type TurnEndHandler = (event: TurnEndEventLike, ctx: ContextLike) => Promise<TurnEndResultLike | undefined>;
export type ContextHandler = (event: ContextEventLike, ctx: ContextLike) => Promise<{ messages: unknown[] } | undefined>;
export type AgentSettledHandler = (event: AgentSettledEventLike, ctx: ContextLike) => Promise<void>;
export type SessionStartHandler = (event: SessionStartEventLike, ctx: ContextLike) => Promise<void>;
export type MessageStartHandler = (event: MessageStartEventLike, ctx: ContextLike) => Promise<void>;
export type SessionTreeHandler = (event: SessionTreeEventLike, ctx: ContextLike) => Promise<void>;
export type SessionShutdownHandler = (event: unknown, ctx: ContextLike) => Promise<void>;

/** A registered tool, with `execute` callable on any params (pi validates them against the schema first). */
export interface RecordedTool extends Omit<ToolDefinitionLike, "execute"> {
  execute(toolCallId: string, params: unknown, signal: AbortSignal | undefined, onUpdate: unknown, ctx: ContextLike): Promise<ToolResultValue>;
}

/** What a fake session needs of an entry: any record; `id` is kept when it is a string. */
export type EntryShape = { readonly [key: string]: unknown };

/** pi's session model in miniature: a tree of entries, a leaf, appends under the leaf, leaf moves. */
export interface FakeSession<E extends EntryShape = Entry> extends SessionManagerLike {
  /**
   * Appends entries under the current leaf (ids `n1`, `n2`, … unless an entry has a string id), moves
   * the leaf to the last and returns it.
   */
  append(...entries: E[]): string | null;
  /** Moves the leaf to an existing entry, as `/tree` navigation does; null is before the first entry. */
  moveTo(id: string | null): void;
  /** Every id in the tree, oldest first. */
  ids(): readonly string[];
  getBranch(): E[];
  getLeafId(): string | null;
  getEntry(id: string): E | undefined;
  getSessionId(): string;
  /** How often the reader asked for the whole branch. */
  readonly branchReads: number;
  /** Every entry of the session (all branches), in append order, as pi's `getEntries()` copies them. */
  getEntries(): E[];
  /** How often the extension asked for every entry of the session. */
  readonly entriesReads: number;
}

export function createSession<E extends EntryShape = Entry>(entries: readonly E[] = [], sessionId = "session-1"): FakeSession<E> {
  const byId = new Map<string, E>();
  const order: string[] = [];
  let leaf: string | null = null;
  let branchReads = 0;
  let entriesReads = 0;

  function append(...added: E[]): string | null {
    for (const entry of added) {
      const id = typeof entry.id === "string" ? entry.id : `n${order.length + 1}`;
      byId.set(id, { ...entry, id, parentId: leaf });
      order.push(id);
      leaf = id;
    }
    return leaf;
  }

  function branch(): E[] {
    const out: E[] = [];
    let id: unknown = leaf;
    while (typeof id === "string") {
      const entry = byId.get(id);
      if (!entry) break;
      out.push(entry);
      id = entry.parentId;
    }
    return out.reverse();
  }

  append(...entries);
  return {
    append,
    moveTo(id) {
      if (id !== null && !byId.has(id)) throw new Error(`no entry ${id}`);
      leaf = id;
    },
    ids: () => order,
    getBranch() {
      branchReads += 1;
      return branch();
    },
    getLeafId: () => leaf,
    getEntry: (id) => byId.get(id),
    getSessionId: () => sessionId,
    get branchReads() {
      return branchReads;
    },
    getEntries() {
      entriesReads += 1;
      return order.map((id) => byId.get(id) as E);
    },
    get entriesReads() {
      return entriesReads;
    },
  };
}

export interface Notification {
  readonly message: string;
  readonly type: NotifyType | undefined;
}

export interface StatusCall {
  readonly key: string;
  readonly text: string | undefined;
}

export interface FakeUi extends UiLike {
  readonly notifications: Notification[];
  readonly statuses: StatusCall[];
}

export interface FakeContext<E extends EntryShape = Entry> extends ContextLike {
  readonly ui: FakeUi;
  readonly sessionManager: FakeSession<E>;
  readonly mode: ModeLike;
  /** What `isIdle()` answers; tests may change it. */
  idle: boolean;
  isIdle(): boolean;
}

export interface ContextOptions<E extends EntryShape> {
  session: FakeSession<E>;
  cwd: string;
  hasUI?: boolean;
  /** The run mode; default "rpc" (hasUI true, no transcript). */
  mode?: ModeLike;
  /** Whether the agent is idle; default true. */
  idle?: boolean;
}

export function createContext<E extends EntryShape = Entry>(options: ContextOptions<E>): FakeContext<E> {
  const notifications: Notification[] = [];
  const statuses: StatusCall[] = [];
  const ctx: FakeContext<E> = {
    cwd: options.cwd,
    hasUI: options.hasUI ?? true,
    mode: options.mode ?? "rpc",
    idle: options.idle ?? true,
    isIdle: () => ctx.idle,
    sessionManager: options.session,
    ui: {
      notifications,
      statuses,
      notify(message, type) {
        notifications.push({ message, type });
      },
      setStatus(key, text) {
        statuses.push({ key, text });
      },
    },
  };
  return ctx;
}

/** The session `appendEntry` and `sendMessage` write to: any fake session whose entries an `Entry` fits. */
export interface BoundSession {
  append(...entries: Entry[]): string | null;
}

export interface AppendedEntry {
  readonly customType: string;
  readonly data: unknown;
}

export interface SentMessage {
  readonly message: CustomMessageLike;
  readonly options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" } | undefined;
}

export interface FakePi extends PiLike {
  readonly turnEndHandlers: TurnEndHandler[];
  readonly contextHandlers: ContextHandler[];
  readonly agentSettledHandlers: AgentSettledHandler[];
  readonly sessionStartHandlers: SessionStartHandler[];
  readonly messageStartHandlers: MessageStartHandler[];
  readonly sessionTreeHandlers: SessionTreeHandler[];
  readonly tools: RecordedTool[];
  readonly commands: Map<string, CommandOptionsLike>;
  /**
   * Every `appendEntry(customType, data)` call, in order; a stop record's `report` (SPEC §7.2) is kept
   * apart in `reports`, so tests of the record's other fields do not restate the run's figures.
   */
  readonly appended: AppendedEntry[];
  /** The `report` of every stop record appended, in order. */
  readonly reports: unknown[];
  /** Every `sendMessage(message, options)` call, in order. */
  readonly sent: SentMessage[];
  readonly messageRenderers: Map<string, MessageRendererLike>;
  readonly entryRenderers: Map<string, EntryRendererLike>;
  /** What `getActiveTools()` answers; tests may change it. */
  activeTools: string[];
  /**
   * What `getAllTools()` answers, besides the tools the extension registered (reported with their own
   * exposure, `direct` by default); tests may change it. Default: every active tool, `direct`.
   */
  allTools: ToolInfoLike[];
  /** The session `appendEntry` and `sendMessage` write to (pi binds an extension to its session). */
  session: BoundSession | undefined;
  /** Runs every `turn_end` handler in order, each seeing the proposals before it, as pi does. */
  fireTurnEnd(event: TurnEndEventLike, ctx: ContextLike): Promise<TurnEndResultLike | undefined>;
  /** Runs every `context` handler in order; undefined when none changed the messages. */
  fireContext(event: ContextEventLike, ctx: ContextLike): Promise<{ messages: unknown[] } | undefined>;
  /** Runs every `agent_settled` handler in order: pi settled and will not go on by itself. */
  fireAgentSettled(event: AgentSettledEventLike, ctx: ContextLike): Promise<void>;
  /** Runs every `session_start` handler in order (startup, reload, new, resume, fork). */
  fireSessionStart(event: SessionStartEventLike, ctx: ContextLike): Promise<void>;
  /** Runs every `message_start` handler in order (pi fires it before the message is in the session). */
  fireMessageStart(event: MessageStartEventLike, ctx: ContextLike): Promise<void>;
  /** Runs every `session_tree` handler in order (after `/tree` navigation). */
  fireSessionTree(event: SessionTreeEventLike, ctx: ContextLike): Promise<void>;
  /** Runs every `session_shutdown` handler in order. */
  fireSessionShutdown(event: unknown, ctx: ContextLike): Promise<void>;
  tool(name: string): RecordedTool;
  command(name: string): CommandOptionsLike;
  /** pi's event bus in miniature (also `events` until a test replaces that): listeners run synchronously in `emit`. */
  readonly bus: FakeEventBus;
}

export interface FakeEventBus {
  emit(channel: string, data: unknown): void;
  on(channel: string, handler: (data: unknown) => void): () => void;
  /** Every `emit(channel, data)`, in order. */
  readonly emitted: { readonly channel: string; readonly data: unknown }[];
}

/** A bus like pi's `createEventBus()`: listeners run in the emit, in the order they were added; errors stay theirs. */
export function createEventBus(): FakeEventBus {
  const listeners = new Map<string, Array<(data: unknown) => void>>();
  const emitted: { channel: string; data: unknown }[] = [];
  return {
    emitted,
    emit(channel, data) {
      emitted.push({ channel, data });
      for (const handler of [...(listeners.get(channel) ?? [])]) {
        try {
          handler(data);
        } catch {
          // pi's bus reports a listener's error and goes on.
        }
      }
    },
    on(channel, handler) {
      const list = listeners.get(channel) ?? [];
      list.push(handler);
      listeners.set(channel, list);
      return () => {
        const index = list.indexOf(handler);
        if (index >= 0) list.splice(index, 1);
      };
    },
  };
}

type OnArgs =
  | [event: "turn_end", handler: TurnEndHandler]
  | [event: "context", handler: ContextHandler]
  | [event: "agent_settled", handler: AgentSettledHandler]
  | [event: "session_start", handler: SessionStartHandler]
  | [event: "message_start", handler: MessageStartHandler]
  | [event: "session_tree", handler: SessionTreeHandler]
  | [event: "session_shutdown", handler: SessionShutdownHandler];

export interface FakePiOptions {
  activeTools?: string[];
  allTools?: ToolInfoLike[];
  session?: BoundSession;
  /** The timestamp of entries `appendEntry` and `sendMessage` write; default the wall clock. */
  now?: () => string;
}

export function createFakePi(options: FakePiOptions = {}): FakePi {
  const turnEndHandlers: TurnEndHandler[] = [];
  const contextHandlers: ContextHandler[] = [];
  const agentSettledHandlers: AgentSettledHandler[] = [];
  const sessionStartHandlers: SessionStartHandler[] = [];
  const messageStartHandlers: MessageStartHandler[] = [];
  const sessionTreeHandlers: SessionTreeHandler[] = [];
  const sessionShutdownHandlers: SessionShutdownHandler[] = [];
  const tools: RecordedTool[] = [];
  const commands = new Map<string, CommandOptionsLike>();
  const appended: AppendedEntry[] = [];
  const reports: unknown[] = [];
  const sent: SentMessage[] = [];
  const messageRenderers = new Map<string, MessageRendererLike>();
  const entryRenderers = new Map<string, EntryRendererLike>();
  const active = options.activeTools ?? ["read", "bash", "todo"];
  const now = options.now ?? (() => new Date().toISOString());
  const bus = createEventBus();

  const pi: FakePi = {
    turnEndHandlers,
    contextHandlers,
    agentSettledHandlers,
    sessionStartHandlers,
    messageStartHandlers,
    sessionTreeHandlers,
    tools,
    commands,
    appended,
    reports,
    sent,
    messageRenderers,
    entryRenderers,
    activeTools: [...active],
    allTools: options.allTools ?? active.map((name) => ({ name, exposure: "direct" })),
    session: options.session,
    bus,
    events: bus,
    on(...args: OnArgs) {
      switch (args[0]) {
        case "turn_end":
          turnEndHandlers.push(args[1]);
          break;
        case "context":
          contextHandlers.push(args[1]);
          break;
        case "agent_settled":
          agentSettledHandlers.push(args[1]);
          break;
        case "session_start":
          sessionStartHandlers.push(args[1]);
          break;
        case "message_start":
          messageStartHandlers.push(args[1]);
          break;
        case "session_tree":
          sessionTreeHandlers.push(args[1]);
          break;
        case "session_shutdown":
          sessionShutdownHandlers.push(args[1]);
          break;
      }
    },
    registerTool(tool) {
      if (tools.some((known) => known.name === tool.name)) throw new Error(`tool ${tool.name} registered twice`);
      tools.push(tool);
    },
    registerCommand(name, command) {
      commands.set(name, command);
    },
    getActiveTools: () => pi.activeTools,
    getAllTools() {
      const listed = new Set(pi.allTools.map((tool) => tool.name));
      const own = tools.filter((tool) => !listed.has(tool.name)).map((tool) => ({ name: tool.name, exposure: tool.exposure ?? "direct" }));
      return [...pi.allTools, ...own];
    },
    appendEntry(customType, data) {
      if (customType === "todo-loop:stop" && typeof data === "object" && data !== null && "report" in data) {
        const { report, ...rest } = data as Record<string, unknown>;
        reports.push(report);
        appended.push({ customType, data: rest });
      } else {
        appended.push({ customType, data });
      }
      pi.session?.append({ type: "custom", customType, data, timestamp: now() });
    },
    sendMessage(message, messageOptions) {
      sent.push({ message, options: messageOptions });
      pi.session?.append({
        type: "custom_message",
        customType: message.customType,
        content: message.content,
        display: message.display,
        details: message.details,
        timestamp: now(),
      });
    },
    registerMessageRenderer(customType, renderer) {
      messageRenderers.set(customType, renderer);
    },
    registerEntryRenderer(customType, renderer) {
      entryRenderers.set(customType, renderer);
    },
    async fireTurnEnd(event, ctx) {
      let entries: unknown[] = Array.isArray(event.entries) ? [...event.entries] : [];
      let proceed = event.continue === true;
      let changed = false;
      for (const handler of turnEndHandlers) {
        const result = await handler({ ...event, entries, continue: proceed }, ctx);
        if (result?.entries !== undefined) {
          entries = result.entries;
          changed = true;
        }
        if (result?.continue !== undefined) {
          proceed = result.continue;
          changed = true;
        }
      }
      return changed ? { entries, continue: proceed } : undefined;
    },
    async fireContext(event, ctx) {
      let current = event;
      let changed: { messages: unknown[] } | undefined;
      for (const handler of contextHandlers) {
        const result = await handler(current, ctx);
        if (result) {
          changed = result;
          current = { ...current, messages: result.messages };
        }
      }
      return changed;
    },
    async fireAgentSettled(event, ctx) {
      for (const handler of agentSettledHandlers) await handler(event, ctx);
    },
    async fireSessionStart(event, ctx) {
      for (const handler of sessionStartHandlers) await handler(event, ctx);
    },
    async fireMessageStart(event, ctx) {
      for (const handler of messageStartHandlers) await handler(event, ctx);
    },
    async fireSessionTree(event, ctx) {
      for (const handler of sessionTreeHandlers) await handler(event, ctx);
    },
    async fireSessionShutdown(event, ctx) {
      for (const handler of sessionShutdownHandlers) await handler(event, ctx);
    },
    tool(name) {
      const found = tools.find((tool) => tool.name === name);
      if (!found) throw new Error(`no tool ${name}`);
      return found;
    },
    command(name) {
      const found = commands.get(name);
      if (!found) throw new Error(`no command ${name}`);
      return found;
    },
  };
  return pi;
}

/**
 * A temporary agent dir (made the process's `PI_CODING_AGENT_DIR`) and a project dir with `.pi/`, both
 * removed when the test process exits.
 */
export function isolatedDirs(prefix: string): { root: string; agentDir: string; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir);
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  process.env.PI_CODING_AGENT_DIR = agentDir;
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
  return { root, agentDir, cwd };
}
