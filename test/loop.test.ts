/**
 * decide() and its helpers, one table row per rule of the turn_end decision (SPEC §4 items 3–13).
 * Rows give the facts of one turn and the parts of the decision that rule fixes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_LIMITS } from "../src/config.ts";
import type { Limits } from "../src/config.ts";
import { align, applyCommand, decide, freshMemory, limitReached, parseCommand } from "../src/loop.ts";
import type { BranchFacts, DecideInput, Decision, ListState, Memory, Notice, Reason, TurnFacts } from "../src/loop.ts";
import { describeReason } from "../src/text.ts";

const ANCHOR = "u1";
const LIST: ListState = { kind: "list", open: 2, total: 3, signature: "sig-a", source: "rpiv-todo", tool: "todo" };
const CLEAR: ListState = { kind: "list", open: 0, total: 3, signature: "sig-done", source: "rpiv-todo", tool: "todo" };
const EMPTIED: ListState = { kind: "none", why: "emptied" };

function memory(overrides: Partial<Memory> = {}): Memory {
  return { ...freshMemory(ANCHOR), ...overrides };
}

/** The memory of a loop that has already seen LIST under ANCHOR. */
function seen(overrides: Partial<Memory> = {}): Memory {
  return memory({ signature: "sig-a", hadList: true, ...overrides });
}

function branch(overrides: Partial<BranchFacts> = {}): BranchFacts {
  return { anchor: ANCHOR, round: 0, waiting: undefined, hadList: false, lastStop: undefined, ...overrides };
}

function settleTurn(overrides: Partial<TurnFacts> = {}): TurnFacts {
  return { outcome: "completed", toolResults: 0, todoOnly: false, calls: [], openBefore: 2, vanished: [], ...overrides };
}

function toolTurn(overrides: Partial<TurnFacts> = {}): TurnFacts {
  return { outcome: "completed", toolResults: 1, todoOnly: true, calls: ["other"], openBefore: 2, vanished: [], ...overrides };
}

function limits(overrides: Partial<Limits> = {}): Limits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

function input(overrides: Partial<DecideInput> = {}): DecideInput {
  return {
    memory: undefined,
    branchSwitched: false,
    branch: branch(),
    turn: settleTurn(),
    list: LIST,
    pendingMessages: false,
    otherContinued: false,
    limits: DEFAULT_LIMITS,
    spend: { tokens: 0, cost: 0 },
    ...overrides,
  };
}

function run(given: DecideInput): Decision {
  return decide(given, describeReason);
}

function noticeName(notice: Notice): string {
  if (notice.kind === "stop") return `stop:${notice.level}`;
  if (notice.kind === "emptied") return `emptied:${notice.how}`;
  return notice.kind;
}

interface Expect {
  continue?: boolean;
  last?: Reason["kind"];
  /** The stop record's reason, or null for none. */
  stop?: string | null;
  notices?: string[];
  marker?: { round: number; anchor?: string; open?: number; hint: boolean; tool?: string } | null;
  memory?: Partial<Memory>;
}

function check(decision: Decision, expect: Expect): void {
  if (expect.continue !== undefined) assert.equal(decision.continue, expect.continue, "continue");
  if (expect.last !== undefined) assert.equal(decision.memory.last.kind, expect.last, "last reason");
  if (expect.stop !== undefined) assert.equal(decision.stop?.reason ?? null, expect.stop, "stop record");
  if (expect.notices !== undefined) assert.deepEqual(decision.notices.map(noticeName), expect.notices, "notices");
  if (expect.marker === null) assert.equal(decision.marker, undefined, "no marker");
  if (expect.marker) {
    assert.ok(decision.marker, "a marker");
    assert.equal(decision.marker.v, 1);
    assert.equal(decision.marker.round, expect.marker.round, "marker round");
    assert.equal(decision.marker.hint, expect.marker.hint, "marker hint");
    if (expect.marker.anchor !== undefined) assert.equal(decision.marker.anchor, expect.marker.anchor, "marker anchor");
    if (expect.marker.open !== undefined) assert.equal(decision.marker.open, expect.marker.open, "marker open");
    if (expect.marker.tool !== undefined) assert.equal(decision.marker.tool, expect.marker.tool, "marker tool");
  }
  for (const [key, value] of Object.entries(expect.memory ?? {})) {
    assert.deepEqual(decision.memory[key as keyof Memory], value, `memory.${key}`);
  }
}

interface Row {
  readonly rule: string;
  readonly given: DecideInput;
  readonly expect: Expect;
}

const ROWS: readonly Row[] = [
  // §4.3 tool turns
  {
    rule: "§4.3 a tool turn spends no round and appends nothing",
    given: input({ memory: seen({ round: 2, settleRun: 1 }), turn: toolTurn() }),
    expect: { continue: false, marker: null, stop: null, notices: [], memory: { round: 2 } },
  },
  {
    rule: "§4.3 a tool turn ends the run of settles (settleRun = 0) and leaves staleSettles alone",
    given: input({ memory: seen({ settleRun: 3, staleSettles: 4 }), turn: toolTurn() }),
    expect: { continue: false, memory: { settleRun: 0, staleSettles: 4, signature: "sig-a" } },
  },
  {
    rule: "§4.3 a tool turn with outcome error records 'stopped: turn outcome was error'",
    given: input({ memory: seen({ round: 1 }), turn: toolTurn({ outcome: "error" }) }),
    expect: { continue: false, last: "outcome", stop: "stopped: turn outcome was error", notices: ["stop:warning"], memory: { round: 1, settleRun: 0 } },
  },
  {
    rule: "§4.3 a tool turn with outcome aborted records 'stopped: turn outcome was aborted'",
    given: input({ memory: seen(), turn: toolTurn({ outcome: "aborted" }) }),
    expect: { continue: false, stop: "stopped: turn outcome was aborted", notices: ["stop:warning"] },
  },
  {
    rule: "§4.3 a todo-only tool turn that emptied the list by delete warns how many tasks were deleted",
    given: input({ memory: seen(), turn: toolTurn({ calls: ["delete", "delete"], openBefore: 2, vanished: ["Write tests", "Ship it"] }), list: EMPTIED }),
    expect: { continue: false, stop: null, notices: ["emptied:delete"] },
  },
  {
    rule: "§4.3 a todo-only tool turn that emptied the list by clear warns that it was cleared without completing anything",
    given: input({ memory: seen(), turn: toolTurn({ calls: ["clear"] }), list: EMPTIED }),
    expect: { continue: false, stop: null, notices: ["emptied:clear"] },
  },
  {
    rule: "§4.3 a todo-only tool turn whose results carry no action warns that finished cannot be told from deleted",
    given: input({ memory: seen(), turn: toolTurn({ calls: ["unlabelled"] }), list: EMPTIED }),
    expect: { continue: false, stop: null, notices: ["emptied:unlabelled"] },
  },
  {
    rule: "§4.3 results without an action that left every task in place, none open, are completions: silent",
    given: input({ memory: seen(), turn: toolTurn({ calls: ["unlabelled"], vanished: [] }), list: CLEAR }),
    expect: { continue: false, stop: null, notices: [] },
  },
  {
    rule: "§4.3 results without an action after which open tasks vanished warn that finished cannot be told from deleted",
    given: input({ memory: seen(), turn: toolTurn({ calls: ["unlabelled"], vanished: ["Ship it"] }), list: CLEAR }),
    expect: { continue: false, stop: null, notices: ["emptied:unlabelled"] },
  },
  {
    rule: "§4.3 a todo-only tool turn that closed the list by completions only is silent",
    given: input({ memory: seen(), turn: toolTurn({ calls: ["complete", "complete"] }), list: CLEAR }),
    expect: { continue: false, stop: null, notices: [] },
  },
  {
    rule: "§4.3 a tool turn that emptied the list among other tools' results is silent",
    given: input({ memory: seen(), turn: toolTurn({ todoOnly: false, calls: ["delete"] }), list: EMPTIED }),
    expect: { continue: false, notices: [] },
  },
  {
    rule: "§4.3 a tool turn that leaves tasks open never warns, even after a delete",
    given: input({ memory: seen(), turn: toolTurn({ calls: ["delete"], openBefore: 3 }), list: LIST }),
    expect: { continue: false, notices: [] },
  },
  {
    rule: "§4.3 a tool turn with no open task before it never warns",
    given: input({ memory: seen(), turn: toolTurn({ calls: ["clear"], openBefore: 0 }), list: EMPTIED }),
    expect: { continue: false, notices: [] },
  },
  // §4.4 settles that did not complete
  {
    rule: "§4.4 an error settle never continues, spends nothing and keeps the counters",
    given: input({ memory: seen({ round: 3, staleSettles: 2, settleRun: 1 }), turn: settleTurn({ outcome: "error" }) }),
    expect: {
      continue: false,
      marker: null,
      last: "outcome",
      stop: "stopped: turn outcome was error",
      notices: ["stop:warning"],
      memory: { round: 3, staleSettles: 2, settleRun: 1, signature: "sig-a" },
    },
  },
  {
    rule: "§4.4 an aborted settle never continues and keeps the counters",
    given: input({ memory: seen({ round: 2 }), turn: settleTurn({ outcome: "aborted" }) }),
    expect: { continue: false, stop: "stopped: turn outcome was aborted", memory: { round: 2 } },
  },
  {
    rule: "§4.4 an error settle with no open task records and announces nothing",
    given: input({ memory: seen(), turn: settleTurn({ outcome: "error" }), list: CLEAR }),
    expect: { continue: false, stop: null, notices: [] },
  },
  // §4.5 paused and waiting
  {
    rule: "§4.5 paused: no continuation, no round, nothing recorded",
    given: input({ memory: seen({ paused: true, round: 1 }) }),
    expect: { continue: false, marker: null, last: "paused", stop: null, notices: [], memory: { round: 1 } },
  },
  {
    rule: "§4.5 waiting under the current anchor: no continuation, stop recorded as 'waiting for you: <reason>'",
    given: input({ memory: seen({ waiting: "which database?" }) }),
    expect: { continue: false, marker: null, last: "waiting", stop: "waiting for you: which database?", notices: ["stop:warning"] },
  },
  {
    rule: "§4.5 waiting rebuilt from the block tool's result on the branch also stops",
    given: input({ branch: branch({ waiting: "need a key", hadList: true }) }),
    expect: { continue: false, stop: "waiting for you: need a key" },
  },
  // §4.6 no list, list clear
  {
    rule: "§4.6 no todo tool active: 'stopped: no list (no todo tool is active)'",
    given: input({ memory: seen(), list: { kind: "none", why: "no-tool" } }),
    expect: { continue: false, last: "no-list", stop: "stopped: no list (no todo tool is active)", notices: ["stop:warning"] },
  },
  {
    rule: "§4.6 todo tool never used on this branch: 'stopped: no list (the todo tool has not been used on this branch)'",
    given: input({ memory: seen(), list: { kind: "none", why: "unused" } }),
    expect: { continue: false, stop: "stopped: no list (the todo tool has not been used on this branch)" },
  },
  {
    rule: "§4.6 todo results in an unread shape: 'stopped: no list (todo results are in a shape this extension does not read)'",
    given: input({ memory: seen(), list: { kind: "none", why: "unreadable" } }),
    expect: { continue: false, stop: "stopped: no list (todo results are in a shape this extension does not read)" },
  },
  {
    rule: "§4.6 a list emptied by clear or delete: 'stopped: no list (the list was emptied…)'",
    given: input({ memory: seen(), list: EMPTIED }),
    expect: { continue: false, stop: "stopped: no list (the list was emptied: its tasks were deleted or cleared)", notices: ["stop:warning"] },
  },
  {
    rule: "§4.6 tasks remain, none open: 'stopped: list is clear', announced as info",
    given: input({ memory: seen(), list: CLEAR }),
    expect: { continue: false, last: "clear", stop: "stopped: list is clear", notices: ["stop:info"] },
  },
  {
    rule: "§4.12 plain chat with no list ever under this message announces and records nothing",
    given: input({ memory: memory(), list: { kind: "none", why: "no-tool" } }),
    expect: { continue: false, last: "no-list", stop: null, notices: [] },
  },
  // §4.7 natural work already follows
  {
    rule: "§4.7 a queued human message: neither a marker nor a round, status says so",
    given: input({ memory: seen({ round: 1, settleRun: 1, staleSettles: 1 }), pendingMessages: true }),
    expect: { continue: false, marker: null, stop: null, last: "queued", memory: { round: 1, settleRun: 1, staleSettles: 1 } },
  },
  {
    rule: "§4.7 another extension already continued: neither a marker nor a round, status says so",
    given: input({ memory: seen({ round: 1 }), otherContinued: true }),
    expect: { continue: false, marker: null, stop: null, last: "other-extension", memory: { round: 1 } },
  },
  // §4.8 anchor, progress, hint
  {
    rule: "§4.8 a new anchor resets every counter first",
    given: input({
      memory: seen({ anchor: "u0", round: 5, staleSettles: 9, settleRun: 1, waiting: "old question", recorded: "stopped: list is clear" }),
      branch: branch({ anchor: "u2" }),
    }),
    expect: {
      continue: true,
      marker: { round: 1, anchor: "u2", hint: false },
      memory: { anchor: "u2", round: 1, staleSettles: 0, settleRun: 1, waiting: undefined, recorded: undefined },
    },
  },
  {
    rule: "§4.8 the first sighting of a list is progress",
    given: input({ memory: memory() }),
    expect: { continue: true, marker: { round: 1, hint: false }, memory: { staleSettles: 0, signature: "sig-a", settleRun: 1 } },
  },
  {
    rule: "§4.8 a settle whose signature differs from the last decision's is progress (staleSettles = 0, no hint)",
    given: input({ memory: seen({ signature: "sig-old", staleSettles: 5, settleRun: 1 }) }),
    expect: { continue: true, marker: { round: 1, hint: false }, memory: { staleSettles: 0, settleRun: 2 } },
  },
  {
    rule: "§4.8 the hint is due when settleRun reaches 2 with no progress",
    given: input({ memory: seen({ settleRun: 1, round: 1 }) }),
    expect: { continue: true, marker: { round: 2, hint: true }, memory: { settleRun: 2, staleSettles: 1 } },
  },
  {
    rule: "§4.8 no hint on the first settle of a run",
    given: input({ memory: seen({ settleRun: 0, staleSettles: 3 }) }),
    expect: { continue: true, marker: { round: 1, hint: false }, memory: { settleRun: 1, staleSettles: 4 } },
  },
  {
    rule: "§4.8 the hint comes once per run of settles (not at settleRun 3)",
    given: input({ memory: seen({ settleRun: 2, round: 2 }) }),
    expect: { continue: true, marker: { round: 3, hint: false }, memory: { settleRun: 3 } },
  },
  // §4.9 limits
  {
    rule: "§4.9 maxRounds compares with >=: no continuation once the rounds reach it",
    given: input({ memory: seen({ signature: "sig-old", round: 3 }), limits: limits({ maxRounds: 3 }) }),
    expect: { continue: false, marker: null, last: "limit", stop: "stopped: 3 continuations used, 2 tasks still open", notices: ["stop:warning"], memory: { round: 3 } },
  },
  {
    rule: "§4.9 one round below maxRounds still continues and the reason shows the cap",
    given: input({ memory: seen({ signature: "sig-old", round: 2 }), limits: limits({ maxRounds: 3 }) }),
    expect: { continue: true, marker: { round: 3, hint: false }, last: "continuing" },
  },
  {
    rule: "§4.9 maxTokens compares with >= on the tokens spent since the anchor",
    given: input({ memory: seen({ signature: "sig-old" }), limits: limits({ maxTokens: 1000 }), spend: { tokens: 1000, cost: 0 } }),
    expect: { continue: false, stop: "stopped: token limit reached (1,000 of 1,000 tokens since your message), 2 tasks still open" },
  },
  {
    rule: "§4.9 tokens below maxTokens continue",
    given: input({ memory: seen({ signature: "sig-old" }), limits: limits({ maxTokens: 1000 }), spend: { tokens: 999, cost: 0 } }),
    expect: { continue: true },
  },
  {
    rule: "§4.9 maxCost compares with >= on the dollars spent since the anchor",
    given: input({ memory: seen({ signature: "sig-old" }), limits: limits({ maxCost: 0.5 }), spend: { tokens: 0, cost: 0.5 } }),
    expect: { continue: false, stop: "stopped: cost limit reached ($0.5000 of $0.5000 since your message), 2 tasks still open" },
  },
  {
    rule: "§4.9 a limit stop names the replies without a todo change and that the agent may need you",
    given: input({ memory: seen({ round: 12, staleSettles: 3 }), limits: limits({ maxRounds: 12 }) }),
    expect: {
      continue: false,
      stop: "stopped: 12 continuations used, 2 tasks still open, no todo change for 4 replies; the agent may need you",
    },
  },
  // §4.10 continue
  {
    rule: "§4.10 continue: a marker with {v: 1, round, anchor, open, hint} naming the source's todo tool",
    given: input({ memory: memory(), list: { ...LIST, source: "quangthai-pi-todo", tool: "todo_write" } }),
    expect: {
      continue: true,
      stop: null,
      notices: [],
      last: "continuing",
      marker: { round: 1, anchor: ANCHOR, open: 2, hint: false, tool: "todo_write" },
    },
  },
  // §4.11 stale warnings
  {
    rule: "§4.11 the 10th unchanged settle warns while the loop keeps going",
    given: input({ memory: seen({ staleSettles: 9, settleRun: 5, round: 9 }) }),
    expect: { continue: true, notices: ["stale"], memory: { staleSettles: 10 } },
  },
  {
    rule: "§4.11 the 9th unchanged settle does not warn",
    given: input({ memory: seen({ staleSettles: 8, settleRun: 5 }) }),
    expect: { continue: true, notices: [] },
  },
  {
    rule: "§4.11 the 11th unchanged settle does not warn",
    given: input({ memory: seen({ staleSettles: 10, settleRun: 5 }) }),
    expect: { continue: true, notices: [] },
  },
  {
    rule: "§4.11 the 20th unchanged settle warns again",
    given: input({ memory: seen({ staleSettles: 19, settleRun: 5 }) }),
    expect: { continue: true, notices: ["stale"], memory: { staleSettles: 20 } },
  },
  // §4.12 stops announced and recorded once
  {
    rule: "§4.12 the same stop reason again is neither recorded nor announced",
    given: input({ memory: seen({ recorded: "stopped: list is clear", announced: "stopped: list is clear" }), list: CLEAR }),
    expect: { continue: false, stop: null, notices: [] },
  },
  {
    rule: "§4.12 a changed stop reason is recorded and announced again",
    given: input({ memory: seen({ recorded: "waiting for you: x", announced: "waiting for you: x" }), list: CLEAR }),
    expect: { continue: false, stop: "stopped: list is clear", notices: ["stop:info"] },
  },
  {
    rule: "§4.12 a stop already recorded on the branch is not recorded or announced again after a reload",
    given: input({ branch: branch({ hadList: true, lastStop: "stopped: list is clear" }), list: CLEAR }),
    expect: { continue: false, stop: null, notices: [] },
  },
  // §4.13 counters
  {
    rule: "§4.13 a stop keeps the counters",
    given: input({ memory: seen({ round: 4, staleSettles: 2 }), list: CLEAR }),
    expect: { continue: false, memory: { round: 4, staleSettles: 2 } },
  },
  {
    rule: "§4.13 with no state for the anchor, the round is rebuilt from the markers on the branch",
    given: input({ memory: undefined, branch: branch({ round: 4, hadList: true }), limits: limits({ maxRounds: 5 }) }),
    expect: { continue: true, marker: { round: 5, hint: false } },
  },
  {
    rule: "§4.13 a rebuilt round does not re-arm a limit",
    given: input({ memory: undefined, branch: branch({ round: 5, hadList: true }), limits: limits({ maxRounds: 5 }) }),
    expect: { continue: false, last: "limit" },
  },
  {
    rule: "§4.13 within a process, memory wins over the branch",
    given: input({ memory: seen({ round: 2 }), branch: branch({ round: 7 }) }),
    expect: { continue: true, marker: { round: 3, hint: false } },
  },
  {
    rule: "§4.13 after the branch changed under the memory, the counters are the new branch's",
    given: input({ memory: seen({ round: 7, staleSettles: 6, settleRun: 4 }), branch: branch({ round: 1, hadList: true }), branchSwitched: true }),
    expect: { continue: true, marker: { round: 2, hint: false }, memory: { staleSettles: 0, settleRun: 1 } },
  },
  {
    rule: "§4.13 a pause survives a new anchor",
    given: input({ memory: seen({ anchor: "u0", paused: true }), branch: branch({ anchor: "u2" }) }),
    expect: { continue: false, last: "paused", memory: { anchor: "u2", paused: true } },
  },
];

for (const row of ROWS) {
  test(`decide: ${row.rule}`, () => {
    check(run(row.given), row.expect);
  });
}

test("decide: §4.3 the emptied warning announces the stop, so the settle after it records the stop without a second notice", () => {
  const afterTools = run(input({ memory: seen(), turn: toolTurn({ calls: ["delete"], vanished: ["Ship it"] }), list: EMPTIED }));
  assert.deepEqual(afterTools.notices.map(noticeName), ["emptied:delete"]);
  const emptied = afterTools.notices[0];
  assert.ok(emptied?.kind === "emptied" && emptied.how === "delete");
  assert.equal(emptied.count, 1);
  assert.deepEqual(emptied.texts, ["Ship it"]);
  const settled = run(input({ memory: afterTools.memory, list: EMPTIED }));
  assert.equal(settled.continue, false);
  assert.equal(settled.stop?.reason, "stopped: no list (the list was emptied: its tasks were deleted or cleared)");
  assert.deepEqual(settled.notices, []);
});

test("decide: §4.3 a delete warning counts the deleted tasks even when their texts are unknown", () => {
  const decision = run(input({ memory: seen(), turn: toolTurn({ calls: ["delete", "delete", "delete"], vanished: [] }), list: EMPTIED }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "emptied" && notice.how === "delete");
  assert.equal(notice.count, 3);
});

test("decide: §4.4 a provider retry under the same message gets no fresh budget", () => {
  const capped = limits({ maxRounds: 2 });
  let state = run(input({ memory: memory(), limits: capped }));
  state = run(input({ memory: state.memory, limits: capped, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.memory.round, 2);
  state = run(input({ memory: state.memory, limits: capped, turn: settleTurn({ outcome: "error" }) }));
  assert.equal(state.memory.round, 2);
  const retry = run(input({ memory: state.memory, limits: capped, list: { ...LIST, signature: "sig-c" } }));
  assert.equal(retry.continue, false);
  assert.equal(retry.memory.last.kind, "limit");
});

test("decide: §4.8 after a tool turn starts a new run of settles the hint is due again", () => {
  let state = run(input({ memory: memory() }));
  assert.equal(state.marker?.hint, false);
  state = run(input({ memory: state.memory }));
  assert.equal(state.marker?.hint, true, "second settle without progress");
  state = run(input({ memory: state.memory }));
  assert.equal(state.marker?.hint, false, "once per run");
  state = run(input({ memory: state.memory, turn: toolTurn() }));
  state = run(input({ memory: state.memory }));
  assert.equal(state.marker?.hint, false, "first settle of the new run");
  state = run(input({ memory: state.memory }));
  assert.equal(state.marker?.hint, true, "second settle of the new run");
});

test("decide: §4.8 tool turns do not clear staleSettles; only a changed list does", () => {
  let state = run(input({ memory: memory() }));
  state = run(input({ memory: state.memory }));
  state = run(input({ memory: state.memory, turn: toolTurn() }));
  state = run(input({ memory: state.memory }));
  assert.equal(state.memory.staleSettles, 2);
  state = run(input({ memory: state.memory, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.memory.staleSettles, 0);
});

test("decide: §4.11 the first stale warning comes on the tenth unchanged reply after the list last changed", () => {
  let state = run(input({ memory: memory() }));
  const warnedAt: number[] = [];
  for (let reply = 1; reply <= 25; reply++) {
    state = run(input({ memory: state.memory }));
    assert.equal(state.continue, true);
    if (state.notices.some((notice) => notice.kind === "stale")) warnedAt.push(reply);
  }
  assert.deepEqual(warnedAt, [10, 20]);
});

test("decide: §4.11 with a round limit the stale warning says how many continuations remain", () => {
  const decision = run(input({ memory: seen({ staleSettles: 9, round: 10 }), limits: limits({ maxRounds: 50 }) }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "stale");
  assert.equal(notice.replies, 10);
  assert.equal(notice.open, 2);
  assert.equal(notice.roundsLeft, 39);
  assert.deepEqual(notice.limits, limits({ maxRounds: 50 }));
});

test("decide: §4.11 without a round limit the stale warning names no remaining count", () => {
  const decision = run(input({ memory: seen({ staleSettles: 9 }), limits: limits({ maxTokens: 5000 }) }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "stale");
  assert.equal(notice.roundsLeft, null);
});

test("decide: §4.12 the stop record carries reason, round, open and anchor", () => {
  const decision = run(input({ memory: seen({ round: 3 }), turn: settleTurn({ outcome: "error" }) }));
  assert.deepEqual(decision.stop, { reason: "stopped: turn outcome was error", round: 3, open: 2, anchor: ANCHOR });
});

test("decide: §4.12 a stop is recorded once per reason over a sequence of settles", () => {
  let state = run(input({ memory: seen(), list: CLEAR }));
  assert.ok(state.stop);
  let records = 0;
  for (let index = 0; index < 3; index++) {
    state = run(input({ memory: state.memory, list: CLEAR }));
    if (state.stop) records += 1;
    assert.deepEqual(state.notices, []);
  }
  assert.equal(records, 0);
});

test("decide: §4.12 a list seen under this message makes a later no-list stop announced", () => {
  const first = run(input({ memory: memory() }));
  assert.equal(first.memory.hadList, true);
  const later = run(input({ memory: first.memory, list: { kind: "none", why: "unreadable" } }));
  assert.equal(later.stop?.reason, "stopped: no list (todo results are in a shape this extension does not read)");
});

test("decide never continues without a list that has open tasks", () => {
  const lists: ListState[] = [CLEAR, EMPTIED, { kind: "none", why: "no-tool" }, { kind: "none", why: "unused" }, { kind: "none", why: "unreadable" }];
  for (const list of lists) {
    for (const mem of [undefined, memory(), seen({ settleRun: 1 })]) {
      const decision = run(input({ memory: mem, list }));
      assert.equal(decision.continue, false);
      assert.equal(decision.marker, undefined);
    }
  }
});

// ---- align ----------------------------------------------------------------------------------------

test("align: the memory for the same anchor on the same branch is kept as it is", () => {
  const mem = seen({ round: 3, staleSettles: 2 });
  assert.equal(align(mem, branch({ round: 9 }), false), mem);
});

test("align: a new anchor resets every counter, the pause is kept", () => {
  const aligned = align(seen({ anchor: "u0", round: 3, staleSettles: 2, settleRun: 2, paused: true, waiting: "x" }), branch({ anchor: "u2" }), false);
  assert.deepEqual(aligned, { ...freshMemory("u2", true) });
});

test("align: with no memory, round, waiting, hadList and the last stop come from the branch", () => {
  const aligned = align(undefined, branch({ round: 4, waiting: "which one?", hadList: true, lastStop: "stopped: list is clear" }), false);
  assert.equal(aligned.round, 4);
  assert.equal(aligned.waiting, "which one?");
  assert.equal(aligned.hadList, true);
  assert.equal(aligned.recorded, "stopped: list is clear");
  assert.equal(aligned.announced, "stopped: list is clear");
  assert.equal(aligned.paused, false);
  assert.equal(aligned.last.kind, "idle");
});

test("align: after a branch switch the counters are the branch's; pause and the last reason stay", () => {
  const aligned = align(seen({ round: 7, paused: true, last: { kind: "paused" } }), branch({ round: 2 }), true);
  assert.equal(aligned.round, 2);
  assert.equal(aligned.paused, true);
  assert.equal(aligned.last.kind, "paused");
  assert.equal(aligned.signature, undefined);
});

// ---- /todoloop ------------------------------------------------------------------------------------

test("applyCommand: pause stops continuing and keeps the counters", () => {
  const next = applyCommand(seen({ round: 3 }), "pause");
  assert.equal(next.paused, true);
  assert.equal(next.round, 3);
  assert.equal(next.last.kind, "paused");
});

test("applyCommand: resume lifts the pause and clears waiting", () => {
  const next = applyCommand(seen({ paused: true, waiting: "need a key", round: 3 }), "resume");
  assert.equal(next.paused, false);
  assert.equal(next.waiting, undefined);
  assert.equal(next.round, 3);
  assert.equal(next.last.kind, "resumed");
});

test("applyCommand: reset clears counters, signature and waiting, and keeps the anchor, pause and hadList", () => {
  const next = applyCommand(
    seen({ round: 5, staleSettles: 4, settleRun: 2, waiting: "x", paused: true, recorded: "stopped: list is clear", announced: "stopped: list is clear" }),
    "reset",
  );
  assert.deepEqual(next, { ...freshMemory(ANCHOR, true), hadList: true, last: { kind: "reset" } });
});

test("applyCommand: status changes nothing", () => {
  const mem = seen({ round: 2 });
  assert.equal(applyCommand(mem, "status"), mem);
});

test("parseCommand: empty or missing arguments mean status", () => {
  assert.equal(parseCommand(""), "status");
  assert.equal(parseCommand("   "), "status");
  assert.equal(parseCommand(undefined), "status");
});

test("parseCommand: the four words, any case and surrounding space", () => {
  assert.equal(parseCommand("status"), "status");
  assert.equal(parseCommand(" PAUSE "), "pause");
  assert.equal(parseCommand("resume"), "resume");
  assert.equal(parseCommand("Reset"), "reset");
});

test("parseCommand: anything else is unknown", () => {
  assert.equal(parseCommand("stop"), undefined);
  assert.equal(parseCommand("pause now"), undefined);
  assert.equal(parseCommand("--help"), undefined);
});

// ---- limitReached ---------------------------------------------------------------------------------

test("limitReached: with no limit set nothing is ever reached", () => {
  assert.equal(limitReached(seen({ round: 10_000 }), DEFAULT_LIMITS, { tokens: 1e12, cost: 1e6 }, 2), undefined);
});

test("limitReached: maxRounds compares with >=", () => {
  const capped = limits({ maxRounds: 3 });
  assert.equal(limitReached(seen({ round: 2 }), capped, { tokens: 0, cost: 0 }, 2), undefined);
  assert.deepEqual(limitReached(seen({ round: 3, staleSettles: 1 }), capped, { tokens: 0, cost: 0 }, 2), {
    kind: "limit",
    limit: "maxRounds",
    used: 3,
    max: 3,
    open: 2,
    stale: 1,
  });
});

test("limitReached: maxTokens compares with >=", () => {
  const capped = limits({ maxTokens: 100 });
  assert.equal(limitReached(seen(), capped, { tokens: 99, cost: 0 }, 1), undefined);
  assert.equal(limitReached(seen(), capped, { tokens: 100, cost: 0 }, 1)?.limit, "maxTokens");
});

test("limitReached: maxCost compares with >=", () => {
  const capped = limits({ maxCost: 1.25 });
  assert.equal(limitReached(seen(), capped, { tokens: 0, cost: 1.2499 }, 1), undefined);
  assert.equal(limitReached(seen(), capped, { tokens: 0, cost: 1.25 }, 1)?.limit, "maxCost");
});

test("limitReached: the round limit is named first when several are reached", () => {
  const all = limits({ maxRounds: 1, maxTokens: 1, maxCost: 0.01 });
  assert.equal(limitReached(seen({ round: 1 }), all, { tokens: 5, cost: 1 }, 1)?.limit, "maxRounds");
  assert.equal(limitReached(seen({ round: 0 }), all, { tokens: 5, cost: 1 }, 1)?.limit, "maxTokens");
});
