// Switchyard: walk to the goal through gates that levers open and close. Every lever looks the same and
// nothing drawn says which gates it drives: the player infers that from what a click does. In levels with
// reach "adjacent" a lever only works when the player stands next to it (a click from afar does nothing),
// another rule to infer. Moves and clicks.
// Map: '#' wall, '.' floor, 'P' start, 'G' goal, '1'..'4' lever, 'A'..'D' closed gate, 'a'..'d' open gate
// (lever 1 toggles gates A/a, lever 2 B/b, ...).
import * as v from "valibot";
import type { Rules } from "../engine.ts";
import { charAt, checkMap, findAll, mapSchema, tileMap } from "./map.ts";

export const switchLevel = v.looseObject({
  map: mapSchema,
  reach: v.picklist(["any", "adjacent"]),
});
type SwitchLevel = v.InferOutput<typeof switchLevel>;
interface SwitchState {
  readonly x: number;
  readonly y: number;
  /** Bit g set: the gates of group g are toggled from their drawn start. */
  readonly flipped: number;
  /** Lever group lit in an animation frame, -1 otherwise. */
  readonly pulse: number;
}

const COLOR = { floor: 0, wall: 3, player: 9, goal: 14, lever: 15, pulse: 6, closed: 13, open: 2 } as const;
const LEVERS = "1234";
const CLOSED = "ABCD";
const OPEN = "abcd";

function gateOpen(ch: string, flipped: number): boolean | undefined {
  const closed = CLOSED.indexOf(ch);
  if (closed >= 0) return (flipped & (1 << closed)) !== 0;
  const open = OPEN.indexOf(ch);
  if (open >= 0) return (flipped & (1 << open)) === 0;
  return undefined;
}

function gateGroup(ch: string): number {
  return Math.max(CLOSED.indexOf(ch), OPEN.indexOf(ch));
}

export const switchRules: Rules<SwitchLevel, SwitchState> = {
  kind: "switches",
  levelSchema: switchLevel,
  check: (l) => checkMap(l.map, "#.PG1234ABCDabcd", "PG"),
  size: (l) => ({ width: tileMap(l.map).width, height: l.map.length }),
  start(l) {
    const p = findAll(tileMap(l.map), "P")[0] ?? { x: 0, y: 0 };
    return { x: p.x, y: p.y, flipped: 0, pulse: -1 };
  },
  step(l, s, move) {
    const map = tileMap(l.map);
    if (move.kind === "move") {
      const x = s.x + move.dx;
      const y = s.y + move.dy;
      const ch = charAt(map, x, y);
      if (ch === "#" || LEVERS.includes(ch) || gateOpen(ch, s.flipped) === false) return { state: s, outcome: "play" };
      return { state: { ...s, x, y }, outcome: ch === "G" ? "solved" : "play" };
    }
    if (move.kind !== "click") return { state: s, outcome: "play" };
    const group = LEVERS.indexOf(charAt(map, move.tx, move.ty));
    if (group < 0) return { state: s, outcome: "play" };
    const near = Math.abs(move.tx - s.x) + Math.abs(move.ty - s.y) === 1;
    if (l.reach === "adjacent" && !near) return { state: s, outcome: "play" };
    // A gate never closes on the player: the lever is stuck while the player stands in one of its gates.
    if (gateGroup(charAt(map, s.x, s.y)) === group) return { state: s, outcome: "play" };
    const state = { ...s, flipped: s.flipped ^ (1 << group) };
    return { state, between: [{ ...s, pulse: group }], outcome: "play" };
  },
  draw(l, s, paint) {
    const map = tileMap(l.map);
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        const ch = charAt(map, x, y);
        const open = gateOpen(ch, s.flipped);
        const lever = LEVERS.indexOf(ch);
        if (lever >= 0) {
          paint.tile(x, y, COLOR.floor);
          paint.dot(x, y, lever === s.pulse ? COLOR.pulse : COLOR.lever);
        } else paint.tile(x, y, ch === "#" ? COLOR.wall : open === false ? COLOR.closed : open ? COLOR.open : COLOR.floor);
        if (ch === "G") paint.dot(x, y, COLOR.goal);
      }
    }
    paint.tile(s.x, s.y, COLOR.player);
  },
  key: (s) => `${s.x},${s.y},${s.flipped}`,
};
