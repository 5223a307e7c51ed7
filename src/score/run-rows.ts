// One row per run, for `score --json` and `score --csv`: what a researcher needs to redo any table or plot
// elsewhere (directory, game, arm, seed, levels, RHAE, actions and per-level actions, tokens, wall time, why the
// run ended, whether it was scored). Unfinished runs are rows too, with their scores empty. Levels and the
// score are the first episode's (pass@1's unit); every episode's score is listed for lifetimes.
import { csvText } from "../terminal-text.ts";
import type { Arm } from "./arms.ts";
import type { Evidence } from "./evidence.ts";
import { passEpisode, type ScoreMetric } from "./scorecard.ts";
import { TOOL_CLASSES } from "./tool-classes.ts";
import { runToolUse, summarizeToolUse, type ToolUseSummary } from "./tool-use.ts";

export interface RunRow {
  readonly dir: string;
  readonly run: string;
  readonly game: string;
  readonly gameVersion: string | null;
  readonly arm: string;
  readonly fingerprint: string;
  readonly seed: number;
  /** scored: in the tables (agent-failed runs included); unfinished: shown, not scored. */
  readonly status: "scored" | "unfinished";
  readonly endReason: string;
  readonly endDetail: string;
  readonly levels: number | null;
  readonly winLevels: number | null;
  /** The first episode's score (what pass@1 counts), in the unit `metric` names (RHAE, or progression % for NetHack). */
  readonly rhae: number | null;
  /** Every episode's score in order (one for a run of one episode); the best of them is scorecard.json's score. */
  readonly episodeScores: number[] | null;
  /** What `rhae` measures: the column keeps its name, the metric says which score it holds. */
  readonly metric: ScoreMetric;
  readonly actions: number | null;
  /** Actions spent on each level of the first episode. */
  readonly levelActions: number[] | null;
  readonly agentCalls: number | null;
  readonly tokens: { readonly input: number; readonly cached: number; readonly output: number } | null;
  readonly billedTokens: number | null;
  readonly wallMs: number | null;
  /** What the agent's tool calls were for, from trajectory.jsonl (docs/trajectory.md); null without one. */
  readonly toolUse: ToolUseSummary | null;
  /**
   * What the run's log says of its scorecard (score/evidence.ts): "matches", or, for a run scored under
   * --trust-scorecards, "no-log" or "mismatch: …"; null for an unfinished run.
   */
  readonly evidence: Evidence | null;
}

export function runRows(arms: readonly Arm[]): RunRow[] {
  const rows: RunRow[] = [];
  for (const arm of arms) {
    for (const { dir, card, evidence } of arm.runs) {
      rows.push({
        dir,
        run: card.run,
        game: card.game_id,
        gameVersion: card.game_version ?? null,
        arm: arm.name,
        fingerprint: arm.fingerprint,
        seed: card.settings.seed,
        status: "scored",
        endReason: card.end_reason,
        endDetail: card.end_detail,
        levels: passEpisode(card).levels_completed,
        winLevels: card.win_levels,
        rhae: passEpisode(card).score,
        episodeScores: card.episodes.map((e) => e.score),
        metric: arm.metric,
        actions: card.actions,
        levelActions: [...passEpisode(card).level_actions],
        agentCalls: card.agent_calls,
        tokens: { ...card.tokens },
        billedTokens: card.billed_tokens,
        wallMs: card.wall_ms,
        toolUse: toolUseSummaryOf(dir),
        evidence: evidence ?? null,
      });
    }
    for (const u of arm.unfinished) {
      const c = u.unfinished!;
      rows.push({
        dir: u.dir,
        run: "",
        game: c.game,
        gameVersion: null,
        arm: arm.name,
        fingerprint: arm.fingerprint,
        seed: c.seed,
        status: "unfinished",
        endReason: "unfinished",
        endDetail: u.reason,
        levels: null,
        winLevels: null,
        rhae: null,
        episodeScores: null,
        metric: arm.metric,
        actions: null,
        levelActions: null,
        agentCalls: null,
        tokens: null,
        billedTokens: null,
        wallMs: null,
        toolUse: null,
        evidence: null,
      });
    }
  }
  return rows;
}

function toolUseSummaryOf(dir: string): ToolUseSummary | null {
  const use = runToolUse(dir);
  return use ? summarizeToolUse(use) : null;
}

const CSV_COLUMNS = [
  "dir",
  "run",
  "game",
  "game_version",
  "arm",
  "fingerprint",
  "seed",
  "status",
  "end_reason",
  "end_detail",
  "levels",
  "win_levels",
  "rhae",
  "actions",
  "level_actions",
  "agent_calls",
  "input_tokens",
  "cached_tokens",
  "output_tokens",
  "billed_tokens",
  "wall_ms",
  "episode_scores",
  "metric",
  "tool_calls",
  ...TOOL_CLASSES.map((c) => `calls_${c.replace("-", "_")}`),
  "log_bytes_pulled_per_turn",
  "log_bytes_given_per_turn",
  "mean_pulled_share",
  "evidence",
] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end in CRLF. */
/** One CSV field: quoted when it must be; a control character in it (an agent's stderr) as its picture. */
function csvField(x: string | number | null): string {
  if (x === null) return "";
  const s = csvText(String(x));
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * The rows as CSV with a header line; per-level actions as one field joined by spaces. `at_actions` is the
 * budget a set was re-scored at (`score --at`), empty for the runs as played; several budgets stack their rows.
 */
export function runRowsCsv(sets: readonly { readonly at: number | null; readonly rows: readonly RunRow[] }[]): string {
  const lines = [["at_actions", ...CSV_COLUMNS].join(",")];
  for (const { at, rows } of sets) {
    for (const r of rows) {
      const cells: (string | number | null)[] = [
        at,
        r.dir,
        r.run,
        r.game,
        r.gameVersion,
        r.arm,
        r.fingerprint,
        r.seed,
        r.status,
        r.endReason,
        r.endDetail,
        r.levels,
        r.winLevels,
        r.rhae,
        r.actions,
        r.levelActions?.join(" ") ?? null,
        r.agentCalls,
        r.tokens?.input ?? null,
        r.tokens?.cached ?? null,
        r.tokens?.output ?? null,
        r.billedTokens,
        r.wallMs,
        r.episodeScores?.join(" ") ?? null,
        r.metric,
        r.toolUse?.calls ?? null,
        ...TOOL_CLASSES.map((c) => r.toolUse?.byClass[c] ?? null),
        r.toolUse?.logBytesPulledPerTurn ?? null,
        r.toolUse?.logBytesGivenPerTurn ?? null,
        r.toolUse?.meanPulledShare ?? null,
        r.evidence,
      ];
      lines.push(cells.map(csvField).join(","));
    }
  }
  return lines.join("\r\n") + "\r\n";
}
