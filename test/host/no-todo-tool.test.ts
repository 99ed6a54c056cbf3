/**
 * The notice at the first interactive start when no todo tool is installed (src/host/no-todo-tool.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import { chain, user } from "../builders.ts";
import { createFakePi } from "../fake-pi.ts";
import { harness } from "./wiring.ts";

test("no todo tool: at the first interactive start one info notify says the loop has nothing to read and how to install one", async () => {
  const pi = createFakePi({ activeTools: ["read", "bash"] });
  todoLoop(pi, ioOf(pi));
  const h = harness({ pi, mode: "tui", branch: chain(user("hi", { id: "u1" })) });
  await h.start("startup");
  const notes = h.takeNotes();
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.equal(notes[0]?.type, "info");
  assert.match(notes[0]?.message ?? "", /nothing to read/);
  assert.match(notes[0]?.message ?? "", /pi install npm:@juicesharp\/rpiv-todo/);
  for (const reason of ["reload", "new", "resume", "fork", "startup"]) await h.start(reason);
  assert.deepEqual(h.takeNotes(), [], "never again in this process: not on /reload, /new, a resume or a fork");
});

test("no todo tool: no notice with a known todo tool registered, nor in RPC, print or JSON mode", async () => {
  const withTool = harness({ mode: "tui" });
  await withTool.start("startup");
  assert.deepEqual(withTool.takeNotes(), []);
  for (const mode of ["rpc", "print", "json"] as const) {
    const pi = createFakePi({ activeTools: ["read", "bash"] });
    todoLoop(pi, ioOf(pi));
    const h = harness({ pi, mode, hasUI: mode === "rpc", branch: chain(user("hi", { id: "u1" })) });
    await h.start("startup");
    assert.deepEqual(h.takeNotes(), [], mode);
  }
});

test("no todo tool: a registered but inactive todo tool counts as installed (no notice)", async () => {
  const pi = createFakePi({ activeTools: ["read", "bash"] });
  pi.allTools = [...pi.allTools, { name: "todo", exposure: "direct" }];
  todoLoop(pi, ioOf(pi));
  const h = harness({ pi, mode: "tui", branch: chain(user("hi", { id: "u1" })) });
  await h.start("startup");
  assert.deepEqual(h.takeNotes(), []);
});
