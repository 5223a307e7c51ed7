// BALROG's NetHack progression: after each step, the table value of the hero's dungeon depth and of its
// experience level, the episode keeping the largest value reached (data/nethack/progression.json, with its
// source named there). A depth or level the table has no entry for (the Planes' depths -5..0, depths past 50)
// adds nothing, as BALROG's lookup of a missing key does; ascension is 100% as BALROG's description says.
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

/** The table value of one point of a game: depth 1..50 and experience level 1..30; anything else counts 0. */
export function progressionAt(depth: number | undefined, xl: number): number {
  const d = depth === undefined ? 0 : (TABLE.depth[depth - 1] ?? 0);
  const x = TABLE.experienceLevel[xl - 1] ?? 0;
  return Math.max(d, x);
}

/** The log header's Score: progression in hundredths of a percent (an integer that orders like it). */
export function progressionScore(progression: number): number {
  return Math.round(progression * 10_000);
}
