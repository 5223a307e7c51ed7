// Destinations: a board that marks where things go with dotted outlines (a ring of single dots around an
// empty middle) in the colour of the thing that should go there. Games that move things by clicks usually
// work as "click a thing to pick it, then click where it should go". After a click that changed the board,
// the thing clicked may be picked: the middles of outlines drawn in a colour the thing carries are the clicks
// worth trying next. Nothing here knows any game; it reads nothing when no outline shares a colour with the
// thing clicked.
import type { Component, Segmentation } from "./segment.ts";

/**
 * Outlines are dotted: single cells or pairs, at least MIN_DOTS of them. Solid frames are left out: a frame
 * is as often a slot, a panel or a glyph as a target, and a thing's own drawing is often a solid ring.
 */
const MAX_PIECE = 2;
const MIN_DOTS = 4;
/** Pieces of one colour this close (cells between their boxes) belong to one outline. */
const GAP = 1;
/** An outline spans at least this many cells each way (its middle is inside it). */
const MIN_SPAN = 3;
/** Cells around the click whose colours the thing clicked carries (its body, a mark drawn inside it). */
const CARRY_RADIUS = 2;
/** Cells around an outline's box where no other dot of its colour may be. */
const ISOLATION = 3;
/** A ring's nearest cell to its middle is at least this share of its farthest's distance. */
const ROUNDNESS = 0.6;
/** Pieces weighed: bounds the cost on boards of many dots. */
const MAX_PIECES = 400;

export interface Destination {
  readonly x: number;
  readonly y: number;
  /** The outline's colour. */
  readonly color: number;
}

/** Outlines per board (a board's segmentation is made once per state and read again by each plan). */
const read = new WeakMap<Segmentation, Destination[]>();

/** Every hollow outline on the board: its middle and colour. */
export function outlines(seg: Segmentation): Destination[] {
  let out = read.get(seg);
  if (!out) read.set(seg, (out = readOutlines(seg)));
  return out;
}

function readOutlines(seg: Segmentation): Destination[] {
  const pieces = seg.components.filter((c) => c.size <= MAX_PIECE && !c.touchesEdge).slice(0, MAX_PIECES);
  // Union of same-colour pieces whose boxes are at most GAP cells apart.
  const parent = pieces.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < pieces.length; i++)
    for (let j = i + 1; j < pieces.length; j++) {
      const a = pieces[i]!;
      const b = pieces[j]!;
      if (a.color !== b.color) continue;
      const gapX = Math.max(a.minX, b.minX) - Math.min(a.maxX, b.maxX) - 1;
      const gapY = Math.max(a.minY, b.minY) - Math.min(a.maxY, b.maxY) - 1;
      if (gapX <= GAP && gapY <= GAP) parent[find(i)] = find(j);
    }
  const groups = new Map<number, Component[]>();
  for (let i = 0; i < pieces.length; i++) {
    const r = find(i);
    const g = groups.get(r);
    if (g) g.push(pieces[i]!);
    else groups.set(r, [pieces[i]!]);
  }
  const out: Destination[] = [];
  for (const g of groups.values()) {
    const minX = Math.min(...g.map((c) => c.minX));
    const maxX = Math.max(...g.map((c) => c.maxX));
    const minY = Math.min(...g.map((c) => c.minY));
    const maxY = Math.max(...g.map((c) => c.maxY));
    if (g.length < MIN_DOTS) continue;
    // A figure on its own: no other dot of its colour close by (a dotted texture makes rings everywhere).
    const root = find(pieces.indexOf(g[0]!));
    if (
      pieces.some(
        (c, i) =>
          c.color === g[0]!.color &&
          find(i) !== root &&
          c.maxX >= minX - ISOLATION &&
          c.minX <= maxX + ISOLATION &&
          c.maxY >= minY - ISOLATION &&
          c.minY <= maxY + ISOLATION,
      )
    )
      continue;
    if (maxX - minX + 1 < MIN_SPAN || maxY - minY + 1 < MIN_SPAN) continue;
    const x = Math.floor((minX + maxX) / 2);
    const y = Math.floor((minY + maxY) / 2);
    const color = g[0]!.color;
    // Empty in the middle: the middle shows what the outline sits on (a thing with a mark of another
    // colour inside, a piece to pick, is no destination).
    const ground = commonest(g.map((c) => c.surround));
    if (colourAt(seg, x, y) !== ground) continue;
    // Dots on plain ground: the corners of tiles in a grid are dots too, but they touch their tiles.
    if (!g.every((c) => onGround(seg, c, ground))) continue;
    // Hollow: the outline has cells on all four sides of its middle (a diagonal line has two), all about
    // as far from it (a ring, not a patch of texture or a checkerboard).
    if (surrounds(seg, g, x, y) && round(seg, g, x, y)) out.push({ x, y, color });
  }
  return out;
}

/**
 * Where to click after a click at `clickedInto` that changed the board: the middles of the outlines drawn in
 * a colour found at the click (the thing there, or a mark inside it), other than the outline the click is
 * in. Empty when the board draws no such outline.
 */
export function destinationsFor(seg: Segmentation, clickedInto: { readonly x: number; readonly y: number }): Destination[] {
  const all = outlines(seg);
  if (all.length === 0) return [];
  const carried = new Set<number>();
  for (let y = clickedInto.y - CARRY_RADIUS; y <= clickedInto.y + CARRY_RADIUS; y++)
    for (let x = clickedInto.x - CARRY_RADIUS; x <= clickedInto.x + CARRY_RADIUS; x++) {
      const c = colourAt(seg, x, y);
      if (c >= 0) carried.add(c);
    }
  // The thing's surroundings are no part of it: the colour of the biggest component (the background) is
  // carried by every click.
  let biggest: Component | undefined;
  for (const c of seg.components) if (!biggest || c.size > biggest.size) biggest = c;
  if (biggest) carried.delete(biggest.color);
  return all.filter(
    (d) =>
      carried.has(d.color) &&
      (Math.abs(d.x - clickedInto.x) > CARRY_RADIUS + 1 || Math.abs(d.y - clickedInto.y) > CARRY_RADIUS + 1),
  );
}

function commonest(xs: readonly number[]): number {
  const counts = new Map<number, number>();
  let best = -1;
  for (const x of xs) {
    const n = (counts.get(x) ?? 0) + 1;
    counts.set(x, n);
    if (best < 0 || n > counts.get(best)! || (n === counts.get(best)! && x < best)) best = x;
  }
  return best;
}

function colourAt(seg: Segmentation, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= seg.width || y >= seg.height) return -1;
  const id = seg.labels[y * seg.width + x]!;
  return id < 0 ? -1 : seg.components[id]!.color;
}

/** Every cell next to the piece (diagonals too) is the piece's colour or the ground's. */
function onGround(seg: Segmentation, c: Component, ground: number): boolean {
  for (let y = c.minY - 1; y <= c.maxY + 1; y++)
    for (let x = c.minX - 1; x <= c.maxX + 1; x++) {
      const k = colourAt(seg, x, y);
      if (k >= 0 && k !== c.color && k !== ground) return false;
    }
  return true;
}

/** The nearest cell of the pieces to (x, y) is at least ROUNDNESS times as far as the farthest. */
function round(seg: Segmentation, pieces: readonly Component[], x: number, y: number): boolean {
  let near = Infinity;
  let far = 0;
  for (const c of pieces)
    for (let cy = c.minY; cy <= c.maxY; cy++)
      for (let cx = c.minX; cx <= c.maxX; cx++) {
        if (seg.labels[cy * seg.width + cx] !== c.id) continue;
        const d = Math.hypot(cx - x, cy - y);
        near = Math.min(near, d);
        far = Math.max(far, d);
      }
  return near >= ROUNDNESS * far;
}

/** Whether the pieces have cells in each of the four quadrants around (x, y). */
function surrounds(seg: Segmentation, pieces: readonly Component[], x: number, y: number): boolean {
  let quadrants = 0;
  for (const c of pieces)
    for (let cy = c.minY; cy <= c.maxY; cy++)
      for (let cx = c.minX; cx <= c.maxX; cx++) {
        if (cx === x || cy === y || seg.labels[cy * seg.width + cx] !== c.id) continue;
        quadrants |= (cx < x ? 1 : 2) << (cy < y ? 0 : 2);
      }
  // Bits: 1 = left-above, 2 = right-above, 4 = left-below, 8 = right-below.
  return quadrants === 15;
}
