// `prolong score --at N`: a finished run re-scored as if it had been given --max-actions N, read from its own
// log (no agent is called). The budget-matched comparison of the paper: a run to 1,000 actions scored at 500.
// Each section header says the level the action was taken on and the score after it, which is all RHAE needs;
// INITIAL STATE sections after the first start the episodes of a lifetime, and N applies per episode, as
// --max-actions does.
import { err, ok, type Result } from "neverthrow";
import { join } from "node:path";
import { prolongError, type ProlongError } from "../errors.ts";
import { loadLog } from "../log/load.ts";
import { SECTION_KIND } from "../native.ts";
import { readEvents } from "../run-files/events.ts";
import { bestEpisode, cardMetric, scoreEpisodes, type EpisodeResult, type Scorecard } from "./scorecard.ts";
import { billedTokens } from "./tokens.ts";
import { RUN_FILES } from "../run-files/layout.ts";

/** Per-episode results of the log's actions, counting only each episode's first `atActions` actions. */
export function episodesFromLog(
  logPath: string,
  winLevels: number,
  atActions: number,
): Result<{ episodes: EpisodeResult[]; loggedActions: number }, ProlongError> {
  const loaded = loadLog(logPath);
  if (loaded.isErr()) return err(loaded.error);
  const t = loaded.value.table;
  const episodes: EpisodeResult[] = [];
  // `last`: level and attempt of the last counted action; `over`: the cut fell right after a GAME_OVER (the next
  // action of the episode is on the same level with the attempt one higher, as the tally writes it).
  let current: {
    episode: number;
    start: number;
    score: number;
    actions: number;
    levelActions: number[];
    last: { level: number; attempt: number } | null;
    over: boolean | null;
  } | null = null;
  let loggedActions = 0;
  const close = () => {
    if (!current) return;
    // A game without levels to count (NetHack: winLevels 0) is never won by its score.
    const state = winLevels > 0 && current.score >= winLevels ? "WIN" : current.over ? "GAME_OVER" : "NOT_FINISHED";
    episodes.push({
      episode: current.episode,
      levels: current.score,
      state,
      actions: current.actions,
      levelActions: current.levelActions,
    });
  };
  for (let i = 0; i < t.count; i++) {
    const kind = t.kind[i];
    const action = t.action[i] as number;
    if (kind === SECTION_KIND.initial) {
      close();
      current = {
        episode: episodes.length + 1,
        start: action,
        score: t.score[i] as number,
        actions: 0,
        levelActions: new Array(winLevels).fill(0),
        last: null,
        over: null,
      };
      continue;
    }
    if (kind !== SECTION_KIND.action || !current) {
      return err(
        prolongError(
          "bad-log",
          `section ${i + 1} ${current ? "has no valid header" : "comes before the INITIAL STATE section"}`,
          { path: logPath, fix: "the log was edited or is not a prolong run's log; `prolong log sections` shows it" },
        ),
      );
    }
    loggedActions++;
    if (action - current.start > atActions) {
      if (current.over === null)
        current.over = current.last !== null && t.level[i] === current.last.level && t.attempt[i] === current.last.attempt + 1;
      continue;
    }
    current.last = { level: t.level[i] as number, attempt: t.attempt[i] as number };
    const slot = Math.min(t.level[i] as number, winLevels) - 1;
    if (slot >= 0) current.levelActions[slot] = (current.levelActions[slot] ?? 0) + 1;
    current.actions++;
    current.score = t.score[i] as number;
  }
  close();
  if (episodes.length === 0)
    return err(
      prolongError("bad-log", "the log has no INITIAL STATE section", {
        path: logPath,
        fix: "is this a prolong run's logs.txt?",
      }),
    );
  return ok({ episodes, loggedActions });
}

/**
 * The run's scorecard as if it had stopped at N actions per episode. Refuses when the run's own budget was
 * below N (its result at N is unknown), and when its log and scorecard disagree on the number of actions.
 */
export function rescoreAt(dir: string, card: Scorecard, atActions: number): Result<Scorecard, ProlongError> {
  const logPath = join(dir, RUN_FILES.log);
  if (card.settings.maxActions < atActions) {
    return err(
      prolongError(
        "budget-too-small",
        `played with --max-actions ${card.settings.maxActions}, fewer than ${atActions}: its score at ${atActions} actions is unknown`,
        { path: dir, fix: `score at most --at ${card.settings.maxActions}, or leave this run out` },
      ),
    );
  }
  const read = episodesFromLog(logPath, card.win_levels, atActions);
  if (read.isErr()) return err(read.error);
  const { episodes: results, loggedActions } = read.value;
  if (loggedActions !== card.actions || results.length !== card.episodes.length) {
    return err(
      prolongError(
        "log-mismatch",
        `the log holds ${loggedActions} action(s) in ${results.length} episode(s), the scorecard says ${card.actions} in ${card.episodes.length}`,
        { path: logPath, fix: "the log or the scorecard was edited or cut; `prolong verify` the run" },
      ),
    );
  }
  const spend = spendBefore(join(dir, RUN_FILES.events), atActions);
  if (spend.isErr()) return err(spend.error);
  // An episode the cut did not shorten ends as the scorecard says (the log does not record the final state).
  // Scored by the run's own metric (NetHack's progression, not RHAE against no baselines).
  const episodes = scoreEpisodes(
    card.level_baseline_actions,
    results.map((e, i) => {
      const played = card.episodes[i];
      return played && played.actions === e.actions ? { ...e, state: played.state } : e;
    }),
    cardMetric(card),
  );
  const best = bestEpisode(episodes);
  const cut = results.some((e, i) => e.actions < (card.episodes[i]?.actions ?? 0));
  return ok({
    ...card,
    settings: { ...card.settings, maxActions: atActions },
    end_reason: cut ? "max-actions" : card.end_reason,
    end_detail: cut ? `re-scored at ${atActions} actions from the log` : card.end_detail,
    levels_completed: best.levels_completed,
    level_actions: best.level_actions,
    level_scores: best.level_scores,
    score: best.score,
    best_episode: best.episode,
    actions: results.reduce((n, e) => n + e.actions, 0),
    episodes,
    agent_calls: spend.value.calls,
    tokens: spend.value.tokens,
    billed_tokens: billedTokens(spend.value.tokens),
  });
}

/**
 * Agent calls and tokens spent before the cut, from events.jsonl: a call counts when it was made with fewer
 * than N actions taken in its episode (the calls a run with --max-actions N would also have made).
 */
function spendBefore(
  eventsPath: string,
  atActions: number,
): Result<{ calls: number; tokens: Scorecard["tokens"] }, ProlongError> {
  const events = readEvents(eventsPath);
  if (events.isErr()) return err(events.error);
  let episodeStart = 0;
  const counted = new Set<number>();
  const tokens = { input: 0, cached: 0, output: 0 };
  for (const e of events.value) {
    if (e.kind === "episode-start") episodeStart = (e as { action: number }).action;
    else if (e.kind === "agent-call") {
      const call = e as unknown as { turn: number; action: number };
      if (call.action - episodeStart < atActions) counted.add(call.turn);
    } else if (e.kind === "agent-reply") {
      const reply = e as unknown as { turn: number; tokens?: Scorecard["tokens"] };
      if (counted.has(reply.turn) && reply.tokens) {
        tokens.input += reply.tokens.input;
        tokens.cached += reply.tokens.cached;
        tokens.output += reply.tokens.output;
      }
    }
  }
  return ok({ calls: counted.size, tokens });
}
