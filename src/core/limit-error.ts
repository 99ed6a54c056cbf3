/**
 * Whether a provider error that ended a run is a rate or usage limit that resets by itself (SPEC §4.20),
 * a billing or quota error that does not, or something else; and when a limit says it resets. Pure:
 * the error text and the error's time in, plain data out. The texts each provider produces through pi
 * are in docs/dev/pi-api-alignment.md, and why the rule reads only the error's own words in
 * docs/dev/decisions.md.
 */
import { isFiniteNumber } from "./record.ts";

export type LimitClass =
  /**
   * A limit that resets. `resumeInMs`: how long the text says to wait, counted from the error (absent
   * when it names no time); `resetAtMs`: that moment, when the error's time is known.
   */
  | { readonly kind: "limit"; readonly resumeInMs?: number; readonly resetAtMs?: number }
  /** Billing, credit, spend or quota exhaustion: waiting does not help, an ordinary error stop. */
  | { readonly kind: "quota" }
  | { readonly kind: "other" };

/** How much of an error text is read; pi cuts provider bodies at 4,000 characters. */
export const MAX_ERROR_CHARS = 16_000;

/** The longest wait a text may state (7 days); a longer one counts as this (the wait cap applies anyway). */
export const MAX_STATED_WAIT_MS = 7 * 24 * 60 * 60 * 1000;

/** "Try again in ~N min" is rounded to the minute, so the reset may be up to half a minute later. */
export const ROUNDED_MINUTE_MARGIN_MS = 30_000;

/**
 * Billing and quota: waiting does not help, so these win over every limit signal (pi's own non-retryable
 * list, plus spend caps and credit texts). `billing` is matched inside words on purpose
 * (`billing_hard_limit_reached`).
 */
const QUOTA =
  /insufficient_quota|quota[ _-]?exceeded|exceeded (?:your|the) (?:current )?quota|billing|monthly usage limit reached|available balance|out of budget|GoUsageLimitError|FreeUsageLimitError|workplace_individual_usage_limit_exceeded|workspace's usage limit|credit balance|specified API usage limit|usage_not_included/i;

/** Words a limit says of itself. `rate[ -]?limit` leaves `rate_limit_…` identifiers to LIMIT_CODE. */
const LIMIT_WORDS =
  /\brate[ -]?limit|\busage limit|too many (?:requests|tokens)|\bthrottl|\bresources? (?:has been |have been )?exhausted|\btry again in ~\s*\d|\bserver requested \d+(?:\.\d+)?s retry delay/i;

/** Error codes and types providers give a limit, as whole identifiers. */
const LIMIT_CODE =
  /(?<![a-z0-9_])(?:rate_limit_error|rate_limit_exceeded|rate_limited|too_many_requests|usage_limit_reached|usage_limit_exceeded|subscription_sharing_usage_limit_exceeded|resource_exhausted|resourceexhausted|throttlingexception|throttling_exception)(?![a-z0-9_])/i;

/** Z.ai's error code for the plan's usage window (it resets after hours), as a JSON `code`. */
const ZAI_WINDOW_CODE = "1308";

/** What the rule reads of an error text: whether it states HTTP 429, its codes, and its own words. */
interface ErrorReading {
  /** A 429 at the head of the text or in one of the body's own fields. */
  readonly tooMany: boolean;
  readonly codes: readonly string[];
  /** The text with quoted passages removed, and the JSON body's own message in place of the body. */
  readonly prose: string;
}

/**
 * Classifies the error text of a run that ended on a provider error. `erroredAtMs` is when the error
 * happened (the assistant message's time); a stated wait counts from it. Never throws.
 */
export function classifyLimit(errorMessage: unknown, erroredAtMs?: number): LimitClass {
  if (typeof errorMessage !== "string") return { kind: "other" };
  const reading = readError(errorMessage.slice(0, MAX_ERROR_CHARS).trim());
  if ([reading.prose, ...reading.codes].some((part) => QUOTA.test(part))) return { kind: "quota" };
  const limit =
    reading.tooMany ||
    reading.codes.some((code) => LIMIT_CODE.test(code) || code === ZAI_WINDOW_CODE) ||
    LIMIT_CODE.test(reading.prose) ||
    LIMIT_WORDS.test(reading.prose);
  if (!limit) return { kind: "other" };
  const resumeInMs = statedWaitMs(reading.prose);
  if (resumeInMs === undefined) return { kind: "limit" };
  return isFiniteNumber(erroredAtMs) ? { kind: "limit", resumeInMs, resetAtMs: erroredAtMs + resumeInMs } : { kind: "limit", resumeInMs };
}

function isText(value: unknown): value is string {
  return typeof value === "string";
}

// ---- reading the text ---------------------------------------------------------------------------

/**
 * A status at the very start of the text, as pi's providers write it. (pi's prefix for a server that
 * asks for a longer wait than it allows, `Server requested 10800s retry delay (max: 60s). 429 …`, hides
 * the status, but its own words already say limit.)
 */
const STATUS_HEADS: readonly RegExp[] = [
  // `429 {…}` (Anthropic SDK), `429: {…}` (OpenAI SDK, Google), `429 Too Many Requests: …` (pi-messages)
  /^(\d{3})(?=[\s:]|$)/,
  // `OpenAI API error (429): …`, `Mistral API error (429): …`, `Azure OpenAI API error (429): …`
  /^[a-z][\w .-]{0,60}? \((\d{3})\):/i,
];

/**
 * Google's stream error, `got status: RESOURCE_EXHAUSTED. {…}`, needs no reading of its own: the status
 * word stands in the prose, where LIMIT_CODE finds it.
 */
function readError(text: string): ErrorReading {
  const body = jsonBody(text);
  const values = body.fields.values;
  const outside = `${text.slice(0, body.start)} ${text.slice(body.end)}`;
  return {
    tooMany: STATUS_HEADS.some((pattern) => pattern.exec(text)?.[1] === "429") || values.includes(429),
    codes: values.filter((value): value is string => isText(value) && value.length <= 200),
    prose: [withoutQuotes(outside), ...body.fields.messages.map(withoutQuotes)].join("\n"),
  };
}

interface BodyFields {
  /** The values of `type`, `code` and `status`: a code is a string of at most 200 characters, a status a number. */
  readonly values: readonly unknown[];
  readonly messages: readonly string[];
}

/** The fields of the body where a provider puts its own verdict, at the error's level and the top. */
const FIELD_KEYS: readonly string[] = ["type", "code", "status"];

/**
 * The JSON error body inside the text, from its first `{"` (or `[{"`) to its last `}` (or `]`): the
 * fields a provider puts its own verdict in — `error.type`, `error.code`, `error.status` and
 * `error.message`, or the same at the top level. A body cut short (pi truncates long ones) is read
 * field by field from its start, where the error's own fields come before any echo of the request.
 * A text without a body has an empty one at its end.
 */
function jsonBody(text: string): { start: number; end: number; fields: BodyFields } {
  const start = /\[?\{\s*"/.exec(text)?.index ?? text.length;
  const close = text.lastIndexOf(text[start] === "[" ? "]" : "}");
  // A closing mark before the start leaves nothing to parse.
  const fields = fieldsOf(parseJson(text.slice(start, close + 1)));
  if (fields !== undefined) return { start, end: close + 1, fields };
  return { start, end: text.length, fields: looseFields(text.slice(start)) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // not JSON: undefined, as below
  }
  return undefined;
}

type Json = { readonly [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldsOf(parsed: unknown): BodyFields | undefined {
  const top = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isObject(top)) return undefined;
  const holders = isObject(top.error) ? [top.error, top] : [top];
  return {
    values: holders.flatMap((holder) => FIELD_KEYS.map((key) => holder[key])),
    // A Codex-style body keeps the message as a plain string in `error`.
    messages: [...holders.map((holder) => holder.message), top.error].filter(isText),
  };
}

/** The first `"type"`, `"code"`, `"status"` and `"message"` of a body JSON.parse cannot read. */
function looseFields(text: string): BodyFields {
  const message = /"message"\s*:\s*"((?:[^"\\]|\\.){0,4000})/.exec(text)?.[1];
  return {
    values: FIELD_KEYS.map((key) => looseValue(text, key)),
    messages: [message].filter(isText).map((found) => found.replace(/\\(["\\/])/g, "$1").replace(/\\n/g, "\n")),
  };
}

/** The first value of `"key"` in a body cut short: a string, or a number of up to three digits. */
function looseValue(text: string, key: string): string | number | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*(?:"([^"\\\\]{0,200})"|(\\d{1,3})\\b)`).exec(text);
  if (match === null) return undefined;
  return match[1] ?? Number(match[2]);
}

/**
 * The text without its quoted passages: "…", “…”, `…`, and '…' when the quote marks stand apart from
 * words (so `account's` stays), each in turn. A provider that echoes a piece of the request — a file
 * name, a user's words — quotes it; the error's own words never are.
 */
const QUOTED: readonly RegExp[] = [/"[^"\n]*"/g, /“[^”\n]*”/g, /`[^`\n]*`/g, /(?<![\p{L}\p{N}])'[^'\n]*'(?![\p{L}\p{N}])/gu];

function withoutQuotes(text: string): string {
  return QUOTED.reduce((rest, pattern) => rest.replace(pattern, " "), text);
}

// ---- the stated wait ----------------------------------------------------------------------------

/** The ms in one of a unit AMOUNT admits. */
function unitMs(word: string | undefined): number {
  const unit = String(word).toLowerCase();
  if (unit === "ms" || unit.startsWith("millisecond")) return 1;
  if (unit === "s" || unit.startsWith("sec")) return 1000;
  if (unit === "m" || unit.startsWith("min")) return 60_000;
  // What AMOUNT leaves: h, hour(s), hr(s).
  return 3_600_000;
}

const AMOUNT = String.raw`(\d{1,12}(?:\.\d{1,12})?)\s*(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)(?![a-z])`;
const AMOUNTS = new RegExp(AMOUNT, "gi");
const SERVER_DELAY = /\bserver requested (\d{1,12}(?:\.\d{1,12})?)s retry delay/gi;
/** `try again in`, `retry after`…, a `~` when the time is rounded to the minute, then one or more amounts. */
const WAIT_PHRASE = new RegExp(String.raw`\b(?:try again|retry) (?:in|after) (~\s*)?(?:${AMOUNT}\s*)+`, "gi");

/** The ms a wait phrase states: its amounts added, plus half a minute when it says `~`. */
function phraseMs(phrase: string, rounded: boolean): number {
  let total = rounded ? ROUNDED_MINUTE_MARGIN_MS : 0;
  for (const part of phrase.matchAll(AMOUNTS)) total += Number(part[1]) * unitMs(part[2]);
  return total;
}

/**
 * The wait a limit text states, in ms: `Server requested 10800s retry delay`, `Try again in ~37 min`
 * (plus half a minute: it is rounded), `try again in 6m0s` / `in 1.496s` / `retry in 43.2s` / `retry after
 * 2 seconds`. Several → the longest. Capped at MAX_STATED_WAIT_MS.
 */
export function statedWaitMs(prose: string): number | undefined {
  const waits = [
    ...[...prose.matchAll(SERVER_DELAY)].map((match) => Number(match[1]) * 1000),
    ...[...prose.matchAll(WAIT_PHRASE)].map((match) => phraseMs(match[0], match[1] !== undefined)),
  ];
  if (waits.length === 0) return undefined;
  return Math.min(Math.ceil(Math.max(...waits)), MAX_STATED_WAIT_MS);
}
