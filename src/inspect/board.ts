// Boards of an indexed log, straight from the native table's byte ranges (no section parse needed), and
// their terminal rendering in the ARC palette. The palette's RGB values have one home: game/render.ts.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Grid } from "../game-model.ts";
import { gridToAnsi } from "../game/render.ts";
import { detectGridMode, textToGrid, type GridMode } from "../log/format.ts";
import type { LoadedLog } from "../log/load.ts";

/** Colour i's name (reference-facts.md, "ascii palette"). */
export const COLOUR_NAMES = [
  "White",
  "Off-White",
  "Light Gray",
  "Gray",
  "Off-Black",
  "Black",
  "Magenta",
  "Light Magenta",
  "Red",
  "Blue",
  "Light Blue",
  "Yellow",
  "Orange",
  "Maroon",
  "Green",
  "Purple",
] as const;

const latin1 = new TextDecoder("latin1");

/** The settled board's text bytes of section i (rows and their newlines), or null when it has none. */
export function settledBoardBytes(log: LoadedLog, i: number): Uint8Array | null {
  const s = log.table.boardStart[i] as number;
  const e = log.table.boardEnd[i] as number;
  return s < 0 || e <= s ? null : log.bytes.subarray(s, e);
}

/**
 * A log's grid encoding, decided once: ascii and hex share '8' and 'f', so one board made only of those is
 * ambiguous; the first boards that are not settle it for the whole log.
 */
export function logGridMode(log: LoadedLog): GridMode {
  let seen = 0;
  for (let i = 0; i < log.table.count && seen < 8; i++) {
    const b = settledBoardBytes(log, i);
    if (!b) continue;
    seen++;
    if (detectGridMode(latin1.decode(b)) === "hex") return "hex";
  }
  return "ascii";
}

/** Section i's settled board as a Grid; an error says why it cannot be read (none, cut, foreign cells). */
export function settledBoard(log: LoadedLog, i: number, mode: GridMode): Result<Grid, ProlongError> {
  const b = settledBoardBytes(log, i);
  if (!b) return err(prolongError("no-board", `section #${i} has no board`, { path: log.path }));
  if (log.table.complete[i] === 0) {
    return err(
      prolongError("cut-board", `section #${i}'s board is cut short (the log ends inside it)`, {
        path: log.path,
        fix: "the sections before it are whole",
      }),
    );
  }
  const g = textToGrid(latin1.decode(b), mode);
  return g.isErr() ? err({ ...g.error, path: log.path, message: `section #${i}: ${g.error.message}` }) : ok(g.value);
}

/** The board as terminal lines: ANSI half-blocks in colour, or the log's own text when colour is off. */
export function renderBoard(grid: Grid, colour: boolean, text: string): string[] {
  return colour ? gridToAnsi(grid) : text.split("\n");
}
