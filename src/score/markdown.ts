// `prolong score`'s Markdown: the tables people paste into notes and docs/experiments.md.
import { settingText } from "../config/arm.ts";
import { conflictText } from "./arms.ts";
import { scoreRuns, type BudgetScores } from "./collect.ts";
import type { SkippedRun } from "./find-runs.ts";
import type { ArmReport, CompareReport, GameRow } from "./report.ts";
import type { Evidence } from "./evidence.ts";
import { metricLabel, type ScoreMetric } from "./scorecard.ts";
import { BOOTSTRAP_DEFAULTS, type Interval, type MeanSE } from "./stats.ts";

export interface MarkdownOptions {
  /** USD per million billed tokens: adds dollar columns. */
  readonly pricePerMTok?: number;
  /** Confidence level, for the column names. */
  readonly level: number;
}

const f1 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(1));
const f2 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(2));
/** The units behind an interval, printed beside it: "3 games × 10 runs" reads as the design it came from. */
export function unitsText(i: Pick<Interval, "games" | "runs">): string {
  return `${i.games} game${i.games === 1 ? "" : "s"}, ${i.runs} run${i.runs === 1 ? "" : "s"}`;
}
/** An estimate with its interval and the units behind it; one run in all has no interval: `n=1`. */
const ci = (i: Interval, f = f1) =>
  Number.isNaN(i.low) ? `${f(i.estimate)} (n=1)` : `${f(i.estimate)} [${f(i.low)}, ${f(i.high)}] (${unitsText(i)})`;
const signed = (i: Interval, f = f1) =>
  `${i.estimate > 0 ? "+" : ""}${Number.isNaN(i.low) ? `${f(i.estimate)} (n=1)` : `${f(i.estimate)} [${f(i.low)}, ${f(i.high)}] (${unitsText(i)})`}`;
/** BALROG's figure: mean ± standard error over runs (n=1 for one run). */
export function meanSEText(m: MeanSE, f = f2): string {
  return Number.isNaN(m.se) ? `${f(m.mean)} (n=1)` : `${f(m.mean)} ± ${f(m.se)} (${m.n} runs)`;
}
const int = (x: number) => Math.round(x).toLocaleString("en-US");

function tokens(billed: number, perLevel: number | null, o: MarkdownOptions): string[] {
  const cols = [int(billed), perLevel === null ? "–" : int(perLevel)];
  if (o.pricePerMTok !== undefined) {
    const usd = (t: number) => `$${((t / 1e6) * o.pricePerMTok!).toFixed(2)}`;
    cols.push(perLevel === null ? "–" : usd(perLevel));
  }
  return cols;
}

function tokenHeads(o: MarkdownOptions): string[] {
  return ["billed tokens", "billed / level", ...(o.pricePerMTok !== undefined ? ["$ / level"] : [])];
}

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The arm's settings as the flags that give them (all of them, defaults too: the fingerprint covers them). */
export function settingsLine(r: ArmReport): string {
  return Object.entries(r.settings)
    .map(([k, v]) => settingText(k, v))
    .join(" ");
}

/** What every bracket is, said once per table. */
const BRACKETS = (pct: number) =>
  `${pct}% hierarchical bootstrap CI (games resampled, then runs within each game), with the games and runs behind it; n=1: one run, no interval.`;

const COUNTING =
  "failed: runs whose agent failed, counted at the score they had reached; unfinished: runs with no final scorecard (running, crashed, interrupted, the game failed), not counted — `prolong resume` finishes them.";

/** Whether the metric's games have levels to count: NetHack's progression has none (its dungeon depth is in
 * the progression itself), so its tables leave the level columns out instead of showing 0/0. */
function hasLevels(m: ScoreMetric): boolean {
  return m !== "progression";
}

/** The row without the cells at `drop` (the level columns of a metric without levels). */
function without<T>(cells: T[], drop: readonly number[]): T[] {
  return cells.filter((_, i) => !drop.includes(i));
}

export function armMarkdown(r: ArmReport, o: MarkdownOptions): string {
  const pct = Math.round(o.level * 100);
  const levelled = hasLevels(r.metric);
  /** The two level columns of the per-game table. */
  const drop = levelled ? [] : [4, 5];
  const k = r.overall.k.min === r.overall.k.max ? `${r.overall.k.min}` : `${r.overall.k.min}–${r.overall.k.max}`;
  const rows = r.games.map((g) => [
    g.game,
    String(g.runs),
    String(g.failed),
    String(g.unfinished),
    `${f1(g.levels)}/${g.winLevels}`,
    `${g.bestLevels}/${g.winLevels}`,
    f2(g.passAt1),
    f2(g.bestAtK),
    f1(g.meanActions),
    ...tokens(g.billedTokens, g.billedPerLevel, o),
  ]);
  const o2 = r.overall;
  rows.push([
    `**all ${o2.games} game${o2.games === 1 ? "" : "s"}**`,
    String(o2.runs),
    String(o2.failed),
    String(o2.unfinished),
    `${o2.levelsCompleted}/${o2.levelsTotal} (runs)`,
    "",
    `**${ci(o2.passAt1, f2)}**`,
    `**${ci(o2.bestAtK, f2)}**`,
    "",
    ...tokens(o2.billedTokens, o2.billedPerLevel, o),
  ]);
  const curve = o2.bestAtKCurve.map((x, i) => `k=${i + 1}: ${ci(x, f2)}`).join("; ");
  const score = metricLabel(r.metric);
  const parts = [
    `### ${r.name}`,
    "",
    `Settings (fingerprint ${r.fingerprint}): \`${settingsLine(r)}\``,
    "",
    `Produced by: ${r.provenance.join(" | ")}${r.provenance.length > 1 ? " (mixed builds, pooled by --allow-mixed-builds)" : ""}`,
    "",
    table(
      without(
        [
          "game",
          "runs",
          "failed",
          "unfinished",
          "levels (mean)",
          "levels (best)",
          `pass@1 ${score}${r.lifetime ? " (episode 1)" : ""}`,
          `best@${k} ${score}`,
          "actions (mean)",
          ...tokenHeads(o),
        ],
        drop,
      ),
      rows.map((row) => without(row, drop)),
    ),
    "",
    `${levelled ? `Levels per game, mean over games: ${ci(o2.levels, f2)}. ` : ""}best@k over games (the expected best of k runs): ${curve}.`,
    `Mean ± standard error over runs (as BALROG reports it): ${meanSEText(o2.meanSE)}.`,
    `Brackets: ${BRACKETS(pct)} runs: scored runs; ${COUNTING}`,
  ];
  const life = r.lifetime;
  if (life) {
    const n = life.actionsPerEpisode;
    parts.push(
      "",
      `Lifetime of ${life.episodes} episodes on one seed, ${n} actions per episode. pass@1 above is the first episode (one episode at ${n} actions). ${score}, mean over games:`,
      "",
      table(
        ["episodes", score, "actions used"],
        [
          ["first (pass@1)", ci(life.first, f2), `${n}`],
          ["last", ci(life.last, f2), `up to ${life.episodes} × ${n}`],
          [`best of ${life.episodes}`, ci(life.bestOfK, f2), `up to ${life.episodes} × ${n}`],
        ],
      ),
      "",
      "Per episode (mean over games of the mean over runs):",
      "",
      table(
        without(["episode", score, "best so far", "levels"], levelled ? [] : [3]),
        life.curve.map((l) => without([String(l.episode), f2(l.passAt1), f2(l.bestSoFar), f2(l.levels)], levelled ? [] : [3])),
      ),
    );
  }
  return parts.join("\n");
}

/** The k every arm can be compared at: the fewest runs any game has in any arm. */
export function commonK(arms: readonly ArmReport[]): number {
  return Math.min(...arms.map((a) => a.overall.bestAtKCurve.length));
}

/** Every arm on one line each, and every game across the arms: the table a sweep needs (more than two arms). */
export function armsMarkdown(arms: readonly ArmReport[], o: MarkdownOptions): string {
  const pct = Math.round(o.level * 100);
  const k = commonK(arms);
  const score = metricLabel(arms[0]!.metric);
  const levelled = arms.some((a) => hasLevels(a.metric));
  const drop = levelled ? [] : [8];
  const rows = arms.map((a) =>
    without(
      [
        a.name,
        String(a.overall.games),
        String(a.overall.runs),
        String(a.overall.failed),
        String(a.overall.unfinished),
        ci(a.overall.passAt1, f2),
        meanSEText(a.overall.meanSE),
        ci(a.overall.bestAtKCurve[k - 1]!, f2),
        ci(a.overall.levels, f2),
        int(a.overall.billedTokens),
      ],
      drop,
    ),
  );
  const games = [...new Set(arms.flatMap((a) => a.games.map((g) => g.game)))].sort();
  const cell = (a: ArmReport, game: string) => {
    const g = a.games.find((x) => x.game === game);
    return g ? `${f2(g.passAt1)}${levelled ? ` (${f1(g.levels)}/${g.winLevels})` : ""}` : "–";
  };
  return [
    `## ${arms.length} arms`,
    "",
    table(
      without(
        [
          "arm",
          "games",
          "runs",
          "failed",
          "unfinished",
          `pass@1 ${score}`,
          "mean ± SE (runs)",
          `best@${k} ${score}`,
          "levels / game",
          "billed tokens",
        ],
        drop,
      ),
      rows,
    ),
    "",
    `best@${k}: every arm at the same k (the fewest runs any game has in any arm), the expected best of ${k} runs. mean ± SE: every run pooled, population SD over √n, as BALROG reports it. Brackets: ${BRACKETS(pct)} ${COUNTING}`,
    "",
    `Per game, pass@1 ${score}${levelled ? " (mean levels)" : ""}:`,
    "",
    table(
      ["game", ...arms.map((a) => a.name)],
      games.map((g) => [g, ...arms.map((a) => cell(a, g))]),
    ),
  ].join("\n");
}

/** Each arm's pass@1 and levels at each budget (`--at 100,250,500`): the score-against-budget curve as a table. */
export function budgetsMarkdown(budgets: readonly BudgetScores[], o: MarkdownOptions): string {
  const pct = Math.round(o.level * 100);
  const names = [...new Set(budgets.flatMap((b) => b.arms.map((a) => a.name)))];
  const score = metricLabel(budgets.flatMap((b) => b.arms)[0]?.metric ?? "rhae");
  const rows = names.map((name) => [
    name,
    ...budgets.map((b) => {
      const a = b.arms.find((x) => x.name === name);
      return a ? `${ci(a.overall.passAt1, f2)} (${f2(a.overall.levels.estimate)} lv, ${a.overall.runs} runs)` : "–";
    }),
  ]);
  return [
    "## Score against action budget (re-scored from the logs)",
    "",
    table(["arm", ...budgets.map((b) => (b.at === null ? "as played" : `at ${b.at}`))], rows),
    "",
    `pass@1 ${score}, mean over games [${BRACKETS(pct)}] (mean levels per game, runs scored). A run played with fewer actions than a budget is skipped at that budget.`,
  ].join("\n");
}

export function compareMarkdown(c: CompareReport, names: { a: string; b: string }, o: MarkdownOptions): string {
  const pct = Math.round(o.level * 100);
  const cell = (g: GameRow) => `${f2(g.passAt1)} (${f1(g.levels)}/${g.winLevels})`;
  const atK = (g: GameRow) => f2(g.bestAtKCurve[c.k - 1] as number);
  const score = metricLabel(c.a.metric);
  const rows = c.games.map((g) => [
    g.game,
    cell(g.a),
    cell(g.b),
    `${g.b.passAt1 - g.a.passAt1 > 0 ? "+" : ""}${f2(g.b.passAt1 - g.a.passAt1)}`,
    `${atK(g.a)} → ${atK(g.b)}`,
  ]);
  rows.push([
    `**all ${c.games.length} game${c.games.length === 1 ? "" : "s"}**`,
    `**${ci(c.a.overall.passAt1, f2)}**`,
    `**${ci(c.b.overall.passAt1, f2)}**`,
    `**${signed(c.diff.passAt1, f2)}**`,
    `${f2(c.bestAtEqualK.a)} → ${f2(c.bestAtEqualK.b)} (${signed(c.diff.bestAtK, f2)})`,
  ]);
  const runsOf = (r: ArmReport) =>
    `${r.overall.runs} runs${r.overall.failed ? `, ${r.overall.failed} failed` : ""}${r.overall.unfinished ? `, ${r.overall.unfinished} unfinished` : ""}`;
  const parts = [
    `## A vs B`,
    "",
    `- A: ${names.a} — ${c.a.name} (${runsOf(c.a)})`,
    `- B: ${names.b} — ${c.b.name} (${runsOf(c.b)})`,
    "",
    table(["game", `A pass@1 ${score} (levels)`, `B pass@1 ${score} (levels)`, "B − A", `best@${c.k} A → B`], rows),
    "",
    `Levels per game, B − A: ${signed(c.diff.levels, f2)}. best@k at equal k = ${c.k} (the fewest runs any paired game has in either arm; the expected best of ${c.k} runs). Brackets: ${BRACKETS(pct)} Differences draw the games as pairs, then each arm's runs.`,
  ];
  if (c.unpaired.length > 0) parts.push(`Played by one arm only (left out of the differences): ${c.unpaired.join(", ")}.`);
  parts.push("", armMarkdown(c.a, o), "", armMarkdown(c.b, o));
  return parts.join("\n");
}

export function skippedMarkdown(skipped: readonly SkippedRun[]): string {
  if (skipped.length === 0) return "";
  return [
    `Skipped ${skipped.length} director${skipped.length === 1 ? "y" : "ies"}:`,
    ...skipped.map((s) => `- ${s.dir}: ${s.reason}`),
  ].join("\n");
}

/**
 * The runs scored on their scorecards alone (`--trust-scorecards`: no log, or a log that disagrees), each with
 * what its log says; "" when every scored run's log backs its card.
 */
export function unverifiedMarkdown(runs: readonly { readonly dir: string; readonly evidence?: Evidence | null }[]): string {
  const unverified = runs.filter((r) => r.evidence != null && r.evidence !== "matches");
  if (unverified.length === 0) return "";
  const n = unverified.length;
  return [
    `Unverified: ${n} scored run${n === 1 ? "" : "s"} (in the tables above, by --trust-scorecards) ${n === 1 ? "has a scorecard" : "have scorecards"} ${n === 1 ? "its" : "their"} log does not back:`,
    ...unverified.map((r) => `- ${r.dir}: ${r.evidence}`),
  ].join("\n");
}

/** The score tables of the runs under `paths` as played (default bootstrap), or null when none could be scored. */
export function scoreTables(paths: readonly string[]): string | null {
  const scored = scoreRuns(paths, [null], {});
  if (scored.isErr()) return scored.error.map(conflictText).join("\n");
  const arms = scored.value.budgets[0]!.arms;
  if (arms.length === 0) return null;
  const o = { level: BOOTSTRAP_DEFAULTS.level };
  return [...(arms.length > 1 ? [armsMarkdown(arms, o)] : []), ...arms.map((a) => armMarkdown(a, o))].join("\n\n");
}
