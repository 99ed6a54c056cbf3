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
import { registerLimitWaits } from "./host/limit-waits.ts";
import { registerWork } from "./host/work.ts";
import { missingPiApi } from "./core/pi-shapes.ts";
import type { PiLike } from "./core/pi-shapes.ts";
import { registerOlderPi } from "./host/older-pi.ts";
import { registerRenderers } from "./host/render.ts";
import { createRuntime } from "./host/runtime.ts";
import { processIo } from "./io/notify.ts";
import type { ReachIo } from "./io/notify.ts";
import { registerSessionFacts } from "./host/session-facts.ts";
import { registerBus } from "./host/bus.ts";

/**
 * pi calls this with its API alone; `io` (the process's stdout, stderr and exit status) is for a caller that
 * must keep the process's streams to itself, such as a test.
 */
export default function todoLoop(pi: PiLike, io: ReachIo = processIo): void {
  // An older pi gets a sentence, not a crash (SPEC §10): nothing it cannot take is registered.
  const missing = missingPiApi(pi);
  if (missing.length > 0) return registerOlderPi(pi, io, missing);
  const runtime = createRuntime(pi, io);
  registerSessionFacts(runtime);
  registerBoundaries(runtime);
  registerKeptConsent(runtime);
  registerLimitWaits(runtime);
  registerWork(runtime);
  registerBlockTool(runtime);
  registerCommand(runtime);
  registerBus(runtime);
  registerRenderers(pi, () => loadConfig(configPath()).config.transcript);
  registerNoTodoToolNotice(runtime);
}
