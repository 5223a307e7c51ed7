// A malformed game file is an error naming the file, the level and the field (tested on broken copies).
import { describe, expect, test } from "bun:test";
import { findGame, loadGameFile } from "../../src/game/catalog.ts";
import glide from "../../data/games/glide.json";
import lumen from "../../data/games/lumen.json";

const copy = <T>(x: T): T => structuredClone(x);

function message(file: string, raw: unknown): string {
  const r = loadGameFile(file, raw);
  expect(r.isErr()).toBe(true);
  const e = r._unsafeUnwrapErr();
  expect(e.path).toBe(file);
  expect(e.code).toBe("game-file");
  return e.message;
}

describe("game file validation", () => {
  test("the committed files load", () => {
    expect(loadGameFile("glide.json", glide).isOk()).toBe(true);
    expect(findGame("glide")._unsafeUnwrap().levels.length).toBe(glide.levels.length);
  });

  test("a wrong type in a level's common field names level and field", () => {
    const bad = copy(glide) as { levels: Record<string, unknown>[] };
    bad.levels[2]!.budget = "lots";
    const m = message("broken.json", bad);
    expect(m).toContain("level 3");
    expect(m).toContain("budget");
  });

  test("a ragged map row names level and row", () => {
    const bad = copy(glide);
    bad.levels[1]!.map[2] = "#..";
    const m = message("broken.json", bad);
    expect(m).toContain("level 2");
    expect(m).toContain("map[2]");
  });

  test("an unknown tile, a missing player and a bad pattern are named", () => {
    const tile = copy(glide);
    tile.levels[0]!.map[1] = "#P..?.#";
    expect(message("a.json", tile)).toContain("unknown tile '?'");
    const noPlayer = copy(glide);
    noPlayer.levels[4]!.map = noPlayer.levels[4]!.map.map((r) => r.replace("P", "."));
    expect(message("b.json", noPlayer)).toMatch(/level 5.*exactly one 'P'/);
    const pattern = copy(lumen) as { levels: { pattern: unknown }[] };
    pattern.levels[6]!.pattern = [[1, "x"]];
    expect(message("c.json", pattern)).toMatch(/level 7, field pattern\.0\.1/);
  });

  test("a bad solution entry, a baseline above the solution and a budget below it are named", () => {
    const sol = copy(glide);
    sol.levels[3]!.solution[1] = "JUMP";
    expect(message("a.json", sol)).toMatch(/level 4, field solution\[1\].*JUMP/);
    const base = copy(glide);
    base.levels[0]!.baseline = 99;
    expect(message("b.json", base)).toMatch(/level 1, field baseline/);
    const budget = copy(glide);
    budget.levels[0]!.budget = 1;
    expect(message("c.json", budget)).toMatch(/level 1, field budget/);
    const offered = copy(glide);
    offered.levels[0]!.solution[0] = "ACTION6(1,1)";
    expect(message("d.json", offered)).toContain("not in the game's actions");
  });

  test("top-level problems name the field", () => {
    const rules = copy(glide) as Record<string, unknown>;
    rules.rules = "chess";
    expect(message("a.json", rules)).toContain("field rules");
    const none = copy(glide) as Record<string, unknown>;
    delete none.levels;
    expect(message("b.json", none)).toContain("levels");
  });
});
