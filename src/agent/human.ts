// A person as the agent (`prolong play <game> --agent human`): the run is an ordinary run — run directory,
// master log, index, events, scorecard, summary, `prolong resume` — and each turn is one action the person
// chose. Keys are queued as they arrive (several per read: fast typing, key repeat, a paste), so none is
// lost while the game answers; clicks come from terminal mouse reporting or a typed "x y". Arrows/wasd move,
// space/e interact, u/z undo, r reset, c types a click, PgUp/PgDn scroll, q ends the run, Ctrl-C interrupts
// it (resumable). The key → action mapping and the screen are pure functions, tested without a terminal.
import { err, ok, type Result } from "neverthrow";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { prolongError, type ProlongError } from "../errors.ts";
import { GRID_SIZE } from "../game-model.ts";
import type { Action, Grid, GridAction } from "../game-model.ts";
import { actionsFileText } from "./actions.ts";
import { NO_TOKENS, type Agent, type GameView, type TurnInput, type TurnReply } from "./agent.ts";
import { parseInput, TERMINAL_MODES_OFF, TERMINAL_MODES_ON, type InputEvent } from "./human-input.ts";
import { cellAt, followChange, layoutOf, renderScreen, type ScreenLayout } from "./human-screen.ts";

export type KeyCommand =
  | { readonly kind: "action"; readonly action: GridAction }
  | { readonly kind: "click-prompt" }
  | { readonly kind: "scroll"; readonly by: -1 | 1 }
  | { readonly kind: "quit" }
  | { readonly kind: "interrupt" }
  | { readonly kind: "ignore" };

const KEYS: Record<string, KeyCommand> = {
  up: { kind: "action", action: { id: 1 } },
  down: { kind: "action", action: { id: 2 } },
  left: { kind: "action", action: { id: 3 } },
  right: { kind: "action", action: { id: 4 } },
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
  pgup: { kind: "scroll", by: -1 },
  pgdn: { kind: "scroll", by: 1 },
  "[": { kind: "scroll", by: -1 },
  "]": { kind: "scroll", by: 1 },
  q: { kind: "quit" },
  "ctrl-c": { kind: "interrupt" },
};

/** What one key means (a key as parseInput names it). Letters are case-insensitive; unknown keys are ignored. */
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

/** The status line: game, level, state, the game's own step bar, actions against the budget. */
export function statusLine(view: GameView): string {
  const f = view.frame;
  const board = f.frames[f.frames.length - 1];
  const level = Math.min(f.levelsCompleted + 1, f.winLevels);
  const bar = board ? ` · steps ${budgetLeft(board)}%` : "";
  const state = f.state === "WIN" || f.state === "GAME_OVER" ? ` · ${f.state}` : "";
  return `${view.info.title} · level ${level}/${f.winLevels} · action ${view.action}/${view.maxActions}${bar}${state}`;
}

const HELP = "wasd/arrows · space act · click or c x y · u undo · r reset · q end · ^C pause";

export interface TerminalIO {
  readonly input: NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; isTTY?: boolean };
  readonly output: { write(text: string): unknown; columns?: number; rows?: number };
  /** Called on Ctrl-C: the run stops after this turn (resumable), as Ctrl-C stops any run. */
  readonly interrupt: () => void;
}

/** The level-up line: which level, in how many actions, against the baseline. */
export function levelMessage(level: number, actions: number, baseline: number | undefined): string {
  return `Level ${level} complete in ${actions} action(s)${baseline !== undefined ? ` (baseline ${baseline})` : ""}.`;
}

export function humanAgent(io: TerminalIO): Agent {
  let buffer = "";
  const queue: InputEvent[] = [];
  let wake: (() => void) | null = null;
  let started = false;
  let top = 0;
  let lastBoard: Grid | undefined;
  let lastScore: number | null = null;
  let lastAttempt = 1;
  let note = "";
  const onData = (chunk: Buffer | string) => {
    const parsed = parseInput(buffer + chunk.toString());
    buffer = parsed.rest;
    queue.push(...parsed.events);
    wake?.();
  };
  const nextEvent = async (): Promise<InputEvent> => {
    while (queue.length === 0) await new Promise<void>((r) => (wake = r));
    wake = null;
    return queue.shift()!;
  };
  const start = () => {
    if (started) return;
    started = true;
    io.input.setRawMode?.(true);
    io.input.on("data", onData);
    io.input.resume();
    io.output.write(`\x1b[2J${TERMINAL_MODES_ON}`);
  };

  return {
    name: "human",
    async turn(input: TurnInput): Promise<Result<TurnReply, ProlongError>> {
      const view = input.view;
      if (!view)
        return err(prolongError("human-no-view", "the human player was called without the game's state (a bug in prolong)"));
      start();
      const began = Date.now();
      const board = view.frame.frames[view.frame.frames.length - 1]!;
      const clickable = view.frame.availableActions.includes(6) || view.info.availableActions.includes(6);
      const rows = io.output.rows ?? 24;
      const cols = io.output.columns ?? 80;
      const lines = layoutOf({ rows, clickable, top, board }).lines;
      top = followChange(lastBoard, board, top, lines);
      lastBoard = board;
      const score = view.frame.levelsCompleted;
      if (lastScore !== null && score > lastScore)
        note = levelMessage(score, view.levelActions[score - 1] ?? 0, view.info.baselineActions[score - 1]);
      else if (view.attempt > lastAttempt && score === lastScore)
        note = `Game over: the level starts again (attempt ${view.attempt}).`;
      else if (view.frame.message) note = view.frame.message;
      lastScore = score;
      lastAttempt = view.attempt;
      let clickText: string | undefined;
      let layout: ScreenLayout;
      const draw = () => {
        const prompt = clickText === undefined ? HELP : `click at x y (0..${board.width - 1}, Enter; Esc cancels): ${clickText}`;
        const screen = renderScreen({ board, status: statusLine(view), message: note, help: prompt, cols, rows, clickable, top });
        layout = screen.layout;
        io.output.write(screen.text);
      };
      const answer = (actions: readonly Action[], stop = false): Result<TurnReply, ProlongError> => {
        writeFileSync(join(input.workspace, "actions.json"), actionsFileText(actions, stop));
        note = "";
        return ok({ text: "", toolCalls: 0, tokens: NO_TOKENS, wallMs: Date.now() - began, exitCode: 0 });
      };
      draw();
      for (;;) {
        const ev = await nextEvent();
        if (ev.kind === "click") {
          const cell = cellAt(layout!, ev.col, ev.row);
          if (cell && clickable) return answer([{ id: 6, x: cell.x, y: cell.y }]);
          note = clickable ? "that click is off the board" : "this game takes no clicks";
          draw();
          continue;
        }
        if (clickText !== undefined) {
          if (ev.key === "enter") {
            const click = parseClick(clickText);
            clickText = undefined;
            if (click) return answer([click]);
            note = `not a click: type two numbers 0..${board.width - 1}, e.g. 12 40`;
          } else if (ev.key === "backspace") clickText = clickText.slice(0, -1);
          else if (ev.key === "esc") clickText = undefined;
          else if (ev.key === "ctrl-c") {
            io.interrupt();
            return err(prolongError("interrupted", "the player pressed Ctrl-C"));
          } else if (ev.key.length === 1) clickText += ev.key;
          draw();
          continue;
        }
        const command = keyCommand(ev.key);
        if (command.kind === "action") {
          const offered: readonly number[] =
            view.frame.availableActions.length > 0 ? view.frame.availableActions : view.info.availableActions;
          if (command.action.id !== 0 && !offered.includes(command.action.id)) {
            note = `this game does not offer ACTION${command.action.id} here`;
            draw();
            continue;
          }
          return answer([command.action]);
        }
        if (command.kind === "quit") return answer([], true);
        if (command.kind === "interrupt") {
          io.interrupt();
          return err(prolongError("interrupted", "the player pressed Ctrl-C"));
        }
        if (command.kind === "click-prompt") clickText = "";
        if (command.kind === "scroll") top = layoutOf({ rows, clickable, top: top + command.by * layout!.lines, board }).top;
        draw();
      }
    },
    async close() {
      if (!started) return;
      io.input.off("data", onData);
      io.input.setRawMode?.(false);
      io.input.pause();
      io.output.write(`${TERMINAL_MODES_OFF}\r\n`);
    },
  };
}
