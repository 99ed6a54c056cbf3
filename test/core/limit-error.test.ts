/**
 * Which provider errors are a limit that resets (the loop waits), a billing or quota error (an ordinary
 * error stop) or neither: a table of the texts pi 1.6.0 produces for each provider that reports limits,
 * each row naming the file of `@earendil-works/pi-ai/dist` that builds it; the time a text states; and
 * hostile texts — a limit's words quoted from the request, non-strings, huge and zero times, two times,
 * bodies cut short, text past the read limit.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyLimit, MAX_ERROR_CHARS, MAX_STATED_WAIT_MS, ROUNDED_MINUTE_MARGIN_MS, statedWaitMs } from "../../src/core/limit-error.ts";
import type { LimitClass } from "../../src/core/limit-error.ts";

const MIN = 60_000;

interface Row {
  /** The file in pi-ai's `dist/` that writes this text into the assistant message's `errorMessage`. */
  readonly source: string;
  readonly what: string;
  readonly text: string;
  readonly kind: LimitClass["kind"];
  /** The wait the text states, in ms (limits only); absent when it states none. */
  readonly resumeInMs?: number;
}

/** Anthropic's SDK writes `<status> <JSON body>`; pi keeps it (`withCauseDetail`). */
function anthropic(status: number, type: string, message: string): string {
  return `${status} ${JSON.stringify({ type: "error", error: { type, message }, request_id: "req_011CZLrUfBVkVHn5T6EqQaf7" })}`;
}

/** The OpenAI SDK's error body as `formatProviderError` shows it: `<status>: <body>` or with a prefix. */
function openai(status: number, body: Record<string, unknown>, prefix?: string): string {
  const json = JSON.stringify(body);
  return prefix === undefined ? `${status}: ${json}` : `${prefix} (${status}): ${json}`;
}

/** `@google/genai` puts the whole JSON body into the message; pi keeps it. */
function google(code: number, status: string, message: string): string {
  return JSON.stringify({ error: { code, message, status } });
}

const ACCOUNT_LIMIT = "This request would exceed your account's rate limit. Please try again later.";
const ORG_LIMIT =
  "This request would exceed the rate limit for your organization (a1b2c3) of 30,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.";
const GEMINI_FREE_TIER =
  "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-2.5-pro\nPlease retry in 43.208877823s.";

const ROWS: readonly Row[] = [
  // ---- Anthropic (API key and Claude subscription) ----
  { source: "api/anthropic-messages.js", what: "subscription window spent", text: anthropic(429, "rate_limit_error", ACCOUNT_LIMIT), kind: "limit" },
  { source: "api/anthropic-messages.js", what: "organization's tokens per minute", text: anthropic(429, "rate_limit_error", ORG_LIMIT), kind: "limit" },
  {
    source: "utils/provider-retry.js",
    what: "retry-after longer than pi allows",
    text: `Server requested 10800s retry delay (max: 60s). ${anthropic(429, "rate_limit_error", ACCOUNT_LIMIT)}`,
    kind: "limit",
    resumeInMs: 10_800_000,
  },
  {
    source: "api/anthropic-messages.js",
    what: "error event mid-stream (no status)",
    text: JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: ACCOUNT_LIMIT } }),
    kind: "limit",
  },
  {
    source: "api/anthropic-messages.js",
    what: "Z.ai 5-hour window through its Anthropic endpoint (naive reset stamp: not read)",
    text: `429 {"type":"error","error":{"type":"rate_limit_error","code":"1308","message":"[1308][Usage limit reached for 5 hour. Your limit will reset at 2026-09-12 00:35:41][20260912001903b4955568412247d7]"},"request_id":"20260912001903b4955568412247d7"}`,
    kind: "limit",
  },
  { source: "api/anthropic-messages.js", what: "overloaded (529)", text: anthropic(529, "overloaded_error", "Overloaded"), kind: "other" },
  {
    source: "api/anthropic-messages.js",
    what: "credit balance too low",
    text: anthropic(400, "invalid_request_error", "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."),
    kind: "quota",
  },
  {
    source: "api/anthropic-messages.js",
    what: "spend limit set in the console",
    text: anthropic(400, "invalid_request_error", "You have reached your specified API usage limits. You will regain access on 2026-04-01 at 00:00 UTC."),
    kind: "quota",
  },
  { source: "api/anthropic-messages.js", what: "bad request", text: anthropic(400, "invalid_request_error", "max_tokens: must be at least 1"), kind: "other" },
  // ---- OpenAI Codex (ChatGPT sign-in) ----
  {
    source: "api/openai-codex-responses.js",
    what: "usage limit with its reset",
    text: "You have hit your ChatGPT usage limit (plus plan). Try again in ~37 min.",
    kind: "limit",
    resumeInMs: 37 * MIN + ROUNDED_MINUTE_MARGIN_MS,
  },
  {
    source: "api/openai-codex-responses.js",
    what: "usage limit resetting within the minute",
    text: "You have hit your ChatGPT usage limit (pro plan). Try again in ~0 min.",
    kind: "limit",
    resumeInMs: ROUNDED_MINUTE_MARGIN_MS,
  },
  { source: "api/openai-codex-responses.js", what: "usage limit, no reset given", text: "You have hit your ChatGPT usage limit (team plan).", kind: "limit" },
  { source: "api/openai-codex-responses.js", what: "usage limit, no plan, no reset", text: "You have hit your ChatGPT usage limit.", kind: "limit" },
  {
    source: "api/openai-codex-responses.js",
    what: "retry-after longer than allowed (no body appended)",
    text: "Server requested 1800s retry delay (max: 60s)",
    kind: "limit",
    resumeInMs: 1_800_000,
  },
  { source: "api/openai-codex-responses.js", what: "WebSocket error event with a message", text: "Codex error: The usage limit has been reached", kind: "limit" },
  { source: "api/openai-codex-responses.js", what: "WebSocket error event with only a code", text: "Codex error: usage_limit_reached", kind: "limit" },
  { source: "api/openai-codex-responses.js", what: "server error", text: "Codex error: An error occurred while processing your request.", kind: "other" },
  // ---- OpenAI (API key; also ChatGPT sign-in through the Responses API) ----
  {
    source: "api/openai-responses.js",
    what: "requests per day, seconds to wait",
    text: openai(
      429,
      {
        message: "Rate limit reached for gpt-4.1 in organization org-abc on requests per day (RPD): Limit 10000, Used 10000, Requested 1. Please try again in 8.64s. Visit https://platform.openai.com/account/rate-limits to learn more.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
      "OpenAI API error",
    ),
    kind: "limit",
    resumeInMs: 8640,
  },
  {
    source: "api/openai-responses.js",
    what: "quota spent",
    text: openai(
      429,
      {
        message: "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
      "OpenAI API error",
    ),
    kind: "quota",
  },
  {
    source: "api/openai-responses.js",
    what: "ChatGPT sign-in: the subscription's shared limit (resets after hours)",
    text: `${openai(429, { message: "You've hit the usage limit of your ChatGPT plan.", type: "usage_limit", code: "subscription_sharing_usage_limit_exceeded" }, "OpenAI API error")}\nCheck your ChatGPT usage: https://chatgpt.com/settings/usage`,
    kind: "limit",
  },
  {
    source: "api/openai-responses.js",
    what: "ChatGPT Business: the admin's per-person limit",
    text: `${openai(429, { message: "Usage limit exceeded.", code: "subscription_sharing_workplace_individual_usage_limit_exceeded" }, "OpenAI API error")}\nYou've reached your ChatGPT workspace's usage limit. Ask your workspace admin to increase it at admin.openai.com → Workspace → Usage limits.`,
    kind: "quota",
  },
  {
    source: "api/openai-responses-shared.js",
    what: "response.failed event",
    text: "rate_limit_exceeded: Rate limit reached for gpt-4.1 on tokens per min (TPM). Please try again in 20ms.",
    kind: "limit",
    resumeInMs: 20,
  },
  { source: "api/openai-responses-shared.js", what: "error event", text: "Error Code rate_limit_exceeded: Rate limit reached", kind: "limit" },
  { source: "api/openai-responses.js", what: "server error", text: openai(500, { message: "The server had an error while processing your request.", type: "server_error" }, "OpenAI API error"), kind: "other" },
  // ---- OpenAI-compatible providers through the Completions API ----
  {
    source: "api/openai-completions.js",
    what: "OpenAI requests per day, minutes and seconds",
    text: openai(429, { message: "Rate limit reached for gpt-4o on requests per day (RPD): Limit 200, Used 200, Requested 1. Please try again in 6m0s.", type: "requests", param: null, code: "rate_limit_exceeded" }),
    kind: "limit",
    resumeInMs: 6 * MIN,
  },
  {
    source: "api/openai-completions.js",
    what: "Z.ai 5-hour window (code 1308)",
    text: openai(429, { code: "1308", message: "Usage limit reached for 5 hour. Your limit will reset at 2026-09-09 05:38:28" }),
    kind: "limit",
  },
  {
    source: "api/openai-completions.js",
    what: "OpenCode Go subscription limit",
    text: openai(429, { type: "GoUsageLimitError", message: "Subscription usage limit reached. Enable usage of your available balance to continue." }),
    kind: "quota",
  },
  { source: "api/openai-completions.js", what: "OpenCode free tier", text: openai(429, { type: "FreeUsageLimitError", message: "Free usage limit reached." }), kind: "quota" },
  {
    source: "api/openai-completions.js",
    what: "OpenRouter free models per day",
    text: openai(429, { message: "Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day", code: 429 }),
    kind: "limit",
  },
  { source: "api/openai-completions.js", what: "OpenRouter out of credits (402)", text: openai(402, { message: "Insufficient credits. Add more using https://openrouter.ai/settings/credits", code: 402 }), kind: "other" },
  { source: "api/openai-completions.js", what: "DeepSeek balance (402)", text: openai(402, { message: "Insufficient Balance", type: "unknown_error" }), kind: "other" },
  {
    source: "api/azure-openai-responses.js",
    what: "Azure tokens per minute",
    text: openai(
      429,
      {
        code: "429",
        message: "Requests to the Responses Operation under Azure OpenAI API version 2025-04-01-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 2 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.",
      },
      "Azure OpenAI API error",
    ),
    kind: "limit",
    resumeInMs: 2000,
  },
  // ---- Google Gemini and Vertex ----
  { source: "api/google-generative-ai.js", what: "free tier quota (pi does not retry it either)", text: google(429, "RESOURCE_EXHAUSTED", GEMINI_FREE_TIER), kind: "quota" },
  {
    source: "api/google-vertex.js",
    what: "Vertex shared capacity",
    text: google(429, "RESOURCE_EXHAUSTED", "Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details."),
    kind: "limit",
  },
  {
    source: "api/google-generative-ai.js",
    what: "error chunk mid-stream (@google/genai)",
    text: `got status: RESOURCE_EXHAUSTED. ${google(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).")}`,
    kind: "limit",
  },
  { source: "api/google-generative-ai.js", what: "overloaded (503)", text: google(503, "UNAVAILABLE", "The model is overloaded. Please try again later."), kind: "other" },
  { source: "api/google-generative-ai.js", what: "bad key (400)", text: google(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key."), kind: "other" },
  // ---- Amazon Bedrock ----
  { source: "api/bedrock-converse-stream.js", what: "requests throttled", text: "Throttling error: Too many requests, please wait before trying again.", kind: "limit" },
  { source: "api/bedrock-converse-stream.js", what: "tokens throttled", text: "Throttling error: Too many tokens, please wait before trying again.", kind: "limit" },
  { source: "api/bedrock-converse-stream.js", what: "service unavailable", text: "Service unavailable: Bedrock is unable to process your request.", kind: "other" },
  { source: "api/bedrock-converse-stream.js", what: "validation", text: "Validation error: The model returned the following errors: Input is too long for requested model.", kind: "other" },
  // ---- Mistral ----
  {
    source: "api/mistral-conversations.js",
    what: "rate limited",
    text: `Mistral API error (429): ${JSON.stringify({ object: "error", message: "Rate limit exceeded", type: "rate_limited", param: null, code: "1300" })}`,
    kind: "limit",
  },
  { source: "api/mistral-conversations.js", what: "requests rate limit", text: `Mistral API error (429): {"message":"Requests rate limit exceeded"}`, kind: "limit" },
  { source: "api/mistral-conversations.js", what: "unauthorized", text: `Mistral API error (401): {"message":"Unauthorized","request_id":"abc"}`, kind: "other" },
  // ---- pi's own gateway protocol ----
  { source: "api/pi-messages.js", what: "too many requests with a code", text: "429 Too Many Requests: Rate limit exceeded (rate_limited)", kind: "limit" },
  { source: "api/pi-messages.js", what: "gateway error", text: "502 Bad Gateway: upstream failed", kind: "other" },
  // ---- not from a provider ----
  { source: "utils/retry.js", what: "network failure", text: "fetch failed: connect ECONNREFUSED 127.0.0.1:443", kind: "other" },
  { source: "api/openai-codex-responses.js", what: "aborted", text: "Request was aborted", kind: "other" },
];

test("each provider's real limit, quota and other texts are classified as pi 1.6.0 writes them", () => {
  for (const row of ROWS) {
    const got = classifyLimit(row.text, undefined);
    const label = `${row.source}: ${row.what}`;
    assert.equal(got.kind, row.kind, label);
    if (got.kind === "limit") assert.equal(got.resumeInMs, row.resumeInMs, label);
  }
});

test("the table covers every provider file that reports a limit", () => {
  const limitSources = new Set(ROWS.filter((row) => row.kind === "limit").map((row) => row.source));
  for (const source of [
    "api/anthropic-messages.js",
    "api/openai-codex-responses.js",
    "api/openai-responses.js",
    "api/openai-completions.js",
    "api/azure-openai-responses.js",
    "api/google-generative-ai.js",
    "api/google-vertex.js",
    "api/bedrock-converse-stream.js",
    "api/mistral-conversations.js",
    "api/pi-messages.js",
    "utils/provider-retry.js",
  ]) {
    assert.ok(limitSources.has(source), source);
  }
});

/** pi's own non-retryable list (utils/retry.js, NON_RETRYABLE_PROVIDER_LIMIT_ERROR_PATTERN), each in a 429. */
test("pi's non-retryable billing and quota texts win over a 429 and over the words usage limit", () => {
  const quota = [
    "GoUsageLimitError",
    "FreeUsageLimitError",
    "Monthly usage limit reached",
    "Your available balance is empty",
    "insufficient_quota",
    "You are out of budget",
    "quota exceeded for this key",
    "Please check your billing details",
    "billing_hard_limit_reached",
    "subscription_sharing_workplace_individual_usage_limit_exceeded",
  ];
  for (const words of quota) {
    assert.deepEqual(classifyLimit(`429 rate limit: usage limit reached. ${words}`, undefined), { kind: "quota" }, words);
    assert.deepEqual(classifyLimit(openai(429, { message: `usage limit: ${words}`, code: "rate_limit_exceeded" }), undefined), { kind: "quota" }, words);
  }
});

test("two entries of pi's list are limits that reset: the ChatGPT subscription's shared window and Z.ai's code 1308", () => {
  // pi does not retry them in seconds because they reset after hours: exactly what the loop waits for.
  assert.equal(classifyLimit(openai(429, { code: "subscription_sharing_usage_limit_exceeded", message: "x" }), undefined).kind, "limit");
  assert.equal(classifyLimit(openai(429, { code: "1308", message: "x" }), undefined).kind, "limit");
  assert.equal(classifyLimit(`429 {"error":{"code":1308,"message":"x"}}`, undefined).kind, "limit");
  // Z.ai's mainland endpoint words it in Chinese; relayed without its status only the code tells.
  assert.equal(classifyLimit(`{"error":{"code":"1308","message":"已达到 5 小时的使用上限。您的限额将在 2026-09-12 00:35:41 重置。"}}`, undefined).kind, "limit");
  // A 1308 that is part of a longer number, or not a 429 nor a code, is nothing.
  assert.equal(classifyLimit(openai(400, { code: "13080", message: "bad request" }), undefined).kind, "other");
});

// ---- the error's own words, not what it quotes ----

test("a limit's words quoted from the request are not a limit", () => {
  const quoted = [
    anthropic(400, "invalid_request_error", 'messages.0.content.0.text: text "fix the rate limit bug (429)" is too long'),
    anthropic(400, "invalid_request_error", "tool input `usage limit reached` is not valid JSON"),
    anthropic(400, "invalid_request_error", "unknown tool 'rate_limit_error'"),
    anthropic(400, "invalid_request_error", "file “Try again in ~5 min.txt” not found"),
    'Validation error: value "Too many requests, throttled" at messages.1 failed',
    '400 Bad request: field "429 rate limit" is invalid',
    openai(400, { message: 'Invalid value: "rate limit reached". Supported values are: "auto".', type: "invalid_request_error", code: null }),
  ];
  for (const text of quoted) assert.deepEqual(classifyLimit(text, undefined), { kind: "other" }, text);
});

test("an identifier that only contains rate_limit is not a limit; the words with a space or hyphen are", () => {
  assert.equal(classifyLimit("tool rate_limit_handler failed: exit code 1", undefined).kind, "other");
  assert.equal(classifyLimit("You have been rate-limited", undefined).kind, "limit");
  assert.equal(classifyLimit("Ratelimit exceeded. Please wait a moment before trying again.", undefined).kind, "limit");
});

test("an apostrophe inside a word does not hide the words after it", () => {
  assert.equal(classifyLimit("This request would exceed your account's rate limit. Please try again later.", undefined).kind, "limit");
  assert.equal(classifyLimit("You've hit the rate limit for the day's requests", undefined).kind, "limit");
});

test("a status counts only at the head of the text or in the body's own fields", () => {
  assert.equal(classifyLimit("Validation error: request 429 of batch failed", undefined).kind, "other");
  assert.equal(classifyLimit("Error: 429", undefined).kind, "other");
  assert.equal(classifyLimit("429", undefined).kind, "limit");
  assert.equal(classifyLimit(`{"error":{"code":"429","message":"x"}}`, undefined).kind, "other");
  assert.equal(classifyLimit(`{"error":{"code":429,"message":"x"}}`, undefined).kind, "limit");
  assert.equal(classifyLimit(`[{"error":{"code":429,"message":"x","status":"RESOURCE_EXHAUSTED"}}]`, undefined).kind, "limit");
});

// ---- the stated time ----

test("the stated wait counts from the error's time", () => {
  const erroredAt = Date.UTC(2026, 0, 5, 12, 0, 0);
  assert.deepEqual(classifyLimit("You have hit your ChatGPT usage limit (plus plan). Try again in ~37 min.", erroredAt), {
    kind: "limit",
    resumeInMs: 37 * MIN + ROUNDED_MINUTE_MARGIN_MS,
    resetAtMs: erroredAt + 37 * MIN + ROUNDED_MINUTE_MARGIN_MS,
  });
  assert.deepEqual(classifyLimit(anthropic(429, "rate_limit_error", ACCOUNT_LIMIT), erroredAt), { kind: "limit" });
});

test("an unknown or broken error time gives the wait without a moment", () => {
  for (const time of [undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.deepEqual(classifyLimit("Server requested 90s retry delay (max: 60s)", time), { kind: "limit", resumeInMs: 90_000 });
  }
});

test("two times in one text: the longer wins", () => {
  const text = `Server requested 120s retry delay (max: 60s). 429: {"message":"Rate limit reached. Please try again in 6m0s.","code":"rate_limit_exceeded"}`;
  assert.deepEqual(classifyLimit(text, undefined), { kind: "limit", resumeInMs: 6 * MIN });
  assert.equal(statedWaitMs("try again in 5 min, or retry in 2 hours"), 2 * 60 * MIN);
});

test("the max pi allows in the retry-delay prefix is not the wait", () => {
  assert.deepEqual(classifyLimit("Server requested 61s retry delay (max: 600s)", undefined), { kind: "limit", resumeInMs: 61_000 });
});

test("a huge stated wait is capped; one too long to read leaves the limit without a time", () => {
  assert.deepEqual(classifyLimit("You have hit your ChatGPT usage limit. Try again in ~99999999999 min.", undefined), { kind: "limit", resumeInMs: MAX_STATED_WAIT_MS });
  assert.deepEqual(classifyLimit("Server requested 999999999999s retry delay (max: 60s)", undefined), { kind: "limit", resumeInMs: MAX_STATED_WAIT_MS });
  assert.deepEqual(classifyLimit(`You have hit your ChatGPT usage limit. Try again in ~${"9".repeat(400)} min.`, undefined), { kind: "limit" });
  assert.deepEqual(classifyLimit("You have hit your ChatGPT usage limit. Try again in ~1e999 min.", undefined), { kind: "limit" });
});

test("units a limit text uses: ms, s, seconds, m, min, minutes, h, hours, and compound forms", () => {
  const cases: readonly [string, number][] = [
    ["please try again in 20ms", 20],
    ["please try again in 1.496s", 1496],
    ["please retry in 43.208877823s", 43_209],
    ["please retry after 30 seconds", 30_000],
    ["try again in 1h2m3s", 3_723_000],
    ["try again in 2 hours", 2 * 60 * MIN],
    ["try again in 5 minutes", 5 * MIN],
    ["Try again in ~3 min", 3 * MIN + ROUNDED_MINUTE_MARGIN_MS],
    ["Try again in ~ 3 min", 3 * MIN + ROUNDED_MINUTE_MARGIN_MS],
  ];
  for (const [text, ms] of cases) assert.equal(statedWaitMs(text), ms, text);
  for (const text of ["try again later", "try again in a moment", "retry in 5 parsecs", "try again in 5", "in 5 min"]) {
    assert.equal(statedWaitMs(text), undefined, text);
  }
});

test("a stated time inside a quoted passage is not read", () => {
  const text = anthropic(429, "rate_limit_error", 'Rate limited. The tool said "try again in 900 minutes".');
  assert.deepEqual(classifyLimit(text, undefined), { kind: "limit" });
});

// ---- bad input ----

test("anything but a text is other", () => {
  for (const value of [undefined, null, 429, true, {}, [], ["429 rate limit"], { errorMessage: "429" }, Symbol("429")]) {
    assert.deepEqual(classifyLimit(value, 0), { kind: "other" });
  }
  for (const text of ["", "   ", "\n\t"]) assert.deepEqual(classifyLimit(text, 0), { kind: "other" });
});

test("a body cut short is read field by field from its start", () => {
  const cut = `429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account's rate limit. Ple... [truncated 3000 chars]`;
  assert.equal(classifyLimit(cut, undefined).kind, "limit");
  const cutQuota = `400 {"error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the API... [truncated 12 chars]`;
  assert.equal(classifyLimit(cutQuota, undefined).kind, "quota");
  const cutQuoted = `400 {"error":{"type":"invalid_request_error","message":"text \\"rate limit\\" is too lo`;
  assert.equal(classifyLimit(cutQuoted, undefined).kind, "other");
});

test("braces that are not a JSON body leave the text as it is", () => {
  assert.equal(classifyLimit("You have hit your ChatGPT usage limit {plus}.", undefined).kind, "limit");
  assert.equal(classifyLimit("template {name} failed", undefined).kind, "other");
  assert.equal(classifyLimit(`429 {"a":`, undefined).kind, "limit");
});

test("only the first MAX_ERROR_CHARS characters are read", () => {
  const padding = "x".repeat(MAX_ERROR_CHARS);
  assert.equal(classifyLimit(`${padding} rate limit`, undefined).kind, "other");
  assert.equal(classifyLimit(`rate limit ${padding}`, undefined).kind, "limit");
});

test("hostile texts are read quickly", () => {
  const hostile = [
    `try again in ${"1".repeat(20_000)}`,
    `${"{\"".repeat(8000)}`,
    `${"\"".repeat(16_000)}`,
    `${"'a".repeat(8000)}`,
    `try again in ${"1s ".repeat(5000)}`,
    `[${"{\"error\":".repeat(2000)}`,
  ];
  for (const text of hostile) {
    const started = performance.now();
    classifyLimit(text, 0);
    assert.ok(performance.now() - started < 200, `${text.slice(0, 20)}… took too long`);
  }
});

// ---- each phrase and code on its own ----

test("a limit's own words alone, without a status or a code, are a limit", () => {
  const limits = [
    "Resource exhausted. Please try again later.",
    "Resource has been exhausted (e.g. check quota).",
    "Resources have been exhausted",
    "Try again in ~37 min.",
    "Try again in ~ 5 min.",
    "Server requested 1.25s retry delay",
    "Error Code too_many_requests: slow down",
    "Codex error: usage_limit_reached (plus plan)",
  ];
  for (const text of limits) assert.equal(classifyLimit(text, undefined).kind, "limit", text);
  assert.equal(statedWaitMs("Server requested 1.25s retry delay"), 1250);
});

test("quota exceeded is quota with or without a separator, and so is exceeding your quota without current", () => {
  for (const text of ["QuotaExceeded", "quota_exceeded", "quota-exceeded", "You exceeded your quota.", "You exceeded the quota for this project."]) {
    assert.deepEqual(classifyLimit(`429 ${text}`, undefined), { kind: "quota" }, text);
  }
});

test("a status is read after leading white space, and in a provider's prefix only at the head", () => {
  assert.equal(classifyLimit("  429  ", undefined).kind, "limit");
  assert.equal(classifyLimit(`Mistral API error (429): {"message":"Slow down"}`, undefined).kind, "limit");
  assert.equal(classifyLimit(`Azure OpenAI API error (429): {"error":{"message":"Please slow down."}}`, undefined).kind, "limit");
  assert.equal(classifyLimit("Error: tool call (429): failed", undefined).kind, "other");
  assert.equal(classifyLimit(`Mistral API error (4290): {"message":"Slow down"}`, undefined).kind, "other");
});

// ---- the body's fields ----

test("each of the body's type, code and status tells a limit on its own, at the error's level or the top", () => {
  assert.equal(classifyLimit(`{"error":{"status":"RESOURCE_EXHAUSTED","message":"Please slow down."}}`, undefined).kind, "limit");
  assert.equal(classifyLimit(`{"type":"rate_limited","message":"Please slow down."}`, undefined).kind, "limit");
  assert.equal(classifyLimit(`{"error":{"type":"rate_limit_error","message":"Please slow down."}}`, undefined).kind, "limit");
  assert.equal(classifyLimit(`{"code":"1308","message":"Please slow down."}`, undefined).kind, "limit");
});

test("a quota code wins over the other codes of the body", () => {
  const text = `{"error":{"type":"invalid_request_error","code":"insufficient_quota","message":"Request refused."}}`;
  assert.deepEqual(classifyLimit(text, undefined), { kind: "quota" });
});

test("a type or code longer than 200 characters is not read as a code", () => {
  const body = (code: string) => JSON.stringify({ error: { type: code, message: "Request refused." } });
  assert.deepEqual(classifyLimit(body(`${"x".repeat(193)}billing`), undefined), { kind: "quota" });
  assert.deepEqual(classifyLimit(body(`${"x".repeat(194)}billing`), undefined), { kind: "other" });
});

test("a Codex-style body with the message as a plain string in error is read", () => {
  assert.deepEqual(classifyLimit(`{"error":"You have hit your ChatGPT usage limit. Try again in ~5 min."}`, undefined), { kind: "limit", resumeInMs: 5 * MIN + ROUNDED_MINUTE_MARGIN_MS });
});

test("an error field that is null or a list is no holder of fields; the top level is read", () => {
  assert.equal(classifyLimit(`{"error":null,"message":"Rate limit exceeded"}`, undefined).kind, "limit");
  assert.equal(classifyLimit(`{"error":[{"message":"x"}],"type":"rate_limited"}`, undefined).kind, "limit");
  assert.equal(classifyLimit(`{"error":{"message":"x"},"type":"rate_limited"}`, undefined).kind, "limit");
});

test("each message of the body is read as its own line", () => {
  assert.deepEqual(classifyLimit(`{"error":{"message":"Rate limited"},"message":"Retry in 30s"}`, undefined), { kind: "limit", resumeInMs: 30_000 });
});

test("the words after a whole body are read, without what they quote", () => {
  const hint = "\nYou've reached your ChatGPT workspace's usage limit. Ask your workspace admin to increase it.";
  assert.deepEqual(classifyLimit(`OpenAI API error (403): {"error":{"message":"Usage limit exceeded.","code":"usage_limit_exceeded"}}${hint}`, undefined), { kind: "quota" });
  assert.deepEqual(classifyLimit(`[{"error":{"code":400,"message":"Request refused."}}]${hint}`, undefined), { kind: "quota" });
  assert.equal(classifyLimit(`{"message":"Request failed","code":"bad_request"} Rate limit reached for "gpt-4o"`, undefined).kind, "limit");
  assert.equal(classifyLimit(`{"error":{"message":"Request failed","code":"bad_request"}} see "rate limit" in the docs`, undefined).kind, "other");
});

test("a body laid out over several lines is read like a compact one", () => {
  const text = JSON.stringify({ error: { code: 400, message: "Resource has been exhausted (e.g. check quota).", status: "FAILED_PRECONDITION" } }, null, 2);
  assert.equal(classifyLimit(text, undefined).kind, "limit");
});

test("a body cut short is read by its first type, code, status and message, with any spacing", () => {
  const cut = (body: string) => classifyLimit(`${body}... [truncated 3000 chars]`, undefined);
  assert.equal(cut(`{"error":{"code":"1308","message":"已达到 5 小时的使用上限。您的限额将在`).kind, "limit");
  assert.equal(cut(`{"error":{"code":429,"message":"Please slow do`).kind, "limit");
  assert.equal(cut(`{"error":{"type":"rate_limit_error","message":"Please slow do`).kind, "limit");
  assert.equal(cut(`{"error":{"status":"RESOURCE_EXHAUSTED","message":"Please slow do`).kind, "limit");
  assert.equal(cut(`{"error":{"code":"bad","message":"Please slow do`).kind, "other");
  assert.deepEqual(cut(`{"error": {"code": "bad", "message" : "Rate limit reached for requests. Please try again in 20s. Use`), { kind: "limit", resumeInMs: 20_000 });
});

test("a cut body's message is unescaped before its quotes are removed: a quote never spans lines", () => {
  assert.equal(classifyLimit(`{"error":{"message":"a \\"b\\nRate limit reached\\nc\\" d`, undefined).kind, "limit");
  assert.equal(classifyLimit(`{"error":{"message":"tool \\"rate limit\\" failed`, undefined).kind, "other");
});

test("a field-like passage outside any body is not read as a field", () => {
  assert.equal(classifyLimit(`tool said "code": "1308"`, undefined).kind, "other");
  assert.equal(classifyLimit(`tool said "message": "rate limit" {"error":{"message":"bad`, undefined).kind, "other");
});

test("a quoted name followed by more words is removed too", () => {
  assert.equal(classifyLimit("unknown tool 'rate_limit_error' in the request", undefined).kind, "other");
  assert.equal(classifyLimit("unknown tool 'x' hit the rate limit", undefined).kind, "limit");
});

test("every spelling of a unit the wait phrase admits", () => {
  const cases: readonly [string, number][] = [
    ["try again in 20 milliseconds", 20],
    ["try again in 1 millisecond", 1],
    ["try again in 5 secs", 5000],
    ["try again in 1 sec", 1000],
    ["try again in 2 mins", 2 * MIN],
    ["try again in 2M", 2 * MIN],
    ["try again in 2 hrs", 2 * 60 * MIN],
    ["try again in 1 hr", 60 * MIN],
    ["try again in 1 hour", 60 * MIN],
    ["try again in 1H", 60 * MIN],
    ["try again in 0s", 0],
    ["retry after 3 MS", 3],
  ];
  for (const [text, ms] of cases) assert.equal(statedWaitMs(text), ms, text);
});
