// What is still worth trying in a state, best first. Moves and interact come first (few, and they say the
// most about a game; the move that led here before the one that usually undoes it); then clicks at connected
// components in salience tiers: small rare-colour things, then larger ones and backgrounds. Within a tier,
// places near earlier clicks that changed the board come first and places near clicks that did nothing
// last; an area where clicks did nothing drops a tier. What never changed anything goes last: a kind of thing
// (a colour on what it sits on) clicked three times without effect, a move that never did anything in eight
// states. What clicks did is remembered by the thing clicked (click-memory.ts): the same thing at the same
// place that did nothing in another state waits within its tier; one that led to one same state from every
// state waits a tier (its outcome is known); in a game where clicking a place again undoes the click, the
// thing clicked into a state waits there. A target that looks exactly like one already tried in this state,
// on the same surround, waits too: lookalikes usually behave alike, yet some puzzles (toggle grids) need them
// all.
import type { Action, ActionId } from "../../game-model.ts";
import { ClickMemory, near } from "./click-memory.ts";
import { actionKey, diedOnce, type ClickTry, type Edge, type Tally } from "./graph.ts";
import { readLegends, type LegendReading } from "./legend.ts";
import { destinationsFor } from "./destinations.ts";
import { readReference } from "./reference.ts";
import { readTwins } from "./twins.ts";
import type { Component, Segmentation } from "./segment.ts";

export interface Candidate {
  readonly action: Action;
  readonly key: string;
  /** 0 = most salient; higher tiers are tried only when lower ones are used up nearby. */
  readonly tier: number;
  /** Short words for the plan text. */
  readonly why: string;
}

export const TIER_COUNT = 6;
const LOOKALIKE_TIER = 3;
/** A move that usually leads straight back where the last move came from. */
const BACKTRACK_TIER = 1;
const RETRY_FATAL_TIER = 3;
/** Clicks near earlier clicks that did nothing. */
const QUIET_AREA_TIER = 4;
/** Prior taken off the same thing at the same place when it did nothing in another state of the level. */
const QUIET_SPOT = 2;
/** Prior added to a tile that disagrees with a legend (see legend.ts): such tiles go first. */
const LEGEND = 10;
/** Kinds of action that never did anything anywhere come after everything else. */
const INERT_TIER = 5;
const INERT_CLICK_AFTER = 3;
/** Moves get more slack: in a corridor a direction can bump into walls several times and still be the way on. */
const INERT_MOVE_AFTER = 8;
/** Distance (cells) over which an earlier click's outcome speaks for a target: weight exp(-d / REACH). */
const REACH = 6;
/** Only the newest clicks of the level are weighed: the cost stays bounded on long levels. */
const RECENT_CLICKS = 96;
const QUIET = -0.5;

/** What the explorer learned about kinds of action (ExplorationGraph keeps these tallies). */
export interface Learned {
  readonly moves: ReadonlyMap<number, Tally>;
  readonly clickColours: ReadonlyMap<number, Tally>;
  readonly clickLooks: ReadonlyMap<string, Tally>;
  /** Clicks first tried on each level (by score): where, and whether they changed the state. */
  readonly clicks: ReadonlyMap<number, readonly ClickTry[]>;
  /** What clicks did by the thing clicked: the same thing at the same place, things of one kind. */
  readonly clickMemory: ClickMemory;
  /** Whether move b, right after move a, usually leads straight back. */
  isInverse(a: number, b: number): boolean;
}

export const NOTHING_LEARNED: Learned = {
  moves: new Map(),
  clickColours: new Map(),
  clickLooks: new Map(),
  clicks: new Map(),
  clickMemory: new ClickMemory(),
  isInverse: () => false,
};

const inert = (t: Tally | undefined, after: number) => t !== undefined && t.tries >= after && t.changes === 0;

/** Untested actions of a state, ordered best first. `tried` holds the state's edges (tested actions). */
export function untestedCandidates(
  seg: Segmentation,
  available: readonly ActionId[],
  tried: ReadonlyMap<string, Edge> | undefined,
  learned: Learned = NOTHING_LEARNED,
  score = 0,
  arrivedBy?: number,
  clickedInto?: { readonly x: number; readonly y: number },
): Candidate[] {
  const out: Candidate[] = [];
  // Keep going the way that led here first; a move that usually undoes that one comes later.
  const moving = arrivedBy !== undefined && arrivedBy >= 1 && arrivedBy <= 5 ? arrivedBy : undefined;
  const order = moving !== undefined ? [moving, 1, 2, 3, 4, 5] : [1, 2, 3, 4, 5];
  const seen = new Set<number>();
  for (const id of order as (1 | 2 | 3 | 4 | 5)[]) {
    if (seen.has(id) || !available.includes(id)) continue;
    seen.add(id);
    const action: Action = { id };
    const key = actionKey(action);
    if (tried?.has(key)) continue;
    if (inert(learned.moves.get(id), INERT_MOVE_AFTER))
      out.push({ action, key, tier: INERT_TIER, why: `ACTION${id}, which never changed anything` });
    else if (moving !== undefined && learned.isInverse(moving, id))
      out.push({ action, key, tier: BACKTRACK_TIER, why: `ACTION${id}, which usually undoes ACTION${moving}` });
    else out.push({ action, key, tier: 0, why: `ACTION${id}` });
  }
  if (available.includes(6)) out.push(...clickCandidates(seg, tried, learned, score, clickedInto));
  for (const [key, edge] of tried ?? []) {
    if (diedOnce(edge))
      out.push({
        action: edge.action,
        key,
        tier: RETRY_FATAL_TIER,
        why: "it ended one attempt, perhaps only by the step budget",
      });
  }
  // Stable sort keeps moves before clicks within a tier.
  out.sort((a, b) => a.tier - b.tier);
  // A reference row's next click goes ahead of everything, moves and submit included (a submit before the
  // slots are filled costs a try).
  const reference = available.includes(6) ? readReference(seg, clickedInto) : undefined;
  if (reference) {
    const action: Action = { id: 6, x: reference.click.x, y: reference.click.y };
    const at = out.findIndex((c) => c.key === actionKey(action));
    if (at >= 0) out.unshift({ ...out.splice(at, 1)[0]!, tier: 0, why: reference.why });
  } else if (available.includes(6)) {
    // Twin copies of one drawing that differ in a few parts: those parts go first, the ones near clicks that
    // changed something (the working copy) ahead of the ones near clicks that did nothing (the goal copy).
    const twins = readTwins(seg);
    if (twins && twins.clicks.length === 0) {
      // The copies agree: what is left to try is something else (a button that runs or submits), not a part
      // of the copies, whose click would undo the agreement.
      const parts = new Set(twins.parts.map((p) => actionKey({ id: 6, x: p.x, y: p.y })));
      const keep = out.filter((c) => !parts.has(c.key));
      out.splice(0, out.length, ...keep, ...out.filter((c) => parts.has(c.key)));
    } else if (twins) {
      const clicks = learned.clicks.get(score) ?? [];
      const ranked = twins.clicks
        .map((c, i) => ({ c, i, prior: clickPrior(c.x, c.y, clicks) }))
        .sort((a, b) => b.prior - a.prior || a.i - b.i);
      for (const { c } of ranked.reverse()) {
        const action: Action = { id: 6, x: c.x, y: c.y };
        const at = out.findIndex((k) => k.key === actionKey(action));
        if (at >= 0)
          out.unshift({ ...out.splice(at, 1)[0]!, tier: 0, why: `a part that differs between two copies of one drawing` });
      }
    }
  }
  // After a click that changed the board (perhaps picking a thing up), the middles of outlines drawn in a
  // colour the thing carries go first: where it probably belongs.
  if (!reference && available.includes(6) && clickedInto !== undefined) {
    for (const d of destinationsFor(seg, clickedInto).reverse()) {
      const action: Action = { id: 6, x: d.x, y: d.y };
      const key = actionKey(action);
      if (tried?.has(key)) continue;
      const at = out.findIndex((k) => k.key === key);
      if (at >= 0) out.splice(at, 1);
      out.unshift({
        action,
        key,
        tier: 0,
        why: `the middle of an outline in colour ${d.color}, which the thing clicked carries`,
      });
    }
  }
  return out;
}

/**
 * How earlier clicks on this level speak for a place: + for clicks nearby that changed the state, − for
 * clicks nearby that did nothing. Games group what is clickable (a playing field beside inert reference
 * pictures), so outcomes carry over to neighbours better than to lookalikes elsewhere.
 */
export function clickPrior(x: number, y: number, clicks: readonly ClickTry[]): number {
  let prior = 0;
  for (let i = Math.max(0, clicks.length - RECENT_CLICKS); i < clicks.length; i++) {
    const c = clicks[i]!;
    const d = Math.max(Math.abs(c.x - x), Math.abs(c.y - y));
    if (d > 4 * REACH) continue;
    prior += (c.changed ? 1 : -1) * Math.exp(-d / REACH);
  }
  return prior;
}

function clickCandidates(
  seg: Segmentation,
  tried: ReadonlyMap<string, Edge> | undefined,
  learned: Learned,
  score: number,
  clickedInto: { readonly x: number; readonly y: number } | undefined,
): Candidate[] {
  const { width, height } = seg;
  const clicks = learned.clicks.get(score) ?? [];
  // Where the click that led here landed, when clicking a place again usually undoes the click there: the
  // thing there waits if its own click point is that place (a big background the click happened to land on
  // is not clicked at the same place again).
  const undoing =
    clickedInto !== undefined &&
    learned.clickMemory.repeatUndoes() &&
    clickedInto.x >= 0 &&
    clickedInto.y >= 0 &&
    clickedInto.x < width &&
    clickedInto.y < height
      ? seg.labels[clickedInto.y * width + clickedInto.x]!
      : -1;
  const undoers = clickedInto === undefined ? [] : learned.clickMemory.undoing(score, clickedInto);
  // Per component that disagrees with a legend: its prior (a two-colour tile, which may change its neighbours, first).
  const legendIds = new Map<number, number>();
  for (const p of legendOf(seg, learned.clickMemory.legendSymbol)?.clicks ?? [])
    legendIds.set(seg.labels[p.y * width + p.x]!, p.patterned ? 2 * LEGEND : LEGEND);
  const testedComponents = new Set<number>();
  const testedLooks = new Set<string>();
  for (const edge of tried?.values() ?? []) {
    const a = edge.action;
    if (a.id !== 6 || a.x < 0 || a.y < 0 || a.x >= width || a.y >= height) continue;
    const id = seg.labels[a.y * width + a.x]!;
    if (id < 0) continue;
    testedComponents.add(id);
    testedLooks.add(lookInPlace(seg.components[id]!));
  }
  const colourCells = new Int32Array(16);
  let visible = 0;
  for (const c of seg.components) {
    colourCells[c.color]! += c.size;
    visible += c.size;
  }
  const area = Math.max(1, visible);
  const ranked: { c: Component; tier: number; share: number; prior: number; why: string }[] = [];
  for (const c of seg.components) {
    if (testedComponents.has(c.id)) continue;
    const share = colourCells[c.color]! / area;
    const look = learned.clickLooks.get(c.look);
    const prior = clickPrior(c.clickX, c.clickY, clicks);
    const spot = learned.clickMemory.spot(score, c);
    const what = `${c.size}-cell colour-${c.color} component`;
    let tier: number;
    let why = what;
    if (legendIds.has(c.id)) {
      tier = 0;
      why = `${what} that disagrees with the legend drawn beside it`;
    } else if (
      (c.id === undoing && near(clickedInto!, { x: c.clickX, y: c.clickY })) ||
      undoers.some((p) => near(p, { x: c.clickX, y: c.clickY }))
    ) {
      tier = LOOKALIKE_TIER;
      why = `${what} whose click usually undoes the click just before`;
    } else if (spot !== undefined && spot.to !== undefined) {
      // It changed the board in other states, always to one same state: its outcome is known already.
      tier = LOOKALIKE_TIER;
      why = `${what} that always leads to one known state`;
    } else if (inert(learned.clickMemory.kind(c), INERT_CLICK_AFTER)) tier = INERT_TIER;
    else if (testedLooks.has(lookInPlace(c))) tier = LOOKALIKE_TIER;
    else if (prior < QUIET) tier = QUIET_AREA_TIER;
    else tier = salienceTier(c, share, area);
    // Lookalikes of a click that did nothing wait within their tier, and the same thing at the same place
    // that did nothing in another state waits longer — within its tier only: a check or submit button does
    // nothing until the board is right.
    const quietLook = look !== undefined && look.changes === 0 ? 1 : 0;
    const quietSpot = spot !== undefined && spot.changes === 0 ? QUIET_SPOT : 0;
    if (quietSpot > 0 && tier !== INERT_TIER) why = `${what} that did nothing before`;
    const legend = legendIds.get(c.id) ?? 0;
    ranked.push({ c, tier, share, prior: prior - quietLook - quietSpot + legend, why });
  }
  ranked.sort(
    (a, b) =>
      a.tier - b.tier ||
      b.prior - a.prior ||
      a.share - b.share ||
      a.c.size - b.c.size ||
      a.c.clickY - b.c.clickY ||
      a.c.clickX - b.c.clickX,
  );
  return ranked.map(({ c, tier, why }) => {
    const action: Action = { id: 6, x: c.clickX, y: c.clickY };
    return { action, key: actionKey(action), tier, why };
  });
}

/** Legend readings per board (a board's segmentation is made once per state), with the symbol they assumed. */
const legends = new WeakMap<Segmentation, { symbol: number | undefined; reading: LegendReading | undefined }>();

function legendOf(seg: Segmentation, symbol: number | undefined): LegendReading | undefined {
  const hit = legends.get(seg);
  if (hit && hit.symbol === symbol) return hit.reading;
  const reading = readLegends(seg, symbol);
  legends.set(seg, { symbol, reading });
  return reading;
}

/** A thing's look and what it sits on: tiles of a reference panel are not lookalikes of the play area's. */
function lookInPlace(c: Component): string {
  return `${c.look}/${c.surround}`;
}

/** Tier of a click target by size and colour rarity; `area` is the number of unmasked cells. */
export function salienceTier(c: Component, colourShare: number, area: number): number {
  if (edgeLine(c)) return 2;
  if (c.size <= area / 40 && colourShare <= 0.2) return 0;
  const background = c.size > area / 16 && c.touchesEdge;
  if (c.size <= area / 8 && !background) return 1;
  return 2;
}

/**
 * A line one cell thick along the board's edge, a quarter of the side long or more: a frame or a status bar.
 * Clicked first, a step bar that every action drains seems to change with each click on it, and the clicks
 * landing on it keep it from being recognised as a meter (indicators.ts): every state then looks new.
 */
function edgeLine(c: Component): boolean {
  const w = c.maxX - c.minX + 1;
  const h = c.maxY - c.minY + 1;
  return c.touchesEdge && c.size === w * h && ((h === 1 && w >= 16) || (w === 1 && h >= 16));
}
