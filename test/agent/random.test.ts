// --agent random: seeded draws among the offered actions and the board's things, through the real loop.
import { describe, expect, test } from "bun:test";
import { createAgent } from "../../src/agent/create.ts";
import { segment } from "../../src/agent/explorer/segment.ts";
import { drawBatch } from "../../src/agent/random.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { playGame } from "../run/helpers.ts";
import { board64 } from "./explorer/helpers.ts";

const BOARD = board64(5, [
  { x: 4, y: 4, w: 2, h: 2, c: 9 },
  { x: 40, y: 20, w: 6, h: 6, c: 11 },
  { x: 10, y: 50, w: 1, h: 1, c: 14 },
]);
const board = { ...BOARD, actionNumber: 12 };

describe("random draws", () => {
  test("the same seed and log position draw the same batch; another seed or position another one", () => {
    const input = { availableActions: [1, 2, 3, 4, 6] as const, actionCap: 20, seed: 3 };
    const a = drawBatch(board, { ...input, availableActions: [...input.availableActions] });
    expect(a).toHaveLength(20);
    expect(drawBatch(board, { ...input, availableActions: [...input.availableActions] })).toEqual(a);
    expect(drawBatch(board, { ...input, availableActions: [...input.availableActions], seed: 4 })).not.toEqual(a);
    expect(drawBatch({ ...board, actionNumber: 13 }, { ...input, availableActions: [...input.availableActions] })).not.toEqual(a);
  });

  test("only offered actions, never RESET; clicks land on the board's things, each of them reachable", () => {
    const things = segment(BOARD).components;
    const hit = new Set<number>();
    for (let seed = 0; seed < 40; seed++) {
      for (const a of drawBatch(board, { availableActions: [0, 1, 6, 7], actionCap: 20, seed })) {
        expect([1, 6, 7]).toContain(a.id as number);
        if (a.id !== 6) continue;
        const thing = things.find((t) => t.clickX === a.x && t.clickY === a.y);
        expect(thing).toBeDefined();
        hit.add(thing!.id);
      }
    }
    // the one-cell thing is as likely as the background: every thing was clicked at some seed
    expect(hit.size).toBe(things.length);
  });
});

describe("--agent random through the real loop", () => {
  test("plays a committed game to its budget without stopping, and the same seed gives the same log", async () => {
    const a = await playGame({ game: "glide", agent: "random", maxActions: 60, seed: 5 });
    expect(a.end.reason).toBe("max-actions");
    expect(a.summary.actions).toBe(60);
    const b = await playGame({ game: "glide", agent: "random", maxActions: 60, seed: 5 });
    expect(b.master).toBe(a.master);
  });

  test("a terminal game is refused with the fix", () => {
    const config = newConfig({ game: "nethack", env: "nethack", agent: "random" })._unsafeUnwrap();
    const made = createAgent(config);
    expect(made.isErr()).toBe(true);
    expect(made._unsafeUnwrapErr().message).toContain("--agent random plays grid games");
  });
});
