// The paper's statistics over runs and games: pass@1 (mean over independent runs), best@k (max over k runs),
// percentile bootstrap confidence intervals that resample what varies in a study — games, then the runs (seeds)
// within each game — and BALROG's mean ± standard error over episodes. Seeded, so a committed table can be
// reproduced exactly. Pure functions on numbers: what a "run's score" is belongs to the callers.
import { SeededStream, seededRandom } from "../random.ts";

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
export function quantile(sorted: ArrayLike<number>, q: number): number {
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

/**
 * What one game contributes to a bootstrap: `dims` numbers computed from that game's runs (its pass@1, or the
 * whole best@k curve from one draw). `sorted` says it reads the runs in ascending order (order statistics): the
 * bootstrap then hands a draw over already sorted, by counting the drawn runs instead of sorting them, which
 * gives exactly the array a sort would. Otherwise the runs come in the order drawn.
 */
export interface RunStatistic {
  readonly dims: number;
  readonly sorted: boolean;
  /** Writes the statistic of `runs` (one game's runs, as observed or as drawn) into out[0..dims−1]. */
  readonly of: (runs: Float64Array, out: Float64Array) => void;
}

/** pass@1 of a game: the mean of its runs, summed in the order given (as `mean` does, so the figures are equal). */
export const MEAN_OF_RUNS: RunStatistic = {
  dims: 1,
  sorted: false,
  of: (runs, out) => {
    let sum = 0;
    for (let i = 0; i < runs.length; i++) sum += runs[i] as number;
    out[0] = runs.length === 0 ? Number.NaN : sum / runs.length;
  },
};

/**
 * Hierarchical percentile bootstrap of the mean over games of a per-game statistic. Each resample draws G games
 * with replacement, then, inside each drawn game, its n runs with replacement, and averages the statistic of
 * those runs over the drawn games; the interval is the (1−level)/2 and (1+level)/2 quantiles of the resampled
 * means. Both levels vary in a study (which games, which seeds), so both are resampled: a one-game study's
 * interval comes from its seeds, a study of one run per game from its games. A game of one run draws no random
 * number for its runs, so with one run per game this is exactly the bootstrap over games.
 * One run in all is one unit: the interval is NaN (say `n=1`), never a zero-width "certain" one.
 * A statistic of several numbers (a best@k curve) gets one interval each, all from the same resamples.
 */
export function hierarchicalBootstrap(
  perGame: readonly (readonly number[])[],
  stat: RunStatistic,
  opts: BootstrapOptions = {},
): Interval[] {
  return hierarchicalBootstrapAll([{ perGame, stat }], opts)[0]!;
}

/**
 * Several statistics of figures of the same runs (each game's scores, its levels…: one number per run, the
 * same number of runs per game in every column), bootstrapped from one set of draws. Which game and which run
 * a resample draws depends only on how many games and runs there are, so each column gets exactly the
 * interval it would get alone with the same seed; drawing once saves drawing the same indices again.
 */
export function hierarchicalBootstrapAll(
  columns: readonly { readonly perGame: readonly (readonly number[])[]; readonly stat: RunStatistic }[],
  opts: BootstrapOptions = {},
): Interval[][] {
  return pairedHierarchical(
    columns.map((c) => ({ a: c.perGame.map(() => []), b: c.perGame, stat: c.stat })),
    opts,
  );
}

/** The usual case: pass@1 (the mean over runs) per game, one number per run. */
export function bootstrapMeanCI(perGame: readonly (readonly number[])[], opts: BootstrapOptions = {}): Interval {
  return hierarchicalBootstrap(perGame, MEAN_OF_RUNS, opts)[0]!;
}

/**
 * Interval for the mean over games of stat(B's runs) − stat(A's runs), where a[i] and b[i] are the runs of the
 * same game under two arms: games are drawn as pairs (variation between games that both arms share does not
 * widen the interval), then each arm's runs of a drawn game are drawn independently (the arms' seeds are
 * separate runs). A statistic of one number.
 */
export function pairedBootstrapDiffCI(
  a: readonly (readonly number[])[],
  b: readonly (readonly number[])[],
  stat: RunStatistic,
  opts: BootstrapOptions = {},
): Interval {
  if (a.length !== b.length) throw new Error(`paired bootstrap needs equal lengths, got ${a.length} and ${b.length}`);
  return pairedHierarchical([{ a, b, stat }], opts)[0]![0]!;
}

/**
 * One game's runs under one arm in one column, laid out once so that a resample allocates nothing: the runs as
 * observed, in ascending order with each run's rank in it (to hand a sorted statistic its draw by counting),
 * and the buffer each draw is written into.
 */
interface GameRuns {
  readonly values: Float64Array;
  readonly ascending: Float64Array;
  readonly rank: Int32Array;
  readonly counts: Int32Array;
  readonly drawn: Float64Array;
}

function gameRuns(runs: readonly number[]): GameRuns {
  const n = runs.length;
  const order = Array.from({ length: n }, (_, j) => j).sort((x, y) => (runs[x] as number) - (runs[y] as number));
  const rank = new Int32Array(n);
  order.forEach((j, p) => void (rank[j] = p));
  return {
    values: Float64Array.from(runs),
    ascending: Float64Array.from(order, (j) => runs[j] as number),
    rank,
    counts: new Int32Array(n),
    drawn: new Float64Array(n),
  };
}

/**
 * The runs a resample drew of one game, given their indices: in draw order, or for a sorted statistic in
 * ascending order by counting (the array a sort of them would give). Written into the game's reused buffer.
 */
function drawnRuns(g: GameRuns, indices: Int32Array, sorted: boolean): Float64Array {
  // One run has nothing to draw from (no random number was used for it).
  if (indices.length <= 1) return g.values;
  return sorted ? drawnAscending(g, indices) : drawnInOrder(g, indices);
}

function drawnInOrder(g: GameRuns, indices: Int32Array): Float64Array {
  const { values, drawn } = g;
  for (let j = 0; j < indices.length; j++) drawn[j] = values[indices[j] as number] as number;
  return drawn;
}

function drawnAscending(g: GameRuns, indices: Int32Array): Float64Array {
  const { rank, counts, ascending, drawn } = g;
  for (let j = 0; j < indices.length; j++) counts[rank[indices[j] as number] as number]!++;
  let w = 0;
  for (let p = 0; p < counts.length; p++) {
    for (let c = counts[p] as number; c > 0; c--) drawn[w++] = ascending[p] as number;
    counts[p] = 0;
  }
  return drawn;
}

interface PairedColumn {
  readonly a: readonly (readonly number[])[];
  readonly b: readonly (readonly number[])[];
  readonly stat: RunStatistic;
}

function pairedHierarchical(columns: readonly PairedColumn[], opts: BootstrapOptions): Interval[][] {
  const first = columns[0];
  if (!first) return [];
  const games = first.b.length;
  const shape = (c: PairedColumn) => [...c.a, ...c.b].map((r) => r.length).join(",");
  if (columns.some((c) => c.b.length !== games || shape(c) !== shape(first)))
    throw new Error("bootstrapped together, columns need the same games and runs");
  const laid = columns.map((c) => {
    const outA = new Float64Array(c.stat.dims);
    const outB = new Float64Array(c.stat.dims);
    /** Adds stat(B's runs) − stat(A's runs) of a game into `sums` (A's side is 0 when A has no runs). */
    const addDiff = (ra: Float64Array, rb: Float64Array, sums: Float64Array) => {
      c.stat.of(rb, outB);
      if (ra.length > 0) c.stat.of(ra, outA);
      else outA.fill(0);
      for (let d = 0; d < c.stat.dims; d++) sums[d]! += (outB[d] as number) - (outA[d] as number);
    };
    return { stat: c.stat, ga: c.a.map(gameRuns), gb: c.b.map(gameRuns), addDiff, sums: new Float64Array(c.stat.dims) };
  });
  const runs = [...first.a, ...first.b].reduce((n, r) => n + r.length, 0);
  const single = games === 0 || (games === 1 && first.a[0]!.length <= 1 && first.b[0]!.length <= 1);
  const estimates = laid.map((c) => {
    for (let i = 0; i < games; i++) {
      const [ra, rb] = [c.ga[i] as GameRuns, c.gb[i] as GameRuns];
      c.addDiff(c.stat.sorted ? ra.ascending : ra.values, c.stat.sorted ? rb.ascending : rb.values, c.sums);
    }
    return Array.from(c.sums, (x) => (games === 0 ? Number.NaN : x / games));
  });
  if (single) return estimates.map((e) => e.map((estimate) => ({ estimate, low: Number.NaN, high: Number.NaN, games, runs })));
  const resamples = opts.resamples ?? BOOTSTRAP_DEFAULTS.resamples;
  const level = opts.level ?? BOOTSTRAP_DEFAULTS.level;
  const random = new SeededStream(opts.seed ?? BOOTSTRAP_DEFAULTS.seed);
  const indicesA = first.a.map((r) => new Int32Array(r.length));
  const indicesB = first.b.map((r) => new Int32Array(r.length));
  // The draw order is part of the seeded result: a game, then its A runs, then its B runs, one number each;
  // a game of one run draws none, so one-run games resample exactly as games.
  const drawIndices = (into: Int32Array) => {
    const n = into.length;
    if (n > 1) random.indices(into, n);
  };
  const means = laid.map((c) => Array.from({ length: c.stat.dims }, () => new Float64Array(resamples)));
  for (let r = 0; r < resamples; r++) {
    for (const c of laid) c.sums.fill(0);
    for (let g = 0; g < games; g++) {
      const i = Math.floor(random.next() * games);
      const [ia, ib] = [indicesA[i] as Int32Array, indicesB[i] as Int32Array];
      drawIndices(ia);
      drawIndices(ib);
      for (const c of laid) {
        const ra = drawnRuns(c.ga[i] as GameRuns, ia, c.stat.sorted);
        const rb = drawnRuns(c.gb[i] as GameRuns, ib, c.stat.sorted);
        c.addDiff(ra, rb, c.sums);
      }
    }
    laid.forEach((c, k) => {
      for (let d = 0; d < c.stat.dims; d++) (means[k]![d] as Float64Array)[r] = (c.sums[d] as number) / games;
    });
  }
  return estimates.map((e, k) =>
    e.map((estimate, d) => {
      const sorted = (means[k]![d] as Float64Array).sort();
      return { estimate, low: quantile(sorted, (1 - level) / 2), high: quantile(sorted, (1 + level) / 2), games, runs };
    }),
  );
}

/**
 * For k = 1..K, the expected best of k runs drawn without replacement from a game's runs (expectedBestOfK) into
 * out[0..K−1], and the maximum into out[K]: the whole best@k curve of one draw. Weights are kept per run count.
 */
export function bestOfKCurve(K: number): RunStatistic {
  const weights = new Map<number, Float64Array[]>();
  return {
    dims: K + 1,
    sorted: true,
    of: (sorted, out) => {
      const n = sorted.length;
      let w = weights.get(n);
      if (!w) {
        w = Array.from({ length: K }, (_, k) => expectedBestWeights(n, k + 1));
        weights.set(n, w);
      }
      for (let k = 0; k < K; k++) out[k] = weightedSum(w[k] as Float64Array, sorted, k + 1);
      out[K] = n === 0 ? Number.NaN : (sorted[n - 1] as number);
    },
  };
}

/** best@k of a game (one k): the expected best of k of its runs, as expectedBestOfK gives it. */
export function bestOfK(k: number): RunStatistic {
  const weights = new Map<number, Float64Array>();
  return {
    dims: 1,
    sorted: true,
    of: (sorted, out) => {
      const n = sorted.length;
      let w = weights.get(n);
      if (!w) {
        w = expectedBestWeights(n, k);
        weights.set(n, w);
      }
      out[0] = weightedSum(w, sorted, k);
    },
  };
}

/**
 * Σ w[i]·sorted[i] for the best of k: NaN when k is not 1..n. The k−1 smallest runs are never the best of k
 * (weight 0), so the sum starts at the k-th: the same additions, in the same order, as expectedBestOfK makes.
 */
function weightedSum(w: Float64Array, sorted: Float64Array, k: number): number {
  const n = sorted.length;
  if (!Number.isInteger(k) || k < 1 || k > n) return Number.NaN;
  let total = 0;
  for (let i = k - 1; i < n; i++) total += (w[i] as number) * (sorted[i] as number);
  return total;
}

/** C(i−1, k−1) / C(n, k) for the i-th smallest of n (1-based): its chance to be the best of k drawn. */
function expectedBestWeights(n: number, k: number): Float64Array {
  const w = new Float64Array(n);
  if (k < 1 || k > n) return w;
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
