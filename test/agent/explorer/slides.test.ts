// Where moves slide (the frames show the thing passing through places on the way) and a slide goes on until
// something stops it, the same move again right after it does nothing: once repeats have shown that, a move
// into a state its own slide ended in waits (a tier, as a predicted move), and the explorer tests the other
// moves first instead of bumping into the wall that stopped the slide in every new state. The prediction is
// checked as it is tested: a game where it fails (stops on sand, from where the slide goes on) drops it.
import { describe, expect, test } from "bun:test";
import { ExplorationGraph } from "../../../src/agent/explorer/graph.ts";
import { foldStep, type Step } from "../../../src/agent/explorer/log-cursor.ts";
import { decide } from "../../../src/agent/explorer/plan.ts";
import { readLog } from "../../../src/agent/explorer/read-log.ts";
import type { Action } from "../../../src/game-model.ts";
import { writeLog, type LogSection } from "../../../src/log/format.ts";
import { board64 } from "./helpers.ts";

/** The player at tile (x, y) of a 4x4 field (ACTION1 up, 2 down, 3 left, 4 right). */
const at = (x: number, y: number) => board64(5, [{ x: 4 * x, y: 4 * y, w: 4, h: 4, c: 8 }]);

interface Made {
  readonly action: Action;
  readonly to: [number, number];
  /** The tiles passed on the way (each an animation frame). */
  readonly via?: [number, number][];
}

function stepsOf(made: Made[], frames = true): Step[] {
  const sections: LogSection[] = [
    { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: at(0, 0) },
    ...made.map(
      (m, i): LogSection => ({
        header: { action: i + 1, level: 1, attempt: 1, score: 0, kind: "action" },
        toolCall: m.action,
        frames: frames ? (m.via ?? []).map(([x, y]) => at(x, y)) : [],
        board: at(...m.to),
      }),
    ),
  ];
  const log = writeLog(sections, "ascii");
  return readLog(new TextEncoder().encode(log), "logs.txt")._unsafeUnwrap().steps.map(foldStep);
}

function graphOf(steps: Step[]): ExplorationGraph {
  const graph = new ExplorationGraph(new Uint8Array(64 * 64), "test", 64, 64);
  for (const s of steps) graph.add(s);
  return graph;
}

const key = (graph: ExplorationGraph, x: number, y: number) => graph.key(0, at(x, y).cells);

// Right to the far wall, right again (nothing), down, down again (nothing), left, left again (nothing),
// then up: the slide ends back at (0,0), where up again would bump into the wall.
const aroundTheField: Made[] = [
  {
    action: { id: 4 },
    to: [3, 0],
    via: [
      [1, 0],
      [2, 0],
    ],
  },
  { action: { id: 4 }, to: [3, 0] },
  {
    action: { id: 2 },
    to: [3, 3],
    via: [
      [3, 1],
      [3, 2],
    ],
  },
  { action: { id: 2 }, to: [3, 3] },
  {
    action: { id: 3 },
    to: [0, 3],
    via: [
      [2, 3],
      [1, 3],
    ],
  },
  { action: { id: 3 }, to: [0, 3] },
  {
    action: { id: 1 },
    to: [0, 0],
    via: [
      [0, 2],
      [0, 1],
    ],
  },
];

describe("slides stop", () => {
  test("after repeats of slides did nothing, the move whose slide ended here waits and another move goes first", () => {
    const graph = graphOf(stepsOf(aroundTheField));
    expect(graph.slideRepeats).toEqual({ tries: 3, changes: 0 });
    expect(graph.current).toBe(key(graph, 0, 0));
    expect(graph.slideStopped(key(graph, 0, 0), 1)).toBe(true);
    // Only the move that slid here: down did not end a slide at (0,0).
    expect(graph.slideStopped(key(graph, 0, 0), 2)).toBe(false);
    const d = decide(graph, { available: [1, 2, 3, 4], actionCap: 20, seed: 1 });
    expect(d.kind).toBe("explore");
    expect(d.actions).toEqual([{ id: 2 }]);
    expect(d.reason).not.toContain("ACTION1");
  });

  test("moves that step without frames are no slides: the move that led here is tried again first", () => {
    const graph = graphOf(stepsOf(aroundTheField, false));
    expect(graph.slideRepeats).toEqual({ tries: 0, changes: 0 });
    expect(graph.slideStopped(key(graph, 0, 0), 1)).toBe(false);
    const d = decide(graph, { available: [1, 2, 3, 4], actionCap: 20, seed: 1 });
    expect(d.actions).toEqual([{ id: 1 }]);
  });

  test("one repeat that did nothing is not enough, nor repeats that mostly went on", () => {
    const once = graphOf(
      stepsOf([
        ...aroundTheField.slice(0, 2),
        {
          action: { id: 2 },
          to: [3, 3],
          via: [
            [3, 1],
            [3, 2],
          ],
        },
      ]),
    );
    expect(once.slideStopped(key(once, 3, 3), 2)).toBe(false);
    // Each slide stops halfway and the same move again goes on: repeats change the state.
    const halfway = graphOf(
      stepsOf([
        { action: { id: 4 }, to: [2, 0], via: [[1, 0]] },
        { action: { id: 4 }, to: [3, 0] },
        { action: { id: 2 }, to: [3, 2], via: [[3, 1]] },
        { action: { id: 2 }, to: [3, 3] },
        { action: { id: 3 }, to: [1, 3], via: [[2, 3]] },
        { action: { id: 3 }, to: [0, 3] },
        { action: { id: 1 }, to: [0, 1], via: [[0, 2]] },
      ]),
    );
    expect(halfway.slideRepeats).toEqual({ tries: 3, changes: 3 });
    expect(halfway.slideStopped(key(halfway, 0, 1), 1)).toBe(false);
  });

  test("a game where the prediction fails when tested (a slide stopped on sand goes on) stops predicting", () => {
    // (0,1) and (0,2) stop a slide (sand): from them the same move goes on.
    const sand: Made[] = [
      { action: { id: 1 }, to: [0, 1], via: [[0, 2]] },
      { action: { id: 1 }, to: [0, 0] },
      { action: { id: 2 }, to: [0, 2], via: [[0, 1]] },
    ];
    const before = graphOf(stepsOf([...aroundTheField.slice(0, 6), ...sand]));
    expect(before.slideStopped(key(before, 0, 2), 2)).toBe(true);
    expect(before.slideStopped(key(before, 3, 3), 2)).toBe(true);
    const after = graphOf(stepsOf([...aroundTheField.slice(0, 6), ...sand, { action: { id: 2 }, to: [0, 3] }]));
    // Checked three times: left again at (0,3) did nothing, up at (0,1) and down at (0,2) went on.
    expect(after.slideChecks).toEqual({ tries: 3, changes: 2 });
    expect(after.slideStopped(key(after, 3, 3), 2)).toBe(false);
  });
});
