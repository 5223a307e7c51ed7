// Our progression against BALROG's own achievement table (balrog-achievements.json beside this file: its
// values, in its keys, with where they come from). BALROG's rule, as its evaluation code applies it: after each
// step look up "Dlvl:<depth>" and "Xp:<experience level>" and keep the largest value the episode has reached; a
// key the table lacks adds nothing.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { progressionAt } from "../../../src/game/nethack/progression.ts";
import balrog from "./balrog-achievements.json" with { type: "json" };

const ENTRIES = v.parse(v.object({ entries: v.record(v.string(), v.number()) }), balrog).entries;

/** BALROG's episode progression over a walk of (depth, experience level) points, by its rule. */
function balrogProgression(walk: readonly (readonly [number, number])[]): number {
  let best = 0;
  for (const [depth, xl] of walk) {
    for (const key of [`Dlvl:${depth}`, `Xp:${xl}`]) best = Math.max(best, ENTRIES[key] ?? best);
  }
  return best;
}

/** Ours over the same walk, as episode.ts keeps it. */
function ourProgression(walk: readonly (readonly [number, number])[]): number {
  return walk.reduce((best, [depth, xl]) => Math.max(best, progressionAt(depth, xl)), 0);
}

describe("BALROG's achievement table", () => {
  test("every Dlvl:N entry (1..50) is our value for depth N, exactly", () => {
    const keys = Object.keys(ENTRIES).filter((k) => k.startsWith("Dlvl:"));
    expect(keys).toHaveLength(50);
    for (const key of keys) expect(progressionAt(Number(key.slice(5)), 1)).toBe(ENTRIES[key]!);
  });

  test("every Xp:N entry (1..30) is our value for experience level N, exactly", () => {
    const keys = Object.keys(ENTRIES).filter((k) => k.startsWith("Xp:"));
    expect(keys).toHaveLength(30);
    for (const key of keys) expect(progressionAt(1, Number(key.slice(3)))).toBe(ENTRIES[key]!);
  });

  test("the table's other keys are the ones BALROG's code never looks up (its depth is blstats' number)", () => {
    const other = Object.keys(ENTRIES).filter((k) => !/^(Dlvl|Xp):\d+$/.test(k));
    expect(other.sort()).toEqual(["Astral Plane", "Home 1", "Home 2", "Home 3", "Home 4", "Home 5", "You ascend t"]);
  });

  test("depths the table has no entry for add nothing: the Planes (-5..0) and past 50, as a missing key", () => {
    expect(progressionAt(0, 1)).toBe(0);
    expect(progressionAt(-3, 1)).toBe(0);
    expect(progressionAt(51, 1)).toBe(0);
    expect(progressionAt(undefined, 4)).toBe(ENTRIES["Xp:4"]!);
    expect(progressionAt(51, 31)).toBe(0);
  });

  test("an episode's progression is the largest value reached, by BALROG's rule, on walks up and down", () => {
    const walks: (readonly [number, number])[][] = [
      [
        [1, 1],
        [2, 1],
        [5, 2],
        [3, 6],
        [1, 6],
      ],
      [
        [1, 1],
        [49, 14],
        [51, 14],
        [53, 14],
        [-5, 14],
      ],
      [
        [1, 1],
        [52, 1],
        [0, 1],
      ],
    ];
    // And a thousand seeded random walks over the whole range, including depths and levels with no entry.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let w = 0; w < 1000; w++) walks.push(Array.from({ length: 12 }, () => [next(60) - 6, next(32)] as const));
    for (const walk of walks) expect(ourProgression(walk)).toBe(balrogProgression(walk));
  });
});
