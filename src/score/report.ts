// The numbers `prolong score` reports for one arm (runs grouped by score/arms.ts): per game (runs, failed and
// unfinished runs, levels, pass@1, best@k for k = 1..K, billed tokens, cost per level) and over games (means with
// hierarchical bootstrap CIs: games, then runs within each game; and BALROG's mean ± SE over runs), lifetimes
// per episode, and two arms compared game by game at equal k.
// Scores are RHAE 0..100 (or NetHack's progression %) of each run's first episode, one episode at the stated
// budget, so pass@1 means what it says; a lifetime's (--episodes K) last episode, best of K (which used K times
// the actions) and per-episode curve are reported apart, named so.
// Agent-failed runs are counted at the score they had reached (a failure is the agent's result); unfinished
// runs (no scorecard, interrupted, the game failed) are not scored, only counted in their own column.
import type { ArmSettings } from "../config/arm.ts";
import type { Arm, ScoredRun } from "./arms.ts";
import { passEpisode, type ScoreMetric, type Scorecard } from "./scorecard.ts";
import {
  bestAtK,
  expectedBestOfK,
  bestOfK,
  bestOfKCurve,
  hierarchicalBootstrapAll,
  MEAN_OF_RUNS,
  mean,
  meanSE,
  pairedBootstrapDiffCI,
  passAt1,
  type BootstrapOptions,
  type Interval,
  type MeanSE,
  type RunStatistic,
} from "./stats.ts";

export type { ScoredRun } from "./arms.ts";
import { poolToolUse, runToolUse, summarizeToolUse, type ToolUse, type ToolUseSummary } from "./tool-use.ts";

export interface GameRow {
  readonly game: string;
  /** Runs scored (failed ones included). */
  readonly runs: number;
  /** Scored runs whose agent failed (counted at the score reached). */
  readonly failed: number;
  /** Runs not finished (not scored). */
  readonly unfinished: number;
  readonly winLevels: number;
  /** Mean over runs of levels completed. */
  readonly levels: number;
  /** Mean over runs of RHAE. */
  readonly passAt1: number;
  /** Max over the runs of RHAE. */
  readonly bestAtK: number;
  /** best@k for k = 1..runs: the expected best of k runs drawn from these (k = 1 is pass@1, k = runs the max). */
  readonly bestAtKCurve: number[];
  /** Max over the runs of levels completed. */
  readonly bestLevels: number;
  /** Each run's score and levels completed, in run order: what the bootstrap resamples within the game. */
  readonly scores: number[];
  readonly levelRuns: number[];
  readonly meanActions: number;
  readonly billedTokens: number;
  /** Billed tokens per level completed over all runs (null when no level was completed). */
  readonly billedPerLevel: number | null;
}

export interface LifetimeRow {
  readonly episode: number;
  /** Over games of the mean over runs: this episode's RHAE and the best RHAE up to it. */
  readonly passAt1: number;
  readonly bestSoFar: number;
  readonly levels: number;
}

/** A lifetime arm's episodes, each figure named for what it is (hierarchical bootstrap intervals). */
export interface Lifetime {
  /** Episodes per run (the most any run played). */
  readonly episodes: number;
  /** The stated budget of one episode (--max-actions); best of K used up to K times it. */
  readonly actionsPerEpisode: number;
  /** The first episode: pass@1, one episode at the stated budget. */
  readonly first: Interval;
  /** The last episode each run played: what the lifetime's memory led to. */
  readonly last: Interval;
  /** Each run's best episode of K (what scorecard.json's score holds), played with up to K × the budget. */
  readonly bestOfK: Interval;
  /** Per episode, and the best so far. */
  readonly curve: LifetimeRow[];
}

export interface ArmReport {
  readonly name: string;
  readonly fingerprint: string;
  readonly settings: ArmSettings;
  /** What the scores measure: RHAE, or BALROG progression in percent (NetHack). */
  readonly metric: ScoreMetric;
  /** What produced the runs: one line per distinct build (more than one only with --allow-mixed-builds). */
  readonly provenance: string[];
  readonly games: GameRow[];
  readonly overall: {
    readonly games: number;
    readonly runs: number;
    readonly failed: number;
    readonly unfinished: number;
    /** Runs per game: min and max (best@k's k). */
    readonly k: { readonly min: number; readonly max: number };
    readonly passAt1: Interval;
    readonly bestAtK: Interval;
    /** best@k for k = 1..(fewest runs of any game), mean over games with bootstrap CIs. */
    readonly bestAtKCurve: Interval[];
    readonly levels: Interval;
    /** BALROG's figure: every run's score pooled, mean ± standard error (population SD over √n). */
    readonly meanSE: MeanSE;
    readonly levelsCompleted: number;
    readonly levelsTotal: number;
    readonly billedTokens: number;
    readonly billedPerLevel: number | null;
  };
  readonly lifetime: Lifetime | null;
  /** The arm's tool calls by class, pooled over its runs' trajectories; null when none has one. */
  readonly toolUse: ToolUseSummary | null;
}

function byGame(runs: readonly ScoredRun[]): Map<string, Scorecard[]> {
  const games = new Map<string, Scorecard[]>();
  for (const r of runs) {
    const list = games.get(r.card.game_id);
    if (list) list.push(r.card);
    else games.set(r.card.game_id, [r.card]);
  }
  return new Map([...games.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function gameRow(game: string, cards: readonly Scorecard[], unfinished: number): GameRow {
  const scores = cards.map((c) => passEpisode(c).score);
  const levels = cards.map((c) => passEpisode(c).levels_completed);
  const billed = cards.reduce((n, c) => n + c.billed_tokens, 0);
  const levelSum = levels.reduce((n, l) => n + l, 0);
  return {
    game,
    runs: cards.length,
    failed: cards.filter((c) => c.end_reason === "agent-failed").length,
    unfinished,
    winLevels: Math.max(...cards.map((c) => c.win_levels)),
    levels: mean(levels),
    passAt1: passAt1(scores),
    bestAtK: bestAtK(scores),
    bestAtKCurve: scores.map((_, i) => expectedBestOfK(scores, i + 1)),
    bestLevels: Math.max(...levels),
    scores,
    levelRuns: levels,
    meanActions: mean(cards.map((c) => passEpisode(c).actions)),
    billedTokens: billed,
    billedPerLevel: levelSum > 0 ? billed / levelSum : null,
  };
}

function lifetimeOf(games: Map<string, Scorecard[]>, boot: BootstrapOptions): Lifetime | null {
  const cards = [...games.values()].flat();
  const episodes = Math.max(...cards.map((c) => Math.max(c.settings.episodes, c.episodes.length)));
  if (episodes <= 1) return null;
  const per = (pick: (c: Scorecard) => number) => ({
    perGame: [...games.values()].map((cs) => cs.map(pick)),
    stat: MEAN_OF_RUNS,
  });
  const [first, last, bestOfK] = hierarchicalBootstrapAll(
    [per((c) => passEpisode(c).score), per((c) => c.episodes[c.episodes.length - 1]!.score), per((c) => c.score)],
    boot,
  ).map((column) => column[0]!);
  return {
    episodes,
    actionsPerEpisode: Math.max(...cards.map((c) => c.settings.maxActions)),
    first: first!,
    last: last!,
    bestOfK: bestOfK!,
    curve: lifetimeRows(games, episodes),
  };
}

function lifetimeRows(games: Map<string, Scorecard[]>, episodes: number): LifetimeRow[] {
  const rows: LifetimeRow[] = [];
  for (let e = 0; e < episodes; e++) {
    const perGame = (pick: (x: Scorecard["episodes"][number]) => number) =>
      mean(
        [...games.values()]
          .map((cards) =>
            mean(
              cards.flatMap((c) => {
                const x = c.episodes[e];
                return x ? [pick(x)] : [];
              }),
            ),
          )
          .filter((x) => !Number.isNaN(x)),
      );
    rows.push({
      episode: e + 1,
      passAt1: perGame((x) => x.score),
      bestSoFar: perGame((x) => x.best_so_far),
      levels: perGame((x) => x.levels_completed),
    });
  }
  return rows;
}

export function armReport(arm: Arm, boot: BootstrapOptions): ArmReport {
  const runs = arm.runs;
  if (runs.length === 0) throw new Error("armReport needs at least one run");
  const games = byGame(runs);
  const unfinishedOf = (g: string) => arm.unfinished.filter((u) => u.unfinished?.game === g).length;
  const rows = [...games.entries()].map(([g, cards]) => gameRow(g, cards, unfinishedOf(g)));
  const kMin = Math.min(...rows.map((r) => r.runs));
  // pass@1, best@k for k = 1..kMin and the max (best@all), and levels, from one resampling of the runs.
  const [passAt1, curve, levels] = hierarchicalBootstrapAll(
    [
      { perGame: rows.map((r) => r.scores), stat: MEAN_OF_RUNS },
      { perGame: rows.map((r) => r.scores), stat: bestOfKCurve(kMin) },
      { perGame: rows.map((r) => r.levelRuns), stat: MEAN_OF_RUNS },
    ],
    boot,
  ) as [Interval[], Interval[], Interval[]];
  const billed = rows.reduce((n, r) => n + r.billedTokens, 0);
  const levelsCompleted = runs.reduce((n, r) => n + passEpisode(r.card).levels_completed, 0);
  return {
    name: arm.name,
    fingerprint: arm.fingerprint,
    settings: arm.settings,
    metric: arm.metric,
    provenance: [...arm.provenance],
    games: rows,
    overall: {
      games: rows.length,
      runs: runs.length,
      failed: rows.reduce((n, r) => n + r.failed, 0),
      unfinished: arm.unfinished.length,
      k: { min: Math.min(...rows.map((r) => r.runs)), max: Math.max(...rows.map((r) => r.runs)) },
      passAt1: passAt1[0]!,
      bestAtK: curve[kMin]!,
      bestAtKCurve: curve.slice(0, kMin),
      levels: levels[0]!,
      meanSE: meanSE(runs.map((r) => passEpisode(r.card).score)),
      levelsCompleted,
      levelsTotal: runs.reduce((n, r) => n + r.card.win_levels, 0),
      billedTokens: billed,
      billedPerLevel: levelsCompleted > 0 ? billed / levelsCompleted : null,
    },
    lifetime: lifetimeOf(games, boot),
    toolUse: armToolUse(runs.map((r) => r.dir)),
  };
}

function armToolUse(dirs: readonly string[]): ToolUseSummary | null {
  const uses = dirs.map(runToolUse).filter((u): u is ToolUse => u !== null);
  return uses.length > 0 ? summarizeToolUse(poolToolUse(uses)) : null;
}

export interface CompareRow {
  readonly game: string;
  readonly a: GameRow;
  readonly b: GameRow;
}

export interface CompareReport {
  readonly a: ArmReport;
  readonly b: ArmReport;
  /** Games both arms played; the differences are over these. */
  readonly games: CompareRow[];
  /** Games only one arm played (left out of the differences). */
  readonly unpaired: string[];
  /**
   * The k at which best@k is compared: the fewest runs any paired game has in either arm, so both sides are
   * the expected best of the same number of runs (never best@3 of one arm against best@1 of the other).
   */
  readonly k: number;
  /** best@k at that k, per arm, mean over the paired games. */
  readonly bestAtEqualK: { readonly a: number; readonly b: number };
  /** B − A, mean over the paired games, with paired bootstrap CIs; bestAtK at the equal k above. */
  readonly diff: { readonly passAt1: Interval; readonly bestAtK: Interval; readonly levels: Interval };
}

export function compareArms(a: Arm, b: Arm, boot: BootstrapOptions): CompareReport {
  const ra = armReport(a, boot);
  const rb = armReport(b, boot);
  const bGames = new Map(rb.games.map((g) => [g.game, g]));
  const aGames = new Set(ra.games.map((g) => g.game));
  const games: CompareRow[] = ra.games.flatMap((g) => {
    const other = bGames.get(g.game);
    return other ? [{ game: g.game, a: g, b: other }] : [];
  });
  const unpaired = [...ra.games.filter((g) => !bGames.has(g.game)), ...rb.games.filter((g) => !aGames.has(g.game))].map(
    (g) => g.game,
  );
  const diff = (pick: (r: GameRow) => number[], stat: RunStatistic) =>
    pairedBootstrapDiffCI(
      games.map((g) => pick(g.a)),
      games.map((g) => pick(g.b)),
      stat,
      boot,
    );
  const k = games.length === 0 ? 0 : Math.min(...games.flatMap((g) => [g.a.runs, g.b.runs]));
  const atK = (r: GameRow) => r.bestAtKCurve[k - 1] as number;
  return {
    a: ra,
    b: rb,
    games,
    unpaired,
    k,
    bestAtEqualK: { a: mean(games.map((g) => atK(g.a))), b: mean(games.map((g) => atK(g.b))) },
    diff: {
      passAt1: diff((r) => r.scores, MEAN_OF_RUNS),
      bestAtK: diff((r) => r.scores, bestOfK(k)),
      levels: diff((r) => r.levelRuns, MEAN_OF_RUNS),
    },
  };
}
