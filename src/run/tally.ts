// The counters a run's headers and summary come from, and the one rule for how a step moves them:
// the header shows the level and attempt the action was TAKEN on and the score AFTER it (as the paper's logs do);
// Level rises with the score, Attempt rises after a GAME_OVER and returns to 1 on a new level.
import type { TokenUsage } from "../agent/agent.ts";
import type { FrameData, GameState, ScreenFrame } from "../game-model.ts";
import type { HeaderVitals } from "../log/format.ts";
import type { EpisodeResult } from "../score/scorecard.ts";

export interface RunTally {
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
  /** Action number at which the current episode began (its initial section's number). */
  episodeStart: number;
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
 * Where an episode's counters start, from the game's first frame: a terminal game's level and score read off
 * its screen, its attempt the episode; a grid game on level 1, attempt 1.
 */
function episodeStart(frame: FrameData, episode: number) {
  return {
    level: frame.screen?.level ?? 1,
    attempt: frame.screen ? episode : 1,
    score: frame.screen?.score ?? frame.levelsCompleted,
    state: frame.state,
    levelActions: new Array<number>(frame.winLevels).fill(0),
  };
}

export function newTally(frame: FrameData): RunTally {
  const start = episodeStart(frame, 1);
  return {
    action: 0,
    ...start,
    winLevels: frame.winLevels,
    episode: 1,
    episodeStart: 0,
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
}

/** Moves the tally by one executed action and returns what the step's section header says. */
export function recordStep(t: RunTally, frame: FrameData): StepEffect {
  if (frame.screen) return recordScreenStep(t, frame, frame.screen);
  t.action += 1;
  const header = { action: t.action, level: t.level, attempt: t.attempt, score: frame.levelsCompleted };
  const slot = Math.min(t.level, t.levelActions.length) - 1;
  if (slot >= 0) t.levelActions[slot] = (t.levelActions[slot] ?? 0) + 1;
  const levelUp = frame.levelsCompleted > t.score;
  const gameOver = frame.state === "GAME_OVER" && t.state !== "GAME_OVER";
  if (levelUp) {
    t.level = frame.levelsCompleted + 1;
    t.attempt = 1;
  } else if (gameOver) {
    t.attempt += 1;
  }
  t.score = frame.levelsCompleted;
  t.bestScore = Math.max(t.bestScore, t.score);
  t.state = frame.state;
  return { header, levelUp, gameOver, win: frame.state === "WIN", stops: [] };
}

/**
 * A terminal game's step (NetHack): the header shows the dungeon level, the episode as the attempt and the
 * progression score after the action; the game ending is the episode's GAME_OVER.
 */
function recordScreenStep(t: RunTally, frame: FrameData, screen: ScreenFrame): StepEffect {
  t.action += 1;
  const header = {
    action: t.action,
    level: screen.level,
    attempt: t.episode,
    score: screen.score,
    ...(screen.vitals ? { vitals: screen.vitals } : {}),
  };
  const gameOver = frame.state === "GAME_OVER" && t.state !== "GAME_OVER";
  t.level = screen.level;
  t.attempt = t.episode;
  t.score = screen.score;
  t.bestScore = Math.max(t.bestScore, t.score);
  t.state = frame.state;
  return { header, levelUp: false, gameOver, win: false, stops: screen.stops };
}

/** A new episode of the lifetime arm: the game starts over, the log and the global action count go on. */
export function startEpisode(t: RunTally, frame: FrameData): void {
  t.finished.push(currentEpisode(t));
  t.episode += 1;
  t.episodeStart = t.action;
  Object.assign(t, episodeStart(frame, t.episode));
}

/** Actions spent in the current episode (the budget is per episode). */
export function episodeActions(t: RunTally): number {
  return t.action - t.episodeStart;
}

export function currentEpisode(t: RunTally): EpisodeResult {
  return { episode: t.episode, levels: t.score, state: t.state, actions: episodeActions(t), levelActions: [...t.levelActions] };
}
