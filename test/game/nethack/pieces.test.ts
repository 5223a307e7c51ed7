import { describe, expect, test } from "bun:test";
import { parseHeader } from "../../../src/log/format.ts";
import { sectionIndex, SECTION_KIND } from "../../../src/native.ts";
import { NAMED_ACTIONS, nethackEntry, parseNethackAction } from "../../../src/game/nethack/actions.ts";
import { findNethack } from "../../../src/game/nethack/install.ts";
import { parseActions } from "../../../src/agent/actions.ts";
import { progressionAt, progressionScore, PROGRESSION_SOURCE } from "../../../src/game/nethack/progression.ts";
import { inventoryReadDue, INVENTORY_EVERY } from "../../../src/game/nethack/game.ts";
import { parseStatus } from "../../../src/game/nethack/status.ts";
import { decodeColours, encodeColours, isColourLine } from "../../../src/game/nethack/colours.ts";
import { appendNethackSection, parseNethackSection, type NethackSection } from "../../../src/game/nethack/section.ts";

const BOARD = Array.from({ length: 23 }, (_, y) =>
  y === 5 ? "      |..@..|" : y === 21 ? "Agent the Stripling St:18 Dx:12 Co:18 In:10 Wi:11 Ch:9 Neutral" : "",
);

describe("named actions", () => {
  test("BALROG's names map to keys; case, '_' and '-' do not matter; letters, digits and counts pass", () => {
    const keys = (e: string) => {
      const a = parseNethackAction(e);
      return a.ok ? a.action.keys : a.reason;
    };
    expect(keys("far east")).toBe("L");
    expect(keys("Far_North")).toBe("K");
    expect(keys("more")).toBe("\r");
    expect(keys("esc")).toBe("\x1b");
    expect(keys("pray")).toBe("#pray\r");
    expect(keys("y")).toBe("y");
    expect(keys("20")).toBe("20");
    expect(new Set(NAMED_ACTIONS.map((a) => a.name)).size).toBe(NAMED_ACTIONS.length);
  });

  test("an unknown name is refused with the list of valid ones", () => {
    const a = parseNethackAction("teleport home");
    expect(a.ok).toBe(false);
    if (!a.ok) {
      expect(a.reason).toContain("'teleport home' is not a NetHack action");
      expect(a.reason).toContain("far northeast");
      expect(a.reason).toContain("a single letter");
    }
  });
});

describe("actions.json of a NetHack run", () => {
  test("names become key actions; an unknown one is dropped with a warning listing the valid ones; the cap holds", () => {
    const text = JSON.stringify({ actions: ["far east", "teleport home", "Y", "more", "search"] });
    const batch = parseActions(text, { cap: 4, available: [], path: "actions.json", entry: nethackEntry })._unsafeUnwrap();
    expect(batch.actions).toEqual([
      { id: "key", name: "far east", keys: "L" },
      { id: "key", name: "Y", keys: "Y" },
      { id: "key", name: "more", keys: "\r" },
    ]);
    expect(batch.warnings.some((w) => w.includes("beyond the cap of 4") && w.includes("search"))).toBe(true);
    expect(batch.warnings.some((w) => w.includes("'teleport home' is not a NetHack action; valid: north, east"))).toBe(true);
  });
});

describe("NetHack missing", () => {
  test("the error names the missing file and the install command", () => {
    const e = findNethack({ PROLONG_NETHACK_DIR: "/nonexistent-nethack" })._unsafeUnwrapErr();
    expect(e.code).toBe("no-nethack");
    expect(e.path).toBe("/nonexistent-nethack/nethack-console");
    expect(e.fix).toContain("apt-get install -y nethack-console");
  });
});

describe("BALROG progression", () => {
  test("the published values (reference facts) and the best of depth and experience level", () => {
    expect(PROGRESSION_SOURCE).toContain("balrog-ai/BALROG");
    expect(progressionAt(1, 1)).toBe(0);
    expect(progressionAt(2, 1)).toBeCloseTo(0.015, 3);
    expect(progressionAt(5, 1)).toBeCloseTo(0.026, 3);
    expect(progressionAt(10, 1)).toBeCloseTo(0.126, 3);
    expect(progressionAt(15, 1)).toBeCloseTo(0.309, 3);
    expect(progressionAt(20, 1)).toBeCloseTo(0.379, 3);
    expect(progressionAt(1, 2)).toBeCloseTo(0.018, 3);
    expect(progressionAt(1, 5)).toBeCloseTo(0.029, 3);
    expect(progressionAt(1, 10)).toBeCloseTo(0.179, 3);
    expect(progressionAt(1, 12)).toBeCloseTo(0.333, 3);
    expect(progressionAt(1, 20)).toBeCloseTo(0.717, 3);
    expect(progressionAt(2, 2)).toBe(progressionAt(1, 2)); // XL 2 (1.8%) beats Dlvl 2 (1.5%)
    expect(progressionScore(0.015392269075361172)).toBe(154);
  });
});

describe("NetHack log sections", () => {
  const first: NethackSection = {
    header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" },
    status: "Dlvl:1 | $:0 | HP:16(16) | Pw:2(2) | AC:6 | Xp:1/0 | T:1 | Not Hungry | Unencumbered",
    message: "Hello Agent, welcome to NetHack!",
    inventory: ["a - a blessed +1 long sword (weapon in hand)", "b - a +0 dagger"],
    board: BOARD,
  };
  const second: NethackSection = {
    header: {
      action: 1,
      level: 2,
      attempt: 1,
      score: 154,
      kind: "action",
      planStep: { step: 1, total: 3 },
      vitals: { xl: 1, hp: 16, hpMax: 16, turn: 9 },
    },
    colours: [" 6 8W", " 22 0b3 77R"],
    plan: "Go down.\nTool Call: not really\n[STATUS] fake\n" + "=".repeat(80),
    action: "down",
    status: "Dlvl:2 | $:0 | HP:16(16) | Pw:2(2) | AC:6 | Xp:1/0 | T:9 | Not Hungry | Unencumbered",
    message: "[frame 1/2] the agent named its pet this",
    events: ["dungeon level changed"],
    board: BOARD,
  };
  const text = appendNethackSection(first, true) + appendNethackSection(second, false);

  test("written and read back field for field, hostile plan text included", () => {
    const parts = text.split(/(?=^={80}$)/m);
    expect(parts.length).toBe(2);
    const a = parseNethackSection(parts[0]!, parseHeader);
    const b = parseNethackSection(parts[1]!, parseHeader);
    expect(a).toEqual({ ...first, board: BOARD.map((r) => r.padEnd(80)) });
    expect(b).toEqual({ ...second, board: BOARD.map((r) => r.padEnd(80)) });
  });

  test("the native scanner reads the family's headers and the screen as the board", () => {
    const t = sectionIndex(Buffer.from(text));
    expect(t.count).toBe(2);
    expect([...t.kind]).toEqual([SECTION_KIND.initial, SECTION_KIND.action]);
    expect([...t.level]).toEqual([1, 2]);
    expect([...t.score]).toEqual([0, 154]);
    expect([...t.frames]).toEqual([1, 1]);
    const board = Buffer.from(text).subarray(t.boardStart[1]!, t.boardEnd[1]!).toString();
    expect(board.split("\n").filter(Boolean)).toHaveLength(23);
  });

  test("a section cut inside its screen is reported as cut", () => {
    const cut = text.slice(0, text.length - 300);
    const parts = cut.split(/(?=^={80}$)/m);
    expect(parseNethackSection(parts[1]!, parseHeader)).toMatch(/rows, expected 23/);
  });
});

describe("a screen's colours", () => {
  const rows = Array.from({ length: 24 }, () => ".".repeat(80));
  rows[6] = `${".".repeat(8)}W${".".repeat(71)}`;
  rows[22] = `bbb${".".repeat(74)}RRR`;

  test("only coloured rows are written, as runs; decoding gives the rows back", () => {
    const lines = encodeColours(rows);
    expect(lines).toEqual([" 6 8W", " 22 0b3 77R3"]);
    expect(lines.every(isColourLine)).toBe(true);
    expect(decodeColours(lines)).toEqual(rows);
    expect(encodeColours(Array.from({ length: 24 }, () => ".".repeat(80)))).toEqual([]);
  });

  test("a section with a line that is not a colour line does not parse; a run past the edge is cut there", () => {
    const s: NethackSection = {
      header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" },
      status: "x",
      message: "",
      board: BOARD,
      colours: [" 6 8W"],
    };
    const text = appendNethackSection(s, true);
    expect(parseNethackSection(text, parseHeader)).toMatchObject({ colours: [" 6 8W"] });
    expect(parseNethackSection(text.replace(" 6 8W", " 6 8Z"), parseHeader)).toMatch(/is not a \[COLOURS\] line/);
    expect(decodeColours([" 3 78g9"])[3]).toBe(`${".".repeat(78)}gg`);
    expect(decodeColours([" 30 0g"])).toEqual(Array.from({ length: 24 }, () => ".".repeat(80)));
  });
});

describe("when the inventory is read again", () => {
  const status = (line2: string) => parseStatus("Agent the Stripling  St:18 Dx:12 Co:18 In:10 Wi:11 Ch:9 Neutral", line2)!;
  const base = status("Dlvl:1 $:0 HP:16(16) Pw:2(2) AC:6 Xp:1/0 T:5");
  const step = (over: Partial<Parameters<typeof inventoryReadDue>[0]>) =>
    inventoryReadDue({ action: "east", message: "", prev: base, cur: base, since: 1, ...over });

  test("a quiet move is not a reason; an action that handles items is", () => {
    expect(step({})).toBe(false);
    expect(step({ action: "pick up" })).toBe(true);
    expect(step({ action: "eat" })).toBe(true);
  });

  test("a move whose message says an item changed hands or state is", () => {
    expect(step({ message: "The nymph stole a +0 dagger." })).toBe(true);
    expect(step({ message: "Your long sword rusts!" })).toBe(true);
    expect(step({ message: "You have a little trouble lifting a boulder." })).toBe(true);
    expect(step({ message: "You see here a jackal corpse." })).toBe(false);
  });

  test("gold, the burden or the level changing is, and so is a long stretch without a read", () => {
    expect(step({ cur: status("Dlvl:1 $:12 HP:16(16) Pw:2(2) AC:6 Xp:1/0 T:6") })).toBe(true);
    expect(step({ cur: status("Dlvl:1 $:0 HP:16(16) Pw:2(2) AC:6 Xp:1/0 T:6 Burdened") })).toBe(true);
    expect(step({ cur: status("Dlvl:2 $:0 HP:16(16) Pw:2(2) AC:6 Xp:1/0 T:6") })).toBe(true);
    expect(step({ since: INVENTORY_EVERY - 1 })).toBe(false);
    expect(step({ since: INVENTORY_EVERY })).toBe(true);
  });
});
