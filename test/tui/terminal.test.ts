// Proves in the real terminal the footer, the transcript lines, /todoloop and its completions, also after pi -c.
/**
 * The interactive terminal UI (SPEC §7, §11): the real `pi` in a real terminal (tmux), with real
 * rpiv-todo and the scripted model, read back from the screen a person sees — the footer while tasks are
 * open, one transcript line per continuation and per stop, `/todoloop` and its completions, and the same
 * lines and footer after the session is resumed with `pi -c`.
 *
 * One scenario drives pi once (two human messages) and captures the screen at each point; the tests then
 * read those captures. Message 1 ends with the list clear after two continuations; message 2 adds a
 * task, is continued once and ends on a provider error with the task still open.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createTasks, markers, sandbox, say, sessionEntries, stops, updateTasks } from "../e2e/harness.ts";
import type { Sandbox, ScriptStep } from "../e2e/harness.ts";
import { assertOnScreen, countRows, quit, rowsStartingWith, startPi, statusRow, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { parseAnsi } from "../../scripts/ansi-svg.ts";
import { tmuxAvailable } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

const FIRST_PROMPT = "Write the parser and its tests";
const SECOND_PROMPT = "Now update the docs";

const SCRIPT: ScriptStep[] = [
  createTasks("Write the parser", "Add tests"),
  say("The parser is written; I will stop here."),
  updateTasks([1]),
  say("Parser marked done; stopping again."),
  updateTasks([2]),
  say("All done."),
  createTasks("Update the docs"),
  say("The docs are next; stopping."),
  { stopReason: "error", errorMessage: "the provider is down" },
];

const CONTINUATIONS = [
  "↻ todo loop: continue 1 · 2 of 2 open",
  "↻ todo loop: continue 2 · 1 of 2 open",
  "↻ todo loop: continue 1 · 1 of 3 open",
];
const CLEAR = "■ todo loop stopped: list is clear";
const ERROR = "■ todo loop stopped: turn outcome was error";
/** After the error stop the footer names the stop, not the running count; resumed with -c, from the stop record's kind. */
const FOOTER = "todo loop stopped: error · todo 1 of 3 open";
const RESUMED_FOOTER = "todo loop stopped: error or Escape · todo 1 of 3 open";
const SUBCOMMANDS = ["pause", "resume", "reset", "continue", "status"];

interface Captures {
  /** After message 1: the list is clear. */
  cleared: string;
  /** After message 2: one task open, the run ended on an error. */
  open: string;
  /** The same, with colours. */
  openAnsi: string;
  /** After `/todoloop`. */
  status: string;
  /** With `/todoloop ` typed in the editor. */
  completions: string;
  /** `pi -c` in the same dirs. */
  resumed: string;
  resumedAnsi: string;
}

let box: Sandbox | undefined;
let terminal: Terminal | undefined;
let captures: Captures | undefined;
let failure: unknown;

before(async () => {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH (Debian: apt-get install -y tmux)");
  box = sandbox({ script: SCRIPT, settings: TERMINAL_SETTINGS });
  try {
    terminal = await startPi(box);
    submit(terminal, FIRST_PROMPT);
    const cleared = await terminal.waitFor((screen) => screen.includes(CLEAR) && !statusRow(screen).includes("todo"), 30_000, "message 1's stop line and a cleared footer");
    assertOnScreen(cleared, FIRST_PROMPT);
    submit(terminal, SECOND_PROMPT);
    const open = await terminal.waitFor((screen) => screen.includes(ERROR) && statusRow(screen).includes("todo"), 30_000, "message 2's stop line and the footer");
    assertOnScreen(open, FIRST_PROMPT);
    const openAnsi = terminal.screenAnsi();
    submit(terminal, "/todoloop");
    const status = await terminal.waitFor(/tasks open: 1 of 3/, 10_000, "the /todoloop report");
    terminal.type("/todoloop ");
    const completions = await terminal.waitFor((screen) => SUBCOMMANDS.every((word) => completionRow(screen, word) !== undefined), 10_000, "the five /todoloop completions");
    await quit(terminal);
    terminal.stop();

    terminal = await startPi(box, { args: ["-c"] });
    const resumed = await terminal.waitFor((screen) => screen.includes(ERROR) && statusRow(screen).includes("todo"), 30_000, "the resumed transcript and footer");
    assertOnScreen(resumed, FIRST_PROMPT);
    const resumedAnsi = terminal.screenAnsi();
    await quit(terminal);
    captures = { cleared, open, openAnsi, status, completions, resumed, resumedAnsi };
  } catch (error) {
    failure = error;
  }
}, { timeout: 90_000 });

after(() => {
  terminal?.stop();
  box?.cleanup();
});

function screens(): Captures {
  if (failure !== undefined) throw failure;
  assert.ok(captures, "the scenario did not run");
  return captures;
}

/** The completion row of `word`: the word, then a description after a gap. */
function completionRow(screen: string, word: string): string | undefined {
  return screen.split("\n").map((row) => row.replace(/^\s*→?\s*/, "")).find((row) => new RegExp(`^${word}\\s{2,}\\S`).test(row));
}

test("while a task is open the footer names what it counts — after the error stop: todo loop stopped: error · todo 1 of 3 open — never a bare X/Y", () => {
  const { open } = screens();
  const footer = statusRow(open);
  assert.ok(footer.includes(FOOTER), `footer: ${footer}`);
  assert.doesNotMatch(footer, /\d+\/\d+/, `a bare X/Y in the footer: ${footer}`);
});

test("when the list is clear the loop's footer is gone", () => {
  assert.doesNotMatch(statusRow(screens().cleared), /todo/);
});

test("each continuation shows as one line in the transcript, in order, and never the nudge's text", () => {
  const { open } = screens();
  assert.deepEqual(rowsStartingWith(open, "↻"), CONTINUATIONS);
  assert.ok(box, "sandbox");
  assert.equal(markers(sessionEntries(box)).length, CONTINUATIONS.length, "one line per marker in the session file");
  assert.equal(countRows(open, "Continue with the open tasks"), 0);
});

test("each stop shows as one line and is not announced a second time", () => {
  const { open } = screens();
  assert.deepEqual(rowsStartingWith(open, "■"), [CLEAR, ERROR]);
  assert.equal(countRows(open, "todo loop stopped: list is clear"), 1, "no notify beside the clear-list line");
  assert.equal(countRows(open, "todo loop stopped: turn outcome was error"), 1, "no notify beside the error line");
  assert.ok(box, "sandbox");
  assert.equal(stops(sessionEntries(box)).length, 2, "one line per stop record in the session file");
});

test("continuation lines are dim; the clear-list stop line is quiet, the error stop line is not", () => {
  const { openAnsi } = screens();
  /** The styled runs of the row whose text is `text`, blanks left out. */
  const runs = (text: string) => {
    const row = parseAnsi(openAnsi).find((runs) => runs.map((run) => run.text).join("").trim() === text);
    assert.ok(row, `no row ${text}`);
    return row.filter((run) => run.text.trim() !== "");
  };
  for (const text of CONTINUATIONS) assert.ok(runs(text).every((run) => run.style.dim), `dim: ${text}`);
  const [mark, ...words] = runs(CLEAR);
  assert.ok(mark && mark.text === "■" && !mark.style.dim && mark.style.fg !== undefined, "the mark in a colour");
  assert.ok(words.length > 0 && words.every((run) => run.style.dim), "the words dim");
  const error = runs(ERROR);
  assert.ok(error.every((run) => !run.style.dim && run.style.fg !== undefined), "the error stop line in a colour, not dim");
  assert.notEqual(error[0]?.style.fg, mark.style.fg, "not the clear-list colour");
});

test("/todoloop shows the report in the terminal", () => {
  const { status } = screens();
  assert.ok(countRows(status, "todo loop: stopped") >= 1, "mode");
  assert.ok(countRows(status, "tasks open: 1 of 3") >= 1, "tasks");
  assert.ok(countRows(status, "last: stopped: turn outcome was error") >= 1, "last reason");
});

test("typing /todoloop offers the five sub-commands, each with a short description", () => {
  const { completions } = screens();
  for (const word of SUBCOMMANDS) {
    const row = completionRow(completions, word);
    assert.ok(row, `no completion for ${word}`);
    const description = row.slice(word.length).trim();
    assert.ok(description.length > 0 && description.length <= 80, `${word}: ${description}`);
  }
});

test("a resumed session (pi -c) shows the earlier continuation and stop lines and the footer", () => {
  const { resumed } = screens();
  assert.deepEqual(rowsStartingWith(resumed, "↻"), CONTINUATIONS);
  assert.deepEqual(rowsStartingWith(resumed, "■"), [CLEAR, ERROR]);
  assert.ok(statusRow(resumed).includes(RESUMED_FOOTER), `footer: ${statusRow(resumed)}`);
});

test("under each stop whose run spent anything, one dim line: its continuations, those that changed something, tokens (no dollars: the faux provider reports none) — after pi -c too", () => {
  const { open, resumed } = screens();
  for (const screen of [open, resumed]) {
    const rows = screen.split("\n").map((row) => row.trim());
    const under = (line: string) => rows[rows.indexOf(line) + 1] ?? "";
    assert.match(under(CLEAR), /^2 continuations · 2 changed something · [\d.]+k? tokens · under a minute$/);
    assert.match(under(ERROR), /^1 continuation · 0 changed something · [\d.]+k? tokens · under a minute$/);
  }
});
