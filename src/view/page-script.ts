// The viewer's browser code, embedded as text in every page (plain ES2020, no imports, no network). It reads
// the replay JSON and the deflated board cells from the page itself, then draws on a canvas.
// Contract with the browser test (test/view/browser.test.ts): <body data-ready="1"> once the boards are
// decoded; #board is the canvas, drawn at CELL_PX pixels per cell with the cell's colour at its centre;
// #header-line shows the step's log header; ArrowRight/ArrowLeft step; window.prolongReplay.state() tells
// {step, frame, section, action, changed}; the address is #step=N (from 1) and opening one goes there;
// window.prolongReplay.ticks() is the timeline's axis, [step index, action label] per tick.
export const PAGE_SCRIPT = String.raw`(async () => {
"use strict";
const $ = (id) => document.getElementById(id);
const data = JSON.parse($("replay-data").textContent);
const packed = Uint8Array.from(atob($("replay-boards").textContent.trim()), (c) => c.charCodeAt(0));
const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
const cells = new Uint8Array(await new Response(stream).arrayBuffer());
const steps = data.steps, B = data.boards, RGB = data.palette;
const canvas = $("board"), ctx = canvas.getContext("2d");
const timeline = $("timeline"), tctx = timeline.getContext("2d");
const slider = $("step"), frameSlider = $("frame");
let step = 0, frame = 0, highlight = true, timer = null;
slider.max = String(Math.max(0, steps.length - 1));

const boardIndex = (s, f) => steps[s].board + f;
function boardCells(b) { return cells.subarray(B.offset[b], B.offset[b] + B.width[b] * B.height[b]); }
/** What board f of step s is compared with: a settled board with the previous step's settled board (what the
 *  action changed), an animation frame with the board shown just before it. */
function previousBoard(s, f) {
  if (f > 0 && f < steps[s].boards - 1) return boardIndex(s, f - 1);
  for (let p = s - 1; p >= 0; p--) if (steps[p].boards > 0) return boardIndex(p, steps[p].boards - 1);
  return -1;
}
function changedCells(b, prev) {
  if (prev < 0 || B.width[prev] !== B.width[b] || B.height[prev] !== B.height[b]) return null;
  const a = boardCells(prev), c = boardCells(b), out = [];
  for (let i = 0; i < c.length; i++) if (a[i] !== c[i]) out.push(i);
  return out;
}
const hex = (i) => { const c = RGB[i] || RGB[5]; return "rgb(" + c[0] + "," + c[1] + "," + c[2] + ")"; };

// A text picture's colours: per row, runs [first column, palette index, length] in a terminal's 16 colours
// (black red green yellow blue magenta cyan white, then bright).
const TEXT_RGB = ["#555", "#d33", "#3b3", "#b80", "#46d", "#b4b", "#3bb", "#ccc", "#777", "#f66", "#6f6", "#ff6", "#79f", "#f7f", "#6ff", "#fff"];
function drawText(s) {
  const pre = $("text-rows");
  if (!s.colours) { pre.textContent = s.text; return; }
  pre.textContent = "";
  const rows = s.text.split("\n");
  rows.forEach((text, y) => {
    let x = 0;
    for (const [start, colour, len] of s.colours[y] || []) {
      if (start < x) continue;
      if (start > x) pre.append(text.slice(x, start));
      const span = document.createElement("span");
      span.style.color = TEXT_RGB[colour] || "";
      span.dataset.colour = String(colour);
      span.textContent = text.slice(start, start + len);
      pre.append(span);
      x = start + len;
    }
    pre.append(text.slice(x) + (y < rows.length - 1 ? "\n" : ""));
  });
}

function drawBoard() {
  const s = steps[step];
  // The picture's declared form: text rows in the <pre>, or cells on the canvas.
  const text = s.form === "text";
  $("text-rows").hidden = !text; canvas.style.display = text ? "none" : "block";
  if (text) {
    drawText(s);
    return null;
  }
  if (s.boards === 0) {
    ctx.fillStyle = "#222"; ctx.fillRect(0, 0, canvas.width, canvas.height);
    return null;
  }
  const b = boardIndex(step, frame), w = B.width[b], h = B.height[b];
  const px = Math.max(2, Math.floor(512 / Math.max(w, h)));
  if (canvas.width !== w * px || canvas.height !== h * px) { canvas.width = w * px; canvas.height = h * px; }
  canvas.dataset.cellPx = String(px);
  const c = boardCells(b);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { ctx.fillStyle = hex(c[y * w + x]); ctx.fillRect(x * px, y * px, px, px); }
  const changed = changedCells(b, previousBoard(step, frame));
  if (highlight && changed && px >= 4) {
    // A two-tone ring on the cell's edge pixels only, so the cell's own colour stays visible at its centre.
    ctx.lineWidth = 1;
    for (const i of changed) {
      const x = (i % w) * px, y = Math.floor(i / w) * px;
      ctx.strokeStyle = "#ffffff"; ctx.strokeRect(x + 0.5, y + 0.5, px - 1, px - 1);
      if (px >= 6) { ctx.strokeStyle = "#000000"; ctx.strokeRect(x + 1.5, y + 1.5, px - 3, px - 3); }
    }
  }
  if (highlight && s.click && frame === s.boards - 1) {
    // The clicked cell: a ring drawn just outside it, over the neighbours' edges.
    ctx.lineWidth = 2; ctx.strokeStyle = "#ff00ff";
    ctx.strokeRect(s.click[0] * px - 1, s.click[1] * px - 1, px + 2, px + 2);
  }
  return changed;
}

function header(s) {
  if (s.action === null) return "(unreadable header) section #" + s.section;
  const mid = s.kind === "initial" ? " | INITIAL STATE" : s.planStep ? " | Plan Step " + s.planStep : "";
  const vitals = s.vitals ? " | " + s.vitals : "";
  return "Action " + s.action + " | Level " + s.level + " | Attempt " + s.attempt + mid + vitals + " | Score: " + s.score;
}

/** The tool calls of the turn whose batch holds this step: the last turn starting at or before its action. */
function turnText(s) {
  const t = data.turns;
  if (s.action === null || s.kind === "initial") return "";
  let k = -1;
  for (let i = 0; i < t.fromAction.length && t.fromAction[i] <= s.action; i++) k = i;
  return k >= 0 ? t.text[k] : "(no trajectory for this turn)";
}

let lastChanged = null;
function render() {
  const s = steps[step];
  slider.value = String(step);
  frameSlider.max = String(Math.max(0, s.boards - 1));
  frameSlider.value = String(frame);
  frameSlider.disabled = s.boards <= 1;
  $("frame-label").textContent = s.boards <= 1 ? "1 board" : frame === s.boards - 1 ? "settled (" + (s.boards - 1) + " frames before)" : "frame " + (frame + 1) + "/" + (s.boards - 1);
  $("step-label").textContent = "step " + (step + 1) + "/" + steps.length;
  $("step-label").href = "#step=" + (step + 1);
  $("header-line").textContent = header(s);
  $("tool-call").textContent = s.toolCall ? "Tool Call: " + s.toolCall : s.kind === "initial" ? (s.episode ? "[EPISODE " + s.episode + "] " : "") + "initial state" : "";
  $("plan").textContent = s.plan >= 0 ? data.plans[s.plan] : "(no [PLAN] in this section)";
  $("turn-calls").textContent = turnText(s);
  $("error").textContent = s.error ? "not read whole: " + s.error : s.end ? "GAME OVER: " + s.end : "";
  $("status-line").textContent = s.lines ? s.lines.join("\n") : "";
  const tampers = data.tampers.filter((t) => t.step === step);
  $("tamper-note").textContent = tampers.map((t) => "TAMPER (" + t.kind + "): " + t.detail).join("\n");
  lastChanged = drawBoard();
  $("changes").textContent = lastChanged === null ? "" : lastChanged.length + " cell(s) changed" + (frame === s.boards - 1 ? " since the previous step" : " since the previous frame");
  drawTimeline();
}

function go(s, f) {
  step = Math.max(0, Math.min(steps.length - 1, s));
  const n = steps[step].boards;
  frame = f === undefined ? Math.max(0, n - 1) : Math.max(0, Math.min(n - 1, f));
  render();
  // The address names the step (1-based, as the label counts), so a step can be linked to and reloaded.
  const hash = "#step=" + (step + 1);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

/** The step a #step=N address names (N counted from 1), or null. */
function stepFromHash() {
  const m = /^#step=(\d+)$/.exec(location.hash);
  return m ? Number(m[1]) - 1 : null;
}

/** Ticks every 1, 2 or 5 × 10^k steps, about one per 80 pixels: [step index, label (its action number)]. */
function timelineTicks(n, W) {
  const raw = n / Math.max(1, Math.floor(W / 80));
  const p = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw))));
  const every = [1, 2, 5, 10].map((m) => m * p).find((x) => x >= raw) || 10 * p;
  const out = [];
  for (let i = 0; i < n; i += every) out.push([i, steps[i].action === null ? "" : String(steps[i].action)]);
  return out;
}
let ticks = [];

function drawTimeline() {
  const W = timeline.clientWidth || 800, H = timeline.height;
  if (timeline.width !== W) timeline.width = W;
  tctx.clearRect(0, 0, W, H);
  const n = steps.length, X = (i) => (n <= 1 ? 0 : (i / (n - 1)) * (W - 1));
  let maxLevel = 1, maxScore = 1;
  for (const s of steps) { maxLevel = Math.max(maxLevel, s.level || 0); maxScore = Math.max(maxScore, s.score || 0); }
  const top = 14, bottom = H - 16, Y = (v, m) => bottom - (v / m) * (bottom - top);
  // The axis: ticks labelled with the action number of the step they mark.
  ticks = timelineTicks(n, W);
  tctx.fillStyle = "#555"; tctx.font = "10px sans-serif"; tctx.textBaseline = "bottom";
  for (const [i, label] of ticks) {
    const x = X(i);
    tctx.fillRect(x, bottom, 1, 4);
    tctx.textAlign = x < 20 ? "left" : x > W - 20 ? "right" : "center";
    tctx.fillText(label, x, H);
  }
  tctx.fillRect(0, bottom, W, 1);
  // Level as a filled band, score as a line, game overs (attempt rises) as dark ticks, tampering as red marks.
  tctx.fillStyle = "rgba(30,147,255,0.25)";
  for (let i = 0; i < n; i++) { const l = steps[i].level; if (l !== null) { const x0 = X(i), x1 = X(i + 1); tctx.fillRect(x0, Y(l, maxLevel), Math.max(1, x1 - x0), bottom - Y(l, maxLevel)); } }
  tctx.strokeStyle = "#4fcc30"; tctx.lineWidth = 2; tctx.beginPath();
  steps.forEach((s, i) => { if (s.score !== null) { const y = Y(s.score, maxScore); if (i === 0) tctx.moveTo(X(i), y); else tctx.lineTo(X(i), y); } });
  tctx.stroke();
  tctx.fillStyle = "#333";
  for (let i = 1; i < n; i++) if (steps[i].attempt !== null && steps[i - 1].attempt !== null && steps[i].level === steps[i - 1].level && steps[i].attempt > steps[i - 1].attempt) tctx.fillRect(X(i) - 1, top, 2, bottom - top);
  // HP (orange, on its own scale) and deaths (black triangles), for a game whose header carries them.
  let maxHp = 0;
  for (const s of steps) if (s.hp !== undefined) maxHp = Math.max(maxHp, s.hp);
  if (maxHp > 0) {
    tctx.strokeStyle = "#ff851b"; tctx.lineWidth = 1; tctx.beginPath();
    let started = false;
    steps.forEach((s, i) => { if (s.hp !== undefined) { const y = Y(s.hp, maxHp); if (!started) { tctx.moveTo(X(i), y); started = true; } else tctx.lineTo(X(i), y); } });
    tctx.stroke();
  }
  // The experience level (purple, on its own scale), from the header's vitals.
  const xlOf = (s) => { const m = s.vitals ? /^XL (\d+)/.exec(s.vitals) : null; return m ? Number(m[1]) : null; };
  let maxXl = 0;
  for (const s of steps) { const x = xlOf(s); if (x !== null) maxXl = Math.max(maxXl, x); }
  if (maxXl > 0) {
    tctx.strokeStyle = "#b10dc9"; tctx.lineWidth = 1; tctx.beginPath();
    let started = false;
    steps.forEach((s, i) => { const x = xlOf(s); if (x !== null) { const y = Y(x, Math.max(maxXl, 2)); if (!started) { tctx.moveTo(X(i), y); started = true; } else tctx.lineTo(X(i), y); } });
    tctx.stroke();
  }
  tctx.fillStyle = "#000";
  steps.forEach((s, i) => { if (s.end) { const x = X(i); tctx.beginPath(); tctx.moveTo(x - 6, bottom); tctx.lineTo(x + 6, bottom); tctx.lineTo(x, bottom - 12); tctx.fill(); } });
  tctx.fillStyle = "#f93c31";
  for (const t of data.tampers) { const x = X(t.step); tctx.beginPath(); tctx.moveTo(x - 5, 0); tctx.lineTo(x + 5, 0); tctx.lineTo(x, 10); tctx.fill(); }
  tctx.fillStyle = "#000"; tctx.fillRect(X(step) - 1, 0, 2, bottom);
}

function pickTimeline(ev) {
  const r = timeline.getBoundingClientRect();
  go(Math.round(((ev.clientX - r.left) / Math.max(1, r.width - 1)) * (steps.length - 1)));
}

function togglePlay() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
  $("play").textContent = "pause";
  timer = setInterval(() => {
    if (frame < steps[step].boards - 1) go(step, frame + 1);
    else if (step < steps.length - 1) go(step + 1, 0);
    else togglePlay();
  }, 120);
}

slider.addEventListener("input", () => go(Number(slider.value)));
frameSlider.addEventListener("input", () => go(step, Number(frameSlider.value)));
timeline.addEventListener("mousedown", pickTimeline);
$("prev").addEventListener("click", () => go(step - 1));
$("next").addEventListener("click", () => go(step + 1));
$("play").addEventListener("click", togglePlay);
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
  const k = ev.key, big = ev.shiftKey ? 10 : 1;
  if (k === "ArrowRight" || k === "l") go(step + big);
  else if (k === "ArrowLeft" || k === "j") go(step - big);
  else if (k === "Home") go(0);
  else if (k === "End") go(steps.length - 1);
  else if (k === "ArrowUp" || k === "]") go(step, frame + 1);
  else if (k === "ArrowDown" || k === "[") go(step, frame - 1);
  else if (k === "f") go(step, 0);
  else if (k === " ") togglePlay();
  else if (k === "h") { highlight = !highlight; render(); }
  else if (k === "t") { const t = data.tampers.find((t) => t.step > step) || data.tampers[0]; if (t) go(t.step); }
  else return;
  ev.preventDefault();
});
window.addEventListener("resize", drawTimeline);
window.addEventListener("hashchange", () => { const s = stepFromHash(); if (s !== null && s !== step) go(s); });

const list = $("tampers");
for (const t of data.tampers) {
  const li = document.createElement("li"), a = document.createElement("a");
  a.href = "#step=" + (t.step + 1); a.textContent = (t.action === null ? "before any action" : "after action " + t.action) + " — " + t.kind + ": " + t.detail;
  a.addEventListener("click", (e) => { e.preventDefault(); go(t.step); });
  li.append(a); list.append(li);
}
$("tamper-count").textContent = data.tampers.length === 0 ? "no tamper events" : data.tampers.length + " tamper event(s)";
$("warnings").textContent = data.warnings.join("\n");

window.prolongReplay = {
  go,
  state: () => ({ step, frame, section: steps[step].section, action: steps[step].action, changed: lastChanged === null ? null : lastChanged.length, boards: steps[step].boards }),
  steps: steps.length,
  ticks: () => ticks,
};
go(stepFromHash() ?? 0);
document.body.dataset.ready = "1";
})().catch((e) => { document.body.dataset.error = String(e); const p = document.getElementById("warnings"); if (p) p.textContent = "viewer failed: " + e; });
`;
