// Per-game and overall figures from scorecards, against hand-computed values.
import { describe, expect, test } from "bun:test";
import { newConfig, type RunConfigInput } from "../../src/config/run-config.ts";
import { groupArms, type Arm, type ScoredRun } from "../../src/score/arms.ts";
import { armReport, compareArms } from "../../src/score/report.ts";
import { buildScorecard } from "../../src/score/scorecard.ts";

// One-level games with baseline 10: a run that clears the level in a actions scores min(115, 100·(10/a)²),
// capped at 100 by the completed-weight rule; one that does not clear it scores 0.
function run(game: string, actions: number, cleared: boolean, fields: Partial<RunConfigInput> = {}, output = 0): ScoredRun {
  const config = newConfig({ game, ...fields })._unsafeUnwrap();
  const card = buildScorecard({
    run: `t/${game}`,
    config,
    end: { reason: "max-actions", detail: "" },
    baselines: [10],
    winLevels: 1,
    episodes: [
      { episode: 1, levels: cleared ? 1 : 0, state: cleared ? "WIN" : "NOT_FINISHED", actions, levelActions: [actions] },
    ],
    actions,
    agentCalls: 1,
    tokens: { input: 1000, cached: 0, output },
    tamperEvents: 0,
    wallMs: 1,
  });
  return { dir: `/runs/${game}-${actions}`, card };
}

/** The runs as one arm (they must share a fingerprint). */
function arm(runs: ScoredRun[]): Arm {
  const arms = groupArms(runs)._unsafeUnwrap();
  expect(arms.length).toBe(1);
  return arms[0]!;
}

describe("armReport", () => {
  // game a: RHAE 100 (10 actions) and 25 (20 actions); game b: 0 and 0 (not cleared).
  const runs = [run("a", 10, true), run("a", 20, true), run("b", 50, false), run("b", 50, false)];
  const r = armReport(arm(runs), {});

  test("per game: pass@1 = mean over runs, best@k = max, levels, billed tokens per level", () => {
    const [a, b] = r.games;
    expect(a).toMatchObject({
      game: "a",
      runs: 2,
      failed: 0,
      unfinished: 0,
      passAt1: 62.5,
      bestAtK: 100,
      bestAtKCurve: [62.5, 100],
      levels: 1,
      bestLevels: 1,
      billedTokens: 2000,
      billedPerLevel: 1000,
    });
    expect(b).toMatchObject({ game: "b", runs: 2, passAt1: 0, bestAtK: 0, levels: 0, billedPerLevel: null });
  });
  test("overall: means over games, levels over runs, billed tokens per level over all runs", () => {
    expect(r.overall.passAt1.estimate).toBe(31.25);
    expect(r.overall.bestAtK.estimate).toBe(50);
    expect(r.overall.passAt1.low).toBe(0); // resampling b twice
    // Resampling a twice, then its runs: 100 (both draws of both games the 100 run) has probability 1/64, under
    // 2.5%; one game's runs 100 and 100, the other's 100 and 25 (mean 81.25) brings the tail past 2.5%.
    expect(r.overall.passAt1.high).toBe(81.25);
    expect([r.overall.passAt1.games, r.overall.passAt1.runs]).toEqual([2, 4]);
    expect(r.overall).toMatchObject({
      games: 2,
      runs: 4,
      k: { min: 2, max: 2 },
      levelsCompleted: 2,
      levelsTotal: 4,
      billedTokens: 4000,
      billedPerLevel: 2000,
    });
    expect(r.lifetime).toBeNull();
  });
});

describe("arms", () => {
  test("runs differing only in game and seed are one arm; another log window is another", () => {
    const arms = groupArms([
      run("a", 10, true, { seed: 1 }),
      run("b", 10, true, { seed: 2 }),
      run("a", 10, true, { logWindow: 0 }),
    ])._unsafeUnwrap();
    expect(arms.map((x) => [x.name, x.runs.length])).toEqual([
      ["explorer", 2],
      ["explorer --log-window newest", 1],
    ]);
  });

  test("compare: B − A per paired game, unpaired games left out", () => {
    const a = [run("a", 10, true), run("b", 20, true), run("only-a", 10, true)];
    const b = [run("a", 20, true, { logWindow: 0 }), run("b", 20, true, { logWindow: 0 })];
    const c = compareArms(arm(a), arm(b), {});
    expect(c.games.map((g) => g.game)).toEqual(["a", "b"]);
    expect(c.unpaired).toEqual(["only-a"]);
    // a: 100 → 25 (−75); b: 25 → 25 (0): mean −37.5, resamples give −75, −37.5 or 0.
    expect(c.diff.passAt1).toMatchObject({ estimate: -37.5, low: -75, high: 0 });
    expect(c.diff.levels.estimate).toBe(0);
  });
});
