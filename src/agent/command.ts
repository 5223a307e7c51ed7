// `--agent command --cmd '...'`: any program that reads the workspace and leaves actions.json. It runs through
// `sh -c` with the workspace as cwd, in its own process group so a timeout can kill everything it started.
// Its stdout is its answer (the [PLAN] text); stderr is kept for error messages.
import { spawn } from "node:child_process";
import { err, ok } from "neverthrow";
import { prolongError } from "../errors.ts";
import { NO_TOKENS, type Agent, type TurnInput } from "./agent.ts";

export interface CommandAgentOptions {
  readonly cmd: string;
  readonly timeoutSec: number;
  /** Extra environment for the command (the sandbox wrapper adds its own). */
  readonly env?: Record<string, string>;
  /** Wraps the argv before spawning (bubblewrap); identity by default. */
  readonly wrap?: (argv: string[], workspace: string) => string[];
}

const TAIL = 4000;

export function commandAgent(opts: CommandAgentOptions): Agent {
  return {
    name: "command",
    async turn(input: TurnInput) {
      const started = performance.now();
      const argv = (opts.wrap ?? ((a) => a))(["sh", "-c", opts.cmd], input.workspace);
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd: input.workspace,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
        env: {
          ...process.env,
          ...opts.env,
          PROLONG_TURN: String(input.turn),
          PROLONG_ACTION_CAP: String(input.actionCap),
          PROLONG_AVAILABLE_ACTIONS: input.availableActions.join(","),
          PROLONG_SEED: String(input.seed),
          PROLONG_PROMPT: input.prompt,
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => { stdout = (stdout + d).slice(-64 * 1024); });
      child.stderr.setEncoding("utf8").on("data", (d: string) => { stderr = (stderr + d).slice(-64 * 1024); });
      child.stdin.on("error", () => {});
      child.stdin.end(input.prompt);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, opts.timeoutSec * 1000);
      const code: number = await new Promise((res) => {
        child.on("error", () => res(127));
        child.on("close", (c, signal) => res(c ?? (signal ? 128 : 1)));
      });
      clearTimeout(timer);
      killGroup(child.pid); // anything it left running in the background goes too
      const wallMs = Math.round(performance.now() - started);
      if (timedOut) {
        return err(prolongError("agent-timeout", `the command did not finish within ${opts.timeoutSec}s; its process group was killed`, { fix: "raise --agent-timeout or make the command faster" }));
      }
      if (code !== 0) {
        const tail = stderr.trim().split("\n").slice(-5).join("\n");
        return err(prolongError("agent-exit", `the command exited with status ${code}${tail ? `: ${tail}` : ""}`));
      }
      return ok({ text: stdout.trim().slice(-TAIL), toolCalls: 0, tokens: NO_TOKENS, wallMs, exitCode: code });
    },
  };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}
