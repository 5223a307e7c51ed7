// Progression from the game's state, as BALROG reads it (NLE's blstats): the real depth in the Quest and Fort
// Ludios (the status names the Quest's levels "Home N" and Ludios by name; depth.ts reads their depth from the
// portal level the hero came through), and the hero's own experience level through a polymorph (the status
// shows the monster's HD:N instead), and a level change behind --More-- on the action that caused it. Checked
// on real games in debug mode against the game's own lists. The real games are played at once (test.concurrent):
// each is its own process in its own folder, and a game spends most of its time waiting for its terminal.
import { describe, expect, test } from "bun:test";
import { nextDepth, type DepthState } from "../../../src/game/nethack/depth.ts";
import { progressionAt } from "../../../src/game/nethack/progression.ts";
import { NO_WIZARD, wizardEpisode } from "./helpers.ts";

function walk(places: readonly string[]): (number | undefined)[] {
  let state: DepthState = {};
  return places.map((p) => {
    const r = nextDepth(state, p);
    state = r.state;
    return r.depth;
  });
}

describe("depth from the status place", () => {
  test("Dlvl:N is N; the Quest's Home k lies k − 1 below the portal level it was entered from", () => {
    expect(walk(["Dlvl:1", "Dlvl:13", "Home 1", "Home 2", "Home 5", "Dlvl:13", "Home 1"])).toEqual([1, 13, 13, 14, 17, 13, 13]);
  });
  test("Fort Ludios is at the depth the game's dungeon table gives, read once; the Planes (-5..0) have none", () => {
    let reads = 0;
    const table = () => {
      reads++;
      return 19;
    };
    let state: DepthState = {};
    const depths = ["Dlvl:13", "Fort Ludios", "Dlvl:13", "Fort Ludios"].map((p) => {
      const r = nextDepth(state, p, table);
      state = r.state;
      return r.depth;
    });
    expect(depths).toEqual([13, 19, 13, 19]);
    expect(reads).toBe(1);
    // Without the table (it could not be read), the Fort has no depth: its portal's level says nothing of it.
    expect(walk(["Dlvl:13", "Fort Ludios"])).toEqual([13, undefined]);
    expect(walk(["Dlvl:1", "Plane of Earth", "Astral Plane"])).toEqual([1, undefined, undefined]);
  });
  test("a Quest level seen with no portal level before it (nothing to read the depth from) has none", () => {
    expect(walk(["Home 2"])).toEqual([undefined]);
  });
});

describe.skipIf(NO_WIZARD)(`a real Quest level${NO_WIZARD ? " (skipped: needs NetHack and root for debug mode)" : ""}`, () => {
  test.concurrent("Home 3 and Home 1, entered from the portal's level, are at the depths the game itself lists (not depth 0)", async () => {
    const game = await wizardEpisode();
    const { press, settle } = game;
    await settle();
    // The game's own list of levels (debug mode's level teleport menu): the Quest's portal and its depths.
    let menu = await press("\x16?\r");
    for (let page = 0; page < 3 && !/The Quest: levels \d+/.test(menu); page++) menu = `${menu}\n${await press(">")}`;
    const portal = Number(/Portal to The Quest: (\d+)/.exec(menu)![1]);
    const questTop = Number(/The Quest: levels (\d+) to \d+/.exec(menu)![1]);
    await press("\x1b");
    await settle();
    // To the portal's level, then (the game's list again) to the Quest's locate level, deeper than its home.
    await press(`\x16${portal}\r`);
    await settle();
    expect(game.frame.observation.status?.place).toBe(`Dlvl:${portal}`);
    const teleport = async (proto: string) => {
      menu = await press("\x16?\r");
      for (let page = 0; page < 3 && !new RegExp(proto).test(menu); page++) menu = await press(">");
      const entry = new RegExp(`([a-zA-Z]) - {3}${proto}: (\\d+)`).exec(menu)!;
      await press(entry[1]!);
      await settle();
      return Number(entry[2]);
    };
    const locate = await teleport("Val-loca");
    const deep = game.frame.observation.status!.place;
    expect(deep).toBe(`Home ${locate - questTop + 1}`);
    expect(Number(deep.slice(5))).toBeGreaterThan(1);
    // The real screen's place read as a depth, after the portal level: the game's listed depth.
    expect(nextDepth(nextDepth({}, `Dlvl:${portal}`).state, deep).depth).toBe(locate);
    expect(game.frame.maxDepth).toBe(locate);
    expect(game.frame.progression).toBe(progressionAt(locate, 1));
    // Up to the home level (the Quest forbids going down inside it, not up): Home 1, at the Quest's top.
    expect(await teleport("Val-strt")).toBe(questTop);
    expect(game.frame.observation.status?.place).toBe("Home 1");
    expect(nextDepth(nextDepth({}, `Dlvl:${portal}`).state, "Home 1").depth).toBe(questTop);
    expect(game.frame.maxDepth).toBe(locate);
    await game.close();
  }, 240_000);
});

describe.skipIf(NO_WIZARD)(`a real Fort Ludios${NO_WIZARD ? " (skipped: needs NetHack and root for debug mode)" : ""}`, () => {
  test.concurrent("the Fort is at the depth the game laid it out at (its own list says so), not its portal's level", async () => {
    const game = await wizardEpisode();
    const { press, settle } = game;
    await settle();
    // Down level by level from 11 until the game makes a vault with the Fort's portal (debug mode never defers it).
    let portal: number | undefined;
    for (let level = 11; level < 24 && portal === undefined; level++) {
      await press(`\x16${level}\r`);
      await settle();
      let menu = await press("\x16?\r");
      for (let page = 0; page < 2; page++) menu = `${menu}\n${await press(">")}`;
      await press("\x1b");
      await settle();
      const found = /Portal to Fort Ludios: (\d+)/.exec(menu);
      if (found) portal = Number(found[1]);
    }
    expect(portal).toBeDefined();
    expect(game.frame.observation.status?.place).toBe(`Dlvl:${portal}`);
    // The game's own list gives the Fort's depth; into it.
    let menu = await press("\x16?\r");
    for (let page = 0; page < 3 && !/[a-zA-Z] - +knox: \d+/.test(menu); page++) menu = await press(">");
    const knox = /([a-zA-Z]) - +knox: (\d+)/.exec(menu)!;
    const fort = Number(knox[2]);
    expect(fort).not.toBe(portal);
    await press(knox[1]!);
    await settle();
    expect(game.frame.observation.status?.place).toBe("Fort Ludios");
    expect(game.frame.maxDepth).toBe(fort);
    expect(game.frame.progression).toBe(progressionAt(fort, 1));
    await game.close();
  }, 240_000);
});

describe.skipIf(NO_WIZARD)(`a real polymorph${NO_WIZARD ? " (skipped: needs NetHack and root for debug mode)" : ""}`, () => {
  test.concurrent("a hero of level 3 turned into a red dragon (HD:15) still counts level 3, as BALROG's experience_level does", async () => {
    const game = await wizardEpisode();
    const { press, settle } = game;
    await settle();
    await press("#levelchange\r");
    await press("3\r");
    await settle();
    expect(game.frame.observation.status).toMatchObject({ xl: 3 });
    await press("#polyself\r");
    await press("red dragon\r");
    await settle();
    // The real status line now shows the dragon's hit dice where Xp stood.
    expect(game.frame.observation.screen.rows[23]).toMatch(/ HD:15 /);
    expect(game.frame.observation.status).toMatchObject({ xl: 3, hitDice: 15 });
    expect(game.frame.maxXl).toBe(3);
    expect(game.frame.progression).toBe(progressionAt(1, 3));
    await game.close();
  }, 240_000);
});

describe.skipIf(NO_WIZARD)(
  `a real --More-- descent${NO_WIZARD ? " (skipped: needs NetHack and root for debug mode)" : ""}`,
  () => {
    test.concurrent("a trap door's --More-- holds the old screen; the descent counts on the step onto it, its message kept", async () => {
      const game = await wizardEpisode();
      const { press, play } = game;
      // Off the up staircase (no trap can be made there), a trap door wished for under the hero, a step off it.
      for (const name of ["east", "east", "south", "west", "north"]) await play(name);
      await press("\x17");
      await press("trap door\r");
      expect(game.frame.observation.screen.rows[0]).toMatch(/^A trap door\./);
      await play("west");
      expect(game.frame.observation.status?.place).toBe("Dlvl:1");
      expect(game.frame.progression).toBe(0);
      // Onto it: the game says so behind --More-- with Dlvl:1 still on the status. That step is the descent.
      await play("east");
      expect(game.frame.observation.status?.place).toBe("Dlvl:2");
      expect(game.frame.effect?.dlvlChanged).toBe(true);
      expect(game.frame.stops).toContain("dungeon level changed");
      expect(game.frame.progression).toBe(progressionAt(2, 1));
      expect(game.frame.progression).toBeGreaterThan(0);
      expect(game.frame.observation.message).toContain("A trap door opens up under you!");
      expect(game.frame.observation.screen.rows.join("\n")).not.toContain("--More--");
      await game.close();
    }, 240_000);

    test.concurrent("a --More-- with no level change behind it stays the agent's to answer", async () => {
      const game = await wizardEpisode();
      for (const keys of ["#polyself\r", "red dragon\r"]) await game.press(keys);
      expect(game.frame.observation.screen.rows[0]).toMatch(/You turn into a red dragon!.*--More--/);
      expect(game.frame.observation.message).toBeUndefined();
      await game.close();
    }, 240_000);
  },
);
