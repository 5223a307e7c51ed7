// One Chat Completions request (POST <base-url>/chat/completions) with the mini agent's rules: a deadline,
// retries with backoff on what is transient (no connection, 429, 5xx, a malformed or empty reply), and every
// reply through a valibot schema. Each failure names the setting to change (--base-url, --model,
// --api-key-env, --tool-format) and how. Not here: what the conversation holds (conversation.ts) or what
// is done with the reply (mini.ts).
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { TokenUsage } from "../agent.ts";

const ToolCallSchema = v.object({
  id: v.string(),
  type: v.optional(v.string()),
  function: v.object({ name: v.string(), arguments: v.optional(v.string(), "") }),
});

const MessageSchema = v.object({
  role: v.optional(v.string()),
  content: v.nullish(v.string()),
  tool_calls: v.nullish(v.array(ToolCallSchema)),
});

/** The most tokens one reply may report of a kind: more than any context window, far below where sums lose precision. */
export const MAX_REPLY_TOKENS = 100_000_000;

/** A token count: a whole number from 0 to MAX_REPLY_TOKENS (a negative or absurd count is a bad reply, retried). */
const TokenCount = v.nullish(
  v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(0), v.maxValue(MAX_REPLY_TOKENS)),
);

/** The most bytes of a reply read: a reply is JSON around at most a context window of text. */
export const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/** What prolong reads of a reply; servers add many more fields, which are ignored. */
export const ChatReplySchema = v.object({
  choices: v.array(v.object({ message: MessageSchema, finish_reason: v.nullish(v.string()) })),
  usage: v.nullish(
    v.object({
      prompt_tokens: TokenCount,
      completion_tokens: TokenCount,
      prompt_tokens_details: v.nullish(v.object({ cached_tokens: TokenCount })),
    }),
  ),
});
export type ChatReply = v.InferOutput<typeof ChatReplySchema>;
export type ChatToolCall = v.InferOutput<typeof ToolCallSchema>;

export interface ChatEndpoint {
  /** The API root, e.g. http://127.0.0.1:8080/v1 (the path /chat/completions is appended). */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string;
  /** The variable the key came from, for messages. */
  readonly apiKeyEnv: string;
}

export interface RetryPolicy {
  /** Attempts after the first one, for transient failures. */
  readonly retries: number;
  /** Waits before retry k (0-based) when the server gives no Retry-After: base × 2^k ms, capped. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Waits; replaceable so tests do not wait. */
  readonly sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

export interface ChatResult {
  readonly message: v.InferOutput<typeof MessageSchema>;
  readonly finishReason: string | null;
  readonly tokens: TokenUsage;
  /** Transient failures that were retried before this reply, as one line each (for the run's events). */
  readonly retried: readonly string[];
}

interface Attempt {
  readonly error: ProlongError;
  readonly transient: boolean;
  /** The server's Retry-After, in ms, when it sent one. */
  readonly retryAfterMs?: number;
}

/** Sends one request, retrying transient failures until `deadline` (a performance.now() time). */
export async function chatCompletion(
  endpoint: ChatEndpoint,
  body: Record<string, unknown>,
  deadline: number,
  policy: RetryPolicy = DEFAULT_RETRY,
): Promise<Result<ChatResult, ProlongError>> {
  const retried: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const once = await requestOnce(endpoint, body, deadline);
    if (once.isOk()) return ok({ ...once.value, retried });
    const a = once.error;
    const delay = Math.min(a.retryAfterMs ?? policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
    if (!a.transient || attempt >= policy.retries || performance.now() + delay >= deadline) {
      const tries = attempt + 1;
      return err(tries > 1 ? { ...a.error, message: `${a.error.message} (after ${tries} attempts)` } : a.error);
    }
    retried.push(a.error.message);
    await policy.sleep(delay);
  }
}

async function requestOnce(
  endpoint: ChatEndpoint,
  body: Record<string, unknown>,
  deadline: number,
): Promise<Result<Omit<ChatResult, "retried">, Attempt>> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const left = Math.max(1, Math.round(deadline - performance.now()));
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify({ ...body, model: endpoint.model }),
      signal: AbortSignal.timeout(left),
    });
    const capped = await readCapped(response, MAX_REPLY_BYTES);
    if (capped === null)
      return err({
        transient: true,
        error: prolongError("api-reply", `the reply from ${url} is larger than ${MAX_REPLY_BYTES} bytes; it was not read`, {
          fix: "check the server: a Chat Completions reply is at most a context window of text",
        }),
      });
    text = capped;
  } catch (e) {
    const name = (e as Error).name;
    if (name === "TimeoutError" || name === "AbortError") {
      return err({
        transient: false,
        error: prolongError(
          "api-timeout",
          `the model API at ${url} did not answer within the turn's time (${Math.round(left / 1000)}s left of --agent-timeout)`,
          { fix: "check that the server is up and not overloaded, or raise --agent-timeout for a slow local model" },
        ),
      });
    }
    return err({
      transient: true,
      error: prolongError("api-unreachable", `cannot reach the model API at ${url}: ${(e as Error).message}`, {
        fix: "start the server, or pass the API root that serves /chat/completions with --base-url (e.g. http://127.0.0.1:8080/v1)",
      }),
    });
  }
  if (!response.ok) return err(httpFailure(endpoint, url, response, text));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err({
      transient: true,
      error: prolongError("api-reply", `the model API at ${url} answered with something that is not JSON: ${snippet(text)}`, {
        fix: "is --base-url the API root of an OpenAI-compatible server (usually ending in /v1)?",
      }),
    });
  }
  const parsed = v.safeParse(ChatReplySchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = issue.path?.map((p) => String(p.key)).join(".") ?? "(reply)";
    return err({
      transient: true,
      error: prolongError("api-reply", `the reply from ${url} is not a Chat Completions response: ${field}: ${issue.message}`, {
        fix: "is --base-url an OpenAI-compatible Chat Completions API?",
      }),
    });
  }
  const choice = parsed.output.choices[0];
  if (!choice) {
    return err({
      transient: true,
      error: prolongError("api-reply", `the reply from ${url} held no choices`, {
        fix: "the server produced no completion; check its log, and that --model names a chat model it serves",
      }),
    });
  }
  const u = parsed.output.usage;
  const input = u?.prompt_tokens ?? 0;
  const tokens = {
    input,
    cached: Math.min(input, u?.prompt_tokens_details?.cached_tokens ?? 0),
    output: u?.completion_tokens ?? 0,
  };
  return ok({ message: choice.message, finishReason: choice.finish_reason ?? null, tokens });
}

/** The body as text, read in chunks and abandoned (null) past `max` bytes: a reply never costs more memory than that. */
async function readCapped(response: Response, max: number): Promise<string | null> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** An HTTP error status as a failure naming the setting it points at. */
function httpFailure(endpoint: ChatEndpoint, url: string, response: Response, text: string): Attempt {
  const status = response.status;
  const said = serverMessage(text);
  const where = `the model API at ${url} answered ${status}${said ? `: ${said}` : ""}`;
  if (status === 429 || status >= 500) {
    const retryAfter = Number(response.headers.get("retry-after"));
    return {
      transient: true,
      error: prolongError("api-busy", where, {
        fix: "the server is overloaded or rate-limiting; prolong retried with backoff. Wait, or lower --parallel",
      }),
      ...(Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has("retry-after")
        ? { retryAfterMs: retryAfter * 1000 }
        : {}),
    };
  }
  if (status === 401 || status === 403) {
    return {
      transient: false,
      error: prolongError("api-key", where, {
        fix: `put a key the server accepts in $${endpoint.apiKeyEnv}, or name the variable that holds it with --api-key-env`,
      }),
    };
  }
  if (status === 400 && /context|too long|too many tokens|maximum.*tokens|exceeds/i.test(said)) {
    return {
      transient: false,
      error: prolongError("api-context", `${where} — the conversation no longer fits the model's context`, {
        fix: "pass --context-limit N with N below the server's context window (older command outputs are then dropped), or give the server a larger window",
      }),
    };
  }
  if (/model/i.test(said) || (status === 404 && /model/i.test(text))) {
    return {
      transient: false,
      error: prolongError(
        "api-model",
        `the server refused the model "${endpoint.model}" (--model): ${said || `status ${status}`}`,
        {
          fix: "pass a model name the server serves with --model (GET <base-url>/models lists them; for Ollama, `ollama pull` it first)",
        },
      ),
    };
  }
  if (status === 404) {
    return {
      transient: false,
      error: prolongError("api-url", `${where} — there is no Chat Completions API at this address`, {
        fix: "pass the API root with --base-url, usually ending in /v1 (prolong appends /chat/completions)",
      }),
    };
  }
  if (status === 400 && /tool/i.test(said)) {
    return {
      transient: false,
      error: prolongError("api-tools", where, {
        fix: "the server does not accept tool definitions: pass --tool-format text (commands in fenced ```bash blocks)",
      }),
    };
  }
  return {
    transient: false,
    error: prolongError("api-status", where, { fix: "check --base-url, --model and the server's log" }),
  };
}

/** The error text an OpenAI-style server put in its body ({error: {message}} or {error: "..."}), short. */
function serverMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = j.error;
    if (typeof e === "string") return snippet(e);
    if (typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string")
      return snippet((e as { message: string }).message);
    if (typeof j.message === "string") return snippet(j.message);
    if (typeof j.detail === "string") return snippet(j.detail);
  } catch {
    // not JSON: show the text itself
  }
  return snippet(text);
}

function snippet(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}

/**
 * Before a run's first call: does the server accept the key? A GET of <base-url>/models answers in a moment;
 * 401 or 403 is a refused key. Anything else (a server without that route, one unreachable now) is left to the
 * calls themselves, which say what they find.
 */
export async function checkChatAccess(endpoint: ChatEndpoint, timeoutMs = 15_000): Promise<Result<void, ProlongError>> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}/models`;
  try {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${endpoint.apiKey}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = (await response.text()).slice(0, 4000);
    if (response.status === 401 || response.status === 403) return err(httpFailure(endpoint, url, response, text).error);
  } catch {
    // unreachable now: the first call retries and names it
  }
  return ok(undefined);
}
