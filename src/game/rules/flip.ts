// Flip: clicking a tile flips it and the tiles at the level's hidden offsets; light every tile to win.
// Clicks only, with undo. The offsets differ per level and are never drawn: the player infers them from
// what a click does. Map: 'o' lit, '.' dark, '#' blocked (never flips, not clickable).
import * as v from "valibot";
import type { Rules } from "../engine.ts";
import { checkMap, mapSchema, tileMap } from "./map.ts";

export const flipLevel = v.looseObject({
  map: mapSchema,
  /** Offsets [dx, dy] flipped by a click, besides the clicked tile itself. */
  pattern: v.array(v.tuple([v.pipe(v.number(), v.integer()), v.pipe(v.number(), v.integer())])),
});
type FlipLevel = v.InferOutput<typeof flipLevel>;
interface FlipState {
  /** 1 = lit, per tile, row-major. */
  readonly lit: Uint8Array;
  /** Tile index highlighted in the first animation frame of a click, -1 otherwise. */
  readonly mark: number;
}

const COLOR = { lit: 11, dark: 4, blocked: 3, mark: 0 } as const;

export const flipRules: Rules<FlipLevel, FlipState> = {
  kind: "flip",
  levelSchema: flipLevel,
  check(l) {
    const bad = checkMap(l.map, "o.#", "", ".");
    if (bad) return bad;
    if (l.pattern.some(([dx, dy]) => dx === 0 && dy === 0))
      return { field: "pattern", problem: "[0,0] is the clicked tile itself" };
    return undefined;
  },
  size: (l) => ({ width: tileMap(l.map).width, height: l.map.length }),
  start(l) {
    const map = tileMap(l.map);
    const lit = new Uint8Array(map.width * map.height);
    l.map.forEach((row, y) => {
      for (let x = 0; x < row.length; x++) lit[y * map.width + x] = row[x] === "o" ? 1 : 0;
    });
    return { lit, mark: -1 };
  },
  step(l, s, move) {
    if (move.kind !== "click") return { state: s, outcome: "play" };
    const map = tileMap(l.map);
    const { tx, ty } = move;
    if (tx < 0 || ty < 0 || tx >= map.width || ty >= map.height || l.map[ty]?.[tx] === "#") return { state: s, outcome: "play" };
    const lit = s.lit.slice();
    for (const [dx, dy] of [[0, 0] as const, ...l.pattern]) {
      const x = tx + dx;
      const y = ty + dy;
      if (x < 0 || y < 0 || x >= map.width || y >= map.height || l.map[y]?.[x] === "#") continue;
      const i = y * map.width + x;
      lit[i] = (lit[i] ?? 0) ^ 1;
    }
    let dark = false;
    l.map.forEach((row, y) => {
      for (let x = 0; x < row.length; x++) if (row[x] !== "#" && lit[y * map.width + x] === 0) dark = true;
    });
    const state = { lit, mark: -1 };
    return { state, between: [{ lit: s.lit, mark: ty * map.width + tx }], outcome: dark ? "play" : "solved" };
  },
  draw(l, s, paint) {
    const map = tileMap(l.map);
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        const i = y * map.width + x;
        // Each tile is an inset square, so every tile is its own connected component on the grid.
        paint.dot(x, y, l.map[y]?.[x] === "#" ? COLOR.blocked : i === s.mark ? COLOR.mark : s.lit[i] ? COLOR.lit : COLOR.dark);
      }
    }
  },
  key: (s) => s.lit.join(""),
};
