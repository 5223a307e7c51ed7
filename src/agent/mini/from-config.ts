// The mini agent a run's settings describe, with every setting checked before the run starts: a model name,
// a key in the named variable, and a sandbox for any restricted tool level (what exists there is the level).
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { RunConfig } from "../../config/run-config.ts";
import type { Agent } from "../agent.ts";
import { sandboxBinds } from "../cmd-paths.ts";
import { chooseSandbox } from "../sandbox.ts";
import { isRestricted, levelNeedsSandbox, policyOf } from "../tool-ladder.ts";
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
  const sandbox = chooseSandbox(config.sandbox, undefined, config.passEnv, sandboxBinds(config));
  if (sandbox.isErr()) return err(sandbox.error);
  // A restricted level is what exists in the sandbox (tool-tree.ts); without one nothing could hold it:
  // the command check is only an early message, and a shell has many ways to run any program.
  if (sandbox.value.kind === "none" && isRestricted(policy)) return err(levelNeedsSandbox(policy));
  if (config.observe && config.toolFormat === "text")
    return err(
      prolongError("bad-config", "--observe mcp gives the mini agent a second tool, and --tool-format text has none", {
        fix: "drop --tool-format text (the observe tool needs tool calls), or drop --observe",
      }),
    );
  const tree = sandbox.value.treeFor(policy);
  if (tree.isErr()) return err(tree.error);
  return ok({
    ...miniAgent({
      endpoint: { baseUrl, model: config.model, apiKey, apiKeyEnv: keyEnv },
      toolFormat: config.toolFormat ?? MINI_DEFAULTS.toolFormat,
      stepLimit: config.stepLimit ?? MINI_DEFAULTS.stepLimit,
      ...(config.contextLimit !== undefined ? { contextLimit: config.contextLimit } : {}),
      policy,
      ...(config.observe === "mcp" ? { observe: true } : {}),
      timeoutSec: config.agentTimeoutSec,
      sandbox: sandbox.value,
      ...(tree.value ? { tree: tree.value } : {}),
      ...(deps.retry ? { retry: deps.retry } : {}),
    }),
    sandbox: sandbox.value.kind,
  });
}
