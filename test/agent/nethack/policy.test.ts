// The built-in NetHack agent's decisions on logs built from real screens (seeds 0, 2 and 4 of the default
// character, where the agent used to loop): each test names the screen and the mistake it guards against.
import { describe, expect, test } from "bun:test";
import { thinkFromLog } from "../../../src/agent/nethack/agent.ts";
import { DungeonMap } from "../../../src/agent/nethack/map.ts";
import { buildLog, withHero } from "./log-builder.ts";

const think = (text: string) => thinkFromLog(new TextEncoder().encode(text));

// Seed 2, Dlvl 1 (action 1960): the hero west of a room's bottom-left corner; the '.' east of it is the doorway.
const CORNER = [
  "",
  "                                        -------",
  "                                       #.$....|",
  "                                       #|.....|",
  "                                      # -.-----",
  "                                      #  ##",
  "                                          #",
];

// Seed 0, Dlvl 2: inside a shop, the shopkeeper on the square inside its door (4,9), the hero west of him.
const SHOP = [
  "",
  "",
  " -----------",
  " |))[!*?/%(|",
  " |+??*%+?/?|",
  " |%+%[!?)=?|",
  " |!=/%*!?*%|",
  " |?%/*?[*+*|",
  " |.@@......|",
  " ---|-------",
  "    ####",
  "       ##",
];

// Seed 4, Dlvl 3: a spellbook '+' lying in a lit room, east of the hero.
const SPELLBOOK_ROOM = [
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "                                                    #----------------",
  "                                                    %|..............|",
  "                                                    #-..............|",
  "                                                     |..............|",
  "                                                 `##%...+...........|",
  "                                                     --|-------------",
];

describe("reading the map", () => {
  test("a room's corner drawn '-' next to the hero is a wall, not an open door", () => {
    const map = new DungeonMap(withHero(CORNER, 39, 4));
    expect(map.isOpenDoor(40, 4)).toBe(false);
    expect(map.walkable(40, 4)).toBe(false);
    expect(map.walkable(41, 4)).toBe(true);
  });

  test("a '+' inside a lit room is a spellbook to walk over; a '+' in a wall is a door", () => {
    const room = new DungeonMap(SPELLBOOK_ROOM);
    expect(room.isClosedDoor(57, 14)).toBe(false);
    expect(room.walkable(57, 14)).toBe(true);
    const door = new DungeonMap(["", "  ---+---", "  |.....|", "  -------"]);
    expect(door.isClosedDoor(5, 1)).toBe(true);
  });
});

describe("no loops on moves that fail", () => {
  test("a move that took no time and left the hero in place is not planned again from that square", () => {
    // A corridor going east; the move east failed (the log says so: same square, same turn).
    const rows = ["", "", "   ####....", ""];
    const start = withHero(rows, 3, 2);
    const first = think(buildLog([{ map: start, turn: 10 }]));
    expect(first.actions[0]).toBe("east");
    const after = think(
      buildLog([
        { map: start, turn: 10 },
        { action: "east", map: start, turn: 10 },
      ]),
    );
    expect(after.actions[0]).not.toBe("east");
  });

  test("the shopkeeper refused as a target is waited out, not bumped into again (seed 0's shop)", () => {
    const screen = SHOP;
    const steps = [
      { map: screen, turn: 138 },
      { action: "east", map: screen, turn: 138, message: "Really attack Sipaliwini? [yn] (n)" },
    ];
    expect(think(buildLog(steps)).actions).toEqual(["n"]);
    const next = think(buildLog([...steps, { action: "n", map: screen, turn: 138 }]));
    expect(next.actions).toEqual(["search"]);
  });

  test("with two '@' the hero is the one a refused move left in place, not the one it walked towards", () => {
    // The hero stood at (3,8) (only '@' then); the shopkeeper stepped in at (4,8) and the move east was refused.
    const before = SHOP.map((r, y) => (y === 8 ? " |.@.......|" : r));
    const steps = [
      { map: before, turn: 137 },
      { action: "east", map: SHOP, turn: 138, message: "Really attack Sipaliwini? [yn] (n)" },
      { action: "n", map: SHOP, turn: 138 },
      { action: "search", map: SHOP, turn: 139 },
    ];
    const d = think(buildLog(steps));
    expect(d.actions[0]).not.toBe("east");
  });

  test("'You see no door there' makes the '+' floor: the next walk does not try to open it again", () => {
    const map = withHero(
      SPELLBOOK_ROOM.map((r, y) => (y === 14 ? r.replace("...+", "..+.") : r)),
      54,
      14,
    );
    // '+' now at (55,14), right next to the hero and in no wall line but with rock around? no: a room square.
    const steps = [
      { map, turn: 50 },
      { action: "open", map, turn: 50, message: "In what direction?" },
      { action: "l", map, turn: 50, message: "You see no door there." },
    ];
    const d = think(buildLog(steps));
    expect(d.actions).not.toContain("open");
  });
});

describe("resting", () => {
  test("under half HP with no monster next to the hero it rests instead of walking to the stairs", () => {
    const rows = withHero(["", "  -------", "  |....>|", "  |.....|", "  -------"], 3, 2);
    expect(think(buildLog([{ map: rows, hp: 7, hpMax: 16 }])).actions).toEqual(["20", "search"]);
    expect(think(buildLog([{ map: rows, hp: 9, hpMax: 16 }])).reason).toContain("down staircase");
  });
});

describe("engulfed and refused", () => {
  // Seed 1's lifetime, episode 2, Dlvl 6: a fog cloud engulfed the hero standing on the down stairs.
  const swallowed = [
    "",
    "",
    "                                        /-\\",
    "                                        |@|",
    "                                        \\-/",
  ];
  const start = { map: withHero(["", "  ..f.."], 3, 1), turn: 1 };
  test("engulfed: it attacks the engulfer (the old rule pressed '>' 35 times: 'You are engulfed, and cannot go down')", () => {
    const steps = [
      start,
      {
        action: "down",
        dlvl: 6,
        map: swallowed,
        turn: 1201,
        hp: 27,
        hpMax: 43,
        message: "You are engulfed, and cannot go down.",
      },
    ];
    expect(think(buildLog(steps)).actions).toEqual(["north"]);
  });

  test("an action the game keeps refusing with no time passing is replaced by a turn of waiting", () => {
    const room = withHero(["", "  -------", "  |.....|", "  -------"], 4, 2);
    const refused = { action: "E", map: room, turn: 1251, hp: 15, hpMax: 43, message: "You can't reach the floor." };
    const steps = [start, { ...refused, action: "down", message: "" }, ...Array.from({ length: 6 }, () => refused)];
    expect(think(buildLog(steps)).actions).toEqual(["search"]);
    // And Elbereth is not tried again while the floor is out of reach.
    const after = [...steps, { ...refused, action: "search", turn: 1252, message: "" }];
    expect(think(buildLog(after)).actions).not.toEqual(["E"]);
  });
});

describe("statues", () => {
  test("a statue drawn as its monster (seed 4's lichen, fought 460 times) is not fought once the log has seen it", () => {
    const rows = ["", "  -------", "  |.....|", "  |.....|", "  -------"];
    const withF = (hx: number) =>
      withHero(
        rows.map((r, y) => (y === 2 ? r.slice(0, 6) + "F" + r.slice(7) : r)),
        hx,
        2,
      );
    const steps = [
      { map: withHero(["", "  ..f.."], 3, 1), turn: 1 },
      { action: "down", dlvl: 5, map: withF(5), turn: 380 },
      { action: "east", dlvl: 5, map: withHero(rows, 6, 2), turn: 381, message: "You see here a statue of a lichen." },
      { action: "west", dlvl: 5, map: withF(5), turn: 382 },
    ];
    expect(think(buildLog(steps.slice(0, 2))).reason).toContain("fighting the F");
    expect(think(buildLog(steps)).reason).not.toContain("fighting");
  });
});

describe("doors", () => {
  test("a door found locked is kicked", () => {
    const rows = withHero(["", "  ---+---", "  |.....|", "  -------"], 5, 0);
    const steps = [
      { map: rows, turn: 20 },
      { action: "open", map: rows, turn: 20, message: "In what direction?" },
      { action: "j", map: rows, turn: 20, message: "This door is locked." },
    ];
    expect(think(buildLog(steps)).actions).toEqual(["kick", "j"]);
  });
});

describe("hunger", () => {
  const room = withHero(["", "  -------", "  |.....|", "  |.....|", "  -------"], 4, 2);
  test("fainting with food in the pack eats (the old rule ate only when Hungry or Weak)", () => {
    const d = think(
      buildLog([
        { map: room, turn: 1300 },
        { action: "pray", map: room, turn: 1310 },
        { map: room, turn: 1346, hunger: "Fainting", action: "search" },
      ]),
    );
    expect(d.actions).toEqual(["eat"]);
  });

  test("a message written where the inventory goes does not hide the food", () => {
    const d = think(
      buildLog([
        { map: room, turn: 1000 },
        { action: "fight", map: room, turn: 1000, inventory: ["Invalid direction for 'F' prefix."] },
        { action: "search", map: room, turn: 1100, hunger: "Hungry" },
      ]),
    );
    expect(d.actions).toEqual(["eat"]);
  });

  test("the eat prompt is answered with the food's letter", () => {
    const d = think(buildLog([{ map: room }, { action: "eat", map: room, message: "What do you want to eat? [d or ?*]" }]));
    expect(d.actions).toEqual(["d"]);
  });
});

describe("Elbereth when prayer is spent", () => {
  const room = withHero(["", "  -------", "  |.....|", "  |.....|", "  -------"], 4, 2);
  const prayed = [
    { map: room, turn: 500, hp: 30, hpMax: 35 },
    { action: "pray", map: room, turn: 500, hp: 30, hpMax: 35, message: "Are you sure you want to pray? [yn] (n)" },
    { action: "y", map: room, turn: 503, hp: 30, hpMax: 35 },
  ];
  /** The last letter of Elbereth typed, and the --More-- after it: the hero stands on its Elbereth at 6 HP. */
  const typed = {
    action: "h",
    map: room,
    turn: 601,
    hp: 6,
    hpMax: 35,
    message: "What do you want to write in the dust here? Elbereth",
  };
  const done = { action: "more", map: room, turn: 602, hp: 6, hpMax: 35 };

  test("low HP within the prayer timeout writes Elbereth, answering each prompt", () => {
    const low = { action: "search", map: room, turn: 600, hp: 6, hpMax: 35 };
    expect(think(buildLog([...prayed, low])).actions).toEqual(["E"]);
    const withWhat = { ...low, action: "E", message: "What do you want to write with? [- a or ?*]" };
    expect(think(buildLog([...prayed, withWhat])).actions).toEqual(["minus"]);
    const typing = { ...low, action: "b", message: "What do you want to write in the dust here? Elb" };
    expect(think(buildLog([...prayed, typing])).actions).toEqual(["e", "r", "e", "t", "h", "more"]);
  });

  test("on its Elbereth the hero rests until HP is back to two thirds", () => {
    expect(think(buildLog([...prayed, typed, done])).actions).toEqual(["20", "search"]);
    const healed = { action: "search", map: room, turn: 800, hp: 30, hpMax: 35 };
    expect(think(buildLog([...prayed, typed, done, healed])).actions).not.toEqual(["20", "search"]);
  });

  test("hurt on Elbereth by a neighbour that ignores it: fight back, then write it again once alone", () => {
    const dwarf = withHero(["", "  -------", "  |h....|", "  |.....|", "  -------"], 4, 2);
    const hit = { action: "search", map: dwarf, turn: 603, hp: 3, hpMax: 35, message: "The dwarf hits!" };
    expect(think(buildLog([...prayed, typed, done, hit])).actions).toEqual(["west"]);
    const killed = { action: "west", map: room, turn: 604, hp: 3, hpMax: 35, message: "You kill the dwarf!" };
    expect(think(buildLog([...prayed, typed, done, hit, killed])).actions).toEqual(["E"]);
  });

  test("with prayer available, low HP prays instead", () => {
    const d = think(buildLog([{ map: room, turn: 600, hp: 4, hpMax: 35 }]));
    expect(d.actions).toEqual(["pray"]);
  });

  test("surrounded at 10/32 HP (seed 0's death in the Mines): Elbereth, since a prayer would not heal yet", () => {
    const mines = withHero(["", "   .....", "   .G.h.", "   ....."], 5, 2);
    // The episode began on Dlvl 1 with the kitten next to the hero (the pet is known from that first screen).
    const first = { map: withHero(["", "   ..f.."], 4, 1), turn: 1 };
    const d = think(buildLog([first, { action: "down", map: mines, dlvl: 4, turn: 870, hp: 10, hpMax: 32 }]));
    expect(d.actions).toEqual(["E"]);
    const alone = withHero(["", "   .....", "   .G...", "   ....."], 5, 2);
    const one = think(buildLog([first, { action: "down", map: alone, dlvl: 4, turn: 870, hp: 10, hpMax: 32 }]));
    expect(one.actions).toEqual(["west"]);
  });
});
