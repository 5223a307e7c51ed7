// The human player's screen, fitted to the terminal: the status line on top (always visible), a coordinate
// ruler for games that take clicks, as many board lines as fit (two grid rows per line), a message line and
// the keys. A board taller than the window scrolls; it follows the cells that changed, so what a game shows
// once (a code, a flash) is on screen when it happens. Pure: text in, text out; mouse positions map back here.
import { gridToAnsi } from "../game/render.ts";
import type { Grid } from "../game-model.ts";

export interface ScreenInput {
  readonly board: Grid;
  readonly status: string;
  readonly message: string;
  readonly help: string;
  readonly cols: number;
  readonly rows: number;
  /** Show the x ruler and y gutter (the game takes ACTION6 clicks). */
  readonly clickable: boolean;
  /** First grid row shown (even). */
  readonly top: number;
}

export interface ScreenLayout {
  /** 1-based terminal row of the first board line, and column of the board's x = 0. */
  readonly boardRow: number;
  readonly boardCol: number;
  /** First grid row shown and how many board lines there are (each two grid rows). */
  readonly top: number;
  readonly lines: number;
  readonly gridWidth: number;
  readonly gridHeight: number;
}

const GUTTER = 3;

/** Board lines that fit: everything but the status, ruler, message and help lines; at least 4. */
export function boardLines(rows: number, clickable: boolean, gridHeight: number): number {
  return Math.max(4, Math.min(Math.ceil(gridHeight / 2), rows - (clickable ? 4 : 3)));
}

export function layoutOf(
  s: Pick<ScreenInput, "rows" | "clickable" | "top"> & { board: Pick<Grid, "width" | "height"> },
): ScreenLayout {
  const lines = boardLines(s.rows, s.clickable, s.board.height);
  return {
    boardRow: s.clickable ? 3 : 2,
    boardCol: s.clickable ? GUTTER + 1 : 1,
    top: clampTop(s.top, lines, s.board.height),
    lines,
    gridWidth: s.board.width,
    gridHeight: s.board.height,
  };
}

function clampTop(top: number, lines: number, height: number): number {
  const max = Math.max(0, height - 2 * lines);
  return Math.max(0, Math.min(max, top - (top % 2)));
}

function cut(text: string, cols: number): string {
  return text.length < cols ? text : text.slice(0, Math.max(0, cols - 1));
}

/** The whole screen as one write (cursor home, each line cleared as it is drawn, nothing below kept). */
export function renderScreen(s: ScreenInput): { text: string; layout: ScreenLayout } {
  const layout = layoutOf(s);
  const { top, lines } = layout;
  const window: Grid = {
    width: s.board.width,
    height: Math.min(2 * lines, s.board.height - top),
    cells: s.board.cells.subarray(top * s.board.width, Math.min(s.board.height, top + 2 * lines) * s.board.width),
  };
  const drawn = gridToAnsi(window);
  // A board taller than the window: which rows show, on the status line (always visible), with the keys if they fit.
  const bottom = Math.min(s.board.height, top + 2 * lines) - 1;
  const scrolled =
    s.board.height > 2 * lines
      ? [` · rows ${top}-${bottom}/${s.board.height} PgUp/Dn`, ` · rows ${top}-${bottom}/${s.board.height}`]
      : [""];
  const status = s.status + (scrolled.find((m) => s.status.length + m.length < s.cols) ?? scrolled[scrolled.length - 1]!);
  const out: string[] = [cut(status, s.cols)];
  if (s.clickable) {
    let ruler = " ".repeat(GUTTER);
    for (let x = 0; x < s.board.width; x += 8) ruler += String(x).padEnd(8);
    out.push(cut(ruler.trimEnd(), s.cols));
  }
  drawn.forEach((line, k) => {
    const y = top + 2 * k;
    out.push(s.clickable ? `${y % 8 === 0 ? String(y).padStart(GUTTER - 1) : " ".repeat(GUTTER - 1)} ${line}` : line);
  });
  out.push(cut(s.message, s.cols), cut(s.help, s.cols));
  return { text: `\x1b[H${out.map((l) => `${l}\x1b[K`).join("\r\n")}\x1b[J`, layout };
}

/** The grid cell under a click, or null off the board. Each line shows two grid rows: the upper one is taken. */
export function cellAt(layout: ScreenLayout, col: number, row: number): { x: number; y: number } | null {
  const x = col - layout.boardCol;
  const line = row - layout.boardRow;
  if (x < 0 || x >= layout.gridWidth || line < 0 || line >= layout.lines) return null;
  const y = layout.top + 2 * line;
  return y < layout.gridHeight ? { x, y } : null;
}

/**
 * Where the window should start after the board changed from `before` to `after`: unchanged when every
 * changed cell is on screen (or nothing changed), else centred on the changed rows. The bottom row is left
 * out: the local games draw their step bar there, which changes on every action (the status line shows it).
 */
export function followChange(before: Grid | undefined, after: Grid, top: number, lines: number): number {
  if (after.height <= 2 * lines) return 0;
  let first = -1;
  let last = -1;
  if (before === undefined || before.width !== after.width || before.height !== after.height)
    return clampTop(top, lines, after.height);
  for (let y = 0; y < after.height - 1; y++) {
    const a = before.cells.subarray(y * after.width, (y + 1) * after.width);
    const b = after.cells.subarray(y * after.width, (y + 1) * after.width);
    if (!a.every((v, i) => v === b[i])) {
      if (first < 0) first = y;
      last = y;
    }
  }
  if (first < 0 || (first >= top && last < top + 2 * lines)) return clampTop(top, lines, after.height);
  const span = last - first + 1;
  const start = span >= 2 * lines ? first : first - Math.floor((2 * lines - span) / 2);
  return clampTop(start, lines, after.height);
}
