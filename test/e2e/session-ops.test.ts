// Proves on the real host that the loop keeps its list and counters through /compact and /tree.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  anchorWords,
  checkInvariants,
  createTasks,
  isNudge,
  lastMessage,
  markerDetails,
  requests,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopReasons,
  textOf,
  untilRequests,
  updateTasks,
  userMessageIds,
  withRpc,
} from "./harness.ts";
import type { EntryRecord, RpcSession, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

test("/compact in the middle of a loop: the list survives on the branch and the loop continues from the next message", { timeout }, async (t) => {
  const summary = "Scripted summary of the work so far.";
  const script: ScriptStep[] = [
    createTasks("Alpha task", "Beta task"),
    say("Stopping here.", { delayMs: 1000 }),
    say(summary),
    say("Back after the compaction; stopping."),
    updateTasks([1, 2]),
    say("Done."),
  ];
  const settings = { retry: { enabled: false }, compaction: { keepRecentTokens: 1 } };
  // "Go on" continues the first message's list: 0.2's rule for tasks from an earlier message (§4.15).
  await withRpc(t.signal, { script, settings, config: { earlierTasks: "continue" } }, async (box, rpc) => {
    await rpc.send("Do the work");
    await untilRequests(box, 2);
    // A manual compaction while the model is answering: pi aborts the run, then summarises.
    await rpc.client.compact();
    await rpc.waitSettled();
    const compacted = sessionEntries(box);
    assert.equal(compacted.filter((entry) => entry.type === "compaction").length, 1, "one compaction entry");
    assert.deepEqual(markerDetails(compacted), [], "the aborted reply was not continued");
    assert.deepEqual(stopReasons(compacted), ["stopped: you stopped it (Escape)"]);

    await rpc.prompt("Go on");
    const logged = requests(box);
    const after = logged[3];
    assert.ok(after && textOf(after.messages.map((message) => textOf(message.content)).join("\n")).includes(summary), "the model sees the summary");
    assert.ok(
      !after.messages.some((message) => message.role === "toolResult"),
      "the todo results are no longer in the model's context",
    );
    const entries = sessionEntries(box);
    const [, goOn] = userMessageIds(entries);
    assert.deepEqual(markerDetails(entries).map(({ round, open, anchor }) => ({ round, open, anchor })), [{ round: 1, open: 2, anchor: goOn }], "the list is read from the branch");
    assert.ok(isNudge(lastMessage(logged[4])), "the continuation request ends with the nudge");
    assert.deepEqual(stopReasons(entries), ["stopped: you stopped it (Escape)", "stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha task", "Beta task"] });
  });
});

async function navigate(rpc: RpcSession, id: string | null | undefined): Promise<void> {
  assert.ok(id, "a target entry id");
  await rpc.prompt(`/e2e-tree ${id}`);
  assert.deepEqual(rpc.notifies[rpc.notifies.length - 1], { message: `e2e-tree: ${id}`, notifyType: "info" });
}

async function status(rpc: RpcSession): Promise<string> {
  const [report] = await rpc.command("status");
  return report?.message ?? "";
}

function last(entries: readonly EntryRecord[]): EntryRecord | undefined {
  return entries[entries.length - 1];
}

test("after /tree navigation the loop reads the branch it is on: its list, its anchor and its counters", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    createTasks("Alpha one"),
    say("A: stopping."),
    say("A: stopping again."),
    createTasks("Beta one", "Beta two"),
    say("B: stopping."),
    say("B: stopping again."),
    say("A resumed: stopping."),
    updateTasks([1]),
    say("Done."),
  ];
  // "Finish plan A" continues plan A's list: 0.2's rule for tasks from an earlier message (§4.15).
  await withRpc(t.signal, { script, config: { maxRounds: 1, earlierTasks: "continue" } }, async (box, rpc) => {
    await rpc.prompt("Plan A");
    const branchA = await rpc.getEntries();
    const userA = branchA.find((entry) => entry.message?.role === "user");
    const resultA = branchA.find((entry) => entry.message?.role === "toolResult");
    const leafA = last(branchA)?.id;
    let report = await status(rpc);
    assert.match(report, /^tasks open: 1 of 1 \(rpiv-todo\)$/m);
    assert.match(report, /^continuations for this message: 1 of 1$/m);
    assert.ok(report.split("\n").includes(`counting from: ${anchorWords(await rpc.getEntries(), userA?.id)}`), report);

    // Same human message, but a branch without the continuation: its round was spent elsewhere.
    await navigate(rpc, resultA?.id);
    report = await status(rpc);
    assert.match(report, /^continuations for this message: 0 of 1$/m);
    assert.match(report, /^tasks open: 1 of 1 \(rpiv-todo\)$/m);

    // A second branch from before the first message, with its own list.
    await navigate(rpc, userA?.parentId);
    await rpc.prompt("Plan B");
    const userB = (await rpc.getEntries()).filter((entry) => entry.message?.role === "user").pop();
    report = await status(rpc);
    assert.match(report, /^tasks open: 2 of 2 \(rpiv-todo\)$/m);
    assert.match(report, /^continuations for this message: 1 of 1$/m);
    assert.ok(report.split("\n").includes(`counting from: ${anchorWords(await rpc.getEntries(), userB?.id)}`), report);

    // Back to the first branch: its list, its anchor, its spent round.
    await navigate(rpc, leafA);
    report = await status(rpc);
    assert.match(report, /^tasks open: 1 of 1 \(rpiv-todo\)$/m);
    assert.match(report, /^continuations for this message: 1 of 1$/m);
    assert.ok(report.split("\n").includes(`counting from: ${anchorWords(await rpc.getEntries(), userA?.id)}`), report);

    await rpc.prompt("Finish plan A");
    const entries = sessionEntries(box);
    const finish = userMessageIds(entries).pop();
    const details = markerDetails(entries);
    assert.deepEqual(details.map(({ round, open, anchor }) => ({ round, open, anchor })), [
      { round: 1, open: 1, anchor: userA?.id },
      { round: 1, open: 2, anchor: userB?.id },
      { round: 1, open: 1, anchor: finish },
    ]);
    const finishEntry = entries.find((entry) => entry.id === finish);
    assert.equal(finishEntry?.parentId, leafA, "the last message continues branch A");
    assert.deepEqual(stopReasons(entries).slice(-1), ["stopped: list is clear"]);
    checkInvariants(box, { script, taskTexts: ["Alpha one", "Beta one", "Beta two"] });
  });
});
