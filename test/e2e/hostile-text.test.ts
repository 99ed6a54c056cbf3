// Proves on the real host that text from the model reaches the person sanitised.
/**
 * SPEC §6 and §10 on the real pi host: text from the model reaches the human sanitised — a
 * `todo_loop_block` reason full of escape sequences and invisible characters, a reason of nothing but
 * invisible characters (an empty reason), and rpiv-todo task subjects named in the deleted-tasks warning.
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
  textOf,
  updateTasks,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

/** Controls (ESC included), format characters and the other characters that render as nothing. */
const UNSAFE = /[\p{Cc}\p{Cf}\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u2028\u2029]/u;
/** What an escape sequence leaves behind when only its ESC is removed. */
const LEFTOVER = /\[2J|\[31m|\[0m|\]0;|\]8;;/;

function assertClean(text: string): void {
  assert.doesNotMatch(text, UNSAFE, JSON.stringify(text));
  assert.doesNotMatch(text, LEFTOVER, JSON.stringify(text));
}

/** Whether the session holds `raw` verbatim somewhere (the hostile text really reached pi). */
function holds(entries: readonly unknown[], raw: string): boolean {
  return JSON.stringify(entries).includes(JSON.stringify(raw).slice(1, -1));
}

const HOSTILE_REASON =
  "\u001b[2J\u001b[H\u001b[31mNeed\u001b[0m the\u200b prod\u202e key\u00ad\u2060 \u001b]0;pwned\u0007now" +
  "\u{e0069}\u{e0067}\u{e006e}\u3164\u034f\u009b2J\u001b]8;;https://evil.example\u001b\\?\u001b]8;;\u001b\\\u001b(B\ufe01";
const CLEAN_REASON = "Need the prod key now?";

test("todo_loop_block with a reason full of escape sequences and invisible characters: the human sees it clean, with no '[2J' left", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    createTasks("Alpha task"),
    callTools({ name: "todo_loop_block", args: { reason: HOSTILE_REASON } }),
    say("I need the production key."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const notices = loopNotifies(rpc.notifies);
    assert.deepEqual(notices, [{ message: `todo loop: the agent is waiting for you: ${CLEAN_REASON}`, notifyType: "warning" }]);
    for (const notice of notices) assertClean(notice.message);
    const entries = sessionEntries(box);
    assert.ok(holds(entries, HOSTILE_REASON), "the model's call carried the raw reason");
    assert.deepEqual(markerRounds(entries), [], "waiting: nothing is continued");
    assert.deepEqual(stopReasons(entries), [`waiting for you: ${CLEAN_REASON}`]);
    const [status] = await rpc.command("status");
    const shown = status?.message ?? "";
    assert.ok(shown.split("\n").includes(`waiting for you: ${CLEAN_REASON}`), shown);
    for (const line of shown.split("\n")) assertClean(line);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("todo_loop_block with a reason of nothing but invisible characters is an error tool result and the loop goes on", { timeout }, async (t) => {
  const invisible = "\u200b\u200d\u2060\ufeff\u00ad\u034f\u3164\ufe0f\u{e0041}\u{e0100}\u202e\u2066\u001b[2J\u009d0;t\u009c\n\t ";
  const script: ScriptStep[] = [
    createTasks("Alpha task"),
    callTools({ name: "todo_loop_block", args: { reason: invisible } }),
    say("Stopping here."),
    updateTasks([1]),
    say("Done."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const entries = sessionEntries(box);
    assert.ok(holds(entries, invisible), "the model's call carried the raw reason");
    const results = entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "todo_loop_block");
    assert.equal(results.length, 1);
    assert.equal(results[0]?.message?.isError, true);
    assert.match(textOf(results[0]?.message?.content), /non-empty reason/);
    assert.deepEqual(markerRounds(entries), [1], "not waiting: the settle after the failed block is continued");
    assert.deepEqual(stopReasons(entries), ["stopped: list is clear"]);
    assert.deepEqual(loopNotifies(rpc.notifies).filter((notify) => notify.notifyType !== "info"), [], "no waiting warning");
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("rpiv-todo tasks with hostile subjects deleted in a todo-only turn: the deletion warning names them clean", { timeout }, async (t) => {
  const subjects = [
    "\u001b[2J\u001b[31mFix\u001b[0m\u202e login\r\nbug\u200b",
    "\u001b]0;pwned\u0007Write\u{e0041}\u{e0042} docs\u00ad\u009b31m\u3164",
  ];
  const script: ScriptStep[] = [
    createTasks(...subjects),
    say("Stopping here."),
    callTools({ name: "todo", args: { action: "delete", id: 1 } }, { name: "todo", args: { action: "delete", id: 2 } }),
    say("Nothing left."),
  ];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const notices = loopNotifies(rpc.notifies);
    const warnings = notices.filter((notice) => notice.message.includes("deleted rather than completed"));
    assert.equal(warnings.length, 1, JSON.stringify(notices));
    assert.equal(warnings[0]?.notifyType, "warning");
    assert.match(warnings[0]?.message ?? "", /^todo loop: 2 tasks were deleted rather than completed: "Fix login bug", "Write docs"\./);
    for (const notice of notices) assertClean(notice.message);
    const entries = sessionEntries(box);
    for (const subject of subjects) assert.ok(holds(entries, subject), "rpiv-todo kept the raw subject");
    assert.deepEqual(markerRounds(entries), [1]);
    checkInvariants(box, { script, taskTexts: subjects });
  });
});
