/**
 * Test builders: session entries, `turn_end` events and `context` messages in the shapes pi and the todo
 * tools persist them, with defaults for every field a test does not care about.
 */

export interface Message {
  role: string;
  [key: string]: unknown;
}

export interface Entry {
  type: string;
  id?: string;
  parentId?: string | null;
  timestamp?: unknown;
  [key: string]: unknown;
}

export interface MessageEntry extends Entry {
  type: "message";
  message: Message;
}

export interface CustomEntry extends Entry {
  type: "custom";
  customType: string;
  data?: unknown;
}

export interface CustomMessageEntry extends Entry {
  type: "custom_message";
  customType: string;
  content: unknown;
  display: boolean;
  details?: unknown;
}

export const TIMESTAMP = "2026-11-30T00:00:00.000Z";

function messageEntry(message: Message, id?: string): MessageEntry {
  return id === undefined ? { type: "message", timestamp: TIMESTAMP, message } : { type: "message", id, timestamp: TIMESTAMP, message };
}

/** Gives every entry an id (`e1`, `e2`, … unless it has one) and links each to the one before. */
export function chain(...entries: Entry[]): Entry[] {
  let parent: string | null = null;
  return entries.map((entry, index) => {
    const id = entry.id ?? `e${index + 1}`;
    const linked: Entry = { ...entry, id, parentId: parent };
    parent = id;
    return linked;
  });
}

// ---- human and assistant messages ----------------------------------------------------------------

/** A human message; `timestamp` is the entry's (ISO string as pi writes it, or junk). */
export function user(text = "Do the work", options: { id?: string; timestamp?: unknown } = {}): MessageEntry {
  return withTimestamp(messageEntry({ role: "user", content: [{ type: "text", text }], timestamp: 1 }, options.id), options.timestamp);
}

function withTimestamp(entry: MessageEntry, timestamp: unknown): MessageEntry {
  return timestamp === undefined ? entry : { ...entry, timestamp };
}

export interface UsageOptions {
  totalTokens?: number;
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  cost?: number;
}

export function usage(options: UsageOptions = {}): Record<string, unknown> {
  const input = options.input ?? 0;
  const output = options.output ?? 0;
  const cacheRead = options.cacheRead ?? 0;
  const cacheWrite = options.cacheWrite ?? 0;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: options.totalTokens ?? input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: options.cost ?? 0 },
  };
}

/** An assistant reply; `usage` builds pi's usage record, `rawUsage` puts any value there (for junk). */
export function assistant(options: { text?: string; usage?: UsageOptions; rawUsage?: unknown; id?: string; timestamp?: unknown } = {}): MessageEntry {
  const message: Message = {
    role: "assistant",
    content: [{ type: "text", text: options.text ?? "Done for now." }],
    stopReason: "stop",
    timestamp: 2,
    usage: "rawUsage" in options ? options.rawUsage : usage(options.usage),
  };
  return withTimestamp(messageEntry(message, options.id), options.timestamp);
}

// ---- tool results ---------------------------------------------------------------------------------

export function toolResultMessage(toolName: string, details: unknown, options: { isError?: boolean; text?: string } = {}): Message {
  return {
    role: "toolResult",
    toolCallId: `call-${toolName}`,
    toolName,
    content: [{ type: "text", text: options.text ?? "ok" }],
    details,
    isError: options.isError ?? false,
    timestamp: 3,
  };
}

export function toolResult(toolName: string, details: unknown, options: { isError?: boolean; id?: string } = {}): MessageEntry {
  return messageEntry(toolResultMessage(toolName, details, options), options.id);
}

// ---- @juicesharp/rpiv-todo ------------------------------------------------------------------------

export interface RpivTask {
  id: number;
  subject: string;
  status: string;
  [key: string]: unknown;
}

/** An rpiv-todo task: `task({ id: 2, status: "completed" })`. */
export function task(overrides: Partial<RpivTask> & { id: number }): RpivTask {
  return { subject: `Task ${overrides.id}`, status: "pending", ...overrides };
}

export interface RpivResultOptions {
  tasks: RpivTask[];
  action?: string;
  params?: Record<string, unknown>;
  nextId?: number;
  error?: string;
  isError?: boolean;
  id?: string;
}

export function rpivDetails(options: RpivResultOptions): Record<string, unknown> {
  const action = options.action ?? "create";
  const details: Record<string, unknown> = {
    action,
    params: options.params ?? { action },
    tasks: options.tasks,
    nextId: options.nextId ?? options.tasks.length + 1,
  };
  if (options.error !== undefined) details.error = options.error;
  return details;
}

/** A `todo` tool result of rpiv-todo 2.x: the full list after the call. */
export function todoResult(options: RpivResultOptions): MessageEntry {
  return toolResult("todo", options.isError ? {} : rpivDetails(options), { isError: options.isError, id: options.id });
}

export function rpivState(tasks: RpivTask[], nextId = tasks.length + 1): CustomEntry {
  return { type: "custom", customType: "rpiv-todo-state", data: { tasks, nextId } };
}

export function rpivClear(): CustomEntry {
  return { type: "custom", customType: "rpiv-todo-clear" };
}

// ---- the other sources ----------------------------------------------------------------------------

export interface IanTask {
  id: number;
  title: string;
  status: string;
}

export function ianState(tasks: IanTask[], nextId = tasks.length + 1): CustomEntry {
  return { type: "custom", customType: "pi-todo-state", data: { nextId, tasks } };
}

export interface ExampleTodo {
  id: number;
  text: string;
  done: boolean;
}

export function exampleResult(todos: ExampleTodo[], options: { action?: string | null; nextId?: number; error?: string } = {}): MessageEntry {
  const details: Record<string, unknown> = { todos, nextId: options.nextId ?? todos.length + 1 };
  if (options.action !== null) details.action = options.action ?? "add";
  if (options.error !== undefined) details.error = options.error;
  return toolResult("todo", details);
}

export interface QuangthaiTodo {
  id?: string;
  content: string;
  status: string;
  priority?: string;
}

export function quangthaiState(todos: QuangthaiTodo[]): CustomEntry {
  return { type: "custom", customType: "pi-todo.state", data: { todos } };
}

export function quangthaiResult(toolName: string, todos: QuangthaiTodo[]): MessageEntry {
  return toolResult(toolName, { todos });
}

export interface CriogaidTodo {
  content: string;
  status: string;
  activeForm?: string;
}

export function criogaidResult(todos: CriogaidTodo[]): MessageEntry {
  return toolResult("todo", { todos });
}

export interface CriogaidTask {
  id: string;
  subject: string;
  status: string;
  description?: string;
  blocks?: string[];
  blockedBy?: string[];
  [key: string]: unknown;
}

/** A `pi-todos-tasks` snapshot; each task gets the `description`, `blocks` and `blockedBy` the tool always saves. */
export function criogaidTasksState(tasks: CriogaidTask[], highWaterMark?: number): CustomEntry {
  const saved = tasks.map((item) => ({ description: "", blocks: [], blockedBy: [], ...item }));
  const mark = highWaterMark ?? Math.max(0, ...tasks.map((item) => Number(item.id)).filter(Number.isFinite));
  return { type: "custom", customType: "pi-todos-tasks", data: { version: 1, tasks: saved, highWaterMark: mark } };
}

// ---- the loop's own footprints --------------------------------------------------------------------

export interface MarkerOptions {
  round: number;
  anchor: string;
  open?: number;
  hint?: boolean;
  /** Replies in a row without work and since the list changed; absent on markers written by 0.1. */
  idle?: number;
  stale?: number;
}

export function markerDetails(options: MarkerOptions): Record<string, unknown> {
  const counts = options.idle === undefined ? {} : { total: 3, cap: null, idle: options.idle, stale: options.stale ?? 0 };
  return { v: 1, round: options.round, anchor: options.anchor, open: options.open ?? 1, hint: options.hint ?? false, ...counts };
}

/** A continuation marker as it sits on the branch. */
export function marker(options: MarkerOptions): CustomMessageEntry {
  return {
    type: "custom_message",
    customType: "todo-loop:continue",
    content: "Continue with the open tasks on your todo list.",
    display: false,
    details: markerDetails(options),
  };
}

/** A stop record; without `kind` it is one written by 0.1 (no `v`, no `kind`). */
export function stopRecord(options: { reason: string; anchor: string; round?: number; open?: number; kind?: string; limit?: string }): CustomEntry {
  const legacy = { reason: options.reason, round: options.round ?? 0, open: options.open ?? 0, anchor: options.anchor };
  const kind = options.kind === undefined ? {} : { v: 1, kind: options.kind, ...(options.limit === undefined ? {} : { limit: options.limit }) };
  return { type: "custom", customType: "todo-loop:stop", data: { ...kind, ...legacy } };
}

/** A `/todoloop` control as it sits on the branch. */
export function control(action: string, anchor = "u1"): CustomEntry {
  return { type: "custom", customType: "todo-loop:control", data: { v: 1, action, anchor } };
}

/** The result of a `todo_loop_block` call as it sits on the branch. */
export function blockResult(reason: string, anchor: string): MessageEntry {
  return toolResult("todo_loop_block", { v: 1, waiting: true, reason, anchor });
}

/** Any other extension's hidden message. */
export function customMessage(customType = "other-extension:note", id?: string): CustomMessageEntry {
  const entry: CustomMessageEntry = { type: "custom_message", customType, content: "note", display: false };
  return id === undefined ? entry : { ...entry, id };
}

// ---- turn_end events ------------------------------------------------------------------------------

export interface TurnEndEvent {
  type: "turn_end";
  turnIndex: number;
  message: unknown;
  toolResults: unknown[];
  messageEntryId: string;
  toolResultEntryIds: string[];
  outcome: string;
  entries: unknown[];
  continue: boolean;
  context: { contextEntries: unknown[]; contextMessages: unknown[]; llmMessages: unknown[]; pendingMessages: unknown[]; canContinue: boolean };
}

export interface EventOptions {
  outcome?: string;
  entries?: unknown[];
  continue?: boolean;
  pendingMessages?: unknown[];
}

function turnEnd(toolResults: unknown[], options: EventOptions): TurnEndEvent {
  return {
    type: "turn_end",
    turnIndex: 0,
    message: { role: "assistant", content: [] },
    toolResults,
    messageEntryId: "leaf",
    toolResultEntryIds: [],
    outcome: options.outcome ?? "completed",
    entries: options.entries ?? [],
    continue: options.continue ?? false,
    context: { contextEntries: [], contextMessages: [], llmMessages: [], pendingMessages: options.pendingMessages ?? [], canContinue: false },
  };
}

/** A turn that would end the run: the model answered without calling a tool. */
export function settle(options: EventOptions = {}): TurnEndEvent {
  return turnEnd([], options);
}

/** A turn with tool results (pi continues after it on its own). */
export function toolTurn(results: Message[], options: EventOptions = {}): TurnEndEvent {
  return turnEnd(results, options);
}

// ---- context messages -----------------------------------------------------------------------------

export function userMessage(text = "please stop"): Message {
  return { role: "user", content: [{ type: "text", text }], timestamp: 1 };
}

export function assistantMessage(text = "Working."): Message {
  return { role: "assistant", content: [{ type: "text", text }], timestamp: 2 };
}

export function markerMessage(round = 1): Message {
  return {
    role: "custom",
    customType: "todo-loop:continue",
    content: "Continue with the open tasks on your todo list.",
    display: false,
    details: markerDetails({ round, anchor: "u1" }),
    timestamp: 3,
  };
}

/** A message of any other role (`custom`, `bashExecution`, `branchSummary`, `compactionSummary`, `toolResult`). */
export function roleMessage(role: string): Message {
  if (role === "custom") return { role, customType: "other-extension:note", content: "note", display: false, timestamp: 4 };
  return { role, content: "…", timestamp: 4 };
}

// ---- fixtures ---------------------------------------------------------------------------------------

export function isEntry(value: unknown): value is Entry {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === "string";
}

/** The entries of a fixture file (a JSON array of entries as `getBranch()` returns them). */
export function entriesOf(parsed: unknown): Entry[] {
  if (!Array.isArray(parsed)) throw new Error("a fixture is a JSON array");
  const entries: Entry[] = [];
  for (const value of parsed) {
    if (!isEntry(value)) throw new Error("a fixture entry has a string type");
    entries.push(value);
  }
  return entries;
}

/** The todo-shape fixtures kept with the tests: `<tool>/<name>.json`, arrays of branch entries. */
export const FIXTURES_DIR: string = new URL("./fixtures/", import.meta.url).pathname;

// ---- raw shapes, for the rules about malformed and foreign input -----------------------------------

/** A `custom` entry of any type with any data (a todo tool's state entry, well-formed or not). */
export function customEntry(customType: string, data: unknown): CustomEntry {
  return { type: "custom", customType, data };
}

/**
 * A tool result (by default codemode's) whose script made the given nested calls through
 * `ctx.executeTool()`: pi keeps the calls' names and arguments, never their results.
 */
export function nestedCallsResult(calls: unknown[], options: { complete?: boolean; toolName?: string; isError?: boolean } = {}): MessageEntry {
  const message: Message = {
    ...toolResultMessage(options.toolName ?? "codemode", { calls: [] }, { isError: options.isError }),
    nestedCalls: { calls, complete: options.complete ?? true },
  };
  return { type: "message", timestamp: "2026-11-30T00:00:00.000Z", message };
}

// ---- replies with tool calls (the busy-but-stuck brakes) ------------------------------------------

export interface CallOptions {
  id: string;
  name: string;
  args?: unknown;
}

/** An assistant message that calls tools: pi's `toolCall` blocks with ids and arguments, and `stopReason: "toolUse"`. */
export function assistantCalls(calls: CallOptions[], options: { text?: string; thinking?: string } = {}): MessageEntry {
  const content: unknown[] = [];
  if (options.thinking !== undefined) content.push({ type: "thinking", thinking: options.thinking });
  if (options.text !== undefined) content.push({ type: "text", text: options.text });
  for (const call of calls) content.push({ type: "toolCall", id: call.id, name: call.name, arguments: call.args ?? {} });
  return messageEntry({ role: "assistant", content, stopReason: "toolUse", timestamp: 2, usage: usage() });
}

/** The result of the call `id`: a tool result message carrying its `toolCallId`. */
export function callResult(id: string, toolName: string, options: { details?: unknown; isError?: boolean; nestedCalls?: unknown; text?: string } = {}): MessageEntry {
  const message: Message = {
    role: "toolResult",
    toolCallId: id,
    toolName,
    content: [{ type: "text", text: options.text ?? "ok" }],
    details: options.details ?? {},
    isError: options.isError ?? false,
    timestamp: 3,
  };
  if (options.nestedCalls !== undefined) message.nestedCalls = options.nestedCalls;
  return messageEntry(message);
}

/** One call and its result, as a tool turn puts them on the branch. */
export function called(id: string, name: string, args: unknown = {}, options: { details?: unknown; isError?: boolean; nestedCalls?: unknown; text?: string } = {}): Entry[] {
  return [assistantCalls([{ id, name, args }]), callResult(id, name, options)];
}
