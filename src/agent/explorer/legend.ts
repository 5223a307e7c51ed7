// Legends: a tile of a tile grid drawn as a small k×k picture (k = 3) of its own neighbourhood. The centre
// cell has a colour C; each outer cell is one of a few symbol colours and stands for the neighbouring tile in
// that direction. The usual reading: the neighbours drawn in one symbol colour should have colour C, the
// others should not. Which symbol means "C" is not known in advance; it is taken, in order, from what the
// previous levels showed (the board just before a level was won), from examples on the board (legends whose
// neighbours all already agree with one reading), or else the symbol drawn least often (the smaller set of
// neighbours to change). The tiles that disagree with the reading are worth clicking first: a click game
// with a legend is a puzzle to make the grid agree with it. Nothing here knows any game; it reads the board.
// A legend at the grid's edge draws the places where no tile stands in a third symbol of its own. A tile may be
// drawn in two colours (its colour at the centre and the corners, a second colour between): such a tile can
// change its neighbours when clicked, so it goes before the plain tiles, which are set after it.
import { solveFlips } from "./flips.ts";
import type { Segmentation } from "./segment.ts";

/** Cells per side of a legend's picture. */
const K = 3;
const MIN_TILE = 3;
const MAX_TILE = 16;
/** Tiles of one size needed before a grid of them is believed. */
const MIN_TILES = 4;

interface Legend {
  /** The centre's colour. */
  readonly centre: number;
  /** The grid's tile side and pitch. */
  readonly size: number;
  readonly px: number;
  readonly py: number;
  /** Per outer cell: the symbol colour and the neighbouring tile's top-left corner (undefined off the grid). */
  readonly cells: {
    readonly symbol: number;
    readonly x: number;
    readonly y: number;
    readonly colour: number;
    /** Drawn in two colours (see above): its click may change its neighbours too. */
    readonly patterned: boolean;
  }[];
}

export interface LegendReading {
  /** The symbol colour read as "should have the centre's colour". */
  readonly symbol: number;
  /** Click cells of the tiles that disagree with the reading, two-colour tiles first. */
  readonly clicks: { readonly x: number; readonly y: number; readonly patterned: boolean }[];
}

/** Colour per cell from a segmentation (-1 where masked). */
function colours(seg: Segmentation): Int16Array {
  const out = new Int16Array(seg.labels.length);
  for (let i = 0; i < out.length; i++) {
    const id = seg.labels[i]!;
    out[i] = id < 0 ? -1 : seg.components[id]!.color;
  }
  return out;
}

/** The colour of a uniform s×s block at (x, y), or -1 when it is not uniform or leaves the board. */
function uniform(cells: Int16Array, width: number, height: number, x: number, y: number, s: number): number {
  if (x < 0 || y < 0 || x + s > width || y + s > height) return -1;
  const c = cells[y * width + x]!;
  for (let dy = 0; dy < s; dy++) for (let dx = 0; dx < s; dx++) if (cells[(y + dy) * width + x + dx] !== c) return -1;
  return c;
}

/** The colour of the s×s tile (a whole component, nothing more) with its top-left corner at (x, y), or -1. */
function tileAt(seg: Segmentation, x: number, y: number, s: number): number {
  if (x < 0 || y < 0 || x + s > seg.width || y + s > seg.height) return -1;
  const id = seg.labels[y * seg.width + x]!;
  if (id < 0) return -1;
  const c = seg.components[id]!;
  return c.minX === x && c.minY === y && c.maxX === x + s - 1 && c.maxY === y + s - 1 && c.size === s * s ? c.color : -1;
}

/** The K×K picture of the s×s block at (x, y) (one colour per sub-block), or undefined when a sub-block is not uniform. */
function pictureAt(cells: Int16Array, width: number, height: number, x: number, y: number, s: number): number[] | undefined {
  const sub = s / K;
  const picture: number[] = [];
  for (let b = 0; b < K; b++)
    for (let a = 0; a < K; a++) picture.push(uniform(cells, width, height, x + a * sub, y + b * sub, sub));
  return picture.some((c) => c < 0) ? undefined : picture;
}

/** Whether a picture is a two-colour tile: two colours, the centre's colour also in the four corners. */
function twoColourTile(picture: readonly number[]): boolean {
  const centre = picture[(K * K - 1) / 2]!;
  const corners = [0, K - 1, K * (K - 1), K * K - 1].map((i) => picture[i]!);
  return new Set(picture).size === 2 && corners.every((c) => c === centre);
}

/** The tile of the grid at (x, y): a whole one-colour component, or a two-colour tile (its centre's colour). */
function gridTileAt(
  seg: Segmentation,
  cells: Int16Array,
  x: number,
  y: number,
  s: number,
): { colour: number; patterned: boolean } | undefined {
  const tile = gridTileWithFlips(seg, cells, x, y, s);
  return tile && { colour: tile.colour, patterned: tile.patterned };
}

/** As gridTileAt, with the neighbours (in tile steps) a two-colour tile's pattern points at. */
function gridTileWithFlips(
  seg: Segmentation,
  cells: Int16Array,
  x: number,
  y: number,
  s: number,
): { colour: number; patterned: boolean; flips: { dx: number; dy: number }[] } | undefined {
  const colour = tileAt(seg, x, y, s);
  if (colour >= 0) return { colour, patterned: false, flips: [] };
  const picture = s % K === 0 ? pictureAt(cells, seg.width, seg.height, x, y, s) : undefined;
  if (!picture || !twoColourTile(picture)) return undefined;
  const centre = picture[(K * K - 1) / 2]!;
  const flips: { dx: number; dy: number }[] = [];
  for (let i = 0; i < K * K; i++)
    if (picture[i] !== centre) flips.push({ dx: (i % K) - (K - 1) / 2, dy: Math.floor(i / K) - (K - 1) / 2 });
  return { colour: centre, patterned: true, flips };
}

/** The legends on a board: grids of square tiles with a pitch, and blocks of the grid drawn as K×K pictures. */
export function findLegends(seg: Segmentation): Legend[] {
  const { width, height } = seg;
  const cells = colours(seg);
  const bySize = new Map<number, { x: number; y: number }[]>();
  for (const c of seg.components) {
    const w = c.maxX - c.minX + 1;
    const h = c.maxY - c.minY + 1;
    if (w !== h || w < MIN_TILE || w > MAX_TILE || w % K !== 0) continue;
    // A whole one-colour tile, or the larger colour of a two-colour tile (a grid may have no plain tile at all).
    if (c.size !== w * h && !gridTileAt(seg, cells, c.minX, c.minY, w)?.patterned) continue;
    let list = bySize.get(w);
    if (!list) bySize.set(w, (list = []));
    list.push({ x: c.minX, y: c.minY });
  }
  const out: Legend[] = [];
  for (const [s, tiles] of bySize) {
    if (tiles.length < MIN_TILES) continue;
    const px = commonGap(tiles, s, "x");
    const py = commonGap(tiles, s, "y");
    if (px === undefined || py === undefined) continue;
    const seen = new Set<string>();
    for (const t of tiles) {
      // Blocks on the grid next to a tile that are no tile: legend candidates.
      for (const [gx, gy] of [
        [t.x - px, t.y],
        [t.x + px, t.y],
        [t.x, t.y - py],
        [t.x, t.y + py],
      ] as const) {
        const key = `${gx},${gy}`;
        if (seen.has(key) || gx < 0 || gy < 0 || gx + s > width || gy + s > height) continue;
        seen.add(key);
        if (uniform(cells, width, height, gx, gy, s) >= 0) continue;
        const picture = pictureAt(cells, width, height, gx, gy, s);
        if (!picture) continue;
        const centre = picture[(K * K - 1) / 2]!;
        // A legend's centre stands out from its symbols (a two-colour tile repeats its centre in its corners).
        if (picture.some((c, i) => c === centre && i !== (K * K - 1) / 2)) continue;
        const legendCells: Legend["cells"][number][] = [];
        const absent = new Set<number>();
        for (let b = 0; b < K; b++)
          for (let a = 0; a < K; a++) {
            if (a === (K - 1) / 2 && b === (K - 1) / 2) continue;
            const x = gx + (a - (K - 1) / 2) * px;
            const y = gy + (b - (K - 1) / 2) * py;
            const tile = gridTileAt(seg, cells, x, y, s);
            if (tile) legendCells.push({ symbol: picture[b * K + a]!, x, y, ...tile });
            else absent.add(picture[b * K + a]!);
          }
        const symbols = new Set(legendCells.map((c) => c.symbol));
        // Every place without a tile drawn in one symbol of its own, and the tiles in two others: a picture of
        // part of a neighbourhood that does not say where the grid ends is too easily a pattern by chance.
        const [none, ...more] = absent;
        const edgeOk = none === undefined || (more.length === 0 && !symbols.has(none) && legendCells.length >= MIN_TILES - 1);
        if (edgeOk && symbols.size === 2) out.push({ centre, size: s, px, py, cells: legendCells });
      }
    }
  }
  return out;
}

/** The commonest distance (more than the tile's side, at most twice it plus two) between tiles in a row or column. */
function commonGap(tiles: readonly { x: number; y: number }[], s: number, axis: "x" | "y"): number | undefined {
  const counts = new Map<number, number>();
  const other = axis === "x" ? "y" : "x";
  for (const a of tiles)
    for (const b of tiles) {
      if (a[other] !== b[other]) continue;
      const d = b[axis] - a[axis];
      if (d > s && d <= 2 * s + 2) counts.set(d, (counts.get(d) ?? 0) + 1);
    }
  let best: number | undefined;
  for (const [d, n] of counts) if (best === undefined || n > counts.get(best)! || (n === counts.get(best)! && d < best)) best = d;
  return best;
}

/** Whether a neighbour agrees with the reading "symbol means the centre's colour". */
const agrees = (l: Legend, c: Legend["cells"][number], symbol: number) =>
  c.symbol === symbol ? c.colour === l.centre : c.colour !== l.centre;

/** The symbol that reads the board best: legends whose neighbours all agree (examples), then the most agreeing neighbours. */
export function bestReading(legends: readonly Legend[]): { symbol: number; agreeing: number } | undefined {
  const symbols = [...new Set(legends.flatMap((l) => l.cells.map((c) => c.symbol)))].sort((a, b) => a - b);
  let best: { symbol: number; whole: number; agreeing: number } | undefined;
  for (const symbol of symbols) {
    let whole = 0;
    let agreeing = 0;
    for (const l of legends) {
      const n = l.cells.filter((c) => agrees(l, c, symbol)).length;
      agreeing += n;
      if (n === l.cells.length) whole++;
    }
    if (!best || whole > best.whole || (whole === best.whole && agreeing > best.agreeing)) best = { symbol, whole, agreeing };
  }
  return best && { symbol: best.symbol, agreeing: best.agreeing };
}

/**
 * The tiles to click on this board: those that disagree with the reading. `learned` is the symbol earlier
 * levels were won with, if any. Legends whose neighbours all agree are examples (or done) and ask for nothing.
 */
export function readLegends(seg: Segmentation, learned?: number): LegendReading | undefined {
  const legends = findLegends(seg);
  if (legends.length === 0) return undefined;
  const symbols = new Set(legends.flatMap((l) => l.cells.map((c) => c.symbol)));
  let symbol: number | undefined = learned !== undefined && symbols.has(learned) ? learned : undefined;
  if (symbol === undefined) {
    const examples = bestReading(legends);
    const anyWhole = examples && legends.some((l) => l.cells.every((c) => agrees(l, c, examples.symbol)));
    if (examples && anyWhole) symbol = examples.symbol;
    else symbol = leastDrawn(legends);
  }
  const side = (x: number, y: number) => {
    const id = seg.labels[y * seg.width + x]!;
    return id < 0 ? undefined : seg.components[id]!;
  };
  const solved = solvedClicks(seg, legends, symbol);
  if (solved) {
    const clicks = solved.flatMap((t) => {
      const c = side(t.x, t.y);
      return c ? [{ x: c.clickX, y: c.clickY, patterned: t.patterned }] : [];
    });
    return { symbol, clicks: clicks.sort((a, b) => Number(b.patterned) - Number(a.patterned)) };
  }
  const clicks: { x: number; y: number; patterned: boolean }[] = [];
  const seen = new Set<string>();
  for (const l of legends) {
    if (l.cells.every((c) => agrees(l, c, symbol!))) continue;
    for (const c of l.cells) {
      if (agrees(l, c, symbol) || seen.has(`${c.x},${c.y}`)) continue;
      seen.add(`${c.x},${c.y}`);
      const tile = side(c.x, c.y);
      if (tile) clicks.push({ x: tile.clickX, y: tile.clickY, patterned: c.patterned });
    }
  }
  // Two-colour tiles first: what their clicks change around them, the plain tiles' clicks set right after.
  clicks.sort((a, b) => Number(b.patterned) - Number(a.patterned));
  return { symbol, clicks };
}

/**
 * When some tile is drawn with a pattern (its click flips neighbours too): the tiles whose clicks together
 * make every legend agree, each click taken to flip the tile (between two colours) and the neighbours its
 * pattern points at. Undefined without patterned tiles (each disagreeing tile is then its own click) or
 * when no set of clicks does it.
 */
function solvedClicks(
  seg: Segmentation,
  legends: readonly Legend[],
  symbol: number,
): { x: number; y: number; patterned: boolean }[] | undefined {
  const cells = colours(seg);
  const wanted = new Map<string, boolean>();
  for (const l of legends)
    for (const c of l.cells) if (!wanted.has(`${c.x},${c.y}`)) wanted.set(`${c.x},${c.y}`, !agrees(l, c, symbol));
  if (![...wanted.values()].some(Boolean) || !legends.some((l) => l.cells.some((c) => c.patterned))) return undefined;
  const tiles: { x: number; y: number; patterned: boolean }[] = [];
  const effects: string[][] = [];
  const seen = new Set<string>();
  for (const l of legends)
    for (const c of l.cells)
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const x = c.x + dx * l.px;
          const y = c.y + dy * l.py;
          if (seen.has(`${x},${y}`)) continue;
          seen.add(`${x},${y}`);
          const tile = gridTileWithFlips(seg, cells, x, y, l.size);
          if (!tile) continue;
          const effect = [`${x},${y}`, ...tile.flips.map((f) => `${x + f.dx * l.px},${y + f.dy * l.py}`)];
          if (!effect.some((k) => wanted.has(k))) continue;
          tiles.push({ x, y, patterned: tile.patterned });
          effects.push(effect);
        }
  const answer = solveFlips(effects, wanted);
  return answer && answer.map((i) => tiles[i]!);
}

/** The symbol drawn on the fewest outer cells (ties to the lower colour). */
function leastDrawn(legends: readonly Legend[]): number {
  const counts = new Map<number, number>();
  for (const l of legends) for (const c of l.cells) counts.set(c.symbol, (counts.get(c.symbol) ?? 0) + 1);
  let best = -1;
  for (const [s, n] of counts) if (best < 0 || n < counts.get(best)! || (n === counts.get(best)! && s < best)) best = s;
  return best;
}

/** The reading the legends on a board agree with most (the board just before a level was won), if any. */
export function legendSymbolOf(seg: Segmentation): number | undefined {
  const legends = findLegends(seg);
  return legends.length === 0 ? undefined : bestReading(legends)?.symbol;
}
