// The paper's statistics over runs and games: pass@1 (mean over independent runs), best@k (max over k runs),
// and percentile bootstrap confidence intervals whose resampling unit is the GAME (the runs of a game are not
// independent draws of the benchmark; the games are). Seeded, so a committed table can be reproduced exactly.
// Pure functions on numbers: what a "run's score" is belongs to the callers.
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
  readonly low: number;
  readonly high: number;
}

export const BOOTSTRAP_DEFAULTS = { seed: 0, resamples: 10_000, level: 0.95 } as const;

/**
 * Percentile bootstrap interval for the mean of `values` (one value per game): resample the games with
 * replacement, take the mean each time, report the (1−level)/2 and (1+level)/2 quantiles of those means.
 */
export function bootstrapMeanCI(values: readonly number[], opts: BootstrapOptions = {}): Interval {
  return pairedBootstrap(
    values.map(() => 0),
    values,
    opts,
  );
}

/**
 * Interval for mean(b − a) where a[i] and b[i] are the same game under two arms: games are resampled as pairs,
 * so the variation between games that both arms share does not widen the interval.
 */
export function pairedBootstrapDiffCI(a: readonly number[], b: readonly number[], opts: BootstrapOptions = {}): Interval {
  if (a.length !== b.length) throw new Error(`paired bootstrap needs equal lengths, got ${a.length} and ${b.length}`);
  return pairedBootstrap(a, b, opts);
}

function pairedBootstrap(a: readonly number[], b: readonly number[], opts: BootstrapOptions): Interval {
  const n = a.length;
  const diffs = b.map((x, i) => x - (a[i] as number));
  const estimate = mean(diffs);
  if (n === 0) return { estimate, low: Number.NaN, high: Number.NaN };
  const resamples = opts.resamples ?? BOOTSTRAP_DEFAULTS.resamples;
  const level = opts.level ?? BOOTSTRAP_DEFAULTS.level;
  const random = seededRandom(opts.seed ?? BOOTSTRAP_DEFAULTS.seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[Math.floor(random() * n)] as number;
    means[r] = sum / n;
  }
  means.sort();
  const sorted = Array.from(means);
  return { estimate, low: quantile(sorted, (1 - level) / 2), high: quantile(sorted, (1 + level) / 2) };
}
