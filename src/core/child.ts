/**
 * Child sessions (SPEC §4.18): whether this session was started by another one — a subagent running in
 * its own process (an environment marker) or a second session of this extension inside one pi process —
 * and how the loop behaves there (config `children`). Pure: the host reads the environment and keeps the
 * process's registry of live sessions; the rules here only look at what it hands over.
 */

/** Config `children`: quiet in a child (the default), nothing at all, or like any session. */
export type ChildrenSetting = "quiet" | "off" | "full";
export const CHILDREN_SETTINGS: readonly ChildrenSetting[] = ["quiet", "off", "full"];

/**
 * The environment variables that mark a child process, each set to exactly "1": nicobailon/pi-subagents,
 * pi-code, and this extension's own for any other tool that starts pi for a subtask.
 */
export const CHILD_MARKERS: readonly string[] = ["PI_SUBAGENT_CHILD", "PI_CODE_SUBAGENT", "TODO_LOOP_CHILD"];

/** Why a session that no marker names is a child: another live session of this extension started first. */
export const SECOND_SESSION = "a second session in this process";

export interface ChildRule {
  readonly child: boolean;
  /** The marker's name (`PI_SUBAGENT_CHILD`), or `SECOND_SESSION`; "" for a session that is no child. */
  readonly why: string;
}

export const NOT_A_CHILD: ChildRule = { child: false, why: "" };

/** What the environment holds, as far as the rule reads it. */
export type EnvLike = { readonly [name: string]: string | undefined };

/**
 * The child rule: the first marker set to exactly "1" (`PI_SUBAGENT_CHILD=0`, `true` or ` 1` mark
 * nothing), else a second session in the process. A marker wins over the registry: it names the tool.
 */
export function childRule(env: EnvLike, secondInProcess: boolean): ChildRule {
  for (const name of CHILD_MARKERS) {
    try {
      if (env[name] === "1") return { child: true, why: name };
    } catch {
      // A variable whose read throws marks nothing.
    }
  }
  return secondInProcess ? { child: true, why: SECOND_SESSION } : NOT_A_CHILD;
}

/** One live session of this extension in the process, as the registry keeps it. */
export interface LiveSession<K> {
  /** The session's identity: its session manager (one object per session, kept across `/reload`). */
  readonly key: K;
  /** Its session id; "" when unknown. */
  readonly id: string;
  /** Whether it was a child when it started (by any rule). */
  readonly child: boolean;
}

/** Whether `entry` is the session `key`/`id` names: the same manager, or the same known id. */
export function sameSession<K>(entry: LiveSession<K>, key: K, id: string): boolean {
  return entry.key === key || (id !== "" && entry.id === id);
}

/**
 * Whether a session starting now is a second session in the process: another live session that is not
 * itself a child started first. Children do not count, so a parent that reloads, or starts a new
 * session while a child it started still runs, stays the parent; and a child stays a child when its
 * parent ends first (decided once, when it starts). `live` holds the sessions still running, oldest first.
 */
export function startedAfterParent<K>(live: readonly LiveSession<K>[], key: K, id: string): boolean {
  return live.some((entry) => !entry.child && !sameSession(entry, key, id));
}

/**
 * A session starting now: its rule, and whether the registry knows it already (then it is not added
 * again). Starting again (pi 1.5.2 fires `session_start` twice in RPC) keeps the rule it was given the
 * first time: a session is never a child of itself.
 */
export function enrol<K>(live: readonly LiveSession<K>[], key: K, id: string, env: EnvLike): { readonly known: boolean; readonly rule: ChildRule } {
  const known = live.find((entry) => sameSession(entry, key, id));
  if (known) return { known: true, rule: childRule(env, known.child) };
  return { known: false, rule: childRule(env, startedAfterParent(live, key, id)) };
}

/** The registry after a session ended (`session_shutdown`). */
export function withdraw<K, E extends LiveSession<K>>(live: readonly E[], key: K, id: string): E[] {
  return live.filter((entry) => !sameSession(entry, key, id));
}

/** How the loop behaves in a session: as in any session, quietly (reaching nobody but its event bus), or not at all. */
export type ChildConduct = "normal" | "quiet" | "off";

export function childConduct(rule: ChildRule, setting: ChildrenSetting): ChildConduct {
  if (!rule.child || setting === "full") return "normal";
  return setting;
}
