// Clicks that flip known sets of tiles: which to click so the wanted tiles flip and the others stay.
import { describe, expect, test } from "bun:test";
import { solveFlips } from "../../../src/agent/explorer/flips.ts";

describe("solveFlips", () => {
  test("a chain of clicks that each flip a tile and the one above: flipping only the top needs every click below it too", () => {
    // tiles a (top), b, c; click 0 flips a; click 1 flips b and a; click 2 flips c and b
    const effects = [["a"], ["b", "a"], ["c", "b"]];
    // only c disagrees: click 2 flips c and b, click 1 puts b back and flips a, click 0 puts a back
    expect(
      solveFlips(
        effects,
        new Map([
          ["a", false],
          ["b", false],
          ["c", true],
        ]),
      ),
    ).toEqual([0, 1, 2]);
    expect(
      solveFlips(
        effects,
        new Map([
          ["a", true],
          ["b", false],
          ["c", false],
        ]),
      ),
    ).toEqual([0]);
  });

  test("wants no click can meet are no answer; tiles nobody wants are free", () => {
    // one click flips both a and b: a alone cannot be flipped
    expect(
      solveFlips(
        [["a", "b"]],
        new Map([
          ["a", true],
          ["b", false],
        ]),
      ),
    ).toBeUndefined();
    expect(solveFlips([["a", "b"]], new Map([["a", true]]))).toEqual([0]);
    expect(solveFlips([["a", "b"]], new Map([["a", false]]))).toEqual([]);
  });
});
