// A state is the settled board with status bars blanked, within one level: two visits to the same
// scene hash alike even when the step meter below it has moved.
import type { LoggedBoard } from "./read-log.ts";
import type { BarMask } from "./status-bars.ts";

/** Masked cells take this byte, which no grid text uses. */
const MASKED = 0;

export class StateHasher {
  private scratch = new Uint8Array(0);
  private readonly maskedCells: Int32Array;

  constructor(private readonly mask: BarMask, private readonly width: number) {
    const masked: number[] = [];
    for (let i = 0; i < mask.cells.length; i++) if (mask.cells[i] === 1) masked.push(i);
    this.maskedCells = Int32Array.from(masked);
  }

  /** Key of a board in a level: "<score>:<hash>". `score` is levels completed when the board was seen. */
  key(score: number, board: LoggedBoard): string {
    let bytes = board.text;
    if (this.maskedCells.length > 0) {
      if (this.scratch.length !== bytes.length) this.scratch = new Uint8Array(bytes.length);
      this.scratch.set(bytes);
      for (const i of this.maskedCells) {
        const x = i % this.width;
        this.scratch[((i - x) / this.width) * board.stride + x] = MASKED;
      }
      bytes = this.scratch;
    }
    return `${score}:${Bun.hash.xxHash3(bytes).toString(16)}`;
  }
}
