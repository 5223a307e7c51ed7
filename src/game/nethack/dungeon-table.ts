// Fort Ludios's real depth, from the game's own dungeon table. Its portal floats: the game puts it in the first
// vault it makes at depth 11 or more above Medusa, but the Fort's depth (what NLE's blstats, and so BALROG,
// counts) was fixed when the dungeon was laid out, 18 to 21, and no screen of a normal game shows it (#overview
// calls the Fort "Level 1"). NetHack's checkpoint ("<lock>.0" in the game folder, rewritten at every level
// change) holds that table: one record per dungeon, NetHack 3.6's struct dungeon as the x86-64 build lays it
// out: the name in 24 bytes, then its prototype, bones id, flags and three level numbers, the ledger start at
// byte 48 and the depth of its first level at byte 52, both little-endian ints. (The Quest's depth needs none
// of this: its portal is fixed, so depth.ts reads it from the portal level.)
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile } from "../../safe-file.ts";

const DEPTH_START_AT = 52;
const RECORD_BYTES = 56;
/** The checkpoint is a few tens of KiB; anything far larger is not one. */
const CHECKPOINT_CAP = 4 * 1024 * 1024;

/** The depth of a dungeon's first level as the game's checkpoint records it, or undefined if it cannot be read. */
export function dungeonDepthStart(folder: string, dungeon: string): number | undefined {
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => /^[^.]+\.0$/.test(n));
  } catch {
    return undefined;
  }
  if (names.length !== 1) return undefined;
  const read = readRegularFile(join(folder, names[0]!), CHECKPOINT_CAP, "NetHack's checkpoint");
  if (read.isErr()) return undefined;
  const bytes = Buffer.from(read.value.buffer, read.value.byteOffset, read.value.byteLength);
  const at = bytes.indexOf(Buffer.from(`${dungeon}\0`, "latin1"));
  if (at < 0 || at + RECORD_BYTES > bytes.length) return undefined;
  const depth = bytes.readInt32LE(at + DEPTH_START_AT);
  // A dungeon below the surface starts between depth 1 and NetHack's deepest level.
  return depth >= 1 && depth <= 60 ? depth : undefined;
}
