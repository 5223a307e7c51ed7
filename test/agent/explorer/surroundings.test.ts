import { describe, expect, test } from "bun:test";
import { decide } from "../../../src/agent/explorer/plan.ts";
import { predictedQuiet } from "../../../src/agent/explorer/predict.ts";
import type { Action } from "../../../src/game-model.ts";
import { board64, knowledgeOf, logOf, type Step } from "./helpers.ts";

/**
 * A 64x64 room: the player (colour 8) at tile (x, y) of 4x4 tiles, a wall (colour 3) at tile (2, 0), and far
 * away in the corner a lamp that a click (or, in the keyboard-only variant, ACTION5) switches on (colour 12).
 * ACTION1 up, 2 down, 3 left, 4 right.
 */
function room(x: number, y: number, lamp: boolean, wall = true) {
  return board64(5, [
    ...(wall ? [{ x: 8, y: 0, w: 4, h: 4, c: 3 }] : []),
    { x: 56, y: 56, w: 4, h: 4, c: lamp ? 12 : 0 },
    { x: 4 * x, y: 4 * y, w: 4, h: 4, c: 8 },
  ]);
}

const click: Action = { id: 6, x: 57, y: 57 };

/**
 * Right to (1,0), right again into the wall (nothing changes), left back, the lamp switched on by `toggle`,
 * right to (1,0) again: the player stands where right did nothing, with the same things around it.
 */
function walk(toggle: Action): Step[] {
  return [
    { action: { id: 4 }, board: room(1, 0, false) },
    { action: { id: 4 }, board: room(1, 0, false) },
    { action: { id: 3 }, board: room(0, 0, false) },
    { action: toggle, board: room(0, 0, true) },
    { action: { id: 4 }, board: room(1, 0, true) },
  ];
}

function graphOf(steps: Step[]) {
  const graph = knowledgeOf(logOf(room(0, 0, false), steps)).view().graph;
  return { graph, k: (x: number, y: number, lamp: boolean) => graph.key(0, room(x, y, lamp).cells) };
}

describe("moves predicted to do nothing in the same surroundings", () => {
  test("where a click reconfigured the board, a move that hit a wall at this place waits", () => {
    const { graph, k } = graphOf(walk(click));
    expect(graph.current).toBe(k(1, 0, true));
    expect(predictedQuiet(graph, k(1, 0, true), { id: 4 })).toBe(true);
    // Down was never tested next to this wall: nothing predicts it.
    expect(predictedQuiet(graph, k(1, 0, true), { id: 2 })).toBe(false);
    // Momentum would press right again; it waits, and an untested move goes first.
    const d = decide(graph, { available: [2, 3, 4], actionCap: 20, seed: 1 });
    expect(d.kind).toBe("explore");
    expect(d.actions).toHaveLength(1);
    expect(d.actions[0]!.id).not.toBe(4);
  });

  test("on a level where no click changed anything, nothing is predicted (momentum presses right)", () => {
    const { graph, k } = graphOf(walk({ id: 5 }));
    expect(graph.current).toBe(k(1, 0, true));
    expect(predictedQuiet(graph, k(1, 0, true), { id: 4 })).toBe(false);
    const d = decide(graph, { available: [2, 3, 4], actionCap: 20, seed: 1 });
    expect(d.actions).toEqual([{ id: 4 }]);
  });

  test("different surroundings (the wall gone) predict nothing", () => {
    const steps = walk(click);
    steps[3] = { action: click, board: room(0, 0, true, false) };
    steps[4] = { action: { id: 4 }, board: room(1, 0, true, false) };
    const { graph } = graphOf(steps);
    const here = graph.key(0, room(1, 0, true, false).cells);
    expect(graph.current).toBe(here);
    expect(predictedQuiet(graph, here, { id: 4 })).toBe(false);
  });

  test("once a move predicted to do nothing did something, the rule is not used again", () => {
    // Right from (1,0) with the lamp on walks through the wall: the game breaks the rule.
    const through = room(2, 0, true);
    const { graph, k } = graphOf([...walk(click), { action: { id: 4 }, board: through }]);
    expect(graph.current).toBe(graph.key(0, through.cells));
    expect(predictedQuiet(graph, k(1, 0, true), { id: 4 })).toBe(false);
  });
});
