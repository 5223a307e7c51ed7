// Echo: ACTION5 sends the player back to the start and leaves an echo that replays, move for move, the path
// walked since the start (or since the previous echo), then fades when that path ends. Doors are open only
// while someone (player or echo) stands on a plate of their letter, and a door that closes on the player is
// fatal. Nothing drawn shows what the echo will do next: the player has to remember the path it recorded.
// Movement and interact.
// Map: '#' wall, '.' floor, 'P' start, 'G' goal, 'a'/'b' plate, 'A'/'B' door opened by its plate.
import * as v from "valibot";
import type { Rules } from "../engine.ts";
import { charAt, checkMap, findAll, mapSchema, tileMap } from "./map.ts";
import type { TileMap } from "./map.ts";

export const echoLevel = v.looseObject({ map: mapSchema });
type EchoLevel = v.InferOutput<typeof echoLevel>;
interface EchoState {
  /** Player tile index (y * width + x). */
  readonly at: number;
  /** Tiles the player stood on since the start or the last echo, the first being the start. */
  readonly recording: readonly number[];
  /** The echo's path and where on it the echo is; index ≥ path length means no echo. */
  readonly echo: readonly number[];
  readonly echoIndex: number;
}

const COLOR = { floor: 0, wall: 3, player: 9, echo: 10, plate: 12, pressed: 11, closed: 13, open: 2, goal: 14 } as const;
/** Longest recording kept: an echo replays at most this many tiles (keeps states small). */
const MAX_RECORDING = 64;

function tileChar(map: TileMap, at: number): string {
  return charAt(map, at % map.width, Math.floor(at / map.width));
}

function doorOpen(map: TileMap, door: string, occupied: readonly number[]): boolean {
  const plate = door.toLowerCase();
  return occupied.some((at) => tileChar(map, at) === plate);
}

function occupants(s: EchoState): number[] {
  const echoAt = s.echo[s.echoIndex];
  return echoAt === undefined ? [s.at] : [s.at, echoAt];
}

export const echoRules: Rules<EchoLevel, EchoState> = {
  kind: "echo",
  levelSchema: echoLevel,
  check: (l) => checkMap(l.map, "#.PGabAB", "PG"),
  size: (l) => ({ width: tileMap(l.map).width, height: l.map.length }),
  start(l) {
    const map = tileMap(l.map);
    const p = findAll(map, "P")[0] ?? { x: 0, y: 0 };
    const at = p.y * map.width + p.x;
    return { at, recording: [at], echo: [], echoIndex: 0 };
  },
  step(l, s, move) {
    const map = tileMap(l.map);
    if (move.kind === "interact") {
      const start = s.recording[0] ?? s.at;
      return {
        state: { at: start, recording: [start], echo: s.recording, echoIndex: 0 },
        between: [{ ...s, echo: [], echoIndex: 0 }],
        outcome: "play",
      };
    }
    if (move.kind !== "move") return { state: s, outcome: "play" };
    const x = (s.at % map.width) + move.dx;
    const y = Math.floor(s.at / map.width) + move.dy;
    const ch = charAt(map, x, y);
    const blocked = ch === "#" || ((ch === "A" || ch === "B") && !doorOpen(map, ch, occupants(s)));
    const at = blocked ? s.at : y * map.width + x;
    const recording = s.recording.length < MAX_RECORDING ? [...s.recording, at] : s.recording;
    const state: EchoState = { at, recording, echo: s.echo, echoIndex: s.echoIndex + 1 };
    const here = tileChar(map, at);
    if ((here === "A" || here === "B") && !doorOpen(map, here, occupants(state))) return { state, outcome: "dead" };
    return { state, outcome: here === "G" ? "solved" : "play" };
  },
  draw(l, s, paint) {
    const map = tileMap(l.map);
    const occupied = occupants(s);
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        const ch = charAt(map, x, y);
        if (ch === "A" || ch === "B") paint.tile(x, y, doorOpen(map, ch, occupied) ? COLOR.open : COLOR.closed);
        else paint.tile(x, y, ch === "#" ? COLOR.wall : COLOR.floor);
        if (ch === "a" || ch === "b") paint.dot(x, y, occupied.includes(y * map.width + x) ? COLOR.pressed : COLOR.plate);
        if (ch === "G") paint.dot(x, y, COLOR.goal);
      }
    }
    const echoAt = s.echo[s.echoIndex];
    if (echoAt !== undefined) paint.tile(echoAt % map.width, Math.floor(echoAt / map.width), COLOR.echo);
    paint.tile(s.at % map.width, Math.floor(s.at / map.width), COLOR.player);
  },
  key: (s) => `${s.at}|${s.recording.join(",")}|${s.echo.slice(s.echoIndex).join(",")}`,
};
