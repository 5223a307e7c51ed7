// RHAE on hand-computed values, the completed-weight cap, and the real ft09 scorecard.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as v from "valibot";
import { formatRhae, gameRhae, gameScore, levelResults, levelScore } from "../../src/score/rhae.ts";

describe("levelScore", () => {
  test("100 * (baseline/actions)^2, capped at 115, 0 when not completed", () => {
    expect(levelScore({ baseline: 10, actions: 10, completed: true })).toBe(100);
    expect(levelScore({ baseline: 10, actions: 20, completed: true })).toBe(25);
    expect(levelScore({ baseline: 30, actions: 40, completed: true })).toBeCloseTo(56.25, 10);
    expect(levelScore({ baseline: 43, actions: 4, completed: true })).toBe(115);
    expect(levelScore({ baseline: 10, actions: 5, completed: false })).toBe(0);
  });
});

describe("gameScore", () => {
  test("weighted mean with weight = level index", () => {
    // levels 100, 25, 0(not completed): (1*100 + 2*25 + 3*0) / 6 = 25; cap 100*3/6 = 50
    const score = gameScore([
      { baseline: 10, actions: 10, completed: true },
      { baseline: 10, actions: 20, completed: true },
      { baseline: 10, actions: 0, completed: false },
    ]);
    expect(score).toBe(25);
  });

  test("capped by the weight of completed levels", () => {
    // 115 on level 1 only: mean 115/3 = 38.33, cap 100*1/3 = 33.33
    const score = gameScore([
      { baseline: 50, actions: 5, completed: true },
      { baseline: 10, actions: 0, completed: false },
    ]);
    expect(score).toBeCloseTo(100 / 3, 10);
    // All levels at 115: mean 115, cap 100.
    expect(
      gameScore([
        { baseline: 9, actions: 3, completed: true },
        { baseline: 9, actions: 3, completed: true },
      ]),
    ).toBe(100);
  });

  test("no levels completed is 0", () => {
    expect(gameScore(levelResults([5, 6, 7], [3, 0, 0], 0))).toBe(0);
    expect(gameScore([])).toBe(0);
  });

  const ft09Card = path.join(
    path.resolve(import.meta.dir, "../..", "..", "shared"),
    "fixtures",
    "prolong-release",
    "ft09",
    "scorecard.json",
  );
  test.skipIf(!existsSync(ft09Card))(
    `the real ft09 scorecard: every level 115, game score 100${existsSync(ft09Card) ? "" : ` (skipped: ${ft09Card} is absent)`}`,
    () => {
      const file = ft09Card;
      const Run = v.object({
        levels_completed: v.number(),
        level_actions: v.array(v.number()),
        level_baseline_actions: v.array(v.number()),
        level_scores: v.array(v.number()),
        score: v.number(),
      });
      const card = v.parse(
        v.object({ environments: v.array(v.object({ runs: v.array(v.looseObject(Run.entries)) })) }),
        JSON.parse(readFileSync(file, "utf8")),
      );
      const best = card.environments[0]!.runs.find((r) => r.levels_completed === 6)!;
      expect(best.level_actions).toEqual([4, 7, 14, 21, 21, 15]);
      expect(best.level_baseline_actions).toEqual([43, 12, 23, 28, 65, 37]);
      const results = levelResults(best.level_baseline_actions, best.level_actions, best.levels_completed);
      expect(results.map((r) => levelScore(r))).toEqual([115, 115, 115, 115, 115, 115]);
      expect(results.map((r) => levelScore(r))).toEqual(best.level_scores);
      expect(gameScore(results)).toBe(100);
      expect(gameScore(results)).toBe(best.score);
      expect(gameRhae(best.level_baseline_actions, best.level_actions, 6)).toBe(100);
      expect(gameRhae([10, 10], [20, 0], 1)).toBeCloseTo(25 / 3, 10); // (1*25)/3, cap 100/3
    },
  );
});

describe("formatRhae", () => {
  test("a score that is not zero never prints as zero; larger ones get two decimals", () => {
    expect(formatRhae(0)).toBe("0.00");
    expect(formatRhae(0.0153)).toBe("0.02");
    expect(formatRhae(0.00712)).toBe("0.0071");
    expect(formatRhae(0.00004)).toBe("0.000040");
    expect(formatRhae(4.356)).toBe("4.36");
    expect(formatRhae(100)).toBe("100.00");
  });
});
