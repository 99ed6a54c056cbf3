/**
 * Child sessions (SPEC §4.18), wired: the process's registry of live sessions of this extension (a
 * `globalThis` symbol, so every copy of the module — a `/reload`, a second install, a session started
 * inside pi's process by a subagent extension — sees the same one), filled at `session_start` and
 * emptied at `session_shutdown`, and the one fact each session keeps: its child rule. The rules are in
 * `core/child.ts`.
 */
import { childConduct, childRule, enrol, NOT_A_CHILD, startedAfterParent, withdraw } from "../core/child.ts";
import type { ChildConduct, ChildRule, ChildrenSetting, EnvLike, LiveSession } from "../core/child.ts";
import type { ContextLike } from "../core/pi-shapes.ts";

const REGISTRY_KEY = Symbol.for("pi-todo-loop.sessions");

/** A live session: its manager, id and rule, and whether it is still running (a disposed session's ctx throws). */
interface Entry extends LiveSession<object> {
  readonly alive: () => boolean;
}

interface Registry {
  live: readonly Entry[];
}

function registry(): Registry {
  const holder = globalThis as { [REGISTRY_KEY]?: Registry };
  const found = holder[REGISTRY_KEY];
  if (found && Array.isArray(found.live)) return found;
  const fresh: Registry = { live: [] };
  holder[REGISTRY_KEY] = fresh;
  return fresh;
}

/**
 * pi makes a session's ctx throw once the session is disposed (`ctx is stale`): a session that ended
 * without `session_shutdown` (a subagent's session disposed by its extension) no longer counts.
 */
function aliveCheck(ctx: ContextLike): () => boolean {
  return () => {
    try {
      void ctx.sessionManager;
      return true;
    } catch {
      return false;
    }
  };
}

function sessionIdOf(manager: { getSessionId?(): string }): string {
  try {
    const id = manager.getSessionId?.();
    return typeof id === "string" ? id : "";
  } catch {
    return "";
  }
}

export interface Children {
  /** `session_start`: enrols the session (idempotent) and keeps its rule. */
  started(ctx: ContextLike): ChildRule;
  /** `session_shutdown`: the session leaves the registry. */
  ended(ctx: ContextLike): void;
  /** The session's rule, gathered at its start (or now, without enrolling, for a session not seen starting). */
  ruleOf(ctx: ContextLike): ChildRule;
  /** How the loop behaves in this session under `setting`. */
  conductOf(ctx: ContextLike, setting: ChildrenSetting): ChildConduct;
}

export function createChildren(env: EnvLike = process.env): Children {
  const rules = new WeakMap<object, ChildRule>();

  function managerOf(ctx: ContextLike): object | undefined {
    try {
      const manager: unknown = ctx.sessionManager;
      return typeof manager === "object" && manager !== null ? manager : undefined;
    } catch {
      return undefined;
    }
  }

  function liveNow(): readonly Entry[] {
    const held = registry();
    const live = held.live.filter((entry) => {
      try {
        return entry.alive();
      } catch {
        return false;
      }
    });
    if (live.length !== held.live.length) held.live = live;
    return live;
  }

  function ruleOf(ctx: ContextLike): ChildRule {
    const manager = managerOf(ctx);
    if (!manager) return childRule(env, false);
    const known = rules.get(manager);
    if (known) return known;
    const rule = childRule(env, startedAfterParent(liveNow(), manager, sessionIdOf(manager)));
    rules.set(manager, rule);
    return rule;
  }

  return {
    started(ctx) {
      const manager = managerOf(ctx);
      if (!manager) return childRule(env, false);
      const id = sessionIdOf(manager);
      const before = liveNow();
      const { known, rule } = enrol<object>(before, manager, id, env);
      if (!known) registry().live = [...before, { key: manager, id, child: rule.child, alive: aliveCheck(ctx) }];
      rules.set(manager, rule);
      return rule;
    },
    ended(ctx) {
      const manager = managerOf(ctx);
      if (!manager) return;
      const held = registry();
      held.live = withdraw(held.live, manager, sessionIdOf(manager));
    },
    ruleOf,
    conductOf(ctx, setting) {
      let rule: ChildRule;
      try {
        rule = ruleOf(ctx);
      } catch {
        rule = NOT_A_CHILD;
      }
      return childConduct(rule, setting);
    },
  };
}
