// What one run holds while it plays, split by how long each part lives: what is fixed for the run (its
// settings, parts — game, agent, clock, events, passed in, factories as the defaults — and files), what the
// tally counts (tally.ts), and what the turn carries (the game and its frame, the batch in hand). Built by
// start.ts (a fresh run) or resume.ts (a run picked up from its log); played by runner.ts; closed by finish.ts.
import { policyOf } from "../agent/tool-ladder.ts";
import type { Result } from "neverthrow";
import * as v from "valibot";
import type { Agent } from "../agent/agent.ts";
import type { PromptContext } from "../agent/prompts.ts";
import type { Clock } from "../clock.ts";
import type { ProlongError } from "../errors.ts";
import type { EnvContext, GameEnv } from "../game/env.ts";
import type { KindPlay } from "../game/kinds.ts";
import { ActionSchema, type Action, type FrameData } from "../game-model.ts";
import type { RunIndex } from "../log/run-index.ts";
import type { MasterLog } from "../log/master.ts";
import type { LogWindow } from "../setting/log-window.ts";
import type { RunConfig } from "../config/run-config.ts";
import type { EventSink } from "../run-files/events.ts";
import type { RunPaths } from "../run-files/layout.ts";
import type { RunTally } from "./tally.ts";
import type { EndReason } from "../score/scorecard.ts";
import type { RunLock } from "./lock.ts";
import type { WorkspaceDir } from "../workspace/dir.ts";

/** The parts a run is played with. Tests pass their own; `prolong play` uses the factories (parts.ts). */
export interface RunParts {
  /** Opens a fresh game: at the start, for each new episode, and to replay the log on resume. */
  readonly env: (context: EnvContext) => Result<GameEnv, ProlongError>;
  readonly agent: Agent;
  readonly clock: Clock;
  readonly events: EventSink;
}

/** A batch the agent asked for, saved before it runs so that a resumed run finishes it exactly. */
export const PendingBatchSchema = v.object({
  turn: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** The agent's answer: its briefing and plan, written into the [PLAN] blocks. */
  text: v.string(),
  /** The actions as the harness will execute them (already validated against the cap and the game). */
  actions: v.array(ActionSchema),
  /** Number of the action the batch's first entry becomes. */
  firstAction: v.pipe(v.number(), v.integer(), v.minValue(1)),
});
export interface PendingBatch {
  readonly turn: number;
  readonly text: string;
  readonly actions: readonly Action[];
  readonly firstAction: number;
}
// Compile-time check that what the schema gives back is a PendingBatch.
const _pendingShape: (x: v.InferOutput<typeof PendingBatchSchema>) => PendingBatch = (x) => x;
void _pendingShape;

/** What a run holds for its whole life: its settings, what plays its kind, its files and its parts. Set once. */
export interface RunFixed {
  readonly config: RunConfig;
  /** What plays the run's environment kind: its action names, instructions and section codec (game/kinds.ts). */
  readonly kind: KindPlay;
  readonly paths: RunPaths;
  readonly window: LogWindow;
  /** What the instructions and prompts say that never changes in the run (fixedPromptContext). */
  readonly prompt: FixedPromptContext;
  /** Identifies the run in events and summaries: "<stamp>/<game>". */
  readonly name: string;
  readonly parts: RunParts;
  /** What the environments of this run report through (files in the run directory, summary lines). */
  readonly envContext: EnvContext;
  readonly master: MasterLog;
  readonly index: RunIndex;
  readonly events: EventSink;
  /** The agent's directory, held open: every harness access to it goes through this (workspace.ts). */
  readonly workspace: WorkspaceDir;
  /** This process's exclusive hold on the run directory, released when the run is finished. */
  readonly lock: RunLock;
  readonly agent: Agent;
  readonly clock: Clock;
  /** Milliseconds spent before this process took the run over (resume), plus this process's start (clock time). */
  readonly startedAt: number;
  readonly priorMs: number;
  /** Lines the environment asked for at the end of summary.txt. */
  readonly summaryLines: string[];
  /** Called after every executed action and agent call (the live progress line). */
  readonly onProgress?: (s: RunSession) => void;
}

/** What the turn carries: the game open now and its latest frame, the batch in hand, what the next prompt says. */
export interface TurnState {
  /** The game being played (a new one per episode). */
  env: GameEnv;
  /** The latest frame the game returned. */
  frame: FrameData;
  pending: PendingBatch | null;
  /** True for the first agent call after a resume (it gets the resume prompt). */
  resumed: boolean;
  /** What the next prompt tells the agent about its last actions.json (dropped entries, an unusable file). */
  agentNotice: string | null;
  /** The instruction text last written into the workspace (null until this process wrote one). */
  instructions: string | null;
  /** The first event that could not be written; the loop ends the run (log-failed) when it sees one. */
  eventFailure: ProlongError | null;
  /**
   * The action count at this process's last --observe observation (null before its first): the sections since
   * then are the batch the agent has not seen.
   */
  observedAt: number | null;
}

/**
 * A run while it plays, in three parts: what is fixed for the run (the fields of RunFixed), what the tally
 * counts (tally.ts: the header numbers, budgets, tokens), and what the turn carries (`turn`). Only the last two
 * change. Built by start.ts (a fresh run) or resume.ts (a run picked up from its log); played by runner.ts.
 */
export interface RunSession extends RunFixed {
  readonly tally: RunTally;
  readonly turn: TurnState;
}

/** The turn a run starts (or resumes) on: the game just opened and its first frame, nothing asked yet. */
export function firstTurn(env: GameEnv, frame: FrameData, resumed: boolean): TurnState {
  return { env, frame, pending: null, resumed, agentNotice: null, instructions: null, eventFailure: null, observedAt: null };
}

export interface RunEnd {
  readonly reason: EndReason;
  readonly detail: string;
}

/** Milliseconds the run has been playing, over every process that played it. */
export function wallMs(s: RunSession): number {
  return Math.round(s.clock.now() - s.startedAt + s.priorMs);
}

/** What the instructions and prompts say that is fixed for the run: its arm and its kind. */
export type FixedPromptContext = Omit<PromptContext, "gameId" | "availableActions" | "episode">;

/** Made once, when the run starts or resumes. */
export function fixedPromptContext(config: RunConfig, kind: KindPlay): FixedPromptContext {
  return {
    actionCap: config.actionCap,
    maxActions: config.maxActions,
    window: config.logWindow,
    stateless: config.workspace === "stateless",
    episodes: config.episodes,
    tools: policyOf(config),
    ...(config.observe ? { observe: config.observe } : {}),
    ...(kind.codec.carried ? { carried: kind.codec.carried.label } : {}),
  };
}

/**
 * What the instructions and prompts say about the game and the arm right now: the run's fixed part, the game's
 * actions now and the episode. Made once per turn (workspace.ts prepareTurn) and carried through it.
 */
export function promptContext(s: RunSession): PromptContext {
  return {
    gameId: s.turn.env.info.id,
    availableActions: s.turn.frame.availableActions.length > 0 ? s.turn.frame.availableActions : s.turn.env.info.availableActions,
    ...s.prompt,
    episode: s.tally.episode,
  };
}
