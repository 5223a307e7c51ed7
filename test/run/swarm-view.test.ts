// The swarm's per-run lines and summary name the score by what it measures: RHAE for grid games, BALROG
// progression % for NetHack, "score" when one swarm holds both.
import { describe, expect, test } from "bun:test";
import { newConfig } from "../../src/config/run-config.ts";
import type { RunStatus } from "../../src/run/swarm.ts";
import { finishedLine, swarmSummary } from "../../src/run/swarm-view.ts";

function status(game: string, env: "local" | "nethack", score: number): RunStatus {
  const config = newConfig({ game, ...(env === "nethack" ? { env } : {}) })._unsafeUnwrap();
  return {
    run: { name: `${game}-r1`, game, repeat: 1, dir: `/runs/${game}-r1`, config },
    state: "done",
    action: 40,
    level: 1,
    score: 0,
    startedAt: 0,
    endedAt: 2000,
    end: "max-actions",
    rhae: score,
    levelsCompleted: 1,
    winLevels: 7,
    stderrTail: "",
  };
}

describe("the swarm's score column", () => {
  test("grid games say RHAE, NetHack says progression %, a mixed swarm says score", () => {
    const grid = status("glide", "local", 12.5);
    const hack = status("nethack", "nethack", 2.65);
    expect(finishedLine(grid)).toBe("glide-r1: max-actions, 1/7 levels, 40 actions, RHAE 12.50, 2.0s");
    expect(finishedLine(hack)).toBe("nethack-r1: max-actions, 1/7 levels, 40 actions, progression % 2.65, 2.0s");
    expect(swarmSummary([grid], "/runs", "prolong resume /runs").split("\n")[0]).toMatch(
      /^run +seed +end +levels +actions +RHAE +time$/,
    );
    expect(swarmSummary([hack], "/runs", "prolong resume /runs").split("\n")[0]).toMatch(/actions +progression % +time$/);
    expect(swarmSummary([grid, hack], "/runs", "prolong resume /runs").split("\n")[0]).toMatch(/actions +score +time$/);
  });
});
