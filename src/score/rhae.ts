// RHAE, ARC-AGI-3's action-efficiency score (facts: ../shared/notes/reference-facts.md, "Scoring").
// Per level: min(115, 100 * (baseline / actions)^2) if completed, else 0. Per game: the mean of the level
// scores weighted by 1-based level index, capped at 100 * (weight of completed levels) / (total weight),
// so efficiency on early levels cannot stand in for levels never reached.

export const LEVEL_CAP = 115;

export interface LevelResult {
  /** Baseline action count (a good human solution). */
  readonly baseline: number;
  /** Actions this run spent on the level. */
  readonly actions: number;
  readonly completed: boolean;
}

export function levelScore(r: LevelResult): number {
  if (!r.completed) return 0;
  // A completed level always cost at least one action; guard the division for malformed input.
  if (r.actions <= 0) return LEVEL_CAP;
  return Math.min(LEVEL_CAP, 100 * (r.baseline / r.actions) ** 2);
}

/** The game score 0..100 over all of the game's levels (levels not reached count as not completed). */
export function gameScore(levels: readonly LevelResult[]): number {
  let weighted = 0;
  let total = 0;
  let completed = 0;
  levels.forEach((r, i) => {
    const w = i + 1;
    total += w;
    weighted += w * levelScore(r);
    if (r.completed) completed += w;
  });
  if (total === 0) return 0;
  return Math.min(weighted / total, (100 * completed) / total);
}

/** Per-level results from a run's per-level action counts and its levels completed (levels are cleared in order). */
export function levelResults(
  baselines: readonly number[],
  levelActions: readonly number[],
  levelsCompleted: number,
): LevelResult[] {
  return baselines.map((baseline, i) => ({ baseline, actions: levelActions[i] ?? 0, completed: i < levelsCompleted }));
}

/** A run's game score from its per-level action counts and levels completed (what the runner records). */
export function gameRhae(baselines: readonly number[], levelActions: readonly number[], levelsCompleted: number): number {
  return gameScore(levelResults(baselines, levelActions, levelsCompleted));
}

/**
 * RHAE for people: two decimals, or two significant digits when smaller than 0.01 so a score that is not
 * zero never prints as zero (one level cleared slowly on a long game scores about 0.02).
 */
export function formatRhae(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return x.toFixed(2);
  if (Math.abs(x) >= 0.01) return x.toFixed(2);
  return x.toPrecision(2);
}
