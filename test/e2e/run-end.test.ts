// Proves on the real host that a stop is announced and recorded only when the run really ends.
/**
 * A stop is announced and recorded only when the run really ends (`agent_settled`), and only for a
 * message that had work (SPEC 0.2 §4.13): a provider error pi retries is no stop; a retry that fails for
 * good is one, with the round it reached; chat after a finished list says and writes nothing; print and
 * JSON runs, where pi emits `agent_settled` too, still get their stop record.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  baseArgs,
  checkInvariants,
  extensionArgs,
  loopNotifies,
  markerDetails,
  markerRounds,
  requests,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  STOP_TYPE,
  stopData,
  userMessageIds,
  withRpc,
  withoutReport,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { EntryRecord, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
/** pi retries an error whose message matches its retryable patterns ("overloaded" among them). */
const OVERLOADED: ScriptStep = { stopReason: "error", errorMessage: "529 overloaded" };
/** One quick retry: pi's `retry` settings (enabled, maxRetries, baseDelayMs). */
const ONE_RETRY = { retry: { enabled: true, maxRetries: 1, baseDelayMs: 1 } };

test("a provider error pi retries (529 overloaded) is no stop: nothing announced or recorded for it, and the run finishes as one run", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stopping here."), OVERLOADED, say("Retried; stopping again."), finish, say("Done.")];
  await withRpc(t.signal, { script, settings: ONE_RETRY }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.deepEqual(rpc.events.filter((event) => event.type === "auto_retry_start").map((event) => event.errorMessage), ["529 overloaded"]);
    assert.deepEqual(rpc.events.filter((event) => event.type === "auto_retry_end").map((event) => event.success), [true]);
    assert.equal(rpc.events.filter((event) => event.type === "agent_settled").length, 1, "one run, the retry inside it");
    assert.equal(requests(box).length, 6);
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.anchor]), [[1, anchor], [2, anchor]], "the retried reply goes on with round 2");
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "clear", reason: "stopped: list is clear", round: 2, open: 0, anchor }]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: "todo loop stopped: list is clear", notifyType: "info" }]);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("a retry that fails for good: exactly one warning and one stop record, naming the round the run reached", { timeout }, async (t) => {
  const reason = "stopped: turn outcome was error";
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), OVERLOADED, OVERLOADED];
  await withRpc(t.signal, { script, settings: ONE_RETRY }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.equal(rpc.events.filter((event) => event.type === "auto_retry_start").length, 1);
    assert.deepEqual(rpc.events.filter((event) => event.type === "auto_retry_end").map((event) => [event.success, event.finalError]), [[false, "529 overloaded"]]);
    assert.equal(requests(box).length, 5);
    assert.deepEqual(markerRounds(entries), [1, 2]);
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "outcome", reason, round: 2, open: 2, anchor }]);
    assert.deepEqual(loopNotifies(rpc.notifies), [{ message: `todo loop ${reason}`, notifyType: "warning" }]);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("chat after a list that was finished under an earlier message: three messages, no notify and no stop record", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, finish, say("Done."), say("You're welcome."), say("It was a small parser."), say("Goodbye.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const finished = await rpc.getEntries();
    assert.deepEqual(stopData(finished).map((stop) => stop.kind), ["clear"]);
    const notifiesBefore = rpc.notifies.length;
    for (const text of ["Thanks", "What was the hardest part", "Bye"]) await rpc.prompt(text);
    const entries = await rpc.getEntries();
    assert.equal(userMessageIds(entries).length, 4);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"], "no record for the chat");
    assert.deepEqual(loopNotifies(rpc.notifies.slice(notifiesBefore)), [], "no notify for the chat");
    assert.deepEqual(markerDetails(entries), []);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

/** The stop entry appended on a JSON event stream, and whether it came after the run's `agent_end`. */
function stopOnStream(events: ReadonlyArray<Record<string, unknown>>): { data: unknown[]; afterAgentEnd: boolean; settled: number } {
  const types = events.map((event) => (event.type === "entry_appended" && (event.entry as EntryRecord | undefined)?.customType === STOP_TYPE ? "stop" : event.type));
  const data = events
    .filter((event) => event.type === "entry_appended" && (event.entry as EntryRecord | undefined)?.customType === STOP_TYPE)
    .map((event) => withoutReport((event.entry as EntryRecord).data));
  return { data, afterAgentEnd: types.indexOf("stop") > types.lastIndexOf("agent_end"), settled: types.filter((type) => type === "agent_settled").length };
}

test("pi -p and --mode json: agent_settled fires there too, so the stop is recorded once the run ends (an idle stop, a limit stop)", { timeout }, async () => {
  const idle = "stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you";
  const printScript: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), say("Stop three.")];
  const printBox = sandbox({ script: printScript });
  try {
    const run = await runPi(printBox, [...extensionArgs(), ...baseArgs(printBox), "-p", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    const entries = sessionEntries(printBox);
    const [anchor] = userMessageIds(entries);
    assert.deepEqual(markerRounds(entries), [1, 2]);
    assert.deepEqual(stopData(entries), [{ v: 1, kind: "idle", reason: idle, round: 2, open: 2, anchor }]);
    assert.equal(entries.at(-1)?.customType, STOP_TYPE, "the record is the session's last entry: written after the last reply");
    checkInvariants(printBox, { script: printScript, taskTexts: TASKS });
  } finally {
    printBox.cleanup();
  }

  const limit = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
  const jsonScript: ScriptStep[] = [plan, say("Stop one."), say("Stop two.")];
  const jsonBox = sandbox({ script: jsonScript, config: { maxRounds: 1 } });
  try {
    const run = await runPi(jsonBox, [...extensionArgs(), ...baseArgs(jsonBox), "--mode", "json", "Do the work"]);
    assert.equal(run.code, 0, run.stderr);
    const [anchor] = userMessageIds(sessionEntries(jsonBox));
    const stream = stopOnStream(run.events);
    assert.deepEqual(stream.data, [{ v: 1, kind: "limit", limit: "maxRounds", reason: limit, round: 1, open: 2, anchor }]);
    assert.ok(stream.afterAgentEnd, "the stop entry follows the run's agent_end on the stream");
    assert.equal(stream.settled, 1);
    assert.deepEqual(stopData(sessionEntries(jsonBox)).map((stop) => stop.reason), [limit]);
    checkInvariants(jsonBox, { script: jsonScript, taskTexts: TASKS });
  } finally {
    jsonBox.cleanup();
  }
});
