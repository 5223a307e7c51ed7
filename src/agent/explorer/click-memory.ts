// What clicks did on each level, remembered by what was clicked rather than by the state it was clicked in.
// A state reached by a click differs from the last one in a few cells, so most of its components are the
// same things in the same places: a button that did nothing in the state before almost always does nothing
// now, and a button that changed the board (a rotator, a toggle, a counter) is the first thing worth
// pressing again. Two keys:
// - a spot: the component's look at its place (a component that changed colour or moved is a new spot);
// - a kind: the component's colour inside the colour that surrounds it, so tiles of one colour in a
//   reference panel and tiles of that colour in the play area are learned apart (a colour alone would
//   condemn the play area's tiles after three clicks on the panel's).
// And whether clicking a place again right after a click there that changed the board leads straight back
// (a toggle), in general or for one pair of places (a rotator's two directions): then the click that undoes
// the one that led into a state is the last one worth trying there.
import type { Tally } from "./graph.ts";
import type { Component } from "./segment.ts";

export interface SpotTally extends Tally {
  /** Set once it was tried in two or more states and led to this one state every time. */
  to: string | undefined;
  /** Where the first try led, when it changed the board. */
  first: string | undefined;
  /** Every try so far changed the board and led to `first`. */
  oneWay: boolean;
}

export function spotKey(c: Component): string {
  return `${c.look}@${c.minX},${c.minY}`;
}

export function kindKey(c: Component): string {
  return `${c.color}/${c.surround}`;
}

export class ClickMemory {
  /** Per level (score): spot → outcomes of the first click of it in each state. */
  private readonly spots = new Map<number, Map<string, SpotTally>>();
  /** Kind → outcomes, over all levels: a game's reference panels stay inert from level to level. */
  private readonly kinds = new Map<string, Tally>();

  /** Repeats of a click right after it changed the board, and how many led straight back. */
  readonly repeats: Tally = { tries: 0, changes: 0 };
  /** The click that led into the newest state, when it changed the board. */
  arrivedByClick: { readonly x: number; readonly y: number } | undefined;
  /** The state that click was made in. */
  before: string | undefined;
  /** The legend symbol that read "should have the centre's colour" on the board before the last level won. */
  legendSymbol: number | undefined;
  /** Per level: how often a click at b right after one at a (both changing the board) led straight back. */
  private readonly pairs = new Map<string, Pair[]>();

  /** Every folded step, in order: `from` → `to` by `action` (undefined: a step that is no transition). */
  follow(from: string | undefined, to: string, action: { id: number; x?: number; y?: number } | undefined): void {
    const last = this.arrivedByClick;
    const click = action?.id === 6 && from !== undefined && from !== to ? { x: action.x!, y: action.y! } : undefined;
    if (click && last) {
      const back = to === this.before;
      if (near(last, click)) {
        this.repeats.tries++;
        if (back) this.repeats.changes++;
      }
      const level = from!.slice(0, from!.indexOf(":"));
      let list = this.pairs.get(level);
      if (!list) this.pairs.set(level, (list = []));
      let pair = list.find((p) => near(p.a, last) && near(p.b, click));
      if (!pair) list.push((pair = { a: last, b: click, tries: 0, changes: 0 }));
      pair.tries++;
      if (back) pair.changes++;
    }
    this.arrivedByClick = click;
    this.before = click ? from : undefined;
  }

  /** Clicking again where the last click landed usually undoes it (seen twice, and more often than not). */
  repeatUndoes(): boolean {
    return this.repeats.changes >= 2 && this.repeats.changes * 2 > this.repeats.tries;
  }

  /**
   * Where a click probably leads straight back on level `score` in a state reached by a click at `a`: places b
   * where a click right after one at a did so more often than not (a rotator's other direction, a toggle
   * clicked again). A place is its cell or one within NEAR cells: a click point moves as the thing clicked
   * changes shape.
   */
  undoing(score: number, a: Point): Point[] {
    const out: Point[] = [];
    for (const p of this.pairs.get(String(score)) ?? [])
      if (near(p.a, a) && p.changes >= 1 && p.changes * 2 > p.tries) out.push(p.b);
    return out;
  }

  /** A click's first try in some state: `c` is the component clicked there. */
  note(score: number, c: Component, changed: boolean, to: string): void {
    let level = this.spots.get(score);
    if (!level) this.spots.set(score, (level = new Map()));
    const k = spotKey(c);
    const t = level.get(k);
    if (!t) level.set(k, { tries: 1, changes: changed ? 1 : 0, to: undefined, first: changed ? to : undefined, oneWay: changed });
    else {
      t.tries++;
      if (changed) t.changes++;
      t.oneWay &&= changed && to === t.first;
      t.to = t.oneWay ? t.first : undefined;
    }
    bump(this.kinds, kindKey(c), changed);
  }

  spot(score: number, c: Component): SpotTally | undefined {
    return this.spots.get(score)?.get(spotKey(c));
  }

  kind(c: Component): Tally | undefined {
    return this.kinds.get(kindKey(c));
  }
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

interface Pair {
  readonly a: Point;
  readonly b: Point;
  tries: number;
  changes: number;
}

/** Cells apart within which two click points are one place. */
const NEAR = 2;

export function near(p: Point, q: Point): boolean {
  return Math.abs(p.x - q.x) <= NEAR && Math.abs(p.y - q.y) <= NEAR;
}

function bump(m: Map<string, Tally>, k: string, changed: boolean): void {
  const t = m.get(k) ?? { tries: 0, changes: 0 };
  t.tries++;
  if (changed) t.changes++;
  m.set(k, t);
}
