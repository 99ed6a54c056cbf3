/**
 * The usage-limit wait and the resumed start as wired (src/host/limit-waits.ts, SPEC 0.5 §4.20, §4.21) on
 * a fake pi: the kill switch seen by a hook or a command cancels an armed wait for good; a start after a
 * run died on a marker or a tool result records the restart once, in every mode.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { limitWaitArmed, runEntries } from "../../src/host/limit-waits.ts";
import { readLimitRun } from "../../src/core/limit-stop.ts";
import { createSession } from "../fake-pi.ts";
import { assistant, chain, marker, todoResult, user } from "../builders.ts";
import type { Entry } from "../builders.ts";
import { GLOBAL_OFF, harness, planned, switchOff, TASKS } from "./wiring.ts";
import type { Harness } from "./wiring.ts";

const LIMIT_429 = '429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}';

/** A run that ends on a 429 with both tasks open: a limit-wait, armed (RPC). */
async function waiting(): Promise<Harness> {
  const h = harness({ mode: "rpc" });
  h.session.append({ type: "message", message: { role: "assistant", content: [], stopReason: "error", errorMessage: LIMIT_429, timestamp: Date.now() } } as Entry);
  await h.turnEnd({ type: "turn_end", outcome: "error", message: { role: "assistant" }, toolResults: [], entries: [], continue: false, context: { pendingMessages: [] } } as never);
  await h.endRun();
  assert.equal((h.records("todo-loop:stop")[0] as { kind?: string } | undefined)?.kind, "limit-wait");
  assert.equal(limitWaitArmed(h.ctx), true, "the wait is armed");
  assert.match(h.footer() ?? "", /^todo loop: resumes at /);
  return h;
}

test("0.5 §4.20: /todoloop with the kill switch present cancels the armed wait; with the file removed it stays cancelled and the footer no longer promises the reset", async (t) => {
  const h = await waiting();
  switchOff(t, GLOBAL_OFF);
  await h.command("");
  assert.equal(limitWaitArmed(h.ctx), false, "cancelled as soon as the command saw the switch");
  rmSync(GLOBAL_OFF);
  await h.command("");
  assert.equal(limitWaitArmed(h.ctx), false, "removing the file does not revive it");
  assert.equal(h.footer(), "todo loop stopped: usage limit · todo 2 of 2 open");
  assert.match(h.takeNotes().at(-1)?.message ?? "", /^todo loop: stopped/m);
});

test("0.5 §4.20: a hook that sees the kill switch (the context hook, a turn) cancels the armed wait", async (t) => {
  const h = await waiting();
  switchOff(t, GLOBAL_OFF);
  await h.pi.fireContext({ type: "context", messages: [] }, h.ctx);
  assert.equal(limitWaitArmed(h.ctx), false);
});

const DEAD_ON_MARKER: Entry[] = [...planned(), assistant({ text: "Stopping." }), marker({ round: 1, anchor: "u1" })];

test("0.5 §4.21: a start after a run died on its marker or a tool result records the restart once, in every mode; never a reload, /new or a fork, nor under the kill switch", async (t) => {
  for (const mode of ["rpc", "tui", "print", "json"] as const) {
    for (const branch of [DEAD_ON_MARKER, chain(user("Do the work", { id: "u1" }), todoResult({ tasks: TASKS }))]) {
      const h = harness({ branch, mode, hasUI: mode === "rpc" || mode === "tui" });
      await h.start("startup");
      await h.start("startup");
      assert.deepEqual(h.pi.appended.filter((entry) => entry.customType === "todo-loop:restart"), [{ customType: "todo-loop:restart", data: { v: 1 } }], mode);
    }
  }
  for (const reason of ["reload", "new", "fork"]) {
    const h = harness({ branch: DEAD_ON_MARKER });
    await h.start(reason);
    assert.deepEqual(h.pi.appended, [], reason);
  }
  const ended = harness({ branch: [...DEAD_ON_MARKER, assistant({ text: "Done for now." })] });
  await ended.start("startup");
  assert.deepEqual(ended.pi.appended, [], "a run that ended on a reply");
  switchOff(t, GLOBAL_OFF);
  const off = harness({ branch: DEAD_ON_MARKER });
  await off.start("resume");
  assert.deepEqual(off.pi.appended, [], "no entries under the kill switch");
});

test("0.5 §4.20: a run that ended on an error is read back from the leaf to the person's newest message, without copying the whole branch; the whole branch where pi cannot be walked", () => {
  const errored = (text: string) => ({ type: "message", message: { role: "assistant", content: [], stopReason: "error", errorMessage: text, timestamp: 2 } }) as Entry;
  const wait = { type: "custom", customType: "todo-loop:stop", data: { v: 1, kind: "limit-wait", reason: "waiting", round: 1, open: 2, anchor: "u1", waitMinutes: 5 } } as Entry;
  const session = createSession([user("Earlier"), wait, assistant({ text: "Done." }), user("Do the work"), errored("first"), wait, marker({ round: 1, anchor: "u1" }), errored(LIMIT_429)]);
  const branch = session.getBranch();
  const run = runEntries(session);
  assert.equal(session.branchReads, 1, "the walk asked for no branch");
  assert.deepEqual(run, branch.slice(3), "from the newest human message to the leaf, in order");
  assert.deepEqual(readLimitRun(run), readLimitRun(branch));
  assert.deepEqual(readLimitRun(run).prior, [5], "the earlier message's wait is not this run's");

  const noHuman = createSession([errored("a"), wait, errored("b")]);
  assert.deepEqual(runEntries(noHuman), noHuman.getBranch(), "no human message: the whole branch, walked");
  const long = createSession(Array.from({ length: 10_001 }, () => wait));
  assert.equal(runEntries(long).length, 10_001);
  assert.equal(long.branchReads, 1, "longer than the walk: the whole branch, read");

  const whole = [user(), errored(LIMIT_429)];
  for (const partial of [
    { getBranch: () => whole },
    { getBranch: () => whole, getLeafId: () => null, getEntry: () => undefined },
    { getBranch: () => whole, getLeafId: () => "b", getEntry: (id: string) => (id === "b" ? { id: "b", parentId: "gone", type: "custom" } : undefined) },
    { getBranch: () => whole, getLeafId: () => "b", getEntry: () => "not an entry" },
  ]) {
    assert.equal(runEntries(partial), whole, "pi without the walk, a missing entry or a damaged one: the branch");
  }
});
