// `--at N` against runs that actually stopped at N actions: the same per-level actions, RHAE, agent calls.
import { describe, expect, test } from "bun:test";
import { ok } from "neverthrow";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACTIONS_FILE, actionsFileText } from "../../src/agent/actions.ts";
import { NO_TOKENS, type Agent } from "../../src/agent/agent.ts";
import { readLog } from "../../src/agent/explorer/read-log.ts";
import { segment } from "../../src/agent/explorer/segment.ts";
import { readScorecard } from "../../src/score/scorecard.ts";
import { episodesFromLog, rescoreAt } from "../../src/score/rescore.ts";
import { playGame, tempRoot } from "../run/helpers.ts";

describe("rescoreAt", async () => {
  // One long run and runs of the same game and seed stopped at N: the explorer does not look at the budget,
  // so the first N actions are the same and the cut must score exactly as the stopped run.
  const long = await playGame({ game: "glide", maxActions: 160, seed: 1 }, tempRoot());
  const longCard = readScorecard(long.session.paths.scorecard)._unsafeUnwrap();

  for (const n of [1, 37, 90, 160]) {
    test(`cut at ${n} = the run stopped at ${n}`, async () => {
      // At 160 the long run is itself the run stopped there (the same settings): not played twice.
      const short = n === 160 ? long : await playGame({ game: "glide", maxActions: n, seed: 1 }, tempRoot());
      const shortCard = readScorecard(short.session.paths.scorecard)._unsafeUnwrap();
      const cut = rescoreAt(long.session.paths.dir, longCard, n)._unsafeUnwrap();
      expect(cut.level_actions).toEqual(shortCard.level_actions);
      expect(cut.levels_completed).toBe(shortCard.levels_completed);
      expect(cut.score).toBe(shortCard.score);
      expect(cut.level_scores).toEqual(shortCard.level_scores);
      expect(cut.actions).toBe(n);
      expect(cut.agent_calls).toBe(shortCard.agent_calls);
      expect(cut.settings.maxActions).toBe(n);
    });
  }

  test("the cut changes the result: fewer levels at 37 than at 160 (the test can fail)", () => {
    const cut = rescoreAt(long.session.paths.dir, longCard, 37)._unsafeUnwrap();
    expect(cut.levels_completed).toBeLessThan(longCard.levels_completed);
    expect(cut.end_reason).toBe("max-actions");
  });

  test("at the run's own budget the re-score reproduces its scorecard", () => {
    const same = rescoreAt(long.session.paths.dir, longCard, 160)._unsafeUnwrap();
    expect(same).toEqual(longCard);
  });

  test("a budget above the run's own is refused, naming it", () => {
    const r = rescoreAt(long.session.paths.dir, longCard, 500);
    expect(r.isErr()).toBe(true);
    expect(r._unsafeUnwrapErr().message).toContain("--max-actions 160, fewer than 500");
  });

  test("a scorecard that disagrees with its log is refused", () => {
    const r = rescoreAt(long.session.paths.dir, { ...longCard, actions: 999 }, 100);
    expect(r._unsafeUnwrapErr().code).toBe("log-mismatch");
  });
});

/**
 * Clicks a component chosen by a hash of the board it sees, so that each episode replays alike whatever came
 * before: the identity below needs that (the built-in explorer learns across episodes, so its later episodes
 * depend on how long the earlier ones were).
 */
const boardOnly: Agent = {
  name: "board-only",
  turn: async (input) => {
    const run = readLog(readFileSync(join(input.workspace, "logs.txt")), "logs.txt")._unsafeUnwrap();
    const board = run.steps.findLast((s) => s.board !== undefined)!.board!;
    const seg = segment({ width: board.width, height: board.height, cells: board.cells });
    const pick = seg.components[Number(BigInt(Bun.hash(board.cells)) % BigInt(seg.components.length))]!;
    writeFileSync(join(input.workspace, ACTIONS_FILE), actionsFileText([{ id: 6, x: pick.clickX, y: pick.clickY }]));
    return ok({ text: "", toolCalls: 0, tokens: NO_TOKENS, wallMs: 0, exitCode: 0 });
  },
};

describe("lifetimes", async () => {
  // Three episodes on one seed, the log kept: the cut applies per episode, as --max-actions does.
  const life = await playGame({ game: "vault", maxActions: 60, episodes: 3 }, tempRoot(), { agent: boardOnly });
  const card = readScorecard(life.session.paths.scorecard)._unsafeUnwrap();

  test("the scorecard holds every episode with its score and the best so far", () => {
    expect(card.episodes.map((e) => e.episode)).toEqual([1, 2, 3]);
    let best = 0;
    for (const e of card.episodes) {
      best = Math.max(best, e.score);
      expect(e.best_so_far).toBe(best);
      expect(e.actions).toBe(60);
    }
    expect(card.score).toBe(Math.max(...card.episodes.map((e) => e.score)));
    expect(card.actions).toBe(180);
  });

  test("the log gives back each episode's per-level actions", () => {
    const read = episodesFromLog(life.session.paths.log, card.win_levels, 60)._unsafeUnwrap();
    expect(read.loggedActions).toBe(180);
    expect(read.episodes.map((e) => e.levelActions)).toEqual(card.episodes.map((e) => e.level_actions));
    expect(read.episodes.map((e) => e.levels)).toEqual(card.episodes.map((e) => e.levels_completed));
  });

  test("cut at 25 = a lifetime played with --max-actions 25", async () => {
    const short = await playGame({ game: "vault", maxActions: 25, episodes: 3 }, tempRoot(), { agent: boardOnly });
    const shortCard = readScorecard(short.session.paths.scorecard)._unsafeUnwrap();
    const cut = rescoreAt(life.session.paths.dir, card, 25)._unsafeUnwrap();
    expect(cut.episodes).toEqual(shortCard.episodes);
    expect(cut.score).toBe(shortCard.score);
  });
});
