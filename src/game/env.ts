// What the runner plays against: a game behind an async boundary with errors as values, so the committed
// local games (synchronous, in-process) and out-of-process or remote games share one loop.
import { ok, type Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import type { Action, FrameData, Game, GameInfo } from "../game-model.ts";
import type { BwrapSupport } from "../sandbox/bwrap.ts";

export interface GameEnv {
  readonly info: GameInfo;
  reset(): Promise<Result<FrameData, ProlongError>>;
  step(action: Action): Promise<Result<FrameData, ProlongError>>;
  close(): Promise<void>;
}

/**
 * What an environment may leave in its run beside the harness's own files, reported instead of written:
 * the run decides where (its directory) and when (summary.txt is written once, at the end).
 */
export interface EnvContext {
  /** A file of the run directory, by plain name (e.g. "arc-scorecard.json"); replaced if it exists. */
  saveFile(name: string, text: string): void;
  /** A line added to the end of summary.txt. */
  summaryLine(line: string): void;
  /** A directory of the run the environment may own (NetHack's private game folder lives in it). */
  readonly workDir?: string;
  /**
   * The sandbox a game that runs a process of its own (NetHack) starts it in, from the run's --sandbox as the
   * agent's: bwrap, null for none (--sandbox none, auto without bwrap), or why --sandbox bwrap cannot be had
   * here (such a game then refuses to start). Asked only by a game that starts a process: finding out runs
   * bwrap once, which a grid game does not need. Absent: unconfined (tests).
   */
  readonly sandbox?: () => Result<BwrapSupport | null, ProlongError>;
}

/** For an environment used outside a run (tests, `prolong replay`): what it reports is dropped. */
export const NO_ENV_CONTEXT: EnvContext = { saveFile: () => {}, summaryLine: () => {} };

export function localEnv(game: Game): GameEnv {
  return {
    info: game.info,
    reset: async () => ok(game.reset()),
    step: async (action) => ok(game.step(action)),
    close: async () => {},
  };
}
