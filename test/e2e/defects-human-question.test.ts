// Proves on the real host that a question quoted in the wait keeps the characters human text is made of (joiners, variation selectors, emoji tag sequences) in the notify, the record, /todoloop, the hook's detail and the stderr line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  baseArgs,
  checkInvariants,
  createTasks,
  extensionArgs,
  loopNotifies,
  runPi,
  sandbox,
  say,
  SCENARIO_TIMEOUT_MS,
  sessionEntries,
  stopReasons,
  until,
  withRpc,
} from "./harness.ts";
import type { ScriptStep } from "./harness.ts";

const timeout = SCENARIO_TIMEOUT_MS;
const STOP_LISTENER = join(dirname(fileURLToPath(import.meta.url)), "stand-ins", "stop-listener.ts");

/** Persian with a non-joiner, a coder (ZWJ), the flag of England (tag sequence), a warning sign and a keycap (variation selectors). */
const WORDS = "می\u200cخواهید 👩\u200d💻 🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f} ⚠\ufe0f 1\ufe0f\u20e3";
const QUESTION = `Should the file be named ${WORDS}?`;
const QUOTED = `waiting for you: the agent asked: "${QUESTION}"`;

test("RPC: the wait's notify, the stop record and /todoloop quote the question with its joiners, tag sequence and variation selectors", { timeout }, async (t) => {
  const script: ScriptStep[] = [createTasks("Alpha task"), say(`I looked at the options.\n\n${QUESTION}`)];
  await withRpc(t.signal, { script }, async (box, rpc) => {
    await rpc.prompt("Do the work");
    assert.deepEqual(stopReasons(sessionEntries(box)), [QUOTED]);
    const notices = loopNotifies(rpc.notifies).map((notice) => notice.message);
    t.diagnostic(JSON.stringify(notices));
    assert.deepEqual(notices, [`todo loop ${QUOTED}`]);
    const status = (await rpc.command("status")).map((notify) => notify.message).join("\n");
    assert.ok(status.split("\n").includes(`waiting for you: the agent asked: "${QUESTION}"`), status);
    checkInvariants(box, { script, taskTexts: ["Alpha task"] });
  });
});

test("print mode: the hook's detail, the event and the stderr line keep the question's human text", { timeout }, async () => {
  const script: ScriptStep[] = [createTasks("Alpha task"), say(QUESTION)];
  const box = sandbox({ script });
  try {
    box.env.PI_TODO_LOOP_E2E_STOPS = join(box.root, "stops.jsonl");
    const argFile = join(box.root, "hook-arg");
    const hook = join(box.root, "hook.sh");
    writeFileSync(hook, `#!/bin/sh\nfor a in "$@"; do last="$a"; done\nprintf '%s' "$last" > "${argFile}"\n`);
    chmodSync(hook, 0o755);
    writeFileSync(join(box.agentDir, "todo-loop.json"), JSON.stringify({ notifyCommand: [hook] }));
    const run = await runPi(box, [...extensionArgs([STOP_LISTENER]), ...baseArgs(box), "-p", "Do the work"], 45_000);
    assert.equal(run.code, 0, run.stderr);
    await until("the hook ran", () => existsSync(argFile));
    const payload = JSON.parse(readFileSync(argFile, "utf8")) as { detail: string; kind: string };
    assert.equal(payload.kind, "question");
    assert.equal(payload.detail, QUESTION);
    const event = JSON.parse(readFileSync(join(box.root, "stops.jsonl"), "utf8").split("\n")[0] ?? "{}") as { detail: string };
    assert.equal(event.detail, QUESTION);
    assert.deepEqual(run.stderr.split("\n").filter((line) => line.startsWith("todo loop: waiting")), [`todo loop: ${QUOTED}, 1 of 1 task open`]);
  } finally {
    box.cleanup();
  }
});
