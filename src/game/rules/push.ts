// Crates: the player pushes crates (never pulls them) until every target holds one. A crate pushed into a
// corner or against another crate is stuck for good, so a level can be lost without any fatal move: undo
// (ACTION7) or a restart is the way back. Movement only.
// Map: '#' wall, '.' floor, 'P' start, 'B' crate, 'T' target, '*' crate on a target.
import * as v from "valibot";
import type { Rules } from "../engine.ts";
import { charAt, checkMap, findAll, mapSchema, tileMap } from "./map.ts";

export const pushLevel = v.looseObject({ map: mapSchema });
type PushLevel = v.InferOutput<typeof pushLevel>;
interface PushState {
  readonly x: number;
  readonly y: number;
  /** Crate tiles as y * width + x, ascending. */
  readonly crates: readonly number[];
}

const COLOR = { floor: 0, wall: 3, target: 11, crate: 12, placed: 14, player: 9 } as const;

export const pushRules: Rules<PushLevel, PushState> = {
  kind: "push",
  levelSchema: pushLevel,
  check(l) {
    const bad = checkMap(l.map, "#.PBT*", "P");
    if (bad) return bad;
    const map = tileMap(l.map);
    const crates = findAll(map, "B*").length;
    const targets = findAll(map, "T*").length;
    if (targets === 0) return { field: "map", problem: "needs at least one target ('T' or '*')" };
    if (crates !== targets) return { field: "map", problem: `${crates} crates for ${targets} targets: they must be as many` };
    if (findAll(map, "T").length === 0) return { field: "map", problem: "every target already holds a crate" };
    return undefined;
  },
  size: (l) => ({ width: tileMap(l.map).width, height: l.map.length }),
  start(l) {
    const map = tileMap(l.map);
    const p = findAll(map, "P")[0] ?? { x: 0, y: 0 };
    const crates = findAll(map, "B*")
      .map((c) => c.y * map.width + c.x)
      .sort((a, b) => a - b);
    return { x: p.x, y: p.y, crates };
  },
  step(l, s, move) {
    if (move.kind !== "move") return { state: s, outcome: "play" };
    const map = tileMap(l.map);
    const x = s.x + move.dx;
    const y = s.y + move.dy;
    if (charAt(map, x, y) === "#") return { state: s, outcome: "play" };
    const at = y * map.width + x;
    let crates = s.crates;
    if (crates.includes(at)) {
      const bx = x + move.dx;
      const by = y + move.dy;
      const to = by * map.width + bx;
      if (charAt(map, bx, by) === "#" || crates.includes(to)) return { state: s, outcome: "play" };
      crates = crates.map((c) => (c === at ? to : c)).sort((a, b) => a - b);
    }
    const state = { x, y, crates };
    const done = crates.every((c) => "T*".includes(charAt(map, c % map.width, Math.floor(c / map.width))));
    return { state, outcome: done ? "solved" : "play" };
  },
  draw(l, s, paint) {
    const map = tileMap(l.map);
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        const ch = charAt(map, x, y);
        paint.tile(x, y, ch === "#" ? COLOR.wall : COLOR.floor);
        if (ch === "T" || ch === "*") paint.dot(x, y, COLOR.target);
      }
    }
    for (const c of s.crates) {
      const x = c % map.width;
      const y = Math.floor(c / map.width);
      paint.tile(x, y, "T*".includes(charAt(map, x, y)) ? COLOR.placed : COLOR.crate);
    }
    paint.tile(s.x, s.y, COLOR.player);
  },
  key: (s) => `${s.x},${s.y}|${s.crates.join(",")}`,
};
