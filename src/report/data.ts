// Everything `prolong report` draws, as data: the same arms, per-run rows and statistics as `prolong score`
// (score/collect.ts), plus each figure's points. The page embeds this object as JSON and every SVG mark carries
// the value it draws, so a test (or a reader) can check a figure against the numbers.
import { existsSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import type { ArmConflict } from "../score/arms.ts";
import { scoreFound, type Collected, type Scored } from "../score/collect.ts";
import type { SkippedRun } from "../score/find-runs.ts";
import type { ArmReport } from "../score/report.ts";
import type { RunRow } from "../score/run-rows.ts";
import { metricLabel } from "../score/scorecard.ts";
import type { BootstrapOptions, Interval } from "../score/stats.ts";
import type { Result } from "neverthrow";
import { VERSION } from "../version.ts";

export interface Point {
  readonly x: number;
  readonly y: number;
  /** Bootstrap interval of y, when y is a mean over games and runs (absent for one run: n=1). */
  readonly low?: number;
  readonly high?: number;
}

export interface Series {
  readonly arm: string;
  readonly label: string;
  readonly points: Point[];
}

export interface ReportData {
  readonly prolong: string;
  readonly bootstrap: BootstrapOptions;
  readonly arms: ArmReport[];
  readonly runs: (RunRow & { readonly view: string | null })[];
  readonly skipped: SkippedRun[];
  readonly figures: {
    /** pass@1 RHAE (mean over games, CI) against the action budget each run is re-scored at. */
    readonly budget: { readonly budgets: number[]; readonly series: Series[] };
    /** best@k (mean over games, CI) against k. */
    readonly bestAtK: { readonly series: Series[] };
    /** Per game and arm: pass@1 RHAE and each run's RHAE (the spread). */
    readonly games: {
      readonly games: string[];
      readonly bars: { readonly arm: string; readonly game: string; readonly y: number; readonly runs: number[] }[];
    };
    /** Per run: levels cleared against actions taken (its first episode, the one pass@1 counts). */
    readonly learning: { readonly series: (Series & { readonly dir: string; readonly game: string })[] };
    /** Per run: billed tokens against RHAE; per arm the means. */
    readonly tokens: { readonly series: Series[]; readonly means: (Point & { readonly arm: string })[] };
  };
}

export interface ReportOptions {
  /** Budgets for the score-against-budget figure; default: ten steps up to the largest --max-actions. */
  readonly budgets?: readonly number[];
  readonly boot: BootstrapOptions;
  /** Pool runs of one arm produced by different builds (score --allow-mixed-builds). */
  readonly allowMixedBuilds?: boolean;
}

/** Ten evenly spaced budgets up to the largest budget any run had (rounded to whole actions, no repeats). */
export function defaultBudgets(maxActions: number): number[] {
  const steps = 10;
  return [...new Set(Array.from({ length: steps }, (_, i) => Math.max(1, Math.round((maxActions * (i + 1)) / steps))))];
}

/**
 * Levels cleared against actions in one episode: a step at the action that cleared each level, then flat to
 * the episode's last action. `levelActions` counts the actions spent on each level (the last slot holding the
 * level not cleared), so their sum is the episode's length.
 */
export function learningCurve(levelActions: readonly number[], levels: number, actions: number): Point[] {
  const points: Point[] = [{ x: 0, y: 0 }];
  let at = 0;
  for (let l = 0; l < levels; l++) {
    at += levelActions[l] ?? 0;
    points.push({ x: at, y: l + 1 });
  }
  if (actions > at) points.push({ x: actions, y: levels });
  return points;
}

/** The report of the runs found (all of them, or those a plan check kept). */
export function buildReport(found: Collected, o: ReportOptions): Result<ReportData, ArmConflict[]> {
  const group = { allowMixedBuilds: o.allowMixedBuilds ?? false };
  const played = scoreFound(found, [null], o.boot, group);
  return played.andThen((p) => {
    const maxBudget = Math.max(0, ...p.arms.flatMap((a) => a.runs.map((r) => r.card.settings.maxActions)));
    const budgets = o.budgets ? [...o.budgets] : maxBudget > 0 ? defaultBudgets(maxBudget) : [];
    return scoreFound(found, budgets, o.boot, group).map((b) => assemble(p, b, budgets, o.boot));
  });
}

function assemble(played: Scored, byBudget: Scored, budgets: number[], boot: BootstrapOptions): ReportData {
  const first = played.budgets[0]!;
  const arms = first.arms;
  const budget: Series[] = arms.map((a) => ({
    arm: a.name,
    label: a.name,
    points: byBudget.budgets.flatMap((b) => {
      const at = b.arms.find((x) => x.name === a.name);
      return at && b.at !== null ? [{ x: b.at, ...point(at.overall.passAt1) }] : [];
    }),
  }));
  const bestAtK: Series[] = arms.map((a) => ({
    arm: a.name,
    label: a.name,
    points: a.overall.bestAtKCurve.map((c, i) => ({ x: i + 1, ...point(c) })),
  }));
  const games = [...new Set(arms.flatMap((a) => a.games.map((g) => g.game)))].sort();
  const scoredRows = first.runs.filter((r) => r.status === "scored");
  const bars = arms.flatMap((a) =>
    a.games.map((g) => ({
      arm: a.name,
      game: g.game,
      y: g.passAt1,
      runs: scoredRows.filter((r) => r.arm === a.name && r.game === g.game).map((r) => r.rhae as number),
    })),
  );
  const learning = scoredRows.map((r) => ({
    arm: r.arm,
    label: `${r.game} seed ${r.seed}`,
    dir: shownPath(r.dir),
    game: r.game,
    points: learningCurve(
      r.levelActions ?? [],
      r.levels ?? 0,
      (r.levelActions ?? []).reduce((n, x) => n + x, 0),
    ),
  }));
  const tokens: Series[] = arms.map((a) => ({
    arm: a.name,
    label: a.name,
    points: scoredRows.filter((r) => r.arm === a.name).map((r) => ({ x: r.billedTokens as number, y: r.rhae as number })),
  }));
  const means = tokens.map((s) => ({ arm: s.arm, x: mean(s.points.map((p) => p.x)), y: mean(s.points.map((p) => p.y)) }));
  const runs = first.runs.map((r) => ({ ...r, view: existsSync(join(r.dir, "view.html")) ? join(r.dir, "view.html") : null }));
  return {
    prolong: VERSION,
    bootstrap: boot,
    arms,
    runs,
    skipped: first.skipped,
    figures: {
      budget: { budgets, series: budget },
      bestAtK: { series: bestAtK },
      games: { games, bars },
      learning: { series: learning },
      tokens: { series: tokens, means },
    },
  };
}

/** An interval as a figure's point: its ends only when there is an interval (one run in all has none: n=1). */
function point(i: Interval): { y: number; low?: number; high?: number } {
  return Number.isFinite(i.low) && Number.isFinite(i.high) ? { y: i.estimate, low: i.low, high: i.high } : { y: i.estimate };
}

/** A run directory as figures name it: relative to the working directory when inside it (no machine's paths in a committed SVG). */
function shownPath(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : dir;
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The score's name in a report's columns and figures: every arm of a report shares one metric (mixed ones are refused). */
export function scoreLabel(d: Pick<ReportData, "arms">): string {
  return metricLabel(d.arms[0]?.metric ?? "rhae");
}
