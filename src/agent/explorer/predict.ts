// Predicting where an untested move leads from what the graph already holds, so that the explorer tests
// first the moves that probably lead somewhere new. Moves on a grid commute: when r —a→ s and r —b→ u and
// u —a→ v are known, b from s probably leads to v (the far corner of the parallelogram), a state already
// known. Learned inverses say the same more simply: when s was reached by a and b usually undoes a, b leads
// back. A prediction only makes a move wait (PREDICTED_TIERS); it is still tested once nothing unpredicted
// is near, since games may break either rule. Clicks are not predicted: toggles commute too, but on the
// ARC sweep predicting clicks cost a click game its level (a combination's order matters).
import type { Action } from "../../game-model.ts";
import { actionKey, isDeadly, type Edge, type ExplorationGraph } from "./graph.ts";

/** Tiers an action predicted to lead to a known state waits. */
export const PREDICTED_TIERS = 1;
/**
 * Tiers a move predicted to do nothing waits (it did nothing in the same surroundings: surroundings.ts; or
 * its slide ended here: graph.slideStopped).
 */
export const PREDICTED_QUIET_TIERS = 2;
/** Tiers a move predicted to end the attempt waits (the same hazard reached from another side). */
export const PREDICTED_DEATH_TIERS = 3;

const isMove = (a: Action): a is { id: 1 | 2 | 3 | 4 | 5 } => typeof a.id === "number" && a.id >= 1 && a.id <= 5;

const leads = (e: Edge | undefined, from: string): e is Edge => e !== undefined && e.changes > 0 && !isDeadly(e) && e.to !== from;

/** The known state that `b` from `s` probably leads to, if the graph predicts one. */
export function predictedOutcome(graph: ExplorationGraph, s: string, b: Action): string | undefined {
  if (!isMove(b)) return undefined;
  const bk = actionKey(b);
  for (const { from: r, edge: ea } of graph.incoming.get(s) ?? []) {
    if (ea.to !== s || !leads(ea, r)) continue;
    const a = ea.action;
    if (!isMove(a) || a.id === b.id) continue;
    if (graph.isInverse(a.id, b.id)) return r;
    const ak = actionKey(a);
    const eb = graph.edges.get(r)?.get(bk);
    if (!leads(eb, r)) continue;
    const ea2 = graph.edges.get(eb.to)?.get(ak);
    if (!leads(ea2, eb.to) || ea2.to === s) continue;
    return ea2.to;
  }
  return undefined;
}

/**
 * Whether `b` from `s` probably ends the attempt: r —a→ s and r —b→ u are known and a from u ended
 * attempts (deadly), so b from s walks into the same place from the other side.
 */
export function predictedDeath(graph: ExplorationGraph, s: string, b: Action): boolean {
  if (!isMove(b)) return false;
  const bk = actionKey(b);
  for (const { from: r, edge: ea } of graph.incoming.get(s) ?? []) {
    if (ea.to !== s || !leads(ea, r)) continue;
    const a = ea.action;
    if (!isMove(a) || a.id === b.id) continue;
    const eb = graph.edges.get(r)?.get(bk);
    if (!leads(eb, r)) continue;
    const ea2 = graph.edges.get(eb.to)?.get(actionKey(a));
    if (ea2 !== undefined && isDeadly(ea2)) return true;
  }
  return false;
}

/** Whether move `b` probably does nothing at `s` because a slide by `b` ended there (graph.slideStopped). */
export function predictedStop(graph: ExplorationGraph, s: string, b: Action): boolean {
  return isMove(b) && graph.slideStopped(s, b.id);
}

/** Whether move `b` probably does nothing at `s`: it did nothing in states with the same surroundings. */
export function predictedQuiet(graph: ExplorationGraph, s: string, b: Action): boolean {
  if (!isMove(b)) return false;
  return graph.surroundings.quiet(s, actionKey(b), graph.edges);
}
