// The tool-call distribution by arm (docs/trajectory.md): one stacked bar per arm, each class's share of its
// tool calls, and the same as a table for the page. Drawn only when some arm's runs have trajectories with
// tool calls (the built-in explorer makes none).
import type { ArmReport } from "../score/report.ts";
import { TOOL_CLASS_LABELS, TOOL_CLASSES, type ToolClass } from "../score/tool-classes.ts";
import type { ReportData } from "./data.ts";
import type { Figure } from "./figures.ts";
import { dataAttrs, esc, frame, svgDocument } from "./svg.ts";

/** One colour per class (Okabe–Ito, as the arms' palette), fixed so two reports read alike. */
const CLASS_COLOURS: Readonly<Record<ToolClass, string>> = {
  "read-log": "#0072B2",
  "search-log": "#56B4E9",
  code: "#009E73",
  workspace: "#E69F00",
  "action-file": "#CC79A7",
  observe: "#D55E00",
  other: "#999999",
};

function withCalls(d: ReportData): ArmReport[] {
  return d.arms.filter((a) => a.toolUse !== null && a.toolUse.calls > 0);
}

export function toolCallsFigure(d: ReportData): Figure | null {
  const arms = withCalls(d);
  if (arms.length === 0) return null;
  const title = "Tool calls by class, per arm";
  const f = frame({
    title,
    xLabel: "arm",
    yLabel: "share of tool calls (%)",
    xDomain: [0, arms.length + 1],
    yDomain: [0, 100],
    xCategories: [...arms.map((a) => a.name), ""],
  });
  const body = [...f.parts];
  arms.forEach((a, i) => {
    const u = a.toolUse!;
    let below = 0;
    for (const c of TOOL_CLASSES) {
      const share = u.shares[c] * 100;
      if (u.byClass[c] === 0) continue;
      const [x0, x1] = [f.x(i + 0.15), f.x(i + 0.85)];
      const [yTop, yBottom] = [f.y(below + share), f.y(below)];
      body.push(
        `<rect class="segment" x="${x0.toFixed(2)}" y="${yTop.toFixed(2)}" width="${(x1 - x0).toFixed(2)}" height="${Math.max(0, yBottom - yTop).toFixed(2)}" fill="${CLASS_COLOURS[c]}" ${dataAttrs(a.name, { class: c, calls: u.byClass[c], share: u.shares[c] })}><title>${esc(a.name)}: ${esc(TOOL_CLASS_LABELS[c])} ${u.byClass[c]} of ${u.calls} calls (${share.toFixed(1)}%)</title></rect>`,
      );
      below += share;
    }
  });
  // The legend in the empty last slot, top to bottom in the order the bars stack bottom to top.
  const lx = f.x(arms.length + 0.05);
  TOOL_CLASSES.forEach((c, i) => {
    const y = f.y(100) + 4 + (TOOL_CLASSES.length - 1 - i) * 16;
    body.push(
      `<g class="legend"><rect x="${lx.toFixed(2)}" y="${y.toFixed(2)}" width="12" height="10" fill="${CLASS_COLOURS[c]}"/><text x="${(lx + 18).toFixed(2)}" y="${(y + 9).toFixed(2)}" font-size="11">${esc(TOOL_CLASS_LABELS[c])}</text></g>`,
    );
  });
  return {
    id: "tool-calls",
    title,
    caption:
      "Each arm's tool calls over all its runs, by what they were for (classes and rules: docs/trajectory.md), from each run's trajectory.jsonl. The table below gives the counts and the log pulled into the context per turn.",
    svg: svgDocument("tool-calls", title, body),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const int = (x: number | null) => (x === null ? "–" : Math.round(x).toLocaleString("en-US"));

/** The page's table of the same numbers, or "" when no arm has tool calls. */
export function toolCallsTable(d: ReportData): string {
  const arms = withCalls(d);
  if (arms.length === 0) return "";
  const rows = arms.map((a) => {
    const u = a.toolUse!;
    const cells = TOOL_CLASSES.map((c) => `<td class="n" data-class="${c}">${u.byClass[c]} (${pct(u.shares[c])})</td>`).join("");
    return `<tr><td>${esc(a.name)}</td><td class="n">${u.turns}</td><td class="n">${u.calls}</td>${cells}<td class="n">${int(u.logBytesPulledPerTurn)}</td><td class="n">${int(u.logBytesGivenPerTurn)}</td><td class="n">${u.meanPulledShare === null ? "–" : pct(u.meanPulledShare)}</td></tr>`;
  });
  const heads = TOOL_CLASSES.map((c) => `<th>${esc(TOOL_CLASS_LABELS[c])}</th>`).join("");
  return `<table id="tool-calls-table"><thead><tr><th>arm</th><th>turns</th><th>tool calls</th>${heads}<th>log bytes pulled / turn</th><th>log bytes given / turn</th><th>pulled share / turn</th></tr></thead><tbody>${rows.join("")}</tbody></table>
<p class="meta">Log pulled: the output bytes of the calls that read, search or analyse the log, per turn, against the size of the log the agent had that turn.</p>`;
}
