/**
 * The docs half of `npm run pack:check`: the size budgets of the front door and the links a reader
 * follows. Budgets, in characters (JavaScript string length of the file's text):
 *   - README.md at most 12,000; each docs/*.md that ships at most 10,000;
 *   - the package's docs — README.md plus every docs/*.md that ships — at most 45,000 in all
 *     (CHANGELOG.md ships too but is not counted: pi reads it, and it grows by one section per release);
 *   - AGENTS.md at most 12,000 (not shipped; the contributor's front door).
 * Links: the README is shown on the npm registry's page, where a relative link cannot resolve, so every
 * README link and image is absolute or an anchor of the README itself; a link into this repository
 * (`…/blob/main/<path>`, `…/tree/main/<path>`, `raw.githubusercontent.com/…/main/<path>`) names a file or
 * folder that exists, and its `#anchor` a heading of that file. Shipped docs may link relatively; the
 * target and its anchor must exist. Nothing under docs/dev/ ships.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";

export const BUDGETS = { readme: 12_000, doc: 10_000, total: 45_000, agents: 12_000 } as const;

export interface DocsReport {
  /** Every failure, each naming the file and, for a budget, the budget. */
  readonly failures: string[];
  /** The package's docs total (README.md plus the shipped docs/*.md), in characters. */
  readonly total: number;
  /** Each counted file with its size, largest first. */
  readonly sizes: ReadonlyArray<{ readonly file: string; readonly chars: number }>;
  readonly agents: number | undefined;
}

const number = (value: number): string => value.toLocaleString("en-US");

function read(root: string, file: string): string | undefined {
  try {
    return readFileSync(join(root, file), "utf8");
  } catch {
    return undefined;
  }
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (not `-` or `_`), each space a `-`. */
export function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors of a markdown text's headings (outside fenced code), duplicates numbered as GitHub numbers them. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opening) {
      const mark = opening[1] ?? "";
      if (fence === undefined) fence = mark;
      else if (mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** Every link and image target of a markdown text (inline form), outside fenced and inline code. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^ {0,3}(`{3,}|~{3,})[\s\S]*?^ {0,3}\1[`~]*\s*$/gm, "").replace(/`[^`\n]*`/g, "");
  const targets: string[] = [];
  for (const match of prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (match[1] !== undefined) targets.push(match[1]);
  }
  return targets;
}

/** The repository's web address from package.json's `repository` (`git+https://github.com/o/n.git` → `https://github.com/o/n`). */
export function repositoryUrl(manifest: unknown): string | undefined {
  if (typeof manifest !== "object" || manifest === null) return undefined;
  const repository: unknown = Reflect.get(manifest, "repository");
  const url: unknown = typeof repository === "string" ? repository : typeof repository === "object" && repository !== null ? Reflect.get(repository, "url") : undefined;
  if (typeof url !== "string") return undefined;
  const match = /^(?:git\+)?(https:\/\/github\.com\/[^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url);
  return match?.[1];
}

/** Problems with one link of `file` (a path relative to the root). */
function linkProblem(root: string, file: string, target: string, repo: string | undefined, relativeAllowed: boolean): string | undefined {
  const [path = "", anchor] = target.split("#", 2);
  const inFile = (where: string, hash: string | undefined, dir = false): string | undefined => {
    const full = join(root, where);
    if (!existsSync(full)) return `${file} links to ${target}, but ${where} does not exist`;
    if (dir !== statSync(full).isDirectory()) return `${file} links to ${target}, but ${where} is ${dir ? "not a folder" : "a folder"}`;
    if (hash === undefined || hash === "" || !where.endsWith(".md")) return undefined;
    return anchors(readFileSync(full, "utf8")).has(hash) ? undefined : `${file} links to ${target}, but ${where} has no heading with the anchor #${hash}`;
  };
  if (path === "") return inFile(file, anchor);
  if (/^https?:\/\//.test(path)) {
    if (repo === undefined) return undefined;
    const [owner, name] = repo.replace("https://github.com/", "").split("/");
    if (path === repo || path === `${repo}/`) return anchor === undefined || anchor === "readme" ? undefined : inFile("README.md", anchor);
    const blob = new RegExp(`^${escape(repo)}/blob/main/(.+)$`).exec(path);
    if (blob?.[1]) return inFile(decodeURIComponent(blob[1]), anchor);
    const tree = new RegExp(`^${escape(repo)}/tree/main/(.+?)/?$`).exec(path);
    if (tree?.[1]) return inFile(decodeURIComponent(tree[1]), undefined, true);
    const raw = new RegExp(`^https://raw\\.githubusercontent\\.com/${escape(owner ?? "")}/${escape(name ?? "")}/main/(.+)$`).exec(path);
    if (raw?.[1]) return inFile(decodeURIComponent(raw[1]), undefined);
    if (path.startsWith(`${repo}/`)) return `${file} links to ${target}: use ${repo}/blob/main/<path> for a file of this repository`;
    return undefined;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return undefined;
  if (!relativeAllowed) {
    return `${file} links to ${target} by a relative path, which the npm registry's page cannot resolve: use ${repo ?? "the repository's address"}/blob/main/${normalize(join(dirname(file), path)).split(sep).join("/")}`;
  }
  const where = relative(root, join(root, dirname(file), decodeURIComponent(path))).split(sep).join("/");
  return inFile(where, anchor, existsSync(join(root, where)) && statSync(join(root, where)).isDirectory());
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The docs checks on the tree at `root`, given the tarball's file list (`npm pack --dry-run`): budgets,
 * links, and nothing under docs/dev/ shipped.
 */
export function checkDocs(root: string, packed: readonly string[], manifest: unknown): DocsReport {
  const failures: string[] = [];
  const shippedDocs = packed.filter((file) => /^docs\/[^/]+\.md$/.test(file)).sort();
  for (const file of packed) if (file.startsWith("docs/dev/")) failures.push(`${file} is in the tarball: docs/dev/ is contributor material and must not ship (list docs/*.md in package.json's files, not docs/)`);
  if (!packed.includes("README.md")) failures.push("README.md is not in the tarball");

  const sizes: Array<{ file: string; chars: number }> = [];
  const readme = read(root, "README.md");
  if (readme === undefined) failures.push("README.md is missing");
  else {
    sizes.push({ file: "README.md", chars: readme.length });
    if (readme.length > BUDGETS.readme) failures.push(`README.md is ${number(readme.length)} characters, over its budget of ${number(BUDGETS.readme)}: move the detail into a docs/ topic file`);
  }
  for (const file of shippedDocs) {
    const text = read(root, file) ?? "";
    sizes.push({ file, chars: text.length });
    if (text.length > BUDGETS.doc) failures.push(`${file} is ${number(text.length)} characters, over the budget of ${number(BUDGETS.doc)} for each docs file: split the topic`);
  }
  const total = sizes.reduce((sum, { chars }) => sum + chars, 0);
  if (total > BUDGETS.total) {
    failures.push(`the package's docs (README.md and ${shippedDocs.length} docs/*.md files) are ${number(total)} characters, over their budget of ${number(BUDGETS.total)}: cut what is said twice`);
  }
  const agentsText = read(root, "AGENTS.md");
  if (agentsText !== undefined && agentsText.length > BUDGETS.agents) {
    failures.push(`AGENTS.md is ${number(agentsText.length)} characters, over its budget of ${number(BUDGETS.agents)}: move the detail into docs/dev/`);
  }

  const repo = repositoryUrl(manifest);
  if (repo === undefined) failures.push('package.json: repository must name the GitHub repository ({ "type": "git", "url": "git+https://github.com/<owner>/<name>.git" })');
  const homepage = typeof manifest === "object" && manifest !== null ? Reflect.get(manifest, "homepage") : undefined;
  if (repo !== undefined && homepage !== `${repo}#readme`) failures.push(`package.json: homepage must be ${repo}#readme (got ${JSON.stringify(homepage)})`);
  for (const [file, text, relativeAllowed] of [["README.md", readme, false], ...shippedDocs.map((doc) => [doc, read(root, doc), true] as const)] as const) {
    if (text === undefined) continue;
    for (const target of linkTargets(text)) {
      const problem = linkProblem(root, file, target, repo, relativeAllowed);
      if (problem !== undefined) failures.push(problem);
    }
  }
  return { failures, total, sizes: sizes.sort((a, b) => b.chars - a.chars), agents: agentsText?.length };
}

/** The summary lines pack:check prints. */
export function docsSummary(report: DocsReport): string {
  const readme = report.sizes.find(({ file }) => file === "README.md")?.chars ?? 0;
  const largest = report.sizes.find(({ file }) => file !== "README.md");
  return (
    `  docs total: ${number(report.total)} of ${number(BUDGETS.total)} characters (README.md and ${report.sizes.length - 1} docs/*.md; CHANGELOG.md not counted); ` +
    `README.md ${number(readme)} of ${number(BUDGETS.readme)}; largest doc ${largest ? `${largest.file} ${number(largest.chars)}` : "none"} of ${number(BUDGETS.doc)}; ` +
    `AGENTS.md ${report.agents === undefined ? "missing" : number(report.agents)} of ${number(BUDGETS.agents)}\n` +
    report.sizes.map(({ file, chars }) => `    ${number(chars).padStart(6)}  ${file}\n`).join("")
  );
}
