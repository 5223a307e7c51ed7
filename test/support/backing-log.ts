// A logs.txt that backs a hand-made scorecard as `score`'s evidence check reads it (src/score/evidence.ts): the
// initial section and the last action's, whose header carries the card's action count, its last episode's
// Score (by the card's metric) and the level its last action was on. For tests that score cards built by
// buildScorecard without playing a run; the log is real log text (format.ts writes it), only short.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { writeLog, type LogSection } from "../../src/log/format.ts";
import { cardMetric, loggedScore, type Scorecard } from "../../src/score/scorecard.ts";

export function writeBackingLog(dir: string, card: Scorecard): void {
  const board = { width: 2, height: 2, cells: new Uint8Array(4) };
  const last = card.episodes[card.episodes.length - 1]!;
  const score = loggedScore(cardMetric(card), last);
  const sections: LogSection[] = [{ header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board }];
  if (last.actions > 0) {
    const level = Math.max(1, last.level_actions.findLastIndex((n) => n > 0) + 1);
    sections.push({ header: { action: card.actions, level, attempt: 1, score, kind: "action" }, frames: [], board });
  } else sections[0]!.header = { action: card.actions, level: 1, attempt: 1, score, kind: "initial" };
  writeFileSync(path.join(dir, "logs.txt"), writeLog(sections, "hex"));
}
