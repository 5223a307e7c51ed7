// `prolong games`: the committed local games, their levels, actions and tags; with --arc-games DIR, the
// ARC-AGI-3 game files in a directory instead.
import { formatError } from "../errors.ts";
import { listArcGames } from "../game/arc/games-dir.ts";
import { catalog } from "../game/catalog.ts";
import { findRuns } from "../score/find-runs.ts";
import { baselinesTable, humanBaselines } from "../score/human-baselines.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong games [--arc-games DIR] [--json]
       prolong games --baselines <run dirs>... [--json]

Lists the committed local games (embedded in the binary): id, title, levels, the actions each offers
(ACTION1-4 move, 5 interact, 6 click, 7 undo), the per-level baseline action counts (RHAE) and tags.
Play one with \`prolong play <id>\` (the built-in explorer) or \`prolong play <id> --agent human\`.

  --arc-games DIR   list ARC-AGI-3 game files instead (<id>/<version>/<id>.py + metadata.json): one row per
                    version, its levels and baselines from metadata.json; actions are known once the game
                    runs, so they show as "?". Play one with \`prolong play ft09 --env arc-local --arc-games DIR\`.
  --baselines       per game and level, the fewest actions of the runs a person played (agent human) under the
                    given run directories, beside the baseline RHAE divides by
  --json            one JSON array of {id, title, about, levels, actions, baselines, tags}
                    (with --baselines: of {game, runs, levels: [{level, baseline, best, completions}]})`;

export interface GameListing {
  readonly id: string;
  readonly title: string;
  readonly about: string;
  readonly levels: number;
  readonly actions: string[];
  readonly baselines: number[];
  readonly tags: string[];
}

/** The ARC games of a directory as listing rows (about = the game file). */
export function arcGameListings(dir: string) {
  return listArcGames(dir).map((entries) =>
    entries.map(
      (e): GameListing => ({
        id: e.gameId,
        title: e.title,
        about: e.gameFile,
        levels: e.baselineActions.length,
        actions: [],
        baselines: [...e.baselineActions],
        tags: [...e.tags],
      }),
    ),
  );
}

export function gameListings(): GameListing[] {
  return catalog().map((g) => ({
    id: g.info.id,
    title: g.info.title,
    about: g.about,
    levels: g.info.winLevels,
    actions: g.info.availableActions.map((a) => `ACTION${a}`),
    baselines: [...g.info.baselineActions],
    tags: [...g.info.tags],
  }));
}

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

const flags = { json: flag.bool(), "arc-games": flag.text(), baselines: flag.bool() } as const;

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
    const arcGames = parsed.values["arc-games"];
    let rows = gameListings();
    if (arcGames !== undefined) {
      const arc = arcGameListings(arcGames);
      if (arc.isErr()) {
        console.error(formatError(arc.error));
        return 2;
      }
      rows = arc.value;
    }
    console.log(json ? JSON.stringify(rows, null, 2) : table(rows));
    return 0;
  },
};
