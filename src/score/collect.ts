// From paths to scored arms: find the run directories, re-score them at each asked budget (`--at`), group them
// into arms (refusing to pool different setups under one name), and build each arm's report and per-run rows.
// Shared by `prolong score` and `prolong report`, so both print the same numbers.
import { err, ok, type Result } from "neverthrow";
import { groupArms, type Arm, type ArmConflict, type GroupOptions, type ScoredRun } from "./arms.ts";
import { findRuns, skipReason, type FindOptions, type SkippedRun } from "./find-runs.ts";
import { armReport, type ArmReport } from "./report.ts";
import { rescoreAt } from "./rescore.ts";
import { runRows, type RunRow } from "./run-rows.ts";
import type { BootstrapOptions } from "./stats.ts";

export interface Collected {
  readonly runs: ScoredRun[];
  readonly skipped: SkippedRun[];
}

/** Runs found under the paths, each re-scored at N when asked; failures join the skipped list. */
export function collectRuns(paths: readonly string[], at: number | null, find: FindOptions = {}): Collected {
  return rescoreAll(findRuns(paths, find), at);
}

/** The found runs re-scored at N actions per episode (null: as played). */
export function rescoreAll(found: Collected, at: number | null): Collected {
  if (at === null) return found;
  const runs: ScoredRun[] = [];
  const skipped = [...found.skipped];
  for (const r of found.runs) {
    const cut = rescoreAt(r.dir, r.card, at);
    if (cut.isOk()) runs.push({ ...r, card: cut.value });
    else skipped.push({ dir: r.dir, reason: skipReason(r.dir, cut.error) });
  }
  return { runs, skipped };
}

export interface BudgetScores {
  /** Actions per episode the runs were re-scored at; null = as played. */
  readonly at: number | null;
  readonly arms: ArmReport[];
  readonly runs: RunRow[];
  readonly skipped: SkippedRun[];
}

export interface Scored {
  /** One entry per budget asked (one entry, at null, without --at). */
  readonly budgets: BudgetScores[];
  /** The grouped arms as played (for the report's per-run figures). */
  readonly arms: Arm[];
}

/** Scores the runs under `paths` at each budget; a pooling conflict (at any budget) is returned as the error. */
export function scoreRuns(
  paths: readonly string[],
  at: readonly (number | null)[],
  boot: BootstrapOptions,
  group: GroupOptions = {},
): Result<Scored, ArmConflict[]> {
  return scoreFound(findRuns(paths), at, boot, group);
}

/** As scoreRuns, over runs already found (and checked, e.g. against a plan). */
export function scoreFound(
  found: Collected,
  at: readonly (number | null)[],
  boot: BootstrapOptions,
  group: GroupOptions = {},
): Result<Scored, ArmConflict[]> {
  const played = groupArms(found.runs, found.skipped, group);
  if (played.isErr()) return err(played.error);
  const budgets: BudgetScores[] = [];
  for (const n of at) {
    const c = rescoreAll(found, n);
    const arms = n === null ? played : groupArms(c.runs, c.skipped, group);
    if (arms.isErr()) return err(arms.error);
    const scored = arms.value.filter((a) => a.runs.length > 0);
    budgets.push({ at: n, arms: scored.map((a) => armReport(a, boot)), runs: runRows(arms.value), skipped: c.skipped });
  }
  return ok({ budgets, arms: played.value });
}
