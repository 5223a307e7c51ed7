// `prolong games`: the committed local games, their levels, actions and tags.
import { parseArgs } from "node:util";
import { catalog } from "../game/catalog.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong games [--json]

Lists the committed local games (embedded in the binary): id, title, levels, the actions each offers
(ACTION1-4 move, 5 interact, 6 click, 7 undo), the per-level baseline action counts (RHAE) and tags.
Play one with \`prolong play <id>\` (the built-in explorer) or \`prolong play <id> --agent human\`.

  --json   one JSON array of {id, title, about, levels, actions, baselines, tags}`;

export interface GameListing {
  readonly id: string;
  readonly title: string;
  readonly about: string;
  readonly levels: number;
  readonly actions: string[];
  readonly baselines: number[];
  readonly tags: string[];
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
  const actWidth = Math.max(7, ...rows.map((r) => r.actions.map((a) => a.replace("ACTION", "")).join(",").length));
  const lines = rows.map(
    (r) =>
      `${r.id.padEnd(idWidth)}  ${String(r.levels).padStart(6)}  ${r.actions.map((a) => a.replace("ACTION", "")).join(",").padEnd(actWidth)}  ${r.tags.join(", ")}\n${" ".repeat(idWidth + 2)}${r.title}: ${r.about}`,
  );
  const total = rows.reduce((n, r) => n + r.levels, 0);
  return [`${"id".padEnd(idWidth)}  levels  ${"actions".padEnd(actWidth)}  tags`, ...lines, `${rows.length} games, ${total} levels`].join("\n");
}

export const gamesCommand: Command = {
  name: "games",
  summary: "list the committed local games: levels, actions, tags",
  usage,
  async run(args) {
    let json = false;
    try {
      json = parseArgs({ args, options: { json: { type: "boolean" } }, allowPositionals: false }).values.json === true;
    } catch (e) {
      console.error(`prolong games: ${(e as Error).message}\n  fix: run 'prolong games --help'`);
      return 2;
    }
    const rows = gameListings();
    console.log(json ? JSON.stringify(rows, null, 2) : table(rows));
    return 0;
  },
};
