/**
 * An older pi gets a sentence, not a crash (SPEC §10): on a host API without `registerEntryRenderer`
 * (pi 0.74) loading does not throw, nothing else is registered, stderr says once per process which pi is
 * needed and how to get it, and the first session start with a UI shows it once as a warning.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import todoLoop from "../../src/index.ts";
import type { PiLike } from "../../src/core/pi-shapes.ts";
import { missingPiApi, REQUIRED_PI_API } from "../../src/core/pi-shapes.ts";
import { olderPiText, SUPPORTED_PI } from "../../src/core/text.ts";
import { forgetOlderPiNotice } from "../../src/host/older-pi.ts";
import { capturedIo } from "../captured-io.ts";
import { createContext, createFakePi, createSession } from "../fake-pi.ts";

type Handler = (event: unknown, ctx: unknown) => Promise<unknown>;

/** pi 0.74's extension API, as far as this extension is concerned: everything but `registerEntryRenderer`. */
function olderPi(): { pi: PiLike; calls: string[]; handlers: Map<string, Handler[]> } {
  const calls: string[] = [];
  const handlers = new Map<string, Handler[]>();
  const record = (name: string) => (...args: unknown[]) => void calls.push(`${name}(${typeof args[0] === "string" ? args[0] : ""})`);
  const pi = {
    on(event: string, handler: Handler) {
      calls.push(`on(${event})`);
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
    },
    registerTool: record("registerTool"),
    registerCommand: record("registerCommand"),
    registerMessageRenderer: record("registerMessageRenderer"),
    sendMessage: record("sendMessage"),
    appendEntry: record("appendEntry"),
    getActiveTools: () => [],
    getAllTools: () => [],
    events: { emit: record("events.emit"), on: record("events.on") },
  };
  return { pi: pi as unknown as PiLike, calls, handlers };
}

test("older pi: missingPiApi names what the host lacks, in order; pi 1.6's API (the fake) lacks nothing", () => {
  assert.deepEqual(missingPiApi(olderPi().pi), ["registerEntryRenderer"]);
  assert.deepEqual(missingPiApi(createFakePi()), []);
  assert.deepEqual(missingPiApi(undefined), [...REQUIRED_PI_API]);
  assert.deepEqual(missingPiApi({ get on() { throw new Error("x"); } }), [...REQUIRED_PI_API]);
});

test("older pi: the sentence names the range the compat matrix tests, Node 22.19 and the install command", () => {
  assert.equal(SUPPORTED_PI, "1.5.2 to 1.6.x");
  assert.equal(
    olderPiText(["registerEntryRenderer"]),
    "pi-todo-loop is off: it needs pi 1.5.2 to 1.6.x (this pi has no pi.registerEntryRenderer). Install Node.js 22.19 or newer, then run: npm install -g @earendil-works/pi-coding-agent",
  );
});

test("older pi: loading does not throw and registers only the session-start notice; stderr and the notify each say it once per process", async (t) => {
  forgetOlderPiNotice();
  t.after(forgetOlderPiNotice);
  const first = olderPi();
  const io = capturedIo();
  assert.doesNotThrow(() => todoLoop(first.pi, io));
  assert.deepEqual(first.calls, ["on(session_start)"], "no tool, command, renderer, bus listener or other handler");
  assert.deepEqual(io.stderr, [olderPiText(["registerEntryRenderer"])]);
  // A second load in the same process (a reload, a second session): no second stderr line.
  const second = olderPi();
  todoLoop(second.pi, io);
  assert.equal(io.stderr.length, 1);
  // Session start without a UI (print mode): no notify; with one: one warning, once.
  const headless = createContext({ session: createSession(), cwd: "/tmp", hasUI: false, mode: "print" });
  await first.handlers.get("session_start")?.[0]?.({ type: "session_start", reason: "startup" }, headless);
  assert.deepEqual(headless.ui.notifications, []);
  const tui = createContext({ session: createSession(), cwd: "/tmp", mode: "tui" });
  await first.handlers.get("session_start")?.[0]?.({ type: "session_start", reason: "startup" }, tui);
  await second.handlers.get("session_start")?.[0]?.({ type: "session_start", reason: "startup" }, tui);
  assert.deepEqual(tui.ui.notifications, [{ message: olderPiText(["registerEntryRenderer"]), type: "warning" }]);
});

test("older pi: a host whose stderr, handler registration or notify throws still loads", async (t) => {
  forgetOlderPiNotice();
  t.after(forgetOlderPiNotice);
  const io = { ...capturedIo(), writeStderr: () => { throw new Error("closed"); } };
  const broken = { ...olderPi().pi, on: () => { throw new Error("no handlers"); } } as unknown as PiLike;
  assert.doesNotThrow(() => todoLoop(broken, io));
  const { pi, handlers } = olderPi();
  todoLoop(pi, capturedIo());
  const ctx = { ...createContext({ session: createSession(), cwd: "/tmp", mode: "tui" }), ui: { notify: () => { throw new Error("gone"); }, setStatus: () => undefined } };
  await assert.doesNotReject(async () => handlers.get("session_start")?.[0]?.({ type: "session_start" }, ctx));
});
