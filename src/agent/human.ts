// A person plays a game in the terminal (`prolong play <game> --agent human`): to try games and record
// baselines. Arrows or wasd move, space/e interacts, c then "x y" + Enter clicks, u/z undo, r reset, q quit.
// The key → action mapping is a pure function (keyCommand) so it is tested without a terminal.
import { gridToAnsi } from "../game/render.ts";
import { GRID_SIZE } from "../game/types.ts";
import type { Action, FrameData, Game, Grid } from "../game/types.ts";

export type KeyCommand =
  | { readonly kind: "action"; readonly action: Action }
  | { readonly kind: "click-prompt" }
  | { readonly kind: "quit" }
  | { readonly kind: "ignore" };

const KEYS: Record<string, KeyCommand> = {
  "\x1b[A": { kind: "action", action: { id: 1 } },
  "\x1b[B": { kind: "action", action: { id: 2 } },
  "\x1b[D": { kind: "action", action: { id: 3 } },
  "\x1b[C": { kind: "action", action: { id: 4 } },
  w: { kind: "action", action: { id: 1 } },
  s: { kind: "action", action: { id: 2 } },
  a: { kind: "action", action: { id: 3 } },
  d: { kind: "action", action: { id: 4 } },
  " ": { kind: "action", action: { id: 5 } },
  e: { kind: "action", action: { id: 5 } },
  u: { kind: "action", action: { id: 7 } },
  z: { kind: "action", action: { id: 7 } },
  r: { kind: "action", action: { id: 0 } },
  c: { kind: "click-prompt" },
  q: { kind: "quit" },
  "\x03": { kind: "quit" },
};

/** What one key press means. Letters are case-insensitive; unknown keys are ignored. */
export function keyCommand(key: string): KeyCommand {
  return KEYS[key] ?? KEYS[key.toLowerCase()] ?? { kind: "ignore" };
}

/** "12 40", "12,40" or "(12, 40)" → a click; undefined when it is not two integers on the grid. */
export function parseClick(text: string): Action | undefined {
  const m = /^\s*\(?\s*(\d+)\s*[ ,]\s*(\d+)\s*\)?\s*$/.exec(text);
  if (!m) return undefined;
  const x = Number(m[1]);
  const y = Number(m[2]);
  return x < GRID_SIZE && y < GRID_SIZE ? { id: 6, x, y } : undefined;
}

/** Share of the step bar (bottom row, green) still left, 0..100. */
export function budgetLeft(grid: Grid): number {
  const row = grid.cells.subarray((grid.height - 1) * grid.width, grid.height * grid.width);
  return Math.round((100 * row.filter((c) => c === 14).length) / grid.width);
}

export function statusLine(game: Game, f: FrameData, actions: number): string {
  const board = f.frames[f.frames.length - 1];
  const level = Math.min(f.levelsCompleted + 1, f.winLevels);
  const budget = board ? `${budgetLeft(board)}% of steps left` : "";
  return `${game.info.title}  level ${level}/${f.winLevels}  ${f.state}  ${budget}  actions ${actions}`;
}

const HELP = "arrows/wasd move · space/e interact · c click (type x y, Enter) · u/z undo · r reset · q quit";

export interface TerminalIO {
  readonly input: NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; isTTY?: boolean };
  readonly output: { write(text: string): unknown };
}

export async function playInTerminal(game: Game, io: TerminalIO): Promise<void> {
  let frame = game.reset();
  let actions = 1;
  let clickText: string | undefined;
  let note = "";
  const draw = () => {
    const board = frame.frames[frame.frames.length - 1];
    const lines = board ? gridToAnsi(board) : [];
    const prompt = clickText === undefined ? HELP : `click at x y (0..63): ${clickText}`;
    io.output.write(`\x1b[H\x1b[2J${lines.join("\n")}\n${statusLine(game, frame, actions)}\n${frame.message ?? note}\n${prompt}\n`);
  };
  const act = (a: Action) => {
    frame = game.step(a);
    actions += 1;
    note = frame.frames.length > 1 ? `(${frame.frames.length} frames)` : "";
  };
  io.input.setRawMode?.(true);
  io.input.resume();
  draw();
  await new Promise<void>((done) => {
    const onData = (chunk: Buffer | string) => {
      const key = chunk.toString();
      if (clickText !== undefined) {
        if (key === "\r" || key === "\n") {
          const click = parseClick(clickText);
          clickText = undefined;
          if (click) act(click);
          else note = "not a click: type two numbers 0..63, e.g. 12 40";
        } else if (key === "\x7f") clickText = clickText.slice(0, -1);
        else if (key === "\x1b" || key === "\x03") clickText = undefined;
        else clickText += key;
        draw();
        return;
      }
      const command = keyCommand(key);
      if (command.kind === "quit") {
        io.input.off("data", onData);
        io.input.setRawMode?.(false);
        io.input.pause();
        done();
        return;
      }
      if (command.kind === "click-prompt") clickText = "";
      if (command.kind === "action") act(command.action);
      draw();
    };
    io.input.on("data", onData);
  });
}
