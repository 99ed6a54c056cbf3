/**
 * An older pi (SPEC §10): the extension registers nothing it cannot and says once per process which pi
 * it needs — on stderr while it loads, and in the TUI as a warning at the first session start that has a
 * UI. Every call is guarded: on a host this old nothing may be assumed.
 */
import type { ContextLike, PiLike } from "../core/pi-shapes.ts";
import { olderPiText } from "../core/text.ts";
import type { ReachIo } from "../io/notify.ts";

/** What this process has already said (several sessions, a reload: still once). */
interface Told {
  stderr: boolean;
  notified: boolean;
}

const TOLD = Symbol.for("pi-todo-loop.older-pi");

function told(): Told {
  const holder = globalThis as { [TOLD]?: Told };
  holder[TOLD] ??= { stderr: false, notified: false };
  return holder[TOLD];
}

/** Says on stderr which pi is needed (once per process) and registers the one notify the host allows. */
export function registerOlderPi(pi: PiLike, io: ReachIo, missing: readonly string[]): void {
  const text = olderPiText(missing);
  const said = told();
  if (!said.stderr) {
    said.stderr = true;
    try {
      io.writeStderr(text);
    } catch {
      // A closed stream: the notify may still reach the person.
    }
  }
  const on: unknown = (pi as { on?: unknown }).on;
  if (typeof on !== "function") return;
  try {
    on.call(pi, "session_start", async (_event: unknown, ctx: ContextLike) => {
      try {
        if (said.notified || ctx?.hasUI !== true || typeof ctx.ui?.notify !== "function") return;
        said.notified = true;
        ctx.ui.notify(text, "warning");
      } catch {
        // Nothing more to say.
      }
    });
  } catch {
    // A host that cannot take a handler gets the stderr line only.
  }
}

/** Forgets what this process said (tests only). */
export function forgetOlderPiNotice(): void {
  delete (globalThis as { [TOLD]?: Told })[TOLD];
}
