/**
 * `npm run pack:check`'s docs budgets and links (scripts/docs-check.ts), run the way the script runs them
 * (`--docs`, on a copy of the tree): a README padded past 12,000 characters fails naming README.md and
 * the budget; docs/dev/ shipped, a relative README link and a link to a missing anchor fail; the real
 * tree passes and prints the package's docs total.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { anchors, BUDGETS, linkTargets, repositoryUrl, slug } from "../../scripts/docs-check.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SCRIPT = join(ROOT, "scripts", "pack-check.ts");
const TREE = ["package.json", "index.ts", "src", "docs", "README.md", "LICENSE", "CHANGELOG.md", "AGENTS.md"];

function packCheck(root: string): { code: number | null; out: string } {
  const run = spawnSync(process.execPath, [SCRIPT, "--docs", "--root", root], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  return { code: run.status, out: `${run.stdout ?? ""}${run.stderr ?? ""}` };
}

/** A copy of the package's tree, changed by `change`, checked, then removed. */
function checkCopy(change: (root: string) => void): { code: number | null; out: string } {
  const root = mkdtempSync(join(tmpdir(), "todo-loop-pack-check-"));
  try {
    for (const name of TREE) if (existsSync(join(ROOT, name))) cpSync(join(ROOT, name), join(root, name), { recursive: true });
    change(root);
    return packCheck(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const edit = (root: string, file: string, update: (text: string) => string): void => writeFileSync(join(root, file), update(readFileSync(join(root, file), "utf8")));

test("pack:check --docs: the real tree is within every budget and prints the package's docs total", { timeout: 60_000 }, (t) => {
  const { code, out } = packCheck(ROOT);
  t.diagnostic(out.split("\n")[1] ?? "");
  assert.equal(code, 0, out);
  const total = /docs total: ([\d,]+) of 45,000 characters/.exec(out);
  assert.ok(total, out);
  assert.ok(Number((total[1] ?? "").replaceAll(",", "")) <= BUDGETS.total, out);
  assert.match(out, /^OK: docs budgets, links, and docs\/dev\/ not shipped$/m);
});

test("pack:check --docs: a README padded past 12,000 characters fails, naming README.md and its budget", { timeout: 60_000 }, () => {
  const { code, out } = checkCopy((root) => edit(root, "README.md", (text) => `${text}\n${"A sentence that only makes the front door longer. ".repeat(250)}\n`));
  assert.equal(code, 1, out);
  assert.match(out, /- README\.md is [\d,]+ characters, over its budget of 12,000/);
});

test("pack:check --docs: docs/dev/ in the package fails, naming the file", { timeout: 60_000 }, () => {
  const { code, out } = checkCopy((root) => edit(root, "package.json", (text) => text.replace('"docs/*.md"', '"docs/"')));
  assert.equal(code, 1, out);
  assert.match(out, /- docs\/dev\/[\w.-]+\.md is in the tarball: docs\/dev\/ is contributor material and must not ship/);
});

test("pack:check --docs: a relative README link, and a link to an anchor that does not exist, fail naming the link", { timeout: 60_000 }, () => {
  const { code, out } = checkCopy((root) => {
    edit(root, "README.md", (text) => `${text}\nSee [stops](docs/stops.md).\n`);
    edit(root, "docs/troubleshooting.md", (text) => `${text}\nSee [nowhere](stops.md#no-such-heading).\n`);
  });
  assert.equal(code, 1, out);
  assert.match(out, /README\.md links to docs\/stops\.md by a relative path, which the npm registry's page cannot resolve: use https:\/\/github\.com\/pi-todo-loop\/pi-todo-loop\/blob\/main\/docs\/stops\.md/);
  assert.match(out, /docs\/troubleshooting\.md links to stops\.md#no-such-heading, but docs\/stops\.md has no heading with the anchor #no-such-heading/);
});

test("pack:check --docs: a doc past 10,000 characters, and AGENTS.md past 12,000, fail naming the file and the budget", { timeout: 60_000 }, () => {
  const { code, out } = checkCopy((root) => {
    edit(root, "docs/install.md", (text) => `${text}\n${"x".repeat(10_001)}\n`);
    edit(root, "AGENTS.md", (text) => `${text}\n${"y".repeat(12_001)}\n`);
  });
  assert.equal(code, 1, out);
  assert.match(out, /- docs\/install\.md is [\d,]+ characters, over the budget of 10,000 for each docs file/);
  assert.match(out, /- AGENTS\.md is [\d,]+ characters, over its budget of 12,000/);
  assert.match(out, /- the package's docs \(README\.md and \d+ docs\/\*\.md files\) are [\d,]+ characters, over their budget of 45,000/);
});

test("docs-check: anchors as GitHub makes them, links outside code, the repository's address", () => {
  assert.equal(slug("Busy but stuck: `maxStuckReplies`, `maxRepeats`"), "busy-but-stuck-maxstuckreplies-maxrepeats");
  assert.equal(slug("A project's own check"), "a-projects-own-check");
  assert.equal(slug("`todo_loop_block` results"), "todo_loop_block-results");
  assert.deepEqual([...anchors("# Title\n\n## Same\n\n```md\n## Not a heading\n```\n\n## Same\n")], ["title", "same", "same-1"]);
  assert.deepEqual(linkTargets("[a](x.md#y) `[b](z.md)`\n```\n[c](w.md)\n```\n![pic](https://e.example/p.svg)"), ["x.md#y", "https://e.example/p.svg"]);
  assert.equal(repositoryUrl({ repository: { type: "git", url: "git+https://github.com/o/n.git" } }), "https://github.com/o/n");
  assert.equal(repositoryUrl({ repository: "https://gitlab.com/o/n" }), undefined);
});
