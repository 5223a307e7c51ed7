// The toy game: mazes drawn 4x4 cells per tile, a step bar on the bottom row that drains one cell per move
// (GAME_OVER when empty), pits that end the attempt, and clicks that do nothing except on a switch tile that
// opens the goal. Small and deterministic: the explorer's tests play it, and it is a kind of its own
// (`--env toy`, kind.ts) to show what a kind takes.
import type { Action, FrameData, Game, GameInfo, GameState, Grid } from "../../game-model.ts";

const TILE = 4;
const SIZE = 64;
const COLOURS = { floor: 5, wall: 3, player: 8, goal: 14, pit: 13, switch: 11, closed: 4, bar: 9, barEmpty: 5 } as const;

export interface ToyLevel {
  /** Rows of: '#' wall, '.' floor, 'P' start, 'G' goal, 'X' pit, 'S' switch (click it to open 'D'), 'D' closed door. */
  readonly map: string[];
  readonly budget: number;
}

export class ToyGame implements Game {
  readonly info: GameInfo;
  private level = 0;
  private px = 0;
  private py = 0;
  private left = 0;
  private open = false;
  private state: GameState = "NOT_PLAYED";
  private completed = 0;

  constructor(private readonly levels: readonly ToyLevel[]) {
    this.info = {
      id: "toy",
      title: "toy",
      winLevels: levels.length,
      availableActions: [1, 2, 3, 4, 6],
      baselineActions: levels.map(() => 5),
      tags: [],
    };
  }

  reset(): FrameData {
    if (this.state === "WIN") {
      this.level = 0;
      this.completed = 0;
    }
    this.startLevel();
    return this.frame();
  }

  step(action: Action): FrameData {
    if (action.id === "key") return this.frame();
    if (action.id === 0) return this.reset(); // RESET is an action like any other, as in the engine
    if (this.state === "NOT_PLAYED" || this.state === "GAME_OVER" || this.state === "WIN") return this.frame();
    const map = this.levels[this.level]!.map;
    if (action.id === 6) {
      const tx = Math.floor(action.x / TILE);
      const ty = Math.floor(action.y / TILE);
      if (map[ty]?.[tx] === "S") this.open = true;
    } else if (action.id >= 1 && action.id <= 4) {
      const [dx, dy] = action.id === 1 ? [0, -1] : action.id === 2 ? [0, 1] : action.id === 3 ? [-1, 0] : [1, 0];
      const c = map[this.py + dy]?.[this.px + dx];
      if (c !== undefined && c !== "#" && c !== "S" && (c !== "D" || this.open)) {
        this.px += dx;
        this.py += dy;
      }
      this.left--;
      if (c === "X") this.state = "GAME_OVER";
      else if (c === "G") {
        this.completed++;
        if (this.completed === this.levels.length) this.state = "WIN";
        else {
          this.level++;
          this.startLevel();
        }
      }
      if (this.left <= 0 && this.state === "NOT_FINISHED") this.state = "GAME_OVER";
    }
    return this.frame();
  }

  private startLevel(): void {
    const map = this.levels[this.level]!.map;
    map.forEach((row, y) => {
      const x = row.indexOf("P");
      if (x >= 0) {
        this.px = x;
        this.py = y;
      }
    });
    this.left = this.levels[this.level]!.budget;
    this.open = false;
    this.state = "NOT_FINISHED";
  }

  private frame(): FrameData {
    const cells = new Uint8Array(SIZE * SIZE).fill(COLOURS.wall);
    const lvl = this.levels[Math.min(this.level, this.levels.length - 1)]!;
    lvl.map.forEach((row, ty) => {
      for (let tx = 0; tx < row.length; tx++) {
        const ch = row[tx]!;
        const colour =
          ch === "#"
            ? COLOURS.wall
            : ch === "G"
              ? COLOURS.goal
              : ch === "X"
                ? COLOURS.pit
                : ch === "S"
                  ? COLOURS.switch
                  : ch === "D"
                    ? this.open
                      ? COLOURS.floor
                      : COLOURS.closed
                    : COLOURS.floor;
        paint(cells, tx, ty, colour);
      }
    });
    paint(cells, this.px, this.py, COLOURS.player);
    const full = Math.round((SIZE * this.left) / lvl.budget);
    for (let x = 0; x < SIZE; x++) cells[(SIZE - 1) * SIZE + x] = x < full ? COLOURS.bar : COLOURS.barEmpty;
    const grid: Grid = { width: SIZE, height: SIZE, cells };
    return {
      frames: [grid],
      state: this.state,
      levelsCompleted: this.completed,
      winLevels: this.levels.length,
      availableActions: this.info.availableActions,
    };
  }
}

function paint(cells: Uint8Array, tx: number, ty: number, colour: number): void {
  for (let y = ty * TILE; y < ty * TILE + TILE && y < SIZE - 1; y++) {
    for (let x = tx * TILE; x < tx * TILE + TILE; x++) cells[y * SIZE + x] = colour;
  }
}

/** The toy kind's levels: a corridor, a small maze, and pits whose way round only memory of earlier attempts finds. */
export const TOY_LEVELS: readonly ToyLevel[] = [
  { map: ["#######", "#P...G#", "#######"], budget: 30 },
  { map: ["#########", "#P..#...#", "#.#.#.#.#", "#.#...#G#", "#########"], budget: 40 },
  { map: ["#########", "#P.X....#", "#.#...#.#", "#...X.#G#", "#########"], budget: 16 },
];
