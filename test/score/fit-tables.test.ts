// `prolong score` on an 80-column terminal: every table line fits (a wider table once wrapped into half-rows);
// the columns that do not fit go into a second table that repeats the row's first cell. A pipe gets the
// Markdown as written.
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { fitTables } from "../../src/score/fit-tables.ts";
import { playGame, tempRoot } from "../run/helpers.ts";
import { prolongInPty } from "../support/pty.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

describe("score tables in a terminal", () => {
  test("fitTables: aligned, split into groups that fit, the first column repeated, every cell kept", () => {
    const wide = [
      "text before",
      "| game | runs | a long column name | another long column | a third one |",
      "| --- | --- | --- | --- | --- |",
      "| glide | 2 | 0.12 [0.10, 0.14] | 12,345 | x |",
      "| **all 1 games** | 2 | 1 | 2 | 3 |",
      "text after",
    ].join("\n");
    const out = fitTables(wide, 50).split("\n");
    expect(out[0]).toBe("text before");
    expect(out.at(-1)).toBe("text after");
    for (const l of out) expect(l.length).toBeLessThanOrEqual(50);
    const heads = out.filter((l) => l.startsWith("| game"));
    expect(heads.length).toBeGreaterThan(1);
    expect(out.filter((l) => l.startsWith("| glide")).length).toBe(heads.length);
    for (const cell of ["runs", "a long column name", "another long column", "a third one", "0.12 [0.10, 0.14]", "12,345"])
      expect(out.join("\n")).toContain(cell);
    // Fits already: only aligned.
    expect(fitTables("| a | bb |\n| --- | --- |\n| ccc | d |", 80)).toBe("| a   | bb  |\n| --- | --- |\n| ccc | d   |");
  });

  test("prolong score in an 80x24 terminal: no table line wider than 80; through a pipe the Markdown is unchanged", async () => {
    const root = tempRoot();
    for (const arm of ["a", "b", "c"])
      for (const seed of [0, 1])
        await playGame({ game: "glide", seed, arm, maxActions: arm === "c" ? 12 : 10 }, path.join(root, `${arm}-${seed}`));
    const pty = prolongInPty(["score", root], { cols: 80, rows: 24 });
    expect(await pty.exited).toBe(0);
    const lines = pty
      .output()
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
      .split(/\r?\n/);
    const tables = lines.filter((l) => l.startsWith("| "));
    expect(tables.length).toBeGreaterThan(5);
    for (const l of tables) expect(l.length).toBeLessThanOrEqual(80);
    const piped = Bun.spawnSync([process.execPath, MAIN, "score", root], { stdout: "pipe", stderr: "pipe" });
    expect(piped.stdout.toString()).toContain("| game | runs | failed | unfinished |");
  }, 120_000);

  test("a batch of play in an 80x24 terminal ends with score tables that fit too", async () => {
    const pty = prolongInPty(["play", "glide", "--runs", "2", "--max-actions", "5", "--runs-dir", tempRoot()], {
      cols: 80,
      rows: 24,
    });
    expect(await pty.exited).toBe(0);
    const tables = pty
      .output()
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
      .split(/\r?\n/)
      .filter((l) => l.startsWith("| "));
    expect(tables.length).toBeGreaterThan(3);
    for (const l of tables) expect(l.length).toBeLessThanOrEqual(80);
  }, 120_000);
});
