/**
 * The facts the text tests read their English from (text-status.test.ts, text-stops.test.ts): a list, a
 * memory, a status view, and the usage-limit reasons, at fixed local times whatever the machine's zone.
 */
import type { StatusView } from "../../src/core/text.ts";
import type { ListState, Memory, Reason } from "../../src/core/types.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import { freshMemory } from "../../src/loop.ts";

export const LIST: Extract<ListState, { kind: "list" }> = { kind: "list", open: 2, total: 5, signature: "s", source: "rpiv-todo", tool: "todo" };

export function memory(overrides: Partial<Memory> = {}): Memory {
  return { ...freshMemory("u1"), ...overrides };
}

export const CONFIG = "/home/u/.pi/agent/todo-loop.json";

/** 14:02 local time, whatever the machine's time zone. */
export const ANCHOR_TIME = new Date(2026, 10, 30, 14, 2, 30).getTime();

export function view(overrides: Partial<StatusView> = {}): StatusView {
  return {
    memory: memory({ round: 3, staleSettles: 1, last: { kind: "continuing", open: 2, round: 3, maxRounds: null } }),
    list: LIST,
    sourceLabel: "rpiv-todo",
    spend: { tokens: 12_345, cost: 0.0421, minutes: 4.25 },
    limits: DEFAULT_CONFIG,
    configFile: CONFIG,
    problems: [],
    killSwitch: undefined,
    anchorTime: ANCHOR_TIME,
    ...overrides,
  };
}

/** 15:42 local time, whatever the machine's time zone; NOW is 37 minutes before it. */
export const RESUME_AT = new Date(2026, 11, 5, 15, 42, 0).getTime();

export const NOW = RESUME_AT - 37 * 60_000;

export const WAITING_FOR_LIMIT: Reason = { kind: "limit-wait", state: "waiting", resumeAtMs: RESUME_AT, waitMinutes: 37, atMs: NOW, first: true, timer: true };

export const WAITING_HEADLESS: Reason = { ...WAITING_FOR_LIMIT, timer: false };

export const GAVE_UP: Reason = { kind: "limit-wait", state: "gave-up", why: "spent", capMinutes: 300, atMs: NOW };
