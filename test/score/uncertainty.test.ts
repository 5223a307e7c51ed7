// Intervals that match the design, through `prolong score` as a researcher reads it: a one-game NetHack study of
// ten seeds gets an interval from its seeds and BALROG's mean ± standard error; every interval names the games
// and runs behind it; one run is `n=1`, never an interval that says "certain".
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scoreCommand } from "../../src/cli/score.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { buildScorecard } from "../../src/score/scorecard.ts";
import { tempRoot } from "../run/helpers.ts";
import { writeBackingLog } from "../support/backing-log.ts";
import { runCaptured } from "../support/captured.ts";

/** A run directory holding a hand-made NetHack scorecard whose best progression is `percent`. */
function nethackRun(root: string, name: string, seed: number, percent: number, arm: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const config = newConfig({ game: "nethack", env: "nethack", seed, arm })._unsafeUnwrap();
  const card = buildScorecard({
    run: `t/${name}`,
    config,
    end: { reason: "max-actions", detail: "" },
    baselines: [],
    winLevels: 0,
    // The episode's "levels" is its progression × 100 (the log's Score is progression × 10,000).
    episodes: [{ episode: 1, levels: Math.round(percent * 100), state: "NOT_FINISHED", actions: 300, levelActions: [] }],
    actions: 300,
    agentCalls: 1,
    tokens: { input: 0, cached: 0, output: 0 },
    tamperEvents: 0,
    wallMs: 5,
  });
  writeFileSync(path.join(dir, "scorecard.json"), JSON.stringify(card));
  writeBackingLog(dir, card);
  return dir;
}

const score = (args: string[]) => runCaptured(scoreCommand, args);

describe("one NetHack game, ten seeds", () => {
  const root = tempRoot();
  const progress = [1.2, 0, 4.6, 2.9, 12.4, 0.5, 3.3, 8.1, 0, 7.4];
  progress.forEach((p, i) => nethackRun(root, `ten/s${i}`, i, p, "ten"));
  nethackRun(root, "one/s0", 0, 4.6, "one");

  test("the interval is not zero-width, names 1 game and 10 runs, and BALROG's mean ± SE stands beside it", async () => {
    const r = await score(["--json", path.join(root, "ten")]);
    expect(r.code).toBe(0);
    const arm = JSON.parse(r.out).arms[0];
    expect(arm.overall.passAt1.estimate).toBeCloseTo(4.04, 10);
    expect(arm.overall.passAt1.high - arm.overall.passAt1.low).toBeGreaterThan(1);
    expect(arm.overall.passAt1).toMatchObject({ games: 1, runs: 10 });
    expect(arm.overall.meanSE.n).toBe(10);
    expect(arm.overall.meanSE.se).toBeCloseTo(1.2372, 3); // numpy: np.std(x) / np.sqrt(10)
    const text = await score([path.join(root, "ten")]);
    expect(text.out).toMatch(/\*\*4\.04 \[\d+\.\d\d, \d+\.\d\d\] \(1 game, 10 runs\)\*\*/);
    expect(text.out).toContain("4.04 ± 1.24 (10 runs)");
    expect(text.out).not.toContain("[4.04, 4.04]");
  });

  test("a one-run arm says n=1, with no interval and no standard error", async () => {
    const r = await score([path.join(root, "one")]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("**4.60 (n=1)**");
    expect(r.out).toContain("Mean ± standard error over runs (as BALROG reports it): 4.60 (n=1).");
    expect(r.out).not.toContain("[4.60, 4.60]");
    const json = JSON.parse((await score(["--json", path.join(root, "one")])).out);
    expect(json.arms[0].overall.passAt1).toMatchObject({ estimate: 4.6, low: null, high: null, games: 1, runs: 1 });
  });
});
