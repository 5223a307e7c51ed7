// What is still worth trying in a state, best first. Moves and interact come first (few, and they say the
// most about a game); then clicks at components in salience tiers: small rare-colour things before large
// ones and backgrounds. A target that looks exactly like one already tried in this state waits until last:
// lookalikes usually behave alike, yet some puzzles (toggle grids) need them all.
import type { Action, ActionId } from "../../game-model.ts";
import { actionKey, diedOnce, type Edge, type InertClasses } from "./graph.ts";
import { segment, type Component } from "./segment.ts";

export interface Candidate {
  readonly action: Action;
  readonly key: string;
  /** 0 = most salient; higher tiers are tried only when lower ones are used up nearby. */
  readonly tier: number;
  /** Short words for the plan text. */
  readonly why: string;
}

export const TIER_COUNT = 5;
const LOOKALIKE_TIER = 3;
const RETRY_FATAL_TIER = 3;
/** Kinds of action that never did anything anywhere come after everything else. */
const INERT_TIER = 4;

export const NO_INERT: InertClasses = { moves: new Set(), clickColours: new Set() };

/** Untested actions of a state, ordered best first. `tried` holds the state's edges (tested actions). */
export function untestedCandidates(
  board: Uint8Array, width: number, height: number, masked: Uint8Array,
  available: readonly ActionId[], tried: ReadonlyMap<string, Edge> | undefined, inert: InertClasses = NO_INERT,
): Candidate[] {
  const out: Candidate[] = [];
  for (const id of [1, 2, 3, 4, 5] as const) {
    if (!available.includes(id)) continue;
    const action: Action = { id };
    const key = actionKey(action);
    if (!tried?.has(key)) out.push({ action, key, tier: inert.moves.has(id) ? INERT_TIER : 0, why: `ACTION${id}` });
  }
  if (available.includes(6)) out.push(...clickCandidates(board, width, height, masked, tried, inert));
  for (const [key, edge] of tried ?? []) {
    if (diedOnce(edge)) out.push({ action: edge.action, key, tier: RETRY_FATAL_TIER, why: "it ended one attempt, perhaps only by the step budget" });
  }
  // Stable sort keeps moves before clicks within a tier.
  return out.sort((a, b) => a.tier - b.tier);
}

function clickCandidates(
  board: Uint8Array, width: number, height: number, masked: Uint8Array, tried: ReadonlyMap<string, Edge> | undefined,
  inert: InertClasses,
): Candidate[] {
  const seg = segment({ width, height, cells: board }, masked);
  const testedComponents = new Set<number>();
  const testedLooks = new Set<string>();
  for (const edge of tried?.values() ?? []) {
    const a = edge.action;
    if (a.id !== 6 || a.x < 0 || a.y < 0 || a.x >= width || a.y >= height) continue;
    const id = seg.labels[a.y * width + a.x]!;
    if (id < 0) continue;
    testedComponents.add(id);
    testedLooks.add(seg.components[id]!.look);
  }
  const colourCells = new Int32Array(16);
  let visible = 0;
  for (const c of seg.components) {
    colourCells[c.color]! += c.size;
    visible += c.size;
  }
  const area = Math.max(1, visible);
  const ranked: { c: Component; tier: number; share: number }[] = [];
  for (const c of seg.components) {
    if (testedComponents.has(c.id)) continue;
    const share = colourCells[c.color]! / area;
    const tier = inert.clickColours.has(c.color) ? INERT_TIER : testedLooks.has(c.look) ? LOOKALIKE_TIER : salienceTier(c, share, area);
    ranked.push({ c, tier, share });
  }
  ranked.sort((a, b) => a.tier - b.tier || a.share - b.share || a.c.size - b.c.size
    || a.c.clickY - b.c.clickY || a.c.clickX - b.c.clickX);
  return ranked.map(({ c, tier }) => {
    const action: Action = { id: 6, x: c.clickX, y: c.clickY };
    return { action, key: actionKey(action), tier, why: `${c.size}-cell colour-${c.color} component` };
  });
}

/** Tier of a click target by size and colour rarity; `area` is the number of unmasked cells. */
export function salienceTier(c: Component, colourShare: number, area: number): number {
  if (c.size <= area / 40 && colourShare <= 0.2) return 0;
  const background = c.size > area / 16 && c.touchesEdge;
  if (c.size <= area / 8 && !background) return 1;
  return 2;
}
