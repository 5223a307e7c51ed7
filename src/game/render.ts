// Terminal drawing of a grid in the ARC palette: truecolour half-blocks, two grid rows per text line, so a
// 64x64 board fits in 64 columns by 32 lines.
import type { Grid } from "../game-model.ts";

/** The ARC-AGI-3 palette as RGB, colour i at index i (White, Off-White, ... Purple). */
export const ARC_RGB: readonly (readonly [number, number, number])[] = [
  [255, 255, 255],
  [204, 204, 204],
  [153, 153, 153],
  [102, 102, 102],
  [51, 51, 51],
  [0, 0, 0],
  [229, 58, 163],
  [255, 123, 204],
  [249, 60, 49],
  [30, 147, 255],
  [136, 216, 241],
  [255, 220, 0],
  [255, 133, 27],
  [146, 18, 49],
  [79, 204, 48],
  [163, 86, 214],
];

const UPPER_HALF = "\u2580";
const RESET_STYLE = "\x1b[0m";

function rgb(i: number): string {
  const c = ARC_RGB[i] ?? ARC_RGB[5]!;
  return `${c[0]};${c[1]};${c[2]}`;
}

/** The grid as lines of ANSI text: each character shows the cell above in its foreground, the one below in its background. */
export function gridToAnsi(grid: Grid): string[] {
  const lines: string[] = [];
  for (let y = 0; y < grid.height; y += 2) {
    let line = "";
    for (let x = 0; x < grid.width; x++) {
      const top = grid.cells[y * grid.width + x] ?? 5;
      const bottom = y + 1 < grid.height ? (grid.cells[(y + 1) * grid.width + x] ?? 5) : 5;
      line += `\x1b[38;2;${rgb(top)}m\x1b[48;2;${rgb(bottom)}m${UPPER_HALF}`;
    }
    lines.push(line + RESET_STYLE);
  }
  return lines;
}
