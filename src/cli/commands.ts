// The command table. Each command lives in its own file, loaded only when it runs (or its --help is asked
// for): `prolong --version` and `prolong --help` load no command module, and a command loads only its own,
// so start-up does not pay for every command's imports (the native addon, SQLite, the games...).
// Add one line here per command; the summary is the one `prolong --help` prints, and a test checks that it
// and the name match what the loaded module says.
import type { CommandEntry } from "./command.ts";

export type { CommandEntry };

export const commands: readonly CommandEntry[] = [
  {
    name: "bench",
    summary: "log-scan throughput: native core vs Bun-only vs grep/rg, as GB/s and ratios",
    load: async () => (await import("./bench.ts")).benchCommand,
  },
  {
    name: "games",
    summary: "list the committed local games: levels, actions, tags",
    load: async () => (await import("./games.ts")).gamesCommand,
  },
  {
    name: "play",
    summary: "play a game with an agent, logging everything (the main job)",
    load: async () => (await import("./play.ts")).playCommand,
  },
  {
    name: "resume",
    summary: "continue an interrupted run from its log",
    load: async () => (await import("./resume.ts")).resumeCommand,
  },
  {
    name: "score",
    summary: "score finished runs: RHAE, pass@1, best@k, bootstrap CIs, --at N, --compare A B",
    load: async () => (await import("./score.ts")).scoreCommand,
  },
  {
    name: "plan",
    summary: "an experiment plan for a cluster: games × arms × runs with stable job ids (plan show: the table, --estimate)",
    load: async () => (await import("./plan.ts")).planCommand,
  },
  {
    name: "run-plan",
    summary: "run one slice of a plan (--shard i/n, --job ID) into DIR: complete jobs skipped, partial ones resumed",
    load: async () => (await import("./run-plan.ts")).runPlanCommand,
  },
  {
    name: "report",
    summary: "an offline HTML page of a study's figures (inline SVG): score vs budget, best@k, per game, learning curves, tokens",
    load: async () => (await import("./report.ts")).reportCommand,
  },
  {
    name: "trace",
    summary: "what an agent did each turn: model steps and tool calls, classified; --turns, --tool, --json",
    load: async () => (await import("./trace.ts")).traceCommand,
  },
  {
    name: "mcp-observe",
    summary: "the --observe arm's read-only observe tool, as an MCP server over stdio (started by the coding CLIs)",
    load: async () => (await import("./mcp-observe.ts")).mcpObserveCommand,
  },
  {
    name: "replay",
    summary: "re-execute a log's actions against a game and report every board that differs",
    load: async () => (await import("./replay.ts")).replayCommand,
  },
  {
    name: "log",
    summary: "inspect a log: stats, sections, show, diff, grep",
    load: async () => (await import("./log.ts")).logCommand,
    printsOnItsOwn: true,
  },
  {
    name: "verify",
    summary: "check that an agent's copy of the log is what the harness wrote (a run dir, or master + copy)",
    load: async () => (await import("./verify.ts")).verifyCommand,
    printsOnItsOwn: true,
  },
  {
    name: "view",
    summary: "an offline HTML replay of a run (or --png: one board as a PNG)",
    load: async () => (await import("./view.ts")).viewCommand,
  },
  {
    name: "init",
    summary: "install programmatic memory (session log, hooks, skill) for coding agents in a project",
    load: async () => (await import("./init.ts")).initCommand,
  },
  {
    name: "status",
    summary: "show which coding clients have prolong memory installed, intact or modified",
    load: async () => (await import("./status.ts")).statusCommand,
  },
  {
    name: "uninstall",
    summary: "remove prolong memory from a project, keeping the user's own edits",
    load: async () => (await import("./uninstall.ts")).uninstallCommand,
  },
];
