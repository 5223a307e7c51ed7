// Twin panels: one drawing shown twice, a few parts differing in colour. Boards built for the tests:
// background 0, two panels (colours 2 and 7) side by side, each holding a 4×3 array of bars (3×1) in colour 1;
// the left panel's bars in `goal` are colour 5 instead.
import { describe, expect, test } from "bun:test";
import { segment } from "../../../src/agent/explorer/segment.ts";
import { type Candidate, NOTHING_LEARNED, untestedCandidates } from "../../../src/agent/explorer/targets.ts";
import { readTwins } from "../../../src/agent/explorer/twins.ts";
import { board64 } from "./helpers.ts";

type Rect = { x: number; y: number; w: number; h: number; c: number };
const LEFT = 4;
const RIGHT = 36;
const bars = (x0: number, colourOf: (i: number) => number): Rect[] =>
  Array.from({ length: 12 }, (_, i) => ({ x: x0 + 2 + 6 * (i % 4), y: 12 + 5 * Math.floor(i / 4), w: 3, h: 1, c: colourOf(i) }));

function board(goal: readonly number[], extra: Rect[] = []) {
  return segment(
    board64(0, [
      { x: LEFT, y: 10, w: 26, h: 16, c: 2 },
      { x: RIGHT, y: 10, w: 26, h: 16, c: 7 },
      ...bars(LEFT, (i) => (goal.includes(i) ? 5 : 1)),
      ...bars(RIGHT, () => 1),
      ...extra,
    ]),
  );
}

const barAt = (x0: number, i: number) => ({ x: x0 + 3 + 6 * (i % 4), y: 12 + 5 * Math.floor(i / 4) });

describe("twin panels", () => {
  test("finds the shift between the copies and names both parts of each differing pair", () => {
    const r = readTwins(board([1, 6]));
    expect(r).toMatchObject({ dx: RIGHT - LEFT, dy: 0, pairs: 12 });
    expect(r!.clicks).toEqual([barAt(LEFT, 1), barAt(RIGHT, 1), barAt(LEFT, 6), barAt(RIGHT, 6)]);
  });

  test("copies that agree are read with nothing to click; most parts differing or one repeating pattern read nothing", () => {
    const agree = readTwins(board([]));
    expect(agree?.clicks).toEqual([]);
    expect(agree?.parts).toHaveLength(24);
    expect(readTwins(board([0, 1, 2, 3, 4, 5, 6, 7]))).toBeUndefined();
    // A single panel of bars: shifts inside it carry bars onto bars, but the two sides overlap.
    const one = segment(board64(0, [{ x: LEFT, y: 10, w: 26, h: 16, c: 2 }, ...bars(LEFT, (i) => (i === 3 ? 5 : 1))]));
    expect(readTwins(one)).toBeUndefined();
  });

  test("the differing parts go first, the working copy's first once clicks there changed things", () => {
    const seg = board([1, 6]);
    const fresh = untestedCandidates(seg, [6], undefined);
    expect(fresh.slice(0, 4).map((c) => c.action)).toEqual(
      [barAt(LEFT, 1), barAt(RIGHT, 1), barAt(LEFT, 6), barAt(RIGHT, 6)].map((p) => ({ id: 6, ...p })),
    );
    expect(fresh[0]!.why).toContain("two copies");
    // Clicks on the right panel changed things, on the left did nothing: the right panel's parts lead.
    const learned = {
      ...NOTHING_LEARNED,
      clicks: new Map([
        [
          0,
          [
            { ...barAt(RIGHT, 11), changed: true },
            { ...barAt(LEFT, 11), changed: false },
          ],
        ],
      ]),
    };
    const taught = untestedCandidates(seg, [6], undefined, learned, 0);
    expect(taught.slice(0, 2).map((c) => c.action)).toEqual([barAt(RIGHT, 6), barAt(RIGHT, 1)].map((p) => ({ id: 6, ...p })));
  });

  test("once the copies agree their parts come last, after a button elsewhere", () => {
    const button = { x: 30, y: 50, w: 6, h: 4, c: 9 };
    const list = untestedCandidates(board([], [button]), [6], undefined);
    const parts = new Set(readTwins(board([], [button]))!.parts.map((p) => `${p.x},${p.y}`));
    const at = (c: Candidate) => ("x" in c.action ? { x: c.action.x, y: c.action.y } : { x: -1, y: -1 });
    const isPart = (c: Candidate) => parts.has(`${at(c).x},${at(c).y}`);
    const firstPart = list.findIndex(isPart);
    const onButton = (c: Candidate) => at(c).x >= 30 && at(c).x < 36 && at(c).y >= 50 && at(c).y < 54;
    expect(list.findIndex(onButton)).toBeGreaterThanOrEqual(0);
    expect(list.findIndex(onButton)).toBeLessThan(firstPart);
    expect(list.slice(firstPart).every(isPart)).toBe(true);
    expect(list.length - firstPart).toBe(24);
  });
});
