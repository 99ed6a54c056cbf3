/**
 * Test-only pi extension for pi 0.74 (test/compat/older-pi.test.ts): a model that answers one line, on
 * that pi's own faux provider (`registerFauxProvider`, which 0.74's pi-ai has instead of `fauxProvider`).
 */
import * as piAi from "@earendil-works/pi-ai";

/** The part of pi 0.74's faux provider used here (pi 1.5 and later export `fauxProvider` instead). */
interface OldFaux {
  registerFauxProvider(options: { provider: string; models: Array<{ id: string; name: string }> }): { api: string; setResponses(steps: unknown[]): void };
  fauxAssistantMessage(text: string): unknown;
}

interface OldPi {
  registerProvider(name: string, config: object): void;
}

export default function oldFaux(pi: OldPi): void {
  const { registerFauxProvider, fauxAssistantMessage } = piAi as unknown as OldFaux;
  const faux = registerFauxProvider({ provider: "faux", models: [{ id: "faux-1", name: "Scripted" }] });
  faux.setResponses([fauxAssistantMessage("Hello from pi 0.74.")]);
  pi.registerProvider("faux", {
    api: faux.api,
    baseUrl: "http://127.0.0.1:9",
    apiKey: "none",
    models: [{ id: "faux-1", name: "Scripted", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100000, maxTokens: 1000 }],
  });
}
