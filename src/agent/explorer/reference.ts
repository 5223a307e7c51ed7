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

/**
 * The places to fill, in order, starting at the row of `root`: the slots and the pieces placed in a row
 * (things centred on one line inside one frame), left to right; where a row shows a call (a mark in the
 * colour of the frame around another row: a program that calls a subprogram), that row's places — a row
 * called twice, twice. `callAt` takes slots for calls not placed yet (slot → the called frame's colour).
 * Undefined when a call loops back into a row being read. Also the rows read, whose pieces are placed (the
 * others are the palette), and what a search for loose marks needs.
 */
function placesInOrder(
  seg: Segmentation,
  root: Component,
  slots: readonly Component[],
  pieces: readonly Component[],
  marks: readonly Component[],
  limit: number,
  callAt: ReadonlyMap<number, number> = new Map(),
): Sequence | undefined {
  // Rows: things centred on one line inside one frame (two framed rows side by side are two rows).
  const byRow = new Map<string, Component[]>();
  const frames = new Map<Component[], Component | undefined>();
  const slotColour = slots[0]!.color;
  for (const c of [...slots, ...pieces, ...marks]) {
    const frame = frameOf(seg, c, slotColour);
    const key = `${c.minY + c.maxY}/${frame?.id ?? -1}`;
    const row = byRow.get(key);
    if (row) row.push(c);
    else {
      const fresh = [c];
      byRow.set(key, fresh);
      frames.set(fresh, frame);
    }
  }
  const reached = new Set<Component[]>();
  const stack: Component[][] = [];
  const pieceIds = new Set(pieces.map((c) => c.id));
  const markIds = new Set(marks.map((c) => c.id));
  const places: Component[] = [];
  const starts = new Map<number, number>();
  let recursed = false;
  // Appends the row's places (a row may be called more than once, and from inside itself: the program then
  // runs until the answer is matched, so the places stop at `limit`; a call that adds no place loops).
  const expand = (row: Component[]): boolean => {
    if (places.length >= limit) return true;
    if (stack.length > limit) return false;
    if (stack.includes(row)) recursed = true;
    stack.push(row);
    reached.add(row);
    const own = frames.get(row);
    const inside = (c: Component) => !own || (c.minX > own.minX && c.maxX < own.maxX);
    const items: { x: number; place?: Component; call?: Component[]; slot?: number }[] = [];
    // A mark in the row is a call (found below with the marks drawn into the frame), not a place.
    for (const c of row.filter((m) => inside(m) && !markIds.has(m.id))) {
      const colour = callAt.get(c.id);
      if (colour === undefined) {
        items.push({ x: c.minX, place: c });
        continue;
      }
      // The slot taken for a call (a mark not placed yet): the row framed in the mark's colour stands there.
      const other = [...frames].find(([, f]) => f?.color === colour)?.[0];
      if (!other) return false;
      items.push({ x: c.minX, call: other, slot: c.id });
    }
    const top = Math.min(...row.map((c) => c.minY));
    const bottom = Math.max(...row.map((c) => c.maxY));
    for (const [other, frame] of frames) {
      // A mark of the row's own frame colour calls the row itself.
      if (!frame || !own || (frame.color === own.color && other !== row)) continue;
      for (const x of marksInRow(seg, frame.color, top, bottom, own, pieceIds)) items.push({ x, call: other });
    }
    for (const item of items.sort((p, q) => p.x - q.x)) {
      if (item.place) places.push(item.place);
      else {
        if (item.slot !== undefined && !starts.has(item.slot)) starts.set(item.slot, places.length);
        if (!expand(item.call!)) return false;
      }
    }
    stack.pop();
    return true;
  };
  const start = [...frames.keys()].find((r) => r.includes(root));
  if (!start) return undefined;
  if (!expand(start)) return undefined;
  const callable = [...frames].filter(([, f]) => f !== undefined).map(([, f]) => f!.color);
  // Marks lying loose: in no framed row.
  const loose = marks.filter((m) => [...frames].some(([r, f]) => f === undefined && r.includes(m)));
  return { places, rows: [...reached], callable, starts, loose, starters: [...frames.keys()].map((r) => r[0]!), recursed };
}

interface Sequence {
  /** The places in order (a row called twice, twice). */
  readonly places: Component[];
  /** The rows read (their pieces are placed). */
  readonly rows: Component[][];
  /** The frame colours of the rows a call could reach. */
  readonly callable: number[];
  /** Per slot taken for a call: where the called row's places begin. */
  readonly starts: ReadonlyMap<number, number>;
  /** The marks in no framed row. */
  readonly loose: Component[];
  /** One thing of each row (a row to start a reading from). */
  readonly starters: Component[];
  /** A row was called from inside itself (the places were cut at the answer's length). */
  readonly recursed: boolean;
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

/** Frames per board and thing (a reading looks them up again for every row it starts from). */
const framesRead = new WeakMap<Segmentation, Map<string, Component | undefined>>();

function frameOf(seg: Segmentation, c: Component, slotColour: number): Component | undefined {
  let known = framesRead.get(seg);
  if (!known) framesRead.set(seg, (known = new Map()));
  const k = `${c.id}/${slotColour}`;
  if (!known.has(k)) known.set(k, frameAround(seg, [c], slotColour));
  return known.get(k);
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
 * Per mark of colour c that rows top–bottom show inside the `own` frame's box, on no piece (a piece of that
 * colour placed in a slot is no call): its leftmost x there.
 */
function marksInRow(
  seg: Segmentation,
  c: number,
  top: number,
  bottom: number,
  own: Component,
  pieces: ReadonlySet<number>,
): number[] {
  const first = new Map<number, number>();
  for (let x = own.minX + 1; x < own.maxX; x++)
    for (let y = top; y <= bottom; y++) {
      const id = seg.labels[y * seg.width + x]!;
      if (id >= 0 && !pieces.has(id) && seg.components[id]!.color === c && !first.has(id)) first.set(id, x);
    }
  return [...first.values()];
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
  const { colours, next, piece, slot, call } = found;
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
    why: call
      ? picked
        ? `the slot where the colour-${next} mark picked calls the row framed in its colour`
        : `the colour-${next} mark that calls the row framed in its colour, for the reference row`
      : picked
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
  /** The piece is a mark that calls another row, to be placed in the slot. */
  readonly call?: boolean;
}

/** Readings per board (a board's segmentation is made once per state; plans read each state again). */
const read = new WeakMap<Segmentation, NextPlace | null>();

/**
 * The places are as many as the answer's and agree with it: a placed piece has the answer's colour at its
 * place, and a slot shown more than once (a row called twice) asks for one colour.
 */
function agreesWith(seq: Sequence, colours: readonly number[], slotColour: number): boolean {
  if (seq.places.length !== colours.length) return false;
  const asked = new Map<number, number>();
  return seq.places.every((p, i) => {
    if (p.color !== slotColour) return p.color === colours[i];
    const was = asked.get(p.id);
    asked.set(p.id, colours[i]!);
    return was === undefined || was === colours[i];
  });
}

/** Loose marks weighed at once, and placings of them tried: bound the search. */
const MAX_MARKS = 3;
const MAX_PLACINGS = 400;

/**
 * Where loose call marks go: the fewest marks, each in a different empty slot, after which the places are
 * as many as the answer's and agree with it (a placed piece has the answer's colour at its place; a slot
 * that a row called twice shows twice asks for one colour). Undefined when no placing does.
 */
function placeMarks(
  seg: Segmentation,
  sequence: Sequence,
  root: Component,
  slots: readonly Component[],
  pieces: readonly Component[],
  allMarks: readonly Component[],
  colours: readonly number[],
  slotColour: number,
): { sequence: Sequence; calls: { mark: Component; slot: Component; index: number }[] } | undefined {
  const marks = sequence.loose.filter((c) => sequence.callable.includes(c.color)).slice(0, MAX_MARKS);
  const empties = [...new Set(sequence.places.filter((p) => p.color === slotColour))];
  const agrees = (seq: Sequence) => agreesWith(seq, colours, slotColour);
  const assignment = new Map<number, number>();
  const used: { mark: Component; slot: Component }[] = [];
  let found: { sequence: Sequence; calls: { mark: Component; slot: Component; index: number }[] } | undefined;
  // Placings of `count` marks, marks in order, each to a slot not yet taken.
  let budget = MAX_PLACINGS;
  const search = (from: number, count: number): void => {
    if (found || budget <= 0) return;
    if (used.length === count) {
      budget--;
      const alt = placesInOrder(seg, root, slots, pieces, allMarks, colours.length, assignment);
      if (alt && agrees(alt))
        found = { sequence: alt, calls: used.map((u) => ({ ...u, index: alt.starts.get(u.slot.id) ?? -1 })) };
      return;
    }
    for (let m = from; m < marks.length; m++)
      for (const slot of empties) {
        if (assignment.has(slot.id)) continue;
        assignment.set(slot.id, marks[m]!.color);
        used.push({ mark: marks[m]!, slot });
        search(m + 1, count);
        used.pop();
        assignment.delete(slot.id);
      }
  };
  for (let count = 1; count <= marks.length && !found; count++) search(0, count);
  return found;
}

/** Reference rows right under one another (one cell apart or less), of one box size at the same places. */
function stacked(single: readonly Component[][]): Component[][] {
  const out: Component[][] = [];
  for (const upper of single) {
    let whole = [...upper];
    let last = upper;
    for (;;) {
      const under = single.find(
        (r) =>
          r.length === last.length &&
          r[0]!.minY > last[0]!.maxY &&
          r[0]!.minY <= last[0]!.maxY + 2 &&
          r.every(
            (c, i) =>
              c.minX === last[i]!.minX && key(c).slice(key(c).indexOf(":")) === key(last[i]!).slice(key(last[i]!).indexOf(":")),
          ),
      );
      if (!under) break;
      whole = [...whole, ...under];
      last = under;
    }
    if (whole.length > upper.length) out.push(whole);
  }
  return out;
}

function findNext(seg: Segmentation): NextPlace | undefined {
  const small = seg.components.filter((c) => c.size <= MAX_PIECE && !c.touchesEdge);
  // A reference: things of one box size on one row, of three colours or more (a colour may repeat); or such
  // rows stacked right under one another at the same places, read one after the other.
  const single = rows(small, key, MIN_REFERENCE).filter((g) => new Set(g.map((c) => c.color)).size >= MIN_REFERENCE);
  const references = [...single, ...stacked(single)];
  // Slots: things of one look (colour and shape) on one row; the last empty slot may be alone.
  const slotRows = rows(small, (c) => `${c.minY}:${c.look}`, 1);
  let best: (NextPlace & { row: number }) | undefined;
  for (const ref of references) {
    const colours = ref.map((c) => c.color);
    const refTop = ref[0]!.minY;
    const refBottom = Math.max(...ref.map((c) => c.maxY));
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
    const pieces = commonestShape(small.filter((c) => !inRef.has(c.id) && colours.includes(c.color) && c.minY > refBottom));
    // Marks: things the size of a piece but of another shape (a call to the row framed in their colour),
    // placed in a row or lying loose with the palette.
    const pieceIds = new Set(pieces.map((c) => c.id));
    const box = (c: Component) => `${c.maxX - c.minX + 1}x${c.maxY - c.minY + 1}`;
    const marks = small.filter(
      (c) => !inRef.has(c.id) && !pieceIds.has(c.id) && c.minY > refBottom && pieces.length > 0 && box(c) === box(pieces[0]!),
    );
    // Prefer the longest reference (more evidence), then the one nearest the top (a palette row looks like a
    // reference too).
    const consider = (reading: NextPlace) => {
      if (!best || colours.length > best.colours.length || (colours.length === best.colours.length && refTop < best.row))
        best = { ...reading, row: refTop };
    };
    const looks = new Set<string>();
    for (const slots of slotRows) {
      const slotColour = slots[0]!.color;
      if (colours.includes(slotColour) || slots.length > ref.length) continue;
      // A slot sits on the board, not inside something of an answer colour (the hole in a framed mark).
      if (colours.includes(slots[0]!.surround)) continue;
      // The answer is shown above the work (what is drawn inside a reference's frames is not a slot).
      if (slots[0]!.minY <= refBottom) continue;
      // The places to fill in order, from each row (see placesInOrder): the one with as many as the answer.
      const look = slots[0]!.look;
      if (looks.has(look)) continue;
      looks.add(look);
      const allSlots = small.filter((c) => c.look === look && c.minY > refBottom);
      const first = placesInOrder(seg, slots[0]!, allSlots, pieces, marks, ref.length);
      for (const root of first?.starters ?? []) {
        let sequence = placesInOrder(seg, root, allSlots, pieces, marks, ref.length);
        if (!sequence) continue;
        // A program that runs into itself is read only when it agrees with the answer.
        if (sequence.recursed && !agreesWith(sequence, colours, slotColour)) continue;
        // Too few places, and marks lying loose: the marks are to be placed in slots, those where the places
        // then agree with the answer.
        let calls: { mark: Component; slot: Component; index: number }[] = [];
        if (sequence.places.length < ref.length) {
          const found = placeMarks(seg, sequence, root, allSlots, pieces, marks, colours, slotColour);
          if (found) ({ sequence, calls } = found);
        }
        const placedIds = new Set(sequence.rows.flat().map((c) => c.id));
        const across = (c: Component) => placedIds.has(c.id);
        const palette = pieces.filter((c) => !across(c));
        // Slots and placed pieces together are as many as the reference has things (a lone slot, then, only
        // beside placed pieces). The palette, with the marks lying loose, lies on one row.
        if (sequence.places.length !== ref.length) continue;
        if (new Set([...palette, ...sequence.loose].map((c) => c.minY)).size !== 1) continue;
        const sizes = new Set(pieces.map((c) => `${c.maxX - c.minX + 1}x${c.maxY - c.minY + 1}`));
        if (sizes.size !== 1) continue;
        const empty = sequence.places.findIndex((p) => p.color === slotColour);
        // A loose mark goes first once the places before its call are filled; it lies with the palette.
        const call = calls.sort((p, q) => p.index - q.index)[0];
        if (call && (empty < 0 || call.index <= empty)) {
          consider({ colours, next: call.mark.color, piece: call.mark, slot: call.slot, call: true });
          continue;
        }
        if (empty < 0) continue;
        const slot = sequence.places[empty]!;
        const next = colours[empty]!;
        const piece = palette.filter((c) => c.color === next).sort((a, b) => a.minY - b.minY || a.minX - b.minX)[0];
        if (!piece) continue;
        consider({ colours, next, piece, slot });
      }
    }
  }
  return best && { colours: best.colours, next: best.next, piece: best.piece, slot: best.slot, call: best.call };
}
