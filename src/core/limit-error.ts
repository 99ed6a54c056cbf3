/**
 * Whether a provider error that ended a run is a rate or usage limit that resets by itself (SPEC §4.20),
 * a billing or quota error that does not, or something else; and when a limit says it resets. Pure:
 * the error text and the error's time in, plain data out. The texts each provider produces through pi,
 * and why the rule reads only the error's own words, are in docs/dev/limits-and-restarts.md.
 */

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

/** What the rule reads of an error text: HTTP statuses it states, its codes, and its own words. */
interface ErrorReading {
  readonly statuses: readonly number[];
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
  const text = errorMessage.slice(0, MAX_ERROR_CHARS).trim();
  if (text === "") return { kind: "other" };
  const reading = readError(text);
  const words = `${reading.prose}\n${reading.codes.join("\n")}`;
  if (QUOTA.test(words)) return { kind: "quota" };
  const limit =
    reading.statuses.includes(429) ||
    reading.codes.some((code) => LIMIT_CODE.test(code) || code === ZAI_WINDOW_CODE) ||
    LIMIT_CODE.test(reading.prose) ||
    LIMIT_WORDS.test(reading.prose);
  if (!limit) return { kind: "other" };
  const resumeInMs = statedWaitMs(reading.prose);
  if (resumeInMs === undefined) return { kind: "limit" };
  const known = typeof erroredAtMs === "number" && Number.isFinite(erroredAtMs);
  return known ? { kind: "limit", resumeInMs, resetAtMs: erroredAtMs + resumeInMs } : { kind: "limit", resumeInMs };
}

// ---- reading the text ---------------------------------------------------------------------------

/** pi's prefix when a server asks for a longer wait than it allows: `Server requested 10800s retry delay (max: 60s). `. */
const RETRY_DELAY_PREFIX = /^server requested \d+(?:\.\d+)?s retry delay \(max: \d+(?:\.\d+)?s\)\.?\s*/i;

/** A status at the very start of the text (after that prefix), as pi's providers write it. */
const STATUS_HEADS: readonly RegExp[] = [
  // `429 {…}` (Anthropic SDK), `429: {…}` (OpenAI SDK, Google), `429 Too Many Requests: …` (pi-messages)
  /^(\d{3})(?=[\s:]|$)/,
  // `OpenAI API error (429): …`, `Mistral API error (429): …`, `Azure OpenAI API error (429): …`
  /^[a-z][\w .-]{0,60}? \((\d{3})\):/i,
];

function readError(text: string): ErrorReading {
  const statuses: number[] = [];
  const codes: string[] = [];
  const rest = text.replace(RETRY_DELAY_PREFIX, "");
  for (const pattern of STATUS_HEADS) {
    const status = pattern.exec(rest)?.[1];
    if (status !== undefined) {
      statuses.push(Number(status));
      break;
    }
  }
  // Google's stream error: `got status: RESOURCE_EXHAUSTED. {…}`.
  const googleStatus = /^got status: ([A-Za-z_]+)\./.exec(rest)?.[1];
  if (googleStatus !== undefined) codes.push(googleStatus);

  const body = jsonBody(text);
  if (body === undefined) return { statuses, codes, prose: withoutQuotes(text) };
  const fields = body.fields;
  for (const value of fields.numbers) if (value >= 100 && value <= 599) statuses.push(value);
  codes.push(...fields.codes);
  const outside = `${text.slice(0, body.start)} ${text.slice(body.end)}`;
  const prose = `${withoutQuotes(outside)}\n${fields.messages.map(withoutQuotes).join("\n")}`;
  return { statuses, codes, prose };
}

interface BodyFields {
  readonly numbers: readonly number[];
  readonly codes: readonly string[];
  readonly messages: readonly string[];
}

/**
 * The JSON error body inside the text, from its first `{"` (or `[{"`) to its last `}` (or `]`): the
 * fields a provider puts its own verdict in — `error.type`, `error.code`, `error.status` and
 * `error.message`, or the same at the top level. A body cut short (pi truncates long ones) is read
 * field by field from its start, where the error's own fields come before any echo of the request.
 */
function jsonBody(text: string): { start: number; end: number; fields: BodyFields } | undefined {
  const open = /\[?\{\s*"/.exec(text);
  if (open === null) return undefined;
  const start = open.index;
  const close = text.lastIndexOf(text[start] === "[" ? "]" : "}");
  if (close > start) {
    const parsed = parseJson(text.slice(start, close + 1));
    if (parsed !== undefined) {
      const fields = fieldsOf(parsed);
      if (fields !== undefined) return { start, end: close + 1, fields };
    }
  }
  return { start, end: text.length, fields: looseFields(text.slice(start)) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type Json = { readonly [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldsOf(parsed: unknown): BodyFields | undefined {
  const top = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isObject(top)) return undefined;
  const error = isObject(top.error) ? top.error : undefined;
  const numbers: number[] = [];
  const codes: string[] = [];
  const messages: string[] = [];
  for (const holder of error === undefined ? [top] : [error, top]) {
    for (const key of ["type", "code", "status"]) {
      const value = holder[key];
      if (typeof value === "string" && value.length <= 200) codes.push(value);
      if (typeof value === "number" && Number.isInteger(value)) numbers.push(value);
    }
    if (typeof holder.message === "string") messages.push(holder.message);
  }
  // A Codex-style body keeps the message as a plain string in `error`.
  if (typeof top.error === "string") messages.push(top.error);
  return { numbers, codes, messages };
}

/** The first `"type"`, `"code"`, `"status"` and `"message"` of a body JSON.parse cannot read. */
function looseFields(text: string): BodyFields {
  const numbers: number[] = [];
  const codes: string[] = [];
  const messages: string[] = [];
  for (const key of ["type", "code", "status"]) {
    const match = new RegExp(`"${key}"\\s*:\\s*(?:"([^"\\\\]{0,200})"|(\\d{1,3})\\b)`).exec(text);
    if (match?.[1] !== undefined) codes.push(match[1]);
    if (match?.[2] !== undefined) numbers.push(Number(match[2]));
  }
  const message = /"message"\s*:\s*"((?:[^"\\]|\\.){0,4000})/.exec(text)?.[1];
  if (message !== undefined) messages.push(message.replace(/\\(["\\/])/g, "$1").replace(/\\n/g, "\n"));
  return { numbers, codes, messages };
}

/**
 * The text without its quoted passages: "…", “…”, `…`, and '…' when the quote marks stand apart from
 * words (so `account's` stays). A provider that echoes a piece of the request — a file name, a user's
 * words — quotes it; the error's own words never are.
 */
function withoutQuotes(text: string): string {
  return text
    .replace(/"[^"\n]*"/g, " ")
    .replace(/“[^”\n]*”/g, " ")
    .replace(/`[^`\n]*`/g, " ")
    .replace(/(?<![\p{L}\p{N}])'[^'\n]*'(?![\p{L}\p{N}])/gu, " ");
}

// ---- the stated wait ----------------------------------------------------------------------------

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function unitOf(word: string): number | undefined {
  const unit = word.toLowerCase();
  if (unit === "ms" || unit.startsWith("millisecond")) return UNIT_MS.ms;
  if (unit === "s" || unit.startsWith("sec")) return UNIT_MS.s;
  if (unit === "m" || unit.startsWith("min")) return UNIT_MS.m;
  if (unit === "h" || unit.startsWith("hour") || unit.startsWith("hr")) return UNIT_MS.h;
  return undefined;
}

const AMOUNT = String.raw`(\d{1,12}(?:\.\d{1,12})?)\s*(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)(?![a-z])`;

/**
 * The wait a limit text states, in ms: `Server requested 10800s retry delay`, `Try again in ~37 min`
 * (plus half a minute: it is rounded), `try again in 6m0s` / `in 1.496s` / `retry in 43.2s` / `retry after
 * 2 seconds`. Several
 * → the longest. Capped at MAX_STATED_WAIT_MS.
 */
export function statedWaitMs(prose: string): number | undefined {
  const waits: number[] = [];
  for (const match of prose.matchAll(/\bserver requested (\d{1,12}(?:\.\d{1,12})?)s retry delay/gi)) {
    waits.push(Number(match[1]) * 1000);
  }
  const phrase = new RegExp(String.raw`\b(?:try again|retry) (?:in|after) (~\s*)?((?:${AMOUNT}\s*)+)`, "gi");
  for (const match of prose.matchAll(phrase)) {
    const amounts = match[2] ?? "";
    let total = 0;
    for (const part of amounts.matchAll(new RegExp(AMOUNT, "gi"))) {
      total += Number(part[1]) * (unitOf(part[2] ?? "") ?? Number.NaN);
    }
    if (match[1] !== undefined) total += ROUNDED_MINUTE_MARGIN_MS;
    waits.push(total);
  }
  const valid = waits.filter((value) => Number.isFinite(value) && value >= 0);
  if (valid.length === 0) return undefined;
  return Math.min(Math.ceil(Math.max(...valid)), MAX_STATED_WAIT_MS);
}
