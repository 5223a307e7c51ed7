// Boards as text: the two grid encodings of the log format (one character per cell, one line per row).
// This file only turns a Grid into lines and back; where boards sit inside a section is format.ts's job.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { COLOR_COUNT, type Grid } from "../game-model.ts";

/** "ascii": the paper's palette (the published logs use it); "hex": one lowercase hex digit per cell. */
export type GridMode = "ascii" | "hex";

/** Colour i is written as ASCII_PALETTE[i]: White $, Off-White 8, Light Gray #, ..., Purple ". */
export const ASCII_PALETTE = '$8#hqOCznf(G->I"';
const HEX_DIGITS = "0123456789abcdef";

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

function encodeTable(mode: GridMode): Uint8Array {
  const chars = mode === "ascii" ? ASCII_PALETTE : HEX_DIGITS;
  return Uint8Array.from({ length: COLOR_COUNT }, (_, i) => chars.charCodeAt(i));
}

/** Byte → colour for every byte value, -1 where the byte is not a cell of that mode. */
function decodeTable(mode: GridMode): Int8Array {
  const chars = mode === "ascii" ? ASCII_PALETTE : HEX_DIGITS;
  const table = new Int8Array(256).fill(-1);
  for (let i = 0; i < COLOR_COUNT; i++) table[chars.charCodeAt(i)] = i;
  return table;
}

const ENCODE: Record<GridMode, Uint8Array> = { ascii: encodeTable("ascii"), hex: encodeTable("hex") };
/** THE decode tables (byte → colour, -1 for a byte that is no cell): the parser here and fast readers (the explorer's) share them. */
export const CELL_DECODE: Readonly<Record<GridMode, Int8Array>> = { ascii: decodeTable("ascii"), hex: decodeTable("hex") };
const DECODE = CELL_DECODE;
const latin1 = new TextDecoder("latin1");

/** Rows joined by "\n", with NO final newline (the section writer owns the newlines around a board). */
export function gridToText(g: Grid, mode: GridMode): string {
  const enc = ENCODE[mode];
  const { width, height, cells } = g;
  if (width === 0 || height === 0) return "";
  const out = new Uint8Array((width + 1) * height - 1);
  let o = 0;
  for (let y = 0; y < height; y++) {
    if (y > 0) out[o++] = NEWLINE;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const c = cells[row + x] ?? 0;
      // A colour outside 0..15 is a bug in whoever built the grid, not bad input.
      if (c >= COLOR_COUNT) throw new RangeError(`gridToText: cell (${x},${y}) has colour ${c}, expected 0..15`);
      out[o++] = enc[c] ?? 0;
    }
  }
  return latin1.decode(out);
}

/**
 * Which encoding a board's text uses. The two alphabets share only '8' and 'f'; a board made of those
 * two characters alone is read as ascii, the encoding of the published logs.
 */
export function detectGridMode(text: string): GridMode {
  const ascii = DECODE.ascii;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE || c === CARRIAGE_RETURN) continue;
    if (c >= 256 || ascii[c] === -1) return "hex";
  }
  return "ascii";
}

/**
 * Parses rows separated by "\n" (a "\r" before it and one final newline are accepted). Every row must be
 * as long as the first and every character a cell of the mode; "auto" picks the mode with detectGridMode.
 */
export function textToGrid(text: string, mode: GridMode | "auto"): Result<Grid, ProlongError> {
  const m = mode === "auto" ? detectGridMode(text) : mode;
  const dec = DECODE[m];
  const rows = text.split("\n");
  if (rows.length > 1 && rows[rows.length - 1] === "") rows.pop();
  const first = stripCr(rows[0] ?? "");
  if (first.length === 0) {
    return err(
      prolongError("bad-grid", "board is empty: expected rows of cell characters", {
        fix: "write at least one row of cells",
      }),
    );
  }
  const width = first.length;
  const height = rows.length;
  const cells = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = stripCr(rows[y] ?? "");
    if (row.length !== width) {
      return err(
        prolongError("bad-grid", `board row ${y + 1} has ${row.length} cells, expected ${width} like row 1`, {
          fix: "every row of a board must have the same length (a cut row means the log was truncated)",
        }),
      );
    }
    for (let x = 0; x < width; x++) {
      const code = row.charCodeAt(x);
      const colour = code < 256 ? (dec[code] ?? -1) : -1;
      if (colour < 0) {
        return err(
          prolongError("bad-grid", `board row ${y + 1} column ${x + 1} has ${JSON.stringify(row[x])}, not a ${m} cell`, {
            fix: m === "ascii" ? `ascii cells are the characters of ${ASCII_PALETTE}` : "hex cells are 0-9 and a-f",
          }),
        );
      }
      cells[y * width + x] = colour;
    }
  }
  return ok({ width, height, cells });
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
