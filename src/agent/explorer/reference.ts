// Reference rows: a puzzle that shows the answer as a row of things of distinct colours (the reference),
// a row of empty slots of one colour to fill, and a palette of pieces in those colours elsewhere on the
// board. The usual play: pick the piece of the colour the reference shows at the next slot, then click that
// slot; when every slot is filled, submit. Read left to right (slots are filled from the left, so the
// number of slots left says which reference colour is next). The slots may be a program with a call: a row
// framed in one colour that shows, among its slots, a mark in the colour of the frame around another row;
// the called row's slots then stand in the calling row where the mark is. Nothing here knows any game; it
// reads the board, and it reads nothing when the three parts are not all there.
import type { Component, Segmentation } from "./segment.ts";

/** Things per row needed before a row is believed to be a reference or a row of slots. */
const MIN_ROW = 2;
/** Things in a reference row: two colours in a row are too common a sight to be an answer. */
const MIN_REFERENCE = 3;
/** Pieces and slots are small things: at most this many cells. */
const MAX_PIECE = 64;

export interface ReferenceReading {
  /** The reference colours, left to right. */
  readonly colours: readonly number[];
  /** The colour the next slot should get. */
  readonly next: number;
  /** Where to click now: the palette piece of the next colour, or the leftmost slot once it is picked. */
  readonly click: { readonly x: number; readonly y: number };
  readonly why: string;
}

const key = (c: Component) => `${c.minY}:${c.maxX - c.minX + 1}x${c.maxY - c.minY + 1}`;

/** Groups of things alike by `same` (on one row), left to right, with at least `least` things. */
function rows(things: readonly Component[], same: (c: Component) => string, least = MIN_ROW): Component[][] {
  const groups = new Map<string, Component[]>();
  for (const c of things) {
    const k = same(c);
    const g = groups.get(k);
    if (g) g.push(c);
    else groups.set(k, [c]);
  }
  return [...groups.values()].filter((g) => g.length >= least).map((g) => g.sort((a, b) => a.minX - b.minX));
}

/** How many rows one reading may chain through calls: bounds the cost and any cycle. */
const MAX_CALL_DEPTH = 4;

/**
 * The places to fill, in order, starting at the row of slots `root`: the slots and the pieces placed across
 * a row (things centred on one line), left to right; where a row shows a call (a mark in the colour of the
 * frame around another row: a program that calls a subprogram), that row's places, recursively. Undefined
 * when a call loops. Also the rows read, whose pieces are placed (the others are the palette).
 */
function placesInOrder(
  seg: Segmentation,
  root: readonly Component[],
  slots: readonly Component[],
  pieces: readonly Component[],
): { places: Component[]; rows: Component[][] } | undefined {
  // Rows: things centred on one line inside one frame (two framed rows side by side are two rows).
  const byRow = new Map<string, Component[]>();
  const frames = new Map<Component[], Component | undefined>();
  for (const c of [...slots, ...pieces]) {
    const frame = frameAround(seg, [c], root[0]!.color);
    const key = `${c.minY + c.maxY}/${frame?.id ?? -1}`;
    const row = byRow.get(key);
    if (row) row.push(c);
    else {
      const fresh = [c];
      byRow.set(key, fresh);
      frames.set(fresh, frame);
    }
  }
  const rows: Component[][] = [];
  const pieceIds = new Set(pieces.map((c) => c.id));
  const expand = (row: Component[], depth: number): Component[] | undefined => {
    if (depth > MAX_CALL_DEPTH || rows.includes(row)) return undefined;
    rows.push(row);
    const own = frames.get(row);
    const inside = (c: Component) => !own || (c.minX > own.minX && c.maxX < own.maxX);
    const items: { x: number; places: Component[] }[] = row.filter(inside).map((c) => ({ x: c.minX, places: [c] }));
    const top = Math.min(...row.map((c) => c.minY));
    const bottom = Math.max(...row.map((c) => c.maxY));
    for (const [other, frame] of frames) {
      if (other === row || !frame || !own || frame.color === own.color) continue;
      // A row beside this one is no call (its frame's sides cross these rows).
      if (Math.min(...other.map((c) => c.minY)) <= bottom && Math.max(...other.map((c) => c.maxY)) >= top) continue;
      const x = markInRow(seg, frame.color, top, bottom, own, pieceIds);
      if (x === undefined) continue;
      const called = expand(other, depth + 1);
      if (!called) return undefined;
      items.push({ x, places: called });
    }
    return items.sort((p, q) => p.x - q.x).flatMap((i) => i.places);
  };
  const start = [...frames.keys()].find((r) => r.includes(root[0]!))!;
  const places = expand(start, 0);
  return places && { places, rows };
}

/** The things of the commonest shape (cell pattern, any colour); ties to the shape seen first. */
function commonestShape(things: readonly Component[]): Component[] {
  const shape = (c: Component) => c.look.slice(c.look.indexOf(":"));
  const counts = new Map<string, number>();
  for (const c of things) counts.set(shape(c), (counts.get(shape(c)) ?? 0) + 1);
  let best: string | undefined;
  for (const [k, n] of counts) if (best === undefined || n > counts.get(best)!) best = k;
  return things.filter((c) => shape(c) === best);
}

/** The smallest component around a row (its frame), neither the row's ground nor of the slots' colour. */
function frameAround(seg: Segmentation, row: readonly Component[], slotColour: number): Component | undefined {
  const minX = Math.min(...row.map((c) => c.minX));
  const maxX = Math.max(...row.map((c) => c.maxX));
  const minY = Math.min(...row.map((c) => c.minY));
  const maxY = Math.max(...row.map((c) => c.maxY));
  const skip = new Set([slotColour, ...row.map((c) => c.surround)]);
  let best: Component | undefined;
  for (const c of seg.components) {
    if (skip.has(c.color) || c.touchesEdge || c.minX >= minX || c.maxX <= maxX || c.minY >= minY || c.maxY <= maxY) continue;
    const area = (c.maxX - c.minX + 1) * (c.maxY - c.minY + 1);
    if (!best || area < (best.maxX - best.minX + 1) * (best.maxY - best.minY + 1)) best = c;
  }
  return best;
}

/**
 * The leftmost x inside the `own` frame's box where rows top–bottom show colour c, on no piece (a piece of
 * that colour placed in a slot is no call).
 */
function markInRow(
  seg: Segmentation,
  c: number,
  top: number,
  bottom: number,
  own: Component,
  pieces: ReadonlySet<number>,
): number | undefined {
  for (let x = own.minX + 1; x < own.maxX; x++)
    for (let y = top; y <= bottom; y++) {
      const id = seg.labels[y * seg.width + x]!;
      if (id >= 0 && !pieces.has(id) && seg.components[id]!.color === c) return x;
    }
  return undefined;
}

/**
 * The reference row of a board and what to click next, or undefined when the board has no reference row,
 * slot row and palette. `clickedInto` is where the click that led to this board landed: on the palette
 * piece of the next colour, that piece is taken as picked and the first empty slot is the next click.
 */
export function readReference(
  seg: Segmentation,
  clickedInto?: { readonly x: number; readonly y: number },
): ReferenceReading | undefined {
  let found = read.get(seg);
  if (found === undefined) read.set(seg, (found = findNext(seg) ?? null));
  if (!found) return undefined;
  const { colours, next, piece, slot } = found;
  const picked =
    clickedInto !== undefined &&
    clickedInto.x >= piece.minX &&
    clickedInto.x <= piece.maxX &&
    clickedInto.y >= piece.minY &&
    clickedInto.y <= piece.maxY;
  const target = picked ? slot : piece;
  return {
    colours,
    next,
    click: { x: target.clickX, y: target.clickY },
    why: picked
      ? `the first empty slot, for the colour-${next} piece picked (the reference row asks for it next)`
      : `the colour-${next} piece the reference row asks for next`,
  };
}

interface NextPlace {
  readonly colours: readonly number[];
  readonly next: number;
  /** The palette piece of the next colour, and the slot it goes to. */
  readonly piece: Component;
  readonly slot: Component;
}

/** Readings per board (a board's segmentation is made once per state; plans read each state again). */
const read = new WeakMap<Segmentation, NextPlace | null>();

function findNext(seg: Segmentation): NextPlace | undefined {
  const small = seg.components.filter((c) => c.size <= MAX_PIECE && !c.touchesEdge);
  // A reference: things of one box size on one row, every colour different.
  const references = rows(small, key, MIN_REFERENCE).filter((g) => new Set(g.map((c) => c.color)).size === g.length);
  // Slots: things of one look (colour and shape) on one row; the last empty slot may be alone.
  const slotRows = rows(small, (c) => `${c.minY}:${c.look}`, 1);
  let best: (NextPlace & { row: number }) | undefined;
  for (const ref of references) {
    const colours = ref.map((c) => c.color);
    const inRef = new Set(ref.map((c) => c.id));
    // A row of pieces that already shows the reference's colours in order is the answer given: nothing to
    // place (the palette's emptied places may look like slots now).
    const answered = rows(
      small.filter((c) => !inRef.has(c.id) && colours.includes(c.color)),
      (c) => `${c.minY}:${c.maxX - c.minX + 1}x${c.maxY - c.minY + 1}`,
    ).some((g) => g.length === colours.length && g.every((c, i) => c.color === colours[i]));
    if (answered) continue;
    // The pieces of the reference's colours, not in the reference, of one shape (the commonest: a mark of an
    // answer colour, a call, is no piece): those in a slot row are placed, the others are the palette.
    const pieces = commonestShape(small.filter((c) => !inRef.has(c.id) && colours.includes(c.color) && c.minY !== ref[0]!.minY));
    for (const slots of slotRows) {
      const slotColour = slots[0]!.color;
      if (colours.includes(slotColour) || slots.length > ref.length) continue;
      // A slot sits on the board, not inside something of an answer colour (the hole in a framed mark).
      if (colours.includes(slots[0]!.surround)) continue;
      // The answer is shown above the work (what is drawn inside a reference's frames is not a slot).
      if (slots[0]!.minY <= ref[0]!.maxY) continue;
      // The places to fill in order: this row's, with a row called from it (see placesInOrder) in its place.
      const look = slots[0]!.look;
      const allSlots = small.filter((c) => c.look === look && c.minY > ref[0]!.maxY);
      const sequence = placesInOrder(seg, slots, allSlots, pieces);
      if (!sequence) continue;
      const placedIds = new Set(sequence.rows.flat().map((c) => c.id));
      const across = (c: Component) => placedIds.has(c.id);
      const palette = pieces.filter((c) => !across(c));
      // Slots and placed pieces together are as many as the reference has things (a lone slot, then, only
      // beside placed pieces). The palette lies on one row.
      if (sequence.places.length !== ref.length) continue;
      if (new Set(palette.map((c) => c.minY)).size !== 1) continue;
      const sizes = new Set(pieces.map((c) => `${c.maxX - c.minX + 1}x${c.maxY - c.minY + 1}`));
      if (sizes.size !== 1) continue;
      const empty = sequence.places.findIndex((p) => p.color === slotColour);
      if (empty < 0) continue;
      const slot = sequence.places[empty]!;
      const next = colours[empty]!;
      const piece = palette.filter((c) => c.color === next).sort((a, b) => a.minY - b.minY || a.minX - b.minX)[0];
      if (!piece) continue;
      const reading: NextPlace = { colours, next, piece, slot };
      // Prefer the longest reference (more evidence), then the one nearest the top (a palette row looks like
      // a reference too).
      if (!best || colours.length > best.colours.length || (colours.length === best.colours.length && ref[0]!.minY < best.row))
        best = { ...reading, row: ref[0]!.minY };
    }
  }
  return best && { colours: best.colours, next: best.next, piece: best.piece, slot: best.slot };
}
