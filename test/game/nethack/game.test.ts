import { describe, expect, test } from "bun:test";
import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { action, gameRoot, NO_NETHACK, play, startGame } from "./helpers.ts";
import { NethackGame } from "../../../src/game/nethack/game.ts";
import { DEFAULT_CHARACTER } from "../../../src/game/nethack/character.ts";

const WALK = [
  "far west",
  "far south",
  "far east",
  "far north",
  "search",
  "northeast",
  "southwest",
  "inventory",
  "esc",
  "far southeast",
  "wait",
  "far northwest",
];

// The tests run at once (test.concurrent): each game is its own process in its own folder, and a game spends
// most of its time waiting for its terminal.
describe.skipIf(NO_NETHACK)(`the real game${NO_NETHACK ? " (skipped: NetHack not installed)" : ""}`, () => {
  test.concurrent("a seed replays key for key: the same actions give the same screens; another seed gives another game", async () => {
    // The three games at once; each seed-5 game plays the walk in its own time.
    const walked = async (seed: number, walk: readonly string[]) => {
      const game = await startGame(seed);
      try {
        return [game.screen().rows.join("\n"), ...(await play(game, walk))];
      } finally {
        await game.close();
      }
    };
    // Another seed's game differs from its first screen: nothing need be played in it.
    const runs = await Promise.all([walked(5, WALK), walked(5, WALK), walked(6, [])]);
    expect(runs[1]).toEqual(runs[0]!);
    expect(runs[2]![0]).not.toEqual(runs[0]![0]);
  });

  test.concurrent("four games at once: each process keeps to its own folder", async () => {
    const root = gameRoot();
    const games = await Promise.all([1, 2, 3, 4].map((k) => startGame(k, join(root, `g${k}`))));
    try {
      await Promise.all(games.map((g) => play(g, WALK.slice(0, 6))));
      const opened = games.map((g) =>
        readdirSync(`/proc/${g.pid}/fd`).map((fd) => {
          try {
            return readlinkSync(`/proc/${g.pid}/fd/${fd}`);
          } catch {
            return "";
          }
        }),
      );
      games.forEach((g, k) => {
        const own = join(root, `g${k + 1}`);
        expect(readlinkSync(`/proc/${g.pid}/cwd`)).toBe(own);
        // Every file a game holds under the test root is in its own folder.
        for (const path of opened[k]!) if (path.startsWith(root)) expect(path.startsWith(`${own}/`)).toBe(true);
      });
      // Each folder has the game's own lock and level file, and the games differ.
      for (let k = 1; k <= 4; k++) expect(readdirSync(join(root, `g${k}`)).some((f) => /lock|\.0$/.test(f))).toBe(true);
      const screens = new Set(games.map((g) => g.screen().rows.join("\n")));
      expect(screens.size).toBe(4);
    } finally {
      await Promise.all(games.map((g) => g.close()));
    }
  });

  test.concurrent("a prompt nobody answers is escaped after a bounded number of actions, and said so", async () => {
    const started = await NethackGame.start({
      folder: join(gameRoot(), "game"),
      seed: 5,
      character: DEFAULT_CHARACTER,
      stuckAfter: 3,
    });
    const game = started._unsafeUnwrap().game;
    try {
      // 'x' swaps weapons: "b - a +0 dagger (weapon in hand).--More--", which 'x' does not dismiss.
      const notes: (string | undefined)[] = [];
      for (const n of ["open", "x", "x", "x", "x", "x"]) notes.push((await game.step(action(n)))._unsafeUnwrap().effect.escaped);
      expect(notes.slice(0, 5)).toEqual([undefined, undefined, undefined, undefined, undefined]);
      expect(notes[5]).toBe("the game stayed in the same prompt for 3 actions: sent Esc");
      expect(game.screen().rows[0]!.trim()).toBe("");
    } finally {
      await game.close();
    }
  });

  test.concurrent("the save key S and the options key O do nothing: an episode cannot end by saving nor change the options the status is read by", async () => {
    const game = await startGame(5);
    try {
      const saved = (await game.step(action("S")))._unsafeUnwrap();
      expect(saved.observation.screen.rows[0]!.trim()).toBe("Unknown command 'S'.");
      const yes = (await game.step(action("y")))._unsafeUnwrap();
      expect(yes.observation.ended).toBeUndefined();
      const options = (await game.step(action("O")))._unsafeUnwrap();
      expect(options.observation.screen.rows[0]!.trim()).toBe("Unknown command 'O'.");
      // The game goes on: a step still moves the clock.
      expect((await game.step(action("search")))._unsafeUnwrap().effect.turns).toBeGreaterThan(0);
    } finally {
      await game.close();
    }
  });

  test.concurrent("a batch's stop signals: HP lost and turns per action are measured from the status", async () => {
    const game = await startGame(5);
    try {
      const r = (await game.step(action("20")))._unsafeUnwrap();
      expect(r.effect.turns).toBe(0);
      const searched = (await game.step(action("search")))._unsafeUnwrap();
      expect(searched.effect.turns).toBeGreaterThanOrEqual(15);
      expect(searched.effect.hpLost).toBe(0);
    } finally {
      await game.close();
    }
  });

  test.concurrent("a game message where the inventory was read is not recorded as the inventory: the last one stays", async () => {
    const game = await startGame(5);
    try {
      const held = (await game.step(action("search")))._unsafeUnwrap().observation.held;
      expect(held.some((l) => l.startsWith("a - "))).toBe(true);
      // After the F prefix the game waits for a direction with the cursor on the hero: the 'i' of the read
      // is refused ("Invalid direction for 'F' prefix.") and must not become the inventory.
      const fought = (await game.step(action("fight")))._unsafeUnwrap().observation;
      expect(fought.inventory).toBeUndefined();
      expect(fought.held).toEqual(held);
      // ...and the fight goes on: no read comes between the prefix and its direction.
      const west = (await game.step(action("west")))._unsafeUnwrap().observation;
      expect(west.screen.rows[0]!.trim()).toBe("You attack thin air.");
    } finally {
      await game.close();
    }
  });
});
