// Proves on the real host that a session written by the first release is read as before after an update.
/**
 * Sessions written by 0.1 read as before (SPEC 0.2 §4.13, §4.14, §10): no control records, markers with
 * `display: false` and `details` without total/cap/idle/stale, stop records without `v`/`kind`.
 *
 * The fixture test/fixtures/first-release/three-messages-wait-limit-error.jsonl is a real session written by the
 * 0.1 code (commit ee1bdf1, its `src/` loaded with `-e`) on pi 1.6.0 in RPC mode, with real rpiv-todo,
 * the scripted model and `{ "maxRounds": 1 }`:
 *   "Set up staging"               two tasks; todo_loop_block("I need the staging password"); a settle
 *                                  (0.1 recorded `waiting for you: I need the staging password`);
 *   "The password is in the vault" "Stop one." (marker, round 1); "Stop two." (0.1 recorded
 *                                  `stopped: 1 continuation used, …`);
 *   "Keep going"                   "Stop three." (marker, round 1); a `529 overloaded` error whose retry
 *                                  was cancelled (0.1 recorded `stopped: turn outcome was error` at
 *                                  turn_end), so the marker is the last message the model would see.
 * Its working directory is stored as /home/user/project; a test copies the file into its sandbox's
 * session dir with the sandbox's cwd in its place, so `pi -c` finds it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import {
  anchorWords,
  checkInvariants,
  controlData,
  extensionArgs,
  footers,
  isNudge,
  lastMessage,
  loopNotifies,
  markerDetails,
  markers,
  PACKAGE_ROOT,
  requests,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  startRpc,
  stopData,
  textOf,
  until,
  updateTasks,
  userMessageIds,
  TWO_TASKS as TASKS,
  withoutFingerprint,
} from "./harness.ts";
import type { EntryRecord, RpcSession, ScriptStep } from "./harness.ts";
import { SESSION_CONTROL } from "./stand-ins/paths.ts";

const FIXTURE = join(PACKAGE_ROOT, "test", "fixtures", "first-release", "three-messages-wait-limit-error.jsonl");
const FIXTURE_CWD = "/home/user/project";
const OLD_LIMIT = "stopped: 1 continuation used, 2 tasks still open, no todo change for 1 reply; the agent may need you";
const OLD_WAIT = "waiting for you: I need the staging password";
const OLD_ERROR = "stopped: turn outcome was error";

function fixtureEntries(): EntryRecord[] {
  return readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as EntryRecord);
}

async function status(rpc: RpcSession): Promise<string> {
  return (await rpc.command("status"))[0]?.message ?? "";
}

async function navigate(rpc: RpcSession, id: string | undefined): Promise<void> {
  assert.ok(id);
  assert.equal(await rpc.prompt(`/e2e-tree ${id}`), "handled");
  assert.deepEqual(rpc.notifies.at(-1), { message: `e2e-tree: ${id}`, notifyType: "info" });
}

test("the fixture is what 0.1 wrote: hidden markers with 0.1 details, stop records without v/kind, no control records", () => {
  const entries = fixtureEntries();
  const [, second, third] = userMessageIds(entries);
  assert.deepEqual(markers(entries).map((entry) => [entry.display, entry.details]), [
    [false, { v: 1, round: 1, anchor: second, open: 2, hint: false }],
    [false, { v: 1, round: 1, anchor: third, open: 2, hint: false }],
  ]);
  assert.deepEqual(stopData(entries).map((stop) => Object.keys(stop).sort().join(",")), Array(3).fill("anchor,open,reason,round"));
  assert.deepEqual(stopData(entries).map((stop) => stop.reason), [OLD_WAIT, OLD_LIMIT, OLD_ERROR]);
  assert.deepEqual(controlData(entries), []);
  assert.ok(!readFileSync(FIXTURE, "utf8").includes("/tmp/"), "no temp paths");
});

test("0.2 resumes a 0.1 session with -c: the rounds are rebuilt from 0.1 markers, a 0.1 marker before a human message is dropped as a 0.2 one is, an old stop is not announced or recorded again, and the wait is read from the 0.1 block result", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const old = fixtureEntries();
  const [first, second, third] = userMessageIds(old);
  const [secondMarker, thirdMarker] = markers(old);
  /** The entry a message's branch ends with: the parent of the next human message, or the file's last. */
  const leafOf = (next: string | undefined): string | undefined => old.find((entry) => entry.id === next)?.parentId ?? undefined;
  // Three requests for "Carry on", then one for a turn on the second message's branch.
  const script: ScriptStep[] = [say("Back on it; stopping."), updateTasks([1, 2]), say("Done."), say("Stop four.")];
  // "Carry on" continues the 0.1 session's list: 0.2's rule for tasks from an earlier message (§4.15).
  const box = sandbox({ script, config: { maxRounds: 1, earlierTasks: "continue" }, settings: { retry: { enabled: false } } });
  try {
    writeFileSync(join(box.sessionDir, basename(FIXTURE)), readFileSync(FIXTURE, "utf8").split(FIXTURE_CWD).join(box.cwd));
    const rpc = await startRpc(box, { signal: t.signal, extensions: extensionArgs([SESSION_CONTROL]), args: ["-c"] });
    try {
      await until("the footer after -c", () => footers(rpc.statuses).length > 0);
      // The 0.1 session's newest stop (an error, recorded by its wording) is named; the round is rebuilt below.
      assert.deepEqual(footers(rpc.statuses), ["todo loop stopped: error or Escape · todo 2 of 2 open"], "from session_start, the stop read from the 0.1 record");
      let report = await status(rpc);
      assert.match(report, /^continuations for this message: 1 of 1$/m);
      assert.match(report, /^tasks open: 2 of 2 \(rpiv-todo\)$/m);
      assert.ok(report.split("\n").includes(`counting from: ${anchorWords(old, third)}`), report);
      assert.deepEqual(loopNotifies(rpc.notifies).filter((notify) => notify.notifyType === "warning"), [], "resuming announces none of the old stops");

      // The newest 0.1 marker is the last message before the human's: the context hook drops it.
      await rpc.prompt("Carry on");
      const carry = requests(box)[0];
      assert.equal(textOf(lastMessage(carry).content), "Carry on");
      const beforeHuman = carry?.messages[(carry?.messages.length ?? 0) - 2];
      assert.equal(beforeHuman?.role, "assistant", "no marker between the reply and the human message");
      assert.equal(textOf(beforeHuman?.content), "Stop three.");
      let entries = await rpc.getEntries();
      const carryOn = userMessageIds(entries).at(-1);
      const fresh = markers(entries).filter((entry) => entry.id !== secondMarker?.id && entry.id !== thirdMarker?.id);
      assert.deepEqual(fresh.map((entry) => entry.display), [true], "0.2 writes displayed markers next to the old hidden ones");
      assert.deepEqual(markerDetails(fresh).map(withoutFingerprint), [{ v: 1, round: 1, anchor: carryOn, open: 2, total: 2, cap: 1, hint: false, idle: 1, stale: 0, stuck: 0, repeats: 1 }]);
      assert.deepEqual(stopData(entries).slice(3), [{ v: 1, kind: "clear", reason: "stopped: list is clear", round: 1, open: 0, anchor: carryOn }]);

      // The second message's branch: its round is spent (0.1 marker), and 0.1 recorded the limit stop by
      // its wording only. A turn there meets the limit again: not announced, not recorded a second time.
      await navigate(rpc, leafOf(third));
      report = await status(rpc);
      assert.match(report, /^continuations for this message: 1 of 1$/m);
      assert.ok(report.split("\n").includes(`counting from: ${anchorWords(old, second)}`), report);
      const before = rpc.notifies.length;
      assert.equal(await rpc.prompt("/e2e-hidden-turn"), "handled");
      await rpc.waitSettled();
      entries = await rpc.getEntries();
      assert.equal(requests(box).length, 4);
      assert.deepEqual(markers(entries).length, 3, "no continuation on that branch");
      assert.deepEqual(stopData(entries).length, 4, "no new stop record");
      assert.deepEqual(loopNotifies(rpc.notifies.slice(before)).filter((notify) => notify.notifyType === "warning"), [], "not announced again");
      const hidden = requests(box)[3]?.messages ?? [];
      const kept = hidden.findIndex(isNudge);
      assert.ok(kept > 0, "a 0.1 marker between two replies still reaches the model");
      assert.deepEqual([hidden[kept - 1]?.role, hidden[kept + 1]?.role], ["assistant", "assistant"]);

      // The first message's branch: the wait comes from 0.1's todo_loop_block result.
      await navigate(rpc, leafOf(second));
      report = await status(rpc);
      assert.match(report, /^todo loop: waiting$/m);
      assert.ok(report.split("\n").includes(OLD_WAIT), report);
      assert.ok(report.split("\n").includes(`counting from: ${anchorWords(old, first)}`), report);
      checkInvariants(box, { script, taskTexts: TASKS, legacyMarkers: [secondMarker?.id ?? "", thirdMarker?.id ?? ""] });
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
});
