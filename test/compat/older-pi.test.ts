// Proves on a real pi 0.74.2 (what npm installs on Node 20) that the extension loads without a crash: pi answers and exits 0, and stderr says which pi is needed.
/**
 * SPEC §10 (0.5), an older pi gets a sentence, not a crash. pi 0.74.2 is installed on demand into
 * `.compat/pi-0.74.2/` (gitignored; reused while its version matches; the first run needs the npm
 * registry), not a devDependency. `npm run test:compat` runs this file (target `0.74.2`); it is not part
 * of `npm test`, which needs no network.
 *
 * The model is 0.74's own faux provider (test/compat/old-faux.ts); pi runs in print mode in an isolated
 * home, on the Node running this test.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { olderPiText } from "../../src/core/text.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const VERSION = "0.74.2";
const PI = "@earendil-works/pi-coding-agent";
const INSTALL_DIR = join(ROOT, ".compat", `pi-${VERSION}`);
const PI_PACKAGE = join(INSTALL_DIR, "node_modules", ...PI.split("/"));

function installedVersion(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(PI_PACKAGE, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** pi 0.74.2 in `.compat/pi-0.74.2/`, installed when it is not there yet. */
function ensurePi(): void {
  if (installedVersion() === VERSION) return;
  mkdirSync(INSTALL_DIR, { recursive: true });
  writeFileSync(join(INSTALL_DIR, "package.json"), `${JSON.stringify({ name: `pi-compat-${VERSION}`, private: true, dependencies: { [PI]: VERSION } }, null, 2)}\n`);
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: INSTALL_DIR, encoding: "utf8" });
  assert.equal(result.status, 0, `npm install ${PI}@${VERSION} failed: ${result.stderr}`);
  assert.equal(installedVersion(), VERSION);
}

test(`pi ${VERSION} with this extension loaded: pi -p answers and exits 0, and stderr says once which pi is needed and how to get it`, { timeout: 180_000 }, (t) => {
  ensurePi();
  const box = mkdtempSync(join(tmpdir(), "todo-loop-older-pi-"));
  t.after(() => rmSync(box, { recursive: true, force: true }));
  const home = join(box, "home");
  const cwd = join(box, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const args = [
    join(PI_PACKAGE, "dist", "cli.js"),
    "-e", join(ROOT, "test", "compat", "old-faux.ts"),
    "-e", join(ROOT, "index.ts"),
    "--provider", "faux", "--model", "faux-1", "--session-dir", join(box, "sessions"),
    "-p", "Say hello",
  ];
  const env = { ...process.env, HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi", "agent"), TMPDIR: box, NO_COLOR: "1" };
  const run = spawnSync(process.execPath, args, { cwd, env, encoding: "utf8", timeout: 120_000 });
  t.diagnostic(`pi ${VERSION}: exit ${run.status}, stdout ${JSON.stringify(run.stdout.trim())}, stderr ${JSON.stringify(run.stderr.trim())}`);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Hello from pi 0.74.");
  const lines = run.stderr.split("\n").filter((line) => line.trim() !== "");
  assert.deepEqual(lines, [olderPiText(["registerEntryRenderer"])]);
  assert.match(lines[0] ?? "", /needs pi 1\.5\.2 to 1\.6\.x.*Node\.js 22\.19 or newer, then run: npm install -g @earendil-works\/pi-coding-agent$/);
});
