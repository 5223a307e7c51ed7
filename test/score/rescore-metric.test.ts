// `score --at N` re-scores by the run's own metric: a NetHack run (BALROG progression) cut at its own budget
// scores what its scorecard says, as a grid run (RHAE) does, side by side. Before, the re-scoring path scored
// NetHack as RHAE against no baselines: 0.00 % at every budget.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { scoreCommand } from "../../src/cli/score.ts";
import { cpSync, writeFileSync } from "node:fs";
import { findRuns } from "../../src/score/find-runs.ts";
import { buildScorecard, readScorecard } from "../../src/score/scorecard.ts";
import { rescoreAt } from "../../src/score/rescore.ts";
import { NO_NETHACK } from "../game/nethack/helpers.ts";
import { headers, playGame, tempRoot } from "../run/helpers.ts";
import { runCaptured } from "../support/captured.ts";

/** Both runs' budget, and the --at that must reproduce their scorecards. */
const BUDGET = 60;

async function scoreJson(args: string[]): Promise<{ arms: { name: string; overall: { passAt1: { estimate: number } } }[] }> {
  const r = await runCaptured(scoreCommand, ["--json", ...args]);
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

describe.skipIf(NO_NETHACK)(`re-scoring by metric${NO_NETHACK ? " (skipped: NetHack not installed)" : ""}`, async () => {
  const root = tempRoot();
  // Seed 4's progression is above zero from its 14th action: a budget of 60 has cuts on both sides of that.
  const nethack = await playGame({ game: "nethack", env: "nethack", seed: 4, maxActions: BUDGET, arm: "nh" }, join(root, "nh"));
  const grid = await playGame({ game: "glide", seed: 0, maxActions: BUDGET, arm: "grid" }, join(root, "grid"));
  const nhCard = readScorecard(join(nethack.session.paths.dir, "scorecard.json"))._unsafeUnwrap();
  const gridCard = readScorecard(join(grid.session.paths.dir, "scorecard.json"))._unsafeUnwrap();

  test("the NetHack run made progress (the comparison below is not 0 = 0)", () => {
    expect(nhCard.metric).toBe("progression");
    expect(nhCard.score).toBeGreaterThan(0);
  });

  test(`score --at ${BUDGET} of a NetHack run played to ${BUDGET} actions equals its scorecard; so does a grid run's`, () => {
    for (const [dir, card] of [
      [nethack.session.paths.dir, nhCard],
      [grid.session.paths.dir, gridCard],
    ] as const) {
      const at = rescoreAt(dir, card, BUDGET)._unsafeUnwrap();
      expect(at.score).toBe(card.score);
      expect(at.episodes.map((e) => e.score)).toEqual(card.episodes.map((e) => e.score));
    }
  });

  test("each smaller budget gives the progression its log's header says at that action (Score is hundredths of a %)", () => {
    const scoreAt = new Map(
      headers(nethack.master).map((h) => {
        const m = /^Action (\d+) \|.*\| Score: (\d+)/.exec(h)!;
        return [Number(m[1]), Number(m[2]) / 100] as const;
      }),
    );
    const cuts = [5, 20, 40, BUDGET - 1];
    // Both sides of the first progression: a cut that scores zero and one that does not.
    expect(cuts.map((n) => scoreAt.get(n)! > 0)).toEqual([false, true, true, true]);
    for (const n of cuts) {
      const cut = rescoreAt(nethack.session.paths.dir, nhCard, n)._unsafeUnwrap();
      expect(cut.actions).toBe(n);
      expect(cut.score).toBe(scoreAt.get(n)!);
    }
  });

  test(`through the command: --at ${BUDGET} prints the scorecard's pass@1 for each metric`, async () => {
    for (const [path, card] of [
      [join(root, "nh"), nhCard],
      [join(root, "grid"), gridCard],
    ] as const) {
      const r = await scoreJson(["--at", String(BUDGET), path]);
      expect(r.arms[0]!.overall.passAt1.estimate).toBe(card.score);
    }
  });

  test("score's evidence check: both real runs match their logs; the NetHack one forged to a higher progression is refused", async () => {
    for (const path of [join(root, "nh"), join(root, "grid")]) {
      const r = (await scoreJson([path])) as unknown as { runs: { evidence: string }[] };
      expect(r.runs.map((x) => x.evidence)).toEqual(["matches"]);
    }
    const forged = join(root, "forged");
    cpSync(nethack.session.paths.dir, forged, { recursive: true });
    const card = buildScorecard({
      run: nhCard.run,
      config: nhCard.settings,
      ...(nhCard.provenance ? { provenance: nhCard.provenance } : {}),
      end: { reason: nhCard.end_reason, detail: nhCard.end_detail },
      baselines: [],
      winLevels: 0,
      episodes: nhCard.episodes.map((e) => ({ ...e, levels: Math.round(e.score * 100) + 100, levelActions: [] })),
      actions: nhCard.actions,
      agentCalls: nhCard.agent_calls,
      tokens: nhCard.tokens,
      tamperEvents: nhCard.tamper_events,
      wallMs: nhCard.wall_ms,
    });
    writeFileSync(join(forged, "scorecard.json"), JSON.stringify(card));
    const found = findRuns([forged]);
    expect(found.runs).toEqual([]);
    expect(found.skipped[0]!.evidence).toMatch(/^mismatch: the log's last header says Score: \d+, .* \(a progression of /);
  });
});
