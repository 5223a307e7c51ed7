// The committed results cannot go stale: docs/experiments.md's tables are generated from committed plans by
// `bun scripts/experiments.ts`, every run's figures are pinned in docs/experiments/<name>-runs.csv, and here
// a slice of each plan is played again and must give exactly the pinned rows; the document's per-game table
// must say what the pinned rows say. A change to the explorer or a game that moves a committed figure fails
// this test until the experiments are re-run (`bun scripts/experiments.ts`) and the reading re-checked.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findGame } from "../../src/game/catalog.ts";
import { readPlan, type Job } from "../../src/plan/plan.ts";
import { groupArms } from "../../src/score/arms.ts";
import { runRows } from "../../src/score/run-rows.ts";
import { readScorecard } from "../../src/score/scorecard.ts";
import { EXPERIMENTS, pinnedRow } from "../../scripts/experiments-list.ts";
import { playGame, tempRoot } from "../run/helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** The pinned CSV's rows by "arm,game,seed". */
function pinned(csv: string): Map<string, string> {
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

// A slice small enough for the fast tier: the games the explorer's work moves most, one arm that windows, and
// one game of the check set (tally's third run wins in 166 actions, so it costs little).
const SLICE: Record<string, readonly { arm: string; game: string; run: number }[]> = {
  memory: [
    { arm: "full-log", game: "glide", run: 1 },
    { arm: "window-25", game: "murk", run: 1 },
    { arm: "full-log", game: "tally", run: 3 },
  ],
  lifetime: [{ arm: "lifetime", game: "vault", run: 1 }],
};

for (const e of EXPERIMENTS) {
  describe(`experiment ${e.name}`, () => {
    const plan = readPlan(join(ROOT, e.plan))._unsafeUnwrap();
    const rows = pinned(e.csv);

    test("every job of the committed plan has a pinned row, and the plan's games are the games committed now", () => {
      expect(rows.size).toBe(plan.jobs.length);
      for (const j of plan.jobs) expect(rows.has(`${j.arm},${j.game},${j.seed}`)).toBe(true);
      for (const g of plan.games) expect(findGame(g.id)._unsafeUnwrap().info.version ?? null).toBe(g.version);
    });

    for (const s of SLICE[e.name] ?? []) {
      test(`${s.arm} ${s.game} run ${s.run} played again gives its pinned figures`, async () => {
        const job = plan.jobs.find((j) => j.arm === s.arm && j.game === s.game && j.run === s.run)!;
        expect(await replay(job)).toBe(rows.get(`${job.arm},${job.game},${job.seed}`)!);
      }, 300_000);
    }

    test("docs/experiments.md's per-game table says what the pinned rows say", () => {
      const doc = readFileSync(join(ROOT, "docs/experiments.md"), "utf8");
      const begin = doc.indexOf(`<!-- begin generated: ${e.name} -->`);
      const end = doc.indexOf(`<!-- end generated: ${e.name} -->`);
      expect(begin).toBeGreaterThan(-1);
      const block = doc.slice(begin, end);
      const byArmGame = new Map<string, { score: number[]; levels: number[]; win: number }>();
      for (const line of rows.values()) {
        const [arm, game, , levels, win, score] = line.split(",");
        const key = `${arm},${game}`;
        const x = byArmGame.get(key) ?? { score: [], levels: [], win: Number(win) };
        x.score.push(Number(score));
        x.levels.push(Number(levels));
        byArmGame.set(key, x);
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const planned = [...new Set(plan.jobs.map((j) => j.arm))];
      if (planned.length > 1) {
        // The arms in the order the table's header gives them.
        const head = /^\| game \| (.+) \|$/m.exec(block.slice(block.indexOf("Per game")))!;
        const arms = head[1]!.split(" | ");
        expect([...arms].sort()).toEqual([...planned].sort());
        // "| game | arm A | arm B |": each cell "pass@1 (mean levels/win levels)".
        for (const game of new Set(plan.jobs.map((j) => j.game))) {
          const cells = arms.map((a) => {
            const x = byArmGame.get(`${a},${game}`)!;
            return `${mean(x.score).toFixed(2)} (${mean(x.levels).toFixed(1)}/${x.win})`;
          });
          expect(block).toContain(`| ${game} | ${cells.join(" | ")} |`);
        }
      } else {
        // One arm: its own table's rows "| game | runs | … | levels (mean) | levels (best) | pass@1 |".
        for (const [key, x] of byArmGame) {
          const game = key.split(",")[1]!;
          expect(block).toMatch(
            new RegExp(
              `\\| ${game} \\| ${x.score.length} \\| 0 \\| 0 \\| ${mean(x.levels).toFixed(1)}/${x.win} \\| \\d+/${x.win} \\| ${mean(x.score).toFixed(2)} \\|`,
            ),
          );
        }
      }
    });
  });
}
