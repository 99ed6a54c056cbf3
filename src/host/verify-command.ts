/**
 * `/todoloop verify` (run the command now and show the result), `verify approve` (a confirm dialog
 * showing the directory and the project's command JSON-escaped — or the check found in the project's
 * files and the text it runs — then the approval is written) and `verify forget` (this directory's
 * entries removed, "never" included), plus the verification lines of `/todoloop`.
 */
import { approvalsPath, approve, forget, projectFile, readApprovals, refusedText } from "../io/approvals.ts";
import { readProjectVerify, verifySetup } from "./verify-setup.ts";
import type { VerifySetup } from "./verify-setup.ts";
import { configPath } from "../io/paths.ts";
import { loadConfig } from "../config.ts";
import type { Config } from "../core/types.ts";
import type { AutocompleteItemLike, ContextLike } from "../core/pi-shapes.ts";
import type { Runtime } from "./runtime.ts";
import { commandName, secondsText } from "../core/text.ts";
import { runVerification } from "../io/verify-process.ts";
import { errorOf, hasHiddenCharacters } from "../core/verify.ts";
import type { FoundChoice } from "../core/verify.ts";
import { changedText } from "../core/project-check.ts";

export const VERIFY_COMPLETIONS: readonly AutocompleteItemLike[] = [
  { value: "verify", label: "verify", description: "run the verification command now" },
  { value: "verify approve", label: "verify approve", description: "approve this project's verification command or the check found" },
  { value: "verify forget", label: "verify forget", description: "forget this directory's approval (or never)" },
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

/** What is said about a check found in the project's files that does not run (0.5): what, from which file, and how to use it. */
export function foundText(choice: FoundChoice): string {
  const { check, approval, refused } = choice;
  const found = `a check was found: ${check.command} (from ${check.file})`;
  if (refused === "hidden-characters") return `${found}, but ${check.where} holds control or invisible characters; refused`;
  if (refused === "untrusted") return `${found}, refused: pi does not trust this project`;
  if (approval.kind === "never") return `${found}; never for this directory — /todoloop verify approve to use it, /todoloop verify forget to be asked again`;
  if (approval.kind === "changed") return `${changedText(check, approval)}; it needs /todoloop verify approve`;
  return `${found} — /todoloop verify approve to use it`;
}

function sourceText(setup: VerifySetup, source: "user" | "project" | "found"): string {
  if (source === "project") return `the project's, approved for ${setup.realDir}`;
  if (source === "found") return `found in ${setup.found?.where ?? "the project"}, approved for ${setup.realDir}`;
  return "your config";
}

/** What `/todoloop` says about verification here. */
export function verifyStatusLines(ctx: ContextLike, config: Config): string {
  try {
    if (config.verifyOff === true) {
      const ignored = readProjectVerify(ctx.cwd, true).problems.map((problem) => `\nconfig problem: ${problem}`).join("");
      return `\nverify: off ("verify": false in ${configPath()})${ignored}`;
    }
    const setup = setupFor(ctx, config);
    const lines: string[] = [];
    const { choice, project } = setup;
    if (choice.kind === "run") {
      lines.push(`verify: ${JSON.stringify(choice.spec.command)} (${sourceText(setup, choice.spec.source)}; timeout ${choice.spec.timeoutMinutes} min, ${choice.spec.maxRuns} runs)`);
    }
    if (choice.kind === "found") lines.push(`verify: ${foundText(choice)}`);
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
  if (word === "approve") return approveCommand(runtime, ctx, setup, config);
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
  if (config.verifyOff === true) {
    runtime.notify(ctx, `todo loop: verification is off ("verify": false in ${configPath()})`, "warning");
    return;
  }
  if (choice.kind === "none") {
    const passed = setup.skipped.map((entry) => `${entry.file} ${entry.why}`).join("; ");
    runtime.notify(ctx, `todo loop: no verification command for this directory and no check found in its files (set verify in ${configPath()})${passed ? `; passed over: ${passed}` : ""}`, "warning");
    return;
  }
  if (choice.kind === "found") {
    runtime.notify(ctx, `todo loop: not verified: ${foundText(choice)}`, "warning");
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

/** The text a found check runs, for the approve dialog: the script JSON-escaped (capped), or the file pinned by its hash. */
function pinnedText(choice: FoundChoice): string {
  const { pinned, where } = choice.check;
  if ("text" in pinned) {
    const points = Array.from(pinned.text);
    const shown = points.length > 600 ? `${points.slice(0, 600).join("")}…` : pinned.text;
    return `${where}: ${JSON.stringify(shown)}`;
  }
  return `${pinned.file} as it is now (sha256 ${pinned.sha256.slice(0, 12)}…)`;
}

/**
 * The dialog an approval is asked with, when one can be asked and kept: the approvals file is readable (it
 * holds other projects' approvals and is never written over when it is not) and this pi can show a dialog;
 * otherwise undefined, and the person is told why.
 */
function approvalDialog(runtime: Runtime, ctx: ContextLike): NonNullable<ContextLike["ui"]["select"]> | undefined {
  const unreadable = readApprovals(approvalsPath()).problem;
  if (unreadable !== undefined) {
    runtime.notify(ctx, `todo loop: not approved: ${refusedText(approvalsPath(), unreadable)}`, "error");
    return undefined;
  }
  if (typeof ctx.ui.select !== "function") {
    runtime.notify(ctx, "todo loop: this pi cannot show a dialog; nothing approved", "error");
    return undefined;
  }
  return ctx.ui.select.bind(ctx.ui);
}

async function approveFound(runtime: Runtime, ctx: ContextLike, setup: VerifySetup, choice: FoundChoice): Promise<void> {
  if (choice.refused !== undefined) {
    runtime.notify(ctx, `todo loop: refused: ${foundText(choice)}`, "error");
    return;
  }
  const select = approvalDialog(runtime, ctx);
  if (select === undefined) return;
  const { check } = choice;
  const message = `Directory: ${JSON.stringify(setup.realDir)}\nCommand: ${JSON.stringify(check.command)}\nIt runs: ${pinnedText(choice)}\n\nAn edit to it asks again. It will run with your environment (API keys included) when the todo list clears, and its output goes to the model.`;
  const answer = await select(`Approve the check found in ${check.file}?\n${message}`, [APPROVE_NO, APPROVE_YES]);
  if (answer !== APPROVE_YES) {
    runtime.notify(ctx, "todo loop: not approved", "info");
    return;
  }
  const refused = approve(setup.realDir, check.command, new Date().toISOString(), approvalsPath(), check.pinned);
  if (refused !== undefined) {
    runtime.notify(ctx, `todo loop: not approved: ${refusedText(approvalsPath(), refused)}`, "error");
    return;
  }
  runtime.notify(ctx, `todo loop: approved ${check.command} for ${setup.realDir} (${check.where} as it is now)`, "info");
}

async function approveCommand(runtime: Runtime, ctx: ContextLike, setup: VerifySetup, config: Config): Promise<void> {
  const { project } = setup;
  if (config.verifyOff === true) {
    runtime.notify(ctx, `todo loop: verification is off ("verify": false in ${configPath()}); nothing to approve`, "warning");
    return;
  }
  if (!project && setup.choice.kind === "found") return approveFound(runtime, ctx, setup, setup.choice);
  if (!project && setup.choice.kind === "run" && setup.choice.spec.source === "found") {
    runtime.notify(ctx, `todo loop: ${setup.choice.spec.command} is approved for ${setup.realDir} already`, "info");
    return;
  }
  if (!project) {
    runtime.notify(ctx, `todo loop: ${projectFile(ctx.cwd)} proposes no verify command and no check was found in this directory's files; nothing to approve`, "warning");
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
  const select = approvalDialog(runtime, ctx);
  if (select === undefined) return;
  const message = `Directory: ${JSON.stringify(setup.realDir)}\nCommand: ${JSON.stringify(project.command)}\n\nIt will run with your environment (API keys included) when the todo list clears, and its output goes to the model.`;
  // pi's confirm dialog always selects "Yes" first, so one Enter would approve: the safe answer comes first here.
  const answer = await select(`Approve this project's verification command?\n${message}`, [APPROVE_NO, APPROVE_YES]);
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
