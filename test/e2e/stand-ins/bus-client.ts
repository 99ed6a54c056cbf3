/**
 * Test-only pi extension: another extension on pi's bus (SPEC §4.25). Every `todo-loop:state` and
 * `todo-loop:stop` payload it hears is appended, as one JSON line `{ channel, data }`, to the file named
 * by PI_TODO_LOOP_E2E_BUS. `/e2e-bus <json>` listens on `todo-loop:reply:<id>` (when the text parses
 * to an object with a string id) and emits the parsed value — or the raw text when it does not parse —
 * on `todo-loop:request`; each reply is logged as `{ channel: "reply", id, data }`.
 */
import { appendFileSync } from "node:fs";

interface PiLike {
  events: { on(channel: string, handler: (data: unknown) => void): () => void; emit(channel: string, data: unknown): void };
  registerCommand(name: string, options: { description: string; handler(args: string): Promise<void> }): void;
}

export default function busClient(pi: PiLike): void {
  const path = process.env.PI_TODO_LOOP_E2E_BUS;
  if (!path) return;
  const log = (line: unknown): void => appendFileSync(path, `${JSON.stringify(line)}\n`);
  pi.events.on("todo-loop:state", (data) => log({ channel: "state", data }));
  pi.events.on("todo-loop:stop", (data) => log({ channel: "stop", data }));
  const heard = new Set<string>();
  pi.registerCommand("e2e-bus", {
    description: "Test only: send a todo-loop:request",
    async handler(args) {
      let request: unknown = args;
      try {
        request = JSON.parse(args);
      } catch {
        request = args;
      }
      const id = typeof request === "object" && request !== null ? (request as { id?: unknown }).id : undefined;
      if (typeof id === "string" && !heard.has(id)) {
        heard.add(id);
        pi.events.on(`todo-loop:reply:${id}`, (data) => log({ channel: "reply", id, data }));
      }
      log({ channel: "sent", data: request });
      pi.events.emit("todo-loop:request", request);
    },
  });
}
