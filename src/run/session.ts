// Everything one run holds while it plays: settings, files, game, agent, counters. Built by start.ts (a fresh
// run) or resume.ts (a run picked up from its log); played by runner.ts; closed by finish.ts.
import type { Agent } from "../agent/agent.ts";
import type { GameEnv } from "../game/env.ts";
import type { FrameData } from "../game/types.ts";
import type { RunIndex } from "../log/index.ts";
import type { MasterLog } from "../log/master.ts";
import type { LogWindow } from "../log/window.ts";
import type { RunConfig } from "./config.ts";
import type { EventLog } from "./events.ts";
import type { RunPaths } from "./run-dir.ts";
import type { RunTally } from "./tally.ts";

/** A batch the agent asked for, saved before it runs so that a resumed run finishes it exactly. */
export interface PendingBatch {
  readonly turn: number;
  /** The agent's answer: its briefing and plan, written into the [PLAN] blocks. */
  readonly text: string;
  /** The entries as the harness will execute them (already validated), e.g. "ACTION6(3,4)". */
  readonly entries: readonly string[];
  /** Number of the action the batch's first entry becomes. */
  readonly firstAction: number;
}

export interface RunSession {
  readonly config: RunConfig;
  readonly paths: RunPaths;
  readonly window: LogWindow;
  /** Identifies the run in events and summaries: "<stamp>/<game>". */
  readonly name: string;
  env: GameEnv;
  readonly master: MasterLog;
  readonly index: RunIndex;
  readonly events: EventLog;
  readonly agent: Agent;
  readonly tally: RunTally;
  /** The latest frame the game returned. */
  frame: FrameData;
  pending: PendingBatch | null;
  /** True for the first agent call after a resume (it gets the resume prompt). */
  resumed: boolean;
  /** Milliseconds spent before this process took the run over (resume), plus this process's start. */
  readonly startedAt: number;
  readonly priorMs: number;
  /** Called after every executed action and agent call (the live progress line). */
  readonly onProgress?: (s: RunSession) => void;
}

/** Why a run ended. */
export type EndReason =
  | "win"
  | "max-actions"
  | "agent-stopped"
  | "agent-failed"
  | "game-failed"
  | "interrupted";

export interface RunEnd {
  readonly reason: EndReason;
  readonly detail: string;
}
