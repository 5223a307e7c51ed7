// Twin panels: a board that shows the same drawing twice, side by side (or one above the other), where a
// few parts differ only in colour. The usual reading: one copy is the goal, the other the work, and each
// differing part is a switch to flip. The clicks worth trying first are the differing parts. Which copy is
// the work is not guessed here: targets.ts orders the two by what earlier clicks nearby did. Nothing here
// knows any game; it reads nothing when the board has no such pair of copies.
import type { Component, Segmentation } from "./segment.ts";

/** Parts are small things: at most this many cells, and at least two (single cells are too often noise). */
const MAX_PART = 64;
const MIN_PART = 2;
/** Unpaired parts of the paired shapes in the copies' area: fewer than one per this many pairs. */
const MAX_STRAY_SHARE_INVERSE = 4;
/** Shifts weighed, most votes first: bounds the cost on busy boards. */
const MAX_SHIFTS = 32;
/** Parts that must line up under one shift before two regions are believed to be copies. */
const MIN_PAIRS = 6;
/** At most this share of the lined-up parts may differ: copies agree mostly. */
const MAX_DIFFERING_SHARE = 0.5;

export interface TwinsReading {
  /** The shift from the first copy to the second. */
  readonly dx: number;
  readonly dy: number;
  /** Parts lined up under the shift. */
  readonly pairs: number;
  /** The places to click: both parts of every pair that differs in colour, first copy's part first. */
  readonly clicks: readonly { readonly x: number; readonly y: number }[];
  /** Every lined-up part of both copies: once the copies agree (no clicks), clicking one would undo that. */
  readonly parts: readonly { readonly x: number; readonly y: number }[];
}

const shape = (c: Component) => `${c.maxX - c.minX + 1}x${c.maxY - c.minY + 1}:${c.size}`;

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function boxOf(cs: readonly Box[]): Box {
  return {
    minX: Math.min(...cs.map((c) => c.minX)),
    minY: Math.min(...cs.map((c) => c.minY)),
    maxX: Math.max(...cs.map((c) => c.maxX)),
    maxY: Math.max(...cs.map((c) => c.maxY)),
  };
}

const overlap = (a: Box, b: Box) => a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;

/** The widest empty stretch between the parts, along x (`across`) or y. */
function widestGap(parts: readonly Component[], across: boolean): number {
  const spans = parts.map((c) => (across ? [c.minX, c.maxX] : [c.minY, c.maxY]) as [number, number]).sort((a, b) => a[0] - b[0]);
  let widest = 0;
  let reach = spans[0]![1];
  for (const [lo, hi] of spans.slice(1)) {
    widest = Math.max(widest, lo - reach - 1);
    reach = Math.max(reach, hi);
  }
  return widest;
}

/** The board's twin copies and their differing parts (none once they agree), or undefined when it shows no two copies. */
export function readTwins(seg: Segmentation): TwinsReading | undefined {
  const small = seg.components.filter((c) => c.size >= MIN_PART && c.size <= MAX_PART && !c.touchesEdge);
  const byShape = new Map<string, Component[]>();
  for (const c of small) {
    const k = shape(c);
    const g = byShape.get(k);
    if (g) g.push(c);
    else byShape.set(k, [c]);
  }
  // Every shift that carries a part onto a part of the same shape gets a vote; the copies' shift gets many.
  const votes = new Map<string, number>();
  for (const g of byShape.values()) {
    for (const a of g)
      for (const b of g) {
        const dx = b.minX - a.minX;
        const dy = b.minY - a.minY;
        if (dx < 0 || (dx === 0 && dy <= 0)) continue;
        const k = `${dx},${dy}`;
        votes.set(k, (votes.get(k) ?? 0) + 1);
      }
  }
  const shifts = [...votes.entries()].filter(([, n]) => n >= MIN_PAIRS).sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1));
  const at = new Map<string, Component>();
  for (const c of small) at.set(`${c.minX},${c.minY},${shape(c)}`, c);
  for (const [k] of shifts.slice(0, MAX_SHIFTS)) {
    const [dx, dy] = k.split(",").map(Number) as [number, number];
    const pairs: [Component, Component][] = [];
    for (const a of small) {
      const b = at.get(`${a.minX + dx},${a.minY + dy},${shape(a)}`);
      if (b) pairs.push([a, b]);
    }
    // Copies are two separate regions: a shift inside one repeating pattern (a grid of tiles) is no copy.
    if (pairs.length < MIN_PAIRS) continue;
    const first = boxOf(pairs.map((p) => p[0]));
    const second = boxOf(pairs.map((p) => p[1]));
    if (overlap(first, second)) continue;
    // Two halves of one evenly spaced array are no copies: the space between the copies is wider than any
    // space between parts inside one.
    const across = first.maxX < second.minX;
    const between = across ? second.minX - first.maxX - 1 : second.minY - first.maxY - 1;
    if (
      between <=
      widestGap(
        pairs.map((p) => p[0]),
        across,
      )
    )
      continue;
    // ...and rows 1 and 3 of one array of parts are no copies either: the copies account for nearly every
    // part of their shapes in the area they span together (a lookalike elsewhere in that area may be spared).
    const span = boxOf([first, second]);
    const paired = new Set(pairs.flatMap(([a, b]) => [a.id, b.id]));
    const shapes = new Set(pairs.map(([a]) => shape(a)));
    const strays = small.filter(
      (c) =>
        !paired.has(c.id) &&
        shapes.has(shape(c)) &&
        c.clickX >= span.minX &&
        c.clickX <= span.maxX &&
        c.clickY >= span.minY &&
        c.clickY <= span.maxY,
    );
    if (strays.length * MAX_STRAY_SHARE_INVERSE >= pairs.length) continue;
    const differing = pairs.filter(([a, b]) => a.color !== b.color);
    if (differing.length > pairs.length * MAX_DIFFERING_SHARE) continue;
    const at2 = (c: Component) => ({ x: c.clickX, y: c.clickY });
    const clicks = differing.flatMap(([a, b]) => [at2(a), at2(b)]);
    return { dx, dy, pairs: pairs.length, clicks, parts: pairs.flatMap(([a, b]) => [at2(a), at2(b)]) };
  }
  return undefined;
}
