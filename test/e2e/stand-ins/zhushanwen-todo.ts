/**
 * Test-only pi extension persisting exactly @zhushanwen/pi-todo 0.4.x's shape (see docs/dev/todo-sources.md
 * and the `zhushanwen-pi-todo` fixtures): tool `todo` with actions list | add (texts[]) | update (id with
 * status/text, or updates[]) | delete (ids[]) | clear. Every successful result carries
 * `details: { action, todos, nextId }` — the full list, its items `{ id, text, status }` shared with the
 * live state, so a single update changes earlier results' items in place — plus a `__gui__` rendering
 * in RPC mode. Failures throw (pi stores them as `isError: true`); `clear` resets `nextId` to 1.
 */
import { text } from "./tool-types.ts";

type Status = "pending" | "in_progress" | "completed" | "cancelled";
const STATUSES: readonly string[] = ["pending", "in_progress", "completed", "cancelled"];

interface Todo {
  id: number;
  text: string;
  status: Status;
  isVerification?: boolean;
}

interface Params {
  action: string;
  text?: string;
  id?: number;
  texts?: string[];
  ids?: number[];
  status?: string;
  updates?: Array<{ id: number; status?: string; text?: string }>;
}

interface ToolPi {
  registerTool(tool: {
    name: string;
    label: string;
    description: string;
    parameters: object;
    execute(toolCallId: string, params: never, signal: AbortSignal | undefined, onUpdate: unknown, ctx: { mode?: string }): Promise<{ content: Array<{ type: "text"; text: string }>; details: unknown }>;
  }): void;
}

function statusOf(value: string | undefined): Status {
  if (value === undefined || !STATUSES.includes(value)) throw new Error(`status only accepts ${STATUSES.join(" / ")}`);
  return value as Status;
}

export default function zhushanwenTodo(pi: ToolPi): void {
  let todos: Todo[] = [];
  let nextId = 1;
  const find = (id: number | undefined): Todo => {
    const todo = todos.find((candidate) => candidate.id === id);
    if (!todo) throw new Error(`Todo #${id} not found`);
    return todo;
  };
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Manage a todo list. Actions: list, add (texts), update (id + status/text, or updates[]), delete (ids), clear.",
    parameters: {
      type: "object",
      properties: {
        action: { type: "string", enum: ["list", "add", "update", "delete", "clear"] },
        text: { type: "string" },
        id: { type: "number" },
        texts: { type: "array", items: { type: "string" } },
        ids: { type: "array", items: { type: "number" } },
        status: { type: "string", enum: STATUSES },
        updates: {
          type: "array",
          items: { type: "object", properties: { id: { type: "number" }, status: { type: "string" }, text: { type: "string" } }, required: ["id"] },
        },
      },
      required: ["action"],
    },
    async execute(_toolCallId, params: Params, signal, _onUpdate, ctx) {
      if (signal?.aborted) throw new Error("Todo call aborted by signal.");
      let summary: string;
      switch (params.action) {
        case "list":
          summary = todos.length ? todos.map((todo) => `#${todo.id}: ${todo.text} (${todo.status})`).join("\n") : "No todos";
          break;
        case "add": {
          const texts = (params.texts ?? []).map((value) => value.trim()).filter((value) => value.length > 0);
          if (texts.length === 0) throw new Error('add requires texts parameter (non-empty array). Correct: {"action":"add","texts":["..."]}');
          const start = nextId;
          todos = [...todos, ...texts.map((value): Todo => ({ id: nextId++, text: value, status: "pending" }))];
          summary = `Added ${texts.length} todos (#${start}-#${nextId - 1})`;
          break;
        }
        case "update": {
          if (params.updates && params.updates.length > 0) {
            const updates = params.updates.map((update) => ({ todo: find(update.id), status: update.status === undefined ? undefined : statusOf(update.status), text: update.text }));
            todos = todos.map((todo) => {
              const update = updates.find((candidate) => candidate.todo === todo);
              if (!update) return todo;
              return { ...todo, ...(update.status ? { status: update.status } : {}), ...(update.text ? { text: update.text } : {}) };
            });
            summary = `Updated ${updates.length} todo(s)`;
          } else {
            const todo = find(params.id);
            // The real tool changes the item in place: earlier results share it.
            if (params.status !== undefined) todo.status = statusOf(params.status);
            if (params.text !== undefined) todo.text = params.text;
            summary = `Updated todo #${todo.id}`;
          }
          break;
        }
        case "delete": {
          const ids = [...new Set(params.ids ?? [])];
          if (ids.length === 0) throw new Error('delete requires ids parameter (non-empty array). Correct: {"action":"delete","ids":[<n>]}');
          for (const id of ids) find(id);
          todos = todos.filter((todo) => !ids.includes(todo.id));
          summary = `Deleted ${ids.length} items (#${ids.join(", #")}), ${todos.length} remaining`;
          break;
        }
        case "clear": {
          const count = todos.length;
          todos = [];
          nextId = 1;
          summary = count > 0 ? `Cleared ${count} todos` : "No todos to clear";
          break;
        }
        default:
          throw new Error(`Unknown action: ${params.action}`);
      }
      const details: Record<string, unknown> = { action: params.action, todos: [...todos], nextId };
      // The real tool adds a GUI rendering of the list in RPC mode; its exact form is not read by anyone here.
      if (ctx?.mode === "rpc") details.__gui__ = { component: "list-tree", items: todos.map((todo) => ({ label: `#${todo.id}: ${todo.text}` })) };
      return { content: text(summary), details };
    },
  });
}
