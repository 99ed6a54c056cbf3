/**
 * Mutation testing of the unit tests: runs Stryker over each source file with the unit test files that
 * pin it, and prints the score per file and per group.
 *
 * - Stryker is installed on demand into .mutation/ (gitignored) at a pinned version, the way
 *   scripts/compat.ts installs older pi into .compat/; it is not a devDependency. Reports, sandboxes and
 *   generated configs live there too.
 * - The command runner runs `node --test` for every mutant, one process per test entry in order, chained
 *   so the first failure ends it (property tests capped at a few hundred cases each, the ones that drive
 *   the whole extension left to the files they pin); there is no TypeScript checker
 *   (TypeScript 7 has no JS API) and the tsconfig rewriting step is pointed at a file that does not
 *   exist. Only src/, test/ (without the end-to-end and terminal suites), package.json and tsconfig.json
 *   are copied into the sandbox.
 * - String-literal mutants of src/core/text.ts are excluded: its English is pinned by test/core/text-*.test.ts.
 * - Each process of the chain has a time limit of five times its unmutated run (at least 20 s), measured
 *   once before Stryker starts: a mutant that hangs ends there instead of at Stryker's limit for the chain.
 * - Runs one file at a time with concurrency 1; not part of CI. Two runs at once need two checkouts
 *   (each clears its own .mutation/tmp).
 *
 *   npm run test:mutation                          every file
 *   npm run test:mutation -- src/loop.ts src/core/text.ts   only the named files
 *   npm run test:mutation -- --survivors ...       also list each surviving mutant
 *   npm run test:mutation -- --tests=test/a.test.ts,test/b.test.ts src/x.ts   other test files for the run
 *   npm run test:mutation -- --lines=40-42,97-97 src/x.ts   only these lines (an earlier run's survivors)
 *
 * Groups: src/core/, src/loop.ts, src/state.ts, src/config.ts, src/sources/ and src/work/, each held to 95%.
 * Exits non-zero when Stryker fails or a group is below its target score.
 */
import { spawnSync } from "node:child_process";
import { existsSync, globSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WORK = join(ROOT, ".mutation");
const STRYKER = "10.1.1";

interface Target {
  /** The source file mutated, relative to the root. */
  readonly file: string;
  /** The unit test files that pin it. */
  readonly tests: readonly string[];
  readonly group: GroupName;
  /** Stryker mutator names not generated for this file. */
  readonly excluded?: readonly string[];
  /**
   * Lines not mutated, found by their text. Stryker's regex mutator turns `\v` into `\V`, which is a
   * syntax error in a `u` regex and would break the whole instrumented file (every such line is listed).
   */
  readonly skipLines?: RegExp;
  /** Tests not run for this file (`--test-skip-pattern`): slow ones that pin other files. */
  readonly skipTests?: string;
  /** Test files that set process-wide state (the agent dir), so they run in a process of their own. */
  readonly alone?: readonly string[];
  /** Only these line ranges (`--lines`): the survivors of an earlier run, measured again after new tests. */
  readonly lines?: readonly (readonly [number, number])[];
}

type GroupName = "core" | "loop" | "state" | "config" | "sources" | "work";

/** One group per part of the pure code, each held to the same target. */
const GROUPS: Record<GroupName, { readonly label: string; readonly target: number }> = {
  core: { label: "src/core/", target: 95 },
  loop: { label: "src/loop.ts", target: 95 },
  state: { label: "src/state.ts", target: 95 },
  config: { label: "src/config.ts", target: 95 },
  sources: { label: "src/sources/", target: 95 },
  work: { label: "src/work/", target: 95 },
};

const SOURCE_TESTS = ["test/sources/*.test.ts", "test/state/*.test.ts"];
/** The question rule's tests, quickest first. */
const QUESTION_TESTS = ["test/question-hands-over.test.ts", "test/question-hand-over.test.ts", "test/question-closing.test.ts", "test/question-closing-acts.test.ts", "test/question-requests.test.ts", "test/question-forms.test.ts", "test/question.test.ts"];
/** The language table's own tests: English and the helpers, the other scripts, the Latin rows, the marks. */
const FORMS_TESTS = ["test/core/question-forms.test.ts", "test/core/question-forms-scripts.test.ts", "test/core/question-forms-latin.test.ts", "test/core/question-forms-marks.test.ts"];
/** The tests of work in flight: the adapters and the tracker, the check-in schedule, and the decision. */
const WORK_TESTS = ["test/work/work.test.ts", "test/core/work-order.test.ts", "test/core/work-schedule.test.ts", "test/loop/work-wait.test.ts"];
/** The property tests that drive the whole extension through the fake pi (they pin index.ts and the handlers). */
const ADAPTER_PROPERTIES = "^(kill switch|junk: turn_end|handlers:)";

const TARGETS: readonly Target[] = [
  {
    file: "src/loop.ts",
    tests: ["test/loop/*.test.ts", "test/property/*.test.ts", "test/state/verify-state.test.ts", "test/core/limit-stop.test.ts", "test/core/mutex.test.ts", "test/core/defects-words.test.ts", "test/core/defects-progress.test.ts"],
    alone: ["test/host/boundary-context.test.ts"],
    group: "loop",
    skipTests: ADAPTER_PROPERTIES,
  },
  // The rules decide() shares with the timers and verification: pinned by the same tests as loop.ts.
  {
    file: "src/core/stops.ts",
    tests: ["test/loop/*.test.ts", "test/property/*.test.ts", "test/state/verify-state.test.ts", "test/core/limit-stop.test.ts", "test/core/mutex.test.ts", "test/core/defects-words.test.ts", "test/core/defects-progress.test.ts", "test/host/command.test.ts"],
    group: "core",
    skipTests: ADAPTER_PROPERTIES,
  },
  // The engine reads every language's rows: the table's own tests (quick, few sets of rows each) pin it too.
  { file: "src/core/question.ts", tests: ["test/core/question-engine.test.ts", ...FORMS_TESTS, ...QUESTION_TESTS], group: "core" },
  // The table of forms per language, and the hand-over sentences read from it: its own tests first, English and
  // the helpers, then the other scripts, then the Latin rows (each file compiles few sets of rows, so it is quick).
  { file: "src/core/question-forms.ts", tests: [...FORMS_TESTS, "test/question-forms.test.ts", "test/question-hands-over.test.ts", "test/question-hand-over.test.ts", ...QUESTION_TESTS], group: "core" },
  { file: "src/core/judge.ts", tests: ["test/core/judge.test.ts", "test/host/judge.test.ts", "test/loop/*.test.ts"], group: "core" },
  { file: "src/core/report.ts", tests: ["test/core/report.test.ts", "test/state/report-state.test.ts", "test/core/text-report.test.ts", "test/host/run-end.test.ts"], group: "core" },
  { file: "src/core/text-report.ts", tests: ["test/core/text-report.test.ts", "test/core/report.test.ts"], group: "core" },
  { file: "src/core/hand-off.ts", tests: ["test/loop/hand-off.test.ts", "test/loop/*.test.ts"], group: "core" },
  { file: "src/core/bus.ts", tests: ["test/core/bus.test.ts", "test/host/bus.test.ts"], group: "core" },
  { file: "src/core/project-check.ts", tests: ["test/core/project-check.test.ts", "test/io/project-check.test.ts", "test/host/verify-offer.test.ts"], group: "core" },
  { file: "src/core/never.ts", tests: ["test/loop/*.test.ts"], group: "core" },
  { file: "src/state.ts", tests: ["test/state/*.test.ts", "test/property/*.test.ts"], group: "state", skipTests: ADAPTER_PROPERTIES },
  { file: "src/sources/types.ts", tests: SOURCE_TESTS, group: "sources" },
  { file: "src/sources/index.ts", tests: SOURCE_TESTS, group: "sources" },
  { file: "src/sources/rpiv-todo.ts", tests: SOURCE_TESTS, group: "sources" },
  { file: "src/sources/ian-pascoe-pi-todo.ts", tests: SOURCE_TESTS, group: "sources" },
  { file: "src/sources/pi-example-todo.ts", tests: SOURCE_TESTS, group: "sources" },
  { file: "src/sources/quangthai-pi-todo.ts", tests: SOURCE_TESTS, group: "sources" },
  { file: "src/sources/criogaid-pi-todos.ts", tests: SOURCE_TESTS, group: "sources" },
  {
    file: "src/config.ts",
    // Each later key is pinned beside what it drives: notifyCommand's program, children, the limit wait, check-ins.
    tests: [
      "test/config/*.test.ts",
      "test/core/verify.test.ts",
      "test/core/child.test.ts",
      "test/core/limit-stop.test.ts",
      "test/loop/work-wait.test.ts",
      "test/core/judge.test.ts",
      "test/loop/hand-over.test.ts",
      "test/loop/hand-off.test.ts",
      "test/io/project-check.test.ts",
      "test/io/approvals.test.ts",
    ],
    group: "config",
  },
  {
    file: "src/core/text.ts",
    // The sentences of verification, reaching a person, the transcript, work in flight, usage limits,
    // resumed runs and the workflow lock are pinned where they are used.
    tests: [
      "test/core/text-*.test.ts",
      "test/core/verify.test.ts",
      "test/state/verify-state.test.ts",
      "test/core/reach.test.ts",
      "test/core/defects-reach.test.ts",
      "test/core/defects-words.test.ts",
      "test/host/render.test.ts",
      "test/loop/decide.test.ts",
      "test/loop/commands.test.ts",
      "test/loop/work-wait.test.ts",
      "test/core/limit-wait.test.ts",
      "test/core/limit-stop.test.ts",
      "test/core/resume.test.ts",
      "test/core/mutex.test.ts",
    ],
    group: "core",
    excluded: ["StringLiteral"],
  },
  { file: "src/core/sanitize.ts", tests: ["test/core/sanitize.test.ts"], group: "core", skipLines: /^const (?:LINE_BREAK|OTHER_BREAKS) = / },
  // The project's check (its pin, the offer) and a hand-over after a passed check are pinned beside them.
  {
    file: "src/core/verify.ts",
    tests: ["test/core/verify.test.ts", "test/state/verify-state.test.ts", "test/core/project-check.test.ts", "test/loop/hand-over.test.ts", "test/core/defects-words.test.ts", "test/host/verify-offer.test.ts", "test/host/verify-boundary.test.ts"],
    group: "core",
  },
  { file: "src/core/reply.ts", tests: ["test/core/fingerprint.test.ts", "test/state/*.test.ts", "test/property/*.test.ts", "test/core/defects-progress.test.ts"], group: "core", skipTests: ADAPTER_PROPERTIES },
  { file: "src/core/fingerprint.ts", tests: ["test/core/fingerprint.test.ts", "test/state/*.test.ts", "test/property/*.test.ts", "test/core/defects-progress.test.ts"], group: "core", skipTests: ADAPTER_PROPERTIES },
  { file: "src/core/work.ts", tests: [...WORK_TESTS, "test/host/work-order.test.ts", "test/host/work.test.ts"], group: "core" },
  { file: "src/core/work-wake.ts", tests: ["test/loop/work-wait.test.ts"], group: "core" },
  { file: "src/core/child.ts", tests: ["test/core/child.test.ts"], group: "core" },
  { file: "src/core/go-on.ts", tests: ["test/core/go-on.test.ts", "test/core/defects-words.test.ts", "test/state/earlier.test.ts", "test/state/session.test.ts"], group: "core" },
  { file: "src/core/limit-error.ts", tests: ["test/core/limit-error.test.ts", "test/core/limit-wait.test.ts"], group: "core" },
  { file: "src/core/limit-wait.ts", tests: ["test/core/limit-wait.test.ts", "test/core/limit-stop.test.ts", "test/core/resume.test.ts"], group: "core" },
  // The timer's continuation after a usage limit is driven by the host's waits.
  { file: "src/core/limit-stop.ts", tests: ["test/core/limit-stop.test.ts", "test/host/limit-waits.test.ts"], group: "core" },
  { file: "src/core/resume.ts", tests: ["test/core/resume.test.ts"], group: "core" },
  { file: "src/core/reach-plan.ts", tests: ["test/core/reach.test.ts", "test/core/defects-reach.test.ts", "test/core/child.test.ts", "test/core/limit-stop.test.ts", "test/loop/hand-over.test.ts", "test/loop/work-wait.test.ts"], group: "core" },
  { file: "src/core/workflow.ts", tests: ["test/core/mutex.test.ts"], group: "core" },
  // The finite-number guard is used by the limit rules.
  { file: "src/core/record.ts", tests: [...SOURCE_TESTS, "test/core/limit-error.test.ts", "test/core/limit-wait.test.ts"], group: "core" },
  { file: "src/core/tools.ts", tests: ["test/state/*.test.ts", "test/core/fingerprint.test.ts"], group: "core" },
  { file: "src/core/pi-shapes.ts", tests: SOURCE_TESTS, group: "core" },
  ...["index", "types", "nicobailon-pi-subagents", "tintinweb-pi-subagents", "pi-code", "aliou-pi-processes", "todo-loop-work"].map((name) => ({ file: `src/work/${name}.ts`, tests: WORK_TESTS, group: "work" as const })),
];

/** Adapter files added under src/sources/ later are pinned like the others. */
function sourceTargets(): Target[] {
  const known = new Set(TARGETS.map((target) => target.file));
  const dir = join(ROOT, "src", "sources");
  const found: Target[] = [];
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const file = `src/sources/${name}`;
    if (name.endsWith(".ts") && !known.has(file)) found.push({ file, tests: SOURCE_TESTS, group: "sources" });
  }
  return found;
}

interface Counts {
  mutants: number;
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  /** Compile and runtime errors: not part of the score. */
  other: number;
}

interface Survivor {
  readonly line: number;
  readonly column: number;
  readonly mutator: string;
  readonly replacement: string;
  readonly status: string;
}

function emptyCounts(): Counts {
  return { mutants: 0, killed: 0, survived: 0, timeout: 0, noCoverage: 0, other: 0 };
}

function add(into: Counts, from: Counts): void {
  into.mutants += from.mutants;
  into.killed += from.killed;
  into.survived += from.survived;
  into.timeout += from.timeout;
  into.noCoverage += from.noCoverage;
  into.other += from.other;
}

/** Stryker's mutation score: detected (killed or timed out) over valid (detected, survived, no coverage). */
function score(counts: Counts): number {
  const valid = counts.killed + counts.timeout + counts.survived + counts.noCoverage;
  return valid === 0 ? 100 : ((counts.killed + counts.timeout) / valid) * 100;
}

function installedVersion(): string | undefined {
  try {
    const manifest: { version?: unknown } = JSON.parse(readFileSync(join(WORK, "node_modules", "@stryker-mutator", "core", "package.json"), "utf8"));
    return typeof manifest.version === "string" ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

/** Installs Stryker into .mutation/ unless the pinned version is already there. */
function ensureStryker(): string {
  const bin = join(WORK, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js");
  if (installedVersion() === STRYKER && existsSync(bin)) return bin;
  console.log(`installing @stryker-mutator/core ${STRYKER} into ${WORK}`);
  mkdirSync(WORK, { recursive: true });
  const manifest = { name: "pi-todo-loop-mutation", private: true, dependencies: { "@stryker-mutator/core": STRYKER } };
  writeFileSync(join(WORK, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: WORK, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm install of Stryker failed (exit ${result.status ?? result.signal})`);
  if (installedVersion() !== STRYKER || !existsSync(bin)) throw new Error(`Stryker ${STRYKER} is not in ${WORK} after the install`);
  return bin;
}

function slug(file: string): string {
  return file.replace(/^src\//, "").replace(/\.ts$/, "").replace(/[^A-Za-z0-9]+/g, "-");
}

/**
 * Every mutant runs the whole command, so it is kept short: the test files share one process, and the
 * property tests run a few hundred cases each instead of ten thousand (the unit tests carry the kills).
 */
const PROPERTY_CASES = 200;

/** The file, or its line ranges around the lines it skips (Stryker's `file:start-end` form, 1-based). */
function mutateRanges(target: Target): string[] {
  if (target.lines) return target.lines.map(([start, end]) => `${target.file}:${start}-${end}`);
  if (!target.skipLines) return [target.file];
  const lines = readFileSync(join(ROOT, target.file), "utf8").split("\n");
  const ranges: string[] = [];
  let start = 1;
  lines.forEach((line, index) => {
    if (!target.skipLines?.test(line)) return;
    if (index + 1 > start) ranges.push(`${target.file}:${start}-${index}`);
    start = index + 2;
  });
  if (start <= lines.length) ranges.push(`${target.file}:${start}-${lines.length}`);
  return ranges;
}

/**
 * The test command: one process per entry of `tests` (a file or a glob), in their order, then each file
 * that needs a process of its own, chained with `&&` so that the first failing entry ends the run: a
 * mutant the focused tests kill never waits for the slower ones. An entry already run earlier in the
 * list (a glob that also matches it) is not run twice. `--no-regexp-tier-up` compiles each regex once,
 * which the question rule's large patterns, new in every process, pay for many times over otherwise.
 */
function testCommand(target: Target, limits?: readonly number[]): string {
  return entryCommands(target)
    .map((command, index) => `PROPERTY_CASES=${PROPERTY_CASES} ${limits ? `timeout -s KILL ${limits[index]} ` : ""}${command}`)
    .join(" && ");
}

/** One shell command per process of the chain, in its order (`PROPERTY_CASES` set in their environment). */
function entryCommands(target: Target): string[] {
  const node = [JSON.stringify(process.execPath), "--no-regexp-tier-up", "--test", "--test-reporter=dot"];
  const shared = [...node, "--experimental-test-isolation=none", ...(target.skipTests ? [`'--test-skip-pattern=${target.skipTests}'`] : [])];
  const entries = testEntries(target.tests);
  return [...entries.map((entry) => [...shared, ...entry]), ...(target.alone ?? []).map((file) => [...node, file])].map((words) => words.join(" "));
}

/** A process of the chain is ended after this many times its unmutated run, and never sooner than the floor. */
const LIMIT_FACTOR = 5;
const LIMIT_FLOOR_SECONDS = 20;

/**
 * Each process's time limit, from one unmutated run of the chain: a mutant that hangs (a loop that never
 * ends, a pattern that backtracks without end) is ended by `timeout` when its own process has run several
 * times its usual time, instead of waiting for Stryker's limit over the whole chain. A process ended this
 * way fails the chain, so the mutant counts as detected, as a timeout would. Undefined when the
 * unmutated chain fails (Stryker then reports it).
 */
function entryLimits(target: Target): number[] | undefined {
  const limits: number[] = [];
  for (const command of entryCommands(target)) {
    const started = Date.now();
    const result = spawnSync("sh", ["-c", command], { cwd: ROOT, stdio: "ignore", env: { ...process.env, PROPERTY_CASES: String(PROPERTY_CASES) } });
    if (result.status !== 0) return undefined;
    limits.push(Math.max(LIMIT_FLOOR_SECONDS, Math.ceil(((Date.now() - started) / 1000) * LIMIT_FACTOR)));
  }
  return limits;
}

/** Each entry's files, the ones an earlier entry ran left out; an entry left with no file is dropped. */
function testEntries(tests: readonly string[]): string[][] {
  const seen = new Set<string>();
  const entries: string[][] = [];
  for (const entry of tests) {
    const files = globSync(entry, { cwd: ROOT }).sort().filter((file) => !seen.has(file));
    for (const file of files) seen.add(file);
    if (files.length > 0) entries.push(files);
  }
  return entries;
}

function strykerConfig(target: Target, report: string, limits?: readonly number[]): Record<string, unknown> {
  const command = testCommand(target, limits);
  return {
    $schema: "./node_modules/@stryker-mutator/core/schema/stryker-schema.json",
    testRunner: "command",
    commandRunner: { command },
    coverageAnalysis: "off",
    mutate: mutateRanges(target),
    checkers: [],
    // TypeScript 7 has no JS API: no checker, no `// @ts-nocheck` insertion, no tsconfig rewriting.
    disableTypeChecks: false,
    tsconfigFile: ".mutation/no-tsconfig.json",
    mutator: { excludedMutations: [...(target.excluded ?? [])] },
    ignorePatterns: ["/*", "!/src", "!/test", "!/package.json", "!/tsconfig.json", "/test/e2e", "/test/tui"],
    concurrency: 1,
    tempDirName: ".mutation/tmp",
    cleanTempDir: "always",
    reporters: ["json", "progress"],
    jsonReporter: { fileName: report },
    plugins: [],
    warnings: { slow: false },
  };
}

function readReport(path: string): { counts: Counts; survivors: Survivor[] } {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  const counts = emptyCounts();
  const survivors: Survivor[] = [];
  const files = isObject(parsed) && isObject(parsed.files) ? parsed.files : {};
  for (const file of Object.values(files)) {
    const mutants = isObject(file) && Array.isArray(file.mutants) ? file.mutants : [];
    for (const mutant of mutants) {
      if (!isObject(mutant)) continue;
      const status = String(mutant.status);
      // Mutants of an excluded mutator (text.ts's string literals) are reported as ignored: not counted.
      if (status === "Ignored") continue;
      counts.mutants += 1;
      if (status === "Killed") counts.killed += 1;
      else if (status === "Survived") counts.survived += 1;
      else if (status === "Timeout") counts.timeout += 1;
      else if (status === "NoCoverage") counts.noCoverage += 1;
      else counts.other += 1;
      if (status === "Survived" || status === "NoCoverage") {
        const start = isObject(mutant.location) && isObject(mutant.location.start) ? mutant.location.start : {};
        survivors.push({
          line: Number(start.line),
          column: Number(start.column),
          mutator: String(mutant.mutatorName),
          replacement: String(mutant.replacement ?? ""),
          status,
        });
      }
    }
  }
  survivors.sort((a, b) => a.line - b.line || a.column - b.column);
  return { counts, survivors };
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface FileResult {
  readonly target: Target;
  readonly counts: Counts;
  readonly survivors: readonly Survivor[];
  readonly seconds: number;
  readonly failed: boolean;
}

function runTarget(bin: string, target: Target): FileResult {
  const name = slug(target.file);
  const report = `.mutation/reports/${name}.json`;
  const config = join(WORK, `stryker.${name}.json`);
  rmSync(join(ROOT, report), { force: true });
  console.log(`\n=== ${target.file} ← ${[...target.tests, ...(target.alone ?? [])].join(" + ")} ===`);
  const started = Date.now();
  const limits = entryLimits(target);
  console.log(limits ? `time limit per process: ${limits.map((limit) => `${limit} s`).join(", ")}` : "the unmutated tests fail: Stryker reports it");
  writeFileSync(config, `${JSON.stringify(strykerConfig(target, report, limits), null, 2)}\n`);
  const result = spawnSync(process.execPath, [bin, "run", config], { cwd: ROOT, stdio: "inherit" });
  const seconds = (Date.now() - started) / 1000;
  if (result.status !== 0 || !existsSync(join(ROOT, report))) {
    console.error(`${target.file}: Stryker failed (exit ${result.status ?? result.signal})`);
    return { target, counts: emptyCounts(), survivors: [], seconds, failed: true };
  }
  const { counts, survivors } = readReport(join(ROOT, report));
  return { target, counts, survivors, seconds, failed: false };
}

function row(name: string, counts: Counts, seconds?: number): string {
  const cells = [
    name.padEnd(36),
    String(counts.mutants).padStart(7),
    String(counts.killed).padStart(7),
    String(counts.survived).padStart(8),
    String(counts.timeout).padStart(7),
    String(counts.noCoverage).padStart(11),
    `${score(counts).toFixed(1)}%`.padStart(7),
  ];
  if (seconds !== undefined) cells.push(`${seconds.toFixed(0)} s`.padStart(7));
  return cells.join(" ");
}

/** `--lines=12-14,40-40`: the ranges, undefined without the option, null when it is malformed. */
function linesOption(value: string | undefined): (readonly [number, number])[] | undefined | null {
  if (value === undefined) return undefined;
  const ranges = value.split(",").map((part) => /^(\d+)-(\d+)$/.exec(part));
  if (ranges.length === 0 || ranges.some((match) => match === null)) return null;
  return ranges.map((match) => [Number(match?.[1]), Number(match?.[2])] as const);
}

function main(): number {
  const args = process.argv.slice(2);
  const listSurvivors = args.includes("--survivors");
  const names = args.filter((arg) => !arg.startsWith("--")).map((arg) => arg.replace(/^\.\//, ""));
  const tests = args.find((arg) => arg.startsWith("--tests="))?.slice("--tests=".length).split(",").filter((file) => file !== "");
  const all = [...TARGETS.filter((target) => existsSync(join(ROOT, target.file))), ...sourceTargets()];
  const chosen = names.length > 0 ? all.filter((target) => names.includes(target.file)) : all;
  const lines = linesOption(args.find((arg) => arg.startsWith("--lines="))?.slice("--lines=".length));
  if (lines === null || (lines && chosen.length !== 1)) {
    console.error("--lines=a-b,c-d takes line ranges of one named file");
    return 2;
  }
  const selected = (tests ? chosen.map((target) => ({ ...target, tests, alone: [] })) : chosen).map((target) => (lines ? { ...target, lines } : target));
  const unknown = names.filter((name) => !all.some((target) => target.file === name));
  if (unknown.length > 0) {
    console.error(`not a mutated file: ${unknown.join(", ")} (known: ${all.map((target) => target.file).join(", ")})`);
    return 2;
  }
  const bin = ensureStryker();
  // Sandboxes of an interrupted run.
  rmSync(join(WORK, "tmp"), { recursive: true, force: true });
  const started = Date.now();
  const results: FileResult[] = [];
  for (const target of selected) results.push(runTarget(bin, target));
  const wall = (Date.now() - started) / 1000;

  console.log(`\nmutation score (Stryker ${STRYKER}, command runner, ${new Date().toISOString().slice(0, 10)}):`);
  console.log(["file".padEnd(36), "mutants", " killed", "survived", "timeout", "no coverage", "  score", "   time"].join(" "));
  for (const result of results) console.log(row(result.target.file + (result.failed ? " (FAILED)" : ""), result.counts, result.seconds));
  let belowTarget = false;
  for (const [group, { label, target }] of Object.entries(GROUPS) as [GroupName, { label: string; target: number }][]) {
    const members = results.filter((result) => result.target.group === group);
    if (members.length === 0) continue;
    const total = emptyCounts();
    for (const member of members) add(total, member.counts);
    const partial = members.length < all.filter((known) => known.group === group).length || members.some((member) => member.target.lines !== undefined);
    const ok = score(total) >= target;
    if (!ok && !partial) belowTarget = true;
    console.log(row(`${group}: ${label}`, total) + `  target ${target}%${partial ? " (partial)" : ok ? "" : " (below)"}`);
  }
  console.log(`wall time: ${(wall / 60).toFixed(1)} min`);
  if (listSurvivors) {
    for (const result of results) {
      for (const survivor of result.survivors) {
        const replacement = survivor.replacement.replace(/\s+/g, " ").slice(0, 100);
        console.log(`${result.target.file}:${survivor.line}:${survivor.column} ${survivor.mutator} ${survivor.status === "NoCoverage" ? "(no coverage) " : ""}→ ${replacement}`);
      }
    }
  }
  return results.some((result) => result.failed) ? 1 : belowTarget ? 1 : 0;
}

if (!existsSync(join(ROOT, "node_modules"))) {
  console.error("run npm ci first");
  process.exit(2);
}
process.exitCode = main();
