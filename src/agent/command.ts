// `--agent command --cmd '...'`: any program that reads the workspace and leaves actions.json. It runs through
// `sh -c` with the workspace as cwd (inside the sandbox when there is one), in its own process group so that a
// timeout kills everything it started. The prompt comes on stdin, and in $PROLONG_PROMPT too when it fits an
// environment variable (Linux caps one at 128 KiB, and none can hold a NUL: a prompt that does not fit must
// not make the call fail); its stdout is its answer (the [PLAN] text) and its one trajectory step; stderr is
// kept for error messages. It reports no tokens.
import { err, ok } from "neverthrow";
import { NO_TOKENS, type Agent, type TurnInput } from "./agent.ts";
import { processFailure, runInGroup } from "./cli-process.ts";
import { AGENT_PROCESSES } from "./rlimits.ts";
import { NO_SANDBOX, type Sandbox } from "./sandbox.ts";
import { toolStep } from "../run-files/trajectory.ts";

export interface CommandAgentOptions {
  readonly cmd: string;
  readonly timeoutSec: number;
  /** Extra environment for the command. */
  readonly env?: Record<string, string>;
  readonly sandbox?: Sandbox;
}

/** The longest answer kept as the turn's text (the end of stdout, where a briefing and [PLAN] go). */
const ANSWER_CHARS = 4000;

/** Linux's limit on one environment string (MAX_ARG_STRLEN), less room for the name. */
const ENV_STRING_BYTES = 128 * 1024 - 64;

/** Can `text` travel as one environment variable? */
export function fitsEnvironment(text: string): boolean {
  return !text.includes("\0") && Buffer.byteLength(text, "utf8") <= ENV_STRING_BYTES;
}

export function commandAgent(opts: CommandAgentOptions): Agent {
  const sandbox = opts.sandbox ?? NO_SANDBOX;
  return {
    name: "command",
    async turn(input: TurnInput) {
      const outcome = await runInGroup({
        argv: sandbox.wrap(["sh", "-c", opts.cmd], { workspace: input.workspace }),
        cwd: input.workspace,
        stdin: input.prompt,
        timeoutSec: opts.timeoutSec,
        // A fork bomb ends in the agent's own processes (rlimits.ts), not in the harness.
        limits: { uid: sandbox.agentUid, processes: AGENT_PROCESSES },
        env: {
          ...sandbox.environment(process.env),
          ...opts.env,
          PROLONG_TURN: String(input.turn),
          PROLONG_ACTION_CAP: String(input.actionCap),
          PROLONG_AVAILABLE_ACTIONS: input.availableActions.join(","),
          PROLONG_SEED: String(input.seed),
          ...(fitsEnvironment(input.prompt) ? { PROLONG_PROMPT: input.prompt } : {}),
        },
      });
      const failure = processFailure("the command", outcome, opts.timeoutSec);
      if (failure) return err(failure);
      return ok({
        text: outcome.stdoutTail.trim().slice(-ANSWER_CHARS),
        toolCalls: 0,
        tokens: NO_TOKENS,
        wallMs: outcome.wallMs,
        exitCode: outcome.exitCode,
        // The program is one step of the trajectory: what it runs inside is its own business.
        steps: [
          toolStep({
            tool: "command",
            act: "shell",
            input: opts.cmd,
            output: outcome.stdoutTail,
            size: {
              bytes: outcome.stdoutBytes,
              lines: outcome.stdoutNewlines + (outcome.stdoutTail.endsWith("\n") || outcome.stdoutBytes === 0 ? 0 : 1),
            },
            exit: outcome.exitCode,
            ms: outcome.wallMs,
          }),
        ],
      });
    },
  };
}
