// What the runner plays against: a game behind an async boundary with errors as values, so the committed
// local games (synchronous, in-process) and out-of-process or remote games share one loop.
import { ok, type Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import type { Action, FrameData, Game, GameInfo } from "./types.ts";

export interface GameEnv {
  readonly info: GameInfo;
  reset(): Promise<Result<FrameData, ProlongError>>;
  step(action: Action): Promise<Result<FrameData, ProlongError>>;
  close(): Promise<void>;
}

export function localEnv(game: Game): GameEnv {
  return {
    info: game.info,
    reset: async () => ok(game.reset()),
    step: async (action) => ok(game.step(action)),
    close: async () => {},
  };
}
