/**
 * Test-only pi extension persisting exactly @nguyenquangthai/pi-todo's newer shape (see TODO-SHAPES.md
 * and the `quangthai-pi-todo` fixtures): tools todo_write (replace the list), todo_update (change
 * statuses by id) and todo_read; every change appends a `pi-todo.state` custom entry
 * (`{ todos: [{ id, content, status, priority }] }`) and write/update results carry `details.todos`,
 * the full list.
 */
import { text } from "./tool-types.ts";
import type { ToolPi } from "./tool-types.ts";

type Status = "pending" | "in_progress" | "completed" | "cancelled";
interface Todo {
  id: string;
  content: string;
  status: Status;
  priority: string;
}

const STATUS = { type: "string", enum: ["pending", "in_progress", "completed", "cancelled"] };

export default function quangthaiTodo(pi: ToolPi): void {
  let todos: Todo[] = [];
  const snapshot = (): Todo[] => todos.map((todo) => ({ ...todo }));
  const changed = (summary: string) => {
    pi.appendEntry("pi-todo.state", { todos: snapshot() });
    const open = todos.filter((todo) => todo.status === "pending" || todo.status === "in_progress").length;
    return { content: text(`${summary}\n${open} open / ${todos.length} total`), details: { todos: snapshot() } };
  };
  pi.registerTool({
    name: "todo_write",
    label: "Todo write",
    description: "Replace the todo list.",
    parameters: {
      type: "object",
      properties: {
        todos: {
          type: "array",
          items: {
            type: "object",
            properties: { content: { type: "string" }, status: STATUS, priority: { type: "string" } },
            required: ["content", "status", "priority"],
          },
        },
      },
      required: ["todos"],
    },
    async execute(_toolCallId, params: { todos: Array<Omit<Todo, "id">> }) {
      todos = params.todos.map((todo, index) => ({ id: `t${index + 1}`, ...todo }));
      return changed(todos.length === 0 ? "Cleared todos" : `Wrote ${todos.length} todo(s)`);
    },
  });
  pi.registerTool({
    name: "todo_update",
    label: "Todo update",
    description: "Change the status of todos by id.",
    parameters: {
      type: "object",
      properties: {
        updates: {
          type: "array",
          items: { type: "object", properties: { id: { type: "string" }, status: STATUS }, required: ["id", "status"] },
        },
      },
      required: ["updates"],
    },
    async execute(_toolCallId, params: { updates: Array<{ id: string; status: Status }> }) {
      for (const update of params.updates) {
        const todo = todos.find((candidate) => candidate.id === update.id);
        if (!todo) throw new Error(`todo ${update.id} not found`);
        todo.status = update.status;
      }
      return changed(`Updated ${params.updates.length} todo(s)`);
    },
  });
  pi.registerTool({
    name: "todo_read",
    label: "Todo read",
    description: "Read the todo list.",
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: text(todos.map((todo) => `[${todo.status}] ${todo.id} ${todo.content}`).join("\n") || "No todos"), details: { todos: snapshot() } };
    },
  });
}
