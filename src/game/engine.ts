// The ARC-AGI-3 state machine shared by every committed local game. A rule kind (src/game/rules/) says what
// one move does to one level's state and how that state looks; this file owns everything the games have in
// common: NOT_PLAYED / NOT_FINISHED / WIN / GAME_OVER, level progression, the step budget and its bar, undo,
// no-op frames for bad actions, animation frames, and drawing tiles scaled up onto the 64x64 grid.
import type * as v from "valibot";
import { GRID_SIZE } from "../game-model.ts";
import type { Action, ActionId, FrameData, Game, GameInfo, GameState, Grid } from "../game-model.ts";

/** What the rules see of an action: a direction, interact, or a click already turned into board-tile coordinates. */
export type Move =
  | { readonly kind: "move"; readonly dx: number; readonly dy: number }
  | { readonly kind: "interact" }
  /** tx, ty may lie outside the board (a click on the backdrop): rules treat that as a move that does nothing. */
  | { readonly kind: "click"; readonly tx: number; readonly ty: number };

export type Outcome = "play" | "solved" | "dead";

export interface Transition<S> {
  readonly state: S;
  /** States shown as animation frames before the settled one (a slide, a flash). */
  readonly between?: readonly S[];
  /** "dead" is a fatal move: GAME_OVER until RESET. */
  readonly outcome: Outcome;
}

/** Draws on board tiles; the engine maps tiles to cells. */
export interface Painter {
  /** Fills a whole tile. */
  tile(tx: number, ty: number, color: number): void;
  /** Fills a tile's centre, leaving a border: an item lying on a floor. */
  dot(tx: number, ty: number, color: number): void;
}

export interface LevelStart {
  /** 1 on the first try at a level, +1 after each RESET or GAME_OVER of that level. */
  readonly attempt: number;
  readonly seed: number;
}

/** One rule kind: how a level's parameters become a state, what a move does, and how a state looks. */
export interface Rules<L, S> {
  readonly kind: string;
  /** Valibot schema of a level's rule-specific fields (the common ones are checked by the catalog). */
  readonly levelSchema: v.GenericSchema<unknown, L>;
  /** Checks the schema cannot express (one player, map rows of one width...): the field and the problem. */
  check(level: L): { field: string; problem: string } | undefined;
  /** Board size in tiles. */
  size(level: L): { width: number; height: number };
  start(level: L, how: LevelStart): S;
  step(level: L, state: S, move: Move): Transition<S>;
  draw(level: L, state: S, paint: Painter): void;
  /** A string that identifies the state: used by solvers and tests, never shown to agents. */
  key(state: S): string;
}

export interface LevelDef<L> {
  readonly params: L;
  /** Actions allowed before GAME_OVER (RESET does not count; undo does). */
  readonly budget: number;
  readonly baseline: number;
  readonly solution: readonly Action[];
}

export interface GameDef<L, S> {
  readonly info: GameInfo;
  readonly rules: Rules<L, S>;
  readonly levels: readonly LevelDef<L>[];
  /** Colour of the cells around the board. */
  readonly backdrop: number;
}

/** Rows 0..BOARD_ROWS-1 hold the board; the last row is the step bar, one row of backdrop between. */
export const BOARD_ROWS = GRID_SIZE - 2;
export const BAR_ROW = GRID_SIZE - 1;
const BAR_LEFT = 14; // green: steps remaining
const BAR_USED = 3; // gray: steps spent

export interface Layout {
  readonly scale: number;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export function layoutFor(width: number, height: number): Layout {
  const scale = Math.max(1, Math.floor(Math.min(GRID_SIZE / width, BOARD_ROWS / height)));
  return {
    scale,
    width,
    height,
    left: Math.floor((GRID_SIZE - width * scale) / 2),
    top: Math.floor((BOARD_ROWS - height * scale) / 2),
  };
}

/** The grid cell at the centre of a tile: where a stored solution clicks. */
export function tileCentre(layout: Layout, tx: number, ty: number): { x: number; y: number } {
  const half = Math.floor(layout.scale / 2);
  return { x: layout.left + tx * layout.scale + half, y: layout.top + ty * layout.scale + half };
}

const DIRECTIONS: Record<1 | 2 | 3 | 4, { dx: number; dy: number }> = {
  1: { dx: 0, dy: -1 },
  2: { dx: 0, dy: 1 },
  3: { dx: -1, dy: 0 },
  4: { dx: 1, dy: 0 },
};

/** Turns an ARC action into the move the rules see; undefined for RESET and undo, which the engine handles. */
export function toMove(action: Action, layout: Layout): Move | undefined {
  switch (action.id) {
    case 1:
    case 2:
    case 3:
    case 4:
      return { kind: "move", ...DIRECTIONS[action.id] };
    case 5:
      return { kind: "interact" };
    case 6:
      return {
        kind: "click",
        tx: Math.floor((action.x - layout.left) / layout.scale),
        ty: Math.floor((action.y - layout.top) / layout.scale),
      };
    default:
      return undefined;
  }
}

function onGrid(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n < GRID_SIZE;
}

export class LocalGame<L, S> implements Game {
  readonly info: GameInfo;
  private readonly def: GameDef<L, S>;
  private readonly seed: number;
  private readonly layouts: Layout[];
  private phase: GameState = "NOT_PLAYED";
  private levelIndex = 0;
  private completed = 0;
  private attempt = 1;
  private used = 0;
  private current: S | undefined;
  private history: S[] = [];
  private lastBoard: Grid;

  constructor(def: GameDef<L, S>, options: { seed: number }) {
    this.def = def;
    this.info = def.info;
    this.seed = options.seed;
    this.layouts = def.levels.map((l) => {
      const { width, height } = def.rules.size(l.params);
      return layoutFor(width, height);
    });
    this.lastBoard = { width: GRID_SIZE, height: GRID_SIZE, cells: new Uint8Array(GRID_SIZE * GRID_SIZE).fill(def.backdrop) };
  }

  reset(): FrameData {
    if (this.phase === "NOT_PLAYED" || this.phase === "WIN") {
      this.levelIndex = 0;
      this.completed = 0;
      this.attempt = 1;
    } else {
      this.attempt += 1;
    }
    this.phase = "NOT_FINISHED";
    this.startLevel();
    return this.frame([this.lastBoard]);
  }

  step(action: Action): FrameData {
    if (action.id === "key") return this.frame([this.lastBoard], `'${action.name}' is not an action of a grid game`);
    if (action.id === 0) return this.reset();
    if (this.phase === "NOT_PLAYED") return this.frame([this.lastBoard], "the game has not started: send RESET");
    if (this.phase === "GAME_OVER") return this.frame([this.lastBoard], "game over: send RESET to retry the level");
    if (this.phase === "WIN") return this.frame([this.lastBoard], "the game is won: send RESET to play again");
    if (!this.info.availableActions.includes(action.id)) {
      return this.frame([this.lastBoard], `ACTION${action.id} is not offered by ${this.info.id} (offered: ${this.offered()})`);
    }
    if (action.id === 6 && !(onGrid(action.x) && onGrid(action.y))) {
      return this.frame(
        [this.lastBoard],
        `click (${action.x},${action.y}) is off the 64x64 grid: x and y must be integers 0..63`,
      );
    }
    if (action.id === 7) return this.undo();
    const level = this.level();
    const move = toMove(action, this.layout());
    if (move === undefined || this.current === undefined) throw new Error("engine: step without a move or a state");
    const before = this.current;
    const t = this.def.rules.step(level.params, before, move);
    this.history.push(before);
    this.current = t.state;
    this.used += 1;
    const frames = (t.between ?? []).map((s) => this.render(s));
    if (t.outcome === "solved") return this.levelSolved(frames);
    if (t.outcome === "dead") this.phase = "GAME_OVER";
    else if (this.used >= level.budget) this.phase = "GAME_OVER";
    this.lastBoard = this.render(t.state);
    frames.push(this.lastBoard);
    return this.frame(frames);
  }

  /** The current rule state (tests and solvers); undefined before the first RESET. */
  peekState(): S | undefined {
    return this.current;
  }

  private undo(): FrameData {
    const previous = this.history.pop();
    if (previous === undefined) return this.frame([this.lastBoard], "nothing to undo on this level");
    this.current = previous;
    this.used += 1;
    if (this.used >= this.level().budget) this.phase = "GAME_OVER";
    this.lastBoard = this.render(previous);
    return this.frame([this.lastBoard]);
  }

  private levelSolved(frames: Grid[]): FrameData {
    if (this.current === undefined) throw new Error("engine: solved without a state");
    this.completed += 1;
    frames.push(this.render(this.current));
    if (this.levelIndex + 1 >= this.def.levels.length) {
      this.phase = "WIN";
      this.lastBoard = frames[frames.length - 1] as Grid;
      return this.frame(frames);
    }
    this.levelIndex += 1;
    this.attempt = 1;
    this.startLevel();
    frames.push(this.lastBoard);
    return this.frame(frames);
  }

  private startLevel(): void {
    this.used = 0;
    this.history = [];
    this.current = this.def.rules.start(this.level().params, { attempt: this.attempt, seed: this.seed });
    this.lastBoard = this.render(this.current);
  }

  private level(): LevelDef<L> {
    const l = this.def.levels[this.levelIndex];
    if (l === undefined) throw new Error(`engine: no level ${this.levelIndex}`);
    return l;
  }

  private layout(): Layout {
    const l = this.layouts[this.levelIndex];
    if (l === undefined) throw new Error(`engine: no layout for level ${this.levelIndex}`);
    return l;
  }

  private offered(): string {
    return this.info.availableActions.map((a) => `ACTION${a}`).join(", ");
  }

  private render(state: S): Grid {
    const cells = new Uint8Array(GRID_SIZE * GRID_SIZE).fill(this.def.backdrop);
    const { scale, left, top } = this.layout();
    const inset = scale >= 3 ? Math.max(1, Math.floor(scale / 4)) : 0;
    const fill = (tx: number, ty: number, color: number, pad: number) => {
      const x0 = left + tx * scale + pad;
      const y0 = top + ty * scale + pad;
      const side = scale - 2 * pad;
      for (let y = y0; y < y0 + side; y++) cells.fill(color, y * GRID_SIZE + x0, y * GRID_SIZE + x0 + side);
    };
    this.def.rules.draw(this.level().params, state, {
      tile: (tx, ty, color) => fill(tx, ty, color, 0),
      dot: (tx, ty, color) => fill(tx, ty, color, inset),
    });
    const budget = this.level().budget;
    const left_ = Math.ceil((GRID_SIZE * Math.max(0, budget - this.used)) / budget);
    const bar = BAR_ROW * GRID_SIZE;
    cells.fill(BAR_LEFT, bar, bar + left_);
    cells.fill(BAR_USED, bar + left_, bar + GRID_SIZE);
    return { width: GRID_SIZE, height: GRID_SIZE, cells };
  }

  private frame(frames: Grid[], message?: string): FrameData {
    const data: FrameData = {
      frames,
      state: this.phase,
      levelsCompleted: this.completed,
      winLevels: this.info.winLevels,
      availableActions: this.info.availableActions as ActionId[],
    };
    return message === undefined ? data : { ...data, message };
  }
}
