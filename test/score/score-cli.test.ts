// `prolong score` as a command over real runs: per-run rows in --json, --at as a list of budgets (each equal
// to re-scoring at that budget alone), --csv, and the refusal to pool two setups under one --arm name.
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { scoreCommand } from "../../src/cli/score.ts";
import { playGame, tempRoot } from "../run/helpers.ts";
import { runCaptured } from "../support/captured.ts";

const capture = (args: string[]) => runCaptured(scoreCommand, args);

describe("score over played runs", async () => {
  const root = tempRoot();
  const a = await playGame({ game: "glide", maxActions: 60, arm: "mine" }, path.join(root, "a"));
  const b = await playGame({ game: "glide", maxActions: 60, seed: 1, arm: "mine" }, path.join(root, "b"));
  const other = await playGame({ game: "glide", maxActions: 60, logWindow: 3, arm: "mine" }, path.join(root, "c"));
  const dirs = [a.session.paths.dir, b.session.paths.dir];

  test("--json lists every run with its settings and results besides the aggregates", async () => {
    const r = await capture([...dirs, "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.arms).toHaveLength(1);
    expect(j.arms[0].name).toBe("mine");
    expect(j.runs.map((x: { dir: string }) => x.dir)).toEqual(dirs);
    expect(j.runs[1]).toMatchObject({
      game: "glide",
      arm: "mine",
      seed: 1,
      status: "scored",
      actions: b.summary.actions,
      rhae: b.summary.rhae,
      levels: b.summary.levelsCompleted,
    });
  });

  test("--at 20,60: one entry per budget, each the same as --at alone", async () => {
    const both = JSON.parse((await capture([...dirs, "--json", "--at", "20,60"])).out);
    const at20 = JSON.parse((await capture([...dirs, "--json", "--at", "20"])).out);
    expect(both.budgets.map((x: { at: number }) => x.at)).toEqual([20, 60]);
    expect(both.budgets[0].arms).toEqual(at20.arms);
    expect(both.budgets[0].runs.every((x: { actions: number }) => x.actions <= 20)).toBe(true);
    expect(both.budgets[1].runs.map((x: { rhae: number }) => x.rhae)).toEqual([a.summary.rhae, b.summary.rhae]);
    const md = await capture([...dirs, "--at", "20,60"]);
    expect(md.out).toContain("Score against action budget");
  });

  test("--csv: a header and a row per run per budget", async () => {
    const r = await capture([...dirs, "--csv", "--at", "20,60"]);
    const lines = r.out.trim().split("\r\n");
    expect(lines[0]!.startsWith("at_actions,dir,run,game")).toBe(true);
    expect(lines).toHaveLength(5);
  });

  test("two setups under one --arm name: exit 2, the differing setting named", async () => {
    const r = await capture([...dirs, other.session.paths.dir]);
    expect(r.code).toBe(2);
    expect(r.errText).toContain('arm "mine"');
    expect(r.errText).toContain("--log-window: full vs last 3 sections");
    expect(r.out).toBe("");
  });

  test("bad --at lists are refused", async () => {
    for (const bad of ["0", "10,x", "10,10", ""]) expect((await capture([...dirs, "--at", bad])).code).toBe(2);
  });
});
