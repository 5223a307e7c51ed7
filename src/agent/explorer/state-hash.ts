// A state is the settled board with status bars blanked, within one level: two visits to the same
// scene hash alike even when the step meter below it has moved.
import type { BarMask } from "./status-bars.ts";

/** Masked cells take this value, outside the 0..15 colours. */
const MASKED = 255;

export class StateHasher {
  private readonly scratch: Uint8Array;
  private readonly maskedCells: Int32Array;

  constructor(private readonly mask: BarMask) {
    this.scratch = new Uint8Array(mask.cells.length);
    const masked: number[] = [];
    for (let i = 0; i < mask.cells.length; i++) if (mask.cells[i] === 1) masked.push(i);
    this.maskedCells = Int32Array.from(masked);
  }

  /** Key of a board in a level: "<score>:<hash>". `score` is levels completed when the board was seen. */
  key(score: number, board: Uint8Array): string {
    let bytes = board;
    if (this.maskedCells.length > 0 && board.length === this.scratch.length) {
      this.scratch.set(board);
      for (const i of this.maskedCells) this.scratch[i] = MASKED;
      bytes = this.scratch;
    }
    return `${score}:${Bun.hash.xxHash3(bytes).toString(16)}`;
  }
}
