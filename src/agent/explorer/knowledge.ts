// Everything the explorer knows, as a fold over the log's sections in order: the kept steps, the
// indicator statistics and the transition graph. Folding the sections of a whole log at once and folding
// them in several goes give the same knowledge, so a process that kept its fold (the cache below, keyed to
// the log's bytes through the cursor) and a fresh one (resume, the stateless arm) decide alike.
import type { Result } from "neverthrow";
import { ok } from "neverthrow";
import type { ProlongError } from "../../errors.ts";
import { ExplorationGraph } from "./graph.ts";
import { IndicatorStats, type IndicatorMask } from "./indicators.ts";
import { readNewSections, type Cursor, type Step } from "./log-cursor.ts";

export class Knowledge {
  readonly steps: Step[] = [];
  readonly stats: IndicatorStats;
  private graph: ExplorationGraph | undefined;
  /** The first board of the newest attempt, per level (score). */
  private readonly attemptStart = new Map<number, { attempt: number; cells: Uint8Array }>();
  private newest: Uint8Array | undefined;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.stats = new IndicatorStats(width, height);
  }

  fold(steps: readonly Step[]): void {
    for (const step of steps) {
      const prev = this.steps[this.steps.length - 1];
      this.steps.push(step);
      const cells = step.cells !== undefined && step.cells.length === this.width * this.height ? step.cells : undefined;
      if (cells !== undefined) this.newest = cells;
      if (prev === undefined || cells === undefined) {
        if (cells !== undefined) this.noteAttemptStart(step, cells);
        continue;
      }
      const joined =
        step.kind === "action" &&
        step.action !== undefined &&
        step.action.id !== 0 &&
        prev.cells !== undefined &&
        prev.kind !== "other" &&
        prev.score === step.score &&
        prev.attempt === step.attempt;
      if (joined) this.stats.addPair(prev.cells!, cells, step.action);
      const starts =
        step.kind === "initial" || step.action?.id === 0 || prev.score !== step.score || prev.attempt !== step.attempt;
      if (starts) this.noteAttemptStart(step, cells);
    }
  }

  /** The indicator mask as of now and the graph folded under it (refolded when the mask changed). */
  view(): { mask: IndicatorMask; graph: ExplorationGraph } {
    const mask = this.stats.mask(this.newest);
    if (this.graph === undefined || this.graph.maskKey !== mask.key) {
      this.graph = new ExplorationGraph(mask.cells, mask.key, this.width, this.height, mask.indicators);
    }
    const graph = this.graph;
    for (let i = graph.folded; i < this.steps.length; i++) graph.add(this.steps[i]!);
    return { mask, graph };
  }

  private noteAttemptStart(step: Step, cells: Uint8Array): void {
    const before = this.attemptStart.get(step.score);
    if (before !== undefined && before.attempt !== step.attempt) this.stats.addAttemptStarts(before.cells, cells);
    this.attemptStart.set(step.score, { attempt: step.attempt, cells });
  }
}

interface Cached {
  cursor: Cursor;
  knowledge: Knowledge;
}

/** Folds kept per log file, so that a turn reads and folds only the sections appended since the last one. */
const cache = new Map<string, Cached>();
const CACHE_ENTRIES = 8;

/** The knowledge of the log at `path`, folding only what is new since the cached fold (if its bytes still match). */
export function knowledgeOf(path: string): Result<Knowledge | undefined, ProlongError> {
  const held = cache.get(path);
  const read = readNewSections(path, held?.cursor);
  if (read.isErr()) {
    cache.delete(path);
    return read.map(() => undefined);
  }
  const { steps, cursor, restart, width, height } = read.value;
  if (cursor === undefined) {
    cache.delete(path);
    return ok(undefined);
  }
  const knowledge = !restart && held !== undefined ? held.knowledge : new Knowledge(width, height);
  knowledge.fold(steps);
  cache.delete(path); // re-inserted last: the map's order is the eviction order
  cache.set(path, { cursor, knowledge });
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return ok(knowledge);
}

/** Drops every kept fold (tests use it to compare a fresh read with a cached one). */
export function forgetKnowledge(): void {
  cache.clear();
}
