import { describe, expect, test } from "bun:test";
import { Knowledge } from "../../../src/agent/explorer/knowledge.ts";
import { decide } from "../../../src/agent/explorer/plan.ts";
import { predictedOutcome } from "../../../src/agent/explorer/predict.ts";
import { readLog } from "../../../src/agent/explorer/read-log.ts";
import { board64, logOf, type Step } from "./helpers.ts";

/** The player square at tile (x, y) of an open field (ACTION1 up, 2 down, 3 left, 4 right). */
const at = (x: number, y: number) => board64(5, [{ x: 4 * x, y: 4 * y, w: 4, h: 4, c: 8 }]);

function graphOf(initial: ReturnType<typeof at>, steps: Step[]) {
  const run = readLog(new TextEncoder().encode(logOf(initial, steps)), "logs.txt")._unsafeUnwrap();
  const known = new Knowledge(run.width, run.height);
  known.fold(
    run.steps.map((s) => ({
      kind: s.kind,
      actionNumber: s.actionNumber,
      level: s.level,
      attempt: s.attempt,
      score: s.score,
      ...(s.action ? { action: s.action } : {}),
      ...(s.board ? { cells: s.board.cells } : {}),
    })),
  );
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
});
