/**
 * The project's own check, found and offered (SPEC §4.16, 0.5): which of a project's files names its
 * test command, what text that command runs (pinned by an approval, the way `direnv allow` pins a
 * file), and whether an approval on record still holds for what is found now. Pure: the files come in
 * as data through a reader the caller gives; reading them is `io/project-check.ts`.
 */
/** The files looked at, in the order they are tried (first match wins). */
export const CHECK_FILES = ["package.json", "Makefile", "Cargo.toml", "go.mod", "pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg", "deno.json"] as const;
export type CheckFile = (typeof CHECK_FILES)[number];

/** Lock files that say which package manager runs a `package.json` script, in the order they are tried. */
export const LOCK_FILES = [
  { file: "pnpm-lock.yaml", tool: "pnpm" },
  { file: "yarn.lock", tool: "yarn" },
  { file: "bun.lock", tool: "bun" },
  { file: "bun.lockb", tool: "bun" },
] as const;
export type LockFile = (typeof LOCK_FILES)[number]["file"];

/** One project file as the reader found it: its text, absent, or not read (not a regular file, too big, …). */
export type ProjectFile =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "skipped"; readonly why: string };

export interface ProjectFiles {
  read(name: CheckFile): ProjectFile;
  /** Whether the lock file is there (a regular file; its text is never needed). */
  has(name: LockFile): boolean;
}

/** What an approval pins: a script's or recipe's text, or the whole file (hashed by the reader). */
export type Pin = { readonly kind: "text"; readonly text: string } | { readonly kind: "file" };

/** A check found in the project's files. */
export interface FoundCheck {
  readonly command: string;
  /** The file it was found in, relative to the working directory. */
  readonly file: CheckFile;
  /** Where in that file, for people: `package.json's test script`, `Makefile's test target`, `Cargo.toml`. */
  readonly where: string;
  readonly pin: Pin;
}

export interface Detection {
  readonly found: FoundCheck | undefined;
  /** Files present but not read (a directory, a FIFO, larger than 1 MiB, invalid JSON …), for `/todoloop verify`. */
  readonly skipped: readonly { readonly file: CheckFile; readonly why: string }[];
}

/** npm's placeholder test script (`npm init`): not a check. */
const NPM_PLACEHOLDER = /no test specified/i;

function objectOf(value: unknown): { readonly [key: string]: unknown } | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { readonly [key: string]: unknown }) : undefined;
}

type Parsed = { readonly kind: "json"; readonly value: { readonly [key: string]: unknown } } | { readonly kind: "bad"; readonly why: string };

function parseObject(text: string): Parsed {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { kind: "bad", why: "is not valid JSON; not read" };
  }
  const value = objectOf(raw);
  return value ? { kind: "json", value } : { kind: "bad", why: "does not hold a JSON object; not read" };
}

/** A non-empty string, or undefined. */
function scriptOf(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/**
 * `package.json`'s `scripts.test`, unless it is npm's placeholder. The pinned text is the script, with its
 * `pretest` and `posttest` when there are any (npm runs those too).
 */
function fromPackageJson(text: string, files: ProjectFiles): FoundCheck | string | undefined {
  const parsed = parseObject(text);
  if (parsed.kind === "bad") return parsed.why;
  const scripts = objectOf(parsed.value.scripts);
  const test = scriptOf(scripts?.test);
  if (test === undefined || NPM_PLACEHOLDER.test(test)) return undefined;
  const pre = scriptOf(scripts?.pretest);
  const post = scriptOf(scripts?.posttest);
  const pinned = pre === undefined && post === undefined ? test : [pre && `pretest: ${pre}`, `test: ${test}`, post && `posttest: ${post}`].filter(Boolean).join("\n");
  const lock = LOCK_FILES.find((entry) => files.has(entry.file));
  // `bun test` is bun's own test runner, which ignores the script: `bun run test` runs the pinned text.
  const command = lock === undefined ? "npm test" : lock.tool === "bun" ? "bun run test" : `${lock.tool} test`;
  return { command, file: "package.json", where: "package.json's test script", pin: { kind: "text", text: pinned } };
}

interface MakeRule {
  /** The rule line (with the lines a backslash joins to it) and its recipe, as written. */
  readonly text: string;
  /** Whether it carries a recipe: tab lines, or one after a `;` (not in a target-specific variable's value). */
  readonly recipe: boolean;
}

/**
 * A Makefile's rules for `test`: every rule line (not a recipe, comment or `test :=` assignment) whose
 * targets include `test` (`test&:` too), each with its recipe — the lines after it that start with a
 * tab (blank and comment lines between them kept, trailing ones dropped), joined lines included. Read
 * as make reads it: a CRLF line end is one line end (make drops the CR), a lone CR is not; a backslash
 * at a recipe line's end joins the next line to it, tab or not.
 */
function makeTestRules(text: string): MakeRule[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  /** Whether the line is a rule for `test`. A `#` before the colon (a comment) never matches, nor `::=` (an assignment). */
  const isTestRule = (line: string): boolean => {
    if (line.startsWith("\t")) return false;
    const match = /^([^:=#]*?)&?::?(?![:=])/.exec(line);
    return match !== null && (match[1] ?? "").split(/\s+/).includes("test");
  };
  /** The index after the line at `index` and the lines a trailing backslash joins to it. */
  const joined = (index: number): number => {
    let end = index;
    while (lines[end]?.endsWith("\\") === true) end += 1;
    return end + 1;
  };
  const rules: MakeRule[] = [];
  let index = 0;
  while (index < lines.length) {
    if (!isTestRule(lines[index] ?? "")) {
      index += 1;
      continue;
    }
    const start = index;
    const ruleEnd = joined(index);
    let last = ruleEnd;
    for (let next = last; next < lines.length; next += 1) {
      const line = lines[next] ?? "";
      if (line.startsWith("\t")) {
        last = joined(next);
        next = last - 1;
      } else if (line.trim() === "" || /^\s*#/.test(line)) continue;
      else break;
    }
    // Targets hold no `=` (then it is an assignment) nor `;` (make refuses the line), so the whole rule is
    // read: an `=` before any `;` is a target-specific variable, else a `;` starts a recipe.
    const rule = lines.slice(start, ruleEnd).join("\n");
    const variable = /^[^;]*=/.test(rule);
    rules.push({ text: lines.slice(start, last).join("\n"), recipe: !variable && (rule.includes(";") || last > ruleEnd) });
    index = last;
  }
  return rules;
}

/** A Makefile's rules for `test` with their recipes, one text (see makeTestRules); undefined when there is none. */
export function makeTestRule(text: string): string | undefined {
  const rules = makeTestRules(text);
  return rules.length === 0 ? undefined : rules.map((rule) => rule.text).join("\n");
}

/**
 * What an approval of `make test` pins: the rules for `test` and their recipes — or the whole file when
 * what runs is not all in them: no rule for `test` has a recipe (make then takes one from a pattern or
 * built-in rule, shaped by the rest of the file), or the file names `.RECIPEPREFIX` (recipe lines may
 * start with another character than a tab).
 */
export function makeTestPin(text: string): Pin | undefined {
  const rules = makeTestRules(text);
  if (rules.length === 0) return undefined;
  if (text.includes(".RECIPEPREFIX") || !rules.some((rule) => rule.recipe)) return { kind: "file" };
  return { kind: "text", text: rules.map((rule) => rule.text).join("\n") };
}

/** A pytest.ini is pytest's own; pyproject.toml, tox.ini and setup.cfg must name pytest (its section, a dependency, a command). */
function namesPytest(file: CheckFile, text: string): boolean {
  if (file === "pytest.ini") return true;
  return /\bpytest\b/.test(text);
}

/** `deno.json`'s `tasks.test`: a command string, or an object with one (pinned as written). */
function fromDenoJson(text: string): FoundCheck | string | undefined {
  const parsed = parseObject(text);
  if (parsed.kind === "bad") return parsed.why;
  const task: unknown = objectOf(parsed.value.tasks)?.test;
  const command = scriptOf(task) ?? scriptOf(objectOf(task)?.command);
  if (command === undefined) return undefined;
  return { command: "deno task test", file: "deno.json", where: "deno.json's test task", pin: { kind: "text", text: typeof task === "string" ? task : JSON.stringify(task) } };
}

function fromFile(file: CheckFile, text: string, files: ProjectFiles): FoundCheck | string | undefined {
  switch (file) {
    case "package.json":
      return fromPackageJson(text, files);
    case "Makefile": {
      const pin = makeTestPin(text);
      return pin === undefined ? undefined : { command: "make test", file, where: "Makefile's test target", pin };
    }
    case "Cargo.toml":
      return { command: "cargo test", file, where: file, pin: { kind: "file" } };
    case "go.mod":
      return { command: "go test ./...", file, where: file, pin: { kind: "file" } };
    case "pyproject.toml":
    case "pytest.ini":
    case "tox.ini":
    case "setup.cfg":
      return namesPytest(file, text) ? { command: "python -m pytest", file, where: file, pin: { kind: "file" } } : undefined;
    case "deno.json":
      return fromDenoJson(text);
  }
}

/**
 * The project's check (SPEC §4.16, 0.5), first match wins: `package.json`'s test script (`npm test`, or
 * `pnpm test` / `yarn test` / `bun run test` by lock file), a `Makefile` `test` target, `Cargo.toml`,
 * `go.mod`, a pytest configuration, `deno.json`'s test task. A file that cannot be read is passed over.
 */
export function detectCheck(files: ProjectFiles): Detection {
  const skipped: { file: CheckFile; why: string }[] = [];
  for (const file of CHECK_FILES) {
    const read = files.read(file);
    if (read.kind === "missing") continue;
    if (read.kind === "skipped") {
      skipped.push({ file, why: read.why });
      continue;
    }
    const found = fromFile(file, read.text, files);
    if (typeof found === "string") skipped.push({ file, why: found });
    else if (found) return { found, skipped };
  }
  return { found: undefined, skipped };
}

/** What an approval pins for a found check, as the approvals file keeps it. */
export type Pinned = { readonly file: string; readonly text: string } | { readonly file: string; readonly sha256: string };

/** A found check with what it would pin now. */
export interface PinnedCheck {
  readonly command: string;
  readonly file: string;
  readonly where: string;
  readonly pinned: Pinned;
}

/** One entry of the approvals file: a command approved for a real directory (pinned for a found check), or "never for this directory". */
export type ApprovalEntry =
  | { readonly dir: string; readonly command: string; readonly at: string; readonly pinned?: Pinned | undefined }
  | { readonly dir: string; readonly never: true; readonly at: string };

export function isNever(entry: ApprovalEntry): entry is { readonly dir: string; readonly never: true; readonly at: string } {
  return "never" in entry;
}

/** Whether an approval on record holds for the check found now; `changed` says what moved since. */
export type FoundApproval =
  | { readonly kind: "approved" }
  | { readonly kind: "none" }
  | { readonly kind: "never" }
  | { readonly kind: "changed"; readonly what: "text" | "command"; readonly approved: string };

function samePin(a: Pinned | undefined, b: Pinned): boolean {
  if (a === undefined || a.file !== b.file) return false;
  if ("text" in a) return "text" in b && a.text === b.text;
  return "sha256" in b && a.sha256 === b.sha256;
}

/** Whether this directory's entries approve `check` exactly — the command and the text it runs (SPEC §4.16, 0.5). */
export function foundApproval(mine: readonly ApprovalEntry[], check: PinnedCheck): FoundApproval {
  if (mine.some(isNever)) return { kind: "never" };
  let changed: FoundApproval | undefined;
  for (const entry of mine) {
    if (isNever(entry)) continue;
    if (entry.command === check.command && samePin(entry.pinned, check.pinned)) return { kind: "approved" };
    changed ??= { kind: "changed", what: entry.command === check.command ? "text" : "command", approved: entry.command };
  }
  return changed ?? { kind: "none" };
}

/** The offer's answers, the safe one first (selected by default: one Enter, or no answer, is no). */
export const OFFER_NO = "No, not now";
export const OFFER_YES = "Yes, for this directory";
export const OFFER_NEVER = "Never for this directory";
export const OFFER_OPTIONS: readonly string[] = [OFFER_NO, OFFER_YES, OFFER_NEVER];
/** How long the offer waits for an answer. */
export const OFFER_TIMEOUT_MS = 60_000;

/** Why a found check is not used here, in `/todoloop`'s words. */
export function changedText(check: PinnedCheck, approval: Extract<FoundApproval, { kind: "changed" }>): string {
  if (approval.what === "command") return `the check found is now ${check.command} (from ${check.file}), not ${approval.approved} as you approved`;
  return `${check.where} changed since you approved ${check.command}`;
}

/** The offer's title (SPEC §4.16): what would run, from which file, and why it asks again after an edit. */
export function offerTitle(check: PinnedCheck, approval: FoundApproval): string {
  const again = approval.kind === "changed" ? `${changedText(check, approval)}.\n` : "";
  return `${again}Before the loop accepts "done" here, run \`${check.command}\`? (found in ${check.file})`;
}
