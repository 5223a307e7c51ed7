// The obviously-correct twins of native boardDiff and cellChanges: split boards into rows, compare cells.
import type { SectionTable } from "../../src/native.ts";

function rows(board: Uint8Array): string[] {
  if (board.length === 0) return [];
  const text = Buffer.from(board.buffer, board.byteOffset, board.byteLength).toString("latin1");
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n").map((r) => (r.endsWith("\r") ? r.slice(0, -1) : r));
}

/** Changed cells as y*width+x (width = first row's length), or null when the shapes differ. */
function diffCells(a: Uint8Array, b: Uint8Array): number[] | null {
  const ra = rows(a);
  const rb = rows(b);
  if (ra.length !== rb.length || ra.some((r, y) => r.length !== rb[y]!.length)) return null;
  const width = ra[0]?.length ?? 0;
  const out: number[] = [];
  ra.forEach((r, y) => {
    for (let x = 0; x < r.length; x++) if (r[x] !== rb[y]![x]) out.push(y * width + x);
  });
  return out;
}

export function boardDiffOracle(a: Uint8Array, b: Uint8Array): Int32Array {
  const cells = diffCells(a, b);
  if (cells === null) throw new RangeError("boardDiff: the boards differ in shape");
  return new Int32Array(cells);
}

export function cellChangesOracle(buf: Uint8Array, table: SectionTable): Int32Array {
  const out = new Int32Array(table.count);
  let prev: Uint8Array | null = null;
  for (let k = 0; k < table.count; k++) {
    const s = table.boardStart[k]!;
    const cur = s < 0 ? null : buf.subarray(s, table.boardEnd[k]!);
    out[k] = prev !== null && cur !== null ? (diffCells(prev, cur)?.length ?? -1) : -1;
    prev = cur;
  }
  return out;
}
