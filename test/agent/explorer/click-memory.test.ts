// What clicks did, remembered by the thing clicked: kinds (colour inside its surround), spots (look at a
// place), toggles (a click repeated right after it undoes it), one-way buttons. Boards built for the tests.
import { describe, expect, test } from "bun:test";
import { ClickMemory } from "../../../src/agent/explorer/click-memory.ts";
import { decide } from "../../../src/agent/explorer/plan.ts";
import { segment } from "../../../src/agent/explorer/segment.ts";
import { untestedCandidates } from "../../../src/agent/explorer/targets.ts";
import type { ActionId } from "../../../src/game-model.ts";
import { board64, knowledgeOf, logOf, type Step } from "./helpers.ts";

function graphOf(log: string) {
  const known = knowledgeOf(log);
  return known.view().graph;
}

const ctx = (available: ActionId[]) => ({ available, actionCap: 1, seed: 1 });

/** A reference panel of colour-9 tiles on the background (0), and a play area: a colour-2 frame holding three tiles. */
function panelAndFrame(play: [number, number, number]) {
  const rects = [
    { x: 2, y: 2, w: 4, h: 4, c: 9 },
    { x: 10, y: 2, w: 4, h: 4, c: 9 },
    { x: 2, y: 10, w: 4, h: 4, c: 9 },
    { x: 10, y: 10, w: 4, h: 4, c: 9 },
    { x: 30, y: 30, w: 30, h: 12, c: 2 },
  ];
  play.forEach((c, i) => rects.push({ x: 33 + 9 * i, y: 34, w: 4, h: 4, c }));
  return board64(0, rects);
}

describe("segment: what a thing sits on", () => {
  test("a tile on the background and a tile inside a frame have different surrounds", () => {
    const seg = segment(panelAndFrame([9, 9, 9]));
    const tiles = seg.components.filter((c) => c.color === 9);
    expect(tiles.length).toBe(7);
    expect(tiles.filter((c) => c.surround === 0).length).toBe(4);
    expect(tiles.filter((c) => c.surround === 2).length).toBe(3);
  });
});

describe("ClickMemory", () => {
  test("spots are the look at a place; kinds are the colour in its surround", () => {
    const seg = segment(panelAndFrame([9, 9, 9]));
    const [a, b] = seg.components.filter((c) => c.color === 9 && c.surround === 0);
    const inFrame = seg.components.find((c) => c.color === 9 && c.surround === 2)!;
    const m = new ClickMemory();
    m.note(0, a!, false, "s0");
    m.note(0, a!, false, "s1");
    m.note(0, b!, false, "s0");
    expect(m.spot(0, a!)).toMatchObject({ tries: 2, changes: 0 });
    expect(m.spot(1, a!)).toBeUndefined();
    expect(m.kind(a!)).toEqual({ tries: 3, changes: 0 });
    expect(m.kind(inFrame)).toBeUndefined();
  });

  test("a spot that led to one same state from every state it was clicked in knows its outcome", () => {
    const c = segment(panelAndFrame([9, 9, 9])).components[1]!;
    const m = new ClickMemory();
    m.note(0, c, true, "home");
    expect(m.spot(0, c)!.to).toBeUndefined();
    m.note(0, c, true, "home");
    expect(m.spot(0, c)!.to).toBe("home");
    m.note(0, c, true, "elsewhere");
    expect(m.spot(0, c)!.to).toBeUndefined();
    m.note(0, c, true, "home");
    expect(m.spot(0, c)!.to).toBeUndefined();
  });

  test("a click repeated right after it changed the board is a toggle once it led straight back twice", () => {
    const m = new ClickMemory();
    const at = (x: number) => ({ id: 6, x, y: 0 });
    m.follow("s0", "s1", at(1));
    m.follow("s1", "s0", at(1));
    expect(m.repeatUndoes()).toBe(false);
    m.follow("s0", "s1", at(1));
    expect(m.repeats).toEqual({ tries: 2, changes: 2 });
    expect(m.repeatUndoes()).toBe(true);
    expect(m.arrivedByClick).toEqual({ x: 1, y: 0 });
    expect(m.before).toBe("s0");
    m.follow("s1", "s1", at(5));
    expect(m.arrivedByClick).toBeUndefined();
  });
});

describe("click targets from what clicks did", () => {
  test("three quiet clicks on the panel's tiles do not condemn the tiles of that colour in the play area", () => {
    const b = panelAndFrame([9, 9, 9]);
    const steps: Step[] = [
      { action: { id: 6, x: 3, y: 3 }, board: b },
      { action: { id: 6, x: 11, y: 3 }, board: b },
      { action: { id: 6, x: 3, y: 11 }, board: b },
    ];
    const graph = graphOf(logOf(b, steps));
    const pick = decide(graph, ctx([6])).actions[0]!;
    expect(pick.id).toBe(6);
    const { x, y } = pick as { x: number; y: number };
    expect(b.cells[y * 64 + x]).toBe(9);
    expect(x).toBeGreaterThanOrEqual(33);
    // the panel's last tile is of the inert kind: it comes last
    const list = untestedCandidates(
      graph.segmentation(graph.states.get(graph.current!)!),
      [6],
      graph.edges.get(graph.current!),
      graph,
    );
    expect(list.at(-1)!.action).toEqual({ id: 6, x: 11, y: 11 });
  });

  test("in a toggle game, the tile clicked into a state waits behind the others there", () => {
    // play-area tiles toggle 9 ↔ 8 when clicked
    const s0 = panelAndFrame([9, 9, 9]);
    const s1 = panelAndFrame([8, 9, 9]);
    const s2 = panelAndFrame([8, 8, 9]);
    const steps: Step[] = [
      { action: { id: 6, x: 34, y: 35 }, board: s1 },
      { action: { id: 6, x: 34, y: 35 }, board: s0 },
      { action: { id: 6, x: 34, y: 35 }, board: s1 },
      { action: { id: 6, x: 43, y: 35 }, board: s2 },
    ];
    const graph = graphOf(logOf(s0, steps));
    expect(graph.clickMemory.repeatUndoes()).toBe(true);
    const node = graph.states.get(graph.current!)!;
    const tried = graph.edges.get(graph.current!);
    const seg = graph.segmentation(node);
    const tierOf = (list: ReturnType<typeof untestedCandidates>) =>
      list.find((c) => c.action.id === 6 && c.action.x === 43 && c.action.y === 35)!.tier;
    const toggled = untestedCandidates(seg, [6], tried, graph, 0, undefined, graph.clickMemory.arrivedByClick);
    const plain = untestedCandidates(seg, [6], tried, graph, 0, undefined, undefined);
    expect(tierOf(toggled)).toBe(3);
    expect(tierOf(plain)).toBeLessThan(3);
    const pick = decide(graph, ctx([6])).actions[0]!;
    expect(pick).not.toEqual({ id: 6, x: 43, y: 35 });
  });

  test("in a toggle game, a background the click into a state landed on is not taken for the place clicked", () => {
    // tiles toggle 9 ↔ 8; a click on the background far from its centre changed the board (a tile lit up)
    const s0 = panelAndFrame([9, 9, 9]);
    const s1 = panelAndFrame([8, 9, 9]);
    const s3 = panelAndFrame([8, 9, 8]);
    const steps: Step[] = [
      { action: { id: 6, x: 34, y: 35 }, board: s1 },
      { action: { id: 6, x: 34, y: 35 }, board: s0 },
      { action: { id: 6, x: 34, y: 35 }, board: s1 },
      { action: { id: 6, x: 1, y: 60 }, board: s3 },
    ];
    const graph = graphOf(logOf(s0, steps));
    expect(graph.clickMemory.repeatUndoes()).toBe(true);
    expect(graph.clickMemory.arrivedByClick).toEqual({ x: 1, y: 60 });
    const node = graph.states.get(graph.current!)!;
    const seg = graph.segmentation(node);
    const list = untestedCandidates(seg, [6], graph.edges.get(graph.current!), graph, 0, undefined, { x: 1, y: 60 });
    const background = seg.components.find((c) => c.color === 0 && c.size > 1000)!;
    const candidate = list.find(
      (c) => c.action.id === 6 && c.action.x === background.clickX && c.action.y === background.clickY,
    )!;
    expect(candidate.why).not.toContain("undoes");
  });

  test("a click that undid the click before it (a rotator's other direction) waits after that click", () => {
    // two buttons (colour 4 at the left, colour 6 at the right) turn a marker round the play area's tiles
    const turned = (at: number) => {
      const play: [number, number, number] = [9, 9, 9];
      play[at] = 8;
      const b = panelAndFrame(play);
      for (let y = 50; y < 54; y++) for (let x = 40; x < 44; x++) b.cells[y * 64 + x] = 4;
      for (let y = 50; y < 54; y++) for (let x = 50; x < 54; x++) b.cells[y * 64 + x] = 6;
      return b;
    };
    const left = { id: 6 as const, x: 41, y: 51 };
    const right = { id: 6 as const, x: 51, y: 51 };
    const steps: Step[] = [
      { action: left, board: turned(1) },
      { action: right, board: turned(0) },
      { action: left, board: turned(1) },
      { action: left, board: turned(2) },
    ];
    const graph = graphOf(logOf(turned(0), steps));
    const at = (p: { x: number; y: number }) => ({ x: p.x, y: p.y });
    expect(graph.clickMemory.undoing(0, left)).toEqual([at(right)]);
    expect(graph.clickMemory.undoing(0, right)).toEqual([at(left)]);
    // a click point a cell or two off (the thing clicked changed shape) is the same place
    expect(graph.clickMemory.undoing(0, { x: left.x + 1, y: left.y - 2 })).toEqual([at(right)]);
    expect(graph.clickMemory.undoing(0, { x: left.x + 3, y: left.y })).toEqual([]);
    expect(graph.clickMemory.undoing(1, left)).toEqual([]);
    const node = graph.states.get(graph.current!)!;
    const seg = graph.segmentation(node);
    const tried = graph.edges.get(graph.current!);
    const tierOf = (list: ReturnType<typeof untestedCandidates>) =>
      list.find((c) => c.action.id === 6 && c.action.x === 51 && c.action.y === 51)!.tier;
    expect(tierOf(untestedCandidates(seg, [6], tried, graph, 0, undefined, graph.clickMemory.arrivedByClick))).toBe(3);
    expect(tierOf(untestedCandidates(seg, [6], tried, graph, 0, undefined, undefined))).toBeLessThan(3);
  });

  test("a button that led to one same state from two states waits: its outcome is known", () => {
    // a reset button (colour 4) sends the play area back to all-9 from anywhere
    const withButton = (play: [number, number, number]) => {
      const b = panelAndFrame(play);
      for (let y = 50; y < 54; y++) for (let x = 50; x < 54; x++) b.cells[y * 64 + x] = 4;
      return b;
    };
    const s0 = withButton([9, 9, 9]);
    const steps: Step[] = [
      { action: { id: 6, x: 34, y: 35 }, board: withButton([8, 9, 9]) },
      { action: { id: 6, x: 51, y: 51 }, board: s0 },
      { action: { id: 6, x: 43, y: 35 }, board: withButton([9, 8, 9]) },
      { action: { id: 6, x: 51, y: 51 }, board: s0 },
      { action: { id: 6, x: 52, y: 35 }, board: withButton([9, 9, 8]) },
    ];
    const graph = graphOf(logOf(s0, steps));
    const node = graph.states.get(graph.current!)!;
    const list = untestedCandidates(graph.segmentation(node), [6], graph.edges.get(graph.current!), graph);
    const button = list.find((c) => c.action.id === 6 && c.action.x === 51 && c.action.y === 51)!;
    expect(button.tier).toBe(3);
    expect(button.why).toContain("one known state");
  });
});
