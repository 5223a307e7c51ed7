// scorecard.json: what one finished run scored, the one file `prolong score` reads per run. Its schema (valibot,
// checked on every read), the builder finish.ts writes it with, and the rule for scoring episodes (used again
// by rescore.ts so a run cut at N actions is scored exactly as a run that stopped there).
// Top-level names follow ARC's scorecard where they exist (game_id, levels_completed, level_actions,
// level_baseline_actions, level_scores, score); the settings block is the run's RunConfig, one definition.
import { envKind } from "../game/kinds.ts";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import type { TokenUsage } from "../agent/agent.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { FILE_CAPS, readFileIfPresent, readRegularText } from "../safe-file.ts";
import { armOf } from "../config/arm.ts";
import { RunConfigSchema, type RunConfig } from "../config/run-config.ts";
import type { GameState } from "../game-model.ts";
import { ProvenanceSchema, type Provenance } from "./provenance.ts";
import { gameScore, levelResults, levelScore } from "./rhae.ts";
import { billedTokens } from "./tokens.ts";

/** Marks the file as ours: a scorecard without it (ARC's, an older prolong's) is named and skipped. */
export const SCORECARD_FORMAT = "prolong-scorecard/1";

/** Why a run ended. agent-unavailable: the agent's model API could not be used (unreachable, refused the key or model, kept failing). */
/** game-over: a game that ends for good (NetHack: the hero died) ended the last episode. */
export const END_REASONS = [
  "win",
  "max-actions",
  "game-over",
  "agent-stopped",
  "agent-failed",
  "agent-unavailable",
  "game-failed",
  "log-failed",
  "interrupted",
] as const;
export type EndReason = (typeof END_REASONS)[number];
/** A run that ended for these reasons is not over (the game or the run's files failed, or the user stopped it): `prolong resume` continues it, `prolong score` skips it. */
export const RESUMABLE: readonly EndReason[] = ["interrupted", "game-failed", "log-failed", "agent-unavailable"];

/** What one episode of a run did: the input scoring works from (the levels it completed, not its RHAE). */
export interface EpisodeResult {
  readonly episode: number;
  /** Levels completed (the log's Score). */
  readonly levels: number;
  readonly state: GameState;
  readonly actions: number;
  readonly levelActions: readonly number[];
}

const Count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const Score = v.pipe(v.number(), v.finite(), v.minValue(0));
/** RHAE is at most 115 a level (and so a game); BALROG progression at most 100 %: more is a forged file. */
const Points = v.pipe(Score, v.maxValue(115, "a score is at most 115 (RHAE's ceiling)"));

const EpisodeScoreSchema = v.object({
  episode: v.pipe(v.number(), v.integer(), v.minValue(1)),
  levels_completed: Count,
  state: v.picklist(["NOT_PLAYED", "NOT_FINISHED", "WIN", "GAME_OVER"]),
  actions: Count,
  level_actions: v.array(Count),
  level_scores: v.array(Points),
  /** RHAE of this episode, 0..100. */
  score: Points,
  /** The best RHAE of episodes 1..this one (the lifetime curve). */
  best_so_far: Points,
});

export const ScorecardSchema = v.object({
  format: v.literal(SCORECARD_FORMAT),
  /** "<stamp>/<name>", as in events. */
  run: v.string(),
  game_id: v.pipe(v.string(), v.minLength(1)),
  settings: RunConfigSchema,
  /** The run's arm: its name and the fingerprint of its settings (config/arm.ts). Absent in older scorecards. */
  arm: v.optional(v.object({ name: v.string(), fingerprint: v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/)) })),
  /** The game's version (a hash of its definition, or the environment's own version name). Absent in older scorecards. */
  game_version: v.optional(v.string()),
  /** What produced the run: the build and the outside parts it used (score/provenance.ts). Absent in older scorecards. */
  provenance: v.optional(ProvenanceSchema),
  /** What `score` measures: RHAE (grid games) or BALROG progression in percent (NetHack). Absent: RHAE. */
  metric: v.optional(v.picklist(["rhae", "progression"])),
  end_reason: v.picklist(END_REASONS),
  end_detail: v.string(),
  /** The best episode's figures (the only episode unless --episodes K). */
  levels_completed: Count,
  win_levels: Count,
  level_actions: v.array(Count),
  level_baseline_actions: v.array(Count),
  level_scores: v.array(Points),
  /** RHAE of the best episode, 0..100. */
  score: Points,
  best_episode: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** Actions over the whole run (all episodes), RESETs included. */
  actions: Count,
  episodes: v.pipe(v.array(EpisodeScoreSchema), v.minLength(1)),
  agent_calls: Count,
  tokens: v.object({ input: Count, cached: Count, output: Count }),
  /** (input − cached) + 6 × output + 0.1 × cached. */
  billed_tokens: Score,
  tamper_events: Count,
  wall_ms: Count,
});

export type Scorecard = v.InferOutput<typeof ScorecardSchema>;
/** What a run's score measures. */
export type ScoreMetric = NonNullable<Scorecard["metric"]>;

/** The metric a scorecard records (older scorecards, which predate the field, are RHAE). */
export function cardMetric(card: Scorecard): ScoreMetric {
  return card.metric ?? "rhae";
}

/** A score column's name for the metric. */
export function metricLabel(m: ScoreMetric): string {
  return m === "progression" ? "progression %" : "RHAE";
}
export type EpisodeScore = v.InferOutput<typeof EpisodeScoreSchema>;

/** Scores each episode (per-level scores and RHAE) and carries the best RHAE so far along the lifetime. */
export function scoreEpisodes(
  baselines: readonly number[],
  episodes: readonly EpisodeResult[],
  metric: "rhae" | "progression" = "rhae",
): EpisodeScore[] {
  let best = 0;
  if (metric === "progression") {
    // A NetHack episode's score is its best BALROG progression (the log's Score is it × 10,000), in percent.
    return episodes.map((e) => {
      const score = e.levels / 100;
      best = Math.max(best, score);
      return {
        episode: e.episode,
        levels_completed: 0,
        state: e.state,
        actions: e.actions,
        level_actions: [],
        level_scores: [],
        score,
        best_so_far: best,
      };
    });
  }
  return episodes.map((e) => {
    const levels = levelResults(baselines, e.levelActions, e.levels);
    const score = gameScore(levels);
    best = Math.max(best, score);
    return {
      episode: e.episode,
      levels_completed: e.levels,
      state: e.state,
      actions: e.actions,
      level_actions: [...e.levelActions],
      level_scores: levels.map(levelScore),
      score,
      best_so_far: best,
    };
  });
}

/**
 * The log's Score an episode's figures stand for: scoreEpisodes read backwards. RHAE: the levels completed;
 * progression: the percent × 100 (a forged percent that is no whole number of hundredths gives a Score whose
 * re-scoring differs, so it is caught).
 */
export function loggedScore(metric: ScoreMetric, e: EpisodeScore): number {
  return metric === "progression" ? Math.round(e.score * 100) : e.levels_completed;
}

/** The episode a run is scored by: highest RHAE, then most levels, then the earliest. */
export function bestEpisode(scores: readonly EpisodeScore[]): EpisodeScore {
  const first = scores[0];
  if (!first) throw new Error("a run without episodes reached the scorecard");
  return scores.reduce(
    (a, b) => (b.score > a.score || (b.score === a.score && b.levels_completed > a.levels_completed) ? b : a),
    first,
  );
}

/**
 * The episode pass@1 counts: the first, one episode at the run's stated budget. A run of one episode has only
 * it; a lifetime's (--episodes K) later episodes and its best of K, which used K times the actions, are
 * reported apart and named so.
 */
export function passEpisode(card: Scorecard): EpisodeScore {
  return card.episodes[0]!;
}

export interface ScorecardInput {
  readonly run: string;
  readonly config: RunConfig;
  readonly gameVersion?: string;
  readonly provenance?: Provenance;
  readonly end: { readonly reason: EndReason; readonly detail: string };
  readonly baselines: readonly number[];
  readonly winLevels: number;
  readonly episodes: readonly EpisodeResult[];
  readonly actions: number;
  readonly agentCalls: number;
  readonly tokens: TokenUsage;
  readonly tamperEvents: number;
  readonly wallMs: number;
}

/** The metric a run is scored by, from its settings: NetHack runs by BALROG progression, grid games by RHAE. */
export function configMetric(config: Pick<ScorecardInput["config"], "env">): ScoreMetric {
  return envKind(config.env).metric;
}

export function buildScorecard(i: ScorecardInput): Scorecard {
  const metric = configMetric(i.config);
  const episodes = scoreEpisodes(i.baselines, i.episodes, metric);
  const best = bestEpisode(episodes);
  return {
    format: SCORECARD_FORMAT,
    run: i.run,
    game_id: i.config.game,
    settings: i.config,
    arm: armOf(i.config),
    ...(i.gameVersion !== undefined ? { game_version: i.gameVersion } : {}),
    ...(i.provenance !== undefined ? { provenance: i.provenance } : {}),
    ...(metric === "progression" ? { metric } : {}),
    end_reason: i.end.reason,
    end_detail: i.end.detail,
    levels_completed: best.levels_completed,
    win_levels: i.winLevels,
    level_actions: best.level_actions,
    level_baseline_actions: [...i.baselines],
    level_scores: best.level_scores,
    score: best.score,
    best_episode: best.episode,
    actions: i.actions,
    episodes,
    agent_calls: i.agentCalls,
    tokens: { input: i.tokens.input, cached: i.tokens.cached, output: i.tokens.output },
    billed_tokens: billedTokens(i.tokens),
    tamper_events: i.tamperEvents,
    wall_ms: Math.max(0, Math.round(i.wallMs)),
  };
}

/** Checks a parsed JSON value; `path` names the file in the error. */
export function validateScorecard(json: unknown, path: string): Result<Scorecard, ProlongError> {
  const parsed = v.safeParse(ScorecardSchema, json);
  if (parsed.success) return ok(parsed.output);
  const issue = parsed.issues[0];
  const field = issue.path?.map((p) => String(p.key)).join(".") ?? "(top level)";
  const foreign = field === "format";
  return err(
    prolongError(
      foreign ? "foreign-scorecard" : "bad-scorecard",
      foreign
        ? `not a prolong scorecard (no "format": "${SCORECARD_FORMAT}"): written by another harness or an older prolong`
        : `field ${field}: ${issue.message}`,
      {
        path,
        fix: foreign
          ? "score only run directories written by this prolong"
          : "the file was edited or cut; re-run or `prolong resume` the run to write it again",
      },
    ),
  );
}

export function readScorecard(path: string): Result<Scorecard, ProlongError> {
  const read = readRegularText(path, FILE_CAPS.scorecard, "the scorecard");
  if (read.isErr()) return err(read.error.code === "missing-file" ? { ...read.error, code: "no-scorecard" } : read.error);
  let json: unknown;
  try {
    json = JSON.parse(read.value);
  } catch (e) {
    return err(
      prolongError("bad-scorecard", `not JSON (${(e as Error).message}): cut short while being written?`, {
        path,
        fix: "re-run the run, or `prolong resume` it to write the scorecard again",
      }),
    );
  }
  return validateScorecard(json, path);
}

/** What any ARC-style scorecard says at its top (ours, ARC's, the published harness's), for display. */
export interface ScorecardSummary {
  readonly gameId: string | null;
  readonly levelsCompleted: number | null;
  readonly winLevels: number | null;
  /** RHAE, 0..100 (BALROG progression in percent when the metric says so). */
  readonly rhae: number | null;
  /** What `rhae` measures: "progression" for NetHack runs, else RHAE. */
  readonly metric: ScoreMetric;
}

// The top-level names ARC's scorecard and ours share (ScorecardSchema follows them), each optional here.
const ScorecardSummarySchema = v.looseObject({
  game_id: v.optional(v.string()),
  levels_completed: v.optional(v.number()),
  win_levels: v.optional(v.number()),
  score: v.optional(v.number()),
  metric: v.optional(v.string()),
});

/** The summary of a scorecard of any ARC-style harness; `prolong view` shows it. Null when the file is absent. */
export function readScorecardSummary(path: string): Result<ScorecardSummary | null, ProlongError> {
  const read = readFileIfPresent(path, FILE_CAPS.scorecard, "the scorecard");
  if (read.isErr()) return err(read.error);
  if (read.value === null) return ok(null);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(read.value));
  } catch (e) {
    return err(prolongError("bad-scorecard", `not JSON (${(e as Error).message})`, { path }));
  }
  const parsed = v.safeParse(ScorecardSummarySchema, json);
  if (!parsed.success) return err(prolongError("bad-scorecard", parsed.issues[0].message, { path }));
  const c = parsed.output;
  return ok({
    gameId: c.game_id ?? null,
    levelsCompleted: c.levels_completed ?? null,
    winLevels: c.win_levels ?? null,
    rhae: c.score ?? null,
    metric: c.metric === "progression" ? "progression" : "rhae",
  });
}
