/**
 * Where this extension's files are: pi's agent directory, the config file and the kill-switch files.
 * The kill switch is looked up on every hook call, tool call and status (SPEC §8).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * pi's rule: `$PI_CODING_AGENT_DIR` when set (a leading `~` is the home directory, a `file://` URL is its
 * path), else `~/.pi/agent`.
 */
export function agentDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.PI_CODING_AGENT_DIR;
  if (!fromEnv) return join(homedir(), ".pi", "agent");
  if (fromEnv === "~") return homedir();
  if (fromEnv.startsWith("~/")) return join(homedir(), fromEnv.slice(2));
  if (fromEnv.startsWith("file://")) {
    try {
      return fileURLToPath(fromEnv);
    } catch {
      return fromEnv;
    }
  }
  return fromEnv;
}

export function configPath(dir: string = agentDir()): string {
  return join(dir, "todo-loop.json");
}

/** The kill-switch files, global first. */
export function killSwitchPaths(cwd: string, dir: string = agentDir()): readonly string[] {
  return [join(dir, "todo-loop-off"), join(cwd, ".pi", "todo-loop-off")];
}

/** The kill-switch file that is present, if any. */
export function killSwitch(cwd: string, dir: string = agentDir()): string | undefined {
  return killSwitchPaths(cwd, dir).find((path) => {
    try {
      return existsSync(path);
    } catch {
      return false;
    }
  });
}
