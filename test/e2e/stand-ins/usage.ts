/**
 * Test-only pi extension: gives every assistant reply a fixed usage, so token and dollar limits can be
 * tested exactly. pi-ai's faux provider estimates tokens from text length and always reports cost 0.
 * PI_TODO_LOOP_E2E_USAGE holds `{ "totalTokens": n, "cost": dollars }`, or a list of them given to the
 * process's assistant replies in order (the last one again after the list runs out; `cost: null` is a
 * provider that reports no cost); unset, replies are untouched.
 * Uses pi's `message_end` replacement, so the replaced usage is what the session stores.
 */

interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}
interface Scripted {
  totalTokens: number;
  cost: number | null;
}
interface MessageEndEvent {
  message: { role: string; usage?: Usage };
}
interface PiLike {
  on(event: "message_end", handler: (event: MessageEndEvent) => Promise<{ message: MessageEndEvent["message"] } | undefined>): void;
}

export default function fixedUsage(pi: PiLike): void {
  const raw = process.env.PI_TODO_LOOP_E2E_USAGE;
  if (!raw) return;
  const parsed = JSON.parse(raw) as Scripted | Scripted[];
  const list = Array.isArray(parsed) ? parsed : [parsed];
  let replies = 0;
  pi.on("message_end", async (event) => {
    if (event.message.role !== "assistant") return undefined;
    const { totalTokens, cost: given } = list[Math.min(replies, list.length - 1)] ?? { totalTokens: 0, cost: 0 };
    replies += 1;
    const cost = given ?? 0;
    const usage: Usage = {
      input: totalTokens,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens,
      cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
    };
    return { message: { ...event.message, usage } };
  });
}
