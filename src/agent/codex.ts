// `--agent codex`: Codex, headless (`codex exec --json`, stdin /dev/null). One thread across all turns of a
// run: the first turn starts it and its id (the first JSONL line) is saved; later turns, and turns after
// `prolong resume`, run `codex exec ... resume <thread_id> PROMPT`. CODEX_HOME is fixed per workspace
// (agent-home/codex beside it), seeded once with the user's config.toml so a configured model provider carries
// over (never auth.json: credentials come from the environment, e.g. CODEX_API_KEY). Codex reports usage
// summed over the thread; the figures after each turn are saved so each turn records its own delta.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { apiFailure } from "./api-failure.ts";
import { checkCodexAccess, codexConfigPath, codexKeyHint, codexProvider, providerKeys } from "./codex-provider.ts";
import type { Agent, TokenUsage, TurnInput, TurnReply } from "./agent.ts";
import { agentHome, jsonLine, processFailure, readSessionRecord, runInGroup, tailOf, writeSessionRecord } from "./cli-process.ts";
import { CodexSteps } from "./codex-steps.ts";
import { OBSERVE_SERVER, observeServer } from "./observe-tool.ts";
import { AGENT_PROCESSES } from "./rlimits.ts";
import { installDir, NO_SANDBOX, type Sandbox } from "./sandbox.ts";

export interface CodexAgentOptions {
  /** The codex executable (findCli("codex")). */
  readonly bin: string;
  readonly timeoutSec: number;
  readonly model?: string;
  readonly effort?: string;
  readonly sandbox?: Sandbox;
  /** --context-limit: Codex's own auto-compaction threshold (model_auto_compact_token_limit). */
  readonly contextLimit?: number;
  /** --observe mcp: the observe tool, served by `prolong mcp-observe` through Codex's mcp_servers setting. */
  readonly observe?: boolean;
  /** Where the user's config.toml is read from; default $CODEX_HOME or ~/.codex. */
  readonly userCodexHome?: string;
}

const UsageSchema = v.object({
  input_tokens: v.optional(v.number(), 0),
  cached_input_tokens: v.optional(v.number(), 0),
  output_tokens: v.optional(v.number(), 0),
});

/** Item kinds that are the model talking or thinking, not acting; every other completed item is a tool call. */
const NOT_TOOL_CALLS = new Set(["agent_message", "reasoning", "error", "todo_list"]);

export function codexAgent(opts: CodexAgentOptions): Agent {
  const sandbox = opts.sandbox ?? NO_SANDBOX;
  // Read when used, not when the agent is made: the environment of the call is the one that counts.
  const userHome = () => opts.userCodexHome ?? process.env["CODEX_HOME"] ?? join(homedir(), ".codex");
  // Named before the first call (play prints it): Codex retries an unreachable server for a long while.
  const provider = codexProvider(userHome());
  return {
    name: "codex",
    ...(provider.isOk() && provider.value.baseUrl !== null
      ? { server: `${provider.value.baseUrl} (codex, model provider "${provider.value.id}")` }
      : {}),
    checkAccess: () => checkCodexAccess(userHome()),
    async turn(input: TurnInput): Promise<Result<TurnReply, ProlongError>> {
      const userCodexHome = userHome();
      const saved = readSessionRecord(input.workspace);
      if (saved.isErr()) return err(saved.error);
      const record = saved.value?.backend === "codex" && saved.value.confirmed ? saved.value : null;
      const home = agentHome(input.workspace);
      const codexHome = seedCodexHome(home, userCodexHome);
      const observe = opts.observe ? observeServer(input.workspace) : null;
      const argv = [
        opts.bin,
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "-c",
        "analytics.enabled=false",
        "-c",
        "check_for_update_on_startup=false",
        "--disable",
        "plugins",
        ...(opts.model ? ["-m", opts.model] : []),
        ...(opts.effort ? ["-c", `model_reasoning_effort=${JSON.stringify(opts.effort)}`] : []),
        ...(opts.contextLimit !== undefined ? ["-c", `model_auto_compact_token_limit=${opts.contextLimit}`] : []),
        // TOML takes a JSON string as a basic string: the paths and flags need no other quoting.
        ...(observe
          ? [
              "-c",
              `mcp_servers.${OBSERVE_SERVER}.command=${JSON.stringify(observe.argv[0])}`,
              "-c",
              `mcp_servers.${OBSERVE_SERVER}.args=[${observe.argv
                .slice(1)
                .map((a) => JSON.stringify(a))
                .join(",")}]`,
            ]
          : []),
        ...(record ? ["resume", record.sessionId] : []),
        // "-": the prompt on stdin (exec and exec resume), so no argv limit (128 KiB a string) applies to it.
        "-",
      ];
      const seen = new TurnEvents();
      const steps = new CodexSteps();
      const outcome = await runInGroup({
        argv: sandbox.wrap(argv, {
          workspace: input.workspace,
          writable: [home],
          keep: [installDir(opts.bin), ...(observe?.keep ?? [])],
        }),
        cwd: input.workspace,
        stdin: input.prompt,
        timeoutSec: opts.timeoutSec,
        // A fork bomb ends in the agent's own processes (rlimits.ts), not in the harness.
        limits: { uid: sandbox.agentUid, processes: AGENT_PROCESSES },
        env: { ...sandbox.environment({ ...process.env, HOME: home, CODEX_HOME: codexHome }), ...providerKeys(userCodexHome) },
        onStdoutLine: (line) => {
          const msg = jsonLine(line);
          if (msg) steps.add(msg);
          seen.add(msg);
        },
      });
      const cumulative = seen.cumulative ?? record?.cumulative;
      const id = seen.threadId ?? record?.sessionId;
      if (id !== undefined) {
        const wrote = writeSessionRecord(input.workspace, {
          backend: "codex",
          sessionId: id,
          confirmed: true,
          ...(cumulative ? { cumulative } : {}),
        });
        if (wrote.isErr()) return err(wrote.error);
      }
      const failure = processFailure("codex", outcome, opts.timeoutSec);
      // A refused key or another API failure says nothing about the agent: named as such, in one line.
      const api =
        failure?.code === "agent-exit" || seen.failed !== null
          ? apiFailure("codex", `${seen.failed ?? ""}\n${seen.lastError}\n${outcome.stderrTail}`, codexKeyHint(userCodexHome))
          : null;
      if (api) return err(api);
      if (failure) return err(failure);
      if (seen.failed !== null)
        return err(
          prolongError("agent-error", `codex reported a failed turn: ${seen.failed}`, {
            fix: "check the model provider settings (CODEX_API_KEY, config.toml) and --model",
          }),
        );
      if (seen.cumulative === null) {
        return err(
          prolongError(
            "agent-output",
            `codex exited 0 but printed no turn.completed line${tailOf(seen.lastError || outcome.stdoutTail || outcome.stderrTail)}`,
            { fix: "run the same codex exec command by hand in the workspace to see what it prints" },
          ),
        );
      }
      return ok({
        text: seen.text,
        toolCalls: seen.toolCalls,
        tokens: usageDelta(seen.cumulative, record?.cumulative),
        wallMs: outcome.wallMs,
        exitCode: outcome.exitCode,
        steps: steps.steps(),
      });
    },
  };
}

/** What one `codex exec --json` run reported, line by line. */
class TurnEvents {
  threadId: string | undefined;
  text = "";
  toolCalls = 0;
  /** The thread's running usage totals after this turn. */
  cumulative: TokenUsage | null = null;
  failed: string | null = null;
  lastError = "";

  add(msg: Record<string, unknown> | null): void {
    if (!msg) return;
    const type = msg["type"];
    if (type === "thread.started" && typeof msg["thread_id"] === "string") this.threadId = msg["thread_id"];
    else if (type === "item.completed") {
      const item = msg["item"] as { type?: unknown; text?: unknown } | undefined;
      if (item?.type === "agent_message" && typeof item.text === "string") this.text = item.text;
      else if (typeof item?.type === "string" && !NOT_TOOL_CALLS.has(item.type)) this.toolCalls += 1;
    } else if (type === "turn.completed") {
      const u = v.safeParse(UsageSchema, msg["usage"]);
      if (u.success)
        this.cumulative = { input: u.output.input_tokens, cached: u.output.cached_input_tokens, output: u.output.output_tokens };
    } else if (type === "turn.failed") {
      this.failed = String((msg["error"] as { message?: unknown } | undefined)?.message ?? "unknown error");
    } else if (type === "error" && typeof msg["message"] === "string") this.lastError = msg["message"];
  }
}

/** This turn's tokens from the thread's running totals. A total that went down means a new thread: take it whole. */
export function usageDelta(now: TokenUsage, before: TokenUsage | undefined): TokenUsage {
  if (!before || now.input < before.input || now.output < before.output || now.cached < before.cached) return now;
  return { input: now.input - before.input, cached: now.cached - before.cached, output: now.output - before.output };
}

/** CODEX_HOME for this workspace, created on first use with a copy of the user's config.toml if there is one. */
function seedCodexHome(home: string, userCodexHome: string): string {
  const dir = join(home, "codex");
  if (existsSync(dir)) return dir;
  mkdirSync(dir, { recursive: true });
  const config = codexConfigPath(userCodexHome);
  if (existsSync(config)) copyFileSync(config, join(dir, "config.toml"));
  return dir;
}
