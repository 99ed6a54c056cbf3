// Proves on the real host the bus API (SPEC §4.25): todo-loop:state in order through a run, requests answered once, pause and continue through the bus, another session refused, malformed requests ignored without an extension error.
/**
 * The bus on the real pi host, with another extension on it (stand-ins/bus-client.ts): it logs every
 * `todo-loop:state` and `todo-loop:stop`, and `/e2e-bus <json>` emits a `todo-loop:request` and logs
 * what comes back on `todo-loop:reply:<id>`. A run stops at `maxRounds: 1`; then a status request,
 * a pause, malformed requests, one for another session, an unknown op, and a continue that starts one
 * run which stops at the limit again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { controlData, extensionArgs, markerDetails, PLAN_TWO, say, SCENARIO_TIMEOUT_MS, stopData, withRpc } from "./harness.ts";
import type { ScriptStep } from "./harness.ts";
import { BUS_CLIENT } from "./stand-ins/paths.ts";

interface Line {
  channel: string;
  id?: string;
  data: Record<string, unknown>;
}

function lines(path: string): Line[] {
  return existsSync(path) ? readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Line) : [];
}

/** The modes in order, a repeat of the one before left out. */
function modes(log: readonly Line[]): string[] {
  const out: string[] = [];
  for (const line of log) if (line.channel === "state" && out.at(-1) !== line.data.mode) out.push(String(line.data.mode));
  return out;
}

function isSubsequence(wanted: readonly string[], seen: readonly string[]): boolean {
  let at = 0;
  for (const item of seen) if (item === wanted[at]) at++;
  return at === wanted.length;
}

test("bus: state events in order through a run; status answered once; pause and continue through the bus; another session refused; malformed requests ignored", { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-bus-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, "bus.jsonl");
  const script: ScriptStep[] = [PLAN_TWO, say("Plan made."), say("Still going."), say("Went on as asked.")];
  await withRpc(t.signal, { script, config: { maxRounds: 1 }, env: { PI_TODO_LOOP_E2E_BUS: log } }, async (_box, rpc) => {
    const bus = async (request: unknown): Promise<void> => {
      assert.equal(await rpc.prompt(`/e2e-bus ${typeof request === "string" ? request : JSON.stringify(request)}`), "handled");
    };
    await rpc.prompt("Do the work");
    const replies = (id: string) => lines(log).filter((line) => line.channel === "reply" && line.id === id).map((line) => line.data);

    await bus({ v: 1, id: "s1", op: "status" });
    const [status] = replies("s1");
    assert.equal(replies("s1").length, 1, "answered once");
    const state = status?.state as Record<string, unknown>;
    assert.equal(status?.ok, true);
    assert.equal(typeof state.session, "string");
    assert.deepEqual({ ...state, session: "" }, { v: 1, session: "", mode: "stopped", open: 2, total: 2, continuations: 1, limit: 1, last: "limit" });

    await bus({ v: 1, id: "p1", op: "pause" });
    assert.deepEqual(replies("p1").map((reply) => [reply.ok, (reply.state as Record<string, unknown>).mode]), [[true, "paused"]]);

    for (const malformed of ["junk", { v: 2, id: "m1", op: "status" }, { v: 1, op: "status" }, { v: 1, id: 7, op: "status" }]) await bus(malformed);
    assert.deepEqual(replies("m1"), [], "a malformed request gets no reply");
    await bus({ v: 1, id: "x1", op: "explode" });
    assert.deepEqual(replies("x1").map((reply) => reply.ok), [false]);
    await bus({ v: 1, id: "o1", op: "resume", session: "someone-else" });
    const [other] = replies("o1");
    assert.equal(other?.ok, false);
    assert.match(String(other?.error), /another session/);

    await bus({ v: 1, id: "c1", op: "continue", session: state.session });
    await rpc.waitSettled();
    assert.deepEqual(replies("c1").map((reply) => reply.ok), [true]);

    const entries = await rpc.getEntries();
    assert.deepEqual(controlData(entries).map((control) => control.action), ["pause", "continue"], "recorded like the /todoloop words; the refused resume records nothing");
    const details = markerDetails(entries) as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(details.map((marker) => [marker.round, marker.by ?? "nudge"]), [[1, "nudge"], [2, "continue"]]);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["limit", "limit"]);
    assert.ok(rpc.notifies.some((note) => note.message === "todo loop: paused by user"), "the pause shows the /todoloop line");

    const seen = modes(lines(log));
    t.diagnostic(`state modes: ${seen.join(" → ")}; replies: ${JSON.stringify(lines(log).filter((line) => line.channel === "reply").map((line) => [line.id, line.data.ok, line.data.ok ? (line.data.state as Record<string, unknown>).mode : line.data.error]))}; controls ${JSON.stringify(controlData(entries).map((control) => control.action))}; markers ${JSON.stringify(details.map((marker) => [marker.round, marker.by ?? "nudge"]))}`);
    assert.ok(isSubsequence(["idle", "running", "stopped", "paused", "running", "stopped"], seen), `state modes in order: ${seen.join(" → ")}`);
    assert.equal(rpc.notifies.filter((note) => note.notifyType === "error").length, 0, "no extension error");
    assert.doesNotMatch(rpc.stderr(), /Event handler error|todo-loop:request/);
  }, { extensions: extensionArgs([BUS_CLIENT]) });
});
