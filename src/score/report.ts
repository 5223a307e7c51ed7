// The numbers `prolong score` reports, from scorecards: runs grouped into arms (same settings but game and
// seed), per game (runs, levels, pass@1, best@k, billed tokens, cost per level) and over games (means with
// bootstrap CIs over games), lifetimes per episode, and two arms compared game by game.
// Scores are RHAE 0..100 of each run's best episode; levels are that episode's levels completed.
import { describeWindow } from "../run/config.ts";
import type { Scorecard } from "./scorecard.ts";
import { bestAtK, bootstrapMeanCI, mean, pairedBootstrapDiffCI, passAt1, type BootstrapOptions, type Interval } from "./stats.ts";

export interface ScoredRun {
  readonly dir: string;
  readonly card: Scorecard;
}

export interface GameRow {
  readonly game: string;
  readonly runs: number;
  readonly winLevels: number;
  /** Mean over runs of levels completed. */
  readonly levels: number;
  /** Mean over runs of RHAE. */
  readonly passAt1: number;
  /** Max over the runs of RHAE. */
  readonly bestAtK: number;
  /** Max over the runs of levels completed. */
  readonly bestLevels: number;
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

export interface ArmReport {
  readonly label: string;
  readonly settings: ArmSettings;
  readonly games: GameRow[];
  readonly overall: {
    readonly games: number;
    readonly runs: number;
    /** Runs per game: min and max (best@k's k). */
    readonly k: { readonly min: number; readonly max: number };
    readonly passAt1: Interval;
    readonly bestAtK: Interval;
    readonly levels: Interval;
    readonly levelsCompleted: number;
    readonly levelsTotal: number;
    readonly billedTokens: number;
    readonly billedPerLevel: number | null;
  };
  readonly lifetime: LifetimeRow[] | null;
}

/** What makes two runs the same arm: every setting but the game and the seed (and bookkeeping such as timeouts). */
export interface ArmSettings {
  readonly env: string;
  readonly agent: string;
  readonly model: string | null;
  readonly effort: string | null;
  readonly logWindow: string;
  readonly workspace: string;
  readonly maxActions: number;
  readonly actionCap: number;
  readonly episodes: number;
  readonly gridMode: string;
}

export function armSettings(c: Scorecard): ArmSettings {
  const s = c.settings;
  return {
    env: s.env,
    agent: s.agent,
    model: s.model ?? null,
    effort: s.effort ?? null,
    logWindow: describeWindow(s.logWindow),
    workspace: s.workspace,
    maxActions: s.maxActions,
    actionCap: s.actionCap,
    episodes: s.episodes,
    gridMode: s.gridMode,
  };
}

export function armLabel(a: ArmSettings): string {
  const model = [a.model, a.effort].filter(Boolean).join(" ");
  return [
    `${a.agent}${model ? ` (${model})` : ""}`,
    `log: ${a.logWindow}`,
    `${a.maxActions} actions`,
    a.workspace !== "persistent" ? `${a.workspace} workspace` : "",
    a.episodes > 1 ? `${a.episodes} episodes` : "",
    a.actionCap !== 20 ? `cap ${a.actionCap}` : "",
    a.env !== "local" ? a.env : "",
    a.gridMode !== "ascii" ? a.gridMode : "",
  ].filter(Boolean).join(", ");
}

/** Runs split into arms, in order of first appearance. */
export function groupArms(runs: readonly ScoredRun[]): ScoredRun[][] {
  const arms = new Map<string, ScoredRun[]>();
  for (const r of runs) {
    const key = JSON.stringify(armSettings(r.card));
    const list = arms.get(key);
    if (list) list.push(r);
    else arms.set(key, [r]);
  }
  return [...arms.values()];
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

function gameRow(game: string, cards: readonly Scorecard[]): GameRow {
  const scores = cards.map((c) => c.score);
  const levels = cards.map((c) => c.levels_completed);
  const billed = cards.reduce((n, c) => n + c.billed_tokens, 0);
  const levelSum = levels.reduce((n, l) => n + l, 0);
  return {
    game,
    runs: cards.length,
    winLevels: Math.max(...cards.map((c) => c.win_levels)),
    levels: mean(levels),
    passAt1: passAt1(scores),
    bestAtK: bestAtK(scores),
    bestLevels: Math.max(...levels),
    meanActions: mean(cards.map((c) => c.actions)),
    billedTokens: billed,
    billedPerLevel: levelSum > 0 ? billed / levelSum : null,
  };
}

function lifetimeRows(games: Map<string, Scorecard[]>): LifetimeRow[] | null {
  const episodes = Math.max(...[...games.values()].flat().map((c) => c.episodes.length));
  if (episodes <= 1) return null;
  const rows: LifetimeRow[] = [];
  for (let e = 0; e < episodes; e++) {
    const perGame = (pick: (x: Scorecard["episodes"][number]) => number) =>
      mean([...games.values()].map((cards) => mean(cards.flatMap((c) => { const x = c.episodes[e]; return x ? [pick(x)] : []; }))).filter((x) => !Number.isNaN(x)));
    rows.push({ episode: e + 1, passAt1: perGame((x) => x.score), bestSoFar: perGame((x) => x.best_so_far), levels: perGame((x) => x.levels_completed) });
  }
  return rows;
}

export function armReport(runs: readonly ScoredRun[], boot: BootstrapOptions): ArmReport {
  const first = runs[0];
  if (!first) throw new Error("armReport needs at least one run");
  const settings = armSettings(first.card);
  const games = byGame(runs);
  const rows = [...games.entries()].map(([g, cards]) => gameRow(g, cards));
  const billed = rows.reduce((n, r) => n + r.billedTokens, 0);
  const levelsCompleted = runs.reduce((n, r) => n + r.card.levels_completed, 0);
  return {
    label: armLabel(settings),
    settings,
    games: rows,
    overall: {
      games: rows.length,
      runs: runs.length,
      k: { min: Math.min(...rows.map((r) => r.runs)), max: Math.max(...rows.map((r) => r.runs)) },
      passAt1: bootstrapMeanCI(rows.map((r) => r.passAt1), boot),
      bestAtK: bootstrapMeanCI(rows.map((r) => r.bestAtK), boot),
      levels: bootstrapMeanCI(rows.map((r) => r.levels), boot),
      levelsCompleted,
      levelsTotal: runs.reduce((n, r) => n + r.card.win_levels, 0),
      billedTokens: billed,
      billedPerLevel: levelsCompleted > 0 ? billed / levelsCompleted : null,
    },
    lifetime: lifetimeRows(games),
  };
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
  /** B − A, mean over the paired games, with paired bootstrap CIs. */
  readonly diff: { readonly passAt1: Interval; readonly bestAtK: Interval; readonly levels: Interval };
}

export function compareArms(a: readonly ScoredRun[], b: readonly ScoredRun[], boot: BootstrapOptions): CompareReport {
  const ra = armReport(a, boot);
  const rb = armReport(b, boot);
  const bGames = new Map(rb.games.map((g) => [g.game, g]));
  const aGames = new Set(ra.games.map((g) => g.game));
  const games: CompareRow[] = ra.games.flatMap((g) => {
    const other = bGames.get(g.game);
    return other ? [{ game: g.game, a: g, b: other }] : [];
  });
  const unpaired = [...ra.games.filter((g) => !bGames.has(g.game)), ...rb.games.filter((g) => !aGames.has(g.game))].map((g) => g.game);
  const diff = (pick: (r: GameRow) => number) => pairedBootstrapDiffCI(games.map((g) => pick(g.a)), games.map((g) => pick(g.b)), boot);
  return { a: ra, b: rb, games, unpaired, diff: { passAt1: diff((r) => r.passAt1), bestAtK: diff((r) => r.bestAtK), levels: diff((r) => r.levels) } };
}
