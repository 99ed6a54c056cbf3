/**
 * The folders show the layers (SPEC §2): every import of every file under src/ is read, and a layer that
 * imports one it must not fails here, naming the file, the line and the rule. Two more rules keep the
 * house easy to change: a file in core/ imports only core/ (loop.ts builds on the core, never under it),
 * and no files import each other in a circle, type-only imports included.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

type Layer = "core" | "reader" | "config" | "sources" | "work" | "io" | "host";

/** Which layer a file under src/ belongs to, by its path relative to src/. */
export function layerOf(path: string): Layer {
  const parts = path.split(/[\\/]/);
  if (parts.length === 1) {
    if (path === "loop.ts" || path === "question.ts") return "core"; // question.ts re-exports the core's detector
    if (path === "state.ts") return "reader";
    if (path === "config.ts") return "config";
    return "host"; // index.ts
  }
  const folder = parts[0];
  if (folder === "core" || folder === "sources" || folder === "work" || folder === "io" || folder === "host") return folder;
  return "host";
}

/** The layers a layer may import from; `node` stands for `node:` built-ins. Packages are never allowed. */
const ALLOWED: Readonly<Record<Layer, ReadonlySet<Layer | "node">>> = {
  core: new Set(["core"]),
  sources: new Set(["core", "sources"]),
  work: new Set(["core", "work"]),
  reader: new Set(["core", "sources", "work", "reader"]),
  io: new Set(["core", "io", "node"]),
  config: new Set(["core", "io", "config", "node"]),
  host: new Set(["core", "reader", "config", "sources", "work", "io", "host", "node"]),
};

export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  readonly why: string;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Every import specifier of a source text with its line number (static, re-exports and dynamic). */
export function importsOf(text: string): { specifier: string; line: number }[] {
  const found: { specifier: string; line: number }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (specifier === undefined) continue;
    const offset = (match.index ?? 0) + match[0].indexOf(specifier);
    found.push({ specifier, line: text.slice(0, offset).split("\n").length });
  }
  return found;
}

/** Every .ts file under `dir`, as full paths. */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** A relative specifier of the file at `path`, as a path relative to `srcDir` with forward slashes. */
function resolvedOf(srcDir: string, path: string, specifier: string): string {
  return relative(srcDir, resolve(dirname(path), specifier)).split(sep).join("/");
}

/** The violations of the layer rule in the tree rooted at `srcDir`. */
export function violations(srcDir: string): Violation[] {
  const out: Violation[] = [];
  for (const path of walk(srcDir)) {
    const file = relative(srcDir, path).split(sep).join("/");
    const layer = layerOf(file);
    for (const { specifier, line } of importsOf(readFileSync(path, "utf8"))) {
      let target: Layer | "node";
      if (specifier.startsWith("node:")) target = "node";
      else if (specifier.startsWith(".")) {
        const resolved = resolvedOf(srcDir, path, specifier);
        if (resolved.startsWith("..")) {
          out.push({ file, line, specifier, why: "imports from outside src/" });
          continue;
        }
        target = layerOf(resolved);
      } else {
        out.push({ file, line, specifier, why: "imports a package (no runtime dependencies; pi's types are structural in core/pi-shapes.ts)" });
        continue;
      }
      if (!ALLOWED[layer].has(target)) out.push({ file, line, specifier, why: `${layer} may not import ${target === "node" ? "node: built-ins" : target}` });
      else if (file.startsWith("core/") && target === "core" && !resolvedOf(srcDir, path, specifier).startsWith("core/")) {
        out.push({ file, line, specifier, why: "core/ imports only core/ (loop.ts and question.ts build on it)" });
      }
    }
  }
  return out;
}

/** Which files under `srcDir` each file imports (relative imports inside the tree, type-only ones included). */
export function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of walk(srcDir)) {
    const file = relative(srcDir, path).split(sep).join("/");
    const targets = importsOf(readFileSync(path, "utf8"))
      .filter(({ specifier }) => specifier.startsWith("."))
      .map(({ specifier }) => resolvedOf(srcDir, path, specifier))
      .filter((target) => !target.startsWith(".."));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The import cycles in the tree rooted at `srcDir`, one line per group of files that import each other
 * (a strongly connected component): the shortest circle through its first file by name, then the other
 * files of the group, if any. A file that imports itself is a cycle too.
 */
export function cycles(srcDir: string): string[] {
  const graph = importGraph(srcDir);
  const next = (file: string): string[] => (graph.get(file) ?? []).filter((target) => graph.has(target));
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const target of next(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
      if (member === file) break;
    }
    if (group.length > 1 || next(file).includes(file)) groups.push(group.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return groups
    .map((group) => {
      const start = group[0] as string;
      const inGroup = new Set(group);
      // Breadth first from the start back to it, inside the group: the shortest circle.
      const from = new Map<string, string>();
      const queue = [start];
      let end: string | undefined;
      while (queue.length > 0 && end === undefined) {
        const file = queue.shift() as string;
        for (const target of next(file)) {
          if (!inGroup.has(target)) continue;
          if (target === start) {
            end = file;
            break;
          }
          if (!from.has(target)) {
            from.set(target, file);
            queue.push(target);
          }
        }
      }
      const circle = [start];
      for (let file = end; file !== undefined && file !== start; file = from.get(file)) circle.splice(1, 0, file);
      const others = group.filter((file) => !circle.includes(file));
      return `${[...circle, start].join(" → ")}${others.length > 0 ? ` (with ${others.join(", ")})` : ""}`;
    })
    .sort();
}

const describe = (list: readonly Violation[]): string => list.map((v) => `${v.file}:${v.line} ${v.specifier}: ${v.why}`).join("\n");

test("layers: no file under src/ imports a layer it must not", () => {
  const found = violations(join(ROOT, "src"));
  assert.equal(found.length, 0, describe(found));
});

test("layers: a core file that imports node:fs is caught, with the file, line and rule", () => {
  const found = violations(join(ROOT, "test", "fixtures", "layers", "src"));
  assert.deepEqual(
    found.map((v) => `${v.file}:${v.line} ${v.specifier}: ${v.why}`).sort(),
    [
      "core/bad.ts:2 node:fs: core may not import node: built-ins",
      "core/bad.ts:3 ../host/wiring.ts: core may not import host",
      "io/files.ts:2 ../sources/a.ts: io may not import sources",
      "sources/a.ts:1 ../io/files.ts: sources may not import io",
      "work/w.ts:1 some-package: imports a package (no runtime dependencies; pi's types are structural in core/pi-shapes.ts)",
    ],
  );
});

test("layers: no files under src/ import each other in a circle", () => {
  const found = cycles(join(ROOT, "src"));
  assert.deepEqual(found, [], found.join("\n"));
});

test("layers: a circle of imports is caught, type-only imports included, and a core/ file importing loop.ts", () => {
  const fixture = join(ROOT, "test", "fixtures", "layers", "cycle", "src");
  assert.deepEqual(cycles(fixture), [
    "host/run.ts → host/timer.ts → host/tracker.ts → host/run.ts (with host/wake.ts)",
    "host/self.ts → host/self.ts",
  ]);
  assert.deepEqual(
    violations(fixture).map((v) => `${v.file}:${v.line} ${v.specifier}: ${v.why}`),
    ["core/up.ts:2 ../loop.ts: core/ imports only core/ (loop.ts and question.ts build on it)"],
  );
  // The layer fixture's io and sources files import each other too.
  assert.deepEqual(cycles(join(ROOT, "test", "fixtures", "layers", "src")), ["io/files.ts → sources/a.ts → io/files.ts"]);
});

test("layers: each top-level file and folder has its layer", () => {
  assert.equal(layerOf("loop.ts"), "core");
  assert.equal(layerOf("question.ts"), "core");
  assert.equal(layerOf("state.ts"), "reader");
  assert.equal(layerOf("config.ts"), "config");
  assert.equal(layerOf("index.ts"), "host");
  assert.equal(layerOf("core/types.ts"), "core");
  assert.equal(layerOf("work/x.ts"), "work");
  assert.equal(layerOf("io/notify.ts"), "io");
});

test("layers: imports are read in every form: type-only, re-exports, dynamic, multi-line", () => {
  const text = 'import type { A } from "./a.ts";\nexport { b } from "./b.ts";\nconst c = await import("./c.ts");\nimport {\n  d,\n} from "./d.ts";\nexport * from "./e.ts";\n';
  assert.deepEqual(importsOf(text).map((i) => `${i.line}:${i.specifier}`), ["1:./a.ts", "2:./b.ts", "3:./c.ts", "6:./d.ts", "7:./e.ts"]);
});
