// The committed experiments (scripts/experiments.ts regenerates them; test/docs/experiments.test.ts pins them):
// each a plan file, the budgets its table re-scores at, and where its per-run figures are pinned.
import type { RunRow } from "../src/score/run-rows.ts";

export interface Experiment {
  readonly name: string;
  /** The committed plan (`prolong plan ... -o`), relative to the repository. */
  readonly plan: string;
  /** Every run's figures, one CSV row each, relative to the repository. */
  readonly csv: string;
  /** `score --at` budgets for the score-against-budget table. */
  readonly budgets: readonly number[];
  /** Each arm's own table too (the lifetime table lives there). */
  readonly perArm: boolean;
  /** Where `report --svg` draws the figures, if anywhere. */
  readonly figures?: string;
}

export const EXPERIMENTS: readonly Experiment[] = [
  {
    name: "memory",
    plan: "docs/experiments/memory.plan.json",
    csv: "docs/experiments/memory-runs.csv",
    budgets: [100, 250, 500],
    perArm: false,
    figures: "docs/experiments",
  },
  {
    name: "lifetime",
    plan: "docs/experiments/lifetime.plan.json",
    csv: "docs/experiments/lifetime-runs.csv",
    budgets: [],
    perArm: true,
  },
];

/** The columns pinned per run: what a change of the player or the games would move. */
export const PINNED_COLUMNS = [
  "arm",
  "game",
  "seed",
  "levels",
  "win_levels",
  "score",
  "actions",
  "level_actions",
  "episode_scores",
] as const;

/** One pinned row as text, in PINNED_COLUMNS order. */
export function pinnedRow(r: RunRow): string {
  return [
    r.arm,
    r.game,
    r.seed,
    r.levels,
    r.winLevels,
    r.rhae?.toFixed(6),
    r.actions,
    r.levelActions?.join(" "),
    r.episodeScores?.map((x) => x.toFixed(6)).join(" "),
  ].join(",");
}

/** Every scored run, sorted by arm, game and seed, under a header line. */
export function pinnedCsv(rows: readonly RunRow[]): string {
  const lines = rows
    .filter((r) => r.status === "scored")
    .map((r) => ({ key: [r.arm, r.game, String(r.seed).padStart(6, "0")].join("\0"), line: pinnedRow(r) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.line);
  return [PINNED_COLUMNS.join(","), ...lines].join("\n") + "\n";
}
