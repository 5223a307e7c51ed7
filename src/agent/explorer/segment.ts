// Splits a settled board into single-colour connected components (4-connected), the explorer's unit
// of "a thing you could click". Masked cells (status bars) belong to no component.
import type { Grid } from "../../game-model.ts";

export interface Component {
  /** 0-based, in row-major order of each component's first cell. */
  readonly id: number;
  readonly color: number;
  readonly size: number;
  /** Bounding box, inclusive. */
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  /** The component's own cell nearest its bounding-box centre: a click there always lands on it. */
  readonly clickX: number;
  readonly clickY: number;
  /** Colour plus normalised cell pattern: two components that look alike share it. */
  readonly look: string;
  /** True when the component touches the board's edge. */
  readonly touchesEdge: boolean;
  /**
   * The commonest colour on the ring of cells just outside the bounding box (-1 at the board's edge all
   * round): what the thing sits on — the board's background, a panel, a frame.
   */
  readonly surround: number;
}

export interface Segmentation {
  readonly components: Component[];
  /** Per cell, the id of its component, or -1 for masked cells. */
  readonly labels: Int32Array;
  readonly width: number;
  readonly height: number;
}

/** `masked[i]` = 1 excludes cell i. */
export function segment(grid: Grid, masked?: Uint8Array): Segmentation {
  const { width, height, cells } = grid;
  const n = width * height;
  const labels = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const members = new Int32Array(n);
  const components: Component[] = [];
  for (let start = 0; start < n; start++) {
    if (labels[start] !== -1 || (masked !== undefined && masked[start] === 1)) continue;
    const id = components.length;
    const color = cells[start]!;
    let top = 0;
    let count = 0;
    stack[top++] = start;
    labels[start] = id;
    let minX = width,
      minY = height,
      maxX = -1,
      maxY = -1;
    while (top > 0) {
      const c = stack[--top]!;
      members[count++] = c;
      const x = c % width;
      const y = (c - x) / width;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (x > 0) top = visit(c - 1, top);
      if (x < width - 1) top = visit(c + 1, top);
      if (y > 0) top = visit(c - width, top);
      if (y < height - 1) top = visit(c + width, top);
    }
    const surround = ringColour(cells, masked, minX, minY, maxX, maxY, width, height);
    components.push(describe(id, color, members.subarray(0, count), minX, minY, maxX, maxY, width, height, surround));

    function visit(c: number, t: number): number {
      if (labels[c] !== -1 || cells[c] !== color || (masked !== undefined && masked[c] === 1)) return t;
      labels[c] = id;
      stack[t] = c;
      return t + 1;
    }
  }
  return { components, labels, width, height };
}

function describe(
  id: number,
  color: number,
  members: Int32Array,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  width: number,
  height: number,
  surround: number,
): Component {
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  let clickX = minX,
    clickY = minY,
    best = Infinity;
  const bw = maxX - minX + 1;
  const bh = maxY - minY + 1;
  // Small shapes get an exact pattern in their look; big ones (backgrounds, walls) only a size signature,
  // which is enough to tell them apart and keeps the key short.
  const exact = bw * bh <= 256;
  const pattern = exact ? new Uint8Array(bw * bh) : undefined;
  for (const c of members) {
    const x = c % width;
    const y = (c - x) / width;
    const d = (x - cx) * (x - cx) + (y - cy) * (y - cy);
    // Ties go to the first cell in row-major order: members are not in row-major order, so compare.
    if (d < best || (d === best && (y < clickY || (y === clickY && x < clickX)))) {
      best = d;
      clickX = x;
      clickY = y;
    }
    if (pattern) pattern[(y - minY) * bw + (x - minX)] = 1;
  }
  const look = pattern ? `${color}:${bw}x${bh}:${pattern.join("")}` : `${color}:${bw}x${bh}:${members.length}`;
  const touchesEdge = minX === 0 || minY === 0 || maxX === width - 1 || maxY === height - 1;
  return { id, color, size: members.length, minX, minY, maxX, maxY, clickX, clickY, look, touchesEdge, surround };
}

/** The commonest unmasked colour just outside a bounding box; ties to the lower colour; -1 when there is none. */
function ringColour(
  cells: Uint8Array,
  masked: Uint8Array | undefined,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  width: number,
  height: number,
): number {
  const counts = new Int32Array(256);
  const see = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = y * width + x;
    if (masked === undefined || masked[i] !== 1) counts[cells[i]!]!++;
  };
  for (let x = minX - 1; x <= maxX + 1; x++) {
    see(x, minY - 1);
    see(x, maxY + 1);
  }
  for (let y = minY; y <= maxY; y++) {
    see(minX - 1, y);
    see(maxX + 1, y);
  }
  let best = -1;
  for (let c = 0; c < 256; c++) if (counts[c]! > 0 && (best < 0 || counts[c]! > counts[best]!)) best = c;
  return best;
}
