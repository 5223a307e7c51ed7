// The one contract every agent follows, built-in or external: it is invoked in its workspace, reads what
// is there (logs.txt, the instructions file, anything it left itself), and leaves workspace/actions.json.
import type { Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import type { KindPlay } from "../game/kinds.ts";
import type { ActionId, FrameData, GameInfo } from "../game-model.ts";
import type { StepReport } from "../run-files/trajectory.ts";

/** The game as it stands, for an in-process agent that shows it to a person (the human player). */
export interface GameView {
  readonly frame: FrameData;
  readonly info: GameInfo;
  /** Actions taken so far in this episode's count (the one --max-actions limits). */
  readonly action: number;
  readonly maxActions: number;
  /** Attempt at the current level: it grows when the game was over and the harness reset the level. */
  readonly attempt: number;
  /** Actions spent on each level of this episode so far (index 0 = level 1), as the scorecard counts them. */
  readonly levelActions: readonly number[];
  /** How the game's kind names actions and, for a terminal game, which key sends which (game/kind.ts). */
  readonly kind: Pick<KindPlay, "actionEntry" | "keys">;
}

export interface TurnInput {
  /** Absolute path of the agent's workspace; the agent's cwd. */
  readonly workspace: string;
  /** The user prompt for this turn (first-turn, follow-up or resume wording). */
  readonly prompt: string;
  /** 1-based agent call number within the run. */
  readonly turn: number;
  /** Actions the game offers now (ARC numbering). */
  readonly availableActions: readonly ActionId[];
  /** Most actions that will be executed from one actions.json. */
  readonly actionCap: number;
  /** A deterministic seed for agents that randomise (the built-in explorer breaks ties with it). */
  readonly seed: number;
  /** The current board and counts, for the human player's screen; external agents only ever get files. */
  readonly view?: GameView;
}

export interface TokenUsage {
  readonly input: number;
  readonly cached: number;
  readonly output: number;
}

export interface TurnReply {
  /** The agent's final text for this turn; the runner writes it into [PLAN] blocks. */
  readonly text: string;
  readonly toolCalls: number;
  readonly tokens: TokenUsage;
  readonly wallMs: number;
  readonly exitCode: number;
  /** The turn's model steps and tool calls, in order, for trajectory.jsonl (absent for in-process agents). */
  readonly steps?: readonly StepReport[];
}

export interface Agent {
  readonly name: string;
  /** How the agent's processes are confined (none for in-process agents such as the explorer). */
  readonly sandbox?: "bwrap" | "none";
  /** The model server the agent calls, as play says it before the first call (a dead server can take a minute to fail). */
  readonly server?: string;
  /**
   * Before the run's first call (and a resumed run's): can the agent's model API be used at all — credentials
   * present and accepted? An Err (an api-* code) ends the run agent-unavailable at once, with its one-line reason.
   */
  checkAccess?(): Promise<Result<void, ProlongError>>;
  /** One agent call. An Err is a failed call (crash, timeout, unusable output); the runner retries, bounded. */
  turn(input: TurnInput): Promise<Result<TurnReply, ProlongError>>;
  /**
   * After a failed call: the tokens it had already consumed (the mini agent's model replies before the
   * failure), so the run's totals and billed tokens count them. Absent: a failed call reports none.
   */
  failedCallTokens?(): TokenUsage;
  /** Releases processes or servers the agent holds. */
  close?(): Promise<void>;
}

export const NO_TOKENS: TokenUsage = { input: 0, cached: 0, output: 0 };
