// BALROG's NetHack progression: the best over an episode of the table value for the deepest dungeon level
// and the highest experience level reached (data/nethack/progression.json, with its source named there).
import * as v from "valibot";
import table from "../../../data/nethack/progression.json" with { type: "json" };

const TableSchema = v.object({
  source: v.string(),
  depth: v.pipe(v.array(v.pipe(v.number(), v.minValue(0), v.maxValue(1))), v.length(50)),
  experienceLevel: v.pipe(v.array(v.pipe(v.number(), v.minValue(0), v.maxValue(1))), v.length(30)),
  ascension: v.literal(1),
});

const TABLE = v.parse(TableSchema, table);

export const PROGRESSION_SOURCE = TABLE.source;

/** The table value of one point of a game (depth 1.. and experience level 1..; out-of-table values clamp). */
export function progressionAt(depth: number, xl: number): number {
  const d = TABLE.depth[Math.min(Math.max(depth, 1), TABLE.depth.length) - 1] ?? 0;
  const x = TABLE.experienceLevel[Math.min(Math.max(xl, 1), TABLE.experienceLevel.length) - 1] ?? 0;
  return Math.max(d, x);
}

/** The log header's Score: progression in hundredths of a percent (an integer that orders like it). */
export function progressionScore(progression: number): number {
  return Math.round(progression * 10_000);
}
