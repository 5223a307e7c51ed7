// An action whose animation shows something other than the board it settles on did something, even when
// it settles where it was (water poured and drained away, a piece slid and came back): its kind is not
// learned as one that never does anything, so it is tested again in every new state. At the state where it
// was tried it stays a no-op (the same state gives the same show).
import { describe, expect, test } from "bun:test";
import { ExplorationGraph, isNoop } from "../../../src/agent/explorer/graph.ts";
import { decide } from "../../../src/agent/explorer/plan.ts";
import { foldStep, type Step } from "../../../src/agent/explorer/log-cursor.ts";
import { readLog } from "../../../src/agent/explorer/read-log.ts";
import type { Action, Grid } from "../../../src/game-model.ts";
import { writeLog, type LogSection } from "../../../src/log/format.ts";
import { board64 } from "./helpers.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

/** The piece at tile column x of a corridor. */
const at = (x: number) => board64(5, [{ x: 4 * x, y: 8, w: 4, h: 4, c: 8 }]);
/** The same board with something poured over it for a moment: a column of colour 11 under row 40. */
const pouring = (x: number, depth: number) => {
  const g = at(x);
  const cells = g.cells.slice();
  for (let y = 40; y < 40 + depth; y++) cells[y * 64 + 30] = 11;
  return { ...g, cells };
};

interface Made {
  readonly action: Action;
  readonly board: Grid;
  readonly frames?: Grid[];
}

function logOf(initial: Grid, made: Made[]): string {
  const sections: LogSection[] = [
    { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: initial },
    ...made.map(
      (m, i): LogSection => ({
        header: { action: i + 1, level: 1, attempt: 1, score: 0, kind: "action" },
        toolCall: m.action,
        frames: m.frames ?? [],
        board: m.board,
      }),
    ),
  ];
  return writeLog(sections, "ascii");
}

function stepsOf(log: string): Step[] {
  return readLog(bytes(log), "logs.txt")._unsafeUnwrap().steps.map(foldStep);
}

/** At each of `n` places: ACTION5 pours (frames apart from the settled board) and settles back, then a move right. */
function pourEverywhere(n: number, frames: (x: number) => Grid[]): Made[] {
  const out: Made[] = [];
  for (let x = 0; x < n; x++) {
    out.push({ action: { id: 5 }, board: at(x), frames: frames(x) });
    out.push({ action: { id: 4 }, board: at(x + 1) });
  }
  return out;
}

function graphOf(steps: Step[], mask = new Uint8Array(64 * 64)): ExplorationGraph {
  const graph = new ExplorationGraph(mask, "test", 64, 64);
  for (const s of steps) graph.add(s);
  return graph;
}

describe("animation frames between two boards", () => {
  test("the log reader lists the cells a frame showed apart from the settled board, and nothing without a difference", () => {
    const log = logOf(at(0), [
      { action: { id: 5 }, board: at(0), frames: [pouring(0, 2), pouring(0, 3), at(0)] },
      { action: { id: 5 }, board: at(0), frames: [at(0), at(0)] },
      { action: { id: 4 }, board: at(1) },
    ]);
    const steps = readLog(bytes(log), "logs.txt")._unsafeUnwrap().steps;
    expect(steps.map((s) => s.board !== undefined)).toEqual([true, true, true, true]);
    expect([...steps[1]!.between!]).toEqual([40 * 64 + 30, 41 * 64 + 30, 42 * 64 + 30]);
    expect(steps[2]!.between).toBeUndefined(); // frames equal to the settled board
    expect(steps[3]!.between).toBeUndefined(); // no frames
  });

  test("an action that animates and settles back stays a no-op there, but its kind is not learned as doing nothing", () => {
    const graph = graphOf(
      stepsOf(
        logOf(
          at(0),
          pourEverywhere(9, (x) => [pouring(x, 4), pouring(x, 8)]),
        ),
      ),
    );
    const start = graph.key(0, at(0).cells);
    const pour = graph.edges.get(start)!.get("5")!;
    expect(pour.to).toBe(start); // the board settled where it was: the same show again here
    expect(isNoop(pour)).toBe(true);
    expect(graph.moves.get(5)).toEqual({ tries: 9, changes: 9 });
    // In the new state it comes before the clicks, as an untested move does; a kind that never did anything
    // in eight states would wait behind them.
    expect(graph.current).toBe(graph.key(0, at(9).cells));
    expect(decide(graph, { available: [5, 6], actionCap: 20, seed: 1 }).actions).toEqual([{ id: 5 }]);
  });

  test("without frames, or with frames that differ only under the indicator mask, it stays a no-op", () => {
    const still = graphOf(
      stepsOf(
        logOf(
          at(0),
          pourEverywhere(9, () => []),
        ),
      ),
    );
    expect(isNoop(still.edges.get(still.key(0, at(0).cells))!.get("5")!)).toBe(true);
    expect(still.moves.get(5)).toEqual({ tries: 9, changes: 0 });

    const mask = new Uint8Array(64 * 64);
    for (let y = 40; y < 48; y++) mask[y * 64 + 30] = 1; // a meter column where the frames differ
    const masked = graphOf(
      stepsOf(
        logOf(
          at(0),
          pourEverywhere(9, (x) => [pouring(x, 8)]),
        ),
      ),
      mask,
    );
    expect(isNoop(masked.edges.get(masked.key(0, at(0).cells))!.get("5")!)).toBe(true);
    expect(masked.moves.get(5)).toEqual({ tries: 9, changes: 0 });
  });

  test("a click learns only from what it left on the board: a flash that settles back is no effect of its kind", () => {
    const made: Made[] = [];
    for (let x = 0; x < 4; x++) {
      made.push({ action: { id: 6, x: 4 * x + 1, y: 9 }, board: at(x), frames: [pouring(x, 8)] });
      made.push({ action: { id: 4 }, board: at(x + 1) });
    }
    const graph = graphOf(stepsOf(logOf(at(0), made)));
    expect(graph.clickColours.get(8)).toEqual({ tries: 4, changes: 0 });
    expect(graph.moves.get(4)).toEqual({ tries: 4, changes: 4 });
  });
});
