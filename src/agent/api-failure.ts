// A coding CLI's failed call, read for what it says about the model API: a refused key (401, 403,
// authentication_error, "Invalid API key", "Please run /login") or another API error. Such a failure says
// nothing about the agent — every retry would fail the same way, each after the CLI's own minutes of retrying —
// so it becomes an api-* error (run/runner.ts ends the run agent-unavailable, resumable once fixed) with a
// one-line reason: the server's own message, never its raw JSON. Also the credentials check before a run's
// first call (checkAnthropicAccess), so a wrong key costs seconds, not minutes.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { terminalLine } from "../terminal-text.ts";

const AUTH =
  /\b(401|403)\b|authentication_error|permission_error|invalid (x-)?api[ -]?key|api key.*(invalid|not valid)|unauthori[sz]ed|please run \/login|oauth token.*(expired|revoked)|incorrect api key/i;
const API =
  /\bAPI Error\b|\b(429|5\d\d)\b.*error|overloaded_error|rate_limit_error|ECONNREFUSED|ENOTFOUND|Unable to connect to API|Connection error/i;

/** The most of a server's message a reason quotes. */
const REASON_CHARS = 240;

/**
 * One line from what the CLI said: the message inside any JSON it quoted ({"error": {"type", "message"}}), the
 * HTTP status before it, else the text's first non-empty line; control characters escaped, cut short.
 */
export function apiReason(text: string): string {
  const status = /\b([45]\d\d)\b/.exec(text)?.[1];
  const start = text.indexOf("{");
  let said: string | undefined;
  if (start >= 0) {
    for (let end = text.lastIndexOf("}"); end > start && said === undefined; end = text.lastIndexOf("}", end - 1)) {
      try {
        const json = JSON.parse(text.slice(start, end + 1)) as { error?: { type?: unknown; message?: unknown } | string };
        const e = json.error;
        said =
          typeof e === "string"
            ? e
            : [e?.type, e?.message].filter((x): x is string => typeof x === "string" && x !== "").join(": ") || undefined;
        break;
      } catch {
        // not JSON up to here: try a shorter span
      }
    }
  }
  const line =
    said ??
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ??
    "no message";
  const one = terminalLine((status && !line.includes(status) ? `${status} ${line}` : line).replace(/\s+/g, " "));
  return one.length > REASON_CHARS ? `${one.slice(0, REASON_CHARS - 1)}…` : one;
}

/** The api-* error a CLI's output shows, or null when it shows no model-API failure. */
export function apiFailure(cli: "claude" | "codex", text: string, keyHint: string): ProlongError | null {
  if (AUTH.test(text))
    return prolongError("api-key", `${cli}: the model API refused the credentials (${apiReason(text)})`, {
      fix: `${keyHint}, then \`prolong resume\` the run`,
    });
  if (API.test(text))
    return prolongError("api-status", `${cli}: the model API failed (${apiReason(text)})`, {
      fix: "check the API's status and your network, then `prolong resume` the run",
    });
  return null;
}

/** Where Claude Code's credentials come from when HOME is the run's own (no login saved there): the environment. */
const ANTHROPIC_CREDENTIALS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
] as const;

export const ANTHROPIC_KEY_HINT = "export a valid ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)";

/**
 * Before the first call: are there credentials, and does the API accept the key? A GET of /v1/models with the
 * key answers in a second; 401 or 403 is a refused key. Any other answer, or none (a proxy, a server without
 * that route), is left to the CLI: only a refusal is certain.
 */
export async function checkAnthropicAccess(
  env: Readonly<Record<string, string | undefined>> = process.env,
  timeoutMs = 15_000,
): Promise<Result<void, ProlongError>> {
  const given = ANTHROPIC_CREDENTIALS.filter((k) => (env[k] ?? "") !== "");
  if (given.length === 0)
    return err(
      prolongError(
        "api-key",
        "claude: no credentials: Claude Code runs with the run's own HOME, so only the environment's count",
        {
          fix: `${ANTHROPIC_KEY_HINT} (or CLAUDE_CODE_OAUTH_TOKEN from \`claude setup-token\`)`,
        },
      ),
    );
  const key = env["ANTHROPIC_API_KEY"];
  const token = env["ANTHROPIC_AUTH_TOKEN"];
  if (!key && !token) return ok(undefined);
  const base = (env["ANTHROPIC_BASE_URL"] || "https://api.anthropic.com").replace(/\/+$/, "");
  try {
    const r = await fetch(`${base}/v1/models`, {
      headers: {
        "anthropic-version": "2023-06-01",
        ...(key ? { "x-api-key": key } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = (await r.text()).slice(0, 4000);
    if (r.status === 401 || r.status === 403)
      return err(
        prolongError(
          "api-key",
          `claude: the model API at ${base} refused the credentials (${apiReason(`${r.status} ${text}`)})`,
          {
            fix: `${ANTHROPIC_KEY_HINT}, or set ANTHROPIC_BASE_URL to the API you mean`,
          },
        ),
      );
  } catch {
    // Unreachable from here (a proxy the CLI knows of, a firewall): the CLI's own call tells.
  }
  return ok(undefined);
}
