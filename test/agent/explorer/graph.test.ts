import { describe, expect, test } from "bun:test";
import { actionKey, buildGraph, isDeadly, learnInert } from "../../../src/agent/explorer/graph.ts";
import { decide } from "../../../src/agent/explorer/plan.ts";
import { readLog } from "../../../src/agent/explorer/read-log.ts";
import { StateHasher } from "../../../src/agent/explorer/state-hash.ts";
import { emptyMask } from "../../../src/agent/explorer/status-bars.ts";
import type { ActionId } from "../../../src/game-model.ts";
import { board64, logOf, type Step } from "./helpers.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
/** The player square at tile column x of a one-row corridor. */
const at = (x: number) => board64(5, [{ x: 4 * x, y: 0, w: 4, h: 4, c: 8 }]);

function graphOf(log: string) {
  const run = readLog(bytes(log), "logs.txt")._unsafeUnwrap();
  const hasher = new StateHasher(emptyMask(run.width, run.height), run.width);
  const graph = buildGraph(run.steps, hasher);
  /** The state key of a board as the log holds it (boards are looked up by their cells). */
  const keyOf = (score: number, cells: Uint8Array) => {
    const step = run.steps.find((s) => s.score === score && s.board && Buffer.from(s.board.cells).equals(Buffer.from(cells)));
    if (!step) throw new Error("board not in the log");
    return hasher.key(score, step.board!);
  };
  return { graph, hasher: { key: keyOf }, run };
}

const ctx = (available: ActionId[], cap = 20) => ({ width: 64, height: 64, masked: new Uint8Array(4096), available, actionCap: cap, seed: 1 });

describe("buildGraph", () => {
  test("records (state, action) → state, merges revisits, and knows where the game is", () => {
    const steps: Step[] = [
      { action: { id: 4 }, board: at(1) },
      { action: { id: 4 }, board: at(2) },
      { action: { id: 3 }, board: at(1) },
      { action: { id: 1 }, board: at(1) },
    ];
    const { graph, hasher } = graphOf(logOf(at(0), steps));
    const k = (x: number) => hasher.key(0, at(x).cells);
    expect(graph.states.size).toBe(3);
    expect(graph.transitions).toBe(4);
    expect(graph.edges.get(k(0))!.get("4")!.to).toBe(k(1));
    expect(graph.edges.get(k(2))!.get("3")!.to).toBe(k(1));
    expect(graph.edges.get(k(1))!.get("1")!.to).toBe(k(1));
    expect(graph.current).toBe(k(1));
    expect(graph.states.get(k(1))!.visits).toBe(3);
  });

  test("a GAME_OVER (the next RESET opens a new attempt) marks the fatal edge", () => {
    const dead = board64(13);
    const steps: Step[] = [
      { action: { id: 4 }, board: at(1) },
      { action: { id: 2 }, board: dead },
      { action: { id: 0 }, board: at(0), attempt: 2 },
    ];
    const { graph, hasher } = graphOf(logOf(at(0), steps));
    const fatal = graph.edges.get(hasher.key(0, at(1).cells))!.get("2")!;
    expect(fatal.deaths).toBe(1);
    expect(isDeadly(fatal)).toBe(true);
    expect(graph.edges.get(hasher.key(0, at(0).cells))!.get("4")!.deaths).toBe(0);
    expect(graph.currentAttempt).toBe(2);
    expect(graph.levelStart).toBe(hasher.key(0, at(0).cells));
  });

  test("a level-up starts new states keyed by the new score; the old level's edge leads there", () => {
    const steps: Step[] = [{ action: { id: 4 }, board: at(0), score: 1 }];
    const { graph, hasher } = graphOf(logOf(at(0), steps));
    expect(graph.states.size).toBe(2);
    expect(graph.current).toBe(hasher.key(1, at(0).cells));
    expect(graph.currentScore).toBe(1);
  });

  test("clicks are keyed by coordinates; inert click colours are learned", () => {
    const b = board64(5, [{ x: 20, y: 20, w: 4, h: 4, c: 11 }]);
    const moved = board64(5, [{ x: 24, y: 20, w: 4, h: 4, c: 11 }]);
    const steps: Step[] = [
      { action: { id: 6, x: 1, y: 1 }, board: b },
      { action: { id: 6, x: 40, y: 40 }, board: b },
      { action: { id: 6, x: 2, y: 50 }, board: b },
      { action: { id: 6, x: 21, y: 21 }, board: moved },
    ];
    const { graph } = graphOf(logOf(b, steps));
    expect([...graph.edges.values()][0]!.has(actionKey({ id: 6, x: 40, y: 40 }))).toBe(true);
    const inert = learnInert(graph);
    expect([...inert.clickColours]).toEqual([5]);
  });
});

describe("decide", () => {
  test("walks the shortest known path to the nearest state with an untested action, then tries it", () => {
    // corridor 0-1-2; every action tested at 0 and 1 except what leads on from 2, and we stand at 0.
    const steps: Step[] = [];
    for (const x of [0, 1]) {
      for (const id of [1, 2, 3] as const) steps.push({ action: { id }, board: at(x) });
      steps.push({ action: { id: 4 }, board: at(x + 1) });
      if (x === 1) steps.push({ action: { id: 3 }, board: at(1) }, { action: { id: 3 }, board: at(0) });
    }
    const { graph } = graphOf(logOf(at(0), steps));
    const d = decide(graph, ctx([1, 2, 3, 4]));
    expect(d.kind).toBe("explore");
    expect(d.actions).toEqual([{ id: 4 }, { id: 4 }, { id: 1 }]);
  });

  test("never walks through an edge that ended the attempt", () => {
    const dead = board64(13);
    const steps: Step[] = [
      { action: { id: 4 }, board: dead },
      { action: { id: 0 }, board: at(0), attempt: 2 },
      { action: { id: 4 }, board: dead, attempt: 2 },
      { action: { id: 0 }, board: at(0), attempt: 3 },
    ];
    const { graph } = graphOf(logOf(at(0), steps));
    const d = decide(graph, ctx([1, 2, 3, 4]));
    expect(d.actions.some((a) => a.id === 4)).toBe(false);
    expect(d.actions[0]).toEqual({ id: 1 });
  });

  test("a batch never exceeds the action cap", () => {
    const steps: Step[] = [{ action: { id: 3 }, board: at(0) }];
    for (let x = 0; x < 10; x++) {
      for (const id of [1, 2] as const) steps.push({ action: { id }, board: at(x) });
      steps.push({ action: { id: 4 }, board: at(x + 1) });
    }
    for (let x = 10; x > 0; x--) steps.push({ action: { id: 3 }, board: at(x - 1) });
    const { graph } = graphOf(logOf(at(0), steps));
    const d = decide(graph, ctx([1, 2, 3, 4], 5));
    expect(d.actions.length).toBe(5);
    expect(d.actions.every((a) => a.id === 4)).toBe(true);
  });

  test("clicks: a small rare-colour target before the background, and the same component is never clicked twice in a state", () => {
    const b = board64(5, [{ x: 40, y: 40, w: 4, h: 4, c: 11 }]);
    const first = decide(graphOf(logOf(b, [{ action: { id: 6, x: 0, y: 0 }, board: b }])).graph, ctx([6]));
    expect(first.actions).toEqual([{ id: 6, x: 41, y: 41 }]);
    const again = decide(graphOf(logOf(b, [{ action: { id: 6, x: 43, y: 43 }, board: b }])).graph, ctx([6]));
    expect(again.actions[0]).not.toEqual({ id: 6, x: 41, y: 41 });
    expect(again.actions[0]).toEqual({ id: 6, x: 31, y: 31 });
  });

  test("with only the newest section, the choice varies with the action number but is deterministic", () => {
    const pick = (n: number) => {
      const log = logOf(at(0), Array.from({ length: n }, () => ({ action: { id: 1 as const }, board: at(0) })));
      const last = log.lastIndexOf("=".repeat(80));
      return decide(graphOf(log.slice(last)).graph, ctx([1, 2, 3, 4])).actions;
    };
    expect(pick(3)).toEqual(pick(3));
    const seen = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((n) => JSON.stringify(pick(n))));
    expect(seen.size).toBeGreaterThan(1);
  });
});
