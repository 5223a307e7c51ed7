// One self-contained HTML page for a replay: inline CSS and script, the replay as JSON, the board cells
// deflated (raw deflate; the page inflates them with the browser's DecompressionStream) and base64'd.
// Nothing is fetched: the page works offline and from file://.
import { deflateRawSync } from "node:zlib";
import { ARC_RGB } from "../game/render.ts";
import { PAGE_SCRIPT } from "./page-script.ts";
import type { Replay } from "./replay.ts";

const STYLE = `
:root { font-family: system-ui, sans-serif; color: #222; background: #f4f4f2; }
body { margin: 0 auto; max-width: 1200px; padding: 12px 18px; }
h1 { font-size: 18px; margin: 4px 0; } #meta, #warnings { color: #555; font-size: 13px; white-space: pre-wrap; }
main { display: flex; gap: 18px; align-items: flex-start; margin-top: 8px; }
#board-pane { flex: none; } #board { display: block; image-rendering: pixelated; background: #000; border: 1px solid #888; }
#info { flex: 1; min-width: 280px; }
#text-rows { font: 12px/1.15 ui-monospace, monospace; background: #000; color: #ddd; padding: 6px; margin: 0; white-space: pre; }
#status-line { font: 12px ui-monospace, monospace; white-space: pre-wrap; margin: 4px 0; }
#header-line { font: 600 14px ui-monospace, monospace; } #tool-call, #changes { font: 13px ui-monospace, monospace; margin-top: 4px; }
#turn-calls { white-space: pre; overflow: auto; max-height: 260px; font-size: 12px; background: #fff; border: 1px solid #ddd; padding: 8px; }
#plan { white-space: pre-wrap; background: #fff; border: 1px solid #ddd; padding: 8px; font-size: 13px; max-height: 420px; overflow: auto; }
#tamper-note, #error { color: #b00; white-space: pre-wrap; font-weight: 600; margin-top: 6px; }
#controls { display: flex; gap: 8px; align-items: center; margin-top: 10px; } #step { flex: 1; }
#frame-bar { display: flex; gap: 8px; align-items: center; font-size: 12px; margin-top: 6px; } #frame { flex: 1; }
#timeline { width: 100%; height: 104px; background: #fff; border: 1px solid #ddd; margin-top: 8px; cursor: pointer; }
.legend { font-size: 12px; color: #555; } kbd { border: 1px solid #aaa; border-radius: 3px; padding: 0 3px; background: #fff; }
`;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
}

/** JSON that cannot close its <script> element ("</script>" in agent text) or break out as HTML. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function replayHtml(r: Replay): string {
  const { cells, ...rest } = r;
  const data = { ...rest, palette: ARC_RGB };
  const boards = Buffer.from(deflateRawSync(cells, { level: 9 })).toString("base64");
  const last = r.steps[r.steps.length - 1];
  const card = r.scorecard;
  // A progression game's header Score is its progression in hundredths of a percent; its scorecard counts no levels.
  const progression = r.metric === "progression";
  const summary = [
    `${r.steps.length} step(s)`,
    last?.action !== null && last?.action !== undefined ? `last action ${last.action}` : null,
    last?.score !== null && last?.score !== undefined
      ? progression
        ? `progression at the last step ${(last.score / 100).toFixed(2)}%`
        : `levels completed at the last step ${last.score} (the header's Score)`
      : null,
    card?.metric === "progression" && card.score !== null
      ? `scorecard: progression ${card.score.toFixed(2)}% (best episode)`
      : card?.levelsCompleted !== null && card?.levelsCompleted !== undefined
        ? `scorecard: ${card.levelsCompleted}/${card.winLevels ?? "?"} levels${card.score !== null ? `, RHAE ${card.score.toFixed(1)} (0 to 115, best episode)` : ""}`
        : null,
    `${r.tampers.length} tamper event(s)`,
  ]
    .filter((x) => x !== null)
    .join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>prolong replay: ${escapeHtml(r.title)}</title><style>${STYLE}</style></head>
<body>
<h1>prolong replay: ${escapeHtml(r.title)}</h1>
<div id="meta">${escapeHtml(r.source)}\n${escapeHtml(summary)}</div>
<div id="warnings"></div>
<main>
  <section id="board-pane"><canvas id="board" width="512" height="512"></canvas><pre id="text-rows" hidden></pre>
    <div id="frame-bar"><span>frames</span><input type="range" id="frame" min="0" max="0" value="0"><span id="frame-label"></span></div>
  </section>
  <section id="info">
    <div id="header-line"></div><div id="tool-call"></div><pre id="status-line"></pre><div id="changes"></div><div id="tamper-note"></div><div id="error"></div>
    <p class="legend">[PLAN] — the agent's text for this action</p><pre id="plan"></pre>
    <p class="legend">the agent's tool calls in the turn that chose this action</p><pre id="turn-calls"></pre>
  </section>
</main>
<div id="controls"><button id="prev">&larr;</button><input type="range" id="step" min="0" max="0" value="0"><button id="next">&rarr;</button><button id="play">play</button><a id="step-label" href="#step=1" title="a link to this step"></a></div>
<canvas id="timeline" height="104"></canvas>
<p class="legend">timeline: ticks = action numbers, blue band = level (NetHack: dungeon level), green line = levels completed (the header's Score; NetHack: progression), orange line = HP, purple line = experience level (NetHack), black triangles = deaths, dark ticks = game over, red marks = tamper events; click to jump.
The address (<code>#step=N</code>) names the step shown: copy it to link to one.
Keys: <kbd>&larr;</kbd>/<kbd>&rarr;</kbd> step (<kbd>Shift</kbd> ×10), <kbd>Home</kbd>/<kbd>End</kbd>, <kbd>&uarr;</kbd>/<kbd>&darr;</kbd> animation frames,
<kbd>f</kbd> first frame, <kbd>space</kbd> play, <kbd>h</kbd> changed-cell highlight, <kbd>t</kbd> next tamper event.</p>
<h2 class="legend" id="tamper-count"></h2><ul id="tampers"></ul>
<script type="application/json" id="replay-data">${scriptJson(data)}</script>
<script type="text/plain" id="replay-boards">${boards}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
