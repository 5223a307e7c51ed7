// Replays of committed experiment runs (test/docs/experiments.test.ts says why): a job of a committed plan played
// again must give exactly its pinned row. The fast tier replays a slice of each plan, the slow tier one more.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readPlan, type Job } from "../../src/plan/plan.ts";
import { groupArms } from "../../src/score/arms.ts";
import { runRows } from "../../src/score/run-rows.ts";
import { readScorecard } from "../../src/score/scorecard.ts";
import { EXPERIMENTS, pinnedRow } from "../../scripts/experiments-list.ts";
import { playGame, tempRoot } from "../run/helpers.ts";

export const ROOT = join(import.meta.dir, "..", "..");

/** The pinned CSV's rows by "arm,game,seed". */
export function pinned(csv: string): Map<string, string> {
  const lines = readFileSync(join(ROOT, csv), "utf8").trim().split("\n").slice(1);
  return new Map(lines.map((l) => [l.split(",").slice(0, 3).join(","), l]));
}

/** Plays one job of a plan as run-plan would, and gives its pinned row. */
async function replay(job: Job): Promise<string> {
  const played = await playGame(job.config as Parameters<typeof playGame>[0], tempRoot());
  const dir = played.session.paths.dir;
  const card = readScorecard(join(dir, "scorecard.json"))._unsafeUnwrap();
  const arms = groupArms([{ dir, card }])._unsafeUnwrap();
  return pinnedRow(runRows(arms)[0]!);
}

/** A run of a plan, named as its pinned row names it. */
export interface SliceRun {
  readonly arm: string;
  readonly game: string;
  readonly run: number;
}

/** Registers, per experiment, a test for each run of its slice: played again, it gives its pinned row. */
export function defineReplays(slice: Record<string, readonly SliceRun[]>): void {
  for (const e of EXPERIMENTS) {
    const runs = slice[e.name] ?? [];
    if (runs.length === 0) continue;
    describe(`experiment ${e.name}`, () => {
      const plan = readPlan(join(ROOT, e.plan))._unsafeUnwrap();
      const rows = pinned(e.csv);
      for (const s of runs) {
        test(`${s.arm} ${s.game} run ${s.run} played again gives its pinned figures`, async () => {
          const job = plan.jobs.find((j) => j.arm === s.arm && j.game === s.game && j.run === s.run)!;
          expect(await replay(job)).toBe(rows.get(`${job.arm},${job.game},${job.seed}`)!);
        }, 300_000);
      }
    });
  }
}
