/**
 * The config and the project verify file are asked for at every hook, and the config by the renderer per
 * line it draws (SPEC §4.2, §8): `fileCache` parses a file again only when `stat` says it may have
 * changed, and never serves a changed file — a rewrite of the same size, a rename over it, a touch, or
 * any change too recent to tell apart from the read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileCache, SETTLED_MS } from "../../src/io/files.ts";
import type { FileRead } from "../../src/io/files.ts";
import { loadConfig } from "../../src/config.ts";

function scratch(): { dir: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), "todo-loop-cache-"));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A cache whose parse counts its calls and returns the text (or the read's kind). */
function counted(now?: () => number): { read(path: string): string; parses(): number } {
  let parses = 0;
  const read = fileCache((file: FileRead) => {
    parses++;
    return file.kind === "text" ? file.text : file.kind;
  }, now);
  return { read, parses: () => parses };
}

/** A clock well past every change made here: the file counts as settled. */
const later = (): number => Date.now() + 10 * SETTLED_MS;

test("file cache: a settled, unchanged file is parsed once; a same-size rewrite, a rename over it and a touch are read again", (t) => {
  const { dir, done } = scratch();
  t.after(done);
  const path = join(dir, "todo-loop.json");
  writeFileSync(path, '{"maxRounds":3}');
  const cache = counted(later);
  assert.equal(cache.read(path), '{"maxRounds":3}');
  assert.equal(cache.read(path), '{"maxRounds":3}');
  assert.equal(cache.parses(), 1);
  writeFileSync(path, '{"maxRounds":5}');
  assert.equal(cache.read(path), '{"maxRounds":5}');
  assert.equal(cache.parses(), 2);
  const other = join(dir, "other.json");
  writeFileSync(other, '{"maxRounds":7}');
  renameSync(other, path);
  assert.equal(cache.read(path), '{"maxRounds":7}');
  assert.equal(cache.parses(), 3);
  // A touch that puts the old times back still changes the ctime: read again.
  utimesSync(path, new Date(0), new Date(0));
  assert.equal(cache.read(path), '{"maxRounds":7}');
  assert.equal(cache.parses(), 4);
  assert.equal(cache.read(path), '{"maxRounds":7}');
  assert.equal(cache.parses(), 4);
});

test("file cache: a file changed within SETTLED_MS of its read is read every time", (t) => {
  const { dir, done } = scratch();
  t.after(done);
  const path = join(dir, "todo-loop.json");
  writeFileSync(path, "{}");
  const cache = counted();
  cache.read(path);
  cache.read(path);
  assert.equal(cache.parses(), 2);
});

test("file cache: a missing file is kept as missing until one is there; a directory is read every time", (t) => {
  const { dir, done } = scratch();
  t.after(done);
  const cache = counted(later);
  const missing = join(dir, "none.json");
  const folder = join(dir, "folder");
  mkdirSync(folder);
  assert.equal(cache.read(missing), "missing");
  assert.equal(cache.read(missing), "missing");
  assert.equal(cache.read(folder), "problem");
  assert.equal(cache.read(folder), "problem");
  assert.equal(cache.parses(), 3, "the missing file is parsed once, the directory at every read");
  writeFileSync(missing, "{}");
  assert.equal(cache.read(missing), "{}", "a file put there is read at the next look");
  rmSync(missing);
  assert.equal(cache.read(missing), "missing", "and its removal is seen at the next look too");
});

test("file cache: loadConfig sees an edit of the same size at once (SPEC §4.2: re-read on every decision)", (t) => {
  const { dir, done } = scratch();
  t.after(done);
  const path = join(dir, "todo-loop.json");
  writeFileSync(path, '{"maxRounds": 3}');
  assert.equal(loadConfig(path).config.maxRounds, 3);
  writeFileSync(path, '{"maxRounds": 5}');
  assert.equal(loadConfig(path).config.maxRounds, 5);
  rmSync(path);
  assert.deepEqual(loadConfig(path).problems, []);
  assert.notEqual(loadConfig(path).config.maxRounds, 5);
});
