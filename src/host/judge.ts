/**
 * The judge's call (SPEC §4.22): the model named by config `judge`, found in `ctx.modelRegistry` (a
 * classifier, else a chat model), asked one question about the settle's reply with `ctx.signal` and a
 * timeout, never rejecting. Used from the settle's own `turn_end`: `waits` where `decide()` would
 * continue, `handsOver` at a clear stop (§4.23). Each cause of no answer is said once per session; an
 * abort is the person's Escape. The rules — the state, the questions, the answer, the threshold — are
 * `core/judge.ts`.
 */
import {
  asksHandsOver, asksWaits, chatInstruction, classifierAnswer, failureOf, JUDGE_QUESTIONS, judgeAllowed, judgedClear, judgeHolds, judgeName,
  judgeState, lastSentence, markerWithJudge, parseChatAnswer, usageOf,
} from "../core/judge.ts";
import type { JudgeFailure, JudgeState } from "../core/judge.ts";
import type { ContextLike, JsonLike, ModelRegistryLike } from "../core/pi-shapes.ts";
import type { Decision, DecideInput, JudgeQuestion, JudgeUse, Memory } from "../core/types.ts";
import { isRecord } from "../core/record.ts";
import { messageText } from "../core/go-on.ts";
import { judgeProblemText } from "../core/text.ts";
import { decide } from "../loop.ts";
import type { Facts, Runtime, SessionState } from "./runtime.ts";

/** A call's end: an answer (p null: none), a call that could not be made, or the person's Escape. */
type Outcome =
  | { readonly kind: "answered"; readonly use: JudgeUse; readonly failure?: JudgeFailure; readonly detail?: string }
  | { readonly kind: "not-called"; readonly failure: JudgeFailure }
  | { readonly kind: "aborted" };

interface JudgeMemo {
  /** `model\ncause` already said in this session. */
  readonly said: Set<string>;
  /** The last problem line, for `/todoloop`. */
  last: string | undefined;
}

const MEMOS = new WeakMap<SessionState, JudgeMemo>();

function memoOf(session: SessionState): JudgeMemo {
  let memo = MEMOS.get(session);
  if (!memo) {
    memo = { said: new Set(), last: undefined };
    MEMOS.set(session, memo);
  }
  return memo;
}

/** The judge's last problem line in this session, for `/todoloop`. */
export function judgeProblem(session: SessionState): string | undefined {
  return MEMOS.get(session)?.last;
}

/** One problem line per cause per session: a warning notify in UI modes, a stderr line in print and JSON mode. */
function tell(runtime: Runtime, ctx: ContextLike, session: SessionState, model: string, failure: JudgeFailure, detail?: string): void {
  const memo = memoOf(session);
  const line = judgeProblemText(model, failure, detail);
  memo.last = line;
  const key = `${model}\n${failure}`;
  if (memo.said.has(key)) return;
  memo.said.add(key);
  runtime.reach.problemLine(ctx, line);
}

type Timed<T> = { readonly kind: "done"; readonly value: T } | { readonly kind: "timeout" } | { readonly kind: "failed"; readonly error: unknown };

/** Runs `call` with a signal that aborts on the run's abort or the timeout; resolves at the timeout even if the call ignores it. */
async function timed<T>(ctx: ContextLike, seconds: number, call: (signal: AbortSignal) => Promise<T>): Promise<Timed<T>> {
  const timer = new AbortController();
  const signals = ctx.signal ? [ctx.signal, timer.signal] : [timer.signal];
  const signal = AbortSignal.any(signals);
  let handle: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Timed<T>>((resolve) => {
    handle = setTimeout(() => {
      timer.abort();
      resolve({ kind: "timeout" });
    }, seconds * 1000);
  });
  const aborted = new Promise<Timed<T>>((resolve) => {
    if (ctx.signal?.aborted) resolve({ kind: "failed", error: "aborted" });
    ctx.signal?.addEventListener("abort", () => resolve({ kind: "failed", error: "aborted" }), { once: true });
  });
  try {
    const done = call(signal).then(
      (value): Timed<T> => ({ kind: "done", value }),
      (error: unknown): Timed<T> => ({ kind: "failed", error }),
    );
    return await Promise.race([done, deadline, aborted]);
  } finally {
    clearTimeout(handle);
  }
}

/** Asks the configured judge one question about `state`. Never rejects. */
async function ask(ctx: ContextLike, model: string, seconds: number, question: JudgeQuestion, state: JudgeState): Promise<Outcome> {
  const name = judgeName(model);
  const registry: ModelRegistryLike | undefined = ctx.modelRegistry;
  if (!name || !registry) return { kind: "not-called", failure: "not-a-model" };
  let classifier: unknown;
  let chat: unknown;
  try {
    classifier = registry.findOfType?.("classifier", name.provider, name.id);
    chat = classifier === undefined ? registry.find?.(name.provider, name.id) : undefined;
  } catch {
    return { kind: "not-called", failure: "not-a-model" };
  }
  const json = state as unknown as { [key: string]: JsonLike };
  let run: ((signal: AbortSignal) => Promise<unknown>) | undefined;
  if (classifier !== undefined && registry.classify) {
    const { instructions, criteria } = JUDGE_QUESTIONS[question];
    const questions = { [question]: { type: "bool" as const, instructions, criteria: { true: criteria.true, false: criteria.false } } };
    run = (signal) => (registry.classify as NonNullable<ModelRegistryLike["classify"]>).call(registry, classifier as never, { state: json, questions }, { signal });
  } else if (chat !== undefined && registry.complete) {
    const context = { systemPrompt: chatInstruction(question), messages: [{ role: "user" as const, content: JSON.stringify(state), timestamp: Date.now() }] };
    run = (signal) => (registry.complete as NonNullable<ModelRegistryLike["complete"]>).call(registry, chat as never, context, { signal });
  }
  if (!run) return { kind: "not-called", failure: "not-a-model" };
  const result = await timed(ctx, seconds, run);
  if (ctx.signal?.aborted) return { kind: "aborted" };
  const none = (failure: JudgeFailure, usage?: unknown, detail?: string): Outcome => ({
    kind: "answered",
    use: { model, question, p: null, ...usageOf(usage) },
    failure,
    ...(detail === undefined ? {} : { detail }),
  });
  if (result.kind === "timeout") return none("timeout");
  if (result.kind === "failed") return none("error", undefined, result.error instanceof Error ? result.error.message : undefined);
  const value = result.value;
  if (!isRecord(value)) return none("no-answer");
  if (value.stopReason === "aborted") return { kind: "aborted" };
  if (value.stopReason === "error") {
    const detail = typeof value.errorMessage === "string" ? value.errorMessage : undefined;
    return none(failureOf(detail), value.usage, detail);
  }
  const p = classifier !== undefined ? classifierAnswer(value, question) : parseChatAnswer(messageText(value.content));
  if (p === undefined) return none("no-answer", value.usage);
  return { kind: "answered", use: { model, question, p, ...usageOf(value.usage) } };
}

function queuedNow(ctx: ContextLike): boolean {
  try {
    return ctx.hasPendingMessages?.() === true;
  } catch {
    return false;
  }
}

/** The person's newest message, from the branch entry the snapshot names as the anchor. */
function anchorText(ctx: ContextLike, anchor: string): string {
  try {
    const entry = ctx.sessionManager.getEntry?.(anchor);
    const message = isRecord(entry) && isRecord(entry.message) ? entry.message : undefined;
    return message?.role === "user" ? messageText(message.content) : "";
  } catch {
    return "";
  }
}

function stateFor(ctx: ContextLike, facts: Facts, reply: string): JudgeState {
  return judgeState({ message: anchorText(ctx, facts.snapshot.anchor), reply, tasks: facts.snapshot.list?.tasks ?? [] });
}

function allowed(runtime: Runtime, ctx: ContextLike, facts: Facts): boolean {
  return judgeAllowed({ judge: facts.config.judge, child: runtime.conduct(ctx, facts.config) !== "normal", limits: facts.config, spend: facts.spend });
}

/** Asks and reports: a failure's problem line, once per cause. */
async function asked(runtime: Runtime, ctx: ContextLike, facts: Facts, question: JudgeQuestion, reply: string): Promise<Outcome> {
  const model = facts.config.judge ?? "";
  const outcome = await ask(ctx, model, facts.config.judgeTimeoutSeconds, question, stateFor(ctx, facts, reply));
  if (outcome.kind !== "aborted" && outcome.failure) tell(runtime, ctx, facts.session, model, outcome.failure, outcome.kind === "answered" ? outcome.detail : undefined);
  return outcome;
}

/**
 * A settle `decide()` would continue (SPEC §4.22 `waits`): the judge reads the reply; at or above the
 * threshold the decision is `decide()`'s own question stop with the reply's last sentence and the call;
 * below it (or no answer) the continuation keeps the call in its marker; an abort is the aborted-turn stop.
 */
export async function judgeWaits(runtime: Runtime, ctx: ContextLike, facts: Facts, input: DecideInput, decision: Decision, reply: string): Promise<Decision> {
  if (!asksWaits(decision, input.stopOnQuestion) || !decision.marker || !allowed(runtime, ctx, facts)) return decision;
  const outcome = await asked(runtime, ctx, facts, "waits", reply);
  if (outcome.kind === "not-called") return decision;
  if (outcome.kind === "aborted") return decide({ ...input, turn: { ...input.turn, outcome: "aborted" } });
  // A message the person sent while the judge read goes first, as it would have at the settle.
  if (queuedNow(ctx)) return decide({ ...input, pendingMessages: true });
  if (judgeHolds(outcome.use.p, facts.config.judgeThreshold)) {
    return decide({ ...input, turn: { ...input.turn, question: lastSentence(reply) || "…", judge: outcome.use } });
  }
  return { ...decision, marker: markerWithJudge(decision.marker, outcome.use) };
}

/**
 * A clear stop the text rule did not mark (SPEC §4.23, §4.22 `handsOver`): the judge reads the reply and
 * the pending stop keeps the call, handing the testing to the person at or above the threshold. An
 * abort leaves the ordinary aborted turn: no stop.
 */
export async function judgeHandsOver(runtime: Runtime, ctx: ContextLike, facts: Facts, reply: string): Promise<void> {
  const memory: Memory | undefined = facts.session.memory;
  if (!memory || !asksHandsOver(memory.pending) || !memory.pending || !allowed(runtime, ctx, facts)) return;
  const outcome = await asked(runtime, ctx, facts, "handsOver", reply);
  if (outcome.kind === "not-called") return;
  const now = facts.session.memory ?? memory;
  if (outcome.kind === "aborted") {
    runtime.setMemory(ctx, facts, { ...now, pending: undefined, last: { kind: "outcome", outcome: "aborted" } });
    return;
  }
  if (!now.pending) return;
  const pending = judgedClear(now.pending, outcome.use, lastSentence(reply), facts.config.judgeThreshold);
  runtime.setMemory(ctx, facts, { ...now, pending, last: pending.reason });
}
