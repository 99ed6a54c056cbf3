// Proves on the real host what the person reads: no count past its cap, the footer's state first, one name per brake, and the kill switch's footer following the file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkInvariants,
  footers,
  PLAN_TWO as plan,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopData,
  TWO_TASKS as TASKS,
  updateTasks,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;

test("/todoloop after a continue past maxRounds: continuations for this message: 2 (limit 1, at your request), never 2 of 1", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stopping here."), say("Stopping again."), say("Still here."), updateTasks([1, 2]), say("All done.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 } }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.deepEqual(stopData(sessionEntries(box)).map((stop) => stop.kind), ["limit"]);
    await rpc.command("continue");
    await rpc.waitSettled();
    const status = (await rpc.command("status")).map((notify) => notify.message).join("\n");
    t.diagnostic(status.split("\n").find((line) => line.startsWith("continuations")) ?? "");
    assert.match(status, /^continuations for this message: 2 \(limit 1, at your request\)$/m);
    assert.doesNotMatch(status, /2 of 1/);
    await rpc.command("continue");
    await rpc.waitSettled();
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("an idle stop has one name everywhere: the record, the footer (state first) and /todoloop all say 'without doing anything'", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stopping here."), say("Stopping again."), say("Nothing more.")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const records = stopData(sessionEntries(box));
    assert.deepEqual(records.map((stop) => stop.kind), ["idle"]);
    assert.match(records[0]?.reason ?? "", /without doing anything/);
    const footer = footers(rpc.statuses).at(-1);
    t.diagnostic(`footer: ${footer}`);
    assert.equal(footer, "todo loop stopped: without doing anything · todo 2 of 2 open");
    const status = (await rpc.command("status")).map((notify) => notify.message).join("\n");
    assert.match(status, /^replies in a row without doing anything: 3 of 3$/m);
    assert.match(status, /^replies in a row without progress: \d+ of 5$/m);
    assert.doesNotMatch(footer ?? "", /no progress/);
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("a question's wait puts the state first in the footer: todo loop: waiting for you · todo 2 of 2 open", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Which database should I use, Postgres or SQLite?")];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.deepEqual(stopData(sessionEntries(box)).map((stop) => stop.kind), ["question"]);
    assert.equal(footers(rpc.statuses).at(-1), "todo loop: waiting for you · todo 2 of 2 open");
    await rpc.command("pause");
    assert.equal(footers(rpc.statuses).at(-1), "todo loop paused · todo 2 of 2 open");
    checkInvariants(box, { script, taskTexts: TASKS });
  });
});

test("the kill switch's footer follows the file at the next hook call: 'todo loop off' as soon as a message starts, gone as soon as the next one starts after the file is removed", { timeout }, async (t) => {
  const script: ScriptStep[] = [plan, say("Stopping here."), say("Stopping again."), say("Nothing more."), { ...say("Hi."), delayMs: 1500 }, { ...say("Hello again."), delayMs: 1500 }];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.equal(footers(rpc.statuses).at(-1), "todo loop stopped: without doing anything · todo 2 of 2 open");
    const off = join(box.agentDir, "todo-loop-off");
    writeFileSync(off, "");
    const before = rpc.statuses.length;
    await rpc.send("Just saying hi");
    // While the reply is still being written (the scripted model waits 1.5 s), the footer already follows the file.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const early = footers(rpc.statuses.slice(before));
    t.diagnostic(`footers while the first reply is written: ${JSON.stringify(early)}`);
    assert.equal(early.at(-1), "todo loop off");
    await rpc.waitSettled();
    rmSync(off);
    const middle = rpc.statuses.length;
    await rpc.send("And again");
    await new Promise((resolve) => setTimeout(resolve, 700));
    const back = footers(rpc.statuses.slice(middle));
    t.diagnostic(`footers once the file is gone: ${JSON.stringify(back)}`);
    assert.ok(back.length > 0 && back.at(-1) !== "todo loop off", JSON.stringify(back));
    await rpc.waitSettled();
    assert.notEqual(footers(rpc.statuses).at(-1), "todo loop off");
    checkInvariants(box, { script, taskTexts: TASKS, markerBeforeUserAllowed: [4] });
  });
});
