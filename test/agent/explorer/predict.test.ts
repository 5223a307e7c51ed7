import { describe, expect, test } from "bun:test";
import { diedOnce, ExplorationGraph } from "../../../src/agent/explorer/graph.ts";
import type { Indicator } from "../../../src/agent/explorer/indicators.ts";
import type { Step as GraphStep } from "../../../src/agent/explorer/log-cursor.ts";
import { decide } from "../../../src/agent/explorer/plan.ts";
import { predictedDeath, predictedOutcome } from "../../../src/agent/explorer/predict.ts";
import type { GridAction } from "../../../src/game-model.ts";
import { board64, knowledgeOf, logOf, type Step } from "./helpers.ts";

/** The player square at tile (x, y) of an open field (ACTION1 up, 2 down, 3 left, 4 right). */
const at = (x: number, y: number) => board64(5, [{ x: 4 * x, y: 4 * y, w: 4, h: 4, c: 8 }]);

function graphOf(initial: ReturnType<typeof at>, steps: Step[]) {
  const known = knowledgeOf(logOf(initial, steps));
  const graph = known.view().graph;
  return { graph, k: (x: number, y: number) => graph.key(0, at(x, y).cells) };
}

// (0,0) →right (1,0) →left (0,0) →down (0,1) →right (1,1) →up (1,0): the game is at (1,0), where "down" is
// untested; right-then-down and down-then-right are known from (0,0) to end at (1,1).
const square: Step[] = [
  { action: { id: 4 }, board: at(1, 0) },
  { action: { id: 3 }, board: at(0, 0) },
  { action: { id: 2 }, board: at(0, 1) },
  { action: { id: 4 }, board: at(1, 1) },
  { action: { id: 1 }, board: at(1, 0) },
];

describe("predicted outcomes", () => {
  test("the far corner of a known parallelogram: down from (1,0) leads to the known (1,1)", () => {
    const { graph, k } = graphOf(at(0, 0), square);
    expect(graph.current).toBe(k(1, 0));
    expect(predictedOutcome(graph, k(1, 0), { id: 2 })).toBe(k(1, 1));
    // Nothing known says where "right" from (1,0) leads.
    expect(predictedOutcome(graph, k(1, 0), { id: 4 })).toBeUndefined();
    // A key press is never predicted.
    expect(predictedOutcome(graph, k(1, 0), { id: "key", key: "a" } as never)).toBeUndefined();
  });

  test("a predicted action waits: an unpredicted one is tried first", () => {
    const { graph } = graphOf(at(0, 0), square);
    const d = decide(graph, { available: [2, 4], actionCap: 20, seed: 1 });
    expect(d.kind).toBe("explore");
    expect(d.actions).toEqual([{ id: 4 }]);
  });

  test("an unpredicted action two known steps away goes before a predicted one here", () => {
    // Right from (1,0) is tested too (a wall); down from (0,1) is untested and nothing predicts it.
    const { graph } = graphOf(at(0, 0), [...square, { action: { id: 4 }, board: at(1, 0) }]);
    const d = decide(graph, { available: [2, 4], actionCap: 20, seed: 1 });
    expect(d.kind).toBe("explore");
    expect(d.actions).toEqual([{ id: 3 }, { id: 2 }, { id: 2 }]);
  });

  test("a state reached by a move that learned inverses undo: the inverse leads back", () => {
    // Right then left led straight back twice: left undoes right.
    const { graph, k } = graphOf(at(0, 0), [
      { action: { id: 4 }, board: at(1, 0) },
      { action: { id: 3 }, board: at(0, 0) },
      { action: { id: 4 }, board: at(1, 0) },
      { action: { id: 3 }, board: at(0, 0) },
      { action: { id: 2 }, board: at(0, 1) },
      { action: { id: 4 }, board: at(1, 1) },
    ]);
    expect(graph.isInverse(4, 3)).toBe(true);
    expect(predictedOutcome(graph, k(1, 1), { id: 3 })).toBe(k(0, 1));
  });

  test("a bump into a wall (the same move again) between a move and its undoing does not hide the inverse", () => {
    // Up to the top row, up again (a wall: nothing changes), then down leads back; twice.
    const { graph } = graphOf(at(0, 1), [
      { action: { id: 1 }, board: at(0, 0) },
      { action: { id: 1 }, board: at(0, 0) },
      { action: { id: 2 }, board: at(0, 1) },
      { action: { id: 4 }, board: at(1, 1) },
      { action: { id: 1 }, board: at(1, 0) },
      { action: { id: 1 }, board: at(1, 0) },
      { action: { id: 2 }, board: at(1, 1) },
    ]);
    expect(graph.isInverse(1, 2)).toBe(true);
  });

  test("another move that changed nothing in between breaks the pair", () => {
    // Up, then left against the wall (nothing changes), then down: twice. Not learned as undoing up.
    const { graph } = graphOf(at(0, 1), [
      { action: { id: 1 }, board: at(0, 0) },
      { action: { id: 3 }, board: at(0, 0) },
      { action: { id: 2 }, board: at(0, 1) },
      { action: { id: 1 }, board: at(0, 0) },
      { action: { id: 3 }, board: at(0, 0) },
      { action: { id: 2 }, board: at(0, 1) },
    ]);
    expect(graph.isInverse(1, 2)).toBe(false);
  });
});

describe("predicted hazards", () => {
  test("a move into a place that ended an attempt from another side waits behind everything else", () => {
    const dead = board64(13);
    // (0,0) →right (1,0) →left (0,0) →down (0,1) →right: the attempt ends (a hazard at (1,1)); RESET; →right (1,0).
    const { graph, k } = graphOf(at(0, 0), [
      { action: { id: 4 }, board: at(1, 0) },
      { action: { id: 3 }, board: at(0, 0) },
      { action: { id: 2 }, board: at(0, 1) },
      { action: { id: 4 }, board: dead },
      { action: { id: 0 }, board: at(0, 0), attempt: 2 },
      { action: { id: 4 }, board: at(1, 0), attempt: 2 },
    ]);
    expect(graph.current).toBe(k(1, 0));
    expect(predictedDeath(graph, k(1, 0), { id: 2 })).toBe(true);
    expect(predictedDeath(graph, k(1, 0), { id: 4 })).toBe(false);
    const d = decide(graph, { available: [2, 4], actionCap: 20, seed: 1 });
    expect(d.actions).toEqual([{ id: 4 }]);
  });
});

describe("deaths with a full step meter", () => {
  /** A 64x64 field with the player at tile x of row 0 and `left` cells of a draining meter on row 63. */
  const field = (x: number, left: number) => {
    const b = at(x, 0);
    for (let i = 0; i < 64; i++) b.cells[63 * 64 + i] = i < left ? 9 : 0;
    return b.cells;
  };
  const meter: Indicator = { kind: "meter", axis: "row", line: 63, from: 0, to: 63, drains: 9, fills: 0 };
  const mask = new Uint8Array(64 * 64);
  for (let i = 0; i < 64; i++) mask[63 * 64 + i] = 1;
  const step = (n: number, cells: Uint8Array, attempt: number, action?: GridAction): GraphStep => ({
    kind: n === 0 ? "initial" : "action",
    actionNumber: n,
    level: 1,
    attempt,
    score: 0,
    ...(action ? { action } : {}),
    cells,
  });

  test("a move that ended the attempt with the meter far from spent is not re-tried; one on a spent meter is", () => {
    for (const [left, retried] of [
      [60, false],
      [5, true],
    ] as const) {
      const graph = new ExplorationGraph(mask, "m", 64, 64, [meter]);
      graph.add(step(0, field(0, left + 1), 1));
      graph.add(step(1, field(1, left), 1, { id: 4 }));
      // Down ends the attempt: the section already shows the next attempt's first board.
      graph.add(step(2, field(0, 64), 2, { id: 2 }));
      const edge = graph.edges.get(graph.key(0, field(1, left)))!.get("2")!;
      expect(edge.deaths).toBe(1);
      expect(diedOnce(edge)).toBe(retried);
    }
  });
});
