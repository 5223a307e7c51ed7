// The built-in NetHack agent's rules, applied to what the log says (the newest screen and this level's
// history): answer the game first (--More--, menus, prompts), then survive (pray when weak or nearly dead,
// eat when hungry), fight what is adjacent, go down when standing on '>', walk to '>' when it is known, walk
// to the nearest unexplored square, and search dead ends when nothing is left to explore.
import type { NethackSection } from "../../game/nethack/section.ts";
import { DIRECTIONS, DungeonMap, findHero, type Cell, type Direction } from "./map.ts";
import type { LevelHistory } from "./read-log.ts";

export interface Decision {
  readonly actions: string[];
  readonly reason: string;
}

/** Turns between prayers: the gods answer again after about 1,000 turns. */
const PRAYER_TIMEOUT = 800;
/** Most moves planned per call; the harness stops a batch early when something happens anyway. */
const MAX_MOVES = 12;

interface StatusFields {
  hp: number;
  hpMax: number;
  turn: number;
  hunger: string;
}

function statusFields(line: string): StatusFields {
  const hp = /HP:(-?\d+)\((\d+)\)/.exec(line);
  return {
    hp: Number(hp?.[1] ?? 1),
    hpMax: Number(hp?.[2] ?? 1),
    turn: Number(/T:(\d+)/.exec(line)?.[1] ?? 0),
    hunger: /\| (Satiated|Not Hungry|Hungry|Weak|Fainting|Fainted) \|/.exec(line)?.[1] ?? "Not Hungry",
  };
}

function mapOf(s: NethackSection): DungeonMap {
  return new DungeonMap(s.board.slice(0, 21));
}

const MENU = /\((?:end|\d+ of \d+)\)\s*$/;

export function decide(history: LevelHistory): Decision {
  const lastPrayerTurn = history.lastPrayerTurn;
  const now = history.sections[history.sections.length - 1]!;
  const msg = now.message;
  const screen = [msg, ...now.board];
  if (screen.some((r) => r.includes("--More--"))) return { actions: ["more"], reason: "the game shows --More--" };
  if (now.board.some((r) => MENU.test(r))) return { actions: ["esc"], reason: "a menu is open" };
  const prompt = answerPrompt(msg, history.inventory);
  if (prompt) return prompt;

  const st = statusFields(now.status);
  const canPray = lastPrayerTurn === undefined || st.turn - lastPrayerTurn > PRAYER_TIMEOUT;
  if (
    canPray &&
    (st.hunger === "Weak" || st.hunger === "Fainting" || st.hunger === "Fainted" || st.hp < Math.max(5, Math.ceil(st.hpMax / 7)))
  ) {
    return { actions: ["pray"], reason: `praying (HP ${st.hp}/${st.hpMax}, ${st.hunger})` };
  }
  if ((st.hunger === "Hungry" || st.hunger === "Weak") && history.inventory.some(isFood)) {
    return { actions: ["eat"], reason: `eating (${st.hunger})` };
  }

  // The starting pet swaps places with the hero: for walking it is floor (unless something is hurting us).
  const hurtNow = history.sections.slice(-4).some((s) => (s.events ?? []).some((e) => e.startsWith("hp lost")));
  const petNow = hurtNow ? undefined : petLetter(history.start);
  const map = petNow ? new DungeonMap(now.board.slice(0, 21).map((r) => r.replaceAll(petNow, "."))) : mapOf(now);
  const trail = heroTrail(history);
  const hero = trail[trail.length - 1];
  if (!hero) return { actions: ["search"], reason: "the hero is not on the map; waiting a turn" };

  if (/This door is locked|WHAMM/.test(msg)) {
    const door = DIRECTIONS.slice(0, 4).find((d) => map.at(hero.x + d.dx, hero.y + d.dy) === "+");
    if (door) return { actions: ["kick", door.key], reason: `the door to the ${door.name} is locked: kicking it` };
  }
  const refused = history.sections.slice(-6).some((s) => /Really attack/.test(s.message));
  // The starting pet is spared, unless something has been hurting the hero lately (a jackal looks like a dog).
  const pet = petNow;
  if (!refused) {
    const foe = DIRECTIONS.find((d) => {
      const g = map.at(hero.x + d.dx, hero.y + d.dy);
      return map.isMonster(hero.x + d.dx, hero.y + d.dy) && g !== pet && map.canStep(hero, d);
    });
    if (foe)
      return {
        actions: ["fight", foe.key],
        reason: `fighting the ${map.at(hero.x + foe.dx, hero.y + foe.dy)} to the ${foe.name}`,
      };
  }

  const stuck = stuckFor(history);
  if (stuck >= 8) {
    // Moves that take no time: the map is misread here. Try the open squares around in turn, else search.
    const open = DIRECTIONS.filter((d) => map.canStep(hero, d) && !map.isMonster(hero.x + d.dx, hero.y + d.dy));
    const d = open[Math.floor(history.sections.length / 3) % Math.max(1, open.length)]; // counted within the episode
    if (d && stuck < 24) return { actions: [d.name], reason: `no progress for ${stuck} moves: trying ${d.name}` };
    return { actions: ["search"], reason: `no progress for ${stuck} moves: searching once` };
  }

  const stairs = downStairs(history, map);
  if (stairs && stairs.x === hero.x && stairs.y === hero.y)
    return { actions: ["down"], reason: "standing on the down staircase" };
  if (stairs) {
    const path = map.pathTo(hero, (x, y) => x === stairs.x && y === stairs.y);
    if (path) return walk(map, hero, path, `walking to the down staircase at ${stairs.x},${stairs.y}`);
  }

  const visited = new Set(trail.map((c) => c.y * 80 + c.x));
  const frontier = (x: number, y: number) =>
    !visited.has(y * 80 + x) && map.walkable(x, y) && DIRECTIONS.some((d) => map.at(x + d.dx, y + d.dy) === " ");
  const toFrontier = map.pathTo(hero, frontier);
  if (toFrontier) return walk(map, hero, toFrontier, "exploring the nearest unvisited square next to unknown ground");

  // Nothing left to see: search at the reachable dead end or wall corner searched least (nearer first).
  const searched = searchCounts(history);
  const cost = (x: number, y: number, steps: number) => (searched.get(y * 80 + x) ?? 0) + steps / 4;
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

/** The letter next to the hero on the episode's first screen: the starting pet (kitten, little dog, pony). */
function petLetter(start: NethackSection | undefined): string | undefined {
  if (!start) return undefined;
  const map = mapOf(start);
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
  const turn = /T:(\d+)/.exec(last.status)?.[1];
  let n = 0;
  for (let k = secs.length - 1; k >= 0; k--) {
    const s = secs[k]!;
    if (/T:(\d+)/.exec(s.status)?.[1] !== turn || !DIRECTIONS.some((d) => d.name === s.action)) break;
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
    if (map.at(nx, ny) === "+") {
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

function answerPrompt(msg: string, inventory: readonly string[]): Decision | undefined {
  if (/In what direction/.test(msg)) return { actions: ["esc"], reason: "a direction nobody asked for" };
  const choice = /What do you want to eat\? \[([^\] ]*)/.exec(msg);
  if (choice) {
    const food = inventory.find(isFood)?.[0];
    const letter = food && choice[1]!.includes(food) ? food : /[a-zA-Z]/.exec(choice[1] ?? "")?.[0];
    return letter ? { actions: [letter], reason: "eating" } : { actions: ["esc"], reason: "nothing to eat" };
  }
  if (/Are you sure you want to pray\?/.test(msg)) return { actions: ["y"], reason: "yes, pray" };
  if (/\[yn[aq]*\]|\[ynaq\]/.test(msg)) return { actions: ["n"], reason: `answering no: ${msg.trim().slice(0, 60)}` };
  if (/\? \[[^\]]*\]|What do you want to|Call it|Where do you want/.test(msg))
    return { actions: ["esc"], reason: "cancelling a prompt" };
  return undefined;
}

function isFood(line: string): boolean {
  return (
    /food ration|cram ration|lembas|fortune cookie|apple|orange|pear|melon|banana|carrot|egg|pancake|candy bar|tin\b/.test(
      line,
    ) && /^[a-zA-Z] - /.test(line)
  );
}

/** The hero's square in every section of the level, oldest first (sections where it is hidden are skipped). */
function heroTrail(history: LevelHistory): Cell[] {
  const trail: Cell[] = [];
  for (const s of history.sections) {
    const at = findHero(mapOf(s), trail[trail.length - 1]);
    if (at) trail.push(at);
  }
  return trail;
}

/** Where '>' was last seen on this level (it hides under the hero, items and monsters). */
function downStairs(history: LevelHistory, map: DungeonMap): Cell | undefined {
  for (let y = 0; y < 21; y++) {
    const x = (map.rows[y] ?? "").indexOf(">");
    if (x >= 0) return { x, y };
  }
  for (let k = history.sections.length - 1; k >= 0; k--) {
    const rows = history.sections[k]!.board;
    for (let y = 0; y < 21; y++) {
      const x = (rows[y] ?? "").indexOf(">");
      if (x >= 0) return { x, y };
    }
  }
  return undefined;
}

function searchCounts(history: LevelHistory): Map<number, number> {
  const counts = new Map<number, number>();
  let last: Cell | undefined;
  let count = 1;
  for (const s of history.sections) {
    const at = findHero(mapOf(s), last);
    if (at) last = at;
    if (s.action !== undefined && /^\d+$/.test(s.action)) count = Number(s.action);
    if (s.action === "search" && last) {
      const k = last.y * 80 + last.x;
      counts.set(k, (counts.get(k) ?? 0) + count);
      count = 1;
    }
  }
  return counts;
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
