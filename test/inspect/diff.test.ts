import { describe, expect, test } from "bun:test";
import { diffSections, formatDiff } from "../../src/inspect/diff.ts";
import { parseLog } from "../../src/log/format.ts";
import { generateLog } from "../../src/bench/gen-log.ts";
import { loaded } from "./helpers.ts";

describe("diffSections", () => {
  const text = generateLog({ sections: 40, seed: 21 });
  const log = loaded(text);
  const sections = parseLog(text).sections;

  test("every changed cell with its colours, as comparing the parsed grids finds them", () => {
    for (const [a, b] of [
      [1, 2],
      [3, 17],
      [0, 39],
      [10, 10],
    ] as const) {
      const d = diffSections(log, a, b, "ascii")._unsafeUnwrap();
      const ga = sections[a]!.board;
      const gb = sections[b]!.board;
      const want: Array<{ x: number; y: number; from: number; to: number }> = [];
      for (let i = 0; i < gb.cells.length; i++) {
        if (ga.cells[i] !== gb.cells[i]) want.push({ x: i % 64, y: Math.floor(i / 64), from: ga.cells[i]!, to: gb.cells[i]! });
      }
      expect(d.cells).toEqual(want);
      expect(d.changed).toBe(want.length);
      expect([d.width, d.height]).toEqual([64, 64]);
      if (want.length > 0) {
        expect(d.box).toEqual({
          x0: Math.min(...want.map((c) => c.x)),
          y0: Math.min(...want.map((c) => c.y)),
          x1: Math.max(...want.map((c) => c.x)),
          y1: Math.max(...want.map((c) => c.y)),
        });
      } else expect(d.box).toBeNull();
    }
  });

  test("the text names the actions and the count, and draws the box", () => {
    const d = diffSections(log, 1, 2, "ascii")._unsafeUnwrap();
    const out = formatDiff(d, "ascii");
    expect(out.split("\n")[0]).toStartWith(`Action 1 (#1) -> Action 2 (#2): ${d.changed} of 4096 cells changed`);
    const boxRows = d.box ? d.box.y1 - d.box.y0 + 1 : 0;
    expect(out.split("\n").filter((l) => /^\s*\d+ [.$8#hqOCznf(G\->I"]+$/.test(l)).length).toBe(boxRows);
  });

  test("a cut board is an error, not a crash", () => {
    const cut = loaded(text.slice(0, text.length - 64 * 10));
    const r = diffSections(cut, 1, 39, "ascii");
    expect(r._unsafeUnwrapErr().code).toBe("cut-board");
  });
});
