// The human player's pure parts: key → action, typed clicks, terminal input parsing, the screen fitted to
// 80x24 (status line on top, ruler for click games, the board following what changed), clicks mapped back.
import { describe, expect, test } from "bun:test";
import { budgetLeft, keyCommand, levelMessage, parseClick, statusLine } from "../../src/agent/human.ts";
import { parseInput } from "../../src/agent/human-input.ts";
import { cellAt, followChange, renderScreen } from "../../src/agent/human-screen.ts";
import { createGame } from "../../src/game/catalog.ts";
import type { Grid } from "../../src/game-model.ts";

describe("keys and clicks", () => {
  test("arrows and wasd move, space/e interact, u/z undo, r reset, q ends, Ctrl-C interrupts, c asks for a click, f zooms", () => {
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
    expect(keyCommand("f").kind).toBe("zoom");
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
  const view = { frame: first, info: game.info, action: 0, maxActions: 100, attempt: 1, levelActions: [0], kind: {} };

  const plain = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").split("\r\n");
  const screenAt = (cols: number, rows: number, over: { fullSize?: boolean; top?: number; board?: Grid } = {}) =>
    renderScreen({
      board: over.board ?? board,
      status: statusLine(view),
      message: "",
      help: "keys",
      cols,
      rows,
      clickable: true,
      top: over.top ?? 0,
      fullSize: over.fullSize ?? false,
    });

  test("80x24: the whole 64x64 board at half size; status on top, ruler and y labels in grid units, keys at the bottom", () => {
    const { text, layout } = screenAt(80, 24);
    const rows = plain(text);
    expect(rows.length).toBe(3 + 16 + 1);
    expect(rows[0]).toStartWith("Vault · level 1/7");
    expect(rows[0]).toContain("half size");
    expect(rows[0]).not.toContain("HIDDEN");
    expect(rows[1]).toStartWith("   0       16      32      48");
    expect(rows[2]).toStartWith(" 0 ");
    expect(rows[6]).toStartWith("16 ");
    expect(rows[rows.length - 1]).toBe("keys");
    expect(Math.max(...rows.map((r) => r.length))).toBeLessThanOrEqual(80);
    expect(layout).toMatchObject({ boardRow: 3, boardCol: 4, top: 0, lines: 16, scale: 2 });
  });

  test("half size keeps a lone cell: the block shows its rarest colour, and a click on it lands on that cell", () => {
    const cells = new Uint8Array(64 * 64).fill(5);
    cells[61 * 64 + 45] = 8; // one red cell near the bottom, below where a 40-row window would end
    const lone: Grid = { width: 64, height: 64, cells };
    const { text, layout } = screenAt(80, 24, { board: lone });
    // The red of the ARC palette, drawn in the upper or lower half of a character.
    expect(text).toContain("249;60;49");
    // The character showing half-size row 30 (grid rows 60-61) and column 22 (grid columns 44-45): the upper
    // half of line 15 is half-size row 30.
    expect(cellAt(layout!, 4 + 22, 3 + 15)).toEqual({ x: 45, y: 61 });
  });

  test("40 columns: still the whole board, no line wider than the terminal", () => {
    const { text, layout } = screenAt(40, 24);
    expect(layout).toMatchObject({ scale: 2 });
    expect(Math.max(...plain(text).map((r) => r.length))).toBeLessThanOrEqual(40);
  });

  test("f (full size) on 80x24: the board scrolls, and the status line says loudly which rows are hidden", () => {
    const { text, layout } = screenAt(80, 24, { fullSize: true });
    const rows = plain(text);
    expect(layout).toMatchObject({ scale: 1, lines: 20, top: 0 });
    expect(rows[0]).toStartWith(" 24 ROWS HIDDEN: showing 0-39 of 64");
    expect(text).toContain("\x1b[7m 24 ROWS HIDDEN");
    expect(rows[1]).toStartWith("   0       8       16");
    // A click on terminal column 4 + x, on the line showing rows y and y + 1, is the cell (x, y).
    expect(cellAt(layout!, 4 + 30, 3 + 5)).toEqual({ x: 30, y: 10 });
    expect(cellAt(layout!, 2, 5)).toBeNull();
    expect(plain(screenAt(80, 24, { fullSize: true, top: 24 }).text)[0]).toStartWith(" 24 ROWS HIDDEN: showing 24-63 of 64");
  });

  test("too small even for half size: the size needed instead of a board", () => {
    const { text, layout } = screenAt(30, 15);
    expect(layout).toBeNull();
    const rows = plain(text);
    expect(rows.join("\n")).toContain("It needs at least 35x20");
    expect(Math.max(...rows.map((r) => r.length))).toBeLessThanOrEqual(30);
  });

  test("a tall terminal shows the whole board at full size without scrolling", () => {
    const { layout } = screenAt(100, 40);
    expect(layout).toMatchObject({ scale: 1, lines: 32 });
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
        view: { frame, info: game.info, action: 0, maxActions: 50, attempt: 1, levelActions: [0], kind: {}, ...over },
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
    await Bun.sleep(20);
    expect(screen).toContain("End the run for good");
    input.write("y");
    await third;
    expect(screen).toContain("Level 1 complete in 5 action(s)");
    expect(JSON.parse(readFileSync(path.join(workspace, "actions.json"), "utf8"))).toMatchObject({ actions: [], stop: true });
    await agent.close?.();
  });
});

describe("a window resized during a turn", () => {
  test("too small: the size needed and no key acts; grown: the board again, and keys act", async () => {
    const { PassThrough } = await import("node:stream");
    const { EventEmitter } = await import("node:events");
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { humanAgent } = await import("../../src/agent/human.ts");
    const input = new PassThrough();
    const output = Object.assign(new EventEmitter(), {
      columns: 30,
      rows: 15,
      text: "",
      write: (t: string) => (output.text += t),
    });
    const agent = humanAgent({ input, output, interrupt: () => {} });
    const workspace = mkdtempSync(path.join(tmpdir(), "prolong-human-ws-"));
    const game = createGame("glide", { seed: 0 })._unsafeUnwrap();
    const frame = game.reset();
    const view = { frame, info: game.info, action: 0, maxActions: 50, attempt: 1, levelActions: [0], kind: {} };
    const turn = agent.turn({
      workspace,
      prompt: "",
      turn: 1,
      availableActions: frame.availableActions,
      actionCap: 20,
      seed: 0,
      view,
    });
    await Bun.sleep(10);
    expect(output.text).toContain("It needs at least 32x19");
    input.write("d"); // not acted on: the person cannot see the board
    await Bun.sleep(10);
    output.text = "";
    Object.assign(output, { columns: 80, rows: 24 });
    output.emit("resize");
    expect(output.text).toContain("Glide · level 1/7");
    input.write("s");
    expect((await turn).isOk()).toBe(true);
    expect(JSON.parse(readFileSync(path.join(workspace, "actions.json"), "utf8")).actions).toEqual(["ACTION2"]);
    await agent.close?.();
  });
});

describe("a terminal game's keys and screen (NetHack)", () => {
  test("keys pass as the action that sends them; # opens an extended command; ^C pauses, ^X ends; the rest is refused", async () => {
    const { terminalKey } = await import("../../src/agent/human-terminal.ts");
    const { nethackKeys } = await import("../../src/game/nethack/keys.ts");
    expect(terminalKey("k", nethackKeys)).toEqual({ kind: "entry", entry: "k" });
    expect(terminalKey("7", nethackKeys)).toEqual({ kind: "entry", entry: "7" });
    expect(terminalKey("up", nethackKeys)).toEqual({ kind: "entry", entry: "k" });
    expect(terminalKey("enter", nethackKeys)).toEqual({ kind: "entry", entry: "more" });
    expect(terminalKey("esc", nethackKeys)).toEqual({ kind: "entry", entry: "esc" });
    expect(terminalKey(" ", nethackKeys)).toEqual({ kind: "entry", entry: "space" });
    expect(terminalKey(">", nethackKeys)).toEqual({ kind: "entry", entry: "down" });
    expect(terminalKey(",", nethackKeys)).toEqual({ kind: "entry", entry: "pickup" });
    expect(terminalKey("ctrl-d", nethackKeys)).toEqual({ kind: "entry", entry: "kick" });
    expect(terminalKey("#", nethackKeys)).toEqual({ kind: "extended" });
    expect(terminalKey("ctrl-c", nethackKeys)).toEqual({ kind: "interrupt" });
    expect(terminalKey("ctrl-x", nethackKeys)).toEqual({ kind: "end" });
    expect(terminalKey("&", nethackKeys).kind).toBe("refused");
    expect(nethackKeys.extendedEntry("pray")).toBe("pray");
    expect(nethackKeys.extendedEntry("quit")).toBeUndefined();
  });

  test("80x24: the game's 24 rows as they are, prolong's tag at the right of a short message row, the cursor on the hero", async () => {
    const { renderTerminalScreen } = await import("../../src/agent/human-terminal.ts");
    const rows = Array.from({ length: 23 }, (_, y) => (y === 4 ? `${" ".repeat(10)}|.@..|` : ""));
    const screen = {
      level: 1,
      score: 0,
      progression: 0,
      status: "",
      message: "Hello.",
      stops: [],
      notes: [],
      rows,
      cursor: { x: 12, y: 5 },
    };
    const text = renderTerminalScreen({ screen, tag: "prolong: action 3/100", notice: "", cols: 80, rows: 24 });
    const lines = text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").split("\r\n");
    expect(lines.length).toBe(24);
    expect(lines[0]).toStartWith("Hello.");
    expect(lines[0]).toEndWith("prolong: action 3/100");
    expect(lines[0]!.length).toBe(79);
    expect(lines[5]).toBe("          |.@..|");
    expect(text).toEndWith("\x1b[6;13H\x1b[?25h");
    // A notice (a refused key, the end confirm) takes the message row.
    const noticed = renderTerminalScreen({ screen, tag: "t", notice: "End the run?", cols: 80, rows: 24 });
    expect(noticed.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").split("\r\n")[0]).toBe("End the run?");
  });
});
