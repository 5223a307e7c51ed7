// The committed results cannot go stale: docs/experiments.md's tables are generated from committed plans by
// `bun scripts/experiments.ts`, every run's figures are pinned in docs/experiments/<name>-runs.csv, and here
// a slice of each plan is played again and must give exactly the pinned rows; the document's per-game table
// must say what the pinned rows say. A change to the explorer or a game that moves a committed figure fails
// this test until the experiments are re-run (`bun scripts/experiments.ts`) and the reading re-checked.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findGame } from "../../src/game/catalog.ts";
import { readPlan } from "../../src/plan/plan.ts";
import { EXPERIMENTS } from "../../scripts/experiments-list.ts";
import { defineReplays, pinned, ROOT } from "./experiment-replays.ts";

// A slice small enough for the fast tier: the game the explorer's work moves most and one game of the check set
// (tally's third run wins in 166 actions, so it costs little), and a lifetime; an arm that windows (window-25 on
// murk, its longest replay) is replayed in the slow tier (experiments.slow.test.ts).
defineReplays({
  memory: [
    { arm: "full-log", game: "glide", run: 1 },
    { arm: "full-log", game: "tally", run: 3 },
  ],
  lifetime: [{ arm: "lifetime", game: "vault", run: 1 }],
});

for (const e of EXPERIMENTS) {
  describe(`experiment ${e.name}`, () => {
    const plan = readPlan(join(ROOT, e.plan))._unsafeUnwrap();
    const rows = pinned(e.csv);

    test("every job of the committed plan has a pinned row, and the plan's games are the games committed now", () => {
      expect(rows.size).toBe(plan.jobs.length);
      for (const j of plan.jobs) expect(rows.has(`${j.arm},${j.game},${j.seed}`)).toBe(true);
      for (const g of plan.games) expect(findGame(g.id)._unsafeUnwrap().info.version ?? null).toBe(g.version);
    });

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
