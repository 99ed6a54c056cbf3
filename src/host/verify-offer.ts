/**
 * The offer of the project's own check (SPEC §4.16, 0.5): at the first clear list of a session, in the
 * TUI only, one `select` — "No, not now" first and selected, "Yes, for this directory", "Never for this
 * directory" — that gives up after 60 s (no answer is no). Yes records the approval with the text the
 * check runs and hands back the command to run now; Never is recorded in the approvals file. Whether to
 * offer is `planVerify()`'s rule; the words are `core/project-check.ts`'s.
 */
import type { ContextLike } from "../core/pi-shapes.ts";
import type { FoundChoice, VerifyCommand } from "../core/verify.ts";
import { FOUND_DEFAULTS } from "../core/verify.ts";
import { OFFER_NEVER, OFFER_OPTIONS, OFFER_TIMEOUT_MS, OFFER_YES, offerTitle } from "../core/project-check.ts";
import { approvalsPath, approve, never, readApprovals, refusedText } from "../io/approvals.ts";
import type { Runtime, SessionState } from "./runtime.ts";

/** Sessions that were offered their check already (the offer comes once a session). */
const offered = new WeakSet<SessionState>();

/** Whether this settle may show the offer: the TUI, a host with `select`, and no offer yet in this session. */
export function mayOffer(ctx: ContextLike, session: SessionState): boolean {
  return ctx.mode === "tui" && typeof ctx.ui.select === "function" && !offered.has(session);
}

/**
 * Shows the offer and applies the answer. Returns the command to run now (a yes that was recorded), or
 * undefined: no, no answer in 60 s, never, or an approvals file that cannot be written.
 */
export async function offerCheck(runtime: Runtime, ctx: ContextLike, session: SessionState, choice: FoundChoice, real: string): Promise<VerifyCommand | undefined> {
  offered.add(session);
  const { check } = choice;
  const path = approvalsPath();
  // An approvals file that cannot be read is never written over, so neither Yes nor Never could be kept:
  // no question (`/todoloop` shows its problem line).
  if (readApprovals(path).problem !== undefined) return undefined;
  let answer: string | undefined;
  try {
    answer = await ctx.ui.select?.(offerTitle(check, choice.approval), [...OFFER_OPTIONS], { timeout: OFFER_TIMEOUT_MS, signal: ctx.signal });
  } catch {
    answer = undefined;
  }
  if (answer === OFFER_YES) {
    const refused = approve(real, check.command, new Date().toISOString(), path, check.pinned);
    if (refused !== undefined) {
      runtime.notify(ctx, `todo loop: not approved: ${refusedText(path, refused)}`, "error");
      return undefined;
    }
    runtime.notify(ctx, `todo loop: approved ${check.command} for ${real} (${check.where} as it is now); running it`, "info");
    return { command: check.command, ...FOUND_DEFAULTS, source: "found" };
  }
  if (answer === OFFER_NEVER) {
    const refused = never(real, new Date().toISOString(), path);
    if (refused !== undefined) runtime.notify(ctx, `todo loop: not recorded: ${refusedText(path, refused)}`, "error");
    else runtime.notify(ctx, `todo loop: ${check.command} will not be offered again for ${real} (/todoloop verify approve uses it, /todoloop verify forget asks again)`, "info");
    return undefined;
  }
  runtime.notify(ctx, `todo loop: not running ${check.command} (/todoloop verify approve to use it)`, "info");
  return undefined;
}
