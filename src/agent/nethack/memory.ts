// What the built-in agent knows about the current level beyond the newest screen, rebuilt from this level's
// sections each turn: where the hero stood after every action, which moves failed (no time passed and the
// hero did not move: a wall misread, a diagonal doorway, a boulder that would not budge), which monsters
// asked "Really attack?" (peaceful: never attacked, waited out), which '+' were not doors, which doors are
// locked and how often they were kicked, where it searched and how often, and where it wrote Elbereth.
import type { NethackSection } from "../../game/nethack/section.ts";
import { digRefused, showsPickAxeHere } from "./dig.ts";
import {
  cellKey,
  DIRECTIONS,
  directionNamed,
  DungeonMap,
  edgeKey,
  heroCandidates,
  dist,
  type Cell,
  type Direction,
} from "./map.ts";

export interface LevelMemory {
  /** The hero's square after each section (undefined where it was not on the map), aligned with sections. */
  readonly trail: readonly (Cell | undefined)[];
  readonly hero: Cell | undefined;
  readonly blocked: ReadonlySet<string>;
  /** Letters that asked "Really attack?" on this level. */
  readonly peaceful: ReadonlySet<string>;
  readonly notDoors: ReadonlySet<number>;
  /** Squares holding a statue (drawn as the monster it shows: never fought, walked over). */
  readonly statues: ReadonlySet<number>;
  /** Squares where a pick-axe was seen lying or a dwarf was killed (its pack drops there), not yet emptied. */
  readonly pickAxes: ReadonlySet<number>;
  /** Squares where the game refused to dig, and how often it refused on this level. */
  readonly noDig: ReadonlySet<number>;
  readonly digRefusals: number;
  /** A shopkeeper greeted the hero on this level (digging or picking up in a shop costs). */
  readonly shop: boolean;
  /** Locked doors (square key) and how many kicks they took. */
  readonly locked: ReadonlyMap<number, number>;
  /** Turns searched at each square. */
  readonly searched: ReadonlyMap<number, number>;
  /** Where Elbereth was last written on this level, the section it was written in, and the HP then. */
  readonly elbereth: { readonly at: Cell; readonly section: number } | undefined;
}

export function turnOf(s: NethackSection): number {
  return Number(/T:(\d+)/.exec(s.status)?.[1] ?? 0);
}

export function boardMap(s: NethackSection): DungeonMap {
  return new DungeonMap(s.board.slice(0, 21));
}

/**
 * The hero among several '@' (a shopkeeper, a watchman): after a move that took time and was not refused,
 * the square it moved to; otherwise where it stood; otherwise the nearest '@' to where it stood.
 */
export function locateHero(map: DungeonMap, last: Cell | undefined, s: NethackSection, tookTime: boolean): Cell | undefined {
  const found = heroCandidates(map);
  if (found.length <= 1 || last === undefined) return found[0];
  const d = directionNamed(s.action);
  const has = (c: Cell) => found.find((f) => f.x === c.x && f.y === c.y);
  if (d && tookTime && !/Really attack/.test(s.message)) {
    const moved = has({ x: last.x + d.dx, y: last.y + d.dy });
    if (moved) return moved;
  }
  return has(last) ?? found.reduce((best, c) => (dist(c, last) < dist(best, last) ? c : best));
}

export function levelMemory(sections: readonly NethackSection[]): LevelMemory {
  const trail: (Cell | undefined)[] = [];
  const blocked = new Set<string>();
  const peaceful = new Set<string>();
  const notDoors = new Set<number>();
  const statues = new Set<number>();
  const pickAxes = new Set<number>();
  const noDig = new Set<number>();
  let digRefusals = 0;
  let shop = false;
  const locked = new Map<number, number>();
  const searched = new Map<number, number>();
  let elbereth: LevelMemory["elbereth"];
  let hero: Cell | undefined;
  let count = 1;
  let pendingDirection: "open" | "kick" | undefined;
  for (let k = 0; k < sections.length; k++) {
    const s = sections[k]!;
    const prev = k > 0 ? sections[k - 1] : undefined;
    const tookTime = prev === undefined || turnOf(s) !== turnOf(prev);
    const before = hero;
    const map = boardMap(s);
    hero = locateHero(map, before, s, tookTime) ?? before;
    trail.push(hero);
    if (hero && /You see here a statue|There is a statue|statue of .* here/.test(s.message)) statues.add(cellKey(hero.x, hero.y));
    // A statue bumped into from beside it ("Perhaps that's why you cannot move past it").
    const bumped = directionNamed(s.action);
    if (bumped && before && /(a|an|the) statue of/i.test(s.message) && hero && hero.x === before.x && hero.y === before.y)
      statues.add(cellKey(before.x + bumped.dx, before.y + bumped.dy));
    const d = directionNamed(s.action);
    if (d && before && /Really attack/.test(s.message)) {
      const target = map.at(before.x + d.dx, before.y + d.dy);
      peaceful.add(/[a-zA-Z@&:;']/.test(target) ? target : boardMap(prev ?? s).at(before.x + d.dx, before.y + d.dy));
    } else if (d && prev && before && hero && hero.x === before.x && hero.y === before.y && !tookTime)
      blocked.add(edgeKey(before, d));
    if (hero) {
      const here = cellKey(hero.x, hero.y);
      if (showsPickAxeHere(s)) pickAxes.add(here);
      else if (pickAxes.has(here) && tookTime) pickAxes.delete(here); // stood there and saw none (or took it)
      if (digRefused(s.message)) {
        noDig.add(here);
        digRefusals++;
      }
    }
    if (d && before && /You kill the dwarf( lord| king)?!/.test(s.message))
      pickAxes.add(cellKey(before.x + d.dx, before.y + d.dy));
    if (/Welcome to .*'s|Hello, .*welcome to/i.test(s.message)) shop = true;
    // "open"/"kick" then a direction key: what happened to the square in that direction.
    const keyed = pendingDirection && s.action ? DIRECTION_BY_KEY.get(s.action) : undefined;
    if (keyed && before) {
      const at = cellKey(before.x + keyed.dx, before.y + keyed.dy);
      if (/You see no door there|This door is broken|no door/i.test(s.message)) notDoors.add(at);
      if (pendingDirection === "open" && /This door is locked/.test(s.message)) locked.set(at, locked.get(at) ?? 0);
      if (pendingDirection === "kick" && locked.has(at)) locked.set(at, (locked.get(at) ?? 0) + 1);
      if (pendingDirection === "kick" && /WHAMM|Ouch/.test(s.message) === false) locked.delete(at);
    }
    pendingDirection = s.action === "open" || s.action === "kick" ? s.action : undefined;
    if (s.action !== undefined && /^\d+$/.test(s.action)) count = Number(s.action);
    else if (s.action === "search" && hero) {
      const at = cellKey(hero.x, hero.y);
      searched.set(at, (searched.get(at) ?? 0) + count);
      count = 1;
    } else count = 1;
    // Elbereth is down once Enter ends the text typed at the engraving prompt.
    if (s.action === "more" && prev && /write in the dust here\?\s*Elbereth\s*$/i.test(prev.message) && hero)
      elbereth = { at: hero, section: k };
  }
  return { trail, hero, blocked, peaceful, notDoors, statues, pickAxes, noDig, digRefusals, shop, locked, searched, elbereth };
}

const DIRECTION_BY_KEY = new Map<string, Direction>(DIRECTIONS.map((d) => [d.key, d]));
