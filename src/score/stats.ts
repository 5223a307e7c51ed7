// The paper's statistics over runs and games: pass@1 (mean over independent runs), best@k (max over k runs),
// percentile bootstrap confidence intervals that resample what varies in a study — games, then the runs (seeds)
// within each game — and BALROG's mean ± standard error over episodes. Seeded, so a committed table can be
// reproduced exactly. Pure functions on numbers: what a "run's score" is belongs to the callers.
import { seededRandom } from "../random.ts";

/** Arithmetic mean; NaN for no values (callers decide what an empty group means). */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** pass@1: the expected score of one run, estimated as the mean over independent runs. */
export function passAt1(runScores: readonly number[]): number {
  return mean(runScores);
}

/** best@k: the best of k runs (all the runs given when k is omitted); NaN for none. */
export function bestAtK(runScores: readonly number[], k = runScores.length): number {
  const used = runScores.slice(0, k);
  return used.length === 0 ? Number.NaN : Math.max(...used);
}

/**
 * best@k for k ≤ n runs as a curve point: the expected best score of k runs drawn without replacement from the
 * n observed, i.e. the mean over all C(n, k) subsets of their maximum. With scores sorted ascending, the i-th
 * (1-based) is the maximum of exactly C(i−1, k−1) subsets. k = 1 gives the mean (pass@1), k = n the maximum.
 */
export function expectedBestOfK(runScores: readonly number[], k: number): number {
  const n = runScores.length;
  if (!Number.isInteger(k) || k < 1 || k > n) return Number.NaN;
  const sorted = [...runScores].sort((a, b) => a - b);
  // Weights C(i−1, k−1) / C(n, k), built as ratios so that large n does not overflow.
  let total = 0;
  let weight = 1; // C(k−1, k−1) / C(n, k), then grown to C(i−1, k−1) / C(n, k)
  for (let j = 0; j < k; j++) weight *= (k - j) / (n - j);
  for (let i = k; i <= n; i++) {
    total += weight * (sorted[i - 1] as number);
    weight *= i / (i - k + 1); // C(i, k−1) / C(i−1, k−1) = i / (i − k + 1)
  }
  return total;
}

/**
 * The q-quantile (0..1) of sorted values by linear interpolation between closest ranks (R's type 7, numpy's
 * default): position q·(n−1), so quantile([1,2,3,4], 0.25) = 1.75.
 */
export function quantile(sorted: readonly number[], q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const pos = Math.min(Math.max(q, 0), 1) * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

export { seededRandom };

export interface BootstrapOptions {
  /** Default 0 (the committed tables use it). */
  readonly seed?: number;
  /** Default 10,000. */
  readonly resamples?: number;
  /** Coverage, default 0.95. */
  readonly level?: number;
}

export interface Interval {
  /** The statistic on the data as observed. */
  readonly estimate: number;
  /** The interval's ends; NaN (null in JSON) when one unit stands behind the estimate: nothing varies to resample. */
  readonly low: number;
  readonly high: number;
  /** The units behind it: games, and runs over all those games (printed beside every interval). */
  readonly games: number;
  readonly runs: number;
}

export const BOOTSTRAP_DEFAULTS = { seed: 0, resamples: 10_000, level: 0.95 } as const;

/** What one game contributes: a statistic of its runs' scores (the mean for pass@1, the expected best of k…). */
export type RunStatistic = (runs: readonly number[]) => number;

/**
 * Hierarchical percentile bootstrap of the mean over games of a per-game statistic. Each resample draws G games
 * with replacement, then, inside each drawn game, its n runs with replacement, and averages the statistic of
 * those runs over the drawn games; the interval is the (1−level)/2 and (1+level)/2 quantiles of the resampled
 * means. Both levels vary in a study (which games, which seeds), so both are resampled: a one-game study's
 * interval comes from its seeds, a study of one run per game from its games. A game of one run draws no random
 * number for its runs, so with one run per game this is exactly the bootstrap over games.
 * One run in all is one unit: the interval is NaN (say `n=1`), never a zero-width "certain" one.
 */
export function hierarchicalBootstrap(
  perGame: readonly (readonly number[])[],
  stat: RunStatistic,
  opts: BootstrapOptions = {},
): Interval {
  return pairedHierarchical(
    perGame.map(() => []),
    perGame,
    stat,
    opts,
  );
}

/** The usual case: pass@1 (the mean over runs) per game, one number per run. */
export function bootstrapMeanCI(perGame: readonly (readonly number[])[], opts: BootstrapOptions = {}): Interval {
  return hierarchicalBootstrap(perGame, mean, opts);
}

/**
 * Interval for the mean over games of stat(B's runs) − stat(A's runs), where a[i] and b[i] are the runs of the
 * same game under two arms: games are drawn as pairs (variation between games that both arms share does not
 * widen the interval), then each arm's runs of a drawn game are drawn independently (the arms' seeds are
 * separate runs).
 */
export function pairedBootstrapDiffCI(
  a: readonly (readonly number[])[],
  b: readonly (readonly number[])[],
  stat: RunStatistic,
  opts: BootstrapOptions = {},
): Interval {
  if (a.length !== b.length) throw new Error(`paired bootstrap needs equal lengths, got ${a.length} and ${b.length}`);
  return pairedHierarchical(a, b, stat, opts);
}

function pairedHierarchical(
  a: readonly (readonly number[])[],
  b: readonly (readonly number[])[],
  stat: RunStatistic,
  opts: BootstrapOptions,
): Interval {
  return pairedVector(a, b, 1, (runs, out) => void (out[0] = runs.length === 0 ? 0 : stat(runs)), opts)[0]!;
}

/** Several per-game statistics at once: `stat` writes `dims` values for one game's runs into `out`. */
export type VectorStatistic = (runs: readonly number[], out: Float64Array) => void;

/**
 * The hierarchical bootstrap of several per-game statistics from the same resamples (each interval is its own
 * statistic's; sharing the draws only saves drawing them again): what a best@k curve needs, where k = 1..K
 * are all statistics of one draw of each game's runs.
 */
export function hierarchicalBootstrapVector(
  perGame: readonly (readonly number[])[],
  dims: number,
  stat: VectorStatistic,
  opts: BootstrapOptions = {},
): Interval[] {
  return pairedVector(
    perGame.map(() => []),
    perGame,
    dims,
    stat,
    opts,
  );
}

function pairedVector(
  a: readonly (readonly number[])[],
  b: readonly (readonly number[])[],
  dims: number,
  stat: VectorStatistic,
  opts: BootstrapOptions,
): Interval[] {
  const games = b.length;
  const outA = new Float64Array(dims);
  const outB = new Float64Array(dims);
  /** Adds stat(B's runs) − stat(A's runs) of game i into `sums` (A's side is 0 when A has no runs). */
  const addDiff = (i: number, ra: readonly number[], rb: readonly number[], sums: Float64Array) => {
    stat(rb, outB);
    if ((a[i] as readonly number[]).length > 0) stat(ra, outA);
    else outA.fill(0);
    for (let d = 0; d < dims; d++) sums[d]! += (outB[d] as number) - (outA[d] as number);
  };
  const observed = new Float64Array(dims);
  for (let i = 0; i < games; i++) addDiff(i, a[i] as readonly number[], b[i] as readonly number[], observed);
  const estimates = Array.from(observed, (x) => (games === 0 ? Number.NaN : x / games));
  const runs = [...a, ...b].reduce((n, r) => n + r.length, 0);
  const single = games === 0 || (games === 1 && a[0]!.length <= 1 && b[0]!.length <= 1);
  if (single) return estimates.map((estimate) => ({ estimate, low: Number.NaN, high: Number.NaN, games, runs }));
  const resamples = opts.resamples ?? BOOTSTRAP_DEFAULTS.resamples;
  const level = opts.level ?? BOOTSTRAP_DEFAULTS.level;
  const random = seededRandom(opts.seed ?? BOOTSTRAP_DEFAULTS.seed);
  const draw = (xs: readonly number[], into: number[]): readonly number[] => {
    // One run has nothing to draw from: no random number is used, so one-run games resample exactly as games.
    if (xs.length <= 1) return xs;
    into.length = xs.length;
    for (let j = 0; j < xs.length; j++) into[j] = xs[Math.floor(random() * xs.length)] as number;
    return into;
  };
  const bufA: number[] = [];
  const bufB: number[] = [];
  const means = Array.from({ length: dims }, () => new Float64Array(resamples));
  const sums = new Float64Array(dims);
  for (let r = 0; r < resamples; r++) {
    sums.fill(0);
    for (let g = 0; g < games; g++) {
      const i = Math.floor(random() * games);
      const ra = draw(a[i] as readonly number[], bufA);
      const rb = draw(b[i] as readonly number[], bufB);
      addDiff(i, ra, rb, sums);
    }
    for (let d = 0; d < dims; d++) (means[d] as Float64Array)[r] = (sums[d] as number) / games;
  }
  return estimates.map((estimate, d) => {
    const sorted = Array.from((means[d] as Float64Array).sort());
    return { estimate, low: quantile(sorted, (1 - level) / 2), high: quantile(sorted, (1 + level) / 2), games, runs };
  });
}

/**
 * Writes, for k = 1..K, the expected best of k runs drawn without replacement from `runs` (expectedBestOfK),
 * into out[0..K−1], and the maximum into out[K]: the whole best@k curve from one sort. Weights are kept per n.
 */
export function bestOfKCurve(K: number): VectorStatistic {
  const weights = new Map<number, Float64Array[]>();
  const sorted: number[] = [];
  return (runs, out) => {
    const n = runs.length;
    sorted.length = n;
    for (let i = 0; i < n; i++) sorted[i] = runs[i] as number;
    sorted.sort((x, y) => x - y);
    let w = weights.get(n);
    if (!w) {
      w = Array.from({ length: K }, (_, k) => expectedBestWeights(n, k + 1));
      weights.set(n, w);
    }
    for (let k = 0; k < K; k++) {
      const wk = w[k] as Float64Array;
      let total = 0;
      for (let i = 0; i < n; i++) total += (wk[i] as number) * (sorted[i] as number);
      out[k] = k + 1 > n ? Number.NaN : total;
    }
    out[K] = n === 0 ? Number.NaN : (sorted[n - 1] as number);
  };
}

/** C(i−1, k−1) / C(n, k) for the i-th smallest of n (1-based): its chance to be the best of k drawn. */
function expectedBestWeights(n: number, k: number): Float64Array {
  const w = new Float64Array(n);
  if (k > n) return w;
  let weight = 1;
  for (let j = 0; j < k; j++) weight *= (k - j) / (n - j);
  for (let i = k; i <= n; i++) {
    w[i - 1] = weight;
    weight *= i / (i - k + 1);
  }
  return w;
}

/**
 * Mean ± standard error over episodes as BALROG reports it: every run's score pooled (all games), the mean, and
 * the population standard deviation (divided by n, as BALROG computes it) over √n. One run: no error (n=1).
 */
export interface MeanSE {
  readonly mean: number;
  /** NaN for fewer than two runs. */
  readonly se: number;
  readonly n: number;
}

export function meanSE(scores: readonly number[]): MeanSE {
  const n = scores.length;
  const m = mean(scores);
  if (n < 2) return { mean: m, se: Number.NaN, n };
  let ss = 0;
  for (const x of scores) ss += (x - m) ** 2;
  return { mean: m, se: Math.sqrt(ss / n) / Math.sqrt(n), n };
}
