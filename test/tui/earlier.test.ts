// Proves in the real terminal that tasks from an earlier message show the earlier stop once, as one dim line.
/**
 * Tasks from an earlier message in the interactive terminal (SPEC 0.3 §4.15): after a list is left
 * open, three chat messages in a row show the `earlier` stop once, as one dim transcript line drawn
 * from its stop record, with no notify beside it — not once per message.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox, say, sessionEntries, stops, PLAN_TWO } from "../e2e/harness.ts";
import type { Sandbox, ScriptStep } from "../e2e/harness.ts";
import { countRows, quit, rowsStartingWith, startPi, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { parseAnsi } from "../../scripts/ansi-svg.ts";
import { tmuxAvailable } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

const IDLE = "■ todo loop stopped: the agent stopped 3 times in a row without doing anything, 2 tasks still open; it may need you";
const EARLIER = "■ todo loop not continuing: 2 tasks are open from an earlier message — /todoloop continue to go on with them";
const REPLIES = ["parseArgs splits argv into flags.", "Yes, -v means verbose.", "You are welcome."];
const SCRIPT: ScriptStep[] = [PLAN_TWO, say("Planned; stopping here."), say("Still stopping."), say("Stopping again."), ...REPLIES.map((text) => say(text))];

let box: Sandbox | undefined;
let terminal: Terminal | undefined;
let screen: { text: string; ansi: string } | undefined;
let failure: unknown;

before(async () => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  box = sandbox({ script: SCRIPT, settings: TERMINAL_SETTINGS });
  try {
    terminal = await startPi(box);
    submit(terminal, "Plan the parser work");
    await terminal.waitFor((text) => text.includes(IDLE), 30_000, "message 1's idle stop line");
    const prompts = ["What does parseArgs do?", "And -v?", "Thanks"];
    for (const [index, prompt] of prompts.entries()) {
      submit(terminal, prompt);
      const reply = REPLIES[index] ?? "";
      await terminal.waitFor((text) => text.includes(reply), 30_000, `the reply to ${prompt}`);
    }
    // Let a late line or notify land before the screen is read.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    screen = { text: terminal.screen(), ansi: terminal.screenAnsi() };
    await quit(terminal);
  } catch (error) {
    failure = error;
  }
}, { timeout: 120_000 });

after(() => {
  terminal?.stop();
  box?.cleanup();
});

function captured(): { text: string; ansi: string } {
  if (failure !== undefined) throw failure;
  assert.ok(screen, "the scenario did not run");
  return screen;
}

test("three chat messages after an open list: the earlier line shows once in the transcript, not three times, and is not notified beside it", () => {
  const { text } = captured();
  assert.deepEqual(rowsStartingWith(text, "■"), [IDLE, EARLIER], "one stop line per stop, the earlier one once");
  assert.equal(countRows(text, "are open from an earlier message"), 1, "no notify beside the transcript line (the footer names it apart: `· from an earlier message`)");
  assert.ok(box, "sandbox");
  assert.deepEqual(stops(sessionEntries(box)).map((entry) => (entry.data as { kind?: unknown }).kind), ["idle", "earlier"]);
});

test("the earlier line is a note, not a warning: drawn dim, unlike the idle stop", () => {
  const { ansi } = captured();
  const runs = (wanted: string) => {
    const row = parseAnsi(ansi).find((line) => line.map((run) => run.text).join("").trim() === wanted);
    assert.ok(row, `no row ${wanted}`);
    return row.filter((run) => run.text.trim() !== "");
  };
  assert.ok(runs(EARLIER).every((run) => run.style.dim), "dim");
  assert.ok(runs(IDLE).every((run) => !run.style.dim), "the idle stop stays a warning");
});
