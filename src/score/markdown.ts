// `prolong score`'s Markdown: the tables people paste into notes and docs/experiments.md.
import type { SkippedRun } from "./find-runs.ts";
import type { ArmReport, CompareReport, GameRow } from "./report.ts";
import type { Interval } from "./stats.ts";

export interface MarkdownOptions {
  /** USD per million billed tokens: adds dollar columns. */
  readonly pricePerMTok?: number;
  /** Confidence level, for the column names. */
  readonly level: number;
}

const f1 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(1));
const f2 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(2));
const ci = (i: Interval, f = f1) => `${f(i.estimate)} [${f(i.low)}, ${f(i.high)}]`;
const signed = (i: Interval, f = f1) => `${i.estimate > 0 ? "+" : ""}${f(i.estimate)} [${f(i.low)}, ${f(i.high)}]`;
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

export function armMarkdown(r: ArmReport, o: MarkdownOptions): string {
  const pct = Math.round(o.level * 100);
  const k = r.overall.k.min === r.overall.k.max ? `${r.overall.k.min}` : `${r.overall.k.min}–${r.overall.k.max}`;
  const rows = r.games.map((g) => [g.game, String(g.runs), `${f1(g.levels)}/${g.winLevels}`, `${g.bestLevels}/${g.winLevels}`, f2(g.passAt1), f2(g.bestAtK), f1(g.meanActions), ...tokens(g.billedTokens, g.billedPerLevel, o)]);
  const o2 = r.overall;
  rows.push([`**all ${o2.games} games**`, String(o2.runs), `${o2.levelsCompleted}/${o2.levelsTotal} (runs)`, "", `**${ci(o2.passAt1, f2)}**`, `**${ci(o2.bestAtK, f2)}**`, "", ...tokens(o2.billedTokens, o2.billedPerLevel, o)]);
  const parts = [
    `### ${r.label}`,
    "",
    table(["game", "runs", "levels (mean)", "levels (best)", "pass@1 RHAE", `best@${k} RHAE`, "actions (mean)", ...tokenHeads(o)], rows),
    "",
    `Levels per game, mean over games: ${ci(o2.levels, f2)}. Brackets: ${pct}% bootstrap CI over games.`,
  ];
  if (r.lifetime) {
    parts.push("", "Lifetime (per episode, mean over games of the mean over runs):", "", table(["episode", "RHAE", "best so far", "levels"], r.lifetime.map((l) => [String(l.episode), f2(l.passAt1), f2(l.bestSoFar), f2(l.levels)])));
  }
  return parts.join("\n");
}

export function compareMarkdown(c: CompareReport, names: { a: string; b: string }, o: MarkdownOptions): string {
  const pct = Math.round(o.level * 100);
  const cell = (g: GameRow) => `${f2(g.passAt1)} (${f1(g.levels)}/${g.winLevels})`;
  const rows = c.games.map((g) => [g.game, cell(g.a), cell(g.b), `${g.b.passAt1 - g.a.passAt1 > 0 ? "+" : ""}${f2(g.b.passAt1 - g.a.passAt1)}`, `${f2(g.a.bestAtK)} → ${f2(g.b.bestAtK)}`]);
  rows.push([`**all ${c.games.length} games**`, `**${ci(c.a.overall.passAt1, f2)}**`, `**${ci(c.b.overall.passAt1, f2)}**`, `**${signed(c.diff.passAt1, f2)}**`, `${f2(c.a.overall.bestAtK.estimate)} → ${f2(c.b.overall.bestAtK.estimate)} (${signed(c.diff.bestAtK, f2)})`]);
  const parts = [
    `## A vs B`,
    "",
    `- A: ${names.a} — ${c.a.label} (${c.a.overall.runs} runs)`,
    `- B: ${names.b} — ${c.b.label} (${c.b.overall.runs} runs)`,
    "",
    table(["game", "A pass@1 RHAE (levels)", "B pass@1 RHAE (levels)", "B − A", "best@k A → B"], rows),
    "",
    `Levels per game, B − A: ${signed(c.diff.levels, f2)}. Brackets: ${pct}% bootstrap CI over games (paired by game for differences).`,
  ];
  if (c.unpaired.length > 0) parts.push(`Played by one arm only (left out of the differences): ${c.unpaired.join(", ")}.`);
  parts.push("", armMarkdown(c.a, o), "", armMarkdown(c.b, o));
  return parts.join("\n");
}

export function skippedMarkdown(skipped: readonly SkippedRun[]): string {
  if (skipped.length === 0) return "";
  return [`Skipped ${skipped.length} director${skipped.length === 1 ? "y" : "ies"}:`, ...skipped.map((s) => `- ${s.dir}: ${s.reason}`)].join("\n");
}
