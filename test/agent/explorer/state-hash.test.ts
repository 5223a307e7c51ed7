import { describe, expect, test } from "bun:test";
import { readLog } from "../../../src/agent/explorer/read-log.ts";
import { StateHasher } from "../../../src/agent/explorer/state-hash.ts";
import { detectBars, emptyMask } from "../../../src/agent/explorer/status-bars.ts";
import { board64, logOf, type Step } from "./helpers.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

/** A player square that moves right then left again, with a bar on row 63 that drains one cell per step. */
function barLog(steps: number): string {
  const list: Step[] = [];
  for (let i = 1; i <= steps; i++) {
    const x = 8 + 4 * (i % 2);
    list.push({ action: { id: i % 2 === 1 ? 4 : 3 }, board: board64(5, [{ x, y: 8, w: 4, h: 4, c: 8 }, { x: 0, y: 63, w: 64 - i, h: 1, c: 9 }]) });
  }
  return logOf(board64(5, [{ x: 8, y: 8, w: 4, h: 4, c: 8 }, { x: 0, y: 63, w: 64, h: 1, c: 9 }]), list);
}

describe("status bars", () => {
  test("a bottom row that drains every step is a bar; the rows the player walks are not", () => {
    const run = readLog(bytes(barLog(6)), "logs.txt")._unsafeUnwrap();
    const bars = detectBars(run.steps, run.width, run.height);
    expect(bars.rows).toEqual([63]);
    expect(bars.cols).toEqual([]);
    expect(bars.cells[63 * 64 + 5]).toBe(1);
    expect(bars.cells[62 * 64 + 5]).toBe(0);
  });

  test("too few steps: no bar is claimed", () => {
    const run = readLog(bytes(barLog(2)), "logs.txt")._unsafeUnwrap();
    expect(detectBars(run.steps, run.width, run.height).rows).toEqual([]);
  });

  test("a row that fills and empties again within an attempt is not a bar", () => {
    const list: Step[] = [];
    for (let i = 1; i <= 8; i++) list.push({ action: { id: 5 }, board: board64(5, [{ x: 0, y: 63, w: i <= 4 ? 10 + i : 18 - i, h: 1, c: 9 }]) });
    const run = readLog(bytes(logOf(board64(5, [{ x: 0, y: 63, w: 10, h: 1, c: 9 }]), list)), "logs.txt")._unsafeUnwrap();
    expect(detectBars(run.steps, run.width, run.height).rows).toEqual([]);
  });
});

describe("state hashing", () => {
  test("boards that differ only on the bar hash alike once the bar is masked, and apart without it", () => {
    const run = readLog(bytes(barLog(6)), "logs.txt")._unsafeUnwrap();
    const b0 = run.steps[0]!.board!;
    const b2 = run.steps[2]!.board!; // same player place as the initial board, 2 bar cells fewer
    const masked = new StateHasher(detectBars(run.steps, run.width, run.height), run.width);
    const plain = new StateHasher(emptyMask(run.width, run.height), run.width);
    expect(masked.key(0, b0)).toBe(masked.key(0, b2));
    expect(plain.key(0, b0)).not.toBe(plain.key(0, b2));
    expect(masked.key(0, b0)).not.toBe(masked.key(0, run.steps[1]!.board!));
  });

  test("the same board on another level is another state; equal boards in different sections hash alike", () => {
    const b = board64(5);
    const run = readLog(bytes(logOf(b, [{ action: { id: 1 }, board: b }])), "logs.txt")._unsafeUnwrap();
    const h = new StateHasher(emptyMask(64, 64), 64);
    const [s0, s1] = [run.steps[0]!.board!, run.steps[1]!.board!];
    expect(h.key(0, s0)).not.toBe(h.key(1, s0));
    expect(h.key(0, s0)).toBe(h.key(0, s1));
  });
});
