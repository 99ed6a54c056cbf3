/**
 * The sentences addressed to the model and the person's first reading of a session (SPEC §4.10 nudge,
 * §4.16 re-read nudge, §4.21 resume, §7 the no-todo-tool notice), pinned word for word: the rest of the
 * suite asserts kinds, these files assert English (text-stops.test.ts, text-status.test.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { NO_TODO_TOOL_TEXT, nudgeText, rereadNudgeText, resumeNotice, resumeQuestion, resumeSituation, verifyingFooter } from "../../src/core/text.ts";

const TOOLS = ["todo", "todo_write", "todowrite", "TaskUpdate", undefined];

test("nudge: a small fixed set of sentences (one per tool phrase and hint)", () => {
  const all = new Set(TOOLS.flatMap((tool) => [nudgeText(tool, false), nudgeText(tool, true)]));
  assert.equal(all.size, 10);
  assert.equal(nudgeText("some_unknown_tool", false), nudgeText("todo", false), "an unknown tool name falls back to the generic phrase");
});

test("nudge: exact English of the plain and the hint variant", () => {
  assert.equal(
    nudgeText("todo", false),
    "Continue with the open tasks on your todo list. Use the todo tool to read the list and to update each task as you finish it. If your last reply asked the user something or needs them to act, call todo_loop_block with that question instead of continuing. The user's latest instruction outranks this reminder.",
  );
  assert.equal(
    nudgeText("todo", true),
    "Continue with the open tasks on your todo list. Use the todo tool to read the list and to update each task as you finish it. If you cannot go on without a person, call todo_loop_block with the reason instead of stopping. The user's latest instruction outranks this reminder.",
  );
});

test("nudge: names the todo tool of the source that wrote the list", () => {
  assert.match(nudgeText("todo", false), /Use the todo tool /);
  assert.match(nudgeText("todo_write", false), /Use the todo_read and todo_write tools /);
  assert.match(nudgeText("todowrite", false), /Use the todoread and todowrite tools /);
  assert.match(nudgeText("TaskUpdate", false), /Use the TaskList and TaskUpdate tools /);
});

test("nudge: a source with no tool (plan-mode) names the [DONE:n] convention instead", () => {
  assert.equal(
    nudgeText(undefined, false),
    "Continue with the open steps of the plan. Mark each step as you finish it by writing [DONE:n] in your reply, where n is the step number. If your last reply asked the user something or needs them to act, call todo_loop_block with that question instead of continuing. The user's latest instruction outranks this reminder.",
  );
});

test("nudge: no counters (no digits) and the concession to the human comes last", () => {
  for (const tool of TOOLS) {
    for (const hint of [false, true]) {
      const text = nudgeText(tool, hint);
      assert.doesNotMatch(text, /\d/);
      assert.ok(text.endsWith("The user's latest instruction outranks this reminder."), text);
    }
  }
});

test("nudge: every standard nudge offers todo_loop_block for a question or a request to act; the hint keeps its own offer", () => {
  const offer = "If your last reply asked the user something or needs them to act, call todo_loop_block with that question instead of continuing.";
  for (const tool of TOOLS) {
    const standard = nudgeText(tool, false);
    assert.equal(standard.split(offer).length, 2, `the standard nudge holds the offer once: ${standard}`);
    assert.ok(standard.endsWith(`${offer} The user's latest instruction outranks this reminder.`), standard);
    const hint = nudgeText(tool, true);
    assert.ok(!hint.includes(offer), `the hint keeps its wording: ${hint}`);
    assert.match(hint, / If you cannot go on without a person, call todo_loop_block with the reason instead of stopping\. /);
  }
});

test("the no-todo-tool notice says the loop has nothing to read and how to install a supported todo tool", () => {
  assert.match(NO_TODO_TOOL_TEXT, /^todo loop: no todo tool is installed, so the loop has nothing to read/);
  assert.ok(NO_TODO_TOOL_TEXT.includes("pi install npm:@juicesharp/rpiv-todo"));
});

test("verifyingFooter names the command; rereadNudgeText asks to read the list with the tool first", () => {
  assert.equal(verifyingFooter("npm test"), "todo loop: verifying · npm test");
  assert.equal(verifyingFooter("\u001b[31m"), "todo loop: verifying · the verification command");
  const text = rereadNudgeText("todo");
  assert.match(text, /^Continue with the open tasks on your todo list\. /);
  assert.match(text, /first use the todo tool to read the list, then update each task as you finish it\./);
  assert.match(text, /The user's latest instruction outranks this reminder\.$/);
  assert.match(rereadNudgeText("todo_write"), /first use the todo_read and todo_write tools to read the list/);
});

test("a resumed session's question and notice say how the last run ended and how many tasks are open", () => {
  assert.equal(resumeSituation({ cause: "died", open: 1, total: 1 }), "The last run stopped with 1 of 1 task open when pi exited.");
  assert.equal(resumeSituation({ cause: "limit-passed", open: 3, total: 4 }), "The last run was waiting for the usage limit with 3 of 4 tasks open when pi exited; its time has passed.");
  assert.equal(resumeQuestion({ cause: "died", open: 2, total: 5 }), "The last run stopped with 2 of 5 tasks open when pi exited. Continue now?");
  assert.equal(
    resumeNotice({ cause: "limit-passed", open: 3, total: 4 }),
    "todo loop: the last run was waiting for the usage limit with 3 of 4 tasks open when pi exited; its time has passed. /todoloop continue picks it up.",
  );
});
