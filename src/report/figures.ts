// The report's figures, from ReportData: score against budget, best@k against k, per-game bars with each
// run's score, learning curves, billed tokens against score, and (when the runs made tool calls) the tool-call
// distribution by arm (tool-figure.ts). Each is a standalone SVG (also written alone by
// `report --svg DIR`); arms keep one colour across all of them.
import { scoreLabel, type Point, type ReportData, type Series } from "./data.ts";
import { toolCallsFigure } from "./tool-figure.ts";
import {
  bandOf,
  DASH,
  dataAttrs,
  esc,
  frame,
  HEIGHT,
  legend,
  PALETTE,
  pathOf,
  sharedLabels,
  svgDocument,
  WIDTH,
  type Box,
} from "./svg.ts";

export interface Figure {
  readonly id: string;
  readonly title: string;
  /** One or two sentences under the figure: what is drawn and how it was computed. */
  readonly caption: string;
  readonly svg: string;
}

function colours(d: ReportData): Map<string, string> {
  return new Map(d.arms.map((a, i) => [a.name, PALETTE[i % PALETTE.length]!]));
}

const finite = (xs: number[]) => xs.filter((x) => Number.isFinite(x));
const top = (xs: number[]) => Math.max(0, ...finite(xs)) || 1;

/**
 * For each series, the label of an earlier one with exactly the same points, or undefined: two arms that
 * scored alike would draw one line over the other, and the reader would see one arm where there are two.
 */
function identicalTo(series: readonly Series[]): (string | undefined)[] {
  const key = (s: Series) => JSON.stringify(s.points.map((p) => [p.x, p.y, p.low, p.high]));
  return series.map((s, i) => series.slice(0, i).find((e) => key(e) === key(s))?.label);
}

/** Lines with bootstrap bands and a dot per point (figures 1 and 2); a line identical to an earlier one is dashed, its dots hollow. */
function lineFigure(
  id: string,
  title: string,
  xLabel: string,
  yLabel: string,
  series: readonly Series[],
  colour: Map<string, string>,
  xTicks?: number[],
  xFrom = 0,
): string {
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p.x);
  const f = frame({
    title,
    xLabel,
    yLabel,
    xDomain: [Math.min(xFrom, ...xs), Math.max(xFrom + 1, ...xs)],
    yDomain: [0, top(all.flatMap((p) => [p.y, p.high ?? 0]))],
    xTicks,
  });
  const body = [...f.parts];
  const same = identicalTo(series);
  series.forEach((s, i) => {
    const c = colour.get(s.arm) ?? "#333";
    const dashed = same[i] !== undefined;
    const band = bandOf(s.points, f);
    if (band && !dashed)
      body.push(`<path class="band" d="${band}" fill="${c}" fill-opacity="0.15" stroke="none" ${dataAttrs(s.arm, {})}/>`);
    if (s.points.length > 1)
      body.push(
        `<path class="line" d="${pathOf(s.points, f)}" fill="none" stroke="${c}" stroke-width="2"${dashed ? ` stroke-dasharray="${DASH}"` : ""} ${dataAttrs(s.arm, {})}/>`,
      );
    const fill = dashed ? `fill="#fff" stroke="${c}" stroke-width="1.5"` : `fill="${c}"`;
    for (const p of s.points)
      body.push(
        `<circle class="point" cx="${f.x(p.x).toFixed(2)}" cy="${f.y(p.y).toFixed(2)}" r="3.5" ${fill} ${dataAttrs(s.arm, { x: p.x, y: p.y, low: p.low, high: p.high })}><title>${esc(s.arm)}: ${p.x} → ${p.y.toFixed(2)}</title></circle>`,
      );
  });
  body.push(
    legend(
      series.map((s, i) => ({
        label: same[i] === undefined ? s.label : `${s.label} (same as ${same[i]})`,
        color: colour.get(s.arm) ?? "#333",
        dashed: same[i] !== undefined,
      })),
    ),
  );
  return svgDocument(id, title, body);
}

function budgetFigure(d: ReportData, colour: Map<string, string>): Figure {
  const title = "Score against action budget";
  return {
    id: "score-vs-budget",
    title,
    caption: `pass@1 ${scoreLabel(d)}, mean over games, of every run re-scored from its log as if it had stopped at each budget (the budget-matched comparison); bands: 95% hierarchical bootstrap CI (games, then runs within each game; none for one run).`,
    svg: lineFigure(
      "score-vs-budget",
      title,
      "actions per episode (budget)",
      `pass@1 ${scoreLabel(d)}`,
      d.figures.budget.series,
      colour,
    ),
  };
}

function bestAtKFigure(d: ReportData, colour: Map<string, string>): Figure {
  const title = "best@k against k";
  const kMax = Math.max(1, ...d.figures.bestAtK.series.map((s) => s.points.length));
  return {
    id: "best-at-k",
    title,
    caption: `The expected best ${scoreLabel(d)} of k runs (mean over all k-subsets of a game's runs), mean over games; k = 1 is pass@1. Bands: 95% hierarchical bootstrap CI (games, then runs within each game; none for one run).`,
    svg: lineFigure(
      "best-at-k",
      title,
      "k (runs per game)",
      `best@k ${scoreLabel(d)}`,
      d.figures.bestAtK.series,
      colour,
      Array.from({ length: kMax }, (_, i) => i + 1),
      1,
    ),
  };
}

function gamesFigure(d: ReportData, colour: Map<string, string>): Figure {
  const title = `Per game: pass@1 ${scoreLabel(d)} and each run`;
  const { games, bars } = d.figures.games;
  const f = frame({
    title,
    xLabel: "game",
    yLabel: scoreLabel(d),
    xDomain: [0, Math.max(1, games.length)],
    yDomain: [0, top(bars.flatMap((b) => [b.y, ...b.runs]))],
    xCategories: games,
  });
  const body = [...f.parts];
  const arms = d.arms.map((a) => a.name);
  const slot = 0.8 / Math.max(1, arms.length);
  games.forEach((g, gi) => {
    arms.forEach((arm, ai) => {
      const bar = bars.find((b) => b.arm === arm && b.game === g);
      if (!bar) return;
      const c = colour.get(arm) ?? "#333";
      const x0 = f.x(gi + 0.1 + ai * slot);
      const x1 = f.x(gi + 0.1 + (ai + 1) * slot);
      const yTop = f.y(bar.y);
      body.push(
        `<rect class="bar" x="${x0.toFixed(2)}" y="${yTop.toFixed(2)}" width="${Math.max(1, x1 - x0 - 2).toFixed(2)}" height="${Math.max(0, f.y(0) - yTop).toFixed(2)}" fill="${c}" fill-opacity="0.55" ${dataAttrs(arm, { game: g, y: bar.y })}><title>${esc(arm)}, ${esc(g)}: pass@1 ${bar.y.toFixed(2)}</title></rect>`,
      );
      bar.runs.forEach((r, ri) => {
        const cx = x0 + ((x1 - x0 - 2) * (ri + 1)) / (bar.runs.length + 1);
        body.push(
          `<circle class="run" cx="${cx.toFixed(2)}" cy="${f.y(r).toFixed(2)}" r="3" fill="#fff" stroke="${c}" stroke-width="1.5" ${dataAttrs(arm, { game: g, y: r })}/>`,
        );
      });
    });
  });
  body.push(legend(arms.map((a) => ({ label: a, color: colour.get(a) ?? "#333" }))));
  return {
    id: "per-game",
    title,
    caption: `Bars: pass@1 ${scoreLabel(d)} (mean over runs) per game and arm; circles: each run's ${scoreLabel(d)} (the spread behind the mean).`,
    svg: svgDocument("per-game", title, body),
  };
}

/**
 * One panel per game (small multiples) when the runs are of several games: a dozen step lines in one panel
 * are a tangle, and a game's runs are what a reader compares. Curves keep the data's order.
 */
function learningFigure(d: ReportData, colour: Map<string, string>): Figure {
  const title = "Learning curves: levels cleared against actions";
  const series = d.figures.learning.series;
  const all = series.flatMap((s) => s.points);
  const games = [...new Set(series.map((s) => s.game))];
  const xDomain: [number, number] = [0, Math.max(1, ...all.map((p) => p.x))];
  const yDomain: [number, number] = [0, Math.max(1, ...all.map((p) => p.y))];
  const xLabel = "actions (first episode)";
  const yLabel = "levels cleared";
  const body: string[] = [];
  const frames = new Map<string, ReturnType<typeof frame>>();
  if (games.length <= 1) {
    const f = frame({ title, xLabel, yLabel, xDomain, yDomain });
    body.push(...f.parts);
    for (const g of games) frames.set(g, f);
  } else {
    // The figure's title and legend on top, then the panels in a grid of up to three columns.
    body.push(
      `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="15" font-weight="600">${esc(title)}</text>`,
      ...sharedLabels(xLabel, yLabel),
    );
    const cols = Math.min(3, games.length);
    const rows = Math.ceil(games.length / cols);
    const top = 48;
    const left = 20;
    const w = (WIDTH - left) / cols;
    const h = (HEIGHT - top - 18) / rows;
    games.forEach((g, i) => {
      const panel: Box = { x: left + (i % cols) * w, y: top + Math.floor(i / cols) * h, w, h };
      const f = frame({ title: g, xLabel, yLabel, xDomain, yDomain, panel });
      body.push(...f.parts);
      frames.set(g, f);
    });
  }
  for (const s of series) {
    const f = frames.get(s.game)!;
    const c = colour.get(s.arm) ?? "#333";
    const pts = s.points.map((p: Point) => `${p.x}:${p.y}`).join(" ");
    body.push(
      `<path class="curve" d="${pathOf(s.points, f, true)}" fill="none" stroke="${c}" stroke-width="1.5" stroke-opacity="0.7" ${dataAttrs(s.arm, { dir: s.dir, game: s.game, points: pts })}><title>${esc(s.arm)}: ${esc(s.label)}</title></path>`,
    );
  }
  const entries = d.arms.map((a) => ({ label: a.name, color: colour.get(a.name) ?? "#333" }));
  body.push(games.length <= 1 ? legend(entries) : inlineLegend(entries, 34));
  return {
    id: "learning-curves",
    title,
    caption: `One line per run${games.length > 1 ? ", one panel per game (the same axes in every panel)" : ""}: the action at which each level was cleared (a step up), flat to the episode's last action.`,
    svg: svgDocument("learning-curves", title, body),
  };
}

/** A legend on one line, centred at height `y`: for a figure of panels, where no plot area has room for one. */
function inlineLegend(entries: readonly { label: string; color: string }[], y: number): string {
  const widths = entries.map((e) => 20 + e.label.length * 6.2);
  let x = (WIDTH - widths.reduce((a, b) => a + b, 0)) / 2;
  return entries
    .map((e, i) => {
      const g = `<g class="legend"><rect x="${x.toFixed(1)}" y="${y - 9}" width="12" height="10" fill="${e.color}"/><text x="${(x + 16).toFixed(1)}" y="${y}" font-size="11">${esc(e.label)}</text></g>`;
      x += widths[i]!;
      return g;
    })
    .join("");
}

function tokensFigure(d: ReportData, colour: Map<string, string>): Figure {
  const title = "Billed tokens against score";
  const { series, means } = d.figures.tokens;
  const all = series.flatMap((s) => s.points);
  const f = frame({
    title,
    xLabel: "billed tokens per run",
    yLabel: scoreLabel(d),
    xDomain: [0, top(all.map((p) => p.x))],
    yDomain: [0, top(all.map((p) => p.y))],
  });
  const body = [...f.parts];
  // Built-in players (the explorer) bill no tokens: every run sits on the y axis and the figure looks empty
  // or broken. Say so in the plot.
  const billed = all.some((p) => p.x > 0);
  if (!billed)
    body.push(
      `<text class="empty" x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" font-size="13" fill="#555">No run billed any tokens (built-in players such as the explorer call no model).</text>`,
    );
  for (const s of series) {
    const c = colour.get(s.arm) ?? "#333";
    for (const p of s.points)
      body.push(
        `<circle class="point" cx="${f.x(p.x).toFixed(2)}" cy="${f.y(p.y).toFixed(2)}" r="3.5" fill="${c}" fill-opacity="0.6" ${dataAttrs(s.arm, { x: p.x, y: p.y })}/>`,
      );
  }
  for (const m of means) {
    const c = colour.get(m.arm) ?? "#333";
    const [cx, cy] = [f.x(m.x), f.y(m.y)];
    body.push(
      `<path class="mean" d="M${cx.toFixed(2)} ${(cy - 7).toFixed(2)}L${(cx + 7).toFixed(2)} ${cy.toFixed(2)}L${cx.toFixed(2)} ${(cy + 7).toFixed(2)}L${(cx - 7).toFixed(2)} ${cy.toFixed(2)}Z" fill="${c}" stroke="#000" ${dataAttrs(m.arm, { x: m.x, y: m.y })}><title>${esc(m.arm)}: mean</title></path>`,
    );
  }
  body.push(legend(series.map((s) => ({ label: s.label, color: colour.get(s.arm) ?? "#333" }))));
  return {
    id: "tokens-vs-score",
    title,
    caption:
      "Circles: runs; diamonds: each arm's mean. Billed tokens = (input − cached) + 6 × output + 0.1 × cached (0 for the built-in explorer).",
    svg: svgDocument("tokens-vs-score", title, body),
  };
}

export function reportFigures(d: ReportData): Figure[] {
  const c = colours(d);
  const tools = toolCallsFigure(d);
  return [
    budgetFigure(d, c),
    bestAtKFigure(d, c),
    gamesFigure(d, c),
    learningFigure(d, c),
    tokensFigure(d, c),
    ...(tools ? [tools] : []),
  ];
}
