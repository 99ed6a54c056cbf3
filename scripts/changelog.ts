/**
 * CHANGELOG.md in pi's format (Keep a Changelog): `## [Unreleased]` first, then released versions as
 * `## [x.y.z] - YYYY-MM-DD`, newest first. pi shows a package's entries newer than the last version it saw
 * under "Extension Updates", matching `## [x.y.z]` headings against `package.json`'s `version`, so the
 * version being published needs a heading of its own with something under it.
 *
 * Used by `npm run pack:check` and `npm run test:release`.
 */

const VERSION_HEADING = /^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4})-(\d{2})-(\d{2})$/;

/** Whether `year-month-day` names a real calendar day. */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

interface Section {
  /** The heading line, without the trailing newline. */
  heading: string;
  /** 1-based line number of the heading. */
  line: number;
  /** The lines under the heading, up to the next `## ` heading. */
  body: string[];
}

function sections(text: string): Section[] {
  const found: Section[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    if (line.startsWith("## ")) found.push({ heading: line.trimEnd(), line: index + 1, body: [] });
    else found[found.length - 1]?.body.push(line);
  });
  return found;
}

/** The most lines of a release's entry, its heading included. */
export const MAX_ENTRY_LINES = 40;

/** The first release whose entry is held to MAX_ENTRY_LINES; older ones were written before the limit. */
const FIRST_BOUNDED = "0.4.0";

/** Whether `version` (x.y.z) is `since` or later. */
export function versionAtLeast(version: string, since: string): boolean {
  const triple = (text: string): [number, number, number] => {
    const [major = 0, minor = 0, patch = 0] = text.split(".").map(Number);
    return [major, minor, patch];
  };
  return compare(triple(version), triple(since)) >= 0;
}

/** Every way `text` breaks the format, or fails to describe `version`; empty when it is fine. */
export function changelogProblems(text: string, version: string): string[] {
  const problems: string[] = [];
  const all = sections(text);
  if (all[0]?.heading !== "## [Unreleased]") {
    problems.push(`the first "## " heading must be "## [Unreleased]" (found ${all[0] ? `"${all[0].heading}" on line ${all[0].line}` : "no heading"})`);
  }
  let previous: [number, number, number] | undefined;
  let previousHeading = "";
  for (const [index, section] of all.entries()) {
    if (section.heading === "## [Unreleased]") {
      if (index > 0) problems.push(`line ${section.line}: "## [Unreleased]" must come before every version`);
      continue;
    }
    const match = VERSION_HEADING.exec(section.heading);
    if (!match) {
      problems.push(`line ${section.line}: "${section.heading}" is not "## [x.y.z] - YYYY-MM-DD"`);
      continue;
    }
    const [major, minor, patch, year, month, day] = match.slice(1).map(Number) as [number, number, number, number, number, number];
    if (!isCalendarDay(year, month, day)) problems.push(`line ${section.line}: "${section.heading}" has no real date`);
    const current: [number, number, number] = [major, minor, patch];
    if (previous && !(compare(previous, current) > 0)) {
      problems.push(`line ${section.line}: "${section.heading}" must be older than "${previousHeading}" above it (newest first)`);
    }
    previous = current;
    previousHeading = section.heading;
  }
  const own = all.find((section) => section.heading.startsWith(`## [${version}] - `));
  if (!own) {
    problems.push(`no "## [${version}] - YYYY-MM-DD" heading for package.json's version ${version} (pi would show nothing for it under "Extension Updates")`);
  } else if (!own.body.some((line) => line.trim() !== "")) {
    problems.push(`line ${own.line}: "${own.heading}" has nothing under it`);
  }
  // pi shows a release's whole entry under "Extension Updates" at the next start, so it must fit a screen:
  // the entry of this version (from 0.4.0 on; older ones were written before the limit) and the
  // unreleased changes that become the next one.
  const bounded = all.filter((section) => section.heading === "## [Unreleased]" || (section === own && versionAtLeast(version, FIRST_BOUNDED)));
  for (const section of bounded) {
    // The heading and the body up to its last line of text.
    const lines = section.body.findLastIndex((line) => line.trim() !== "") + 2;
    if (lines > MAX_ENTRY_LINES) problems.push(`line ${section.line}: "${section.heading}" is ${lines} lines; pi shows a release's entry whole at the next start, so keep it to ${MAX_ENTRY_LINES}`);
  }
  return problems;
}

function compare(a: readonly [number, number, number], b: readonly [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The released version listed right below `version` (the one a user updates from), if any. */
export function previousRelease(text: string, version: string): string | undefined {
  const versions = sections(text)
    .map((section) => VERSION_HEADING.exec(section.heading))
    .filter((match) => match !== null)
    .map((match) => `${match[1]}.${match[2]}.${match[3]}`);
  const at = versions.indexOf(version);
  return at < 0 ? undefined : versions[at + 1];
}

/** The text under `version`'s heading, without blank lines at either end; empty when there is none. */
export function releaseNotes(text: string, version: string): { heading: string; body: string[] } {
  const own = sections(text).find((section) => section.heading.startsWith(`## [${version}] - `));
  if (!own) return { heading: "", body: [] };
  const body = [...own.body];
  while (body.length > 0 && body[0]?.trim() === "") body.shift();
  while (body.length > 0 && body[body.length - 1]?.trim() === "") body.pop();
  return { heading: own.heading, body };
}
