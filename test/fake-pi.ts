/**
 * A typed fake of the pi host for unit tests: a `PiLike` that records what the extension registers and
 * dispatches events to it the way pi does, a session manager over a tree of entries (so `/tree` moves and
 * appends behave as in pi), and a context whose UI records every `notify` and `setStatus` call.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  CommandOptionsLike,
  ContextEventLike,
  ContextLike,
  EntryRendererLike,
  MessageRendererLike,
  NotifyType,
  PiLike,
  SessionManagerLike,
  ToolDefinitionLike,
  ToolResultValue,
  TurnEndEventLike,
  TurnEndResultLike,
  UiLike,
} from "../src/pi.ts";
import type { Entry } from "./builders.ts";

export type TurnEndHandler = (event: TurnEndEventLike, ctx: ContextLike) => Promise<TurnEndResultLike | undefined>;
export type ContextHandler = (event: ContextEventLike, ctx: ContextLike) => Promise<{ messages: unknown[] } | undefined>;

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
}

export function createSession<E extends EntryShape = Entry>(entries: readonly E[] = [], sessionId = "session-1"): FakeSession<E> {
  const byId = new Map<string, E>();
  const order: string[] = [];
  let leaf: string | null = null;
  let branchReads = 0;

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
}

export function createContext<E extends EntryShape = Entry>(options: { session: FakeSession<E>; cwd: string; hasUI?: boolean }): FakeContext<E> {
  const notifications: Notification[] = [];
  const statuses: StatusCall[] = [];
  return {
    cwd: options.cwd,
    hasUI: options.hasUI ?? true,
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
}

export interface FakePi extends PiLike {
  readonly turnEndHandlers: TurnEndHandler[];
  readonly contextHandlers: ContextHandler[];
  readonly tools: RecordedTool[];
  readonly commands: Map<string, CommandOptionsLike>;
  readonly messageRenderers: Map<string, MessageRendererLike>;
  readonly entryRenderers: Map<string, EntryRendererLike>;
  /** What `getActiveTools()` answers; tests may change it. */
  activeTools: string[];
  /** Runs every `turn_end` handler in order, each seeing the proposals before it, as pi does. */
  fireTurnEnd(event: TurnEndEventLike, ctx: ContextLike): Promise<TurnEndResultLike | undefined>;
  /** Runs every `context` handler in order; undefined when none changed the messages. */
  fireContext(event: ContextEventLike, ctx: ContextLike): Promise<{ messages: unknown[] } | undefined>;
  tool(name: string): RecordedTool;
  command(name: string): CommandOptionsLike;
}

type OnArgs = [event: "turn_end", handler: TurnEndHandler] | [event: "context", handler: ContextHandler];

export function createFakePi(options: { activeTools?: string[] } = {}): FakePi {
  const turnEndHandlers: TurnEndHandler[] = [];
  const contextHandlers: ContextHandler[] = [];
  const tools: RecordedTool[] = [];
  const commands = new Map<string, CommandOptionsLike>();
  const messageRenderers = new Map<string, MessageRendererLike>();
  const entryRenderers = new Map<string, EntryRendererLike>();
  const active = options.activeTools ?? ["read", "bash", "todo"];

  const pi: FakePi = {
    turnEndHandlers,
    contextHandlers,
    tools,
    commands,
    messageRenderers,
    entryRenderers,
    activeTools: [...active],
    on(...args: OnArgs) {
      if (args[0] === "turn_end") turnEndHandlers.push(args[1]);
      else contextHandlers.push(args[1]);
    },
    registerTool(tool) {
      if (tools.some((known) => known.name === tool.name)) throw new Error(`tool ${tool.name} registered twice`);
      tools.push(tool);
    },
    registerCommand(name, command) {
      commands.set(name, command);
    },
    getActiveTools: () => pi.activeTools,
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
