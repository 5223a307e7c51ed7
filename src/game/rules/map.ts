// ASCII level maps shared by the tile-based rule kinds: one string per row, one character per tile.
// Only parsing and lookup live here; what each character means belongs to each rule kind.
import * as v from "valibot";

export const mapSchema = v.pipe(v.array(v.string()), v.minLength(1, "a map needs at least one row"));

export interface TileMap {
  readonly width: number;
  readonly height: number;
  readonly rows: readonly string[];
}

export function tileMap(rows: readonly string[]): TileMap {
  return { width: rows[0]?.length ?? 0, height: rows.length, rows };
}

export function charAt(map: TileMap, x: number, y: number): string {
  if (x < 0 || y < 0 || x >= map.width || y >= map.height) return "#";
  return map.rows[y]?.[x] ?? "#";
}

export function findAll(map: TileMap, chars: string): { x: number; y: number }[] {
  const found: { x: number; y: number }[] = [];
  map.rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (chars.includes(row[x] ?? "")) found.push({ x, y });
  });
  return found;
}

/** Rectangular, only `allowed` characters, exactly one of each char in `once`, at least one of each in `some`. */
export function checkMap(
  rows: readonly string[],
  allowed: string,
  once: string,
  some = "",
): { field: string; problem: string } | undefined {
  const width = rows[0]?.length ?? 0;
  for (let y = 0; y < rows.length; y++) {
    const row = rows[y] ?? "";
    if (row.length !== width) return { field: `map[${y}]`, problem: `row is ${row.length} wide, row 0 is ${width}` };
    for (const ch of row) {
      if (!allowed.includes(ch)) return { field: `map[${y}]`, problem: `unknown tile '${ch}' (allowed: ${allowed})` };
    }
  }
  const map = tileMap(rows);
  for (const ch of once) {
    const n = findAll(map, ch).length;
    if (n !== 1) return { field: "map", problem: `needs exactly one '${ch}', found ${n}` };
  }
  for (const ch of some) {
    if (findAll(map, ch).length === 0) return { field: "map", problem: `needs at least one '${ch}'` };
  }
  if (width > 64 || rows.length > 62)
    return { field: "map", problem: `${width}x${rows.length} tiles do not fit on the 64x62 board` };
  return undefined;
}
