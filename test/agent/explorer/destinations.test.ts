// Destinations: dotted outlines in the colour of a thing that was just clicked (picked up). Boards built for
// the tests: background 0; a ring of single colour-5 dots around (40, 40); a handle at (10, 10): a 5×5 block of
// colour 3 with a colour-5 mark in its middle.
import { describe, expect, test } from "bun:test";
import { destinationsFor, outlines } from "../../../src/agent/explorer/destinations.ts";
import { segment } from "../../../src/agent/explorer/segment.ts";
import { untestedCandidates } from "../../../src/agent/explorer/targets.ts";
import { board64 } from "./helpers.ts";

type Rect = { x: number; y: number; w: number; h: number; c: number };
/** Single dots on a diamond of radius 3 around (cx, cy): 12 cells, none on the middle's row or column but 4. */
const ring = (cx: number, cy: number, c: number): Rect[] =>
  [
    [0, -3],
    [1, -2],
    [2, -1],
    [3, 0],
    [2, 1],
    [1, 2],
    [0, 3],
    [-1, 2],
    [-2, 1],
    [-3, 0],
    [-2, -1],
    [-1, -2],
  ].map(([dx, dy]) => ({ x: cx + dx!, y: cy + dy!, w: 1, h: 1, c }));
const handle = (x: number, y: number, mark: number): Rect[] => [
  { x: x - 2, y: y - 2, w: 5, h: 5, c: 3 },
  { x, y, w: 1, h: 1, c: mark },
];

describe("destinations", () => {
  test("a dotted ring on plain ground is read, its middle empty", () => {
    expect(outlines(segment(board64(0, ring(40, 40, 5))))).toEqual([{ x: 40, y: 40, color: 5 }]);
  });

  test("after a click on a thing that carries the ring's colour, the ring's middle is where to click", () => {
    const seg = segment(board64(0, [...ring(40, 40, 5), ...handle(10, 10, 5)]));
    expect(destinationsFor(seg, { x: 10, y: 10 })).toEqual([{ x: 40, y: 40, color: 5 }]);
    // A thing of other colours has nowhere to go; a click inside the ring is the thing already there.
    const other = segment(board64(0, [...ring(40, 40, 5), ...handle(10, 10, 6)]));
    expect(destinationsFor(other, { x: 10, y: 10 })).toEqual([]);
    expect(destinationsFor(seg, { x: 40, y: 40 })).toEqual([]);
    // In the list of what to try, it goes first, only in a state reached by such a click.
    const list = untestedCandidates(seg, [6], undefined, undefined, 0, undefined, { x: 10, y: 10 });
    expect(list[0]!.action).toEqual({ id: 6, x: 40, y: 40 });
    expect(list[0]!.why).toContain("outline");
    expect(untestedCandidates(seg, [6], undefined)[0]!.action).not.toEqual({ id: 6, x: 40, y: 40 });
  });

  test("solid frames, a filled middle, dotted texture and dots that touch tiles are no destinations", () => {
    const frame: Rect[] = [
      { x: 36, y: 36, w: 9, h: 1, c: 5 },
      { x: 36, y: 44, w: 9, h: 1, c: 5 },
      { x: 36, y: 36, w: 1, h: 9, c: 5 },
      { x: 44, y: 36, w: 1, h: 9, c: 5 },
    ];
    expect(outlines(segment(board64(0, frame)))).toEqual([]);
    // A piece of another colour drawn around its mark (a handle, a body) is a thing, not an empty ring.
    expect(outlines(segment(board64(0, [...ring(40, 40, 5), { x: 39, y: 39, w: 3, h: 3, c: 6 }])))).toEqual([]);
    // Dots every 2 cells everywhere: rings are all over such a texture, none on its own.
    const texture: Rect[] = [];
    for (let y = 20; y < 60; y += 2) for (let x = 20; x < 60; x += 2) texture.push({ x, y, w: 1, h: 1, c: 5 });
    expect(outlines(segment(board64(0, texture)))).toEqual([]);
    // A ring with another dot of its colour close by (not on it): part of a bigger dotted figure.
    expect(outlines(segment(board64(0, [...ring(40, 40, 5), { x: 46, y: 40, w: 1, h: 1, c: 5 }])))).toEqual([]);
    // The ring's dots each touching a tile of another colour: the corners of a grid of tiles.
    const tiles = ring(40, 40, 5).map((r) => ({ x: r.x + 1, y: r.y, w: 1, h: 1, c: 7 }));
    expect(outlines(segment(board64(0, [...ring(40, 40, 5), ...tiles])))).toEqual([]);
  });
});
