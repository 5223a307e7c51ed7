// Finds on-screen status bars (step or energy meters) from the log so that state hashes ignore them:
// without the mask every step would look like a new state and the graph would never close a loop.
// A bar is a full row or column near the board's edge whose colour counts move in one direction on
// most steps of an attempt (a player walking through a row changes it too, but back and forth).
import type { LoggedStep } from "./read-log.ts";

export interface BarMask {
  readonly rows: number[];
  readonly cols: number[];
  /** Per cell, 1 when the cell lies on a bar. */
  readonly cells: Uint8Array;
}

/** How many of the newest step pairs are examined: bars are a property of the game, a sample suffices. */
const SAMPLE_PAIRS = 256;
/** Bars live in the outer lines of the board. */
const EDGE_BAND = 8;
/** A line must change at least this often, and on this share of the steps that changed the board. */
const MIN_CHANGES = 3;
const MIN_SHARE = 0.4;

export function detectBars(steps: readonly LoggedStep[], width: number, height: number): BarMask {
  const pairs = stepPairs(steps);
  const rows = barLines(pairs, width, height, "row");
  const cols = barLines(pairs, width, height, "col");
  const cells = new Uint8Array(width * height);
  for (const y of rows) cells.fill(1, y * width, (y + 1) * width);
  for (const x of cols) for (let y = 0; y < height; y++) cells[y * width + x] = 1;
  return { rows, cols, cells };
}

export function emptyMask(width: number, height: number): BarMask {
  return { rows: [], cols: [], cells: new Uint8Array(width * height) };
}

interface Pair {
  readonly before: Uint8Array;
  readonly after: Uint8Array;
  /** Pairs with the same segment number belong to one uninterrupted attempt. */
  readonly segment: number;
}

/** Consecutive boards within one level and attempt, joined by an action other than RESET. */
function stepPairs(steps: readonly LoggedStep[]): Pair[] {
  const pairs: Pair[] = [];
  let segment = 0;
  for (let i = steps.length - 1; i > 0 && pairs.length < SAMPLE_PAIRS; i--) {
    const prev = steps[i - 1]!;
    const cur = steps[i]!;
    const joined = cur.kind === "action" && cur.action !== undefined && cur.action.id !== 0
      && prev.board !== undefined && cur.board !== undefined
      && prev.score === cur.score && prev.attempt === cur.attempt && prev.kind !== "other";
    if (!joined) {
      segment++;
      continue;
    }
    pairs.push({ before: prev.board!.cells, after: cur.board!.cells, segment });
  }
  return pairs;
}

function barLines(pairs: readonly Pair[], width: number, height: number, axis: "row" | "col"): number[] {
  const lines = axis === "row" ? height : width;
  const length = axis === "row" ? width : height;
  const found: number[] = [];
  const boardChanged = pairs.map((p) => !sameBytes(p.before, p.after));
  const changedSteps = boardChanged.filter(Boolean).length;
  if (changedSteps < MIN_CHANGES) return found;
  const before = new Int32Array(16);
  const after = new Int32Array(16);
  for (let line = 0; line < lines; line++) {
    if (line >= EDGE_BAND && line < lines - EDGE_BAND) continue;
    let changes = 0;
    let isBar = true;
    // Direction per colour within the current segment: pairs run newest first, so the sign is reversed
    // consistently and monotonicity is unaffected.
    const direction = new Int8Array(16);
    let segment = -1;
    for (let p = 0; p < pairs.length && isBar; p++) {
      const pair = pairs[p]!;
      if (pair.segment !== segment) {
        segment = pair.segment;
        direction.fill(0);
      }
      before.fill(0);
      after.fill(0);
      let differs = false;
      for (let k = 0; k < length; k++) {
        const cell = axis === "row" ? line * width + k : k * width + line;
        const a = pair.before[cell]!;
        const b = pair.after[cell]!;
        before[a]!++;
        after[b]!++;
        if (a !== b) differs = true;
      }
      if (!differs) continue;
      changes++;
      let netChange = false;
      for (let c = 0; c < 16; c++) {
        const delta = Math.sign(after[c]! - before[c]!);
        if (delta === 0) continue;
        netChange = true;
        if (direction[c] === 0) direction[c] = delta;
        else if (direction[c] !== delta) isBar = false;
      }
      // Same colours, new places: something moved along the line; a meter fills or drains.
      if (!netChange) isBar = false;
    }
    if (isBar && changes >= MIN_CHANGES && changes >= MIN_SHARE * changedSteps) found.push(line);
  }
  return found;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
