// The human player's screen for a grid game, fitted to the terminal: the status line on top (always
// visible), a coordinate ruler for games that take clicks, the board, a message line and the keys.
//
// The whole board is on screen whenever the terminal allows it: at full size (two grid rows per text line)
// when it fits, else at half size (each 2x2 block of cells one cell), so a 64x64 board fits 80x24 and even
// 40 columns. A half-size cell shows the block's rarest colour on the board, so a small thing (an unlit tile,
// a dot, the player) is never painted over by what surrounds it. `f` asks for full size anyway: the board
// then scrolls (PgUp/PgDn), follows the cells that changed, and the status line says loudly which rows are
// hidden. A terminal too small even for half size gets a screen naming the size needed instead of a board.
// Pure: text in, text out; mouse positions map back here.
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
  /** First grid row shown at full size (even). */
  readonly top: number;
  /** The person asked for full size (`f`) even when only half size shows the whole board. */
  readonly fullSize: boolean;
}

export interface ScreenLayout {
  /** 1-based terminal row of the first board line, and column of the board's x = 0. */
  readonly boardRow: number;
  readonly boardCol: number;
  /** Grid cells per character: 1 at full size, 2 at half size. Each line shows two character rows of cells. */
  readonly scale: 1 | 2;
  /** First grid row shown and how many board lines there are. */
  readonly top: number;
  readonly lines: number;
  readonly gridWidth: number;
  readonly gridHeight: number;
  /** At half size, the grid cell each shown cell stands for (its index in the board), for clicks. */
  readonly picks?: Int32Array;
}

const GUTTER = 3;
/** Fewest board lines worth showing at full size (the scrolling view). */
const MIN_LINES = 4;

/** Lines the status, ruler, message and help take. */
const chrome = (clickable: boolean): number => (clickable ? 4 : 3);
const gutter = (clickable: boolean): number => (clickable ? GUTTER : 0);

/** The smallest terminal that shows this board whole (at half size): the size the refusal names. */
export function terminalNeeds(board: Pick<Grid, "width" | "height">, clickable: boolean): { cols: number; rows: number } {
  return {
    cols: Math.ceil(board.width / 2) + gutter(clickable),
    rows: Math.ceil(board.height / 4) + chrome(clickable),
  };
}

/** Whether the board fits whole at this scale. */
function fitsAt(scale: 1 | 2, s: Pick<ScreenInput, "cols" | "rows" | "clickable">, board: Pick<Grid, "width" | "height">) {
  const lines = Math.ceil(board.height / (2 * scale));
  return Math.ceil(board.width / scale) + gutter(s.clickable) <= s.cols && lines + chrome(s.clickable) <= s.rows;
}

/** The layout for this terminal, or null when it is too small to show the board whole even at half size. */
export function layoutOf(
  s: Pick<ScreenInput, "rows" | "cols" | "clickable" | "top" | "fullSize"> & { board: Pick<Grid, "width" | "height"> },
): ScreenLayout | null {
  const { board } = s;
  const base = {
    boardRow: s.clickable ? 3 : 2,
    boardCol: s.clickable ? GUTTER + 1 : 1,
    gridWidth: board.width,
    gridHeight: board.height,
  };
  const room = s.rows - chrome(s.clickable);
  const wideEnough = board.width + gutter(s.clickable) <= s.cols;
  if (fitsAt(1, s, board) || (s.fullSize && wideEnough && room >= MIN_LINES)) {
    const lines = Math.min(Math.ceil(board.height / 2), room);
    return { ...base, scale: 1, lines, top: clampTop(s.top, lines, board.height) };
  }
  if (fitsAt(2, s, board)) return { ...base, scale: 2, lines: Math.ceil(board.height / 4), top: 0 };
  return null;
}

function clampTop(top: number, lines: number, height: number): number {
  const max = Math.max(0, height - 2 * lines);
  return Math.max(0, Math.min(max, top - (top % 2)));
}

/** Cut to the terminal's width: a line that wrapped would push everything below it down. */
function cut(text: string, cols: number): string {
  return text.length < cols ? text : text.slice(0, Math.max(0, cols - 1));
}

/**
 * The board at half size: each 2x2 block becomes one cell of the block's colour that is rarest on the whole
 * board (ties: the first in reading order), and `picks` says which cell of the board that was.
 */
export function halfSize(board: Grid): { grid: Grid; picks: Int32Array } {
  const counts = new Array<number>(256).fill(0);
  for (const c of board.cells) counts[c]! += 1;
  const width = Math.ceil(board.width / 2);
  const height = Math.ceil(board.height / 2);
  const cells = new Uint8Array(width * height);
  const picks = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let best = -1;
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const gx = 2 * x + dx;
          const gy = 2 * y + dy;
          if (gx >= board.width || gy >= board.height) continue;
          const i = gy * board.width + gx;
          if (best < 0 || counts[board.cells[i]!]! < counts[board.cells[best]!]!) best = i;
        }
      }
      cells[y * width + x] = board.cells[best]!;
      picks[y * width + x] = best;
    }
  }
  return { grid: { width, height, cells }, picks };
}

/** Reverse video: what the status line must not let anyone miss. */
const loud = (text: string): string => `\x1b[7m${text}\x1b[27m`;

/** The whole screen as one write (cursor home, each line cleared as it is drawn, nothing below kept). */
export function renderScreen(s: ScreenInput): { text: string; layout: ScreenLayout | null } {
  const layout = layoutOf(s);
  if (!layout) {
    const what = `the ${s.board.width}x${s.board.height} board`;
    return { text: tooSmallScreen({ ...s, what, need: terminalNeeds(s.board, s.clickable) }), layout };
  }
  const { top, lines, scale } = layout;
  const half = scale === 2 ? halfSize(s.board) : undefined;
  const shown = half?.grid ?? s.board;
  const window: Grid = {
    width: shown.width,
    height: Math.min(2 * lines, shown.height - top),
    cells: shown.cells.subarray(top * shown.width, Math.min(shown.height, top + 2 * lines) * shown.width),
  };
  const drawn = gridToAnsi(window);
  const out: string[] = [statusText(s, layout)];
  if (s.clickable) {
    // Labels in grid coordinates every 8 characters, whatever the scale: clicks and `c x y` use them.
    let ruler = " ".repeat(GUTTER);
    for (let x = 0; x < shown.width; x += 8) ruler += String(x * scale).padEnd(8);
    out.push(cut(ruler.trimEnd(), s.cols));
  }
  drawn.forEach((line, k) => {
    const y = (top + 2 * k) * scale;
    const label = y % (8 * scale) === 0 ? String(y).padStart(GUTTER - 1) : " ".repeat(GUTTER - 1);
    out.push(s.clickable ? `${label} ${line}` : line);
  });
  out.push(cut(s.message, s.cols), cut(s.help, s.cols));
  return {
    text: `\x1b[H${out.map((l) => `${l}\x1b[K`).join("\r\n")}\x1b[J`,
    layout: half ? { ...layout, picks: half.picks } : layout,
  };
}

/** The status line: rows hidden by the full-size view first and in reverse video, else the scale at the end. */
function statusText(s: ScreenInput, layout: ScreenLayout): string {
  if (layout.scale === 2) {
    const note = " · half size (f: full)";
    return cut(s.status + (s.status.length + note.length < s.cols ? note : ""), s.cols);
  }
  if (s.board.height <= 2 * layout.lines) return cut(s.status, s.cols);
  const bottom = Math.min(s.board.height, layout.top + 2 * layout.lines) - 1;
  const hidden = s.board.height - (bottom - layout.top + 1);
  const marker = ` ${hidden} ROWS HIDDEN: showing ${layout.top}-${bottom} of ${s.board.height}, PgUp/PgDn, f fits `;
  const text = cut(`${marker} ${s.status}`, s.cols);
  return loud(text.slice(0, marker.length)) + text.slice(marker.length);
}

/** What a too-small terminal shows instead of the game: the size needed, each line cut to the width. */
export function tooSmallScreen(s: {
  readonly status: string;
  /** What does not fit, e.g. "the 64x64 board". */
  readonly what: string;
  readonly need: { readonly cols: number; readonly rows: number };
  readonly cols: number;
  readonly rows: number;
}): string {
  const lines = [
    s.status,
    `This terminal is ${s.cols}x${s.rows}: too small for ${s.what}.`,
    `It needs at least ${s.need.cols}x${s.need.rows}: enlarge the window.`,
    "Ctrl-C pauses the run (prolong resume).",
  ]
    .map((l) => cut(l, s.cols))
    .slice(0, Math.max(1, s.rows));
  return `\x1b[H${lines.map((l) => `${l}\x1b[K`).join("\r\n")}\x1b[J`;
}

/**
 * The grid cell under a click, or null off the board. Each line shows two rows of shown cells: the upper one
 * is taken. At half size that is the board cell the shown one stands for (the one whose colour is shown).
 */
export function cellAt(layout: ScreenLayout, col: number, row: number): { x: number; y: number } | null {
  const x = col - layout.boardCol;
  const line = row - layout.boardRow;
  const width = Math.ceil(layout.gridWidth / layout.scale);
  const height = Math.ceil(layout.gridHeight / layout.scale);
  if (x < 0 || x >= width || line < 0 || line >= layout.lines) return null;
  const y = layout.top + 2 * line;
  if (y >= height) return null;
  if (layout.scale === 1 || !layout.picks) return { x, y };
  const i = layout.picks[y * width + x]!;
  return { x: i % layout.gridWidth, y: Math.floor(i / layout.gridWidth) };
}

/**
 * Where the full-size window should start after the board changed from `before` to `after`: unchanged when
 * every changed cell is on screen (or nothing changed), else centred on the changed rows. The bottom row is
 * left out: the local games draw their step bar there, which changes on every action (the status line shows it).
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
