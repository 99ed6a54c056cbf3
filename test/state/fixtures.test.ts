/**
 * The branch reader (src/state.ts, SPEC §9) over every shared fixture of a real todo tool's session: the
 * table of what each reads as, the fixtures with tests of their own, and the incremental read of each.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createBranchReader, EMPTY_SNAPSHOT, listState, openCount, readList, readSnapshot } from "../../src/state.ts";
import type { Snapshot } from "../../src/state.ts";
import type { SourceId } from "../../src/core/types.ts";
import { entriesOf, FIXTURES_DIR } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { createSession } from "../fake-pi.ts";
import { texts, openTexts } from "./branches.ts";

const FIXTURES = FIXTURES_DIR;

function fixture(name: string): Entry[] {
  return entriesOf(JSON.parse(readFileSync(join(FIXTURES, name), "utf8")));
}

/** Folders of fixtures that are not todo state: the payloads of work in flight, the layer test's tree. */
const NOT_STATE = ["work/", "layers/"];

function allFixtures(): string[] {
  return readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
    .map((name) => name.split("\\").join("/"))
    .filter((name) => name.endsWith(".json") && !NOT_STATE.some((folder) => name.startsWith(folder)))
    .sort();
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
