// The dungeon map as the built-in agent sees it: the 21 map rows of the newest screen, where the hero
// stands, which squares can be walked, and shortest paths (doors are entered and left orthogonally). Moves
// that the log shows failed on this level (`blocked`) and squares to keep off (`avoid`) are respected too.

export const MAP_ROWS = 21;
export const MAP_COLS = 80;

export interface Cell {
  readonly x: number;
  readonly y: number;
}

export const DIRECTIONS = [
  { name: "north", key: "k", dx: 0, dy: -1 },
  { name: "south", key: "j", dx: 0, dy: 1 },
  { name: "west", key: "h", dx: -1, dy: 0 },
  { name: "east", key: "l", dx: 1, dy: 0 },
  { name: "northwest", key: "y", dx: -1, dy: -1 },
  { name: "northeast", key: "u", dx: 1, dy: -1 },
  { name: "southwest", key: "b", dx: -1, dy: 1 },
  { name: "southeast", key: "n", dx: 1, dy: 1 },
] as const;
export type Direction = (typeof DIRECTIONS)[number];

export function directionNamed(name: string | undefined): Direction | undefined {
  return DIRECTIONS.find((d) => d.name === name);
}

/** The key of a square in sets and maps. */
export function cellKey(x: number, y: number): number {
  return y * MAP_COLS + x;
}

/** The key of a move: from a square, in a direction. */
export function edgeKey(from: Cell, d: Direction): string {
  return `${from.x},${from.y},${d.name}`;
}

/** Objects lying on the floor ('+' is a spellbook when it is not set in a wall). */
const OBJECTS = new Set([")", "[", "%", "?", "!", "/", "=", '"', "*", "(", "$", "`", "0"]);

/** Glyphs a hero can stand on: floor, corridor, stairs, fountain, altar, sink, items, doorways. */
const FLOOR = new Set([".", "#", "<", ">", "{", "_", "+", "-", "|", ...OBJECTS]);

/** What the map knows beyond the screen: failed moves, squares to keep off, '+' that are not doors. */
export interface MapMemory {
  readonly blocked?: ReadonlySet<string>;
  readonly avoid?: ReadonlySet<number>;
  readonly notDoors?: ReadonlySet<number>;
  /** Directions are tried in this many steps of rotation (ties between equal paths go another way). */
  readonly rotate?: number;
}

export class DungeonMap {
  constructor(
    readonly rows: readonly string[],
    readonly memory: MapMemory = {},
  ) {}

  private get order(): readonly Direction[] {
    const r = (this.memory.rotate ?? 0) % DIRECTIONS.length;
    return r === 0 ? DIRECTIONS : [...DIRECTIONS.slice(r), ...DIRECTIONS.slice(0, r)];
  }

  at(x: number, y: number): string {
    if (y < 0 || y >= MAP_ROWS || x < 0 || x >= MAP_COLS) return " ";
    return this.rows[y]?.[x] ?? " ";
  }

  private isWall(x: number, y: number): boolean {
    const g = this.at(x, y);
    return g === "-" || g === "|";
  }

  /**
   * An open door in a wall: '-' between '|' above and below, '|' between '-' left and right, or with open
   * ground (floor, corridor) on the two sides it is passed through (a wall has rock on one of them). A '-'
   * with a '|' on one side only is a room's corner, not a door.
   */
  isOpenDoor(x: number, y: number): boolean {
    const c = this.at(x, y);
    if (c !== "-" && c !== "|") return false;
    if (c === "-" && this.at(x, y - 1) === "|" && this.at(x, y + 1) === "|") return true;
    if (c === "|" && this.at(x - 1, y) === "-" && this.at(x + 1, y) === "-") return true;
    if (c === "-" && (this.at(x, y - 1) === "|") !== (this.at(x, y + 1) === "|")) return false;
    if (c === "|" && (this.at(x - 1, y) === "-") !== (this.at(x + 1, y) === "-")) return false;
    if (c === "-" && (this.at(x - 1, y) === "-" || this.at(x + 1, y) === "-")) return false;
    if (c === "|" && (this.at(x, y - 1) === "|" || this.at(x, y + 1) === "|")) return false;
    const open = (g: string) => g === "." || g === "#" || g === "@" || OBJECTS.has(g);
    // An open door in a vertical wall is drawn '-' and passed east-west; in a horizontal wall '|', passed north-south.
    if (c === "-") return open(this.at(x - 1, y)) && open(this.at(x + 1, y));
    return open(this.at(x, y - 1)) && open(this.at(x, y + 1));
  }

  /** A closed door: '+' set in a wall line (elsewhere '+' is a spellbook lying on the floor). */
  isClosedDoor(x: number, y: number): boolean {
    if (this.at(x, y) !== "+" || this.memory.notDoors?.has(cellKey(x, y))) return false;
    const inRow = this.isWall(x - 1, y) || this.isWall(x + 1, y);
    const inColumn = this.isWall(x, y - 1) || this.isWall(x, y + 1);
    const roomAround = [-1, 0, 1].every((dy) => [-1, 0, 1].every((dx) => this.at(x + dx, y + dy) !== " "));
    return inRow || inColumn || !roomAround;
  }

  /**
   * A door or a doorway: a closed door, an open door, or any square set in a wall line ('-' on both sides, or
   * '|' above and below) — the hero or an item may hide what it is, and diagonal moves through doorways fail.
   */
  isDoor(x: number, y: number): boolean {
    if (this.isClosedDoor(x, y) || this.isOpenDoor(x, y)) return true;
    const inHorizontalWall = this.at(x - 1, y) === "-" && this.at(x + 1, y) === "-";
    const inVerticalWall = this.at(x, y - 1) === "|" && this.at(x, y + 1) === "|";
    return inHorizontalWall || inVerticalWall;
  }

  walkable(x: number, y: number): boolean {
    const c = this.at(x, y);
    if (c === "-" || c === "|") return this.isOpenDoor(x, y);
    if (c === "^") return false; // a known trap: never planned through
    return FLOOR.has(c);
  }

  isMonster(x: number, y: number): boolean {
    return /[a-zA-Z&:;'@~]/.test(this.at(x, y));
  }

  /** A move from a to a+d is legal on this map (no diagonal into or out of a doorway; not known to fail). */
  canStep(a: Cell, d: Direction): boolean {
    const bx = a.x + d.dx;
    const by = a.y + d.dy;
    if (!this.walkable(bx, by) && !this.isMonster(bx, by)) return false;
    if (d.dx !== 0 && d.dy !== 0 && (this.isDoor(a.x, a.y) || this.isDoor(bx, by))) return false;
    if (this.memory.blocked?.has(edgeKey(a, d))) return false;
    return true;
  }

  private enterable(x: number, y: number): boolean {
    return !this.memory.avoid?.has(cellKey(x, y));
  }

  /** Every square reachable from `from` (monsters block), with its distance in moves. */
  reachable(from: Cell): { cell: Cell; steps: number }[] {
    const order = this.order;
    const out = [{ cell: from, steps: 0 }];
    const seen = new Set([cellKey(from.x, from.y)]);
    for (let i = 0; i < out.length; i++) {
      const { cell, steps } = out[i]!;
      for (const d of order) {
        const nx = cell.x + d.dx;
        const ny = cell.y + d.dy;
        const k = cellKey(nx, ny);
        if (seen.has(k) || !this.canStep(cell, d) || this.isMonster(nx, ny) || !this.enterable(nx, ny)) continue;
        seen.add(k);
        out.push({ cell: { x: nx, y: ny }, steps: steps + 1 });
      }
    }
    return out;
  }

  /** Breadth-first from `from` to the nearest cell satisfying `goal`; the path's directions, or undefined. */
  pathTo(from: Cell, goal: (x: number, y: number) => boolean): Direction[] | undefined {
    const order = this.order;
    const prev = new Map<number, { from: number; d: Direction }>();
    const queue: Cell[] = [from];
    const seen = new Set([cellKey(from.x, from.y)]);
    for (let i = 0; i < queue.length; i++) {
      const c = queue[i]!;
      if (i > 0 && goal(c.x, c.y)) {
        const path: Direction[] = [];
        let k = cellKey(c.x, c.y);
        while (k !== cellKey(from.x, from.y)) {
          const p = prev.get(k)!;
          path.push(p.d);
          k = p.from;
        }
        return path.reverse();
      }
      for (const d of order) {
        const nx = c.x + d.dx;
        const ny = c.y + d.dy;
        const k = cellKey(nx, ny);
        if (seen.has(k) || !this.canStep(c, d)) continue;
        // Monsters are fought, not walked through, and avoided squares are kept off: only a goal may be either.
        if ((this.isMonster(nx, ny) || !this.enterable(nx, ny)) && !goal(nx, ny)) continue;
        seen.add(k);
        prev.set(k, { from: cellKey(c.x, c.y), d });
        queue.push({ x: nx, y: ny });
      }
    }
    return undefined;
  }
}

/** Every '@' on the map. */
export function heroCandidates(map: DungeonMap): Cell[] {
  const found: Cell[] = [];
  for (let y = 0; y < MAP_ROWS; y++) {
    const row = map.rows[y] ?? "";
    for (let x = row.indexOf("@"); x >= 0; x = row.indexOf("@", x + 1)) found.push({ x, y });
  }
  return found;
}

/** The hero among the '@' on the map: the one nearest to where it last stood (or the first). */
export function findHero(map: DungeonMap, last: Cell | undefined): Cell | undefined {
  const found = heroCandidates(map);
  if (found.length <= 1 || last === undefined) return found[0];
  return found.reduce((best, c) => (dist(c, last) < dist(best, last) ? c : best));
}

export function dist(a: Cell, b: Cell): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
}
