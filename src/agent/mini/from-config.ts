// The mini agent a run's settings describe, with every setting checked before the run starts: a model name,
// a key in the named variable, and a sandbox that can enforce --no-write where the command check cannot.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { RunConfig } from "../../config/run-config.ts";
import type { Agent } from "../agent.ts";
import { chooseSandbox } from "../sandbox.ts";
import { policyOf } from "../tool-ladder.ts";
import type { RetryPolicy } from "./chat-api.ts";
import { MINI_DEFAULTS, miniAgent } from "./mini.ts";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

export function miniFromConfig(
  config: RunConfig,
  deps: { env?: Readonly<Record<string, string | undefined>>; retry?: RetryPolicy } = {},
): Result<Agent, ProlongError> {
  const env = deps.env ?? process.env;
  const baseUrl = config.baseUrl ?? DEFAULT_BASE_URL;
  if (!config.model) {
    return err(
      prolongError("bad-config", "--agent mini needs --model: the model name the server serves", {
        fix: `e.g. --model qwen2.5-coder:7b for Ollama; GET ${baseUrl.replace(/\/+$/, "")}/models lists a server's models`,
      }),
    );
  }
  const keyEnv = config.apiKeyEnv ?? MINI_DEFAULTS.apiKeyEnv;
  const apiKey = env[keyEnv];
  if (apiKey === undefined || apiKey === "") {
    return err(
      prolongError("bad-config", `--agent mini reads the API key from $${keyEnv} (--api-key-env), which is not set`, {
        fix: `export ${keyEnv}=<your key> (a local server takes any value, e.g. ${keyEnv}=none), or name another variable with --api-key-env`,
      }),
    );
  }
  const policy = policyOf(config);
  const sandbox = chooseSandbox(config.sandbox, undefined, config.passEnv);
  if (sandbox.isErr()) return err(sandbox.error);
  // Python (and any program at level all) can write whatever a command check lets through: only the
  // sandbox's read-only workspace makes --no-write true there.
  if (sandbox.value.kind === "none" && policy.noWrite && (policy.level === "read,grep,python" || policy.level === "all")) {
    return err(
      prolongError(
        "bad-config",
        `--no-write with --tools ${policy.level} needs bubblewrap: a command check cannot stop ${policy.level === "all" ? "arbitrary programs" : "python"} from writing files`,
        {
          fix: "install bubblewrap (apt-get install bubblewrap) and pass --sandbox bwrap, or use --tools read or read,grep (checked per command)",
        },
      ),
    );
  }
  return ok({
    ...miniAgent({
      endpoint: { baseUrl, model: config.model, apiKey, apiKeyEnv: keyEnv },
      toolFormat: config.toolFormat ?? MINI_DEFAULTS.toolFormat,
      stepLimit: config.stepLimit ?? MINI_DEFAULTS.stepLimit,
      ...(config.contextLimit !== undefined ? { contextLimit: config.contextLimit } : {}),
      policy,
      timeoutSec: config.agentTimeoutSec,
      sandbox: sandbox.value,
      ...(deps.retry ? { retry: deps.retry } : {}),
    }),
    sandbox: sandbox.value.kind,
  });
}
