// A harness that is the child subreaper (an agent's turn made it one: libc.ts) gets the dead game re-parented to
// it when the confined game closes (bwrap's namespace goes first), and nothing else reaps it: each episode
// left a zombie NetHack below the harness. close() reaps it. Its own file: being the subreaper lasts for the
// process.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { becomeSubreaper } from "../../../src/libc.ts";
import { DEFAULT_CHARACTER } from "../../../src/game/nethack/character.ts";
import { probeBwrap } from "../../../src/sandbox/bwrap.ts";
import { gameRoot, gamesBelowUs, NO_NETHACK } from "./helpers.ts";

const BWRAP = NO_NETHACK ? null : probeBwrap();

describe.skipIf(NO_NETHACK || BWRAP === null)("closing a confined game when the harness is the subreaper", () => {
  test("no game process is left below the harness, a dead one included, episode after episode", async () => {
    expect(becomeSubreaper()).toBe(true);
    const { launchNethack } = await import("../../../src/game/nethack/launch.ts");
    const folder = join(gameRoot(), "game");
    for (let round = 0; round < 3; round++) {
      const game = (await launchNethack({ folder, seed: 4, character: DEFAULT_CHARACTER, sandbox: BWRAP! }))._unsafeUnwrap();
      expect(gamesBelowUs().length).toBe(1);
      await game.close();
      expect(gamesBelowUs()).toEqual([]);
    }
  }, 60_000);
});
