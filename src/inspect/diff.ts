// `prolong log diff`: the cell-level difference between two sections' settled boards, computed by the
// native boardDiff on the log's own bytes; colours are read only for the changed cells.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { ASCII_PALETTE, type GridMode } from "../log/format.ts";
import type { LoadedLog } from "../log/load.ts";
import { boardDiff } from "../native.ts";
import { COLOUR_NAMES, settledBoardBytes } from "./board.ts";

export interface ChangedCell {
  readonly x: number;
  readonly y: number;
  readonly from: number;
  readonly to: number;
}

export interface BoardDiffReport {
  readonly from: { readonly section: number; readonly action: number | null };
  readonly to: { readonly section: number; readonly action: number | null };
  readonly width: number;
  readonly height: number;
  readonly changed: number;
  /** Smallest box holding every changed cell (inclusive), null when nothing changed. */
  readonly box: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number } | null;
  readonly cells: ChangedCell[];
}

/** Rows of a board's text bytes: [start, end) of each row without its "\r\n". */
function rowStarts(b: Uint8Array): Array<[number, number]> {
  const rows: Array<[number, number]> = [];
  let s = 0;
  while (s < b.length) {
    let e = b.indexOf(10, s);
    const next = e < 0 ? b.length : e + 1;
    if (e < 0) e = b.length;
    if (e > s && b[e - 1] === 13) e--;
    if (e > s) rows.push([s, e]);
    s = next;
  }
  return rows;
}

function colourDecoder(mode: GridMode): Int8Array {
  const table = new Int8Array(256).fill(-1);
  const chars = mode === "ascii" ? ASCII_PALETTE : "0123456789abcdef";
  for (let c = 0; c < chars.length; c++) table[chars.charCodeAt(c)] = c;
  return table;
}

export function diffSections(log: LoadedLog, a: number, b: number, mode: GridMode): Result<BoardDiffReport, ProlongError> {
  const ba = settledBoardBytes(log, a);
  const bb = settledBoardBytes(log, b);
  const which = ba ? b : a;
  if (!ba || !bb) return err(prolongError("no-board", `section #${which} has no board to compare`, { path: log.path }));
  for (const i of [a, b]) {
    if (log.table.complete[i] === 0) {
      return err(
        prolongError("cut-board", `section #${i}'s board is cut short (the log ends inside it)`, {
          path: log.path,
          fix: "compare sections before it",
        }),
      );
    }
  }
  const ra = rowStarts(ba);
  const rb = rowStarts(bb);
  const width = (ra[0]?.[1] ?? 0) - (ra[0]?.[0] ?? 0);
  const sameShape =
    ra.length === rb.length && ra.every(([s, e], k) => e - s === width && (rb[k]?.[1] ?? 0) - (rb[k]?.[0] ?? 0) === width);
  if (!sameShape) {
    return err(
      prolongError(
        "board-shape",
        `the boards of sections #${a} and #${b} differ in shape (${ra.length} and ${rb.length} rows), so they cannot be compared cell by cell`,
        { path: log.path },
      ),
    );
  }
  const changedIdx = boardDiff(ba, bb);
  const dec = colourDecoder(mode);
  const cells: ChangedCell[] = [];
  let box: BoardDiffReport["box"] = null;
  for (const k of changedIdx) {
    const x = k % width;
    const y = (k - x) / width;
    const from = dec[ba[(ra[y]?.[0] ?? 0) + x] as number] as number;
    const to = dec[bb[(rb[y]?.[0] ?? 0) + x] as number] as number;
    cells.push({ x, y, from, to });
    box =
      box === null
        ? { x0: x, y0: y, x1: x, y1: y }
        : { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x), y1: Math.max(box.y1, y) };
  }
  const act = (i: number) => (log.table.kind[i] === 2 ? null : (log.table.action[i] as number));
  return ok({
    from: { section: a, action: act(a) },
    to: { section: b, action: act(b) },
    width,
    height: ra.length,
    changed: cells.length,
    box,
    cells,
  });
}

const LIST_LIMIT = 40;

function name(c: number): string {
  return c >= 0 ? `${COLOUR_NAMES[c]} (${c})` : "?";
}

/** A summary line, the changed cells in the box drawn as their new colour's character ('.' unchanged), and a list. */
export function formatDiff(d: BoardDiffReport, mode: GridMode): string {
  const label = (p: BoardDiffReport["from"]) => (p.action === null ? `#${p.section}` : `Action ${p.action} (#${p.section})`);
  const head = `${label(d.from)} -> ${label(d.to)}: ${d.changed} of ${d.width * d.height} cells changed`;
  if (!d.box) return head;
  const { x0, y0, x1, y1 } = d.box;
  const chars = mode === "ascii" ? ASCII_PALETTE : "0123456789abcdef";
  const out = [`${head}, in x ${x0}..${x1}, y ${y0}..${y1}`, "", `new colours in that box ('.' = unchanged), left column = y:`];
  const grid = new Map<number, number>();
  for (const c of d.cells) grid.set(c.y * d.width + c.x, c.to);
  for (let y = y0; y <= y1; y++) {
    let line = "";
    for (let x = x0; x <= x1; x++) {
      const to = grid.get(y * d.width + x);
      line += to === undefined ? "." : (chars[to] ?? "?");
    }
    out.push(`${String(y).padStart(3)} ${line}`);
  }
  out.push("", "cells (x, y): from -> to");
  for (const c of d.cells.slice(0, LIST_LIMIT)) out.push(`  (${c.x}, ${c.y}): ${name(c.from)} -> ${name(c.to)}`);
  if (d.cells.length > LIST_LIMIT) out.push(`  ... ${d.cells.length - LIST_LIMIT} more (--json lists every cell)`);
  return out.join("\n");
}
