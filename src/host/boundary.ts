/**
 * The run boundaries: `turn_end` gathers the facts and applies `decide()` (a marker and `continue:
 * true`, or nothing); `agent_settled` ends the run (`run-end.ts`: the stop record and its announcement,
 * once the run really ended); `session_start` and `session_tree` read the session's pause and show the footer;
 * `context` applies `filterMarkers()`.
 */
import { killSwitch, configPath } from "../io/paths.ts";
import { loadConfig } from "../config.ts";
import { decide, filterMarkers, freshMemory } from "../loop.ts";
import type { DecideInput, TurnFacts } from "../core/types.ts";
import type { ContextLike, EntryDraft, ToolResultLike, TurnEndEventLike, TurnEndResultLike, TurnOutcome } from "../core/pi-shapes.ts";
import { askedQuestion, handsOver, replyText } from "../core/question.ts";
import { markerMessage } from "./runtime.ts";
import { endRun } from "./run-end.ts";
import { holdForWork, workDecided, workFactsAt } from "./work.ts";
import type { Runtime } from "./runtime.ts";
import { SOURCES, TODO_TOOL_NAMES } from "../sources/index.ts";
import type { CallKind } from "../core/types.ts";
import { isRecord } from "../core/record.ts";
import { openCount, vanishedTasks } from "../state.ts";
import type { Snapshot } from "../state.ts";
import { describeNotice, sanitize } from "../core/text.ts";
import { registerVerifyShutdown, verifyAtSettle } from "./verify-boundary.ts";
import { readProjectVerify } from "./verify-setup.ts";
import { projectFile } from "../io/approvals.ts";
import { judgeHandsOver, judgeWaits } from "./judge.ts";

const OUTCOMES: ReadonlySet<unknown> = new Set(["completed", "error", "aborted"]);
/** How much of a question the wait reason keeps (and of a hand-over its stop). */
const QUESTION_CHARS = 200;

export function registerBoundaries(runtime: Runtime): void {
  const { pi } = runtime;

  /** The kill switch in force now, followed at once by the footer and a usage-limit wait (runtime.ts). */
  const switchNow = (ctx: ContextLike): string | undefined => runtime.followSwitch(ctx);

  /** The user file's problems and the project file's (its ignored keys, a FIFO, …), each announced once per set (SPEC §8). */
  function announceProblems(ctx: ContextLike, userProblems: readonly string[], verifyOff: boolean | undefined): void {
    runtime.reach.problems(ctx, configPath(), userProblems);
    const file = projectFile(ctx.cwd);
    const prefix = `${file}: `;
    const project = readProjectVerify(ctx.cwd, verifyOff === true).problems.map((problem) => (problem.startsWith(prefix) ? problem.slice(prefix.length) : problem));
    runtime.reach.projectProblems(ctx, file, project);
  }

  async function onTurnEnd(event: TurnEndEventLike, ctx: ContextLike): Promise<TurnEndResultLike | undefined> {
    if (runtime.conduct(ctx) === "off") return undefined;
    const off = switchNow(ctx);
    if (off) return undefined;
    if (!isRecord(event) || !Array.isArray(event.toolResults)) return undefined;
    // Without readable proposals and context there is no telling whether a human message is queued or
    // another handler already continued, nor a way to keep its entries: when unsure, do nothing.
    if (!Array.isArray(event.entries) || typeof event.continue !== "boolean") return undefined;
    if (!isRecord(event.context) || !Array.isArray(event.context.pendingMessages)) return undefined;
    const facts = runtime.gather(ctx, { killSwitch: off });
    announceProblems(ctx, facts.problems, facts.config.verifyOff);
    const turn = turnFacts(event, facts.snapshot);
    const input: DecideInput = {
      memory: facts.session.memory,
      branchSwitched: facts.switched,
      branch: facts.branch,
      turn,
      list: facts.list,
      pendingMessages: event.context.pendingMessages.length > 0,
      otherContinued: event.continue === true,
      limits: facts.config,
      stopOnQuestion: facts.config.stopOnQuestion,
      spend: facts.spend,
      tools: facts.tools,
      earlierTasks: facts.config.earlierTasks,
      handOff: facts.config.handOff,
      // Probed only at a settle, where a continuation could follow (SPEC §4.19).
      otherWorkflow: event.toolResults.length === 0 && runtime.workflow.otherDrives(ctx),
      // Work in flight matters only where a continuation could follow (SPEC §4.17).
      ...(event.toolResults.length === 0 ? { work: workFactsAt(runtime, ctx, facts) } : {}),
    };
    // A settle that would continue: the judge, when one is named, reads the reply first (SPEC §4.22).
    const reply = event.toolResults.length === 0 ? replyText(event.message) : "";
    const decision = await judgeWaits(runtime, ctx, facts, input, decide(input), reply);
    // A judge's call takes time: a kill switch created meanwhile means nothing at all happens now.
    if (facts.config.judge !== null && reply !== "" && runtime.followSwitch(ctx) !== undefined) return undefined;
    facts.session.memory = decision.memory;
    if (event.toolResults.length === 0) workDecided(runtime, ctx, facts, decision.memory);
    for (const notice of decision.notices) {
      const { message, type } = describeNotice(notice, configPath());
      runtime.notify(ctx, message, type);
    }
    runtime.refreshFooter(ctx, facts, decision.memory);
    if (!decision.continue || !decision.marker) {
      const verified = await verifyAtSettle(runtime, ctx, { ...event, entries: event.entries }, facts, event.context.pendingMessages.length > 0, turn.question);
      // A clear stop: the judge reads whether the reply hands the testing to the person (SPEC §4.23).
      if (verified === undefined) await judgeHandsOver(runtime, ctx, facts, reply);
      return verified;
    }
    const marker: EntryDraft = { type: "custom_message", ...markerMessage(decision.marker, facts.config.transcript) };
    return { entries: [...event.entries, marker], continue: true };
  }

  async function onSettled(ctx: ContextLike): Promise<void> {
    // The run ended without going on: the lock a continuation took is let go (SPEC §4.19).
    runtime.workflow.release(ctx);
    if (runtime.conduct(ctx) === "off") return;
    if (switchNow(ctx)) return;
    const session = runtime.sessionOf(ctx);
    // Print and JSON mode: while the loop waits on work, the run is held open until the work reports.
    await holdForWork(runtime, ctx);
    const { config } = loadConfig(configPath());
    await endRun(runtime, ctx, session, config, "settle").reached;
  }

  /** A human message arrived: its counts start at zero now, not when its first turn ends (the pause holds). */
  function onHumanMessage(ctx: ContextLike): void {
    if (!ctx.hasUI) return;
    const facts = runtime.gather(ctx);
    runtime.refreshFooter(ctx, facts, freshMemory(facts.memory.anchor, facts.memory.paused));
  }

  function onSessionStart(ctx: ContextLike): void {
    if (runtime.conduct(ctx) === "off") return;
    if (!killSwitch(ctx.cwd)) {
      const loaded = loadConfig(configPath());
      announceProblems(ctx, loaded.problems, loaded.config.verifyOff);
    }
    runtime.readControls(ctx, runtime.sessionOf(ctx));
    const facts = runtime.gather(ctx);
    // The state event goes out at session start in every mode (SPEC §4.25).
    if (!ctx.hasUI) return runtime.publishState(ctx, facts, facts.memory, true);
    // Set (or clear) it whatever this new runtime's cache says: an RPC client keeps an earlier session's footer.
    runtime.setMemory(ctx, facts, facts.memory, true);
  }

  /** `/tree` moved the session to another branch: its counters, the session's pause, and the footer. */
  function onSessionTree(ctx: ContextLike): void {
    if (runtime.conduct(ctx) === "off") return;
    const session = runtime.sessionOf(ctx);
    runtime.readControls(ctx, session);
    const facts = runtime.gather(ctx);
    runtime.setMemory(ctx, facts, facts.memory);
  }

  registerVerifyShutdown(pi);

  pi.on("turn_end", async (event, ctx) => {
    try {
      const result = await onTurnEnd(event, ctx);
      // A continuation: the loop holds the lock until this run ends, so other workflows yield to it.
      if (result?.continue === true) runtime.workflow.hold(ctx);
      return result;
    } catch (error) {
      return runtime.failed(ctx, "turn_end", error);
    }
  });

  pi.on("agent_settled", async (_event, ctx) => {
    try {
      await onSettled(ctx);
    } catch (error) {
      runtime.failed(ctx, "agent_settled", error);
    }
  });

  pi.on("session_start", async (_event, ctx) => {
    try {
      onSessionStart(ctx);
    } catch (error) {
      runtime.failed(ctx, "session_start", error);
    }
  });

  pi.on("message_start", async (event, ctx) => {
    try {
      if (isRecord(event) && isRecord(event.message) && event.message.role === "user" && !switchNow(ctx) && runtime.conduct(ctx) !== "off") onHumanMessage(ctx);
    } catch (error) {
      runtime.failed(ctx, "message_start", error);
    }
  });

  pi.on("session_tree", async (_event, ctx) => {
    try {
      onSessionTree(ctx);
    } catch (error) {
      runtime.failed(ctx, "session_tree", error);
    }
  });

  pi.on("context", async (event, ctx) => {
    try {
      if (switchNow(ctx) || runtime.conduct(ctx) === "off") return undefined;
      const messages = isRecord(event) ? event.messages : undefined;
      if (!Array.isArray(messages)) return undefined;
      const kept = filterMarkers(messages);
      return kept === messages ? undefined : { messages: kept };
    } catch {
      return undefined;
    }
  });
}

function classify(result: ToolResultLike): CallKind | undefined {
  for (const source of SOURCES) {
    const kind = source.classify(result);
    if (kind) return kind;
  }
  return undefined;
}

function turnFacts(event: TurnEndEventLike, snapshot: Snapshot): TurnFacts {
  const results: readonly unknown[] = Array.isArray(event.toolResults) ? event.toolResults : [];
  const outcome: TurnOutcome = OUTCOMES.has(event.outcome) ? (event.outcome as TurnOutcome) : "error";
  const calls: CallKind[] = [];
  let todoOnly = results.length > 0;
  for (const result of results) {
    if (!isRecord(result) || typeof result.toolName !== "string" || !TODO_TOOL_NAMES.has(result.toolName)) todoOnly = false;
    const kind = isRecord(result) ? classify(result) : undefined;
    if (kind) calls.push(kind);
  }
  const text = results.length === 0 ? replyText(event.message) : undefined;
  const asked = text === undefined ? undefined : askedQuestion(text);
  const question = asked === undefined ? undefined : sanitize(asked, QUESTION_CHARS);
  // The sentence that hands the testing to the person (SPEC §4.23), by the text rule; decide() reads it
  // only at a clear list. Where it finds none, the judge of §4.22 may (host/judge.ts, after decide()).
  // Read only where that can be: a list with tasks and none open (the rule costs more than the question's).
  const clear = snapshot.list !== undefined && snapshot.list.tasks.length > 0 && openCount(snapshot.list) === 0;
  const handed = text === undefined || !clear ? undefined : handsOver(text);
  const handOver = handed === undefined ? undefined : sanitize(handed, QUESTION_CHARS);
  return {
    outcome,
    toolResults: results.length,
    todoOnly,
    calls,
    openBefore: openCount(snapshot.listAtLastReply),
    vanished: vanishedTasks(snapshot.listAtLastReply, snapshot.list),
    question: question === "" ? undefined : question,
    reply: results.length === 0 ? snapshot.reply.last : undefined,
    handsOver: handOver === "" ? undefined : handOver,
  };
}
