/**
 * Generated-input tests of the context hook (SPEC §5): never a marker right before a user-role message,
 * nothing else changed or reordered, the same array when nothing is dropped.
 *
 * Each property runs over at least 10,000 seeded cases (the count is in the test name); a failure names
 * its seed and prints its case (see test/gen.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { filterMarkers } from "../../src/loop.ts";
import { createContext, createSession } from "../fake-pi.ts";
import { forAll, forAllAsync, junk, text } from "../gen.ts";
import type { Random, RawEntry } from "../gen.ts";
import { dirs, load } from "./handlers.ts";
import { CASES, MARKER_MESSAGE, role } from "./generators.ts";

// ---- the context hook ----------------------------------------------------------------------------------------

/** SPEC §5: the roles providers receive as user messages. */
const USER_ROLE_NAMES = new Set(["user", "custom", "bashExecution", "branchSummary", "compactionSummary"]);

function isMarker(message: unknown): boolean {
  return role(message) === "custom" && typeof message === "object" && message !== null && Reflect.get(message, "customType") === "todo-loop:continue";
}

function genMessages(rng: Random): unknown[] {
  return Array.from({ length: rng.int(0, 14) }, () => {
    const roll = rng.next();
    if (roll < 0.3) return { ...MARKER_MESSAGE, display: rng.chance(0.5), details: { v: 1, round: rng.int(1, 9) } };
    if (roll < 0.5) return { role: "assistant", content: [{ type: "text", text: text(rng, 4, 0) }] };
    if (roll < 0.62) return { role: "user", content: text(rng, 4, 0) };
    if (roll < 0.72) return { role: "toolResult", toolName: "bash", content: [] };
    if (roll < 0.9) return { role: rng.pick(["custom", "bashExecution", "branchSummary", "compactionSummary"]), customType: "other:note", content: "x" };
    return rng.chance(0.5) ? { role: "custom", customType: junk(rng, 0) } : junk(rng, 1);
  });
}

test(`context hook: never leaves a marker right before a user-role message (${CASES} cases)`, (t) => {
  const count = forAll("context-no-marker-before-user", CASES, genMessages, (messages) => {
    const kept = filterMarkers(messages);
    kept.forEach((message, index) => {
      if (index + 1 < kept.length && isMarker(message)) {
        assert.ok(!USER_ROLE_NAMES.has(String(role(kept[index + 1]))), `marker at ${index} is followed by role ${String(role(kept[index + 1]))}`);
      }
    });
  });
  t.diagnostic(`${count} cases`);
});

test(`context hook: only drops markers followed by a user-role message, never changing or reordering anything else (${CASES} cases)`, (t) => {
  const count = forAll("context-only-drops-markers", CASES, genMessages, (messages) => {
    const kept = filterMarkers(messages);
    const expected = messages.filter((message, index) => !(isMarker(message) && index + 1 < messages.length && USER_ROLE_NAMES.has(String(role(messages[index + 1])))));
    assert.equal(kept.length, expected.length, "exactly the markers before user-role messages are dropped");
    kept.forEach((message, index) => assert.equal(message, expected[index], `message ${index} is the same object, in the same order`));
    assert.deepEqual(messages.filter((message) => !isMarker(message)), kept.filter((message) => !isMarker(message)), "every non-marker survives");
  });
  t.diagnostic(`${count} cases`);
});

test(`context hook: returns the same array when it drops nothing, and the handler then returns undefined (${CASES} cases)`, async (t) => {
  let unchanged = 0;
  const { context } = load();
  const ctx = createContext({ session: createSession<RawEntry>([], "tree-session"), cwd: dirs.cwdClean });
  const count = await forAllAsync("context-same-array", CASES, genMessages, async (messages) => {
    const kept = filterMarkers(messages);
    const result = await context({ type: "context", messages }, ctx);
    if (kept.length === messages.length) {
      unchanged += 1;
      assert.equal(kept, messages, "the same array, not a copy");
      assert.equal(result, undefined, "the handler leaves the request untouched");
    } else {
      assert.ok(result, "the handler returns the filtered messages");
      assert.deepEqual(result.messages, [...kept]);
      assert.notEqual(result.messages, messages, "the event's array is not edited in place");
    }
  });
  t.diagnostic(`${count} cases, ${unchanged} unchanged`);
  assert.ok(unchanged > count / 10 && unchanged < count, "the generator reaches both outcomes");
});
