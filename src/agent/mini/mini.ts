// `--agent mini`: a minimal coding agent inside prolong, in the spirit of mini-swe-agent, for any model behind
// an OpenAI-compatible Chat Completions API (llama.cpp's server, vLLM, Ollama, LM Studio, hosted endpoints).
// Per turn: the turn prompt joins the run's one conversation; the model asks for bash commands (tool calls,
// or fenced ```bash blocks with --tool-format text); each command is checked against the tool level, run in
// the workspace under the run's sandbox, and its output (cut to a set size, the cut said) goes back. The turn
// ends when the model replies without a command, when actions.json exists after a command, or at
// --step-limit replies.
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import { NO_TOKENS, type Agent, type TokenUsage, type TurnInput, type TurnReply } from "../agent.ts";
import { agentHome, runInGroup } from "../cli-process.ts";
import { AGENT_PROCESSES, COMMAND_MEMORY_BYTES } from "../rlimits.ts";
import { NO_SANDBOX, type Sandbox } from "../sandbox.ts";
import { describePolicy, writesAllowed, type ToolPolicy } from "../tool-ladder.ts";
import {
  chatCompletion,
  checkChatAccess,
  DEFAULT_RETRY,
  type ChatEndpoint,
  type ChatToolCall,
  type RetryPolicy,
} from "./chat-api.ts";
import {
  apiMessages,
  closeDanglingCalls,
  conversationChars,
  fitContext,
  readConversation,
  writeConversation,
  type Conversation,
} from "./conversation.ts";
import { WorkspaceDir } from "../../workspace/dir.ts";
import { checkCommand } from "./shell-check.ts";
import { OBSERVE_TOOL, observationFileOf, readObservation } from "../observe-tool.ts";
import { TOOL_DIR, type ToolTree } from "../tool-tree.ts";
import { cutText, OUTPUT_CHARS, toolStep, type StepReport } from "../../run-files/trajectory.ts";
import { TOOL_FORMATS } from "../../config/run-config.ts";

// The formats are a setting of the run (config/run-config.ts).
export { TOOL_FORMATS };
export type ToolFormat = (typeof TOOL_FORMATS)[number];

export interface MiniAgentOptions {
  /** --observe mcp: the observe tool is offered beside bash (tool calls only). */
  readonly observe?: boolean;
  readonly endpoint: ChatEndpoint;
  readonly toolFormat: ToolFormat;
  /** Most model replies in one turn. */
  readonly stepLimit: number;
  /** Tokens; past it the oldest command outputs are dropped. */
  readonly contextLimit?: number;
  readonly policy: ToolPolicy;
  /** The whole turn's time (--agent-timeout). */
  readonly timeoutSec: number;
  readonly sandbox?: Sandbox;
  /** A restricted level's tree (tool-tree.ts): each command runs where only the level's programs exist. */
  readonly tree?: ToolTree;
  readonly retry?: RetryPolicy;
  /** One command's time, within the turn's. */
  readonly commandTimeoutSec?: number;
  /** Characters of one command's output the model sees. */
  readonly outputLimit?: number;
}

export const MINI_DEFAULTS = {
  stepLimit: 30,
  commandTimeoutSec: 120,
  outputLimit: 10_000,
  apiKeyEnv: "OPENAI_API_KEY",
  toolFormat: "tools",
} as const;

/** The instructions file the harness wrote into the workspace before the first turn (read then, capped). */
const INSTRUCTIONS_FILE = "AGENTS.md";
const INSTRUCTIONS_CAP = 64 * 1024;
/** Steps in a row whose every tool call had unusable arguments before the turn fails. */
const BAD_CALLS_IN_A_ROW = 3;
/**
 * What one turn may cost, whatever the model sends: commands per reply, a command's length, a reply's text
 * (it becomes the [PLAN] of each action of the batch), and the output one command may produce before it is
 * killed (what the model hears of it is outputLimit characters). So a turn's output to the model is at most
 * stepLimit × MAX_COMMANDS_PER_REPLY × outputLimit characters.
 */
export const MINI_BOUNDS = {
  commandsPerReply: 16,
  commandBytes: 128 * 1024,
  answerChars: 64 * 1024,
  commandOutputChars: 16 * 1024 * 1024,
} as const;

/** The --observe arm's second tool, beside bash. */
const OBSERVE_FUNCTION = {
  type: "function",
  function: { name: OBSERVE_TOOL.name, description: OBSERVE_TOOL.description, parameters: { type: "object", properties: {} } },
};

const BASH_TOOL = {
  type: "function",
  function: {
    name: "bash",
    description: "Run one bash command in the working directory and get its exit status and output.",
    parameters: {
      type: "object",
      properties: { command: { type: "string", description: "the command line, run with bash -c" } },
      required: ["command"],
    },
  },
};

export function miniAgent(opts: MiniAgentOptions): Agent {
  /** What the turn in progress has consumed; kept for the runner when the turn fails. */
  const meter = { tokens: NO_TOKENS };
  let failedTokens: TokenUsage | null = null;
  return {
    name: "mini",
    server: `${opts.endpoint.baseUrl} (model ${opts.endpoint.model})`,
    checkAccess: () => checkChatAccess(opts.endpoint),
    async turn(input: TurnInput): Promise<Result<TurnReply, ProlongError>> {
      meter.tokens = NO_TOKENS;
      const saved = readConversation(input.workspace);
      if (saved.isErr()) return err(saved.error);
      // Every look into the agent's directory goes through the held-descriptor primitive (no link followed).
      const held = WorkspaceDir.open(input.workspace);
      if (held.isErr()) return err(held.error);
      try {
        const r = await runTurn(opts, input, saved.value, held.value, meter);
        failedTokens = r.isErr() ? meter.tokens : null;
        return r;
      } finally {
        held.value.close();
      }
    },
    failedCallTokens() {
      const t = failedTokens ?? NO_TOKENS;
      failedTokens = null;
      return t;
    },
  };
}

async function runTurn(
  opts: MiniAgentOptions,
  input: TurnInput,
  previous: Conversation | null,
  ws: WorkspaceDir,
  meter: { tokens: TokenUsage },
): Promise<Result<TurnReply, ProlongError>> {
  const started = performance.now();
  const deadline = started + opts.timeoutSec * 1000;
  const sandbox = opts.sandbox ?? NO_SANDBOX;
  const outputLimit = opts.outputLimit ?? MINI_DEFAULTS.outputLimit;
  const c: Conversation = previous ?? {
    version: 1,
    messages: [{ role: "system", content: systemPrompt(opts, outputLimit, instructions(ws)) }],
    dropped: 0,
  };
  /** Saves the conversation; the error of a save that failed (a full disk), which ends the turn. */
  const save = (): ProlongError | null => {
    const wrote = writeConversation(input.workspace, c);
    return wrote.isErr() ? wrote.error : null;
  };
  closeDanglingCalls(c.messages);
  c.messages.push({ role: "user", content: input.prompt });
  const first = save();
  if (first) return err(first);

  let tokens: TokenUsage = { input: 0, cached: 0, output: 0 };
  let commands = 0;
  let badInARow = 0;
  let text = "";
  const steps: StepReport[] = [];
  const done = () => ok(reply_(text, commands, tokens, started, steps));
  const timedOut = () => {
    save();
    return err(
      prolongError("agent-timeout", `the mini agent's turn did not finish within ${opts.timeoutSec}s (its commands included)`, {
        fix: "raise --agent-timeout, or lower --step-limit",
      }),
    );
  };
  for (let step = 1; step <= opts.stepLimit; step++) {
    if (opts.contextLimit !== undefined) fitContext(c, opts.contextLimit);
    const sentChars = conversationChars(c.messages);
    const body = {
      messages: apiMessages(c.messages),
      ...(opts.toolFormat === "tools"
        ? { tools: opts.observe ? [BASH_TOOL, OBSERVE_FUNCTION] : [BASH_TOOL], tool_choice: "auto" }
        : {}),
    };
    const reply = await chatCompletion(opts.endpoint, body, deadline, opts.retry ?? DEFAULT_RETRY);
    if (reply.isErr()) {
      save();
      return err(reply.error);
    }
    const r = reply.value;
    tokens = {
      input: tokens.input + r.tokens.input,
      cached: tokens.cached + r.tokens.cached,
      output: tokens.output + r.tokens.output,
    };
    meter.tokens = tokens;
    if (r.tokens.input > 0) c.tokensPerChar = r.tokens.input / sentChars;
    const content = capText(r.message.content ?? "", MINI_BOUNDS.answerChars);
    if (content.trim() !== "") text = content;
    steps.push({ kind: "model", tokens: r.tokens, ...(content !== "" ? { text: cutText(content, OUTPUT_CHARS) } : {}) });
    const calls = opts.toolFormat === "tools" ? (r.message.tool_calls ?? []) : [];
    c.messages.push({
      role: "assistant",
      content: r.message.content == null ? null : content,
      ...(calls.length > 0 ? { tool_calls: calls.map(normalCall) } : {}),
    });
    const replied = save();
    if (replied) return err(replied);

    const asked: AskedCommand[] =
      opts.toolFormat === "tools"
        ? calls.map((call) => commandOfCall(call, opts.observe === true))
        : fencedCommands(content).map((command) => ({ command }));
    if (asked.length === 0) return done();
    badInARow = asked.every((a) => a.command === undefined && !a.observe) ? badInARow + 1 : 0;
    let answered = false;
    const outputs: string[] = [];
    for (const [k, a] of asked.entries()) {
      let out: string;
      if (answered) out = "not run: actions.json was written, so the turn ended";
      else if (a.observe) {
        // The second tool of the --observe arm: what the harness wrote before the turn, read in-process.
        const started = performance.now();
        const read = readObservation(observationFileOf(ws.path));
        out = read.ok ? read.text : read.why;
        steps.push(
          toolStep({
            tool: "observe",
            act: "observe",
            input: "{}",
            output: out,
            error: !read.ok,
            ms: performance.now() - started,
          }),
        );
      } else if (a.command === undefined) out = a.problem ?? "unusable tool call";
      else if (k >= MINI_BOUNDS.commandsPerReply)
        out = `not run: at most ${MINI_BOUNDS.commandsPerReply} commands are run per reply`;
      else if (Buffer.byteLength(a.command) > MINI_BOUNDS.commandBytes)
        out = `not run: the command is ${Buffer.byteLength(a.command)} bytes, over the limit of ${MINI_BOUNDS.commandBytes}; write long programs in steps`;
      else {
        // The turn's deadline covers every command: none starts after it, and one running at it is killed.
        if (performance.now() >= deadline) return timedOut();
        commands++;
        const verdict = checkCommand(a.command, opts.policy);
        if (verdict.ok) {
          const ran = await runCommand(a.command, ws, deadline, opts, sandbox, outputLimit);
          out = ran.reply;
          steps.push(ran.step);
        } else {
          out = verdict.reason;
          steps.push(toolStep({ tool: "bash", act: "shell", input: a.command, output: out, error: true }));
        }
        answered = actionsWritten(ws);
      }
      if (opts.toolFormat === "tools") c.messages.push({ role: "tool", tool_call_id: calls[k]!.id, content: out });
      else outputs.push(asked.length > 1 ? `[command ${k + 1} of ${asked.length}]\n${out}` : out);
    }
    if (opts.toolFormat === "text") c.messages.push({ role: "user", content: outputs.join("\n\n"), output: true });
    const answeredSaved = save();
    if (answeredSaved) return err(answeredSaved);
    if (answered) return done();
    if (badInARow >= BAD_CALLS_IN_A_ROW) {
      return err(
        prolongError(
          "api-tool-args",
          `the model's tool calls had unusable arguments ${badInARow} times in a row (${asked[0]?.problem ?? ""})`,
          {
            fix: "the server's tool-call support may be broken for this model: pass --tool-format text (commands in fenced ```bash blocks)",
          },
        ),
      );
    }
    if (performance.now() >= deadline) return timedOut();
  }
  c.messages.push({ role: "user", content: `[the turn ended: --step-limit ${opts.stepLimit} replies reached]` });
  const last = save();
  return last ? err(last) : done();
}

function reply_(text: string, toolCalls: number, tokens: TokenUsage, started: number, steps: StepReport[]): TurnReply {
  return { text, toolCalls, tokens, wallMs: Math.round(performance.now() - started), exitCode: 0, steps };
}

function normalCall(c: ChatToolCall) {
  // Arguments too long to run are not kept either: the conversation is sent back with every request.
  const args =
    c.function.arguments.length > MINI_BOUNDS.commandBytes
      ? JSON.stringify({ command: `[not kept: ${c.function.arguments.length} characters of arguments]` })
      : c.function.arguments;
  return { id: c.id, type: "function" as const, function: { name: c.function.name.slice(0, 256), arguments: args } };
}

/** `text` cut to `max` characters, the cut said. */
function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… cut by the harness: ${text.length - max} more characters …]`;
}

/** The command of a tool call, or why there is none (the model hears the why). */
interface AskedCommand {
  readonly command?: string;
  readonly problem?: string;
  /** A call of the --observe arm's observe tool. */
  readonly observe?: true;
}

export function commandOfCall(c: ChatToolCall, observe = false): AskedCommand {
  if (observe && c.function.name === OBSERVE_TOOL.name) return { observe: true };
  if (c.function.name !== "bash")
    return { problem: `there is no tool "${c.function.name}"; the only tool is bash with {"command": "..."}` };
  let args: unknown;
  try {
    args = JSON.parse(c.function.arguments || "{}");
  } catch (e) {
    return { problem: `the arguments were not valid JSON (${(e as Error).message}); call bash with {"command": "..."}` };
  }
  const command = (args as { command?: unknown } | null)?.command;
  if (typeof command !== "string" || command.trim() === "")
    return { problem: 'the arguments need a "command" string: {"command": "..."}' };
  return { command };
}

/** The commands of a text-format reply: every fenced block tagged bash, sh or shell, in order. */
export function fencedCommands(content: string): string[] {
  const out: string[] = [];
  for (const m of content.matchAll(/```(?:bash|sh|shell)[ \t]*\r?\n([\s\S]*?)```/g)) {
    const body = m[1]!.trim();
    if (body !== "") out.push(body);
  }
  return out;
}

const ANSWER = "actions.json";

function actionsWritten(ws: WorkspaceDir): boolean {
  const e = ws.entry(ANSWER);
  return e.isOk() && e.value.kind === "file" && e.value.size > 0;
}

/** Runs one command with bash in the workspace, under the sandbox: what the model hears (a few lines) and its step. */
async function runCommand(
  command: string,
  ws: WorkspaceDir,
  deadline: number,
  opts: MiniAgentOptions,
  sandbox: Sandbox,
  limit: number,
): Promise<{ reply: string; step: StepReport }> {
  const workspace = ws.path;
  // Never past the turn's deadline (whole seconds would let 40 short commands overrun it by 40 s).
  const timeoutSec = Math.max(
    0.05,
    Math.min(opts.commandTimeoutSec ?? MINI_DEFAULTS.commandTimeoutSec, (deadline - performance.now()) / 1000),
  );
  const home = agentHome(workspace);
  // Where the level forbids writes, the sandbox mounts the workspace read-only but for actions.json, which
  // must exist to be bound: an empty one is put there and taken away again if the command left it empty.
  const readOnly = sandbox.kind === "bwrap" && !writesAllowed(opts.policy);
  const answer = join(workspace, ANSWER);
  if (readOnly) {
    // A regular file must stand there to be bound (whatever else stands there is replaced, never followed).
    const e = ws.entry(ANSWER);
    if (e.isErr() || e.value.kind !== "file") {
      const made = ws.replace(ANSWER, "");
      if (made.isErr()) {
        const reply = `not run: ${made.error.message}`;
        return { reply, step: toolStep({ tool: "bash", act: "shell", input: command, output: reply, error: true }) };
      }
    }
  }
  const env: Record<string, string | undefined> = sandbox.environment({
    ...process.env,
    HOME: home,
    PROLONG_WORKSPACE: workspace,
  });
  // The model's key is the harness's, not the agent's; nor are the other backends' credentials or anything
  // named like a secret (the commands need none of them).
  delete env[opts.endpoint.apiKeyEnv];
  for (const name of Object.keys(env))
    if (/^(ANTHROPIC|CLAUDE|OPENAI|CODEX)_|KEY|TOKEN|SECRET|PASSWORD/i.test(name)) delete env[name];
  // In a level's tree the programs are in TOOL_DIR alone, and the one locale there is C.UTF-8.
  if (opts.tree) Object.assign(env, { PATH: TOOL_DIR, LC_ALL: "C.UTF-8" });
  const head = new OutputHead(limit);
  const outcome = await runInGroup({
    argv: sandbox.wrap(["bash", "-c", command], {
      workspace,
      ...(readOnly ? { onlyWritableFiles: [answer] } : { writable: [home] }),
      ...(opts.tree ? { tree: opts.tree } : {}),
    }),
    cwd: workspace,
    stdin: null,
    timeoutSec,
    env,
    onStdoutLine: (line, dropped) => head.add(line, dropped),
    lineCap: limit,
    outputCap: MINI_BOUNDS.commandOutputChars,
    limits: { uid: sandbox.agentUid, processes: AGENT_PROCESSES, memoryBytes: COMMAND_MEMORY_BYTES },
  });
  if (readOnly && !actionsWritten(ws)) ws.remove(ANSWER);
  const status = outcome.outputCutAt
    ? `killed: its output passed ${MINI_BOUNDS.commandOutputChars} characters (the output limit of one command)`
    : outcome.timedOut
      ? `killed after ${Math.round(timeoutSec * 10) / 10}s (the time limit of one command, or the turn's end)`
      : outcome.spawnError
        ? `could not start: ${outcome.spawnError}`
        : `exit status ${outcome.exitCode}`;
  const reply = `${status}\n${cut(head, outcome.stdoutTail, outcome.stderrTail, limit)}`;
  const exit = outcome.timedOut || outcome.spawnError || outcome.outputCutAt ? null : outcome.exitCode;
  const step = toolStep({
    tool: "bash",
    act: "shell",
    input: command,
    output: outcome.stdoutTail,
    size: { bytes: outcome.stdoutBytes, lines: head.lineCount },
    exit,
    error: exit !== 0,
    ms: outcome.wallMs,
  });
  return { reply, step };
}

/** Counts stdout and keeps its first half-limit characters (the tail comes from the process runner). */
class OutputHead {
  text = "";
  total = 0;
  private lines = 0;
  get lineCount(): number {
    return this.lines;
  }
  constructor(private readonly limit: number) {}
  add(line: string, dropped: number): void {
    const piece = (this.lines > 0 ? "\n" : "") + line;
    this.lines++;
    this.total += piece.length + dropped;
    if (this.text.length < this.limit / 2) this.text += piece.slice(0, this.limit / 2 - this.text.length);
  }
}

/** stdout (head and tail when it is too long, the cut said) and stderr's tail, within about `limit` characters. */
function cut(head: OutputHead, stdoutTail: string, stderrTail: string, limit: number): string {
  const stdout = stdoutTail.endsWith("\n") ? stdoutTail.slice(0, -1) : stdoutTail;
  let out: string;
  if (head.total <= limit) out = stdout;
  else {
    const tail = stdout.slice(-Math.floor(limit / 2));
    out = `${head.text}\n[… output truncated by the harness: ${head.total - head.text.length - tail.length} of ${head.total} characters omitted …]\n${tail}`;
  }
  const err = stderrTail.trim();
  if (err === "") return out;
  const errCut =
    err.length > limit / 4
      ? `[… stderr truncated: the last ${Math.floor(limit / 4)} of ${err.length} characters …]\n${err.slice(-Math.floor(limit / 4))}`
      : err;
  return `${out}${out === "" ? "" : "\n"}[stderr]\n${errCut}`;
}

function instructions(ws: WorkspaceDir): string {
  const r = ws.read(INSTRUCTIONS_FILE, INSTRUCTIONS_CAP);
  return r.isOk() && r.value.kind === "read" ? new TextDecoder().decode(r.value.bytes) : "";
}

function systemPrompt(opts: MiniAgentOptions, limit: number, instructionsText: string): string {
  const how =
    opts.toolFormat === "tools"
      ? opts.observe
        ? 'You act through two tools: `bash`, called with {"command": "..."}, and `observe` (no arguments), which returns the current board and the last batch. A reply without a tool call ends your turn.'
        : 'You act through one tool, `bash`, called with {"command": "..."}. A reply without a tool call ends your turn.'
      : "You act by writing a bash command in a fenced block that starts with ```bash and ends with ```. Each such block in a reply is run, in order. A reply without one ends your turn.";
  const level =
    opts.policy.level === "all" && !opts.policy.noWrite
      ? "Any command may be used."
      : `Tool level ${describePolicy(opts.policy)}: a command outside it is refused (not run) and you are told why.`;
  return [
    "You are a coding agent working in one directory through bash commands.",
    how,
    `Each command runs in a fresh bash -c in this directory (only files carry over between commands). Output over ${limit} characters is cut in the middle, and the cut is said. ${level}`,
    "Your turn also ends as soon as actions.json exists after a command, so write your short briefing and the",
    `[PLAN] lines in the same reply as the command that writes actions.json. At most ${opts.stepLimit} replies per turn.`,
    "",
    instructionsText,
  ].join("\n");
}
