// `prolong games`: the games of an environment kind as the kind lists them — the committed local games by
// default, their levels, actions and tags; with --arc-games DIR (or --env arc-local), ARC's game files.
import { formatError } from "../errors.ts";
import { DEFAULT_ENV_KIND, ENV_KINDS, envKind, type EnvKindName, type GameListing } from "../game/kinds.ts";
import { fieldsFromFlagValues, settingFlags, type SettingTable } from "../setting/declaration.ts";
import { findRuns } from "../score/find-runs.ts";
import { baselinesTable, humanBaselines } from "../score/human-baselines.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong games [--env KIND] [--arc-games DIR] [--json]
       prolong games --baselines <run dirs>... [--json]

Lists the committed local games (embedded in the binary): id, title, levels, the actions each offers
(ACTION1-4 move, 5 interact, 6 click, 7 undo), the per-level baseline action counts (RHAE) and tags.
Play one with \`prolong play <id>\` (the built-in explorer) or \`prolong play <id> --agent human\`.

  --env KIND        the games of that environment kind (default local; ${ENV_KINDS.filter((k) => envKind(k).listing).join(", ")}
                    have a list)
  --arc-games DIR   list ARC-AGI-3 game files instead (<id>/<version>/<id>.py + metadata.json): one row per
                    version, its levels and baselines from metadata.json; actions are known once the game
                    runs, so they show as "?". Play one with \`prolong play ft09 --env arc-local --arc-games DIR\`.
                    (--env arc-local alone reads the directory PROLONG_ARC_GAMES names, as play does.)
  --baselines       per game and level, the fewest actions of the runs a person played (agent human) under the
                    given run directories, beside the baseline RHAE divides by
  --json            one JSON array of {id, title, about, levels, actions, baselines, tags}
                    (with --baselines: of {game, runs, levels: [{level, baseline, best, completions}]})`;

export type { GameListing };

function table(rows: GameListing[]): string {
  const idWidth = Math.max(2, ...rows.map((r) => r.id.length));
  const acts = (r: GameListing) => (r.actions.length === 0 ? "?" : r.actions.map((a) => a.replace("ACTION", "")).join(","));
  const actWidth = Math.max(7, ...rows.map((r) => acts(r).length));
  const lines = rows.map(
    (r) =>
      `${r.id.padEnd(idWidth)}  ${String(r.levels).padStart(6)}  ${acts(r).padEnd(actWidth)}  ${r.tags.join(", ")}\n${" ".repeat(idWidth + 2)}${r.title}: ${r.about}`,
  );
  const total = rows.reduce((n, r) => n + r.levels, 0);
  return [
    `${"id".padEnd(idWidth)}  levels  ${"actions".padEnd(actWidth)}  tags`,
    ...lines,
    `${rows.length} games, ${total} levels`,
  ].join("\n");
}

/** The kinds that list their games, and their own settings: flags here as on play (--arc-games), read the same way. */
const LISTED = ENV_KINDS.filter((k) => envKind(k).listing);
const LISTED_SETTINGS: SettingTable = Object.fromEntries(LISTED.flatMap((k) => Object.entries(envKind(k).settings)));
const kindFlags = settingFlags(LISTED_SETTINGS);
const flags = { json: flag.bool(), baselines: flag.bool(), env: flag.choice(ENV_KINDS), ...kindFlags } as const;

/**
 * The kind whose games are listed: --env, or the kind a given setting of a kind belongs to (--arc-games is
 * arc-local's), or the default.
 */
function kindOf(values: Readonly<Record<string, unknown>>): EnvKindName {
  if (values.env !== undefined) return values.env as EnvKindName;
  const given = Object.keys(fieldsFromFlagValues(LISTED_SETTINGS, values));
  const owner = ENV_KINDS.find((k) => given.some((key) => key in envKind(k).settings));
  return owner ?? DEFAULT_ENV_KIND;
}

export const gamesCommand: Command = {
  name: "games",
  summary: "list the committed local games: levels, actions, tags",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("games", args, flags);
    if (!parsed) return 2;
    const json = parsed.values.json === true;
    if (parsed.values.baselines) {
      if (parsed.positionals.length === 0) {
        console.error(
          "prolong games: --baselines needs run directories (or directories above them)\n  fix: e.g. prolong games --baselines runs/",
        );
        return 2;
      }
      const found = findRuns(parsed.positionals);
      const games = humanBaselines(found.runs);
      console.log(json ? JSON.stringify(games, null, 2) : baselinesTable(games));
      return games.length > 0 ? 0 : 1;
    }
    if (parsed.positionals.length > 0) {
      console.error(
        `prolong games: takes no arguments, got '${parsed.positionals[0]}' (run directories go with --baselines)\n  fix: see 'prolong games --help'`,
      );
      return 2;
    }
    const values = parsed.values as Readonly<Record<string, unknown>>;
    const name = kindOf(values);
    const kind = envKind(name);
    if (!kind.listing) {
      console.error(
        `prolong games: --env ${name} has no list of games${kind.soleGame ? ` (it plays one, '${kind.soleGame}')` : ""}\n  fix: list the games of --env ${LISTED.join(" or ")}`,
      );
      return 2;
    }
    const listed = await kind.listing(fieldsFromFlagValues(LISTED_SETTINGS, values));
    if (listed.isErr()) {
      console.error(formatError(listed.error));
      return 2;
    }
    const rows = listed.value;
    console.log(json ? JSON.stringify(rows, null, 2) : table(rows));
    return 0;
  },
};
