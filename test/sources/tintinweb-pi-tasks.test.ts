/**
 * @tintinweb/pi-tasks (src/sources/tintinweb-pi-tasks.ts, src/io/tasks-file.ts): the task file as the
 * list, where it is found (scope, PI_TASKS, older locations) and what is unreadable.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseTasksFile as exportedParseTasksFile } from "../../src/sources/index.ts";
import { parseTasksFile, tintinwebPiTasks } from "../../src/sources/tintinweb-pi-tasks.ts";
import { projectKey, readTasksFile as readTasksText, tasksFileCandidates } from "../../src/io/tasks-file.ts";
import type { TasksFileWhere } from "../../src/io/tasks-file.ts";
import { entriesOf, FIXTURES_DIR, toolResultMessage } from "../builders.ts";
import type { Message } from "../builders.ts";
import { summary, classifyAny } from "./reading.ts";

const readTasksFile = (where: TasksFileWhere) => readTasksText(where, parseTasksFile);

// ---- @tintinweb/pi-tasks ----------------------------------------------------------------------------

const TINTIN_FIXTURE = join(FIXTURES_DIR, "tintinweb-pi-tasks", "port-open-tasks.tasks-file");

test("tintinweb: a task file of {nextId, tasks} is the list; pending and in_progress are open, completed and skipped closed", () => {
  const parsed = parseTasksFile(readFileSync(TINTIN_FIXTURE, "utf8"));
  assert.notEqual(parsed, "unreadable");
  assert.ok(parsed !== "unreadable");
  assert.equal(parsed.source, "tintinweb-pi-tasks");
  assert.equal(parsed.tool, "TaskUpdate");
  assert.deepEqual(summary(parsed), [
    ["1", "Write the parser", false],
    ["2", "Write the tests", true],
  ]);
  const statuses = parseTasksFile(JSON.stringify({ nextId: 5, tasks: ["pending", "in_progress", "completed", "skipped"].map((status, index) => ({ id: String(index + 1), subject: status, status })) }));
  assert.ok(statuses !== "unreadable");
  assert.deepEqual(statuses.tasks.map((item) => item.open), [true, true, false, false]);
});

test("tintinweb: a file from before dependencies and metadata (no blocks, blockedBy, metadata) still reads", () => {
  const parsed = parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", description: "d", status: "pending" }] }));
  assert.ok(parsed !== "unreadable");
  assert.deepEqual(summary(parsed), [["1", "a", true]]);
  const empty = parseTasksFile(JSON.stringify({ nextId: 1, tasks: [] }));
  assert.ok(empty !== "unreadable");
  assert.deepEqual(empty.tasks, []);
});

test("tintinweb: a file that is not a task list, or has a malformed task, is unreadable (never throws)", () => {
  const bad = [
    "",
    "{",
    "[]",
    "null",
    JSON.stringify({ nextId: 2 }),
    JSON.stringify({ nextId: "2", tasks: [] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: 5, status: "pending" }] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "pending", metadata: [] }] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "pending", blocks: [2] }] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "pending", description: 1 }] }),
    JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "a", status: "pending", updatedAt: "now" }] }),
    JSON.stringify({ nextId: 2, tasks: [null] }),
  ];
  for (const text of bad) assert.equal(parseTasksFile(text), "unreadable", text);
});

test("tintinweb: projectKey names a workspace the way pi names it for its own session logs", () => {
  assert.equal(projectKey("/Users/me/work/repo"), "--Users-me-work-repo--");
  assert.notEqual(projectKey("/Users/me/a"), projectKey("/Users/me/b"));
});

interface TasksDirs extends TasksFileWhere {
  root: string;
  home: string;
  put(path: string, text: string): void;
  cleanup(): void;
}

function tasksDirs(env: Record<string, string | undefined> = {}): TasksDirs {
  const root = mkdtempSync(join(tmpdir(), "todo-loop-tasks-"));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const cwd = join(root, "work");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return {
    root,
    home,
    cwd,
    agentDir,
    sessionId: "s1",
    env: { HOME: home, ...env },
    put(path: string, text: string) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

const ONE_OPEN = JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "new", status: "pending" }] });
const ONE_DONE = JSON.stringify({ nextId: 2, tasks: [{ id: "1", subject: "old", status: "completed" }] });

function texts(found: ReturnType<typeof readTasksFile>): string[] | "unreadable" | undefined {
  if (!found) return undefined;
  return found.list === "unreadable" ? "unreadable" : found.list.tasks.map((item) => item.text);
}

test("tintinweb: the session's file is read from the newest location first, then from the 0.7 one in the workspace", () => {
  const dirs = tasksDirs();
  try {
    const newest = join(dirs.agentDir, "tasks", "sessions", projectKey(dirs.cwd), "tasks-s1.json");
    const legacy = join(dirs.cwd, ".pi", "tasks", "tasks-s1.json");
    assert.equal(readTasksFile(dirs), undefined, "no file: no list");
    dirs.put(legacy, ONE_DONE);
    assert.deepEqual(texts(readTasksFile(dirs)), ["old"]);
    assert.equal(readTasksFile(dirs)?.path, legacy);
    dirs.put(newest, ONE_OPEN);
    assert.deepEqual(texts(readTasksFile(dirs)), ["new"], "the newest location wins, as the tool's migration keeps it");
    assert.equal(readTasksFile(dirs)?.path, newest);
    assert.deepEqual(texts(readTasksFile({ ...dirs, sessionId: "s2" })), undefined, "another session's file is not this one's");
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: taskScope from the global config, overridden by the project's: memory has no file, project shares .pi/tasks/tasks.json", () => {
  const dirs = tasksDirs();
  try {
    dirs.put(join(dirs.cwd, ".pi", "tasks", "tasks.json"), ONE_OPEN);
    dirs.put(join(dirs.cwd, ".pi", "tasks", "tasks-s1.json"), ONE_DONE);
    dirs.put(join(dirs.agentDir, "tasks-config.json"), JSON.stringify({ taskScope: "project" }));
    assert.deepEqual(texts(readTasksFile(dirs)), ["new"]);
    dirs.put(join(dirs.cwd, ".pi", "tasks-config.json"), JSON.stringify({ taskScope: "memory", sortOrder: "id" }));
    assert.equal(readTasksFile(dirs), undefined);
    dirs.put(join(dirs.cwd, ".pi", "tasks-config.json"), JSON.stringify({ taskScope: "session" }));
    assert.deepEqual(texts(readTasksFile(dirs)), ["old"]);
    dirs.put(join(dirs.cwd, ".pi", "tasks-config.json"), "{ not json");
    assert.deepEqual(texts(readTasksFile(dirs)), ["new"], "a broken project config falls back to the global one");
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: PI_TASKS names the list: off, an absolute or workspace-relative path, or a shared list by name", () => {
  const dirs = tasksDirs();
  try {
    const shared = join(dirs.agentDir, "tasks", "sprint-1.json");
    const legacyShared = join(dirs.home, ".pi", "tasks", "sprint-1.json");
    const absolute = join(dirs.root, "lists", "mine.json");
    dirs.put(join(dirs.agentDir, "tasks", "sessions", projectKey(dirs.cwd), "tasks-s1.json"), ONE_OPEN);
    assert.equal(readTasksFile({ ...dirs, env: { ...dirs.env, PI_TASKS: "off" } }), undefined);
    dirs.put(absolute, ONE_OPEN);
    assert.equal(readTasksFile({ ...dirs, env: { ...dirs.env, PI_TASKS: absolute } })?.path, absolute);
    dirs.put(join(dirs.cwd, "custom", "list.json"), ONE_DONE);
    assert.deepEqual(texts(readTasksFile({ ...dirs, env: { ...dirs.env, PI_TASKS: "./custom/list.json" } })), ["old"]);
    const named = { ...dirs, env: { ...dirs.env, PI_TASKS: "sprint-1" } };
    assert.equal(readTasksFile(named), undefined);
    dirs.put(legacyShared, ONE_DONE);
    assert.equal(readTasksFile(named)?.path, legacyShared, "a list kept at the old ~/.pi/tasks is still read there");
    dirs.put(shared, ONE_OPEN);
    assert.equal(readTasksFile(named)?.path, shared);
    assert.deepEqual(tasksFileCandidates({ ...dirs, sessionId: "" }), [], "no session id: in memory");
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: an unreadable task file is reported as unreadable with its path; reading never writes", () => {
  const dirs = tasksDirs();
  try {
    const file = join(dirs.agentDir, "tasks", "sessions", projectKey(dirs.cwd), "tasks-s1.json");
    dirs.put(file, '{"nextId": 2, "tasks": [{"id": "1", "subject": "a", "status": "blocked"}]}');
    const tree = () => readdirSync(dirs.root, { recursive: true }).map(String).sort();
    const before = tree();
    assert.deepEqual(readTasksFile(dirs), { list: "unreadable", path: file });
    assert.deepEqual(tree(), before, "nothing created, moved or removed");
    rmSync(file);
    mkdirSync(file);
    assert.deepEqual(readTasksFile(dirs)?.list, "unreadable", "a directory where the file should be is no list");
  } finally {
    dirs.cleanup();
  }
  assert.equal(exportedParseTasksFile, parseTasksFile, "exported from sources/index.ts");
});

test("tintinweb: nothing on the branch is its list; its results (no details) are unlabelled, Criogaid's (with details) are not its", () => {
  const branch = entriesOf(JSON.parse(readFileSync(join(FIXTURES_DIR, "tintinweb-pi-tasks", "port-open-tasks.branch.json"), "utf8")));
  for (const entry of branch) assert.equal(tintinwebPiTasks.read(entry), undefined);
  const noDetails: Message = { role: "toolResult", toolName: "TaskUpdate", content: [{ type: "text", text: "Updated task #1 status" }], isError: false };
  assert.equal(tintinwebPiTasks.classify(noDetails), "unlabelled");
  assert.equal(tintinwebPiTasks.classify({ ...noDetails, isError: true, details: {} }), undefined);
  assert.equal(tintinwebPiTasks.classify(toolResultMessage("TaskUpdate", { success: true, taskId: "1", updatedFields: [] })), undefined);
  assert.equal(classifyAny(toolResultMessage("TaskUpdate", { success: true, taskId: "1", updatedFields: ["status"], statusChange: { from: "pending", to: "completed" } })), "complete");
  assert.equal(classifyAny(noDetails), "unlabelled");
  assert.deepEqual(tintinwebPiTasks.toolNames, ["TaskCreate", "TaskCreateMany", "TaskGet", "TaskList", "TaskUpdate"]);
  assert.equal(tintinwebPiTasks.resultsCarryList, false);
});

// ---- malformed input, foreign tools, what it declares -----------------------------------------------

test("tintinweb: optional task fields of the right type read; a missing nextId is allowed; ids must be ids", () => {
  const full = { id: 3, subject: "a", description: "d", status: "pending", activeForm: "doing a", owner: "agent-1", blocks: ["1"], blockedBy: [], metadata: {}, createdAt: 1, updatedAt: 2 };
  const parsed = parseTasksFile(JSON.stringify({ nextId: 4, tasks: [full] }));
  assert.ok(parsed !== "unreadable");
  assert.deepEqual(summary(parsed), [["3", "a", true]]);
  const noNextId = parseTasksFile(JSON.stringify({ tasks: [full] }));
  assert.ok(noNextId !== "unreadable");
  assert.equal(noNextId.tasks.length, 1);
  for (const id of [null, true, {}]) assert.equal(parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ ...full, id }] })), "unreadable", String(id));
  assert.equal(parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ ...full, id: undefined }] })), "unreadable", "no id");
  assert.equal(parseTasksFile(JSON.stringify({ nextId: 2, tasks: [{ ...full, blockedBy: ["1", 2] }] })), "unreadable", "a non-id in blockedBy");
});

test("tintinweb: PI_TASKS=off and taskScope memory mean no file at all; an empty PI_TASKS is as if unset", () => {
  const dirs = tasksDirs();
  try {
    assert.deepEqual(tasksFileCandidates({ ...dirs, env: { ...dirs.env, PI_TASKS: "off" } }), []);
    const unset = tasksFileCandidates(dirs);
    assert.equal(unset.length, 2);
    assert.deepEqual(tasksFileCandidates({ ...dirs, env: { ...dirs.env, PI_TASKS: "" } }), unset);
    dirs.put(join(dirs.cwd, ".pi", "tasks-config.json"), JSON.stringify({ taskScope: "memory" }));
    assert.deepEqual(tasksFileCandidates(dirs), []);
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: a location whose folder is a file is skipped for the next one", () => {
  const dirs = tasksDirs();
  try {
    dirs.put(join(dirs.agentDir, "tasks"), "not a folder");
    const legacy = join(dirs.cwd, ".pi", "tasks", "tasks-s1.json");
    dirs.put(legacy, ONE_OPEN);
    assert.equal(readTasksFile(dirs)?.path, legacy);
  } finally {
    dirs.cleanup();
  }
});

test("tintinweb: a result with empty details is as unlabelled as one with none", () => {
  assert.equal(tintinwebPiTasks.classify(toolResultMessage("TaskList", {})), "unlabelled");
  assert.equal(tintinwebPiTasks.classify(toolResultMessage("bash", {})), undefined);
});
