// The agent a RunConfig names. One place that knows every backend, and where the sandbox is chosen for the
// external ones (the explorer runs in-process and needs none).
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { RunConfig } from "../config/run-config.ts";
import { envKind, type EnvKind } from "../game/kinds.ts";
import type { Agent } from "./agent.ts";
import { CLAUDE_MIN_COMPACT_WINDOW, claudeAgent } from "./claude.ts";
import { cliMissing, findCli } from "./cli-process.ts";
import { codexAgent } from "./codex.ts";
import { commandAgent } from "./command.ts";
import { GRID_SIZE } from "../game-model.ts";
import { checkCommandPaths, sandboxBinds } from "./cmd-paths.ts";
import { createRandomAgent } from "./random.ts";
import { miniFromConfig } from "./mini/from-config.ts";
import { observeServerFiles } from "./observe-tool.ts";
import { chooseSandbox } from "./sandbox.ts";
import { codexToolArgs, isRestricted, levelNeedsSandbox, policyOf } from "./tool-ladder.ts";

/**
 * The built-in players, by the name an environment kind gives its own (game/kinds.ts), each loaded when a run
 * plays it: a run of another agent (and every reader of runs) loads neither, nor the game code they read.
 */
const BUILTIN_PLAYERS: Record<EnvKind["builtinPlayer"], () => Agent> = {
  explorer: () => (require("./explorer/explorer.ts") as typeof import("./explorer/explorer.ts")).createExplorer(),
  "nethack-agent": () => (require("./nethack/agent.ts") as typeof import("./nethack/agent.ts")).createNethackAgent(),
};

/** The npm package that brings each coding CLI, for the "not installed" message. */
export const CLI_PACKAGES = { claude: "@anthropic-ai/claude-code", codex: "@openai/codex" } as const;

/**
 * `find` locates a CLI by name (replaceable so tests can make one missing); `workspace`, when known, lets a
 * command agent's --cmd be checked for files it will not see there.
 */
export function createAgent(
  config: RunConfig,
  find: (name: string) => string | null = findCli,
  workspace?: string,
): Result<Agent, ProlongError> {
  switch (config.agent) {
    case "explorer":
      // Each environment kind names its own built-in player.
      return ok(BUILTIN_PLAYERS[envKind(config.env).builtinPlayer]());
    case "random":
      // Random play draws among grid actions and the board's things; a terminal game has neither.
      if (envKind(config.env).terminalGame)
        return err(
          prolongError("bad-config", `--agent random plays grid games; --env ${config.env} is a terminal game`, {
            fix: "use --agent random with --env local, arc-local or arc-online, or the default built-in player here",
          }),
        );
      return ok(createRandomAgent());
    case "human":
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        return err(
          prolongError("no-terminal", "--agent human plays in this terminal, but stdin or stdout is not one", {
            fix: "run it in an interactive terminal (not through a pipe or a file)",
          }),
        );
      }
      {
        // Refused before the run starts when no board could be drawn; a window made smaller later gets a
        // screen that says what it needs (human-screen.ts).
        // Loaded here, as the built-in players are: a person's keyboard reaches a terminal game's own keys.
        const { terminalNeeds } = require("./human-screen.ts") as typeof import("./human-screen.ts");
        const { TERMINAL_GAME_SIZE } = require("./human-terminal.ts") as typeof import("./human-terminal.ts");
        const need = envKind(config.env).terminalGame
          ? TERMINAL_GAME_SIZE
          : terminalNeeds({ width: GRID_SIZE, height: GRID_SIZE }, true);
        const cols = process.stdout.columns ?? 80;
        const rows = process.stdout.rows ?? 24;
        if (cols < need.cols || rows < need.rows)
          return err(
            prolongError(
              "terminal-too-small",
              `--agent human needs a terminal of at least ${need.cols}x${need.rows}; this one is ${cols}x${rows}`,
              {
                fix: `enlarge the window (or make the font smaller) to ${need.cols} columns and ${need.rows} rows, then run the command again`,
              },
            ),
          );
      }
      const { humanAgent } = require("./human.ts") as typeof import("./human.ts");
      return ok(humanAgent({ input: process.stdin, output: process.stdout, interrupt: () => process.emit("SIGINT") }));
    case "command": {
      if (!config.cmd)
        return err(
          prolongError("bad-config", "--agent command needs --cmd '<shell command>'", {
            fix: "e.g. --agent command --cmd 'python3 my_agent.py'",
          }),
        );
      const cmd = config.cmd;
      const binds = sandboxBinds(config);
      return chooseSandbox(config.sandbox, undefined, config.passEnv, binds).andThen((sandbox) => {
        const unseen =
          workspace === undefined ? null : checkCommandPaths(cmd, workspace, sandbox.kind, undefined, undefined, binds);
        return unseen
          ? err(unseen)
          : ok({ ...commandAgent({ cmd, timeoutSec: config.agentTimeoutSec, sandbox }), sandbox: sandbox.kind });
      });
    }
    case "mini":
      return miniFromConfig(config);
    case "claude":
    case "codex": {
      const kind = config.agent;
      const policy = policyOf(config);
      if (kind === "codex") {
        const possible = codexToolArgs(policy);
        if (possible.isErr()) return err(possible.error);
      }
      if (kind === "claude" && config.contextLimit !== undefined && config.contextLimit < CLAUDE_MIN_COMPACT_WINDOW) {
        return err(
          prolongError(
            "bad-config",
            `--context-limit ${config.contextLimit} is below Claude Code's smallest auto-compact window (${CLAUDE_MIN_COMPACT_WINDOW} tokens; it raises smaller values to that)`,
            {
              fix: `use --context-limit ${CLAUDE_MIN_COMPACT_WINDOW} or more with Claude Code, or run the arm with --agent mini or codex (docs/ablations.md)`,
            },
          ),
        );
      }
      const bin = find(kind);
      if (bin === null) return err(cliMissing(kind, CLI_PACKAGES[kind]));
      const sandbox = chooseSandbox(config.sandbox, undefined, config.passEnv, sandboxBinds(config));
      if (sandbox.isErr()) return err(sandbox.error);
      // Claude Code's restricted level is what exists in its sandbox, the CLI itself among the level's programs
      // (its own tool flags stay, as the mini agent's command check does: the early, friendly refusal).
      if (sandbox.value.kind === "none" && isRestricted(policy)) return err(levelNeedsSandbox(policy));
      // With --observe mcp the observe server's own files join it (never a directory of other programs).
      const extra = [{ from: bin, to: bin }, ...(config.observe === "mcp" ? observeServerFiles() : [])];
      const tree = kind === "claude" ? sandbox.value.treeFor(policy, extra) : ok(null);
      if (tree.isErr()) return err(tree.error);
      return ok(sandbox.value).map((sandbox) => {
        const opts = {
          bin,
          timeoutSec: config.agentTimeoutSec,
          sandbox,
          policy,
          ...(tree.value ? { tree: tree.value } : {}),
          ...(config.model ? { model: config.model } : {}),
          ...(config.effort ? { effort: config.effort } : {}),
          ...(config.contextLimit !== undefined ? { contextLimit: config.contextLimit } : {}),
          ...(config.observe === "mcp" ? { observe: true } : {}),
        };
        return { ...(kind === "claude" ? claudeAgent(opts) : codexAgent(opts)), sandbox: sandbox.kind };
      });
    }
  }
}
