// `prolong play <game>`: one run of the programmatic-memory loop on a committed game.
import { resolve } from "node:path";
import { formatError } from "../errors.ts";
import { AGENT_KINDS, DEFAULTS, newConfig, type RunConfig } from "../run/config.ts";
import { finishRun } from "../run/finish.ts";
import { ttyProgress } from "../run/progress.ts";
import { runStamp } from "../run/run-dir.ts";
import { runLoop } from "../run/runner.ts";
import { startRun } from "../run/start.ts";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";
import { playHuman } from "./play-human.ts";

const usage = `usage: prolong play <game> [options]

Plays one committed game (see \`prolong games\`) with an agent, writing runs/<time>/<game>/:
logs.txt (the master log), workspace/ (the agent's directory, with its verified copy of the log),
index.sqlite, events.jsonl, run.json, scorecard.json and summary.txt.

agent:
  --agent KIND            ${AGENT_KINDS.join(" | ")} (default ${DEFAULTS.agent}: the built-in explorer,
                          offline, no key). human plays in this terminal.
  --cmd 'SHELL COMMAND'   for --agent command: run in the workspace each turn; it must leave actions.json
  --model M, --effort E   passed to coding-agent backends
  --agent-timeout SEC     per agent call (default ${DEFAULTS.agentTimeoutSec}); a hung agent's process group is killed
  --agent-retries N       failed calls in a row before the run ends (default ${DEFAULTS.agentRetries})

budget and batches:
  --max-actions N         actions per episode, RESET included (default ${DEFAULTS.maxActions})
  --action-cap N          most actions executed from one actions.json (default ${DEFAULTS.actionCap})

memory arms:
  --log-window N          N>0: the last N action sections (the header section kept);
                          0: the newest section, animation frames stripped;
                          -1: no log file, the board goes into the prompt. Default: the full log.
  --workspace MODE        persistent (default) | stateless: wiped each turn but logs.txt, plans.txt and the
                          instructions; the agent's plan goes to plans.txt instead of the log
  --episodes K            K episodes on one seed, the log kept across them (default 1)

games:
  --env local|arc-local|arc-online   where the game comes from (default local: the committed games)
  --arc-games DIR         for arc-local: ARC game files laid out as <id>/<version>/<id>.py + metadata.json

sandbox:
  --sandbox auto|bwrap|none   confine external agents with bubblewrap (auto: when installed; default auto)

other:
  --grid ascii|hex        how boards are written in the log (default ascii, as in the paper)
  --seed N                game and agent seed (default 0)
  --runs-dir DIR          where run directories go (default ./runs)
  --json                  events as JSON lines on stdout, then a final {"kind":"summary",...} line
  --quiet                 no progress line

exit status: 0 when the run ended normally (win, budget, agent gave up), 1 when it failed (agent or game
errors, interrupted), 2 on bad options.`;

const options = {
  agent: { type: "string" },
  env: { type: "string" },
  "arc-games": { type: "string" },
  sandbox: { type: "string" },
  cmd: { type: "string" },
  model: { type: "string" },
  effort: { type: "string" },
  "agent-timeout": { type: "string" },
  "agent-retries": { type: "string" },
  "max-actions": { type: "string" },
  "action-cap": { type: "string" },
  "log-window": { type: "string" },
  workspace: { type: "string" },
  episodes: { type: "string" },
  grid: { type: "string" },
  seed: { type: "string" },
  "runs-dir": { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean" },
} as const;

/** A numeric flag as a number; NaN (caught by the config schema with a message naming the flag) if not one. */
function num(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : Number.NaN;
}

export function configFromFlags(game: string, v: Record<string, string | boolean | undefined>) {
  const fields: Partial<RunConfig> & { game: string } = { game };
  const set = <K extends keyof RunConfig>(k: K, value: RunConfig[K] | undefined) => {
    if (value !== undefined) fields[k] = value;
  };
  set("agent", v.agent as RunConfig["agent"] | undefined);
  set("env", v.env as RunConfig["env"] | undefined);
  set("arcGames", v["arc-games"] as string | undefined);
  set("sandbox", v.sandbox as RunConfig["sandbox"] | undefined);
  set("cmd", v.cmd as string | undefined);
  set("model", v.model as string | undefined);
  set("effort", v.effort as string | undefined);
  set("agentTimeoutSec", num(v["agent-timeout"] as string | undefined));
  set("agentRetries", num(v["agent-retries"] as string | undefined));
  set("maxActions", num(v["max-actions"] as string | undefined));
  set("actionCap", num(v["action-cap"] as string | undefined));
  const w = v["log-window"] as string | undefined;
  if (w !== undefined && w !== "full") set("logWindow", num(w));
  set("workspace", v.workspace as RunConfig["workspace"] | undefined);
  set("episodes", num(v.episodes as string | undefined));
  set("gridMode", v.grid as RunConfig["gridMode"] | undefined);
  set("seed", num(v.seed as string | undefined));
  return newConfig(fields);
}

export const playCommand: Command = {
  name: "play",
  summary: "play a game with an agent, logging everything (the main job)",
  usage,
  async run(args) {
    const parsed = parseCommandArgs("play", args, options);
    if (!parsed) return 2;
    const [game, ...extra] = parsed.positionals;
    if (game === undefined || extra.length > 0) {
      console.error(game === undefined ? `prolong play: which game? (\`prolong games\` lists them)\n\n${usage}` : `prolong play: unexpected arguments: ${extra.join(" ")}`);
      return 2;
    }
    const config = configFromFlags(game, parsed.values);
    if (config.isErr()) {
      console.error(formatError(config.error));
      return 2;
    }
    if (config.value.agent === "human") return playHuman(config.value);
    const json = parsed.values.json === true;
    const progress = json || parsed.values.quiet ? { update: () => {}, done: () => {} } : ttyProgress();
    const session = await startRun(config.value, {
      runsRoot: resolve(parsed.values["runs-dir"] ?? "runs"),
      stamp: runStamp(new Date()),
      ...(json ? { echo: (line: string) => process.stdout.write(line) } : {}),
      onProgress: progress.update,
    });
    if (session.isErr()) {
      console.error(formatError(session.error));
      return 2;
    }
    return playSession(session.value, json, progress.done);
  },
};

/** Runs a started (or resumed) session to its end with Ctrl-C handling, then reports. Shared with resume. */
export async function playSession(s: import("../run/session.ts").RunSession, json: boolean, clearProgress: () => void): Promise<number> {
  const stop = new AbortController();
  const onSigint = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    process.stderr.write("\nprolong: stopping after the current step (Ctrl-C again to quit at once)\n");
  };
  process.on("SIGINT", onSigint);
  let end;
  try {
    end = await runLoop(s, stop.signal);
  } finally {
    process.off("SIGINT", onSigint);
    clearProgress();
  }
  const report = await finishRun(s, end);
  if (json) console.log(JSON.stringify({ kind: "summary", ...report.summary }));
  else console.log(report.text);
  return end.reason === "win" || end.reason === "max-actions" || end.reason === "agent-stopped" ? 0 : 1;
}
