// The ARC state machine every local game shares: start, no-ops, budget, undo, animation, determinism.
import { describe, expect, test } from "bun:test";
import { createGame, findGame } from "../../src/game/catalog.ts";
import type { Action, FrameData, Game } from "../../src/game-model.ts";

function game(id: string, seed = 0): Game {
  return createGame(id, { seed })._unsafeUnwrap();
}

const same = (a: FrameData, b: FrameData) => Buffer.from(a.frames.at(-1)!.cells).equals(Buffer.from(b.frames.at(-1)!.cells));

describe("engine", () => {
  test("a step before the first RESET returns NOT_PLAYED unchanged; RESET starts level 1", () => {
    const g = game("glide");
    const before = g.step({ id: 4 });
    expect(before.state).toBe("NOT_PLAYED");
    expect(before.message).toContain("RESET");
    const start = g.reset();
    expect(start.state).toBe("NOT_FINISHED");
    expect(start.levelsCompleted).toBe(0);
    expect(start.frames.length).toBe(1);
    expect(start.frames[0]!.cells.length).toBe(64 * 64);
  });

  test("an action the game does not offer is a no-op frame with a message", () => {
    const g = game("vault");
    const start = g.reset();
    const f = g.step({ id: 1 });
    expect(f.message).toContain("not offered");
    expect(f.state).toBe("NOT_FINISHED");
    expect(same(f, start)).toBe(true);
  });

  test("a click off the grid is a no-op frame with a message, not a throw", () => {
    const g = game("lumen");
    const start = g.reset();
    for (const click of [
      { x: 64, y: 3 },
      { x: -1, y: 0 },
      { x: 2.5, y: 3 },
    ]) {
      const f = g.step({ id: 6, ...click });
      expect(f.message).toContain("off the 64x64 grid");
      expect(same(f, start)).toBe(true);
    }
  });

  test("running out of budget ends in GAME_OVER; RESET restarts the same level", () => {
    const entry = findGame("glide")._unsafeUnwrap();
    const g = entry.create(0);
    g.reset();
    for (const a of entry.levels[0]!.solution) g.step(a); // now on level 2
    const budget = entry.levels[1]!.budget;
    let f: FrameData | undefined;
    for (let i = 0; i < budget; i++) f = g.step({ id: i % 2 === 0 ? 4 : 3 });
    expect(f!.state).toBe("GAME_OVER");
    expect(g.step({ id: 2 }).message).toContain("game over");
    const again = g.reset();
    expect(again.state).toBe("NOT_FINISHED");
    expect(again.levelsCompleted).toBe(1);
  });

  test("the step bar on the bottom row shrinks with each action", () => {
    const g = game("murk");
    const green = (f: FrameData) =>
      f.frames
        .at(-1)!
        .cells.subarray(63 * 64)
        .filter((c) => c === 14).length;
    const start = g.reset();
    const after = g.step({ id: 2 });
    expect(green(start)).toBe(64);
    expect(green(after)).toBeLessThan(64);
  });

  test("a fatal move is GAME_OVER at once", () => {
    const g = game("glide");
    g.reset();
    const entry = findGame("glide")._unsafeUnwrap();
    for (const level of entry.levels.slice(0, 3)) for (const a of level.solution) g.step(a);
    // Level 4: sliding down the left column from the start runs into the hole at (1,5).
    const f = g.step({ id: 2 });
    expect(f.state).toBe("GAME_OVER");
  });

  test("undo restores the previous board and costs an action", () => {
    const g = game("lumen");
    const start = g.reset();
    const click = findGame("lumen")._unsafeUnwrap().levels[0]!.solution[0]!;
    const wrong: Action = click.id === 6 ? { id: 6, x: click.x - 20, y: click.y } : click;
    const moved = g.step(wrong);
    expect(same(moved, start)).toBe(false);
    const undone = g.step({ id: 7 });
    const board = (f: FrameData) => Buffer.from(f.frames.at(-1)!.cells.subarray(0, 62 * 64));
    expect(board(undone).equals(board(start))).toBe(true);
    expect(
      undone.frames
        .at(-1)!
        .cells.subarray(63 * 64)
        .filter((c) => c === 14).length,
    ).toBeLessThan(64);
    expect(g.step({ id: 7 }).message).toContain("nothing to undo");
  });

  test("animations: a slide returns one frame per tile crossed, the last settled", () => {
    const g = game("glide");
    g.reset();
    const f = g.step({ id: 2 }); // level 1: slides two tiles down
    expect(f.frames.length).toBe(2);
    expect(same({ ...f, frames: [f.frames[0]!] }, f)).toBe(false);
    const v = game("vault");
    v.reset();
    expect(v.step({ id: 6, x: 31, y: 39 }).frames.length).toBeGreaterThan(1); // a wrong press flashes
  });

  test("solving a level returns the new level's first board last; solving the last is WIN; RESET after WIN restarts", () => {
    const entry = findGame("vault")._unsafeUnwrap();
    const g = entry.create(0);
    g.reset();
    let f: FrameData | undefined;
    for (const a of entry.levels[0]!.solution) f = g.step(a);
    expect(f!.levelsCompleted).toBe(1);
    const fresh = entry.create(0);
    fresh.reset();
    for (const a of entry.levels[0]!.solution) fresh.step(a);
    expect(same(f!, fresh.reset())).toBe(false); // reset on level 2 shows level 2 without the code (attempt 2)
    for (const level of entry.levels.slice(1)) for (const a of level.solution) f = g.step(a);
    expect(f!.state).toBe("WIN");
    const restart = g.reset();
    expect(restart.levelsCompleted).toBe(0);
    expect(restart.state).toBe("NOT_FINISHED");
  });

  test("the vault code shows on a level's first board only, not after a RESET", () => {
    const g = game("vault");
    const first = g.reset();
    const retry = g.reset();
    expect(same(first, retry)).toBe(false);
    // Hidden slots are gray (3); shown ones carry the code's colours.
    const graySlots = (f: FrameData) =>
      f.frames
        .at(-1)!
        .cells.subarray(0, 62 * 64)
        .filter((c) => c === 3).length;
    expect(graySlots(first)).toBe(0);
    expect(graySlots(retry)).toBeGreaterThan(0);
  });

  test("deterministic: same seed and actions give the same frames", () => {
    for (const id of ["glide", "lumen", "vault", "murk", "switchyard", "echo"]) {
      const run = () => {
        const g = game(id, 7);
        const out: number[] = [];
        g.reset();
        let x = 12345;
        for (let i = 0; i < 200; i++) {
          x = (x * 1103515245 + 12345) % 2 ** 31;
          const ids = g.info.availableActions;
          const id = ids[x % ids.length]!;
          const f = g.step(id === 6 ? { id, x: x % 64, y: (x >> 8) % 64 } : ({ id } as Action));
          if (f.state === "GAME_OVER") g.reset();
          for (const fr of f.frames) out.push(Number(Bun.hash(fr.cells)));
        }
        return out;
      };
      expect(run()).toEqual(run());
    }
  });

  test("unknown game id is an error listing the known ids", () => {
    const r = createGame("nope", { seed: 0 });
    expect(r.isErr()).toBe(true);
    expect(r._unsafeUnwrapErr().fix).toContain("glide");
  });
});
