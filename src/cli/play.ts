// `prolong play <game>`: one run of the programmatic-memory loop on a committed game.
import { rmdirSync } from "node:fs";
import os from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { formatError } from "../errors.ts";
import { terminalLine } from "../terminal-text.ts";
import { dieWithParent } from "../libc.ts";
import { killRunningTurns } from "../agent/cli-process.ts";
import {
  checkApplicable,
  DEFAULTS,
  fieldsFromFlags,
  newConfig,
  readConfigFile,
  RUN_SETTINGS,
  SETTING_FLAGS,
  type RunConfigInput,
} from "../config/run-config.ts";
import { settingsHelp } from "../setting/declaration.ts";
import { finishRun } from "../run/finish.ts";
import { ttyProgress } from "../run/progress.ts";
import { claimStamp, RUN_FILES } from "../run-files/layout.ts";
import { runLoop } from "../run/runner.ts";
import { startRun } from "../run/start.ts";
import { flag, parseCommandArgs, type FlagValues } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { RunSession } from "../run/session.ts";
import type { Command } from "./command.ts";
import { absoluteCommand } from "../agent/cmd-paths.ts";
import { unconfinedWarning } from "../agent/sandbox.ts";
import { envKind } from "../game/kinds.ts";

export { fieldsFromFlags };

const help = (group: string) => settingsHelp(RUN_SETTINGS, group);

const usage = `usage: prolong play <game> [options]
       prolong play --games all|a,b,c [--runs K] [--parallel P] [options]

Plays one committed game (see \`prolong games\`) with an agent, writing runs/<time>/<game>/:
logs.txt (the master log), workspace/ (the agent's directory, with its verified copy of the log),
index.sqlite, events.jsonl, run.json, scorecard.json and summary.txt.

agent:
${help("agent")}

mini agent (any OpenAI-compatible Chat Completions server; docs/local-models.md):
${help("mini")}

ablation arms (docs/ablations.md):
${help("ablation")}

budget and batches:
${help("budget")}

memory arms:
${help("memory")}

games:
${help("games")}

sandbox:
${help("sandbox")}

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
${help("other")}
  --runs-dir DIR          where run directories go (default ./runs)
  --json                  events as JSON lines on stdout, then a final {"kind":"summary",...} line
  --quiet                 no progress (on a terminal a line redrawn in place; elsewhere a line per call, 10 s apart)

exit status: 0 when the run ended normally (win, budget, agent gave up), 1 when it failed (agent or game
errors, interrupted), 2 on bad options.`;

/**
 * Every flag of play: one per run setting (declared once, config/run-config.ts, or in an environment kind's
 * kind.ts; add a setting there and its flag, help line and run.json field follow), then the command's own.
 */
export const playFlags = {
  ...SETTING_FLAGS,
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
export function startedIn(cwd: string, fields: Partial<RunConfigInput>): Partial<RunConfigInput> {
  const out = { ...fields, ...(fields.cmd !== undefined ? { cmd: absoluteCommand(fields.cmd, cwd) } : {}) };
  const external = !["explorer", "human"].includes(fields.agent ?? DEFAULTS.agent);
  const wholeHome = ["/", "/tmp", "/root", "/home", os.homedir()].includes(cwd) || dirname(cwd) === "/home";
  if (external && fields.sandbox !== "none" && !wholeHome && !(fields.bindRo ?? []).includes(cwd))
    out.bindRo = [...(fields.bindRo ?? []), cwd];
  return out;
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
    const [game = envKind(fieldsFromFlags(f).env ?? DEFAULTS.env).soleGame, ...extra] = parsed.positionals;
    if (game === undefined) {
      // A flag of one kind of game (--protocol balrog is NetHack's) names what is missing better than "<game>".
      const misplaced = checkApplicable({ ...DEFAULTS, ...fieldsFromFlags(f) });
      if (misplaced.isErr()) return argumentProblem("play", misplaced.error.message, misplaced.error.fix);
      return argumentProblem("play", "missing <game>, which game to play", "prolong play <game> (`prolong games` lists them)");
    }
    if (extra.length > 0)
      return argumentProblem(
        "play",
        `unexpected argument '${extra[0]}' (play takes one <game>, here '${game}')`,
        `several games go as --games ${[game, ...extra].join(",")}`,
      );
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
  // Said before the first call, not after it: an unreachable server is only reported once its retries are spent.
  if (s.agent.server !== undefined) process.stderr.write(`prolong: calling the model API at ${terminalLine(s.agent.server)}\n`);
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
    return argumentProblem(
      "play",
      `unexpected argument '${positionals[0]}': --run-dir takes the game from DIR/run.json`,
      "drop the game, or drop --run-dir",
    );
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
