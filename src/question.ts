/**
 * Whether a reply ends by asking the human something (SPEC §4.8), as a pure function of its text.
 * The rule: drop trailing blank lines and a trailing fenced code block, take the last non-empty line,
 * strip markdown decoration and closing quotes or brackets; a question ends with `?`, `？` or `؟`.
 * A question inside a code block, or one followed by more text, is not a question to the human.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const QUESTION_END = /[?？؟]$/u;
/** A quote or list prefix, a heading, or emphasis openers at the start of a line. */
const LEADING = /^\s*(?:(?:>|[-*+•]|\d{1,9}[.)]|#{1,6})(?:\s+|$)|[*_~`]+)/u;
/** Emphasis, closing quotes and brackets after the question mark. */
const TRAILING = /[\s*_~`"'”’»›)\]}」』】〉》]+$/u;

function isBlank(line: string): boolean {
  return line.trim() === "";
}

function dropTrailingBlanks(lines: string[]): void {
  while (lines.length > 0 && isBlank(lines[lines.length - 1] ?? "")) lines.pop();
}

/** The last line of the reply as a question to the human, undecorated; undefined when it is none. */
export function askedQuestion(text: string): string | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  const lines = text.split(/\r\n|\r|\n/);
  const fences = lines.filter((line) => FENCE.test(line)).length;
  // An unclosed fence: the reply ends inside a code block.
  if (fences % 2 === 1) return undefined;
  dropTrailingBlanks(lines);
  const last = lines[lines.length - 1] ?? "";
  if (FENCE.test(last)) {
    lines.pop();
    while (lines.length > 0 && !FENCE.test(lines[lines.length - 1] ?? "")) lines.pop();
    lines.pop();
    dropTrailingBlanks(lines);
  }
  const line = lines[lines.length - 1];
  if (line === undefined) return undefined;
  let bare = line;
  for (let previous = ""; previous !== bare; ) {
    previous = bare;
    bare = bare.replace(LEADING, "");
  }
  bare = bare.replace(TRAILING, "").trim();
  return QUESTION_END.test(bare) ? bare : undefined;
}

/** The text blocks of an assistant message (not thinking, not tool calls), one per line. */
export function replyText(message: unknown): string {
  if (typeof message !== "object" || message === null) return "";
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type === "text" && typeof text === "string") texts.push(text);
  }
  return texts.join("\n");
}
