/**
 * The person's words (SPEC §4.15, §4.16, §7, 0.4): a message that only says go on carries the list over
 * in every language §4.8 covers, and nothing else does; a question after a failed verification is a wait,
 * not another run; `/todoloop continue` while the agent is busy mid-run lifts pause and wait only, while
 * one that arrives as a run winds down is kept for its end — so two in a row start one run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { goesOn, messageText } from "../../src/core/go-on.ts";
import { readSnapshot } from "../../src/state.ts";
import { applyCommand, freshMemory, honourKept } from "../../src/loop.ts";
import type { CommandFacts } from "../../src/loop.ts";
import { planVerify } from "../../src/core/verify.ts";
import type { VerifyChoice } from "../../src/core/verify.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import type { ListState, Memory } from "../../src/core/types.ts";
import { describeReason } from "../../src/core/text.ts";
import { assistant, chain, task, todoResult, user } from "../builders.ts";

const GO_ON: Record<string, readonly string[]> = {
  English: ["continue", "Continue.", "keep going!", "Go on", "carry on please", "ok, proceed", "next", "do the rest", "yes, continue", "go ahead 🚀"],
  Chinese: ["继续", "请继续", "继续吧", "下一个", "接着做", "做完剩下的"],
  Japanese: ["続けて", "続けてください", "はい、続けて", "次へ", "進めてください", "残りもやって"],
  Russian: ["продолжай", "Давай дальше", "Дальше!", "следующий", "делай остальное"],
  Spanish: ["continúa", "sigue, por favor", "adelante", "haz el resto", "siguiente"],
  German: ["weiter", "mach weiter", "Bitte weitermachen", "nächste", "mach den Rest"],
  French: ["continuez", "vas-y", "la suite svp", "fais le reste", "on continue"],
};

const NOT_GO_ON: readonly string[] = [
  "what does this function do?",
  "continue with the docs instead",
  "don't continue",
  "next time ask me first",
  "nextjs",
  "次の関数を説明して",
  "继续解释一下这个函数",
  "продолжай, но сначала объясни ошибку",
  "sigue con la documentación",
  "weiter unten steht ein Fehler",
  "continue à expliquer le code",
  "stop",
  "yes",
  "ok thanks",
  "proceed only after the tests pass",
  "",
];

test("go-on words: a short message of them carries the list over, in English, Chinese, Japanese, Russian, Spanish, German and French", () => {
  for (const [language, messages] of Object.entries(GO_ON)) {
    for (const message of messages) assert.equal(goesOn(message), true, `${language}: ${message}`);
  }
});

test("go-on words: a question, a new instruction, filler alone or a go-on word inside a longer request is not", () => {
  for (const message of NOT_GO_ON) assert.equal(goesOn(message), false, message);
  assert.equal(goesOn(`${"continue ".repeat(11)}`), false, "past ten words it is no short message");
  assert.equal(goesOn(undefined), false);
  assert.equal(messageText([{ type: "text", text: "keep" }, { type: "image" }, { type: "text", text: "going" }]), "keep\ngoing");
  assert.equal(goesOn(messageText([{ type: "text", text: "keep" }, { type: "text", text: "going" }])), true);
});

/** A list of two open tasks left by an earlier message, the agent stopped, then `text` from the person. */
function afterStop(text: string): ReturnType<typeof readSnapshot> {
  const open = [task({ id: 1, subject: "A", status: "pending" }), task({ id: 2, subject: "B", status: "pending" })];
  return readSnapshot(chain(user("Plan it", { id: "u1" }), todoResult({ action: "create", tasks: open }), assistant({ text: "Done for now." }), user(text, { id: "u2" })));
}

test("reader: 'continue' typed after a stop carries the earlier list over; an unrelated message does not", () => {
  for (const text of ["continue", "keep going", "继续", "weiter"]) {
    const snapshot = afterStop(text);
    assert.equal(snapshot.earlierOpen, true, text);
    assert.equal(snapshot.earlierCarried, true, text);
  }
  const unrelated = afterStop("what does this function do?");
  assert.equal(unrelated.earlierOpen, true);
  assert.equal(unrelated.earlierCarried, false);
});

const RUN: VerifyChoice = { kind: "run", spec: { command: "npm test", timeoutMinutes: 10, maxRuns: 3, source: "user" } };

function clearPending(overrides: Partial<Memory> = {}): Memory {
  return { ...freshMemory("u1"), hadWork: true, pending: { reason: { kind: "clear" }, open: 0, level: "info" }, ...overrides };
}

test("verification: a reply that asks the person something, after a failed run, is a wait — no run, no output pushed again", () => {
  const failed: Memory = clearPending({ verify: { command: "npm test", runs: 1, exit: 1, seconds: 3, output: "```text\nred\n```", workAt: 4 } });
  assert.equal(planVerify(failed, RUN, false, 4).kind, "again", "without a question the failure counts again (0.3)");
  const plan = planVerify(failed, RUN, false, 4, "Should I skip the flaky test?");
  assert.equal(plan.kind, "decided");
  if (plan.kind !== "decided") return;
  assert.deepEqual(plan.memory.waiting, { reason: "Should I skip the flaky test?", asked: true });
  assert.equal(plan.memory.pending?.reason.kind, "waiting");
  assert.equal(describeReason(plan.memory.last), 'waiting for you: the agent asked: "Should I skip the flaky test?"');
  assert.equal(planVerify(clearPending(), RUN, false, 4, "Anything else?").kind, "decided", "before any run too: never a run at a settle that waits");
  assert.equal(planVerify(clearPending(), { kind: "none" }, false, 4, "Anything else?").kind, "none", "no verification configured: the clear stop as before");
});

const LIST: ListState = { kind: "list", open: 2, total: 2, signature: "s", source: "rpiv-todo", tool: "todo" };
const FACTS: CommandFacts = { list: LIST, limits: DEFAULT_CONFIG, idle: true, killSwitch: false };

test("/todoloop continue twice in a row: the first starts a run, the second — the agent busy in that run — lifts pause and wait only: one run", () => {
  // After a stop the last settle ended the run (ending); the first continue's run is not ending any more.
  const first = applyCommand({ ...freshMemory("u1"), round: 2, ending: true }, "continue", FACTS);
  assert.ok(first.marker, "the first starts a run");
  const second = applyCommand(first.memory, "continue", { ...FACTS, idle: false });
  assert.equal(second.marker, undefined);
  assert.equal(second.memory.kept, undefined, "nothing kept for later");
  assert.deepEqual(second.reply, { kind: "requested", started: false, kept: false });
  assert.equal(describeReason(second.reply), "the agent is busy: pause and wait are lifted, and the loop goes on as usual when it next stops");
  assert.equal(honourKept(second.memory, FACTS, false), undefined, "so pi's settle starts nothing more");
});

test("/todoloop continue while a run winds down (its stop decided, pi not settled) is kept and honoured once", () => {
  const winding: Memory = { ...freshMemory("u1"), round: 3, pending: { reason: { kind: "idle", replies: 3, open: 2 }, open: 2, level: "warning" } };
  const kept = applyCommand(winding, "continue", { ...FACTS, idle: false });
  assert.equal(kept.memory.kept, 3);
  const again = applyCommand(kept.memory, "continue", { ...FACTS, idle: false });
  assert.equal(again.memory.kept, 3, "a second one keeps the same consent, not a second");
  const honoured = honourKept(again.memory, FACTS, false);
  assert.ok(honoured?.marker);
  assert.equal(honourKept(honoured.memory, FACTS, false), undefined);
});

test("/todoloop continue as a paused run winds down (its settle did not continue: no stop pending) is kept too", () => {
  const ending: Memory = { ...freshMemory("u1"), round: 1, paused: true, ending: true };
  const kept = applyCommand(ending, "continue", { ...FACTS, idle: false });
  assert.equal(kept.memory.kept, 1);
  assert.equal(kept.memory.paused, false);
  assert.ok(honourKept(kept.memory, FACTS, false)?.marker);
});

test("/todoloop continue while busy still lifts a pause and a wait", () => {
  const paused: Memory = { ...freshMemory("u1"), paused: true, waiting: { reason: "Which one?", asked: true } };
  const lifted = applyCommand(paused, "continue", { ...FACTS, idle: false });
  assert.equal(lifted.memory.paused, false);
  assert.equal(lifted.memory.waiting, undefined);
  assert.equal(lifted.record, true, "recorded on the branch like any control");
});
