// Where clicks reconfigure the board (a button moves a bridge, a panel selects a piece) and moves walk a
// player, the states of a level are places times configurations, and the explorer would test every move at
// every place once per configuration. What a move does depends on where the player stands and what is
// around it: a wall that stopped the player at one place stops it there in every configuration that left
// the walls around that place as they were. A state reached by a move has a *place*: the box of cells that
// move changed (the player's old and new place), widened by half its longer side (the next step in every
// direction). Another state of the level that shows the same cells inside that box has the player at the same
// place with the same things around it. When a move was tested in such states and never changed anything
// there (and in none of them changed something), it probably does nothing here either: predict.ts makes it
// wait. Only on levels where a click has changed the board: on keyboard-only levels the same surroundings
// can hide what decides a move (a clone that replays the player's moves), and the prediction cost a level
// on the ARC sweep there. Once a move predicted to do nothing did something, the rule is not used again in
// this fold of the log (the game breaks it). Moves whose changes spread over much of the board (a scrolling view, a second
// player mirrored far away) give no place: their box says nothing about one.
import { isNoop, type Edge } from "./graph.ts";

/** A move whose changed cells span more than this share of the board gives no place. */
const MAX_BOX_SHARE = 1 / 8;
/** Widening of the changed box, as a share of its longer side (half: the next step of the player). */
const WIDEN = 0.5;

interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

interface Match {
  /** How many of the states where the move was tested have been compared. */
  scanned: number;
  /** Those whose cells inside the place agree. */
  readonly same: string[];
}

/** A state key is "<score>:<hash>": the level's part, with its colon. */
const levelOf = (state: string) => state.slice(0, state.indexOf(":") + 1);

export class Surroundings {
  /** State → its place (from the first move that reached it). */
  private readonly places = new Map<string, Box>();
  /** Move key → the states where it was tested, in order. */
  private readonly tested = new Map<string, string[]>();
  /** State and move → the states where the move was tested whose cells around the state's place agree. */
  private readonly matches = new Map<string, Match>();
  /** Levels (key prefixes) where a click changed the board. */
  private readonly reconfigured = new Set<string>();
  /** A move predicted to do nothing did something: the game breaks the rule, which is no longer used. */
  private misled = false;

  constructor(
    private readonly width: number,
    /** 1 where a cell is an indicator: left out of the comparison. */
    private readonly mask: Uint8Array,
    /** A state's cells. */
    private readonly cellsOf: (state: string) => Uint8Array | undefined,
  ) {}

  /** Notes that a click changed the board at `state`: its level is one of configurations. */
  clicked(state: string): void {
    this.reconfigured.add(levelOf(state));
  }

  /** Notes the place of state `to` from the move that led there from `before`, if it has none yet. */
  reached(to: string, before: Uint8Array, after: Uint8Array): void {
    if (this.places.has(to)) return;
    const { width, mask } = this;
    const height = after.length / width;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    for (let i = 0; i < after.length; i++) {
      if (before[i] === after[i] || mask[i] === 1) continue;
      const x = i % width;
      const y = (i - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    if (x1 < 0) return;
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (w * h > width * height * MAX_BOX_SHARE) return;
    const pad = Math.max(1, Math.ceil(Math.max(w, h) * WIDEN));
    this.places.set(to, {
      x0: Math.max(0, x0 - pad),
      y0: Math.max(0, y0 - pad),
      x1: Math.min(width - 1, x1 + pad),
      y1: Math.min(height - 1, y1 + pad),
    });
  }

  /**
   * Notes that move `k` was tried for the first time at state `s` (`still`: the board stayed as it was),
   * checking first what `quiet` said of it.
   */
  tried(s: string, k: string, still: boolean, edges: ReadonlyMap<string, ReadonlyMap<string, Edge>>): void {
    if (!still && this.quiet(s, k, edges)) this.misled = true;
    const list = this.tested.get(k);
    if (list) list.push(s);
    else this.tested.set(k, [s]);
  }

  /**
   * Whether move `k` probably does nothing at state `s`: on a level where clicks changed the board, in some
   * state showing the same cells around the place of `s` it was tested and never changed anything, and in
   * none such did it change something (or end an attempt).
   */
  quiet(s: string, k: string, edges: ReadonlyMap<string, ReadonlyMap<string, Edge>>): boolean {
    const box = this.places.get(s);
    const list = this.tested.get(k);
    if (this.misled || box === undefined || list === undefined || !this.reconfigured.has(levelOf(s))) return false;
    const id = `${s}|${k}`;
    let match = this.matches.get(id);
    if (!match) this.matches.set(id, (match = { scanned: 0, same: [] }));
    if (match.scanned < list.length) {
      const here = this.cellsOf(s);
      if (here === undefined) return false;
      const level = levelOf(s);
      // Only the states tested since the last look are compared: the cost of a question stays small.
      for (; match.scanned < list.length; match.scanned++) {
        const other = list[match.scanned]!;
        if (other === s || levelOf(other) !== level) continue;
        const there = this.cellsOf(other);
        if (there !== undefined && this.agree(here, there, box)) match.same.push(other);
      }
    }
    let quiet = false;
    for (const other of match.same) {
      const e = edges.get(other)?.get(k);
      if (e === undefined || e.tries === 0) continue;
      if (!isNoop(e)) return false;
      quiet = true;
    }
    return quiet;
  }

  private agree(a: Uint8Array, b: Uint8Array, box: Box): boolean {
    const { width, mask } = this;
    for (let y = box.y0; y <= box.y1; y++) {
      const row = y * width;
      for (let i = row + box.x0; i <= row + box.x1; i++) if (a[i] !== b[i] && mask[i] !== 1) return false;
    }
    return true;
  }
}
