/**
 * Verified done at a settle (SPEC §4.16), wired into `turn_end`: when `decide()` would end the run on a
 * clear (or emptied) list, ask `planVerify()` whether to run the command, run it here — in the settle's
 * own turn_end, where `ctx.signal` is the run's abort signal — and apply `judgeVerify()`: a verified
 * stop, one continuation carrying the output, or a stop that needs the person. No rule lives here.
 */
import { approvalsPath } from "../io/approvals.ts";
import { verifySetup } from "./verify-setup.ts";
import { runVerification } from "../io/verify-process.ts";
import { endTrackedGroups } from "../io/groups.ts";
import type { ContextLike, EntryDraft, PiLike, TurnEndEventLike, TurnEndResultLike } from "../core/pi-shapes.ts";
import type { Facts, Runtime } from "./runtime.ts";
import { endRun } from "./run-end.ts";
import { MARKER_TYPE, STOP_TYPE } from "../state.ts";
import { OFF_FOOTER, verifyingFooter, verifyNudgeText } from "../core/text.ts";
import { killSwitch } from "../io/paths.ts";
import { judgeVerify, planVerify } from "../core/verify.ts";
import type { VerifyPlan, VerifyResult } from "../core/verify.ts";
import { mayOffer, offerCheck } from "./verify-offer.ts";

function queuedNow(ctx: ContextLike, fromEvent: boolean): boolean {
  if (typeof ctx.hasPendingMessages !== "function") return fromEvent;
  try {
    return ctx.hasPendingMessages() || fromEvent;
  } catch {
    return fromEvent;
  }
}

function working(ctx: ContextLike, message?: string): void {
  try {
    if (message === undefined) ctx.ui.setWorkingMessage?.();
    else ctx.ui.setWorkingMessage?.(message);
  } catch {
    // A courtesy.
  }
}

/**
 * Runs after `decide()` left no continuation. Returns what turn_end returns: undefined (the pending stop
 * is recorded at agent_settled), a verification marker with `continue: true`, or a stop record written
 * at once (a human message came first: the run goes on without a settle).
 */
export async function verifyAtSettle(runtime: Runtime, ctx: ContextLike, event: TurnEndEventLike & { entries: unknown[] }, facts: Facts, queued: boolean, question?: string): Promise<TurnEndResultLike | undefined> {
  const { session } = facts;
  const memory = session.memory;
  if (!memory?.pending || facts.config.verify === undefined) return undefined;
  const setup = verifySetup(ctx.cwd, facts.config, ctx.isProjectTrusted?.bind(ctx), approvalsPath());
  let plan: VerifyPlan = planVerify(memory, setup.choice, queued || event.continue === true, facts.snapshot.work, facts.config.stopOnQuestion ? question : undefined, mayOffer(ctx, session));
  if (plan.kind === "offer") {
    // The project's own check, offered once a session (0.5): a yes runs it now, as any verification.
    const spec = await offerCheck(runtime, ctx, session, plan.choice, setup.realDir);
    // The dialog took time: a kill switch, a pause or a human message that came meanwhile wins.
    if (!spec || killSwitch(ctx.cwd) !== undefined || session.memory?.paused === true || queuedNow(ctx, queued)) return undefined;
    plan = { kind: "run", spec, base: plan.base };
  }
  if (plan.kind === "none") return undefined;
  if (plan.kind === "decided") {
    session.memory = plan.memory;
    return undefined;
  }
  let result: VerifyResult | undefined;
  if (plan.kind === "run") {
    runtime.showFooter(ctx, session, verifyingFooter(plan.spec.command));
    working(ctx, `todo loop: running ${plan.spec.command.slice(0, 60)}`);
    try {
      result = await runVerification({ command: plan.spec.command, cwd: ctx.cwd, timeoutMs: plan.spec.timeoutMinutes * 60_000, signal: ctx.signal });
    } finally {
      working(ctx);
    }
  }
  // The command took time: a kill switch created meanwhile means nothing at all happens now (SPEC §4.16, 0.4).
  if (plan.kind === "run" && killSwitch(ctx.cwd) !== undefined) {
    runtime.showFooter(ctx, session, OFF_FOOTER);
    return undefined;
  }
  // A pause or a human message that arrived meanwhile wins.
  const paused = session.memory?.paused === true;
  const judged = judgeVerify(memory, {
    spec: plan.spec,
    base: plan.base,
    result,
    work: facts.snapshot.work,
    limits: facts.config,
    spend: facts.spend,
    list: facts.list,
    queued: queuedNow(ctx, queued),
    paused,
  });
  runtime.setMemory(ctx, facts, paused ? { ...judged.memory, paused: true } : judged.memory);
  if (judged.marker) {
    const marker: EntryDraft = {
      type: "custom_message",
      customType: MARKER_TYPE,
      content: verifyNudgeText(judged.marker.output),
      display: facts.config.transcript,
      details: judged.marker.details,
    };
    return { entries: [...event.entries, marker], continue: true };
  }
  if (judged.recordNow) {
    const { record } = endRun(runtime, ctx, session, facts.config, "turn");
    if (!record) return undefined;
    const entry: EntryDraft = { type: "custom", customType: STOP_TYPE, data: record };
    return { entries: [...event.entries, entry] };
  }
  return undefined;
}

/**
 * Session shutdown (quit, `/new`, `/reload`, SIGTERM, SIGHUP) ends every process group this extension
 * started — a verification still running, a notify command, anything they left behind: SIGTERM, a short
 * grace, then SIGKILL (SPEC §10, 0.4). pi's exit kills what is left in any case (`groups.ts`).
 */
export function registerVerifyShutdown(pi: PiLike): void {
  pi.on("session_shutdown", async () => {
    try {
      await endTrackedGroups();
    } catch {
      // Never throws from a hook; the exit hook still kills what is left.
    }
  });
}
