// Proves on the real host that human text (joiners, emoji sequences, other scripts) survives sanitising unchanged.
/**
 * SPEC 0.3 §10 on the real pi host: human text survives sanitising. A `todo_loop_block` reason written
 * in Persian (a zero-width non-joiner between letters), with emoji ZWJ sequences, a Devanagari conjunct
 * (virama + zero-width joiner), an emoji tag sequence and a keycap reaches the person unchanged — in the
 * warning, the stop record and `/todoloop` — while escape sequences and stray invisible characters
 * around it are still removed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  callTools,
  checkInvariants,
  createTasks,
  loopNotifies,
  markerRounds,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopReasons,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

/** Persian with a non-joiner, a coder and a family (ZWJ sequences), a Devanagari conjunct with a joiner. */
const HUMAN = "می\u200cخواهم 👩\u200d💻 👨\u200d👩\u200d👧 क्\u200dष";
/** More of what people write: the flag of England (an emoji tag sequence), a keycap, a warning sign. */
const MORE = "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f} 1\ufe0f\u20e3 ⚠\ufe0f";
/** The same text with escape sequences, stray joiners and a lone tag character around and between it. */
const DIRTY = `\u001b[31m${HUMAN}\u001b[0m\u200d \u200c${MORE}\u{e0041}\u200b\u001b]0;x\u0007`;
const SHOWN = `${HUMAN} ${MORE}`;

test("a block reason in Persian, emoji ZWJ sequences, a Devanagari conjunct, an emoji tag sequence and a keycap reaches the person unchanged; escapes and stray invisibles around it are removed", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task"), callTools({ name: "todo_loop_block", args: { reason: DIRTY } }), say("Waiting.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const notices = loopNotifies(rpc.notifies);
    t.diagnostic(`notifies ${notices.length}: ${JSON.stringify(notices.map((notice) => notice.message))}`);
    assert.deepEqual(notices, [{ message: `todo loop: the agent is waiting for you: ${SHOWN}`, notifyType: "warning" }]);
    const entries = sessionEntries(box);
    assert.deepEqual(markerRounds(entries), [], "waiting: nothing is continued");
    assert.deepEqual(stopReasons(entries), [`waiting for you: ${SHOWN}`]);
    const [status] = await rpc.command("status");
    const shown = status?.message ?? "";
    assert.ok(shown.split("\n").includes(`waiting for you: ${SHOWN}`), shown);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});
