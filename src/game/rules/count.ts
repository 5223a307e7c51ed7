// Tally: the board shows marks of a few colours; the player's tally, a row of dots below them, must hold as
// many dots as there are marks of the level's colour before it is submitted. ACTION1 adds a dot, ACTION2
// takes one away, ACTION5 submits: a right count wins the level, a wrong one flashes the tally red and
// empties it. Which colour counts is for the player to find out (early levels have one colour). Movement keys
// and interact, no player to move.
// Map: '.' floor, and marks: 'r' red, 'b' blue, 'y' yellow.
import * as v from "valibot";
import type { Rules } from "../engine.ts";
import { charAt, checkMap, findAll, mapSchema, tileMap } from "./map.ts";

export const countLevel = v.looseObject({
  map: mapSchema,
  /** The mark whose number the tally must match. */
  of: v.picklist(["r", "b", "y"]),
});
type CountLevel = v.InferOutput<typeof countLevel>;
interface CountState {
  readonly tally: number;
  readonly flash: boolean;
}

const COLOR = { floor: 0, panel: 3, r: 8, b: 9, y: 4, dot: 14, slot: 5, flash: 2 } as const;
const MARKS = { r: COLOR.r, b: COLOR.b, y: COLOR.y } as const;

const wanted = (l: CountLevel) => findAll(tileMap(l.map), l.of).length;
/** The tally row holds one dot per tile of the map's width. */
const capacity = (l: CountLevel) => tileMap(l.map).width;

export const countRules: Rules<CountLevel, CountState> = {
  kind: "count",
  levelSchema: countLevel,
  check(l) {
    const bad = checkMap(l.map, ".rby", "", l.of);
    if (bad) return bad;
    if (wanted(l) > capacity(l))
      return { field: "map", problem: `${wanted(l)} marks to count but the tally holds ${capacity(l)}` };
    return undefined;
  },
  // The map, a panel row, the tally row.
  size: (l) => ({ width: capacity(l), height: l.map.length + 2 }),
  start: () => ({ tally: 0, flash: false }),
  step(l, s, move) {
    if (move.kind === "interact") {
      if (s.tally === wanted(l)) return { state: s, outcome: "solved" };
      return { state: { tally: 0, flash: false }, between: [{ tally: s.tally, flash: true }], outcome: "play" };
    }
    if (move.kind !== "move" || move.dx !== 0) return { state: s, outcome: "play" };
    const tally = Math.max(0, Math.min(capacity(l), s.tally - move.dy));
    return { state: { tally, flash: false }, outcome: "play" };
  },
  draw(l, s, paint) {
    const map = tileMap(l.map);
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        paint.tile(x, y, COLOR.floor);
        const ch = charAt(map, x, y);
        if (ch in MARKS) paint.dot(x, y, MARKS[ch as keyof typeof MARKS]);
      }
    }
    for (let x = 0; x < map.width; x++) {
      paint.tile(x, map.height, COLOR.panel);
      paint.tile(x, map.height + 1, COLOR.panel);
      paint.dot(x, map.height + 1, s.flash ? COLOR.flash : x < s.tally ? COLOR.dot : COLOR.slot);
    }
  },
  key: (s) => `${s.tally}`,
};
