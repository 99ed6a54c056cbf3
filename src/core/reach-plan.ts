/**
 * Reaching a person who walked away (SPEC §7.1): which announced stops need the person, and what goes
 * where — the terminal's desktop notification, the command hook, the event for other extensions, the
 * headless summary line and exit status. Pure: plain data in, plain data (and exact bytes) out; the
 * effects are in `notify.ts`, the English in `text.ts`.
 */
import type { NotifySetting, Reason } from "./types.ts";
import type { ModeLike } from "./pi-shapes.ts";

/** What the rule reads of a stop: its record's kind (every 0.3 kind) and whether it was an abort. */
export interface StopFacts {
  /** `clear | no-list | limit | idle | stuck | repeat | waiting | question | out-of-reach | out-of-date | outcome | earlier | verify-failed | verify-error`. */
  readonly kind: string;
  /**
   * A stop from an abort — an `outcome` stop, or a verification command stopped by Escape (0.4): in the
   * TUI or over RPC the person just pressed Escape.
   */
  readonly aborted: boolean;
  /** A `limit-wait` that is not the message's first wait (SPEC §4.20): it notifies nothing. */
  readonly laterWait?: boolean;
  /** A clear or emptied list whose verification command passed (0.4: an emptied list verified is done). */
  readonly verified?: boolean;
  /** A clear list whose reply hands the testing to the person (SPEC §4.23, 0.5): verified or not, it needs them. */
  readonly handsOver?: boolean;
}

/** The sentence with which a clear stop hands the testing to the person (SPEC §4.23), if it does. */
export function handOverOf(reason: Reason): string | undefined {
  return reason.kind === "clear" || (reason.kind === "verified" && reason.base === "clear") ? reason.handsOver : undefined;
}

export interface ReachConfig {
  readonly notify: NotifySetting;
  readonly notifyCommand: readonly string[] | null;
  readonly exitCode: number | null;
}

/** What one announced stop does besides its record and its notify. */
export interface ReachPlan {
  /** The payload's `needsYou`. */
  readonly needsYou: boolean;
  /** Write the desktop notification to the terminal (interactive mode only). */
  readonly terminal: boolean;
  /** Run `notifyCommand`: awaited (print/JSON, so pi does not exit first), started, or not at all. */
  readonly command: "await" | "start" | "none";
  /** Write the one-line summary to stderr (print/JSON). */
  readonly stderrLine: boolean;
  /** `pi.events.emit("todo-loop:stop", payload)`: always. */
  readonly event: true;
}

/** Print and JSON mode: nobody sees pi's UI, and the process ends with the run. */
export function headless(mode: ModeLike | undefined): boolean {
  return mode === "print" || mode === "json";
}

/**
 * Whether a stop needs the person: every kind except a clear list (a verified one included: an
 * unverifiable clear is a `verify-error` stop, never a `clear`), an emptied list whose verification
 * passed (only a `clear` or `no-list` stop is ever `verified`) and `earlier` (the person is there);
 * an abort only where a person can press Escape (TUI, RPC), never in print or JSON mode. 0.5: a clear
 * list whose reply hands the testing to the person needs them, verified or not (SPEC §4.23).
 */
export function needsPerson(stop: StopFacts, mode: ModeLike | undefined): boolean {
  if (stop.kind === "clear" && stop.handsOver === true) return true;
  if (stop.kind === "clear" || stop.kind === "earlier") return false;
  if (stop.verified === true) return false;
  if (stop.aborted && !headless(mode)) return false;
  if (stop.laterWait === true) return false;
  return true;
}

/** Whether `notify` lets a stop out to the terminal and the command hook. `earlier` never notifies. */
export function notifies(stop: StopFacts, setting: NotifySetting, mode: ModeLike | undefined): boolean {
  switch (setting) {
    case "all":
      return stop.kind !== "earlier" && stop.laterWait !== true;
    case "needs-you":
      return needsPerson(stop, mode);
    default:
      // "off".
      return false;
  }
}

/**
 * The plan for one announced stop, by its kind, the config and the mode. `quiet`: a child session
 * (SPEC §4.18) reaches nobody but its event bus — no terminal bytes, no command, no stderr line.
 */
export function planReach(stop: StopFacts, config: ReachConfig, mode: ModeLike | undefined, quiet = false): ReachPlan {
  const needsYou = needsPerson(stop, mode);
  if (quiet) return { needsYou, terminal: false, command: "none", stderrLine: false, event: true };
  const out = notifies(stop, config.notify, mode);
  const command = !out || config.notifyCommand === null ? "none" : headless(mode) ? "await" : "start";
  return { needsYou, terminal: out && mode === "tui", command, stderrLine: headless(mode) && needsYou, event: true };
}

/**
 * The exit status a print/JSON run leaves at its `agent_settled` (the last run decides): the configured
 * `exitCode` when it ended on a stop that needs the person; `null` (undo what the loop set before) when
 * it ended otherwise — a clear list, `earlier`, no stop; `undefined` (touch nothing) outside print/JSON
 * mode or without `exitCode`. `ended` is the stop the run ended on, announced now or before. A quiet child
 * session touches nothing: the exit status is process-wide, and an in-process child's process is its parent's.
 */
export function exitStatus(ended: StopFacts | undefined, config: ReachConfig, mode: ModeLike | undefined, quiet = false): number | null | undefined {
  if (quiet || !headless(mode) || config.exitCode === null) return undefined;
  return ended !== undefined && needsPerson(ended, mode) ? config.exitCode : null;
}

/** The terminal's title for the notification (OSC 777 and OSC 99). */
export const NOTIFICATION_TITLE = "pi: todo loop";
/** Characters of a notification's body. */
export const BODY_CHARS = 120;

/** Every C0 and C1 control, DEL included (ESC, BEL and U+009C, the string terminator, among them). */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * A notification body no terminal can read as the end of its sequence: `lead` (fixed text) first,
 * then `text` (already sanitised, but every control is removed again here: whatever sanitising
 * becomes, no ESC, BEL, ST or C1 reaches the terminal), at most 120 characters (graphemes).
 */
export function notificationBody(lead: "waiting for you:" | "stopped:", text: string): string {
  const rest = text.replace(CONTROLS, "").replace(/^(?:waiting for you:|stopped:)\s*/, "").trim();
  const whole = graphemes(rest === "" ? lead : `${lead} ${rest}`);
  return whole.length > BODY_CHARS ? `${whole.slice(0, BODY_CHARS - 1).join("").trimEnd()}…` : whole.join("");
}

/** Grapheme clusters are a segmenter's default granularity. */
const SEGMENTER = new Intl.Segmenter();

/** The characters a person sees (grapheme clusters): a cap never splits an emoji sequence or a letter and its marks. */
export function graphemes(text: string): string[] {
  return Array.from(SEGMENTER.segment(text), (part) => part.segment);
}

/** The environment variables that choose the notification's form. */
export interface TerminalEnv {
  readonly KITTY_WINDOW_ID?: string | undefined;
  readonly TERM_PROGRAM?: string | undefined;
  readonly TMUX?: string | undefined;
}

/**
 * The exact bytes of a desktop notification: kitty (`KITTY_WINDOW_ID`) OSC 99 in two parts, title then
 * body, as pi's notify example writes it; iTerm2 (`TERM_PROGRAM=iTerm.app`) OSC 9; any other terminal
 * OSC 777. Inside tmux (`TMUX`) the sequence is passed through: `ESC P tmux ;`, the sequence with every
 * ESC doubled, `ESC \`, then one BEL. `body` comes from `notificationBody()`.
 */
export function terminalSequence(body: string, env: TerminalEnv): string {
  const clean = body.replace(CONTROLS, "");
  let sequence: string;
  if (env.KITTY_WINDOW_ID) {
    sequence = `\x1b]99;i=1:d=0;${NOTIFICATION_TITLE}\x1b\\\x1b]99;i=1:p=body;${clean}\x1b\\`;
  } else if (env.TERM_PROGRAM === "iTerm.app") {
    sequence = `\x1b]9;${clean}\x07`;
  } else {
    sequence = `\x1b]777;notify;${NOTIFICATION_TITLE};${clean}\x07`;
  }
  return env.TMUX ? `\x1bPtmux;${sequence.replace(/\x1b/g, "\x1b\x1b")}\x1b\\\x07` : sequence;
}

/** The payload of the command hook and the `todo-loop:stop` event (SPEC §7.1); fields may be added, never renamed. */
export interface StopPayload {
  readonly v: 1;
  readonly kind: string;
  /** Fixed text and figures only: never the model's words. */
  readonly reason: string;
  /** The model's own words (its question, its block reason), sanitised, at most 200 characters; null when there are none. */
  readonly detail: string | null;
  readonly open: number;
  readonly total: number;
  readonly round: number;
  readonly needsYou: boolean;
  readonly sessionId: string;
  /** null without a session file (`--no-session`). */
  readonly sessionFile: string | null;
  readonly cwd: string;
}

/** Characters of the payload's `detail`. */
export const DETAIL_CHARS = 200;

/** The channel of the event for other extensions. */
export const STOP_EVENT = "todo-loop:stop";
