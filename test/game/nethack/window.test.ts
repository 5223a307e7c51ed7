// Windowed NetHack arms keep the current inventory. The log lists the inventory only when it changes, so a
// window of the last N sections (or the newest one) could leave it out, and the arm would then measure
// observation as well as memory. Every window keeps the newest section that lists it, verbatim, where it
// stands in the log. The real game, with a scripted agent that drops an item early and then waits.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ok } from "neverthrow";
import { NO_TOKENS, type Agent } from "../../../src/agent/agent.ts";
import { nethackCodec } from "../../../src/game/nethack/codec.ts";
import { parseNethackSection, writeNethackSection, type NethackSection } from "../../../src/game/nethack/section.ts";
import { parseHeader, SECTION_JOIN, SEPARATOR } from "../../../src/log/format.ts";
import { windowOfLog } from "../../../src/log/window.ts";
import type { LogWindow } from "../../../src/setting/log-window.ts";
import { verifyRunDir } from "../../../src/verify/run-dir.ts";
import { playGame } from "../../run/helpers.ts";
import { NO_NETHACK } from "./helpers.ts";

function sections(log: string): NethackSection[] {
  if (log === "") return [];
  return log.split(/(?=^={80}$)/m).map((t) => {
    const s = parseNethackSection(t, parseHeader);
    if (typeof s === "string") throw new Error(s);
    return s;
  });
}

/** The newest inventory among sections (in log order). */
const newestInventory = (all: readonly NethackSection[]) => all.findLast((s) => s.inventory)?.inventory;

/** Plays seed 2 (a Valkyrie holding a dagger as `b`) under a window, recording logs.txt at each call. */
async function windowedRun(window: LogWindow) {
  const copies: string[] = [];
  // Drop the dagger on the first turn, then wait: the inventory changes once, early.
  const script = [["drop", "b"]];
  const agent: Agent = {
    name: "scripted",
    async turn(input) {
      const copy = join(input.workspace, "logs.txt");
      copies.push(existsSync(copy) ? readFileSync(copy, "utf8") : "");
      const actions = script[copies.length - 1] ?? ["search", "more"];
      writeFileSync(join(input.workspace, "actions.json"), JSON.stringify({ actions }));
      return ok({ text: "[PLAN]\nwait here", toolCalls: 0, tokens: NO_TOKENS, wallMs: 0, exitCode: 0 });
    },
  };
  const run = await playGame({ game: "nethack", env: "nethack", seed: 2, maxActions: 12, logWindow: window }, undefined, {
    agent,
  });
  return { run, copies, master: sections(run.master) };
}

// The two runs play at once (test.concurrent): each has its own directory and game, which mostly waits.
describe.skipIf(NO_NETHACK)(`windowed NetHack arms${NO_NETHACK ? " (skipped: NetHack not installed)" : ""}`, () => {
  test.concurrent("last:2: the inventory changed long before the window, and logs.txt shows it at every call", async () => {
    const { run, copies, master } = await windowedRun({ kind: "last", sections: 2 });
    expect(run.end.reason).toBe("max-actions");
    expect(copies.length).toBe(6);
    // The drop is recorded once, at action 2; no later section lists the inventory.
    const listed = master.filter((s) => s.inventory).map((s) => s.header.action);
    expect(listed).toEqual([0, 2]);
    expect(newestInventory(master)!.some((l) => l.includes("dagger"))).toBe(false);
    copies.forEach((copy, k) => {
      const shown = sections(copy);
      const upTo = shown[shown.length - 1]!.header.action;
      // What the game's inventory was when this copy was written, against what the copy shows last.
      expect(newestInventory(shown)).toEqual(newestInventory(master.filter((s) => s.header.action <= upTo)));
      // Sections verbatim and in order: the window still reads like the log with some sections left out.
      const actions = shown.map((s) => s.header.action);
      expect(actions).toEqual([...actions].sort((a, b) => a - b));
      if (k >= 3) {
        // The drop's section is far outside the last two action sections, and kept for its inventory.
        expect(actions).toEqual([0, 2, upTo - 1, upTo]);
      }
    });
    // verify rebuilds the same window from the master: the copy is what the harness wrote.
    const verified = verifyRunDir(run.session.paths.dir)._unsafeUnwrap();
    expect(verified.tamper).toBeNull();
    expect(verified.ok).toBe(true);
  }, 120_000);

  test.concurrent("newest: the newest section as logged, after the newest one that lists the inventory", async () => {
    const { run, copies, master } = await windowedRun({ kind: "newest" });
    expect(run.end.reason).toBe("max-actions");
    expect(copies.length).toBe(6);
    copies.forEach((copy, k) => {
      const shown = sections(copy);
      const upTo = shown[shown.length - 1]!.header.action;
      expect(upTo).toBe(2 * k);
      expect(newestInventory(shown)).toEqual(newestInventory(master.filter((s) => s.header.action <= upTo)));
      // Only the newest section, and the inventory's when it is another one.
      const held = master.filter((s) => s.header.action <= upTo && s.inventory).pop()!.header.action;
      expect(shown.map((s) => s.header.action)).toEqual(held === upTo ? [upTo] : [held, upTo]);
    });
    expect(verifyRunDir(run.session.paths.dir)._unsafeUnwrap().ok).toBe(true);
  }, 120_000);
});

describe("the window's search for the inventory", () => {
  const board = Array.from({ length: 23 }, () => "");
  const section = (action: number, extra: Partial<NethackSection> = {}): string =>
    writeNethackSection({
      header:
        action === 0
          ? { kind: "initial", action, level: 1, attempt: 1, score: 0 }
          : { kind: "action", action, level: 1, attempt: 1, score: 0 },
      status: "Dlvl:1 | $:0 | HP:16(16) | Pw:2(2) | AC:6 | Xp:1/0 | T:1 | Not Hungry | Unencumbered",
      message: "",
      board,
      ...(action > 0 ? { action: "search" } : {}),
      ...extra,
    });
  const log = (parts: string[]) => new TextEncoder().encode(parts.join(SECTION_JOIN));
  const actionsIn = (bytes: Uint8Array | null) =>
    sections(new TextDecoder().decode(bytes ?? new Uint8Array(0))).map((s) => s.header.action);
  const last2: LogWindow = { kind: "last", sections: 2 };

  test("an [INVENTORY] line quoted in an agent's plan is not the inventory", () => {
    const parts = [
      section(0, { inventory: ["a - a long sword"] }),
      section(1, { inventory: ["a - a dagger"] }),
      section(2),
      section(3, { plan: `my notes\n[INVENTORY]\n z - a wand of wishing\n${SEPARATOR.slice(0, 10)}` }),
      section(4),
      section(5),
      section(6),
    ];
    const w = windowOfLog(log(parts), last2, "ascii", nethackCodec)._unsafeUnwrap();
    expect(actionsIn(w)).toEqual([0, 1, 5, 6]);
    expect(newestInventory(sections(new TextDecoder().decode(w!)))).toEqual(["a - a dagger"]);
  });

  test("an inventory in the window or in the first section adds nothing; without the kind nothing is added", () => {
    const inWindow = [
      section(0, { inventory: ["a"] }),
      section(1, { inventory: ["b"] }),
      section(2),
      section(3, { inventory: ["c"] }),
    ];
    expect(actionsIn(windowOfLog(log(inWindow), last2, "ascii", nethackCodec)._unsafeUnwrap())).toEqual([0, 2, 3]);
    const inFirst = [section(0, { inventory: ["a"] }), section(1), section(2), section(3)];
    expect(actionsIn(windowOfLog(log(inFirst), last2, "ascii", nethackCodec)._unsafeUnwrap())).toEqual([0, 2, 3]);
    const dropped = [section(0, { inventory: ["a"] }), section(1, { inventory: ["b"] }), section(2), section(3)];
    expect(actionsIn(windowOfLog(log(dropped), last2, "ascii", nethackCodec)._unsafeUnwrap())).toEqual([0, 1, 2, 3]);
    expect(actionsIn(windowOfLog(log(dropped), last2, "ascii")._unsafeUnwrap())).toEqual([0, 2, 3]);
    // The same bytes as the master's: the window is verbatim ranges of it.
    const w = new TextDecoder().decode(windowOfLog(log(dropped), last2, "ascii", nethackCodec)._unsafeUnwrap()!);
    expect(w).toBe(dropped.join(SECTION_JOIN));
  });
});
