// Chooses the next batch: the shortest known path to the nearest state that still has an untested action,
// then that action, all in one batch. "Nearest" weighs salience: a tier costs as much as TIER_STEPS steps of
// walking, so a salient target a few steps away beats a background click right here. On a level where an
// action deep in it led straight back to the start (a combination's wrong press), a step of the sequence
// already passed (one action there led on, another back to the start) waits a tier behind the newest step.
// When a step meter will run out before the walk arrives, it restarts the level (if from the start the
// target fits in a whole attempt). When nothing untested is reachable, it restarts the level if the level's
// start reaches something untested; otherwise it re-tries the nearest action that did change the state (games
// may hide state), each at most RETRY_LIMIT times, then actions that ended an attempt (perhaps only the step
// budget ran out). Then the model of the level has nothing left to suggest, and broad exploration takes over:
// every offered action and a click on every thing, the least tried in this state first, no-ops and deadly
// actions included — it never stops. Until then, an action that never changed anything at a state is never
// chosen there again (the no-change memory), and one that ended most of its tries is not walked through.
import type { Action, ActionId, GridAction } from "../../game-model.ts";
import { actionText } from "../../action-text.ts";
import { actionKey, isDeadly, isNoop, type Edge, type ExplorationGraph } from "./graph.ts";
import {
  predictedDeath,
  predictedOutcome,
  predictedQuiet,
  predictedStop,
  PREDICTED_DEATH_TIERS,
  PREDICTED_QUIET_TIERS,
  PREDICTED_TIERS,
} from "./predict.ts";
import { segment } from "./segment.ts";
import { untestedCandidates, type Candidate } from "./targets.ts";

export const TIER_STEPS = 8;
/** Tiers that the remaining actions of a passed step of a sequence wait (see passedPrefix). */
export const PASSED_TIERS = 1;
/** Times an action that changes the state is re-tried once everything reachable is tested. */
export const RETRY_LIMIT = 3;
/** Moves in a row after which the explorer stops preferring to keep going the same way. */
export const MAX_STREAK = 8;

export interface PlanContext {
  readonly available: readonly ActionId[];
  readonly actionCap: number;
  readonly seed: number;
}

export interface Decision {
  readonly actions: Action[];
  /** Why, in a sentence, for the plan text. */
  readonly reason: string;
  readonly kind: "explore" | "reset" | "retry" | "broad" | "memoryless" | "none";
}

interface Found {
  readonly path: Edge[];
  readonly candidate: Candidate;
  readonly cost: number;
  readonly tie: number;
}

export function decide(graph: ExplorationGraph, ctx: PlanContext): Decision {
  const current = graph.current;
  if (current === undefined) return { actions: [], reason: "the log ends without a board to act on", kind: "none" };
  const cap = Math.max(1, ctx.actionCap);

  if (graph.transitions === 0) return memoryless(graph, current, ctx);

  const found = nearestUntested(graph, current, ctx);
  // The step meter runs out before the walk gets there: restart now, if from the level's start the nearest
  // untested action fits in a whole attempt (else walk on: dying at the edge marks it, and the rest opens up).
  const left = graph.stepsLeft;
  const budget = graph.attemptBudget;
  if (found && left !== undefined && budget !== undefined && found.path.length + 1 > left && graph.levelStart !== current) {
    const fromStart = graph.levelStart !== undefined ? nearestUntested(graph, graph.levelStart, ctx) : undefined;
    if (fromStart && fromStart.path.length + 1 <= budget)
      return {
        actions: [{ id: 0 }],
        reason: `the step meter leaves about ${left} steps, too few for the ${found.path.length + 1} to the next untested action; restart the level`,
        kind: "reset",
      };
  }
  if (found) {
    const walk = found.path.map((e) => e.action);
    const actions = [...walk, found.candidate.action].slice(0, cap);
    const where = walk.length === 0 ? "here" : `after walking ${walk.length} known step${walk.length === 1 ? "" : "s"}`;
    return {
      actions,
      reason: `try untested ${actionText(found.candidate.action, "log")} (${found.candidate.why}, tier ${found.candidate.tier}) ${where}`,
      kind: "explore",
    };
  }
  // Nothing new reachable from here: if the level's start reaches untested actions (moves can be one-way),
  // restart the level. RESET is always allowed (the runner accepts it whatever the game offers).
  const levelStart = graph.levelStart;
  const atStart = levelStart === undefined || levelStart === current;
  if (!atStart && nearestUntested(graph, levelStart, ctx)) {
    return { actions: [{ id: 0 }], reason: "nothing untested is reachable from here; restart the level", kind: "reset" };
  }
  const retry = nearestRetry(graph, current);
  if (retry) {
    const walk = retry.map((e) => e.action);
    const last = retry[retry.length - 1]!;
    return {
      actions: walk.slice(0, cap),
      reason: `everything reachable is tested; re-try ${actionText(last.action, "log")} (changed the state, tried ${last.tries}x) in case the game hides state`,
      kind: "retry",
    };
  }
  if (!atStart && nearestRetry(graph, levelStart)) {
    return {
      actions: [{ id: 0 }],
      reason: "everything reachable is tested and re-tried; restart the level to re-try from its start",
      kind: "reset",
    };
  }
  // Actions that ended attempts may only have met the end of a step budget: re-try those last.
  const fatal = nearestRetry(graph, current, true);
  if (fatal) {
    const last = fatal[fatal.length - 1]!;
    return {
      actions: fatal.map((e) => e.action).slice(0, cap),
      reason: `everything else is tested; re-try ${actionText(last.action, "log")}, which ended an attempt ${last.deaths}x (perhaps only the step budget ran out)`,
      kind: "retry",
    };
  }
  return broad(graph, current, ctx);
}

/**
 * The floor under the rules: once the model of the level yields nothing new (everything reachable tested and
 * re-tried), every action the game offers and a click on every thing on the whole board, status indicators
 * included, stay in play — the one tried fewest times in this state first, ties by the seed; actions that did
 * nothing here and actions that ended attempts included. Games can hide what decides an action (a clock, a
 * count of presses, a thing the mask blanked), so an action that did nothing or was fatal once may do
 * something else later: random play reaches such levels, and the explorer must too. It never stops while
 * the budget lasts.
 */
function broad(graph: ExplorationGraph, current: string, ctx: PlanContext): Decision {
  const node = graph.states.get(current)!;
  const out = graph.edges.get(current);
  const options: GridAction[] = [];
  for (const id of ctx.available) if (id !== 0 && id !== 6) options.push({ id });
  if (ctx.available.includes(6))
    for (const c of segment({ width: graph.width, height: graph.height, cells: node.cells }).components)
      options.push({ id: 6, x: c.clickX, y: c.clickY });
  if (options.length === 0) return { actions: [], reason: "the game offers no action", kind: "none" };
  // Undo depends on history and has no edge to count its tries: it draws level with the least tried.
  const tried = (a: GridAction) => out?.get(actionKey(a))?.tries ?? 0;
  const least = Math.min(...options.filter((a) => a.id !== 7).map(tried));
  const tries = (a: GridAction) => (a.id === 7 ? (Number.isFinite(least) ? least : 0) : tried(a));
  const tie = (a: GridAction) => tieBreak(ctx.seed, `broad:${graph.lastActionNumber}:${actionKey(a)}`);
  const pick = options.reduce((best, a) =>
    tries(a) < tries(best) || (tries(a) === tries(best) && tie(a) < tie(best)) ? a : best,
  );
  return {
    actions: [pick],
    reason: `nothing the rules suggest is left; broad exploration: ${actionText(pick, "log")} (tried ${tries(pick)}x here)`,
    kind: "broad",
  };
}

/**
 * A step of a sequence already passed: from this state one action led on (deeper) and another straight back
 * to the level's start, as a wrong press of a combination does. Its other actions probably lead back too, so
 * they wait a tier behind the newest step of the sequence.
 */
function passedPrefix(graph: ExplorationGraph, key: string, d: number, depth: ReadonlyMap<string, number>): boolean {
  if (d === 0 || graph.levelStart === undefined) return false;
  let on = false;
  let back = false;
  for (const e of graph.edges.get(key)?.values() ?? []) {
    if (e.changes === 0 || isDeadly(e)) continue;
    if (e.to === graph.levelStart) back = true;
    else if ((depth.get(e.to) ?? 0) > d) on = true;
  }
  return on && back;
}

/**
 * Whether some action two or more known steps into the level led straight back to its start, as a wrong
 * press of a combination does (a maze's step back only does so next to the start): the level is a sequence.
 */
function resetsToStart(graph: ExplorationGraph, depth: ReadonlyMap<string, number>): boolean {
  if (graph.levelStart === undefined) return false;
  for (const [key, d] of depth) {
    if (d < 2) continue;
    for (const e of graph.edges.get(key)?.values() ?? [])
      if (e.to === graph.levelStart && e.changes > 0 && !isDeadly(e)) return true;
  }
  return false;
}

/** Known steps from the level's start to each state of the level (safe edges). */
function depths(graph: ExplorationGraph, score: number): Map<string, number> {
  const out = new Map<string, number>();
  const start = graph.levelStart;
  if (start === undefined || graph.states.get(start)?.score !== score) return out;
  out.set(start, 0);
  let frontier = [start];
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const key of frontier) {
      for (const edge of graph.edges.get(key)?.values() ?? []) {
        if (isDeadly(edge) || out.has(edge.to) || graph.states.get(edge.to)?.score !== score) continue;
        out.set(edge.to, d);
        next.push(edge.to);
      }
    }
    frontier = next;
  }
  return out;
}

type Via = Map<string, { prev: string; edge: Edge } | null>;

/** BFS over safe known edges within the level, stopping once no farther state can be cheaper. */
function nearestUntested(graph: ExplorationGraph, from: string, ctx: PlanContext): Found | undefined {
  const start = graph.states.get(from);
  if (!start) return undefined;
  const depth = depths(graph, start.score);
  const sequence = resetsToStart(graph, depth);
  const via: Via = new Map([[from, null]]);
  let frontier = [from];
  let best: Found | undefined;
  for (let distance = 0; frontier.length > 0; distance++) {
    if (best && distance > best.cost) break;
    const next: string[] = [];
    for (const key of frontier) {
      const node = graph.states.get(key);
      if (!node) continue;
      const out = graph.edges.get(key);
      // Momentum, but not forever: after MAX_STREAK of one move the others go first.
      const into =
        key === graph.current ? (graph.streak < MAX_STREAK ? graph.arrivedBy : undefined) : via.get(key)?.edge.action.id;
      const walked = via.get(key)?.edge.action;
      const clickedInto = key === graph.current ? graph.clickMemory.arrivedByClick : walked?.id === 6 ? walked : undefined;
      const list = untestedCandidates(graph.segmentation(node), ctx.available, out, graph, node.score, into, clickedInto);
      const top = unpredicted(graph, key, list);
      if (top) {
        const d = depth.get(key) ?? 0;
        const passed = sequence && passedPrefix(graph, key, d, depth) ? PASSED_TIERS : 0;
        const found: Found = {
          path: pathTo(via, key),
          candidate: top,
          cost: distance + TIER_STEPS * (top.tier + passed),
          tie: tieBreak(ctx.seed, key + top.key),
        };
        if (!best || better(found, best)) best = found;
      }
      expand(graph, key, out, start.score, via, next);
    }
    frontier = next;
  }
  return best;
}

/**
 * The best candidate once those predicted to lead to a known state wait PREDICTED_TIERS (predict.ts): the
 * first of the list whose tier, so raised, is lowest. Returned with its raised tier.
 */
function unpredicted(graph: ExplorationGraph, key: string, list: readonly Candidate[]): Candidate | undefined {
  let best: Candidate | undefined;
  for (const c of list) {
    if (best && c.tier >= best.tier) break;
    if (predictedDeath(graph, key, c.action)) {
      const tier = c.tier + PREDICTED_DEATH_TIERS;
      if (!best || tier < best.tier) best = { ...c, tier, why: `${c.why}, probably into a known hazard` };
      continue;
    }
    if (predictedStop(graph, key, c.action)) {
      // A predicted no-op, as one blocked in the same surroundings: it waits as long.
      const tier = c.tier + PREDICTED_QUIET_TIERS;
      if (!best || tier < best.tier) best = { ...c, tier, why: `${c.why}, probably stopped here: its slide ended here` };
      continue;
    }
    if (predictedQuiet(graph, key, c.action)) {
      const tier = c.tier + PREDICTED_QUIET_TIERS;
      if (!best || tier < best.tier)
        best = { ...c, tier, why: `${c.why}, probably blocked here as in the same surroundings before` };
      continue;
    }
    const to = predictedOutcome(graph, key, c.action);
    const tier = to === undefined ? c.tier : c.tier + PREDICTED_TIERS;
    if (!best || tier < best.tier)
      best = to === undefined ? c : { ...c, tier, why: `${c.why}, probably leading back to a known state` };
  }
  return best;
}

/** Cheaper; at equal cost a shorter walk, then the seeded tie-break. */
function better(a: Found, b: Found): boolean {
  if (a.cost !== b.cost) return a.cost < b.cost;
  if (a.path.length !== b.path.length) return a.path.length < b.path.length;
  return a.tie < b.tie;
}

/** The nearest edge that changed the state, is not deadly (or, asked for, is) and was tried fewer than RETRY_LIMIT times: the path ending with it. */
function nearestRetry(graph: ExplorationGraph, from: string, deadly = false): Edge[] | undefined {
  const start = graph.states.get(from);
  if (!start) return undefined;
  const via: Via = new Map([[from, null]]);
  let frontier = [from];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const key of frontier) {
      const out = graph.edges.get(key);
      let pick: Edge | undefined;
      for (const e of out?.values() ?? []) {
        if (isDeadly(e) !== deadly || isNoop(e) || e.tries >= RETRY_LIMIT) continue;
        if (!pick || e.tries < pick.tries) pick = e;
      }
      if (pick) return [...pathTo(via, key), pick];
      expand(graph, key, out, start.score, via, next);
    }
    frontier = next;
  }
  return undefined;
}

function expand(
  graph: ExplorationGraph,
  key: string,
  out: Map<string, Edge> | undefined,
  score: number,
  via: Via,
  next: string[],
): void {
  for (const edge of out?.values() ?? []) {
    if (isDeadly(edge) || via.has(edge.to)) continue;
    const target = graph.states.get(edge.to);
    if (!target || target.score !== score) continue;
    via.set(edge.to, { prev: key, edge });
    next.push(edge.to);
  }
}

function pathTo(via: Via, key: string): Edge[] {
  const path: Edge[] = [];
  let at = via.get(key);
  while (at) {
    path.push(at.edge);
    at = via.get(at.prev);
  }
  return path.reverse();
}

/** Without history (a newest-section-only log) every action looks untested: pick among the most salient by seed. */
function memoryless(graph: ExplorationGraph, current: string, ctx: PlanContext): Decision {
  const node = graph.states.get(current)!;
  const list = untestedCandidates(graph.segmentation(node), ctx.available, undefined);
  if (list.length === 0) return { actions: [], reason: "no action is available", kind: "none" };
  const tier = list[0]!.tier;
  const pool = list.filter((c) => c.tier === tier);
  const pick = pool[tieBreak(ctx.seed, `memoryless:${graph.lastActionNumber}`) % pool.length]!;
  return {
    actions: [pick.action],
    reason: `no history to build a graph from; try ${actionText(pick.action, "log")} (${pick.why})`,
    kind: "memoryless",
  };
}

function tieBreak(seed: number, text: string): number {
  return Number(Bun.hash.wyhash(text, BigInt(seed >>> 0)) & 0x7fffffffn);
}
