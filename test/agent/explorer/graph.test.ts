import { describe, expect, test } from "bun:test";
import { actionKey, ExplorationGraph, isDeadly, isNoop } from "../../../src/agent/explorer/graph.ts";
import { decide, RETRY_LIMIT } from "../../../src/agent/explorer/plan.ts";
import type { ActionId, GridAction } from "../../../src/game-model.ts";
import { board64, knowledgeOf, logOf, type Step } from "./helpers.ts";

/** The player square at tile column x of a one-row corridor. */
const at = (x: number) => board64(5, [{ x: 4 * x, y: 0, w: 4, h: 4, c: 8 }]);

/** The graph folded from a log, with no indicator mask (these logs have none to find). */
function graphOf(log: string) {
  const known = knowledgeOf(log);
  const { graph, mask } = known.view();
  expect(mask.indicators).toEqual([]);
  return { graph, hasher: { key: (score: number, cells: Uint8Array) => graph.key(score, cells) } };
}

const ctx = (available: ActionId[], cap = 20) => ({ available, actionCap: cap, seed: 1 });

describe("ExplorationGraph", () => {
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

  test("clicks are keyed by coordinates; what clicks changed is learned per colour and per place", () => {
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
    expect(graph.clickColours.get(5)).toEqual({ tries: 3, changes: 0 });
    expect(graph.clickColours.get(11)).toEqual({ tries: 1, changes: 1 });
    expect(graph.clicks.get(0)!.map((c) => c.changed)).toEqual([false, false, false, true]);
  });

  test("the no-change memory: an action that left the state as it was is a no-op there", () => {
    const steps: Step[] = [
      { action: { id: 1 }, board: at(0) },
      { action: { id: 1 }, board: at(0) },
      { action: { id: 4 }, board: at(1) },
    ];
    const { graph, hasher } = graphOf(logOf(at(0), steps));
    const out = graph.edges.get(hasher.key(0, at(0).cells))!;
    expect(out.get("1")).toMatchObject({ tries: 2, changes: 0 });
    expect(isNoop(out.get("1")!)).toBe(true);
    expect(isNoop(out.get("4")!)).toBe(false);
  });

  test("the key ignores masked cells only", () => {
    const mask = new Uint8Array(4096);
    mask.fill(1, 63 * 64, 64 * 64);
    const g = new ExplorationGraph(mask, "bottom-row", 64, 64);
    const a = board64(5, [{ x: 0, y: 63, w: 10, h: 1, c: 9 }]);
    const b = board64(5, [{ x: 0, y: 63, w: 20, h: 1, c: 9 }]);
    expect(g.key(0, a.cells)).toBe(g.key(0, b.cells));
    expect(g.key(0, a.cells)).not.toBe(g.key(1, a.cells));
    expect(g.key(0, a.cells)).not.toBe(g.key(0, at(1).cells));
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
    // the known path and the untested action, in one batch; arrived by ACTION4, it keeps going that way first
    expect(d.actions).toEqual([{ id: 4 }, { id: 4 }, { id: 4 }]);
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
      const log = logOf(
        at(0),
        Array.from({ length: n }, () => ({ action: { id: 1 as const }, board: at(0) })),
      );
      const last = log.lastIndexOf("=".repeat(80));
      return decide(graphOf(log.slice(last)).graph, ctx([1, 2, 3, 4])).actions;
    };
    expect(pick(3)).toEqual(pick(3));
    const seen = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((n) => JSON.stringify(pick(n))));
    expect(seen.size).toBeGreaterThan(1);
  });

  test("everything tested: re-tries only actions that changed the state, then the least tried of every action, no-ops included", () => {
    // two tiles; at each, the moves that bump the wall change nothing
    const explored: Step[] = [
      { action: { id: 1 }, board: at(0) },
      { action: { id: 3 }, board: at(0) },
      { action: { id: 4 }, board: at(1) },
      { action: { id: 1 }, board: at(1) },
      { action: { id: 4 }, board: at(1) },
      { action: { id: 3 }, board: at(0) },
    ];
    const first = decide(graphOf(logOf(at(0), explored)).graph, ctx([1, 3, 4]));
    expect(first.kind).toBe("retry");
    expect(first.actions).toEqual([{ id: 4 }]);
    const back: Step[] = [];
    for (let k = 1; k < RETRY_LIMIT; k++) back.push({ action: { id: 4 }, board: at(1) }, { action: { id: 3 }, board: at(0) });
    const done = decide(graphOf(logOf(at(0), [...explored, ...back])).graph, ctx([1, 3, 4]));
    // re-tries used up: ACTION4 was tried 3 times here, the moves into the wall once each
    expect(done.kind).toBe("broad");
    expect([1, 3]).toContain(done.actions[0]!.id as number);
  });

  test("never gives up: when nothing changes anything at the level's start, the least tried action goes next", () => {
    const still: Step[] = [
      { action: { id: 1 }, board: at(0) },
      { action: { id: 3 }, board: at(0) },
      { action: { id: 1 }, board: at(0) },
    ];
    const d = decide(graphOf(logOf(at(0), still)).graph, ctx([1, 3]));
    expect(d.kind).toBe("broad");
    expect(d.actions).toEqual([{ id: 3 }]);
    // undo stays in play too, level with the least tried
    const undo = decide(graphOf(logOf(at(0), still)).graph, ctx([1, 3, 7]));
    expect(undo.kind).toBe("broad");
    expect([3, 7]).toContain(undo.actions[0]!.id as number);
  });
});

describe("sequences (a combination: right presses lead on, wrong ones back to the start)", () => {
  const buttons = [
    { x: 8, y: 40, w: 4, h: 4, c: 9 },
    { x: 28, y: 40, w: 4, h: 4, c: 11 },
    { x: 48, y: 40, w: 4, h: 4, c: 14 },
  ];
  /** The board after `k` right presses: one lit slot per press. */
  const progress = (k: number) =>
    board64(5, [...buttons, ...Array.from({ length: k }, (_, i) => ({ x: 8 + 20 * i, y: 10, w: 4, h: 4, c: 12 }))]);
  const press = (i: number) => ({ id: 6 as const, x: 9 + 20 * i, y: 41 });
  const steps: Step[] = [
    { action: press(1), board: progress(0) }, // wrong at the start: nothing happens
    { action: press(2), board: progress(0) },
    { action: press(0), board: progress(1) }, // right
    { action: press(1), board: progress(0) }, // wrong: back to the start
    { action: press(0), board: progress(1) },
    { action: press(0), board: progress(2) }, // right again
    { action: press(1), board: progress(0) }, // wrong: back to the start
  ];

  test("the newest step of the sequence is tested before the rest of a step already passed", () => {
    const { graph } = graphOf(logOf(progress(0), steps));
    const d = decide(graph, ctx([6]));
    expect(d.kind).toBe("explore");
    // Walk the two right presses to the newest step and test there, not the third button after one press.
    expect(d.actions.slice(0, 2)).toEqual([press(0), press(0)]);
    expect(d.actions).toHaveLength(3);
  });

  test("a step back to the start from next to it (a maze's) does not make a level a sequence", () => {
    // The same presses, but the game returns to the start by RESET, not by a press two steps in.
    const { graph } = graphOf(logOf(progress(0), [...steps.slice(0, 6), { action: { id: 0 }, board: progress(0) }]));
    const d = decide(graph, ctx([6]));
    expect(d.kind).toBe("explore");
    expect(d.actions).toEqual([press(0), d.actions[1]!]);
    expect(d.actions[1]).not.toEqual(press(0));
  });
});

describe("deaths on a spent meter", () => {
  /** A corridor board whose bottom row is a meter: `left` cells of colour 9 still to run down, the rest 5. */
  const metered = (x: number, left: number) => {
    const b = at(x);
    const cells = Uint8Array.from(b.cells);
    for (let i = 0; i < 64; i++) cells[63 * 64 + i] = i < left ? 9 : 5;
    return cells;
  };
  const meter = { kind: "meter" as const, axis: "row" as const, line: 63, from: 0, to: 63, drains: 9, fills: 5 };
  const mask = new Uint8Array(64 * 64);
  for (let i = 0; i < 64; i++) mask[63 * 64 + i] = 1;
  const click: GridAction = { id: 6, x: 5, y: 1 };
  /**
   * Walks 0 → 1, then `fatal` from 1 ends the attempt with `leftBeforeFatal` meter cells left; `known` first
   * takes `fatal` from 1 once without harm, so the fatal try is not its first.
   */
  const fold = (fatal: GridAction, leftBeforeFatal: number, known = false) => {
    const graph = new ExplorationGraph(mask, "meter", 64, 64, [meter]);
    let n = 0;
    const step = (attempt: number, cells: Uint8Array, action?: GridAction) =>
      graph.add({
        kind: n === 0 ? "initial" : "action",
        actionNumber: n++,
        level: 1,
        attempt,
        score: 0,
        cells,
        ...(action ? { action } : {}),
      });
    step(1, metered(0, 64));
    step(1, metered(1, 50), { id: 4 });
    if (known) {
      step(1, metered(2, 40), fatal);
      step(1, metered(1, 30), { id: 3 });
    }
    step(1, metered(1, leftBeforeFatal), { id: 1 });
    step(1, metered(2, 0), fatal);
    step(2, metered(0, 64), { id: 0 });
    return graph.edges.get(graph.key(0, metered(1, 0)))!.get(actionKey(fatal))!;
  };

  test("a click tried first as the meter had all but run out: the attempt it ended is the budget's", () => {
    const last = fold(click, 6);
    expect(last.tries).toBe(1);
    expect(last.deaths).toBe(0);
    expect(isDeadly(last)).toBe(false);
  });

  test("a known step that ends an attempt on a spent meter is counted (the walk there does not fit the budget)", () => {
    const last = fold(click, 6, true);
    expect(last.tries).toBe(2);
    expect(last.deaths).toBe(1);
  });

  test("a move is not forgiven, nor a click that ends an attempt with plenty of meter left", () => {
    const move = fold({ id: 4 }, 6);
    expect(move.deaths).toBe(1);
    expect(isDeadly(move)).toBe(true);
    const early = fold(click, 40);
    expect(early.deaths).toBe(1);
    expect(isDeadly(early)).toBe(true);
  });
});
