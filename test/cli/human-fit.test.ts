// A human player's board always fits the terminal: at 80x24 the whole 64x64 board (half size), at 40 columns
// too, and a terminal too small for it is refused before a run starts, with the size it needs. Lumen's level 1
// is played through a real 80x24 pseudo-terminal to a scorecard (its unlit tiles once sat below the fold).
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { prolongInPty } from "../support/pty.ts";

const runsDir = () => mkdtempSync(path.join(tmpdir(), "prolong-human-fit-"));

describe("the human player's board fits the terminal", () => {
  test("lumen at 80x24: the whole board, a click by the ruler solves level 1, q then y ends the run with a scorecard", async () => {
    const runs = runsDir();
    const play = prolongInPty(["play", "lumen", "--agent", "human", "--max-actions", "30", "--runs-dir", runs]);
    await play.waitFor((s) => s[0]!.startsWith("Lumen · level 1/8") && s.some((l) => l.includes("q end")), "the first screen");
    const screen = play.screen();
    expect(screen[0]).toContain("half size");
    expect(screen.join("\n")).not.toContain("HIDDEN");
    // Ruler labels every 16 grid columns, gutter labels every 16 grid rows: 64 rows in 16 lines, all shown.
    expect(screen[1]).toMatch(/^ {3}0 {7}16 {6}32 {6}48/);
    const labels = screen.map((l, i) => (i >= 2 && i < 18 ? /^\s*(\d+) /.exec(l)?.[1] : undefined)).filter(Boolean);
    expect(labels).toEqual(["0", "16", "32", "48"]);
    expect(screen[18]).toBe(""); // the message line, after the 16 board lines
    expect(screen[19]).toContain("q end");

    // The centre tile of level 1's 3x3 board is at grid (32, 32): under ruler "32", on the line labelled 32.
    const col = screen[1]!.indexOf("32") + 1;
    const row = screen.findIndex((l) => /^32 /.test(l)) + 1;
    play.write(`\x1b[<0;${col};${row}M\x1b[<0;${col};${row}m`);
    await play.waitFor((s) => s.some((l) => l.includes("Level 1 complete in 1 action(s) (baseline 1)")), "level 1 solved");
    play.write("q");
    await play.waitFor((s) => s.some((l) => l.includes("End the run for good")), "the confirm");
    play.write("y");
    expect(await play.exited).toBe(0);
    expect(play.buffer()).toBe("normal");
    const [stamp] = readdirSync(runs);
    const card = JSON.parse(readFileSync(path.join(runs, stamp!, "lumen", "scorecard.json"), "utf8"));
    expect(card.levels_completed).toBe(1);
    expect(card.actions).toBe(1);
  });

  test("40 columns: the whole board, every line within the width", async () => {
    const play = prolongInPty(["play", "lumen", "--agent", "human", "--runs-dir", runsDir()], { cols: 40, rows: 24 });
    await play.waitFor((s) => s[0]!.startsWith("Lumen · level 1/8") && s[19]!.includes("wasd"), "the first screen");
    const screen = play.screen();
    expect(screen[1]).toMatch(/^ {3}0 {7}16 {6}32 {6}48/);
    // A wrapped board line would push the message and keys down past row 19.
    expect(screen[19]).toContain("wasd");
    expect(screen.slice(20).every((l) => l === "")).toBe(true);
    play.write("\x03");
    expect(await play.exited).toBe(1);
  });

  test("f on 80x24: full size, and the rows it hides are named on the status line", async () => {
    const play = prolongInPty(["play", "lumen", "--agent", "human", "--runs-dir", runsDir()]);
    await play.waitFor((s) => s[0]!.startsWith("Lumen · level 1/8"), "the first screen");
    play.write("f");
    await play.waitFor((s) => s[0]!.startsWith(" 24 ROWS HIDDEN: showing 0-39 of 64"), "the full-size view");
    play.write("\x1b[6~"); // PgDn
    await play.waitFor((s) => s[0]!.startsWith(" 24 ROWS HIDDEN: showing 24-63 of 64"), "scrolled down");
    play.write("\x03");
    expect(await play.exited).toBe(1);
  });

  test("a terminal too small for the board: refused before a run starts, naming the size it needs", async () => {
    const runs = runsDir();
    const play = prolongInPty(["play", "lumen", "--agent", "human", "--runs-dir", runs], { cols: 30, rows: 15 });
    expect(await play.exited).toBe(2);
    expect(play.output().replace(/\s+/g, " ")).toContain("at least 35x20; this one is 30x15");
    expect(readdirSync(runs)).toEqual([]);
  });
});
