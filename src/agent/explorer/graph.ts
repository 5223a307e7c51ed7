// Rebuilds, from the logged steps alone, the graph of observed transitions (state, action) → state,
// per level. This is the explorer's whole memory: it is recomputed from the log on every turn.
import type { Action } from "../../game-model.ts";
import type { LoggedBoard, LoggedStep } from "./read-log.ts";
import type { StateHasher } from "./state-hash.ts";

export interface Edge {
  readonly action: Action;
  /** Where the action led the last time it was taken here (games may hide state, so outcomes can vary). */
  to: string;
  tries: number;
  /** Times the action ended the attempt (GAME_OVER: the next section's Attempt rose on the same level). */
  deaths: number;
}

export interface StateNode {
  readonly key: string;
  /** Levels completed while in this state (level = score + 1). */
  readonly score: number;
  readonly board: LoggedBoard;
  visits: number;
}

export interface ExplorationGraph {
  readonly states: Map<string, StateNode>;
  /** from-state key → action key → edge */
  readonly edges: Map<string, Map<string, Edge>>;
  /** The state the game is in after the last logged section, if the log ends on a board. */
  readonly current?: string;
  readonly currentScore: number;
  readonly currentAttempt: number;
  /** The header "Action N" of the newest section (-1 when unknown). */
  readonly lastActionNumber: number;
  /** Transitions recorded (each logged action whose before and after boards are known). */
  readonly transitions: number;
  /** Where the current attempt of the current level began (the board a RESET returns to). */
  readonly levelStart?: string;
}

/** Key of an action within a state: clicks by their coordinates. */
export function actionKey(a: Action): string {
  return a.id === 6 ? `6:${a.x},${a.y}` : String(a.id);
}

/** An edge counts as deadly when more than half of its tries ended the attempt. */
export function isDeadly(e: Edge): boolean {
  return e.deaths * 2 > e.tries;
}

/**
 * Tried once, and that once ended the attempt: the action may be fatal, or the step budget simply ran out
 * on it. Worth one more try (late), since a budget death would otherwise wall off the rest of the level.
 */
export function diedOnce(e: Edge): boolean {
  return e.deaths === 1 && e.tries === 1;
}

export function buildGraph(steps: readonly LoggedStep[], hasher: StateHasher): ExplorationGraph {
  const states = new Map<string, StateNode>();
  const edges = new Map<string, Map<string, Edge>>();
  let prevKey: string | undefined;
  let prevStep: LoggedStep | undefined;
  let lastEdge: Edge | undefined;
  let transitions = 0;
  let levelStart: string | undefined;
  for (const step of steps) {
    if (step.board === undefined || step.kind === "other") {
      prevKey = undefined;
      prevStep = undefined;
      lastEdge = undefined;
      continue;
    }
    const key = hasher.key(step.score, step.board);
    const node = states.get(key);
    if (node) node.visits++;
    else states.set(key, { key, score: step.score, board: step.board, visits: 1 });

    const sameLevel = prevStep !== undefined && prevStep.score === step.score;
    const attemptRose = sameLevel && step.attempt > prevStep!.attempt;
    const action = step.action;
    if (step.kind === "initial" || action?.id === 0 || (prevStep !== undefined && step.score > prevStep.score)) levelStart = key;
    if (step.kind === "action" && action !== undefined && action.id === 0) {
      // A RESET that opens a new attempt: the action before it is what ended the last one.
      if (attemptRose && lastEdge !== undefined) lastEdge.deaths++;
      lastEdge = undefined;
    } else if (step.kind === "action" && action !== undefined && action.id !== 7 && prevKey !== undefined
      && prevStep !== undefined && step.score >= prevStep.score) {
      // Undo (ACTION7) depends on history, not on the state, so it is no edge of this graph.
      let out = edges.get(prevKey);
      if (!out) edges.set(prevKey, (out = new Map()));
      const k = actionKey(action);
      let edge = out.get(k);
      if (!edge) out.set(k, (edge = { action, to: key, tries: 0, deaths: 0 }));
      edge.to = key;
      edge.tries++;
      transitions++;
      // The section of the fatal action itself may already carry the new attempt (reset folded in).
      if (attemptRose) edge.deaths++;
      lastEdge = edge;
    } else {
      lastEdge = undefined;
    }
    prevKey = key;
    prevStep = step;
  }
  const last = steps[steps.length - 1];
  return {
    states, edges, transitions,
    ...(prevKey !== undefined ? { current: prevKey } : {}),
    ...(levelStart !== undefined ? { levelStart } : {}),
    currentScore: last?.score ?? 0,
    currentAttempt: last?.attempt ?? 1,
    lastActionNumber: last?.actionNumber ?? -1,
  };
}

/** Action classes that never changed anything: moves by id, clicks by the colour of the clicked cell. */
export interface InertClasses {
  readonly moves: ReadonlySet<number>;
  readonly clickColours: ReadonlySet<number>;
}

/** A class is inert after this many distinct (state, action) tries without any effect. Moves get more
 * slack: in a corridor a direction can bump into walls several times and still be the way on. */
const INERT_AFTER = 3;
const INERT_MOVE_AFTER = 8;

/**
 * Learns from the whole graph which kinds of action do nothing, so that later states try them last:
 * clicking the floor or walking into a wall once per state would otherwise cost most of the budget.
 */
export function learnInert(graph: ExplorationGraph): InertClasses {
  const moveTries = new Map<number, { tries: number; changes: number }>();
  const colourTries = new Map<number, { tries: number; changes: number }>();
  for (const [from, out] of graph.edges) {
    const board = graph.states.get(from)?.board;
    for (const edge of out.values()) {
      const a = edge.action;
      let bucket: Map<number, { tries: number; changes: number }>;
      let cls: number;
      if (a.id === 6) {
        if (!board || a.x >= board.width || a.y >= board.height) continue;
        const colour = board.colourAt(a.x, a.y);
        bucket = colourTries;
        cls = colour;
      } else {
        bucket = moveTries;
        cls = a.id;
      }
      const c = bucket.get(cls) ?? { tries: 0, changes: 0 };
      c.tries++;
      if (edge.to !== from) c.changes++;
      bucket.set(cls, c);
    }
  }
  const inert = (m: Map<number, { tries: number; changes: number }>, after: number) =>
    new Set([...m].filter(([, c]) => c.tries >= after && c.changes === 0).map(([k]) => k));
  return { moves: inert(moveTries, INERT_MOVE_AFTER), clickColours: inert(colourTries, INERT_AFTER) };
}
