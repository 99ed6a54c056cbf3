/**
 * The branch reader (SPEC §9): every shared fixture, the rules for which entry wins, the anchor, the
 * spend and the loop's own footprints since it, the no-list reasons, and junk that must never throw.
 */
import { TOOL_TABLE } from "../src/sources/index.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createBranchReader,
  EMPTY_SNAPSHOT,
  extendSnapshot,
  listState,
  openCount,
  readList,
  readSnapshot,
  sessionPaused,
  signature,
  vanishedTasks,
} from "../src/state.ts";
import type { Snapshot } from "../src/state.ts";
import type { SourceId } from "../src/core/types.ts";
import type { TodoList } from "../src/sources/index.ts";
import { MAX_READ_KEYS } from "../src/core/reply.ts";
import { canonicalJson, hashText } from "../src/core/fingerprint.ts";
import {
  assistant,
  assistantCalls,
  blockResult,
  callResult,
  called,
  chain,
  control,
  customMessage,
  entriesOf,
  marker,
  nestedCallsResult,
  markerDetails,
  rpivClear,
  rpivState,
  stopRecord,
  task,
  todoResult,
  toolResult,
  user,
  FIXTURES_DIR,
} from "./builders.ts";
import type { Entry } from "./builders.ts";
import { createSession } from "./fake-pi.ts";

const FIXTURES = FIXTURES_DIR;

function fixture(name: string): Entry[] {
  return entriesOf(JSON.parse(readFileSync(join(FIXTURES, name), "utf8")));
}

function allFixtures(): string[] {
  return readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".json"))
    .sort();
}

/** Any value passed where the reader expects an array: the reader must cope with what pi never promised. */
function junk(value: unknown): readonly unknown[] {
  return value as readonly unknown[];
}

function texts(list: TodoList | undefined): string[] {
  return (list?.tasks ?? []).map((item) => item.text);
}

function openTexts(list: TodoList | undefined): string[] {
  return (list?.tasks ?? []).filter((item) => item.open).map((item) => item.text);
}

/** Tokens and dollars of assistant messages after the newest user message, summed independently of the reader. */
function spendSinceLastUser(entries: readonly Entry[]): { tokens: number; cost: number } {
  let tokens = 0;
  let cost = 0;
  for (const entry of entries) {
    const message = entry.message;
    if (typeof message !== "object" || message === null) continue;
    const role = (message as { role?: unknown }).role;
    if (role === "user") {
      tokens = 0;
      cost = 0;
    } else if (role === "assistant") {
      const spent = (message as { usage?: { totalTokens?: number; cost?: { total?: number } } }).usage;
      tokens += spent?.totalTokens ?? 0;
      cost += spent?.cost?.total ?? 0;
    }
  }
  return { tokens, cost };
}

interface FixtureExpect {
  readonly file: string;
  readonly source: SourceId;
  readonly tool: string;
  /** Open task texts, or "emptied" for a cleared / emptied list. */
  readonly open: readonly string[] | "emptied";
  readonly total: number;
  readonly anchor: string;
}

const FIXTURE_TABLE: readonly FixtureExpect[] = [
  {
    file: "criogaid-pi-todos/synthetic-0.1.0-todo-tool-cleared.branch.json",
    source: "criogaid-pi-todos",
    tool: "todo",
    open: "emptied",
    total: 0,
    anchor: "c30001",
  },
  {
    file: "criogaid-pi-todos/synthetic-0.1.0-todo-tool-open.branch.json",
    source: "criogaid-pi-todos",
    tool: "todo",
    open: ["Patch the session check", "Run the test suite"],
    total: 3,
    anchor: "c30001",
  },
  {
    file: "criogaid-pi-todos/synthetic-unreleased-task-tools-cleared.branch.json",
    source: "criogaid-pi-todos-tasks",
    tool: "TaskUpdate",
    open: "emptied",
    total: 0,
    anchor: "d4001a",
  },
  {
    file: "criogaid-pi-todos/synthetic-unreleased-task-tools-open.branch.json",
    source: "criogaid-pi-todos-tasks",
    tool: "TaskUpdate",
    open: ["Reproduce the bug", "Patch the session check"],
    total: 2,
    anchor: "d40001",
  },
  { file: "ian-pascoe-pi-todo/port-cleared.branch.json", source: "ian-pascoe-pi-todo", tool: "todo", open: "emptied", total: 0, anchor: "51affdb3" },
  { file: "ian-pascoe-pi-todo/port-open-tasks.branch.json", source: "ian-pascoe-pi-todo", tool: "todo", open: ["Write tests"], total: 2, anchor: "51affdb3" },
  { file: "pi-example-todo/harness-cleared.branch.json", source: "pi-example-todo", tool: "todo", open: "emptied", total: 0, anchor: "d4308557" },
  {
    file: "pi-example-todo/harness-live-getBranch-aliased.branch.json",
    source: "pi-example-todo",
    tool: "todo",
    open: "emptied",
    total: 0,
    anchor: "d4308557",
  },
  {
    file: "pi-example-todo/harness-open-tasks.branch.json",
    source: "pi-example-todo",
    tool: "todo",
    open: ["Write tests", "Update docs"],
    total: 3,
    anchor: "d4308557",
  },
  { file: "quangthai-pi-todo/synthetic-cleared.branch.json", source: "quangthai-pi-todo", tool: "todo_write", open: "emptied", total: 0, anchor: "e50001" },
  {
    file: "quangthai-pi-todo/synthetic-open.branch.json",
    source: "quangthai-pi-todo",
    tool: "todo_write",
    open: ["Introduce CacheStore interface", "Update README"],
    total: 3,
    anchor: "e50001",
  },
  { file: "rpiv-todo/harness-cleared.branch.json", source: "rpiv-todo", tool: "todo", open: "emptied", total: 0, anchor: "66f802b9" },
  { file: "rpiv-todo/harness-open-tasks.branch.json", source: "rpiv-todo", tool: "todo", open: ["Write tests"], total: 2, anchor: "66f802b9" },
  { file: "rpiv-todo/synthetic-juicesharp-360b5de9-clear-marker.branch.json", source: "rpiv-todo", tool: "todo", open: "emptied", total: 0, anchor: "b20001" },
  { file: "rpiv-todo/synthetic-nredd-2.12.0-plan-state.branch.json", source: "rpiv-todo", tool: "todo", open: ["npm test passes"], total: 3, anchor: "a10001" },
  {
    file: "criogaid-pi-todos/synthetic-task-tools-agent-start-clear.branch.json",
    source: "criogaid-pi-todos-tasks",
    tool: "TaskUpdate",
    open: "emptied",
    total: 0,
    anchor: "d70006",
  },
  {
    file: "criogaid-pi-todos/synthetic-task-tools-internal-task.branch.json",
    source: "criogaid-pi-todos-tasks",
    tool: "TaskUpdate",
    open: ["Patch the session check"],
    total: 2,
    anchor: "d60001",
  },
  {
    file: "criogaid-pi-todos/synthetic-unreleased-todo-snapshot-codemode.branch.json",
    source: "criogaid-pi-todos",
    tool: "todo",
    open: ["Patch the session check", "Run the test suite"],
    total: 3,
    anchor: "c50001",
  },
  { file: "plan-mode/harness-executing.branch.json", source: "plan-mode", tool: "[DONE:n]", open: ["README section"], total: 3, anchor: "8b923e53" },
  { file: "rpiv-todo/synthetic-nredd-batch.branch.json", source: "rpiv-todo", tool: "todo", open: [], total: 1, anchor: "a30001" },
  { file: "zhushanwen-pi-todo/port-cleared.branch.json", source: "zhushanwen-pi-todo", tool: "todo", open: "emptied", total: 0, anchor: "9b8528e3" },
  { file: "zhushanwen-pi-todo/port-deleted-all.branch.json", source: "zhushanwen-pi-todo", tool: "todo", open: "emptied", total: 0, anchor: "1b6af935" },
  {
    file: "zhushanwen-pi-todo/port-live-getBranch-aliased.branch.json",
    source: "zhushanwen-pi-todo",
    tool: "todo",
    open: ["Write the tests", "Update the docs"],
    total: 3,
    anchor: "c9c00c93",
  },
  {
    file: "zhushanwen-pi-todo/port-open-tasks.branch.json",
    source: "zhushanwen-pi-todo",
    tool: "todo",
    open: ["Write the tests", "Update the docs"],
    total: 3,
    anchor: "c9c00c93",
  },
  {
    file: "zhushanwen-pi-todo/synthetic-0.1.x-verify-states.branch.json",
    source: "zhushanwen-pi-todo",
    tool: "todo",
    open: ["Run the test suite", "Publish", "Announce"],
    total: 4,
    anchor: "f10001",
  },
  {
    file: "zhushanwen-pi-todo/synthetic-0.2.0-rejected-and-aborted.branch.json",
    source: "zhushanwen-pi-todo",
    tool: "todo",
    open: ["Write the tests", "Update the docs"],
    total: 3,
    anchor: "f20001",
  },
];

test("reader: the fixture table covers every fixture file (the rejected-calls excerpt, the planning plan, codemode and tintinweb branches have their own tests)", () => {
  const own = [
    "rpiv-todo/harness-rejected-calls.entries.json",
    "plan-mode/harness-planning.branch.json",
    "plan-mode/harness-finished.branch.json",
    "rpiv-todo/harness-codemode-update.branch.json",
    "tintinweb-pi-tasks/port-open-tasks.branch.json",
  ];
  const covered = new Set([...FIXTURE_TABLE.map((row) => row.file), ...own]);
  assert.deepEqual(allFixtures(), [...covered].sort());
});

for (const row of FIXTURE_TABLE) {
  const what = row.open === "emptied" ? "an emptied list (never open tasks)" : `${row.open.length} open of ${row.total}`;
  test(`reader: fixture ${row.file} reads as ${what} from ${row.source}`, () => {
    const entries = fixture(row.file);
    const snapshot = readSnapshot(entries);
    assert.ok(snapshot.list, "a list is recognised");
    assert.equal(snapshot.list.source, row.source);
    assert.equal(snapshot.list.tool, row.tool);
    assert.equal(snapshot.anchor, row.anchor);
    const state = listState(snapshot, true);
    if (row.open === "emptied") {
      assert.deepEqual(snapshot.list.tasks, []);
      assert.deepEqual(state, { kind: "none", why: "emptied" });
    } else {
      assert.deepEqual(openTexts(snapshot.list), row.open);
      assert.equal(state.kind, "list");
      assert.ok(state.kind === "list");
      assert.equal(state.open, row.open.length);
      assert.equal(state.total, row.total);
      assert.equal(state.source, row.source);
    }
    const spend = spendSinceLastUser(entries);
    assert.equal(snapshot.tokens, spend.tokens);
    assert.ok(Math.abs(snapshot.cost - spend.cost) < 1e-9);
    assert.equal(snapshot.round, 0);
    assert.equal(snapshot.waiting, undefined);
    assert.equal(snapshot.length, entries.length);
  });
}

test("reader: fixture rpiv-todo/harness-rejected-calls (a rejected and an errored call only) never reads as a list or as clear", () => {
  const snapshot = readSnapshot(fixture("rpiv-todo/harness-rejected-calls.entries.json"));
  assert.equal(snapshot.list, undefined);
  const state = listState(snapshot, true);
  assert.equal(state.kind, "none");
  assert.ok(state.kind === "none");
  assert.equal(state.why, "unused", "a rejected call is no state, and no result in an unread shape either");
});

test("reader: fixture plan-mode/harness-planning (pi's real plan-mode, steps extracted, not yet executing) is a planning list, never open tasks", () => {
  const snapshot = readSnapshot(fixture("plan-mode/harness-planning.branch.json"));
  assert.equal(snapshot.list?.source, "plan-mode");
  assert.equal(snapshot.list?.planning, true);
  assert.equal(openCount(snapshot.list), 0);
  assert.deepEqual(listState(snapshot, true), { kind: "planning", source: "plan-mode" });
});

test("reader: fixture plan-mode/harness-finished (pi's real plan-mode saved the finished plan as off) holds no list at all, not an emptied one", () => {
  const snapshot = readSnapshot(fixture("plan-mode/harness-finished.branch.json"));
  assert.equal(snapshot.list, undefined);
  assert.equal(snapshot.anchor, "92b5d4e7");
  assert.deepEqual(listState(snapshot, false), { kind: "none", why: "no-tool" });
});

test("reader: fixture rpiv-todo/harness-codemode-update (a todo call from a codemode script) leaves the rpiv-todo list out of date", () => {
  const snapshot = readSnapshot(fixture("rpiv-todo/harness-codemode-update.branch.json"));
  assert.equal(snapshot.list?.source, "rpiv-todo");
  assert.equal(snapshot.outOfDate, "codemode");
  assert.equal(listState(snapshot, true).kind, "out-of-date");
});

test("reader: fixture tintinweb-pi-tasks/port-open-tasks holds no list on the branch (its tools' results carry no details)", () => {
  const snapshot = readSnapshot(fixture("tintinweb-pi-tasks/port-open-tasks.branch.json"));
  assert.equal(snapshot.list, undefined);
  assert.equal(snapshot.outOfDate, undefined);
});

test("reader: every fixture read entry by entry through the incremental reader ends where a full read does", () => {
  for (const file of allFixtures()) {
    const entries = fixture(file);
    const session = createSession<Entry>([], "s");
    const reader = createBranchReader();
    let last: Snapshot = EMPTY_SNAPSHOT;
    for (const entry of entries) {
      session.append({ ...entry, id: undefined });
      last = reader.read(session).snapshot;
    }
    const full = readSnapshot(session.getBranch());
    for (const key of ["list", "anchor", "tokens", "cost", "round", "idle", "stale", "waiting", "paused", "hadWork", "announced", "outOfDate", "length"] as const) {
      assert.deepEqual(last[key], full[key], `${file}: ${key}`);
    }
  }
});

test("reader: fixture pi-example-todo harness-open-tasks skips the newer result carrying details.error", () => {
  const entries = fixture("pi-example-todo/harness-open-tasks.branch.json");
  const errored = entries.findIndex((entry) => JSON.stringify(entry).includes("#99 not found"));
  assert.ok(errored > 0);
  const upToError = readSnapshot(entries.slice(0, errored + 1));
  const beforeError = readSnapshot(entries.slice(0, errored));
  assert.deepEqual(upToError.list, beforeError.list);
});

test("reader: fixture quangthai-pi-todo synthetic-open: the newest write result has an error, the older state wins", () => {
  const entries = fixture("quangthai-pi-todo/synthetic-open.branch.json");
  const last = entries[entries.length - 1];
  assert.ok(last && JSON.stringify(last).includes('"error"'));
  assert.equal(readList(last), undefined);
  assert.deepEqual(texts(readSnapshot(entries).list), ["Map current cache call sites", "Introduce CacheStore interface", "Update README"]);
});

// ---- which entry wins -----------------------------------------------------------------------------

const TWO_OPEN = [task({ id: 1, subject: "Write tests" }), task({ id: 2, subject: "Ship it" })];

test("reader: the newest recognised todo state wins", () => {
  const snapshot = readSnapshot(
    chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [task({ id: 1, subject: "Write tests", status: "completed" }), TWO_OPEN[1] ?? task({ id: 2 })] })),
  );
  assert.deepEqual(openTexts(snapshot.list), ["Ship it"]);
});

test("reader: a rejected rpiv-todo call (details.error, isError false) is skipped and never reads as clear", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [], error: "#9 not found", action: "update" })));
  assert.deepEqual(openTexts(snapshot.list), ["Write tests", "Ship it"]);
});

test("reader: an errored call (isError true, details {}) is skipped and never reads as clear", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [], isError: true })));
  assert.deepEqual(openTexts(snapshot.list), ["Write tests", "Ship it"]);
});

test("reader: an errored result that still carries a full empty list is skipped", () => {
  const errored = toolResult("todo", { action: "clear", tasks: [], nextId: 1 }, { isError: true });
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), errored));
  assert.equal(openCount(snapshot.list), 2);
});

test("reader: a malformed newer entry is skipped in favour of an older valid one", () => {
  const malformed = [
    toolResult("todo", { action: "update", tasks: [{ id: 1, subject: "x", status: "weird" }], nextId: 2 }),
    toolResult("todo", { action: "update", tasks: [{ id: 1, status: "pending" }], nextId: 2 }),
    toolResult("todo", { action: "update", tasks: "not an array", nextId: 2 }),
    toolResult("todo", { action: "update", tasks: [null], nextId: 2 }),
    toolResult("todo", { action: "update", tasks: [], nextId: "2" }),
    toolResult("todo", null),
    rpivState([task({ id: 1, status: "bogus" })]),
    { type: "custom", customType: "rpiv-todo-state", data: { tasks: [task({ id: 1 })], nextId: null } },
  ];
  for (const bad of malformed) {
    const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), bad));
    assert.deepEqual(openTexts(snapshot.list), ["Write tests", "Ship it"], JSON.stringify(bad));
  }
});

test("reader: a recognised clear is an empty list", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [], action: "clear", nextId: 1 })));
  assert.deepEqual(snapshot.list?.tasks, []);
  assert.deepEqual(listState(snapshot, true), { kind: "none", why: "emptied" });
});

test("reader: tombstones (status deleted) are not tasks at all", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: [task({ id: 1, status: "deleted" }), task({ id: 2, subject: "Ship it" })] })));
  assert.deepEqual(texts(snapshot.list), ["Ship it"]);
  const state = listState(snapshot, true);
  assert.ok(state.kind === "list");
  assert.equal(state.total, 1);
});

test("reader: a list whose every task was deleted is an emptied list, not a clear one", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: [task({ id: 1, status: "deleted" }), task({ id: 2, status: "deleted" })], action: "delete" })));
  assert.deepEqual(listState(snapshot, true), { kind: "none", why: "emptied" });
});

test("reader: deferred tasks are not open", () => {
  const snapshot = readSnapshot(chain(user(), rpivState([task({ id: 1, status: "deferred" }), task({ id: 2, status: "completed" })])));
  const state = listState(snapshot, true);
  assert.ok(state.kind === "list");
  assert.equal(state.open, 0);
  assert.equal(state.total, 2);
});

test("reader: an rpiv-todo-state entry is read like a tool result; the newest of either wins", () => {
  const stateThenResult = readSnapshot(chain(user(), rpivState([task({ id: 1, subject: "From state" })]), assistant(), todoResult({ tasks: [task({ id: 1, subject: "From result" })] })));
  assert.deepEqual(texts(stateThenResult.list), ["From result"]);
  const resultThenState = readSnapshot(chain(user(), assistant(), todoResult({ tasks: [task({ id: 1, subject: "From result" })] }), rpivState([task({ id: 1, subject: "From state" })])));
  assert.deepEqual(texts(resultThenState.list), ["From state"]);
});

test("reader: an rpiv-todo-clear entry resets the list until the next tool result", () => {
  const cleared = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), rpivClear()));
  assert.deepEqual(cleared.list?.tasks, []);
  const after = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), rpivClear(), assistant(), todoResult({ tasks: [task({ id: 1, subject: "New" })] })));
  assert.deepEqual(texts(after.list), ["New"]);
});

test("reader: the snapshot names the source and the tool", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN })));
  assert.equal(snapshot.list?.source, "rpiv-todo");
  assert.equal(snapshot.list?.tool, "todo");
});

test("reader: listAtLastReply is the list as it stood when the newest assistant message was written", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), assistant(), todoResult({ tasks: [task({ id: 1, subject: "Write tests" })], action: "delete" })));
  assert.deepEqual(texts(snapshot.listAtLastReply), ["Write tests", "Ship it"]);
  assert.deepEqual(texts(snapshot.list), ["Write tests"]);
});

// ---- anchor ---------------------------------------------------------------------------------------

test("anchor: the id of the newest human user message", () => {
  const snapshot = readSnapshot(chain(user("one", { id: "u1" }), assistant(), user("two", { id: "u2" }), assistant()));
  assert.equal(snapshot.anchor, "u2");
});

test("anchor: custom_message entries (ours or any extension's) are never anchors", () => {
  const snapshot = readSnapshot(chain(user("one", { id: "u1" }), assistant(), marker({ round: 1, anchor: "u1" }), customMessage("other:note", "c1"), assistant()));
  assert.equal(snapshot.anchor, "u1");
});

test("anchor: an entry without an id falls back to #<index>", () => {
  const entries: Entry[] = [{ type: "model_change" }, { type: "message", message: { role: "user", content: "hi" } }, assistant()];
  assert.equal(readSnapshot(entries).anchor, "#1");
});

test("anchor: an empty-string id also falls back to #<index>, never an empty anchor", () => {
  const entries: Entry[] = [{ type: "message", id: "", message: { role: "user", content: "hi" } }];
  assert.equal(readSnapshot(entries).anchor, "#0");
});

test("anchor: with no human message the anchor is empty", () => {
  assert.equal(readSnapshot(chain(assistant(), customMessage())).anchor, "");
});

// ---- spend, round, waiting, stop ------------------------------------------------------------------

test("spend: tokens and cost are summed over assistant messages since the anchor only", () => {
  const snapshot = readSnapshot(
    chain(
      user("one"),
      assistant({ usage: { totalTokens: 1000, cost: 1 } }),
      user("two"),
      assistant({ usage: { totalTokens: 120, cost: 0.25 } }),
      assistant({ usage: { totalTokens: 80, cost: 0.5 } }),
    ),
  );
  assert.equal(snapshot.tokens, 200);
  assert.equal(snapshot.cost, 0.75);
});

test("spend: without totalTokens the parts are summed", () => {
  const snapshot = readSnapshot(chain(user(), assistant({ rawUsage: { input: 10, output: 5, cacheRead: 100, cacheWrite: 1 } })));
  assert.equal(snapshot.tokens, 116);
  assert.equal(snapshot.cost, 0);
});

test("spend: junk usage counts as nothing", () => {
  const junkUsages: unknown[] = [null, "lots", 5, { totalTokens: -5, cost: { total: -1 } }, { totalTokens: Number.NaN, cost: "1" }, { totalTokens: "9" }, { totalTokens: Infinity }];
  const snapshot = readSnapshot(chain(user(), ...junkUsages.map((rawUsage) => assistant({ rawUsage }))));
  assert.equal(snapshot.tokens, 0);
  assert.equal(snapshot.cost, 0);
});

test("round: rebuilt from the newest marker's details since the anchor", () => {
  const snapshot = readSnapshot(chain(user("u", { id: "u1" }), assistant(), marker({ round: 1, anchor: "u1" }), assistant(), marker({ round: 2, anchor: "u1" }), assistant()));
  assert.equal(snapshot.round, 2);
});

test("round: markers under an earlier human message do not count", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 7, anchor: "u1" }), user("b", { id: "u2" }), assistant()));
  assert.equal(snapshot.round, 0);
});

test("round: a marker whose details are junk still counts one continuation", () => {
  const broken: Entry = { type: "custom_message", customType: "todo-loop:continue", content: "x", display: false, details: { round: "two" } };
  const snapshot = readSnapshot(chain(user(), assistant(), marker({ round: 3, anchor: "e1" }), assistant(), broken));
  assert.equal(snapshot.round, 4);
});

test("waiting: rebuilt from the todo_loop_block result since the anchor", () => {
  const snapshot = readSnapshot(chain(user("u", { id: "u1" }), assistant(), blockResult("which region?", "u1"), assistant()));
  assert.deepEqual(snapshot.waiting, { reason: "which region?", asked: false });
});

test("waiting: a new human message clears it", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), blockResult("which region?", "u1"), assistant(), user("eu", { id: "u2" })));
  assert.equal(snapshot.waiting, undefined);
});

test("waiting: a marker after the block result means the wait was lifted (resume), so it is not rebuilt", () => {
  const lifted = readSnapshot(chain(user("u", { id: "u1" }), assistant(), blockResult("which region?", "u1"), assistant(), marker({ round: 1, anchor: "u1" }), assistant()));
  assert.equal(lifted.waiting, undefined);
  const still = readSnapshot(chain(user("u", { id: "u1" }), assistant(), marker({ round: 1, anchor: "u1" }), assistant(), blockResult("which region?", "u1"), assistant()));
  assert.deepEqual(still.waiting, { reason: "which region?", asked: false });
});

test("waiting: an errored or non-waiting block result does not wait", () => {
  const errored = toolResult("todo_loop_block", { v: 1, waiting: true, reason: "x" }, { isError: true });
  const paused = toolResult("todo_loop_block", { v: 1, waiting: false, paused: true });
  assert.equal(readSnapshot(chain(user(), assistant(), errored)).waiting, undefined);
  assert.equal(readSnapshot(chain(user(), assistant(), paused)).waiting, undefined);
});

test("stop: the stops recorded since the newest marker under the anchor are known by kind (and limit)", () => {
  const snapshot = readSnapshot(
    chain(
      user("a", { id: "u1" }),
      assistant(),
      stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }),
      marker({ round: 1, anchor: "u1", idle: 1 }),
      assistant(),
      stopRecord({ reason: "stopped: 1 continuation used, 2 tasks still open", anchor: "u1", kind: "limit", limit: "maxRounds" }),
      stopRecord({ reason: "stopped: turn outcome was error", anchor: "u1", kind: "outcome" }),
    ),
  );
  assert.deepEqual(snapshot.announced, ["limit:maxRounds", "outcome"], "a marker starts the list again");
  const later = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }), user("b", { id: "u2" })));
  assert.deepEqual(later.announced, [], "a new human message starts it again too");
});

test("stop: records written by 0.1 (no v, no kind) are known by their reason", () => {
  const reasons: Array<[string, string]> = [
    ["stopped: list is clear", "clear"],
    ["stopped: no list (the list was emptied: its tasks were deleted or cleared)", "no-list"],
    ["stopped: turn outcome was error", "outcome"],
    ["stopped: 3 continuations used, 2 tasks still open", "limit:maxRounds"],
    ["stopped: token limit reached (4,000 of 3,500 tokens since your message), 2 tasks still open", "limit:maxTokens"],
    ["stopped: cost limit reached ($1.00 of $0.50 since your message), 2 tasks still open", "limit:maxCost"],
    ["waiting for you: need a key", "waiting"],
  ];
  for (const [reason, key] of reasons) {
    assert.deepEqual(readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason, anchor: "u1" }))).announced, [key], reason);
  }
  const unknown = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "something else", anchor: "u1" })));
  assert.deepEqual(unknown.announced, ["reason:something else"]);
});

test("waiting: a question stop record under the anchor is a wait on that question", () => {
  const snapshot = readSnapshot(
    chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: 'waiting for you: the agent asked: "Postgres or SQLite?"', anchor: "u1", kind: "question" })),
  );
  assert.deepEqual(snapshot.waiting, { reason: "Postgres or SQLite?", asked: true });
});

test("controls: a pause holds across human messages until a resume or a continue; reset does not lift it", () => {
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("pause"), user("b"), assistant())).paused, true);
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("pause"), control("reset"), user("b"))).paused, true);
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("pause"), control("resume"), user("b"))).paused, false);
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("pause"), control("continue"))).paused, false);
  assert.equal(readSnapshot(chain(user("a"), assistant(), control("resume"), control("pause"))).paused, true);
});

test("controls: a pause far before the newest list is still found by a full read", () => {
  const snapshot = readSnapshot(chain(user("a"), assistant(), control("pause"), todoResult({ tasks: TWO_OPEN }), user("b", { id: "u2" }), assistant()));
  assert.equal(snapshot.paused, true);
});

test("controls: reset clears the counters and the wait under the anchor; the markers after it count again", () => {
  const reset = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 4, anchor: "u1", idle: 2, stale: 3 }), assistant(), blockResult("x", "u1"), control("reset")));
  assert.equal(reset.round, 0);
  assert.equal(reset.idle, 0);
  assert.equal(reset.stale, 0);
  assert.equal(reset.waiting, undefined);
  const after = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 4, anchor: "u1" }), control("reset"), assistant(), marker({ round: 1, anchor: "u1", idle: 1 })));
  assert.equal(after.round, 1);
});

test("controls: resume and continue lift a wait; junk controls are ignored", () => {
  assert.equal(readSnapshot(chain(user(), assistant(), blockResult("x", "u1"), control("resume"))).waiting, undefined);
  assert.equal(readSnapshot(chain(user(), assistant(), blockResult("x", "u1"), control("continue"))).waiting, undefined);
  const junk = { type: "custom", customType: "todo-loop:control", data: { action: "explode" } };
  assert.deepEqual(readSnapshot(chain(user(), assistant(), blockResult("x", "u1"), junk)).waiting, { reason: "x", asked: false });
});

test("markers: idle and stale come from the newest marker's details; a tool result after it starts the idle count again", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1", idle: 2, stale: 5 }), assistant()));
  assert.equal(snapshot.idle, 2);
  assert.equal(snapshot.stale, 5);
  const worked = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1", idle: 2 }), assistant(), todoResult({ tasks: TWO_OPEN })));
  assert.equal(worked.idle, 0);
  const legacy = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1" })));
  assert.equal(legacy.idle, 1, "a 0.1 marker without idle counts as one reply without work");
});

test("markers: the signature at the newest marker is the list as it stood then", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), todoResult({ tasks: TWO_OPEN }), assistant(), marker({ round: 1, anchor: "u1" })));
  assert.equal(snapshot.markerSignature, JSON.stringify([["1", "pending", "Write tests"], ["2", "pending", "Ship it"]]));
});

test("time: the anchor's timestamp and the newest reply's since it, in milliseconds", () => {
  const snapshot = readSnapshot(
    chain(user("a", { id: "u1", timestamp: "2026-12-01T10:00:00.000Z" }), assistant({ timestamp: "2026-12-01T10:05:00.000Z" }), assistant({ timestamp: "2026-12-01T10:31:00.000Z" })),
  );
  assert.equal(snapshot.anchorTime, Date.parse("2026-12-01T10:00:00.000Z"));
  assert.equal(snapshot.replyTime, Date.parse("2026-12-01T10:31:00.000Z"));
  const junk = readSnapshot(chain(user("a", { timestamp: "yesterday" }), assistant({ timestamp: 12 })));
  assert.equal(junk.anchorTime, undefined);
  assert.equal(junk.replyTime, undefined);
});

test("hadWork: plain chat never had work; a list with an open task since the anchor did", () => {
  assert.equal(readSnapshot(chain(user(), assistant())).hadWork, false);
  assert.equal(readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }))).hadWork, true);
  assert.equal(readSnapshot(chain(user(), assistant(), todoResult({ tasks: [task({ id: 1, status: "completed" })] }))).hadWork, false, "a finished list is no work");
});

test("hadWork: a list with open tasks carried into a new human message counts for it; a finished or empty one does not", () => {
  assert.equal(readSnapshot(chain(user("a"), assistant(), todoResult({ tasks: TWO_OPEN }), user("b"))).hadWork, true);
  assert.equal(readSnapshot(chain(user("a"), assistant(), todoResult({ tasks: [], action: "clear" }), user("b"))).hadWork, false);
  assert.equal(readSnapshot(chain(user("a"), assistant(), todoResult({ tasks: [task({ id: 1, status: "completed" })] }), user("b"))).hadWork, false);
});

test("hadWork: a marker since the anchor is work", () => {
  assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 1, anchor: "u1" }))).hadWork, true);
});

// ---- listState ------------------------------------------------------------------------------------

test("listState: open tasks give kind list with open, total, source, tool and signature", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: [...TWO_OPEN, task({ id: 3, status: "completed" })] })));
  assert.ok(snapshot.list);
  assert.deepEqual(listState(snapshot, true), { kind: "list", open: 2, total: 3, signature: signature(snapshot.list), source: "rpiv-todo", tool: "todo" });
});

test("listState: no list and no todo tool active or used → no-tool", () => {
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant())), false), { kind: "none", why: "no-tool" });
});

test("listState: a todo tool active but never used on this branch → unused", () => {
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant())), true), { kind: "none", why: "unused" });
});

test("listState: todo-tool results in a shape no adapter reads → unreadable", () => {
  const odd = toolResult("todo", { items: [{ name: "x", state: "open" }] });
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant(), odd)), false), { kind: "none", why: "unreadable" });
});

test("listState: a list emptied by clear or delete → emptied", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), todoResult({ tasks: [], action: "clear" })));
  assert.deepEqual(listState(snapshot, false), { kind: "none", why: "emptied" });
});

// ---- signature, vanishedTasks -----------------------------------------------------------------------

function rpivList(...tasks: Array<{ id: string; text: string; status: string; open: boolean }>): TodoList {
  return { source: "rpiv-todo", tool: "todo", tasks };
}

test("signature: any change of id, status or text of a task is a different signature", () => {
  const base = rpivList({ id: "1", text: "a", status: "pending", open: true });
  const variants = [
    rpivList({ id: "2", text: "a", status: "pending", open: true }),
    rpivList({ id: "1", text: "b", status: "pending", open: true }),
    rpivList({ id: "1", text: "a", status: "in_progress", open: true }),
    rpivList({ id: "1", text: "a", status: "pending", open: true }, { id: "2", text: "c", status: "pending", open: true }),
  ];
  for (const variant of variants) assert.notEqual(signature(variant), signature(base));
  assert.equal(signature(rpivList({ id: "1", text: "a", status: "pending", open: true })), signature(base));
});

test("vanishedTasks: the texts of tasks open before that are gone now", () => {
  const before = rpivList(
    { id: "1", text: "done already", status: "completed", open: false },
    { id: "2", text: "deleted", status: "pending", open: true },
    { id: "3", text: "kept", status: "pending", open: true },
  );
  const now = rpivList({ id: "3", text: "kept", status: "completed", open: false });
  assert.deepEqual(vanishedTasks(before, now), ["deleted"]);
  assert.deepEqual(vanishedTasks(before, undefined), ["deleted", "kept"]);
  assert.deepEqual(vanishedTasks(undefined, now), []);
});

// ---- the incremental reader -------------------------------------------------------------------------

test("branch reader: first read, same leaf, appended entries and a /tree move are told apart", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" }), todoResult({ tasks: TWO_OPEN, id: "t1" })));
  const reader = createBranchReader();
  assert.equal(reader.read(session).change, "first");
  assert.equal(reader.read(session).change, "same");
  session.append(assistant({ id: "a2" }));
  const appended = reader.read(session);
  assert.equal(appended.change, "appended");
  assert.equal(appended.snapshot.length, 4);
  session.moveTo("a1");
  session.append(todoResult({ tasks: [task({ id: 1, subject: "Other branch" })], id: "t2" }));
  const switched = reader.read(session);
  assert.equal(switched.change, "switched");
  assert.deepEqual(texts(switched.snapshot.list), ["Other branch"]);
});

test("branch reader: appending entries folds only the new ones (no whole-branch read)", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(session);
  const reads = session.branchReads;
  for (let index = 0; index < 5; index++) {
    session.append(assistant({ usage: { totalTokens: 10 } }));
    reader.read(session);
  }
  assert.equal(session.branchReads, reads);
  assert.equal(reader.read(session).snapshot.tokens, 50);
});

test("branch reader: after /tree navigation the list, anchor and spend are the new branch's", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1", usage: { totalTokens: 5 } })));
  session.append(todoResult({ tasks: TWO_OPEN, id: "t1" }), user("b", { id: "u2" }), assistant({ id: "a2", usage: { totalTokens: 100 } }));
  const reader = createBranchReader();
  assert.equal(reader.read(session).snapshot.anchor, "u2");
  session.moveTo("a1");
  const back = reader.read(session).snapshot;
  assert.equal(back.anchor, "u1");
  assert.equal(back.list, undefined);
  assert.equal(back.tokens, 5);
});

test("reader: a full read folds only from the newest list state at or before the anchor, or from the human message before the anchor when that is older; older entries are only looked at for a pause", () => {
  let typeReads = 0;
  let messageReads = 0;
  const older: Entry = {
    get type() {
      typeReads += 1;
      return "message";
    },
    get message() {
      messageReads += 1;
      return { role: "user", content: "an old message" };
    },
  };
  const branch: unknown[] = [older, user("before", { id: "u8" }), todoResult({ tasks: TWO_OPEN }), user("now", { id: "u9" }), assistant({ usage: { totalTokens: 3 } })];
  const snapshot = readSnapshot(branch);
  assert.equal(messageReads, 0, "entries before the list state are never folded");
  assert.equal(typeReads, 1, "only their type is read, to find the newest pause control");
  assert.equal(snapshot.anchor, "u9");
  assert.equal(openCount(snapshot.list), 2);
  assert.equal(snapshot.hadWork, true);
  assert.equal(snapshot.tokens, 3);
});

test("extendSnapshot folds appended entries onto a previous snapshot", () => {
  const first = readSnapshot(chain(user("a", { id: "u1" }), assistant()));
  const next = extendSnapshot(first, [todoResult({ tasks: TWO_OPEN }), assistant({ usage: { totalTokens: 7 } })]);
  assert.equal(next.length, 4);
  assert.equal(openCount(next.list), 2);
  assert.equal(next.tokens, 7);
});

// ---- junk -------------------------------------------------------------------------------------------

test("junk: the reader never throws on any input and never invents a list", () => {
  const cyclic: Record<string, unknown> = { type: "message" };
  cyclic.message = cyclic;
  cyclic.self = cyclic;
  const loopTasks: unknown[] = [];
  loopTasks.push(loopTasks);
  const inputs: unknown[] = [
    null,
    undefined,
    42,
    "branch",
    {},
    [null, undefined, 0, "x", [], true, Symbol("s"), () => 1],
    [cyclic, cyclic],
    [{ type: "message" }, { type: "message", message: null }, { type: "message", message: { role: 5 } }],
    [{ type: "message", message: { role: "toolResult", toolName: "todo", details: { tasks: loopTasks, nextId: 1 } } }],
    [{ type: "custom", customType: "rpiv-todo-state" }, { type: "custom", customType: "pi-todo-state", data: [] }],
    [{ type: "custom_message", customType: "todo-loop:continue", details: null }],
    [{ type: "custom", customType: "todo-loop:stop", data: { reason: 5 } }],
    [{ type: "message", message: { role: "toolResult", toolName: "todo_loop_block", details: { waiting: true, reason: { x: 1 } } } }],
  ];
  for (const value of inputs) {
    const snapshot = readSnapshot(junk(value));
    assert.equal(snapshot.list, undefined);
    assert.doesNotThrow(() => listState(snapshot, true));
    assert.doesNotThrow(() => extendSnapshot(snapshot, junk(Array.isArray(value) ? value : [value])));
    assert.equal(readList(value), undefined);
  }
});

test("junk: a session manager whose getBranch returns junk reads as an empty branch", () => {
  const reader = createBranchReader();
  const read = reader.read({ getBranch: () => junk("nope") });
  assert.equal(read.snapshot.list, undefined);
  assert.equal(read.snapshot.anchor, "");
});

test("junk: getEntry returning junk falls back to a full read", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(session);
  session.append(todoResult({ tasks: TWO_OPEN, id: "t1" }));
  const read = reader.read({ ...session, getBranch: () => session.getBranch(), getLeafId: () => session.getLeafId(), getEntry: () => "junk" });
  assert.equal(openCount(read.snapshot.list), 2);
});

// ---- out of date (SPEC §9) --------------------------------------------------------------------------

test("out of date: an unknown status in a newer rpiv-todo result after a readable list makes the list out of date, never the older list", () => {
  const snapshot = readSnapshot(
    chain(user("a", { id: "u1" }), todoResult({ tasks: TWO_OPEN }), assistant(), todoResult({ tasks: [task({ id: 1, status: "failed" }), task({ id: 2 })] }), assistant()),
  );
  assert.equal(snapshot.outOfDate, "unreadable");
  const state = listState(snapshot, true);
  assert.deepEqual(state, { kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" });
});

test("out of date: an unreadable entry of the list's own state type does the same; another source's entry does not", () => {
  const own = readSnapshot(chain(user(), rpivState(TWO_OPEN), assistant(), rpivState([task({ id: 1, status: "blocked" })]), assistant()));
  assert.equal(own.outOfDate, "unreadable");
  const foreign = readSnapshot(chain(user(), rpivState(TWO_OPEN), assistant(), { type: "custom", customType: "pi-todo-state", data: { nextId: 1, tasks: [{ id: 1, title: "x", status: "weird" }] } }, assistant()));
  assert.equal(foreign.outOfDate, undefined);
  assert.equal(openCount(foreign.list), 2);
});

test("out of date: a rejected call of the list's tool is no state and leaves the list as it was", () => {
  const snapshot = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), toolResult("todo", { action: "update", error: "#9 not found", tasks: [], nextId: 3 }), assistant()));
  assert.equal(snapshot.outOfDate, undefined);
  assert.equal(openCount(snapshot.list), 2);
});

test("out of date: a codemode result that names the list's tool, or says its calls are incomplete, makes it out of date; the next readable state ends it", () => {
  const codemode = (calls: unknown[], complete: boolean) => ({
    type: "message",
    message: { role: "toolResult", toolName: "codemode", content: [], details: {}, isError: false, nestedCalls: { calls, complete } },
  });
  const named = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), codemode([{ id: "c1", name: "todo", status: "done" }], true), assistant()));
  assert.equal(named.outOfDate, "codemode");
  const incomplete = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), codemode([{ id: "c1", name: "read", status: "done" }], false), assistant()));
  assert.equal(incomplete.outOfDate, "codemode");
  const other = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), codemode([{ id: "c1", name: "read", status: "done" }], true), assistant()));
  assert.equal(other.outOfDate, undefined);
  const ended = readSnapshot(chain(user(), todoResult({ tasks: TWO_OPEN }), assistant(), codemode([{ id: "c1", name: "todo" }], true), assistant(), todoResult({ tasks: [task({ id: 1, status: "completed" }), task({ id: 2 })] })));
  assert.equal(ended.outOfDate, undefined);
  assert.equal(openCount(ended.list), 1);
});

test("out of date: a list kept in custom entries is never made out of date by codemode or by its tool's results", () => {
  const state = { type: "custom", customType: "pi-todo-state", data: { nextId: 3, tasks: [{ id: 1, title: "a", status: "pending" }, { id: 2, title: "b", status: "active" }] } };
  const codemode = { type: "message", message: { role: "toolResult", toolName: "codemode", content: [], details: {}, isError: false, nestedCalls: { calls: [{ id: "c1", name: "todo" }], complete: false } } };
  const snapshot = readSnapshot(chain(user(), state, assistant(), codemode, toolResult("todo", { action: "update", task: { id: 1 } }), assistant()));
  assert.equal(snapshot.outOfDate, undefined);
  assert.equal(snapshot.list?.source, "ian-pascoe-pi-todo");
  assert.equal(openCount(snapshot.list), 2);
});

// ---- the reader's guards: waits, diagnostics, work, and reading a session ---------------------------

import type { SessionManagerLike } from "../src/core/pi-shapes.ts";
import { customEntry as stateEntry } from "./builders.ts";

test("waiting: a { waiting: true, reason } result of another tool is no block", () => {
  const lookalike = toolResult("ask_user", { v: 1, waiting: true, reason: "which region?", anchor: "u1" });
  assert.equal(readSnapshot(chain(user("u", { id: "u1" }), assistant(), lookalike)).waiting, undefined);
});

test("waiting: a block result that does not say waiting: true is no wait, whatever its reason", () => {
  for (const details of [{ reason: "which region?" }, { waiting: false, reason: "which region?" }, { waiting: "true", reason: "which region?" }, { waiting: true }, { waiting: true, reason: 5 }]) {
    assert.equal(readSnapshot(chain(user("u", { id: "u1" }), assistant(), toolResult("todo_loop_block", details))).waiting, undefined, JSON.stringify(details));
  }
});

test("waiting: later tool results of other tools do not lift a wait; only a marker, a control or a new message does", () => {
  const snapshot = readSnapshot(
    chain(user("u", { id: "u1" }), assistant(), blockResult("which region?", "u1"), toolResult("bash", { exitCode: 0 }), todoResult({ tasks: TWO_OPEN }), assistant()),
  );
  assert.deepEqual(snapshot.waiting, { reason: "which region?", asked: false });
});

test("listState: other tools' results and errored todo results are not the todo tool being used", () => {
  const branches: Entry[][] = [
    chain(user(), assistant(), toolResult("bash", { exitCode: 0 })),
    chain(user(), assistant(), todoResult({ tasks: [], isError: true })),
    chain(user(), assistant(), toolResult("todo", { junk: true }, { isError: true })),
  ];
  for (const entries of branches) {
    const snapshot = readSnapshot(entries);
    assert.equal(snapshot.todoToolUsed, false);
    assert.equal(snapshot.unreadTodoResults, false);
    assert.deepEqual(listState(snapshot, false), { kind: "none", why: "no-tool" });
    assert.deepEqual(listState(snapshot, true), { kind: "none", why: "unused" });
  }
});

test("listState: a successful todo result in an unread shape says so even when no todo tool is active now", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), toolResult("todo", { tasks: "all of them", nextId: 2 })));
  assert.equal(snapshot.todoToolUsed, true);
  assert.deepEqual(listState(snapshot, false), { kind: "none", why: "unreadable" });
});

test("listState: a successful, readable todo result that was later cleared is the todo tool used, the list emptied", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), rpivClear()));
  assert.deepEqual(listState(snapshot, false), { kind: "none", why: "emptied" });
});

test("hadWork: a list cleared or finished after the anchor, with no open task at any point since, is no work", () => {
  assert.equal(readSnapshot(chain(user(), assistant(), rpivClear())).hadWork, false);
  assert.equal(readSnapshot(chain(user(), assistant(), rpivState([task({ id: 1, status: "completed" })]))).hadWork, false);
  assert.equal(readSnapshot(chain(user(), assistant(), rpivState(TWO_OPEN), rpivClear())).hadWork, true, "open at some point");
});

test("stop: a record of an unknown kind is known by its reason; a junk record by nothing", () => {
  const snapshot = readSnapshot(
    chain(
      user("a", { id: "u1" }),
      assistant(),
      stopRecord({ reason: "stopped: something new", anchor: "u1", kind: "shiny" }),
      stateEntry("todo-loop:stop", { kind: "clear" }),
      stateEntry("todo-loop:stop", "stopped: list is clear"),
    ),
  );
  assert.deepEqual(snapshot.announced, ["reason:stopped: something new"]);
});

test("stop: a record is counted once however often it is written", () => {
  const record = stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" });
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), record, assistant(), { ...record }));
  assert.deepEqual(snapshot.announced, ["clear"]);
});

test("stop: a kinded limit record without a limit name is the limit kind alone", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stateEntry("todo-loop:stop", { v: 1, kind: "limit", reason: "stopped: …", limit: 5 })));
  assert.deepEqual(snapshot.announced, ["limit"]);
});

test("stop: a question record whose reason is not the agent-asked wording waits on the whole reason", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "Shall I go on?", anchor: "u1", kind: "question" })));
  assert.deepEqual(snapshot.waiting, { reason: "Shall I go on?", asked: true });
});

test("markers: a marker's counts must be whole numbers of at least 0; anything else falls back", () => {
  const odd: Entry = { type: "custom_message", customType: "todo-loop:continue", content: "x", display: false, details: { v: 1, round: -1, idle: 1.5, stale: "3" } };
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1", idle: 2, stale: 4 }), assistant(), odd));
  assert.equal(snapshot.round, 3, "one more than the marker before");
  assert.equal(snapshot.idle, 1);
  assert.equal(snapshot.stale, 0);
  const zero = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 0, anchor: "u1", idle: 0, stale: 0 })));
  assert.deepEqual([zero.round, zero.idle, zero.stale], [0, 0, 0]);
});

test("spend: only positive finite figures count; the parts are summed only when there is no total", () => {
  const snapshot = readSnapshot(
    chain(
      user(),
      assistant({ rawUsage: { totalTokens: -5, input: 2, output: 3, cacheRead: Number.NaN, cacheWrite: "4", cost: { total: -1 } } }),
      assistant({ rawUsage: { totalTokens: 10, input: 100, cost: { total: 0.5 } } }),
      assistant({ rawUsage: { input: Number.POSITIVE_INFINITY, output: 1, cost: 2 } }),
    ),
  );
  assert.equal(snapshot.tokens, 5 + 10 + 1);
  assert.equal(snapshot.cost, 0.5);
});

test("time: a reply without a timestamp keeps the newest known reply time", () => {
  const snapshot = readSnapshot(
    chain(user("a", { timestamp: "2026-12-01T10:00:00.000Z" }), assistant({ timestamp: "2026-12-01T10:05:00.000Z" }), assistant({ timestamp: "junk" })),
  );
  assert.equal(snapshot.replyTime, Date.parse("2026-12-01T10:05:00.000Z"));
});

/** A session manager without the incremental calls, as older pi versions have it. */
function branchOnly(session: ReturnType<typeof createSession>, withLeaf: boolean): SessionManagerLike {
  return withLeaf ? { getBranch: () => session.getBranch(), getLeafId: () => session.getLeafId() } : { getBranch: () => session.getBranch() };
}

test("branch reader: without getEntry every read is a full read that still tells appended from switched", () => {
  for (const withLeaf of [true, false]) {
    const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
    const reader = createBranchReader();
    const manager = branchOnly(session, withLeaf);
    assert.equal(reader.read(manager).change, "first");
    session.append(todoResult({ tasks: TWO_OPEN, id: "t1" }));
    const appended = reader.read(manager);
    assert.equal(appended.change, "appended", `getLeafId: ${withLeaf}`);
    assert.equal(openCount(appended.snapshot.list), 2);
    session.moveTo("u1");
    session.append(assistant({ id: "a2", usage: { totalTokens: 4 } }));
    const switched = reader.read(manager);
    assert.equal(switched.change, "switched", `getLeafId: ${withLeaf}`);
    assert.equal(switched.snapshot.list, undefined);
    assert.equal(switched.snapshot.tokens, 4);
  }
});

test("branch reader: an unchanged leaf is 'same' only when the session names its leaf", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(branchOnly(session, false));
  assert.equal(reader.read(branchOnly(session, false)).change, "appended", "no leaf id: the whole branch is read and the old leaf found on it");
  const named = createBranchReader();
  named.read(session);
  assert.equal(named.read(session).change, "same");
});

test("branch reader: a walk back of up to 10,000 appended entries is incremental; a longer one is a full read", () => {
  for (const [count, fullReads] of [
    [10_000, 0],
    [10_001, 1],
  ] as const) {
    const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
    const reader = createBranchReader();
    reader.read(session);
    const before = session.branchReads;
    const added: Entry[] = [];
    for (let index = 0; index < count; index++) added.push(assistant({ usage: { totalTokens: 1 } }));
    session.append(...added);
    const read = reader.read(session);
    assert.equal(read.change, "appended");
    assert.equal(read.snapshot.tokens, count);
    assert.equal(session.branchReads - before, fullReads, `${count} appended`);
  }
});

test("branch reader: a cyclic parentId chain ends the walk in a full read, never a hang", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(session);
  const loopA = { ...assistant({ id: "x1" }), parentId: "x2" };
  const loopB = { ...assistant({ id: "x2" }), parentId: "x1" };
  const entries = new Map<string, unknown>([
    ["x1", loopA],
    ["x2", loopB],
  ]);
  let reads = 0;
  const cyclic: SessionManagerLike = {
    getBranch: () => {
      reads += 1;
      return [user("a", { id: "u1" }), loopA, loopB];
    },
    getLeafId: () => "x1",
    getEntry: (id) => entries.get(id),
  };
  const read = reader.read(cyclic);
  assert.equal(reads, 1);
  assert.equal(read.change, "switched");
  assert.equal(read.snapshot.anchor, "u1");
});

test("branch reader: after an incremental read the next one starts from the new leaf", () => {
  const session = createSession(chain(user("a", { id: "u1" }), assistant({ id: "a1" })));
  const reader = createBranchReader();
  reader.read(session);
  session.append(assistant({ usage: { totalTokens: 2 } }));
  assert.equal(reader.read(session).snapshot.tokens, 2);
  session.append(assistant({ usage: { totalTokens: 3 } }));
  const next = reader.read(session);
  assert.equal(next.snapshot.tokens, 5);
  assert.equal(next.snapshot.length, 4);
  assert.equal(reader.read(session).change, "same");
});

/** pi's plan-mode entry while it executes these steps (`[step, text, completed]`). */
function planSteps(...steps: Array<[number, string, boolean]>): Entry {
  return stateEntry("plan-mode", { enabled: false, executing: true, todos: steps.map(([step, text, completed]) => ({ step, text, completed })) });
}

/** An assistant reply with these content blocks. */
function replyBlocks(content: unknown): Entry {
  return { type: "message", timestamp: "2026-11-30T00:00:00.000Z", message: { role: "assistant", content, stopReason: "stop", timestamp: 2 } };
}

test("plan-mode: a reply closes steps by [DONE:n] in its text or its thinking, or in plain string content", () => {
  const plan = planSteps([1, "a", false], [2, "b", false], [3, "c", false]);
  const snapshot = readSnapshot(
    chain(user(), plan, replyBlocks([null, "x", { type: "text", text: "[DONE:1]" }, { type: "thinking", thinking: "[DONE:2]" }, { type: "toolCall", text: "[DONE:3]" }])),
  );
  assert.deepEqual(openTexts(snapshot.list), ["c"]);
  assert.deepEqual(openTexts(readSnapshot(chain(user(), plan, replyBlocks("[DONE:3]"))).list), ["a", "b"]);
  assert.deepEqual(openTexts(readSnapshot(chain(user(), plan, replyBlocks({ text: "[DONE:3]" }))).list), ["a", "b", "c"], "content neither text nor blocks");
  assert.deepEqual(openTexts(readSnapshot(chain(user(), plan, replyBlocks([{ type: "text", text: 3 }, { type: "thinking", thinking: {} }]))).list), ["a", "b", "c"]);
});

test("plan-mode: the reply's blocks are read one per line, so a mark never spans two blocks", () => {
  const plan = planSteps([1, "a", false], [12, "l", false]);
  const snapshot = readSnapshot(chain(user(), plan, replyBlocks([{ type: "text", text: "[DONE:1" }, { type: "text", text: "2]" }])));
  assert.deepEqual(openTexts(snapshot.list), ["l"]);
});

test("plan-mode: a list that is out of date is not changed by a later reply", () => {
  const plan = planSteps([1, "a", false]);
  const snapshot = readSnapshot(chain(user(), plan, stateEntry("plan-mode", { enabled: "?" }), replyBlocks("[DONE:1]")));
  assert.equal(snapshot.outOfDate, "unreadable");
  assert.deepEqual(openTexts(snapshot.list), ["a"]);
});

test("listState: plan-mode's list names no tool; an out-of-date snapshot without any list has no source", () => {
  const plan = listState(readSnapshot(chain(user(), planSteps([1, "a", false]))), true);
  assert.equal(plan.kind === "list" ? plan.tool : plan.kind, undefined);
  const script = { type: "message", message: { role: "toolResult", toolName: "codemode", details: {}, nestedCalls: { calls: [{ name: "todo" }], complete: true } } };
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant(), script)), true), { kind: "out-of-date", why: "codemode", open: 0, source: undefined });
});

test("stop: every stop kind of a kinded record is known by that kind", () => {
  for (const kind of ["clear", "no-list", "limit", "idle", "waiting", "question", "out-of-reach", "out-of-date", "outcome"]) {
    const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "any words", anchor: "u1", kind })));
    assert.deepEqual(snapshot.announced, [kind], kind);
  }
});

test("stop: a 0.1 record is known by how its reason starts, and only then", () => {
  const cases: Array<[string, string]> = [
    ["stopped: list is clear", "clear"],
    ["stopped: no list (no todo tool is active)", "no-list"],
    ["stopped: turn outcome was error", "outcome"],
    ["stopped: 1 continuation used, 2 tasks still open", "limit:maxRounds"],
    ["stopped: 12 continuations used, 2 tasks still open", "limit:maxRounds"],
    ["stopped: token limit reached (10 of 10 tokens since your message)", "limit:maxTokens"],
    ["stopped: cost limit reached ($1.00 of $1.00 since your message)", "limit:maxCost"],
    ['waiting for you: the agent asked: "Which one?"', "question"],
    ["waiting for you: which region?", "waiting"],
  ];
  for (const [reason, key] of cases) {
    assert.deepEqual(readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason, anchor: "u1" }))).announced, [key], reason);
    const quoted = `note: ${reason}`;
    assert.deepEqual(readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: quoted, anchor: "u1" }))).announced, [`reason:${quoted}`], quoted);
  }
});

test("stop: a 0.1 question record waits on the question; other records never make a wait", () => {
  const asked = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: 'waiting for you: the agent asked: "Which one?"', anchor: "u1" })));
  assert.deepEqual(asked.waiting, { reason: "Which one?", asked: true });
  for (const kind of ["clear", "limit", "waiting"]) {
    assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind }))).waiting, undefined, kind);
  }
});

test("stop: the question is taken from the record only when the whole reason is the agent-asked wording", () => {
  const cases: Array<[string, string]> = [
    ['note: waiting for you: the agent asked: "Which one?"', 'note: waiting for you: the agent asked: "Which one?"'],
    ['waiting for you: the agent asked: "Which one?" (later)', 'waiting for you: the agent asked: "Which one?" (later)'],
    ['waiting for you: the agent asked: "Say "yes"?"', 'Say "yes"?'],
  ];
  for (const [reason, question] of cases) {
    const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), stopRecord({ reason, anchor: "u1", kind: "question" })));
    assert.deepEqual(snapshot.waiting, { reason: question, asked: true }, reason);
  }
});

test("controls: only todo-loop:control custom entries are controls", () => {
  const lookalikes: Entry[] = [
    stateEntry("other-extension:control", { v: 1, action: "pause", anchor: "u1" }),
    { type: "custom_message", customType: "todo-loop:control", content: "x", display: false, data: { v: 1, action: "pause", anchor: "u1" } },
  ];
  for (const entry of lookalikes) assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), entry)).paused, false, JSON.stringify(entry));
});

test("controls: resume lifts the wait and makes the next wait a new stop, keeps the other stops and the counters", () => {
  const snapshot = readSnapshot(
    chain(
      user("a", { id: "u1" }),
      assistant(),
      marker({ round: 2, anchor: "u1", idle: 1, stale: 1 }),
      stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }),
      stopRecord({ reason: 'waiting for you: the agent asked: "Which one?"', anchor: "u1", kind: "question" }),
      control("resume"),
    ),
  );
  assert.equal(snapshot.waiting, undefined);
  assert.deepEqual(snapshot.announced, ["clear"]);
  assert.equal(snapshot.round, 2, "resume keeps the counters");
  const reset = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1" }), stopRecord({ reason: "stopped: list is clear", anchor: "u1", kind: "clear" }), control("reset")));
  assert.deepEqual(reset.announced, []);
});

test("controls: with no control on the branch nothing is paused, also when the list predates the message", () => {
  assert.equal(readSnapshot(chain(user("a"), assistant(), todoResult({ tasks: TWO_OPEN }), user("b"), assistant())).paused, false);
  assert.equal(readSnapshot(chain(user("a"), assistant())).paused, false);
});

test("controls: a resume before the newest list lifts a pause older than it", () => {
  const snapshot = readSnapshot(chain(user("a"), control("pause"), assistant(), control("resume"), todoResult({ tasks: TWO_OPEN }), user("b", { id: "u2" }), assistant()));
  assert.equal(snapshot.paused, false);
  const continued = readSnapshot(chain(user("a"), control("pause"), assistant(), control("continue"), todoResult({ tasks: TWO_OPEN }), user("b", { id: "u2" }), assistant()));
  assert.equal(continued.paused, false);
});

test("entries: only a message entry holds a message, only a custom_message is a marker, only a custom entry is a stop record or a state", () => {
  const fakeUser: Entry = { type: "custom", customType: "x", message: { role: "user", content: "hi" }, id: "fake" };
  assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), fakeUser)).anchor, "u1");
  const fakeMarker: Entry = { type: "custom", customType: "todo-loop:continue", details: { v: 1, round: 5, anchor: "u1" } };
  assert.equal(readSnapshot(chain(user("a", { id: "u1" }), assistant(), fakeMarker)).round, 0);
  const fakeStop: Entry = { type: "custom_message", customType: "todo-loop:stop", content: "x", display: false, data: { v: 1, kind: "clear", reason: "stopped: list is clear" } };
  assert.deepEqual(readSnapshot(chain(user("a", { id: "u1" }), assistant(), fakeStop)).announced, []);
  const fakeState: Entry = { type: "custom_message", customType: "rpiv-todo-state", content: "x", display: false, data: { tasks: "?", nextId: 1 } };
  assert.equal(readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), fakeState)).outOfDate, undefined);
  const bashResult: Entry = { type: "message", message: { role: "bashExecution", toolName: "todo", details: { tasks: "?" } } };
  const bash = readSnapshot(chain(user(), assistant(), bashResult));
  assert.equal(bash.todoToolUsed, false);
});

test("listState: an unreadable state entry of a todo source says unreadable; other extensions' entries say nothing", () => {
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant(), stateEntry("rpiv-todo-state", { tasks: "?" }))), false), { kind: "none", why: "unreadable" });
  assert.deepEqual(listState(readSnapshot(chain(user(), assistant(), stateEntry("other-extension:state", { tasks: "?" }))), false), { kind: "none", why: "no-tool" });
});

test("out of date: an unreadable state entry of another source leaves this source's list alone", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), todoResult({ tasks: TWO_OPEN }), stateEntry("pi-todo-state", { nextId: 1, tasks: [{ id: 1 }] })));
  assert.equal(snapshot.outOfDate, undefined);
  assert.equal(openCount(snapshot.list), 2);
});

test("listState: results of a todo tool that keeps its list elsewhere are the tool used, never an unreadable list", () => {
  const snapshot = readSnapshot(chain(user(), assistant(), toolResult("todo_read", { count: 2 })));
  assert.equal(snapshot.todoToolUsed, true);
  assert.deepEqual(listState(snapshot, true), { kind: "none", why: "unused" });
});

/** A codemode result whose script called these tools. */
function script(calls: unknown, complete = true): Entry {
  return { type: "message", message: { role: "toolResult", toolName: "codemode", details: {}, isError: false, nestedCalls: { calls, complete } } };
}

test("out of date: a script's calls leave a list from tool results out of date only when they name its tool or the record is incomplete", () => {
  const list = todoResult({ tasks: TWO_OPEN });
  const outOfDate = (...entries: Entry[]) => readSnapshot(chain(user(), assistant(), ...entries)).outOfDate;
  assert.equal(outOfDate(list, script([{ name: "bash" }, { name: "read" }])), undefined);
  assert.equal(outOfDate(list, script([null, "todo", { name: 5 }, { name: "bash" }])), undefined);
  assert.equal(outOfDate(list, script([{ name: "bash" }, { name: "todo" }])), "codemode");
  assert.equal(outOfDate(list, script([], false)), "codemode", "an incomplete record may have lost any call");
  assert.equal(outOfDate(list, script("calls", true)), undefined);
  assert.equal(outOfDate(list, { type: "message", message: { role: "toolResult", toolName: "codemode", details: {}, nestedCalls: "x" } }), undefined);
});

test("out of date: before any list, only a script that called a tool whose results carry a list, or an incomplete one with calls, counts", () => {
  const outOfDate = (entry: Entry) => readSnapshot(chain(user(), assistant(), entry)).outOfDate;
  assert.equal(outOfDate(script([{ name: "todo" }])), "codemode");
  assert.equal(outOfDate(script([{ name: "todo_write" }])), undefined, "that tool's list lands in custom entries");
  assert.equal(outOfDate(script([{ name: "TaskUpdate" }])), undefined);
  assert.equal(outOfDate(script([{ name: "bash" }], false)), "codemode");
  assert.equal(outOfDate(script([], false)), undefined, "an incomplete record of no call");
});

test("out of date: an unreadable result is one that succeeded (error null or false is no error; success false is one)", () => {
  const list = todoResult({ tasks: TWO_OPEN });
  const after = (details: unknown) => readSnapshot(chain(user(), assistant(), list, toolResult("todo", details))).outOfDate;
  assert.equal(after({ tasks: "?", error: null }), "unreadable");
  assert.equal(after({ tasks: "?", error: false }), "unreadable");
  assert.equal(after({ tasks: "?", success: true }), "unreadable");
  assert.equal(after(undefined), "unreadable", "a result with no details at all");
  assert.equal(after({ tasks: "?", success: false }), undefined);
  assert.equal(after({ tasks: "?", error: "not found" }), undefined);
});

test("junk: a branch that is not an array reads as an empty one: nothing paused, no work, nothing announced", () => {
  const snapshot = readSnapshot(junk({ length: 3 }));
  assert.deepEqual(
    [snapshot.paused, snapshot.hadWork, snapshot.announced, snapshot.length, snapshot.anchor],
    [false, false, [], 0, ""],
  );
  const reader = createBranchReader();
  assert.equal(reader.read({ getBranch: () => junk("nope") }).snapshot.length, 0);
});

test("branch reader: without getLeafId, entries added after an empty first read are seen", () => {
  const session = createSession<Entry>([]);
  const reader = createBranchReader();
  const manager = branchOnly(session, false);
  assert.equal(reader.read(manager).snapshot.length, 0);
  session.append(user("a", { id: "u1" }), todoResult({ tasks: TWO_OPEN, id: "t1" }));
  const next = reader.read(manager).snapshot;
  assert.equal(next.anchor, "u1");
  assert.equal(openCount(next.list), 2);
});

test("branch reader: an old leaf at the very start of the branch still makes a full read 'appended'", () => {
  const session = createSession(chain(user("a", { id: "u1" })));
  const reader = createBranchReader();
  const manager = branchOnly(session, true);
  reader.read(manager);
  session.append(assistant({ id: "a1" }));
  assert.equal(reader.read(manager).change, "appended");
});

test("plan-mode: only text and thinking that are strings are read from a reply, each from its own block type", () => {
  const plan = planSteps([1, "a", false], [2, "b", false]);
  const blocks = [
    { type: "text", text: ["[DONE:1]"] },
    { type: "thinking", thinking: ["[DONE:1]"] },
    { type: "toolCall", thinking: "[DONE:2]" },
    { type: "text", thinking: "[DONE:2]" },
  ];
  assert.deepEqual(openTexts(readSnapshot(chain(user(), plan, replyBlocks(blocks))).list), ["a", "b"]);
});

test("branch reader: entries without string ids give no leaf to compare, so a later full read is a first read again", () => {
  const entries: Entry[] = [
    { ...user("a"), id: undefined },
    { ...assistant(), id: undefined },
  ];
  const numbered = entries.map((entry, index) => ({ ...entry, id: index }));
  const reader = createBranchReader();
  const manager: SessionManagerLike = { getBranch: () => numbered };
  assert.equal(reader.read(manager).change, "first");
  assert.equal(reader.read(manager).change, "first");
});

// ---- §4.15 tasks from an earlier message ---------------------------------------------------------------------

const EARLIER_LIST = [task({ id: 1, subject: "Write tests" }), task({ id: 2, subject: "Ship it" })];

/** Both reads of a branch, which must agree on what §4.15 needs. */
function earlierOf(entries: Entry[]): Pick<Snapshot, "earlierOpen" | "earlierCarried" | "earlierAdopted" | "earlierShown" | "previousAnchor"> {
  const full = readSnapshot(entries);
  const folded = extendSnapshot(EMPTY_SNAPSHOT, entries);
  const pick = (snapshot: Snapshot) => ({
    earlierOpen: snapshot.earlierOpen,
    earlierCarried: snapshot.earlierCarried,
    earlierAdopted: snapshot.earlierAdopted,
    earlierShown: snapshot.earlierShown,
    previousAnchor: snapshot.previousAnchor,
  });
  assert.deepEqual(pick(full), pick(folded), "a full read and a fold from the start agree");
  return pick(full);
}

test("reader: §4.15 a message after an earlier message's open tasks: open as it arrived, not carried, not adopted", () => {
  const facts = earlierOf(chain(user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant({ text: "Done for now." }), user("what does parseArgs do?", { id: "u2" }), assistant({ text: "It parses." })));
  assert.deepEqual(facts, { earlierOpen: true, earlierCarried: false, earlierAdopted: false, earlierShown: undefined, previousAnchor: "u1" });
});

test("reader: §4.15 the message that creates the list is never earlier", () => {
  assert.equal(earlierOf(chain(user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant())).earlierOpen, false);
});

test("reader: §4.15 any call of the list's own tool under the message adopts it (a read counts, an error too), another tool's does not", () => {
  const before = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant(), user("go on?", { id: "u2" })];
  assert.equal(earlierOf(chain(...before, todoResult({ tasks: EARLIER_LIST, action: "list" }))).earlierAdopted, true, "a read that carries the list");
  assert.equal(earlierOf(chain(...before, todoResult({ tasks: [], isError: true }))).earlierAdopted, true, "a rejected call is a call of the tool");
  assert.equal(earlierOf(chain(...before, toolResult("read", { path: "README.md" }))).earlierAdopted, false, "pi's read is not the list's tool");
  assert.equal(earlierOf(chain(...before, nestedCallsResult([{ id: "c1", name: "todo" }]))).earlierAdopted, true, "a call of the list's tool from a codemode script");
});

test("reader: §4.15 a readable change of the list under the message adopts it; the same state again does not", () => {
  const before = [user("plan", { id: "u1" }), rpivState(EARLIER_LIST), assistant(), user("and now?", { id: "u2" })];
  assert.equal(earlierOf(chain(...before, rpivState(EARLIER_LIST))).earlierAdopted, false);
  assert.equal(earlierOf(chain(...before, rpivState([task({ id: 1, subject: "Write tests", status: "completed" }), task({ id: 2, subject: "Ship it" })]))).earlierAdopted, true);
});

test("reader: §4.15 /todoloop continue and resume under the message adopt the list; pause and reset do not; a marker does", () => {
  const before = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant(), user("hm", { id: "u2" })];
  assert.equal(earlierOf(chain(...before, control("continue", "u2"))).earlierAdopted, true);
  assert.equal(earlierOf(chain(...before, control("resume", "u2"))).earlierAdopted, true);
  assert.equal(earlierOf(chain(...before, control("pause", "u2"))).earlierAdopted, false);
  assert.equal(earlierOf(chain(...before, control("reset", "u2"))).earlierAdopted, false);
  assert.equal(earlierOf(chain(...before, marker({ round: 1, anchor: "u2" }))).earlierAdopted, true);
  assert.equal(earlierOf(chain(user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), control("continue", "u1"), assistant(), user("hm", { id: "u2" }))).earlierAdopted, false, "a consent under the earlier message is not one for this message");
});

test("reader: §4.15 a message that directly follows a tool result or a marker (steering, a follow-up) carries the list over; one after a reply does not", () => {
  const plan = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST })];
  assert.equal(earlierOf(chain(...plan, user("also handle -v", { id: "u2" }))).earlierCarried, true, "after a tool result");
  assert.equal(earlierOf(chain(...plan, assistant(), marker({ round: 1, anchor: "u1" }), user("also handle -v", { id: "u2" }))).earlierCarried, true, "after a marker");
  assert.equal(earlierOf(chain(...plan, assistant(), marker({ round: 1, anchor: "u1" }), stopRecord({ reason: "x", anchor: "u1", kind: "idle" }), user("hi", { id: "u2" }))).earlierCarried, true, "hidden records in between do not count");
  assert.equal(earlierOf(chain(...plan, assistant(), user("hi", { id: "u2" }))).earlierCarried, false, "after the run ended on a reply");
  assert.equal(earlierOf(chain(...plan, assistant(), marker({ round: 1, anchor: "u1" }), assistant(), user("hi", { id: "u2" }))).earlierCarried, false);
  assert.equal(earlierOf(chain(...plan, assistant(), customMessage("other-extension:note"), user("hi", { id: "u2" }))).earlierCarried, false, "another extension's message is no marker");
});

test("reader: §4.15 a message that answers a wait (a question or a block) carries the list over; a wait lifted first does not", () => {
  const plan = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant({ text: "Postgres or SQLite?" })];
  const question = stopRecord({ reason: 'waiting for you: the agent asked: "Postgres or SQLite?"', anchor: "u1", kind: "question" });
  assert.equal(earlierOf(chain(...plan, question, user("SQLite", { id: "u2" }))).earlierCarried, true, "the question's stop record");
  assert.equal(earlierOf(chain(user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), blockResult("need the key", "u1"), assistant(), user("here it is", { id: "u2" }))).earlierCarried, true, "the block tool's result");
  assert.equal(earlierOf(chain(...plan, question, control("resume", "u1"), user("hi", { id: "u2" }))).earlierCarried, false);
});

test("reader: §4.15 the newest earlier stop keeps its list state across messages, until the list is touched or a marker follows", () => {
  const held = stopRecord({ reason: "not continuing", anchor: "u2", kind: "earlier" });
  const record = { ...held, data: { ...(held.data as Record<string, unknown>), list: "0badc0de" } };
  const base = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant(), user("hi", { id: "u2" }), assistant(), record];
  assert.equal(earlierOf(chain(...base, user("hello", { id: "u3" }), assistant())).earlierShown, "0badc0de", "a later chat message sees it");
  assert.equal(earlierOf(chain(...base, user("read it", { id: "u3" }), todoResult({ tasks: EARLIER_LIST, action: "list" }))).earlierShown, undefined, "the agent touched the list");
  assert.equal(earlierOf(chain(...base, marker({ round: 1, anchor: "u2" }))).earlierShown, undefined, "the loop went on with it");
  // The incremental reader agrees, reading record by record.
  const session = createSession(chain(...base, user("hello", { id: "u3" })));
  assert.equal(createBranchReader().read(session).snapshot.earlierShown, "0badc0de");
});

// ---- §4.10 busy but stuck: what each reply did ----------------------------------------------------------

/** The reply the newest assistant message ended, read from a branch that starts with a human message. */
function replyOf(...entries: (Entry | Entry[])[]) {
  return readSnapshot(chain(user("a", { id: "u1" }), ...entries.flat())).reply.last;
}

const LIST_CALL = { action: "list" };
const LISTED = { ...rpivDetailsOf(), action: "list" };

function rpivDetailsOf(): Record<string, unknown> {
  return { action: "create", params: {}, tasks: TWO_OPEN, nextId: 3 };
}

test("reply: a reply ends at an assistant message without a tool call; one with calls, an errored or an aborted one does not end it", () => {
  assert.equal(replyOf(assistantCalls([{ id: "c1", name: "read", args: { path: "a.ts" } }])), undefined);
  assert.ok(replyOf(called("c1", "read", { path: "a.ts" }), assistant({ text: "Read it." })));
  const errored = { ...assistant({ text: "boom" }), message: { ...assistant().message, stopReason: "error" } };
  assert.equal(replyOf(called("c1", "bash", { command: "x" }), errored), undefined);
});

test("reply: re-reading the list (rpiv-todo list) is no progress; reading it the first time under this message is", () => {
  const first = replyOf(called("c1", "todo", LIST_CALL, { details: LISTED }), assistant());
  assert.equal(first?.progress, true, "the first read under the message explores");
  const again = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "todo", LIST_CALL, { details: LISTED }), assistant(), ...called("c2", "todo", LIST_CALL, { details: LISTED }), assistant()));
  assert.equal(again.reply.last?.progress, false, "the same read again");
});

test("reply: reading another path or pattern is progress; the same read with its keys in another order is not", () => {
  const base = [user("a", { id: "u1" }), ...called("c1", "read", { path: "a.ts", limit: 10 }), assistant()];
  assert.equal(readSnapshot(chain(...base, ...called("c2", "read", { path: "b.ts", limit: 10 }), assistant())).reply.last?.progress, true);
  assert.equal(readSnapshot(chain(...base, ...called("c2", "grep", { pattern: "todo" }), assistant())).reply.last?.progress, true);
  assert.equal(readSnapshot(chain(...base, ...called("c2", "read", { limit: 10, path: "a.ts" }), assistant())).reply.last?.progress, false);
});

test("reply: a new human message forgets what was read: the same read is progress again", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "read", { path: "a.ts" }), assistant(), user("b", { id: "u2" }), ...called("c2", "read", { path: "a.ts" }), assistant()));
  assert.equal(snapshot.reply.last?.progress, true);
});

test("reply: edits, writes, commands (even failing ones) and unknown tools are progress; a failed edit or write and a rejected todo change are not", () => {
  assert.equal(replyOf(called("c1", "edit", { path: "a.ts" }), assistant())?.progress, true);
  assert.equal(replyOf(called("c1", "write", { path: "a.ts" }), assistant())?.progress, true);
  assert.equal(replyOf(called("c1", "bash", { command: "npm test" }, { isError: true }), assistant())?.progress, true, "a failing command ran");
  assert.equal(replyOf(called("c1", "web_fetch", { url: "x" }, { isError: true }), assistant())?.progress, true, "another extension's tool: the loop cannot tell");
  assert.equal(replyOf(called("c1", "edit", { path: "a.ts" }, { isError: true }), assistant())?.progress, false);
  assert.equal(replyOf(called("c1", "write", { path: "a.ts" }, { isError: true }), assistant())?.progress, false);
  assert.equal(replyOf(called("c1", "todo", { action: "update", id: 9 }, { details: { ...rpivDetailsOf(), error: "no task 9" } }), assistant())?.progress, false);
  assert.equal(replyOf(called("c1", "todo", { action: "update", id: 1, status: "completed" }, { details: rpivDetailsOf() }), assistant())?.progress, true);
});

test("reply: the block tool and pi's read, grep, find and ls only read", () => {
  for (const name of ["read", "grep", "find", "ls", "todo_loop_block"]) {
    const snapshot = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", name, { path: "x" }), assistant(), ...called("c2", name, { path: "x" }), assistant()));
    assert.equal(snapshot.reply.last?.progress, false, name);
  }
});

test("reply: every adapter declares its tool's read-only calls (list/get, TaskList/TaskGet, todo_read); writes, and another tool's action of the same name, stay progress", () => {
  const reads: readonly [string, unknown][] = [
    ["todo", { action: "list" }],
    ["todo", { action: "get", id: 1 }],
    ["TaskList", {}],
    ["TaskGet", { taskId: "1" }],
    ["todo_read", {}],
    ["todoread", {}],
  ];
  for (const [name, args] of reads) assert.equal(TOOL_TABLE.readsOnly(name, args), true, `${name} ${JSON.stringify(args)}`);
  const writes: readonly [string, unknown][] = [
    ["todo", { action: "create", subject: "x" }],
    ["todo", { action: "update", id: 1 }],
    ["todo", { action: "add", texts: ["x"] }],
    ["todo", { todos: [] }],
    ["todo", undefined],
    ["notes", { action: "list" }],
    ["TaskUpdate", { taskId: "1" }],
    ["TaskCreate", {}],
    ["todo_write", { todos: [] }],
    ["bash", { command: "ls" }],
    ["edit", {}],
  ];
  for (const [name, args] of writes) assert.equal(TOOL_TABLE.readsOnly(name, args), false, `${name} ${JSON.stringify(args)}`);
});

test("reply: a codemode call is progress only through its nested calls: one not known to only read, or an incomplete record", () => {
  const script = (nestedCalls: unknown) => replyOf(called("c1", "codemode", { code: "…" }, { nestedCalls }), assistant())?.progress;
  assert.equal(script({ calls: [{ id: "n1", name: "todo", arguments: { action: "list" }, status: "ok" }, { id: "n2", name: "read", arguments: { path: "a" }, status: "ok" }], complete: true }), false);
  assert.equal(script({ calls: [{ id: "n1", name: "edit", arguments: { path: "a" }, status: "ok" }], complete: true }), true);
  assert.equal(script({ calls: [{ id: "n1", name: "read", arguments: { path: "a" }, status: "ok" }], complete: false }), true);
  assert.equal(script({ calls: [{ id: "n1", name: "todo", status: "ok" }], complete: true }), true, "a todo call whose arguments were not kept may have written");
  assert.equal(script(undefined), false, "a script that called nothing");
  assert.equal(script({ calls: [null], complete: true }), true, "an unreadable nested call: the loop cannot tell");
});

test("reply: a result whose call is not on the branch is progress (the loop cannot tell what it did)", () => {
  assert.equal(replyOf(assistant({ text: "x" }), toolResult("read", {}), assistant())?.progress, true);
});

test("reply: the fingerprint is the final text (whitespace collapsed, thinking ignored) plus every call's name, canonical arguments and error flag, in order", () => {
  const fp = (...entries: Entry[][]) => replyOf(...entries)?.fingerprint;
  const plain = fp([assistant({ text: "Still  failing.\n" })]);
  assert.equal(plain, fp([assistant({ text: " Still failing." })]), "whitespace collapsed");
  assert.notEqual(plain, fp([assistant({ text: "Still failing!" })]));
  const run = (args: unknown, isError: boolean, text = "Still failing.") => fp(called("c1", "bash", args, { isError }), [assistant({ text })]);
  assert.equal(run({ command: "npm test", timeout: 60 }, true), run({ timeout: 60, command: "npm test" }, true), "keys sorted");
  assert.notEqual(run({ command: "npm test" }, true), run({ command: "npm test" }, false), "the error flag counts");
  assert.notEqual(run({ command: "npm test" }, true), run({ command: "npm run test" }, true));
  const thinking = (words: string) => fp(
    [assistantCalls([{ id: "c1", name: "bash", args: { command: "npm test" } }], { thinking: words }), callResult("c1", "bash", { isError: true })],
    [assistant({ text: "Still failing." })],
  );
  assert.equal(thinking("first thought"), thinking("other thought"), "thinking is not part of it");
  const ordered = fp([assistantCalls([{ id: "c1", name: "read", args: { path: "a" } }, { id: "c2", name: "read", args: { path: "b" } }]), callResult("c1", "read"), callResult("c2", "read")], [assistant()]);
  const reversed = fp([assistantCalls([{ id: "c2", name: "read", args: { path: "b" } }, { id: "c1", name: "read", args: { path: "a" } }]), callResult("c2", "read"), callResult("c1", "read")], [assistant()]);
  assert.notEqual(ordered, reversed, "calls in order");
});

test("reply: two identical replies in a row have the same fingerprint; the reply after a settle starts afresh", () => {
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "bash", { command: "npm test" }, { isError: true }), assistant({ text: "Fails." })));
  const again = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "bash", { command: "npm test" }, { isError: true }), assistant({ text: "Fails." }), marker({ round: 1, anchor: "u1", idle: 1 }), ...called("c2", "bash", { command: "npm test" }, { isError: true }), assistant({ text: "Fails." })));
  assert.equal(again.reply.last?.fingerprint, snapshot.reply.last?.fingerprint);
});

test("reply: what was read is kept per human message and bounded (the oldest reads go first)", () => {
  const entries: Entry[] = [user("a", { id: "u1" })];
  for (let index = 0; index < MAX_READ_KEYS + 10; index++) entries.push(...called(`c${index}`, "read", { path: `f${index}` }));
  entries.push(assistant());
  const snapshot = readSnapshot(chain(...entries));
  assert.equal(snapshot.reply.readKeys.length, MAX_READ_KEYS);
  assert.equal(snapshot.reply.last?.progress, true);
});

test("reply: the incremental reader folds the same reply facts as a full read", () => {
  const entries = chain(user("a", { id: "u1" }), ...called("c1", "read", { path: "a" }), assistant(), marker({ round: 1, anchor: "u1", idle: 1 }), ...called("c2", "read", { path: "a" }), ...called("c3", "bash", { command: "x" }, { isError: true }), assistant({ text: "again" }));
  const session = createSession<Entry>([]);
  const reader = createBranchReader();
  let incremental: Snapshot = EMPTY_SNAPSHOT;
  for (const entry of entries) {
    session.append(entry);
    incremental = reader.read(session).snapshot;
  }
  assert.deepEqual(incremental.reply, readSnapshot(entries).reply);
  assert.equal(incremental.reply.last?.progress, true, "the failing command");
});

test("markers: stuck, fp and repeats come from the newest marker's details; a reset or a new message clears them", () => {
  const counted = { ...marker({ round: 2, anchor: "u1", idle: 2 }), details: { ...markerDetails({ round: 2, anchor: "u1", idle: 2 }), stuck: 3, fp: "fp-x", repeats: 2 } };
  const snapshot = readSnapshot(chain(user("a", { id: "u1" }), assistant(), counted, assistant()));
  assert.deepEqual({ stuck: snapshot.stuck, fp: snapshot.fp, repeats: snapshot.repeats }, { stuck: 3, fp: "fp-x", repeats: 2 });
  const reset = readSnapshot(chain(user("a", { id: "u1" }), assistant(), counted, control("reset")));
  assert.deepEqual({ stuck: reset.stuck, fp: reset.fp, repeats: reset.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
  const next = readSnapshot(chain(user("a", { id: "u1" }), assistant(), counted, user("b", { id: "u2" })));
  assert.deepEqual({ stuck: next.stuck, fp: next.fp, repeats: next.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
  const legacy = readSnapshot(chain(user("a", { id: "u1" }), assistant(), marker({ round: 2, anchor: "u1", idle: 2 })));
  assert.deepEqual({ stuck: legacy.stuck, fp: legacy.fp, repeats: legacy.repeats }, { stuck: 0, fp: undefined, repeats: 0 }, "a 0.2 marker has none: counting starts again");
  const junk = { ...counted, details: { ...counted.details, stuck: -1, fp: 7, repeats: 1.5 } };
  const odd = readSnapshot(chain(user("a", { id: "u1" }), assistant(), junk));
  assert.deepEqual({ stuck: odd.stuck, fp: odd.fp, repeats: odd.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
});

test("canonicalJson: keys sorted at every level; never throws on cycles, depth or values JSON cannot hold", () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: "x" } }), '{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}');
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = cycle;
  assert.equal(canonicalJson(cycle), '{"a":1,"self":"<…>"}');
  assert.equal(canonicalJson([Number.NaN, undefined, () => 1, 10n]), '[null,null,"<function>","<bigint>"]');
  let deep: unknown = 1;
  for (let index = 0; index < 200; index++) deep = [deep];
  assert.ok(canonicalJson(deep).includes("<…>"));
  assert.equal(hashText("a").length, 28);
  assert.notEqual(hashText("a"), hashText("b"));
});

test("reply: a todo tool's read reads the list: after the agent's own todo call it is re-reading (list or get, any id); after the list changed elsewhere it is new", () => {
  const created = called("c1", "todo", { action: "create", subject: "Write tests" }, { details: rpivDetailsOf() });
  const afterCreate = (id: string, args: unknown) => readSnapshot(chain(user("a", { id: "u1" }), ...created, assistant(), ...called(id, "todo", args, { details: LISTED }), assistant()));
  assert.equal(afterCreate("c2", LIST_CALL).reply.last?.progress, false, "the list the agent just wrote");
  assert.equal(afterCreate("c2", { action: "get", id: 2 }).reply.last?.progress, false, "a task of it");
  const elsewhere = readSnapshot(chain(user("a", { id: "u1" }), ...created, assistant(), rpivState([task({ id: 1, status: "in_progress" })]), ...called("c2", "todo", LIST_CALL, { details: { action: "list", params: {}, tasks: [task({ id: 1, status: "in_progress" })], nextId: 2 } }), assistant()));
  assert.equal(elsewhere.reply.last?.progress, true, "the list changed since the agent last saw it");
  const failed = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "todo", LIST_CALL, { isError: true }), assistant()));
  assert.equal(failed.reply.last?.progress, false, "a read that failed read nothing");
  const tintinweb = readSnapshot(chain(user("a", { id: "u1" }), ...called("c1", "TaskCreate", { subject: "x" }), assistant(), ...called("c2", "TaskList", {}), assistant()));
  assert.equal(tintinweb.reply.last?.progress, false, "a list kept in a file: read after the agent's own call");
});

// ---- reader guards: the session's pause, the facts before any message, and the plan-mode stack ------------

test("sessionPaused: the newest pause, resume or continue anywhere in the session decides; reset and junk do not", () => {
  assert.equal(sessionPaused([]), false);
  assert.equal(sessionPaused("not entries" as unknown as unknown[]), false);
  assert.equal(sessionPaused([control("pause")]), true);
  assert.equal(sessionPaused([null, 5, "x", control("pause")]), true, "junk before the pause is skipped");
  assert.equal(sessionPaused([control("pause"), null]), true, "junk after it too");
  assert.equal(sessionPaused([control("pause"), control("resume")]), false);
  assert.equal(sessionPaused([control("pause"), control("continue")]), false);
  assert.equal(sessionPaused([control("resume"), control("pause")]), true);
  assert.equal(sessionPaused([control("pause"), control("reset")]), true, "a reset keeps the pause");
  assert.equal(sessionPaused([control("pause"), control("bogus")]), true, "an unknown action is no control");
});

test("reader: before any human message there are no earlier-message facts, even with a list on the branch", () => {
  for (const snapshot of [readSnapshot([]), EMPTY_SNAPSHOT, readSnapshot(chain(rpivState([task({ id: 1 })]))), extendSnapshot(EMPTY_SNAPSHOT, chain(rpivState([task({ id: 1 })])))]) {
    assert.equal(snapshot.earlierOpen, false);
    assert.equal(snapshot.earlierCarried, false);
    assert.equal(snapshot.earlierAdopted, false);
    assert.equal(snapshot.earlierShown, undefined);
    assert.equal(snapshot.previousAnchor, "");
  }
});

test("reader: only an earlier stop record with a string list is the list it was shown for; another stop keeps it", () => {
  const record = (data: Record<string, unknown>) => stateEntry("todo-loop:stop", { v: 1, round: 0, open: 2, anchor: "e3", reason: "x", ...data });
  const open = rpivState([task({ id: 1 }), task({ id: 2 })]);
  assert.equal(earlierOf(chain(user(), open, user("next"), record({ kind: "earlier", list: "abc" }))).earlierShown, "abc");
  assert.equal(earlierOf(chain(user(), open, user("next"), record({ kind: "clear", list: "abc" }))).earlierShown, undefined, "another kind's list field");
  assert.equal(earlierOf(chain(user(), open, user("next"), record({ kind: "earlier", list: 5 }))).earlierShown, undefined, "a list that is no string");
  assert.equal(earlierOf(chain(user(), open, user("next"), record({ kind: "earlier", list: "abc" }), record({ kind: "idle" }))).earlierShown, "abc", "a later stop of another kind keeps it");
});

test("reader: a codemode script adopts the list when any of its calls is the list's tool, junk calls skipped", () => {
  const open = rpivState([task({ id: 1 }), task({ id: 2 })]);
  const adopted = (calls: unknown[]) => earlierOf(chain(user(), open, user("next"), nestedCallsResult(calls))).earlierAdopted;
  assert.equal(adopted([{ name: "read", arguments: {} }, { name: "todo", arguments: { action: "list" } }]), true, "one call of two");
  assert.equal(adopted([null, 7, { name: 5 }, { name: "todo", arguments: {} }]), true, "after junk calls");
  assert.equal(adopted([{ name: "read", arguments: {} }]), false);
});

test("reader: another extension's hidden message between a tool result and the next message means the message was not carried over", () => {
  const open = rpivState([task({ id: 1 }), task({ id: 2 })]);
  assert.equal(earlierOf(chain(user(), open, toolResult("read", {}), user("next"))).earlierCarried, true, "right after a tool result: a follow-up");
  assert.equal(earlierOf(chain(user(), open, toolResult("read", {}), customMessage(), user("next"))).earlierCarried, false);
});

test("reader: a plan-mode reply that closes a step adopts an earlier plan; one that closes nothing does not", () => {
  const plan = planSteps([1, "a", false], [2, "b", false]);
  const earlierRecord = stateEntry("todo-loop:stop", { v: 1, kind: "earlier", list: "shown", round: 0, open: 2, anchor: "e3", reason: "x" });
  const closed = earlierOf(chain(user(), plan, user("next"), earlierRecord, replyBlocks("[DONE:1]")));
  assert.equal(closed.earlierAdopted, true);
  assert.equal(closed.earlierShown, undefined, "the list changed: a later earlier stop is news again");
  const quiet = earlierOf(chain(user(), plan, user("next"), earlierRecord, replyBlocks("Looking at it.")));
  assert.equal(quiet.earlierAdopted, false);
  assert.equal(quiet.earlierShown, "shown");
  assert.equal(earlierOf(chain(user(), plan, user("next"), replyBlocks("[DONE:9]"))).earlierAdopted, false, "a mark of no step changes nothing");
});

test("reader: plan mode switched off uncovers the list another source holds below it, in both reads", () => {
  const rpiv = rpivState([task({ id: 1, subject: "Below" }), task({ id: 2, subject: "Done", status: "completed" })]);
  const off = stateEntry("plan-mode", { enabled: false });
  for (const entries of [
    chain(user(), rpiv, planSteps([1, "a", false]), off),
    chain(user(), rpiv, planSteps([1, "a", false]), planSteps([1, "a", true]), off),
    chain(user(), rpiv, user("plan it"), planSteps([1, "a", false]), user("go"), off),
  ]) {
    for (const snapshot of [readSnapshot(entries), extendSnapshot(EMPTY_SNAPSHOT, entries)]) {
      assert.equal(snapshot.list?.source, "rpiv-todo");
      assert.deepEqual(openTexts(snapshot.list), ["Below"]);
      assert.deepEqual(snapshot.lists.map((list) => list.source), ["rpiv-todo"]);
    }
  }
  const alone = readSnapshot(chain(user(), planSteps([1, "a", false]), off));
  assert.equal(alone.list, undefined, "nothing below: no list at all");
  assert.deepEqual(alone.lists, []);
  const rpivOnTop = readSnapshot(chain(user(), planSteps([1, "a", false]), rpiv, off));
  assert.equal(rpivOnTop.list?.source, "rpiv-todo", "plan mode off under another source's newer list changes nothing");
});

test("reader: a marker's empty fp is none; a verification marker with an infinite duration or non-text content keeps the defaults", () => {
  const withDetails = (details: Record<string, unknown>, content: unknown = "Continue."): Entry => ({ type: "custom_message", customType: "todo-loop:continue", content, display: false, details: { v: 1, round: 1, anchor: "e1", open: 1, ...details } });
  const open = rpivState([task({ id: 1 })]);
  assert.equal(readSnapshot(chain(user(), open, withDetails({ fp: "" }))).fp, undefined);
  assert.equal(readSnapshot(chain(user(), open, withDetails({ fp: "abc" }))).fp, "abc");
  const fence = "```text\nboom\n```";
  const verify = { command: "npm test", run: 1, exit: 1, seconds: Number.POSITIVE_INFINITY };
  const memo = readSnapshot(chain(user(), open, withDetails({ verify }, `Fix it.\n${fence}\nThe user comes first.`))).verify;
  assert.equal(memo?.seconds, 0, "an infinite duration reads as 0");
  assert.equal(memo?.output, fence);
  const blocks = readSnapshot(chain(user(), open, withDetails({ verify: { ...verify, seconds: 3 } }, [fence]))).verify;
  assert.equal(blocks?.seconds, 3);
  assert.equal(blocks?.output, "```text\n(no output)\n```", "content that is not a string carries no output");
});

/** The branch behind a proxy that records which positions were read, and any read outside the array. */
function watched(entries: Entry[]): { branch: Entry[]; read: Set<number>; outside: string[] } {
  const read = new Set<number>();
  const outside: string[] = [];
  const branch = new Proxy(entries, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^-?\d+$/.test(key)) {
        const index = Number(key);
        if (index < 0 || index >= target.length) outside.push(key);
        else read.add(index);
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { branch, read, outside };
}

test("reader: a full read starts at the newest list or the message before the anchor, whichever is older, and reads nothing older than the control before it", () => {
  const entries = chain(
    user("old"),
    rpivState([task({ id: 1, subject: "Old" })]),
    assistant(),
    control("resume"),
    rpivState([task({ id: 1, subject: "Current" }), task({ id: 2, subject: "Next" })]),
    user("previous"),
    assistant(),
    user("anchor"),
    assistant(),
  );
  const { branch, read, outside } = watched(entries);
  const snapshot = readSnapshot(branch);
  assert.deepEqual(outside, [], "no position outside the branch is read");
  assert.equal(Math.min(...read), 3, "the walk back for the pause stops at the control; nothing older is read");
  assert.deepEqual(openTexts(snapshot.list), ["Current", "Next"]);
  assert.equal(snapshot.previousAnchor, "e6");
  assert.equal(snapshot.anchor, "e8");
  assert.deepEqual(snapshot, readSnapshot(entries));
  assert.deepEqual({ ...snapshot, reply: undefined }, { ...extendSnapshot(EMPTY_SNAPSHOT, entries), reply: undefined }, "the same as folding every entry");
});

test("reader: a full read with no earlier message, or no list before the anchor, reads from the first entry and never before it", () => {
  for (const entries of [
    chain(rpivState([task({ id: 1 })]), assistant(), user("anchor"), assistant()),
    chain(user("previous"), assistant(), user("anchor"), rpivState([task({ id: 1 })]), assistant()),
    chain(assistant(), user("anchor"), assistant()),
  ]) {
    const { branch, read, outside } = watched(entries);
    readSnapshot(branch);
    assert.deepEqual(outside, [], "no position outside the branch is read");
    assert.equal(Math.min(...read), 0);
  }
  const { branch, outside } = watched(chain(control("pause"), user()));
  assert.equal(sessionPaused(branch), true);
  assert.deepEqual(outside, [], "the session's pause reads no position outside it");
});

test("reader: the first human message, and one right after another, arrive after no work: nothing carried over", () => {
  assert.equal(earlierOf(chain(user())).earlierCarried, false);
  assert.equal(earlierOf(chain(rpivState([task({ id: 1 })]), user())).earlierCarried, false);
  assert.equal(earlierOf(chain(user(), rpivState([task({ id: 1 })]), user("next"), user("again"))).earlierCarried, false);
  assert.equal(EMPTY_SNAPSHOT.afterWork, false);
});

test("reader: plan mode switched off with no list on the branch, or with only another source's list, holds no plan", () => {
  const off = stateEntry("plan-mode", { enabled: false });
  for (const entries of [chain(user(), off), chain(off, user(), off)]) {
    for (const snapshot of [readSnapshot(entries), extendSnapshot(EMPTY_SNAPSHOT, entries)]) {
      assert.equal(snapshot.list, undefined);
      assert.deepEqual(snapshot.lists, []);
    }
  }
  const rpiv = readSnapshot(chain(user(), rpivState([task({ id: 1, subject: "Kept" })]), off));
  assert.deepEqual(openTexts(rpiv.list), ["Kept"]);
});
