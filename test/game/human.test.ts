// The terminal player's pure parts: key → action, typed clicks, the budget read from the bar, the drawing.
import { describe, expect, test } from "bun:test";
import { budgetLeft, keyCommand, parseClick, statusLine } from "../../src/agent/human.ts";
import { createGame } from "../../src/game/catalog.ts";
import { gridToAnsi } from "../../src/game/render.ts";

describe("human player", () => {
  test("arrows and wasd move, space/e interact, u/z undo, r reset, q quit, c asks for a click", () => {
    expect(keyCommand("\x1b[A")).toEqual({ kind: "action", action: { id: 1 } });
    expect(keyCommand("\x1b[B")).toEqual({ kind: "action", action: { id: 2 } });
    expect(keyCommand("\x1b[D")).toEqual({ kind: "action", action: { id: 3 } });
    expect(keyCommand("\x1b[C")).toEqual({ kind: "action", action: { id: 4 } });
    expect(keyCommand("w")).toEqual({ kind: "action", action: { id: 1 } });
    expect(keyCommand("A")).toEqual({ kind: "action", action: { id: 3 } });
    expect(keyCommand("d")).toEqual({ kind: "action", action: { id: 4 } });
    expect(keyCommand(" ")).toEqual({ kind: "action", action: { id: 5 } });
    expect(keyCommand("u")).toEqual({ kind: "action", action: { id: 7 } });
    expect(keyCommand("z")).toEqual({ kind: "action", action: { id: 7 } });
    expect(keyCommand("r")).toEqual({ kind: "action", action: { id: 0 } });
    expect(keyCommand("q").kind).toBe("quit");
    expect(keyCommand("\x03").kind).toBe("quit");
    expect(keyCommand("c").kind).toBe("click-prompt");
    expect(keyCommand("x").kind).toBe("ignore");
  });

  test("typed clicks: two numbers on the grid", () => {
    expect(parseClick("12 40")).toEqual({ id: 6, x: 12, y: 40 });
    expect(parseClick("(3, 63)")).toEqual({ id: 6, x: 3, y: 63 });
    expect(parseClick("64 1")).toBeUndefined();
    expect(parseClick("twelve")).toBeUndefined();
  });

  test("budget and status read from the frame", () => {
    const g = createGame("murk", { seed: 0 })._unsafeUnwrap();
    const f = g.reset();
    expect(budgetLeft(f.frames[0]!)).toBe(100);
    const after = g.step({ id: 2 });
    expect(budgetLeft(after.frames[0]!)).toBeLessThan(100);
    expect(statusLine(g, after, 2)).toContain("level 1/7");
  });

  test("the drawing is 32 lines of 64 half-blocks in the ARC colours", () => {
    const g = createGame("glide", { seed: 0 })._unsafeUnwrap();
    const lines = gridToAnsi(g.reset().frames[0]!);
    expect(lines.length).toBe(32);
    expect(lines[0]!.split("\u2580").length - 1).toBe(64);
    expect(lines[31]).toContain("38;2;0;0;0m\x1b[48;2;79;204;48m"); // row 62 backdrop black above the green bar
  });
});
