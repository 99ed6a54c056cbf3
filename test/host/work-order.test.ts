/**
 * Work in flight through the wiring (src/host/work.ts) on the fake pi, 0.5 (SPEC §4.17): an end heard
 * before its start leaves nothing in flight, so the settle continues; a result held until the agent
 * settles (tintinweb's queue) is due at that settle, so the loop sends nothing there, and only there.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { harness, statusLines } from "./wiring.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "work");

function payload(source: string, name: string, patch: Record<string, unknown> = {}): unknown {
  const read = JSON.parse(readFileSync(join(FIXTURES, source, `${name}.json`), "utf8")) as { payload: Record<string, unknown> };
  return { ...read.payload, ...patch };
}

test("work order: an end heard just before its start is work already finished — the settle continues and /todoloop does not wait", async () => {
  const h = harness();
  await h.start();
  h.pi.bus.emit("todo-loop:work", { v: 1, id: "fast-1", phase: "end" });
  h.pi.bus.emit("todo-loop:work", { v: 1, id: "fast-1", phase: "start", label: "quick job" });
  const result = await h.settleWith();
  assert.equal(result?.continue, true, "nothing in flight: the loop continues");
  const lines = await statusLines(h);
  assert.equal(lines.some((line) => line.includes("waiting on background work")), false, lines.join("\n"));
  assert.equal(lines.some((line) => line.startsWith("background work in flight")), false, lines.join("\n"));
});

test("work order: a tintinweb agent that ends while the agent runs — its held result is due at the settle: no continuation, then the next settle continues", async () => {
  const h = harness();
  await h.start();
  h.ctx.idle = false;
  h.pi.bus.emit("subagents:created", payload("tintinweb-pi-subagents", "created", { id: "bg-1" }));
  h.pi.bus.emit("subagents:completed", payload("tintinweb-pi-subagents", "completed", { id: "bg-1" }));
  h.ctx.idle = true;
  assert.equal(await h.settleWith(), undefined, "the held result runs next: the loop sends nothing");
  const lines = await statusLines(h);
  assert.ok(lines.includes("last: not continuing: a queued message runs next"), lines.join("\n"));
  // The result did not come (the agent fetched it itself): the next settle is not held again.
  assert.equal((await h.settleWith())?.continue, true);
});

test("work order: a held result that arrived before the settle is not due; an end heard while idle, or of a source that does not hold, is not either", async () => {
  const arrived = harness();
  await arrived.start();
  arrived.ctx.idle = false;
  arrived.pi.bus.emit("subagents:created", payload("tintinweb-pi-subagents", "created", { id: "bg-1" }));
  arrived.pi.bus.emit("subagents:completed", payload("tintinweb-pi-subagents", "completed", { id: "bg-1" }));
  await arrived.pi.fireMessageStart({ type: "message_start", message: { role: "custom", customType: "subagent-notification", content: "done" } }, arrived.ctx);
  arrived.ctx.idle = true;
  assert.equal((await arrived.settleWith())?.continue, true);

  const idle = harness();
  await idle.start();
  idle.pi.bus.emit("subagents:created", payload("tintinweb-pi-subagents", "created", { id: "bg-1" }));
  idle.pi.bus.emit("subagents:completed", payload("tintinweb-pi-subagents", "completed", { id: "bg-1" }));
  assert.equal((await idle.settleWith())?.continue, true, "ended while idle: its message starts its own run, not at this settle");

  const other = harness();
  await other.start();
  other.ctx.idle = false;
  other.pi.bus.emit("todo-loop:work", { v: 1, id: "job", phase: "start" });
  other.pi.bus.emit("todo-loop:work", { v: 1, id: "job", phase: "end" });
  other.ctx.idle = true;
  assert.equal((await other.settleWith())?.continue, true);
});

test("work order: a tintinweb end heard before its start while the agent runs is a finished job whose held result is due", async () => {
  const h = harness();
  await h.start();
  h.ctx.idle = false;
  h.pi.bus.emit("subagents:completed", payload("tintinweb-pi-subagents", "completed", { id: "bg-2" }));
  h.pi.bus.emit("subagents:created", payload("tintinweb-pi-subagents", "created", { id: "bg-2" }));
  h.ctx.idle = true;
  assert.equal(await h.settleWith(), undefined);
});
