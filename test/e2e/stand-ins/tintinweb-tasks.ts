/**
 * Test-only pi extension persisting exactly @tintinweb/pi-tasks' shape (see docs/dev/todo-sources.md and the
 * `tintinweb-pi-tasks` fixtures): tools TaskCreate, TaskCreateMany, TaskGet, TaskList and TaskUpdate,
 * whose results carry text only (`details: undefined`). The list lives in the session's task file, where
 * the newest release writes it with the default `taskScope: "session"`:
 * `<agent dir>/tasks/sessions/--<cwd with / \ : as ->--/tasks-<sessionId>.json`, holding
 * `{ nextId, tasks: [{ id, subject, description, status, activeForm?, owner?, metadata, blocks, blockedBy,
 * createdAt, updatedAt }] }`, re-read before and written (temp file + rename) after every change.
 * `TaskUpdate` with `status: "deleted"` removes the task.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { text } from "./tool-types.ts";

type Status = "pending" | "in_progress" | "completed";
interface Task {
  id: string;
  subject: string;
  description: string;
  status: Status;
  activeForm?: string;
  owner?: string;
  metadata: Record<string, unknown>;
  blocks: string[];
  blockedBy: string[];
  createdAt: number;
  updatedAt: number;
}
interface Store {
  nextId: number;
  tasks: Task[];
}
interface Ctx {
  cwd: string;
  sessionManager: { getSessionId(): string };
}
interface ToolPi {
  registerTool(tool: {
    name: string;
    label: string;
    description: string;
    parameters: object;
    execute(toolCallId: string, params: never, signal: AbortSignal | undefined, onUpdate: unknown, ctx: Ctx): Promise<{ content: Array<{ type: "text"; text: string }>; details: undefined }>;
  }): void;
}
interface CreateInput {
  subject: string;
  description: string;
  activeForm?: string;
  status?: "pending" | "in_progress";
}

const STATUS = { type: "string", enum: ["pending", "in_progress", "completed", "deleted"] };
const CREATE = {
  type: "object",
  properties: { subject: { type: "string" }, description: { type: "string" }, activeForm: { type: "string" }, status: { type: "string", enum: ["pending", "in_progress"] } },
  required: ["subject", "description"],
};

/** The session's task file, as the newest release places it. */
export function taskFile(ctx: Ctx): string {
  const agentDir = process.env.PI_CODING_AGENT_DIR ?? join(homedir(), ".pi", "agent");
  const key = `--${resolve(ctx.cwd).split(/[/\\:]/).filter((part, index) => index > 0 || part !== "").join("-")}--`;
  return join(agentDir, "tasks", "sessions", key, `tasks-${ctx.sessionManager.getSessionId()}.json`);
}

function load(path: string): Store {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Store;
  } catch {
    return { nextId: 1, tasks: [] };
  }
}

function save(path: string, store: Store): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(store, null, 2));
  renameSync(`${path}.tmp`, path);
}

function result(message: string) {
  return { content: text(message), details: undefined };
}

export default function tintinwebTasks(pi: ToolPi): void {
  const create = (store: Store, input: CreateInput): Task => {
    const now = Date.now();
    const task: Task = {
      id: String(store.nextId++),
      subject: input.subject,
      description: input.description,
      status: input.status ?? "pending",
      activeForm: input.activeForm,
      owner: undefined,
      metadata: {},
      blocks: [],
      blockedBy: [],
      createdAt: now,
      updatedAt: now,
    };
    store.tasks.push(task);
    return task;
  };
  pi.registerTool({
    name: "TaskCreate",
    label: "TaskCreate",
    description: "Create a task.",
    parameters: CREATE,
    async execute(_id, params: CreateInput, _signal, _onUpdate, ctx) {
      const path = taskFile(ctx);
      const store = load(path);
      const task = create(store, params);
      save(path, store);
      return result(`Task #${task.id}: ${task.subject}\nStatus: ${task.status}`);
    },
  });
  pi.registerTool({
    name: "TaskCreateMany",
    label: "TaskCreateMany",
    description: "Create several tasks.",
    parameters: { type: "object", properties: { tasks: { type: "array", items: CREATE } }, required: ["tasks"] },
    async execute(_id, params: { tasks: CreateInput[] }, _signal, _onUpdate, ctx) {
      const path = taskFile(ctx);
      const store = load(path);
      const created = params.tasks.map((input) => create(store, input));
      save(path, store);
      return result(`Created ${created.length} task(s):\n${created.map((task) => `#${task.id}: ${task.subject}`).join("\n")}`);
    },
  });
  pi.registerTool({
    name: "TaskList",
    label: "TaskList",
    description: "List all tasks.",
    parameters: { type: "object", properties: {} },
    async execute(_id, _params: Record<string, never>, _signal, _onUpdate, ctx) {
      const store = load(taskFile(ctx));
      return result(store.tasks.length === 0 ? "No tasks found" : store.tasks.map((task) => `#${task.id} [${task.status}] ${task.subject}`).join("\n"));
    },
  });
  pi.registerTool({
    name: "TaskGet",
    label: "TaskGet",
    description: "Get one task.",
    parameters: { type: "object", properties: { taskId: { type: "string" } }, required: ["taskId"] },
    async execute(_id, params: { taskId: string }, _signal, _onUpdate, ctx) {
      const task = load(taskFile(ctx)).tasks.find((candidate) => candidate.id === params.taskId);
      return result(task ? `Task #${task.id}: ${task.subject}\nStatus: ${task.status}\nDescription: ${task.description}` : `Task #${params.taskId} not found`);
    },
  });
  pi.registerTool({
    name: "TaskUpdate",
    label: "TaskUpdate",
    description: "Update a task; status deleted removes it.",
    parameters: { type: "object", properties: { taskId: { type: "string" }, status: STATUS, subject: { type: "string" }, description: { type: "string" } }, required: ["taskId"] },
    async execute(_id, params: { taskId: string; status?: Status | "deleted"; subject?: string; description?: string }, _signal, _onUpdate, ctx) {
      const path = taskFile(ctx);
      const store = load(path);
      const task = store.tasks.find((candidate) => candidate.id === params.taskId);
      if (!task) return result(`Task #${params.taskId} not found`);
      if (params.status === "deleted") {
        store.tasks = store.tasks.filter((candidate) => candidate !== task);
        save(path, store);
        return result(`Updated task #${task.id} deleted`);
      }
      if (params.status) task.status = params.status;
      if (params.subject !== undefined) task.subject = params.subject;
      if (params.description !== undefined) task.description = params.description;
      task.updatedAt = Date.now();
      save(path, store);
      return result(`Updated task #${task.id} status`);
    },
  });
}
