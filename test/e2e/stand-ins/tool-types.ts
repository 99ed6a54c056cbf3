/**
 * The few pi shapes the test-only todo stand-ins use, declared structurally (nothing imported from pi).
 */

export interface ToolResult {
  content: Array<{ type: "text"; text: string }>;
  details: unknown;
}

export interface ToolDefinition {
  name: string;
  label: string;
  description: string;
  parameters: object;
  execute(toolCallId: string, params: never): Promise<ToolResult>;
}

export interface ToolPi {
  registerTool(tool: ToolDefinition): void;
  appendEntry(customType: string, data?: unknown): void;
}

export function text(value: string): ToolResult["content"] {
  return [{ type: "text", text: value }];
}
