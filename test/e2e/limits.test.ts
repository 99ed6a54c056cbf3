// Proves on the real host that no settle is wasted and the token, dollar and round limits stop the run, surviving restarts.
/**
 * No waste and limits, on the real pi host: a settle that a queued human message follows anyway gets no
 * marker and no round; a turn another extension already continued is never continued twice; token,
 * dollar and round limits stop the run with a reason that names them; the counters for a human message
 * survive a new process, a `/reload` and follow the branch after `/tree`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import {
  baseArgs,
  checkInvariants,
  extensionArgs,
  isNudge,
  lastMessage,
  loopNotifies,
  markerDetails,
  markerRounds,
  markers,
  requests,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  sessionFile,
  startRpc,
  stopData,
  stopReasons,
  stops,
  textOf,
  untilRequests,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { EntryRecord, Notify, ScriptStep } from "./harness.ts";
import { FIXED_USAGE, OTHER_CONTINUATION, SESSION_CONTROL } from "./stand-ins/paths.ts";
import { OTHER_TYPE } from "./stand-ins/other-continuation.ts";


/** The sandbox environment that makes the stand-in report this usage for every reply. */
function usage(totalTokens: number, cost: number): Record<string, string> {
  return { PI_TODO_LOOP_E2E_USAGE: JSON.stringify({ totalTokens, cost }) };
}

test("a human follow-up queued while the settle is produced: that settle gets neither a marker nor a round, and no extra request", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const followUp = "Also note the weather in the summary";
  const script: ScriptStep[] = [
    plan,
    say("Plan made; stopping here."),
    say("Still stopping.", { delayMs: 1500 }),
    finish,
    say("All done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.send("Do the work");
    await untilRequests(box, 3);
    assert.equal(await rpc.followUp(followUp), "queued");
    await rpc.waitSettled();
    checkInvariants(box, { script, taskTexts: TASKS });

    const logged = requests(box);
    t.diagnostic(`model requests observed: ${logged.length} for ${script.length} scripted steps`);
    assert.equal(logged.length, 5, "one request per step: the queued settle caused no request of its own");
    const followUpRequest = logged[3]?.messages ?? [];
    assert.equal(textOf(lastMessage(logged[3]).content), followUp, "the follow-up request ends with the human's message");
    assert.equal(followUpRequest.filter(isNudge).length, 1, "the only nudge in that request is the first settle's, earlier in history");
    assert.equal(followUpRequest[followUpRequest.length - 2]?.role, "assistant", "no marker sits between the settle and the follow-up");

    const entries = await rpc.getEntries();
    const [first, second] = userMessageIds(entries);
    assert.deepEqual(markerRounds(entries), [1], "only the first settle got a marker; the queued settle spent no round");
    assert.equal(markerDetails(entries)[0]?.anchor, first);
    const followUpIndex = entries.findIndex((entry) => entry.id === second);
    const before = entries[followUpIndex - 1];
    assert.equal(before?.type, "message", "the human follow-up directly follows the assistant's settle");
    assert.equal(before?.message?.role, "assistant");
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "clear", reason: "stopped: list is clear", round: 0, open: 0, anchor: second }]);
  });
});

test("another extension already continued the turn: each settle yields exactly one continuation request, no todo-loop marker, and /todoloop says so", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [
    plan,
    say("Stopping once."),
    say("Stopping twice.", { delayMs: 1500 }),
    finish,
    say("All done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.send("Do the work");
    await untilRequests(box, 3);
    const status = await rpc.command("status");
    await rpc.waitSettled();
    checkInvariants(box, { script, taskTexts: TASKS });

    const entries = await rpc.getEntries();
    assert.deepEqual(markers(entries), [], "the loop adds no marker when another extension continues");
    const theirs = entries.filter((entry) => entry.type === "custom_message" && entry.customType === OTHER_TYPE);
    assert.equal(theirs.length, 2, "the other extension continued both settles");

    const logged = requests(box);
    const settles = [1, 2];
    const perSettle = settles.map((step) => {
      const settleText = textOf(script[step]?.text ?? "");
      return logged.filter((request) => {
        const tail = lastMessage(request);
        const beforeTail = request.messages[request.messages.length - 2];
        return tail.role === "user" && textOf(tail.content) === "Keep going with your work." && textOf(beforeTail?.content).includes(settleText);
      }).length;
    });
    t.diagnostic(`continuation requests per settle: ${perSettle.join(", ")}; model requests: ${logged.length}`);
    assert.deepEqual(perSettle, [1, 1]);
    assert.equal(logged.length, script.length);
    for (const request of logged) assert.ok(!request.messages.some(isNudge), `request ${request.step} carries no todo-loop nudge`);

    assert.equal(status.length, 1);
    assert.match(status[0]?.message ?? "", /^last: not continuing: another extension already continued this turn$/m);
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
  }, { extensions: extensionArgs([OTHER_CONTINUATION]) });
});

interface LimitCase {
  /** The settles scripted after the plan. */
  settles: string[];
  config: Record<string, unknown>;
  /** What the stand-in reports for every reply: tokens, dollars. */
  usage: [totalTokens: number, cost: number];
  /** The stop record's `limit`. */
  limit: string;
  /** The `/todoloop` arguments that give the report. */
  command: string;
  /** The marker rounds before the limit stops the run, and why that many. */
  rounds: number[];
  roundsWhy: string;
  reason: string;
  /** The report's spend line and config line. */
  spend: RegExp;
  configLine: RegExp;
}

/**
 * A limit stops the run: plan, then settles while every reply reports `usage`. Asserts the markers, the
 * one stop record (the limit's reason, anchored to the human message) and the report's spend and config
 * lines; returns the report and the notifies for what one limit asserts beyond that.
 */
function assertLimitStops(t: { signal: AbortSignal }, limit: LimitCase): Promise<{ report: string; notifies: Notify[] }> {
  const script: ScriptStep[] = [plan, ...limit.settles.map((text) => say(text))];
  return withRpc(t.signal, { script, config: limit.config, env: usage(...limit.usage) }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const status = await rpc.command(limit.command);
    checkInvariants(box, { script, taskTexts: TASKS });

    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.deepEqual(markerRounds(entries), limit.rounds, limit.roundsWhy);
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "limit", limit: limit.limit, reason: limit.reason, round: limit.rounds.length, open: 2, anchor }]);

    const report = status[0]?.message ?? "";
    assert.match(report, limit.spend);
    assert.match(report, limit.configLine);
    return { report, notifies: [...rpc.notifies] };
  }, { extensions: extensionArgs([FIXED_USAGE]) });
}

test("maxTokens: once the tokens since the human message reach the limit the run stops, the stop record names the limit, and /todoloop shows spend and limit", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const reason = "stopped: token limit reached (4,000 of 3,500 tokens since your message), 2 tasks still open, no todo change for 2 replies; the agent may need you";
  const { report, notifies } = await assertLimitStops(t, {
    settles: ["Stop one.", "Stop two.", "Stop three."],
    config: { maxTokens: 3500 },
    limit: "maxTokens",
    usage: [1000, 0.01],
    command: "",
    rounds: [1, 2],
    roundsWhy: "2,000 and 3,000 tokens are under 3,500: two continuations",
    reason,
    spend: /^spend since your message: 4,000 tokens \(limit 3,500\), \$0\.0400 \(no limit\), under a minute \(no limit\)$/m,
    configLine: /^config: .*todo-loop\.json \(maxTokens 3,500\)$/m,
  });
  assert.ok(notifies.some((notify) => notify.message === `todo loop ${reason}` && notify.notifyType === "warning"), "the stop is announced as a warning");
  assert.match(report, /^todo loop: stopped$/m);
});

test("maxCost: once the dollars since the human message reach the limit the run stops, the stop record names the limit, and /todoloop shows spend and limit", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const { report } = await assertLimitStops(t, {
    settles: ["Stop one.", "Stop two."],
    config: { maxCost: 0.025 },
    limit: "maxCost",
    usage: [10, 0.01],
    command: "status",
    rounds: [1],
    roundsWhy: "$0.02 is under $0.025: one continuation",
    reason: "stopped: cost limit reached ($0.0300 of $0.0250 since your message), 2 tasks still open, no todo change for 1 reply; the agent may need you",
    spend: /^spend since your message: 30 tokens \(no limit\), \$0\.0300 \(limit \$0\.0250\), under a minute \(no limit\)$/m,
    configLine: /^config: .*todo-loop\.json \(maxCost \$0\.0250\)$/m,
  });
  assert.match(report, /^last: stopped: cost limit reached/m);
});

test("maxTokens counts the usage pi records for the scripted model's own replies (pi-ai's faux provider reports tokens, never cost)", { timeout: SCENARIO_TIMEOUT_MS }, async () => {
  const script: ScriptStep[] = [plan, say("Stopping here.")];
  const box = sandbox({ script, config: { maxTokens: 1, maxCost: 0.000001 } });
  try {
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    checkInvariants(box, { script, taskTexts: TASKS });
    const entries = sessionEntries(box);
    const replies = entries.filter((entry) => entry.type === "message" && entry.message?.role === "assistant");
    const usage = replies.map((entry) => (entry.message as { usage?: { totalTokens: number; cost: { total: number } } }).usage);
    const tokens = usage.reduce((sum, item) => sum + (item?.totalTokens ?? 0), 0);
    assert.ok(tokens > 1, "faux reports estimated tokens");
    assert.ok(usage.every((item) => item?.cost.total === 0), "faux reports no cost, so maxCost never triggers here");
    assert.deepEqual(markers(entries), [], "the first settle is already over 1 token: no continuation");
    const [stop] = stopData(entries);
    assert.equal(stop?.reason, `stopped: token limit reached (${tokens.toLocaleString("en-US")} of 1 tokens since your message), 2 tasks still open`);
  } finally {
    box.cleanup();
  }
});

test("bad limit values (negative, a string) fall back to no limit key by key, with a visible problem line in /todoloop", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1, maxTokens: -5, maxCost: "ten dollars" }, env: usage(1000, 1) }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const status = await rpc.command("");
    checkInvariants(box, { script, taskTexts: TASKS });
    const entries = await rpc.getEntries();
    assert.deepEqual(markerRounds(entries), [1], "the bad token and cost limits did not stop the first settle");
    assert.deepEqual(stopReasons(entries), [
      "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you",
    ], "the valid maxRounds still applies");
    const text = status[0]?.message ?? "";
    assert.match(text, /^spend since your message: 3,000 tokens \(no limit\), \$3\.00 \(no limit\), under a minute \(no limit\)$/m);
    assert.match(text, /^config problem: maxTokens is negative \(-5\); using no limit$/m);
    assert.match(text, /^config problem: maxCost must be a positive number or null \(got the string "ten dollars"\); using no limit$/m);
    assert.match(text, /^continuations for this message: 1 of 1$/m);
  }, { extensions: extensionArgs([FIXED_USAGE]) });
});

test("counters survive a new process: a second pi on the same session file under the same human message does not re-arm maxRounds", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const first: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), { stopReason: "error", errorMessage: "provider fell over" }];
  const second: ScriptStep[] = [say("Stop three."), say("Stop four.")];
  // maxIdleReplies off: the error turn keeps the idle count of 2, so the default 3 would stop the next settle first.
  const box = sandbox({ script: first, config: { maxRounds: 3, maxIdleReplies: 0 }, settings: { retry: { enabled: false } } });
  try {
    const run = await runPi(box, [...extensionArgs([SESSION_CONTROL]), ...baseArgs(box), "-p", "Do the work"]);
    assert.equal(run.code, 1, "the provider error ends the first process");
    const afterFirst = sessionEntries(box);
    const [anchor] = userMessageIds(afterFirst);
    assert.deepEqual(markerRounds(afterFirst), [1, 2]);
    assert.deepEqual(stopData(afterFirst), [{ v: 1, kind: "outcome", reason: "stopped: turn outcome was error", round: 2, open: 2, anchor }]);

    writeFileSync(box.scriptPath, JSON.stringify(second));
    const rpc = await startRpc(box, { signal: t.signal, extensions: extensionArgs([SESSION_CONTROL]), args: ["--session", sessionFile(box)] });
    try {
      const resumed = await rpc.command("");
      assert.match(resumed[0]?.message ?? "", /^continuations for this message: 2 of 3$/m, "the new process rebuilt the rounds from the markers");
      assert.equal(await rpc.prompt("/e2e-hidden-turn"), "handled");
      await rpc.waitSettled();
      const entries = await rpc.getEntries();
      assert.deepEqual(userMessageIds(entries), [anchor], "no new human message");
      assert.deepEqual(markerRounds(entries), [1, 2, 3], "one more continuation, then the limit");
      assert.deepEqual(stopData(entries).map((stop) => [stop.reason, stop.round, stop.anchor]), [
        ["stopped: turn outcome was error", 2, anchor],
        // Replies since the list changed are rebuilt from the markers too: Stop two..Stop four.
        ["stopped: 3 continuations used, 2 tasks still open, no todo change for 3 replies; the agent may need you", 3, anchor],
      ]);
    } finally {
      await rpc.stop();
    }
    checkInvariants(box, { script: [...first, ...second], taskTexts: TASKS });
  } finally {
    box.cleanup();
  }
});

test("counters survive /reload: the reloaded extension rebuilds the rounds from the markers and does not re-arm maxRounds", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const first: ScriptStep[] = [plan, say("Stop one."), say("Stop two.")];
  const second: ScriptStep[] = [say("Stop three.")];
  await withRpc(t.signal, { script: first, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const before = await rpc.getEntries();
    assert.deepEqual(markerRounds(before), [1]);
    const reason = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
    assert.deepEqual(stopReasons(before), [reason]);

    // The scripted model reads its script again when pi reloads the extensions.
    writeFileSync(box.scriptPath, JSON.stringify(second));
    assert.equal(await rpc.prompt("/e2e-reload-runtime"), "handled");
    const reloaded = await rpc.command("");
    assert.match(reloaded[0]?.message ?? "", /^continuations for this message: 1 of 1$/m);
    assert.equal(await rpc.prompt("/e2e-hidden-turn"), "handled");
    await rpc.waitSettled();

    const entries = await rpc.getEntries();
    assert.deepEqual(markerRounds(entries), [1], "no continuation after the reload: the limit was already reached");
    checkInvariants(box, { script: [...first, ...second], taskTexts: TASKS });
    // The same stop under the same message after the reload: read back from its record, not announced or recorded again.
    assert.deepEqual(stopReasons(entries), [reason]);
    assert.deepEqual(loopNotifies(rpc.notifies).filter((notify) => notify.notifyType === "warning").map((notify) => notify.message), [`todo loop ${reason}`]);
  }, { extensions: extensionArgs([SESSION_CONTROL]) });
});

test("counters follow the branch: after /tree to an earlier point the rounds are those of that branch's markers", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), say("Stop three."), say("Stop four."), say("Stop five.")];
  await withRpc(t.signal, { script, config: { maxRounds: 2 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const first = await rpc.getEntries();
    const [anchor] = userMessageIds(first);
    assert.deepEqual(markerRounds(first), [1, 2]);
    // The reply that followed the first marker: the branch up to it holds one marker.
    const firstMarker = markers(first)[0];
    const target = first.find((entry) => entry.parentId === firstMarker?.id);
    assert.equal(target?.message?.role, "assistant");

    const moved = rpc.notifies.length;
    assert.equal(await rpc.prompt(`/e2e-tree ${target?.id ?? ""}`), "handled");
    assert.deepEqual(rpc.notifies.slice(moved).map((notify) => notify.message), [`e2e-tree: ${target?.id ?? ""}`]);
    const status = await rpc.command("");
    assert.match(status[0]?.message ?? "", /^continuations for this message: 1 of 2$/m, "the abandoned branch's second round no longer counts");

    assert.equal(await rpc.prompt("/e2e-hidden-turn"), "handled");
    await rpc.waitSettled();
    checkInvariants(box, { script, taskTexts: TASKS });
    const entries = await rpc.getEntries();
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const branchMarkers: EntryRecord[] = [];
    let cursor = entries.find((entry) => entry.id === (stops(entries).at(-1)?.id ?? ""));
    while (cursor) {
      if (markers([cursor]).length === 1) branchMarkers.unshift(cursor);
      cursor = cursor.parentId ? byId.get(cursor.parentId) : undefined;
    }
    assert.deepEqual(markerRounds(branchMarkers), [1, 2], "the new branch spent its own second round");
    assert.deepEqual(markerRounds(entries), [1, 2, 2], "the session holds both branches");
    assert.deepEqual(stopData(entries).map((stop) => [stop.round, stop.anchor]), [[2, anchor], [2, anchor]]);
  }, { extensions: extensionArgs([SESSION_CONTROL]) });
});
