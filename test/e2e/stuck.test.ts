// Proves on the real host that an agent making no progress, or giving the same reply again, is stopped.
/**
 * Busy but stuck (SPEC 0.3 §4.10): the loop stops an agent whose replies make no progress — they only
 * re-read what was read before under this message — and one that gives the same reply again and again,
 * both on by default (maxStuckReplies 5, maxRepeats 3). Exploring (new reads), edits and commands (even
 * failing ones) are progress; a codemode script counts by the calls it made. On the real pi host with
 * real rpiv-todo and a scripted model; every figure (requests, markers, notifies, stop records)
 * asserted exactly.
 *
 * A reply is what the agent did from one settle to the next, so a reply with a tool call is two model
 * requests: the call, then the settle.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import {
  callTools,
  checkInvariants,
  extensionArgs,
  isNudge,
  lastMessage,
  loopNotifies,
  markerDetails,
  requests,
  RPIV_TODO,
  say,
  SCENARIO_TIMEOUT_MS,
  stopData,
  userMessageIds,
  withRpc,
  TWO_TASKS as TASKS,
  PLAN_TWO as plan,
  FINISH_TWO as finish,
} from "./harness.ts";
import type { EntryRecord, LoggedRequest, MarkerDetails, Notify, Sandbox, ScriptStep } from "./harness.ts";
import { SESSION_CONTROL } from "./stand-ins/paths.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const CLEAR = { message: "todo loop stopped: list is clear", notifyType: "info" };
const STUCK = "stopped: 5 replies in a row without progress (no edits, commands, new reads or todo changes), 2 tasks still open; it may need you";
const REPEAT = "stopped: the agent gave the same reply 3 times in a row, 2 tasks still open; it may need you";

/** One reply that calls one tool and then stops with `words`: two model requests. */
function reply(words: string, name: string, args: Record<string, unknown>): ScriptStep[] {
  return [{ ...callTools({ name, args }), text: "Looking." }, say(words)];
}

/** A reply that only re-reads the todo list, with its own words each time (so it is no repeat). */
const reread = (words: string): ScriptStep[] => reply(words, "todo", { action: "list" });

/** Marker details as asserted here: the busy-but-stuck counts and the hint. */
function counts(details: MarkerDetails): { round: number; hint: boolean; stuck: unknown; repeats: unknown } {
  const record = details as MarkerDetails & { stuck?: unknown; repeats?: unknown };
  return { round: record.round, hint: record.hint, stuck: record.stuck, repeats: record.repeats };
}

/** Requests that start a reply: the prompt's, and each one a continuation marker ends. */
function replyStarts(logged: readonly LoggedRequest[]): number {
  return logged.filter((request, index) => index === 0 || isNudge(lastMessage(request))).length;
}

interface Observed {
  entries: EntryRecord[];
  requests: number;
  replyStarts: number;
  notifies: Notify[];
  status: string;
}

/** One prompt in RPC mode to the end of its run, then `/todoloop`: what the loop did, counted. */
function observe(
  t: { signal: AbortSignal; diagnostic(message: string): void },
  script: ScriptStep[],
  options: { config?: Record<string, unknown>; files?: Record<string, string>; extensions?: readonly string[]; args?: readonly string[] } = {},
): Promise<Observed> {
  return withRpc(t.signal, { script, config: options.config, files: options.files }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    const notifies = loopNotifies(rpc.notifies);
    const status = (await rpc.command("status"))[0]?.message ?? "";
    checkInvariants(box, { script, taskTexts: TASKS });
    const entries = await rpc.getEntries();
    const logged = requests(box);
    const observed = { entries, requests: logged.length, replyStarts: replyStarts(logged), notifies, status };
    t.diagnostic(
      `requests ${observed.requests} (${observed.replyStarts} start a reply), markers ${markerDetails(entries).length}, notifies ${notifies.length}, stop records ${stopData(entries).length} ${JSON.stringify(stopData(entries).map((stop) => stop.kind))}`,
    );
    return observed;
  }, { extensions: options.extensions, args: options.args });
}

test("the list created in reply 1, replies 2–6 only re-read it: the 6th settle stops (kind stuck) — 5 markers, the hint on the 5th, one stuck record, one warning", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    plan,
    say("Planned the work."),
    ...reread("Checked the list."),
    ...reread("Looked at the list again."),
    ...reread("The list is as before."),
    ...reread("Still the same two tasks."),
    ...reread("Nothing new on the list."),
  ];
  const run = await observe(t, script);
  const [anchor] = userMessageIds(run.entries);
  assert.equal(run.requests, 12, "six replies of two requests each; nothing after the stop");
  assert.equal(run.replyStarts, 6, "six replies: the prompt's and five continuations");
  assert.deepEqual(markerDetails(run.entries).map(counts), [
    { round: 1, hint: false, stuck: 0, repeats: 1 },
    { round: 2, hint: false, stuck: 1, repeats: 1 },
    { round: 3, hint: false, stuck: 2, repeats: 1 },
    { round: 4, hint: false, stuck: 3, repeats: 1 },
    { round: 5, hint: true, stuck: 4, repeats: 1 },
  ]);
  assert.deepEqual(stopData(run.entries), [{ v: 1, kind: "stuck", reason: STUCK, round: 5, open: 2, anchor }]);
  assert.deepEqual(run.notifies, [{ message: `todo loop ${STUCK}`, notifyType: "warning" }]);
  assert.match(run.status, /^todo loop: stopped$/m);
  assert.match(run.status, /^replies in a row without progress: 5 of 5$/m);
  assert.match(run.status, /^the same reply in a row: 1 of 3$/m);
  assert.ok(run.status.split("\n").includes(`last: ${STUCK}`), run.status);
});

test("reading five different files between stops is exploring, not stuck; reading one of them again is no progress", { timeout }, async (t) => {
  const files = Object.fromEntries(["a", "b", "c", "d", "e"].map((name) => [`work/${name}.ts`, `export const ${name} = 1;\n`]));
  const script: ScriptStep[] = [
    plan,
    say("Planned the work."),
    ...["a", "b", "c", "d", "e"].flatMap((name) => reply(`Read ${name}.ts.`, "read", { path: `${name}.ts` })),
    ...reply("Read a.ts once more.", "read", { path: "a.ts" }),
    finish,
    say("Done."),
  ];
  const run = await observe(t, script, { files });
  assert.equal(run.requests, 16);
  assert.deepEqual(markerDetails(run.entries).map((details) => counts(details).stuck), [0, 0, 0, 0, 0, 0, 1], "each new file is progress; the same file again is not");
  assert.deepEqual(stopData(run.entries).map((stop) => stop.kind), ["clear"]);
  assert.deepEqual(run.notifies, [CLEAR]);
  const reads = run.entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "read");
  assert.equal(reads.length, 6);
  assert.ok(reads.every((entry) => entry.message?.isError === false), "pi's read tool read the sandbox's files");
});

test("edits and commands between stops are progress, failing commands included: never stuck", { timeout }, async (t) => {
  const script: ScriptStep[] = [
    plan,
    say("Planned the work."),
    ...reply("The notes file is missing.", "bash", { command: "cat notes.md" }),
    ...reply("Wrote the notes.", "write", { path: "notes.md", content: "parser: todo\n" }),
    ...reply("The check fails.", "bash", { command: "grep -q done notes.md" }),
    ...reply("Edited the notes.", "edit", { path: "notes.md", edits: [{ oldText: "todo", newText: "done" }] }),
    ...reply("The check fails differently.", "bash", { command: "grep -q finished notes.md" }),
    ...reply("The check passes.", "bash", { command: "grep -q done notes.md" }),
    finish,
    say("Done."),
  ];
  const run = await observe(t, script);
  assert.equal(run.requests, 16);
  const results = run.entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName !== "todo");
  assert.deepEqual(results.map((entry) => [entry.message?.toolName, entry.message?.isError]), [
    ["bash", true],
    ["write", false],
    ["bash", true],
    ["edit", false],
    ["bash", true],
    ["bash", false],
  ], "three commands failed, the edits and the last check succeeded");
  assert.deepEqual(markerDetails(run.entries).map((details) => counts(details).stuck), [0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(stopData(run.entries).map((stop) => stop.kind), ["clear"]);
  assert.deepEqual(run.notifies, [CLEAR]);
});

test("the same reply three times in a row (the same failing command, the same words): the third stops (kind repeat), one warning", { timeout }, async (t) => {
  const failing = (): ScriptStep[] => reply("The tests still fail.", "bash", { command: "echo '1 test failed'; exit 1" });
  const script: ScriptStep[] = [plan, say("Planned the work."), ...failing(), ...failing(), ...failing()];
  const run = await observe(t, script);
  const [anchor] = userMessageIds(run.entries);
  assert.equal(run.requests, 8);
  assert.deepEqual(markerDetails(run.entries).map(counts), [
    { round: 1, hint: false, stuck: 0, repeats: 1 },
    { round: 2, hint: false, stuck: 0, repeats: 1 },
    { round: 3, hint: true, stuck: 1, repeats: 2 },
  ], "the first run of a failing command is progress; the same run with the same result again is not (0.4), and the same reply again is a repeat");
  assert.deepEqual(stopData(run.entries), [{ v: 1, kind: "repeat", reason: REPEAT, round: 3, open: 2, anchor }]);
  assert.deepEqual(run.notifies, [{ message: `todo loop ${REPEAT}`, notifyType: "warning" }]);
  assert.match(run.status, /^the same reply in a row: 3 of 3$/m);
  assert.match(run.status, /^replies in a row without progress: 2 of 5$/m);
});

test("maxStuckReplies: 0 turns the no-progress brake off: seven replies that only re-read keep being continued until the list is clear", { timeout }, async (t) => {
  const words = ["One.", "Two.", "Three.", "Four.", "Five.", "Six.", "Seven."];
  const script: ScriptStep[] = [plan, say("Planned the work."), ...words.flatMap((word) => reread(`Checked the list. ${word}`)), finish, say("Done.")];
  const run = await observe(t, script, { config: { maxStuckReplies: 0 } });
  assert.equal(run.requests, 18);
  assert.deepEqual(markerDetails(run.entries).map((details) => counts(details).stuck), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.ok(markerDetails(run.entries).every((details) => !details.hint), "no hint either: the brake is off and every reply had a tool call");
  assert.deepEqual(stopData(run.entries).map((stop) => stop.kind), ["clear"]);
  assert.deepEqual(run.notifies, [CLEAR]);
  assert.match(run.status, /^replies in a row without progress: 7 \(no limit\)$/m, "a clear list stops before the reply is counted");
});

test("maxRepeats: null turns the same-reply brake off: four identical replies keep being continued until the list is clear", { timeout }, async (t) => {
  const failing = (): ScriptStep[] => reply("The tests still fail.", "bash", { command: "echo '1 test failed'; exit 1" });
  const script: ScriptStep[] = [plan, say("Planned the work."), ...failing(), ...failing(), ...failing(), ...failing(), finish, say("Done.")];
  const run = await observe(t, script, { config: { maxRepeats: null } });
  assert.equal(run.requests, 12);
  assert.deepEqual(markerDetails(run.entries).map((details) => counts(details).repeats), [1, 1, 2, 3, 4]);
  assert.ok(markerDetails(run.entries).every((details) => !details.hint));
  assert.deepEqual(stopData(run.entries).map((stop) => stop.kind), ["clear"]);
  assert.deepEqual(run.notifies, [CLEAR]);
  assert.match(run.status, /^the same reply in a row: 4 \(no limit\)$/m, "a clear list stops before the reply is counted");
});

/** Runs pi's reload flow (`ctx.reload()`) with the next phase's script in place. */
async function reload(box: Sandbox, rpc: { prompt(text: string): Promise<string> }, next: readonly ScriptStep[]): Promise<void> {
  writeFileSync(box.scriptPath, JSON.stringify(next));
  assert.equal(await rpc.prompt("/e2e-reload-runtime"), "handled");
}

test("a /reload in the middle keeps the counts: two replies without progress before it, three after it, and the loop stops at five", { timeout }, async (t) => {
  const first: ScriptStep[] = [plan, say("Planned the work."), ...reread("Checked the list."), ...reread("Looked at the list again."), say("Should I start with the parser or the tests?")];
  const second: ScriptStep[] = [...reread("Checked once more."), ...reread("Still the same list."), ...reread("No change on the list.")];
  await withRpc(t.signal, { script: first }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    let entries = await rpc.getEntries();
    const [anchor] = userMessageIds(entries);
    assert.deepEqual(markerDetails(entries).map((details) => counts(details).stuck), [0, 1, 2]);
    assert.deepEqual(stopData(entries).map((stop) => stop.kind), ["question"], "the question ends the first run");

    await reload(box, rpc, second);
    const report = (await rpc.command("status"))[0]?.message ?? "";
    assert.match(report, /^replies in a row without progress: 2 of 5$/m, "rebuilt from the newest marker");
    const before = rpc.notifies.length;
    await rpc.command("continue");
    await rpc.waitSettled();

    entries = await rpc.getEntries();
    const found = markerDetails(entries);
    assert.deepEqual(found.map(counts), [
      { round: 1, hint: false, stuck: 0, repeats: 1 },
      { round: 2, hint: false, stuck: 1, repeats: 1 },
      { round: 3, hint: false, stuck: 2, repeats: 1 },
      { round: 4, hint: false, stuck: 2, repeats: 1 },
      { round: 5, hint: false, stuck: 3, repeats: 1 },
      { round: 6, hint: true, stuck: 4, repeats: 1 },
    ], "the continue marker keeps the counts; the replies after it count on from 2");
    const fp = (details: MarkerDetails | undefined) => (details as { fp?: unknown } | undefined)?.fp;
    assert.equal(fp(found[3]), fp(found[2]), "the continue marker carries the last reply's fingerprint");
    assert.deepEqual(stopData(entries).map((stop) => [stop.kind, stop.round, stop.anchor]), [["question", 3, anchor], ["stuck", 6, anchor]]);
    assert.deepEqual(loopNotifies(rpc.notifies.slice(before)).filter((notify) => notify.notifyType === "warning"), [{ message: `todo loop ${STUCK}`, notifyType: "warning" }]);
    checkInvariants(box, { script: [...first, ...second], taskTexts: TASKS });
  }, { extensions: extensionArgs([SESSION_CONTROL]) });
});

const CODEMODE = { args: ["--tools", "+codemode"], extensions: extensionArgs(["builtin:codemode"], { todo: RPIV_TODO }) };

/** A reply that runs one codemode script and then stops with `words`. */
const script = (words: string, code: string): ScriptStep[] => reply(words, "codemode", { code });

test("codemode: a script that only reads (the same file each time) is no progress, so the 6th settle stops (kind stuck); one that edits is progress", { timeout }, async (t) => {
  const readsOnly: ScriptStep[] = [
    plan,
    say("Planned the work."),
    ...["Read it.", "Read it again.", "Once more.", "And again.", "One more time."].flatMap((words) => script(words, "const text = await tools.read({ path: 'a.ts' });\nreturn String(text).length;")),
  ];
  const reading = await observe(t, readsOnly, { files: { "work/a.ts": "export const a = 1;\n" }, ...CODEMODE });
  assert.equal(reading.requests, 12);
  const nested = reading.entries.filter((entry) => entry.message?.role === "toolResult" && entry.message.toolName === "codemode");
  assert.equal(nested.length, 5, "five scripts ran");
  assert.ok(nested.every((entry) => JSON.stringify((entry.message as { nestedCalls?: unknown } | undefined)?.nestedCalls).includes('"read"')), "pi recorded each script's read");
  assert.deepEqual(markerDetails(reading.entries).map((details) => counts(details).stuck), [0, 1, 2, 3, 4]);
  assert.deepEqual(stopData(reading.entries).map((stop) => [stop.kind, stop.reason]), [["stuck", STUCK]]);
  assert.deepEqual(reading.notifies, [{ message: `todo loop ${STUCK}`, notifyType: "warning" }]);

  const edits: ScriptStep[] = [
    plan,
    say("Planned the work."),
    ...["One.", "Two.", "Three.", "Four.", "Five."].flatMap((words, index) =>
      script(`Edited the notes. ${words}`, `await tools.write({ path: 'notes.md', content: 'step ${index}\\n' });\nreturn 'written';`)),
    finish,
    say("Done."),
  ];
  const editing = await observe(t, edits, CODEMODE);
  assert.equal(editing.requests, 14);
  assert.deepEqual(markerDetails(editing.entries).map((details) => counts(details).stuck), [0, 0, 0, 0, 0, 0]);
  assert.deepEqual(stopData(editing.entries).map((stop) => stop.kind), ["clear"]);
  assert.deepEqual(editing.notifies, [CLEAR]);
});
