// Finds on-screen status indicators (step meters, energy bars, counters, lives) from what the log shows,
// wherever they sit on the board, so that state hashes ignore them: unmasked, every step looks like a new
// state and the graph never closes a loop. Three kinds of evidence, each gathered per row and per column:
// - a meter: a line where most changes are a few cells turning one colour into another, always the same
//   pair of colours, at several places along the line, and not where a click landed. The other direction
//   (a refill after a lost life, a wrap at the end) comes as one big change and does not count against it;
// - a counter: a line that changes by a few cells on nearly every step that changes anything, and not only
//   by moving colours around (a player walking along a row moves colours; a counter's digits do not);
// - an attempt marker (lives): cells that differ between the first boards of two attempts at one level.
// The statistics are running sums over step pairs, so they grow with new sections only.
import type { Action } from "../../game-model.ts";

/** A line change of at most this many cells is "small": a meter moves by a cell or a chunk per step. */
const SMALL = 10;
/** A counter's digits change a few more cells than a meter. */
const COUNTER_SMALL = 8;
/** A step pair that changes more than this share of the board is a transition, not evidence. */
const WHOLE_BOARD_SHARE = 0.25;
const MIN_METER_EVENTS = 3;
const MIN_METER_PLACES = 3;
const METER_SAME_COLOURS = 0.8;
const METER_SMALL_SHARE = 0.6;
/** Share of the changed steps since a meter first moved on which it moved again (one step in three is common). */
const METER_STEADY = 0.2;
const MIN_COUNTER_STEPS = 12;
const COUNTER_EVERY = 0.9;
const COUNTER_NET = 0.5;
/** A line that is the only change on most steps is what the actions do (a selector), not a counter. */
const COUNTER_BESIDE = 0.3;
/** Cells of a counter's other glyph lines that may change with it. */
const COUNTER_GLYPH = 12;
/** Counter lines this close (lines between them) are one glyph. */
const COUNTER_GAP = 2;
/** At most this share of a line's changes may sit where a click landed. */
const CLICK_EXPLAINED = 0.2;
/** Attempt markers (lives) differ in a few cells between attempt starts; more is the scene itself. */
const MAX_ATTEMPT_MARKER = 32;
/** Lives found on refill steps: at most this many cells. */
const MAX_ATTEMPT_DIFF = 256;
/** A clicked component bigger than this is a background: it explains nothing. */
const MAX_CLICKED = 1024;

interface LineStats {
  /** Changed step pairs counted before this line's first change. */
  since: number;
  events: number;
  clickExplained: number;
  smallNet: number;
  /** (from * 16 + to) → small net changes with that dominant colour change. */
  readonly transitions: Map<number, number>;
  /** Positions along the line changed by small net changes (meter evidence). */
  readonly meterPlaces: Uint8Array;
  quick: number;
  quickNet: number;
  /** Quick changes on steps that changed more than this line: a counter ticks beside the scene's changes. */
  quickBeside: number;
  /** Positions changed by quick changes (counter evidence). */
  readonly counterPlaces: Uint8Array;
}

export interface Indicator {
  readonly kind: "meter" | "counter" | "attempt";
  readonly axis: "row" | "column" | "cells";
  /** The row or column index (-1 for attempt cells). */
  readonly line: number;
  readonly from: number;
  readonly to: number;
  /** A meter's colours: its cells turn from `drains` into `fills` as it runs down (or up). */
  readonly drains?: number;
  readonly fills?: number;
}

export interface IndicatorMask {
  /** Per cell, 1 when it belongs to an indicator. */
  readonly cells: Uint8Array;
  readonly indicators: Indicator[];
  /** Equal masks have equal keys. */
  readonly key: string;
}

export class IndicatorStats {
  private readonly lines: LineStats[];
  private changedPairs = 0;
  private readonly attemptCells: Uint8Array;
  /** Cells some step within an attempt changed: the scene's moving parts, never attempt markers. */
  private readonly moving: Uint8Array;
  /** Every counted step pair's changed cells, to find afterwards the steps on which a meter refilled. */
  private readonly pairs: Int32Array[] = [];
  // scratch, reused per pair
  private readonly delta: Int32Array;
  private readonly count: Int32Array;
  private readonly explainedCount: Int32Array;
  private readonly touched: number[] = [];
  private readonly flood: Int32Array;
  private readonly seen: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const n = height + width;
    this.lines = Array.from({ length: n }, (_, i) => {
      const length = i < height ? width : height;
      return {
        since: -1,
        events: 0,
        clickExplained: 0,
        smallNet: 0,
        transitions: new Map(),
        meterPlaces: new Uint8Array(length),
        quick: 0,
        quickNet: 0,
        quickBeside: 0,
        counterPlaces: new Uint8Array(length),
      };
    });
    this.attemptCells = new Uint8Array(width * height);
    this.moving = new Uint8Array(width * height);
    this.delta = new Int32Array(n * 16);
    this.count = new Int32Array(n);
    this.explainedCount = new Int32Array(n);
    this.flood = new Int32Array(width * height);
    this.seen = new Uint8Array(width * height);
  }

  /** Two consecutive boards of one attempt joined by `action` (not RESET). */
  addPair(before: Uint8Array, after: Uint8Array, action: Action | undefined): void {
    const { width, height } = this;
    const n = width * height;
    let changed = 0;
    const list: number[] = [];
    for (let i = 0; i < n; i++) {
      if (before[i] === after[i]) continue;
      changed++;
      this.moving[i] = 1;
      list.push(i);
    }
    if (changed > 0) this.pairs.push(Int32Array.from(list));
    if (changed === 0 || changed > n * WHOLE_BOARD_SHARE) return;
    this.changedPairs++;
    // What a click changed where it landed is the click's doing: the clicked thing before or after.
    const region =
      action?.id === 6 ? (this.clickedBox(before, action.x, action.y) ?? this.clickedBox(after, action.x, action.y)) : undefined;
    for (let i = 0; i < n; i++) {
      const a = before[i]!;
      const b = after[i]!;
      if (a === b) continue;
      const x = i % width;
      const y = (i - x) / width;
      const explained = region !== undefined && x >= region[0] && x <= region[2] && y >= region[1] && y <= region[3] ? 1 : 0;
      for (const line of [y, height + x]) {
        if (this.count[line] === 0) this.touched.push(line);
        this.count[line]!++;
        this.explainedCount[line]! += explained;
        this.delta[line * 16 + a]!--;
        this.delta[line * 16 + b]!++;
      }
    }
    for (const line of this.touched) this.closeLine(line, before, after, changed);
    this.touched.length = 0;
  }

  /** The first boards of two consecutive attempts at one level: what differs there is an attempt marker. */
  addAttemptStarts(previous: Uint8Array, next: Uint8Array): void {
    let diff = 0;
    for (let i = 0; i < previous.length; i++) if (previous[i] !== next[i]) diff++;
    if (diff === 0 || diff > MAX_ATTEMPT_MARKER) return;
    for (let i = 0; i < previous.length; i++) if (previous[i] !== next[i]) this.attemptCells[i] = 1;
  }

  /** The indicators found so far, laid out on `newest` (meters extend along their colours). */
  mask(newest: Uint8Array | undefined): IndicatorMask {
    const { width, height } = this;
    const cells = new Uint8Array(width * height);
    const indicators: Indicator[] = [];
    for (let line = 0; line < this.lines.length; line++) {
      const s = this.lines[line]!;
      const axis = line < height ? "row" : "column";
      const index = line < height ? line : line - height;
      const cell = (p: number) => (axis === "row" ? index * width + p : p * width + index);
      if (s.clickExplained > CLICK_EXPLAINED * s.events) continue;
      const meter = meterColours(s, this.changedPairs);
      if (meter !== undefined) {
        const [lo, hi] = span(s.meterPlaces);
        let a = lo;
        let b = hi;
        const along = (p: number) => newest !== undefined && (newest[cell(p)] === meter.from || newest[cell(p)] === meter.to);
        while (a > 0 && along(a - 1)) a--;
        while (b < s.meterPlaces.length - 1 && along(b + 1)) b++;
        for (let p = a; p <= b; p++) cells[cell(p)] = 1;
        indicators.push({ kind: "meter", axis, line: index, from: a, to: b, drains: meter.from, fills: meter.to });
        continue;
      }
      if (
        this.changedPairs >= MIN_COUNTER_STEPS &&
        s.quick >= COUNTER_EVERY * this.changedPairs &&
        s.quickNet >= COUNTER_NET * s.quick &&
        s.quickBeside >= COUNTER_BESIDE * s.quick
      ) {
        const [lo, hi] = span(s.counterPlaces);
        const a = Math.max(0, lo - 1);
        const b = Math.min(s.counterPlaces.length - 1, hi + 1);
        for (let p = a; p <= b; p++) cells[cell(p)] = 1;
        indicators.push({ kind: "counter", axis, line: index, from: a, to: b });
      }
    }
    // A counter's glyph rows do not all change on every step: fill the gaps between nearby counter lines.
    for (const axis of ["row", "column"] as const) {
      const lines = indicators.filter((i) => i.kind === "counter" && i.axis === axis).sort((a, b) => a.line - b.line);
      for (let k = 1; k < lines.length; k++) {
        const a = lines[k - 1]!;
        const b = lines[k]!;
        if (b.line - a.line > COUNTER_GAP + 1) continue;
        for (let line = a.line + 1; line < b.line; line++) {
          for (let p = Math.min(a.from, b.from); p <= Math.max(a.to, b.to); p++)
            cells[axis === "row" ? line * width + p : p * width + line] = 1;
        }
      }
    }
    const meterCells = new Uint8Array(width * height);
    for (const i of indicators) {
      if (i.kind !== "meter") continue;
      for (let p = i.from; p <= i.to; p++) meterCells[i.axis === "row" ? i.line * width + p : p * width + i.line] = 1;
    }
    const lives = this.refillMarkers(meterCells);
    let attempt = 0;
    for (let i = 0; i < cells.length; i++) {
      if ((this.attemptCells[i] === 1 && this.moving[i] === 0) || lives[i] === 1) {
        attempt++;
        cells[i] = 1;
      }
    }
    if (attempt > 0) indicators.push({ kind: "attempt", axis: "cells", line: -1, from: 0, to: attempt - 1 });
    // The meters' colours are part of the key: the graph reads them (a death on a spent meter is the budget's).
    const colours = indicators
      .filter((i) => i.kind === "meter")
      .map((i) => `${i.drains}>${i.fills}`)
      .join(",");
    return { cells, indicators, key: `${Bun.hash.xxHash3(cells).toString(16)}${colours ? `:${colours}` : ""}` };
  }

  /**
   * Lives shown on screen: a game that takes a life without ending the attempt refills its meter on that
   * step, and what else changes only on such steps (never on an ordinary one) is a marker of lives.
   * `meters` holds the meter cells found so far.
   */
  private refillMarkers(meters: Uint8Array): Uint8Array {
    const out = new Uint8Array(this.width * this.height);
    const ordinary = new Uint8Array(this.width * this.height);
    const refills: Int32Array[] = [];
    for (const pair of this.pairs) {
      let onMeter = 0;
      for (const i of pair) onMeter += meters[i]!;
      if (onMeter > SMALL) refills.push(pair);
      else for (const i of pair) ordinary[i] = 1;
    }
    if (refills.length === 0) return out;
    let count = 0;
    for (const pair of refills) {
      for (const i of pair) {
        if (meters[i] === 1 || ordinary[i] === 1 || out[i] === 1) continue;
        out[i] = 1;
        count++;
      }
    }
    return count <= MAX_ATTEMPT_DIFF ? out : new Uint8Array(this.width * this.height);
  }

  private closeLine(line: number, before: Uint8Array, after: Uint8Array, changed: number): void {
    const s = this.lines[line]!;
    const n = this.count[line]!;
    const explained = this.explainedCount[line] === n;
    let net = false;
    let down = -1;
    let up = -1;
    for (let c = 0; c < 16; c++) {
      const d = this.delta[line * 16 + c]!;
      if (d !== 0) net = true;
      if (d < 0 && (down < 0 || d < this.delta[line * 16 + down]!)) down = c;
      if (d > 0 && (up < 0 || d > this.delta[line * 16 + up]!)) up = c;
      this.delta[line * 16 + c] = 0;
    }
    this.count[line] = 0;
    this.explainedCount[line] = 0;
    if (s.since < 0) s.since = this.changedPairs - 1;
    s.events++;
    if (explained) {
      s.clickExplained++;
      return;
    }
    const places = (mark: Uint8Array) => {
      const { width, height } = this;
      const row = line < height;
      const index = row ? line : line - height;
      for (let p = 0; p < mark.length; p++) {
        const i = row ? index * width + p : p * width + index;
        if (before[i] !== after[i]) mark[p] = 1;
      }
    };
    if (n <= SMALL && net && down >= 0 && up >= 0) {
      s.smallNet++;
      const key = down * 16 + up;
      s.transitions.set(key, (s.transitions.get(key) ?? 0) + 1);
      places(s.meterPlaces);
    }
    if (n <= COUNTER_SMALL) {
      s.quick++;
      if (net) s.quickNet++;
      if (changed > n + COUNTER_GLYPH) s.quickBeside++;
      places(s.counterPlaces);
    }
  }

  /** Bounding box [x0, y0, x1, y1] (one cell of margin) of the same-colour component clicked at (x, y). */
  private clickedBox(board: Uint8Array, x: number, y: number): [number, number, number, number] | undefined {
    const { width, height } = this;
    if (x < 0 || y < 0 || x >= width || y >= height) return undefined;
    const colour = board[y * width + x]!;
    this.seen.fill(0);
    let top = 0;
    let size = 0;
    this.flood[top++] = y * width + x;
    this.seen[y * width + x] = 1;
    let x0 = x,
      y0 = y,
      x1 = x,
      y1 = y;
    while (top > 0) {
      const c = this.flood[--top]!;
      if (++size > MAX_CLICKED) return undefined;
      const cx = c % width;
      const cy = (c - cx) / width;
      if (cx < x0) x0 = cx;
      if (cx > x1) x1 = cx;
      if (cy < y0) y0 = cy;
      if (cy > y1) y1 = cy;
      const push = (d: number) => {
        if (this.seen[d] === 0 && board[d] === colour) {
          this.seen[d] = 1;
          this.flood[top++] = d;
        }
      };
      if (cx > 0) push(c - 1);
      if (cx < width - 1) push(c + 1);
      if (cy > 0) push(c - width);
      if (cy < height - 1) push(c + width);
    }
    return [x0 - 1, y0 - 1, x1 + 1, y1 + 1];
  }
}

/** The meter's colour change when the line's evidence says it is one. */
function meterColours(s: LineStats, changedPairs: number): { from: number; to: number } | undefined {
  if (s.smallNet < MIN_METER_EVENTS || s.smallNet < METER_SMALL_SHARE * (s.events - s.clickExplained)) return undefined;
  // A meter keeps moving: a line touched now and then (a player passing) is scene.
  if (s.smallNet < METER_STEADY * (changedPairs - s.since)) return undefined;
  let places = 0;
  for (const p of s.meterPlaces) places += p;
  if (places < MIN_METER_PLACES) return undefined;
  let bestKey = -1;
  let best = 0;
  for (const [k, c] of s.transitions) if (c > best || (c === best && k < bestKey)) [bestKey, best] = [k, c];
  if (best < METER_SAME_COLOURS * s.smallNet) return undefined;
  return { from: bestKey >> 4, to: bestKey & 15 };
}

function span(marks: Uint8Array): [number, number] {
  let lo = -1;
  let hi = -1;
  for (let p = 0; p < marks.length; p++) {
    if (marks[p] !== 1) continue;
    if (lo < 0) lo = p;
    hi = p;
  }
  return [lo, hi];
}

/** Words for the plan text: "meter row 53 x 10–63". */
export function describeIndicators(m: IndicatorMask): string[] {
  return m.indicators.map((i) =>
    i.axis === "cells"
      ? `${i.to + 1} attempt-marker cell${i.to === 0 ? "" : "s"}`
      : `${i.kind} ${i.axis} ${i.line} ${i.axis === "row" ? "x" : "y"} ${i.from}–${i.to}`,
  );
}
