// The report page: one self-contained HTML file (inline SVG figures, inline CSS, no script to run, nothing
// fetched), with the arms table, every run linked to its view.html, and the report's data embedded as JSON.
import { relative } from "node:path";
import { meanSEText, settingsLine, unitsText } from "../score/markdown.ts";
import type { Interval } from "../score/stats.ts";
import { scoreLabel, type ReportData } from "./data.ts";
import type { Figure } from "./figures.ts";
import { esc } from "./svg.ts";
import { toolCallsTable } from "./tool-figure.ts";

const f2 = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? "–" : x.toFixed(2));
const ci = (i: Interval) =>
  Number.isNaN(i.low)
    ? `${f2(i.estimate)} <span class="ci">(n=1)</span>`
    : `${f2(i.estimate)} <span class="ci">[${f2(i.low)}, ${f2(i.high)}] (${esc(unitsText(i))})</span>`;
const int = (x: number | null) => (x === null ? "–" : Math.round(x).toLocaleString("en-US"));

const CSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1360px; padding: 0 16px; color: #111; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
.meta { color: #555; margin: 0 0 16px; }
.figures { display: grid; grid-template-columns: repeat(2, 660px); gap: 20px; }
figure { margin: 0; } figure svg { display: block; border: 1px solid #ddd; }
figcaption { color: #444; font-size: 12.5px; margin-top: 4px; max-width: 660px; }
table { border-collapse: collapse; font-size: 13px; } th, td { border-bottom: 1px solid #e3e3e3; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f6f6; } td.n { text-align: right; font-variant-numeric: tabular-nums; } .ci { color: #666; }
code { font-size: 12px; } .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; }
.unverified { background: #fde2e1; color: #8a1c14; border: 1px solid #e0a19c; border-radius: 3px; padding: 0 4px; font-size: 11.5px; white-space: nowrap; }
`;

/** A run its log does not back (scored only under --trust-scorecards): what its log says. */
function unverified(r: { readonly evidence: string | null }): string | null {
  return r.evidence !== null && r.evidence !== "matches" ? r.evidence : null;
}

/** The badge every unverified run and the arms holding one carry, pointing at the footnote. */
const BADGE = `<a class="unverified" href="#unverified" title="scorecard not backed by its log">unverified</a>`;

function armsTable(d: ReportData): string {
  const k = Math.min(...d.arms.map((a) => a.overall.bestAtKCurve.length));
  const score = scoreLabel(d);
  const rows = d.arms.map(
    (a) =>
      `<tr><td>${esc(a.name)}${d.runs.some((r) => r.arm === a.name && unverified(r)) ? ` ${BADGE}` : ""}</td><td><code>${esc(a.fingerprint)}</code></td><td><code>${esc(settingsLine(a))}</code><br><span class="ci">produced by: ${esc(a.provenance.join(" | "))}</span></td><td class="n">${a.overall.games}</td><td class="n">${a.overall.runs}</td><td class="n">${a.overall.failed}</td><td class="n">${a.overall.unfinished}</td><td class="n">${ci(a.overall.passAt1)}</td><td class="n">${esc(meanSEText(a.overall.meanSE))}</td><td class="n">${a.overall.bestAtKCurve[k - 1] ? ci(a.overall.bestAtKCurve[k - 1]!) : "–"}</td><td class="n">${ci(a.overall.levels)}</td><td class="n">${int(a.overall.billedTokens)}</td></tr>`,
  );
  return `<table id="arms"><thead><tr><th>arm</th><th>fingerprint</th><th>settings</th><th>games</th><th>runs</th><th>failed</th><th>unfinished</th><th>pass@1 ${score}</th><th>mean ± SE (runs)</th><th>best@${k} ${score}</th><th>levels / game</th><th>billed tokens</th></tr></thead><tbody>${rows.join("")}</tbody></table>
<p class="meta">Brackets: 95% hierarchical bootstrap CI, games resampled and then runs within each game, with the games and runs behind it (n=1: one run, no interval; ${d.bootstrap.resamples ?? 10000} resamples, seed ${d.bootstrap.seed ?? 0}). mean ± SE: every run pooled, as BALROG reports it. best@${k}: every arm at the same k. failed: the agent failed; counted at the score reached. unfinished: no final scorecard; not counted.</p>`;
}

/**
 * A link to a file of a run, relative to the page: each path segment percent-encoded and the whole led by
 * "./" (or "../"), so a run directory named `javascript:…` or `https:…` is a path, never a scheme.
 */
function relativeHref(linkBase: string, target: string): string {
  const rel = relative(linkBase, target).split(/[\\/]/).map(encodeURIComponent).join("/");
  return rel.startsWith("../") ? rel : `./${rel}`;
}

function runsTable(d: ReportData, linkBase: string): string {
  const rows = d.runs.map((r) => {
    const where = r.view
      ? `<a href="${esc(relativeHref(linkBase, r.view))}">${esc(relative(linkBase, r.dir) || ".")}</a>`
      : `${esc(relative(linkBase, r.dir) || ".")} <span class="ci">(no view.html: \`prolong view\` it)</span>`;
    return `<tr><td>${where}${unverified(r) ? ` ${BADGE}` : ""}</td><td>${esc(r.game)}</td><td>${esc(r.arm)}</td><td class="n">${r.seed}</td><td>${esc(r.status === "scored" ? r.endReason : `unfinished: ${r.endDetail}`)}</td><td class="n">${r.levels ?? "–"}${r.winLevels ? `/${r.winLevels}` : ""}</td><td class="n">${f2(r.rhae)}</td><td class="n">${int(r.actions)}</td><td class="n">${int(r.billedTokens)}</td></tr>`;
  });
  return `<table id="runs"><thead><tr><th>run (replay)</th><th>game</th><th>arm</th><th>seed</th><th>end</th><th>levels</th><th>${scoreLabel(d)}</th><th>actions</th><th>billed tokens</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The JSON inside a script element: `<` escaped so no text in it can close the element. */
function embeddedJson(d: ReportData): string {
  return JSON.stringify(d).replaceAll("<", "\\u003c");
}

export function reportHtml(d: ReportData, figures: readonly Figure[], o: { title: string; linkBase: string }): string {
  const skipped =
    d.skipped.length === 0
      ? ""
      : `<h2>Skipped</h2><ul>${d.skipped.map((s) => `<li><code>${esc(s.dir)}</code>: ${esc(s.reason)}</li>`).join("")}</ul>`;
  const trusted = d.runs.filter((r) => unverified(r));
  const footnote =
    trusted.length === 0
      ? ""
      : `<h2 id="unverified">Unverified runs</h2><p class="meta">Scored on their scorecards alone (--trust-scorecards): the run's log does not back its scorecard. They are in every table and figure above.</p><ul>${trusted.map((r) => `<li><code>${esc(r.dir)}</code>: ${esc(unverified(r) ?? "")}</li>`).join("")}</ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(o.title)}</title><style>${CSS}</style></head>
<body data-ready="1">
<h1>${esc(o.title)}</h1>
<p class="meta">${d.arms.length} arm(s), ${d.runs.filter((r) => r.status === "scored").length} scored run(s), ${d.runs.filter((r) => r.status === "unfinished").length} unfinished, ${d.skipped.length} skipped · prolong ${esc(d.prolong)} · ${d.arms[0]?.metric === "progression" ? "progression % is BALROG's NetHack progression (0..100) of each run's first episode (a lifetime's other episodes are listed apart)." : "RHAE is ARC-AGI-3's action-efficiency score (0..100) of each run's first episode (a lifetime's other episodes are listed apart)."}</p>
<h2>Arms</h2>
${armsTable(d)}
<h2>Figures</h2>
<div class="figures">
${figures.map((f) => `<figure id="fig-${esc(f.id)}">${f.svg}<figcaption>${esc(f.caption)}</figcaption></figure>`).join("\n")}
</div>
${toolCallsTable(d) ? `<h2>Tool calls</h2>\n${toolCallsTable(d)}` : ""}
<h2>Runs</h2>
${runsTable(d, o.linkBase)}
${footnote}
${skipped}
<script type="application/json" id="report-data">${embeddedJson(d)}</script>
</body></html>
`;
}
