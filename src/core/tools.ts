/**
 * Which tool calls only read, for the busy-but-stuck brakes (SPEC §4.10): one table. pi's own reading
 * tools and this extension's block tool are fixed here; each todo adapter declares its own read calls,
 * and `sources/index.ts` joins the two into the `ToolTable` the reader hands to `reply.ts`.
 */

/** The tool the agent calls when the open tasks cannot go on without a person (SPEC §6). */
export const BLOCK_TOOL = "todo_loop_block";

/** pi's tools that only read, and the block tool: a call of one changes nothing. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["read", "grep", "find", "ls", BLOCK_TOOL]);

/** What the reply tracker needs to know of the tools: which are todo tools, and which calls only read. */
export interface ToolTable {
  readonly todoTools: ReadonlySet<string>;
  readsOnly(name: string, args: unknown): boolean;
}
