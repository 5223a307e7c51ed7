// Digging down with a pick-axe: fetched where a dwarf died or where one lies, applied downwards instead of
// searching for the stairs, each prompt answered; a floor that refuses is not dug again. Logs built for the
// tests with NetHack 3.6's own messages and prompts.
import { describe, expect, test } from "bun:test";
import { thinkFromLog } from "../../../src/agent/nethack/agent.ts";
import { buildLog, VALKYRIE_INVENTORY, withHero, type Step } from "./log-builder.ts";

const think = (steps: readonly Step[]) => thinkFromLog(new TextEncoder().encode(buildLog(steps)));

const WITH_AXE = [...VALKYRIE_INVENTORY, "Tools", "f - a pick-axe"];
const start: Step = { map: withHero(["", "  ..f.."], 3, 1), turn: 1 };
const cave = ["", "   .......", "   .......", "   ......."];

describe("digging down", () => {
  test("carrying a pick-axe and no stairs in sight: apply it, pick it by letter, dig down", () => {
    const here: Step = { action: "down", dlvl: 4, map: withHero(cave, 6, 2), turn: 300, inventory: WITH_AXE };
    expect(think([start, here]).actions).toEqual(["apply"]);
    const which = { ...here, action: "apply", message: "What do you want to use or apply? [f or ?*]" };
    expect(think([start, here, which]).actions).toEqual(["f"]);
    const where = { ...here, action: "f", message: "In what direction do you want to dig? [yubn> or .]" };
    expect(think([start, here, which, where]).actions).toEqual(["down"]);
  });

  test("without a pick-axe the same screen is explored as before", () => {
    const here: Step = { action: "down", dlvl: 4, map: withHero(cave, 6, 2), turn: 300 };
    expect(think([start, here]).actions).not.toContain("apply");
  });

  test("a floor that refuses to be dug is left: the hero moves on rather than apply again there", () => {
    const here: Step = { action: "down", dlvl: 4, map: withHero(cave, 6, 2), turn: 300, inventory: WITH_AXE };
    const refused = { ...here, action: "down", message: "The stairs are too hard to dig in.", turn: 301 };
    expect(think([start, here, refused]).actions).not.toContain("apply");
  });
});

describe("fetching a pick-axe", () => {
  const before = withHero(["", "   .......", "   ...h...", "   ......."], 5, 2);
  const killed = withHero(["", "   .......", "   ...(...", "   ......."], 5, 2);
  test("a dwarf killed next to the hero: its square is visited, the pick-axe there picked up from the menu", () => {
    const fight: Step[] = [
      start,
      { action: "down", dlvl: 3, map: before, turn: 200 },
      { action: "west", dlvl: 3, map: killed, turn: 201, message: "You kill the dwarf!" },
    ];
    expect(think(fight).actions).toEqual(["west"]);
    const onIt = withHero(["", "   .......", "   .......", "   ......."], 4, 2);
    const list = [...onIt];
    list[1] = `${list[1]!.padEnd(40)}Things that are here:`;
    list[2] = `${list[2]!.padEnd(40)}a pick-axe`;
    list[3] = `${list[3]!.padEnd(40)}a dwarvish iron helm--More--`;
    const there: Step = { action: "west", dlvl: 3, map: list, turn: 202 };
    const dismissed: Step = { action: "more", dlvl: 3, map: onIt, turn: 202 };
    expect(think([...fight, there, dismissed]).actions).toEqual(["pickup"]);
    const menu = [...onIt];
    menu[1] = `${menu[1]!.padEnd(40)}Pick up what?`;
    menu[3] = `${menu[3]!.padEnd(40)}Tools`;
    menu[4] = `${"".padEnd(40)}a - a pick-axe`;
    menu[5] = `${"".padEnd(40)}b - a dwarvish iron helm`;
    menu[6] = `${"".padEnd(40)}(end)`;
    const asked: Step = { action: "pickup", dlvl: 3, map: menu, turn: 202 };
    expect(think([...fight, there, dismissed, asked]).actions).toEqual(["a"]);
    const selected = menu.map((r) => r.replace("a - a pick-axe", "a + a pick-axe"));
    expect(think([...fight, there, dismissed, asked, { ...asked, action: "a", map: selected }]).actions).toEqual(["more"]);
  });

  test("a dwarf's square that held no pick-axe is not walked back to", () => {
    const fight: Step[] = [
      start,
      { action: "down", dlvl: 3, map: before, turn: 200 },
      { action: "west", dlvl: 3, map: killed, turn: 201, message: "You kill the dwarf!" },
      { action: "west", dlvl: 3, map: withHero(cave, 4, 2), turn: 202, message: "You see here a dwarvish cloak." },
      { action: "east", dlvl: 3, map: withHero(cave, 5, 2), turn: 203 },
    ];
    expect(think(fight).reason).not.toContain("pick-axe");
  });
});
