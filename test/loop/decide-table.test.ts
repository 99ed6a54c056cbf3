/**
 * decide() and settle() in one table, one row per rule of the turn_end decision (SPEC §4 items 3–14).
 * Rows give the facts of one turn and the parts of the decision that rule fixes; `stop` and the stop
 * notices are what `settle()` makes of the decision when pi settles right after that turn.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { DecideInput, Decision, Memory, Reason } from "../../src/core/types.ts";
import { ANCHOR, LIST, CLEAR, EMPTIED, memory, seen, branch, settleTurn, toolTurn, limits, input, run, ended, noticeName } from "./facts.ts";

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
