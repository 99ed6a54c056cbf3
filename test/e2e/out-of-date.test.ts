// Proves on the real host that a todo state the loop cannot read leaves the older list out of date, never continued.
/**
 * End to end on the real pi host: a todo state the loop cannot read, saved after a list it could read —
 * a fork's own status (`failed`) in rpiv-todo's result shape — leaves the list out of date. The loop
 * does not continue on the older list, says why, and goes on once the tool writes a readable list again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { callTools, checkInvariants, extensionArgs, markerDetails, say, SCENARIO_TIMEOUT_MS, stopData, withRpc } from "./harness.ts";
import type { ScriptStep } from "./harness.ts";
import { RPIV_FORK_TODO } from "./stand-ins/paths.ts";

const OUT_OF_DATE = "stopped: the todo list is out of date (in a shape this extension does not read)";

test("an unknown status after a readable list: no continuation on the older list, the reason says why, and the next readable list ends it", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const first: ScriptStep[] = [
    callTools({ name: "todo", args: { action: "create", subject: "Write the parser" } }, { name: "todo", args: { action: "create", subject: "Write the tests" } }),
    say("Planned; stopping."),
    callTools({ name: "todo", args: { action: "update", id: 1, status: "failed" } }),
    say("The parser failed; stopping."),
  ];
  const second: ScriptStep[] = [
    callTools({ name: "todo", args: { action: "update", id: 1, status: "completed" } }),
    say("Parser fixed; stopping."),
    callTools({ name: "todo", args: { action: "update", id: 2, status: "completed" } }),
    say("Done."),
  ];
  const script = [...first, ...second];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Write the parser and its tests");
    const status = (await rpc.command("status")).map((notify) => notify.message).join("\n");
    const afterFirst = await rpc.getEntries();
    assert.deepEqual(markerDetails(afterFirst).map((details) => [details.round, details.open]), [[1, 2]], "one continuation while the list was readable, none after the unread status");
    assert.deepEqual(stopData(afterFirst).map((stop) => [stop.reason, (stop as { kind?: unknown }).kind, stop.open]), [[OUT_OF_DATE, "out-of-date", 2]]);
    assert.match(status, /^tasks open: unknown \(the list is out of date: in a shape this extension does not read\)/m, status);
    assert.ok(rpc.notifies.some((notify) => notify.message === `todo loop ${OUT_OF_DATE}` && notify.notifyType === "warning"));

    await rpc.prompt("Fix the parser and go on");
    const entries = await rpc.getEntries();
    checkInvariants(box, { script });
    assert.deepEqual(markerDetails(entries).map((details) => [details.round, details.open]), [[1, 2], [1, 1]], "readable again: the loop continues under the new message");
    assert.deepEqual(stopData(entries).map((stop) => stop.reason), [OUT_OF_DATE, "stopped: list is clear"]);
  }, { extensions: extensionArgs([], { todo: RPIV_FORK_TODO }) });
});
