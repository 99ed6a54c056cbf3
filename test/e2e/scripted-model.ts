/**
 * Test-only pi extension: a scripted model on pi-ai's faux provider.
 *
 * The script is a JSON file named by PI_TODO_LOOP_SCRIPT: an array of steps, one per model request.
 * Every request the model receives is appended to PI_TODO_LOOP_REQUESTS as one JSON line, so tests
 * can assert on exactly what reached the provider. When the steps run out the model answers with
 * an error, so a runaway loop ends at once and the test sees an unconsumed-or-overrun script.
 */
import { readFileSync, appendFileSync } from "node:fs";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from "@earendil-works/pi-ai";

interface ScriptedCall { name: string; args: Record<string, unknown> }
export interface ScriptStep {
  text?: string;
  calls?: ScriptedCall[];
  stopReason?: "stop" | "error" | "aborted" | "length";
  errorMessage?: string;
  /** Milliseconds to wait before answering (lets a test queue a follow-up mid-request). */
  delayMs?: number;
}

interface PiLike {
  registerProvider(provider: never): void;
}

export default function scriptedModel(pi: PiLike): void {
  const scriptPath = process.env.PI_TODO_LOOP_SCRIPT;
  const logPath = process.env.PI_TODO_LOOP_REQUESTS;
  const steps: ScriptStep[] = scriptPath ? JSON.parse(readFileSync(scriptPath, "utf8")) : [];
  const faux = fauxProvider({
    provider: "faux",
    models: [{ id: "faux-1", name: "Scripted", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }],
  });
  faux.setResponses(
    steps.map((step, index) => async (context: { messages: unknown[] }) => {
      if (logPath) appendFileSync(logPath, JSON.stringify({ step: index, messages: context.messages }) + "\n");
      if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
      const blocks = [
        ...(step.text ? [fauxText(step.text)] : []),
        ...(step.calls ?? []).map((call) => fauxToolCall(call.name, call.args as Parameters<typeof fauxToolCall>[1])),
      ];
      const stopReason = step.stopReason ?? (step.calls?.length ? "toolUse" : "stop");
      return fauxAssistantMessage(blocks.length ? blocks : [fauxText("")], {
        stopReason,
        errorMessage: step.errorMessage,
      });
    }),
  );
  pi.registerProvider(faux.provider as never);
}
