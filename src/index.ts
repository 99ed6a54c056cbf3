/**
 * pi-todo-loop: keeps the pi agent working while its todo list has open tasks. This file is the table
 * of contents: the rules live in `loop.ts` (pure), the branch reader in `state.ts` and `sources/`, the
 * wording in `text.ts`; the modules below wire them to pi and apply their effects.
 */
import { registerBlockTool } from "./host/block-tool.ts";
import { registerBoundaries } from "./host/boundary.ts";
import { registerCommand } from "./host/command.ts";
import { configPath } from "./io/paths.ts";
import { loadConfig } from "./config.ts";
import { registerNoTodoToolNotice } from "./host/no-todo-tool.ts";
import { registerKeptConsent } from "./host/kept-consent.ts";
import type { PiLike } from "./core/pi-shapes.ts";
import { registerRenderers } from "./host/render.ts";
import { createRuntime } from "./host/runtime.ts";

export default function todoLoop(pi: PiLike): void {
  const runtime = createRuntime(pi);
  registerBoundaries(runtime);
  registerKeptConsent(runtime);
  registerBlockTool(runtime);
  registerCommand(runtime);
  registerRenderers(pi, () => loadConfig(configPath()).config.transcript);
  registerNoTodoToolNotice(runtime);
}
