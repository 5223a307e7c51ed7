// The games a batch or a plan names, each with its version when the environment can tell it before playing
// (a plan's job ids include it, so a changed game makes new jobs). One reading of --games for `play --games`
// and `prolong plan`, so the two never disagree on what a list or "all" means.
import { formatError } from "../errors.ts";
import { findArcGame, listArcGames } from "../game/arc/games-dir.ts";
import { findGame, listGames } from "../game/catalog.ts";
import { envKind, type EnvKindName } from "../game/kinds.ts";

export interface PlannedGame {
  readonly id: string;
  readonly version: string | null;
}

/**
 * `games` is "all", a list, or undefined (not given). A kind of one game (NetHack) plays that game when none is
 * named or all are. A string is the problem, to print after "prolong <command>: ".
 */
export function gamesOf(games: string | undefined, env: EnvKindName, arcGames: string | undefined): PlannedGame[] | string {
  const ids =
    games === undefined || games.trim() === "all"
      ? null
      : games
          .split(",")
          .map((g) => g.trim())
          .filter(Boolean);
  const sole = envKind(env).soleGame;
  if (sole !== undefined && (ids === null || ids.length === 0)) return [{ id: sole, version: null }];
  if (games === undefined) return "which games? give --games all|a,b,c (`prolong games` lists them)";
  if (ids !== null && ids.length === 0) return "--games names no game";
  if (env === "local") {
    const list = ids ?? listGames().map((g) => g.id);
    const out = [];
    for (const id of list) {
      const g = findGame(id);
      if (g.isErr()) return formatError(g.error).replace(/^prolong: /, "");
      out.push({ id, version: g.value.info.version ?? null });
    }
    return out;
  }
  if (env === "arc-local") {
    if (arcGames === undefined) return "--env arc-local needs --arc-games DIR";
    if (ids === null) {
      const all = listArcGames(arcGames);
      if (all.isErr()) return formatError(all.error).replace(/^prolong: /, "");
      return all.value.map((g) => ({ id: g.gameId, version: g.version }));
    }
    const out = [];
    for (const id of ids) {
      const g = findArcGame(arcGames, id);
      if (g.isErr()) return formatError(g.error).replace(/^prolong: /, "");
      out.push({ id, version: g.value.version });
    }
    return out;
  }
  if (ids === null) return `--env ${env}: name the games (--games a,b,c); "all" is not known before playing`;
  return ids.map((id) => ({ id, version: null }));
}
