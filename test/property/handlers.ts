/**
 * The real handlers for the property tests: the extension on a fake pi, over an isolated agent dir and
 * working directories (a clean pair and a pair with the kill switch on), set up when this module loads
 * and removed after the test file.
 */
import { after } from "node:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import todoLoop from "../../src/index.ts";
import { ioOf } from "../captured-io.ts";
import { createFakePi } from "../fake-pi.ts";
import type { AgentSettledHandler, ContextHandler, FakePi, SessionStartHandler, TurnEndHandler } from "../fake-pi.ts";

export const root = mkdtempSync(join(tmpdir(), "todo-loop-property-"));
export const dirs = {
  agentClean: join(root, "agent-clean"),
  agentOff: join(root, "agent-off"),
  cwdClean: join(root, "cwd-clean"),
  cwdOff: join(root, "cwd-off"),
};
for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
writeFileSync(join(dirs.agentOff, "todo-loop-off"), "");
mkdirSync(join(dirs.cwdOff, ".pi"), { recursive: true });
writeFileSync(join(dirs.cwdOff, ".pi", "todo-loop-off"), "");
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;
process.env.PI_CODING_AGENT_DIR = dirs.agentClean;
after(() => {
  if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
  rmSync(root, { recursive: true, force: true });
});

export interface Handlers {
  turnEnd: TurnEndHandler;
  context: ContextHandler;
  agentSettled: AgentSettledHandler;
  sessionStart: SessionStartHandler;
  pi: FakePi;
}

/** A fresh extension behind the typed fake pi; each case gets its own process state. */
export function load(): Handlers {
  const pi = createFakePi({ activeTools: ["read", "bash", "todo"] });
  todoLoop(pi, ioOf(pi));
  const [turnEnd] = pi.turnEndHandlers;
  const [context] = pi.contextHandlers;
  const [agentSettled] = pi.agentSettledHandlers;
  const [sessionStart] = pi.sessionStartHandlers;
  if (!turnEnd || !context || !agentSettled || !sessionStart) throw new Error("the extension registers turn_end, context, agent_settled and session_start handlers");
  return { turnEnd, context, agentSettled, sessionStart, pi };
}
