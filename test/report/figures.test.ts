// The report's figures read right at a glance: two arms that scored alike are both visible (the second dashed
// and named "same as"), a study of several games gets one learning-curve panel per game instead of every run's
// steps in one tangle, and a study without billed tokens says so instead of showing an empty plot.
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { buildReport } from "../../src/report/data.ts";
import { reportFigures, type Figure } from "../../src/report/figures.ts";
import { findRuns } from "../../src/score/find-runs.ts";
import { BOOTSTRAP_DEFAULTS } from "../../src/score/stats.ts";
import { playGame, tempRoot } from "../run/helpers.ts";

const boot = { seed: 1, resamples: 200, level: BOOTSTRAP_DEFAULTS.level };

async function figuresOf(runs: { game: string; seed: number; arm: string; maxActions?: number }[]): Promise<Map<string, Figure>> {
  const root = tempRoot();
  for (const r of runs) await playGame({ maxActions: 20, ...r }, path.join(root, `${r.arm}-${r.game}-${r.seed}`));
  const data = buildReport(findRuns([root]), { boot })._unsafeUnwrap();
  return new Map(reportFigures(data).map((f) => [f.id, f]));
}

describe("report figures", () => {
  test("arms alike, several games, no tokens: dashed and named, one panel per game, the empty plot explained", async () => {
    const runs = ["a", "b"].flatMap((arm) => ["glide", "vault"].flatMap((game) => [0, 1].map((seed) => ({ game, seed, arm }))));
    const figures = await figuresOf(runs);
    const budget = figures.get("score-vs-budget")!.svg;
    // Arm b's line lies exactly on arm a's: drawn dashed over it, and the legend says which it repeats.
    expect(budget).toMatch(/class="line"[^>]*stroke-dasharray="5 4"[^>]*data-series="b"/);
    expect(budget).not.toMatch(/class="line"[^>]*stroke-dasharray[^>]*data-series="a"/);
    expect(budget).toContain("b (same as a)");
    const learning = figures.get("learning-curves")!;
    for (const game of ["glide", "vault"]) expect(learning.svg).toContain(`font-weight="600">${game}</text>`);
    expect(learning.svg.match(/class="curve"/g)!.length).toBe(runs.length);
    expect(learning.caption).toContain("one panel per game");
    expect(figures.get("tokens-vs-score")!.svg).toContain("No run billed any tokens");
  }, 120_000);

  test("one game, arms that differ: one panel, solid lines, no note", async () => {
    const figures = await figuresOf([
      { game: "glide", seed: 0, arm: "a" },
      { game: "glide", seed: 0, arm: "b", maxActions: 10 },
    ]);
    expect(figures.get("score-vs-budget")!.svg).not.toContain("same as");
    expect(figures.get("learning-curves")!.caption).not.toContain("panel");
  }, 120_000);
});
