// Which version of a game a run played, so that runs of one game under one arm can be checked to agree.
import { createHash } from "node:crypto";
import type { GameInfo } from "../game-model.ts";

/**
 * The version of the game a run played: the environment's own version name when it has one (a local game's
 * is a hash of its file), else a hash of what the run saw of the game (levels, baselines, actions). Runs of one
 * game under one arm must agree on it.
 */
export function gameVersionOf(info: GameInfo): string {
  if (info.version !== undefined) return info.version;
  const seen = JSON.stringify([info.id, info.winLevels, info.baselineActions, info.availableActions]);
  return createHash("sha256").update(seen, "utf8").digest("hex").slice(0, 12);
}
