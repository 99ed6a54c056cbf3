// Proves on the real host that the list, footer, pause and minutes follow the session the person is in.
/**
 * The list, the footer, the pause and the minutes follow the session the person is in (SPEC 0.3 §7, §9),
 * on the real pi host with the real rpiv-todo:
 * - pi's real plan-mode example switched on and off holds no list at all: an open rpiv-todo list stays
 *   the list, and the next reply gets its continuation;
 * - `/tree` to a branch with no list clears the footer; `/new` clears an RPC client's footer;
 * - `/tree` back to before a pause keeps it paused (the pause belongs to the session);
 * - `/todoloop`'s minutes since your message count to now on a resumed session (`-c`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkInvariants,
  extensionArgs,
  footers,
  markerDetails,
  PI_PACKAGE,
  requests,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionFile,
  startRpc,
  stopData,
  until,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
} from "./harness.ts";
import type { EntryRecord, RpcSession, ScriptStep } from "./harness.ts";
import { SESSION_CONTROL } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const PLAN_MODE = join(PI_PACKAGE, "examples", "extensions", "plan-mode", "index.ts");

async function status(rpc: RpcSession): Promise<string> {
  return (await rpc.command("status"))[0]?.message ?? "";
}

async function navigate(rpc: RpcSession, id: string | undefined): Promise<void> {
  assert.ok(id, "a target entry id");
  await rpc.prompt(`/e2e-tree ${id}`);
  assert.deepEqual(rpc.notifies.at(-1), { message: `e2e-tree: ${id}`, notifyType: "info" });
}

function lastFooter(rpc: RpcSession): string | undefined {
  return footers(rpc.statuses).at(-1);
}

function entryWith(entries: readonly EntryRecord[], text: string): EntryRecord | undefined {
  return entries.find((entry) => entry.message?.role === "assistant" && JSON.stringify(entry.message.content).includes(text));
}

test("pi's real plan-mode switched on and then off holds no list: with 2 of 2 rpiv-todo tasks open, /todoloop shows them and the next reply gets its continuation", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), say("Back to the list; stopping."), say("Stopping again.")];
  // "Go on" is a new message: 0.2's rule for the list it finds open, so this tests plan mode alone (§4.15 is earlier.test.ts).
  await withRpc(t.signal, { script, config: { maxRounds: 1, earlierTasks: "continue" } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.equal(await rpc.prompt("/plan"), "handled");
    assert.equal(await rpc.prompt("/plan"), "handled");
    const entries = await rpc.getEntries();
    const planStates = entries.filter((entry) => entry.type === "custom" && entry.customType === "plan-mode").map((entry) => entry.data);
    assert.deepEqual(planStates.map((data) => [(data as { enabled?: unknown }).enabled, (data as { executing?: unknown }).executing]), [[true, false], [false, false]], "plan-mode saved on, then off");
    const report = await status(rpc);
    assert.match(report, /^tasks open: 2 of 2 \(rpiv-todo\)$/m, report);

    await rpc.prompt("Go on");
    const after = await rpc.getEntries();
    const [first, second] = userMessageIds(after);
    checkInvariants(box, { script, taskTexts: TASKS });
    assert.equal(requests(box).length, 5);
    assert.deepEqual(markerDetails(after).map((details) => [details.round, details.open, details.anchor]), [[1, 2, first], [1, 2, second]], "the next message's reply gets its continuation");
    assert.deepEqual(stopData(after).map((stop) => [stop.kind, stop.anchor]), [["limit", first], ["limit", second]]);
  }, { extensions: extensionArgs([PLAN_MODE]) });
});

test("the footer follows /tree: a branch with no list clears it (session_tree), and the branch with the list shows it again", { timeout }, async (t) => {
  const script: ScriptStep[] = [say("Hello."), plan, say("Stop one."), say("Stop two.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.prompt("Hi");
    await rpc.prompt("Do the work");
    const entries = await rpc.getEntries();
    const shown = lastFooter(rpc);
    assert.match(shown ?? "", /todo 2 of 2 open\b/, `the footer names the open tasks: ${shown}`);
    await navigate(rpc, entryWith(entries, "Hello.")?.id);
    assert.equal(lastFooter(rpc), undefined, "no list on this branch: the footer is cleared");
    await navigate(rpc, entries.at(-1)?.id);
    assert.match(lastFooter(rpc) ?? "", /todo 2 of 2 open\b/, "back on the list");
    checkInvariants(box, { script, taskTexts: TASKS });
    t.diagnostic(`footers: ${JSON.stringify(footers(rpc.statuses))}`);
  });
});

test("the footer follows /new in RPC: the new session clears the footer the earlier one set", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.match(lastFooter(rpc) ?? "", /todo 2 of 2 open\b/);
    const before = rpc.statuses.length;
    const client = rpc.client as unknown as { newSession(): Promise<unknown> };
    await client.newSession();
    await until("the new session's footer", () => footers(rpc.statuses.slice(before)).length > 0);
    const after = footers(rpc.statuses.slice(before));
    assert.ok(after.length > 0 && after.every((text) => text === undefined), `cleared, not left from the earlier session: ${JSON.stringify(after)}`);
    checkInvariants(box, { script, taskTexts: TASKS });
    t.diagnostic(`footers: ${JSON.stringify(footers(rpc.statuses))}`);
  });
});

test("the pause belongs to the session: /tree back to before a pause keeps it paused (PAUSED, the footer, no continuation), while the counters are the branch's", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stop one."), say("Stop two."), say("Paused reply.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    await rpc.command("pause");
    assert.equal(lastFooter(rpc), "todo loop paused · todo 2 of 2 open");
    const entries = await rpc.getEntries();
    const result = entries.find((entry) => entry.message?.role === "toolResult");
    await navigate(rpc, result?.id);
    const report = await status(rpc);
    assert.match(report, /^todo loop: PAUSED$/m, report);
    assert.match(report, /^continuations for this message: 0 of 1$/m, "this branch spent no continuation");
    assert.equal(lastFooter(rpc), "todo loop paused · todo 1 of 1 open");

    await rpc.prompt("Go on");
    const after = await rpc.getEntries();
    checkInvariants(box, { script, taskTexts: TASKS });
    assert.equal(requests(box).length, 4, "no continuation while paused");
    assert.deepEqual(markerDetails(after).map((details) => details.round), [1], "only the marker of the first branch");
  }, { extensions: extensionArgs([SESSION_CONTROL]) });
});

/** Moves every timestamp of a session file back by `ms` (entry ISO strings and message epoch numbers). */
function age(path: string, ms: number): void {
  const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => {
    const entry = JSON.parse(line) as { timestamp?: unknown; message?: { timestamp?: unknown } };
    if (typeof entry.timestamp === "string") entry.timestamp = new Date(Date.parse(entry.timestamp) - ms).toISOString();
    if (entry.message && typeof entry.message.timestamp === "number") entry.message.timestamp -= ms;
    return JSON.stringify(entry);
  });
  writeFileSync(path, `${lines.join("\n")}\n`);
}

/** The minutes of `/todoloop`'s spend line, whether written as minutes or as hours and minutes. */
function shownMinutes(report: string): number {
  const line = report.split("\n").find((text) => text.startsWith("spend since your message:")) ?? "";
  const hours = /(\d+) h(?: (\d+) min)?/.exec(line);
  if (hours) return Number(hours[1]) * 60 + Number(hours[2] ?? 0);
  const minutes = /(\d+(?:\.\d+)?) (?:minutes|min)\b/.exec(line);
  assert.ok(minutes, line);
  return Number(minutes[1]);
}

test("/todoloop on a resumed session (-c) a day after the message: minutes since your message count to now, the figure the time limit meets at the next settle", { timeout }, async (t) => {
  const box = sandbox({ script: [plan, say("Stop one."), say("Stop two."), say("Stop three.")], config: { maxMinutes: 30 } });
  const running: RpcSession[] = [];
  try {
    running.push(await startRpc(box, { signal: t.signal }));
    await running[0]?.prompt("Do the work");
    await running[0]?.stop();
    age(sessionFile(box), 24 * 60 * 60_000);
    writeFileSync(box.scriptPath, JSON.stringify([say("A day later; stopping.")]));
    const rpc = await startRpc(box, { signal: t.signal, args: ["-c"] });
    running.push(rpc);
    const report = await status(rpc);
    const minutes = shownMinutes(report);
    assert.ok(minutes >= 1439 && minutes <= 1445, `about a day: ${report}`);

    // The consent's run: its settle meets the time limit with the same figure.
    await rpc.command("continue");
    await rpc.waitSettled();
    const entries = await rpc.getEntries();
    const limit = stopData(entries).at(-1);
    assert.equal(limit?.kind, "limit");
    assert.equal(limit?.limit, "maxMinutes");
    const used = /time limit reached \((\d+(?:\.\d+)?) of 30 minutes/.exec(limit?.reason ?? "");
    assert.ok(used && Math.abs(Number(used[1]) - minutes) < 2, `${limit?.reason} vs ${minutes}`);
    t.diagnostic(`status minutes: ${minutes}; stop: ${limit?.reason}`);
  } finally {
    for (const rpc of running) await rpc.stop();
    box.cleanup();
  }
});
