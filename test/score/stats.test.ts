// The paper's statistics against hand-computed values.
import { describe, expect, test } from "bun:test";
import { bestAtK, bootstrapMeanCI, mean, pairedBootstrapDiffCI, passAt1, quantile, seededRandom } from "../../src/score/stats.ts";

describe("pass@1 and best@k", () => {
  test("pass@1 is the mean over runs, best@k the max over the first k runs", () => {
    expect(passAt1([10, 20, 60])).toBe(30);
    expect(bestAtK([10, 20, 60])).toBe(60);
    expect(bestAtK([10, 20, 60], 2)).toBe(20);
    expect(bestAtK([5], 3)).toBe(5);
  });
  test("no runs: NaN, not 0 (an empty group is not a zero score)", () => {
    expect(mean([])).toBeNaN();
    expect(bestAtK([])).toBeNaN();
  });
  test("paper's shape: best@k over games is the mean of per-game maxima", () => {
    // game A runs 0, 50, 100; game B runs 20, 20, 20 → pass@1 per game 50 and 20, overall 35; best@3 100 and 20 → 60
    const games = [
      [0, 50, 100],
      [20, 20, 20],
    ];
    expect(mean(games.map(passAt1))).toBe(35);
    expect(mean(games.map((g) => bestAtK(g)))).toBe(60);
  });
});

describe("quantile (type 7)", () => {
  test("linear interpolation between closest ranks", () => {
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
    expect(quantile([10, 20, 30, 40, 50], 0.9)).toBe(46);
    expect(quantile([7], 0.3)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe("seeded generator", () => {
  test("same seed → same sequence; another seed → another; values in [0,1)", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 1000 }, () => c())).not.toEqual(xs);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(mean(xs)).toBeGreaterThan(0.45);
    expect(mean(xs)).toBeLessThan(0.55);
  });
});

describe("bootstrap over games", () => {
  test("one game or identical games: the interval is the value itself", () => {
    expect(bootstrapMeanCI([42])).toEqual({ estimate: 42, low: 42, high: 42 });
    expect(bootstrapMeanCI([7, 7, 7, 7])).toEqual({ estimate: 7, low: 7, high: 7 });
  });

  test("two games 0 and 100: resample means are 0, 50, 100 with probability 1/4, 1/2, 1/4", () => {
    // 95%: the 2.5% and 97.5% quantiles fall inside the 0 and 100 masses.
    expect(bootstrapMeanCI([0, 100])).toEqual({ estimate: 50, low: 0, high: 100 });
    // 20%: the 40% and 60% quantiles both fall inside the mass at 50.
    expect(bootstrapMeanCI([0, 100], { level: 0.2 })).toEqual({ estimate: 50, low: 50, high: 50 });
  });

  test("three games 0, 30, 90: exact enumeration of the 27 resamples as the oracle", () => {
    // Means of 3 draws; P(mean = 0) = 1/27 ≈ 3.7% > 2.5%, P(mean = 90) = 1/27: so 95% → [0, 90] exactly.
    expect(bootstrapMeanCI([0, 30, 90])).toMatchObject({ estimate: 40, low: 0, high: 90 });
    // 80%: the 27 sorted means are 0,10,10,10,20,...,70,70,70,90. Mean 10 holds the CDF from 1/27 (3.7%) to
    // 4/27 (14.8%) and mean 70 from 23/27 (85.2%) to 26/27 (96.3%), so the 10% and 90% points are 10 and 70.
    const values = [0, 30, 90];
    const all: number[] = [];
    for (const x of values) for (const y of values) for (const z of values) all.push((x + y + z) / 3);
    all.sort((p, q) => p - q);
    expect([all[1], all[3], all[23], all[25]]).toEqual([10, 10, 70, 70]);
    const ci = bootstrapMeanCI(values, { level: 0.8, resamples: 200_000 });
    expect(ci.low).toBe(10);
    expect(ci.high).toBe(70);
  });

  test("seeded: the same seed reproduces the interval, another seed moves it", () => {
    const scores = [3.1, 0, 45.2, 12.5, 88, 0, 7.7, 19.9];
    const a = bootstrapMeanCI(scores, { seed: 1 });
    expect(bootstrapMeanCI(scores, { seed: 1 })).toEqual(a);
    expect(bootstrapMeanCI(scores, { seed: 2 })).not.toEqual(a);
    expect(a.estimate).toBeCloseTo(22.05, 10);
    expect(a.low).toBeLessThan(a.estimate);
    expect(a.high).toBeGreaterThan(a.estimate);
    expect(a.low).toBeGreaterThanOrEqual(0);
    expect(a.high).toBeLessThanOrEqual(88);
  });

  test("paired difference: a constant gap has a zero-width interval; pairing removes shared game variation", () => {
    expect(pairedBootstrapDiffCI([0, 50, 100], [10, 60, 110])).toEqual({ estimate: 10, low: 10, high: 10 });
    const d = pairedBootstrapDiffCI([10, 20], [30, 20]);
    expect(d.estimate).toBe(10);
    expect(d).toEqual({ estimate: 10, low: 0, high: 20 });
    expect(() => pairedBootstrapDiffCI([1], [1, 2])).toThrow();
  });
});
