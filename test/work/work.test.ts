/**
 * Work in flight (SPEC §4.17): each source's adapter against its real payload shapes
 * (test/fixtures/work/), the in-flight tracker, and the bad input the issue lists — an end never started,
 * the same start twice, a wrong shape, a throwing getter, ten thousand start/end pairs, work of another
 * session, and a result message that arrives before the end event.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  applyAllWork,
  applyWork,
  inFlight,
  isHere,
  listWork,
  MAX_TRACKED_WORK,
  NO_WORK,
  reconcileSource,
  WORK_LABEL_MAX,
  workEndedSince,
  workLabel,
} from "../../src/core/work.ts";
import type { WorkEvent, WorkState } from "../../src/core/work.ts";
import { aliouPiProcesses } from "../../src/work/aliou-pi-processes.ts";
import {
  holdsResults,
  isWorkResult,
  readWork,
  WORK_CHANNEL,
  WORK_CHANNELS,
  WORK_RESULT_TYPES,
  WORK_SNAPSHOTS,
  WORK_SOURCES,
  workSourceLabel,
} from "../../src/work/index.ts";
import { nicobailonPiSubagents } from "../../src/work/nicobailon-pi-subagents.ts";
import { piCode } from "../../src/work/pi-code.ts";
import { tintinwebPiSubagents } from "../../src/work/tintinweb-pi-subagents.ts";
import { todoLoopWork } from "../../src/work/todo-loop-work.ts";
import { fieldsOf, MAX_WORK_ID, sessionOf, workEvent, workId, workLabelOf } from "../../src/work/types.ts";
import type { WorkSource } from "../../src/work/types.ts";

const DIR = new URL("../fixtures/work/", import.meta.url).pathname;

type Json = { readonly [key: string]: unknown };

function fixture(folder: string, name: string): Json {
  const value: unknown = JSON.parse(readFileSync(join(DIR, folder, `${name}.json`), "utf8"));
  assert.ok(typeof value === "object" && value !== null && !Array.isArray(value));
  return value as Json;
}

/** A fixture event: its channel and payload. */
function heard(folder: string, name: string): { channel: string; payload: unknown } {
  const file = fixture(folder, name);
  assert.equal(typeof file.channel, "string");
  return { channel: String(file.channel), payload: file.payload };
}

function read(source: WorkSource, folder: string, name: string) {
  const { channel, payload } = heard(folder, name);
  return source.read(channel, payload);
}

const MINE = "/home/dev/.pi/agent/sessions/--home-dev-app--/2026-08-22T09-58-01-112Z_5f0c2a9e-1d7b-4c8e-9a41-2b6f3e8d7c10.jsonl";
const HERE = ["5f0c2a9e-1d7b-4c8e-9a41-2b6f3e8d7c10", MINE];

/** Replays fixture events through `readWork` into a tracker, one second apart. */
function replay(folder: string, names: readonly string[], here: readonly string[] = HERE, from: WorkState = NO_WORK): WorkState {
  let state = from;
  names.forEach((name, index) => {
    const { channel, payload } = heard(folder, name);
    const events = readWork(channel, payload);
    assert.ok(events !== undefined, `${folder}/${name} reads`);
    state = applyAllWork(state, events, 1_000 * (index + 1), here);
  });
  return state;
}

// --- each source against its fixtures ----------------------------------------------------------------

test("nicobailon: async-started starts the run with its agent and the session it names", () => {
  assert.deepEqual(read(nicobailonPiSubagents, "nicobailon-pi-subagents", "async-started"), [
    { source: "nicobailon-pi-subagents", id: "a1b2c3d4", phase: "start", label: "reviewer", session: MINE },
  ]);
  assert.deepEqual(read(nicobailonPiSubagents, "nicobailon-pi-subagents", "async-started-chain"), [
    { source: "nicobailon-pi-subagents", id: "e5f6a7b8", phase: "start", label: "scout", session: MINE },
  ]);
});

test("nicobailon: process-terminal ends the run whether its proof was observed or unknown; async-complete ends it by runId", () => {
  assert.deepEqual(read(nicobailonPiSubagents, "nicobailon-pi-subagents", "process-terminal"), [
    { source: "nicobailon-pi-subagents", id: "a1b2c3d4", phase: "end" },
  ]);
  assert.deepEqual(read(nicobailonPiSubagents, "nicobailon-pi-subagents", "process-terminal-unknown"), [
    { source: "nicobailon-pi-subagents", id: "e5f6a7b8", phase: "end" },
  ]);
  assert.deepEqual(read(nicobailonPiSubagents, "nicobailon-pi-subagents", "async-complete"), [
    { source: "nicobailon-pi-subagents", id: "a1b2c3d4", phase: "end", session: MINE },
  ]);
});

test("nicobailon: a pending proof is no end, an async-complete without runId falls back to id, and a proof needs a state", () => {
  const read = (channel: string, payload: unknown) => nicobailonPiSubagents.read(channel, payload);
  assert.deepEqual(read("subagent:process-terminal", { version: 1, state: "pending", runId: "r1" }), []);
  assert.equal(read("subagent:process-terminal", { version: 1, runId: "r1" }), undefined);
  assert.equal(read("subagent:process-terminal", { version: 1, state: "observed" }), undefined);
  assert.deepEqual(read("subagent:async-complete", { id: "r2", success: false }), [{ source: "nicobailon-pi-subagents", id: "r2", phase: "end" }]);
  assert.deepEqual(read("subagent:async-complete", { runId: "r3", id: "other" }), [{ source: "nicobailon-pi-subagents", id: "r3", phase: "end" }]);
  assert.equal(read("subagent:async-complete", { success: true }), undefined);
  assert.deepEqual(read("subagent:async-started", { id: "r4", agent: 7, sessionId: "" }), [{ source: "nicobailon-pi-subagents", id: "r4", phase: "start" }]);
});

test("nicobailon: a run starts, its runner closes, the result message comes, then async-complete: nothing left, one end counted", () => {
  const names = ["async-started", "process-terminal", "async-complete"];
  const state = replay("nicobailon-pi-subagents", names);
  assert.equal(inFlight(state), 0);
  assert.equal(state.ends, 1, "the second end of the same run is ignored");
  assert.equal(state.lastEndAt, 2_000);
});

test("tintinweb: a background agent starts with its description; completed and failed end it", () => {
  assert.deepEqual(read(tintinwebPiSubagents, "tintinweb-pi-subagents", "created"), [
    { source: "tintinweb-pi-subagents", id: "k3x9q2", phase: "start", label: "Map the auth module" },
  ]);
  assert.deepEqual(read(tintinwebPiSubagents, "tintinweb-pi-subagents", "completed"), [{ source: "tintinweb-pi-subagents", id: "k3x9q2", phase: "end" }]);
  assert.deepEqual(read(tintinwebPiSubagents, "tintinweb-pi-subagents", "failed"), [{ source: "tintinweb-pi-subagents", id: "k3x9q2", phase: "end" }]);
  assert.equal(inFlight(replay("tintinweb-pi-subagents", ["created", "completed"])), 0);
  assert.equal(inFlight(replay("tintinweb-pi-subagents", ["created", "failed"])), 0);
});

test("tintinweb: a foreground agent (isBackground false or missing) is no work in flight; its end changes nothing", () => {
  assert.deepEqual(read(tintinwebPiSubagents, "tintinweb-pi-subagents", "created-foreground"), []);
  assert.deepEqual(tintinwebPiSubagents.read("subagents:created", { id: "x", type: "Explore", description: "d" }), []);
  assert.deepEqual(tintinwebPiSubagents.read("subagents:created", { id: "x", isBackground: "true" }), []);
  const state = replay("tintinweb-pi-subagents", ["created-foreground"]);
  assert.equal(state, NO_WORK);
  const ended = applyAllWork(state, [{ source: "tintinweb-pi-subagents", id: "p7m1z8", phase: "end" }], 5, HERE);
  assert.deepEqual([ended.items, ended.ends, ended.lastEndAt], [[], 0, null]);
});

test("tintinweb: subagents:started is not read (no background flag), and a label falls back to the agent type", () => {
  const { channel } = heard("tintinweb-pi-subagents", "started");
  assert.equal(WORK_CHANNELS.includes(channel), false);
  assert.equal(readWork(channel, heard("tintinweb-pi-subagents", "started").payload), undefined);
  assert.deepEqual(tintinwebPiSubagents.read("subagents:created", { id: "q", type: "Explore", description: " ", isBackground: true }), [
    { source: "tintinweb-pi-subagents", id: "q", phase: "start", label: "Explore" },
  ]);
});

test("pi-code: bg- runs start and stop by agentId with the agent type; fg- runs are foreground and ignored", () => {
  assert.deepEqual(read(piCode, "pi-code", "start-background"), [{ source: "pi-code", id: "bg-4e7a91c2", phase: "start", label: "Explore" }]);
  assert.deepEqual(read(piCode, "pi-code", "stop-background"), [{ source: "pi-code", id: "bg-4e7a91c2", phase: "end", label: "Explore" }]);
  assert.deepEqual(read(piCode, "pi-code", "start-foreground"), []);
  assert.deepEqual(read(piCode, "pi-code", "stop-foreground"), []);
  assert.equal(inFlight(replay("pi-code", ["start-foreground", "start-background"])), 1);
  assert.equal(inFlight(replay("pi-code", ["start-background", "start-foreground", "stop-foreground", "stop-background"])), 0);
});

test("pi-code: an unknown phase, a missing agent type or id is not its shape", () => {
  assert.equal(piCode.read("pi-code:subagent", { phase: "pause", agentType: "a", agentId: "bg-1" }), undefined);
  assert.equal(piCode.read("pi-code:subagent", { phase: "start", agentId: "bg-1" }), undefined);
  assert.equal(piCode.read("pi-code:subagent", { phase: "stop", agentType: "a" }), undefined);
  assert.deepEqual(piCode.read("pi-code:subagent", { phase: "start", agentType: "", agentId: "bg-1" }), [{ source: "pi-code", id: "bg-1", phase: "start" }]);
});

test("pi-processes: a running process starts with its name, else its command; exited and killed ones end", () => {
  assert.deepEqual(read(aliouPiProcesses, "aliou-pi-processes", "started"), [
    { source: "aliou-pi-processes", id: "proc_3fa1", phase: "start", label: "dev server" },
  ]);
  assert.deepEqual(read(aliouPiProcesses, "aliou-pi-processes", "ended"), [{ source: "aliou-pi-processes", id: "proc_3fa1", phase: "end" }]);
  assert.deepEqual(read(aliouPiProcesses, "aliou-pi-processes", "ended-killed"), [{ source: "aliou-pi-processes", id: "proc_9c02", phase: "end" }]);
  assert.equal(inFlight(replay("aliou-pi-processes", ["started", "ended"])), 0);
  const { payload } = heard("aliou-pi-processes", "ended-killed");
  assert.ok(typeof payload === "object" && payload !== null);
  assert.deepEqual(aliouPiProcesses.read("processes:started", { ...payload, status: "running" }), [
    { source: "aliou-pi-processes", id: "proc_9c02", phase: "start", label: "npx vitest --watch" },
  ]);
});

test("pi-processes: a started payload of a process already over is no work; an unknown status is not its shape", () => {
  const { payload } = heard("aliou-pi-processes", "started");
  assert.ok(typeof payload === "object" && payload !== null);
  assert.deepEqual(aliouPiProcesses.read("processes:started", { ...payload, status: "exited" }), []);
  assert.deepEqual(aliouPiProcesses.read("processes:started", { ...payload, status: "killed" }), []);
  assert.deepEqual(aliouPiProcesses.read("processes:started", { ...payload, status: "terminating" })?.length, 1);
  assert.equal(aliouPiProcesses.read("processes:started", { ...payload, status: "sleeping" }), undefined);
  assert.equal(aliouPiProcesses.read("processes:ended", { ...payload, status: 3 }), undefined);
  assert.equal(aliouPiProcesses.read("processes:ended", { ...payload, id: "" }), undefined);
});

test("pi-processes: the list reply gives its live processes (terminate_timeout counts as live) and skips other shapes", () => {
  const file = fixture("aliou-pi-processes", "list-reply");
  assert.equal(file.channel, "processes:request:list");
  assert.deepEqual(WORK_SNAPSHOTS.map((entry) => [entry.source, entry.snapshot.channel]), [["aliou-pi-processes", "processes:request:list"]]);
  const snapshot = aliouPiProcesses.snapshot;
  assert.ok(snapshot);
  assert.deepEqual(snapshot.read(file.reply), [
    { source: "aliou-pi-processes", id: "proc_3fa1", phase: "start", label: "dev server" },
    { source: "aliou-pi-processes", id: "proc_c4d2", phase: "start", label: "tail -f server.log" },
  ]);
  assert.ok(Array.isArray(file.reply));
  assert.equal(snapshot.read([null, 4, ...file.reply, { id: "proc_x" }])?.length, 2);
  assert.deepEqual(snapshot.read([]), []);
  assert.equal(snapshot.read({ 0: file.reply[0], length: 1 }), undefined);
  assert.equal(snapshot.read(null), undefined);
});

test("pi-processes: reconciling with the list ends what is gone, starts what is new and keeps the start time of the rest", () => {
  const snapshot = aliouPiProcesses.snapshot;
  assert.ok(snapshot);
  const live = snapshot.read(fixture("aliou-pi-processes", "list-reply").reply) ?? [];
  let state = applyAllWork(
    NO_WORK,
    [
      { source: "aliou-pi-processes", id: "proc_3fa1", phase: "start", label: "dev server" },
      { source: "aliou-pi-processes", id: "proc_77b0", phase: "start", label: "build" },
      { source: "pi-code", id: "proc_77b0", phase: "start" },
    ],
    100,
    HERE,
  );
  state = reconcileSource(state, "aliou-pi-processes", [...live, { source: "pi-code", id: "bg-9", phase: "start" }], 900, HERE);
  assert.deepEqual(
    state.items.map((item) => [item.source, item.id, item.startedAt]),
    [
      ["aliou-pi-processes", "proc_3fa1", 100],
      ["pi-code", "proc_77b0", 100],
      ["aliou-pi-processes", "proc_c4d2", 900],
    ],
  );
  assert.equal(state.ends, 1);
  assert.equal(state.lastEndAt, 900);
  assert.equal(reconcileSource(state, "aliou-pi-processes", [...live, { source: "aliou-pi-processes", id: "proc_3fa1", phase: "end" }], 950, HERE), state);
});

test("todo-loop:work: version 1 starts and ends by id with its label; the label of an end is not kept", () => {
  assert.equal(WORK_CHANNEL, "todo-loop:work");
  assert.deepEqual(read(todoLoopWork, "todo-loop-work", "start"), [{ source: "todo-loop-work", id: "deploy-preview-42", phase: "start", label: "preview deploy" }]);
  assert.deepEqual(read(todoLoopWork, "todo-loop-work", "end"), [{ source: "todo-loop-work", id: "deploy-preview-42", phase: "end" }]);
  assert.deepEqual(todoLoopWork.read(WORK_CHANNEL, { v: 1, id: "j", phase: "end", label: "x" }), [{ source: "todo-loop-work", id: "j", phase: "end" }]);
  assert.equal(inFlight(replay("todo-loop-work", ["start", "end"])), 0);
});

test("todo-loop:work: another version, phase or a label that is not a string is not its shape", () => {
  const read = (payload: unknown) => todoLoopWork.read(WORK_CHANNEL, payload);
  assert.equal(read({ v: 2, id: "j", phase: "start" }), undefined);
  assert.equal(read({ id: "j", phase: "start" }), undefined);
  assert.equal(read({ v: "1", id: "j", phase: "start" }), undefined);
  assert.equal(read({ v: 1, id: "j", phase: "stop" }), undefined);
  assert.equal(read({ v: 1, id: "j", phase: "start", label: 5 }), undefined);
  assert.equal(read({ v: 1, id: 5, phase: "start" }), undefined);
  assert.deepEqual(read({ v: 1, id: "j", phase: "start", label: undefined }), [{ source: "todo-loop-work", id: "j", phase: "start" }]);
});

// --- the registry -------------------------------------------------------------------------------------

test("registry: every fixture event's channel belongs to exactly its source, and every source has fixtures", () => {
  const owners = new Map<string, string>();
  for (const source of WORK_SOURCES) for (const channel of source.channels) owners.set(channel, source.id);
  assert.equal(owners.size, WORK_CHANNELS.length, "no channel is claimed twice");
  assert.deepEqual([...WORK_CHANNELS].sort(), [...owners.keys()].sort());
  for (const source of WORK_SOURCES) {
    const files = readdirSync(join(DIR, source.id)).filter((name) => name.endsWith(".json"));
    assert.ok(files.length > 0, source.id);
    for (const name of files) {
      const file = fixture(source.id, name.slice(0, -5));
      if (typeof file.channel !== "string" || !("payload" in file) || !WORK_CHANNELS.includes(file.channel)) continue;
      assert.equal(owners.get(file.channel), source.id, `${source.id}/${name}`);
      assert.notEqual(readWork(file.channel, file.payload), undefined, `${source.id}/${name} reads`);
    }
  }
});

test("registry: each source's result message is its result type, and no result type is a channel", () => {
  const messages: Array<[WorkSource, string, string]> = [
    [nicobailonPiSubagents, "nicobailon-pi-subagents", "notify-message"],
    [tintinwebPiSubagents, "tintinweb-pi-subagents", "notification-message"],
    [piCode, "pi-code", "background-message"],
    [aliouPiProcesses, "aliou-pi-processes", "notification-message"],
  ];
  for (const [source, folder, name] of messages) {
    const { message, options } = fixture(folder, name);
    assert.ok(typeof message === "object" && message !== null && "customType" in message);
    assert.deepEqual(source.resultTypes, [message.customType]);
    assert.equal(isWorkResult(message.customType), true);
    assert.ok(typeof options === "object" && options !== null && "triggerTurn" in options && options.triggerTurn === true);
  }
  assert.deepEqual([...WORK_RESULT_TYPES].sort(), ["ad-process:notification", "subagent-background", "subagent-notification", "subagent-notify"]);
  assert.equal(isWorkResult("todo-loop"), false);
  assert.equal(isWorkResult(undefined), false);
  for (const type of WORK_RESULT_TYPES) assert.equal(WORK_CHANNELS.includes(type), false);
});

test("registry: a channel no source owns reads as undefined, and sources are named for /todoloop", () => {
  assert.equal(readWork("subagents:compacted", { id: "x" }), undefined);
  assert.equal(readWork("subagent-notify", fixture("nicobailon-pi-subagents", "notify-message").message), undefined);
  for (const source of WORK_SOURCES) {
    for (const name of readdirSync(join(DIR, source.id)).filter((file) => file.endsWith(".json"))) {
      const file = fixture(source.id, name.slice(0, -5));
      if (typeof file.channel !== "string" || !source.channels.includes(file.channel)) continue;
      assert.notEqual(source.read(file.channel, file.payload), undefined);
      assert.equal(source.read("elsewhere:event", file.payload), undefined, `${source.id}/${name}`);
      for (const other of WORK_SOURCES) if (other !== source) assert.equal(other.read(file.channel, file.payload), undefined, `${other.id} on ${file.channel}`);
    }
  }
  assert.deepEqual(
    WORK_SOURCES.map((source) => workSourceLabel(source.id)),
    ["pi-subagents", "@tintinweb/pi-subagents", "pi-code", "@aliou/pi-processes", "todo-loop:work"],
  );
  assert.equal(workSourceLabel("someone-else"), "someone-else");
  assert.deepEqual(
    WORK_SOURCES.map((source) => source.id),
    ["nicobailon-pi-subagents", "tintinweb-pi-subagents", "pi-code", "aliou-pi-processes", "todo-loop-work"],
  );
});

// --- bad input ---------------------------------------------------------------------------------------

const WRONG_SHAPES: readonly unknown[] = [undefined, null, 0, 42, "start", true, [], [{ id: "a" }], {}, { id: 5 }, { id: "" }, { id: null }];

test("bad input: no source reads a payload of the wrong shape, on any of its channels", () => {
  for (const source of WORK_SOURCES) {
    for (const channel of source.channels) {
      for (const payload of WRONG_SHAPES) assert.equal(source.read(channel, payload), undefined, `${source.id} ${channel} ${JSON.stringify(payload)}`);
    }
  }
});

test("bad input: a throwing getter or a revoked proxy reads as undefined, never throws", () => {
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error("getter");
      },
    },
  );
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const getter = Object.defineProperty({ phase: "start", agentType: "a", v: 1, status: "running" }, "id", {
    get() {
      throw new Error("id");
    },
  });
  const getterId = Object.defineProperty({ id: "bg-1", phase: "start", v: 1, isBackground: true, status: "running", state: "observed" }, "agentType", {
    get() {
      throw new Error("late");
    },
  });
  for (const source of WORK_SOURCES) {
    for (const channel of source.channels) {
      for (const payload of [hostile, proxy, getter]) assert.equal(source.read(channel, payload), undefined, `${source.id} ${channel}`);
      assert.doesNotThrow(() => source.read(channel, getterId));
    }
  }
  assert.equal(piCode.read("pi-code:subagent", { ...{ id: "x" }, get agentId() { throw new Error("x"); } }), undefined);
  assert.equal(aliouPiProcesses.snapshot?.read(proxy), undefined);
  assert.deepEqual(aliouPiProcesses.snapshot?.read([hostile, proxy]), [], "items that throw are skipped like other shapes");
  assert.equal(fieldsOf(proxy, []), undefined);
  assert.equal(fieldsOf(getter, ["phase", "id"]), undefined);
  assert.deepEqual(fieldsOf(getter, ["phase", "missing"]), { phase: "start", missing: undefined }, "only the named fields are read");
});

test("bad input: an end for work never started puts nothing in flight and counts no end", () => {
  const started = replay("pi-code", ["start-background"]);
  for (const end of [{ source: "pi-code", id: "bg-never" }, { source: "tintinweb-pi-subagents", id: "bg-4e7a91c2" }]) {
    const after = applyWork(started, { ...end, phase: "end" }, 9, HERE);
    assert.deepEqual(after.items, started.items);
    assert.equal(after.ends, started.ends);
    assert.equal(after.lastEndAt, started.lastEndAt);
  }
  const replayed = replay("tintinweb-pi-subagents", ["completed", "failed"]);
  assert.deepEqual([replayed.items, replayed.ends, replayed.lastEndAt], [[], 0, null]);
});

test("bad input: the same start twice is one piece of work that keeps its first start time and label", () => {
  const once = applyWork(NO_WORK, { source: "pi-code", id: "bg-1", phase: "start", label: "first" }, 10, HERE);
  const twice = applyWork(once, { source: "pi-code", id: "bg-1", phase: "start", label: "second" }, 20, HERE);
  assert.equal(twice, once);
  assert.deepEqual(twice.items, [{ source: "pi-code", id: "bg-1", label: "first", startedAt: 10 }]);
  const ended = applyWork(twice, { source: "pi-code", id: "bg-1", phase: "end" }, 30, HERE);
  assert.equal(inFlight(ended), 0);
  const again = applyWork(ended, { source: "pi-code", id: "bg-1", phase: "start" }, 40, HERE);
  assert.deepEqual(again.items, [{ source: "pi-code", id: "bg-1", startedAt: 40 }], "a resumed run is new work");
});

test("bad input: ten thousand start/end pairs leave the tracker empty, with every end counted", () => {
  let state = NO_WORK;
  for (let index = 0; index < 10_000; index++) {
    state = applyWork(state, { source: "todo-loop-work", id: `job-${index}`, phase: "start" }, index, HERE);
    state = applyWork(state, { source: "todo-loop-work", id: `job-${index}`, phase: "end" }, index + 0.5, HERE);
  }
  assert.deepEqual(state.items, []);
  assert.equal(state.ends, 10_000);
  assert.equal(state.lastEndAt, 9_999.5);
});

test("bad input: work that never ends stays bounded: past the cap the oldest is forgotten, the newest kept", () => {
  let state = NO_WORK;
  for (let index = 0; index < 10_000; index++) state = applyWork(state, { source: "pi-code", id: `bg-${index}`, phase: "start" }, index, HERE);
  assert.equal(inFlight(state), MAX_TRACKED_WORK);
  assert.equal(state.items[0]?.id, `bg-${10_000 - MAX_TRACKED_WORK}`);
  assert.equal(state.items.at(-1)?.id, "bg-9999");
  assert.equal(state.ends, 0, "forgetting is no end");
  let full = NO_WORK;
  for (let index = 0; index < MAX_TRACKED_WORK; index++) full = applyWork(full, { source: "pi-code", id: `bg-${index}`, phase: "start" }, index, HERE);
  assert.equal(full.items[0]?.id, "bg-0", "nothing is forgotten up to the cap");
  assert.equal(applyWork(full, { source: "pi-code", id: "bg-x", phase: "start" }, 1, HERE).items[0]?.id, "bg-1");
});

test("bad input: an id too long to be a key, or not a string, is not read", () => {
  assert.equal(workId("x".repeat(MAX_WORK_ID)), "x".repeat(MAX_WORK_ID));
  assert.equal(workId("x".repeat(MAX_WORK_ID + 1)), undefined);
  assert.equal(workId(""), undefined);
  assert.equal(workId(12), undefined);
  assert.equal(todoLoopWork.read(WORK_CHANNEL, { v: 1, id: "j".repeat(MAX_WORK_ID + 1), phase: "start" }), undefined);
});

test("bad input: work of another session is not this session's; a payload naming none is the hearer's", () => {
  const other = heard("nicobailon-pi-subagents", "async-started-other-session");
  const events = readWork(other.channel, other.payload);
  assert.ok(events !== undefined && events.length === 1);
  assert.equal(applyAllWork(NO_WORK, events, 1, HERE), NO_WORK);
  const state = replay("nicobailon-pi-subagents", ["async-started", "async-started-other-session", "async-started-chain"]);
  assert.deepEqual(state.items.map((item) => item.id), ["a1b2c3d4", "e5f6a7b8"]);
  assert.equal(inFlight(replay("nicobailon-pi-subagents", ["async-started"], ["5f0c2a9e-1d7b-4c8e-9a41-2b6f3e8d7c10"])), 0, "the file is one of its names");
  assert.equal(inFlight(replay("nicobailon-pi-subagents", ["async-started-other-session"], [])), 1, "names unknown: the hearer's");
  const foreignEnd = applyWork(state, { source: "nicobailon-pi-subagents", id: "a1b2c3d4", phase: "end", session: "elsewhere" }, 5, HERE);
  assert.equal(foreignEnd, state);
  assert.equal(isHere(undefined, HERE), true);
  assert.equal(isHere(MINE, HERE), true);
  assert.equal(isHere("elsewhere", HERE), false);
  assert.equal(isHere("elsewhere", []), true);
});

test("bad input: a result message before the end event leaves the work in flight until the end comes", () => {
  const state = replay("nicobailon-pi-subagents", ["async-started"]);
  const { message } = fixture("nicobailon-pi-subagents", "notify-message");
  assert.ok(typeof message === "object" && message !== null && "customType" in message);
  assert.equal(isWorkResult(message.customType), true);
  assert.equal(readWork(String(message.customType), message), undefined, "the message is no event");
  assert.equal(inFlight(state), 1);
  const ended = replay("nicobailon-pi-subagents", ["async-complete"], HERE, state);
  assert.equal(inFlight(ended), 0);
  assert.equal(workEndedSince(ended, state.ends), true);
  assert.equal(workEndedSince(ended, ended.ends), false);
});

// --- the tracker's list -------------------------------------------------------------------------------

test("list: work is shown oldest first by its label (else its id), source and minutes since it started", () => {
  const state = applyAllWork(
    NO_WORK,
    [
      { source: "pi-code", id: "bg-1", phase: "start", label: "Explore" },
      { source: "todo-loop-work", id: "deploy", phase: "start" },
    ],
    60_000,
    HERE,
  );
  const later = applyWork(state, { source: "aliou-pi-processes", id: "proc_1", phase: "start", label: "dev server" }, 150_000, HERE);
  assert.deepEqual(listWork(later, 240_000), [
    { source: "pi-code", id: "bg-1", label: "Explore", minutes: 3 },
    { source: "todo-loop-work", id: "deploy", label: "deploy", minutes: 3 },
    { source: "aliou-pi-processes", id: "proc_1", label: "dev server", minutes: 1.5 },
  ]);
  assert.deepEqual(listWork(later, 0).map((line) => line.minutes), [0, 0, 0], "a clock that went back shows no minutes");
  assert.deepEqual(listWork(later, Number.NaN).map((line) => line.minutes), [0, 0, 0]);
  assert.deepEqual(listWork(NO_WORK, 1), []);
});

test("list: labels are display-safe and capped; a label with nothing to show gives the id", () => {
  assert.equal(workLabel({ id: "bg-1", label: "\u001b[31mred\u001b[0m agent" }), "red agent");
  assert.equal(workLabel({ id: "bg-1", label: "\u200b\u0007" }), "bg-1");
  assert.equal(workLabel({ id: "bg-\u001b[2J1" }), "bg-1");
  assert.equal(workLabel({ id: "x", label: "y".repeat(200) }).length, WORK_LABEL_MAX);
  assert.deepEqual(todoLoopWork.read(WORK_CHANNEL, { v: 1, id: "j", phase: "start", label: "\u001b]0;title\u0007deploy\n  now" }), [
    { source: "todo-loop-work", id: "j", phase: "start", label: "deploy now" },
  ]);
  assert.equal(workLabelOf(undefined, "", "  ", 5, "name"), "name");
  assert.equal(workLabelOf(), undefined);
});

test("adapter helpers: a session is a non-empty string, and an event carries only the fields it has", () => {
  assert.equal(sessionOf("s"), "s");
  assert.equal(sessionOf(""), undefined);
  assert.equal(sessionOf(3), undefined);
  assert.deepEqual(workEvent("pi-code", "bg-1", "end"), { source: "pi-code", id: "bg-1", phase: "end" });
  assert.deepEqual(Object.keys(workEvent("pi-code", "bg-1", "start", "L", "S")), ["source", "id", "phase", "label", "session"]);
  const item = applyWork(NO_WORK, { source: "s", id: "i", phase: "start", session: MINE }, 1, HERE).items[0];
  assert.deepEqual(item, { source: "s", id: "i", session: MINE, startedAt: 1 });
  const events: WorkEvent[] = [];
  assert.equal(applyAllWork(NO_WORK, events, 1, HERE), NO_WORK);
});

test("only tintinweb holds its result message until the parent settles; every other source and an unknown id do not", () => {
  assert.equal(holdsResults(tintinwebPiSubagents.id), true);
  for (const source of [nicobailonPiSubagents, piCode, aliouPiProcesses, todoLoopWork]) assert.equal(holdsResults(source.id), false, source.id);
  assert.equal(holdsResults("no-such-source"), false);
  assert.equal(holdsResults(""), false);
  assert.equal(tintinwebPiSubagents.holdsResults, true, "the adapter says so itself");
});
