// The games a batch or a plan names, each with its version when the environment can tell it before playing
// (a plan's job ids include it, so a changed game makes new jobs). One reading of --games for `play --games`
// and `prolong plan`, so the two never disagree on what a list or "all" means: the environment kind says
// what its games are (game/kind.ts), reading the same settings and environment variables for both.
import { DEFAULTS, KIND_PLACES, type RunConfigInput } from "../config/run-config.ts";
import { formatError } from "../errors.ts";
import { envKind, type GameRef } from "../game/kinds.ts";

export type PlannedGame = GameRef;

/**
 * `games` is "all", a list, or undefined (not given); `common` holds the plan's env and where its games lie. A
 * kind of one game (NetHack) plays that game when none is named or all are. A string is the problem, to print
 * after "prolong <command>: ".
 */
export async function gamesOf(games: string | undefined, common: Partial<RunConfigInput>): Promise<PlannedGame[] | string> {
  const ids =
    games === undefined || games.trim() === "all"
      ? "all"
      : games
          .split(",")
          .map((g) => g.trim())
          .filter(Boolean);
  const kind = envKind(common.env ?? DEFAULTS.env);
  if (kind.soleGame === undefined) {
    if (games === undefined) return "which games? give --games all|a,b,c (`prolong games` lists them)";
    if (ids !== "all" && ids.length === 0) return "--games names no game";
  }
  const found = await kind.games(common, ids !== "all" && ids.length === 0 ? "all" : ids);
  return found.isOk() ? found.value : formatError(found.error).replace(/^prolong: /, "");
}

/** The settings that belong to a plan rather than to an arm: where the kind's games lie on this machine. */
export function placeFields(fields: Partial<RunConfigInput>): Partial<RunConfigInput> {
  return Object.fromEntries(
    Object.keys(KIND_PLACES).flatMap((k) => (k in fields ? [[k, fields[k as keyof typeof fields]]] : [])),
  );
}
