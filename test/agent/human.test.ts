// The human player's pure parts: key → action, typed clicks, terminal input parsing, the screen fitted to
// 80x24 (status line on top, ruler for click games, the board following what changed), clicks mapped back.
import { describe, expect, test } from "bun:test";
import { budgetLeft, keyCommand, levelMessage, parseClick, statusLine } from "../../src/agent/human.ts";
import { parseInput } from "../../src/agent/human-input.ts";
import { cellAt, followChange, renderScreen } from "../../src/agent/human-screen.ts";
import { createGame } from "../../src/game/catalog.ts";
import type { Grid } from "../../src/game-model.ts";

describe("keys and clicks", () => {
  test("arrows and wasd move, space/e interact, u/z undo, r reset, q ends, Ctrl-C interrupts, c asks for a click", () => {
    expect(keyCommand("up")).toEqual({ kind: "action", action: { id: 1 } });
    expect(keyCommand("left")).toEqual({ kind: "action", action: { id: 3 } });
    expect(keyCommand("A")).toEqual({ kind: "action", action: { id: 3 } });
    expect(keyCommand(" ")).toEqual({ kind: "action", action: { id: 5 } });
    expect(keyCommand("z")).toEqual({ kind: "action", action: { id: 7 } });
    expect(keyCommand("r")).toEqual({ kind: "action", action: { id: 0 } });
    expect(keyCommand("q").kind).toBe("quit");
    expect(keyCommand("ctrl-c").kind).toBe("interrupt");
    expect(keyCommand("c").kind).toBe("click-prompt");
    expect(keyCommand("pgdn")).toEqual({ kind: "scroll", by: 1 });
    expect(keyCommand("x").kind).toBe("ignore");
  });

  test("typed clicks: two numbers on the grid", () => {
    expect(parseClick("12 40")).toEqual({ id: 6, x: 12, y: 40 });
    expect(parseClick("(3, 63)")).toEqual({ id: 6, x: 3, y: 63 });
    expect(parseClick("64 1")).toBeUndefined();
    expect(parseClick("twelve")).toBeUndefined();
  });

  test("one read holding many keys, arrows, a paste, a mouse press and release, and a cut-off sequence", () => {
    const { events, rest } = parseInput("dd\x1b[A\x1b[200~ws\x1b[201~\x1b[<0;14;9M\x1b[<0;14;9m\x1b[<64;1;1M\r\x7f\x1b[<0;3");
    expect(events).toEqual([
      { kind: "key", key: "d" },
      { kind: "key", key: "d" },
      { kind: "key", key: "up" },
      { kind: "key", key: "w" },
      { kind: "key", key: "s" },
      { kind: "click", col: 14, row: 9 },
      { kind: "key", key: "enter" },
      { kind: "key", key: "backspace" },
    ]);
    expect(rest).toBe("\x1b[<0;3");
    expect(parseInput(`${rest};5M`).events).toEqual([{ kind: "click", col: 3, row: 5 }]);
    expect(parseInput("\x1b").events).toEqual([{ kind: "key", key: "esc" }]);
  });
});

describe("the screen", () => {
  const game = createGame("vault", { seed: 0 })._unsafeUnwrap();
  const first = game.reset();
  const board = first.frames[first.frames.length - 1]!;
  const view = { frame: first, info: game.info, action: 0, maxActions: 100, attempt: 1, levelActions: [0] };

  test("80x24: status on the top row, ruler, y labels, keys on the bottom row; nothing longer than 80", () => {
    const { text, layout } = renderScreen({
      board,
      status: statusLine(view),
      message: "",
      help: "keys",
      cols: 80,
      rows: 24,
      clickable: true,
      top: 0,
    });
    const rows = text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").split("\r\n");
    expect(rows.length).toBe(24);
    expect(rows[0]).toStartWith("Vault · level 1/7");
    expect(rows[1]).toStartWith("   0       8       16");
    expect(rows[2]).toStartWith(" 0 ");
    expect(rows[0]).toContain("rows 0-39/64");
    expect(rows[23]).toBe("keys");
    expect(Math.max(...rows.map((r) => r.length))).toBeLessThanOrEqual(80);
    expect(layout).toMatchObject({ boardRow: 3, boardCol: 4, top: 0, lines: 20 });
    // A click on terminal column 4 + x, on the line showing rows y and y + 1, is the cell (x, y).
    expect(cellAt(layout, 4 + 30, 3 + 5)).toEqual({ x: 30, y: 10 });
    expect(cellAt(layout, 2, 5)).toBeNull();
  });

  test("a tall terminal shows the whole board without scrolling", () => {
    const { layout } = renderScreen({ board, status: "s", message: "", help: "h", cols: 100, rows: 40, clickable: true, top: 0 });
    expect(layout.lines).toBe(32);
  });

  test("the window follows what changed, so a code shown once is on screen; the step bar row is ignored", () => {
    const grid = (paint: (y: number) => number): Grid => {
      const cells = new Uint8Array(64 * 64);
      for (let y = 0; y < 64; y++) cells.fill(paint(y), y * 64, (y + 1) * 64);
      return { width: 64, height: 64, cells };
    };
    const before = grid(() => 0);
    expect(
      followChange(
        before,
        grid((y) => (y >= 50 && y < 56 ? 3 : 0)),
        0,
        20,
      ),
    ).toBe(24);
    expect(
      followChange(
        before,
        grid((y) => (y === 63 ? 3 : 0)),
        0,
        20,
      ),
    ).toBe(0);
    expect(
      followChange(
        before,
        grid((y) => (y === 5 ? 3 : 0)),
        24,
        20,
      ),
    ).toBe(0);
  });

  test("status and level messages", () => {
    expect(budgetLeft(board)).toBeGreaterThan(0);
    expect(statusLine(view)).toContain("action 0/100");
    expect(levelMessage(2, 9, 7)).toBe("Level 2 complete in 9 action(s) (baseline 7).");
  });
});

describe("the human agent over a fake terminal", () => {
  test("keys typed before the turn are kept; a game over and a level-up are told on the next screen", async () => {
    const { PassThrough } = await import("node:stream");
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { humanAgent } = await import("../../src/agent/human.ts");
    const input = new PassThrough();
    let screen = "";
    const agent = humanAgent({
      input,
      output: { write: (t: string) => (screen += t), columns: 80, rows: 24 },
      interrupt: () => {},
    });
    const workspace = mkdtempSync(path.join(tmpdir(), "prolong-human-ws-"));
    const game = createGame("glide", { seed: 0 })._unsafeUnwrap();
    const frame = game.reset();
    const turn = (over: Partial<{ attempt: number; action: number; frame: typeof frame; levelActions: number[] }>) =>
      agent.turn({
        workspace,
        prompt: "",
        turn: 1,
        availableActions: frame.availableActions,
        actionCap: 20,
        seed: 0,
        view: { frame, info: game.info, action: 0, maxActions: 50, attempt: 1, levelActions: [0], ...over },
      });
    const first = turn({});
    input.write("sd"); // two keys in one chunk: two turns' worth
    expect((await first).isOk()).toBe(true);
    expect(JSON.parse(readFileSync(path.join(workspace, "actions.json"), "utf8")).actions).toEqual(["ACTION2"]);
    screen = "";
    await turn({ attempt: 2, action: 1 }); // answered from the queue: no new key needed
    expect(JSON.parse(readFileSync(path.join(workspace, "actions.json"), "utf8")).actions).toEqual(["ACTION4"]);
    expect(screen).toContain("Game over: the level starts again (attempt 2).");
    screen = "";
    const won = { ...frame, levelsCompleted: 1 };
    const third = turn({ attempt: 2, action: 5, frame: won, levelActions: [5, 0] });
    input.write("q");
    await third;
    expect(screen).toContain("Level 1 complete in 5 action(s)");
    expect(JSON.parse(readFileSync(path.join(workspace, "actions.json"), "utf8"))).toMatchObject({ actions: [], stop: true });
    await agent.close?.();
  });
});
