// Proves on the real host that a run ending on a usage limit waits and continues once at its time (RPC), and what cancels or replaces the wait.
/**
 * SPEC §4.20 on the real pi: the scripted model fails with a provider's real limit text. Over RPC the
 * run becomes a `limit-wait` record with `resumeAt`, and at that time one continuation runs (short
 * waits through a fractional `maxLimitWaitMinutes`); a human message or `pause` before the time cancels
 * it; `maxLimitWaitMinutes: 0` and a quota text give an ordinary error stop; `-p` writes the stderr line
 * and exits at once, with no timer; `--mode json` applies `exitCode`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  baseArgs,
  checkInvariants,
  extensionArgs,
  footers,
  isNudge,
  lastMessage,
  loopNotifies,
  markerDetails,
  markers,
  requests,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  stops,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { EntryRecord, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
/** pi's automatic retry off: a retried 429 would take the next scripted step (the retry itself is pi's). */
const NO_RETRY = { retry: { enabled: false } };
/** Anthropic's 429 as pi 1.6.0 shows it: no reset time, so the backoff applies (cut to the cap). */
const ANTHROPIC_429 = '429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"},"request_id":"req_011CXa"}';
const LIMIT: ScriptStep = { stopReason: "error", errorMessage: ANTHROPIC_429 };
/** A wait of 3 seconds: the first backoff step (5 minutes) cut to what the cap leaves. */
const CAP = 0.05;
const WAIT_MS = CAP * 60_000;

const clock = (ms: number): string => {
  const date = new Date(ms);
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
};

interface WaitData {
  v: number;
  kind: string;
  reason: string;
  round: number;
  open: number;
  anchor: string;
  resumeAt?: string;
  waitMinutes?: number;
}

function waitRecords(entries: readonly EntryRecord[]): Array<{ entry: EntryRecord; data: WaitData }> {
  return stops(entries).map((entry) => ({ entry, data: entry.data as WaitData })).filter((item) => item.data.kind === "limit-wait");
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("RPC: a 429 with tasks open is a limit-wait with resumeAt, announced once with the footer's time; at that time exactly one continuation runs the list to the end", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stopping here."), LIMIT, finish, say("Done.")];
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const settledAt = Date.now();
    const waiting = await rpc.getEntries();
    const [anchor] = userMessageIds(waiting);
    const [record] = waitRecords(waiting);
    assert.ok(record, "a limit-wait record");
    const resumeAt = Date.parse(record.data.resumeAt ?? "");
    const recordedAt = Date.parse(record.entry.timestamp ?? "");
    assert.ok(Math.abs(resumeAt - recordedAt - WAIT_MS) < 1000, `resumeAt ${record.data.resumeAt} is the wait after the record (${record.entry.timestamp})`);
    const reason = `waiting for the usage limit: continuing at ${clock(resumeAt)} (in under a minute) · /todoloop pause to cancel`;
    const { report: _report, ...data } = record.data as WaitData & { report?: unknown };
    assert.deepEqual(data, { v: 1, kind: "limit-wait", reason, round: 1, open: 2, anchor, resumeAt: record.data.resumeAt, waitMinutes: CAP });
    assert.equal(requests(box).length, 3, "no request while waiting");
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${reason}`, notifyType: "warning" }]);
    assert.ok(footers(rpc.statuses).includes(`todo loop: resumes at ${clock(resumeAt)} · todo 2 of 2 open`), JSON.stringify(footers(rpc.statuses)));

    await rpc.waitSettled();
    const wokeAfter = Date.now() - settledAt;
    const entries = await rpc.getEntries();
    const [, wake] = markers(entries);
    assert.ok(wake, "the wake's marker");
    const wokeAt = Date.parse(wake.timestamp ?? "");
    assert.ok(wokeAt >= resumeAt, `the continuation (${wake.timestamp}) comes at resumeAt (${record.data.resumeAt}), not before`);
    assert.ok(wokeAt - resumeAt < 1500, `and right then: ${wokeAt - resumeAt} ms late`);
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, anchor], [2, anchor]], "the wake is one continuation, a round");
    assert.ok(isNudge(lastMessage(requests(box)[3])), "the request after the wait ends with the nudge");
    assert.equal(userMessageIds(entries).length, 1, "no human message");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit-wait", "clear"]);
    assert.deepEqual(loopNotifies(rpc.notifies).map((notify) => notify.message), [`todo loop ${reason}`, "todo loop stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: TASKS });
    t.diagnostic(`requests ${requests(box).length}, markers ${markers(entries).length}, records ${stopData(entries).map((stop) => stop.kind).join("+")}, wait ${WAIT_MS} ms, woke ${wokeAt - resumeAt} ms after resumeAt (${wokeAfter} ms after the settle)`);
  });
});

test("RPC: a human message before the time cancels the wait: no marker at that time, the record stays", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, LIMIT, say("All right, I will leave it.")];
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.equal(waitRecords(await rpc.getEntries()).length, 1);
    await rpc.prompt("Leave it for now");
    await sleep(WAIT_MS + 2000);
    const entries = await rpc.getEntries();
    assert.equal(requests(box).length, 3, "nothing ran at the wait's time");
    assert.deepEqual(markers(entries), []);
    assert.equal(waitRecords(entries).length, 1, "the record stays");
    assert.equal(rpc.events.filter((event) => event.type === "agent_settled").length, 2);
    checkInvariants(box, { script, taskTexts: TASKS });
    t.diagnostic(`requests ${requests(box).length}, markers 0, records ${stopData(entries).map((stop) => stop.kind).join("+")}, waited ${WAIT_MS + 2000} ms`);
  });
});

test("RPC: /todoloop pause before the time cancels the wait; /todoloop continue then runs once", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, LIMIT, finish, say("Done.")];
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.equal(waitRecords(await rpc.getEntries()).length, 1);
    await rpc.command("pause");
    await sleep(WAIT_MS + 2000);
    assert.equal(requests(box).length, 2, "nothing ran at the wait's time");
    assert.deepEqual(markers(await rpc.getEntries()), []);
    assert.ok(footers(rpc.statuses).at(-1)?.startsWith("todo loop paused"), String(footers(rpc.statuses).at(-1)));
    await rpc.command("continue");
    await rpc.waitSettled();
    const entries = await rpc.getEntries();
    assert.equal(requests(box).length, 4);
    assert.equal(markers(entries).length, 1, "the one run the person asked for");
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit-wait", "clear"]);
    checkInvariants(box, { script, taskTexts: TASKS });
    t.diagnostic(`requests ${requests(box).length}, markers ${markers(entries).length} (continue), records ${stopData(entries).map((stop) => stop.kind).join("+")}`);
  });
});

test("RPC: maxLimitWaitMinutes 0 makes a limit an ordinary error stop; so does a quota text with the rule on", { timeout }, async (t) => {
  const error = "stopped: turn outcome was error";
  const quota = "429 You exceeded your current quota, please check your plan and billing details. (insufficient_quota)";
  for (const [name, config, step] of [
    ["maxLimitWaitMinutes 0", { maxLimitWaitMinutes: 0 }, LIMIT],
    ["a quota text", { maxLimitWaitMinutes: CAP }, { stopReason: "error", errorMessage: quota }],
    ["Monthly usage limit reached", { maxLimitWaitMinutes: CAP }, { stopReason: "error", errorMessage: "Monthly usage limit reached" }],
  ] as const) {
    const script: ScriptStep[] = [plan, step];
    await withRpc(t.signal, { script, settings: NO_RETRY, config }, async (box, rpc) => {
      await rpc.prompt("Do the work");
      await sleep(WAIT_MS + 1000);
      const entries = await rpc.getEntries();
      const [anchor] = userMessageIds(entries);
      assert.deepEqual(stopData(entries), [{ v: 1, kind: "outcome", reason: error, round: 0, open: 2, anchor }], name);
      assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${error}`, notifyType: "warning" }], name);
      assert.equal(requests(box).length, 2, name);
      assert.deepEqual(markers(entries), [], name);
      checkInvariants(box, { script, taskTexts: TASKS });
      t.diagnostic(`${name}: requests ${requests(box).length}, markers 0, records outcome`);
    });
  }
});

test("RPC: when the waits reach maxLimitWaitMinutes the loop gives up: stopped: still rate limited after 0.05 minutes, no resumeAt, no timer", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, LIMIT, LIMIT];
  await withRpc(t.signal, { script, settings: NO_RETRY, config: { maxLimitWaitMinutes: CAP } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    await rpc.waitSettled();
    await sleep(WAIT_MS + 1000);
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    const records = waitRecords(entries).map((record) => record.data);
    assert.equal(records.length, 2);
    assert.equal(records[0]?.waitMinutes, CAP);
    const { report, ...gaveUp } = records[1] as WaitData & { report?: { byKind?: Record<string, number>; changed?: number } };
    assert.deepEqual(gaveUp, { v: 1, kind: "limit-wait", reason: "stopped: still rate limited after 0.05 minutes", round: 1, open: 2, anchor });
    assert.deepEqual([report?.byKind?.resume, report?.changed], [1, 0], "the wake is a resume that changed nothing (its reply hit the limit again)");
    assert.equal(requests(box).length, 3, "no third attempt");
    assert.equal(markers(entries).length, 1);
    assert.equal(loopNotifies(rpc.notifies).at(-1)?.message, "todo loop stopped: still rate limited after 0.05 minutes");
    assert.ok(footers(rpc.statuses).at(-1)?.startsWith("todo loop stopped: usage limit"), String(footers(rpc.statuses).at(-1)));
    checkInvariants(box, { script, taskTexts: TASKS });
    t.diagnostic(`requests ${requests(box).length}, markers ${markers(entries).length}, records ${records.map((record) => record.waitMinutes ?? "gave up").join(", ")}`);
  });
});

test("pi -p: the stderr line names the limit and pi -c, the record keeps resumeAt, no timer holds the process; --mode json applies exitCode", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, LIMIT];
  const box = sandbox({ script, settings: NO_RETRY });
  try {
    const started = Date.now();
    const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"]);
    const took = Date.now() - started;
    assert.equal(run.code, 1, "pi's own exit status for an errored last reply");
    const entries = sessionEntries(box);
    const [record] = waitRecords(entries);
    assert.ok(record?.data.resumeAt, "the record carries resumeAt");
    const resumeAt = Date.parse(record.data.resumeAt);
    assert.equal(record.data.waitMinutes, 5);
    const line = `todo loop: stopped: usage limit reached: it resets about ${clock(resumeAt)} (in 5 min); run pi -c then to continue, 2 of 2 tasks open`;
    assert.ok(run.stderr.split("\n").includes(line), run.stderr);
    assert.ok(took < 15_000, `pi exited in ${took} ms, not at the wait's end`);
    checkInvariants(box, { script, taskTexts: TASKS });
    t.diagnostic(`-p: exit ${run.code} after ${took} ms, records limit-wait (5 min), markers ${markers(entries).length}`);
  } finally {
    box.cleanup();
  }

  const jsonBox = sandbox({ script, settings: NO_RETRY, config: { exitCode: 7 } });
  try {
    const run = await runPi(jsonBox, [...extensionArgs(), ...baseArgs(jsonBox), "--mode", "json", "Do the work"]);
    assert.equal(run.code, 7, "exitCode applies: the first wait of a message needs the person");
    assert.equal(waitRecords(sessionEntries(jsonBox)).length, 1);
    assert.ok(run.stderr.includes("run pi -c then to continue"), run.stderr);
    t.diagnostic(`--mode json: exit ${run.code}`);
  } finally {
    jsonBox.cleanup();
  }
});

test("pi -p: a reset stated far away is said as it is — more than 7 days, or a time with its day past 24 hours — never a clamped time", { timeout }, async (t) => {
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  for (const minutes of [5_256_000, 2_880]) {
    const far: ScriptStep = { stopReason: "error", errorMessage: `You have hit your ChatGPT usage limit (plus plan). Try again in ~${minutes} min.` };
    const script: ScriptStep[] = [plan, far];
    const box = sandbox({ script, settings: NO_RETRY });
    try {
      const run = await runPi(box, [...extensionArgs(), ...baseArgs(box), "-p", "Do the work"]);
      const [record] = waitRecords(sessionEntries(box));
      const reason = record?.data.reason ?? "";
      const line = run.stderr.split("\n").find((text) => text.startsWith("todo loop: stopped:")) ?? "";
      t.diagnostic(`~${minutes} min: exit ${run.code}, record ${JSON.stringify(reason)}, resumeAt ${record?.data.resumeAt ?? "none"}, stderr ${JSON.stringify(line)}`);
      if (minutes > 7 * 24 * 60) {
        assert.equal(reason, "stopped: the usage limit resets in more than 7 days");
      } else {
        // The reset is the error's time plus the stated minutes (and the half minute the text rounds away).
        const day = days[new Date(Date.parse(record?.entry.timestamp ?? "") + minutes * 60_000 + 30_000).getDay()];
        assert.match(reason, new RegExp(`^stopped: the usage limit resets at ${day} \\d\\d:\\d\\d \\(in 4[78] h( \\d+ min)?\\), past the 300 minutes of maxLimitWaitMinutes$`));
      }
      assert.equal(record?.data.resumeAt, undefined, "no wait was started");
      assert.equal(line, `todo loop: ${reason}, 2 of 2 tasks open`);
      checkInvariants(box, { script, taskTexts: TASKS });
    } finally {
      box.cleanup();
    }
  }
});
