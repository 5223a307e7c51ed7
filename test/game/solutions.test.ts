// Every committed level is solvable: its stored solution plays to the next level (or WIN), and its
// baseline is a real action count no longer than that solution.
import { describe, expect, test } from "bun:test";
import { catalog, listGames } from "../../src/game/catalog.ts";
import type { FrameData } from "../../src/game-model.ts";

describe("committed games", () => {
  test("at least 6 games and 40 levels, each game 5 levels or more", () => {
    const games = listGames();
    expect(games.length).toBeGreaterThanOrEqual(6);
    expect(games.reduce((n, g) => n + g.winLevels, 0)).toBeGreaterThanOrEqual(40);
    for (const g of games) expect(g.winLevels).toBeGreaterThanOrEqual(5);
  });

  test("together they cover movement only, clicks only, both, undo, memory", () => {
    const games = listGames();
    const moves = (a: readonly number[]) => a.some((x) => x >= 1 && x <= 4);
    expect(games.some((g) => moves(g.availableActions) && !g.availableActions.includes(6))).toBe(true);
    expect(games.some((g) => !moves(g.availableActions) && g.availableActions.includes(6))).toBe(true);
    expect(games.some((g) => moves(g.availableActions) && g.availableActions.includes(6))).toBe(true);
    expect(games.some((g) => g.availableActions.includes(7))).toBe(true);
    expect(games.filter((g) => g.tags.includes("memory")).length).toBeGreaterThanOrEqual(2);
  });

  for (const entry of catalog()) {
    test(`${entry.info.id}: every stored solution clears its level, ending in WIN`, () => {
      const game = entry.create(0);
      let frame: FrameData = game.reset();
      entry.levels.forEach((level, i) => {
        expect(frame.levelsCompleted).toBe(i);
        expect(frame.state).toBe("NOT_FINISHED");
        for (const action of level.solution) {
          expect(frame.state).toBe("NOT_FINISHED");
          frame = game.step(action);
          expect(frame.message).toBeUndefined();
        }
        expect(frame.levelsCompleted).toBe(i + 1);
      });
      expect(frame.state).toBe("WIN");
      expect(frame.winLevels).toBe(entry.levels.length);
    });

    test(`${entry.info.id}: baselines are positive and at most the stored solution's length`, () => {
      entry.levels.forEach((level, i) => {
        expect(level.baseline).toBeGreaterThan(0);
        expect(level.baseline).toBeLessThanOrEqual(level.solution.length);
        expect(entry.info.baselineActions[i]).toBe(level.baseline);
        expect(level.budget).toBeGreaterThanOrEqual(level.solution.length);
      });
    });
  }
});
