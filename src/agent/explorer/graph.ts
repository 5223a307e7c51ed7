// The graph of observed transitions (state, action) → state, per level, built by folding the logged steps
// in order: adding a step costs the same whatever came before, so the graph grows with new sections only.
// A state is the settled board with status indicators blanked, within one level. When the indicator mask
// changes the graph is folded again from the kept steps (cheap: boards are kept decoded).
// It also keeps what the explorer learns across states: which kinds of action never change anything.
import type { GridAction as Action } from "../../game-model.ts";
import { ClickMemory } from "./click-memory.ts";
import type { Indicator } from "./indicators.ts";
import { legendSymbolOf } from "./legend.ts";
import type { Step } from "./log-cursor.ts";
import { segment, type Segmentation } from "./segment.ts";
import { Surroundings } from "./surroundings.ts";

export interface Edge {
  readonly action: Action;
  /** Where the action led the last time it was taken here (games may hide state, so outcomes can vary). */
  to: string;
  tries: number;
  /** Tries after which the state was another one: an edge with tries > 0 and changes 0 is a no-op here. */
  changes: number;
  /** Times the action ended the attempt (GAME_OVER: the next section's Attempt rose on the same level). */
  deaths: number;
  /**
   * Deaths with a step meter on the board and far from spent: the action's own doing, not the budget's, so
   * a single one is not worth a second try.
   */
  ownDeaths: number;
}

export interface StateNode {
  readonly key: string;
  /** Levels completed while in this state (level = score + 1). */
  readonly score: number;
  readonly cells: Uint8Array;
  visits: number;
  /** Filled on first use: the board's components outside the mask. */
  seg?: Segmentation;
}

/** How often a kind of action changed the state, counted once per (state, action) tested. */
export interface Tally {
  tries: number;
  changes: number;
}

export interface ClickTry {
  readonly x: number;
  readonly y: number;
  readonly changed: boolean;
}

/** Key of an action within a state: clicks by their coordinates. */
export function actionKey(a: Action): string {
  return a.id === 6 ? `6:${a.x},${a.y}` : String(a.id);
}

/** An edge counts as deadly when more than half of its tries ended the attempt. */
export function isDeadly(e: Edge): boolean {
  return e.deaths * 2 > e.tries;
}

/** Tried, and nothing changed any time: the no-change memory. */
export function isNoop(e: Edge): boolean {
  return e.tries > 0 && e.changes === 0 && e.deaths === 0;
}

/**
 * Tried once, and that once ended the attempt: the action may be fatal, or the step budget simply ran out
 * on it. Worth one more try (late), since a budget death would otherwise wall off the rest of the level.
 */
export function diedOnce(e: Edge): boolean {
  return e.deaths === 1 && e.tries === 1 && e.ownDeaths === 0;
}

/** Cells of a meter's draining colour left when one more step may end the attempt (a meter step is small). */
const METER_LAST = 10;

/** Cells of a meter's draining colour left above which an attempt's end is not the budget's. */
const METER_FULL = 3 * METER_LAST;

/** Steps into an attempt before its meter's drain rate is trusted. */
const BUDGET_AFTER = 3;

/** Repeats of a slide that did nothing before a slide's end is taken for a stop. */
const SLIDE_EVIDENCE = 2;

/** Masked cells take this value, which no colour has. */
const MASKED = 255;

export class ExplorationGraph {
  readonly states = new Map<string, StateNode>();
  /** from-state key → action key → edge */
  readonly edges = new Map<string, Map<string, Edge>>();
  /** to-state key → the edges that led there at some time (an edge's `to` may since have moved on). */
  readonly incoming = new Map<string, { readonly from: string; readonly edge: Edge }[]>();
  /** The state the game is in after the last folded section, if that section has a board. */
  current: string | undefined;
  currentScore = 0;
  currentAttempt = 1;
  /** The header "Action N" of the newest section (-1 when unknown). */
  lastActionNumber = -1;
  /** Transitions recorded (each logged action whose before and after boards are known). */
  transitions = 0;
  /** Where the current attempt of the current level began (the board a RESET returns to). */
  levelStart: string | undefined;
  /** Steps folded so far. */
  folded = 0;
  /**
   * Steps a draining step meter leaves in this attempt, and the steps a whole attempt has, estimated from
   * how fast it drained since the attempt began (undefined without a meter that drained in three steps).
   */
  stepsLeft: number | undefined;
  attemptBudget: number | undefined;
  private attemptMeters: number[] = [];
  private attemptSteps = 0;
  /** Learned across states: moves by id, clicks by the clicked cell's colour and by the component's look. */
  readonly moves = new Map<number, Tally>();
  readonly clickColours = new Map<number, Tally>();
  readonly clickLooks = new Map<string, Tally>();
  /** Per level (score): where clicks were first tried in some state, and whether they changed it. */
  readonly clicks = new Map<number, ClickTry[]>();
  /** What clicks did, by the thing clicked (its place and look, its kind): see click-memory.ts. */
  readonly clickMemory = new ClickMemory();
  /** States filed by the surroundings of the moves that reached them: see surroundings.ts. */
  readonly surroundings: Surroundings;

  /** "a>b" → how often move b, right after move a, led back to the state before a: learned inverses. */
  readonly followUps = new Map<string, Tally>();
  /**
   * How often a move made again right after it slid (changed the state, its frames showing the thing on the
   * way through other places) changed the state again. A slide goes on until something stops it, so where
   * the game slides, the same move again usually does nothing (see slideStopped).
   */
  readonly slideRepeats: Tally = { tries: 0, changes: 0 };
  /**
   * Moves predicted by slideStopped when first tried in a state (tries), and how often they did change
   * the state (changes): a game where the prediction fails is not one of slides that stop.
   */
  readonly slideChecks: Tally = { tries: 0, changes: 0 };
  /** "<state>|<move id>": a slide by that move ended in that state. */
  private readonly slidInto = new Set<string>();
  /** The move that slid into the current state within this attempt, if the last step was such a slide. */
  private slid: number | undefined;
  /** The move that led into the current state (undefined after a click, a RESET or a no-op). */
  arrivedBy: number | undefined;
  /** How many times in a row that move was made. */
  streak = 0;
  private lastMove: number | undefined;
  /**
   * The last move that changed the state and the state it left, kept across repeats of it that changed
   * nothing (a bump into a wall leaves the player where it was): what a later move is checked against for
   * undoing it.
   */
  private undoMove: number | undefined;
  private undoFrom: string | undefined;
  private prevKey: string | undefined;
  private prevStep: Step | undefined;
  private lastEdge: Edge | undefined;
  /** Whether an attempt the last edge ended is the budget's: its first try, on an all but spent meter. */
  private lastEdgeForgiven = false;
  private readonly scratch: Uint8Array;
  private readonly maskedCells: Int32Array;

  /** Per meter, the cells along it and the colour that runs out: a death on a spent meter is the budget's. */
  private readonly meters: { cells: Int32Array; drains: number }[];

  constructor(
    readonly mask: Uint8Array,
    readonly maskKey: string,
    readonly width: number,
    readonly height: number,
    indicators: readonly Indicator[] = [],
  ) {
    this.scratch = new Uint8Array(width * height);
    this.surroundings = new Surroundings(width, mask, (k) => this.states.get(k)?.cells);
    this.meters = indicators
      .filter((i) => i.kind === "meter" && i.drains !== undefined)
      .map((i) => {
        const cells: number[] = [];
        for (let p = i.from; p <= i.to; p++) cells.push(i.axis === "row" ? i.line * width + p : p * width + i.line);
        return { cells: Int32Array.from(cells), drains: i.drains! };
      });
    const list: number[] = [];
    for (let i = 0; i < mask.length; i++) if (mask[i] === 1) list.push(i);
    this.maskedCells = Int32Array.from(list);
  }

  /** Key of a board in a level: "<score>:<hash of the masked board>". */
  key(score: number, cells: Uint8Array): string {
    let bytes = cells;
    if (this.maskedCells.length > 0) {
      this.scratch.set(cells);
      for (const i of this.maskedCells) this.scratch[i] = MASKED;
      bytes = this.scratch;
    }
    return `${score}:${Bun.hash.xxHash3(bytes).toString(16)}`;
  }

  segmentation(node: StateNode): Segmentation {
    return (node.seg ??= segment({ width: this.width, height: this.height, cells: node.cells }, this.mask));
  }

  add(step: Step): void {
    this.folded++;
    this.currentScore = step.score;
    this.currentAttempt = step.attempt;
    this.lastActionNumber = step.actionNumber;
    if (step.cells === undefined || step.kind === "other" || step.cells.length !== this.width * this.height) {
      this.prevKey = undefined;
      this.prevStep = undefined;
      this.lastEdge = undefined;
      this.current = undefined;
      this.lastMove = this.undoMove = this.undoFrom = undefined;
      this.slid = undefined;
      this.arrivedBy = undefined;
      this.streak = 0;
      this.clickMemory.arrivedByClick = undefined;
      return;
    }
    const key = this.key(step.score, step.cells);
    const node = this.states.get(key);
    if (node) node.visits++;
    else this.states.set(key, { key, score: step.score, cells: step.cells, visits: 1 });

    const prevStep = this.prevStep;
    const prevKey = this.prevKey;
    const sameLevel = prevStep !== undefined && prevStep.score === step.score;
    const attemptRose = sameLevel && step.attempt > prevStep.attempt;
    // A terminal game's action never reaches a grid game's log; ignored if it did.
    const logged = step.action;
    const action = logged !== undefined && logged.id !== "key" ? logged : undefined;
    if (step.kind === "initial" || action?.id === 0 || (prevStep !== undefined && step.score > prevStep.score))
      this.levelStart = key;
    this.noteBudget(
      step.cells,
      prevStep === undefined || !sameLevel || attemptRose || step.kind === "initial" || action?.id === 0,
    );
    // A level won: how the legends on the board just before read (see legend.ts) carries to the next level.
    if (prevStep !== undefined && prevKey !== undefined && step.score > prevStep.score) {
      const before = this.states.get(prevKey);
      const symbol = before && legendSymbolOf(this.segmentation(before));
      if (symbol !== undefined) this.clickMemory.legendSymbol = symbol;
    }
    if (step.kind === "action" && action !== undefined && action.id === 0) {
      // A RESET that opens a new attempt: the action before it is what ended the last one.
      if (attemptRose && this.lastEdge !== undefined && !this.lastEdgeForgiven) {
        this.lastEdge.deaths++;
        if (this.meterFull(prevStep.cells)) this.lastEdge.ownDeaths++;
      }
      this.lastEdge = undefined;
    } else if (
      step.kind === "action" &&
      action !== undefined &&
      action.id !== 7 &&
      prevKey !== undefined &&
      prevStep !== undefined &&
      step.score >= prevStep.score
    ) {
      // Undo (ACTION7) depends on history, not on the state, so it is no edge of this graph.
      let out = this.edges.get(prevKey);
      if (!out) this.edges.set(prevKey, (out = new Map()));
      const k = actionKey(action);
      let edge = out.get(k);
      const changed = key !== prevKey;
      if (!edge) {
        if (action.id !== 6 && this.slideStopped(prevKey, action.id)) {
          this.slideChecks.tries++;
          if (changed || attemptRose) this.slideChecks.changes++;
        }
        out.set(k, (edge = { action, to: key, tries: 0, changes: 0, deaths: 0, ownDeaths: 0 }));
        this.learn(prevKey, action, changed, key, this.movedBetween(step.between));
      }
      if (edge.to !== key || edge.tries === 0) {
        let into = this.incoming.get(key);
        if (!into) this.incoming.set(key, (into = []));
        if (!into.some((i) => i.edge === edge)) into.push({ from: prevKey, edge });
      }
      edge.to = key;
      edge.tries++;
      if (changed) edge.changes++;
      // What moves do around the player's place, for levels of places times configurations (surroundings.ts).
      if (action.id === 6 && changed && !attemptRose) this.surroundings.clicked(prevKey);
      if (action.id >= 1 && action.id <= 5) {
        if (edge.tries === 1) this.surroundings.tried(prevKey, k, !changed && !attemptRose, this.edges);
        if (changed && !attemptRose) this.surroundings.reached(key, prevStep.cells!, step.cells);
      }
      this.transitions++;
      // The section of the fatal action itself may already carry the new attempt (reset folded in).
      // A click tried for the first time as a meter ran out met the budget's end, not its own: forgiven once
      // (a combination's right press must not wall off the rest of it). A known step that keeps ending
      // attempts is counted (the walk there does not fit the budget). Moves are not forgiven: a move into a
      // hazard as the meter runs out is as likely, and forgiving them cost a level on the ARC sweep.
      const forgiven = action.id === 6 && edge.tries === 1 && this.meterSpent(prevStep.cells);
      if (attemptRose && !forgiven) {
        edge.deaths++;
        if (this.meterFull(prevStep.cells)) edge.ownDeaths++;
      }
      this.lastEdge = edge;
      this.lastEdgeForgiven = forgiven;
      this.noteFollowUp(action.id, prevKey, key);
      this.noteSlide(action.id, key, changed || attemptRose, !attemptRose && step.score === prevStep.score, step.between);
    } else {
      this.lastEdge = undefined;
      this.lastMove = this.undoMove = this.undoFrom = undefined;
      this.slid = undefined;
    }
    this.clickMemory.follow(sameLevel ? prevKey : undefined, key, step.kind === "action" ? action : undefined);
    this.streak =
      this.lastMove !== undefined && this.lastMove === this.arrivedBy ? this.streak + 1 : this.lastMove !== undefined ? 1 : 0;
    this.arrivedBy = this.lastMove;
    this.prevKey = key;
    this.prevStep = step;
    this.current = key;
  }

  /** Whether any of the cells an animation showed apart from the settled board is outside the mask. */
  private movedBetween(between: Int32Array | undefined): boolean {
    if (between === undefined) return false;
    for (const i of between) if (this.mask[i] !== 1) return true;
    return false;
  }

  /**
   * A meter all but run out on `cells` (at most METER_LAST cells of its draining colour left): an attempt that
   * ends on the next action ran out of steps, which says nothing about that action.
   */
  private meterSpent(cells: Uint8Array | undefined): boolean {
    if (cells === undefined) return false;
    for (const m of this.meters) {
      let left = 0;
      for (const i of m.cells) if (cells[i] === m.drains) left++;
      if (left <= METER_LAST) return true;
    }
    return false;
  }

  private noteBudget(cells: Uint8Array, starts: boolean): void {
    if (this.meters.length === 0) return;
    const left = this.meters.map((m) => {
      let n = 0;
      for (const i of m.cells) if (cells[i] === m.drains) n++;
      return n;
    });
    if (starts) {
      this.attemptMeters = left;
      this.attemptSteps = 0;
    } else this.attemptSteps++;
    this.stepsLeft = undefined;
    this.attemptBudget = undefined;
    if (this.attemptSteps < BUDGET_AFTER) return;
    left.forEach((n, i) => {
      const drained = (this.attemptMeters[i] ?? 0) - n;
      if (drained <= 0) return;
      const rate = drained / this.attemptSteps;
      const steps = Math.floor(n / rate);
      if (this.stepsLeft === undefined || steps < this.stepsLeft) {
        this.stepsLeft = steps;
        this.attemptBudget = Math.floor(this.attemptMeters[i]! / rate);
      }
    });
  }

  /**
   * A step meter is on the board and far from spent (more than METER_FULL cells of its draining colour
   * left): an attempt ending now is the action's own doing. False where no meter is known.
   */
  private meterFull(cells: Uint8Array | undefined): boolean {
    if (cells === undefined || this.meters.length === 0) return false;
    for (const m of this.meters) {
      let left = 0;
      for (const i of m.cells) if (cells[i] === m.drains) left++;
      if (left <= METER_FULL) return false;
    }
    return true;
  }

  /**
   * Whether move a probably does nothing at state s: a slide by a ended at s, and where the game slides, a
   * move made again right after its slide did nothing at least twice, and more often than not (a slide
   * stops where it cannot go on; sand-like stops, where it can, are the exception).
   */
  slideStopped(s: string, a: number): boolean {
    if (!this.slidInto.has(`${s}|${a}`)) return false;
    const failed = this.slideChecks.changes;
    if (failed >= SLIDE_EVIDENCE && failed * 3 > this.slideChecks.tries) return false;
    const idle = this.slideRepeats.tries - this.slideRepeats.changes;
    return idle >= SLIDE_EVIDENCE && idle * 3 >= this.slideRepeats.tries * 2;
  }

  /**
   * Counts a move made right after its own slide, and notes whether this step is a slide: a move that
   * changed the state within the attempt and level (`stays`) whose frames showed something outside the mask.
   */
  private noteSlide(id: number, to: string, changed: boolean, stays: boolean, between: Int32Array | undefined): void {
    const move = id >= 1 && id <= 5;
    if (move && id === this.slid) {
      this.slideRepeats.tries++;
      if (changed) this.slideRepeats.changes++;
    }
    this.slid = move && changed && stays && this.movedBetween(between) ? id : undefined;
    if (this.slid !== undefined) this.slidInto.add(`${to}|${id}`);
  }

  /** Whether move b undoes move a: it led straight back at least twice, and more often than not. */
  isInverse(a: number, b: number): boolean {
    const t = this.followUps.get(`${a}>${b}`);
    return t !== undefined && t.changes >= 2 && t.changes * 2 > t.tries;
  }

  private noteFollowUp(id: number, from: string, to: string): void {
    const move = id >= 1 && id <= 5;
    if (!move || from === to) {
      this.lastMove = undefined;
      // Only a bump of the same move keeps the pair (keeping it across any move that did nothing cleared
      // fewer levels on the sweeps: a level each on the ARC games and the committed ones).
      if (!move || id !== this.undoMove) this.undoMove = this.undoFrom = undefined;
      return;
    }
    if (this.undoMove !== undefined) {
      const k = `${this.undoMove}>${id}`;
      const t = this.followUps.get(k) ?? { tries: 0, changes: 0 };
      t.tries++;
      if (to === this.undoFrom) t.changes++;
      this.followUps.set(k, t);
    }
    this.lastMove = this.undoMove = id;
    this.undoFrom = from;
  }

  /**
   * `animated`: the section's animation showed something other than the settled board outside the mask.
   * A move or interact that did so (water poured and drained, a piece slid and came back) did something
   * even where the board settled where it was: its edge stays a no-op there (the same state gives the same
   * show), but its kind is not one that never does anything, so it is tested again in each new state.
   * Clicks learn from what they left on the board only: a wrong press of a code flashes and settles back,
   * and counting the flash as an effect reordered the presses and cost a level on the committed games.
   */
  private learn(from: string, a: Action, changed: boolean, to: string, animated: boolean): void {
    const bump = <K>(m: Map<K, Tally>, k: K, did = changed) => {
      const t = m.get(k) ?? { tries: 0, changes: 0 };
      t.tries++;
      if (did) t.changes++;
      m.set(k, t);
    };
    if (a.id !== 6) {
      bump(this.moves, a.id, changed || animated);
      return;
    }
    const node = this.states.get(from);
    if (node) {
      let list = this.clicks.get(node.score);
      if (!list) this.clicks.set(node.score, (list = []));
      list.push({ x: a.x, y: a.y, changed });
    }
    if (!node || a.x < 0 || a.y < 0 || a.x >= this.width || a.y >= this.height) return;
    const i = a.y * this.width + a.x;
    bump(this.clickColours, node.cells[i]!);
    const seg = this.segmentation(node);
    const id = seg.labels[i]!;
    if (id < 0) return;
    bump(this.clickLooks, seg.components[id]!.look);
    this.clickMemory.note(node.score, seg.components[id]!, changed, to);
  }
}
