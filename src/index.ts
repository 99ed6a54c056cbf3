/**
 * pi-todo-loop: the adapter between pi and the pure core. On `turn_end` it gathers the facts (kill
 * switch, config, branch snapshot, the event), calls `decide()` and applies the effects (a hidden
 * marker plus `continue: true`, a stop record, notifications, the footer). It also wires the `context`
 * hook, the `todo_loop_block` tool and the `/todoloop` command. Nothing here decides anything.
 */
import { configPath, killSwitch, loadConfig } from "./config.ts";
import type { ConfigResult } from "./config.ts";
import { align, applyCommand, COMMANDS, decide, filterMarkers, parseCommand } from "./loop.ts";
import type { Decision, Memory, TurnFacts } from "./loop.ts";
import type { ContextLike, EntryDraft, PiLike, ToolResultLike, TurnEndEventLike, TurnOutcome } from "./pi.ts";
import { registerRenderers } from "./render.ts";
import { SOURCES, sourceLabel, TODO_TOOL_NAMES } from "./sources/index.ts";
import type { CallKind } from "./sources/index.ts";
import { isRecord } from "./sources/types.ts";
import { BLOCK_TOOL, createBranchReader, listState, MARKER_TYPE, openCount, STOP_TYPE, vanishedTasks } from "./state.ts";
import type { BranchReader, Snapshot } from "./state.ts";
import { describeNotice, describeReason, footerText, nudgeText, sanitize, statusText } from "./text.ts";

interface SessionState {
  readonly reader: BranchReader;
  memory: Memory | undefined;
  footer: string | undefined;
}

/** Sessions one process keeps state for (a delegated child session runs its own loop). */
const MAX_SESSIONS = 16;
const OUTCOMES: ReadonlySet<unknown> = new Set(["completed", "error", "aborted"]);

export default function todoLoop(pi: PiLike): void {
  const sessions = new Map<string, SessionState>();
  registerRenderers(pi, () => true);

  function sessionOf(ctx: ContextLike): SessionState {
    let id = "";
    try {
      id = ctx.sessionManager.getSessionId?.() ?? "";
    } catch {
      id = "";
    }
    let state = sessions.get(id);
    if (!state) {
      state = { reader: createBranchReader(), memory: undefined, footer: undefined };
      sessions.set(id, state);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value ?? id);
    }
    return state;
  }

  function todoToolActive(): boolean {
    try {
      return pi.getActiveTools().some((name) => TODO_TOOL_NAMES.has(name));
    } catch {
      return false;
    }
  }

  /** Reads the branch and brings the memory to its current anchor. */
  function sync(ctx: ContextLike): { session: SessionState; snapshot: Snapshot; memory: Memory; switched: boolean } {
    const session = sessionOf(ctx);
    const { snapshot, change } = session.reader.read(ctx.sessionManager);
    const switched = change === "switched";
    const memory = align(session.memory, branchFacts(snapshot), switched);
    return { session, snapshot, memory, switched };
  }

  function setFooter(ctx: ContextLike, session: SessionState, text: string | undefined): void {
    if (!ctx.hasUI || session.footer === text) return;
    session.footer = text;
    ctx.ui.setStatus("todo-loop", text);
  }

  function notify(ctx: ContextLike, message: string, type: "info" | "warning" | "error"): void {
    try {
      ctx.ui.notify(message, type);
    } catch {
      // A UI that cannot show a message must not break the turn.
    }
  }

  /** Reports an unexpected failure where a person can see it; the turn goes on untouched. */
  function failed(ctx: ContextLike, where: string, error: unknown): undefined {
    const why = sanitize(error instanceof Error ? error.message : String(error));
    notify(ctx, `todo loop: ${where} failed (${why}); this turn was left as it was.`, "error");
    return undefined;
  }

  async function onTurnEnd(event: TurnEndEventLike, ctx: ContextLike) {
    if (killSwitch(ctx.cwd)) {
      const session = sessionOf(ctx);
      if (session.footer !== undefined) setFooter(ctx, session, "todo loop off");
      return undefined;
    }
    if (!isRecord(event) || !Array.isArray(event.toolResults)) return undefined;
    // Without readable proposals and context there is no telling whether a human message is queued or
    // another handler already continued, nor a way to keep its entries: when unsure, do nothing.
    if (!Array.isArray(event.entries) || typeof event.continue !== "boolean") return undefined;
    if (!isRecord(event.context) || !Array.isArray(event.context.pendingMessages)) return undefined;
    const { config } = loadConfig(configPath());
    const session = sessionOf(ctx);
    const { snapshot, change } = session.reader.read(ctx.sessionManager);
    const list = listState(snapshot, todoToolActive());
    const decision = decide(
      {
        memory: session.memory,
        branchSwitched: change === "switched",
        branch: branchFacts(snapshot),
        turn: turnFacts(event, snapshot),
        list,
        pendingMessages: hasPending(event.context),
        otherContinued: event.continue === true,
        limits: config,
        spend: { tokens: snapshot.tokens, cost: snapshot.cost },
      },
      describeReason,
    );
    session.memory = decision.memory;
    for (const notice of decision.notices) {
      const { message, type } = describeNotice(notice, configPath());
      notify(ctx, message, type);
    }
    setFooter(ctx, session, footerText(decision.memory, list, config, undefined));
    return effects(event, decision);
  }

  pi.on("turn_end", async (event, ctx) => {
    try {
      return await onTurnEnd(event, ctx);
    } catch (error) {
      return failed(ctx, "turn_end", error);
    }
  });

  pi.on("context", async (event, ctx) => {
    try {
      if (killSwitch(ctx.cwd)) return undefined;
      const messages = isRecord(event) ? event.messages : undefined;
      if (!Array.isArray(messages)) return undefined;
      const kept = filterMarkers(messages);
      return kept === messages ? undefined : { messages: kept };
    } catch {
      return undefined;
    }
  });

  pi.registerTool({
    name: BLOCK_TOOL,
    label: "Todo loop: wait for the user",
    description:
      "Stop the todo loop's automatic continuation until the user replies. Call it when the open tasks cannot be finished without a person (a decision, a credential, missing information). Give the reason in one sentence.",
    promptSnippet: "Stop the todo loop's automatic continuation and wait for the user, with a reason",
    promptGuidelines: [
      "Use todo_loop_block when the open todo tasks cannot go on without the user (a decision, access, missing information); give the reason, then end your reply.",
    ],
    parameters: {
      type: "object",
      properties: {
        reason: { type: "string", description: "What you need from the user, in one sentence." },
      },
      required: ["reason"],
      additionalProperties: false,
    },
    async execute(_toolCallId, params: unknown, _signal, _onUpdate, ctx) {
      const disabled = killSwitch(ctx.cwd);
      if (disabled) return textResult(`The todo loop is off (kill switch ${disabled}); there is no continuation to stop.`, { v: 1, waiting: false, off: true });
      const raw = isRecord(params) ? params.reason : undefined;
      const reason = sanitize(raw, 500);
      if (reason === "") throw new Error("todo_loop_block needs a non-empty reason: say what you need from the user.");
      const { session, memory } = sync(ctx);
      if (memory.paused) {
        session.memory = memory;
        return textResult("The todo loop is paused by the user; there is no continuation to stop.", { v: 1, waiting: false, paused: true });
      }
      const waiting = { kind: "waiting", reason } as const;
      session.memory = { ...memory, waiting: reason, last: waiting, announced: describeReason(waiting) };
      notify(ctx, `todo loop: the agent is waiting for you: ${reason}`, "warning");
      return textResult(
        `Recorded. The todo loop will not continue until the user replies. Reason: ${reason}. End your reply now and tell the user what you need.`,
        { v: 1, waiting: true, reason, anchor: memory.anchor },
      );
    },
  });

  pi.registerCommand("todoloop", {
    description: "Todo loop: status | pause | resume | reset",
    getArgumentCompletions(prefix) {
      const items = COMMANDS.filter((word) => word.startsWith(prefix.trim().toLowerCase())).map((word) => ({
        value: word,
        label: word,
      }));
      return items.length > 0 ? items : null;
    },
    async handler(args, ctx) {
      try {
        const command = parseCommand(args);
        if (!command) {
          notify(ctx, `todo loop: unknown sub-command "${sanitize(args, 40)}". Usage: /todoloop [status|pause|resume|reset]`, "error");
          return;
        }
        const disabled = killSwitch(ctx.cwd);
        const loaded: ConfigResult = loadConfig(configPath());
        const { session, snapshot, memory } = sync(ctx);
        const next = applyCommand(memory, command);
        session.memory = next;
        const list = listState(snapshot, todoToolActive());
        if (command === "status") {
          notify(ctx, statusText({
            memory: next,
            list,
            sourceLabel: snapshot.list ? sourceLabel(snapshot.list.source) : undefined,
            spend: { tokens: snapshot.tokens, cost: snapshot.cost },
            limits: loaded.config,
            configFile: configPath(),
            problems: loaded.problems,
            killSwitch: disabled,
          }), "info");
        } else {
          notify(ctx, `todo loop: ${describeReason(next.last)}`, "info");
        }
        setFooter(ctx, session, footerText(next, list, loaded.config, disabled));
      } catch (error) {
        failed(ctx, "/todoloop", error);
      }
    },
  });
}

function branchFacts(snapshot: Snapshot) {
  return {
    anchor: snapshot.anchor,
    round: snapshot.round,
    // The branch is read back from a file anyone can edit: show nothing from it unsanitised.
    waiting: snapshot.waiting === undefined ? undefined : sanitize(snapshot.waiting, 500),
    hadList: snapshot.hadList,
    lastStop: snapshot.lastStop,
  };
}

function hasPending(context: unknown): boolean {
  return isRecord(context) && Array.isArray(context.pendingMessages) && context.pendingMessages.length > 0;
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
  return {
    outcome,
    toolResults: results.length,
    todoOnly,
    calls,
    openBefore: openCount(snapshot.listAtLastReply),
    vanished: vanishedTasks(snapshot.listAtLastReply, snapshot.list),
  };
}

function effects(event: TurnEndEventLike, decision: Decision): { entries: unknown[]; continue?: boolean } | undefined {
  const earlier: unknown[] = Array.isArray(event.entries) ? event.entries : [];
  if (decision.continue && decision.marker) {
    const { tool, ...details } = decision.marker;
    const marker: EntryDraft = {
      type: "custom_message",
      customType: MARKER_TYPE,
      content: nudgeText(tool, details.hint),
      display: false,
      details,
    };
    return { entries: [...earlier, marker], continue: true };
  }
  if (decision.stop) {
    const record: EntryDraft = { type: "custom", customType: STOP_TYPE, data: { ...decision.stop } };
    return { entries: [...earlier, record] };
  }
  return undefined;
}

function textResult(text: string, details: unknown) {
  return { content: [{ type: "text" as const, text }], details };
}
