/**
 * `npm test`, `npm run test:e2e` and the compatibility matrix's suite: node:test over the unit and the
 * end-to-end files, each half at its own concurrency, with the spec reporter.
 *
 *   node scripts/test.ts              both halves at once
 *   node scripts/test.ts e2e          only test/e2e/*.test.ts
 *   node scripts/test.ts unit         only the unit files (test/*.test.ts and folders but e2e, tui, fixtures, compat)
 *   node scripts/test.ts e2e test/e2e/work.test.ts …   only the files named (of the halves chosen)
 *   --times                           also print each file's summed test time, slowest first
 *   --e2e-concurrency=N, --unit-concurrency=N   override the defaults below
 *
 * Why two concurrencies: a unit file keeps a core busy (the property files most of all); an end-to-end
 * file spends most of its time waiting on a pi child that waits on a product timer (the 5 s wake, a
 * usage-limit wait, a notify command's limit), so several share the cores. Run together, the unit half
 * takes one file at a time and the end-to-end half three, which keeps a 2-core machine busy without
 * starving a scenario's timers. The end-to-end files that wait longest start first, so none of them is
 * left running alone at the end. Exits 1 when a test failed.
 */
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { finished } from "node:stream/promises";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TEST = join(ROOT, "test");

/** Default concurrency per half; `unitBeside` while the end-to-end half runs too. */
const CONCURRENCY = { unit: 2, unitBeside: 1, e2e: 3 } as const;

/**
 * The slowest files, started first (paths under test/, without `.test.ts`): end-to-end files whose
 * scenarios wait out product timers (40–80 s each alone) and the property files (10,000 cases each). The
 * order only shapes the wall time; a file missing here or gone from disk changes nothing else.
 */
const SLOW_FIRST = [
  "e2e/work", "e2e/resume", "e2e/limit-wait", "e2e/notify", "e2e/limit-wait-cancel", "e2e/earlier", "e2e/limits", "e2e/stuck", "e2e/children",
  "property/handlers", "property/sequences", "property/reader", "docs/pack-check",
];

function testFiles(): { unit: string[]; e2e: string[] } {
  const all = readdirSync(TEST, { recursive: true })
    .map(String)
    .filter((path) => path.endsWith(".test.ts"))
    .sort();
  const top = (path: string): string => path.split(/[\\/]/)[0] ?? "";
  const depth = (path: string): number => path.split(/[\\/]/).length;
  const unit = all.filter((path) => depth(path) === 1 || !["e2e", "tui", "fixtures", "compat"].includes(top(path)));
  const e2e = all.filter((path) => top(path) === "e2e" && depth(path) === 2);
  const rank = (path: string): number => {
    const index = SLOW_FIRST.indexOf(path.replace(/\\/g, "/").replace(/\.test\.ts$/, ""));
    return index === -1 ? SLOW_FIRST.length : index;
  };
  const ordered = (paths: string[]): string[] => paths.sort((a, b) => rank(a) - rank(b)).map((path) => join(TEST, path));
  return { unit: ordered(unit), e2e: ordered(e2e) };
}

interface Half {
  name: "unit" | "e2e";
  files: string[];
  concurrency: number;
}

/** Runs one half with the spec reporter on stdout; resolves with its failures and per-file times. */
async function runHalf(half: Half, times: Map<string, number>): Promise<number> {
  let failures = 0;
  const stream = run({ files: half.files, concurrency: half.concurrency });
  stream.on("test:fail", (data: { nesting: number; details: { type?: string } }) => {
    if (data.details.type !== "suite") failures++;
  });
  stream.on("test:pass", (data: { nesting: number; file?: string; details: { duration_ms: number } }) => record(times, data));
  stream.on("test:fail", (data: { nesting: number; file?: string; details: { duration_ms: number } }) => record(times, data));
  const out = stream.compose(spec);
  out.pipe(process.stdout, { end: false });
  await finished(out);
  return failures;
}

function record(times: Map<string, number>, data: { nesting: number; file?: string; details: { duration_ms: number } }): void {
  if (data.nesting !== 0 || !data.file) return;
  times.set(data.file, (times.get(data.file) ?? 0) + data.details.duration_ms);
}

function option(name: string, fallback: number): number {
  const given = process.argv.slice(2).find((arg) => arg.startsWith(`--${name}=`));
  const value = given ? Number(given.slice(name.length + 3)) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number ≥ 1`);
  return value;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const named = args.filter((arg) => arg.endsWith(".test.ts")).map((arg) => resolve(arg));
  const which = args.filter((arg) => !arg.startsWith("--") && !arg.endsWith(".test.ts"));
  const unknown = which.filter((arg) => arg !== "unit" && arg !== "e2e");
  if (unknown.length > 0) {
    console.error(`unknown part: ${unknown.join(", ")} (unit, e2e)`);
    return 2;
  }
  const all = testFiles();
  const only = (list: string[]): string[] => (named.length === 0 ? list : list.filter((file) => named.includes(file)));
  const files = { unit: only(all.unit), e2e: only(all.e2e) };
  const both = which.length === 0 || (which.includes("unit") && which.includes("e2e"));
  const halves: Half[] = [];
  if ((which.length === 0 || which.includes("e2e")) && files.e2e.length > 0) halves.push({ name: "e2e", files: files.e2e, concurrency: option("e2e-concurrency", CONCURRENCY.e2e) });
  if ((which.length === 0 || which.includes("unit")) && files.unit.length > 0) halves.push({ name: "unit", files: files.unit, concurrency: option("unit-concurrency", both ? CONCURRENCY.unitBeside : CONCURRENCY.unit) });
  const times = new Map<string, number>();
  const started = Date.now();
  const seconds = (since: number): string => ((Date.now() - since) / 1000).toFixed(1);
  // Both halves at once: the unit half keeps one core busy while the end-to-end files wait on pi.
  const failures = await Promise.all(
    halves.map(async (half) => {
      const failed = await runHalf(half, times);
      if (args.includes("--times")) console.log(`${half.name}: ${half.files.length} files in ${seconds(started)} s at concurrency ${half.concurrency}`);
      return failed;
    }),
  );
  if (args.includes("--times")) {
    console.log(`\nsummed test time per file, slowest first (wall ${seconds(started)} s):`);
    for (const [file, ms] of [...times].sort((a, b) => b[1] - a[1])) console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${relative(ROOT, file)}`);
  }
  return failures.some((count) => count > 0) ? 1 : 0;
}

process.exitCode = await main();
