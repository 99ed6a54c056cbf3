/**
 * The guards every todo-source adapter shares (src/sources/types.ts): what is a record, a successful
 * result, a custom entry's data, an id, and a list of items where one malformed item rejects the whole.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { customData, idText, readItems, successfulResult, successfulToolResult } from "../../src/sources/types.ts";
import { isRecord } from "../../src/core/record.ts";
import { toolResult, toolResultMessage } from "../builders.ts";

// ---- shared guards --------------------------------------------------------------------------------

test("isRecord: plain objects only (not null, arrays or primitives)", () => {
  assert.equal(isRecord({}), true);
  assert.equal(isRecord({ a: 1 }), true);
  for (const value of [null, undefined, [], [1], "x", 1, true]) assert.equal(isRecord(value), false);
});

test("successfulResult: errored calls, rejected calls and junk are never state", () => {
  assert.deepEqual(successfulResult({ toolName: "todo", details: { a: 1 } }), { toolName: "todo", details: { a: 1 } });
  assert.equal(successfulResult({ toolName: "todo", details: { a: 1 }, isError: true }), undefined);
  assert.equal(successfulResult({ toolName: "todo", details: { error: "#9 not found" } }), undefined);
  assert.equal(successfulResult({ toolName: "todo", details: { success: false } }), undefined);
  assert.equal(successfulResult({ toolName: 5, details: {} }), undefined);
  assert.equal(successfulResult({ toolName: "todo", details: [] }), undefined);
  assert.equal(successfulResult({ toolName: "todo" }), undefined);
});

test("successfulResult: an absent, null or false error field is not an error", () => {
  assert.ok(successfulResult({ toolName: "todo", details: { error: null } }));
  assert.ok(successfulResult({ toolName: "todo", details: { error: false } }));
  assert.ok(successfulResult({ toolName: "todo", details: { success: true } }));
});

test("successfulToolResult: only a message entry whose message is a tool result", () => {
  assert.ok(successfulToolResult(toolResult("todo", { a: 1 })));
  assert.equal(successfulToolResult({ type: "custom", message: toolResultMessage("todo", { a: 1 }) }), undefined);
  assert.equal(successfulToolResult({ type: "message", message: { role: "assistant", toolName: "todo", details: {} } }), undefined);
  assert.equal(successfulToolResult({ type: "message", message: null }), undefined);
});

test("customData: the data of a custom entry of the given type only", () => {
  assert.deepEqual(customData({ type: "custom", customType: "x", data: 1 }, "x"), { data: 1 });
  assert.deepEqual(customData({ type: "custom", customType: "x" }, "x"), { data: undefined });
  assert.equal(customData({ type: "custom", customType: "y", data: 1 }, "x"), undefined);
  assert.equal(customData({ type: "custom_message", customType: "x", data: 1 }, "x"), undefined);
});

test("idText: strings and finite numbers become ids; anything else is no id", () => {
  assert.equal(idText("a1"), "a1");
  assert.equal(idText(7), "7");
  for (const value of [Number.NaN, Infinity, null, undefined, {}, true]) assert.equal(idText(value), undefined);
});

test("readItems: one malformed item rejects the whole list; null drops an item (a tombstone)", () => {
  const read = (item: unknown) => (item === "drop" ? null : typeof item === "number" ? item : undefined);
  assert.deepEqual(readItems([1, "drop", 2], read), [1, 2]);
  assert.equal(readItems([1, "bad"], read), undefined);
  assert.equal(readItems("not an array", read), undefined);
  assert.deepEqual(readItems([], read), []);
});
