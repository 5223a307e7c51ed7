// Reference rows: a row of framed colours (the answer), a row of empty slots, a palette of pieces. Boards
// built for the tests: background 0, reference frames 6×6 on row 2, slots 2×2 on row 30, pieces 4×4 on row 50.
import { describe, expect, test } from "bun:test";
import { readReference } from "../../../src/agent/explorer/reference.ts";
import { segment } from "../../../src/agent/explorer/segment.ts";
import { untestedCandidates } from "../../../src/agent/explorer/targets.ts";
import { board64 } from "./helpers.ts";

const ANSWER = [3, 4, 5, 6];
const SLOT = 8;
const PALETTE_ORDER = [5, 3, 6, 4];

/** A frame of colour c: a 6×6 ring (the reference draws its colours as frames). */
const frame = (x: number, y: number, c: number) => [
  { x, y, w: 6, h: 1, c },
  { x, y: y + 5, w: 6, h: 1, c },
  { x, y, w: 1, h: 6, c },
  { x: x + 5, y, w: 1, h: 6, c },
];

/** The board with the first `placed` slots filled with the answer's colours and those pieces gone. */
function board(placed: number) {
  const rects = ANSWER.flatMap((c, i) => frame(10 + 8 * i, 2, c));
  ANSWER.forEach((c, i) => {
    if (i < placed) rects.push({ x: 11 + 8 * i, y: 29, w: 4, h: 4, c });
    else rects.push({ x: 12 + 8 * i, y: 30, w: 2, h: 2, c: SLOT });
  });
  PALETTE_ORDER.forEach((c, i) => {
    if (ANSWER.indexOf(c) >= placed) rects.push({ x: 10 + 8 * i, y: 50, w: 4, h: 4, c });
  });
  return segment(board64(0, rects));
}

const pieceOf = (c: number) => ({ x: 10 + 8 * PALETTE_ORDER.indexOf(c), y: 50 });
const inside = (p: { x: number; y: number }, at: { x: number; y: number }, s: number) =>
  p.x >= at.x && p.x < at.x + s && p.y >= at.y && p.y < at.y + s;

describe("reference rows", () => {
  test("asks first for the piece of the colour the reference shows at the leftmost slot", () => {
    const r = readReference(board(0));
    expect(r?.colours).toEqual(ANSWER);
    expect(r?.next).toBe(3);
    expect(inside(r!.click, pieceOf(3), 4)).toBe(true);
  });

  test("with that piece just picked, asks for the leftmost empty slot", () => {
    const r = readReference(board(0), { x: pieceOf(3).x + 1, y: 51 });
    expect(inside(r!.click, { x: 12, y: 30 }, 2)).toBe(true);
  });

  test("a picked piece of another colour is not taken for the next one", () => {
    const r = readReference(board(0), { x: pieceOf(5).x + 1, y: 51 });
    expect(inside(r!.click, pieceOf(3), 4)).toBe(true);
  });

  test("after slots are filled the next colour is the reference's at the leftmost empty slot, down to the last", () => {
    expect(readReference(board(2))?.next).toBe(5);
    const last = readReference(board(3));
    expect(last?.next).toBe(6);
    expect(inside(last!.click, pieceOf(6), 4)).toBe(true);
    expect(inside(readReference(board(3), { x: pieceOf(6).x, y: 50 })!.click, { x: 36, y: 30 }, 2)).toBe(true);
  });

  test("reads nothing once the slots show the answer, though the palette's emptied places look like slots", () => {
    const done = board64(0, [
      ...ANSWER.flatMap((c, i) => frame(10 + 8 * i, 2, c)),
      ...ANSWER.map((c, i) => ({ x: 11 + 8 * i, y: 29, w: 4, h: 4, c })),
      ...PALETTE_ORDER.map((_, i) => ({ x: 11 + 8 * i, y: 51, w: 2, h: 2, c: SLOT })),
    ]);
    expect(readReference(segment(done))).toBeUndefined();
    // Not yet in order: the same board with two placed pieces swapped still asks for something.
    const swapped = board64(0, [
      ...ANSWER.flatMap((c, i) => frame(10 + 8 * i, 2, c)),
      ...[4, 3, 5, 6].map((c, i) => ({ x: 11 + 8 * i, y: 29, w: 4, h: 4, c })),
      ...PALETTE_ORDER.map((_, i) => ({ x: 11 + 8 * i, y: 51, w: 2, h: 2, c: SLOT })),
    ]);
    expect(readReference(segment(swapped))).toBeDefined();
  });

  test("reads nothing when the reference is drawn below the slots, has two things, or one slot stands for three", () => {
    const below = board64(0, [
      ...ANSWER.flatMap((c, i) => frame(10 + 8 * i, 40, c)),
      ...ANSWER.map((_, i) => ({ x: 12 + 8 * i, y: 30, w: 2, h: 2, c: SLOT })),
      ...PALETTE_ORDER.map((c, i) => ({ x: 10 + 8 * i, y: 56, w: 4, h: 4, c })),
    ]);
    expect(readReference(segment(below))).toBeUndefined();
    const two = board64(0, [
      ...[3, 4].flatMap((c, i) => frame(10 + 8 * i, 2, c)),
      ...[0, 1].map((i) => ({ x: 12 + 8 * i, y: 30, w: 2, h: 2, c: SLOT })),
      ...[4, 3].map((c, i) => ({ x: 10 + 8 * i, y: 50, w: 4, h: 4, c })),
    ]);
    expect(readReference(segment(two))).toBeUndefined();
    const lone = board64(0, [
      ...[3, 4, 5].flatMap((c, i) => frame(10 + 8 * i, 2, c)),
      { x: 12, y: 30, w: 2, h: 2, c: SLOT },
      ...[5, 3, 4].map((c, i) => ({ x: 10 + 8 * i, y: 50, w: 4, h: 4, c })),
    ]);
    expect(readReference(segment(lone))).toBeUndefined();
  });

  test("reads nothing without a reference row, or when slots and reference do not count alike", () => {
    expect(
      readReference(
        segment(
          board64(0, [
            { x: 10, y: 30, w: 2, h: 2, c: SLOT },
            { x: 20, y: 30, w: 2, h: 2, c: SLOT },
          ]),
        ),
      ),
    ).toBeUndefined();
    const extra = board64(0, [
      ...ANSWER.flatMap((c, i) => frame(10 + 8 * i, 2, c)),
      ...[0, 1, 2].map((i) => ({ x: 12 + 8 * i, y: 30, w: 2, h: 2, c: SLOT })),
      ...PALETTE_ORDER.map((c, i) => ({ x: 10 + 8 * i, y: 50, w: 4, h: 4, c })),
    ]);
    expect(readReference(segment(extra))).toBeUndefined();
  });

  test("the reference's click goes ahead of moves and submit", () => {
    const list = untestedCandidates(board(0), [5, 6], undefined);
    expect(list[0]!.action.id).toBe(6);
    expect(list[0]!.why).toContain("reference row");
    const plain = untestedCandidates(segment(board64(0, [{ x: 10, y: 50, w: 4, h: 4, c: 3 }])), [5, 6], undefined);
    expect(plain[0]!.action.id).toBe(5);
  });
});

// A program that calls a subprogram: the top row's slots are framed in colour 5 and show, between its second
// and third slot, a mark in colour 7 joined by a line to the frame (colour 7) around a second row of slots.
// The places in order: the top row's two slots, the called row's two, the top row's last. Frames are drawn in
// answer colours, so a piece placed in the called row can have the calling row's frame colour.
describe("reference rows that call another row", () => {
  const ANSWER5 = [3, 4, 5, 6, 7];
  const PALETTE5 = [5, 3, 7, 4, 6];
  const TOP = [12, 18, 36].map((x) => ({ x, y: 24 }));
  const CALLED = [12, 18].map((x) => ({ x, y: 40 }));
  const ORDER = [TOP[0]!, TOP[1]!, CALLED[0]!, CALLED[1]!, TOP[2]!];
  const outline = (x: number, y: number, w: number, h: number, c: number) => [
    { x, y, w, h: 1, c },
    { x, y: y + h - 1, w, h: 1, c },
    { x, y, w: 1, h, c },
    { x: x + w - 1, y, w: 1, h, c },
  ];

  /** The board with the first `filled` places (in order) holding their pieces, those pieces gone from the palette. */
  function nested(filled: number) {
    const rects = [
      ...ANSWER5.flatMap((c, i) => frame(10 + 8 * i, 2, c)),
      ...outline(8, 18, 37, 13, 5),
      ...outline(8, 36, 37, 11, 7),
      ...outline(24, 23, 4, 4, 7),
      { x: 25, y: 27, w: 2, h: 9, c: 7 },
    ];
    ORDER.forEach((p, i) => {
      if (i < filled) rects.push({ x: p.x - 1, y: p.y - 1, w: 4, h: 4, c: ANSWER5[i]! });
      else rects.push({ x: p.x, y: p.y, w: 2, h: 2, c: SLOT });
    });
    PALETTE5.forEach((c, i) => {
      if (ANSWER5.indexOf(c) >= filled) rects.push({ x: 10 + 8 * i, y: 54, w: 4, h: 4, c });
    });
    return segment(board64(0, rects));
  }
  const piece5 = (c: number) => ({ x: 10 + 8 * PALETTE5.indexOf(c), y: 54 });

  test("fills the called row where the call stands, then the rest of the calling row", () => {
    expect(readReference(nested(0))?.next).toBe(3);
    const two = readReference(nested(2));
    expect(two?.next).toBe(5);
    expect(inside(two!.click, piece5(5), 4)).toBe(true);
    // Picked: the called row's first slot, not the calling row's next one.
    const picked = readReference(nested(2), { x: piece5(5).x + 1, y: 55 });
    expect(inside(picked!.click, CALLED[0]!, 2)).toBe(true);
    // The colour-5 piece placed in the called row is no call back to the top row.
    expect(readReference(nested(3))?.next).toBe(6);
  });

  test("a called row whose slots are all filled still counts, and the hole inside the call's mark is no slot", () => {
    // The mark's hole is a 2×2 of the ground inside colour 7, an answer colour: it is never the next slot.
    const last = readReference(nested(4), { x: piece5(7).x + 1, y: 55 });
    expect(last?.next).toBe(7);
    expect(inside(last!.click, TOP[2]!, 2)).toBe(true);
    expect(readReference(nested(5))).toBeUndefined();
  });
});

// Two calls from one row to two framed rows side by side, the marks drawn apart from the frames they name
// (4×4 rings, the size of a piece): the top row (frame colour 9) is a slot, a call to the left row (frame
// colour 6), a slot, a call to the right row (frame colour 7), a slot; each called row has one slot.
describe("reference rows with calls to rows side by side", () => {
  const ANSWER5 = [3, 4, 5, 6, 7];
  const PALETTE5 = [5, 3, 7, 4, 6];
  const ORDER = [
    { x: 12, y: 24 },
    { x: 14, y: 42 },
    { x: 26, y: 24 },
    { x: 44, y: 42 },
    { x: 40, y: 24 },
  ];
  const ring = (x: number, y: number, c: number) => [
    { x, y, w: 4, h: 1, c },
    { x, y: y + 3, w: 4, h: 1, c },
    { x, y, w: 1, h: 4, c },
    { x: x + 3, y, w: 1, h: 4, c },
  ];
  const outline = (x: number, y: number, w: number, h: number, c: number) => [
    { x, y, w, h: 1, c },
    { x, y: y + h - 1, w, h: 1, c },
    { x, y, w: 1, h, c },
    { x: x + w - 1, y, w: 1, h, c },
  ];

  function sideBySide(filled: number) {
    const rects = [
      ...ANSWER5.flatMap((c, i) => frame(10 + 8 * i, 2, c)),
      ...outline(8, 18, 40, 13, 9),
      ...ring(18, 23, 6),
      ...ring(32, 23, 7),
      ...outline(8, 36, 14, 13, 6),
      ...outline(38, 36, 14, 13, 7),
    ];
    ORDER.forEach((p, i) => {
      if (i < filled) rects.push({ x: p.x - 1, y: p.y - 1, w: 4, h: 4, c: ANSWER5[i]! });
      else rects.push({ x: p.x, y: p.y, w: 2, h: 2, c: SLOT });
    });
    PALETTE5.forEach((c, i) => {
      if (ANSWER5.indexOf(c) >= filled) rects.push({ x: 10 + 8 * i, y: 54, w: 4, h: 4, c });
    });
    return segment(board64(0, rects));
  }
  const piece5 = (c: number) => ({ x: 10 + 8 * PALETTE5.indexOf(c), y: 54 });

  test("each call stands for its own row, in the calling row's order", () => {
    expect(readReference(sideBySide(0))?.next).toBe(3);
    for (const filled of [1, 2, 3, 4]) {
      const colour = ANSWER5[filled]!;
      const r = readReference(sideBySide(filled), { x: piece5(colour).x + 1, y: 55 });
      expect(r?.next).toBe(colour);
      expect(inside(r!.click, ORDER[filled]!, 2)).toBe(true);
    }
  });
});

// Calls still to be placed: a mark (a 4×4 ring in the colour of a row's frame) lies loose with the palette,
// to be put in a slot of the calling row. Top row (frame colour 9): slots T0..; the called row (frame colour
// `CALLEE`) below; the palette on row 54, marks at its right end.
describe("reference rows with call marks to place", () => {
  const CALLEE = 7;
  const ring = (x: number, y: number, c: number) => [
    { x, y, w: 4, h: 1, c },
    { x, y: y + 3, w: 4, h: 1, c },
    { x, y, w: 1, h: 4, c },
    { x: x + 3, y, w: 1, h: 4, c },
  ];
  const outline = (x: number, y: number, w: number, h: number, c: number) => [
    { x, y, w, h: 1, c },
    { x, y: y + h - 1, w, h: 1, c },
    { x, y, w: 1, h, c },
    { x: x + w - 1, y, w: 1, h, c },
  ];
  type At = { x: number; y: number };
  /**
   * The board: the answer framed on row 2; `top` and `called` slots (a colour fills a slot, "mark" puts a
   * ring there, undefined leaves it empty); the palette's pieces and loose marks.
   */
  function board(
    answer: number[],
    top: (number | "mark" | undefined)[],
    called: (number | undefined)[],
    palette: number[],
    loose: number,
  ) {
    const rects = [
      ...answer.flatMap((c, i) => frame(4 + 7 * i, 2, c)),
      ...outline(6, 18, 6 * top.length + 6, 13, 9),
      ...outline(6, 36, 6 * called.length + 6, 13, CALLEE),
    ];
    const fill = (at: At, what: number | "mark" | undefined) => {
      if (what === "mark") rects.push(...ring(at.x - 1, at.y - 1, CALLEE));
      else if (what === undefined) rects.push({ x: at.x, y: at.y, w: 2, h: 2, c: SLOT });
      else rects.push({ x: at.x - 1, y: at.y - 1, w: 4, h: 4, c: what });
    };
    top.forEach((w, i) => fill(topAt(i), w));
    called.forEach((w, i) => fill(calledAt(i), w));
    palette.forEach((c, i) => rects.push({ x: 4 + 7 * i, y: 54, w: 4, h: 4, c }));
    for (let i = 0; i < loose; i++) rects.push(...ring(60 - 6 * (i + 1), 54, CALLEE));
    return segment(board64(0, rects));
  }
  const topAt = (i: number): At => ({ x: 12 + 6 * i, y: 24 });
  const calledAt = (i: number): At => ({ x: 12 + 6 * i, y: 42 });
  const looseAt = (i: number): At => ({ x: 60 - 6 * (i + 1), y: 54 });

  test("the mark goes to the slot where the called row's placed piece agrees with the answer", () => {
    // Answer 3 [4 5] 6 7: the called row holds a 4 and a slot; the mark belongs in the second top slot.
    const answer = [3, 4, 5, 6, 7];
    expect(
      readReference(board(answer, [undefined, undefined, undefined, undefined], [4, undefined], [3, 5, 6, 7], 1))?.next,
    ).toBe(3);
    const first = board(answer, [3, undefined, undefined, undefined], [4, undefined], [5, 6, 7], 1);
    const mark = readReference(first);
    expect(inside(mark!.click, looseAt(0), 4)).toBe(true);
    expect(mark!.why).toContain("mark");
    expect(inside(readReference(first, { x: looseAt(0).x, y: 54 })!.click, topAt(1), 2)).toBe(true);
    // Placed: the called row's slot is next.
    const placed = board(answer, [3, "mark", undefined, undefined], [4, undefined], [5, 6, 7], 0);
    const r = readReference(placed, { x: 4 + 1, y: 55 });
    expect(r?.next).toBe(5);
    expect(inside(r!.click, calledAt(1), 2)).toBe(true);
  });

  test("a row called twice stands twice, answer colours repeating; a row of marks alone still calls", () => {
    // Answer [4 5 6][4 5 6]: both top slots take a mark, the called row's three slots serve both calls.
    const answer = [4, 5, 6, 4, 5, 6];
    const fresh = board(answer, [undefined, undefined], [undefined, undefined, undefined], [4, 5, 6], 2);
    expect(inside(readReference(fresh, { x: looseAt(1).x, y: 54 })!.click, topAt(0), 2)).toBe(true);
    const marked = board(answer, ["mark", "mark"], [undefined, undefined, undefined], [4, 5, 6], 0);
    const r = readReference(marked, { x: 4 + 1, y: 55 });
    expect(r?.next).toBe(4);
    expect(inside(r!.click, calledAt(0), 2)).toBe(true);
    expect(readReference(board(answer, ["mark", "mark"], [4, 5, 6], [], 0))).toBeUndefined();
  });
});

// A two-row answer and a program that calls itself: the answer 3 4 5 over 3 4 5 (read as one, six long);
// the top row (frame colour 9) has three slots, the called row (frame colour 7) two; a colour-7 mark and a
// colour-9 mark lie loose beside the pieces 3, 4, 5. Following the readings click by click must leave a
// program whose run (until six colours are out) gives the answer.
describe("reference rows with a two-row answer and a call into the calling row", () => {
  type Item = number | "7" | "9" | undefined;
  const ring = (x: number, y: number, c: number) => [
    { x, y, w: 4, h: 1, c },
    { x, y: y + 3, w: 4, h: 1, c },
    { x, y, w: 1, h: 4, c },
    { x: x + 3, y, w: 1, h: 4, c },
  ];
  const outline = (x: number, y: number, w: number, h: number, c: number) => [
    { x, y, w, h: 1, c },
    { x, y: y + h - 1, w, h: 1, c },
    { x, y, w: 1, h, c },
    { x: x + w - 1, y, w: 1, h, c },
  ];
  const topAt = (i: number) => ({ x: 12 + 6 * i, y: 24 });
  const calledAt = (i: number) => ({ x: 12 + 6 * i, y: 42 });
  const paletteAt = (i: number) => ({ x: 4 + 7 * i, y: 54 });

  function render(top: Item[], called: Item[], palette: Item[]) {
    const rects = [
      ...[3, 4, 5].flatMap((c, i) => frame(4 + 7 * i, 2, c)),
      ...[3, 4, 5].flatMap((c, i) => frame(4 + 7 * i, 9, c)),
      ...outline(6, 18, 6 * top.length + 6, 13, 9),
      ...outline(6, 36, 6 * called.length + 6, 13, 7),
    ];
    const fill = (at: { x: number; y: number }, what: Item, empty: boolean) => {
      if (what === "7" || what === "9") rects.push(...ring(at.x - 1, at.y - 1, Number(what)));
      else if (what !== undefined) rects.push({ x: at.x - 1, y: at.y - 1, w: 4, h: 4, c: what });
      else if (empty) rects.push({ x: at.x, y: at.y, w: 2, h: 2, c: SLOT });
    };
    top.forEach((w, i) => fill(topAt(i), w, true));
    called.forEach((w, i) => fill(calledAt(i), w, true));
    palette.forEach((w, i) => fill(paletteAt(i), w, false));
    return segment(board64(0, rects));
  }

  /** The program's output: the top row run, a mark calling its row, until `n` colours are out. */
  function run(top: Item[], called: Item[], n: number): number[] {
    const out: number[] = [];
    const rowOf = (m: Item) => (m === "7" ? called : top);
    const go = (row: Item[], depth: number) => {
      for (const it of row) {
        if (out.length >= n || depth > n) return;
        if (it === "7" || it === "9") go(rowOf(it), depth + 1);
        else if (it !== undefined) out.push(it);
      }
    };
    go(top, 0);
    return out;
  }

  test("following the readings leaves a program that gives the answer", () => {
    const top: Item[] = [undefined, undefined, undefined];
    const called: Item[] = [undefined, undefined];
    const palette: Item[] = [3, 4, 5, "7", "9"];
    const near = (p: { x: number; y: number }, at: { x: number; y: number }) =>
      p.x >= at.x - 1 && p.x <= at.x + 2 && p.y >= at.y - 1 && p.y <= at.y + 2;
    let steps = 0;
    for (; steps < 10; steps++) {
      const r = readReference(render(top, called, palette));
      if (!r) break;
      expect(r.colours).toEqual([3, 4, 5, 3, 4, 5]);
      const from = palette.findIndex((_, i) => palette[i] !== undefined && near(r.click, paletteAt(i)));
      expect(from).toBeGreaterThanOrEqual(0);
      const to = readReference(render(top, called, palette), r.click)!.click;
      const t = top.findIndex((_, i) => near(to, topAt(i)));
      const c = called.findIndex((_, i) => near(to, calledAt(i)));
      expect(t >= 0 || c >= 0).toBe(true);
      if (t >= 0) top[t] = palette[from];
      else called[c] = palette[from];
      palette[from] = undefined;
    }
    expect(steps).toBe(5);
    expect(run(top, called, 6)).toEqual([3, 4, 5, 3, 4, 5]);
  });
});
