// A batch (`play --games … --runs …`) is a plan of one arm whose jobs go to <game>-r<k>: the games read as
// play reads them (a list, all, NetHack's one game), seeds seed + k − 1, bad games and flags refused before
// anything starts, and the plan read back checked like any other (one arm, the batch's directory rule).
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { gamesOf } from "../../src/plan/games.ts";
import { buildPlan, readPlan, type Plan } from "../../src/plan/plan.ts";
import { tempRoot } from "../run/helpers.ts";

async function batch(
  games: string | undefined,
  runs: number,
  fields: Record<string, unknown> = {},
  env = "local",
): Promise<Plan | string> {
  const g = await gamesOf(games, { env: env as "local" });
  if (typeof g === "string") return g;
  const plan = buildPlan({
    layout: "batch",
    games: g,
    runs,
    arms: [{ name: "explorer", flags: "", fields }],
    common: { env: env as "local", seed: 10 },
  });
  return plan.isOk() ? plan.value : plan.error.message;
}

describe("a batch's plan", () => {
  test("games × runs, run k on seed + k − 1, one directory <game>-r<k> each", async () => {
    const p = (await batch("glide, vault", 3, { maxActions: 50 })) as Plan;
    expect(p.layout).toBe("batch");
    expect(p.jobs.map((j) => [j.dir, j.seed])).toEqual([
      ["glide-r1", 10],
      ["glide-r2", 11],
      ["glide-r3", 12],
      ["vault-r1", 10],
      ["vault-r2", 11],
      ["vault-r3", 12],
    ]);
    expect(p.jobs.every((j) => j.config.maxActions === 50 && j.config.game === j.game && j.config.job === j.id)).toBe(true);
  });
  test("all = every committed game; an unknown game or a bad flag is refused before anything starts", async () => {
    expect(((await batch("all", 1)) as Plan).jobs.length).toBeGreaterThanOrEqual(6);
    expect(await batch("glide,nope", 1)).toContain("nope");
    expect(await batch("glide", 1, { maxActions: 0 })).toContain("max actions");
    expect(await batch(undefined, 1)).toContain("--games");
  });
  test("NetHack is one game: no game named, or all, plays it", async () => {
    for (const games of [undefined, "all"]) {
      const p = (await batch(games, 2, {}, "nethack")) as Plan;
      expect(p.jobs.map((j) => [j.dir, j.config.env])).toEqual([
        ["nethack-r1", "nethack"],
        ["nethack-r2", "nethack"],
      ]);
    }
  });
  test("read back: equal; a batch with two arms, or a job outside <game>-r<k>, is refused", async () => {
    const file = path.join(tempRoot(), "plan.json");
    const p = (await batch("glide", 2)) as Plan;
    writeFileSync(file, JSON.stringify(p));
    expect(readPlan(file)._unsafeUnwrap()).toEqual(p);
    writeFileSync(file, JSON.stringify({ ...p, arms: [...p.arms, { ...p.arms[0]!, name: "other" }] }));
    expect(readPlan(file)._unsafeUnwrapErr().message).toContain("2 arms");
    const moved = structuredClone(p);
    moved.jobs[0]!.dir = `x/${moved.jobs[0]!.dir}`;
    writeFileSync(file, JSON.stringify(moved));
    expect(readPlan(file)._unsafeUnwrapErr().message).toContain("is not glide-r1");
  });
});

describe("prolong plan for a kind of one game", () => {
  test("--env nethack needs no --games, as play does not", async () => {
    const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
    const r = Bun.spawnSync([process.execPath, MAIN, "plan", "--env", "nethack", "--runs", "2", "--arm", "a="]);
    expect(r.stderr.toString()).toBe("");
    expect(r.exitCode).toBe(0);
    const p = JSON.parse(r.stdout.toString()) as Plan;
    expect(p.jobs.map((j) => [j.dir, j.config.env])).toEqual([
      ["a/nethack-r1", "nethack"],
      ["a/nethack-r2", "nethack"],
    ]);
  });
});
