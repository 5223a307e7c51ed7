import { describe, expect, test } from "bun:test";
import { ExplorationGraph } from "../../../src/agent/explorer/graph.ts";
import type { Indicator } from "../../../src/agent/explorer/indicators.ts";
import type { Step } from "../../../src/agent/explorer/log-cursor.ts";
import { decide } from "../../../src/agent/explorer/plan.ts";
import type { GridAction } from "../../../src/game-model.ts";
import { board64 } from "./helpers.ts";

// Boards of arbitrary places (a square at tile x of row 0) with a step meter on row 63 (colour 9 drains).
const PLACES = { S: 0, A1: 1, A2: 2, A3: 3, T: 5 } as const;
type Place = keyof typeof PLACES;
const board = (p: Place, left: number) => {
  const cells = board64(5, [{ x: 4 * PLACES[p], y: 0, w: 4, h: 4, c: 8 }]).cells;
  for (let i = 0; i < 64; i++) cells[63 * 64 + i] = i < left ? 9 : 0;
  return cells;
};
const meter: Indicator = { kind: "meter", axis: "row", line: 63, from: 0, to: 63, drains: 9, fills: 0 };
const mask = new Uint8Array(64 * 64);
for (let i = 0; i < 64; i++) mask[63 * 64 + i] = 1;

/**
 * The graph after a first attempt that learned: S →4 A1 →4 A2 →4 A3 →2 S →2 T, every other action tested
 * except ACTION2 at T; then a RESET and, with the meter draining `drain` cells a step, S →4 A1 →4 A2 →4 A3.
 */
function graphAfter(drain: number) {
  const graph = new ExplorationGraph(mask, "meter", 64, 64, [meter]);
  let n = 0;
  const add = (p: Place, left: number, attempt: number, action?: GridAction) =>
    graph.add({
      kind: n === 0 ? "initial" : "action",
      actionNumber: n++,
      level: 1,
      attempt,
      score: 0,
      ...(action ? { action } : {}),
      cells: board(p, left),
    } satisfies Step);
  add("S", 64, 1);
  const first: [number, Place][] = [
    [4, "A1"],
    [2, "A1"],
    [4, "A2"],
    [2, "A2"],
    [4, "A3"],
    [4, "A3"],
    [2, "S"],
    [2, "T"],
    [4, "T"],
  ];
  for (const [id, p] of first) add(p, 64, 1, { id } as GridAction);
  add("S", 64, 2, { id: 0 });
  let left = 64;
  for (const p of ["A1", "A2", "A3"] as const) add(p, (left -= drain), 2, { id: 4 });
  return graph;
}

describe("the step budget", () => {
  test("the meter's drain gives the steps left and a whole attempt's steps", () => {
    const g = graphAfter(8);
    expect(g.stepsLeft).toBe(5);
    expect(g.attemptBudget).toBe(8);
  });

  test("a walk that the meter cannot pay for restarts the level when the target fits a whole attempt", () => {
    // 11 cells a step: 2 steps left, 3 needed (A3 →2 S →2 T, then ACTION2); from the start 2 of 5.
    const g = graphAfter(11);
    expect(g.stepsLeft).toBe(2);
    const d = decide(g, { available: [2, 4], actionCap: 20, seed: 1 });
    expect(d.kind).toBe("reset");
    expect(d.actions).toEqual([{ id: 0 }]);
    // 8 cells a step: 5 steps left, enough: walk on.
    const on = decide(graphAfter(8), { available: [2, 4], actionCap: 20, seed: 1 });
    expect(on.kind).toBe("explore");
    expect(on.actions).toEqual([{ id: 2 }, { id: 2 }, { id: 2 }]);
  });

  test("without a meter nothing is estimated", () => {
    const g = new ExplorationGraph(new Uint8Array(64 * 64), "none", 64, 64);
    g.add({ kind: "initial", actionNumber: 0, level: 1, attempt: 1, score: 0, cells: board("S", 64) });
    expect(g.stepsLeft).toBeUndefined();
    expect(g.attemptBudget).toBeUndefined();
  });
});
