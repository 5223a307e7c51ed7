// A screen's colours in the log, compactly: only the rows that hold a coloured cell, each as its row number
// (0 = the message line, 1..23 the rows of the board block) and its runs of one colour, "<column><code>" for
// one cell or "<column><code><length>" for several. "[COLOURS]" then " 5 12y 30B3" says row 5 has a yellow
// cell at column 12 and three bright blue cells from column 30. A screen with no colour writes no block.
// A cell not named is the terminal's default colour. The screen's size and codes live here, not in
// terminal.ts, so a reader of a log (`log show`, `view`) loads no terminal emulator.

export const COLS = 80;
export const ROWS = 24;

/** A cell in the terminal's default colour (or blank): most of a NetHack screen. */
export const DEFAULT_COLOUR = ".";
/** The 16 palette colours as one letter each: black red green yellow blue magenta cyan white, then bright. */
export const COLOUR_CODES = "krgybmcwKRGYBMCW";

/** The block's lines (each starting with a space), none when every cell has the default colour. */
export function encodeColours(rows: readonly string[]): string[] {
  const out: string[] = [];
  rows.forEach((row, y) => {
    const runs: string[] = [];
    for (let x = 0; x < row.length; ) {
      const c = row[x]!;
      let end = x + 1;
      while (end < row.length && row[end] === c) end++;
      if (c !== DEFAULT_COLOUR) runs.push(`${x}${c}${end - x > 1 ? end - x : ""}`);
      x = end;
    }
    if (runs.length > 0) out.push(` ${y} ${runs.join(" ")}`);
  });
  return out;
}

const CODE = `[${COLOUR_CODES}]`;
const LINE = new RegExp(`^ \\d{1,2}(?: \\d{1,2}${CODE}\\d{0,2})+$`);
const RUN = new RegExp(`^(\\d+)(${CODE})(\\d*)$`);

/** Whether a block line has the shape encodeColours writes (cheap: a log reader checks every one). */
export function isColourLine(line: string): boolean {
  return LINE.test(line);
}

/**
 * The block's runs as palette indices, per screen row: [first column, index in COLOUR_CODES, length], in the
 * order the lines give them, cut at the screen's edge (a run past it, or a row below it, is dropped there).
 * What readers draw from, without spelling out every cell.
 */
export function colourRuns(lines: readonly string[]): [number, number, number][][] {
  const rows = Array.from({ length: ROWS }, (): [number, number, number][] => []);
  for (const line of lines) {
    const [rowText, ...runs] = line.trim().split(" ");
    const row = rows[Number(rowText)];
    if (!row) continue;
    for (const run of runs) {
      const m = RUN.exec(run);
      if (!m) continue;
      const x = Number(m[1]);
      const end = Math.min(x + (m[3] ? Number(m[3]) : 1), COLS);
      if (x < end) row.push([x, COLOUR_CODES.indexOf(m[2]!), end - x]);
    }
  }
  return rows;
}

/** The 24 rows of 80 codes a block's lines describe (a run past the screen's edge or row is cut off there). */
export function decodeColours(lines: readonly string[]): string[] {
  return colourRuns(lines).map((runs) => {
    const row = DEFAULT_COLOUR.repeat(COLS).split("");
    for (const [x, code, length] of runs) row.fill(COLOUR_CODES[code]!, x, x + length);
    return row.join("");
  });
}
