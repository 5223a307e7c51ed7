// `--agent claude`: Claude Code, headless. One session across all turns of a run: the first turn creates it
// with `--session-id <uuid>`, every later one (and every turn after `prolong resume`) continues it with
// `--resume`. HOME is fixed per workspace (agent-home/ beside it) so the session transcript persists.
// Output is `--output-format stream-json --verbose`: the same final `result` object as `json`, preceded by
// each message, which is where the tool calls are counted. Usage is per invocation.
import { randomUUID } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Agent, TokenUsage, TurnInput, TurnReply } from "./agent.ts";
import { agentHome, jsonLine, processFailure, readSessionRecord, runInGroup, tailOf, writeSessionRecord } from "./cli-process.ts";
import { ClaudeSteps } from "./claude-steps.ts";
import { OBSERVE_SERVER, OBSERVE_TOOL, observeServer } from "./observe-tool.ts";
import { ANTHROPIC_KEY_HINT, apiFailure, apiReason, checkAnthropicAccess } from "./api-failure.ts";
import { AGENT_PROCESSES } from "./rlimits.ts";
import { installDir, NO_SANDBOX, type Sandbox } from "./sandbox.ts";
import { type ToolTree, withDirs } from "./tool-tree.ts";
import { ALL_TOOLS, claudeToolArgs, isRestricted, type ToolPolicy } from "./tool-ladder.ts";

export interface ClaudeAgentOptions {
  /** The claude executable (findCli("claude")). */
  readonly bin: string;
  readonly timeoutSec: number;
  readonly model?: string;
  readonly effort?: string;
  readonly sandbox?: Sandbox;
  /** The tool ladder level (default all: CLAUDE_TOOLS). */
  readonly policy?: ToolPolicy;
  /**
   * A restricted level's tree (tool-tree.ts), the CLI itself in it: the sandbox then holds only the level's
   * programs, so what Claude Code's own flags let through can still start nothing else.
   */
  readonly tree?: ToolTree;
  /** --context-limit: Claude Code's auto-compact window (CLAUDE_CODE_AUTO_COMPACT_WINDOW). */
  readonly contextLimit?: number;
  /** --observe mcp: the observe tool, served by `prolong mcp-observe` through Claude Code's MCP configuration. */
  readonly observe?: boolean;
}

/** Claude Code raises an auto-compact window below this to it. */
export const CLAUDE_MIN_COMPACT_WINDOW = 100_000;

/** The tools the agent needs to read the log with code and write actions.json; anything else is denied. */
export const CLAUDE_TOOLS = "Bash,Read,Write,Edit,Glob,Grep";

const ResultSchema = v.object({
  type: v.literal("result"),
  subtype: v.string(),
  is_error: v.optional(v.boolean()),
  result: v.optional(v.string()),
  session_id: v.string(),
  usage: v.optional(
    v.object({
      input_tokens: v.optional(v.number()),
      cache_read_input_tokens: v.optional(v.number()),
      cache_creation_input_tokens: v.optional(v.number()),
      output_tokens: v.optional(v.number()),
    }),
  ),
  permission_denials: v.optional(v.array(v.object({ tool_name: v.string() }))),
});
type ClaudeResult = v.InferOutput<typeof ResultSchema>;

/** Claude Code's name for the observe tool of the MCP server prolong configures. */
export const CLAUDE_OBSERVE_TOOL = `mcp__${OBSERVE_SERVER}__${OBSERVE_TOOL.name}`;

/** The tool arguments with the observe tool allowed too, when the arm has it. */
function withObserve(args: string[], observe: boolean): string[] {
  if (!observe) return args;
  const at = args.indexOf("--allowedTools");
  if (at < 0 || args[at + 1] === undefined) return [...args, "--allowedTools", CLAUDE_OBSERVE_TOOL];
  return args.map((a, i) => (i === at + 1 ? `${a},${CLAUDE_OBSERVE_TOOL}` : a));
}

/** The tool arguments of a level: the historical fixed set at level all, the ladder's otherwise. */
export function claudeToolFlags(policy: ToolPolicy): string[] {
  return isRestricted(policy) ? claudeToolArgs(policy) : ["--allowedTools", CLAUDE_TOOLS];
}

export function claudeAgent(opts: ClaudeAgentOptions): Agent {
  const sandbox = opts.sandbox ?? NO_SANDBOX;
  const policy = opts.policy ?? ALL_TOOLS;
  return {
    name: "claude",
    checkAccess: () => checkAnthropicAccess(),
    async turn(input: TurnInput): Promise<Result<TurnReply, ProlongError>> {
      const saved = readSessionRecord(input.workspace);
      if (saved.isErr()) return err(saved.error);
      // An unconfirmed id (a first turn that died before Claude saved anything) is replaced, not resumed.
      const resume = saved.value?.backend === "claude" && saved.value.confirmed ? saved.value.sessionId : null;
      const sessionId = resume ?? randomUUID();
      if (!resume) {
        const wrote = writeSessionRecord(input.workspace, { backend: "claude", sessionId, confirmed: false });
        if (wrote.isErr()) return err(wrote.error);
      }

      const home = agentHome(input.workspace);
      const observe = opts.observe ? observeServer(input.workspace) : null;
      const argv = [
        opts.bin,
        // No prompt argument: -p reads it from stdin, so no argv limit (128 KiB a string) applies to it.
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        ...withObserve(claudeToolFlags(policy), observe !== null),
        ...(observe
          ? [
              "--mcp-config",
              JSON.stringify({ mcpServers: { [OBSERVE_SERVER]: { command: observe.argv[0], args: observe.argv.slice(1) } } }),
              "--strict-mcp-config",
            ]
          : []),
        ...(opts.model ? ["--model", opts.model] : []),
        ...(opts.effort ? ["--effort", opts.effort] : []),
        ...(resume ? ["--resume", resume] : ["--session-id", sessionId]),
      ];
      const toolUses = new Set<string>();
      const steps = new ClaudeSteps();
      let result: unknown = null;
      const outcome = await runInGroup({
        argv: sandbox.wrap(argv, {
          workspace: input.workspace,
          writable: [home],
          keep: [installDir(opts.bin), ...(observe?.keep ?? [])],
          // Where the level has a tree, the observe server's files are in it already; its observation joins it.
          ...(opts.tree ? { tree: withDirs(opts.tree, observe ? [observe.observationDir] : []) } : {}),
        }),
        cwd: input.workspace,
        stdin: input.prompt,
        timeoutSec: opts.timeoutSec,
        // A fork bomb ends in the agent's own processes (rlimits.ts), not in the harness.
        limits: { uid: sandbox.agentUid, processes: AGENT_PROCESSES },
        env: sandbox.environment({
          ...process.env,
          HOME: home,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: process.env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] ?? "1",
          DISABLE_AUTOUPDATER: "1",
          ...(opts.contextLimit !== undefined ? { CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(opts.contextLimit) } : {}),
        }),
        onStdoutLine: (line) => {
          const msg = jsonLine(line);
          if (msg?.["type"] === "result") result = msg;
          else if (msg?.["type"] === "assistant") for (const id of toolUseIds(msg)) toolUses.add(id);
          if (msg) steps.add(msg);
        },
      });
      const failure = processFailure("claude", outcome, opts.timeoutSec);
      const parsed = v.safeParse(ResultSchema, result);
      // A transcript that is gone (agent-home deleted) must not be resumed forever: the retry starts afresh.
      const lost = resume !== null && /no conversation found/i.test(outcome.stderrTail + outcome.stdoutTail);
      const recorded = lost
        ? writeSessionRecord(input.workspace, { backend: "claude", sessionId: resume, confirmed: false })
        : parsed.success
          ? writeSessionRecord(input.workspace, { backend: "claude", sessionId: parsed.output.session_id, confirmed: true })
          : ok(undefined);
      if (recorded.isErr()) return err(recorded.error);
      // A refused key or another API failure says nothing about the agent: named as such, in one line.
      const saidByResult =
        parsed.success && (parsed.output.is_error === true || failure !== null) ? (parsed.output.result ?? "") : "";
      const api =
        failure?.code === "agent-exit" || saidByResult !== ""
          ? apiFailure("claude", `${saidByResult}\n${outcome.stderrTail}`, ANTHROPIC_KEY_HINT)
          : null;
      if (api) return err(api);
      if (failure) return err(failure);
      if (!parsed.success) {
        return err(
          prolongError(
            "agent-output",
            `claude exited 0 but printed no JSON result line${tailOf(outcome.stdoutTail || outcome.stderrTail)}`,
            { fix: "run the same claude command by hand in the workspace to see what it prints" },
          ),
        );
      }
      const r = parsed.output;
      if (r.is_error === true || r.subtype !== "success") {
        return err(
          prolongError(
            "agent-error",
            `claude ended its turn with an error (${r.subtype})${r.result ? `: ${apiReason(r.result)}` : ""}`,
            { fix: "check the model API settings (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL) and --model" },
          ),
        );
      }
      const denied = r.permission_denials ?? [];
      // In a restricted arm a refusal is the arm working: the model was told and went on. Otherwise it fails the turn.
      if (denied.length > 0 && !isRestricted(policy)) {
        const tools = [...new Set(denied.map((d) => d.tool_name))].join(", ");
        return err(
          prolongError(
            "agent-denied",
            `claude was denied ${denied.length} tool call(s) (${tools}); the turn is treated as failed`,
            { fix: `the agent may use ${CLAUDE_TOOLS}; the instructions file says so` },
          ),
        );
      }
      return ok({
        text: r.result ?? "",
        toolCalls: toolUses.size,
        tokens: claudeTokens(r),
        wallMs: outcome.wallMs,
        exitCode: outcome.exitCode,
        steps: steps.steps(),
      });
    },
  };
}

/** input = uncached input + cache reads + cache creation (everything the model read); cached = cache reads. */
export function claudeTokens(r: Pick<ClaudeResult, "usage">): TokenUsage {
  const u = r.usage ?? {};
  const reads = u.cache_read_input_tokens ?? 0;
  return {
    input: (u.input_tokens ?? 0) + reads + (u.cache_creation_input_tokens ?? 0),
    cached: reads,
    output: u.output_tokens ?? 0,
  };
}

function toolUseIds(msg: Record<string, unknown>): string[] {
  const message = msg["message"] as { content?: unknown } | undefined;
  if (!message || !Array.isArray(message.content)) return [];
  return message.content
    .filter(
      (b): b is { type: string; id: string } =>
        typeof b === "object" && b !== null && (b as { type?: unknown }).type === "tool_use",
    )
    .map((b) => String(b.id));
}
