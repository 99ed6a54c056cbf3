/**
 * Test-only pi extension: two judge models for SPEC §4.22, registered the way a provider extension
 * registers them. `judgefaux/jev` is a classifier (`pi.registerProvider(…, { classifiers })`) answering
 * `bool` questions; `judgechat/chat-1` is a chat model on pi-ai's faux provider answering one line.
 *
 * Every call is appended to PI_TODO_LOOP_JUDGE_LOG as one JSON line — which model, the state or the
 * messages it received, the questions or the system prompt — so a test sees exactly what was sent. The
 * n-th call (counted from that log, so a second session in the process shares the count) follows step n
 * of the JSON array in PI_TODO_LOOP_JUDGE_SCRIPT:
 *   { p?: number, line?: string, error?: string, delayMs?: number, tokens?: number, cost?: number }
 * A classifier step without `p` answers from the state it received: 0.9 when the reply asks to restart,
 * try, test or check something, else 0.1; `tokens` and `cost` are its usage. A chat step answers `line`
 * (default: `p` as the JSON line), with the usage the faux provider reports.
 * `error` is an error result; `delayMs` waits first (an abort ends the wait: an aborted result).
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { fauxAssistantMessage, fauxProvider, fauxText } from "@earendil-works/pi-ai";

interface JudgeStep {
  p?: number;
  line?: string;
  error?: string;
  delayMs?: number;
  tokens?: number;
  cost?: number;
}

interface PiLike {
  registerProvider(name: string, config: unknown): void;
  registerProvider(provider: never): void;
}

const LOG = process.env.PI_TODO_LOOP_JUDGE_LOG;
const SCRIPT = process.env.PI_TODO_LOOP_JUDGE_SCRIPT;

function nextStep(): { index: number; step: JudgeStep } {
  const index = LOG && existsSync(LOG) ? readFileSync(LOG, "utf8").split("\n").filter(Boolean).length : 0;
  const steps: JudgeStep[] = SCRIPT && existsSync(SCRIPT) ? JSON.parse(readFileSync(SCRIPT, "utf8")) : [];
  return { index, step: steps[index] ?? {} };
}

function record(entry: Record<string, unknown>): void {
  if (LOG) appendFileSync(LOG, `${JSON.stringify(entry)}\n`);
}

/** Waits `ms`; true when the signal aborted the wait. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(true);
    const timer = setTimeout(() => done(false), ms);
    function done(aborted: boolean): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(aborted);
    }
    function onAbort(): void {
      done(true);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function usage(step: JudgeStep): Record<string, unknown> {
  const tokens = step.tokens ?? 100;
  const cost = step.cost ?? 0.0001;
  return { input: tokens - 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: tokens, cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } };
}

/** The classifier's own reading of the state: a reply that asks the person to act. */
function fromState(state: unknown): number {
  const reply = typeof state === "object" && state !== null ? (state as { reply?: unknown }).reply : undefined;
  return typeof reply === "string" && /\b(restart|try|test|check)\b/i.test(reply) ? 0.9 : 0.1;
}

export default function judgeProvider(pi: PiLike): void {
  pi.registerProvider("judgefaux", {
    apiKey: "e2e-judge-key",
    baseUrl: "http://127.0.0.1:9/judge",
    models: [
      {
        type: "classifier",
        id: "jev",
        name: "Judge stand-in",
        api: "e2e-judge-classify",
        baseUrl: "http://127.0.0.1:9/judge",
        input: ["text"],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 32_000,
      },
    ],
    classifiers: {
      "e2e-judge-classify": {
        async classify(model: { provider: string; id: string; api: string }, context: { state: unknown; questions: Record<string, unknown> }, options?: { signal?: AbortSignal }) {
          const { index, step } = nextStep();
          record({ call: index, kind: "classify", model: `${model.provider}/${model.id}`, state: context.state, questions: context.questions });
          const base = { api: model.api, provider: model.provider, model: model.id, timestamp: Date.now() };
          if (step.delayMs && (await pause(step.delayMs, options?.signal))) return { ...base, answers: {}, stopReason: "aborted" };
          if (step.error) return { ...base, answers: {}, stopReason: "error", errorMessage: step.error };
          const p = step.p ?? fromState(context.state);
          const answers = Object.fromEntries(Object.keys(context.questions).map((key) => [key, { type: "bool", probability: p }]));
          return { ...base, answers, usage: usage(step), stopReason: "stop" };
        },
      },
    },
  });

  const chat = fauxProvider({ provider: "judgechat", api: "e2e-judge-chat", models: [{ id: "chat-1", name: "Chat judge stand-in", cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }] });
  chat.setResponses(
    Array.from({ length: 40 }, () => async (context: { messages: unknown[] }, options?: { signal?: AbortSignal }) => {
      const { index, step } = nextStep();
      record({ call: index, kind: "chat", model: "judgechat/chat-1", messages: context.messages });
      if (step.delayMs && (await pause(step.delayMs, options?.signal))) return fauxAssistantMessage([fauxText("")], { stopReason: "aborted" });
      if (step.error) return fauxAssistantMessage([fauxText("")], { stopReason: "error", errorMessage: step.error });
      const p = step.p ?? 0.1;
      const line = step.line ?? JSON.stringify({ answer: p >= 0.5, confidence: p >= 0.5 ? p : 1 - p, why: "stand-in" });
      // The faux provider reports the call's usage itself (its own token count at the model's price).
      return fauxAssistantMessage([fauxText(line)], { stopReason: "stop" });
    }),
  );
  pi.registerProvider(chat.provider as never);
}
