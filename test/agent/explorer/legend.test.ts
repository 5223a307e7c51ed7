// Legends: a tile of a tile grid drawn as a 3×3 picture of its neighbourhood. Boards built for the tests:
// 6×6 tiles at a pitch of 8, pictures of 2×2 cells; background 0.
import { describe, expect, test } from "bun:test";
import { findLegends, legendSymbolOf, readLegends } from "../../../src/agent/explorer/legend.ts";
import { decide } from "../../../src/agent/explorer/plan.ts";
import { segment } from "../../../src/agent/explorer/segment.ts";
import type { Grid } from "../../../src/game-model.ts";
import { board64, knowledgeOf, logOf, type Step } from "./helpers.ts";

const A = 3; // symbol colours
const B = 4;
const CENTRE = 8;
const BASE = 9;

/**
 * A 3×3 group at (x, y): the legend in the middle (picture rows of symbols, centre CENTRE) and eight tiles
 * around it, coloured by `tiles` (row-major, the middle entry ignored).
 */
function group(cells: Uint8Array, x: number, y: number, picture: number[][], tiles: number[]): void {
  const paint = (px: number, py: number, s: number, c: number) => {
    for (let dy = 0; dy < s; dy++) for (let dx = 0; dx < s; dx++) cells[(py + dy) * 64 + px + dx] = c;
  };
  for (let b = 0; b < 3; b++)
    for (let a = 0; a < 3; a++) {
      const tx = x + 8 * a;
      const ty = y + 8 * b;
      if (a === 1 && b === 1) {
        for (let j = 0; j < 3; j++)
          for (let i = 0; i < 3; i++) paint(tx + 2 * i, ty + 2 * j, 2, i === 1 && j === 1 ? CENTRE : picture[j]![i]!);
      } else paint(tx, ty, 6, tiles[b * 3 + a]!);
    }
}

const PICTURE = [
  [A, B, B],
  [A, 0, A],
  [A, B, B],
];
/** Tiles where the picture shows A: top-left, middle-left, middle-right, bottom-left. */
const AT_A = [0, 3, 5, 6];
const tilesFor = (symbolIsCentre: number) => PICTURE.flat().map((s, i) => (i === 4 ? 0 : s === symbolIsCentre ? CENTRE : BASE));

function board(opts: { example?: boolean; work?: number[] }): Grid {
  const b = board64(0);
  if (opts.example) group(b.cells, 2, 2, PICTURE, tilesFor(A));
  group(b.cells, 34, 34, PICTURE, opts.work ?? [BASE, BASE, BASE, BASE, 0, BASE, BASE, BASE, BASE]);
  return b;
}

/** The click cell of the work group's tile number i (row-major). */
const workTile = (i: number) => ({ x: 34 + 8 * (i % 3) + 2, y: 34 + 8 * Math.floor(i / 3) + 2 });
const plain = (p: { x: number; y: number }) => ({ ...p, patterned: false });

/** Paints the 6×6 block at (x, y) as a 3×3 picture of 2×2 cells (row-major colours). */
function paintPicture(cells: Uint8Array, x: number, y: number, picture: readonly number[]): void {
  for (let i = 0; i < 9; i++)
    for (let dy = 0; dy < 2; dy++)
      for (let dx = 0; dx < 2; dx++) cells[(y + 2 * Math.floor(i / 3) + dy) * 64 + x + 2 * (i % 3) + dx] = picture[i]!;
}

const NONE = 5; // the symbol an edge legend draws where no tile stands
const SECOND = 6; // the second colour of a two-colour tile

/** The work group with its left column of tiles removed and drawn in NONE on the picture: a legend at the grid's edge. */
function edgeBoard(noneSymbol: number): Grid {
  const b = board({});
  for (const i of [0, 3, 6])
    for (let dy = 0; dy < 6; dy++) for (let dx = 0; dx < 6; dx++) b.cells[(34 + 8 * (i / 3) + dy) * 64 + 34 + dx] = 0;
  paintPicture(b.cells, 42, 42, [noneSymbol, B, B, noneSymbol, CENTRE, A, noneSymbol, B, B]);
  return b;
}

describe("legends", () => {
  test("a 3×3 picture in a grid of tiles, with all eight neighbours, is a legend", () => {
    const legends = findLegends(segment(board({})));
    expect(legends.length).toBe(1);
    expect(legends[0]!.centre).toBe(CENTRE);
    expect(legends[0]!.cells.length).toBe(8);
  });

  test("a picture missing a neighbour is no legend", () => {
    const b = board({});
    for (let y = 34; y < 40; y++) for (let x = 34; x < 40; x++) b.cells[y * 64 + x] = 0;
    expect(findLegends(segment(b))).toEqual([]);
  });

  test("a legend at the grid's edge draws the places without a tile in a third symbol of its own", () => {
    const legends = findLegends(segment(edgeBoard(NONE)));
    expect(legends.length).toBe(1);
    expect(legends[0]!.cells.map((c) => c.symbol).sort()).toEqual([A, B, B, B, B]);
    // only the right-hand neighbour (drawn A) should have the centre's colour
    expect(readLegends(segment(edgeBoard(NONE)), A)!.clicks).toEqual([plain(workTile(5))]);
    // the places without a tile drawn in a symbol the tiles use too: no legend (it does not say where the grid ends)
    expect(findLegends(segment(edgeBoard(B)))).toEqual([]);
  });

  test("a two-colour tile (centre and corners one colour) is a tile of its centre's colour, and is clicked first", () => {
    const b = board({});
    const t = workTile(8);
    paintPicture(b.cells, t.x - 2, t.y - 2, [BASE, SECOND, BASE, SECOND, BASE, SECOND, BASE, SECOND, BASE]);
    const legends = findLegends(segment(b));
    expect(legends.length).toBe(1);
    const cell = legends[0]!.cells.find((c) => c.x === t.x - 2 && c.y === t.y - 2)!;
    expect(cell).toMatchObject({ colour: BASE, patterned: true });
    // reading B: the tiles drawn B should have the centre's colour; the two-colour one (bottom-right) goes first
    const clicks = readLegends(segment(b), B)!.clicks;
    expect(clicks.length).toBe(4);
    expect(clicks[0]!.patterned).toBe(true);
    expect(clicks.slice(1).every((c) => !c.patterned)).toBe(true);
    // a legend is no two-colour tile: a picture whose centre's colour shows among its symbols is neither
    paintPicture(b.cells, 42, 42, [CENTRE, B, B, A, CENTRE, A, A, B, B]);
    expect(findLegends(segment(b))).toEqual([]);
  });

  test("a grid of two-colour tiles only: each click taken to flip the tile and the neighbour its pattern points at", () => {
    // every tile of the work group drawn BASE with SECOND at its top middle: its click flips it and the tile above
    const b = board({});
    for (let i = 0; i < 9; i++) {
      if (i === 4) continue;
      const t = workTile(i);
      paintPicture(b.cells, t.x - 2, t.y - 2, [BASE, SECOND, BASE, BASE, BASE, BASE, BASE, BASE, BASE]);
    }
    const legends = findLegends(segment(b));
    expect(legends.length).toBe(1);
    // reading A: the four tiles drawn A (top-left, middle-left, middle-right, bottom-left) should be CENTRE.
    // Left column, all three to flip: bottom-left (flips it and middle-left), then top-left (the top row flips
    // only itself). Right column, only the middle: middle-right (flips top-right too), then top-right back.
    const clicks = readLegends(segment(b), A)!.clicks.map(({ x, y }) => ({ x, y }));
    expect(clicks.sort((p, q) => p.y - q.y || p.x - q.x)).toEqual([workTile(0), workTile(2), workTile(5), workTile(6)]);
  });

  test("an example on the board (a legend its neighbours agree with) says which symbol means the centre's colour", () => {
    const reading = readLegends(segment(board({ example: true })))!;
    expect(reading.symbol).toBe(A);
    expect(reading.clicks).toEqual(AT_A.map(workTile).map(plain));
  });

  test("without examples, the symbol earlier levels were won with; else the symbol drawn least", () => {
    const seg = segment(board({}));
    expect(readLegends(seg, A)!.symbol).toBe(A);
    expect(readLegends(seg, B)!.symbol).toBe(B);
    // A is drawn on four outer cells, B on four: ties go to the lower colour
    expect(readLegends(seg)!.symbol).toBe(A);
    // a tile already of the centre's colour under a B cell disagrees with reading A
    const work = [BASE, BASE, CENTRE, BASE, 0, BASE, BASE, BASE, BASE];
    expect(readLegends(segment(board({ work })), A)!.clicks).toContainEqual(plain(workTile(2)));
  });

  test("the reading of the board just before a level was won carries to the next level", () => {
    const solvedButOne = [CENTRE, BASE, BASE, CENTRE, 0, CENTRE, BASE, BASE, BASE];
    expect(legendSymbolOf(segment(board({ work: solvedButOne })))).toBe(A);
    const start = board({ work: solvedButOne });
    const next = board64(0, [{ x: 10, y: 10, w: 4, h: 4, c: 5 }]);
    const steps: Step[] = [{ action: { id: 6, ...workTile(6) }, board: next, score: 1 }];
    const graph = graphOf(logOf(start, steps));
    expect(graph.clickMemory.legendSymbol).toBe(A);
  });

  test("the explorer clicks the tiles that disagree with the legend first", () => {
    const b = board({});
    // one quiet click elsewhere so the graph has a transition to plan from
    const graph = graphOf(logOf(b, [{ action: { id: 6, x: 1, y: 60 }, board: b }]));
    const d = decide(graph, { available: [6], actionCap: 1, seed: 1 });
    const { x, y } = d.actions[0] as { x: number; y: number };
    expect(AT_A.map(workTile)).toContainEqual({ x, y });
    expect(d.reason).toContain("legend");
  });
});

function graphOf(log: string) {
  const known = knowledgeOf(log);
  return known.view().graph;
}
