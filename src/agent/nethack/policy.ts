// The built-in NetHack agent's rules, applied to what the log says (the newest screen and this level's
// history): answer the game first (--More--, menus, prompts), then survive (pray, eat, Elbereth), kick locked
// doors, fight what is adjacent and hostile, go down when standing on '>', walk to '>' when it is known, walk
// to the nearest unexplored square, and search dead ends when nothing is left to explore.
import { parseStatus, type Status } from "../../game/nethack/status.ts";
import type { NethackSection } from "../../game/nethack/section.ts";
import type { Decision } from "./decision.ts";
import { cellKey, DIRECTIONS, DungeonMap, findHero, type Cell, type Direction } from "./map.ts";
import { boardMap, levelMemory, turnOf, type LevelMemory } from "./memory.ts";
import { digPrompt, pickAxeLetter, pickUpMenu } from "./dig.ts";
import { answerPrompt } from "./prompts.ts";
import type { LevelHistory } from "./read-log.ts";
import { prayableHp, survive } from "./survival.ts";

export type { Decision } from "./decision.ts";

/** Most moves planned per call; the harness stops a batch early when something happens anyway. */
const MAX_MOVES = 20;
/** Kicks at one locked door before it is left alone. */
const MAX_KICKS = 12;
/** Letters that ignore Elbereth. */
const FEARLESS = /[@A]/;

/** The status fields from the screen's two bottom lines, else from the [STATUS] line. */
export function statusOf(s: NethackSection): Status {
  const parsed = parseStatus(s.board[21] ?? "", s.board[22] ?? "");
  if (parsed) return parsed;
  const hp = /HP:(-?\d+)\((\d+)\)/.exec(s.status);
  const word = (re: RegExp, fallback: string) => re.exec(s.status)?.[1] ?? fallback;
  return {
    title: "",
    strength: "",
    dexterity: 0,
    constitution: 0,
    intelligence: 0,
    wisdom: 0,
    charisma: 0,
    alignment: "",
    dlvl: Number(word(/Dlvl:(\d+)/, "1")),
    place: "",
    gold: 0,
    hp: Number(hp?.[1] ?? 1),
    hpMax: Number(hp?.[2] ?? 1),
    pw: 0,
    pwMax: 0,
    ac: 0,
    xl: Number(word(/Xp:(\d+)/, "1")),
    exp: 0,
    turn: turnOf(s),
    hunger: word(/\b(Satiated|Hungry|Weak|Fainting|Fainted)\b/, "Not Hungry"),
    encumbrance: "Unencumbered",
    conditions: [],
  };
}

const MENU = /\((?:end|\d+ of \d+)\)\s*$/;

export function decide(history: LevelHistory): Decision {
  const now = history.sections[history.sections.length - 1]!;
  const msg = now.message;
  if ([msg, ...now.board].some((r) => r.includes("--More--"))) return { actions: ["more"], reason: "the game shows --More--" };
  const pickUp = pickUpMenu(now.board);
  if (pickUp) return pickUp;
  if (now.board.some((r) => MENU.test(r))) return { actions: ["esc"], reason: "a menu is open" };
  const prompt = digPrompt(msg, history.inventory) ?? answerPrompt(msg, history.inventory);
  if (prompt) return prompt;

  const status = statusOf(now);
  const memory = levelMemory(history.sections);
  const hero = memory.hero;
  // The starting pet swaps places with the hero: for walking it is floor (unless something is hurting us).
  const hurtNow = history.sections.slice(-4).some((s) => (s.events ?? []).some((e) => e.startsWith("hp lost")));
  const pet = hurtNow ? undefined : petLetter(history.start);
  const rows = now.board.slice(0, 21).map((r) => (pet ? r.replaceAll(pet, ".") : r));
  // Statues look like monsters: drawn as the rock they are ('`', walked over).
  for (const k of memory.statues) {
    const y = Math.floor(k / 80);
    const x = k % 80;
    if (/[a-zA-Z&:;']/.test(rows[y]?.[x] ?? "")) rows[y] = `${rows[y]!.slice(0, x)}\`${rows[y]!.slice(x + 1)}`;
  }
  if (hero) rows[hero.y] = `${rows[hero.y]!.slice(0, hero.x)}@${rows[hero.y]!.slice(hero.x + 1)}`;
  const map = new DungeonMap(rows, { blocked: memory.blocked, notDoors: memory.notDoors, rotate: history.variant });
  if (!hero) return { actions: ["search"], reason: "the hero is not on the map; waiting a turn" };

  const neighbours = DIRECTIONS.map((d) => ({ d, g: map.at(hero.x + d.dx, hero.y + d.dy) }));
  const hostile = neighbours.filter(
    ({ d, g }) => map.isMonster(hero.x + d.dx, hero.y + d.dy) && !memory.peaceful.has(g) && map.canStep(hero, d),
  );
  // Swallowed (the engulfer drawn around the hero): every move attacks it; praying still works, writing not.
  if (engulfed(map, hero) && !prayableHp(status)) return { actions: ["north"], reason: "engulfed: attacking the engulfer" };

  // The same action with the same answer and no time passing, over and over: let a turn pass instead.
  const repeated = repeatsWithoutTime(history);
  if (repeated >= REPEAT_LIMIT)
    return { actions: ["search"], reason: `'${now.action}' changed nothing ${repeated} times: waiting a turn` };

  const survival = survive({
    status,
    lastPrayerTurn: history.lastPrayerTurn,
    inventory: history.inventory,
    memory,
    hero,
    hpHistory: history.sections.map((s) => statusOf(s).hp),
    fearlessNear: hostile.some(({ g }) => FEARLESS.test(g)),
    hostiles: hostile.length,
    cannotEngrave: history.sections.slice(-20).some((s) => /You can't reach the (floor|ground)|can't write on/.test(s.message)),
    caution: history.caution,
  });
  if (survival) return survival;

  const door = lockedDoorNextTo(map, memory, hero);
  if (door) return { actions: ["kick", door.key], reason: `the door to the ${door.name} is locked: kicking it` };

  const foe = hostile[0];
  if (foe) return { actions: [foe.d.name], reason: `fighting the ${foe.g} to the ${foe.d.name}` };

  // Under half HP with nothing next to the hero: rest before walking on (a new level met with low HP kills).
  if (status.hp * 2 < status.hpMax) return { actions: ["20", "search"], reason: `resting (HP ${status.hp}/${status.hpMax})` };

  // A peaceful monster refused us and no time has passed since: let a turn go by so it moves.
  const refusedLately = history.sections.slice(-3).some((s) => /Really attack/.test(s.message));
  if (
    refusedLately &&
    history.sections.length >= 2 &&
    turnOf(now) === turnOf(history.sections[history.sections.length - 3] ?? now)
  )
    return { actions: ["search"], reason: "a peaceful monster is in the way: waiting a turn" };

  const stuck = stuckFor(history);
  if (stuck >= 8) {
    // Moves that take no time although the map says they should: try the open squares around, else search.
    const open = DIRECTIONS.filter((d) => map.canStep(hero, d) && !map.isMonster(hero.x + d.dx, hero.y + d.dy));
    const d = open[Math.floor(history.sections.length / 3) % Math.max(1, open.length)];
    if (d && stuck < 24) return { actions: [d.name], reason: `no progress for ${stuck} moves: trying ${d.name}` };
    return { actions: ["search"], reason: `no progress for ${stuck} moves: searching once` };
  }

  const stairs = downStairs(history, map);
  if (stairs && stairs.x === hero.x && stairs.y === hero.y)
    return { actions: ["down"], reason: "standing on the down staircase" };
  const toStairs = stairs ? map.pathTo(hero, (x, y) => x === stairs.x && y === stairs.y) : undefined;

  // A pick-axe: fetch one that lies near, or dig down with the one carried (unless the stairs are close).
  const axe = pickAxeLetter(history.inventory);
  if (!axe && !memory.shop) {
    if (memory.pickAxes.has(cellKey(hero.x, hero.y))) return { actions: ["pickup"], reason: "picking up the pick-axe here" };
    const toAxe = map.pathTo(hero, (x, y) => memory.pickAxes.has(cellKey(x, y)));
    if (toAxe && toAxe.length <= 12) return walk(map, hero, toAxe, "walking to a pick-axe");
  }
  const nearStairs = toStairs !== undefined && toStairs.length <= 6;
  if (axe && !memory.shop && memory.digRefusals < 3 && !memory.noDig.has(cellKey(hero.x, hero.y)) && !nearStairs)
    return { actions: ["apply"], reason: "digging down with the pick-axe" };

  if (stairs && toStairs) return walk(map, hero, toStairs, `walking to the down staircase at ${stairs.x},${stairs.y}`);

  const visited = new Set(memory.trail.flatMap((c) => (c ? [cellKey(c.x, c.y)] : [])));
  const frontier = (x: number, y: number) =>
    !visited.has(cellKey(x, y)) && map.walkable(x, y) && DIRECTIONS.some((d) => map.at(x + d.dx, y + d.dy) === " ");
  const toFrontier = map.pathTo(hero, frontier);
  if (toFrontier) return walk(map, hero, toFrontier, "exploring the nearest unvisited square next to unknown ground");

  return searchForPassages(map, memory, hero);
}

/** Nothing left to see: search at the reachable dead end or wall corner searched least (nearer first). */
function searchForPassages(map: DungeonMap, memory: LevelMemory, hero: Cell): Decision {
  const cost = (x: number, y: number, steps: number) => (memory.searched.get(cellKey(x, y)) ?? 0) + steps / 4;
  let best: { cell: Cell; cost: number } | undefined;
  for (const { cell, steps } of map.reachable(hero)) {
    if (!deadEndish(map, cell) && !(cell.x === hero.x && cell.y === hero.y)) continue;
    const c = cost(cell.x, cell.y, steps);
    if (!best || c < best.cost) best = { cell, cost: c };
  }
  if (!best || (best.cell.x === hero.x && best.cell.y === hero.y))
    return { actions: ["15", "search"], reason: "searching for hidden passages here" };
  const target = best.cell;
  const path = map.pathTo(hero, (x, y) => x === target.x && y === target.y);
  if (path) return walk(map, hero, path, `walking to ${target.x},${target.y} to search for hidden passages`);
  return { actions: ["15", "search"], reason: "nothing left to explore; searching" };
}

function lockedDoorNextTo(map: DungeonMap, memory: LevelMemory, hero: Cell): Direction | undefined {
  return DIRECTIONS.slice(0, 4).find((d) => {
    const x = hero.x + d.dx;
    const y = hero.y + d.dy;
    const kicks = memory.locked.get(cellKey(x, y));
    return kicks !== undefined && kicks < MAX_KICKS && map.at(x, y) === "+";
  });
}

/** Same action, same message, same turn this many times in a row: the game refuses it, do something else. */
const REPEAT_LIMIT = 6;

function repeatsWithoutTime(history: LevelHistory): number {
  const secs = history.sections;
  const last = secs[secs.length - 1];
  if (!last || last.action === undefined || last.message.trim() === "") return 0;
  let n = 0;
  for (let k = secs.length - 1; k >= 0; k--) {
    const s = secs[k]!;
    if (s.action !== last.action || s.message !== last.message || turnOf(s) !== turnOf(last)) break;
    n++;
  }
  return n;
}

/** The engulfer's outline around the hero: '/-\' above, '|' on both sides, '\-/' below. */
function engulfed(map: DungeonMap, hero: Cell): boolean {
  return (
    map.at(hero.x - 1, hero.y - 1) === "/" &&
    map.at(hero.x + 1, hero.y - 1) === "\\" &&
    map.at(hero.x - 1, hero.y + 1) === "\\" &&
    map.at(hero.x + 1, hero.y + 1) === "/"
  );
}

/** The letter next to the hero on the episode's first screen: the starting pet (kitten, little dog, pony). */
function petLetter(start: NethackSection | undefined): string | undefined {
  if (!start) return undefined;
  const map = boardMap(start);
  const hero = findHero(map, undefined);
  if (!hero) return undefined;
  for (const d of DIRECTIONS) {
    const g = map.at(hero.x + d.dx, hero.y + d.dy);
    if (/[a-zA-Z]/.test(g)) return g;
  }
  return undefined;
}

/** Move actions in a row, newest first, after which the turn counter has not moved. */
function stuckFor(history: LevelHistory): number {
  const secs = history.sections;
  const last = secs[secs.length - 1];
  if (!last) return 0;
  const turn = turnOf(last);
  let n = 0;
  for (let k = secs.length - 1; k >= 0; k--) {
    const s = secs[k]!;
    if (turnOf(s) !== turn || !DIRECTIONS.some((d) => d.name === s.action)) break;
    n++;
  }
  return n;
}

function walk(map: DungeonMap, hero: Cell, path: readonly Direction[], reason: string): Decision {
  const actions: string[] = [];
  let at = hero;
  for (const d of path.slice(0, MAX_MOVES)) {
    const nx = at.x + d.dx;
    const ny = at.y + d.dy;
    if (map.isClosedDoor(nx, ny)) {
      // A closed door: open it (this turn ends there; the next call sees whether it opened).
      actions.push("open", d.key);
      break;
    }
    actions.push(d.name);
    if (map.isMonster(nx, ny)) break;
    at = { x: nx, y: ny };
  }
  return { actions, reason };
}

/** Where '>' was last seen on this level (it hides under the hero, items and monsters), but the one to avoid. */
function downStairs(history: LevelHistory, map: DungeonMap): Cell | undefined {
  const dlvl = statusOf(history.sections[history.sections.length - 1]!).dlvl;
  const avoid = history.avoid && history.avoid.dlvl === dlvl ? history.avoid : undefined;
  const find = (rows: readonly string[]): Cell | undefined => {
    for (let y = 0; y < 21; y++) {
      const row = rows[y] ?? "";
      for (let x = row.indexOf(">"); x >= 0; x = row.indexOf(">", x + 1))
        if (!avoid || avoid.x !== x || avoid.y !== y) return { x, y };
    }
    return undefined;
  };
  const seen = find(map.rows);
  if (seen) return seen;
  for (let k = history.sections.length - 1; k >= 0; k--) {
    const found = find(history.sections[k]!.board);
    if (found) return found;
  }
  return undefined;
}

/** A square next to solid rock or wall on at least five sides: a dead end or a room's edge worth searching. */
function deadEndish(map: DungeonMap, c: Cell): boolean {
  let closed = 0;
  for (const d of DIRECTIONS) {
    const g = map.at(c.x + d.dx, c.y + d.dy);
    if (g === " " || ((g === "-" || g === "|") && !map.isOpenDoor(c.x + d.dx, c.y + d.dy))) closed++;
  }
  return closed >= 5;
}
