// Bars: a row of bars of distinct heights, to be put in order, shortest on the left. Click a bar to pick it
// (it lights up), then another to swap the two; a click on the picked bar puts it down. In levels with reach
// "adjacent" only neighbours swap: a click on a bar farther away picks that bar instead. Nothing says what
// order is wanted: the player finds out when the level is won. Clicks only.
import * as v from "valibot";
import type { Rules } from "../engine.ts";

export const sortLevel = v.looseObject({
  /** Bar heights in tiles, left to right: distinct, 1 to 12, not already in order. */
  heights: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12))), v.minLength(2), v.maxLength(15)),
  reach: v.picklist(["any", "adjacent"]),
});
type SortLevel = v.InferOutput<typeof sortLevel>;
interface SortState {
  /** Heights left to right. */
  readonly bars: readonly number[];
  /** The picked bar's index, -1 for none. */
  readonly picked: number;
}

const COLOR = { floor: 0, base: 3, bar: 12, picked: 9, swapped: 11 } as const;

const tallest = (l: SortLevel) => Math.max(...l.heights);
const sorted = (bars: readonly number[]) => bars.every((h, i) => i === 0 || bars[i - 1]! < h);

export const sortRules: Rules<SortLevel, SortState> = {
  kind: "sort",
  levelSchema: sortLevel,
  check(l) {
    if (new Set(l.heights).size !== l.heights.length) return { field: "heights", problem: "bar heights must be distinct" };
    if (sorted(l.heights)) return { field: "heights", problem: "the bars are already in order" };
    return undefined;
  },
  // A margin row above the tallest bar, the bars, the base row; a margin column either side of each bar.
  size: (l) => ({ width: 2 * l.heights.length + 1, height: tallest(l) + 2 }),
  start: (l) => ({ bars: [...l.heights], picked: -1 }),
  step(l, s, move) {
    if (move.kind !== "click") return { state: s, outcome: "play" };
    const i = (move.tx - 1) / 2;
    if (!Number.isInteger(i) || i < 0 || i >= s.bars.length || move.ty < 1 || move.ty > tallest(l))
      return { state: s, outcome: "play" };
    if (s.picked < 0) return { state: { ...s, picked: i }, outcome: "play" };
    if (s.picked === i) return { state: { ...s, picked: -1 }, outcome: "play" };
    if (l.reach === "adjacent" && Math.abs(s.picked - i) !== 1) return { state: { ...s, picked: i }, outcome: "play" };
    const bars = [...s.bars];
    [bars[s.picked], bars[i]] = [bars[i]!, bars[s.picked]!];
    const state = { bars, picked: -1 };
    return { state, between: [{ bars, picked: -2 }], outcome: sorted(bars) ? "solved" : "play" };
  },
  draw(l, s, paint) {
    const top = tallest(l);
    const w = 2 * s.bars.length + 1;
    for (let y = 0; y < top + 2; y++) for (let x = 0; x < w; x++) paint.tile(x, y, y === top + 1 ? COLOR.base : COLOR.floor);
    s.bars.forEach((h, i) => {
      const colour = s.picked === i ? COLOR.picked : s.picked === -2 ? COLOR.swapped : COLOR.bar;
      for (let y = top; y > top - h; y--) paint.tile(1 + 2 * i, y, colour);
    });
  },
  key: (s) => `${s.bars.join(",")}|${s.picked}`,
};
