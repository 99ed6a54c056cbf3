/**
 * The pi compatibility matrix: runs the end-to-end suite (test/e2e/*.test.ts) against every supported
 * pi release with the real @juicesharp/rpiv-todo.
 *
 * - pi 1.5.2 is installed into .compat/pi-1.5.2/ (gitignored), with pi-ai, pi-tui and pi-agent-core
 *   pinned to the same version (rpiv-todo's `*` peer ranges would otherwise pull the newest), and
 *   reused while the installed versions match.
 * - pi 1.6.0 is the project's own devDependency (node_modules/).
 * - pi 0.74.2 (what npm installs on Node 20) is older than the range: test/compat/older-pi.test.ts installs
 *   it into .compat/pi-0.74.2/ on demand and checks that pi still starts with the extension loaded and
 *   stderr says which pi is needed (a few seconds once installed).
 *
 * Each suite runs through scripts/test.ts (`e2e`: its concurrency and order) with PI_TODO_LOOP_PI_ROOT
 * naming the node_modules folder to use. Prints the wall
 * time per version and exits non-zero when an install or any test fails.
 *
 *   npm run test:compat              every version
 *   npm run test:compat -- 1.5.2     only the named versions (0.74.2: the older-pi check)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RPIV_TODO = "2.11.0";
const PI_PACKAGES = ["@earendil-works/pi-coding-agent", "@earendil-works/pi-ai", "@earendil-works/pi-tui", "@earendil-works/pi-agent-core"];

interface Target {
  /** The pi version. */
  version: string;
  /** Installed into .compat/ (true) or the project's own node_modules (false). */
  separate: boolean;
  /** An older pi than the range: only test/compat/ runs, and installs it itself. */
  older?: true;
}

function installedVersion(modules: string, name: string): string | undefined {
  try {
    const manifest: { version?: unknown } = JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8"));
    return typeof manifest.version === "string" ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

function wanted(version: string): Record<string, string> {
  return { ...Object.fromEntries(PI_PACKAGES.map((name) => [name, version])), "@juicesharp/rpiv-todo": RPIV_TODO };
}

function mismatches(modules: string, dependencies: Record<string, string>): string[] {
  return Object.entries(dependencies)
    .filter(([name, version]) => installedVersion(modules, name) !== version)
    .map(([name, version]) => `${name}@${version} (found ${installedVersion(modules, name) ?? "none"})`);
}

/** Installs pi `version` into .compat/pi-<version>/ unless it is already there at the right versions. */
function ensureInstalled(version: string): string {
  const dir = join(ROOT, ".compat", `pi-${version}`);
  const modules = join(dir, "node_modules");
  const dependencies = wanted(version);
  const missing = mismatches(modules, dependencies);
  if (missing.length === 0) {
    console.log(`pi ${version}: reusing ${dir}`);
    return modules;
  }
  console.log(`pi ${version}: installing into ${dir} (${missing.join(", ")})`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: `pi-compat-${version}`, private: true, dependencies }, null, 2)}\n`);
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm install for pi ${version} failed (exit ${result.status ?? result.signal})`);
  const still = mismatches(modules, dependencies);
  if (still.length > 0) throw new Error(`pi ${version}: wrong versions after install: ${still.join(", ")}`);
  return modules;
}

/** Runs the e2e suite against one pi install (undefined = the project's own); resolves with the exit code. */
function runSuite(modules: string | undefined, files?: string): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.PI_TODO_LOOP_PI_ROOT;
  if (modules) env.PI_TODO_LOOP_PI_ROOT = modules;
  // The e2e suite through scripts/test.ts (its concurrency and order); other files by node:test itself.
  const args = files === undefined ? [join(ROOT, "scripts", "test.ts"), "e2e"] : ["--test", "--test-reporter=spec", files];
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: "inherit" });
    child.on("error", () => resolvePromise(1));
    child.on("close", (code) => resolvePromise(code ?? 1));
  });
}

async function main(): Promise<number> {
  const own = installedVersion(join(ROOT, "node_modules"), PI_PACKAGES[0] ?? "");
  const targets: Target[] = [
    { version: "1.5.2", separate: true },
    { version: own ?? "1.6.0", separate: false },
    { version: "0.74.2", separate: true, older: true },
  ];
  const only = process.argv.slice(2);
  const selected = only.length > 0 ? targets.filter((target) => only.includes(target.version)) : targets;
  if (selected.length === 0) {
    console.error(`no such version: ${only.join(", ")} (known: ${targets.map((target) => target.version).join(", ")})`);
    return 2;
  }
  const results: Array<{ version: string; code: number; seconds: number }> = [];
  for (const target of selected) {
    if (target.older) {
      console.log(`\n=== pi ${target.version}, older than the range (test/compat/) ===`);
      const started = Date.now();
      const code = await runSuite(undefined, "test/compat/*.test.ts");
      results.push({ version: target.version, code, seconds: (Date.now() - started) / 1000 });
      continue;
    }
    let modules: string | undefined;
    try {
      modules = target.separate ? ensureInstalled(target.version) : undefined;
    } catch (error) {
      console.error(error instanceof Error ? error.message : String(error));
      results.push({ version: target.version, code: 1, seconds: 0 });
      continue;
    }
    const running = installedVersion(modules ?? join(ROOT, "node_modules"), PI_PACKAGES[0] ?? "");
    console.log(`\n=== pi ${running ?? "?"} (${modules ?? "node_modules"}) ===`);
    const started = Date.now();
    const code = await runSuite(modules);
    results.push({ version: running ?? target.version, code, seconds: (Date.now() - started) / 1000 });
  }
  console.log("\ncompatibility matrix:");
  for (const { version, code, seconds } of results) {
    console.log(`  pi ${version.padEnd(8)} ${code === 0 ? "pass" : `FAIL (exit ${code})`}  ${seconds.toFixed(1)} s`);
  }
  return results.every((result) => result.code === 0) ? 0 : 1;
}

if (!existsSync(join(ROOT, "node_modules"))) {
  console.error("run npm install first");
  process.exit(2);
}
process.exitCode = await main();
