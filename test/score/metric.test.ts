// A run's score column is named by what the scorecards measure: RHAE for grid games, BALROG progression (percent)
// for NetHack. `score` and `report` refuse to set runs of both metrics in one table, and say so.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { reportCommand } from "../../src/cli/report.ts";
import { scoreCommand } from "../../src/cli/score.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { buildScorecard } from "../../src/score/scorecard.ts";
import { tempRoot } from "../run/helpers.ts";
import { writeBackingLog } from "../support/backing-log.ts";
import { runCaptured } from "../support/captured.ts";

/** A run directory holding only a hand-made scorecard: NetHack (progression) or a grid game (RHAE). */
function runDir(root: string, name: string, nethack: boolean, seed: number, logWindow: number | null = null): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const config = newConfig(
    nethack ? { game: "nethack", env: "nethack", seed, logWindow } : { game: "glide", seed, logWindow },
  )._unsafeUnwrap();
  // NetHack episodes carry their progression × 100 as "levels" (the log's Score is progression × 10,000).
  const card = buildScorecard({
    run: `t/${name}`,
    config,
    end: { reason: "max-actions", detail: "" },
    baselines: nethack ? [] : [10],
    winLevels: nethack ? 0 : 1,
    episodes: [{ episode: 1, levels: nethack ? 250 : 1, state: "NOT_FINISHED", actions: 20, levelActions: nethack ? [] : [20] }],
    actions: 20,
    agentCalls: 1,
    tokens: { input: 100, cached: 0, output: 10 },
    tamperEvents: 0,
    wallMs: 5,
  });
  writeFileSync(path.join(dir, "scorecard.json"), JSON.stringify(card));
  writeBackingLog(dir, card);
  return dir;
}

describe("the score column is named by the runs' metric", () => {
  const root = tempRoot();
  const nethack = [runDir(root, "nh/a", true, 0), runDir(root, "nh/b", true, 1)];
  const grid = [runDir(root, "grid/a", false, 0)];

  test("the hand-made NetHack scorecards record progression; the grid one records none (RHAE)", () => {
    expect(JSON.parse(readFileSync(path.join(nethack[0]!, "scorecard.json"), "utf8")).metric).toBe("progression");
    expect(JSON.parse(readFileSync(path.join(grid[0]!, "scorecard.json"), "utf8")).metric).toBeUndefined();
  });

  test("score: NetHack runs' columns say progression %, never RHAE; grid runs' say RHAE", async () => {
    const nh = await runCaptured(scoreCommand, [path.join(root, "nh")]);
    expect(nh.code).toBe(0);
    expect(nh.out).toContain("| pass@1 progression % | best@2 progression % |");
    expect(nh.out).toContain("2.50");
    expect(nh.out).not.toContain("RHAE");
    const g = await runCaptured(scoreCommand, grid);
    expect(g.code).toBe(0);
    expect(g.out).toContain("pass@1 RHAE");
    expect(g.out).not.toContain("progression");
  });

  test("score: NetHack tables have no level columns (its games have no levels to count: not 0/0); grid tables do", async () => {
    const nh = await runCaptured(scoreCommand, [path.join(root, "nh")]);
    expect(nh.out).toContain(
      "| game | runs | failed | unfinished | pass@1 progression % | best@2 progression % | actions (mean) |",
    );
    expect(nh.out).not.toContain("levels");
    expect(nh.out).not.toContain("/0");
    const g = await runCaptured(scoreCommand, grid);
    expect(g.out).toContain("| levels (mean) | levels (best) |");
    expect(g.out).toContain("Levels per game");
    // Two NetHack arms (full log, newest section only): the arms table and the per-game table drop levels too.
    const arms = tempRoot();
    runDir(arms, "full/a", true, 0);
    runDir(arms, "w0/a", true, 0, 0);
    const two = await runCaptured(scoreCommand, [arms]);
    expect(two.code).toBe(0);
    expect(two.out).toContain("## 2 arms");
    expect(two.out).not.toContain("levels");
    expect(two.out).toContain("Per game, pass@1 progression %:");
  });

  test("score --csv and --json: each run row says what its score column holds", async () => {
    const csv = (await runCaptured(scoreCommand, [path.join(root, "nh"), "--csv"])).out.trim().split("\r\n");
    const head = csv[0]!.split(",");
    const metric = head.indexOf("metric");
    expect(metric).toBeGreaterThan(-1);
    expect(csv.slice(1).map((l) => l.split(",")[metric])).toEqual(["progression", "progression"]);
    expect(csv[1]!.split(",")[head.indexOf("rhae")]).toBe("2.5");
    const j = JSON.parse((await runCaptured(scoreCommand, [...grid, "--json"])).out);
    expect(j.runs[0].metric).toBe("rhae");
    expect(j.arms[0].metric).toBe("rhae");
  });

  test("score: NetHack and grid runs in one table are refused (exit 2), the message names both metrics and the fix", async () => {
    const r = await runCaptured(scoreCommand, [...nethack, ...grid]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.errText).toContain("scores measure different things");
    expect(r.errText).toMatch(/score: (RHAE vs progression %|progression % vs RHAE)/);
    expect(r.errText).toContain(grid[0]!);
    expect(r.errText).toContain("fix: score the NetHack runs");
  });

  test("score --compare: a NetHack arm against a grid arm is refused", async () => {
    const r = await runCaptured(scoreCommand, ["--compare", path.join(root, "nh"), path.join(root, "grid")]);
    expect(r.code).toBe(2);
    expect(r.errText).toContain("score: progression % vs RHAE");
  });

  test("report: the HTML tables and figures say progression %; mixed runs are refused", async () => {
    const out = path.join(root, "report.html");
    const nh = await runCaptured(reportCommand, [path.join(root, "nh"), "--out", out]);
    expect(nh.code).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("<th>pass@1 progression %</th>");
    expect(html).toContain("<th>progression %</th><th>actions</th>");
    expect(html).toContain("Per game: pass@1 progression % and each run");
    expect(html).not.toContain("RHAE"); // tables, figures' axes and captions alike
    const mixed = await runCaptured(reportCommand, [
      path.join(root, "nh"),
      path.join(root, "grid"),
      "--out",
      path.join(root, "mixed.html"),
    ]);
    expect(mixed.code).toBe(2);
    expect(mixed.errText).toContain("prolong report: these runs' scores measure different things");
  });
});
