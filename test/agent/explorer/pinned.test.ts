// The explorer's results on the committed games, pinned (fast tier): every committed game played at both pinned
// seeds for 150 actions (pinned-results-fast.json), failing when a run clears fewer levels than pinned or spends
// more than the margin more actions on the levels it cleared (pinned-play.ts). Both agents at 500 actions, the
// budget of docs/explorer.md's tables, are checked in pinned.slow.test.ts.
import { describe, expect, test } from "bun:test";
import { catalog } from "../../../src/game/catalog.ts";
import { pinnedProblems, readPins } from "./pinned-play.ts";

const full = readPins("pinned-results.json");
const fast = readPins("pinned-results-fast.json");

describe("pinned results on the committed games", () => {
  test("every committed game is pinned at both seeds: both agents at 500 actions, the explorer at 150", () => {
    expect([full.maxActions, fast.maxActions]).toEqual([500, 150]);
    expect(Object.keys(full.agents).sort()).toEqual(["explorer", "random"]);
    expect(Object.keys(fast.agents)).toEqual(["explorer"]);
    for (const pins of [full, fast]) {
      expect(pins.seeds).toEqual([0, 1]);
      for (const agent of Object.keys(pins.agents))
        for (const seed of pins.seeds)
          for (const e of catalog())
            expect(pins.agents[agent]?.[String(seed)]?.[e.info.id], `${agent} seed ${seed} ${e.info.id}`).toBeDefined();
    }
  });

  test("the explorer, 150 actions: no run clears fewer levels or spends more actions on them than pinned (beyond the margin)", async () => {
    expect(await pinnedProblems(fast, "explorer")).toEqual([]);
  }, 240_000);
});
