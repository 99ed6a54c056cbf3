/**
 * The `context` hook (SPEC §5): keep role alternation and never leave a marker next to a human turn;
 * touch nothing otherwise, so an unchanged request stays byte-identical for prompt caches.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import { filterMarkers, USER_ROLES } from "../../src/loop.ts";
import { assistantMessage, markerMessage, roleMessage, userMessage } from "../builders.ts";
import type { Message } from "../builders.ts";
import { createContext, createFakePi, createSession, isolatedDirs } from "../fake-pi.ts";
import type { ContextHandler, FakeContext } from "../fake-pi.ts";

const { agentDir, cwd } = isolatedDirs("todo-loop-context-");

const HUMAN_ROLES = ["user", "custom", "bashExecution", "branchSummary", "compactionSummary"] as const;

function roles(messages: readonly unknown[]): string[] {
  return messages.map((message) => {
    const value = message as Message;
    return value.customType === "todo-loop:continue" ? "marker" : value.role;
  });
}

function load(): { handler: ContextHandler; ctx: FakeContext } {
  const pi = createFakePi();
  todoLoop(pi, ioOf(pi));
  const handler = pi.contextHandlers[0];
  assert.ok(handler, "a context handler is registered");
  assert.equal(pi.contextHandlers.length, 1);
  return { handler, ctx: createContext({ session: createSession(), cwd }) };
}

function withFile(path: string, body: () => Promise<void>): Promise<void> {
  writeFileSync(path, "");
  return body().finally(() => rmSync(path, { force: true }));
}

// ---- filterMarkers --------------------------------------------------------------------------------

test("filterMarkers: a marker at the tail is kept (it is the instruction the continuation carries)", () => {
  const messages = [userMessage(), assistantMessage(), markerMessage()];
  assert.equal(filterMarkers(messages), messages);
});

for (const role of HUMAN_ROLES) {
  test(`filterMarkers: a marker right before a ${role} message is dropped (it becomes a user message)`, () => {
    const next = role === "user" ? userMessage("stop, do something else") : roleMessage(role);
    const messages = [userMessage(), assistantMessage(), markerMessage(), next];
    assert.deepEqual(roles(filterMarkers(messages)), ["user", "assistant", role]);
  });
}

test("filterMarkers: every role that becomes a user message in the request is treated as one", () => {
  assert.deepEqual([...USER_ROLES].sort(), [...HUMAN_ROLES].sort());
});

test("filterMarkers: a marker between two assistant messages is kept (no assistant → assistant)", () => {
  const messages = [userMessage(), assistantMessage(), markerMessage(), assistantMessage("More work.")];
  assert.equal(filterMarkers(messages), messages);
});

test("filterMarkers: a marker before a toolResult is kept", () => {
  const messages = [userMessage(), assistantMessage(), markerMessage(), roleMessage("toolResult")];
  assert.equal(filterMarkers(messages), messages);
});

test("filterMarkers: of two adjacent markers the earlier is dropped", () => {
  const messages = [userMessage(), assistantMessage(), markerMessage(1), markerMessage(2)];
  const kept = filterMarkers(messages);
  assert.deepEqual(roles(kept), ["user", "assistant", "marker"]);
  assert.equal(kept[2], messages[3]);
});

test("filterMarkers: a long history keeps every marker that sits between assistants and drops the one before the queued message", () => {
  const messages = [
    userMessage(),
    assistantMessage(),
    markerMessage(1),
    assistantMessage(),
    markerMessage(2),
    assistantMessage(),
    markerMessage(3),
    userMessage("queued"),
    assistantMessage(),
  ];
  assert.deepEqual(roles(filterMarkers(messages)), ["user", "assistant", "marker", "assistant", "marker", "assistant", "user", "assistant"]);
});

test("filterMarkers: only markers are ever dropped; other messages keep their order and identity", () => {
  const other = roleMessage("custom");
  const messages = [userMessage(), other, userMessage(), assistantMessage(), markerMessage(), userMessage()];
  const kept = filterMarkers(messages);
  assert.deepEqual(roles(kept), ["user", "custom", "user", "assistant", "user"]);
  assert.equal(kept[1], other);
});

test("filterMarkers: a message of another role with our customType is not a marker", () => {
  const lookalike: Message = { role: "assistant", customType: "todo-loop:continue", content: "x" };
  const messages = [userMessage(), lookalike, userMessage()];
  assert.equal(filterMarkers(messages), messages);
});

test("filterMarkers: markers from old sessions (any details, or none) filter the same way", () => {
  const old: Message = { role: "custom", customType: "todo-loop:continue", content: "Continue.", display: false };
  assert.deepEqual(roles(filterMarkers([userMessage(), assistantMessage(), old, userMessage()])), ["user", "assistant", "user"]);
});

test("filterMarkers: junk messages pass through untouched", () => {
  const messages: unknown[] = [null, 3, "x", { role: 5 }, markerMessage(), null];
  assert.equal(filterMarkers(messages), messages);
});

test("filterMarkers: an empty list is returned as it is", () => {
  const messages: unknown[] = [];
  assert.equal(filterMarkers(messages), messages);
});

// ---- the registered handler -----------------------------------------------------------------------

test("context hook: returns undefined when nothing was dropped, so the request stays byte-identical", async () => {
  const { handler, ctx } = load();
  for (const messages of [[], [userMessage(), assistantMessage(), markerMessage()], [userMessage(), assistantMessage(), markerMessage(), assistantMessage()]]) {
    assert.equal(await handler({ type: "context", messages }, ctx), undefined);
  }
});

test("context hook: returns the same content minus the dropped marker, leaving the input untouched", async () => {
  const { handler, ctx } = load();
  const messages = [userMessage(), assistantMessage(), markerMessage(), userMessage("queued")];
  const copy = structuredClone(messages);
  const result = await handler({ type: "context", messages }, ctx);
  assert.ok(result);
  assert.deepEqual(result.messages, [messages[0], messages[1], messages[3]]);
  assert.equal(result.messages[0], messages[0], "the same message objects, nothing rewritten");
  assert.deepEqual(messages, copy, "the event's array is not mutated");
});

test("context hook: never adds anything to the request", async () => {
  const { handler, ctx } = load();
  const messages = [userMessage(), assistantMessage(), markerMessage(1), markerMessage(2), userMessage("queued")];
  const result = await handler({ type: "context", messages }, ctx);
  assert.ok(result);
  assert.equal(result.messages.length, 3);
  for (const message of result.messages) assert.ok(messages.includes(message as Message));
});

test("context hook: messages that are not an array → undefined", async () => {
  const { handler, ctx } = load();
  for (const messages of [undefined, null, "messages", 5, { 0: markerMessage(), length: 1 }]) {
    assert.equal(await handler({ type: "context", messages }, ctx), undefined);
  }
});

test("context hook: a malformed event → undefined, never a throw", async () => {
  const { handler, ctx } = load();
  assert.equal(await handler({}, ctx), undefined);
  assert.equal(await handler({ type: "context" }, ctx), undefined);
});

test("context hook: kill switch in the agent dir → undefined, even with a marker before a human message", async () => {
  const { handler, ctx } = load();
  const messages = [userMessage(), assistantMessage(), markerMessage(), userMessage("queued")];
  await withFile(join(agentDir, "todo-loop-off"), async () => {
    assert.equal(await handler({ type: "context", messages }, ctx), undefined);
  });
  assert.ok(await handler({ type: "context", messages }, ctx), "removing the file takes effect on the next request");
});

test("context hook: kill switch in <cwd>/.pi → undefined, even with a marker before a human message", async () => {
  const { handler, ctx } = load();
  const messages = [userMessage(), assistantMessage(), markerMessage(), userMessage("queued")];
  await withFile(join(cwd, ".pi", "todo-loop-off"), async () => {
    assert.equal(await handler({ type: "context", messages }, ctx), undefined);
  });
});
