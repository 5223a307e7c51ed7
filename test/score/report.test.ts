// Per-game and overall figures from scorecards, against hand-computed values.
import { describe, expect, test } from "bun:test";
import { newConfig, type RunConfigInput } from "../../src/config/run-config.ts";
import { groupArms, type Arm, type ScoredRun } from "../../src/score/arms.ts";
import { armReport, compareArms } from "../../src/score/report.ts";
import { armMarkdown } from "../../src/score/markdown.ts";
import { runRows } from "../../src/score/run-rows.ts";
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

describe("lifetimes: episodes named for what they are", () => {
  // A lifetime of 3 episodes at 50 actions each on a one-level game of baseline 10: episode 1 clears the level
  // in 40 actions (RHAE 6.25), episode 2 fails, episode 3 clears it in 10 (100). scorecard.json's score is the
  // best of the three (100), played with up to 150 actions: not pass@1.
  function lifetimeRun(game: string, seed: number, clears: (number | null)[]): ScoredRun {
    const config = newConfig({ game, seed, episodes: clears.length, maxActions: 50 })._unsafeUnwrap();
    const card = buildScorecard({
      run: `t/${game}-${seed}`,
      config,
      end: { reason: "max-actions", detail: "" },
      baselines: [10],
      winLevels: 1,
      episodes: clears.map((a, i) => ({
        episode: i + 1,
        levels: a === null ? 0 : 1,
        state: a === null ? "NOT_FINISHED" : "WIN",
        actions: a ?? 50,
        levelActions: [a ?? 50],
      })),
      actions: clears.reduce<number>((n, a) => n + (a ?? 50), 0),
      agentCalls: 1,
      tokens: { input: 0, cached: 0, output: 0 },
      tamperEvents: 0,
      wallMs: 1,
    });
    return { dir: `/runs/${game}-${seed}`, card };
  }
  const runs = [lifetimeRun("a", 0, [40, null, 10]), lifetimeRun("a", 1, [20, 10, null])];
  const r = armReport(arm(runs), {});

  test("pass@1 is the first episode; best of K and the last episode are apart, with the budget they used", () => {
    expect(runs[0]!.card.score).toBe(100); // the scorecard's best of 3
    // first episodes: 6.25 and 25 → pass@1 15.625
    expect(r.overall.passAt1.estimate).toBe(15.625);
    expect(r.games[0]!.scores).toEqual([6.25, 25]);
    expect(r.lifetime).toMatchObject({ episodes: 3, actionsPerEpisode: 50 });
    expect(r.lifetime!.first.estimate).toBe(15.625);
    expect(r.lifetime!.last.estimate).toBe(50); // 100 and 0
    expect(r.lifetime!.bestOfK.estimate).toBe(100);
    expect(r.lifetime!.curve.map((l) => l.passAt1)).toEqual([15.625, 50, 50]);
    // best so far per run: 6.25, 6.25, 100 and 25, 100, 100
    expect(r.lifetime!.curve.map((l) => l.bestSoFar)).toEqual([15.625, 53.125, 100]);
  });

  test("the table says so: pass@1 (episode 1), and best of 3 named with up to 3 × 50 actions", () => {
    const md = armMarkdown(r, { level: 0.95 });
    expect(md).toContain("pass@1 RHAE (episode 1)");
    expect(md).toContain("Lifetime of 3 episodes on one seed, 50 actions per episode.");
    expect(md).toMatch(/\| first \(pass@1\) \| 15\.63 \[6\.25, 25\.00\] \(1 game, 2 runs\) \| 50 \|/);
    expect(md).toMatch(/\| best of 3 \| 100\.00 [^|]*\| up to 3 × 50 \|/);
  });

  test("per-run rows: the score is the first episode's, every episode listed", () => {
    const rows = runRows([arm(runs)]);
    expect(rows.map((x) => [x.rhae, x.episodeScores])).toEqual([
      [6.25, [6.25, 0, 100]],
      [25, [25, 100, 0]],
    ]);
  });
});
