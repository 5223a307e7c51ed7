import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { explorerTurn } from "../../../src/agent/explorer/explorer.ts";
import { gridToText } from "../../../src/log/format.ts";
import { ok } from "neverthrow";
import { localEnv } from "../../../src/game/env.ts";
import { playGame } from "../../run/helpers.ts";
import { board64, logOf } from "./helpers.ts";
import { ToyGame, type ToyLevel } from "./toy-game.ts";

const LEVELS: ToyLevel[] = [
  { map: ["#######", "#P...G#", "#######"], budget: 30 },
  { map: ["#########", "#P..#...#", "#.#.#.#.#", "#.#...#G#", "#########"], budget: 40 },
  // the only way round the pits is longer than a first attempt's exploration allows: memory of the
  // earlier attempts is what clears it
  { map: ["#########", "#P.X....#", "#.#...#.#", "#...X.#G#", "#########"], budget: 16 },
];

function workspace(): string {
  return mkdtempSync(join(tmpdir(), "explorer-test-"));
}

/** The toy game played by the built-in explorer through prolong's own loop (start, runner, sync, windows). */
function playToy(fields: { maxActions: number; logWindow?: number; seed?: number }) {
  return playGame({ game: "toy", agent: "explorer", ...fields }, undefined, { env: () => ok(localEnv(new ToyGame(LEVELS))) });
}

describe("explorer on a toy game, through the real loop", () => {
  test("the full log clears clearly more levels than the newest section alone (--log-window 0)", async () => {
    // The full log wins within 250 actions (in about 180); the newest section alone, given as many actions as
    // the full log spent, clears fewer (one level, however long it plays: one in 500 too). The newest-only run
    // calls the agent once per action, each call dearer as the log grows, so its budget is the test's cost.
    const full = await playToy({ maxActions: 250 });
    expect(full.summary.levelsCompleted).toBe(3);
    expect(full.end.reason).toBe("win");
    const newest = await playToy({ maxActions: full.summary.actions, logWindow: 0 });
    expect(newest.summary.actions).toBe(full.summary.actions);
    expect(newest.summary.levelsCompleted).toBeLessThan(full.summary.levelsCompleted);
  });

  test("deterministic: the same game and seed give the same log", async () => {
    const a = await playToy({ maxActions: 60, seed: 7 });
    const b = await playToy({ maxActions: 60, seed: 7 });
    expect(a.master).toBe(b.master);
  });
});

describe("explorerTurn", () => {
  test("writes actions.json within the cap and returns its plan with no tokens", async () => {
    const ws = workspace();
    try {
      const b = board64(5, [{ x: 8, y: 8, w: 4, h: 4, c: 8 }]);
      writeFileSync(join(ws, "logs.txt"), logOf(b, [{ action: { id: 1 }, board: b }]));
      const reply = (
        await explorerTurn({ workspace: ws, prompt: "", turn: 2, availableActions: [1, 2, 3, 4], actionCap: 1, seed: 1 })
      )._unsafeUnwrap();
      expect(JSON.parse(readFileSync(join(ws, "actions.json"), "utf8"))).toEqual({ actions: ["ACTION2"] });
      expect(reply.toolCalls).toBe(0);
      expect(reply.tokens).toEqual({ input: 0, cached: 0, output: 0 });
      expect(reply.text).toContain("Level 1, attempt 1");
      expect(reply.text).toContain("ACTION2");
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  test("with no logs.txt it reads the board from the prompt's [CURRENT BOARD STATE] block", async () => {
    const ws = workspace();
    try {
      const b = board64(5, [{ x: 40, y: 40, w: 4, h: 4, c: 11 }]);
      const prompt = `Play.\n\nScore: 0\nAction: 3\n\n[CURRENT BOARD STATE]\n${gridToText(b, "ascii")}\n\nWrite actions.json.`;
      const reply = await explorerTurn({ workspace: ws, prompt, turn: 1, availableActions: [6], actionCap: 5, seed: 1 });
      expect(reply.isOk()).toBe(true);
      expect(JSON.parse(readFileSync(join(ws, "actions.json"), "utf8"))).toEqual({ actions: ["ACTION6(41,41)"] });
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  test("no log and no board: an error that says what to give it", async () => {
    const ws = workspace();
    try {
      const reply = await explorerTurn({ workspace: ws, prompt: "hello", turn: 1, availableActions: [1], actionCap: 5, seed: 1 });
      expect(reply.isErr()).toBe(true);
      expect(reply._unsafeUnwrapErr().code).toBe("explorer-no-board");
      expect(reply._unsafeUnwrapErr().fix).toContain("[CURRENT BOARD STATE]");
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
