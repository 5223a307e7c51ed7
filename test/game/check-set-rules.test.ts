// The rule kinds of the check-set games: what each move does, beyond the stored solutions (solutions.test.ts).
import { describe, expect, test } from "bun:test";
import { countRules } from "../../src/game/rules/count.ts";
import { pushRules } from "../../src/game/rules/push.ts";
import { sortRules } from "../../src/game/rules/sort.ts";
import { tideRules } from "../../src/game/rules/tide.ts";
import type { Move } from "../../src/game/engine.ts";

const how = { attempt: 1, seed: 0 };
const right: Move = { kind: "move", dx: 1, dy: 0 };
const up: Move = { kind: "move", dx: 0, dy: -1 };
const down: Move = { kind: "move", dx: 0, dy: 1 };
const wait: Move = { kind: "interact" };

describe("push (crates)", () => {
  const level = { map: ["########", "#P.BB.T#", "#.....T#", "########"] };
  test("a crate moves ahead of the player; two in a row do not, nor one into a wall", () => {
    const s = pushRules.start(level, how);
    const t = pushRules.step(level, s, right);
    expect(t.state).toEqual({ x: 2, y: 1, crates: [11, 12] });
    const blocked = pushRules.step(level, t.state, right);
    expect(blocked.state).toBe(t.state);
    const wall = { map: ["#####", "#PB##", "#..T#", "#####"] };
    const w = pushRules.start(wall, how);
    expect(pushRules.step(wall, w, right).state).toBe(w);
  });
  test("the level is won when every target holds a crate", () => {
    const level1 = { map: ["######", "#PB.T#", "######"] };
    const a = pushRules.step(level1, pushRules.start(level1, how), right);
    expect(a.outcome).toBe("play");
    expect(pushRules.step(level1, a.state, right).outcome).toBe("solved");
  });
  test("as many crates as targets, and not all placed", () => {
    expect(pushRules.check({ map: ["#####", "#PBB#", "#..T#", "#####"] })?.problem).toContain("2 crates for 1 targets");
    expect(pushRules.check({ map: ["####", "#P*#", "####"] })?.problem).toContain("already holds");
  });
});

describe("sort (bars)", () => {
  const click = (i: number): Move => ({ kind: "click", tx: 1 + 2 * i, ty: 2 });
  test("pick, then swap; a second click on the picked bar puts it down; in order wins", () => {
    const level = { heights: [3, 1, 2], reach: "any" as const };
    let s = sortRules.start(level, how);
    s = sortRules.step(level, s, click(0)).state;
    expect(s.picked).toBe(0);
    expect(sortRules.step(level, s, click(0)).state.picked).toBe(-1);
    const swapped = sortRules.step(level, s, click(2));
    expect(swapped.state.bars).toEqual([2, 1, 3]);
    expect(swapped.outcome).toBe("play");
    const picked = sortRules.step(level, swapped.state, click(0)).state;
    expect(sortRules.step(level, picked, click(1)).outcome).toBe("solved");
  });
  test("with reach adjacent a click two bars away picks that bar instead", () => {
    const level = { heights: [3, 1, 2], reach: "adjacent" as const };
    const s = sortRules.step(level, sortRules.start(level, how), click(0)).state;
    expect(sortRules.step(level, s, click(2)).state).toEqual({ bars: [3, 1, 2], picked: 2 });
  });
});

describe("count (tally)", () => {
  const level = { map: ["r.b.r", ".r..b"], of: "r" as const };
  test("up adds, down takes away (not below zero), a wrong submit empties the tally, the right count wins", () => {
    let s = countRules.start(level, how);
    expect(countRules.step(level, s, down).state.tally).toBe(0);
    s = countRules.step(level, s, up).state;
    s = countRules.step(level, s, up).state;
    const wrong = countRules.step(level, s, wait);
    expect(wrong.state.tally).toBe(0);
    expect(wrong.outcome).toBe("play");
    s = countRules.step(level, s, up).state;
    expect(countRules.step(level, s, wait).outcome).toBe("solved");
  });
});

describe("tide", () => {
  const level = { map: ["######", "#P0.G#", "######"], period: 3, open: 2 };
  test("a gate drawn closed blocks; one that closes on the player is fatal; every action is a tick", () => {
    const s = tideRules.start(level, how); // t 0: open (phase 0 < 2)
    const inGate = tideRules.step(level, s, right); // t 1: still open
    expect(inGate.state).toEqual({ x: 2, y: 1, t: 1 });
    expect(inGate.outcome).toBe("play");
    expect(tideRules.step(level, inGate.state, wait).outcome).toBe("dead"); // t 2: closed on the player
    const late = tideRules.step(level, tideRules.step(level, s, wait).state, right); // in at t 1, t 2 closed
    expect(late.outcome).toBe("dead");
    const closed = tideRules.step(level, tideRules.step(level, s, wait).state, wait).state; // t 2: drawn closed
    expect(tideRules.step(level, closed, right).state).toEqual({ x: 1, y: 1, t: 0 });
  });
});
