// `prolong games --baselines <run dirs>`: per game and level, the fewest actions a person needed (from the
// scorecards of --agent human runs) beside the committed baseline the RHAE divides by.
import type { FoundRun } from "./find-runs.ts";

export interface LevelBaselineRow {
  readonly level: number;
  /** The baseline the scorecard scored against (the committed one for local games). */
  readonly baseline: number | null;
  /** Fewest actions over every human episode that completed the level; null when none did. */
  readonly best: number | null;
  /** Human episodes that completed the level. */
  readonly completions: number;
}

export interface GameBaselines {
  readonly game: string;
  readonly runs: number;
  readonly levels: readonly LevelBaselineRow[];
}

/** Human runs only (settings.agent human); a level counts in an episode once that episode completed it. */
export function humanBaselines(found: readonly FoundRun[]): GameBaselines[] {
  const byGame = new Map<string, FoundRun[]>();
  for (const r of found) {
    if (r.card.settings.agent !== "human") continue;
    byGame.set(r.card.game_id, [...(byGame.get(r.card.game_id) ?? []), r]);
  }
  return [...byGame.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([game, runs]) => {
      const baselines = runs[0]!.card.level_baseline_actions;
      const levels = Math.max(runs[0]!.card.win_levels, baselines.length);
      const rows: LevelBaselineRow[] = [];
      for (let i = 0; i < levels; i++) {
        const done = runs.flatMap((r) => r.card.episodes.filter((e) => e.levels_completed > i).map((e) => e.level_actions[i]!));
        rows.push({
          level: i + 1,
          baseline: baselines[i] ?? null,
          best: done.length > 0 ? Math.min(...done) : null,
          completions: done.length,
        });
      }
      return { game, runs: runs.length, levels: rows };
    });
}

export function baselinesTable(games: readonly GameBaselines[]): string {
  if (games.length === 0) return "No human run found (record one with `prolong play <game> --agent human`).";
  const lines = ["game        level  baseline  best human  completions"];
  for (const g of games) {
    for (const r of g.levels) {
      lines.push(
        `${g.game.padEnd(10)}  ${String(r.level).padStart(5)}  ${String(r.baseline ?? "-").padStart(8)}  ${String(r.best ?? "-").padStart(10)}  ${String(r.completions).padStart(11)}`,
      );
    }
    lines.push(`${"".padEnd(10)}  (${g.runs} human run(s))`);
  }
  return lines.join("\n");
}
