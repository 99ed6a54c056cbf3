/**
 * The branch reader's facts about tasks from an earlier message (src/state.ts, SPEC §4.15): open as the
 * message arrived, carried over, adopted, and the earlier stop's list state.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBranchReader, RESTART_TYPE } from "../../src/state.ts";
import { assistant, blockResult, chain, control, customEntry, customMessage, marker, nestedCallsResult, rpivState, stopRecord, task, todoResult, toolResult, user } from "../builders.ts";
import { createSession } from "../fake-pi.ts";
import { earlierOf } from "./branches.ts";

// ---- §4.15 tasks from an earlier message ---------------------------------------------------------------------

const EARLIER_LIST = [task({ id: 1, subject: "Write tests" }), task({ id: 2, subject: "Ship it" })];

test("reader: §4.15 a message after an earlier message's open tasks: open as it arrived, not carried, not adopted", () => {
  const facts = earlierOf(chain(user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant({ text: "Done for now." }), user("what does parseArgs do?", { id: "u2" }), assistant({ text: "It parses." })));
  assert.deepEqual(facts, { earlierOpen: true, earlierCarried: false, earlierAdopted: false, earlierShown: undefined, previousAnchor: "u1" });
});

test("reader: §4.15 the message that creates the list is never earlier", () => {
  assert.equal(earlierOf(chain(user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant())).earlierOpen, false);
});

test("reader: §4.15 any call of the list's own tool under the message adopts it (a read counts, an error too), another tool's does not", () => {
  const before = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant(), user("go on?", { id: "u2" })];
  assert.equal(earlierOf(chain(...before, todoResult({ tasks: EARLIER_LIST, action: "list" }))).earlierAdopted, true, "a read that carries the list");
  assert.equal(earlierOf(chain(...before, todoResult({ tasks: [], isError: true }))).earlierAdopted, true, "a rejected call is a call of the tool");
  assert.equal(earlierOf(chain(...before, toolResult("read", { path: "README.md" }))).earlierAdopted, false, "pi's read is not the list's tool");
  assert.equal(earlierOf(chain(...before, nestedCallsResult([{ id: "c1", name: "todo" }]))).earlierAdopted, true, "a call of the list's tool from a codemode script");
});

test("reader: §4.15 a readable change of the list under the message adopts it; the same state again does not", () => {
  const before = [user("plan", { id: "u1" }), rpivState(EARLIER_LIST), assistant(), user("and now?", { id: "u2" })];
  assert.equal(earlierOf(chain(...before, rpivState(EARLIER_LIST))).earlierAdopted, false);
  assert.equal(earlierOf(chain(...before, rpivState([task({ id: 1, subject: "Write tests", status: "completed" }), task({ id: 2, subject: "Ship it" })]))).earlierAdopted, true);
});

test("reader: §4.15 /todoloop continue and resume under the message adopt the list; pause and reset do not; a marker does", () => {
  const before = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant(), user("hm", { id: "u2" })];
  assert.equal(earlierOf(chain(...before, control("continue", "u2"))).earlierAdopted, true);
  assert.equal(earlierOf(chain(...before, control("resume", "u2"))).earlierAdopted, true);
  assert.equal(earlierOf(chain(...before, control("pause", "u2"))).earlierAdopted, false);
  assert.equal(earlierOf(chain(...before, control("reset", "u2"))).earlierAdopted, false);
  assert.equal(earlierOf(chain(...before, marker({ round: 1, anchor: "u2" }))).earlierAdopted, true);
  assert.equal(earlierOf(chain(user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), control("continue", "u1"), assistant(), user("hm", { id: "u2" }))).earlierAdopted, false, "a consent under the earlier message is not one for this message");
});

test("reader: §4.15 a message that directly follows a tool result or a marker (steering, a follow-up) carries the list over; one after a reply does not", () => {
  const plan = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST })];
  assert.equal(earlierOf(chain(...plan, user("also handle -v", { id: "u2" }))).earlierCarried, true, "after a tool result");
  assert.equal(earlierOf(chain(...plan, assistant(), marker({ round: 1, anchor: "u1" }), user("also handle -v", { id: "u2" }))).earlierCarried, true, "after a marker");
  assert.equal(earlierOf(chain(...plan, assistant(), marker({ round: 1, anchor: "u1" }), stopRecord({ reason: "x", anchor: "u1", kind: "idle" }), user("hi", { id: "u2" }))).earlierCarried, true, "hidden records in between do not count");
  assert.equal(earlierOf(chain(...plan, assistant(), user("hi", { id: "u2" }))).earlierCarried, false, "after the run ended on a reply");
  assert.equal(earlierOf(chain(...plan, assistant(), marker({ round: 1, anchor: "u1" }), assistant(), user("hi", { id: "u2" }))).earlierCarried, false);
  assert.equal(earlierOf(chain(...plan, assistant(), customMessage("other-extension:note"), user("hi", { id: "u2" }))).earlierCarried, false, "another extension's message is no marker");
});

test("reader: 0.5 §4.21 a restart recorded after the dead run's marker or tool result: the person's first message is not carried over, after a second restart too; go-on words still are", () => {
  const restart = customEntry(RESTART_TYPE, { v: 1 });
  const model = { type: "model_change", provider: "faux", modelId: "faux-1" };
  for (const [what, dead] of [
    ["a marker", [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant(), marker({ round: 1, anchor: "u1" })]],
    ["a tool result", [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST })]],
  ] as const) {
    assert.equal(earlierOf(chain(...dead, user("What time is it?", { id: "u2" }))).earlierCarried, true, `${what} with no restart between: steering, as before`);
    for (const between of [[restart], [restart, model, restart], [model, restart]]) {
      const facts = earlierOf(chain(...dead, ...between, user("What time is it?", { id: "u2" })));
      assert.deepEqual([facts.earlierOpen, facts.earlierCarried, facts.earlierAdopted], [true, false, false], `${what}, then ${between.length} entries`);
      assert.equal(earlierOf(chain(...dead, ...between, user("continue", { id: "u2" }))).earlierCarried, true, "go-on words carry the list over");
    }
  }
});

test("reader: §4.15 a message that answers a wait (a question or a block) carries the list over; a wait lifted first does not", () => {
  const plan = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant({ text: "Postgres or SQLite?" })];
  const question = stopRecord({ reason: 'waiting for you: the agent asked: "Postgres or SQLite?"', anchor: "u1", kind: "question" });
  assert.equal(earlierOf(chain(...plan, question, user("SQLite", { id: "u2" }))).earlierCarried, true, "the question's stop record");
  assert.equal(earlierOf(chain(user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), blockResult("need the key", "u1"), assistant(), user("here it is", { id: "u2" }))).earlierCarried, true, "the block tool's result");
  assert.equal(earlierOf(chain(...plan, question, control("resume", "u1"), user("hi", { id: "u2" }))).earlierCarried, false);
});

test("reader: §4.15 the newest earlier stop keeps its list state across messages, until the list is touched or a marker follows", () => {
  const held = stopRecord({ reason: "not continuing", anchor: "u2", kind: "earlier" });
  const record = { ...held, data: { ...(held.data as Record<string, unknown>), list: "0badc0de" } };
  const base = [user("plan", { id: "u1" }), todoResult({ tasks: EARLIER_LIST }), assistant(), user("hi", { id: "u2" }), assistant(), record];
  assert.equal(earlierOf(chain(...base, user("hello", { id: "u3" }), assistant())).earlierShown, "0badc0de", "a later chat message sees it");
  assert.equal(earlierOf(chain(...base, user("read it", { id: "u3" }), todoResult({ tasks: EARLIER_LIST, action: "list" }))).earlierShown, undefined, "the agent touched the list");
  assert.equal(earlierOf(chain(...base, marker({ round: 1, anchor: "u2" }))).earlierShown, undefined, "the loop went on with it");
  // The incremental reader agrees, reading record by record.
  const session = createSession(chain(...base, user("hello", { id: "u3" })));
  assert.equal(createBranchReader().read(session).snapshot.earlierShown, "0badc0de");
});
