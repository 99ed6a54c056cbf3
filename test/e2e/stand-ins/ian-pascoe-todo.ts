/**
 * Test-only pi extension persisting exactly @ian-pascoe/pi-todo's shape (see TODO-SHAPES.md and the
 * `ian-pascoe-pi-todo` fixtures): tool `todo` with actions list | add | update | remove | clear; the
 * full list only in `pi-todo-state` custom entries (`{ nextId, tasks }`), appended with
 * `pi.appendEntry` inside `execute` when the state changes; tool results carry only what the call
 * touched (`{ action: "add", tasks }`, `{ action: "update", task }`, `{ action: "remove", id }`,
 * `{ action: "clear", cleared }`); errors are thrown.
 */
import { text } from "./tool-types.ts";
import type { ToolPi } from "./tool-types.ts";

type Status = "pending" | "active" | "completed";
interface Task {
  id: number;
  title: string;
  description?: string;
  status: Status;
}
interface Params {
  action: "list" | "add" | "update" | "remove" | "clear";
  tasks?: Array<{ title: string; description?: string }>;
  id?: number;
  status?: Status;
}

export default function ianPascoeTodo(pi: ToolPi): void {
  let tasks: Task[] = [];
  let nextId = 1;
  const persist = (): void => pi.appendEntry("pi-todo-state", { nextId, tasks: tasks.map((task) => ({ ...task })) });
  const find = (id: number | undefined): Task => {
    const task = tasks.find((candidate) => candidate.id === id);
    if (!task) throw new Error(`Task #${id} was not found`);
    return task;
  };
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Manage the current session branch's Todo List. Actions: list, add, update, remove, clear.",
    parameters: {
      type: "object",
      properties: {
        action: { type: "string", enum: ["list", "add", "update", "remove", "clear"] },
        tasks: {
          type: "array",
          items: {
            type: "object",
            properties: { title: { type: "string" }, description: { type: "string" } },
            required: ["title"],
          },
        },
        id: { type: "number" },
        status: { type: "string", enum: ["pending", "active", "completed"] },
      },
      required: ["action"],
    },
    async execute(_toolCallId, params: Params) {
      switch (params.action) {
        case "list":
          return { content: text(`${tasks.length} tasks`), details: { action: "list", tasks: tasks.map((task) => ({ ...task })) } };
        case "add": {
          const added = (params.tasks ?? []).map((input): Task => ({ id: nextId++, ...input, status: "pending" }));
          tasks = [...tasks, ...added];
          persist();
          return { content: text(`Added ${added.length} Tasks`), details: { action: "add", tasks: added } };
        }
        case "update": {
          const task = find(params.id);
          if (params.status) task.status = params.status;
          persist();
          return { content: text(`Updated Task #${task.id}`), details: { action: "update", task: { ...task } } };
        }
        case "remove": {
          const task = find(params.id);
          tasks = tasks.filter((candidate) => candidate !== task);
          persist();
          return { content: text(`Removed Task #${task.id}`), details: { action: "remove", id: task.id } };
        }
        case "clear": {
          const cleared = tasks.length;
          tasks = [];
          nextId = 1;
          persist();
          return { content: text(`Cleared ${cleared} Tasks`), details: { action: "clear", cleared } };
        }
        default:
          throw new Error(`Unknown action ${String(params.action)}`);
      }
    },
  });
}
