/**
 * The CHANGELOG rules `pack:check` and the release check apply (scripts/changelog.ts): a release's entry is
 * shown whole by pi under "Extension Updates" at the next start, so it holds at most 40 lines.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { changelogProblems, MAX_ENTRY_LINES, versionAtLeast } from "../../scripts/changelog.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function changelog(bodyLines: number): string {
  const body = Array.from({ length: bodyLines }, (_, i) => `- change ${i + 1}`).join("\n");
  return `# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2026-12-05\n${body}\n\n\n## [1.1.0] - 2026-11-01\n\n- older\n`;
}

test("changelog: an entry of 40 lines with its heading passes; 41 fails, naming the count and the limit", () => {
  assert.equal(MAX_ENTRY_LINES, 40);
  assert.deepEqual(changelogProblems(changelog(39), "1.2.0"), []);
  const problems = changelogProblems(changelog(40), "1.2.0");
  assert.equal(problems.length, 1);
  assert.match(problems[0] ?? "", /"## \[1\.2\.0\] - 2026-12-05" is 41 lines; .* keep it to 40/);
});

test("changelog: blank lines after the entry's last text do not count", () => {
  assert.deepEqual(changelogProblems(changelog(39).replace("- change 39\n", "- change 39\n\n\n\n\n"), "1.2.0"), []);
});

test("changelog: the unreleased changes are held to the same 40 lines; entries before 0.4.0 are not", () => {
  const long = Array.from({ length: 45 }, (_, i) => `- change ${i + 1}`).join("\n");
  const text = `# Changelog\n\n## [Unreleased]\n${long}\n\n## [0.3.0] - 2026-12-02\n${long}\n`;
  const problems = changelogProblems(text, "0.3.0");
  assert.equal(problems.length, 1, problems.join("\n"));
  assert.match(problems[0] ?? "", /"## \[Unreleased\]" is 46 lines/);
});

test("changelog: the project's own entry for package.json's version and its unreleased changes fit", () => {
  const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  assert.deepEqual(changelogProblems(readFileSync(join(ROOT, "CHANGELOG.md"), "utf8"), version), []);
});

test("versionAtLeast: compares x.y.z by number, not by text", () => {
  assert.equal(versionAtLeast("0.4.0", "0.4.0"), true);
  assert.equal(versionAtLeast("0.10.0", "0.4.0"), true, "10 is more than 4");
  assert.equal(versionAtLeast("1.0.0", "0.4.0"), true);
  assert.equal(versionAtLeast("0.3.9", "0.4.0"), false);
  assert.equal(versionAtLeast("0.4.0", "0.4.1"), false);
});
