// The paper's statistics against hand-computed values.
import { describe, expect, test } from "bun:test";
import {
  bestAtK,
  bestOfK,
  bootstrapMeanCI as runsCI,
  expectedBestOfK,
  hierarchicalBootstrap,
  hierarchicalBootstrapAll,
  bestOfKCurve,
  mean,
  MEAN_OF_RUNS,
  meanSE,
  pairedBootstrapDiffCI as pairedRunsCI,
  passAt1,
  quantile,
  seededRandom,
} from "../../src/score/stats.ts";
import { SeededStream } from "../../src/random.ts";

/** Games of one run each: the bootstrap over games the paper describes. */
const bootstrapMeanCI = (values: number[], opts = {}) =>
  runsCI(
    values.map((x) => [x]),
    opts,
  );
const pairedBootstrapDiffCI = (a: number[], b: number[]) =>
  pairedRunsCI(
    a.map((x) => [x]),
    b.map((x) => [x]),
    MEAN_OF_RUNS,
  );
/** The interval's three numbers (the unit counts are tested on their own). */
const ends = (i: { estimate: number; low: number; high: number }) => ({ estimate: i.estimate, low: i.low, high: i.high });

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
  test("identical games: the interval is the value itself", () => {
    expect(ends(bootstrapMeanCI([7, 7, 7, 7]))).toEqual({ estimate: 7, low: 7, high: 7 });
  });

  test("two games 0 and 100: resample means are 0, 50, 100 with probability 1/4, 1/2, 1/4", () => {
    // 95%: the 2.5% and 97.5% quantiles fall inside the 0 and 100 masses.
    expect(ends(bootstrapMeanCI([0, 100]))).toEqual({ estimate: 50, low: 0, high: 100 });
    // 20%: the 40% and 60% quantiles both fall inside the mass at 50.
    expect(ends(bootstrapMeanCI([0, 100], { level: 0.2 }))).toEqual({ estimate: 50, low: 50, high: 50 });
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
    expect(ends(pairedBootstrapDiffCI([0, 50, 100], [10, 60, 110]))).toEqual({ estimate: 10, low: 10, high: 10 });
    const d = pairedBootstrapDiffCI([10, 20], [30, 20]);
    expect(d.estimate).toBe(10);
    expect(ends(d)).toEqual({ estimate: 10, low: 0, high: 20 });
    expect(() => pairedBootstrapDiffCI([1], [1, 2])).toThrow();
  });
});

describe("hierarchical bootstrap: games, then runs within each game", () => {
  // Ten seeds of one game (one NetHack study): BALROG-style progression figures.
  const tenSeeds = [1.2, 0, 4.6, 2.9, 12.4, 0.5, 3.3, 8.1, 0, 7.4];

  test("one game of ten runs: the interval comes from its seeds (not zero-width), with 1 game and 10 runs", () => {
    const ci = runsCI([tenSeeds]);
    expect(ci.estimate).toBeCloseTo(4.04, 10);
    expect(ci.low).toBeLessThan(ci.estimate);
    expect(ci.high).toBeGreaterThan(ci.estimate);
    expect(ci.low).toBeGreaterThanOrEqual(0);
    expect(ci.high).toBeLessThanOrEqual(12.4);
    expect([ci.games, ci.runs]).toEqual([1, 10]);
  });

  test("one game of two runs 0 and 100: run means 0, 50, 100 with probability 1/4, 1/2, 1/4 → [0, 100]", () => {
    expect(ends(runsCI([[0, 100]]))).toEqual({ estimate: 50, low: 0, high: 100 });
    expect(ends(runsCI([[0, 100]], { level: 0.2 }))).toEqual({ estimate: 50, low: 50, high: 50 });
  });

  test("one run in all is one unit: no interval (NaN), n=1", () => {
    const ci = runsCI([[42]]);
    expect(ci.estimate).toBe(42);
    expect(ci.low).toBeNaN();
    expect(ci.high).toBeNaN();
    expect([ci.games, ci.runs]).toEqual([1, 1]);
  });

  test("both levels vary: two games whose runs differ give a wider interval than their game means alone", () => {
    const runs = [
      [0, 40],
      [60, 100],
    ];
    const nested = runsCI(runs, { resamples: 50_000 });
    const gamesOnly = bootstrapMeanCI([20, 80], { resamples: 50_000 });
    expect(nested.estimate).toBe(50);
    expect(nested.high - nested.low).toBeGreaterThan(gamesOnly.high - gamesOnly.low - 1e-9);
    // The extremes are reachable only through the runs: every run of game one (0) or of game two (100).
    expect(nested.low).toBeLessThan(20);
    expect(nested.high).toBeGreaterThan(80);
  });

  test("any per-game statistic: best@k of the runs drawn, here the max of one game's two runs", () => {
    // Draws of two runs from {0, 100}: max 0 with probability 1/4, 100 with 3/4; the 20% point falls in the 0s.
    const ci = hierarchicalBootstrap([[0, 100]], bestOfK(2), { level: 0.6 })[0]!;
    expect(ends(ci)).toEqual({ estimate: 100, low: 0, high: 100 });
  });

  test("paired: one game, two arms of several runs each, varies; one run each is n=1", () => {
    const d = pairedRunsCI([[0, 10, 20]], [[30, 40, 50]], MEAN_OF_RUNS);
    expect(d.estimate).toBe(30);
    expect(d.high).toBeGreaterThan(d.low);
    expect([d.games, d.runs]).toEqual([1, 6]);
    expect(pairedRunsCI([[0]], [[30]], MEAN_OF_RUNS).low).toBeNaN();
  });
});

describe("statistics bootstrapped together share the draws, not the results", () => {
  // Games of unequal run counts, a one-run game among them, and ties: the shapes where a shortcut would show.
  const scores = [[0, 12.5, 12.5, 40], [7], [3.3, 0, 88.1], [20, 20, 21.5, 0, 64]];
  const levels = [[0, 1, 1, 3], [1], [1, 0, 6], [2, 2, 2, 0, 5]];
  const opts = { seed: 3, resamples: 2_000 };

  test("each column's intervals equal those it gets bootstrapped alone with the same seed", () => {
    const [p, curve, l] = hierarchicalBootstrapAll(
      [
        { perGame: scores, stat: MEAN_OF_RUNS },
        { perGame: scores, stat: bestOfKCurve(1) },
        { perGame: levels, stat: MEAN_OF_RUNS },
      ],
      opts,
    );
    expect(p).toEqual(hierarchicalBootstrap(scores, MEAN_OF_RUNS, opts));
    expect(curve).toEqual(hierarchicalBootstrap(scores, bestOfKCurve(1), opts));
    expect(l).toEqual(hierarchicalBootstrap(levels, MEAN_OF_RUNS, opts));
    // best@1 is pass@1 and the curve's last point the max: the sorted draw holds the same runs as the drawn order.
    expect(curve![0]!.low).toBeCloseTo(p![0]!.low, 9);
    expect(curve![0]!.high).toBeCloseTo(p![0]!.high, 9);
  });

  test("columns of different games or run counts cannot share draws: refused", () => {
    expect(() =>
      hierarchicalBootstrapAll([
        { perGame: scores, stat: MEAN_OF_RUNS },
        { perGame: [[1, 2, 3, 4], [1], [1, 2, 3], [1, 2, 3, 4]], stat: MEAN_OF_RUNS },
      ]),
    ).toThrow("same games and runs");
  });

  test("best@k from the counted (sorted) draw equals expectedBestOfK of the drawn runs", () => {
    // One game: every resample draws its 4 runs; best of 2 of them, as the per-k estimator gives it.
    const ci = hierarchicalBootstrap([[0, 10, 30, 100]], bestOfK(2), { resamples: 50_000, level: 0.5 })[0]!;
    expect(ci.estimate).toBe(expectedBestOfK([0, 10, 30, 100], 2));
    expect(ci.low).toBeLessThan(ci.estimate);
    expect(ci.high).toBeGreaterThan(ci.estimate);
  });

  test("the generator's index draws are its numbers, floored: the same sequence as one call per number", () => {
    const random = seededRandom(9);
    const stream = new SeededStream(9);
    const into = new Int32Array(7);
    stream.indices(into, 7);
    expect([...into]).toEqual(Array.from({ length: 7 }, () => Math.floor(random() * 7)));
    expect(stream.next()).toBe(random());
  });
});

describe("mean ± standard error over episodes (BALROG)", () => {
  test("population SD over √n, by hand", () => {
    // mean 5, population SD 5, SE 5/√2
    expect(meanSE([0, 10])).toEqual({ mean: 5, se: 5 / Math.SQRT2, n: 2 });
    const s = meanSE([1.2, 0, 4.6, 2.9, 12.4, 0.5, 3.3, 8.1, 0, 7.4]);
    const m = 4.04;
    const sd = Math.sqrt([1.2, 0, 4.6, 2.9, 12.4, 0.5, 3.3, 8.1, 0, 7.4].reduce((n, x) => n + (x - m) ** 2, 0) / 10);
    expect(s.mean).toBeCloseTo(m, 10);
    expect(s.se).toBeCloseTo(sd / Math.sqrt(10), 10);
    expect(s.se).toBeGreaterThan(0);
  });
  test("one run has no standard error", () => {
    expect(meanSE([3]).se).toBeNaN();
  });
});
