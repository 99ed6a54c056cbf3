/**
 * docs/dev/layout.md is the map of the source: it names every file under src/, every script and the root
 * index.ts, and names no file that is gone. A file added without its line, or moved or deleted with its
 * line left behind, fails here with the path. And the tests stay easy to read: no file under test/ but
 * the fixtures is over 40,000 characters.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");
const LAYOUT = "docs/dev/layout.md";
/** The most characters (JavaScript string length) a file under test/ may hold: split a bigger one by what it proves. */
export const MAX_TEST_FILE_CHARS = 40_000;

/** The .ts files under `dir` (relative to the root, `/`-separated), recursively, sorted. */
function tsFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...tsFiles(root, path));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found.sort();
}

/** Every file the layout must name: each .ts under src/, the scripts and the root entry. */
export function sourceFiles(root: string): string[] {
  const scripts = readdirSync(join(root, "scripts")).filter((name) => name.endsWith(".ts")).map((name) => `scripts/${name}`);
  return ["index.ts", ...tsFiles(root, "src"), ...scripts.sort()];
}

/** The source paths a markdown text names in backticks: `src/….ts`, `scripts/x.ts` or `index.ts`. */
export function namedPaths(markdown: string): Set<string> {
  const named = new Set<string>();
  for (const match of markdown.matchAll(/`([^`\n]+)`/g)) {
    const text = match[1] ?? "";
    if (/^(?:src\/[\w./-]+\.ts|scripts\/[\w.-]+\.ts|index\.ts)$/.test(text)) named.add(text);
  }
  return named;
}

/** What is wrong with a layout text: files it leaves out, and paths it names that do not exist. */
export function layoutProblems(files: readonly string[], markdown: string, exists: (path: string) => boolean): string[] {
  const named = namedPaths(markdown);
  const problems: string[] = [];
  for (const file of files) if (!named.has(file)) problems.push(`${file} is not in ${LAYOUT}: add one line on what it owns`);
  for (const path of [...named].sort()) if (!exists(path)) problems.push(`${LAYOUT} names ${path}, which does not exist`);
  return problems;
}

test("layout: docs/dev/layout.md names every source file and script, and nothing that is gone", () => {
  const markdown = readFileSync(join(ROOT, LAYOUT), "utf8");
  const files = sourceFiles(ROOT);
  assert.ok(files.includes("src/loop.ts") && files.includes("scripts/pack-check.ts") && files.includes("index.ts"), files.join("\n"));
  assert.deepEqual(layoutProblems(files, markdown, (path) => existsSync(join(ROOT, path))), []);
});

test("layout: a file left out and a path that is gone are both named", () => {
  const markdown = "| `src/loop.ts` | rules |\n| `src/old.ts` | moved |\n| `index.ts` | entry |\nSee `loop.ts` and `src/core/` too.\n";
  const files = ["index.ts", "src/loop.ts", "src/new.ts"];
  const exists = (path: string): boolean => files.includes(path);
  assert.deepEqual(layoutProblems(files, markdown, exists), [
    "src/new.ts is not in docs/dev/layout.md: add one line on what it owns",
    "docs/dev/layout.md names src/old.ts, which does not exist",
  ]);
  assert.deepEqual([...namedPaths(markdown)].sort(), ["index.ts", "src/loop.ts", "src/old.ts"]);
});

test("layout: only whole paths in backticks count as naming a file", () => {
  const named = namedPaths("`src/core/text.ts`, src/io/files.ts, `src/core/`, `test/core/x.test.ts`, `scripts/bench.ts --question`, `scripts/demo.ts`");
  assert.deepEqual([...named].sort(), ["scripts/demo.ts", "src/core/text.ts"]);
});

/** Files under `<root>/test` (the fixtures aside) over `MAX_TEST_FILE_CHARS`, as `path: N characters`. */
export function oversizedTestFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (path !== "test/fixtures") walk(path);
      } else if (entry.isFile()) {
        const size = readFileSync(join(root, path), "utf8").length;
        if (size > MAX_TEST_FILE_CHARS) found.push(`${path}: ${size.toLocaleString("en-US")} characters, over ${MAX_TEST_FILE_CHARS.toLocaleString("en-US")}`);
      }
    }
  };
  walk("test");
  return found.sort();
}

test("size: no file under test/ but the fixtures is over 40,000 characters", () => {
  assert.deepEqual(oversizedTestFiles(ROOT), []);
});

test("size: a file over the limit is named, one at the limit and a big fixture are not", () => {
  const root = mkdtempSync(join(tmpdir(), "layout-size-"));
  try {
    mkdirSync(join(root, "test", "core"), { recursive: true });
    mkdirSync(join(root, "test", "fixtures", "big"), { recursive: true });
    writeFileSync(join(root, "test", "core", "at-limit.test.ts"), "a".repeat(MAX_TEST_FILE_CHARS));
    writeFileSync(join(root, "test", "core", "over.test.ts"), "é".repeat(MAX_TEST_FILE_CHARS + 1));
    writeFileSync(join(root, "test", "helper.ts"), "b".repeat(MAX_TEST_FILE_CHARS + 5));
    writeFileSync(join(root, "test", "fixtures", "big", "session.jsonl"), "c".repeat(MAX_TEST_FILE_CHARS * 2));
    assert.deepEqual(oversizedTestFiles(root), [
      "test/core/over.test.ts: 40,001 characters, over 40,000",
      "test/helper.ts: 40,005 characters, over 40,000",
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** SPEC §11 (0.5): the contributor notes are a map, not a diary. */
export const MAX_DEV_DOCS_CHARS = 100_000;

/** The characters of every Markdown file directly under `dir`: the total and each file's. */
export function devDocsChars(dir: string): { readonly total: number; readonly files: ReadonlyArray<readonly [string, number]> } {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => [name, readFileSync(join(dir, name), "utf8").length] as const);
  return { total: files.reduce((sum, [, chars]) => sum + chars, 0), files };
}

test(`docs/dev/ holds at most ${MAX_DEV_DOCS_CHARS.toLocaleString("en-US")} characters, and the count sees every page`, (t) => {
  const { total, files } = devDocsChars(join(ROOT, "docs", "dev"));
  const sizes = files.map(([name, chars]) => `${name} ${chars}`).join(", ");
  assert.ok(total <= MAX_DEV_DOCS_CHARS, `docs/dev/ is ${total} characters, over ${MAX_DEV_DOCS_CHARS}: keep what a contributor needs, drop what git holds (${sizes})`);
  // The count itself: a scratch folder of two pages over the limit is over it.
  const dir = mkdtempSync(join(tmpdir(), "dev-docs-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "a.md"), "é".repeat(60_000));
  writeFileSync(join(dir, "b.md"), "x".repeat(40_001));
  writeFileSync(join(dir, "notes.txt"), "x".repeat(10));
  assert.deepEqual(devDocsChars(dir), { total: 100_001, files: [["a.md", 60_000], ["b.md", 40_001]] });
});
