// Proves on the real host that after pi restarts on a run that died, the person's first message is not carried over by the dead run's marker: only go-on words (or the offer's yes) carry its list.
/**
 * SPEC 0.5 §4.21 over RPC on the real pi: a run killed mid-list (SIGKILL: the branch ends on its marker)
 * and resumed with `-c` — once, or twice — gets the offer; the person ignores it and asks something
 * unrelated: the loop does not push the dead run's list under that message (no marker, one `earlier`
 * stop record). A first message of go-on words after the restart carries the list over as before.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { ChildProcess } from "node:child_process";
import {
  checkInvariants,
  footers,
  loopNotifies,
  markerDetails,
  requests,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  startRpc,
  stopData,
  until,
  untilRequests,
  userMessageIds,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { RpcSession, Sandbox, ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS * 2;
const NO_RETRY = { retry: { enabled: false } };
const NOTICE = "todo loop: the last run stopped with 2 of 2 tasks open when pi exited. /todoloop continue picks it up.";
/** The first run: the list planned, one continuation, then a request that hangs until pi is killed. */
const DYING: ScriptStep[] = [plan, say("Stop one."), { text: "Still thinking.", delayMs: 60_000 }];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function killMidRun(box: Sandbox): Promise<void> {
  const rpc = await startRpc(box);
  try {
    await rpc.send("Do the work");
    await untilRequests(box, 3);
    const child: unknown = Reflect.get(rpc.client, "process");
    assert.ok(child instanceof ChildProcess, "the RPC client's pi process");
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  } finally {
    await rpc.stop();
  }
}

async function resumed(box: Sandbox, signal: AbortSignal): Promise<RpcSession> {
  const rpc = await startRpc(box, { args: ["-c"], signal });
  await until("the session's footer", () => footers(rpc.statuses).length > 0);
  await sleep(500);
  return rpc;
}

for (const restarts of [1, 2]) {
  test(`RPC: after ${restarts === 1 ? "a restart" : "a second restart"} on a run killed mid-list, an unrelated first message is not carried over: no marker under it, one earlier stop`, { timeout }, async (t) => {
    const box = sandbox({ script: DYING, settings: NO_RETRY });
    // If the question carried the dead run's list over, the loop would push it with these.
    const answer: ScriptStep[] = [say("It is noon."), say("Back on the parser."), say("Still on it."), say("Stopping.")];
    try {
      await killMidRun(box);
      assert.equal(sessionEntries(box).at(-1)?.customType, "todo-loop:continue", "the branch ends on the dead run's marker");
      writeFileSync(box.scriptPath, JSON.stringify(answer));
      for (let index = 1; index < restarts; index++) {
        const idle = await resumed(box, t.signal);
        assert.deepEqual(loopNotifies(idle.notifies), [{ message: NOTICE, notifyType: "info" }]);
        await idle.stop();
      }
      const rpc = await resumed(box, t.signal);
      try {
        assert.deepEqual(loopNotifies(rpc.notifies), [{ message: NOTICE, notifyType: "info" }], "the offer, ignored");
        await rpc.prompt("What time is it?");
        await sleep(300);
        const entries = await rpc.getEntries();
        const [first, second] = userMessageIds(entries);
        const under = markerDetails(entries).filter((details) => details.anchor === second).length;
        const records = stopData(entries).map((stop) => [stop.kind, stop.anchor === first ? "m1" : "m2"]);
        t.diagnostic(`${restarts} restart(s): requests ${requests(box).length}, markers under the question ${under}, records ${JSON.stringify(records)}, restart records ${entries.filter((entry) => entry.customType === "todo-loop:restart").length}, last footer ${footers(rpc.statuses).at(-1)}`);
        assert.equal(under, 0, "the dead run's list is not pushed under the question");
        assert.equal(requests(box).length, 4, "the question's one request");
        assert.deepEqual(records, [["earlier", "m2"]]);
        assert.equal(entries.filter((entry) => entry.customType === "todo-loop:restart").length, 1, "the restart is recorded once, at the first start after the death");
        checkInvariants(box, { script: [...DYING, ...answer.slice(0, 1)], taskTexts: TASKS });
      } finally {
        await rpc.stop();
      }
    } finally {
      box.cleanup();
    }
  });
}

test("RPC: after a restart on a run killed mid-list, a first message of go-on words carries the list over and the loop runs it to the end", { timeout }, async (t) => {
  const box = sandbox({ script: DYING, settings: NO_RETRY });
  const rest: ScriptStep[] = [finish, say("Done.")];
  try {
    await killMidRun(box);
    writeFileSync(box.scriptPath, JSON.stringify(rest));
    const rpc = await resumed(box, t.signal);
    try {
      await rpc.prompt("keep going");
      const entries = await rpc.getEntries();
      t.diagnostic(`go-on words: requests ${requests(box).length}, records ${stopData(entries).map((stop) => stop.kind).join("+")}`);
      assert.equal(requests(box).length, 5);
      assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["clear"]);
      checkInvariants(box, { script: [...DYING, ...rest], taskTexts: TASKS });
    } finally {
      await rpc.stop();
    }
  } finally {
    box.cleanup();
  }
});
