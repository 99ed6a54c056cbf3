/**
 * Test-only pi extension: another extension listening on pi's event bus for the loop's
 * `todo-loop:stop` event. Every payload it receives is appended, as one JSON line, to the file named
 * by PI_TODO_LOOP_E2E_STOPS (synchronously: `emit` does not wait for listeners).
 */
import { appendFileSync } from "node:fs";

interface PiLike {
  events: { on(channel: string, handler: (data: unknown) => void): () => void };
}

export default function stopListener(pi: PiLike): void {
  const path = process.env.PI_TODO_LOOP_E2E_STOPS;
  if (!path) return;
  pi.events.on("todo-loop:stop", (data) => {
    appendFileSync(path, `${JSON.stringify(data)}\n`);
  });
}
