// The ARC-AGI-3 game model, shared by the committed local games, the ARC bridges and the runner.
// Facts: ../shared/notes/reference-facts.md ("ARC-AGI-3").
import * as v from "valibot";

/** Grid side used by ARC-AGI-3 and by every committed game. */
export const GRID_SIZE = 64;
/** Colours are 0..15. */
export const COLOR_COUNT = 16;

/** A board: row-major cells, `cells[y * width + x]`, each 0..15. */
export interface Grid {
  readonly width: number;
  readonly height: number;
  readonly cells: Uint8Array;
}

export type GameState = "NOT_PLAYED" | "NOT_FINISHED" | "WIN" | "GAME_OVER";

/** Action ids as ARC numbers them: RESET=0, ACTION1..4 up/down/left/right, 5 interact, 6 click, 7 undo. */
export type ActionId = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** An action of a grid game (ARC numbering). */
export type GridAction = { readonly id: 0 | 1 | 2 | 3 | 4 | 5 | 7 } | { readonly id: 6; readonly x: number; readonly y: number };

/** An action of a terminal game (NetHack): a name the agent writes and the keys it sends. */
export interface KeyAction {
  readonly id: "key";
  readonly name: string;
  readonly keys: string;
}

export type Action = GridAction | KeyAction;

const Coordinate = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(GRID_SIZE - 1));
/** An Action as JSON (the run index keeps a pending batch this way); read back through this schema. */
export const ActionSchema = v.union([
  v.object({ id: v.picklist([0, 1, 2, 3, 4, 5, 7] as const) }),
  v.object({ id: v.literal(6), x: Coordinate, y: Coordinate }),
  v.object({ id: v.literal("key"), name: v.pipe(v.string(), v.maxLength(100)), keys: v.pipe(v.string(), v.maxLength(100)) }),
]);
// Compile-time check that the schema gives back an Action.
const _actionShape: (x: v.InferOutput<typeof ActionSchema>) => Action = (x) => x;
void _actionShape;

/** What one step (or a reset) returns: every animation frame, the last one being the settled board. */
export interface FrameData {
  /** 1..N grids; frames[frames.length - 1] is the settled board. */
  readonly frames: readonly Grid[];
  readonly state: GameState;
  readonly levelsCompleted: number;
  readonly winLevels: number;
  readonly availableActions: readonly ActionId[];
  /** Set when the step was a no-op because the action was not offered or a click fell off the grid. */
  readonly message?: string;
  /** The kind's own observation (a terminal game's screen, whose frames are empty): only its code reads it. */
  readonly body?: StepBody;
}

/** A terminal game's experience level, hit points and turn counter, as its section header carries them. */
export interface HeaderVitals {
  readonly xl: number;
  readonly hp: number;
  readonly hpMax: number;
  readonly turn: number;
}

declare const stepBody: unique symbol;
/**
 * A kind's own observation of a step, beyond the fields every step has (NetHack's screen): opaque to everything
 * but that kind's code — its section codec, its report, what a person is shown of it — which alone knows its shape.
 */
export interface StepBody {
  readonly [stepBody]: "a kind's own";
}

export interface GameInfo {
  readonly id: string;
  readonly title: string;
  readonly winLevels: number;
  readonly availableActions: readonly ActionId[];
  /** Per level, the action count of a good human solution (RHAE's baseline). */
  readonly baselineActions: readonly number[];
  readonly tags: readonly string[];
  /** The game's version when the environment knows it (a local game: a hash of its file). */
  readonly version?: string;
}

/**
 * A game the runner can play. Deterministic for a given seed: the same seed and the same
 * actions give the same frames. Local games are synchronous; bridges to remote or
 * out-of-process engines implement the same shape.
 */
export interface Game {
  readonly info: GameInfo;
  /** Starts over from level 1 (first call) or restarts the current level (ARC semantics). */
  reset(): FrameData;
  step(action: Action): FrameData;
}
