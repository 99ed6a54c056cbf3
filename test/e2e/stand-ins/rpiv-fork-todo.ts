/**
 * Test-only pi extension: a fork of @juicesharp/rpiv-todo that adds statuses of its own (`failed`,
 * `blocked`), as forks do. Its results keep rpiv-todo's shape exactly — `details: { action, params,
 * tasks, nextId }`, the full list after every call — so a list without the new statuses reads as
 * rpiv-todo's, and one with them is a state pi-todo-loop cannot read.
 */
import { text } from "./tool-types.ts";
import type { ToolPi } from "./tool-types.ts";

interface Task {
  id: number;
  subject: string;
  status: string;
}

interface Params {
  action: "create" | "update";
  subject?: string;
  id?: number;
  status?: string;
}

export default function rpivForkTodo(pi: ToolPi): void {
  const tasks: Task[] = [];
  let nextId = 1;
  pi.registerTool({
    name: "todo",
    label: "Todo (rpiv fork)",
    description: "Creates a task or sets its status (pending, in_progress, completed, failed, blocked).",
    parameters: {
      type: "object",
      properties: {
        action: { type: "string", enum: ["create", "update"] },
        subject: { type: "string" },
        id: { type: "number" },
        status: { type: "string" },
      },
      required: ["action"],
      additionalProperties: false,
    },
    async execute(_toolCallId, params: Params) {
      if (params.action === "create") tasks.push({ id: nextId++, subject: params.subject ?? "", status: "pending" });
      const target = tasks.find((item) => item.id === params.id);
      if (params.action === "update" && target && params.status) target.status = params.status;
      return { content: text(`${tasks.length} tasks`), details: { action: params.action, params, tasks: tasks.map((item) => ({ ...item })), nextId } };
    },
  });
}
