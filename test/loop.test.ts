/**
 * decide(), settle() and their helpers, one table row per rule of the turn_end decision (SPEC §4 items
 * 3–14). Rows give the facts of one turn and the parts of the decision that rule fixes; `stop` and the
 * stop notices are what `settle()` makes of the decision when pi settles right after that turn.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../src/config.ts";
import type { Limits } from "../src/core/types.ts";
import { align, applyBlock, applyCommand, COMMANDS, countReply, decide, freshMemory, holdsEarlier, honourKept, limitReached, listKey, NO_EARLIER, parseCommand, settle, stopKind, toolReachable } from "../src/loop.ts";
import type { BranchFacts, DecideInput, Decision, ListState, Memory, Notice, Reason, ToolFacts, TurnFacts } from "../src/core/types.ts";
import type { CommandFacts } from "../src/loop.ts";
import { describeReason } from "../src/core/text.ts";
import type { ReplyFacts } from "../src/core/reply.ts";

const ANCHOR = "u1";
const LIST: ListState = { kind: "list", open: 2, total: 3, signature: "sig-a", source: "rpiv-todo", tool: "todo" };
const CLEAR: ListState = { kind: "list", open: 0, total: 3, signature: "sig-done", source: "rpiv-todo", tool: "todo" };
const EMPTIED: ListState = { kind: "none", why: "emptied" };
/** Every limit off, the idle-reply brake included: rows about other rules are not cut short by it. */
const NO_LIMITS: Limits = { maxRounds: null, maxTokens: null, maxCost: null, maxMinutes: null, maxIdleReplies: null, maxStuckReplies: null, maxRepeats: null };
const TODO_ACTIVE: ToolFacts = { active: ["todo", "read"], registered: [{ name: "todo", exposure: "direct" }, { name: "read", exposure: "direct" }] };

function memory(overrides: Partial<Memory> = {}): Memory {
  return { ...freshMemory(ANCHOR), ...overrides };
}

/** The memory of a loop that has already seen LIST under ANCHOR. */
function seen(overrides: Partial<Memory> = {}): Memory {
  return memory({ signature: "sig-a", hadWork: true, ...overrides });
}

function branch(overrides: Partial<BranchFacts> = {}): BranchFacts {
  return {
    anchor: ANCHOR,
    round: 0,
    idle: 0,
    stale: 0,
    signature: undefined,
    waiting: undefined,
    paused: false,
    hadWork: false,
    announced: [],
    earlier: NO_EARLIER,
    stuck: 0,
    fp: undefined,
    repeats: 0,
    ...overrides,
  };
}

function settleTurn(overrides: Partial<TurnFacts> = {}): TurnFacts {
  return { outcome: "completed", toolResults: 0, todoOnly: false, calls: [], openBefore: 2, vanished: [], question: undefined, reply: undefined, ...overrides };
}

function toolTurn(overrides: Partial<TurnFacts> = {}): TurnFacts {
  return { outcome: "completed", toolResults: 1, todoOnly: true, calls: ["other"], openBefore: 2, vanished: [], question: undefined, reply: undefined, ...overrides };
}

function limits(overrides: Partial<Limits> = {}): Limits {
  return { ...NO_LIMITS, ...overrides };
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
    limits: NO_LIMITS,
    stopOnQuestion: true,
    spend: { tokens: 0, cost: 0, minutes: undefined },
    tools: TODO_ACTIVE,
    earlierTasks: "ask",
    ...overrides,
  };
}

function run(given: DecideInput): Decision {
  return decide(given);
}

/** pi settled right after this decision (no transcript line shown). */
function ended(decision: Decision, transcriptShown = false) {
  return settle(decision.memory, transcriptShown, describeReason);
}

function noticeName(notice: Notice): string {
  if (notice.kind === "stop") return `stop:${notice.level}`;
  if (notice.kind === "emptied") return `emptied:${notice.how}`;
  return notice.kind;
}

interface Expect {
  continue?: boolean;
  last?: Reason["kind"];
  /** The stop record's reason once pi settles, or null for none. */
  stop?: string | null;
  /** The decision's own notices, then the stop's notice once pi settles. */
  notices?: string[];
  marker?: { round: number; anchor?: string; open?: number; hint: boolean; tool?: string } | null;
  memory?: Partial<Memory>;
}

function check(decision: Decision, expect: Expect): void {
  const settled = ended(decision);
  if (expect.continue !== undefined) assert.equal(decision.continue, expect.continue, "continue");
  if (expect.last !== undefined) assert.equal(decision.memory.last.kind, expect.last, "last reason");
  if (expect.stop !== undefined) assert.equal(settled.record?.reason ?? null, expect.stop, "stop record");
  if (expect.notices !== undefined) {
    const all = [...decision.notices, ...(settled.notice ? [settled.notice] : [])];
    assert.deepEqual(all.map(noticeName), expect.notices, "notices");
  }
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
    rule: "§4.3 a tool turn with outcome aborted records 'stopped: you stopped it (Escape)'",
    given: input({ memory: seen(), turn: toolTurn({ outcome: "aborted" }) }),
    expect: { continue: false, stop: "stopped: you stopped it (Escape)", notices: ["stop:warning"] },
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
    expect: { continue: false, stop: "stopped: you stopped it (Escape)", memory: { round: 2 } },
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
    rule: "§4.5 waiting under the current anchor: no continuation, the stop recorded as 'waiting for you: <reason>' and not notified again (the block tool announced it)",
    given: input({ memory: seen({ waiting: { reason: "which database?", asked: false } }) }),
    expect: { continue: false, marker: null, last: "waiting", stop: "waiting for you: which database?", notices: [] },
  },
  {
    rule: "§4.5 waiting rebuilt from the block tool's result on the branch also stops",
    given: input({ branch: branch({ waiting: { reason: "need a key", asked: false }, hadWork: true }) }),
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
    rule: "§4.13 plain chat with no list ever under this message announces and records nothing",
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
  // §4.9 anchor, progress, hint
  {
    rule: "§4.9 a new anchor resets every counter first",
    given: input({
      memory: seen({ anchor: "u0", round: 5, staleSettles: 9, settleRun: 1, waiting: { reason: "old question", asked: true }, announced: ["clear"] }),
      branch: branch({ anchor: "u2" }),
    }),
    expect: {
      continue: true,
      marker: { round: 1, anchor: "u2", hint: false },
      memory: { anchor: "u2", round: 1, staleSettles: 0, settleRun: 1, waiting: undefined, announced: [] },
    },
  },
  {
    rule: "§4.9 the first sighting of a list is progress",
    given: input({ memory: memory() }),
    expect: { continue: true, marker: { round: 1, hint: false }, memory: { staleSettles: 0, signature: "sig-a", settleRun: 1 } },
  },
  {
    rule: "§4.9 a settle whose signature differs from the last decision's is progress (staleSettles = 0, no hint, the replies without work start again)",
    given: input({ memory: seen({ signature: "sig-old", staleSettles: 5, settleRun: 1 }) }),
    expect: { continue: true, marker: { round: 1, hint: false }, memory: { staleSettles: 0, settleRun: 1 } },
  },
  {
    rule: "§4.9 the hint is due when settleRun reaches 2 with no progress",
    given: input({ memory: seen({ settleRun: 1, round: 1 }) }),
    expect: { continue: true, marker: { round: 2, hint: true }, memory: { settleRun: 2, staleSettles: 1 } },
  },
  {
    rule: "§4.9 no hint on the first settle of a run",
    given: input({ memory: seen({ settleRun: 0, staleSettles: 3 }) }),
    expect: { continue: true, marker: { round: 1, hint: false }, memory: { settleRun: 1, staleSettles: 4 } },
  },
  {
    rule: "§4.9 the hint comes once per run of settles (not at settleRun 3)",
    given: input({ memory: seen({ settleRun: 2, round: 2 }) }),
    expect: { continue: true, marker: { round: 3, hint: false }, memory: { settleRun: 3 } },
  },
  // §4.10 limits
  {
    rule: "§4.10 maxRounds compares with >=: no continuation once the rounds reach it",
    given: input({ memory: seen({ signature: "sig-old", round: 3 }), limits: limits({ maxRounds: 3 }) }),
    expect: { continue: false, marker: null, last: "limit", stop: "stopped: 3 continuations used, 2 tasks still open", notices: ["stop:warning"], memory: { round: 3 } },
  },
  {
    rule: "§4.10 one round below maxRounds still continues and the reason shows the cap",
    given: input({ memory: seen({ signature: "sig-old", round: 2 }), limits: limits({ maxRounds: 3 }) }),
    expect: { continue: true, marker: { round: 3, hint: false }, last: "continuing" },
  },
  {
    rule: "§4.10 maxTokens compares with >= on the tokens spent since the anchor",
    given: input({ memory: seen({ signature: "sig-old" }), limits: limits({ maxTokens: 1000 }), spend: { tokens: 1000, cost: 0, minutes: undefined } }),
    expect: { continue: false, stop: "stopped: token limit reached (1,000 of 1,000 tokens since your message), 2 tasks still open" },
  },
  {
    rule: "§4.10 tokens below maxTokens continue",
    given: input({ memory: seen({ signature: "sig-old" }), limits: limits({ maxTokens: 1000 }), spend: { tokens: 999, cost: 0, minutes: undefined } }),
    expect: { continue: true },
  },
  {
    rule: "§4.10 maxCost compares with >= on the dollars spent since the anchor",
    given: input({ memory: seen({ signature: "sig-old" }), limits: limits({ maxCost: 0.5 }), spend: { tokens: 0, cost: 0.5, minutes: undefined } }),
    expect: { continue: false, stop: "stopped: cost limit reached ($0.5000 of $0.5000 since your message), 2 tasks still open" },
  },
  {
    rule: "§4.10 a limit stop names the replies without a todo change and that the agent may need you",
    given: input({ memory: seen({ round: 12, staleSettles: 3 }), limits: limits({ maxRounds: 12 }) }),
    expect: {
      continue: false,
      stop: "stopped: 12 continuations used, 2 tasks still open, no todo change for 4 replies; the agent may need you",
    },
  },
  // §4.10 continue
  {
    rule: "§4.11 continue: a marker with {v: 1, round, anchor, open, hint} naming the source's todo tool",
    given: input({ memory: memory(), list: { ...LIST, source: "quangthai-pi-todo", tool: "todo_write" }, tools: { active: ["todo_write"], registered: [] } }),
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
    rule: "§4.12 the 10th unchanged settle warns while the loop keeps going",
    given: input({ memory: seen({ staleSettles: 9, settleRun: 5, round: 9 }) }),
    expect: { continue: true, notices: ["stale"], memory: { staleSettles: 10 } },
  },
  {
    rule: "§4.12 the 9th unchanged settle does not warn",
    given: input({ memory: seen({ staleSettles: 8, settleRun: 5 }) }),
    expect: { continue: true, notices: [] },
  },
  {
    rule: "§4.12 the 11th unchanged settle does not warn",
    given: input({ memory: seen({ staleSettles: 10, settleRun: 5 }) }),
    expect: { continue: true, notices: [] },
  },
  {
    rule: "§4.12 the 20th unchanged settle warns again",
    given: input({ memory: seen({ staleSettles: 19, settleRun: 5 }) }),
    expect: { continue: true, notices: ["stale"], memory: { staleSettles: 20 } },
  },
  // §4.12 stops announced and recorded once
  {
    rule: "§4.13 the same stop kind again is neither recorded nor announced",
    given: input({ memory: seen({ announced: ["clear"] }), list: CLEAR }),
    expect: { continue: false, stop: null, notices: [] },
  },
  {
    rule: "§4.13 a stop of another kind is recorded and announced",
    given: input({ memory: seen({ announced: ["waiting"] }), list: CLEAR }),
    expect: { continue: false, stop: "stopped: list is clear", notices: ["stop:info"] },
  },
  {
    rule: "§4.13 a stop already recorded on the branch since the last continuation is not recorded or announced again after a reload",
    given: input({ branch: branch({ hadWork: true, announced: ["clear"] }), list: CLEAR }),
    expect: { continue: false, stop: null, notices: [] },
  },
  // §4.13 counters
  {
    rule: "§4.14 a stop keeps the counters",
    given: input({ memory: seen({ round: 4, staleSettles: 2 }), list: CLEAR }),
    expect: { continue: false, memory: { round: 4, staleSettles: 2 } },
  },
  {
    rule: "§4.14 with no state for the anchor, the round is rebuilt from the markers on the branch",
    given: input({ memory: undefined, branch: branch({ round: 4, hadWork: true }), limits: limits({ maxRounds: 5 }) }),
    expect: { continue: true, marker: { round: 5, hint: false } },
  },
  {
    rule: "§4.14 a rebuilt round does not re-arm a limit",
    given: input({ memory: undefined, branch: branch({ round: 5, hadWork: true }), limits: limits({ maxRounds: 5 }) }),
    expect: { continue: false, last: "limit" },
  },
  {
    rule: "§4.14 within a process, memory wins over the branch",
    given: input({ memory: seen({ round: 2 }), branch: branch({ round: 7 }) }),
    expect: { continue: true, marker: { round: 3, hint: false } },
  },
  {
    rule: "§4.14 after the branch changed under the memory, the counters are the new branch's",
    given: input({ memory: seen({ round: 7, staleSettles: 6, settleRun: 4 }), branch: branch({ round: 1, hadWork: true }), branchSwitched: true }),
    expect: { continue: true, marker: { round: 2, hint: false }, memory: { staleSettles: 0, settleRun: 1 } },
  },
  {
    rule: "§4.14 a pause read from the branch holds under a new anchor",
    given: input({ memory: seen({ anchor: "u0", paused: true }), branch: branch({ anchor: "u2", paused: true }) }),
    expect: { continue: false, last: "paused", memory: { anchor: "u2", paused: true } },
  },
];

for (const row of ROWS) {
  test(`decide: ${row.rule}`, () => {
    check(run(row.given), row.expect);
  });
}

test("decide: §4.13 an emptied list is its own event: the warning at the tool turn, then the no-list stop when the run ends", () => {
  const afterTools = run(input({ memory: seen(), turn: toolTurn({ calls: ["delete"], vanished: ["Ship it"] }), list: EMPTIED }));
  assert.deepEqual(afterTools.notices.map(noticeName), ["emptied:delete"]);
  const emptied = afterTools.notices[0];
  assert.ok(emptied?.kind === "emptied" && emptied.how === "delete");
  assert.equal(emptied.count, 1);
  assert.deepEqual(emptied.texts, ["Ship it"]);
  const settled = run(input({ memory: afterTools.memory, list: EMPTIED }));
  assert.equal(settled.continue, false);
  assert.deepEqual(settled.notices, []);
  const end = ended(settled);
  assert.equal(end.record?.reason, "stopped: no list (the list was emptied: its tasks were deleted or cleared)");
  assert.equal(end.record?.kind, "no-list");
  assert.equal(end.notice?.kind, "stop");
});

test("decide: §4.3 a delete warning counts the deleted tasks even when their texts are unknown", () => {
  const decision = run(input({ memory: seen(), turn: toolTurn({ calls: ["delete", "delete", "delete"], vanished: [] }), list: EMPTIED }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "emptied" && notice.how === "delete");
  assert.equal(notice.count, 3);
});

test("decide: §4.3 an errored tool turn with no open task, or before any list, announces nothing", () => {
  for (const list of [CLEAR, EMPTIED, { kind: "none", why: "no-tool" } as const]) {
    for (const mem of [memory(), seen()]) {
      const decision = run(input({ memory: mem, list, turn: toolTurn({ outcome: "error" }) }));
      assert.equal(decision.memory.pending, undefined, JSON.stringify(list));
      assert.equal(decision.memory.last.kind, "outcome");
    }
  }
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

test("decide: §4.13 a provider error that pi retries is never announced: the next turn replaces the pending stop", () => {
  const error = run(input({ memory: seen({ round: 1 }), turn: settleTurn({ outcome: "error" }) }));
  assert.equal(error.memory.pending?.reason.kind, "outcome");
  const retried = run(input({ memory: error.memory, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(retried.continue, true);
  assert.equal(retried.memory.pending, undefined);
  const end = ended(retried);
  assert.equal(end.record, undefined);
  assert.equal(end.notice, undefined);
});

test("decide: §4.13 a retry that fails for good is announced once, with the round it reached", () => {
  let state = run(input({ memory: seen({ round: 2 }), turn: settleTurn({ outcome: "error" }) }));
  state = run(input({ memory: state.memory, turn: settleTurn({ outcome: "error" }) }));
  const end = ended(state);
  assert.deepEqual(end.record, { v: 1, kind: "outcome", reason: "stopped: turn outcome was error", round: 2, open: 2, anchor: ANCHOR });
  assert.equal(end.notice?.kind === "stop" && end.notice.level, "warning");
  assert.equal(ended({ ...state, memory: end.memory }).record, undefined, "settling again records nothing");
});

test("decide: §4.13 a run another extension continued, or a queued message carried on, announces no stop", () => {
  const error = run(input({ memory: seen(), turn: settleTurn({ outcome: "error" }) }));
  for (const next of [input({ memory: error.memory, otherContinued: true }), input({ memory: error.memory, pendingMessages: true })]) {
    const decision = run(next);
    assert.equal(decision.memory.pending, undefined);
    assert.equal(ended(decision).record, undefined);
  }
});

test("decide: §4.9 after a tool turn starts a new run of settles the hint is due again", () => {
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

test("decide: §4.9 tool turns do not clear staleSettles; only a changed list does", () => {
  let state = run(input({ memory: memory() }));
  state = run(input({ memory: state.memory }));
  state = run(input({ memory: state.memory, turn: toolTurn() }));
  state = run(input({ memory: state.memory }));
  assert.equal(state.memory.staleSettles, 2);
  state = run(input({ memory: state.memory, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.memory.staleSettles, 0);
});

test("decide: §4.12 the first stale warning comes on the tenth unchanged reply after the list last changed", () => {
  let state = run(input({ memory: memory() }));
  const warnedAt: number[] = [];
  for (let reply = 1; reply <= 25; reply++) {
    state = run(input({ memory: state.memory }));
    assert.equal(state.continue, true);
    if (state.notices.some((notice) => notice.kind === "stale")) warnedAt.push(reply);
  }
  assert.deepEqual(warnedAt, [10, 20]);
});

test("decide: §4.12 with a round limit the stale warning says how many continuations remain", () => {
  const decision = run(input({ memory: seen({ staleSettles: 9, round: 10 }), limits: limits({ maxRounds: 50 }) }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "stale");
  assert.equal(notice.replies, 10);
  assert.equal(notice.open, 2);
  assert.equal(notice.roundsLeft, 39);
  assert.deepEqual(notice.limits, limits({ maxRounds: 50 }));
});

test("decide: §4.12 without a round limit the stale warning names no remaining count", () => {
  const decision = run(input({ memory: seen({ staleSettles: 9 }), limits: limits({ maxTokens: 5000 }) }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "stale");
  assert.equal(notice.roundsLeft, null);
});

test("decide: §4.13 the stop record carries v, kind, reason, round, open and anchor; a limit adds which", () => {
  const error = ended(run(input({ memory: seen({ round: 3 }), turn: settleTurn({ outcome: "error" }) })));
  assert.deepEqual(error.record, { v: 1, kind: "outcome", reason: "stopped: turn outcome was error", round: 3, open: 2, anchor: ANCHOR });
  const limit = ended(run(input({ memory: seen({ round: 3 }), limits: limits({ maxRounds: 3 }) })));
  assert.equal(limit.record?.kind, "limit");
  assert.equal(limit.record?.limit, "maxRounds");
});

test("decide: §4.13 a stop is recorded once per kind over a sequence of settles, even when its figures change", () => {
  const capped = limits({ maxTokens: 100 });
  let state = run(input({ memory: seen(), limits: capped, spend: { tokens: 100, cost: 0, minutes: undefined } }));
  let end = ended(state);
  assert.match(end.record?.reason ?? "", /100 of 100 tokens/);
  let records = 0;
  let notices = 0;
  for (let index = 0; index < 3; index++) {
    state = run(input({ memory: end.memory, limits: capped, spend: { tokens: 200 + index, cost: 0, minutes: undefined } }));
    end = ended(state);
    if (end.record) records += 1;
    if (end.notice) notices += 1;
  }
  assert.equal(records, 0);
  assert.equal(notices, 0);
});

test("decide: §4.13 after the loop continued again under the same message, a later stop of the same kind is a new one", () => {
  let state = run(input({ memory: seen(), list: CLEAR }));
  let end = ended(state);
  assert.equal(end.record?.kind, "clear");
  state = run(input({ memory: end.memory, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.continue, true);
  end = ended(state);
  state = run(input({ memory: end.memory, list: CLEAR }));
  end = ended(state);
  assert.equal(end.record?.kind, "clear");
  assert.equal(end.notice?.kind, "stop");
});

test("decide: §4.13 with the transcript shown the stop is recorded but not notified", () => {
  const end = ended(run(input({ memory: seen(), list: CLEAR })), true);
  assert.equal(end.record?.reason, "stopped: list is clear");
  assert.equal(end.notice, undefined);
});

test("decide: §4.13 a list with an open task at some point under this message makes a later stop announced", () => {
  const first = run(input({ memory: memory() }));
  assert.equal(first.memory.hadWork, true);
  const later = run(input({ memory: first.memory, list: { kind: "none", why: "unreadable" } }));
  assert.equal(ended(later).record?.reason, "stopped: no list (todo results are in a shape this extension does not read)");
});

test("decide: §4.13 a list that was already clear when the message arrived announces nothing (plain chat after a finished list)", () => {
  for (let index = 0; index < 3; index++) {
    const decision = run(input({ memory: undefined, branch: branch({ anchor: `u${index + 5}`, hadWork: false }), list: CLEAR }));
    assert.equal(decision.memory.pending, undefined);
    assert.equal(ended(decision).record, undefined);
  }
});

test("settle: with no pending stop nothing is recorded or announced", () => {
  const end = settle(seen(), false, describeReason);
  assert.equal(end.record, undefined);
  assert.equal(end.notice, undefined);
});

test("decide never continues without a list that has open tasks", () => {
  const lists: ListState[] = [
    CLEAR,
    EMPTIED,
    { kind: "none", why: "no-tool" },
    { kind: "none", why: "unused" },
    { kind: "none", why: "unreadable" },
    { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" },
    { kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" },
    { kind: "planning", source: "plan-mode" },
  ];
  for (const list of lists) {
    for (const mem of [undefined, memory(), seen({ settleRun: 1 })]) {
      const decision = run(input({ memory: mem, list }));
      assert.equal(decision.continue, false);
      assert.equal(decision.marker, undefined);
    }
  }
});

// ---- 0.2 brakes -----------------------------------------------------------------------------------

test("decide: §4.8 a reply ending with a question waits with the question as its reason, announced once as a warning", () => {
  const decision = run(input({ memory: seen(), turn: settleTurn({ question: "Should I use Postgres or SQLite?" }) }));
  assert.equal(decision.continue, false);
  assert.equal(decision.marker, undefined);
  assert.deepEqual(decision.memory.waiting, { reason: "Should I use Postgres or SQLite?", asked: true });
  const end = ended(decision);
  assert.equal(end.record?.kind, "question");
  assert.equal(end.record?.reason, 'waiting for you: the agent asked: "Should I use Postgres or SQLite?"');
  assert.equal(end.notice?.kind === "stop" && end.notice.level, "warning");
  const again = ended(run(input({ memory: end.memory })));
  assert.equal(again.record, undefined, "the wait is not announced twice");
});

test("decide: §4.8 with stopOnQuestion false a question gets the normal nudge", () => {
  const decision = run(input({ memory: seen(), stopOnQuestion: false, turn: settleTurn({ question: "Shall I go on?" }) }));
  assert.equal(decision.continue, true);
  assert.equal(decision.memory.waiting, undefined);
});

test("decide: §4.8 a question is no wait while nothing is open, while paused, or when a queued message runs next", () => {
  assert.equal(run(input({ memory: seen(), list: CLEAR, turn: settleTurn({ question: "Anything else?" }) })).memory.waiting, undefined);
  assert.equal(run(input({ memory: seen({ paused: true }), turn: settleTurn({ question: "Go on?" }) })).memory.waiting, undefined);
  assert.equal(run(input({ memory: seen(), pendingMessages: true, turn: settleTurn({ question: "Go on?" }) })).memory.waiting, undefined);
});

test("decide: §4.8 the human's next message ends a question wait (a new anchor)", () => {
  const waiting = run(input({ memory: seen(), turn: settleTurn({ question: "Which one?" }) }));
  const next = run(input({ memory: waiting.memory, branch: branch({ anchor: "u2", hadWork: true }) }));
  assert.equal(next.continue, true);
  assert.equal(next.memory.waiting, undefined);
});

test("decide: §4.10 maxIdleReplies (default 3): nudge, hint, then the idle stop naming the count", () => {
  const idle = limits({ maxIdleReplies: DEFAULT_CONFIG.maxIdleReplies });
  assert.equal(DEFAULT_CONFIG.maxIdleReplies, 3);
  const first = run(input({ memory: memory(), limits: idle }));
  assert.equal(first.marker?.hint, false);
  const second = run(input({ memory: first.memory, limits: idle }));
  assert.equal(second.marker?.hint, true);
  const third = run(input({ memory: second.memory, limits: idle }));
  assert.equal(third.continue, false);
  assert.deepEqual(third.memory.last, { kind: "idle", replies: 3, open: 2 });
  const end = ended(third);
  assert.equal(end.record?.kind, "idle");
  assert.equal(end.record?.reason, "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you");
});

test("decide: §4.10 a tool turn between stops starts the idle count again", () => {
  const idle = limits({ maxIdleReplies: 2 });
  let state = run(input({ memory: memory(), limits: idle }));
  state = run(input({ memory: state.memory, turn: toolTurn(), limits: idle }));
  state = run(input({ memory: state.memory, limits: idle, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(state.continue, true);
  assert.equal(state.memory.settleRun, 1);
});

test("decide: §4.10 maxIdleReplies off (null) keeps nudging", () => {
  let state = run(input({ memory: memory() }));
  for (let index = 0; index < 6; index++) state = run(input({ memory: state.memory }));
  assert.equal(state.continue, true);
  assert.equal(state.memory.settleRun, 7);
});

test("decide: §4.10 maxMinutes compares with >= on the minutes from the anchor to this reply; no timestamps, no time limit", () => {
  const timed = limits({ maxMinutes: 30 });
  const over = run(input({ memory: seen(), limits: timed, spend: { tokens: 0, cost: 0, minutes: 31 } }));
  assert.equal(over.continue, false);
  assert.equal(ended(over).record?.reason, "stopped: time limit reached (31 of 30 minutes since your message), 2 tasks still open, no todo change for 1 reply; the agent may need you");
  assert.equal(run(input({ memory: seen(), limits: timed, spend: { tokens: 0, cost: 0, minutes: 29.9 } })).continue, true);
  assert.equal(run(input({ memory: seen(), limits: timed, spend: { tokens: 0, cost: 0, minutes: undefined } })).continue, true);
});

test("decide: §4.6 a todo tool out of reach stops with its name and the open count", () => {
  const tools: ToolFacts = { active: ["read"], registered: [{ name: "todo", exposure: "direct" }] };
  const decision = run(input({ memory: seen(), tools }));
  assert.equal(decision.continue, false);
  assert.equal(ended(decision).record?.reason, "stopped: the todo tool todo is not active, so the list cannot change, 2 tasks still open");
  assert.equal(ended(decision).record?.kind, "out-of-reach");
});

test("decide: §4.6 plan-mode has no tool, so reach does not apply; planning never continues and announces nothing", () => {
  const plan: ListState = { kind: "list", open: 2, total: 3, signature: "p", source: "plan-mode", tool: undefined };
  assert.equal(run(input({ memory: seen(), list: plan, tools: { active: [], registered: [] } })).continue, true);
  const planning = run(input({ memory: seen(), list: { kind: "planning", source: "plan-mode" } }));
  assert.equal(planning.continue, false);
  assert.equal(planning.memory.last.kind, "planning");
  assert.equal(planning.memory.pending, undefined);
});

test("decide: §4.6 an out-of-date list stops and says why", () => {
  const decision = run(input({ memory: seen(), list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } }));
  assert.equal(decision.continue, false);
  assert.equal(ended(decision).record?.reason, "stopped: the todo list is out of date (made through codemode)");
  assert.equal(ended(decision).record?.kind, "out-of-date");
});

test("toolReachable: active, or reachable through an active codemode when its exposure is codemode or deferred", () => {
  assert.equal(toolReachable("todo", { active: ["todo"], registered: [] }), true);
  assert.equal(toolReachable("todo", { active: [], registered: [{ name: "todo", exposure: "codemode" }] }), false, "no codemode active");
  for (const exposure of ["codemode", "deferred"]) {
    assert.equal(toolReachable("todo", { active: ["codemode"], registered: [{ name: "todo", exposure }] }), true, exposure);
  }
  for (const exposure of ["direct", "model-only", "hidden", undefined]) {
    assert.equal(toolReachable("todo", { active: ["codemode"], registered: [{ name: "todo", exposure }] }), false, String(exposure));
  }
  assert.equal(toolReachable("todo", { active: ["codemode"], registered: [] }), false, "not registered at all");
});

test("stopKind: every stop reason has its kind; other reasons are no stop", () => {
  assert.equal(stopKind({ kind: "waiting", reason: "x", asked: true }), "question");
  assert.equal(stopKind({ kind: "waiting", reason: "x", asked: false }), "waiting");
  assert.equal(stopKind({ kind: "continuing", open: 1, round: 1, maxRounds: null }), undefined);
  assert.equal(stopKind({ kind: "planning" }), undefined);
  assert.equal(stopKind({ kind: "paused" }), undefined);
});

// ---- align ----------------------------------------------------------------------------------------

test("align: the memory for the same anchor on the same branch is kept as it is", () => {
  const mem = seen({ round: 3, staleSettles: 2 });
  assert.equal(align(mem, branch({ round: 9 }), false), mem);
});

test("align: a new anchor takes every counter, the wait and the pause from the branch", () => {
  const aligned = align(seen({ anchor: "u0", round: 3, staleSettles: 2, settleRun: 2, paused: true, waiting: { reason: "x", asked: false } }), branch({ anchor: "u2" }), false);
  assert.deepEqual(aligned, freshMemory("u2", false));
});

test("align: with no memory, counters, wait, pause, hadWork and the stops announced come from the branch", () => {
  const facts = branch({ round: 4, idle: 2, stale: 3, signature: "sig-a", waiting: { reason: "which one?", asked: true }, paused: true, hadWork: true, announced: ["clear"], stuck: 3, fp: "fp-x", repeats: 2 });
  const aligned = align(undefined, facts, false);
  assert.deepEqual(aligned, {
    anchor: ANCHOR,
    round: 4,
    settleRun: 2,
    staleSettles: 3,
    signature: "sig-a",
    waiting: { reason: "which one?", asked: true },
    paused: true,
    hadWork: true,
    announced: ["clear"],
    pending: undefined,
    last: { kind: "none" },
    adopted: false,
    carried: false,
    queued: false,
    stuck: 3,
    fp: "fp-x",
    repeats: 2,
  });
});

test("align: after a branch switch everything is the branch's; the last reason stays for the same anchor", () => {
  const aligned = align(seen({ round: 7, paused: true, last: { kind: "paused" } }), branch({ round: 2 }), true);
  assert.equal(aligned.round, 2);
  assert.equal(aligned.paused, false, "the new branch has no pause");
  assert.equal(aligned.last.kind, "paused");
  assert.equal(aligned.signature, undefined);
});

// ---- /todoloop and the block tool -----------------------------------------------------------------

function facts(overrides: Partial<CommandFacts> = {}): CommandFacts {
  return { list: LIST, limits: NO_LIMITS, idle: true, killSwitch: false, ...overrides };
}

test("applyCommand: pause stops continuing, keeps the counters and is recorded", () => {
  const result = applyCommand(seen({ round: 3 }), "pause", facts());
  assert.equal(result.memory.paused, true);
  assert.equal(result.memory.round, 3);
  assert.equal(result.reply.kind, "paused");
  assert.equal(result.record, true);
  assert.equal(result.marker, undefined);
});

test("applyCommand: a pause drops the stop the run would have ended with", () => {
  const result = applyCommand(seen({ pending: { reason: { kind: "clear" }, open: 0, level: "info" } }), "pause", facts());
  assert.equal(result.memory.pending, undefined);
});

test("applyCommand: resume lifts the pause and clears waiting", () => {
  const result = applyCommand(seen({ paused: true, waiting: { reason: "need a key", asked: false }, round: 3 }), "resume", facts());
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.waiting, undefined);
  assert.equal(result.memory.round, 3);
  assert.equal(result.reply.kind, "resumed");
  assert.equal(result.record, true);
});

test("applyCommand: reset clears counters, signature, waiting and the stops announced, and keeps the anchor, pause and hadWork", () => {
  const result = applyCommand(
    seen({ round: 5, staleSettles: 4, settleRun: 2, waiting: { reason: "x", asked: false }, paused: true, announced: ["clear"] }),
    "reset",
    facts(),
  );
  assert.deepEqual(result.memory, { ...freshMemory(ANCHOR, true), hadWork: true, last: { kind: "reset" } });
  assert.equal(result.record, true);
});

test("applyCommand: status changes nothing and records nothing", () => {
  const mem = seen({ round: 2 });
  const result = applyCommand(mem, "status", facts());
  assert.equal(result.memory, mem);
  assert.equal(result.record, false);
});

test("applyCommand: continue with open tasks and an idle agent lifts pause and wait and starts one run: one marker, one more round", () => {
  const result = applyCommand(seen({ round: 3, paused: true, waiting: { reason: "x", asked: true }, announced: ["limit:maxRounds"] }), "continue", facts({ limits: limits({ maxRounds: 3 }) }));
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.waiting, undefined);
  assert.equal(result.memory.round, 4);
  assert.deepEqual(result.memory.announced, []);
  assert.deepEqual(result.reply, { kind: "requested", started: true });
  assert.equal(result.record, true);
  assert.equal(result.marker?.round, 4);
  assert.equal(result.marker?.anchor, ANCHOR);
  assert.equal(result.marker?.cap, 3);
});

test("applyCommand: continue past a maxRounds stop gives exactly one more run, then the limit stops again and is announced again", () => {
  const capped = limits({ maxRounds: 3 });
  const stopped = run(input({ memory: seen({ round: 3 }), limits: capped }));
  const first = ended(stopped);
  assert.equal(first.record?.kind, "limit");
  const resumed = applyCommand(first.memory, "continue", facts({ limits: capped }));
  assert.equal(resumed.marker?.round, 4);
  const after = run(input({ memory: resumed.memory, limits: capped }));
  assert.equal(after.continue, false);
  const again = ended(after);
  assert.equal(again.record?.reason, "stopped: 4 continuations used, 2 tasks still open, no todo change for 2 replies; the agent may need you");
  assert.equal(again.notice?.kind, "stop");
});

test("applyCommand: continue with nothing open, or with a kill switch, says so and changes nothing (a pause stays)", () => {
  const paused = seen({ paused: true });
  for (const given of [facts({ list: CLEAR }), facts({ list: EMPTIED }), facts({ killSwitch: true })]) {
    const result = applyCommand(paused, "continue", given);
    assert.equal(result.memory, paused);
    assert.equal(result.reply.kind, "cannot-continue");
    assert.equal(result.record, false);
    assert.equal(result.marker, undefined);
  }
});

test("applyCommand: continue while the agent is busy only lifts pause and wait", () => {
  const result = applyCommand(seen({ paused: true, round: 2, waiting: { reason: "x", asked: false } }), "continue", facts({ idle: false }));
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.waiting, undefined);
  assert.equal(result.memory.round, 2);
  assert.equal(result.marker, undefined);
  assert.deepEqual(result.reply, { kind: "requested", started: false });
});

test("applyBlock: the agent's block makes the loop wait; while paused it changes nothing", () => {
  const blocked = applyBlock(seen(), "need a key");
  assert.equal(blocked.accepted, true);
  assert.deepEqual(blocked.memory.waiting, { reason: "need a key", asked: false });
  const paused = seen({ paused: true });
  assert.deepEqual(applyBlock(paused, "need a key"), { memory: paused, accepted: false });
});

test("parseCommand: empty or missing arguments mean status", () => {
  assert.equal(parseCommand(""), "status");
  assert.equal(parseCommand("   "), "status");
  assert.equal(parseCommand(undefined), "status");
});

test("parseCommand: the five words, any case and surrounding space", () => {
  assert.deepEqual(COMMANDS, ["status", "pause", "resume", "reset", "continue"]);
  assert.equal(parseCommand("status"), "status");
  assert.equal(parseCommand(" PAUSE "), "pause");
  assert.equal(parseCommand("resume"), "resume");
  assert.equal(parseCommand("Reset"), "reset");
  assert.equal(parseCommand("continue"), "continue");
});

test("parseCommand: anything else is unknown", () => {
  assert.equal(parseCommand("stop"), undefined);
  assert.equal(parseCommand("pause now"), undefined);
  assert.equal(parseCommand("--help"), undefined);
});

// ---- limitReached ---------------------------------------------------------------------------------

const NO_SPEND = { tokens: 0, cost: 0, minutes: undefined };

test("limitReached: with no limit set nothing is ever reached", () => {
  assert.equal(limitReached(seen({ round: 10_000, settleRun: 10_000 }), NO_LIMITS, { tokens: 1e12, cost: 1e6, minutes: 1e6 }, 2), undefined);
});

test("limitReached: maxRounds compares with >=", () => {
  const capped = limits({ maxRounds: 3 });
  assert.equal(limitReached(seen({ round: 2 }), capped, NO_SPEND, 2), undefined);
  assert.deepEqual(limitReached(seen({ round: 3, staleSettles: 1 }), capped, NO_SPEND, 2), {
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
  assert.equal(limitReached(seen(), capped, { ...NO_SPEND, tokens: 99 }, 1), undefined);
  assert.equal(limitReached(seen(), capped, { ...NO_SPEND, tokens: 100 }, 1)?.kind, "limit");
});

test("limitReached: maxCost compares with >=", () => {
  const capped = limits({ maxCost: 1.25 });
  assert.equal(limitReached(seen(), capped, { ...NO_SPEND, cost: 1.2499 }, 1), undefined);
  assert.deepEqual(limitReached(seen(), capped, { ...NO_SPEND, cost: 1.25 }, 1), { kind: "limit", limit: "maxCost", used: 1.25, max: 1.25, open: 1, stale: 0 });
});

test("limitReached: maxMinutes compares with >=, fractions allowed", () => {
  const capped = limits({ maxMinutes: 0.5 });
  assert.equal(limitReached(seen(), capped, { ...NO_SPEND, minutes: 0.49 }, 1), undefined);
  assert.deepEqual(limitReached(seen(), capped, { ...NO_SPEND, minutes: 0.5 }, 1), { kind: "limit", limit: "maxMinutes", used: 0.5, max: 0.5, open: 1, stale: 0 });
});

test("limitReached: maxIdleReplies compares with >= on the replies in a row without work", () => {
  const capped = limits({ maxIdleReplies: 3 });
  assert.equal(limitReached(seen({ settleRun: 2 }), capped, NO_SPEND, 1), undefined);
  assert.deepEqual(limitReached(seen({ settleRun: 3 }), capped, NO_SPEND, 1), { kind: "idle", replies: 3, open: 1 });
});

test("limitReached: the round limit is named first when several are reached, the idle brake last", () => {
  const all = limits({ maxRounds: 1, maxTokens: 1, maxCost: 0.01, maxMinutes: 1, maxIdleReplies: 1 });
  const spend = { tokens: 5, cost: 1, minutes: 5 };
  const named = (mem: Memory, given: DecideInput["spend"] = spend) => {
    const reached = limitReached(mem, all, given, 1);
    return reached?.kind === "limit" ? reached.limit : reached?.kind;
  };
  assert.equal(named(seen({ round: 1, settleRun: 1 })), "maxRounds");
  assert.equal(named(seen({ round: 0, settleRun: 1 })), "maxTokens");
  assert.equal(named(seen({ settleRun: 1 }), { ...spend, tokens: 0 }), "maxCost");
  assert.equal(named(seen({ settleRun: 1 }), { tokens: 0, cost: 0, minutes: 5 }), "maxMinutes");
  assert.equal(named(seen({ settleRun: 1 }), NO_SPEND), "idle");
});

test("applyCommand: resume and continue lift a wait, so the next question is a new stop, recorded again", () => {
  for (const command of ["resume", "continue"] as const) {
    const asked = ended(run(input({ memory: seen(), turn: settleTurn({ question: "Which one?" }) })));
    assert.deepEqual(asked.memory.announced, ["question"]);
    const lifted = applyCommand(asked.memory, command, facts({ idle: false }));
    assert.deepEqual(lifted.memory.announced, [], command);
    const again = ended(run(input({ memory: lifted.memory, turn: settleTurn({ question: "And now?" }) })));
    assert.equal(again.record?.kind, "question", command);
  }
});

test("decide: §4.10 a reply that changed the list without a tool call (plan-mode's [DONE:n]) did work: the idle count starts again", () => {
  const idle = limits({ maxIdleReplies: 3 });
  const plan = (signature: string): ListState => ({ kind: "list", open: 3, total: 4, signature, source: "plan-mode", tool: undefined });
  let state = run(input({ memory: memory(), limits: idle, list: plan("p1") }));
  for (const signature of ["p2", "p3", "p4", "p5", "p6"]) {
    state = run(input({ memory: state.memory, limits: idle, list: plan(signature) }));
    assert.equal(state.continue, true, signature);
    assert.equal(state.memory.settleRun, 1);
  }
  state = run(input({ memory: state.memory, limits: idle, list: plan("p6") }));
  assert.equal(state.marker?.hint, true, "a reply that closed nothing gets the hint");
  state = run(input({ memory: state.memory, limits: idle, list: plan("p6") }));
  assert.equal(state.memory.last.kind, "idle");
});

test("applyCommand: continue on an out-of-date list is consent too (0.3): one run, its marker asks the agent to read the list, no task text or counters in its nudge", () => {
  const stale: ListState = { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" };
  const result = applyCommand(seen({ round: 1, paused: true }), "continue", facts({ list: stale, staleList: { tool: "todo", total: 3 } }));
  assert.deepEqual(result.reply, { kind: "requested", started: true });
  assert.equal(result.record, true);
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.round, 2);
  assert.deepEqual(result.marker, {
    v: 1, round: 2, anchor: ANCHOR, open: 2, total: 3, cap: null, hint: false, idle: 0, stale: 0, stuck: 0, fp: null, repeats: 0, reread: true, tool: "todo", source: "rpiv-todo",
  });
  const unknown = applyCommand(seen(), "continue", facts({ list: { kind: "out-of-date", why: "codemode", open: 0, source: undefined } }));
  assert.equal(unknown.marker?.reread, true, "even with no readable list before: the agent reads it");
  assert.equal(unknown.marker?.tool, "todo");
  const busy = applyCommand(seen(), "continue", facts({ list: stale, idle: false }));
  assert.equal(busy.marker, undefined);
  assert.equal(busy.memory.kept, 0, "busy: the consent is kept for when pi settles");
});

// ---- a continue that arrives while a run winds down (0.3) --------------------------------------------

const WIND_DOWN_STOP = { reason: { kind: "idle", replies: 3, open: 2 } as Reason, open: 2, level: "warning" as const };

test("applyCommand: continue while the agent is busy keeps the consent (the round it came at), lifts a pause and a wait, and keeps the stop the run ends with", () => {
  const memory = seen({ round: 2, paused: true, waiting: { reason: "which one?", asked: true }, pending: WIND_DOWN_STOP });
  const result = applyCommand(memory, "continue", facts({ idle: false }));
  assert.deepEqual(result.reply, { kind: "requested", started: false });
  assert.equal(result.marker, undefined);
  assert.equal(result.record, true);
  assert.equal(result.memory.kept, 2);
  assert.equal(result.memory.paused, false);
  assert.equal(result.memory.waiting, undefined);
  assert.deepEqual(result.memory.pending, WIND_DOWN_STOP, "the stop is not lost: it is recorded when pi settles");
});

test("honourKept: pi settled after a kept continue: one marker then, as continue gives when idle, and no second control record", () => {
  const kept = applyCommand(seen({ round: 2, paused: true }), "continue", facts({ idle: false })).memory;
  const idleFacts = { list: LIST, limits: NO_LIMITS, killSwitch: false };
  const honoured = honourKept(kept, idleFacts, false);
  assert.ok(honoured);
  assert.deepEqual(honoured.reply, { kind: "requested", started: true });
  assert.equal(honoured.record, false, "the control was recorded when the command came");
  assert.equal(honoured.marker?.round, 3);
  assert.equal(honoured.memory.round, 3);
  assert.equal(honoured.memory.kept, undefined, "one marker: the consent is used up");
  assert.equal(honourKept(honoured.memory, idleFacts, false), undefined, "nothing kept any more");
  const direct = applyCommand(seen({ round: 2, paused: true }), "continue", facts());
  assert.deepEqual(honoured.marker, direct.marker, "the same marker continue sends when the agent is idle");
});

test("honourKept: the stop the run ended with is recorded first (settle), then the kept consent gives its run", () => {
  const kept = applyCommand(seen({ round: 2, pending: WIND_DOWN_STOP }), "continue", facts({ idle: false })).memory;
  const settled = settle(kept, false, describeReason);
  assert.equal(settled.record?.kind, "idle");
  const honoured = honourKept(settled.memory, { list: LIST, limits: NO_LIMITS, killSwitch: false }, false);
  assert.equal(honoured?.marker?.round, 3);
  assert.deepEqual(honoured?.memory.announced, [], "after the new continuation a later stop is a new one");
});

test("honourKept: the consent lapses only for the person's own later word or a loop that already went on: a pause since, an abort, a continuation since", () => {
  const kept = applyCommand(seen({ round: 2 }), "continue", facts({ idle: false })).memory;
  const rest = { list: LIST, limits: NO_LIMITS, killSwitch: false };
  assert.equal(honourKept(applyCommand(kept, "pause", facts()).memory, rest, false), undefined, "a pause since withdraws it");
  for (const [name, memory, aborted] of [["paused since", { ...kept, paused: true }, false], ["aborted", kept, true], ["continued since", { ...kept, round: 3 }, false]] as const) {
    const result = honourKept(memory, rest, aborted);
    assert.equal(result?.marker, undefined, name);
    assert.equal(result?.memory.kept, undefined, name);
    assert.deepEqual(result?.reply, { kind: "none" }, `${name}: nothing to say`);
  }
  assert.equal(honourKept(freshMemory(ANCHOR), rest, false), undefined, "nothing kept");
});

test("honourKept: with nothing open by the time pi settles it says so rather than lapsing silently; a new message or a branch switch drops the consent", () => {
  const kept = applyCommand(seen({ round: 2 }), "continue", facts({ idle: false })).memory;
  const result = honourKept(kept, { list: { kind: "list", open: 0, total: 2, signature: "s", source: "rpiv-todo", tool: "todo" }, limits: NO_LIMITS, killSwitch: false }, false);
  assert.deepEqual(result?.reply, { kind: "cannot-continue", why: "nothing-open" });
  assert.equal(result?.marker, undefined);
  assert.equal(align(kept, branch({ anchor: "u2" }), false).kept, undefined, "a new human message outranks it");
  assert.equal(align(kept, branch(), true).kept, undefined, "another branch");
  assert.equal(align(kept, branch(), false).kept, 2, "kept within the run");
});

test("applyCommand: a pause after a kept continue withdraws it; a reset keeps it, counted from the reset", () => {
  const kept = applyCommand(seen({ round: 2 }), "continue", facts({ idle: false })).memory;
  assert.equal(applyCommand(kept, "pause", facts()).memory.kept, undefined);
  const reset = applyCommand(kept, "reset", facts()).memory;
  assert.equal(reset.kept, 0);
  assert.equal(honourKept(reset, { list: LIST, limits: NO_LIMITS, killSwitch: false }, false)?.marker?.round, 1);
});

test("decide: a continuation after a kept consent uses it up (the loop went on), so pi's settle adds no second marker", () => {
  const kept = applyCommand(seen({ round: 2 }), "continue", facts({ idle: false })).memory;
  const decision = run(input({ memory: kept, branch: branch({ round: 2 }) }));
  assert.equal(decision.continue, true);
  const honoured = honourKept(decision.memory, { list: LIST, limits: NO_LIMITS, killSwitch: false }, false);
  assert.equal(honoured?.marker, undefined);
});

// ---- guards of the decision: what a new message resets, what each stop and notice carries -----------

test("align: a new anchor starts with no last reason, whatever the previous message's was", () => {
  const stopped = seen({ anchor: "u0", last: { kind: "clear" } });
  assert.deepEqual(align(stopped, branch({ anchor: "u2" }), false).last, { kind: "none" });
  assert.deepEqual(align(stopped, branch({ anchor: "u2" }), true).last, { kind: "none" }, "also after a branch switch");
});

test("decide: §4.3 a delete warning counts the tasks that vanished when one call deleted several", () => {
  const decision = run(input({ memory: seen(), turn: toolTurn({ calls: ["delete"], vanished: ["a", "b", "c"] }), list: EMPTIED }));
  const notice = decision.notices[0];
  assert.ok(notice?.kind === "emptied" && notice.how === "delete");
  assert.equal(notice.count, 3);
  assert.deepEqual(notice.texts, ["a", "b", "c"]);
});

import { stopKey } from "../src/loop.ts";

test("decide: §4.6 an out-of-date list with open tasks is work: its stop is recorded with the older list's open count", () => {
  const stale: ListState = { kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" };
  const decision = run(input({ memory: memory(), list: stale }));
  assert.equal(decision.memory.hadWork, true);
  const end = ended(decision);
  assert.equal(end.record?.open, 2);
  assert.deepEqual(end.notice && noticeName(end.notice), "stop:warning");
});

test("decide: every stop but a clear list is announced as a warning (no list, out of date, out of reach, a question rebuilt from the branch)", () => {
  const cases: DecideInput[] = [
    input({ memory: seen(), list: EMPTIED }),
    input({ memory: seen(), list: { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" } }),
    input({ memory: seen(), tools: { active: ["read"], registered: [] } }),
    input({ memory: seen({ waiting: { reason: "Which one?", asked: true } }) }),
  ];
  for (const given of cases) {
    const end = ended(run(given));
    assert.equal(end.notice?.kind === "stop" ? end.notice.level : "none", "warning", end.record?.reason);
  }
  const clear = ended(run(input({ memory: seen(), list: CLEAR })));
  assert.equal(clear.notice?.kind === "stop" ? clear.notice.level : "none", "info");
});

test("toolReachable: the exposure that counts is the named tool's, not another registered tool's", () => {
  const registered = [
    { name: "read", exposure: "codemode" },
    { name: "todo", exposure: "direct" },
  ];
  assert.equal(toolReachable("todo", { active: ["codemode"], registered }), false);
  assert.equal(toolReachable("todo", { active: ["codemode"], registered: [...registered].reverse() }), false);
});

test("stopKey: a limit stop is keyed by which limit when known; every other stop by its kind alone", () => {
  assert.equal(stopKey("limit", "maxRounds"), "limit:maxRounds");
  assert.equal(stopKey("limit"), "limit");
  assert.equal(stopKey("clear", "maxRounds"), "clear");
  assert.equal(stopKey("question"), "question");
});

test("applyBlock: the block is the last reason, with its reason", () => {
  assert.deepEqual(applyBlock(seen(), "which region?").memory.last, { kind: "waiting", reason: "which region?", asked: false });
});

test("applyCommand: resume and continue lift a question wait too, so the next question is announced again", () => {
  for (const command of ["resume", "continue"] as const) {
    const asked = seen({ waiting: { reason: "Which one?", asked: true }, announced: ["question", "waiting", "clear"] });
    const lifted = applyCommand(asked, command, facts({ idle: false }));
    assert.deepEqual(lifted.memory.announced, ["clear"], command);
  }
});

test("applyCommand: continue that cannot start says why (kill switch, nothing open)", () => {
  assert.deepEqual(applyCommand(seen(), "continue", facts({ killSwitch: true })).reply, { kind: "cannot-continue", why: "kill-switch" });
  assert.deepEqual(applyCommand(seen(), "continue", facts({ list: CLEAR })).reply, { kind: "cannot-continue", why: "nothing-open" });
});

test("applyCommand: a continue that starts a run is work for this message, and its nudge carries no hint", () => {
  const started = applyCommand(memory({ hadWork: false }), "continue", facts());
  assert.equal(started.memory.hadWork, true);
  assert.equal(started.marker?.hint, false);
});

// ---- §4.15 tasks from an earlier message -------------------------------------------------------------------

const EARLIER = { ...NO_EARLIER, open: true };
/** A settle under a new message while the earlier message's two tasks are still open. */
function earlierInput(overrides: Partial<DecideInput> = {}, earlier: Partial<typeof EARLIER> = {}): DecideInput {
  return input({ branch: branch({ hadWork: true, earlier: { ...EARLIER, ...earlier } }), ...overrides });
}

test("holdsEarlier: only with \"ask\", tasks open as the message arrived, not carried over and not adopted", () => {
  assert.equal(holdsEarlier("ask", { open: true, carried: false, adopted: false }), true);
  assert.equal(holdsEarlier("continue", { open: true, carried: false, adopted: false }), false, "continue is 0.2's behaviour");
  assert.equal(holdsEarlier("ask", { open: false, carried: false, adopted: false }), false, "the message that creates a list is never earlier");
  assert.equal(holdsEarlier("ask", { open: true, carried: true, adopted: false }), false, "a message that carries the list over");
  assert.equal(holdsEarlier("ask", { open: true, carried: false, adopted: true }), false, "a list the message took up");
});

test("decide: §4.15 a settle under a new message with tasks open from an earlier one does not continue: an earlier stop, info, not a warning", () => {
  const decision = run(earlierInput());
  assert.equal(decision.continue, false);
  assert.equal(decision.marker, undefined);
  assert.deepEqual(decision.memory.last, { kind: "earlier", open: 2, list: listKey(LIST) });
  assert.equal(decision.memory.round, 0, "no round spent");
  const stop = ended(decision);
  assert.equal(stop.record?.kind, "earlier");
  assert.equal(stop.record?.list, listKey(LIST), "the record keeps the list state it was shown for");
  assert.equal(stop.record?.reason, "not continuing: 2 tasks are open from an earlier message — /todoloop continue to go on with them");
  assert.deepEqual(stop.notice, { kind: "stop", reason: decision.memory.last, level: "info" });
  assert.equal(ended(decision, true).notice, undefined, "in the TUI the transcript line is the announcement");
});

test("decide: §4.15 the agent used the list's tool, or the list changed under the message (adopted) → the loop continues", () => {
  assert.equal(run(earlierInput({}, { adopted: true })).continue, true);
});

test("decide: §4.15 a message that answers a wait or came while a run was going (carried over) → the loop continues without asking", () => {
  assert.equal(run(earlierInput({}, { carried: true })).continue, true);
});

test("decide: §4.15 earlierTasks \"continue\" is 0.2's behaviour: the earlier list is pushed", () => {
  assert.equal(run(earlierInput({ earlierTasks: "continue" })).continue, true);
});

test("decide: §4.15 the message that creates a list is never earlier", () => {
  assert.equal(run(input({ branch: branch({ earlier: { ...EARLIER, open: false } }) })).continue, true);
});

test("decide: §4.15 once per list state: a later message with the same untouched list is held quietly (no stop recorded)", () => {
  const decision = run(earlierInput({}, { shown: listKey(LIST) }));
  assert.equal(decision.continue, false);
  assert.equal(decision.memory.last.kind, "earlier");
  assert.equal(decision.memory.pending, undefined, "nothing to record or announce");
  const changed: ListState = { ...LIST, signature: "sig-b" };
  assert.equal(ended(run(earlierInput({ list: changed }, { shown: listKey(LIST) }))).record?.kind, "earlier", "another list state is shown again");
});

test("decide: §4.15 within one message the earlier stop is recorded once, however many settles", () => {
  const first = run(earlierInput());
  const settled = ended(first);
  assert.equal(settled.record?.kind, "earlier");
  const second = run(earlierInput({ memory: settled.memory }));
  assert.equal(second.continue, false);
  assert.equal(ended(second).record, undefined);
});

test("decide: §4.15 decided after pause, wait and the question; the question becomes the wait", () => {
  assert.equal(run(earlierInput({ memory: memory({ paused: true, hadWork: true }) })).memory.last.kind, "paused");
  const waiting = { reason: "need a key", asked: false };
  assert.equal(run(earlierInput({ memory: memory({ waiting, hadWork: true }) })).memory.last.kind, "waiting");
  const asked = run(earlierInput({ turn: settleTurn({ question: "Which one?" }) }));
  assert.deepEqual(asked.memory.waiting, { reason: "Which one?", asked: true });
  assert.equal(ended(asked).record?.kind, "question");
});

test("decide: §4.15 decided before out of date, out of reach and the limits: a list that is not this message's is not reported stale or out of reach", () => {
  const outOfDate: ListState = { kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" };
  assert.equal(run(earlierInput({ list: outOfDate })).memory.last.kind, "earlier");
  assert.equal(run(earlierInput({ tools: { active: ["read"], registered: [] } })).memory.last.kind, "earlier");
  assert.equal(run(earlierInput({ limits: limits({ maxRounds: 1 }), memory: seen({ round: 1 }) })).memory.last.kind, "earlier");
  assert.equal(run(earlierInput({ limits: limits({ maxIdleReplies: 1 }) })).memory.last.kind, "earlier");
});

test("decide: §4.15 a queued message or another extension's continuation still goes first: the run goes on, no earlier stop", () => {
  const queued = run(earlierInput({ pendingMessages: true }));
  assert.equal(queued.memory.last.kind, "queued");
  assert.equal(queued.memory.pending, undefined);
  assert.equal(run(earlierInput({ otherContinued: true })).memory.last.kind, "other-extension");
});

test("decide: §4.15 with no open task or no list there is nothing to hold: the usual stops apply", () => {
  assert.equal(run(earlierInput({ list: CLEAR })).memory.last.kind, "clear");
  assert.equal(run(earlierInput({ list: EMPTIED })).memory.last.kind, "no-list");
});

test("decide: §4.15 a human message queued at a turn carries the list over to the message that follows it (steering, follow-up)", () => {
  const queued = run(input({ pendingMessages: true, memory: seen() }));
  assert.equal(queued.memory.queued, true, "the turn saw a queued message");
  const next = branch({ anchor: "u2", hadWork: true, earlier: { ...EARLIER, before: ANCHOR } });
  assert.equal(run(input({ memory: queued.memory, branch: next })).continue, true, "the queued message carries the list over");
  assert.equal(run(input({ memory: seen(), branch: next })).continue, false, "a message typed after the run ended does not");
  const skipped = branch({ anchor: "u3", hadWork: true, earlier: { ...EARLIER, before: "u2" } });
  assert.equal(run(input({ memory: queued.memory, branch: skipped })).continue, false, "only the message right after the one the process saw queued");
  assert.equal(run(input({ memory: queued.memory, branch: next, branchSwitched: true })).continue, false, "after a branch switch only the branch tells");
});

test("decide: §4.15 the person's reply to a wait this process held carries the list over", () => {
  const waiting = memory({ waiting: { reason: "Which one?", asked: true }, hadWork: true });
  const next = branch({ anchor: "u2", hadWork: true, earlier: { ...EARLIER, before: ANCHOR } });
  assert.equal(run(input({ memory: waiting, branch: next })).continue, true);
});

test("applyCommand: §4.15 continue and resume adopt the list for the rest of the message; reset keeps that", () => {
  const facts: CommandFacts = { list: LIST, limits: NO_LIMITS, idle: true, killSwitch: false };
  const held = run(earlierInput()).memory;
  const continued = applyCommand(held, "continue", facts);
  assert.equal(continued.memory.adopted, true);
  assert.ok(continued.marker, "continue starts a run now");
  const after = run(earlierInput({ memory: continued.memory }));
  assert.equal(after.continue, true, "the settles after it continue");
  const resumed = applyCommand(held, "resume", facts);
  assert.equal(resumed.memory.adopted, true);
  assert.equal(run(earlierInput({ memory: resumed.memory })).continue, true, "resume: the loop goes on when the agent next stops");
  assert.equal(applyCommand(resumed.memory, "reset", facts).memory.adopted, true, "reset clears counters, not the consent");
  assert.equal(applyCommand(held, "pause", facts).memory.adopted, false, "pause is no consent");
});

test("listKey: a short stable key per list state; another signature is another key", () => {
  assert.equal(listKey(LIST), listKey({ ...LIST }));
  assert.match(listKey(LIST), /^[0-9a-f]{8}$/);
  assert.notEqual(listKey(LIST), listKey({ ...LIST, signature: "sig-b" }));
  assert.notEqual(listKey({ kind: "out-of-date", why: "codemode", open: 2, source: "rpiv-todo" }), listKey({ kind: "out-of-date", why: "unreadable", open: 2, source: "rpiv-todo" }));
});

// ---- §4.10 busy but stuck: replies without progress, the same reply again ---------------------------

const STILL: ReplyFacts = { progress: false, fingerprint: "fp-still" };
/** A settle whose reply did nothing new (re-read the list, say), each time with other words. */
const stillTurn = (words: string) => settleTurn({ reply: { progress: false, fingerprint: `fp-${words}` } });
const STUCK_ONLY = limits({ maxStuckReplies: 5 });
const REPEAT_ONLY = limits({ maxRepeats: 3 });

/** Runs settles one after another from a memory that has seen LIST; returns every decision. */
function replies(turns: readonly TurnFacts[], given: Partial<DecideInput> = {}, start: Memory = seen()): Decision[] {
  const out: Decision[] = [];
  let state = start;
  for (const turn of turns) {
    const decision = run(input({ memory: state, turn, ...given }));
    out.push(decision);
    state = decision.memory;
  }
  return out;
}

test("decide: §4.10 maxStuckReplies (default 5): four replies without progress continue, the fourth's continuation carries the hint, the fifth stops (kind stuck)", () => {
  assert.equal(DEFAULT_CONFIG.maxStuckReplies, 5);
  const decisions = replies(["a", "b", "c", "d", "e"].map(stillTurn), { limits: STUCK_ONLY });
  assert.deepEqual(decisions.map((decision) => decision.continue), [true, true, true, true, false]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.stuck), [1, 2, 3, 4, undefined]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.hint), [false, true, false, true, undefined], "0.2's idle hint on the second; the brake's hint one reply before the stop");
  const last = decisions[4] as Decision;
  assert.deepEqual(last.memory.last, { kind: "stuck", replies: 5, open: 2 });
  const end = ended(last);
  assert.equal(end.record?.kind, "stuck");
  assert.equal(end.record?.reason, "stopped: 5 replies in a row without progress (no edits, commands, new reads or todo changes), 2 tasks still open; it may need you");
  assert.deepEqual(end.notice, { kind: "stop", reason: { kind: "stuck", replies: 5, open: 2 }, level: "warning" });
});

test("decide: §4.10 a reply that made progress (an edit, a command, a new read) starts the no-progress count again", () => {
  const decisions = replies([stillTurn("a"), stillTurn("b"), stillTurn("c"), settleTurn({ reply: { progress: true, fingerprint: "fp-edit" } }), stillTurn("d")], { limits: STUCK_ONLY });
  assert.deepEqual(decisions.map((decision) => decision.memory.stuck), [1, 2, 3, 0, 1]);
  assert.ok(decisions.every((decision) => decision.continue));
});

test("decide: §4.10 a reply whose list signature changed made progress even when its calls did not (plan-mode's [DONE:n], a custom-entry list)", () => {
  const start = seen({ stuck: 4 });
  const changed = run(input({ memory: start, turn: stillTurn("x"), limits: STUCK_ONLY, list: { ...LIST, signature: "sig-b" } }));
  assert.equal(changed.continue, true);
  assert.equal(changed.memory.stuck, 0);
  const same = run(input({ memory: start, turn: stillTurn("x"), limits: STUCK_ONLY }));
  assert.equal(same.continue, false);
});

test("decide: §4.10 tool turns do not end a run of replies without progress (a read is a tool turn, yet no progress)", () => {
  let state = seen({ stuck: 3 });
  state = run(input({ memory: state, turn: toolTurn(), limits: STUCK_ONLY })).memory;
  assert.equal(state.stuck, 3, "a tool turn leaves the count alone: the reply's facts decide at its settle");
  const next = run(input({ memory: state, turn: stillTurn("y"), limits: STUCK_ONLY }));
  assert.equal(next.memory.stuck, 4);
  assert.equal(next.marker?.hint, true);
});

test("decide: §4.10 maxRepeats (default 3): the same reply twice continues with the hint, a third time stops (kind repeat)", () => {
  assert.equal(DEFAULT_CONFIG.maxRepeats, 3);
  const same = settleTurn({ reply: { progress: true, fingerprint: "fp-same" } });
  const decisions = replies([same, same, same], { limits: REPEAT_ONLY });
  assert.deepEqual(decisions.map((decision) => decision.continue), [true, true, false]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.repeats), [1, 2, undefined]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.hint), [false, true, undefined]);
  assert.deepEqual(decisions.map((decision) => decision.marker?.fp), ["fp-same", "fp-same", undefined]);
  const end = ended(decisions[2] as Decision);
  assert.equal(end.record?.kind, "repeat");
  assert.equal(end.record?.reason, "stopped: the agent gave the same reply 3 times in a row, 2 tasks still open; it may need you");
});

test("decide: §4.10 a different fingerprint starts the repeat count at 1 (the same command after an edit is no repeat)", () => {
  const a = settleTurn({ reply: { progress: true, fingerprint: "fp-a" } });
  const b = settleTurn({ reply: { progress: true, fingerprint: "fp-b" } });
  const decisions = replies([a, a, b, a, a], { limits: REPEAT_ONLY });
  assert.deepEqual(decisions.map((decision) => decision.memory.repeats), [1, 2, 1, 1, 2]);
  assert.ok(decisions.every((decision) => decision.continue));
});

test("decide: §4.10 with maxStuckReplies and maxRepeats off (null) replies without progress and identical replies keep being nudged", () => {
  const decisions = replies(Array.from({ length: 12 }, () => settleTurn({ reply: STILL })));
  assert.ok(decisions.every((decision) => decision.continue));
  assert.equal(decisions.at(-1)?.memory.stuck, 12);
  assert.equal(decisions.at(-1)?.memory.repeats, 12);
  assert.ok(decisions.every((decision) => decision.marker?.hint === (decision.marker?.idle === 2)), "no brake hint with the brakes off");
});

test("decide: §4.10 a reply the branch says nothing about is not counted by these brakes (they never guess)", () => {
  const decision = run(input({ memory: seen({ stuck: 4, fp: "fp-x", repeats: 2 }), turn: settleTurn({ reply: undefined }), limits: limits({ maxStuckReplies: 5, maxRepeats: 3 }) }));
  assert.equal(decision.continue, true);
  assert.deepEqual({ stuck: decision.memory.stuck, fp: decision.memory.fp, repeats: decision.memory.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
  assert.equal(decision.marker?.fp, null);
});

test("decide: §4.10 a brake of 1 stops at the first such reply and gives no hint before it", () => {
  const stuck = run(input({ memory: seen(), turn: stillTurn("a"), limits: limits({ maxStuckReplies: 1 }) }));
  assert.equal(stuck.memory.last.kind, "stuck");
  const progress = run(input({ memory: seen(), turn: settleTurn({ reply: { progress: true, fingerprint: "fp-a" } }), limits: limits({ maxStuckReplies: 1, maxRepeats: 2 }) }));
  assert.equal(progress.continue, true);
  assert.equal(progress.marker?.hint, true, "maxRepeats 2: the first reply is the (2 − 1)th identical one");
  const none = run(input({ memory: seen(), turn: settleTurn({ reply: { progress: true, fingerprint: "fp-a" } }), limits: limits({ maxStuckReplies: 1, maxRepeats: 1 }) }));
  assert.equal(none.memory.last.kind, "repeat");
});

test("decide: §4.10 a brake of 1 gives no hint on the replies it lets through (no count is at 0 of 1 before a stop)", () => {
  const progress = run(input({ memory: seen(), turn: settleTurn({ reply: { progress: true, fingerprint: "fp-a" } }), limits: limits({ maxStuckReplies: 1 }) }));
  assert.equal(progress.continue, true);
  assert.equal(progress.memory.stuck, 0);
  assert.equal(progress.marker?.hint, false);
  const unknown = run(input({ memory: seen(), turn: settleTurn({ reply: undefined }), limits: limits({ maxRepeats: 1 }) }));
  assert.equal(unknown.continue, true);
  assert.equal(unknown.memory.repeats, 0);
  assert.equal(unknown.marker?.hint, false);
});

test("decide: §4.10 which brake speaks: maxRounds, maxTokens, maxCost, maxMinutes, maxIdleReplies, maxRepeats, maxStuckReplies, in that order", () => {
  const all = limits({ maxRounds: 1, maxTokens: 1, maxCost: 0.01, maxMinutes: 1, maxIdleReplies: 1, maxRepeats: 1, maxStuckReplies: 1 });
  const spend = { tokens: 5, cost: 1, minutes: 5 };
  const named = (mem: Memory, given: DecideInput["spend"]) => {
    const reached = limitReached(mem, all, given, 1);
    return reached?.kind === "limit" ? reached.limit : reached?.kind;
  };
  const every = seen({ round: 1, settleRun: 1, repeats: 1, stuck: 1 });
  assert.equal(named(every, spend), "maxRounds");
  assert.equal(named({ ...every, round: 0 }, spend), "maxTokens");
  assert.equal(named({ ...every, round: 0 }, { ...spend, tokens: 0 }), "maxCost");
  assert.equal(named({ ...every, round: 0 }, { tokens: 0, cost: 0, minutes: 5 }), "maxMinutes");
  assert.equal(named({ ...every, round: 0 }, NO_SPEND), "idle");
  assert.equal(named({ ...every, round: 0, settleRun: 0 }, NO_SPEND), "repeat");
  assert.equal(named({ ...every, round: 0, settleRun: 0, repeats: 0 }, NO_SPEND), "stuck");
  assert.equal(named({ ...every, round: 0, settleRun: 0, repeats: 0, stuck: 0 }, NO_SPEND), undefined);
});

test("decide: §4.10 at one settle the idle stop keeps 0.2's wording over repeat and stuck; a question or a wait comes before all of them", () => {
  const brakes = limits({ maxIdleReplies: 3, maxRepeats: 3, maxStuckReplies: 3 });
  const near = seen({ settleRun: 2, stuck: 2, fp: "fp-same", repeats: 2 });
  const same = settleTurn({ reply: { progress: false, fingerprint: "fp-same" } });
  const idle = run(input({ memory: near, turn: same, limits: brakes }));
  assert.equal(idle.memory.last.kind, "idle");
  assert.equal(ended(idle).record?.reason, "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you");
  const repeat = run(input({ memory: { ...near, settleRun: 0 }, turn: same, limits: brakes }));
  assert.equal(repeat.memory.last.kind, "repeat");
  const asked = run(input({ memory: near, turn: { ...same, question: "Which one?" }, limits: brakes }));
  assert.equal(asked.memory.last.kind, "waiting");
  assert.equal(ended(asked).record?.kind, "question");
  const waiting = run(input({ memory: { ...near, waiting: { reason: "need the key", asked: false } }, turn: same, limits: brakes }));
  assert.equal(ended(waiting).record?.kind, "waiting");
});

test("decide: §4.13 a stuck or repeat stop is announced once per kind, even when its count grows", () => {
  for (const [kind, turn, given] of [
    ["stuck", stillTurn("z"), limits({ maxStuckReplies: 2 })],
    ["repeat", settleTurn({ reply: STILL }), limits({ maxRepeats: 2 })],
  ] as const) {
    const first = ended(run(input({ memory: seen({ stuck: 1, fp: STILL.fingerprint, repeats: 1 }), turn, limits: given })));
    assert.equal(first.record?.kind, kind);
    const second = ended(run(input({ memory: first.memory, turn, limits: given })));
    assert.equal(second.record, undefined, `${kind}: not recorded twice`);
    assert.equal(second.notice, undefined);
    assert.equal(stopKind({ kind, replies: 3, open: 1 }), kind);
  }
});

test("decide: §4.10 the counts are per human message: a new anchor starts them again", () => {
  const decision = run(input({ memory: seen({ stuck: 4, fp: STILL.fingerprint, repeats: 2 }), branch: branch({ anchor: "u2", hadWork: true }), turn: settleTurn({ reply: STILL }), limits: limits({ maxStuckReplies: 5, maxRepeats: 3 }) }));
  assert.equal(decision.continue, true);
  assert.equal(decision.memory.stuck, 0, "the first sighting of the list under the new message is progress");
  assert.equal(decision.memory.repeats, 1, "the old message's fingerprint does not count");
});

test("decide: §4.14 the counts come back from the branch (the newest marker's stuck, fp, repeats) after a reload", () => {
  const decision = run(input({ memory: undefined, branch: branch({ signature: "sig-a", hadWork: true, stuck: 4, fp: STILL.fingerprint, repeats: 2 }), turn: settleTurn({ reply: STILL }), limits: limits({ maxStuckReplies: 5 }) }));
  assert.equal(decision.memory.last.kind, "stuck");
  const repeat = run(input({ memory: undefined, branch: branch({ signature: "sig-a", hadWork: true, stuck: 0, fp: STILL.fingerprint, repeats: 2 }), turn: settleTurn({ reply: STILL }), limits: limits({ maxRepeats: 3 }) }));
  assert.equal(repeat.memory.last.kind, "repeat");
});

test("applyCommand: reset clears the no-progress and repeat counts; continue's marker carries stuck, fp and repeats", () => {
  const stuck = seen({ stuck: 5, fp: "fp-x", repeats: 3, round: 4 });
  const reset = applyCommand(stuck, "reset", facts());
  assert.deepEqual({ stuck: reset.memory.stuck, fp: reset.memory.fp, repeats: reset.memory.repeats }, { stuck: 0, fp: undefined, repeats: 0 });
  const continued = applyCommand(stuck, "continue", facts());
  assert.equal(continued.marker?.round, 5);
  assert.deepEqual({ stuck: continued.marker?.stuck, fp: continued.marker?.fp, repeats: continued.marker?.repeats }, { stuck: 5, fp: "fp-x", repeats: 3 }, "counters kept");
  assert.equal(continued.marker?.hint, false);
});

test("countReply: progress or a changed list resets the count; the same fingerprint adds one; a first reply is 1", () => {
  const reply = (progress: boolean, fingerprint: string): ReplyFacts => ({ progress, fingerprint });
  assert.deepEqual(countReply(seen(), reply(false, "a"), false), { stuck: 1, fp: "a", repeats: 1 });
  assert.deepEqual(countReply(seen({ stuck: 2, fp: "a", repeats: 1 }), reply(false, "a"), false), { stuck: 3, fp: "a", repeats: 2 });
  assert.deepEqual(countReply(seen({ stuck: 2, fp: "a", repeats: 1 }), reply(true, "a"), false), { stuck: 0, fp: "a", repeats: 2 });
  assert.deepEqual(countReply(seen({ stuck: 2, fp: "a", repeats: 4 }), reply(false, "b"), true), { stuck: 0, fp: "b", repeats: 1 });
  assert.deepEqual(countReply(seen({ stuck: 2, fp: "a", repeats: 4 }), undefined, false), { stuck: 0, fp: undefined, repeats: 0 });
});
