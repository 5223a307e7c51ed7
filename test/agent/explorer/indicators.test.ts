// Status indicators on boards built for the test: meters on any row or column that drain, refill or wrap,
// a counter, lives that differ between attempts — and the moving parts of a scene that are none of these.
import { describe, expect, test } from "bun:test";
import { ExplorationGraph } from "../../../src/agent/explorer/graph.ts";
import { IndicatorStats } from "../../../src/agent/explorer/indicators.ts";
import type { Action, Grid } from "../../../src/game-model.ts";
import { board64 } from "./helpers.ts";

type Rect = { x: number; y: number; w: number; h: number; c: number };

/** A player square walking a fixed tour (right, down, left, up), one 4-cell step per action. */
const TOUR: { action: Action; dx: number; dy: number }[] = [
  { action: { id: 4 }, dx: 4, dy: 0 },
  { action: { id: 4 }, dx: 4, dy: 0 },
  { action: { id: 2 }, dx: 0, dy: 4 },
  { action: { id: 3 }, dx: -4, dy: 0 },
  { action: { id: 3 }, dx: -4, dy: 0 },
  { action: { id: 1 }, dx: 0, dy: -4 },
];

interface Played {
  readonly stats: IndicatorStats;
  readonly boards: Grid[];
}

/** Plays `steps` tour steps; `extra(i)` draws the indicator after step i (i = 0 is the first board). */
function play(steps: number, extra: (i: number) => Rect[]): Played {
  const stats = new IndicatorStats(64, 64);
  let px = 20;
  let py = 20;
  const draw = (i: number) => board64(5, [{ x: px, y: py, w: 4, h: 4, c: 8 }, ...extra(i)]);
  const boards = [draw(0)];
  for (let i = 1; i <= steps; i++) {
    const move = TOUR[(i - 1) % TOUR.length]!;
    px += move.dx;
    py += move.dy;
    boards.push(draw(i));
    stats.addPair(boards[i - 1]!.cells, boards[i]!.cells, move.action);
  }
  return { stats, boards };
}

const masked = (p: Played, x: number, y: number) => p.stats.mask(p.boards.at(-1)!.cells).cells[y * 64 + x];

/** Two boards that differ only in the indicator hash alike under the mask. */
function sameStateUnderMask(p: Played, a: number, b: number): boolean {
  const mask = p.stats.mask(p.boards.at(-1)!.cells);
  const g = new ExplorationGraph(mask.cells, mask.key, 64, 64);
  return g.key(0, p.boards[a]!.cells) === g.key(0, p.boards[b]!.cells);
}

describe("status indicators", () => {
  test("a meter in the middle of the board (row 53) that drains a cell per step is masked; the player is not", () => {
    const p = play(12, (i) => [{ x: 10, y: 53, w: 50 - i, h: 1, c: 11 }]);
    const m = p.stats.mask(p.boards.at(-1)!.cells);
    expect(m.indicators.map((i) => [i.kind, i.axis, i.line])).toEqual([["meter", "row", 53]]);
    expect(masked(p, 12, 53)).toBe(1);
    expect(masked(p, 59, 53)).toBe(1);
    expect(masked(p, 22, 22)).toBe(0);
    // boards 0 and 6 have the player in the same place, the meter 6 cells apart
    expect(sameStateUnderMask(p, 0, 6)).toBe(true);
    expect(sameStateUnderMask(p, 0, 1)).toBe(false);
  });

  test("a meter on a column drains too", () => {
    const p = play(10, (i) => [{ x: 2, y: 4, w: 1, h: 40 - i, c: 9 }]);
    const m = p.stats.mask(p.boards.at(-1)!.cells);
    expect(m.indicators.map((i) => [i.kind, i.axis, i.line])).toEqual([["meter", "column", 2]]);
    expect(masked(p, 2, 10)).toBe(1);
    expect(sameStateUnderMask(p, 0, 6)).toBe(true);
  });

  test("a meter that refills at once (a life lost) stays masked", () => {
    // drains 5 cells, refills, drains again
    const fill = (i: number) => 30 - (i % 6 === 0 ? 0 : i % 6);
    const p = play(18, (i) => [{ x: 30, y: 60, w: fill(i), h: 1, c: 11 }]);
    expect(p.stats.mask(p.boards.at(-1)!.cells).indicators.map((i) => i.kind)).toEqual(["meter"]);
    expect(sameStateUnderMask(p, 0, 6)).toBe(true);
    expect(sameStateUnderMask(p, 3, 9)).toBe(true);
  });

  test("a counter bar that fills and wraps back to empty stays masked", () => {
    const p = play(20, (i) => [{ x: 0, y: 0, w: (i % 8) + 1, h: 1, c: 12 }]);
    const m = p.stats.mask(p.boards.at(-1)!.cells);
    expect(m.indicators.map((i) => [i.kind, i.axis, i.line])).toEqual([["meter", "row", 0]]);
    expect(sameStateUnderMask(p, 1, 7)).toBe(true);
  });

  test("digits that change every step (a step counter) are masked as a counter", () => {
    // a 3x3 glyph whose pattern cycles with the step number, drawn at the top right
    const glyph = (i: number): Rect[] => {
      const bits = [0b101010101, 0b111000111, 0b010111010, 0b100010001, 0b001010100][i % 5]!;
      const out: Rect[] = [];
      for (let k = 0; k < 9; k++) if (bits & (1 << k)) out.push({ x: 58 + (k % 3), y: 2 + Math.floor(k / 3), w: 1, h: 1, c: 0 });
      return out;
    };
    const p = play(15, glyph);
    const m = p.stats.mask(p.boards.at(-1)!.cells);
    expect(m.indicators.length).toBeGreaterThan(0);
    expect(m.indicators.every((i) => i.kind === "counter")).toBe(true);
    expect(masked(p, 59, 3)).toBe(1);
    expect(masked(p, 22, 22)).toBe(0);
    expect(sameStateUnderMask(p, 0, 6)).toBe(true); // same player place, another glyph
  });

  test("a scene where only the player moves has no indicator", () => {
    const p = play(24, () => []);
    expect(p.stats.mask(p.boards.at(-1)!.cells).indicators).toEqual([]);
  });

  test("tiles that change where they are clicked are no indicator, even in one colour direction", () => {
    const stats = new IndicatorStats(64, 64);
    const lit: Rect[] = [];
    let before = board64(5);
    for (let i = 0; i < 10; i++) {
      lit.push({ x: 4 + 6 * i, y: 30, w: 4, h: 4, c: 14 });
      const after = board64(5, lit);
      stats.addPair(before.cells, after.cells, { id: 6, x: 5 + 6 * i, y: 31 });
      before = after;
    }
    expect(stats.mask(before.cells).indicators).toEqual([]);
  });

  test("cells that differ between the first boards of two attempts (lives) are masked; the scene's moving parts are not", () => {
    const p = play(6, () => []);
    const lives3 = board64(5, [
      { x: 20, y: 20, w: 4, h: 4, c: 8 },
      { x: 50, y: 1, w: 9, h: 2, c: 8 },
    ]);
    const lives2 = board64(5, [
      { x: 20, y: 20, w: 4, h: 4, c: 8 },
      { x: 50, y: 1, w: 6, h: 2, c: 8 },
    ]);
    p.stats.addAttemptStarts(lives3.cells, lives2.cells);
    // an attempt that started with the player elsewhere: the player's cells are scene, not a marker
    p.stats.addAttemptStarts(
      lives2.cells,
      board64(5, [
        { x: 24, y: 20, w: 4, h: 4, c: 8 },
        { x: 50, y: 1, w: 6, h: 2, c: 8 },
      ]).cells,
    );
    const m = p.stats.mask(lives2.cells);
    expect(m.cells[1 * 64 + 57]).toBe(1);
    expect(m.cells[20 * 64 + 20]).toBe(0);
    expect(m.indicators.map((i) => i.kind)).toEqual(["attempt"]);
  });
});
