// `prolong replay` on a committed game (--env local, no Python): a run directory replays board for board
// (exit 0); the same log against another game diverges, and the first divergence is named (exit 1).
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { playGame, tempRoot } from "../run/helpers.ts";
import { prolong } from "../support/prolong-process.ts";

const replay = (args: string[]) => prolong(["replay", ...args]);

describe("prolong replay on a local game", () => {
  test("a run directory replays board for board; the log against another game diverges, named", async () => {
    const run = await playGame({ game: "glide", maxActions: 40 }, tempRoot());
    const same = replay([run.session.paths.dir, "--json"]);
    expect(same.err).toBe("");
    expect(same.code).toBe(0);
    const report = JSON.parse(same.out) as {
      sections: number;
      boards: number;
      matched: number;
      differences: unknown[];
      firstDivergence: unknown;
    };
    expect(report.sections).toBe(41);
    expect(report.matched).toBe(41);
    expect(report.differences).toEqual([]);
    expect(report.firstDivergence).toBeNull();

    const other = replay([run.session.paths.log, "--game", "vault", "--json"]);
    expect(other.code).toBe(1);
    const diverged = JSON.parse(other.out) as {
      differences: { section: number; what: string[] }[];
      firstDivergence: { section: number };
    };
    expect(diverged.differences.length).toBeGreaterThan(0);
    expect(diverged.firstDivergence.section).toBe(diverged.differences[0]!.section);
    const text = replay([run.session.paths.log, "--game", "vault"]);
    expect(text.code).toBe(1);
    expect(diverged.firstDivergence.section).toBe(0); // another game's first board already differs
    expect(text.out).toContain("INITIAL STATE");
  });

  test("a run directory's header that the game does not give is a difference, as resume refuses it (one replay engine)", async () => {
    const run = await playGame({ game: "glide", maxActions: 12 }, tempRoot());
    const log = run.session.paths.log;
    const text = readFileSync(log, "utf8");
    // Action 5's header says Attempt 2: the boards still match, the tally gives Attempt 1.
    const edited = text.replace("Action 5 | Level 1 | Attempt 1 |", "Action 5 | Level 1 | Attempt 2 |");
    expect(edited).not.toBe(text);
    writeFileSync(log, edited);
    const r = replay([run.session.paths.dir, "--json"]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as { differences: { action: number; what: string[] }[] };
    expect(report.differences.map((d) => d.action)).toEqual([5]);
    expect(report.differences[0]!.what.join(" ")).toContain("the header says Action 5 | Level 1 | Attempt 2");
    // A bare log (no run.json: perhaps a published harness's) is compared board for board only.
    expect(replay([log, "--game", "glide", "--json"]).code).toBe(0);
  });
});
