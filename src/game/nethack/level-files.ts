// Whether the hero is leaving its level, known before the screen shows it. NetHack saves the level the hero
// leaves to its file in the game folder ("<lock>.<n>", n ≥ 1) before it draws the next one, and a message that
// needs --More-- (a trap door's, a level teleporter's) holds the old screen and status until it is answered.
// A level file written during a step is the sign: the game folder is the run's own, so nothing else writes it.
// (Files removed say nothing: the game removes them all when it ends.)
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const LEVEL_FILE = /\.[1-9]\d*$/;

/** The level files and when each was last written. */
export type LevelFiles = ReadonlyMap<string, number>;

export function levelFiles(folder: string): LevelFiles {
  const out = new Map<string, number>();
  try {
    for (const name of readdirSync(folder)) if (LEVEL_FILE.test(name)) out.set(name, statSync(join(folder, name)).mtimeMs);
  } catch {
    // A folder that cannot be read (or a file gone between the listing and its stat) says nothing more.
  }
  return out;
}

/** True when a level file was created or written between the two readings: the game saved a level. */
export function levelSaved(before: LevelFiles, now: LevelFiles): boolean {
  for (const [name, written] of now) if (before.get(name) !== written) return true;
  return false;
}
