// Fog: a maze seen only within `radius` tiles of the player; everything else is drawn as fog, so the board
// never shows the maze as a whole: where the key, the door and the dead ends were is only in the player's
// memory (or log). Take the key to open doors, avoid pits (fatal), reach the goal. Movement only.
// Map: '#' wall, '.' floor, 'P' start, 'G' goal, 'k' key, 'D' door (needs the key), 'x' pit.
import * as v from "valibot";
import type { Rules } from "../engine.ts";
import { charAt, checkMap, findAll, mapSchema, tileMap } from "./map.ts";

export const fogLevel = v.looseObject({
  map: mapSchema,
  /** Tiles visible around the player (Chebyshev distance). */
  radius: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20)),
});
type FogLevel = v.InferOutput<typeof fogLevel>;
interface FogState {
  readonly x: number;
  readonly y: number;
  readonly key: boolean;
}

const COLOR = { fog: 4, floor: 0, wall: 3, player: 9, goal: 14, key: 11, door: 12, pit: 5 } as const;

export const fogRules: Rules<FogLevel, FogState> = {
  kind: "fog",
  levelSchema: fogLevel,
  check: (l) => checkMap(l.map, "#.PGkDx", "PG"),
  size: (l) => ({ width: tileMap(l.map).width, height: l.map.length }),
  start(l) {
    const p = findAll(tileMap(l.map), "P")[0] ?? { x: 0, y: 0 };
    return { x: p.x, y: p.y, key: false };
  },
  step(l, s, move) {
    if (move.kind !== "move") return { state: s, outcome: "play" };
    const x = s.x + move.dx;
    const y = s.y + move.dy;
    const ch = charAt(tileMap(l.map), x, y);
    if (ch === "#" || (ch === "D" && !s.key)) return { state: s, outcome: "play" };
    const state = { x, y, key: s.key || ch === "k" };
    return { state, outcome: ch === "x" ? "dead" : ch === "G" ? "solved" : "play" };
  },
  draw(l, s, paint) {
    const map = tileMap(l.map);
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        if (Math.max(Math.abs(x - s.x), Math.abs(y - s.y)) > l.radius) {
          paint.tile(x, y, COLOR.fog);
          continue;
        }
        const ch = charAt(map, x, y);
        const open = ch === "D" && s.key;
        paint.tile(x, y, ch === "#" ? COLOR.wall : ch === "x" ? COLOR.pit : ch === "D" && !open ? COLOR.door : COLOR.floor);
        if (ch === "G") paint.dot(x, y, COLOR.goal);
        if (ch === "k" && !s.key) paint.dot(x, y, COLOR.key);
      }
    }
    paint.tile(s.x, s.y, COLOR.player);
  },
  key: (s) => `${s.x},${s.y},${s.key ? 1 : 0}`,
};
