/**
 * Waiting on work in flight through the wiring (src/host/work.ts) on the fake pi: the bus heard from the
 * extension's start, the wait at a settle, the footer and `/todoloop`, the wake after a silent end, the
 * check-ins and the work-timeout stop, the mutex probe, the headless hold, a reload's snapshot, and bad
 * input on the bus. The clock and timers are node:test's mock timers.
 */
import { test } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TIMESTAMP } from "../builders.ts";
import { GLOBAL_OFF, harness, statusLines, switchOff, writeConfig } from "./wiring.ts";
import type { Harness, HarnessOptions } from "./wiring.ts";
import { MAX_TRACKED_WORK } from "../../src/core/work.ts";
import type { ContextLike } from "../../src/core/pi-shapes.ts";

// The mock timers are experimental in Node 22: its one warning would land among the runner's lines.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
  if (!String(warning).includes("MockTimers")) emitWarning(warning, ...rest);
}) as typeof process.emitWarning;

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "work");

function fixture(source: string, name: string): { channel: string; payload: unknown; reply?: unknown } {
  return JSON.parse(readFileSync(join(FIXTURES, source, `${name}.json`), "utf8"));
}

const START = { v: 1, id: "deploy-1", phase: "start", label: "preview deploy" };
const END = { v: 1, id: "deploy-1", phase: "end" };

/** Mock timers and a clock a minute after the branch's messages. */
function clock(t: TestContext): void {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: Date.parse(TIMESTAMP) + 60_000 });
}

/** Runs the microtasks and promise continuations the timers queued. */
async function flush(): Promise<void> {
  for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
}

async function tick(t: TestContext, ms: number): Promise<void> {
  t.mock.timers.tick(ms);
  await flush();
}

function sentWork(h: Harness): unknown[] {
  return h.pi.sent.map((sent) => (sent.message.details as { work?: unknown } | undefined)?.work);
}

/** A harness whose agent started one piece of background work and then settled with the list open. */
async function waitingOn(options: HarnessOptions = {}): Promise<Harness> {
  const h = harness(options);
  await h.start();
  h.pi.bus.emit("todo-loop:work", START);
  const result = await h.settleWith();
  assert.equal(result, undefined, "no marker while the work runs");
  return h;
}

test("work: a settle while work runs waits — no marker, no stop record or notify; the footer and /todoloop say so", async (t) => {
  clock(t);
  const h = await waitingOn();
  assert.equal(h.footer(), "todo loop: waiting on 1 background job · todo 2 of 2 open");
  h.takeNotes();
  await h.endRun();
  assert.deepEqual(h.records("todo-loop:stop"), []);
  assert.deepEqual(h.takeNotes(), []);
  const lines = await statusLines(h);
  assert.equal(lines[0], "todo loop: waiting on background work");
  assert.ok(lines.includes("last: waiting on 1 background job: the agent goes on when the work reports, 2 tasks still open"), lines.join("\n"));
  assert.ok(lines.includes("background work in flight: 1"));
  assert.ok(lines.includes("  preview deploy (todo-loop:work, under a minute)"), lines.join("\n"));
  // A second job: the footer follows the count.
  h.pi.bus.emit("subagents:created", fixture("tintinweb-pi-subagents", "created").payload);
  await flush();
  assert.equal(h.footer(), "todo loop: waiting on 2 background jobs · todo 2 of 2 open");
});

test("work: the result message starts a run after the end — no wake; the run's settle continues as usual", async (t) => {
  clock(t);
  const h = await waitingOn();
  h.pi.bus.emit("todo-loop:work", END);
  await tick(t, 200);
  // The source's message starts a run: pi fires message_start while the agent is busy.
  h.ctx.idle = false;
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "custom", customType: "subagent-notification", content: "done" } }, h.ctx);
  assert.equal(h.footer(), "todo 2 of 2 open · continue 0", "the run goes on: the footer no longer says it waits");
  await tick(t, 10_000);
  assert.equal(h.pi.sent.length, 0, "no wake");
  h.ctx.idle = true;
  const next = await h.settleWith();
  assert.equal(next?.continue, true, "with no work in flight the loop continues");
});

test("work: a silent end wakes the agent once, 5 s after the last work ended; earlier ends of other work do not", async (t) => {
  clock(t);
  const h = await waitingOn();
  h.pi.bus.emit("todo-loop:work", { v: 1, id: "second", phase: "start" });
  h.pi.bus.emit("todo-loop:work", END);
  await tick(t, 10_000);
  assert.equal(h.pi.sent.length, 0, "work still in flight: no wake");
  h.pi.bus.emit("todo-loop:work", { v: 1, id: "second", phase: "end" });
  await tick(t, 4_900);
  assert.equal(h.pi.sent.length, 0, "not before 5 s");
  await tick(t, 100);
  assert.deepEqual(sentWork(h), ["wake"]);
  assert.deepEqual(h.pi.sent[0]?.options, { triggerTurn: true });
  assert.match(String(h.pi.sent[0]?.message.content), /background work you were waiting on has finished/);
  assert.equal((h.pi.sent[0]?.message.details as { round?: unknown }).round, 1, "it counts as a round");
  await tick(t, 60_000);
  assert.equal(h.pi.sent.length, 1, "exactly one wake");
});

test("work: a completion message before the end event — the run that read it settled while the work was in flight, so the end wakes", async (t) => {
  clock(t);
  const h = await waitingOn();
  h.ctx.idle = false;
  await h.pi.fireMessageStart({ type: "message_start", message: { role: "custom", customType: "subagent-notify", content: "done" } }, h.ctx);
  h.ctx.idle = true;
  assert.equal(await h.settleWith(), undefined, "still in flight at this settle: waiting");
  await tick(t, 1_000);
  h.pi.bus.emit("todo-loop:work", END);
  await tick(t, 5_000);
  assert.deepEqual(sentWork(h), ["wake"]);
});

test("work: no wake while paused, for the person's wait, with the kill switch, or when another workflow holds the session", async (t) => {
  clock(t);
  const paused = await waitingOn();
  await paused.command("pause");
  paused.pi.bus.emit("todo-loop:work", END);
  await tick(t, 6_000);
  assert.equal(paused.pi.sent.length, 0);

  const blocked = await waitingOn();
  await blocked.block({ reason: "Which database should the preview use?" });
  blocked.pi.bus.emit("todo-loop:work", END);
  await tick(t, 6_000);
  assert.equal(blocked.pi.sent.length, 0, "the person's wait");

  const switched = await waitingOn();
  switchOff(t, GLOBAL_OFF);
  switched.pi.bus.emit("todo-loop:work", END);
  await tick(t, 6_000);
  assert.equal(switched.pi.sent.length, 0, "the kill switch");
  rmSync(GLOBAL_OFF, { force: true });

  const probed = await waitingOn();
  const manager = probed.ctx.sessionManager;
  probed.pi.bus.on("workflow:mutex:v1", (data) => {
    const probe = data as { session?: unknown; busy?: boolean };
    if (probe.session === manager) probe.busy = true;
  });
  probed.pi.bus.emit("todo-loop:work", END);
  await tick(t, 6_000);
  assert.equal(probed.pi.sent.length, 0, "the mutex probe says busy");
  assert.ok((await statusLines(probed)).includes("last: not continuing: another workflow (a goal or a plan) drives the session"));
});

test("work: /todoloop continue while the loop waits on work starts one run now, the person's consent (no probe)", async (t) => {
  clock(t);
  const h = await waitingOn();
  await h.command("continue");
  assert.equal(h.pi.sent.length, 1);
  assert.deepEqual(h.pi.sent[0]?.options, { triggerTurn: true });
  assert.equal((h.pi.sent[0]?.message.details as { work?: unknown; round?: unknown }).work, undefined, "a plain continuation");
  assert.equal((h.pi.sent[0]?.message.details as { round?: unknown }).round, 1);
});

test("work: a wake meets every limit — at maxRounds it is that stop, recorded and announced, with no marker", async (t) => {
  clock(t);
  writeConfig(t, { maxRounds: 1 });
  const h = harness();
  await h.start();
  assert.equal((await h.settleWith())?.continue, true, "round 1");
  h.pi.bus.emit("todo-loop:work", START);
  assert.equal(await h.settleWith(), undefined);
  h.takeNotes();
  h.pi.bus.emit("todo-loop:work", END);
  await tick(t, 5_000);
  assert.equal(h.pi.sent.length, 0);
  assert.deepEqual(h.records("todo-loop:stop").map((record) => (record as { kind?: unknown }).kind), ["limit"]);
  assert.equal(h.takeNotes().length, 1);
});

test("work: with handOff, a wake that meets maxRounds sends the hand-off turn first; its reply ends the run with the limit stop (SPEC §4.24)", async (t) => {
  clock(t);
  writeConfig(t, { maxRounds: 1, handOff: true });
  const h = harness();
  await h.start();
  assert.equal((await h.settleWith())?.continue, true, "round 1");
  h.pi.bus.emit("todo-loop:work", START);
  assert.equal(await h.settleWith(), undefined);
  h.pi.bus.emit("todo-loop:work", END);
  await tick(t, 5_000);
  assert.deepEqual(h.pi.sent.map((sent) => [(sent.message.details as { handOff?: unknown }).handOff, (sent.message.details as { round?: unknown }).round]), [[true, 1]]);
  assert.deepEqual(h.records("todo-loop:stop"), [], "nothing recorded before the hand-off reply");
  h.takeNotes();
  await h.reply({ text: "Done: the plan. Left: both tasks. Next: the parser." });
  assert.deepEqual(h.records("todo-loop:stop").map((record) => (record as { kind?: unknown }).kind), ["limit"]);
  assert.equal(h.pi.sent.length, 1, "no continuation after the hand-off");
  assert.equal(h.takeNotes().length, 1, "announced once");
});

test("work: check-ins at 1×, 2× and 4× checkInMinutes, then the work-timeout stop at the next settle — recorded once, one notify", async (t) => {
  clock(t);
  writeConfig(t, { checkInMinutes: 0.01 });
  const h = await waitingOn();
  const times: number[] = [];
  const began = Date.now();
  h.takeNotes();
  for (const wait of [600, 1_200, 2_400]) {
    await tick(t, wait - 1);
    assert.equal(h.pi.sent.length, times.length, "not before it is due");
    await tick(t, 1);
    assert.equal(h.pi.sent.length, times.length + 1);
    times.push(Date.now() - began);
    if (times.length === 3) break;
    assert.equal(await h.settleWith(), undefined, "the agent checked and settled: waiting again");
    await h.endRun();
    assert.deepEqual(h.records("todo-loop:stop"), [], "nothing recorded while waiting");
  }
  assert.deepEqual(sentWork(h), ["check-in", "check-in", "check-in"]);
  assert.deepEqual(times, [600, 1_800, 4_200]);
  assert.match(String(h.pi.sent[0]?.message.content), /has not reported yet: check on it/);
  assert.deepEqual(h.takeNotes(), [], "no notify while waiting");
  await tick(t, 60_000);
  assert.equal(h.pi.sent.length, 3, "no fourth check-in");
  // The agent's reply to the third check-in is the first settle after it: the loop stops.
  assert.equal(await h.settleWith(), undefined);
  await h.endRun();
  const records = h.records("todo-loop:stop") as Array<{ kind: string; reason: string }>;
  assert.deepEqual(records.map((record) => record.kind), ["work-timeout"]);
  // The minutes count from the settle at which the loop began waiting (64.2 s ago).
  assert.equal(records[0]?.reason, "stopped: background work still running after 1 minute, 2 tasks open; it may need you");
  assert.deepEqual(h.takeNotes().map((note) => note.type), ["warning"]);
  assert.equal(h.footer(), "todo loop stopped: background work · todo 2 of 2 open");
});

test("work: work ending or a list change starts the check-in count again; checkInMinutes 0 sends none", async (t) => {
  clock(t);
  writeConfig(t, { checkInMinutes: 0.01 });
  const h = await waitingOn();
  h.pi.bus.emit("todo-loop:work", { v: 1, id: "other", phase: "start" });
  for (const [index, wait] of [600, 1_200, 2_400].entries()) {
    await tick(t, wait);
    if (index < 2) await h.settleWith();
  }
  assert.equal(h.pi.sent.length, 3);
  assert.deepEqual(h.records("todo-loop:stop"), [], "the reply to the third check-in is not settled yet");
  h.pi.bus.emit("todo-loop:work", { v: 1, id: "other", phase: "end" });
  assert.equal(await h.settleWith(), undefined, "work ended: no timeout, waiting on the rest");
  assert.deepEqual(h.records("todo-loop:stop"), []);
  await tick(t, 600);
  assert.equal(h.pi.sent.length, 4, "the count started again");

  writeConfig(t, { checkInMinutes: 0 });
  const off = await waitingOn();
  await tick(t, 24 * 60 * 60_000);
  assert.equal(off.pi.sent.length, 0);
});

test("work: session shutdown clears the timers — no wake and no check-in after it", async (t) => {
  clock(t);
  writeConfig(t, { checkInMinutes: 0.01 });
  const h = await waitingOn();
  await h.pi.fireSessionShutdown({ type: "session_shutdown", reason: "quit" }, h.ctx);
  h.pi.bus.emit("todo-loop:work", END);
  await tick(t, 60_000);
  assert.equal(h.pi.sent.length, 0);
});

test("work: headless — agent_settled is held until the work ends; a silent end wakes from inside it, a source's end lets its message run", async (t) => {
  clock(t);
  const h = await waitingOn({ mode: "print", hasUI: false });
  let released = false;
  const settled = h.endRun().then(() => void (released = true));
  await tick(t, 60_000);
  assert.equal(released, false, "held while the work runs");
  h.pi.bus.emit("todo-loop:work", END);
  await tick(t, 5_000);
  await settled;
  assert.deepEqual(sentWork(h), ["wake"], "the wake is sent from inside the hold (pi runs it once the handlers return)");

  const processes = harness({ mode: "print", hasUI: false });
  await processes.start();
  processes.pi.bus.emit("processes:started", fixture("aliou-pi-processes", "started").payload);
  assert.equal(await processes.settleWith(), undefined);
  let done = false;
  const held = processes.endRun().then(() => void (done = true));
  await tick(t, 1_000);
  processes.pi.bus.emit("processes:ended", fixture("aliou-pi-processes", "ended").payload);
  await tick(t, 4_000);
  assert.equal(done, false, "its result message gets 5 s to be sent");
  await tick(t, 1_000);
  await held;
  assert.equal(processes.pi.sent.length, 0, "no wake: the source's own message runs next");
});

test("work: headless — a check-in due ends the hold with one check-in; the run's maxMinutes ends it with the time-limit stop", async (t) => {
  clock(t);
  writeConfig(t, { checkInMinutes: 0.01 });
  const h = await waitingOn({ mode: "json", hasUI: false });
  const settled = h.endRun();
  await tick(t, 600);
  await settled;
  assert.deepEqual(sentWork(h), ["check-in"]);

  writeConfig(t, { checkInMinutes: 0, maxMinutes: 3 });
  const timed = await waitingOn({ mode: "print", hasUI: false });
  const ending = timed.endRun();
  // The branch's message is a minute old: the limit is two minutes away.
  await tick(t, 2 * 60_000);
  await ending;
  assert.equal(timed.pi.sent.length, 0);
  assert.deepEqual(timed.records("todo-loop:stop").map((record) => (record as { kind?: unknown; limit?: unknown }).limit), ["maxMinutes"]);
});

test("work: the TUI and RPC never hold agent_settled", async (t) => {
  clock(t);
  for (const mode of ["tui", "rpc"] as const) {
    const h = await waitingOn({ mode });
    let released = false;
    await h.endRun().then(() => void (released = true));
    assert.equal(released, true, mode);
  }
});

test("work: after a reload the tracker asks the sources that can answer (pi-processes' list) and waits on what is still live", async (t) => {
  clock(t);
  const h = harness();
  const list = fixture("aliou-pi-processes", "list-reply");
  h.pi.bus.on("processes:request:list", (data) => (data as { reply(list: unknown): void }).reply(list.reply));
  await h.start("reload");
  assert.equal(await h.settleWith(), undefined);
  assert.equal(h.footer(), "todo loop: waiting on 2 background jobs · todo 2 of 2 open");
  const lines = await statusLines(h);
  assert.ok(lines.includes("  dev server (@aliou/pi-processes, under a minute)"), lines.join("\n"));
  assert.ok(lines.includes("  tail -f server.log (@aliou/pi-processes, under a minute)"), lines.join("\n"));
});

test("bad input on the bus: throwing getters, junk and revoked proxies change nothing and never throw into the emitter", async (t) => {
  clock(t);
  const h = harness();
  await h.start();
  const hostile = { get id(): string { throw new Error("boom"); }, phase: "start", v: 1 };
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  for (const channel of ["todo-loop:work", "subagent:async-started", "subagents:created", "pi-code:subagent", "processes:started", "processes:ended"]) {
    for (const payload of [hostile, revoked.proxy, null, 42, "start", [], { v: 1, id: "", phase: "start" }]) {
      assert.doesNotThrow(() => h.pi.bus.emit(channel, payload), channel);
    }
  }
  assert.equal((await h.settleWith())?.continue, true, "no work in flight: the loop continues");
});

test("bad input on the bus: ten thousand start/end pairs keep the tracker bounded and end with nothing in flight; one without an end stays", async (t) => {
  clock(t);
  const h = harness();
  await h.start();
  for (let index = 0; index < 10_000; index++) {
    h.pi.bus.emit("todo-loop:work", { v: 1, id: `job-${index}`, phase: "start" });
    h.pi.bus.emit("todo-loop:work", { v: 1, id: `job-${index}`, phase: "end" });
  }
  for (let index = 0; index < 10_000; index++) h.pi.bus.emit("todo-loop:work", { v: 1, id: `open-${index}`, phase: "start" });
  await flush();
  assert.equal(h.pi.sent.length, 0);
  const lines = await statusLines(h);
  assert.ok(lines.includes(`background work in flight: ${MAX_TRACKED_WORK}`), "at most the tracker's cap");
  assert.equal(lines.filter((line) => line.startsWith("  open-")).length, 10, "ten named, the rest counted");
  // End events of work never started, and the same start twice, change nothing.
  h.pi.bus.emit("todo-loop:work", { v: 1, id: "never", phase: "end" });
  h.pi.bus.emit("todo-loop:work", { v: 1, id: "open-9999", phase: "start" });
  assert.ok((await statusLines(h)).includes(`background work in flight: ${MAX_TRACKED_WORK}`));
});

test("work of another session: a nicobailon run that names another session is not waited on; one naming this session is", async (t) => {
  clock(t);
  const h = harness({ sessionId: "session-here" });
  await h.start();
  const other = fixture("nicobailon-pi-subagents", "async-started-other-session").payload;
  h.pi.bus.emit("subagent:async-started", other);
  assert.equal((await h.settleWith())?.continue, true, "another session's work: the loop continues");
  const mine = { ...(fixture("nicobailon-pi-subagents", "async-started").payload as object), sessionId: "session-here" };
  h.pi.bus.emit("subagent:async-started", mine);
  assert.equal(await h.settleWith(), undefined, "this session's work: waiting");
  // Its process-terminal names no session and ends it.
  h.pi.bus.emit("subagent:process-terminal", fixture("nicobailon-pi-subagents", "process-terminal").payload);
  await tick(t, 5_000);
  assert.deepEqual(sentWork(h), ["wake"]);
});

test("work of another session: work heard before a /new in the same instance belongs to the old session", async (t) => {
  clock(t);
  const h = await waitingOn();
  const next = harness({ pi: h.pi, sessionId: "session-2" });
  const ctx: ContextLike = next.ctx;
  await h.pi.fireSessionStart({ type: "session_start", reason: "new" }, ctx);
  assert.equal((await next.settleWith())?.continue, true, "the new session waits on nothing");
});
