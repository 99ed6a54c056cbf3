/**
 * Test-only pi extension: a source of background work that announces it the way a real one does. Its
 * tool `start_background_work` ({ id }) starts one job and returns at once; the job ends after
 * PI_TODO_LOOP_E2E_WORK_MS milliseconds (default 1500; "never": it never ends). PI_TODO_LOOP_E2E_WORK_SOURCE
 * picks whose events and result message it sends, with the payloads of test/fixtures/work/ (the sources'
 * own field names and nesting) and in the source's own order:
 * - `nicobailon`: `subagent:async-started` (its `sessionId` is this session's file) → `subagent:process-terminal`,
 *   its `subagent-notify` message (`triggerTurn`) 1 s later, then `subagent:async-complete`;
 * - `tintinweb`: `subagents:created` (`isBackground: true`) → `subagents:completed`, its `subagent-notification`
 *   message 200 ms later (`deliverAs: "followUp"`, `triggerTurn`);
 * - `pi-code`: `pi-code:subagent` start (a `bg-` id) → stop, then its `subagent-background` message (`triggerTurn`);
 * - `pi-processes`: `processes:started` → `processes:ended`, its `ad-process:notification` message in a
 *   microtask (`deliverAs: "steer"`, `triggerTurn`);
 * - `todo-loop-work` (default): `todo-loop:work` start → end, and no message (every end is silent).
 * PI_TODO_LOOP_E2E_WORK_SILENT=1 sends no result message for any source (a silent end).
 * PI_TODO_LOOP_E2E_WORK_ORDER=end-first emits the job's end events before its start events, at once (work
 * that finished before its start was heard); the result message keeps its own timing.
 * PI_TODO_LOOP_E2E_WORK_HOLD=1 holds a result message due while the agent runs and sends it at
 * `agent_settled`, as tintinweb's notice queue does (its `src/nudge-queue.ts`). Each event and
 * message is appended to PI_TODO_LOOP_E2E_WORK_LOG as one JSON line `{ at, what, id }`.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "work");

type Record_ = { [key: string]: unknown };

interface Ctx {
  sessionManager: { getSessionFile?(): string | undefined; getSessionId?(): string };
  isIdle?(): boolean;
}
interface PiLike {
  events: { emit(channel: string, data: unknown): void };
  on(event: "agent_settled", handler: () => void): void;
  sendMessage(message: { customType: string; content: unknown; display?: boolean; details?: unknown }, options?: { triggerTurn?: boolean; deliverAs?: string }): void;
  registerTool(tool: {
    name: string;
    label: string;
    description: string;
    parameters: object;
    execute(toolCallId: string, params: { id?: string }, signal: AbortSignal | undefined, onUpdate: unknown, ctx: Ctx): Promise<{ content: Array<{ type: "text"; text: string }>; details: unknown }>;
  }): void;
}

function fixture(folder: string, name: string): Record_ {
  return JSON.parse(readFileSync(join(FIXTURES, folder, `${name}.json`), "utf8")) as Record_;
}

function payloadOf(folder: string, name: string, patch: Record_): Record_ {
  return { ...(fixture(folder, name).payload as Record_), ...patch };
}

function messageOf(folder: string, name: string): { message: { customType: string; content: unknown; display?: boolean; details?: unknown }; options: { triggerTurn?: boolean; deliverAs?: string } } {
  const read = fixture(folder, name) as { message: { customType: string; content: unknown; display?: boolean; details?: unknown }; options: { triggerTurn?: boolean; deliverAs?: string } };
  return read;
}

export default function workSource(pi: PiLike): void {
  const source = process.env.PI_TODO_LOOP_E2E_WORK_SOURCE ?? "todo-loop-work";
  const delay = process.env.PI_TODO_LOOP_E2E_WORK_MS ?? "1500";
  const silent = process.env.PI_TODO_LOOP_E2E_WORK_SILENT === "1";
  const log = process.env.PI_TODO_LOOP_E2E_WORK_LOG;
  const endFirst = process.env.PI_TODO_LOOP_E2E_WORK_ORDER === "end-first";
  const hold = process.env.PI_TODO_LOOP_E2E_WORK_HOLD === "1";
  /** Starts held back while the end goes first (end-first), else undefined. */
  let heldStarts: Array<() => void> | undefined;
  /** Result messages parked until the agent settles (hold). */
  const parked: Array<() => void> = [];
  let lastCtx: Ctx | undefined;
  const note = (what: string, id: string): void => {
    if (log) appendFileSync(log, `${JSON.stringify({ at: Date.now(), what, id })}\n`);
  };
  const emit = (channel: string, payload: unknown, id: string): void => {
    if (heldStarts !== undefined) {
      heldStarts.push(() => emit(channel, payload, id));
      return;
    }
    pi.events.emit(channel, payload);
    note(channel, id);
  };
  const send = (folder: string, name: string, id: string): void => {
    if (silent) return;
    const { message, options } = messageOf(folder, name);
    if (hold && lastCtx?.isIdle?.() === false) {
      parked.push(() => send(folder, name, id));
      note(`parked:${message.customType}`, id);
      return;
    }
    pi.sendMessage(message, options);
    note(`message:${message.customType}`, id);
  };
  pi.on("agent_settled", () => {
    for (const release of parked.splice(0)) release();
  });

  /** Emits the start now and returns what ends it. */
  function start(id: string, ctx: Ctx): () => void {
    switch (source) {
      case "nicobailon": {
        const sessionId = ctx.sessionManager.getSessionFile?.() ?? ctx.sessionManager.getSessionId?.() ?? "";
        emit("subagent:async-started", payloadOf("nicobailon-pi-subagents", "async-started", { id, sessionId }), id);
        return () => {
          emit("subagent:process-terminal", payloadOf("nicobailon-pi-subagents", "process-terminal", { runId: id }), id);
          setTimeout(() => {
            send("nicobailon-pi-subagents", "notify-message", id);
            emit("subagent:async-complete", payloadOf("nicobailon-pi-subagents", "async-complete", { id, runId: id, sessionId }), id);
          }, 1000);
        };
      }
      case "tintinweb":
        emit("subagents:created", payloadOf("tintinweb-pi-subagents", "created", { id }), id);
        return () => {
          emit("subagents:completed", payloadOf("tintinweb-pi-subagents", "completed", { id }), id);
          setTimeout(() => send("tintinweb-pi-subagents", "notification-message", id), 200);
        };
      case "pi-code": {
        const agentId = `bg-${id}`;
        emit("pi-code:subagent", payloadOf("pi-code", "start-background", { agentId }), id);
        return () => {
          emit("pi-code:subagent", payloadOf("pi-code", "stop-background", { agentId }), id);
          send("pi-code", "background-message", id);
        };
      }
      case "pi-processes":
        emit("processes:started", payloadOf("aliou-pi-processes", "started", { id }), id);
        return () => {
          emit("processes:ended", payloadOf("aliou-pi-processes", "ended", { id }), id);
          queueMicrotask(() => send("aliou-pi-processes", "notification-message", id));
        };
      default:
        emit("todo-loop:work", { v: 1, id, phase: "start", label: `job ${id}` }, id);
        return () => emit("todo-loop:work", { v: 1, id, phase: "end" }, id);
    }
  }

  pi.registerTool({
    name: "start_background_work",
    label: "Start background work",
    description: "Starts a job in the background and returns at once; its result arrives later by itself.",
    parameters: { type: "object", properties: { id: { type: "string" } } },
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      const id = typeof params.id === "string" && params.id !== "" ? params.id : "job-1";
      lastCtx = ctx;
      if (endFirst) heldStarts = [];
      const end = start(id, ctx);
      if (heldStarts !== undefined) {
        const starts = heldStarts;
        heldStarts = undefined;
        end();
        for (const emitStart of starts) emitStart();
        return { content: [{ type: "text", text: `Ran ${id}; it already finished.` }], details: { id } };
      }
      // The job runs on after the tool returns; a test ends the process when it is done. A session that
      // ended first (a `pi -p` that did not wait) has a stale API: the report has nowhere to go.
      const finish = (): void => {
        try {
          end();
        } catch {
          note("after-session-end", id);
        }
      };
      if (delay !== "never") setTimeout(finish, Number(delay));
      return { content: [{ type: "text", text: `Started ${id} in the background; its result will arrive by itself.` }], details: { id } };
    },
  });
}
