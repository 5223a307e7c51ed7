// NetHack's screen as a step's body (game-model.ts StepBody): what the game shows after a step and what the run
// needs from it, carried opaque through the run and read back here by NetHack's own code alone (its codec, its
// report, what a person at the keyboard is shown).
import type { FrameData, HeaderVitals, StepBody } from "../../game-model.ts";

/**
 * What a terminal game shows after a step, and what the run needs from it: the section body (status line,
 * message line, inventory when it changed, events, how the game ended, the screen's rows), the header's Level
 * and Score, and why the rest of a batch is dropped.
 */
export interface ScreenFrame {
  /** The header's Level: the dungeon level. */
  readonly level: number;
  /** The header's Score: BALROG progression × 10,000 (best of the episode so far). */
  readonly score: number;
  /** Best BALROG progression of the episode so far, 0..1. */
  readonly progression: number;
  readonly status: string;
  readonly message: string;
  readonly inventory?: readonly string[];
  /** The inventory as last read, changed or not: what the no-log arm's prompt shows. */
  readonly heldInventory?: readonly string[];
  /** What happened that drops the rest of a batch (HP lost, a new level, a new monster, many turns, the end). */
  readonly stops: readonly string[];
  /** Harness notes for the log (a prompt escaped), beside the stop reasons. */
  readonly notes: readonly string[];
  /** How the game ended, once it has. */
  readonly end?: string;
  /** Screen rows below the message line. */
  readonly rows: readonly string[];
  /** The whole screen's colours (message line first), one code per cell, when the game draws in colour. */
  readonly colours?: readonly string[];
  /** The header's XL, HP and Turn (from the status; absent while no status line was ever read). */
  readonly vitals?: HeaderVitals;
  /** Where the game left the cursor (row 0 = the message line): on the hero, or after a prompt's text. */
  readonly cursor?: { readonly x: number; readonly y: number };
}

/** The key NetHack keeps its screen under in a step's body: a body no NetHack step made has none. */
const SCREEN = Symbol("NetHack's screen");

/** A screen as a step's body. */
export function screenBody(screen: ScreenFrame): StepBody {
  return { [SCREEN]: screen } as unknown as StepBody;
}

/** The screen a NetHack step carries; undefined for a frame no NetHack game gave. */
export function screenOf(frame: FrameData): ScreenFrame | undefined {
  return (frame.body as { readonly [SCREEN]?: ScreenFrame } | undefined)?.[SCREEN];
}
