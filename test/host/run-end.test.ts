/**
 * A run ends in one place (src/host/run-end.ts): at pi's settle, at a timer's stop and when verification
 * records its stop inside turn_end, the usage-limit step is asked, settle() clears the pending stop, and
 * the record the step returns is the one written; only the settle and a timer announce it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRuntime } from "../../src/host/runtime.ts";
import { endRun } from "../../src/host/run-end.ts";
import type { RunEndAt } from "../../src/host/run-end.ts";
import { freshMemory } from "../../src/loop.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import { STOP_TYPE } from "../../src/state.ts";
import type { Memory } from "../../src/core/types.ts";
import { capturedIo } from "../captured-io.ts";
import { createContext, createFakePi, createSession, isolatedDirs } from "../fake-pi.ts";

const { cwd } = isolatedDirs("todo-loop-run-end-");

/** A run that reached maxRounds with two tasks open: its stop is pending. */
function ending(): Memory {
  const reason = { kind: "limit", limit: "maxRounds", used: 3, max: 3, open: 2, stale: 0 } as const;
  return { ...freshMemory("u1"), round: 3, hadWork: true, last: reason, pending: { reason, open: 2, level: "warning" } };
}

function setUp() {
  const pi = createFakePi();
  const runtime = createRuntime(pi, capturedIo());
  const ctx = createContext({ session: createSession([]), cwd, mode: "rpc" });
  const steps: string[] = [];
  runtime.limitStep = {
    atSettle(_ctx, memory) {
      steps.push("atSettle");
      return memory;
    },
    atRecord(_ctx, record, ended) {
      steps.push(`atRecord:${ended?.kind}`);
      return { ...record, shutdown: true };
    },
    switchSeen() {
      steps.push("switchSeen");
    },
  };
  const session = runtime.sessionOf(ctx);
  session.memory = ending();
  return { pi, runtime, ctx, session, steps };
}

for (const at of ["settle", "timer", "turn"] as const satisfies readonly RunEndAt[]) {
  test(`run end (${at}): the usage-limit step is asked, the pending stop settled, and the step's record is the one written`, async () => {
    const { pi, runtime, ctx, session, steps } = setUp();
    const end = endRun(runtime, ctx, session, DEFAULT_CONFIG, at);
    await end.reached;
    assert.deepEqual(steps, ["atSettle", "atRecord:limit"]);
    assert.equal(end.record?.kind, "limit");
    assert.equal(end.record?.shutdown, true);
    assert.equal(session.memory?.pending, undefined);
    assert.deepEqual(session.memory?.announced, ["limit:maxRounds"]);
    if (at === "turn") {
      // The caller returns the record among turn_end's entries; nothing is announced now.
      assert.deepEqual(pi.appended, []);
      assert.deepEqual(ctx.ui.notifications, []);
    } else {
      assert.deepEqual(pi.appended.map((entry) => [entry.customType, (entry.data as { shutdown?: boolean }).shutdown]), [[STOP_TYPE, true]]);
      assert.equal(ctx.ui.notifications.length, 1);
    }
  });
}

test("run end: the same stop a second time writes nothing (once per stop), and no pending stop ends nothing", async () => {
  const { pi, runtime, ctx, session } = setUp();
  await endRun(runtime, ctx, session, DEFAULT_CONFIG, "timer").reached;
  session.memory = { ...(session.memory ?? ending()), pending: ending().pending };
  const again = endRun(runtime, ctx, session, DEFAULT_CONFIG, "timer");
  await again.reached;
  assert.equal(again.record, undefined);
  assert.equal(pi.appended.length, 1);
  const none = endRun(runtime, ctx, session, DEFAULT_CONFIG, "settle");
  await none.reached;
  assert.equal(none.record, undefined);
  assert.equal(pi.appended.length, 1);
});
