/**
 * The sources together (src/sources/index.ts, SPEC §9): shape decides, never the tool name alone; each
 * adapter's contract over malformed items and foreign tools; one source's "I have no list" never hides
 * another's list.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { criogaidPiTodos, criogaidPiTodosTasks } from "../../src/sources/criogaid-pi-todos.ts";
import { ianPascoePiTodo } from "../../src/sources/ian-pascoe-pi-todo.ts";
import { SOURCES, sourceLabel, TODO_TOOL_NAMES } from "../../src/sources/index.ts";
import type { TodoList, TodoSource } from "../../src/sources/index.ts";
import type { SourceId } from "../../src/core/types.ts";
import { piExampleTodo } from "../../src/sources/pi-example-todo.ts";
import { quangthaiPiTodo } from "../../src/sources/quangthai-pi-todo.ts";
import { rpivTodo } from "../../src/sources/rpiv-todo.ts";
import { isRecord } from "../../src/core/record.ts";
import { readList, listState, readSnapshot, createBranchReader } from "../../src/state.ts";
import { criogaidResult, entriesOf, exampleResult, FIXTURES_DIR, ianState, quangthaiState, rpivDetails, rpivState, task, todoResult, toolResult, toolResultMessage, chain as chainEntries, customEntry, nestedCallsResult, user as humanMessage } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { createSession } from "../fake-pi.ts";
import { summary, classifyAny, messageOf, seenList, OPEN_LIST, NO_LIST } from "./reading.ts";

// ---- shape decides ----------------------------------------------------------------------------------

test("shape decides, not the tool name: three different `todo` tools are told apart", () => {
  const rpiv = todoResult({ tasks: [task({ id: 1, subject: "a" })] });
  const example = exampleResult([{ id: 1, text: "a", done: false }]);
  const criogaid = criogaidResult([{ content: "a", status: "pending" }]);
  const ian = toolResult("todo", { action: "add", task: { id: 1, title: "a", status: "pending" } });
  assert.equal(readList(rpiv)?.source, "rpiv-todo");
  assert.equal(readList(example)?.source, "pi-example-todo");
  assert.equal(readList(criogaid)?.source, "criogaid-pi-todos");
  assert.equal(readList(ian), undefined, "ian-pascoe's tool results are not its list");
  assert.equal(readList(ianState([{ id: 1, title: "a", status: "pending" }]))?.source, "ian-pascoe-pi-todo");
});

test("shape decides when classifying: the same action word means what each tool's shape says", () => {
  assert.equal(classifyAny(messageOf(todoResult({ tasks: [], action: "clear" }))), "clear");
  assert.equal(classifyAny(messageOf(exampleResult([], { action: "toggle", nextId: 1 }))), "complete");
  assert.equal(classifyAny(messageOf(criogaidResult([]))), "unlabelled");
  assert.equal(classifyAny(toolResultMessage("todo", { action: "remove", id: 3 })), "delete");
  assert.equal(classifyAny(toolResultMessage("bash", { exitCode: 0 })), undefined);
});

test("shape decides: in every fixture only the fixture's own tool's adapter reads any entry", () => {
  const owners: Record<string, readonly SourceId[]> = {
    "criogaid-pi-todos": ["criogaid-pi-todos", "criogaid-pi-todos-tasks"],
    "ian-pascoe-pi-todo": ["ian-pascoe-pi-todo"],
    "pi-example-todo": ["pi-example-todo"],
    "quangthai-pi-todo": ["quangthai-pi-todo"],
    "rpiv-todo": ["rpiv-todo"],
    "zhushanwen-pi-todo": ["zhushanwen-pi-todo"],
    "plan-mode": ["plan-mode"],
    // Its list is in a file, never on the branch.
    "tintinweb-pi-tasks": [],
    // Session files written by the first release of this extension (`.jsonl`, read by the e2e upgrade test).
    "first-release": ["rpiv-todo"],
    // Not todo state: the layer test's tree, a loud unit test for the quiet-tests check, and the payloads of work in flight.
    layers: [],
    quiet: [],
    work: [],
  };
  const root = FIXTURES_DIR;
  let read = 0;
  for (const dir of readdirSync(root)) {
    const allowed = owners[dir];
    assert.ok(allowed, `an owner for fixtures/${dir}`);
    for (const file of readdirSync(join(root, dir)).filter((name) => name.endsWith(".json"))) {
      for (const entry of entriesOf(JSON.parse(readFileSync(join(root, dir, file), "utf8")))) {
        for (const source of SOURCES) {
          const list = source.read(entry);
          if (!list) continue;
          read += 1;
          assert.ok(allowed.includes(source.id), `${source.id} read an entry of ${dir}/${file}`);
        }
      }
    }
  }
  assert.ok(read > 0);
});

test("adapters never throw on junk entries", () => {
  const junk: Entry[] = [
    { type: "custom", customType: "plan-mode", data: { enabled: "yes", todos: [{ step: "1" }] } },
    { type: "custom", customType: "pi-todos-snapshot", data: { version: 1, toolCallId: 5, todos: null } },
    { type: "message", message: { role: "toolResult", toolName: "codemode", details: {}, nestedCalls: { calls: [null, { name: "todo", status: "ok", arguments: "{" }], complete: true } } },
    { type: "message" },
    { type: "message", message: { role: "toolResult", toolName: "todo", details: { tasks: [null], todos: [1], nextId: 1 } } },
    { type: "custom", customType: "pi-todo-state", data: null },
    { type: "custom", customType: "pi-todo.state", data: "x" },
    { type: "custom", customType: "pi-todos-tasks", data: { version: 1, tasks: {} } },
    { type: "custom", customType: "rpiv-todo-state", data: { tasks: [{ id: {}, subject: 1, status: [] }], nextId: 1 } },
  ];
  for (const source of SOURCES) {
    for (const entry of junk) {
      assert.doesNotThrow(() => source.read(entry));
      assert.equal(source.read(entry), undefined, `${source.id} on ${JSON.stringify(entry)}`);
      const message = entry.message;
      assert.doesNotThrow(() => source.classify(isRecord(message) ? message : {}));
    }
  }
});

test("the known todo tool names cover every source's tools", () => {
  for (const name of ["todo", "todo_write", "todo_update", "todo_read", "todowrite", "todoread", "TaskCreate", "TaskCreateMany", "TaskUpdate", "TaskGet", "TaskList"]) {
    assert.ok(TODO_TOOL_NAMES.has(name), name);
  }
  assert.equal(TODO_TOOL_NAMES.has("todo_loop_block"), false);
});

test("sourceLabel names each source for /todoloop", () => {
  assert.equal(sourceLabel("rpiv-todo"), "rpiv-todo");
  assert.equal(sourceLabel("ian-pascoe-pi-todo"), "@ian-pascoe/pi-todo");
  assert.equal(sourceLabel("quangthai-pi-todo"), "@nguyenquangthai/pi-todo");
  for (const source of SOURCES) assert.ok(sourceLabel(source.id).length > 0);
});

// ---- adapter contracts: malformed items, foreign tools, what each source declares -------------------

interface ItemShape {
  readonly name: string;
  readonly source: TodoSource;
  /** The entry that persists a list of these raw items. */
  readonly entry: (items: unknown[]) => Entry;
  /** One well-formed item. */
  readonly valid: Record<string, unknown>;
  /** Per field, values the tool's own decoder rejects (undefined: the field is missing). */
  readonly bad: Record<string, readonly unknown[]>;
}

const BAD_ID: readonly unknown[] = [undefined, null, true, {}, [], Number.NaN, Number.POSITIVE_INFINITY];
const BAD_TEXT: readonly unknown[] = [undefined, null, 5, {}, []];

const ITEM_SHAPES: readonly ItemShape[] = [
  {
    name: "rpiv-todo result",
    source: rpivTodo,
    entry: (items) => toolResult("todo", { action: "create", params: {}, tasks: items, nextId: 9 }),
    valid: { id: 1, subject: "Write tests", status: "pending" },
    bad: { id: BAD_ID, subject: BAD_TEXT, status: [undefined, null, 3, "done", "Pending"] },
  },
  {
    name: "rpiv-todo state entry",
    source: rpivTodo,
    entry: (items) => customEntry("rpiv-todo-state", { tasks: items, nextId: 9 }),
    valid: { id: 1, subject: "Write tests", status: "in_progress" },
    bad: { id: BAD_ID, subject: BAD_TEXT, status: [undefined, 3, "open"] },
  },
  {
    name: "@ian-pascoe/pi-todo state entry",
    source: ianPascoePiTodo,
    entry: (items) => customEntry("pi-todo-state", { nextId: 9, tasks: items }),
    valid: { id: 1, title: "Write tests", status: "active" },
    bad: { id: BAD_ID, title: BAD_TEXT, status: [undefined, null, 3, "in_progress", "done"] },
  },
  {
    name: "pi example todo result",
    source: piExampleTodo,
    entry: (items) => toolResult("todo", { action: "add", todos: items, nextId: 9 }),
    valid: { id: 1, text: "Write tests", done: false },
    bad: { id: BAD_ID, text: BAD_TEXT, done: [undefined, null, "false", 0] },
  },
  {
    name: "@nguyenquangthai/pi-todo state entry",
    source: quangthaiPiTodo,
    entry: (items) => customEntry("pi-todo.state", { todos: items }),
    valid: { id: "a", content: "Write tests", status: "pending", priority: "high" },
    bad: { id: BAD_ID.filter((value) => value !== undefined), content: BAD_TEXT, status: [undefined, 3, "done"], priority: [null, 1, {}] },
  },
  {
    name: "Criogaid/pi-todos 0.1 todo result",
    source: criogaidPiTodos,
    entry: (items) => toolResult("todo", { todos: items }),
    valid: { content: "Write tests", status: "pending", activeForm: "Writing tests" },
    bad: { content: [...BAD_TEXT, "  "], status: [undefined, 3, "deleted"], activeForm: [null, 5, {}] },
  },
  {
    name: "Criogaid/pi-todos tasks state entry",
    source: criogaidPiTodosTasks,
    entry: (items) => customEntry("pi-todos-tasks", { version: 1, tasks: items, highWaterMark: 9 }),
    valid: { id: "9", subject: "Write tests", description: "", status: "in_progress", owner: "agent", blocks: ["1"], blockedBy: [] },
    bad: {
      id: [undefined, 9, "09", "0", "9a", "a9", "10"],
      subject: BAD_TEXT,
      description: [undefined, 5],
      status: [undefined, 3, "deleted"],
      activeForm: [null, 5],
      owner: [null, 5],
      blocks: [undefined, [1], "1"],
      blockedBy: [[null]],
      metadata: [null, 5, "x"],
    },
  },
  {
    name: "@nguyenquangthai/pi-todo write result",
    source: quangthaiPiTodo,
    entry: (items) => toolResult("todo_write", { todos: items }),
    valid: { content: "Write tests", status: "in_progress" },
    bad: { id: [null, {}, Number.NaN], content: BAD_TEXT, status: [undefined, 3, "active"], priority: [false, 2] },
  },
];

test("adapters: every malformed field of an item (wrong type, missing, unknown status, invalid id) makes that state unreadable", () => {
  for (const shape of ITEM_SHAPES) {
    assert.equal(shape.source.read(shape.entry([shape.valid]))?.tasks.length, 1, `${shape.name}: the well-formed item reads`);
    for (const [field, values] of Object.entries(shape.bad)) {
      for (const value of values) {
        const item: Record<string, unknown> = { ...shape.valid };
        if (value === undefined) delete item[field];
        else item[field] = value;
        assert.equal(shape.source.read(shape.entry([item])), undefined, `${shape.name}: ${field} = ${String(value)}`);
      }
    }
  }
});

test("adapters: a null or non-object item makes that state unreadable, never a throw", () => {
  for (const shape of ITEM_SHAPES) {
    for (const item of [null, 7, "task", [shape.valid]]) {
      assert.equal(shape.source.read(shape.entry([item])), undefined, `${shape.name}: ${JSON.stringify(item)}`);
    }
  }
});

test("adapters: an item's id may be a string or a finite number; both read as text", () => {
  assert.deepEqual(summary(rpivTodo.read(toolResult("todo", { tasks: [{ id: "t-1", subject: "a", status: "pending" }, { id: 2, subject: "b", status: "completed" }], nextId: 3 }))), [
    ["t-1", "a", true],
    ["2", "b", false],
  ]);
  assert.deepEqual(summary(ianPascoePiTodo.read(customEntry("pi-todo-state", { nextId: 3, tasks: [{ id: "x", title: "a", status: "pending" }] }))), [["x", "a", true]]);
  assert.deepEqual(summary(piExampleTodo.read(toolResult("todo", { todos: [{ id: "7", text: "a", done: true }], nextId: 8 }))), [["7", "a", false]]);
});

test("classify: another tool's name, or a shape the adapter does not read, is not that adapter's call", () => {
  const rpiv = rpivDetails({ tasks: [task({ id: 1, status: "completed" })], action: "update", params: { action: "update", id: 1, status: "completed" } });
  assert.equal(rpivTodo.classify(toolResultMessage("todo", rpiv)), "complete");
  assert.equal(rpivTodo.classify(toolResultMessage("tasks", rpiv)), undefined);
  assert.equal(rpivTodo.classify(toolResultMessage("todo", { ...rpiv, nextId: "2" })), undefined);
  const example = { action: "toggle", todos: [{ id: 1, text: "a", done: true }], nextId: 2 };
  assert.equal(piExampleTodo.classify(toolResultMessage("todo", example)), "complete");
  assert.equal(piExampleTodo.classify(toolResultMessage("todos", example)), undefined);
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_write", { todos: [] })), "unlabelled");
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_write", { written: 3 })), undefined);
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_write", { todos: [{ content: 1, status: "pending" }] })), undefined);
  assert.equal(quangthaiPiTodo.classify(toolResultMessage("todo_read", { todos: [] })), undefined);
});

test("sources: the list names the tool that keeps it, for the nudge and the reach check", () => {
  const cases: Array<[Entry, string]> = [
    [todoResult({ tasks: [task({ id: 1 })] }), "todo"],
    [ianState([{ id: 1, title: "a", status: "pending" }]), "todo"],
    [exampleResult([{ id: 1, text: "a", done: false }]), "todo"],
    [quangthaiState([{ content: "a", status: "pending" }]), "todo_write"],
  ];
  for (const [entry, tool] of cases) {
    const state = seenList(entry);
    assert.equal(state.kind === "list" ? state.tool : state.kind, tool, JSON.stringify(entry));
  }
});

test("sources: a state entry of the source's own type that cannot be read leaves its list out of date", () => {
  const cases: Array<[string, Entry, Entry]> = [
    ["rpiv-todo", rpivState([task({ id: 1 })]), customEntry("rpiv-todo-state", { tasks: [{ id: 1, subject: "a", status: "blocked" }], nextId: 2 })],
    ["ian-pascoe", ianState([{ id: 1, title: "a", status: "pending" }]), customEntry("pi-todo-state", { nextId: 2, tasks: [{ id: 1, title: "a", status: "blocked" }] })],
    ["quangthai", quangthaiState([{ content: "a", status: "pending" }]), customEntry("pi-todo.state", { todos: [{ content: "a", status: "blocked" }] })],
  ];
  for (const [name, readable, unreadable] of cases) {
    assert.equal(seenList(readable).kind, "list", name);
    assert.deepEqual(seenList(readable, unreadable), { kind: "out-of-date", why: "unreadable", open: 1, source: readList(readable)?.source }, name);
  }
});

test("sources: a successful result of pi's example todo that cannot be read leaves its list out of date (its results carry the list)", () => {
  const unreadable = toolResult("todo", { action: "add", nextId: 3 });
  assert.equal(readList(unreadable), undefined);
  assert.deepEqual(seenList(exampleResult([{ id: 1, text: "a", done: false }]), unreadable), { kind: "out-of-date", why: "unreadable", open: 1, source: "pi-example-todo" });
});

test("sources: a codemode script that called the list's own tool leaves a list kept in tool results out of date", () => {
  const script = nestedCallsResult([{ name: "todo", status: "ok", arguments: { action: "toggle", id: 1 } }]);
  assert.equal(seenList(exampleResult([{ id: 1, text: "a", done: false }]), script).kind, "out-of-date");
  assert.equal(seenList(todoResult({ tasks: [task({ id: 1 })] }), script).kind, "out-of-date");
});

test("sources: lists kept in custom entries are never made out of date by a codemode script or by their tools' results", () => {
  const quangthai = quangthaiState([{ content: "a", status: "pending" }]);
  const ian = ianState([{ id: 1, title: "a", status: "pending" }]);
  assert.equal(seenList(quangthai, nestedCallsResult([{ name: "todo_write", status: "ok", arguments: { todos: [] } }])).kind, "list");
  assert.equal(seenList(quangthai, toolResult("todo_write", { written: 0 })).kind, "list");
  assert.equal(seenList(ian, nestedCallsResult([{ name: "todo", status: "ok", arguments: { action: "clear" } }])).kind, "list");
  assert.equal(seenList(ian, toolResult("todo", { action: "update", task: { id: 1 } })).kind, "list");
});

test("sources: every source is found by its id, and /todoloop names it by its label", () => {
  const labels: Array<[SourceId, string]> = [
    ["rpiv-todo", "rpiv-todo"],
    ["ian-pascoe-pi-todo", "@ian-pascoe/pi-todo"],
    ["pi-example-todo", "pi example todo"],
    ["quangthai-pi-todo", "@nguyenquangthai/pi-todo"],
    ["criogaid-pi-todos", "pi-todos 0.1"],
    ["criogaid-pi-todos-tasks", "pi-todos tasks"],
    ["tintinweb-pi-tasks", "@tintinweb/pi-tasks"],
    ["plan-mode", "pi plan-mode"],
  ];
  for (const [id, label] of labels) assert.equal(sourceLabel(id), label, id);
});

// ---- "I have no list" never hides another source's list (SPEC 0.3 §9) ------------------------------

/** Every interleaving of `a` and `b` that keeps the order within each. */
function interleavings<T>(a: readonly T[], b: readonly T[]): T[][] {
  if (a.length === 0) return [[...b]];
  if (b.length === 0) return [[...a]];
  const [headA, ...restA] = a as [T, ...T[]];
  const [headB, ...restB] = b as [T, ...T[]];
  return [...interleavings(restA, b).map((rest) => [headA, ...rest]), ...interleavings(a, restB).map((rest) => [headB, ...rest])];
}

/** The list a branch reads as, by a full read and entry by entry through the incremental reader (they must agree). */
function readBoth(entries: Entry[]): TodoList | undefined {
  const branch = chainEntries(...entries);
  const full = readSnapshot(branch).list;
  const session = createSession<Entry>([], "pairs");
  const reader = createBranchReader();
  for (const entry of branch) {
    session.append(entry);
    reader.read(session);
  }
  assert.deepEqual(reader.read(session).snapshot.list, full, "incremental and full reads agree");
  return full;
}

test("sources: every source that keeps its list on the branch has an open-list sample, every source that can say it holds no list has its no-list states", () => {
  for (const source of SOURCES) {
    if (source.id !== "tintinweb-pi-tasks") assert.ok(OPEN_LIST.has(source.id), source.id);
    assert.equal(NO_LIST.has(source.id), source.saysNoList === true, source.id);
  }
  for (const [id, make] of OPEN_LIST) assert.equal(readList(make())?.source, id);
  for (const [id, states] of NO_LIST) for (const make of states.none) assert.equal(readList(make())?.none, true, id);
});

test("property: a source's 'I have no list' never hides another source's list, over every pair of sources and every order of their entries, the human message anywhere", () => {
  let cases = 0;
  type Step = { readonly make: () => Entry; readonly role: "none" | "quiet" | "other" };
  for (const [quiet, states] of NO_LIST) {
    const none = (index: number): Step => ({ make: states.none[index] as () => Entry, role: "none" });
    const state = (index: number): Step => ({ make: states.others[index] as () => Entry, role: "quiet" });
    for (const [other, makeList] of OPEN_LIST) {
      if (other === quiet) continue;
      // The quiet source's own history (its other states, then "no list"), interleaved with the other source's list.
      for (const own of [[none(0)], [state(0), none(0)], [state(1), none(1)], [none(1), state(0), none(0)]]) {
        for (const order of interleavings<Step>(own, [{ make: makeList, role: "other" }])) {
          for (let at = 0; at <= order.length; at++) {
            const entries = order.map((step) => step.make());
            entries.splice(at, 0, humanMessage("go"));
            const list = readBoth(entries);
            const roles = order.map((step) => step.role);
            // The other source's list shows unless a state of the quiet source that is not "no list" is newer still.
            const expected = roles.lastIndexOf("quiet") > Math.max(roles.indexOf("other"), roles.lastIndexOf("none")) ? quiet : other;
            assert.equal(list?.source, expected, `${quiet} / ${other}: ${roles.join(", ")}, human message at ${at}`);
            if (expected === other) assert.equal(listState(readSnapshot(chainEntries(...entries)), true).kind, "list");
            cases++;
          }
        }
      }
    }
  }
  assert.ok(cases > 100, `${cases} cases`);
});
