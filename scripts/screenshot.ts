/**
 * `npm run screenshot`: writes docs/screenshot.svg, the loop as a person sees it in pi's terminal UI.
 * Runs the real pi interactive mode under tmux (as the terminal suite does, test/tui/) with the real
 * rpiv-todo and a scripted model, in a project folder named `my-project` under a throwaway home (so the
 * footer reads `~/my-project` and no temp path shows), captures the screen with its colours and draws
 * it with scripts/ansi-svg.ts.
 *
 * The picture: a first message the model stops on twice with tasks open (two continuation lines) and
 * then finishes (the stop line); a second message it stops on early, continued once, caught while the
 * model works again, with the loop's footer showing. Blank stretches are folded to one row and the top
 * is cut at the first message. Exits non-zero when the screen does not show all of that.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT, sandbox } from "../test/e2e/harness.ts";
import type { ScriptStep } from "../test/e2e/harness.ts";
import { rowsStartingWith, startPi, statusRow, submit, TERMINAL_SETTINGS } from "../test/tui/pi-terminal.ts";
import { tmuxAvailable } from "../test/tui/tmux.ts";
import { toSvg } from "./ansi-svg.ts";

const OUT = join(PACKAGE_ROOT, "docs", "screenshot.svg");
const WIDTH = 100;
const HEIGHT = 90;

const FIRST = "Add a --json flag to the CLI, with tests and docs";
const SECOND = "Also add --quiet";

const update = (id: number) => ({ name: "todo", args: { action: "update", id, status: "completed" } });
const create = (subject: string) => ({ name: "todo", args: { action: "create", subject } });

const SCRIPT: ScriptStep[] = [
  { text: "Three tasks.", calls: [create("Parse the --json flag"), create("Test the JSON output"), create("Document --json in the README")] },
  { text: "Parsing.", calls: [update(1)] },
  { text: "The --json flag is parsed. I'll stop here and report back." },
  { text: "Testing.", calls: [update(2)] },
  { text: "The tests pass." },
  { text: "Documenting.", calls: [update(3)] },
  { text: "Done: the flag, its tests and a README section." },
  { text: "Two more tasks.", calls: [create("Parse the --quiet flag"), create("Test --quiet")] },
  { text: "I'll pause here before --quiet." },
  // The model is still thinking when the screen is captured; the run is ended by stopping pi.
  { text: "Parsing --quiet.", delayMs: 120_000 },
];

const EXPECTED_LINES = ["↻ todo loop: continue 1", "↻ todo loop: continue 2", "■ todo loop stopped: list is clear"];

function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;:]*[A-Za-z]/g, "");
}

/** From the first message down, with every run of blank rows folded to one. */
function crop(ansi: string, first: string): string {
  const rows = ansi.split("\n");
  const plain = rows.map((row) => stripAnsi(row).trimEnd());
  const top = plain.findIndex((row) => row.includes(first));
  if (top < 0) throw new Error(`the first message is not on the screen`);
  let bottom = plain.length - 1;
  while (bottom > top && plain[bottom] === "") bottom--;
  const kept: string[] = [""];
  for (let index = top; index <= bottom; index++) {
    if (plain[index] === "" && plain[index - 1] === "") continue;
    kept.push(rows[index] ?? "");
  }
  return kept.join("\n");
}

async function main(): Promise<number> {
  if (!tmuxAvailable()) {
    process.stderr.write("screenshot: tmux is needed (Debian: apt-get install -y tmux)\n");
    return 1;
  }
  const box = sandbox({ script: SCRIPT, settings: TERMINAL_SETTINGS, cwd: "home/my-project" });
  const terminal = await startPi(box, { width: WIDTH, height: HEIGHT, env: { COLORTERM: "truecolor" } });
  try {
    submit(terminal, FIRST);
    await terminal.waitFor((screen) => screen.includes("■ todo loop stopped: list is clear"), 30_000, "the first message's stop line");
    submit(terminal, SECOND);
    const screen = await terminal.waitFor(
      (text) => rowsStartingWith(text, "↻").length === 3 && statusRow(text).includes("todo 2 of 5 open"),
      30_000,
      "the second message's continuation line and the footer",
    );
    const ansi = terminal.screenAnsi();
    for (const line of EXPECTED_LINES) {
      if (!screen.includes(line)) throw new Error(`the screen lacks "${line}":\n${screen}`);
    }
    if (screen.includes(box.root)) throw new Error(`a temp path shows on the screen:\n${screen}`);
    const svg = toSvg(crop(ansi, FIRST), {
      columns: WIDTH,
      title: "pi in a terminal with pi-todo-loop: a continuation line each time the loop asked for another turn, the stop line, and the footer",
    });
    writeFileSync(OUT, svg);
    process.stdout.write(`screenshot: wrote ${OUT} (${(svg.length / 1024).toFixed(1)} KiB)\n`);
    process.stdout.write(`  footer: ${statusRow(screen)}\n`);
    for (const row of [...rowsStartingWith(screen, "↻"), ...rowsStartingWith(screen, "■")]) process.stdout.write(`  ${row}\n`);
    return 0;
  } finally {
    terminal.stop();
    box.cleanup();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`screenshot failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
