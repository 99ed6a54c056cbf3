/**
 * `npm run pack:check`: what `npm publish` would ship. Runs `npm pack --dry-run --json` and checks the
 * file list (every source file and user doc on disk is in; nothing of the workshop is, docs/dev/ included)
 * and the manifest fields pi and npm rely on; checks the docs' budgets and links (scripts/docs-check.ts:
 * README.md ≤ 12,000 characters, each shipped docs/*.md ≤ 10,000, README plus shipped docs ≤ 45,000,
 * AGENTS.md ≤ 12,000); checks that CHANGELOG.md is in pi's format with a `## [version] - date` heading
 * for `package.json`'s version (scripts/changelog.ts); runs `npm publish --dry-run` and fails on any npm
 * warning or error but the expected "requires you to be logged in … (dry-run)". Prints a short summary
 * with the docs' sizes; exits non-zero on any failure, naming the file and the budget it broke.
 *
 * `--root <dir>` checks another copy of the tree; `--docs` runs only the file list's docs part, the
 * budgets and the links (no `npm publish`, no network).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { changelogProblems } from "./changelog.ts";
import { checkDocs, docsSummary } from "./docs-check.ts";

const ARGS = process.argv.slice(2);
const ROOT_FLAG = ARGS.indexOf("--root");
const ROOT = ROOT_FLAG >= 0 && ARGS[ROOT_FLAG + 1] ? resolve(ARGS[ROOT_FLAG + 1] ?? ".") : resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DOCS_ONLY = ARGS.includes("--docs");

type Json = { readonly [key: string]: unknown };

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Files under `dir` (relative to the root, with forward slashes) whose name passes `keep`. */
function filesOnDisk(dir: string, keep: (name: string) => boolean): string[] {
  const base = join(ROOT, dir);
  let names: string[];
  try {
    names = readdirSync(base, { recursive: true }).map(String);
  } catch {
    return [];
  }
  return names
    .filter((name) => keep(name) && statSync(join(base, name)).isFile())
    .map((name) => relative(ROOT, join(base, name)).split(sep).join("/"))
    .sort();
}

/** The tarball's file list as `npm pack --dry-run --json` reports it. */
function packedFiles(): { files: string[]; size: number; unpacked: number; name: string } {
  const stdout = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  const start = stdout.indexOf("[");
  const parsed: unknown = JSON.parse(start >= 0 ? stdout.slice(start) : stdout);
  const first = Array.isArray(parsed) ? parsed[0] : undefined;
  if (!isRecord(first) || !Array.isArray(first.files)) throw new Error("npm pack --json printed no file list");
  const files = first.files.flatMap((file) => (isRecord(file) && typeof file.path === "string" ? [file.path] : []));
  return {
    files: files.sort(),
    size: typeof first.size === "number" ? first.size : 0,
    unpacked: typeof first.unpackedSize === "number" ? first.unpackedSize : 0,
    name: typeof first.filename === "string" ? first.filename : "?",
  };
}

const FORBIDDEN = ["test/", "node_modules/", "scripts/", ".ci/", ".tmp/", ".compat/", ".release/", ".git/", "docs/dev/"];
/** The README's picture: wherever the packaged README is shown (a registry page, pi's gallery) its first image must load. */
const README_PICTURE = "docs/screenshot.svg";
const FORBIDDEN_FILES = ["package-lock.json"];
const TOP_LEVEL = ["package.json", "README.md", "LICENSE", "CHANGELOG.md", "index.ts"];
const ALLOWED_DIRS = ["src/", "docs/"];

/** Dry-run warnings that say nothing about the package: a check run is not logged in to the registry. */
const EXPECTED_WARNINGS = [/^npm warn publish This command requires you to be logged in to \S+ \(dry-run\)$/];

/** `npm publish --dry-run --json`: what it would publish, and every warning or error line npm printed. */
function publishDryRun(): { id: string; files: string[]; target: string; unexpected: string[]; expected: number; code: number | null } {
  const result = spawnSync("npm", ["publish", "--dry-run", "--json"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, npm_config_loglevel: "notice", npm_config_update_notifier: "false" },
  });
  const stdout = result.stdout ?? "";
  const stderr = result.stderr ?? "";
  const lines = stderr.split("\n").map((line) => line.trimEnd());
  const flagged = lines.filter((line) => /^npm (warn|error|ERR!)/i.test(line));
  const unexpected = flagged.filter((line) => !EXPECTED_WARNINGS.some((pattern) => pattern.test(line)));
  if (result.error) unexpected.push(`npm publish --dry-run did not finish: ${result.error.message}`);
  const target = lines.find((line) => line.startsWith("npm notice Publishing to "))?.replace("npm notice ", "") ?? "";
  let id = "";
  let files: string[] = [];
  try {
    const start = stdout.indexOf("{");
    const parsed: unknown = JSON.parse(start >= 0 ? stdout.slice(start) : stdout);
    const first = isRecord(parsed) ? Object.values(parsed)[0] : undefined;
    if (isRecord(first)) {
      id = typeof first.id === "string" ? first.id : "";
      files = Array.isArray(first.files) ? first.files.flatMap((file) => (isRecord(file) && typeof file.path === "string" ? [file.path] : [])).sort() : [];
    }
  } catch {
    unexpected.push(`npm publish --dry-run --json printed no JSON: ${stdout.slice(0, 200)}`);
  }
  return { id, files, target, unexpected, expected: flagged.length - unexpected.length, code: result.status };
}

function main(): number {
  const failures: string[] = [];
  const check = (ok: boolean, message: string) => {
    if (!ok) failures.push(message);
  };

  const manifest: unknown = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  if (!isRecord(manifest)) {
    process.stderr.write("pack:check: package.json is not a JSON object\n");
    return 1;
  }
  if (DOCS_ONLY) {
    const report = checkDocs(ROOT, packedFiles().files, manifest);
    process.stdout.write(`pack:check --docs ${ROOT}\n${docsSummary(report)}`);
    if (report.failures.length > 0) {
      process.stdout.write(`FAILED (${report.failures.length}):\n${report.failures.map((failure) => `  - ${failure}`).join("\n")}\n`);
      return 1;
    }
    process.stdout.write("OK: docs budgets, links, and docs/dev/ not shipped\n");
    return 0;
  }
  const keywords = Array.isArray(manifest.keywords) ? manifest.keywords : [];
  check(keywords.includes("pi-package"), 'package.json: keywords must include "pi-package" (pi\'s package gallery lists it by that)');
  const pi = isRecord(manifest.pi) ? manifest.pi : {};
  check(isDeepStrictEqual(pi.extensions, ["./index.ts"]), `package.json: pi.extensions must be ["./index.ts"] (got ${JSON.stringify(pi.extensions)})`);
  const engines = isRecord(manifest.engines) ? manifest.engines : {};
  check(engines.node === ">=22.19", `package.json: engines.node must be ">=22.19" (got ${JSON.stringify(engines.node)})`);
  check(!("dependencies" in manifest), `package.json: no "dependencies" allowed (the extension runs on pi and Node alone; got ${JSON.stringify(manifest.dependencies)})`);

  const version = typeof manifest.version === "string" ? manifest.version : "?";
  let changelog = "";
  try {
    changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
  } catch {
    failures.push("CHANGELOG.md is missing");
  }
  if (changelog) for (const problem of changelogProblems(changelog, version)) failures.push(`CHANGELOG.md: ${problem}`);

  const packed = packedFiles();
  const inTarball = new Set(packed.files);

  const sources = filesOnDisk("src", (name) => name.endsWith(".ts"));
  const docs = filesOnDisk("docs", (name) => name.split(sep)[0] !== "dev");
  check(docs.includes(README_PICTURE), `${README_PICTURE} is missing on disk (the README shows it first)`);
  check(sources.includes("src/index.ts"), "src/index.ts is missing on disk");
  check(docs.length > 0, "docs/ holds no file on disk");
  const required = [...TOP_LEVEL, "src/index.ts", README_PICTURE, ...sources, ...docs];
  for (const file of new Set(required)) check(inTarball.has(file), `missing from the tarball: ${file}`);

  for (const file of packed.files) {
    if (FORBIDDEN.some((prefix) => file.startsWith(prefix)) || FORBIDDEN_FILES.includes(file)) {
      failures.push(`must not be in the tarball: ${file}`);
    } else if (!TOP_LEVEL.includes(file) && !ALLOWED_DIRS.some((prefix) => file.startsWith(prefix))) {
      failures.push(`unexpected file in the tarball: ${file} (only ${[...TOP_LEVEL, ...ALLOWED_DIRS].join(", ")} ship)`);
    }
  }

  const docsReport = checkDocs(ROOT, packed.files, manifest);
  failures.push(...docsReport.failures);

  const name = typeof manifest.name === "string" ? manifest.name : "?";
  const dryRun = publishDryRun();
  check(dryRun.code === 0, `npm publish --dry-run exited ${dryRun.code}`);
  for (const line of dryRun.unexpected) failures.push(`npm publish --dry-run: ${line}`);
  check(dryRun.id === `${name}@${version}`, `npm publish --dry-run would publish ${JSON.stringify(dryRun.id)}, not ${name}@${version}`);
  check(isDeepStrictEqual(dryRun.files, packed.files), `npm publish --dry-run lists other files than npm pack: ${JSON.stringify(dryRun.files)}`);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  process.stdout.write(
    `pack:check ${name}@${version}: ${packed.files.length} files in ${packed.name} ` +
      `(${kib(packed.size)} packed, ${kib(packed.unpacked)} unpacked)\n` +
      `  src: ${packed.files.filter((file) => file.startsWith("src/")).length} of ${sources.length} .ts files on disk; ` +
      `docs: ${packed.files.filter((file) => file.startsWith("docs/")).length} of ${docs.length}; ` +
      `top level: ${packed.files.filter((file) => !file.includes("/")).join(", ")}\n` +
      docsSummary(docsReport) +
      `  CHANGELOG.md: ${changelogProblems(changelog, version).length === 0 ? `"## [${version}]" present, format ok` : "problems below"}\n` +
      `  npm publish --dry-run: ${dryRun.id || "?"}, ${dryRun.files.length} files, ${dryRun.target || "no target printed"}; ` +
      `${dryRun.unexpected.length} unexpected warnings, ${dryRun.expected} expected (not logged in)\n`,
  );
  if (failures.length > 0) {
    process.stdout.write(`FAILED (${failures.length}):\n${failures.map((failure) => `  - ${failure}`).join("\n")}\n`);
    return 1;
  }
  process.stdout.write("OK: manifest (pi-package, pi.extensions, engines.node, no dependencies, repository, homepage), file list (docs/dev/ not shipped), docs budgets and links, CHANGELOG heading and publish dry-run as expected\n");
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  process.stderr.write(`pack:check failed to run: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
