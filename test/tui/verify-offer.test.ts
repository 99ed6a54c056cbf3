// Proves in the real terminal that the project's own check is offered once a session: Enter or no answer in 60 s is no, Yes runs it, Never is kept across restarts.
/**
 * The offer of the project's own check (SPEC §4.16, 0.5) in pi's interactive mode: a project whose
 * `package.json` test script appends a line to a marker file outside the working tree. At the first
 * clear list of a session one select shows — `No, not now` selected, a 60 s countdown — and: Enter runs
 * nothing and the next clear list of the session asks nothing; no answer for 60 s runs nothing; Yes
 * records the approval with the script's text and runs `npm test` at once; Never is recorded, and a new
 * pi in the same directory asks nothing. The 60 s scenario runs beside the others (one real wait).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTasks, sandbox, say, sessionEntries, stopData, updateTasks } from "../e2e/harness.ts";
import type { Sandbox, ScriptStep } from "../e2e/harness.ts";
import { quit, rowsStartingWith, startPi, submit, TERMINAL_SETTINGS } from "./pi-terminal.ts";
import { tmuxAvailable } from "./tmux.ts";
import type { Terminal } from "./tmux.ts";

const TITLE = 'Before the loop accepts "done" here, run `npm test`? (found in package.json)';
/** A clear list without verification, and one verified by the check. */
const CLEAR = "■ todo loop stopped: list is clear";
const VERIFIED = "✓ todo loop stopped: list is clear";

function work(subject: string, id: number): ScriptStep[] {
  return [createTasks(subject), updateTasks([id]), say("All done.")];
}

const boxes: Sandbox[] = [];
const terminals: Terminal[] = [];
after(() => {
  for (const terminal of terminals) terminal.stop();
  for (const box of boxes) box.cleanup();
});

function marker(box: Sandbox): string {
  return join(box.root, "ran");
}

function ranCount(box: Sandbox): number {
  return existsSync(marker(box)) ? readFileSync(marker(box), "utf8").split("\n").filter(Boolean).length : 0;
}

function script(box: Sandbox): string {
  return `echo ran >> "${marker(box)}"`;
}

function approvals(box: Sandbox): unknown {
  const path = join(box.agentDir, "todo-loop-approved.json");
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
}

async function project(steps: ScriptStep[]): Promise<{ box: Sandbox; terminal: Terminal }> {
  assert.ok(tmuxAvailable(), "the terminal suite needs tmux on PATH");
  const box = sandbox({ script: steps, settings: TERMINAL_SETTINGS });
  boxes.push(box);
  writeFileSync(join(box.cwd, "package.json"), JSON.stringify({ name: "app", private: true, scripts: { test: script(box) } }));
  const terminal = await startPi(box);
  terminals.push(terminal);
  return { box, terminal };
}

/** The offer on screen: its title with the countdown, and the three answers with "No, not now" selected. */
async function offerShown(terminal: Terminal): Promise<string> {
  const screen = await terminal.waitFor((text) => text.includes(TITLE), 30_000, "the offer");
  assert.match(screen, /run `npm test`\? \(found in package\.json\) \(\d+s\)/, "a live countdown");
  assert.ok(screen.includes("→ No, not now"), "No is selected");
  assert.ok(screen.includes("Yes, for this directory") && screen.includes("Never for this directory"));
  return screen;
}

function clearLines(terminal: Terminal): string[] {
  return rowsStartingWith(terminal.screen(), CLEAR);
}

/** The 60 s scenario, started before the others and awaited by its test. */
let timedOut: Promise<{ box: Sandbox; offer: string; done: string }> | undefined;

before(() => {
  timedOut = (async () => {
    const { box, terminal } = await project(work("Alpha task", 1));
    submit(terminal, "Do the work");
    const offer = await offerShown(terminal);
    const done = await terminal.waitFor((text) => rowsStartingWith(text, CLEAR).length > 0, 90_000, "the stop after the offer timed out");
    await quit(terminal);
    return { box, offer, done };
  })();
  // Awaited by its test; a failure here must not be an unhandled rejection meanwhile.
  timedOut.catch(() => undefined);
});

test("Enter answers no: nothing runs, the clear list is ordinary, and the next clear list of the session asks nothing", { timeout: 120_000 }, async () => {
  const { box, terminal } = await project([...work("Alpha task", 1), ...work("Beta task", 2)]);
  submit(terminal, "Do the work");
  await offerShown(terminal);
  terminal.keys("Enter");
  await terminal.waitFor((text) => rowsStartingWith(text, CLEAR).length === 1, 30_000, "the first stop");
  await terminal.waitFor((text) => text.includes("todo loop: not running npm test (/todoloop verify approve to use it)"), 10_000, "the no");
  submit(terminal, "Now the next part");
  // A second offer would hold the run for 60 s: the stop within 30 s shows none came.
  const done = await terminal.waitFor((text) => rowsStartingWith(text, CLEAR).length === 2, 30_000, "the second stop, with no offer");
  assert.ok(!done.includes(TITLE));
  assert.deepEqual(clearLines(terminal), [CLEAR, CLEAR]);
  await quit(terminal);
  assert.equal(ranCount(box), 0);
  assert.deepEqual(stopData(sessionEntries(box)).map((data) => [data.kind, data.reason]), [["clear", "stopped: list is clear"], ["clear", "stopped: list is clear"]]);
  assert.equal(approvals(box), undefined, "no answer is recorded for no");
});

test("Yes records the approval with the script's text and runs npm test at once: a verified clear", { timeout: 120_000 }, async () => {
  const { box, terminal } = await project(work("Alpha task", 1));
  submit(terminal, "Do the work");
  await offerShown(terminal);
  terminal.keys("Down");
  await terminal.waitFor((text) => text.includes("→ Yes, for this directory"), 10_000, "Yes selected");
  terminal.keys("Enter");
  const done = await terminal.waitFor((text) => rowsStartingWith(text, VERIFIED).length === 1, 60_000, "the verified stop");
  assert.match(rowsStartingWith(done, VERIFIED)[0] ?? "", /^✓ todo loop stopped: list is clear · npm test passed \(\d+ s\)$/);
  assert.ok(done.includes("todo loop: approved npm test for"), done);
  await quit(terminal);
  assert.equal(ranCount(box), 1, "the check ran once");
  const stored = approvals(box) as { approved: Array<Record<string, unknown>> };
  assert.deepEqual(stored.approved.map(({ dir, command, pinned }) => ({ dir, command, pinned })), [{ dir: realpathSync(box.cwd), command: "npm test", pinned: { file: "package.json", text: script(box) } }]);
  const record = stopData(sessionEntries(box))[0] as { kind?: string; verify?: { command: string; exit: number } };
  assert.equal(record.kind, "clear");
  assert.equal(record.verify?.exit, 0);
});

test("Never is recorded in the approvals file, and pi started again in the same directory asks nothing", { timeout: 120_000 }, async () => {
  const { box, terminal } = await project(work("Alpha task", 1));
  submit(terminal, "Do the work");
  await offerShown(terminal);
  terminal.keys("Down", "Down");
  await terminal.waitFor((text) => text.includes("→ Never for this directory"), 10_000, "Never selected");
  terminal.keys("Enter");
  await terminal.waitFor((text) => rowsStartingWith(text, CLEAR).length === 1, 30_000, "the stop");
  await terminal.waitFor((text) => text.includes("todo loop: npm test will not be offered again for"), 10_000, "the never");
  await quit(terminal);
  const stored = approvals(box) as { approved: Array<Record<string, unknown>> };
  assert.deepEqual(stored.approved.map(({ dir, never }) => ({ dir, never })), [{ dir: realpathSync(box.cwd), never: true }]);

  writeFileSync(box.scriptPath, JSON.stringify(work("Beta task", 1)));
  const again = await startPi(box);
  terminals.push(again);
  submit(again, "Next piece of work");
  const done = await again.waitFor((text) => rowsStartingWith(text, CLEAR).length === 1, 30_000, "the stop in the new session, with no offer");
  assert.ok(!done.includes(TITLE));
  await quit(again);
  assert.equal(ranCount(box), 0);
});

test("no answer in 60 s is no: the offer counts down, then nothing runs and nothing is recorded", { timeout: 150_000 }, async () => {
  assert.ok(timedOut);
  const { box, offer, done } = await timedOut;
  assert.match(offer, /\((5\d|60)s\)/, "the countdown starts at 60 s");
  assert.ok(!done.includes(TITLE), "the offer is gone");
  assert.ok(done.includes("todo loop: not running npm test"), done);
  assert.equal(ranCount(box), 0);
  assert.equal(approvals(box), undefined);
  assert.deepEqual(stopData(sessionEntries(box)).map((data) => [data.kind, data.reason]), [["clear", "stopped: list is clear"]]);
});
