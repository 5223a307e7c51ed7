// `prolong play <game>`: one run of the programmatic-memory loop on a committed game.
import { rmdirSync } from "node:fs";
import os from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { formatError } from "../errors.ts";
import { dieWithParent } from "../libc.ts";
import { killRunningTurns } from "../agent/cli-process.ts";
import { LogWindowFlagSchema } from "../config/log-window.ts";
import {
  AGENT_KINDS,
  DEFAULTS,
  ENV_KINDS,
  GRID_MODES,
  newConfig,
  OBSERVE_MODES,
  readConfigFile,
  SANDBOX_KINDS,
  WORKSPACE_MODES,
  type RunConfig,
  SETTING_BOUNDS,
} from "../config/run-config.ts";
import { finishRun } from "../run/finish.ts";
import { ttyProgress } from "../run/progress.ts";
import { claimStamp, RUN_FILES } from "../run-files/layout.ts";
import { runLoop } from "../run/runner.ts";
import { startRun } from "../run/start.ts";
import { flag, parseCommandArgs, type FlagValues } from "./args.ts";
import type { RunSession } from "../run/session.ts";
import type { Command } from "./command.ts";
import { ToolLevelFlag } from "../agent/tool-ladder.ts";
import { absoluteCommand } from "../agent/cmd-paths.ts";
import { unconfinedWarning } from "../agent/sandbox.ts";
import { TOOL_FORMATS } from "../agent/mini/mini.ts";
import { ALIGNMENTS, RACES, ROLES } from "../game/nethack/character.ts";
import { envKind } from "../game/kinds.ts";

const usage = `usage: prolong play <game> [options]
       prolong play --games all|a,b,c [--runs K] [--parallel P] [options]

Plays one committed game (see \`prolong games\`) with an agent, writing runs/<time>/<game>/:
logs.txt (the master log), workspace/ (the agent's directory, with its verified copy of the log),
index.sqlite, events.jsonl, run.json, scorecard.json and summary.txt.

agent:
  --agent KIND            ${AGENT_KINDS.join(" | ")} (default ${DEFAULTS.agent}: the built-in player,
                          offline, no key: the grid explorer, or with --env nethack the NetHack
                          agent, shown as nethack-agent). human: you play in this terminal (keys,
                          mouse clicks); the run is recorded, scored and resumable like any agent's.
                          random: seeded uniform draws among the available actions, clicks on the
                          board's distinct things (the floor to compare with; grid games only).
  --cmd 'SHELL COMMAND'   for --agent command: run in the workspace each turn; it must leave actions.json
  --model M, --effort E   passed to coding-agent backends
  --agent-timeout SEC     per agent call (default ${DEFAULTS.agentTimeoutSec}); a hung agent's process group is killed
  --agent-retries N       failed calls in a row before the run ends (default ${DEFAULTS.agentRetries})

mini agent (any OpenAI-compatible Chat Completions server; docs/local-models.md):
  --base-url URL          the API root (default https://api.openai.com/v1; llama.cpp: http://127.0.0.1:8080/v1)
  --api-key-env NAME      the variable holding the key (default OPENAI_API_KEY; local servers take any value)
  --tool-format tools|text   bash as a tool call (default) or in fenced \`\`\`bash blocks (servers without tools)
  --step-limit N          most model replies per turn (default 30)

ablation arms (docs/ablations.md):
  --tools LEVEL           read | read,grep | read,grep,python | all (default); mini and claude (codex: all)
  --no-write              no file but actions.json may be written
  --observe mcp           the board is not in the prompt: a read-only observe tool serves it over MCP
                          (claude, codex; mini as a second tool), every call in trajectory.jsonl
  --context-limit N       tokens kept before compacting: mini drops the oldest outputs, codex and claude
                          pass it to their own auto-compaction

budget and batches:
  --max-actions N         actions per episode, RESET included (default ${DEFAULTS.maxActions})
  --action-cap N          most actions executed from one actions.json (default ${DEFAULTS.actionCap})

memory arms:
  --log-window W          full (default): the whole log; last:N (or N): the last N action sections, the
                          header section kept; newest (or 0): the newest section, animation frames
                          stripped; none (or -1): no log file, the board goes into the prompt
  --workspace MODE        persistent (default) | stateless: wiped each turn but logs.txt, plans.txt and the
                          instructions; the agent's plan goes to plans.txt instead of the log
  --episodes K            K episodes on one seed, the log kept across them (default 1)

games:
  --env local|arc-local|arc-online|nethack   where the game comes from (default local: the committed
                          games; nethack: the real NetHack 3.6, apt-get install nethack-console)
  --arc-games DIR         for arc-local: ARC game files laid out as <id>/<version>/<id>.py + metadata.json
  --role R, --race R, --align A   for nethack: the fixed character (default valkyrie, human, neutral);
                          NetHack runs default to --max-actions 20000 and --action-cap 30

sandbox:
  --sandbox auto|bwrap|none   confine external agents with bubblewrap (auto: when installed; default auto)
                          Under bwrap an agent also sees, read-only, the directory prolong was started in
                          (unless it is / or a home directory itself) and the directories of the scripts
                          --cmd names (relative paths there are made absolute: the command runs in the
                          workspace); never the runs directory.
  --bind-ro DIR           show DIR read-only too (repeatable), e.g. --bind-ro ~/.pyenv for pyenv's python
  --bind DIR              show DIR read-write (repeatable): what the agent writes there stays on this machine
  --pass-env NAME         under bwrap the agent gets only what its backend needs of the environment (PATH,
                          HOME, locale, proxies and CA files, ANTHROPIC_*/CLAUDE_*/OPENAI_*/CODEX_*/PROLONG_*);
                          pass NAME too (repeatable). Without a sandbox the agent sees the whole environment.

many runs (each a child process with its own run directory runs/<time>/<game>-r<k>/ and workspace):
  --games all|a,b,c       play these games (all: every committed game; with --env nethack, NetHack, the
                          default when no game is given)
  --runs K                K runs of each game (default 1); run k uses seed + k − 1, so repeats differ
  --parallel P            at most P runs at once (default ${os.availableParallelism()}: this machine's cores)
                          One live line per running run, a summary and the score table at the end. The
                          batch is a plan (runs/<time>/plan.json, as \`prolong plan\` writes): Ctrl-C stops
                          every run after its current step, and \`prolong resume runs/<time>\` finishes the
                          batch (started runs resumed, the rest started, finished ones left).
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

/** Every flag of play, one line each (several engineers add flags here: keep it a table). */
export const playFlags = {
  agent: flag.choice(AGENT_KINDS),
  arm: flag.text(),
  env: flag.choice(ENV_KINDS),
  "arc-games": flag.text(),
  role: flag.choice(ROLES),
  race: flag.choice(RACES),
  align: flag.choice(ALIGNMENTS),
  sandbox: flag.choice(SANDBOX_KINDS),
  "pass-env": flag.list(),
  bind: flag.list(),
  "bind-ro": flag.list(),
  cmd: flag.text(),
  model: flag.text(),
  effort: flag.text(),
  "agent-timeout": flag.num(...SETTING_BOUNDS.agentTimeoutSec, { unit: " of seconds" }),
  "agent-retries": flag.int(...SETTING_BOUNDS.agentRetries),
  "base-url": flag.text(),
  "api-key-env": flag.text(),
  "tool-format": flag.choice(TOOL_FORMATS),
  "step-limit": flag.int(...SETTING_BOUNDS.stepLimit),
  "context-limit": flag.int(...SETTING_BOUNDS.contextLimit, { unit: " of tokens" }),
  tools: flag.custom(ToolLevelFlag),
  "no-write": flag.bool(),
  observe: flag.choice(OBSERVE_MODES),
  "max-actions": flag.int(...SETTING_BOUNDS.maxActions),
  "action-cap": flag.int(...SETTING_BOUNDS.actionCap),
  "log-window": flag.custom(LogWindowFlagSchema),
  workspace: flag.choice(WORKSPACE_MODES),
  episodes: flag.int(...SETTING_BOUNDS.episodes),
  grid: flag.choice(GRID_MODES),
  seed: flag.int(0, 2 ** 32 - 1),
  "runs-dir": flag.text(),
  json: flag.bool(),
  quiet: flag.bool(),
  games: flag.text(),
  runs: flag.int(1, 100_000),
  parallel: flag.int(1, 4096),
  "run-dir": flag.text(),
} as const;

export type PlayFlags = FlagValues<typeof playFlags>;

export function configFromFlags(game: string, f: PlayFlags, cwd = process.cwd()) {
  return newConfig({ ...startedIn(cwd, fieldsFromFlags(f)), game });
}

/**
 * What `play` adds of where it was started: --cmd's relative paths to files here made absolute (the command
 * runs in the workspace), and, for an external agent under a sandbox, this directory shown read-only — the
 * project its scripts and data live in — unless it is / or a home directory itself.
 */
export function startedIn(cwd: string, fields: Partial<RunConfig>): Partial<RunConfig> {
  const out = { ...fields, ...(fields.cmd !== undefined ? { cmd: absoluteCommand(fields.cmd, cwd) } : {}) };
  const external = !["explorer", "human"].includes(fields.agent ?? DEFAULTS.agent);
  const wholeHome = ["/", "/tmp", "/root", "/home", os.homedir()].includes(cwd) || dirname(cwd) === "/home";
  if (external && fields.sandbox !== "none" && !wholeHome && !(fields.bindRo ?? []).includes(cwd))
    out.bindRo = [...(fields.bindRo ?? []), cwd];
  return out;
}

/** The run settings the flags give (each already checked; newConfig checks them together). */
export function fieldsFromFlags(f: PlayFlags): Partial<RunConfig> {
  const fields: Partial<RunConfig> = {};
  const set = <K extends keyof RunConfig>(k: K, value: RunConfig[K] | undefined) => {
    if (value !== undefined) fields[k] = value;
  };
  set("agent", f.agent);
  set("arm", f.arm);
  set("env", f.env);
  set("arcGames", f["arc-games"] === undefined ? undefined : resolve(f["arc-games"])); // run.json must work from any cwd
  set("role", f.role);
  set("race", f.race);
  set("alignment", f.align);
  set("sandbox", f.sandbox);
  set("passEnv", f["pass-env"].length > 0 ? f["pass-env"] : undefined);
  // Absolute, so that run.json means the same from wherever the run is resumed.
  set("bind", f.bind.length > 0 ? f.bind.map((d) => resolve(d)) : undefined);
  set("bindRo", f["bind-ro"].length > 0 ? f["bind-ro"].map((d) => resolve(d)) : undefined);
  set("cmd", f.cmd);
  set("model", f.model);
  set("effort", f.effort);
  set("agentTimeoutSec", f["agent-timeout"]);
  set("agentRetries", f["agent-retries"]);
  set("baseUrl", f["base-url"]);
  set("apiKeyEnv", f["api-key-env"]);
  set("toolFormat", f["tool-format"]);
  set("stepLimit", f["step-limit"]);
  set("contextLimit", f["context-limit"]);
  set("tools", f.tools);
  if (f["no-write"]) set("noWrite", true);
  set("observe", f.observe);
  set("maxActions", f["max-actions"]);
  set("actionCap", f["action-cap"]);
  set("logWindow", f["log-window"]);
  set("workspace", f.workspace);
  set("episodes", f.episodes);
  set("gridMode", f.grid);
  set("seed", f.seed);
  return fields;
}

export const playCommand: Command = {
  name: "play",
  summary: "play a game with an agent, logging everything (the main job)",
  usage,
  flags: playFlags,
  async run(args) {
    const parsed = parseCommandArgs("play", args, playFlags);
    if (!parsed) return 2;
    const f = parsed.values;
    if (f["run-dir"] !== undefined) return playRunDir(f["run-dir"], parsed.positionals, f.json === true);
    if (f.games !== undefined || f.runs !== undefined || f.parallel !== undefined) {
      const { startBatch } = await import("./batch.ts"); // batch.ts imports this file
      return startBatch(parsed.positionals, f, args);
    }
    // A kind of one game (NetHack): `play --env nethack` needs no game operand.
    const [game = envKind(f.env ?? DEFAULTS.env).soleGame, ...extra] = parsed.positionals;
    if (game === undefined || extra.length > 0) {
      console.error(
        game === undefined
          ? `prolong play: which game? (\`prolong games\` lists them)\n\n${usage}`
          : `prolong play: unexpected arguments: ${extra.join(" ")}`,
      );
      return 2;
    }
    const config = configFromFlags(game, parsed.values);
    if (config.isErr()) {
      console.error(formatError(config.error));
      return 2;
    }
    const json = parsed.values.json === true;
    // The human player's screen is the progress display.
    const progress =
      json || parsed.values.quiet || config.value.agent === "human" ? { update: () => {}, done: () => {} } : ttyProgress();
    const runsRoot = resolve(parsed.values["runs-dir"] ?? "runs");
    const stamp = claimStamp(runsRoot, new Date());
    if (stamp.isErr()) {
      console.error(formatError(stamp.error));
      return 2;
    }
    const session = await startRun(config.value, {
      runsRoot,
      stamp: stamp.value,
      ...(json ? { echo: (line: string) => process.stdout.write(line) } : {}),
      onProgress: progress.update,
    });
    if (session.isErr()) {
      releaseStamp(join(runsRoot, stamp.value));
      console.error(formatError(session.error));
      return 2;
    }
    return playSession(session.value, json, progress.done);
  },
};

/** Removes a claimed runs/<stamp>/ that stayed empty because the run could not start. */
function releaseStamp(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (something was written there) or already gone: leave it.
  }
}

/**
 * Runs a started (or resumed) session to its end, then reports. Shared with resume. Ctrl-C, SIGTERM and
 * SIGHUP (a closed terminal, `timeout`, a scheduler's preemption) stop it the same way: the agent's turn in
 * progress is ended with every process it started (cli-process.ts), the game step in progress finishes, and
 * the run ends `interrupted`, resumable. A second signal exits at once, the turn's processes killed first.
 */
export async function playSession(s: RunSession, json: boolean, clearProgress: () => void): Promise<number> {
  const unconfined = unconfinedWarning(s.config);
  if (unconfined !== null) process.stderr.write(`prolong: warning: ${unconfined}\n`);
  const stop = new AbortController();
  let stoppedBy: (typeof STOP_SIGNALS)[number] | null = null;
  // The human player's Ctrl-C arrives as process.emit("SIGINT"), without the name.
  const onSignal = (signal: (typeof STOP_SIGNALS)[number] = "SIGINT") => {
    if (stop.signal.aborted) {
      killRunningTurns();
      process.exit(128 + SIGNAL_NUMBERS[signal]);
    }
    stoppedBy = signal;
    stop.abort();
    killRunningTurns();
    process.stderr.write(
      `\nprolong: ${signal === "SIGINT" ? "Ctrl-C" : signal}: stopping (the agent's turn is ended; \`prolong resume\` continues the run; ${signal === "SIGINT" ? "Ctrl-C" : "the signal"} again to quit at once)\n`,
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  let end;
  try {
    end = await runLoop(s, stop.signal);
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    clearProgress();
  }
  const report = await finishRun(s, end);
  if (json) console.log(JSON.stringify({ kind: "summary", ...report.summary }));
  else console.log(report.text);
  if (report.failure) {
    console.error(formatError(report.failure));
    return 1;
  }
  if (stoppedBy !== null && stoppedBy !== "SIGINT") return 128 + SIGNAL_NUMBERS[stoppedBy];
  return end.reason === "win" || end.reason === "max-actions" || end.reason === "game-over" || end.reason === "agent-stopped"
    ? 0
    : 1;
}

/** The signals that stop a run (resumable), and their numbers for the exit status. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const SIGNAL_NUMBERS: Record<(typeof STOP_SIGNALS)[number], number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/** A swarm's child: the settings are already in DIR/run.json; the run is made in DIR. */
async function playRunDir(dir: string, positionals: string[], json: boolean): Promise<number> {
  // A swarm's child stops (as on Ctrl-C: after the current step, resumable) when its parent dies, even by
  // kill -9, so that "kill it, then resume" does not race an orphan still writing the run.
  dieWithParent(2);
  if (positionals.length > 0) {
    console.error(`prolong play: --run-dir takes the game from DIR/run.json; unexpected arguments: ${positionals.join(" ")}`);
    return 2;
  }
  const abs = resolve(dir);
  const config = readConfigFile(join(abs, RUN_FILES.config));
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
