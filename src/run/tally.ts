// The counters a run's headers and summary come from, and the one rule for how a step moves them, read off the
// step's report by the run's kind (game/kind.ts: its score, its own level if it has one, its vitals and stops):
// the header shows the level and attempt the action was TAKEN on and the score AFTER it (as the paper's logs do);
// Level rises with the score, Attempt rises after a GAME_OVER and returns to 1 on a new level. A game with its
// own level (NetHack's dungeon level) shows it as it is after the action, and its episode is its attempt.
import type { TokenUsage } from "../agent/agent.ts";
import { stepReport, type StepReport, type StepRule } from "../game/kinds.ts";
import type { FrameData, GameState } from "../game-model.ts";
import type { HeaderVitals } from "../log/format.ts";
import type { EpisodeResult } from "../score/scorecard.ts";

export interface RunTally {
  /** How the run's kind moves these counters (its step report, what a game over does), fixed at the start. */
  readonly rule: StepRule;
  /** Number of the last action written (0 = only the initial state so far); global over episodes. */
  action: number;
  /** 1-based level the next action is taken on. */
  level: number;
  attempt: number;
  /** Levels completed (the log's Score). */
  score: number;
  state: GameState;
  winLevels: number;
  /** 1-based episode (lifetime arm). */
  episode: number;
  /** Actions spent in the current episode (the budget is per episode); RESETs count. */
  episodeActions: number;
  /** Actions taken on each level in the current episode (index 0 = level 1); RESETs count. */
  levelActions: number[];
  /** Best score over finished episodes and the current one. */
  bestScore: number;
  agentCalls: number;
  tamperEvents: number;
  /** Tokens over all agent calls of the run (input includes cached). */
  tokens: TokenUsage;
  /** Results of the episodes before the current one (lifetime arm). */
  finished: EpisodeResult[];
}

/**
 * Where an episode's counters start, from the game's first frame: the game's own level if it has one, else
 * level 1; the episode as the attempt where a game over ends the episode, else attempt 1; the score it reports.
 */
function episodeStart(rule: StepRule, frame: FrameData, episode: number) {
  const report = stepReport(rule, frame);
  const counters = {
    level: report.level ?? 1,
    attempt: rule.atGameOver === "episode-ends" ? episode : 1,
    score: report.score,
    state: frame.state,
    levelActions: new Array<number>(frame.winLevels).fill(0),
  };
  return { report, counters };
}

export function newTally(frame: FrameData, rule: StepRule): RunTally {
  const start = episodeStart(rule, frame, 1).counters;
  return {
    rule,
    action: 0,
    ...start,
    winLevels: frame.winLevels,
    episode: 1,
    episodeActions: 0,
    bestScore: start.score,
    agentCalls: 0,
    tamperEvents: 0,
    tokens: { input: 0, cached: 0, output: 0 },
    finished: [],
  };
}

export interface StepEffect {
  /** The header fields of the section this step writes. */
  readonly header: {
    readonly action: number;
    readonly level: number;
    readonly attempt: number;
    readonly score: number;
    readonly vitals?: HeaderVitals;
  };
  readonly levelUp: boolean;
  readonly gameOver: boolean;
  readonly win: boolean;
  /** Why the rest of the batch is dropped besides the above (a terminal game's events: HP lost, a new monster...). */
  readonly stops: readonly string[];
  /** Harness notes on the step (a prompt escaped), told as warnings. */
  readonly notes: readonly string[];
}

/**
 * Moves the tally by one executed action and returns what the step's section header says. A game with its own
 * level (a dungeon level) shows it after the action and never levels up by its score; otherwise the level is
 * the one the action was taken on, and rises when the score does. A game over starts the next attempt where
 * the game resets, and leaves the attempt alone where it ends the episode (the next episode is the next attempt).
 */
export function recordStep(t: RunTally, frame: FrameData): StepEffect {
  const report = stepReport(t.rule, frame);
  t.action += 1;
  t.episodeActions += 1;
  const header = {
    action: t.action,
    level: report.level ?? t.level,
    attempt: t.attempt,
    score: report.score,
    ...(report.vitals ? { vitals: report.vitals } : {}),
  };
  const slot = Math.min(t.level, t.levelActions.length) - 1;
  if (slot >= 0) t.levelActions[slot] = (t.levelActions[slot] ?? 0) + 1;
  const levelUp = report.level === undefined && report.score > t.score;
  const gameOver = frame.state === "GAME_OVER" && t.state !== "GAME_OVER";
  if (levelUp) {
    t.level = report.score + 1;
    t.attempt = 1;
  } else if (gameOver && t.rule.atGameOver !== "episode-ends") {
    t.attempt += 1;
  }
  if (report.level !== undefined) t.level = report.level;
  t.score = report.score;
  t.bestScore = Math.max(t.bestScore, t.score);
  t.state = frame.state;
  return { header, levelUp, gameOver, win: frame.state === "WIN", stops: report.stops, notes: report.notes };
}

/**
 * Whether a step ends its batch, the rest of it dropped: the score or the game state changed, the kind told a
 * stop, or the episode's budget is spent. The runner plays by it and resume finds by it where a batch ended.
 */
export function endsBatch(effect: StepEffect, budgetSpent: boolean): boolean {
  return effect.levelUp || effect.gameOver || effect.win || effect.stops.length > 0 || budgetSpent;
}

/**
 * A new episode of the lifetime arm: the game starts over, the log and the global action count go on. Gives
 * the episode that ended and the kind's report of the new game's first frame (its INITIAL STATE's vitals).
 */
export function startEpisode(t: RunTally, frame: FrameData): { ended: EpisodeResult; report: StepReport } {
  const ended = currentEpisode(t);
  t.finished.push(ended);
  t.episode += 1;
  t.episodeActions = 0;
  const { report, counters } = episodeStart(t.rule, frame, t.episode);
  Object.assign(t, counters);
  return { ended, report };
}

export function currentEpisode(t: RunTally): EpisodeResult {
  return { episode: t.episode, levels: t.score, state: t.state, actions: t.episodeActions, levelActions: [...t.levelActions] };
}
