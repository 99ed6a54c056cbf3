/**
 * Tests are quiet: a unit test that runs the extension on a fake pi writes none of its output to the
 * test process's stdout or stderr — no terminal escape bytes (an OSC 777 notification would pop up on
 * the developer's terminal if it honours them) and no `todo loop: …` stop or config-problem lines. Such
 * a test hands the extension a captured io (test/captured-io.ts). Checked three ways: every unit test
 * file that loads the extension passes an io wherever it calls it; the files that announce the most
 * stops, run in a child as `npm run test:unit` runs them, print only the runner's lines; and a fixture
 * written the careless way shows that the run check sees both kinds of output.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");
const TEST_DIR = join(ROOT, "test");
const LOUD = join(TEST_DIR, "fixtures", "quiet", "loud.ts");
const ENTRY = join(ROOT, "src", "index.ts");
/** Stops in every mode through the wiring, the block tool's waits, and junk, config files and sequences through the real handlers. */
const REPRESENTATIVE = ["test/host/boundary-stops.test.ts", "test/host/block-tool.test.ts", "test/property/handlers.test.ts"];
/** Folders that are not unit tests: the real-host suites and the fixtures. */
const SKIPPED = new Set(["e2e", "tui", "fixtures"]);

function unitModules(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!(dir === TEST_DIR && SKIPPED.has(entry.name))) found.push(...unitModules(path));
    } else if (entry.name.endsWith(".ts")) {
      found.push(path);
    }
  }
  return found;
}

/** The relative modules a file imports, statically or with `import()`, as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1] ?? "");
  return specifiers.map((specifier) => resolve(dirname(file), specifier));
}

/** The unit test files that load the extension's entry, directly or through a helper module. */
function filesRunningTheExtension(): string[] {
  const modules = unitModules(TEST_DIR);
  const imports = new Map(modules.map((file) => [file, importsOf(file)]));
  const loaders = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [file, targets] of imports) {
      if (loaders.has(file) || !targets.some((target) => target === ENTRY || loaders.has(target))) continue;
      loaders.add(file);
      grew = true;
    }
  }
  return [...loaders].filter((file) => file.endsWith(".test.ts") && file !== import.meta.filename).sort();
}

interface Noise {
  /** Lines holding an ESC byte (the spec reporter writes no colour to a pipe, so every one is the product's). */
  readonly escapes: string[];
  /** Lines that begin with the product's own prefix once escape sequences are taken out. */
  readonly lines: string[];
}

function noiseIn(output: string): Noise {
  const escapes: string[] = [];
  const lines: string[] = [];
  for (const line of output.split("\n")) {
    if (line.includes("\u001b")) escapes.push(JSON.stringify(line.slice(0, 160)));
    const plain = line.replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, "").replace(/\u001b[P\\][^\u0007]*\u0007?/g, "");
    if (/^todo loop: /.test(plain) || /\u0007todo loop: /.test(line)) lines.push(plain.slice(0, 160));
  }
  return { escapes, lines };
}

/** Runs test files the way `npm run test:unit` does, in a child, with its stdout and stderr kept apart from ours. */
function runTests(files: readonly string[]): { output: string; status: number | null } {
  const env: Record<string, string | undefined> = { ...process.env, PROPERTY_CASES: "50", NO_COLOR: "1" };
  // A runner started inside a test file would otherwise report to this one instead of printing.
  delete env.NODE_TEST_CONTEXT;
  delete env.FORCE_COLOR;
  const child = spawnSync(process.execPath, ["--test", "--test-reporter=spec", "--test-concurrency=2", ...files], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  return { output: `${child.stdout}\n${child.stderr}`, status: child.status };
}

test("quiet: every unit test file that loads the extension hands it an io wherever it calls it", () => {
  const files = filesRunningTheExtension();
  assert.ok(files.length >= 10, `the files that load src/index.ts are found: ${files.map((file) => relative(ROOT, file)).join(", ")}`);
  const careless: string[] = [];
  for (const file of [...files, ...unitModules(TEST_DIR).filter((module) => !module.endsWith(".test.ts"))]) {
    const text = readFileSync(file, "utf8");
    const names = [...text.matchAll(/import\s+(\w+)\s+from\s+"[./]+\/src\/index\.ts"|\{\s*default:\s*(\w+)\s*\}\s*=\s*await\s+import\("[./]+\/src\/index\.ts"\)/g)].map((match) => match[1] ?? match[2] ?? "");
    for (const name of names) {
      for (const call of text.matchAll(new RegExp(`\\b${name}\\(([^()]*)\\)`, "g"))) {
        if (!(call[1] ?? "").includes(",")) careless.push(`${relative(ROOT, file)}: ${call[0]}`);
      }
    }
  }
  assert.deepEqual(careless, [], "calls of the extension without an io write to the test process's own streams");
});

test("quiet: the unit test files that announce the most stops write no escape byte and no `todo loop:` line to the runner's stdout or stderr", (t) => {
  const { output } = runTests(REPRESENTATIVE);
  assert.match(output, /^ℹ tests \d+$/m, "the child runner reported");
  const noise = noiseIn(output);
  t.diagnostic(`${REPRESENTATIVE.join(", ")}: ${noise.escapes.length} lines with ESC, ${noise.lines.length} product lines`);
  assert.deepEqual(noise.escapes, [], "no terminal escape bytes");
  assert.deepEqual(noise.lines, [], "no product lines");
});

test("quiet: the check sees a test that lets the extension write to the process's streams (a TUI notification, a print-mode stop line)", (t) => {
  const { output, status } = runTests([LOUD]);
  assert.equal(status, 0, output);
  const noise = noiseIn(output);
  t.diagnostic(`loud fixture: ${noise.escapes.length} lines with ESC, ${noise.lines.length} product lines`);
  assert.equal(noise.escapes.length, 1, "the OSC 777 notification of the TUI stop");
  assert.match(noise.escapes[0] ?? "", /\]777;notify;pi: todo loop;stopped: the agent stopped 3 times/);
  assert.deepEqual(noise.lines, ["todo loop: stopped: the agent stopped 3 times in a row without doing anything, 2 of 2 tasks open"]);
});
