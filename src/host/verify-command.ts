/**
 * `/todoloop verify` (run the command now and show the result), `verify approve` (a confirm dialog
 * showing the directory and the project's command JSON-escaped, then the approval is written) and
 * `verify forget` (this directory's approvals removed), plus the verification lines of `/todoloop`.
 */
import { approvalsPath, approve, forget, projectFile, readApprovals, refusedText } from "../io/approvals.ts";
import { verifySetup } from "./verify-setup.ts";
import type { VerifySetup } from "./verify-setup.ts";
import { configPath } from "../io/paths.ts";
import { loadConfig } from "../config.ts";
import type { Config } from "../core/types.ts";
import type { AutocompleteItemLike, ContextLike } from "../core/pi-shapes.ts";
import type { Runtime } from "./runtime.ts";
import { commandName, secondsText } from "../core/text.ts";
import { runVerification } from "../io/verify-process.ts";
import { errorOf, hasHiddenCharacters } from "../core/verify.ts";

export const VERIFY_COMPLETIONS: readonly AutocompleteItemLike[] = [
  { value: "verify", label: "verify", description: "run the verification command now" },
  { value: "verify approve", label: "verify approve", description: "approve this project's verification command" },
  { value: "verify forget", label: "verify forget", description: "forget this directory's approval" },
];

/** The approve dialog's answers, the safe one first (selected by default: one Enter approves nothing). */
export const APPROVE_NO = "No, do not approve it";
export const APPROVE_YES = "Yes, approve this command for this directory";

export function isVerifyCommand(args: unknown): boolean {
  return typeof args === "string" && /^verify(\s|$)/i.test(args.trim());
}

function setupFor(ctx: ContextLike, config: Config): VerifySetup {
  return verifySetup(ctx.cwd, config, ctx.isProjectTrusted?.bind(ctx), approvalsPath());
}

/** What `/todoloop` says about verification here. */
export function verifyStatusLines(ctx: ContextLike, config: Config): string {
  try {
    const setup = setupFor(ctx, config);
    const lines: string[] = [];
    const { choice, project } = setup;
    if (choice.kind === "run") {
      lines.push(`verify: ${JSON.stringify(choice.spec.command)} (${choice.spec.source === "project" ? `the project's, approved for ${setup.realDir}` : "your config"}; timeout ${choice.spec.timeoutMinutes} min, ${choice.spec.maxRuns} runs)`);
    }
    if (project && !(choice.kind === "run" && choice.spec.source === "project")) {
      const command = JSON.stringify(project.command);
      if (hasHiddenCharacters(project.command)) lines.push(`verify: the project's command ${command} holds control or invisible characters; refused`);
      else if (!setup.trusted) lines.push(`verify: the project's command ${command} is refused: pi does not trust this project`);
      else if (setup.approval === "changed") lines.push(`verify: the project's command changed since you approved it (now ${command}); it needs /todoloop verify approve`);
      else lines.push(`verify: the project's command ${command} needs /todoloop verify approve`);
    }
    for (const problem of setup.problems) lines.push(`config problem: ${problem}`);
    return lines.length > 0 ? `\n${lines.join("\n")}` : "";
  } catch {
    return "";
  }
}

export async function handleVerify(runtime: Runtime, args: string, ctx: ContextLike): Promise<void> {
  const word = args.trim().split(/\s+/)[1]?.toLowerCase() ?? "";
  const { config } = loadConfig(configPath());
  const setup = setupFor(ctx, config);
  if (word === "approve") return approveCommand(runtime, ctx, setup);
  if (word === "forget") {
    const unreadable = readApprovals(approvalsPath()).problem;
    if (unreadable !== undefined) {
      runtime.notify(ctx, `todo loop: nothing forgotten: ${refusedText(approvalsPath(), unreadable)}`, "error");
      return;
    }
    const removed = forget(setup.realDir, approvalsPath());
    runtime.notify(ctx, removed ? `todo loop: forgot the approved verification command for ${setup.realDir}` : `todo loop: no approved verification command for ${setup.realDir}`, "info");
    return;
  }
  if (word !== "") {
    runtime.notify(ctx, "todo loop: Usage: /todoloop verify [approve|forget]", "error");
    return;
  }
  const { choice } = setup;
  if (choice.kind === "none") {
    runtime.notify(ctx, `todo loop: no verification command for this directory (set verify in ${configPath()})`, "warning");
    return;
  }
  if (choice.kind === "found") {
    runtime.notify(ctx, `todo loop: not verified: a check was found: ${choice.check.command} (from ${choice.check.file}) — /todoloop verify approve to use it`, "warning");
    return;
  }
  if (choice.kind === "refused") {
    runtime.notify(ctx, `todo loop: not verified: the project's command ${JSON.stringify(choice.command)} ${choice.why === "hidden-characters" ? "holds control or invisible characters; refused" : choice.why === "untrusted" ? "is refused: pi does not trust this project" : choice.why === "changed" ? "changed since you approved it; it needs /todoloop verify approve" : "needs /todoloop verify approve"}`, "warning");
    return;
  }
  const { spec } = choice;
  const result = await runVerification({ command: spec.command, cwd: ctx.cwd, timeoutMs: spec.timeoutMinutes * 60_000, signal: ctx.signal });
  const name = commandName(spec.command);
  const error = errorOf(result);
  // The output is for the model only (SPEC §10: it never reaches a notification); the person can run the command.
  if (error) {
    const why = error.why === "timeout" ? `timed out after ${spec.timeoutMinutes} min` : error.why === "not-found" ? "exit 127: not found" : error.why === "not-executable" ? "exit 126: cannot run" : error.why === "start" ? `could not start: ${error.detail ?? ""}` : error.why === "aborted" ? "stopped" : `killed by ${error.detail ?? "a signal"}`;
    runtime.notify(ctx, `todo loop: ${name} did not finish (${why})`, "warning");
  } else if (result.exit === 0) {
    runtime.notify(ctx, `todo loop: ${name} passed (${secondsText(result.seconds)})`, "info");
  } else {
    runtime.notify(ctx, `todo loop: ${name} failed (exit ${result.exit}, ${secondsText(result.seconds)})`, "warning");
  }
}

async function approveCommand(runtime: Runtime, ctx: ContextLike, setup: VerifySetup): Promise<void> {
  const { project } = setup;
  if (!project) {
    runtime.notify(ctx, `todo loop: ${projectFile(ctx.cwd)} proposes no verify command; nothing to approve`, "warning");
    return;
  }
  if (hasHiddenCharacters(project.command)) {
    runtime.notify(ctx, `todo loop: refused: the project's command ${JSON.stringify(project.command)} holds control, format or bidi characters (what is shown must be what runs)`, "error");
    return;
  }
  if (!setup.trusted) {
    runtime.notify(ctx, "todo loop: refused: pi does not trust this project, so its command cannot be approved", "error");
    return;
  }
  const unreadable = readApprovals(approvalsPath()).problem;
  if (unreadable !== undefined) {
    runtime.notify(ctx, `todo loop: not approved: ${refusedText(approvalsPath(), unreadable)}`, "error");
    return;
  }
  if (typeof ctx.ui.select !== "function") {
    runtime.notify(ctx, "todo loop: this pi cannot show a dialog; nothing approved", "error");
    return;
  }
  const message = `Directory: ${JSON.stringify(setup.realDir)}\nCommand: ${JSON.stringify(project.command)}\n\nIt will run with your environment (API keys included) when the todo list clears, and its output goes to the model.`;
  // pi's confirm dialog always selects "Yes" first, so one Enter would approve: the safe answer comes first here.
  const answer = await ctx.ui.select(`Approve this project's verification command?\n${message}`, [APPROVE_NO, APPROVE_YES]);
  if (answer !== APPROVE_YES) {
    runtime.notify(ctx, "todo loop: not approved", "info");
    return;
  }
  const refused = approve(setup.realDir, project.command, new Date().toISOString(), approvalsPath());
  if (refused !== undefined) {
    runtime.notify(ctx, `todo loop: not approved: ${refusedText(approvalsPath(), refused)}`, "error");
    return;
  }
  runtime.notify(ctx, `todo loop: approved ${JSON.stringify(project.command)} for ${setup.realDir}`, "info");
}
