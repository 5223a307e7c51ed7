// Which model API Codex will call, read from the user's config.toml the way Codex reads it (the selected
// profile's `model_provider`, else the top-level one, else the built-in "openai"; a custom provider's
// `base_url`, `env_key`, headers and query parameters), and the credentials check before a run's first call:
// the provider's key tried with one GET of <base_url>/models. A refusal (401/403) ends the run
// agent-unavailable in seconds, where Codex would retry for minutes on every call. Read from the user's file,
// never the run's copy in agent-home/, which the agent can rewrite to send the key anywhere.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { apiReason } from "./api-failure.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** Far above any real config.toml (MCP servers, profiles, notes), far below harm. */
const CONFIG_CAP = 1 << 20;

const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** Codex's built-in providers that need no key of ours (local servers, AWS's own credential chain). */
const KEYLESS_BUILT_INS = new Set(["oss", "ollama", "lmstudio", "amazon-bedrock"]);
/** The built-in provider's keys, in the order Codex prefers them (no auth.json reaches a run). */
const OPENAI_KEYS = ["CODEX_API_KEY", "OPENAI_API_KEY"] as const;

const Strings = v.record(v.string(), v.string());
const ProviderSchema = v.looseObject({
  base_url: v.optional(v.string()),
  env_key: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a variable name"))),
  requires_openai_auth: v.optional(v.boolean()),
  http_headers: v.optional(Strings),
  env_http_headers: v.optional(Strings),
  query_params: v.optional(Strings),
});
const ConfigSchema = v.looseObject({
  model_provider: v.optional(v.string()),
  profile: v.optional(v.string()),
  profiles: v.optional(v.record(v.string(), v.looseObject({ model_provider: v.optional(v.string()) }))),
  model_providers: v.optional(v.record(v.string(), ProviderSchema)),
});
type CodexConfig = v.InferOutput<typeof ConfigSchema>;

/** The model API Codex will call and how it authenticates, as far as a check needs it. */
export interface CodexProvider {
  readonly id: string;
  /** Where the provider came from: the config file, or "the built-in default" when none selects one. */
  readonly source: string;
  /** null: a built-in provider that needs no key of ours; nothing to check. */
  readonly baseUrl: string | null;
  readonly headers: Record<string, string>;
  readonly query: Record<string, string>;
  /** The variable the key came from, for messages; undefined when the provider takes none. */
  readonly keyVar?: string;
}

export function codexConfigPath(userCodexHome: string): string {
  return join(userCodexHome, "config.toml");
}

/** The user's config.toml, parsed and checked; null when there is none. */
export function readCodexConfig(path: string): Result<CodexConfig | null, ProlongError> {
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile())
      return err(
        prolongError("codex-config", "Codex's config.toml is not a regular file", { path, fix: "make it a file, or remove it" }),
      );
    if (st.size > CONFIG_CAP)
      return err(
        prolongError("codex-config", `Codex's config.toml holds ${st.size} bytes, more than the ${CONFIG_CAP} prolong reads`, {
          path,
          fix: "trim it to the settings Codex needs",
        }),
      );
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return ok(null);
    return err(prolongError("codex-config", `cannot read Codex's config.toml: ${(e as Error).message}`, { path }));
  }
  let parsed: unknown;
  try {
    parsed = Bun.TOML.parse(text);
  } catch (e) {
    return err(
      prolongError("codex-config", `Codex's config.toml is not valid TOML (${(e as Error).message})`, {
        path,
        fix: "correct the TOML there (Codex itself would refuse the file too)",
      }),
    );
  }
  const checked = v.safeParse(ConfigSchema, parsed);
  if (!checked.success) {
    const issue = checked.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join(".") ?? "the file";
    return err(
      prolongError("codex-config", `Codex's config.toml has ${where} of the wrong shape (${issue.message})`, {
        path,
        fix: "give it the shape Codex's documentation shows (strings for URLs, names and headers)",
      }),
    );
  }
  return ok(checked.output);
}

/** The provider Codex will use with this config and environment, or why it cannot be used. */
export function codexProvider(userCodexHome: string, env: Env = process.env): Result<CodexProvider, ProlongError> {
  const path = codexConfigPath(userCodexHome);
  return readCodexConfig(path).andThen((config) => providerOf(config, path, env));
}

function providerOf(config: CodexConfig | null, path: string, env: Env): Result<CodexProvider, ProlongError> {
  const profile = config?.profile;
  if (profile !== undefined && config?.profiles?.[profile] === undefined)
    return err(
      prolongError("codex-config", `Codex's config.toml selects profile "${profile}" but defines no [profiles.${profile}]`, {
        path,
        fix: `add a [profiles.${profile}] table, or remove the profile line`,
      }),
    );
  const chosen = (profile !== undefined ? config?.profiles?.[profile]?.model_provider : undefined) ?? config?.model_provider;
  const id = chosen ?? "openai";
  const source = chosen === undefined ? "the built-in default" : path;
  if (id === "openai") return openaiProvider(path, source, env);
  if (KEYLESS_BUILT_INS.has(id) && config?.model_providers?.[id] === undefined)
    return ok({ id, source, baseUrl: null, headers: {}, query: {} });
  const p = config?.model_providers?.[id];
  if (p === undefined) {
    const defined = Object.keys(config?.model_providers ?? {});
    return err(
      prolongError("codex-config", `Codex's config.toml selects model_provider "${id}" but defines no [model_providers.${id}]`, {
        path,
        fix: `add a [model_providers.${id}] table with base_url and env_key, or set model_provider to ${
          defined.length > 0 ? defined.map((d) => `"${d}"`).join(", ") : '"openai"'
        }`,
      }),
    );
  }
  const headers: Record<string, string> = { ...p.http_headers };
  for (const [header, name] of Object.entries(p.env_http_headers ?? {})) {
    const value = env[name];
    if (value) headers[header] = value;
  }
  const base = { id, source, baseUrl: trimSlash(p.base_url ?? OPENAI_BASE_URL), headers, query: { ...p.query_params } };
  if (p.env_key !== undefined) {
    const key = env[p.env_key];
    if (!key)
      return err(
        prolongError("api-key", `codex: model provider "${id}" takes its key from $${p.env_key}, which is not set`, {
          path,
          fix: `export ${p.env_key}=<your key for ${base.baseUrl}>`,
        }),
      );
    return ok({ ...base, headers: { authorization: `Bearer ${key}`, ...headers }, keyVar: p.env_key });
  }
  if (p.requires_openai_auth) return openaiKey(base, path, env);
  return ok(base);
}

function openaiProvider(path: string, source: string, env: Env): Result<CodexProvider, ProlongError> {
  const baseUrl = trimSlash(env["OPENAI_BASE_URL"]?.trim() || OPENAI_BASE_URL);
  return openaiKey({ id: "openai", source, baseUrl, headers: {}, query: {} }, path, env);
}

/** The OpenAI key from the environment: a run's CODEX_HOME holds no auth.json, so no login carries over. */
function openaiKey(p: CodexProvider, path: string, env: Env): Result<CodexProvider, ProlongError> {
  const keyVar = OPENAI_KEYS.find((k) => (env[k] ?? "") !== "");
  if (keyVar === undefined)
    return err(
      prolongError(
        "api-key",
        `codex: no credentials for model provider "${p.id}" (from ${p.source}): Codex runs with the run's own CODEX_HOME, so \`codex login\` does not carry over`,
        {
          path,
          fix: `export CODEX_API_KEY (or OPENAI_API_KEY), or select a provider with base_url and env_key in ${path}`,
        },
      ),
    );
  return ok({ ...p, headers: { authorization: `Bearer ${env[keyVar]}`, ...p.headers }, keyVar });
}

/** What to fix when Codex's call is refused: the configured provider's own key variable when it has one. */
export function codexKeyHint(userCodexHome: string, env: Env = process.env): string {
  const p = codexProvider(userCodexHome, env);
  return p.isOk() && p.value.keyVar !== undefined
    ? `export a valid ${p.value.keyVar} for model provider "${p.value.id}" (from ${p.value.source}), or fix its base_url`
    : "export a valid CODEX_API_KEY (or OPENAI_API_KEY), or fix the provider in config.toml";
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * Before the first call: does Codex's provider have a key, and does it accept it? One GET of <base_url>/models
 * answers in a second; 401 or 403 is a refused key. Any other answer, or none (a proxy Codex knows of, a
 * server without that route), is left to Codex's own call: only a refusal is certain.
 */
export async function checkCodexAccess(
  userCodexHome: string,
  env: Env = process.env,
  timeoutMs = 15_000,
): Promise<Result<void, ProlongError>> {
  const found = codexProvider(userCodexHome, env);
  if (found.isErr()) return err(found.error);
  const p = found.value;
  if (p.baseUrl === null) return ok(undefined);
  const query = new URLSearchParams(p.query).toString();
  const url = `${p.baseUrl}/models${query ? `?${query}` : ""}`;
  try {
    const r = await fetch(url, { headers: p.headers, signal: AbortSignal.timeout(timeoutMs) });
    const text = (await r.text()).slice(0, 4000);
    if (r.status === 401 || r.status === 403)
      return err(
        prolongError(
          "api-key",
          `codex: the model API at ${p.baseUrl} refused the credentials (${apiReason(`${r.status} ${text}`)})`,
          {
            fix: codexKeyHint(userCodexHome, env),
          },
        ),
      );
  } catch {
    // Unreachable from here: Codex's own call names it.
  }
  return ok(undefined);
}

/**
 * The variables the user's config.toml names for its providers (`env_key`, `env_http_headers`), with their
 * values: a sandbox keeps only the coding CLIs' usual variables, and a configured provider's key must reach
 * Codex too. From the user's file, never the workspace's copy, which the agent can rewrite to name any
 * secret of the harness's environment. A config that cannot be read names none (the check before the first
 * call has said why).
 */
export function providerKeys(userCodexHome: string, env: Env = process.env): Record<string, string> {
  const config = readCodexConfig(codexConfigPath(userCodexHome));
  if (config.isErr() || config.value === null) return {};
  const keys: Record<string, string> = {};
  for (const p of Object.values(config.value.model_providers ?? {}))
    for (const name of [p.env_key, ...Object.values(p.env_http_headers ?? {})]) {
      const value = name === undefined ? undefined : env[name];
      if (name !== undefined && value !== undefined) keys[name] = value;
    }
  return keys;
}
