// Glide: the player slides on ice until something stops it (a wall, sand, the goal) — or falls into a hole,
// which is fatal. Movement only; every tile crossed is an animation frame.
// Map: '#' wall, '.' ice, 'o' sand (stops you on it), 'x' hole (fatal), 'P' start, 'G' goal.
import * as v from "valibot";
import type { Rules } from "../engine.ts";
import { charAt, checkMap, findAll, mapSchema, tileMap } from "./map.ts";

export const slideLevel = v.looseObject({ map: mapSchema });
type SlideLevel = v.InferOutput<typeof slideLevel>;
interface SlideState {
  readonly x: number;
  readonly y: number;
}

const COLOR = { wall: 3, ice: 10, sand: 12, hole: 5, goal: 14, player: 8 } as const;

export const slideRules: Rules<SlideLevel, SlideState> = {
  kind: "slide",
  levelSchema: slideLevel,
  check: (l) => checkMap(l.map, "#.oxPG", "PG"),
  size: (l) => ({ width: tileMap(l.map).width, height: l.map.length }),
  start(l) {
    const p = findAll(tileMap(l.map), "P")[0] ?? { x: 0, y: 0 };
    return { x: p.x, y: p.y };
  },
  step(l, s, move) {
    if (move.kind !== "move") return { state: s, outcome: "play" };
    const map = tileMap(l.map);
    const between: SlideState[] = [];
    let { x, y } = s;
    for (;;) {
      const ahead = charAt(map, x + move.dx, y + move.dy);
      if (ahead === "#") return { state: { x, y }, between, outcome: "play" };
      if (x !== s.x || y !== s.y) between.push({ x, y });
      x += move.dx;
      y += move.dy;
      if (ahead === "x") return { state: { x, y }, between, outcome: "dead" };
      if (ahead === "G") return { state: { x, y }, between, outcome: "solved" };
      if (ahead === "o") return { state: { x, y }, between, outcome: "play" };
    }
  },
  draw(l, s, paint) {
    const map = tileMap(l.map);
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        const ch = charAt(map, x, y);
        paint.tile(x, y, ch === "#" ? COLOR.wall : ch === "o" ? COLOR.sand : ch === "x" ? COLOR.hole : COLOR.ice);
        if (ch === "G") paint.dot(x, y, COLOR.goal);
      }
    }
    paint.tile(s.x, s.y, COLOR.player);
  },
  key: (s) => `${s.x},${s.y}`,
};
