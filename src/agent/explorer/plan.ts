// Chooses the next batch: the shortest known path to the nearest state that still has an untested action,
// then that action. "Nearest" weighs salience: a tier costs as much as TIER_STEPS steps of walking, so a
// salient target a few steps away beats a background click right here.
import type { Action, ActionId } from "../../game-model.ts";
import { formatToolCall } from "../../log/format.ts";
import { isDeadly, learnInert, type Edge, type ExplorationGraph, type InertClasses } from "./graph.ts";
import { untestedCandidates, type Candidate } from "./targets.ts";

export const TIER_STEPS = 8;

export interface PlanContext {
  readonly width: number;
  readonly height: number;
  readonly masked: Uint8Array;
  readonly available: readonly ActionId[];
  readonly actionCap: number;
  readonly seed: number;
}

export interface Decision {
  readonly actions: Action[];
  /** Why, in a sentence, for the plan text. */
  readonly reason: string;
  readonly kind: "explore" | "reset" | "retry" | "memoryless" | "none";
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

  if (graph.transitions === 0) return memoryless(graph, current, ctx);

  const inert = learnInert(graph);
  const found = nearestUntested(graph, current, ctx, inert);
  if (found) {
    const walk = found.path.map((e) => e.action);
    const actions = [...walk, found.candidate.action].slice(0, Math.max(1, ctx.actionCap));
    const where = walk.length === 0 ? "here" : `after walking ${walk.length} known step${walk.length === 1 ? "" : "s"}`;
    return {
      actions,
      reason: `try untested ${formatToolCall(found.candidate.action)} (${found.candidate.why}, tier ${found.candidate.tier}) ${where}`,
      kind: "explore",
    };
  }
  // Nothing new reachable from here: if the level's start reaches untested actions (moves can be one-way),
  // restart the level; otherwise retry the least-tried safe action (games may hide state).
  // RESET is always allowed (the runner accepts it whatever the game offers).
  const levelStart = graph.levelStart;
  if (levelStart !== undefined && levelStart !== current) {
    const fromStart = nearestUntested(graph, levelStart, ctx, inert);
    if (fromStart) return { actions: [{ id: 0 }], reason: "nothing untested is reachable from here; restart the level", kind: "reset" };
  }
  return retry(graph, current, ctx);
}

/** BFS over safe known edges within the level, stopping once no farther state can be cheaper. */
function nearestUntested(graph: ExplorationGraph, from: string, ctx: PlanContext, inert: InertClasses): Found | undefined {
  const start = graph.states.get(from);
  if (!start) return undefined;
  const via = new Map<string, { prev: string; edge: Edge } | null>([[from, null]]);
  let frontier = [from];
  let best: Found | undefined;
  for (let distance = 0; frontier.length > 0; distance++) {
    if (best && distance > best.cost) break;
    const next: string[] = [];
    for (const key of frontier) {
      const node = graph.states.get(key);
      if (!node) continue;
      const out = graph.edges.get(key);
      const list = untestedCandidates(node.board.cells, ctx.width, ctx.height, ctx.masked, ctx.available, out, inert);
      const top = list[0];
      if (top) {
        const found: Found = { path: pathTo(via, key), candidate: top, cost: distance + TIER_STEPS * top.tier, tie: tieBreak(ctx.seed, key + top.key) };
        if (!best || found.cost < best.cost || (found.cost === best.cost && (found.path.length < best.path.length
          || (found.path.length === best.path.length && found.tie < best.tie)))) best = found;
      }
      for (const edge of out?.values() ?? []) {
        if (isDeadly(edge) || via.has(edge.to)) continue;
        const target = graph.states.get(edge.to);
        if (!target || target.score !== start.score) continue;
        via.set(edge.to, { prev: key, edge });
        next.push(edge.to);
      }
    }
    frontier = next;
  }
  return best;
}

function pathTo(via: Map<string, { prev: string; edge: Edge } | null>, key: string): Edge[] {
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
  const list = untestedCandidates(node.board.cells, ctx.width, ctx.height, ctx.masked, ctx.available, undefined);
  if (list.length === 0) return { actions: [], reason: "no action is available", kind: "none" };
  const tier = list[0]!.tier;
  const pool = list.filter((c) => c.tier === tier);
  const pick = pool[tieBreak(ctx.seed, `memoryless:${graph.lastActionNumber}`) % pool.length]!;
  return { actions: [pick.action], reason: `no history to build a graph from; try ${formatToolCall(pick.action)} (${pick.why})`, kind: "memoryless" };
}

/** Everything known is tested: take the least-tried safe action here, hoping for a hidden-state change. */
function retry(graph: ExplorationGraph, current: string, ctx: PlanContext): Decision {
  const out = [...(graph.edges.get(current)?.values() ?? [])].filter((e) => !isDeadly(e));
  if (out.length === 0) {
    return { actions: [{ id: 0 }], reason: "every action tried here ended the attempt; restart the level", kind: "reset" };
  }
  out.sort((a, b) => a.tries - b.tries || tieBreak(ctx.seed, formatToolCall(a.action)) - tieBreak(ctx.seed, formatToolCall(b.action)));
  const pick = out[0]!;
  return { actions: [pick.action], reason: `everything reachable is tested; retry ${formatToolCall(pick.action)} (tried ${pick.tries}x)`, kind: "retry" };
}

function tieBreak(seed: number, text: string): number {
  return Number(Bun.hash.wyhash(text, BigInt(seed >>> 0)) & 0x7fffffffn);
}
