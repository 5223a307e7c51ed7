import { describe, expect, test } from "bun:test";
import { formatStatus, parseStatus, statusAfter } from "../../../src/game/nethack/status.ts";
import { progressionAt } from "../../../src/game/nethack/progression.ts";
import { atCommand, inventoryPage, menuPage } from "../../../src/game/nethack/screen-read.ts";
import { action, NO_NETHACK, play, startGame } from "./helpers.ts";

describe("status parser", () => {
  test("every field of the two status lines, with hunger, encumbrance and conditions", () => {
    const s = parseStatus(
      "Agent the Stripling            St:18/50 Dx:12 Co:18 In:10 Wi:11 Ch:9 Neutral",
      "Dlvl:3 $:42 HP:0(16) Pw:2(7) AC:-1 Xp:4/61 T:1203 Hungry Burdened Conf Blind",
    );
    expect(s).toMatchObject({
      title: "Agent the Stripling",
      strength: "18/50",
      dlvl: 3,
      gold: 42,
      hp: 0,
      hpMax: 16,
      pw: 2,
      pwMax: 7,
      ac: -1,
      xl: 4,
      exp: 61,
      turn: 1203,
      hunger: "Hungry",
      encumbrance: "Burdened",
      conditions: ["Conf", "Blind"],
      alignment: "Neutral",
    });
  });

  test("a screen without status lines (a full-screen menu) gives undefined", () => {
    expect(parseStatus(" a - a blessed +1 long sword", "(end)")).toBeUndefined();
    expect(parseStatus("", "")).toBeUndefined();
  });

  test("places without a number and polymorphed hit dice", () => {
    const s = parseStatus(
      "Agent the Stripling St:18 Dx:12 Co:18 In:10 Wi:11 Ch:9 Lawful",
      "Astral Plane $:0 HP:5(9) Pw:0(0) AC:3 HD:2 T:90",
    );
    expect(s).toMatchObject({ place: "Astral Plane", dlvl: 0, hitDice: 2, exp: 0, turn: 90 });
  });

  test("a polymorphed hero's HD:12 is the monster's, not experience level 12: the hero's own level stands", () => {
    const line1 = "Agent the Stripling St:18 Dx:12 Co:18 In:10 Wi:11 Ch:9 Neutral";
    const before = parseStatus(line1, "Dlvl:4 $:0 HP:20(20) Pw:5(5) AC:6 Xp:3/40 T:900")!;
    const poly = statusAfter(parseStatus(line1, "Dlvl:4 $:0 HP:60(60) Pw:5(5) AC:2 HD:12 T:901")!, before);
    expect(poly).toMatchObject({ xl: 3, exp: 40, hitDice: 12, dlvl: 4 });
    // BALROG counts the hero's level (NLE's blstats experience_level): 3, not the 33.26 % of level 12.
    expect(progressionAt(poly.dlvl, poly.xl)).toBe(progressionAt(4, 3));
    expect(progressionAt(4, 12)).toBeCloseTo(0.3326, 3);
    expect(progressionAt(poly.dlvl, poly.xl)).toBeLessThan(0.03);
    // The log's status line says both.
    expect(formatStatus(poly)).toContain("| Xp:3/40 | HD:12 |");
    // Back in its own form, the level the status shows is taken again.
    const back = statusAfter(parseStatus(line1, "Dlvl:4 $:0 HP:20(20) Pw:5(5) AC:6 Xp:4/90 T:950")!, poly);
    expect(back).toMatchObject({ xl: 4, exp: 90 });
    expect(back.hitDice).toBeUndefined();
  });
});

/** A 24x80 screen with these rows from the top (the rest blank). */
function screenOf(top: readonly string[]) {
  const rows = Array.from({ length: 24 }, (_, i) => (top[i] ?? "").padEnd(80).slice(0, 80));
  return { rows, cursor: { x: 0, y: 0 } };
}

describe("inventory page", () => {
  test("the inventory menu, the empty pack, and nothing else", () => {
    const menu = screenOf([
      "                                    Weapons",
      "                                    a - a +1 long sword (weapon in hand)",
      "                                    Gems/Stones",
      "                                    e - an uncursed gray stone",
      "                                    (end)",
    ]);
    expect(inventoryPage(menu)?.lines).toEqual([
      "Weapons",
      "a - a +1 long sword (weapon in hand)",
      "Gems/Stones",
      "e - an uncursed gray stone",
    ]);
    expect(inventoryPage(screenOf(["Not carrying anything."]))?.lines).toEqual(["Not carrying anything."]);
    // What came back when the 'i' went to a pending F prefix: a message, not the inventory.
    expect(inventoryPage(screenOf(["Invalid direction for 'F' prefix."]))).toBeUndefined();
    expect(inventoryPage(screenOf([""]))).toBeUndefined();
    // Another menu (a question over a list) is not the inventory either.
    const other = screenOf([
      "                What do you want to pick up?",
      "                a - a dagger",
      "                (end)",
    ]);
    expect(inventoryPage(other)).toBeUndefined();
  });
});

describe.skipIf(NO_NETHACK)(`status and screens of the real game${NO_NETHACK ? " (skipped: NetHack not installed)" : ""}`, () => {
  test("start, a prompt, --More--, a menu, a level change and the end screen", async () => {
    const game = await startGame(11);
    try {
      const start = game.screen();
      expect(parseStatus(start.rows[22]!, start.rows[23]!)).toMatchObject({ dlvl: 1, xl: 1, turn: 1, hp: 16, hpMax: 16 });
      expect(atCommand(start)).toBe(true);

      // A prompt: the cursor leaves the map; the status stays readable.
      await play(game, ["eat"]);
      const prompt = game.screen();
      expect(prompt.rows[0]).toContain("What do you want to eat?");
      expect(atCommand(prompt)).toBe(false);
      expect(parseStatus(prompt.rows[22]!, prompt.rows[23]!)?.turn).toBe(1);
      // An unknown letter: "You don't have that object.--More--".
      await play(game, ["Z"]);
      expect(game.screen().rows[0]).toContain("--More--");
      expect(atCommand(game.screen())).toBe(false);
      await play(game, ["more", "esc"]);
      expect(atCommand(game.screen())).toBe(true);

      // A menu on the map: read page by page.
      await play(game, ["inventory"]);
      const menu = menuPage(game.screen());
      expect(menu?.lines.some((l) => l.startsWith("a - "))).toBe(true);
      await play(game, ["esc"]);

      // Down: travel to '>' with the travel command, then descend (this seed's first level shows '>' after exploring).
      const before = parseStatus(game.screen().rows[22]!, game.screen().rows[23]!)!;
      const r = await game.step(action("down"));
      const here = r._unsafeUnwrap().observation;
      expect(here.screen.rows[0]).toContain("You can't go down here");
      expect(here.status?.dlvl).toBe(before.dlvl);

      // The end: quit and confirm; the process exits and the last screen says how.
      await play(game, ["esc"]);
      const q = await game.step({ name: "quit", keys: "#quit\r", help: "" });
      expect(q._unsafeUnwrap().observation.screen.rows[0]).toContain("Really quit?");
      const end = (await game.step(action("y")))._unsafeUnwrap().observation;
      let last = end;
      for (let i = 0; i < 5 && last.ended === undefined; i++)
        last = (await game.step(action("more")))._unsafeUnwrap().observation;
      expect(last.ended).toBeDefined();
      expect(last.ended).toMatch(/^You quit in The Dungeons of Doom on dungeon level 1/);
    } finally {
      await game.close();
    }
  });
});
