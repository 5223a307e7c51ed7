// The few chart shapes the report needs, drawn as standalone SVG text (no library, no script, no fonts to
// fetch): axes with round ticks, lines with interval bands, grouped bars with dots, steps, scatter, a legend.
// Every mark that stands for a number carries it in data-* attributes (the exact JS number), so the figure
// can be checked against the report's JSON.

export const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];

export const WIDTH = 660;
export const HEIGHT = 380;
const M = { left: 64, right: 16, top: 40, bottom: 52 };
/** Margins of one panel of several (small multiples): its title above, tick labels only. */
const PANEL_M = { left: 34, right: 8, top: 20, bottom: 22 };

/** Where a frame is drawn: the whole figure, or one panel of it. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export function esc(s: string): string {
  return s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** A number for an attribute of geometry (2 decimals is sub-pixel). */
const px = (x: number) => (Math.round(x * 100) / 100).toString();

/** Round tick values covering [lo, hi]: steps of 1, 2 or 5 × 10^n, about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) hi = lo + 1;
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const first = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let t = first; t <= hi + step * 1e-9; t += step) ticks.push(Math.round(t / step) * step);
  if (ticks[ticks.length - 1]! < hi) ticks.push(ticks[ticks.length - 1]! + step);
  return ticks;
}

function tickText(t: number): string {
  if (Math.abs(t) >= 10_000) return `${Math.round(t / 1000).toLocaleString("en-US")}k`;
  return Number.isInteger(t) ? t.toLocaleString("en-US") : Number(t.toPrecision(3)).toString();
}

export interface Frame {
  readonly x: (v: number) => number;
  readonly y: (v: number) => number;
  readonly parts: string[];
}

/** The plot area with its axes, ticks, grid and labels; returns the scales for the marks. */
export function frame(o: {
  title: string;
  xLabel: string;
  yLabel: string;
  xDomain: [number, number];
  yDomain: [number, number];
  xTicks?: number[] | undefined;
  xCategories?: string[] | undefined;
  /** A panel of a figure of several; its title is the panel's, axis labels are left to the figure. */
  panel?: Box | undefined;
}): Frame {
  const p = o.panel;
  const m = p
    ? {
        left: p.x + PANEL_M.left,
        right: WIDTH - p.x - p.w + PANEL_M.right,
        top: p.y + PANEL_M.top,
        bottom: HEIGHT - p.y - p.h + PANEL_M.bottom,
      }
    : M;
  const w = WIDTH - m.left - m.right;
  const h = HEIGHT - m.top - m.bottom;
  const xt = o.xTicks ?? niceTicks(o.xDomain[0], o.xDomain[1], p ? 3 : 5);
  const yt = niceTicks(o.yDomain[0], o.yDomain[1], p ? 3 : 5);
  const [x0, x1] = o.xCategories ? o.xDomain : [Math.min(o.xDomain[0], xt[0]!), Math.max(o.xDomain[1], xt[xt.length - 1]!)];
  const [y0, y1] = [Math.min(o.yDomain[0], yt[0]!), Math.max(o.yDomain[1], yt[yt.length - 1]!)];
  const x = (v: number) => m.left + ((v - x0) / (x1 - x0 || 1)) * w;
  const y = (v: number) => m.top + h - ((v - y0) / (y1 - y0 || 1)) * h;
  const parts: string[] = [
    p
      ? `<text x="${px(m.left + w / 2)}" y="${px(p.y + 13)}" text-anchor="middle" font-size="12" font-weight="600">${esc(o.title)}</text>`
      : `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${esc(o.title)}</text>`,
    ...yt.map(
      (t) =>
        `<line x1="${m.left}" x2="${m.left + w}" y1="${px(y(t))}" y2="${px(y(t))}" stroke="#e3e3e3"/><text x="${m.left - 6}" y="${px(y(t) + 4)}" text-anchor="end" font-size="11">${tickText(t)}</text>`,
    ),
    `<line x1="${m.left}" x2="${m.left + w}" y1="${m.top + h}" y2="${m.top + h}" stroke="#555"/>`,
    `<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${m.top + h}" stroke="#555"/>`,
  ];
  if (!p)
    parts.push(
      `<text x="${m.left + w / 2}" y="${HEIGHT - 10}" text-anchor="middle" font-size="12">${esc(o.xLabel)}</text>`,
      `<text transform="translate(16 ${m.top + h / 2}) rotate(-90)" text-anchor="middle" font-size="12">${esc(o.yLabel)}</text>`,
    );
  if (o.xCategories) {
    o.xCategories.forEach((c, i) =>
      parts.push(`<text x="${px(x(i + 0.5))}" y="${m.top + h + 16}" text-anchor="middle" font-size="11">${esc(c)}</text>`),
    );
  } else {
    for (const t of xt)
      parts.push(
        `<line x1="${px(x(t))}" x2="${px(x(t))}" y1="${m.top + h}" y2="${m.top + h + 4}" stroke="#555"/><text x="${px(x(t))}" y="${m.top + h + 16}" text-anchor="middle" font-size="11">${tickText(t)}</text>`,
      );
  }
  return { x, y, parts };
}

/**
 * A legend in the top-left of the plot area, one swatch per entry; `dashed` entries (a series drawn dashed
 * because it lies exactly on another) get a dashed line for a swatch.
 */
export function legend(entries: readonly { label: string; color: string; dashed?: boolean }[]): string {
  return entries
    .map((e, i) => {
      const y = M.top + 6 + i * 16;
      const swatch = e.dashed
        ? `<line x1="${M.left + 10}" x2="${M.left + 22}" y1="${y + 5}" y2="${y + 5}" stroke="${e.color}" stroke-width="2" stroke-dasharray="${DASH}"/>`
        : `<rect x="${M.left + 10}" y="${y}" width="12" height="10" fill="${e.color}"/>`;
      return `<g class="legend">${swatch}<text x="${M.left + 28}" y="${y + 9}" font-size="11">${esc(e.label)}</text></g>`;
    })
    .join("");
}

/** The dash of a series drawn over an identical one, so both stay visible. */
export const DASH = "5 4";

/** Axis labels shared by a figure of panels: x under the panels, y along their left. */
export function sharedLabels(xLabel: string, yLabel: string): string[] {
  return [
    `<text x="${WIDTH / 2}" y="${HEIGHT - 6}" text-anchor="middle" font-size="12">${esc(xLabel)}</text>`,
    `<text transform="translate(12 ${HEIGHT / 2}) rotate(-90)" text-anchor="middle" font-size="12">${esc(yLabel)}</text>`,
  ];
}

export function svgDocument(id: string, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" id="${esc(id)}" class="figure" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    ...body,
    "</svg>",
  ].join("\n");
}

/** The data attributes of one mark: the series it belongs to and the values it draws. */
export function dataAttrs(series: string, values: Readonly<Record<string, number | string | undefined>>): string {
  const attrs = [`data-series="${esc(series)}"`];
  for (const [k, v] of Object.entries(values)) if (v !== undefined) attrs.push(`data-${k}="${esc(String(v))}"`);
  return attrs.join(" ");
}

/** A polyline through the points; `step` draws horizontal-then-vertical steps (levels against actions). */
export function pathOf(points: readonly { x: number; y: number }[], f: Frame, step = false): string {
  let d = "";
  points.forEach((p, i) => {
    if (i === 0) d += `M${px(f.x(p.x))} ${px(f.y(p.y))}`;
    else if (step) d += `H${px(f.x(p.x))}V${px(f.y(p.y))}`;
    else d += `L${px(f.x(p.x))} ${px(f.y(p.y))}`;
  });
  return d;
}

/** The band between low and high along the points (bootstrap intervals). */
export function bandOf(
  points: readonly { x: number; low?: number | undefined; high?: number | undefined }[],
  f: Frame,
): string | null {
  const ok = points.filter(
    (p) => p.low !== undefined && p.high !== undefined && Number.isFinite(p.low) && Number.isFinite(p.high),
  );
  if (ok.length < 2) return null;
  const top = ok.map((p, i) => `${i === 0 ? "M" : "L"}${px(f.x(p.x))} ${px(f.y(p.high!))}`).join("");
  const bottom = [...ok]
    .reverse()
    .map((p) => `L${px(f.x(p.x))} ${px(f.y(p.low!))}`)
    .join("");
  return `${top}${bottom}Z`;
}
