// `prolong replay <log>`: re-executes a log's actions against a fresh game and reports every section whose
// boards (each animation frame and the settled board) or score differ from the logged ones (and, for a prolong
// run directory, whose header differs from the tally's), and the first divergence, through the replay engine
// resume uses (run/replay.ts). Tells whether a game (or a game version) is the one that wrote a log.
import { envKind, loadKind, type KindPlay } from "../game/kinds.ts";
import { existsSync, statSync } from "node:fs";
import { formatError, prolongError, type ProlongError } from "../errors.ts";
import { readLogBytes } from "../log/load.ts";
import { LogSectionStream } from "../log/stream.ts";
import { replayGridLog, type ReplayDifference } from "../run/replay.ts";
import { replayToFirstDifference } from "../run/replay-run.ts";
import { join } from "node:path";
import { logPathOf } from "../inspect/cli-support.ts";
import { ENV_KINDS, KIND_PLACES, newConfig, readConfigFile, type RunConfig } from "../config/run-config.ts";
import { fieldsFromFlagValues, settingFlags } from "../setting/declaration.ts";
import { NO_ENV_CONTEXT, type EnvContext } from "../game/env.ts";
import { gameSandbox } from "../sandbox/bwrap.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { Command } from "./command.ts";
import { RUN_FILES } from "../run-files/layout.ts";

const usage = `usage: prolong replay <run-dir> [--json]
       prolong replay <logs.txt> --game ID [--env KIND] [--arc-games DIR] [--seed N] [--json]

Re-executes every Tool Call of a log against a fresh game (RESET on each INITIAL STATE section) and compares,
section by section, every animation frame, the settled board and the score with what the log holds; the
headers of a prolong run directory (Action, Level, Attempt, Score) are checked too, as \`prolong resume\`
checks them, by the same replay engine. Reports each section that differs and the first divergence; a way to
check that a game, or a game version, is the one that wrote a log (e.g. ft09-0d8bbf25 vs ft09-9ab2447a). A prolong run directory names its game,
environment and seed in run.json; the flags override them. A NetHack run (--env nethack) is replayed against
the real game with the run's seed, character and keys, the engine \`prolong resume\` uses: every screen is
compared byte for byte with the log and the replay stops at the first divergence.

  --game ID          the game: a committed game id, or for arc-local "ft09" / "ft09-0d8bbf25" (needed for a bare log)
  --env KIND         ${ENV_KINDS.join(" | ")} (default local)
  --arc-games DIR    for arc-local: <id>/<version>/<id>.py + metadata.json (or PROLONG_ARC_GAMES)
  --seed N           game seed (default: the run's, or 0)
  --max-report N     sections listed in the text report (default 20; --json lists all)
  --json             one JSON object: {sections, boards, matched, differences: [...], firstDivergence}

exit status: 0 every section was checked and matches, 1 some differ or could not be checked (the log is cut or
foreign past some section), 2 bad input (unreadable log, unknown game).`;

export type { ReplayDifference };

export interface ReplayReport {
  readonly log: string;
  readonly game: string;
  readonly sections: number;
  /** Grids compared (animation frames plus settled boards). */
  readonly boards: number;
  readonly matched: number;
  readonly differences: readonly ReplayDifference[];
  readonly firstDivergence: ReplayDifference | null;
  /** Set when the log stops in a section that does not parse (replayed up to it). */
  readonly cut?: string;
}

/** A replayed game runs where the run's ran: in the sandbox its --sandbox names, when bubblewrap works here. */
function replayContext(config: RunConfig): EnvContext {
  return { ...NO_ENV_CONTEXT, sandbox: () => gameSandbox(config.sandbox) };
}

/** `headers`: the log is a prolong run's (its run.json beside it), so each header is checked as resume checks it. */
export async function replayLog(
  logPath: string,
  config: RunConfig,
  kind?: KindPlay,
  headers = false,
): Promise<{ ok: true; report: ReplayReport } | { ok: false; error: ProlongError }> {
  // Mapped, like every inspection command: a FIFO, a device or a directory is an error naming it, not a hang.
  const bytes = readLogBytes(logPath);
  if (bytes.isErr()) return { ok: false, error: bytes.error };
  // Section by section from the mapping: the log is never decoded into one string.
  const stream = new LogSectionStream(bytes.value);
  const play = kind ?? (await loadKind(config.env));
  const replayed = await replayGridLog(stream, () => play.open(config, replayContext(config)), headers);
  if (stream.parsed === 0) {
    // Nothing parsed, so no game was opened (one opens at the first section).
    return {
      ok: false,
      error: prolongError("not-a-log", stream.cut?.reason ?? "the log holds no section", {
        path: logPath,
        fix: "pass a logs.txt written by prolong or the PRO-LONG harness",
      }),
    };
  }
  if (replayed.isErr()) return { ok: false, error: replayed.error };
  const { differences, boards } = replayed.value;
  const cut = stream.cut;
  return {
    ok: true,
    report: {
      log: logPath,
      game: config.game,
      sections: stream.parsed,
      boards,
      matched: stream.parsed - differences.length,
      differences,
      firstDivergence: differences[0] ?? null,
      ...(cut ? { cut: `section ${cut.index} does not parse (${cut.reason}); replayed the ${cut.index} before it` } : {}),
    },
  };
}

export function reportText(r: ReplayReport, maxReport: number): string {
  const lines: string[] = [];
  if (r.differences.length === 0 && r.cut) {
    lines.push(
      `${r.log}: the ${r.sections} sections that parse match ${r.game} (${r.boards} boards and animation frames, every score), but the rest of the log could not be checked`,
    );
  } else if (r.differences.length === 0) {
    lines.push(`${r.log}: all ${r.sections} sections match ${r.game} (${r.boards} boards and animation frames, every score)`);
  } else {
    const f = r.firstDivergence!;
    lines.push(
      `${r.log}: ${r.differences.length} of ${r.sections} sections differ from ${r.game}; first divergence at Action ${f.action} (${f.call}): ${f.what.join("; ")}`,
    );
    for (const d of r.differences.slice(0, maxReport)) lines.push(`  Action ${d.action} ${d.call}: ${d.what.join("; ")}`);
    if (r.differences.length > maxReport) lines.push(`  ... ${r.differences.length - maxReport} more (--json lists all)`);
  }
  if (r.cut) lines.push(`note: ${r.cut}`);
  return lines.join("\n");
}

/**
 * A log whose kind's replay stops at the first difference (a terminal game's, NetHack's) replayed against the real
 * game with the run's seed and keys (the engine resume uses): every section checked by the kind's codec (a screen
 * byte for byte), stopping at the first divergence, which exits 1.
 */
async function replayToFirst(log: string, config: RunConfig, kind: KindPlay, json: boolean): Promise<number> {
  const r = await replayToFirstDifference(log, kind.codec, kind, () => kind.open(config, replayContext(config)));
  if (r.isErr() && r.error.code !== "replay-mismatch") {
    console.error(formatError(r.error));
    return 2;
  }
  if (json)
    console.log(
      JSON.stringify(
        r.isOk()
          ? { log, game: config.game, seed: config.seed, ...r.value, matched: true }
          : { log, game: config.game, seed: config.seed, matched: false, firstDivergence: r.error.message },
        null,
        2,
      ),
    );
  else if (r.isOk())
    console.log(
      `${log}: all ${r.value.sections} sections (${r.value.actions} actions) match ${envKind(config.env).title} at seed ${config.seed}, every screen byte for byte`,
    );
  else console.log(`${log}: ${r.error.message}`);
  return r.isOk() ? 0 : 1;
}

const flags = {
  game: flag.text(),
  env: flag.choice(ENV_KINDS),
  ...settingFlags(KIND_PLACES),
  seed: flag.int(0, 2 ** 32 - 1),
  "max-report": flag.intOr(20, 0),
  json: flag.bool(),
} as const;

const REPLAY_OPERAND = { name: "<run-dir|logs.txt>", what: "the run directory or log whose actions to replay" };

export const replayCommand: Command = {
  name: "replay",
  summary: "re-execute a log's actions against a game and report every board that differs",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("replay", args, flags);
    if (!parsed) return 2;
    const [given] = parsed.positionals;
    const v = parsed.values;
    if (!operandsFit("replay", parsed.positionals, [REPLAY_OPERAND]) || given === undefined) return 2;
    // A run directory stands for its logs.txt, and its run.json says which game (and seed, env) wrote it.
    const log = logPathOf(given);
    if (log === given && existsSync(given) && statSync(given).isDirectory()) {
      console.error(
        formatError(
          prolongError("not-a-log", "this directory holds no logs.txt", {
            path: given,
            fix: "give a run directory (runs/<stamp>/<game>) or a logs.txt",
          }),
        ),
      );
      return 2;
    }
    let recorded: Partial<RunConfig> = {};
    const runJson = join(given, RUN_FILES.config);
    const ownRun = log !== given && existsSync(runJson);
    if (ownRun) {
      const c = readConfigFile(runJson);
      if (c.isErr()) {
        console.error(formatError(c.error));
        return 2;
      }
      // The game, its seed and its kind's own settings (NetHack's character, ARC's games directory).
      const own = Object.keys(envKind(c.value.env).settings) as (keyof RunConfig)[];
      recorded = {
        game: c.value.game,
        env: c.value.env,
        seed: c.value.seed,
        ...Object.fromEntries(own.flatMap((k) => (c.value[k] === undefined ? [] : [[k, c.value[k]]]))),
      };
    }
    const game = v.game ?? recorded.game;
    if (game === undefined)
      return argumentProblem(
        "replay",
        `missing --game: nothing says which game wrote ${given} (no run.json beside it)`,
        "pass --game ID, or give the run directory, whose run.json names it",
      );
    const config = newConfig({
      ...recorded,
      game,
      ...(v.seed !== undefined ? { seed: v.seed } : {}),
      ...(v.env ? { env: v.env } : {}),
      ...fieldsFromFlagValues(KIND_PLACES, v),
    });
    if (config.isErr()) {
      console.error(formatError(config.error));
      return 2;
    }
    // A log whose replay stops at the first difference is replayed by the engine `prolong resume` uses; one that
    // reports every difference is read one section at a time (a grid game's, board by board).
    const kind = await loadKind(config.value.env);
    if (kind.codec.replay === "first-difference") return replayToFirst(log, config.value, kind, v.json);
    const result = await replayLog(log, config.value, kind, ownRun);
    if (!result.ok) {
      console.error(formatError(result.error));
      return 2;
    }
    console.log(v.json ? JSON.stringify(result.report, null, 2) : reportText(result.report, v["max-report"]));
    // A section that could not be checked (the log cut or foreign past some point) is not a match.
    return result.report.differences.length === 0 && result.report.cut === undefined ? 0 : 1;
  },
};
