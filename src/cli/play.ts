// `prolong play <game>`: one run of the programmatic-memory loop on a committed game.
import os from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { formatError } from "../errors.ts";
import { AGENT_KINDS, DEFAULTS, newConfig, readConfigFile, type RunConfig } from "../run/config.ts";
import { planSwarm, startSwarm, type RunStatus, type Swarm } from "../run/swarm.ts";
import { swarmSummary, swarmView } from "../run/swarm-view.ts";
import { scoreTables } from "../score/markdown.ts";
import { finishRun } from "../run/finish.ts";
import { ttyProgress } from "../run/progress.ts";
import { runStamp } from "../run/run-dir.ts";
import { runLoop } from "../run/runner.ts";
import { startRun } from "../run/start.ts";
import { parseCommandArgs } from "./args.ts";
import type { RunSession } from "../run/session.ts";
import type { Command } from "./command.ts";
import { playHuman } from "./play-human.ts";

const usage = `usage: prolong play <game> [options]
       prolong play --games all|a,b,c [--runs K] [--parallel P] [options]

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

many runs (each a child process with its own run directory runs/<time>/<game>-r<k>/ and workspace):
  --games all|a,b,c       play these games (all: every committed game)
  --runs K                K runs of each game (default 1); run k uses seed + k − 1, so repeats differ
  --parallel P            at most P runs at once (default ${os.availableParallelism()}: this machine's cores)
                          One live line per running run, a summary and the score table at the end. Ctrl-C
                          stops every run after its current step; \`prolong resume <dir>\` continues each.
  --run-dir DIR           play the run whose settings DIR/run.json holds, in DIR (what --games/--runs use
                          for each child; DIR must not hold a log yet)

other:
  --arm NAME              the arm this run belongs to, for \`prolong score\` and \`report\` (default: derived from
                          the settings, e.g. "explorer --log-window 25"); runs under one name must share every
                          setting that changes what the agent sees or does, or score refuses to pool them
  --grid ascii|hex        how boards are written in the log (default ascii, as in the paper)
  --seed N                game and agent seed (default 0)
  --runs-dir DIR          where run directories go (default ./runs)
  --json                  events as JSON lines on stdout, then a final {"kind":"summary",...} line
  --quiet                 no progress line

exit status: 0 when the run ended normally (win, budget, agent gave up), 1 when it failed (agent or game
errors, interrupted), 2 on bad options.`;

const options = {
  agent: { type: "string" },
  arm: { type: "string" },
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
  games: { type: "string" },
  runs: { type: "string" },
  parallel: { type: "string" },
  "run-dir": { type: "string" },
} as const;

/** A numeric flag as a number; NaN (caught by the config schema with a message naming the flag) if not one. */
function num(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : Number.NaN;
}

export function configFromFlags(game: string, v: Record<string, string | boolean | undefined>) {
  return newConfig({ ...fieldsFromFlags(v), game });
}

/** The run settings the flags give (unvalidated: newConfig checks them and names the flag). */
export function fieldsFromFlags(v: Record<string, string | boolean | undefined>): Partial<RunConfig> {
  const fields: Partial<RunConfig> = {};
  const set = <K extends keyof RunConfig>(k: K, value: RunConfig[K] | undefined) => {
    if (value !== undefined) fields[k] = value;
  };
  set("agent", v.agent as RunConfig["agent"] | undefined);
  set("arm", v.arm as string | undefined);
  set("env", v.env as RunConfig["env"] | undefined);
  const arcGames = v["arc-games"] as string | undefined;
  set("arcGames", arcGames === undefined ? undefined : resolve(arcGames)); // run.json must work from any cwd
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
  return fields;
}

export const playCommand: Command = {
  name: "play",
  summary: "play a game with an agent, logging everything (the main job)",
  usage,
  async run(args) {
    const parsed = parseCommandArgs("play", args, options);
    if (!parsed) return 2;
    const v = parsed.values;
    if (v["run-dir"] !== undefined) return playRunDir(v["run-dir"], parsed.positionals, v.json === true);
    if (v.games !== undefined || v.runs !== undefined || v.parallel !== undefined) return playMany(parsed.positionals, v);
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
export async function playSession(s: RunSession, json: boolean, clearProgress: () => void): Promise<number> {
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

/** A swarm's child: the settings are already in DIR/run.json; the run is made in DIR. */
async function playRunDir(dir: string, positionals: string[], json: boolean): Promise<number> {
  if (positionals.length > 0) {
    console.error(`prolong play: --run-dir takes the game from DIR/run.json; unexpected arguments: ${positionals.join(" ")}`);
    return 2;
  }
  const abs = resolve(dir);
  const config = readConfigFile(join(abs, "run.json"));
  if (config.isErr()) {
    console.error(formatError(config.error));
    return 2;
  }
  const session = await startRun(config.value, {
    runsRoot: dirname(dirname(abs)),
    stamp: basename(dirname(abs)),
    name: basename(abs),
    ...(json ? { echo: (line: string) => process.stdout.write(line) } : {}),
  });
  if (session.isErr()) {
    console.error(formatError(session.error));
    return 2;
  }
  return playSession(session.value, json, () => {});
}

/** --games / --runs / --parallel: every run a child process, P at a time, one view, one summary. */
async function playMany(positionals: string[], v: Record<string, string | boolean | undefined>): Promise<number> {
  const gamesFlag = v.games as string | undefined;
  if (positionals.length > (gamesFlag === undefined ? 1 : 0)) {
    console.error(`prolong play: give the games either as one <game> or with --games, not both: ${positionals.join(" ")}`);
    return 2;
  }
  const games = gamesFlag === undefined ? positionals : gamesFlag.trim() === "all" ? "all" : gamesFlag.split(",").map((g) => g.trim()).filter(Boolean);
  if (games.length === 0) {
    console.error("prolong play: which games? give <game> or --games all|a,b,c (`prolong games` lists them)");
    return 2;
  }
  const runs = num(v.runs as string | undefined) ?? 1;
  const parallel = num(v.parallel as string | undefined) ?? os.availableParallelism();
  for (const [flag, n] of [["--runs", runs], ["--parallel", parallel]] as const) {
    if (!Number.isInteger(n) || n < 1) {
      console.error(`prolong play: ${flag} must be a whole number ≥ 1\n  fix: see 'prolong play --help'`);
      return 2;
    }
  }
  const fields = fieldsFromFlags(v);
  if (fields.agent === "human") {
    console.error("prolong play: --agent human plays one game in this terminal; it cannot run with --games/--runs");
    return 2;
  }
  const root = resolve((v["runs-dir"] as string | undefined) ?? "runs");
  const stamp = runStamp(new Date());
  const plan = planSwarm({ games, runs, fields, runsRoot: root, stamp });
  if (plan.isErr()) {
    console.error(formatError(plan.error));
    return 2;
  }
  const json = v.json === true;
  let swarm: Swarm | undefined;
  const view = swarmView(() => swarm?.runs ?? [], process.stderr, json || v.quiet === true);
  swarm = startSwarm(plan.value, {
    parallel,
    ...(json ? { onLine: (line: string) => process.stdout.write(line) } : {}),
    onChange: (changed) => view.update(changed),
  });
  const running = swarm;
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    process.stderr.write(interrupts === 1 ? "\nprolong: stopping every run after its current step (Ctrl-C again to stop them at once)\n" : "\nprolong: stopping at once\n");
    running.interrupt();
  };
  process.on("SIGINT", onSigint);
  let result: RunStatus[];
  try {
    result = await running.done;
  } finally {
    process.off("SIGINT", onSigint);
  }
  view.done();
  const dir = join(root, stamp);
  if (json) {
    const runsOut = result.map((s) => ({ run: s.run.name, dir: s.run.dir, game: s.run.game, seed: s.run.config.seed, state: s.state, end: s.end ?? null, levelsCompleted: s.levelsCompleted ?? null, winLevels: s.winLevels ?? null, actions: s.action, rhae: s.rhae ?? null, exitCode: s.exitCode ?? null }));
    console.log(JSON.stringify({ kind: "swarm-summary", dir, runs: runsOut }));
  } else {
    console.log(swarmSummary(result, dir));
    const tables = scoreTables([dir]);
    if (tables) console.log(`\n${tables}\n\n(\`prolong score ${dir}\` prints this again; --json, --csv, --at N,M, --compare A B)`);
  }
  return result.every((s) => s.state === "done") ? 0 : 1;
}
