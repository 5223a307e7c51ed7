// Reference rows: a puzzle that shows the answer as a row of things of distinct colours (the reference),
// a row of empty slots of one colour to fill, and a palette of pieces in those colours elsewhere on the
// board. The usual play: pick the piece of the colour the reference shows at the next slot, then click that
// slot; when every slot is filled, submit. Read left to right (slots are filled from the left, so the
// number of slots left says which reference colour is next). Nothing here knows any game; it reads the
// board, and it reads nothing when the three parts are not all there.
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

/**
 * The reference row of a board and what to click next, or undefined when the board has no reference row,
 * slot row and palette. `clickedInto` is where the click that led to this board landed: on the palette
 * piece of the next colour, that piece is taken as picked and the leftmost slot is the next click.
 */
export function readReference(
  seg: Segmentation,
  clickedInto?: { readonly x: number; readonly y: number },
): ReferenceReading | undefined {
  const small = seg.components.filter((c) => c.size <= MAX_PIECE && !c.touchesEdge);
  // A reference: things of one box size on one row, every colour different.
  const references = rows(small, key, MIN_REFERENCE).filter((g) => new Set(g.map((c) => c.color)).size === g.length);
  // Slots: things of one look (colour and shape) on one row; the last empty slot may be alone.
  const slotRows = rows(small, (c) => `${c.minY}:${c.look}`, 1);
  let best: (ReferenceReading & { row: number }) | undefined;
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
    for (const slots of slotRows) {
      const slotColour = slots[0]!.color;
      if (colours.includes(slotColour) || slots.length > ref.length) continue;
      // Slots lie below the reference (what is drawn inside a reference's frames is not a slot).
      const top = slots[0]!.minY;
      const bottom = slots[0]!.maxY;
      // The answer is shown above the work.
      if (top <= ref[0]!.maxY) continue;
      // The pieces of the reference's colours, not in the reference: those across the slots' row are placed,
      // the others are the palette; all of one box size. Slots and placed pieces together are as many as the
      // reference has things, and the next colour is the reference's at the leftmost empty slot.
      const pieces = small.filter((c) => !inRef.has(c.id) && colours.includes(c.color) && c.minY !== ref[0]!.minY);
      const across = (c: Component) => c.maxY >= top && c.minY <= bottom;
      const placed = pieces.filter(across);
      const palette = pieces.filter((c) => !across(c));
      // (A lone slot, then, only beside placed pieces.) The palette lies on one row.
      if (slots.length + placed.length !== ref.length) continue;
      if (new Set(palette.map((c) => c.minY)).size !== 1) continue;
      const sizes = new Set(pieces.map((c) => `${c.maxX - c.minX + 1}x${c.maxY - c.minY + 1}`));
      if (sizes.size !== 1) continue;
      const next = colours[placed.filter((c) => c.minX < slots[0]!.minX).length]!;
      const piece = palette.filter((c) => c.color === next).sort((a, b) => a.minY - b.minY || a.minX - b.minX)[0];
      if (!piece) continue;
      const picked =
        clickedInto !== undefined &&
        clickedInto.x >= piece.minX &&
        clickedInto.x <= piece.maxX &&
        clickedInto.y >= piece.minY &&
        clickedInto.y <= piece.maxY;
      const target = picked ? slots[0]! : piece;
      const reading: ReferenceReading = {
        colours,
        next,
        click: { x: target.clickX, y: target.clickY },
        why: picked
          ? `the leftmost empty slot, for the colour-${next} piece picked (the reference row asks for it next)`
          : `the colour-${next} piece the reference row asks for next`,
      };
      // Prefer the longest reference (more evidence), then the one nearest the top (a palette row looks like
      // a reference too).
      if (!best || colours.length > best.colours.length || (colours.length === best.colours.length && ref[0]!.minY < best.row))
        best = { ...reading, row: ref[0]!.minY };
    }
  }
  return best && { colours: best.colours, next: best.next, click: best.click, why: best.why };
}
