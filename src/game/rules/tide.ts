// Tide: gates open and close on a clock that every action moves on by one tick (a move, a bump into a wall,
// or ACTION5, which waits). A gate is open for `open` ticks out of every `period`, starting at its own phase;
// walking into a gate drawn closed does nothing, and being in a gate when it closes is fatal. Reach the goal.
// What is drawn is only whether each gate is open now: when it opens next is for the player to count.
// Movement and interact.
// Map: '#' wall, '.' floor, 'P' start, 'G' goal, '0'..'9' a gate whose phase is that digit.
import * as v from "valibot";
import type { Rules } from "../engine.ts";
import { charAt, checkMap, findAll, mapSchema, tileMap } from "./map.ts";

const ticks = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10));
export const tideLevel = v.looseObject({ map: mapSchema, period: ticks, open: ticks });
type TideLevel = v.InferOutput<typeof tideLevel>;
interface TideState {
  readonly x: number;
  readonly y: number;
  /** Ticks since the level began, modulo the period. */
  readonly t: number;
}

const COLOR = { floor: 0, wall: 3, player: 9, goal: 14, open: 2, closed: 13 } as const;
const GATES = "0123456789";

function gateOpen(l: TideLevel, ch: string, t: number): boolean {
  return (t + GATES.indexOf(ch)) % l.period < l.open;
}

export const tideRules: Rules<TideLevel, TideState> = {
  kind: "tide",
  levelSchema: tideLevel,
  check(l) {
    const bad = checkMap(l.map, `#.PG${GATES}`, "PG");
    if (bad) return bad;
    if (l.open >= l.period) return { field: "open", problem: `gates open ${l.open} of every ${l.period} ticks never close` };
    if (findAll(tileMap(l.map), GATES).length === 0) return { field: "map", problem: "needs at least one gate ('0'..'9')" };
    return undefined;
  },
  size: (l) => ({ width: tileMap(l.map).width, height: l.map.length }),
  start(l) {
    const p = findAll(tileMap(l.map), "P")[0] ?? { x: 0, y: 0 };
    return { x: p.x, y: p.y, t: 0 };
  },
  step(l, s, move) {
    if (move.kind === "click") return { state: s, outcome: "play" };
    const map = tileMap(l.map);
    const t = (s.t + 1) % l.period;
    let { x, y } = s;
    if (move.kind === "move") {
      const ch = charAt(map, x + move.dx, y + move.dy);
      // A gate drawn closed blocks; one drawn open lets the player in, and may close on the tick the step takes.
      const blocked = ch === "#" || (GATES.includes(ch) && !gateOpen(l, ch, s.t));
      if (!blocked) {
        x += move.dx;
        y += move.dy;
      }
    }
    const state = { x, y, t };
    const here = charAt(map, x, y);
    if (GATES.includes(here) && !gateOpen(l, here, t)) return { state, outcome: "dead" };
    return { state, outcome: here === "G" ? "solved" : "play" };
  },
  draw(l, s, paint) {
    const map = tileMap(l.map);
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        const ch = charAt(map, x, y);
        if (GATES.includes(ch)) paint.tile(x, y, gateOpen(l, ch, s.t) ? COLOR.open : COLOR.closed);
        else paint.tile(x, y, ch === "#" ? COLOR.wall : COLOR.floor);
        if (ch === "G") paint.dot(x, y, COLOR.goal);
      }
    }
    paint.tile(s.x, s.y, COLOR.player);
  },
  key: (s) => `${s.x},${s.y},${s.t}`,
};
