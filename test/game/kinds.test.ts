// The environment kind is the one seam: what `--games all` means, which settings a kind has and what its
// runs are scored by all come from its kind (game/kinds.ts), so play, plan and score agree for every kind
// and read the same environment variables.
import { afterEach, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { gamesOf } from "../../src/plan/games.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { ENV_KINDS, envKind, loadKind } from "../../src/game/kinds.ts";
import { configMetric } from "../../src/score/scorecard.ts";

const STAND_IN_GAMES = resolve(import.meta.dir, "../arc/stand-in/games");
const saved = process.env.PROLONG_ARC_GAMES;
afterEach(() => {
  if (saved === undefined) delete process.env.PROLONG_ARC_GAMES;
  else process.env.PROLONG_ARC_GAMES = saved;
});

/** The games `play --games all --env K` and `plan --games all --env K` run (one reading for both), or the problem. */
async function allGames(env: (typeof ENV_KINDS)[number], fields: Record<string, unknown> = {}): Promise<string[] | string> {
  const games = await gamesOf("all", { env, ...fields });
  return typeof games === "string" ? games : games.map((g) => g.id);
}

describe("--games all", () => {
  test("every kind says what its games are: the committed ones, an ARC directory's, or its one game", async () => {
    process.env.PROLONG_ARC_GAMES = STAND_IN_GAMES;
    expect((await allGames("local")).length).toBeGreaterThanOrEqual(6);
    expect(await allGames("arc-local")).toEqual(["tn01-v1"]);
    expect(await allGames("arc-online")).toContain("no list of all games");
    expect(await allGames("nethack")).toEqual(["nethack"]);
    expect(await allGames("toy")).toEqual(["toy"]);
  });

  test("with --env arc-local it is the ARC directory's games, from --arc-games or PROLONG_ARC_GAMES, never the local ones", async () => {
    process.env.PROLONG_ARC_GAMES = STAND_IN_GAMES;
    expect(await allGames("arc-local")).toEqual(["tn01-v1"]);
    delete process.env.PROLONG_ARC_GAMES;
    expect(await allGames("arc-local", { arcGames: STAND_IN_GAMES })).toEqual(["tn01-v1"]);
    // Neither given: what is missing, and both ways to give it.
    expect(await allGames("arc-local")).toContain("needs the ARC games directory");
  });

  test("a kind of one game is that game; a name it does not have is refused", async () => {
    expect(await gamesOf(undefined, { env: "nethack" })).toEqual([{ id: "nethack", version: null }]);
    expect(await gamesOf("glide", { env: "nethack" })).toContain("one game");
  });
});

describe("what each kind supplies", () => {
  test("its settings apply to it alone, its defaults and metric follow it", () => {
    expect(newConfig({ game: "nethack", env: "nethack", role: "wizard" }).isOk()).toBe(true);
    const wrong = newConfig({ game: "glide", role: "wizard" })._unsafeUnwrapErr();
    expect(wrong.code).toBe("flag-not-applicable");
    expect(wrong.message).toContain("--role does not apply to --env local");
    const nethack = newConfig({ game: "nethack", env: "nethack" })._unsafeUnwrap();
    expect([nethack.maxActions, nethack.actionCap]).toEqual([20_000, 30]);
    expect(configMetric(nethack)).toBe("progression");
    expect(configMetric(newConfig({ game: "glide" })._unsafeUnwrap())).toBe("rhae");
  });

  test("every kind loads what plays it, and a local game opens through it", async () => {
    for (const env of ENV_KINDS) {
      const kind = envKind(env);
      expect(kind.name).toBe(env);
      expect(typeof (await loadKind(env)).open).toBe("function");
    }
    const opened = (await loadKind("local")).open(newConfig({ game: "glide" })._unsafeUnwrap(), {
      saveFile: () => {},
      summaryLine: () => {},
    });
    expect(opened._unsafeUnwrap().info.id).toBe("glide");
  });
});

describe("a third kind is one folder and one registry line (src/game/toy/)", () => {
  test("--env toy plays through the real loop with the built-in explorer, its own setting in run.json", async () => {
    const { playGame } = await import("../run/helpers.ts");
    // Its first level (the explorer's tests play all three through the same game).
    const one = await playGame({ game: "toy", env: "toy", toyLevels: 1, maxActions: 100 });
    expect([one.end.reason, one.summary.winLevels]).toEqual(["win", 1]);
    expect(JSON.parse(await Bun.file(one.session.paths.config).text()).toyLevels).toBe(1);
  });

  test("its setting is a play flag with its help line, and applies to it alone", async () => {
    const { playCommand } = await import("../../src/cli/play.ts");
    expect(playCommand.usage).toContain("--toy-levels N");
    expect(playCommand.usage).toContain("toy: a small maze game");
    expect(newConfig({ game: "glide", toyLevels: 2 })._unsafeUnwrapErr().message).toContain(
      "--toy-levels does not apply to --env local",
    );
  });
});
