// A person as the agent (`prolong play <game> --agent human`): the run is an ordinary run — run directory,
// master log, index, events, scorecard, summary, `prolong resume` — and each turn is one action the person
// chose. Keys are queued as they arrive (several per read: fast typing, key repeat, a paste), so none is
// lost while the game answers. Grid games: arrows/wasd move, space/e interact, u/z undo, r reset, a mouse
// click or c and a typed "x y" click, f switches between the whole board and full size, PgUp/PgDn scroll,
// q ends the run after a confirm. Terminal games (NetHack): the game's own screen, keys passed as typed
// (human-terminal.ts), Ctrl-X ends the run after a confirm. Ctrl-C pauses any run (resumable). The game is
// drawn on the alternate screen, so the shell's screen comes back as it was. The key → action mappings and
// the screens are pure functions, tested without a terminal.
import { err, ok, type Result } from "neverthrow";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { prolongError, type ProlongError } from "../errors.ts";
import { GRID_SIZE } from "../game-model.ts";
import type { Action, Grid, GridAction } from "../game-model.ts";
import { actionsFileText } from "./actions.ts";
import { NO_TOKENS, type Agent, type GameView, type TurnInput, type TurnReply } from "./agent.ts";
import { parseInput, TERMINAL_MODES_OFF, TERMINAL_MODES_ON, type InputEvent } from "./human-input.ts";
import { cellAt, followChange, layoutOf, renderScreen, tooSmallScreen, type ScreenLayout } from "./human-screen.ts";
import { renderTerminalScreen, TERMINAL_GAME_SIZE, terminalKey } from "./human-terminal.ts";
import type { TerminalKeys, TerminalPicture } from "../game/kinds.ts";

export type KeyCommand =
  | { readonly kind: "action"; readonly action: GridAction }
  | { readonly kind: "click-prompt" }
  | { readonly kind: "scroll"; readonly by: -1 | 1 }
  | { readonly kind: "zoom" }
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
  f: { kind: "zoom" },
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

const HELP = "wasd/arrows · space act · click/c x y · u undo · r reset · f zoom · q end · ^C pause";
/** The end of a run is final (an ended run is not resumed); Ctrl-C is the way to stop and come back. */
const CONFIRM_END = "End the run for good (it cannot be resumed)? y ends it · any other key goes back · ^C pauses instead";

export interface TerminalIO {
  readonly input: NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; isTTY?: boolean };
  readonly output: {
    write(text: string): unknown;
    columns?: number;
    rows?: number;
    /** A terminal's "resize": the screen is drawn again for the new size. */
    on?(event: "resize", listener: () => void): unknown;
    off?(event: "resize", listener: () => void): unknown;
  };
  /** Called on Ctrl-C: the run stops after this turn (resumable), as Ctrl-C stops any run. */
  readonly interrupt: () => void;
}

/** The level-up line: which level, in how many actions, against the baseline. */
export function levelMessage(level: number, actions: number, baseline: number | undefined): string {
  return `Level ${level} complete in ${actions} action(s)${baseline !== undefined ? ` (baseline ${baseline})` : ""}.`;
}

/** What a turn's screen does with one input event: keep waiting (drawn again), or end the turn with a reply. */
type Handled = { readonly done: false } | { readonly done: true; readonly reply: Result<TurnReply, ProlongError> };
const WAIT: Handled = { done: false };

export function humanAgent(io: TerminalIO): Agent {
  let buffer = "";
  const queue: InputEvent[] = [];
  let wake: (() => void) | null = null;
  let started = false;
  let closed = false;
  let redraw: (() => void) | null = null;
  // Grid games: the first row shown at full size, whether full size was asked for, what the last turn showed.
  let top = 0;
  let fullSize = false;
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
  const onResize = () => redraw?.();
  // A crash must not leave the person's terminal raw and on the alternate screen.
  const restoreOnExit = () => {
    if (started && !closed) io.output.write(TERMINAL_MODES_OFF);
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
    io.output.on?.("resize", onResize);
    process.on("exit", restoreOnExit);
    io.output.write(`${TERMINAL_MODES_ON}\x1b[2J`);
  };
  const size = () => ({ cols: io.output.columns ?? 80, rows: io.output.rows ?? 24 });
  const interrupted = (): Handled => {
    io.interrupt();
    return { done: true, reply: err(prolongError("interrupted", "the player pressed Ctrl-C")) };
  };

  /** Draws with `draw` and feeds it events until one ends the turn. */
  const play = async (draw: () => void, handle: (ev: InputEvent) => Handled): Promise<Result<TurnReply, ProlongError>> => {
    redraw = draw;
    draw();
    try {
      for (;;) {
        const handled = handle(await nextEvent());
        if (handled.done) return handled.reply;
        draw();
      }
    } finally {
      redraw = null;
    }
  };

  const gridTurn = (view: GameView, answer: (actions: readonly Action[], stop?: boolean) => Handled) => {
    const board = view.frame.frames[view.frame.frames.length - 1]!;
    const clickable = view.frame.availableActions.includes(6) || view.info.availableActions.includes(6);
    const fullLines = () => layoutOf({ ...size(), clickable, top, board, fullSize: true })?.lines ?? 0;
    top = followChange(lastBoard, board, top, fullLines());
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
    let confirming = false;
    let layout: ScreenLayout | null = null;
    const draw = () => {
      const help = clickText === undefined ? HELP : `click at x y (0..${board.width - 1}, Enter; Esc cancels): ${clickText}`;
      const message = confirming ? `\x1b[7m${CONFIRM_END}\x1b[27m` : note;
      const screen = renderScreen({ board, status: statusLine(view), message, help, ...size(), clickable, top, fullSize });
      layout = screen.layout;
      // Only the full-size view scrolls: the half-size one keeps the row the full-size view would start at.
      if (layout?.scale === 1) top = layout.top;
      io.output.write(screen.text);
    };
    const handle = (ev: InputEvent): Handled => {
      if (ev.kind === "key" && ev.key === "ctrl-c") return interrupted();
      if (confirming) {
        confirming = false;
        return ev.kind === "key" && ev.key.toLowerCase() === "y" ? answer([], true) : WAIT;
      }
      if (!layout) return WAIT; // too small to show the board: only Ctrl-C acts until the window grows
      if (ev.kind === "click") {
        const cell = cellAt(layout, ev.col, ev.row);
        if (cell && clickable) return answer([{ id: 6, x: cell.x, y: cell.y }]);
        note = clickable ? "that click is off the board" : "this game takes no clicks";
        return WAIT;
      }
      if (clickText !== undefined) {
        if (ev.key === "enter") {
          const click = parseClick(clickText);
          clickText = undefined;
          if (click) return answer([click]);
          note = `not a click: type two numbers 0..${board.width - 1}, e.g. 12 40`;
        } else if (ev.key === "backspace") clickText = clickText.slice(0, -1);
        else if (ev.key === "esc") clickText = undefined;
        else if (ev.key.length === 1) clickText += ev.key;
        return WAIT;
      }
      const command = keyCommand(ev.key);
      if (command.kind === "action") {
        const offered: readonly number[] =
          view.frame.availableActions.length > 0 ? view.frame.availableActions : view.info.availableActions;
        if (command.action.id !== 0 && !offered.includes(command.action.id)) {
          note = `this game does not offer ACTION${command.action.id} here`;
          return WAIT;
        }
        return answer([command.action]);
      }
      if (command.kind === "quit") confirming = true;
      if (command.kind === "click-prompt") clickText = "";
      if (command.kind === "zoom") fullSize = !fullSize;
      if (command.kind === "scroll" && layout.scale === 1) {
        top = layoutOf({ ...size(), clickable, top: top + command.by * 2 * layout.lines, board, fullSize })?.top ?? top;
      }
      return WAIT;
    };
    return play(draw, handle);
  };

  const terminalTurn = (
    view: GameView,
    screen: TerminalPicture,
    keys: TerminalKeys,
    answer: (actions: readonly Action[], stop?: boolean) => Handled,
  ) => {
    const entryOf = view.kind.actionEntry;
    if (!entryOf)
      return Promise.resolve(
        err(
          prolongError(
            "human-no-keys",
            `the game ${view.info.id} shows a screen but its kind names no actions for the keys a person types`,
            {
              fix: "this is a bug in prolong: a terminal game's kind supplies its keys and its actionEntry (game/kind.ts)",
            },
          ),
        ),
      );
    let extended: string | undefined;
    let confirming = false;
    let refused = "";
    const draw = () => {
      const { cols, rows } = size();
      const status = `${view.info.title} · action ${view.action}/${view.maxActions}`;
      if (cols < TERMINAL_GAME_SIZE.cols || rows < TERMINAL_GAME_SIZE.rows) {
        io.output.write(tooSmallScreen({ status, cols, rows, what: "the game's 80x24 screen", need: TERMINAL_GAME_SIZE }));
        return;
      }
      const notice = confirming
        ? CONFIRM_END
        : extended !== undefined
          ? `#${extended}  (an extended command, Enter sends it, Esc cancels: ${keys.extendedNames.join(" ")})`
          : refused;
      const tag = `prolong: ${status} · ^C pause · ^X end`;
      io.output.write(renderTerminalScreen({ screen, tag, notice, cols, rows }));
    };
    const send = (entry: string): Handled => {
      const action = entryOf(entry);
      return action.isOk() ? answer([action.value]) : ((refused = action.error), WAIT);
    };
    const handle = (ev: InputEvent): Handled => {
      if (ev.kind !== "key") return WAIT; // a terminal game takes no clicks
      refused = "";
      if (ev.key === "ctrl-c") return interrupted();
      if (confirming) {
        confirming = false;
        return ev.key.toLowerCase() === "y" ? answer([], true) : WAIT;
      }
      const { cols, rows } = size();
      if (cols < TERMINAL_GAME_SIZE.cols || rows < TERMINAL_GAME_SIZE.rows) return WAIT;
      if (extended !== undefined) {
        if (ev.key === "enter") {
          const entry = keys.extendedEntry(extended);
          const typed = extended;
          extended = undefined;
          if (entry) return send(entry);
          refused = `#${typed} is not an extended command ${keys.title} offers (${keys.extendedNames.join(" ")})`;
        } else if (ev.key === "backspace") extended = extended.slice(0, -1);
        else if (ev.key === "esc") extended = undefined;
        else if (ev.key.length === 1) extended += ev.key;
        return WAIT;
      }
      const key = terminalKey(ev.key, keys);
      if (key.kind === "interrupt") return interrupted();
      if (key.kind === "end") confirming = true;
      if (key.kind === "extended") extended = "";
      if (key.kind === "refused") refused = key.why;
      if (key.kind === "entry") return send(key.entry);
      return WAIT;
    };
    return play(draw, handle);
  };

  return {
    name: "human",
    async turn(input: TurnInput): Promise<Result<TurnReply, ProlongError>> {
      const view = input.view;
      if (!view)
        return err(prolongError("human-no-view", "the human player was called without the game's state (a bug in prolong)"));
      start();
      const began = Date.now();
      const answer = (actions: readonly Action[], stop = false): Handled => {
        writeFileSync(join(input.workspace, "actions.json"), actionsFileText(actions, stop));
        note = "";
        return { done: true, reply: ok({ text: "", toolCalls: 0, tokens: NO_TOKENS, wallMs: Date.now() - began, exitCode: 0 }) };
      };
      // A terminal game (NetHack) shows its screen, read from the step by its kind's keyboard, and has no boards;
      // a grid game the reverse.
      const keys = view.kind.keys;
      const screen = keys?.screen(view.frame);
      return keys && screen ? terminalTurn(view, screen, keys, answer) : gridTurn(view, answer);
    },
    async close() {
      if (!started || closed) return;
      closed = true;
      io.input.off("data", onData);
      io.output.off?.("resize", onResize);
      process.off("exit", restoreOnExit);
      io.input.setRawMode?.(false);
      io.input.pause();
      io.output.write(TERMINAL_MODES_OFF);
    },
  };
}
