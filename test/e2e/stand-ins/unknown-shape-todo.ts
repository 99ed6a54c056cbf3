/**
 * Test-only pi extension: a tool named `todo` whose results keep a list in a shape no known todo tool
 * uses (`details.items` of `{ name, state }`), so pi-todo-loop sees todo results it cannot read.
 */
import { text } from "./tool-types.ts";
import type { ToolPi } from "./tool-types.ts";

interface Params {
  item?: string;
}

export default function unknownShapeTodo(pi: ToolPi): void {
  const items: Array<{ name: string; state: string }> = [];
  pi.registerTool({
    name: "todo",
    label: "Todo (unknown shape)",
    description: "Adds an item to a checklist.",
    parameters: { type: "object", properties: { item: { type: "string" } }, additionalProperties: false },
    async execute(_toolCallId, params: Params) {
      if (params.item) items.push({ name: params.item, state: "todo" });
      return { content: text(`${items.length} items`), details: { items: items.map((item) => ({ ...item })) } };
    },
  });
}
