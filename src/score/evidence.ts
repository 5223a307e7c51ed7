// Scores that check their evidence: before `score` tables a scorecard it checks it against the run's log. The
// card must agree with itself (every episode's score is what its own levels, actions and baselines give; the
// run's figures are its best episode's; its action counts add up) and with the last section header of
// logs.txt (the action count, the last episode's Score and the level its last action was on). A forged card —
// a self-consistent 7/7 at 115 beside a log that reached 4 levels, levels or actions that differ, a card with
// no log — is refused by default and named, or, with --trust-scorecards, scored and marked unverified.
// The log is never read whole (log/last-header.ts: a tail read, the index when the last section is long), so
// checking 1,000 runs costs about as much as reading their scorecards. Kind-blind: what a header's Score means
// is the run's metric's (scorecard.ts), never a kind's.
import { join } from "node:path";
import { readLastHeader } from "../log/last-header.ts";
import { RUN_FILES } from "../run-files/layout.ts";
import { bestEpisode, cardMetric, loggedScore, scoreEpisodes, type EpisodeScore, type Scorecard } from "./scorecard.ts";

/** What a run's log says of its scorecard: it matches, there is no log, or what differs. */
export type Evidence = "matches" | "no-log" | `mismatch: ${string}`;

/** Whether the evidence backs the card (only "matches" does). */
export function isVerified(e: Evidence): boolean {
  return e === "matches";
}

/** The card checked against itself and against the last header of the log in `dir`. */
export function scorecardEvidence(dir: string, card: Scorecard): Evidence {
  const inner = selfCheck(card);
  if (inner !== null) return `mismatch: ${inner}`;
  const read = readLastHeader(join(dir, RUN_FILES.log), join(dir, RUN_FILES.index));
  if (read.isErr()) return `mismatch: ${RUN_FILES.log}: ${read.error.message}`;
  if (read.value === null) return "no-log";
  const h = read.value.header;
  if (h.action !== card.actions)
    return `mismatch: the log's last section is action ${h.action}, the scorecard counts ${card.actions} action(s)`;
  const last = card.episodes[card.episodes.length - 1]!;
  const kind = last.actions > 0 ? "action" : "initial";
  if (h.kind !== kind)
    return `mismatch: the log ends with ${h.kind === "initial" ? "an INITIAL STATE" : "an action"} section, the scorecard's last episode took ${last.actions} action(s)`;
  const metric = cardMetric(card);
  const score = loggedScore(metric, last);
  if (h.score !== score)
    return `mismatch: the log's last header says Score: ${h.score}, the scorecard's last episode stands for Score: ${score} (${scoreWords(metric, last)})`;
  if (last.actions > 0 && last.level_actions.length > 0) {
    const slot = Math.min(h.level, last.level_actions.length) - 1;
    if (slot < 0 || (last.level_actions[slot] ?? 0) === 0)
      return `mismatch: the log's last action was taken on level ${h.level}, where the scorecard's last episode counts no action`;
  }
  return "matches";
}

function scoreWords(metric: ReturnType<typeof cardMetric>, e: EpisodeScore): string {
  return metric === "progression" ? `a progression of ${e.score} %` : `${e.levels_completed} level(s) completed`;
}

/** What in the card disagrees with the rest of it, in words; null when it is consistent. */
function selfCheck(card: Scorecard): string | null {
  const total = card.episodes.reduce((n, e) => n + e.actions, 0);
  if (total !== card.actions) return `the scorecard counts ${card.actions} action(s), its episodes ${total}`;
  for (const e of card.episodes) {
    if (e.level_actions.length === 0) continue;
    const perLevel = e.level_actions.reduce((n, x) => n + x, 0);
    if (perLevel !== e.actions)
      return `episode ${e.episode} took ${e.actions} action(s), its actions per level add up to ${perLevel}`;
  }
  const metric = cardMetric(card);
  const again = scoreEpisodes(
    card.level_baseline_actions,
    card.episodes.map((e) => ({
      episode: e.episode,
      levels: loggedScore(metric, e),
      state: e.state,
      actions: e.actions,
      levelActions: e.level_actions,
    })),
    metric,
  );
  for (const [i, e] of card.episodes.entries()) {
    const r = again[i]!;
    if (r.episode !== e.episode) return `episode ${i + 1} is numbered ${e.episode}`;
    if (r.levels_completed !== e.levels_completed || r.score !== e.score || !same(r.level_scores, e.level_scores))
      return `episode ${e.episode} says score ${e.score}; its own levels completed, actions per level and baselines give ${r.score}`;
    if (r.best_so_far !== e.best_so_far)
      return `episode ${e.episode} says best so far ${e.best_so_far}, its episodes give ${r.best_so_far}`;
  }
  const best = bestEpisode(again);
  if (
    card.best_episode !== best.episode ||
    card.score !== best.score ||
    card.levels_completed !== best.levels_completed ||
    !same(card.level_actions, best.level_actions) ||
    !same(card.level_scores, best.level_scores)
  )
    return `the scorecard says score ${card.score} (episode ${card.best_episode}), its best episode is ${best.episode} with ${best.score}`;
  return null;
}

function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
