// The explorer's and random play's results on the committed games at 500 actions, the budget of
// docs/explorer.md's tables (pinned-results.json), pinned: each run fails when it clears fewer levels than pinned
// or spends more than the margin more actions on the levels it cleared (pinned-play.ts). The fast tier checks
// the explorer's first 150 actions (pinned.test.ts).
import { describe, expect, test } from "bun:test";
import { pinnedProblems, readPins } from "./pinned-play.ts";

const pins = readPins("pinned-results.json");

describe("pinned results on the committed games, 500 actions", () => {
  for (const agent of ["explorer", "random"] as const)
    test(`${agent}: no run clears fewer levels or spends more actions on them than pinned (beyond the margin)`, async () => {
      expect(await pinnedProblems(pins, agent)).toEqual([]);
    }, 600_000);
});
