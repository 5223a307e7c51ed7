import { describe, expect, test } from "bun:test";
import { segment } from "../../../src/agent/explorer/segment.ts";
import { grid } from "./helpers.ts";

describe("segment", () => {
  test("splits single-colour 4-connected components and labels every cell", () => {
    const g = grid(["0011", "0011", "2001", "2203"]);
    const s = segment(g);
    expect(s.components.map((c) => [c.color, c.size])).toEqual([
      [0, 7],
      [1, 5],
      [2, 3],
      [3, 1],
    ]);
    expect(Array.from(s.labels)).toEqual([0, 0, 1, 1, 0, 0, 1, 1, 2, 0, 0, 1, 2, 2, 0, 3]);
    const one = s.components[1]!;
    expect([one.minX, one.minY, one.maxX, one.maxY]).toEqual([2, 0, 3, 2]);
  });

  test("diagonal neighbours are separate components", () => {
    const s = segment(grid(["10", "01"]));
    expect(s.components.filter((c) => c.color === 1).length).toBe(2);
  });

  test("the click point is a cell of the component, even for a ring", () => {
    const g = grid(["11111", "10001", "10001", "10001", "11111"]);
    const ring = segment(g).components.find((c) => c.color === 1)!;
    expect(g.cells[ring.clickY * 5 + ring.clickX]).toBe(1);
    // nearest ring cell to the centre (2,2), first in row-major order among ties
    expect([ring.clickX, ring.clickY]).toEqual([2, 0]);
  });

  test("masked cells belong to no component and split what they cross", () => {
    const g = grid(["000", "000", "000"]);
    const mask = new Uint8Array([0, 0, 0, 1, 1, 1, 0, 0, 0]);
    const s = segment(g, mask);
    expect(s.components.length).toBe(2);
    expect(s.labels[4]).toBe(-1);
  });

  test("lookalikes share a look; different shapes or colours do not", () => {
    const g = grid(["110110", "100100", "000000", "220111"]);
    const cs = segment(g).components;
    const looks = cs.filter((c) => c.color !== 0).map((c) => c.look);
    expect(looks[0]).toBe(looks[1]!); // the two L shapes of colour 1
    expect(new Set(looks).size).toBe(3); // L, the colour-2 bar, the colour-1 bar
  });
});
