/**
 * `npm run demo`: the loop on the real host. Runs the real pi CLI in RPC mode with the real
 * @juicesharp/rpiv-todo, this package and a scripted model (no network, no API key), in a throwaway
 * home, and prints what happens as a transcript: the model plans, stops with tasks open, gets one hidden
 * nudge, continues, finishes, and the loop stops because the list is clear. Then `/todoloop` reports.
 *
 * Exits non-zero when the continuation did not happen as shown.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RpcClient } from "@earendil-works/pi-coding-agent";
import { baseArgs, extensionArgs, MARKER_TYPE, PI_CLI, PI_PACKAGE, RPIV_TODO, requests, sandbox, STOP_TYPE } from "../test/e2e/harness.ts";
import type { ScriptStep } from "../test/e2e/harness.ts";

type Json = { readonly [key: string]: unknown };

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function versionOf(packageDir: string): string {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
    return isRecord(parsed) ? text(parsed.version) : "?";
  } catch {
    return "?";
  }
}

// ---------------------------------------------------------------------------------------------------
// Output: plain text when not a terminal (or NO_COLOR is set), a little colour otherwise.

const color = process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== "dumb";
const paint = (code: string) => (value: string) => (color ? `\u001b[${code}m${value}\u001b[0m` : value);
const bold = paint("1");
const dim = paint("2");
const cyan = paint("36");
const yellow = paint("33");
const green = paint("32");
const red = paint("31");
const magenta = paint("35");

// A reader that goes away (`npm run demo | head`) must not leave pi or the temporary home behind.
let outputClosed = false;
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  outputClosed = true;
});
function write(value: string): void {
  if (!outputClosed) process.stdout.write(value);
}

const WIDTH = 10;
function say(who: string, line: string, tint: (value: string) => string = (value) => value): void {
  const [first = "", ...rest] = line.split("\n");
  write(`${tint(who.padEnd(WIDTH))}${first}\n`);
  for (const more of rest) write(`${" ".repeat(WIDTH)}${more}\n`);
}
function blank(): void {
  write("\n");
}
function heading(title: string): void {
  write(`${bold(title)}\n`);
}
function rule(title: string): void {
  const line = `── ${title} `;
  write(`${magenta(bold(line + "─".repeat(Math.max(4, 100 - line.length))))}\n`);
}

// ---------------------------------------------------------------------------------------------------
// The story the scripted model plays: three tasks, a stop halfway, the loop's nudges, the finish.

const PROMPT = "Add a --json flag to the report command, with tests and docs.";
const TASKS = ["Parse the --json flag", "Print the report as JSON", "Document --json in the README"];

const create = (subject: string) => ({ name: "todo", args: { action: "create", subject } });
const complete = (id: number) => ({ name: "todo", args: { action: "update", id, status: "completed" } });
const start = (id: number) => ({ name: "todo", args: { action: "update", id, status: "in_progress" } });

const SCRIPT: ScriptStep[] = [
  { text: "I'll plan this as three tasks.", calls: TASKS.map(create) },
  { text: "The plan is in place. The flag parsing is the next step." },
  { text: "Continuing with the open tasks: the flag is parsed and the report prints JSON.", calls: [complete(1), complete(2), start(3)] },
  { text: "The code part is finished; the README still needs a section." },
  { text: "Writing the README section now.", calls: [complete(3)] },
  { text: "All three tasks are done: --json is parsed, printed and documented." },
];

// ---------------------------------------------------------------------------------------------------

interface Seen {
  markers: Json[];
  stops: Json[];
  notifies: Array<{ message: string; type: string }>;
}

function describeCall(args: unknown): string {
  if (!isRecord(args)) return "";
  const parts: string[] = [];
  if (typeof args.action === "string") parts.push(args.action);
  if (args.id !== undefined) parts.push(`#${String(args.id)}`);
  if (typeof args.subject === "string") parts.push(JSON.stringify(args.subject));
  if (typeof args.status === "string") parts.push(`→ ${args.status}`);
  return parts.join(" ");
}

function taskLines(details: unknown): string[] {
  if (!isRecord(details) || !Array.isArray(details.tasks)) return [];
  return details.tasks.filter(isRecord).filter((task) => task.status !== "deleted").map((task) => {
    const box = task.status === "completed" ? "[x]" : task.status === "in_progress" ? "[~]" : "[ ]";
    return `${box} #${String(task.id)} ${text(task.subject)}  (${text(task.status)})`;
  });
}

function openTasks(details: unknown): number {
  if (!isRecord(details) || !Array.isArray(details.tasks)) return 0;
  return details.tasks.filter((task) => isRecord(task) && (task.status === "pending" || task.status === "in_progress")).length;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter(isRecord).map((block) => (block.type === "text" ? text(block.text) : "")).join("");
}

async function main(): Promise<number> {
  const started = Date.now();
  // A TMPDIR inside the temporary home: pi's compile caches go with it, so nothing is left behind.
  const box = sandbox({ script: SCRIPT, isolatedTmp: true });
  const client = new RpcClient({
    cliPath: PI_CLI,
    cwd: box.cwd,
    env: box.env,
    args: [...extensionArgs(), ...baseArgs(box)],
  });
  const cleanup = async () => {
    await client.stop().catch(() => undefined);
    box.cleanup();
  };
  const interrupted = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  const seen: Seen = { markers: [], stops: [], notifies: [] };
  let footer: string | undefined;
  let footerShown: string | undefined;
  let lastTasks: unknown;
  const callArgs = new Map<string, unknown>();
  const flushFooter = () => {
    if (footer === footerShown) return;
    footerShown = footer;
    say("footer", footer === undefined ? dim("(cleared: no task open)") : footer, yellow);
  };
  let continuedAfterMarker = false;

  heading("pi-todo-loop demo");
  write(`${dim(`Real pi ${versionOf(PI_PACKAGE)} CLI in RPC mode, @juicesharp/rpiv-todo ${versionOf(RPIV_TODO)}, this package, and a`)}\n`);
  write(`${dim("scripted model. No network, no API key; everything runs in a temporary home removed afterwards.")}\n`);
  blank();

  const unsubscribe = client.onEvent((event: unknown) => {
    if (!isRecord(event)) return;
    switch (event.type) {
      case "message_end": {
        const message = event.message;
        if (!isRecord(message)) return;
        if (message.role === "toolResult") {
          // Tool results arrive here in the order the model made the calls.
          const call = `${text(message.toolName)} ${describeCall(callArgs.get(text(message.toolCallId)))}`.trimEnd();
          say("", dim(`↳ ${call}  →  ${contentText(message.content)}`));
          if (text(message.toolName) === "todo") lastTasks = message.details;
          return;
        }
        if (message.role !== "assistant") return;
        if (seen.markers.length > 0) continuedAfterMarker = true;
        const calls = Array.isArray(message.content) ? message.content.filter((block) => isRecord(block) && block.type === "toolCall") : [];
        const open = openTasks(lastTasks);
        const note = calls.length === 0 && open > 0 ? dim(`   (no tool call, ${open} open: pi would end the run here)`) : "";
        say("model", `${contentText(message.content)}${note}`, cyan);
        return;
      }
      case "tool_execution_start":
        callArgs.set(text(event.toolCallId), event.args);
        return;
      case "turn_end": {
        if (Array.isArray(event.toolResults) && event.toolResults.length > 0) {
          const lines = taskLines(lastTasks);
          if (lines.length > 0) say("list", lines.join("\n"), dim);
        }
        flushFooter();
        return;
      }
      case "entry_appended": {
        const entry = event.entry;
        if (!isRecord(entry)) return;
        if (entry.type === "custom_message" && entry.customType === MARKER_TYPE) {
          seen.markers.push(entry);
          const details = isRecord(entry.details) ? entry.details : {};
          const open = typeof details.open === "number" ? details.open : 0;
          blank();
          rule(`todo loop: the model stopped with ${open} ${open === 1 ? "task" : "tasks"} open`);
          say(
            "loop",
            `appended a "${MARKER_TYPE}" entry (display: ${String(entry.display)}: the terminal shows one short line for it, never its text) and asked pi for another turn\n` +
              `details: round ${String(details.round)}, open ${String(details.open)}, hint ${String(details.hint)}, anchor ${String(details.anchor)}`,
            magenta,
          );
          say("nudge", `"${contentText(entry.content)}"`, magenta);
          say("", dim("(the model receives this as a user message; in the terminal the human sees only \"↻ todo loop: continue N · X of Y open\")"));
          flushFooter();
          rule("next turn");
          blank();
        } else if (entry.type === "custom" && entry.customType === STOP_TYPE) {
          seen.stops.push(entry);
          flushFooter();
          const data = isRecord(entry.data) ? entry.data : {};
          say(
            "record",
            `hidden "${STOP_TYPE}" entry: reason "${text(data.reason)}", round ${String(data.round)}, open ${String(data.open)}`,
            magenta,
          );
        }
        return;
      }
      case "extension_ui_request": {
        if (event.method === "setStatus" && event.statusKey === "todo-loop") {
          footer = typeof event.statusText === "string" ? event.statusText : undefined;
        } else if (event.method === "notify") {
          const message = text(event.message);
          const type = text(event.notifyType) || "info";
          seen.notifies.push({ message, type });
          say("notify", `[${type}] ${message}`, type === "info" ? green : yellow);
        }
        return;
      }
      default:
        return;
    }
  });

  const failures: string[] = [];
  try {
    await client.start();
    heading("Act 1: the model stops with tasks open, and the loop asks for another turn");
    blank();
    say("human", PROMPT, bold);
    await client.promptAndWait(PROMPT, undefined, 30_000);

    blank();
    heading("Act 2: /todoloop shows what the loop did");
    blank();
    say("human", "/todoloop", bold);
    const before = seen.notifies.length;
    await client.prompt("/todoloop");
    for (let waited = 0; seen.notifies.length === before && waited < 3_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // Check the story against the session itself, not just the event stream.
    const { entries } = await client.getEntries();
    const markerEntries = entries.filter((entry) => entry.type === "custom_message" && entry.customType === MARKER_TYPE);
    const stopEntries = entries.filter((entry) => entry.type === "custom" && entry.customType === STOP_TYPE);
    if (markerEntries.length === 0) failures.push(`no "${MARKER_TYPE}" entry in the session: the loop did not continue`);
    // With the default config (transcript on) a marker is displayed: its renderer shows one short line.
    if (markerEntries.some((entry) => entry.type === "custom_message" && entry.display !== true)) failures.push("a marker is not displayed although the transcript is on");
    if (!continuedAfterMarker) failures.push("the model was not asked for another turn after the marker");
    const consumed = requests(box).length;
    if (consumed !== SCRIPT.length) failures.push(`the model answered ${consumed} requests, the script has ${SCRIPT.length}`);
    const reasons = stopEntries.map((entry) => (entry.type === "custom" && isRecord(entry.data) ? text(entry.data.reason) : ""));
    if (reasons.at(-1) !== "stopped: list is clear") failures.push(`the last stop record is ${JSON.stringify(reasons.at(-1) ?? null)}, not "stopped: list is clear"`);
    if (!seen.notifies.some((note) => note.type === "info" && note.message === "todo loop stopped: list is clear")) {
      failures.push('no info notification "todo loop stopped: list is clear"');
    }
    if (seen.notifies.length === before) failures.push("/todoloop reported nothing");

    blank();
    heading("In the session file (what `grep todo-loop: <session>.jsonl` finds)");
    for (const entry of [...markerEntries, ...stopEntries]) {
      const { id: _id, parentId: _parentId, timestamp: _timestamp, ...rest } = entry;
      write(`${dim(JSON.stringify(rest))}\n`);
    }
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    unsubscribe();
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    await cleanup();
  }

  blank();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length > 0) {
    write(`${red(bold("FAILED"))}: the demo did not go as shown (${seconds} s)\n`);
    for (const failure of failures) write(`  - ${failure}\n`);
    return 1;
  }
  write(
    `${green(bold("OK"))}: ${seen.markers.length} continuations (one marker each), ${SCRIPT.length} model replies, ` +
      `stopped because the list is clear (${seconds} s).\n`,
  );
  return 0;
}

process.exitCode = await main();
