/**
 * Where the test-only pi extensions of this folder live, for `-e` lists.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** A second continuation extension (appends its own hidden message and continues on settles). */
export const OTHER_CONTINUATION = join(here, "other-continuation.ts");
/** Fixed usage for every assistant reply, from PI_TODO_LOOP_E2E_USAGE. */
export const FIXED_USAGE = join(here, "usage.ts");
/** `/e2e-hidden-turn` and `/e2e-reload-runtime`. */
export const SESSION_CONTROL = join(here, "session-control.ts");
/** `/e2e-deactivate <tool>`: takes a tool out of the active set mid-session. */
export const TOOL_SWITCH = join(here, "tool-switch.ts");
/** A `todo` tool whose results are in a shape no known todo tool uses. */
export const UNKNOWN_SHAPE_TODO = join(here, "unknown-shape-todo.ts");
/** A fork of rpiv-todo with statuses of its own (`failed`, `blocked`), in rpiv-todo's result shape. */
export const RPIV_FORK_TODO = join(here, "rpiv-fork-todo.ts");
/** @ian-pascoe/pi-todo's persistence, exactly. */
export const IAN_PASCOE_TODO = join(here, "ian-pascoe-todo.ts");
/** @nguyenquangthai/pi-todo's persistence (todo_write / todo_update / todo_read), exactly. */
export const QUANGTHAI_TODO = join(here, "quangthai-todo.ts");
/** @zhushanwen/pi-todo's persistence (full list in every `todo` result, `status` items), exactly. */
export const ZHUSHANWEN_TODO = join(here, "zhushanwen-todo.ts");
/** @tintinweb/pi-tasks' persistence (Task* tools without details, the list in a task file), exactly. */
export const TINTINWEB_TASKS = join(here, "tintinweb-tasks.ts");
/** An `agent_before_settle` handler that holds the end of every run for two seconds. */
export const SLOW_SETTLE = join(here, "slow-settle.ts");
/** Another extension on pi's bus: logs `todo-loop:state` and `todo-loop:stop`; `/e2e-bus <json>` sends a `todo-loop:request` and logs its replies. */
export const BUS_CLIENT = join(here, "bus-client.ts");
