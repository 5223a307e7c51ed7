// Learning across a lifetime: the route of the deepest earlier episode is replayed while the screens match,
// and earlier deaths make the agent more careful. Logs built for the tests, numbered as the harness numbers them.
import { describe, expect, test } from "bun:test";
import { thinkFromLog } from "../../../src/agent/nethack/agent.ts";
import { buildLog, withHero, type Step } from "./log-builder.ts";

const think = (steps: readonly Step[]) => thinkFromLog(new TextEncoder().encode(buildLog(steps)));

const room = (x: number) => withHero(["", "  ---------", "  |.......|", "  |......>|", "  ---------"], x, 2);
const below = withHero(["", "", "  -------", "  |.<...|", "  -------"], 4, 3);

/** Episode 1: three steps east, one southeast onto '>', down to Dlvl 2, then killed there. */
function firstEpisode(total: number): Step[] {
  return [
    { map: room(3), turn: 1, episodes: total },
    { action: "east", map: room(4), turn: 2 },
    { action: "east", map: room(5), turn: 3 },
    { action: "east", map: room(6), turn: 4 },
    { action: "east", map: room(7), turn: 5 },
    {
      action: "southeast",
      map: room(8).map((r, y) => (y === 3 ? r.replace(">", "@") : y === 2 ? r.replace("@", ".") : r)),
      turn: 6,
    },
    { action: "down", map: below, dlvl: 2, turn: 7 },
    {
      action: "west",
      map: below,
      dlvl: 2,
      turn: 8,
      hp: 0,
      end: "You died in The Dungeons of Doom on dungeon level 2 with 30 points, and 0 pieces of gold, after 8 moves",
    },
  ];
}

describe("replaying the deepest earlier episode", () => {
  test("episode 2 starts on the same screen: the route to episode 1's deepest level is handed over", () => {
    const d = think([...firstEpisode(2), { map: room(3), turn: 1, episode: 2, episodes: 2 }]);
    expect(d.actions).toEqual(["east", "east", "east", "east", "southeast", "down"]);
    expect(d.reason).toContain("replaying episode 1");
  });

  test("part of the route played: the rest of it, from where the screens still agree", () => {
    const ep2 = [
      { map: room(3), turn: 1, episode: 2, episodes: 2 },
      { action: "east", map: room(4), turn: 2, episode: 2 },
      { action: "east", map: room(5), turn: 3, episode: 2 },
    ];
    expect(think([...firstEpisode(2), ...ep2]).actions).toEqual(["east", "east", "southeast", "down"]);
  });

  test("a screen that differs from the earlier episode's at the same step ends the replay", () => {
    const ep2 = [
      { map: room(3), turn: 1, episode: 2, episodes: 2 },
      { action: "east", map: room(4), turn: 2, episode: 2, message: "You hear a door open." },
    ];
    const d = think([...firstEpisode(2), ...ep2]);
    expect(d.reason).not.toContain("replaying");
  });

  test("arrived where the earlier episode died: the agent plays on by its own rules", () => {
    const ep2 = [...firstEpisode(2).slice(0, 7)].map((s, i) => ({ ...s, episode: 2, ...(i === 0 ? { episodes: 2 } : {}) }));
    const d = think([...firstEpisode(2), ...ep2]);
    expect(d.reason).not.toContain("replaying");
  });
});

describe("episodes that died at the same depth", () => {
  test("two earlier deaths after reaching Dlvl 2 by one route: the third episode leaves the route a level sooner", () => {
    const again = firstEpisode(3).map((s, i) => ({ ...s, episode: 2, ...(i === 0 ? { episodes: 3 } : {}) }));
    const third = { map: room(3), turn: 1, episode: 3, episodes: 3 };
    const d = think([...firstEpisode(3), ...again, third]);
    expect(d.reason).not.toContain("replaying");
    // After a single such death the route is still replayed to Dlvl 2.
    expect(think([...firstEpisode(2), { ...third, episode: 2, episodes: 2 }]).reason).toContain("replaying");
  });
});

describe("caution after earlier deaths", () => {
  test("HP 12/40 next to one monster: fought in a first episode, Elbereth after an episode that died", () => {
    // Each episode begins with the kitten next to the hero; the fight is later, on Dlvl 5.
    const start = (episode: number): Step => ({ map: withHero(["", "  ..f.."], 3, 1), turn: 1, episode, episodes: 2 });
    const fight = withHero(["", "  .....", "  ..G..", "  ....."], 3, 2);
    const alone: Step = { action: "down", map: fight, turn: 900, hp: 12, hpMax: 40, dlvl: 5 };
    expect(think([start(1), alone]).actions).toEqual(["east"]);
    const later = think([...firstEpisode(2), start(2), { ...alone, episode: 2 }]);
    expect(later.actions).toEqual(["E"]);
  });
});

describe("an earlier death in the Gnomish Mines", () => {
  // Dlvl 1 and 2 are rooms and corridors; Dlvl 3 is a cave (no corridor squares): the Mines.
  const d1 = (x: number) => withHero(["", "  ------", "  |...>|####", "  ------   #", "           ####"], x, 2);
  const d2 = (x: number) =>
    withHero(["", "  -------", "  |<...>.#####", "  -------    #", "     #########", "  ---.--", "  |...>|", "  ------"], x, 2);
  const cave = withHero(["", "    ..  ...", "   .........", "    ......."], 6, 2);
  const died = "You died in The Gnomish Mines on dungeon level 3 with 50 points, and 0 pieces of gold, after 40 moves";
  const first: Step[] = [
    { map: d1(3), turn: 1, episodes: 2 },
    { action: "east", map: d1(4), turn: 2 },
    { action: "east", map: d1(5), turn: 3 },
    { action: "down", map: d2(3), dlvl: 2, turn: 4 },
    { action: "east", map: d2(4), dlvl: 2, turn: 5 },
    { action: "east", map: d2(5), dlvl: 2, turn: 6 },
    { action: "east", map: d2(6), dlvl: 2, turn: 7 },
    { action: "east", map: d2(7), dlvl: 2, turn: 8 },
    { action: "down", map: cave, dlvl: 3, turn: 9 },
    ...Array.from({ length: 8 }, (_, i) => ({ action: "search", map: cave, dlvl: 3, turn: 10 + i })),
    { action: "more", map: [], dlvl: 3, turn: 17, hp: 0, end: died },
  ];

  test("the replay stops on arrival at the branch level, short of the Mines", () => {
    const d = think([...first, { map: d1(3), turn: 1, episode: 2, episodes: 2 }]);
    expect(d.actions).toEqual(["east", "east", "down"]);
    expect(d.reason).toContain("short of the Gnomish Mines");
  });

  test("on the branch level the Mines' staircase is left for the other '>'", () => {
    const again = first.slice(0, 4).map((s, i) => ({ ...s, episode: 2, ...(i === 0 ? { episodes: 2 } : {}) }));
    const d = think([...first, ...again]);
    expect(d.reason).toContain("down staircase at 6,6");
    // Without the earlier death the nearer '>' (the Mines') is taken.
    expect(think(again.map((s) => ({ ...s, episode: 1 }))).reason).toContain("down staircase at 7,2");
  });

  test("a death in the main dungeon replays all the way to the deepest level", () => {
    const main = first.map((s) => (s.end ? { ...s, end: died.replace("The Gnomish Mines", "The Dungeons of Doom") } : s));
    const d = think([...main, { map: d1(3), turn: 1, episode: 2, episodes: 2 }]);
    expect(d.actions).toEqual(["east", "east", "down", "east", "east", "east", "east", "down"]);
  });
});
