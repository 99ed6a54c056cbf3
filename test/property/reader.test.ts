/**
 * Generated-input tests of the branch reader (SPEC §9, §4.14): incremental reads agree with full reads
 * over appends, /tree moves, forks and compactions; junk never throws.
 *
 * Each property runs over at least 10,000 seeded cases (the count is in the test name); a failure names
 * its seed and prints its case (see test/gen.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBranchReader, readSnapshot } from "../../src/state.ts";
import type { BranchChange, Snapshot } from "../../src/state.ts";
import { createSession } from "../fake-pi.ts";
import { anyEntry, entryOf, forAll, junk } from "../gen.ts";
import type { Random, RawEntry } from "../gen.ts";
import { CASES, loopEntry, roleOfEntry } from "./generators.ts";

// ---- the branch reader -------------------------------------------------------------------------------------

const TIMESTAMPS = ["2026-11-30T00:00:00.000Z", "2026-11-30T00:12:30.000Z", "2026-11-30T01:00:00.000Z", "2026-11-29T23:00:00.000Z"];

/** Any entry, 0.2 ones included, with an entry timestamp that is mostly a real ISO string, sometimes junk or missing. */
function readerEntry(rng: Random): RawEntry {
  const entry = rng.chance(0.08) ? entryOf(rng, "compaction") : rng.chance(0.3) ? loopEntry(rng) : anyEntry(rng);
  const roll = rng.next();
  if (roll < 0.6) return { ...entry, timestamp: rng.pick(TIMESTAMPS) };
  if (roll < 0.7) return { ...entry, timestamp: junk(rng, 0) };
  const { timestamp: _dropped, ...bare } = entry;
  return bare;
}

type ReaderOp =
  | { readonly op: "append"; readonly entries: readonly RawEntry[] }
  | { readonly op: "move"; readonly to: number | null }
  | { readonly op: "read" };

function genReaderOps(rng: Random): ReaderOp[] {
  const ops: ReaderOp[] = [];
  let total = 0;
  for (let index = rng.int(1, 30); index > 0; index--) {
    const roll = rng.next();
    if (roll < 0.45) {
      const entries = Array.from({ length: rng.int(1, 6) }, () => readerEntry(rng));
      total += entries.length;
      ops.push({ op: "append", entries });
    } else if (roll < 0.6 && total > 0) {
      ops.push({ op: "move", to: rng.chance(0.05) ? null : rng.int(1, total) });
    } else {
      ops.push({ op: "read" });
    }
  }
  ops.push({ op: "read" });
  return ops;
}

/**
 * The snapshot fields both reads must agree on. Two fields are documented as partial: the "todo tool
 * used / unread results" flags explain a missing list, so they only count when there is none; the list
 * at the last reply is read for a turn_end, where the turn's reply always follows the newest human
 * message, so it counts when a reply follows it.
 */
function comparable(snapshot: Snapshot, branch: readonly RawEntry[]): Partial<Snapshot> {
  const { todoToolUsed, unreadTodoResults, listAtLastReply, ...rest } = snapshot;
  const anchorAt = branch.findLastIndex((entry) => roleOfEntry(entry) === "user");
  const replyAfterAnchor = branch.some((entry, index) => index > anchorAt && roleOfEntry(entry) === "assistant");
  return {
    ...rest,
    ...(snapshot.list === undefined ? { todoToolUsed, unreadTodoResults } : {}),
    ...(replyAfterAnchor ? { listAtLastReply } : {}),
  };
}

test(`reader: incremental reads agree with full reads over random appends, /tree moves, forks and compactions, with controls, kinded stops, full markers, codemode results and timestamps (${CASES} sequences)`, (t) => {
  let reads = 0;
  const changes: Record<BranchChange, number> = { first: 0, same: 0, appended: 0, switched: 0 };
  const seen = { paused: 0, waiting: 0, outOfDate: 0, announced: 0, timed: 0 };
  const count = forAll("reader-agrees", CASES, genReaderOps, (ops) => {
    const session = createSession<RawEntry>([], "tree-session");
    const reader = createBranchReader();
    let seenLeaf: string | null | undefined;
    for (const step of ops) {
      if (step.op === "append") for (const entry of step.entries) session.append(entry);
      else if (step.op === "move") session.moveTo(step.to === null ? null : `n${step.to}`);
      else {
        const branch = session.getBranch();
        const leaf = session.getLeafId();
        const { snapshot, change } = reader.read(session);
        reads += 1;
        changes[change] += 1;
        const full = readSnapshot(branch);
        assert.deepEqual(comparable(snapshot, branch), comparable(full, branch), "incremental and full reads agree");
        assert.equal(snapshot.length, branch.length);
        if (full.paused) seen.paused += 1;
        if (full.waiting) seen.waiting += 1;
        if (full.outOfDate) seen.outOfDate += 1;
        if (full.announced.length > 0) seen.announced += 1;
        if (full.anchorTime !== undefined && full.replyTime !== undefined) seen.timed += 1;
        const expected: BranchChange = typeof seenLeaf !== "string"
          ? "first"
          : leaf === seenLeaf
            ? "same"
            : branch.some((entry) => entry.id === seenLeaf)
              ? "appended"
              : "switched";
        assert.equal(change, expected, "the reader names how the branch changed");
        seenLeaf = leaf;
      }
    }
  });
  t.diagnostic(`${count} sequences, ${reads} reads: ${JSON.stringify(changes)}; reads with ${JSON.stringify(seen)}`);
  assert.ok(changes.switched > 0 && changes.appended > 0 && changes.same > 0, "every kind of change is exercised");
  for (const [field, reached] of Object.entries(seen)) assert.ok(reached > reads / 100, `the generator reaches snapshots with ${field}`);
});

test(`reader: arbitrary JSON junk as entries or whole branches never throws (${CASES} cases)`, (t) => {
  const count = forAll(
    "reader-junk",
    CASES,
    (rng) => Array.from({ length: rng.int(0, 20) }, () => (rng.chance(0.3) ? junk(rng, 3) : rng.chance(0.5) ? entryOf(rng, "junk") : readerEntry(rng))),
    (branch) => {
      const snapshot = readSnapshot(branch);
      assert.equal(snapshot.length, branch.length);
      assert.equal(typeof snapshot.anchor, "string");
      assert.ok(Number.isFinite(snapshot.tokens) && snapshot.tokens >= 0, "tokens are a finite count");
      assert.ok(Number.isFinite(snapshot.cost) && snapshot.cost >= 0, "cost is a finite amount");
      for (const field of ["round", "idle", "stale"] as const) assert.ok(Number.isInteger(snapshot[field]) && snapshot[field] >= 0, `${field} is a count`);
      for (const time of [snapshot.anchorTime, snapshot.replyTime]) assert.ok(time === undefined || Number.isFinite(time), "times are finite or unknown");
      assert.equal(typeof snapshot.paused, "boolean");
      assert.ok(snapshot.waiting === undefined || typeof snapshot.waiting.reason === "string");
      // A session manager whose entries and leaf are junk too.
      const reader = createBranchReader();
      let leafCalls = 0;
      const odd = {
        getBranch: () => branch,
        getLeafId: () => `t${leafCalls++ % 3}`,
        getEntry: (id: string): unknown => branch[Number(id.slice(1))],
      };
      reader.read(odd);
      reader.read(odd);
    },
  );
  t.diagnostic(`${count} cases`);
});
